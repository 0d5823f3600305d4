//! Command-line runs stop cleanly on SIGINT and SIGTERM: the first signal asks the run to
//! stop at its next test case ([`crate::engine::interrupt`]), so its flight record is
//! removed and its statistics and JSON summary are given, as libFuzzer does; a second
//! Ctrl-C ends the process at once. Plain `cargo test` never installs this: a test run
//! stopped by Ctrl-C dies as libtest's always has.

/// Installs the handlers (once per process; later calls do nothing). A signal the process
/// inherited as ignored (a background job started without job control ignores SIGINT) stays
/// ignored. The first signal asks the runs to stop; a SIGINT after it ends the process at
/// once (SIGINT's default action); a repeated SIGTERM is ignored, because `timeout` and
/// CI runners send it to the process and to its group, so a process may get it twice. On
/// platforms without POSIX signals, does nothing.
pub fn stop_cleanly_on_signals() {
    #[cfg(unix)]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            extern "C" fn on_signal(signal: libc::c_int) {
                if signal == libc::SIGINT && crate::engine::interrupted().is_some() {
                    // SAFETY: signal(2) and raise(3) are async-signal-safe.
                    unsafe {
                        libc::signal(libc::SIGINT, libc::SIG_DFL);
                        libc::raise(libc::SIGINT);
                    }
                    return;
                }
                crate::engine::interrupt(signal);
            }
            for signal in [libc::SIGINT, libc::SIGTERM] {
                // SAFETY: sigaction(2) with a handler that only stores an atomic, or restores
                // the default and raises (all async-signal-safe); the old action is read
                // first to keep an inherited SIG_IGN.
                unsafe {
                    let mut old: libc::sigaction = std::mem::zeroed();
                    if libc::sigaction(signal, std::ptr::null(), &mut old) == 0
                        && old.sa_sigaction == libc::SIG_IGN
                    {
                        continue;
                    }
                    let mut action: libc::sigaction = std::mem::zeroed();
                    action.sa_sigaction = on_signal as *const () as libc::sighandler_t;
                    action.sa_flags = libc::SA_RESTART;
                    libc::sigemptyset(&mut action.sa_mask);
                    libc::sigaction(signal, &action, std::ptr::null_mut());
                }
            }
        });
    }
}

/// The exit status of a command-line client: 1 when a property `failed`; else 130 or 143
/// when SIGINT or SIGTERM stopped the runs (cleanly, their summaries printed); else 0.
pub fn exit_status(failed: bool) -> i32 {
    if failed {
        return 1;
    }
    interrupted_exit_status().unwrap_or(0)
}

/// The exit status of a command-line run that a signal stopped cleanly: 128 plus the
/// signal's number (130 for SIGINT, 143 for SIGTERM), as a shell reports a process the
/// signal killed; `None` when no signal asked the run to stop.
pub fn interrupted_exit_status() -> Option<i32> {
    crate::engine::interrupted().map(|s| 128 + s)
}
