//! Command-line runs stop cleanly on SIGINT and SIGTERM: the first signal asks the run to
//! stop at its next test case ([`crate::engine::interrupt`]), so its flight record is
//! removed and its statistics and JSON summary are given, as libFuzzer does; a second one
//! ends the process at once (the default action, restored by the first). Plain `cargo test`
//! never installs this: a test run stopped by Ctrl-C dies as libtest's always has.

/// Installs the handlers (once per process; later calls do nothing). On platforms without
/// POSIX signals, does nothing.
pub fn stop_cleanly_on_signals() {
    #[cfg(unix)]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            extern "C" fn on_signal(signal: libc::c_int) {
                crate::engine::interrupt(signal);
            }
            for signal in [libc::SIGINT, libc::SIGTERM] {
                // SAFETY: a plain sigaction with a handler that only stores an atomic
                // (async-signal-safe); SA_RESETHAND restores the default for a second signal.
                unsafe {
                    let mut action: libc::sigaction = std::mem::zeroed();
                    action.sa_sigaction = on_signal as *const () as libc::sighandler_t;
                    action.sa_flags = libc::SA_RESETHAND | libc::SA_RESTART;
                    libc::sigemptyset(&mut action.sa_mask);
                    libc::sigaction(signal, &action, std::ptr::null_mut());
                }
            }
        });
    }
}

/// The exit status of a command-line run that a signal stopped cleanly: 128 plus the
/// signal's number (130 for SIGINT, 143 for SIGTERM), as a shell reports a process the
/// signal killed; `None` when no signal asked the run to stop.
pub fn interrupted_exit_status() -> Option<i32> {
    crate::engine::interrupted().map(|s| 128 + s)
}
