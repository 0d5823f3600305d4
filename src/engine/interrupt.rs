//! A run asked to stop from outside (SIGINT, SIGTERM): the generate phase ends at the next
//! test case as if its budget had run out, so the run finishes as usual — its flight record
//! removed, its statistics and summary given — instead of dying with a test case in flight
//! (libFuzzer's `-handle_int` / `-handle_term`). The engine only reads the flag; whoever
//! owns the process sets it (`tapefuzz::serve` installs the signal handlers for command-line
//! runs; plain `cargo test` keeps the default, dying at once).

use std::sync::atomic::{AtomicI32, Ordering};

/// The signal that asked the runs of this process to stop; 0 while none has.
static INTERRUPTED: AtomicI32 = AtomicI32::new(0);

/// Asks every run of this process to stop at its next test case, because of `signal`
/// (a signal number; any non-zero value). The first signal is the one remembered (a
/// SIGTERM after a SIGINT still reports SIGINT). Async-signal-safe: one atomic operation.
/// Nothing clears it: a process asked to stop stays asked.
pub fn interrupt(signal: i32) {
    let _ = INTERRUPTED.compare_exchange(0, signal, Ordering::Relaxed, Ordering::Relaxed);
}

/// The signal that asked the runs to stop, if one did ([`interrupt`]).
#[inline]
pub fn interrupted() -> Option<i32> {
    match INTERRUPTED.load(Ordering::Relaxed) {
        0 => None,
        s => Some(s),
    }
}

/// The conventional name of a signal number, for a person (`SIGINT`, `SIGTERM`, else
/// `signal N`).
pub fn signal_name(signal: i32) -> String {
    match signal {
        1 => "SIGHUP".into(),
        2 => "SIGINT".into(),
        15 => "SIGTERM".into(),
        s => format!("signal {s}"),
    }
}
