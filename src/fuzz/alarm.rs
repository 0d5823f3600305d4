//! libFuzzer's `-timeout` inside a test binary.
//!
//! libFuzzer checks for a slow input on `SIGALRM` from an interval timer, and its handler does
//! nothing unless it runs on the thread that started the fuzzer. A plain fuzz target runs
//! libFuzzer on the main thread, where the kernel usually delivers the signal; under
//! `cargo tapefuzz fuzz` libFuzzer runs on libtest's test thread, and the signal lands on the
//! main thread, which waits for the test: a hanging input hung the run for good. Here the
//! handler libFuzzer installed is wrapped: on the fuzzing thread it runs as it is; on any other
//! thread the signal is sent on to the fuzzing thread.

use std::sync::OnceLock;

/// The fuzzing thread and the handler libFuzzer installed.
struct Forward {
    thread: libc::pthread_t,
    previous: libc::sigaction,
}

// SAFETY: plain data (a thread id, a handler address, a signal mask), only read.
unsafe impl Sync for Forward {}
unsafe impl Send for Forward {}

static FORWARD: OnceLock<Forward> = OnceLock::new();

extern "C" fn forward(sig: libc::c_int, info: *mut libc::siginfo_t, context: *mut libc::c_void) {
    let Some(f) = FORWARD.get() else {
        return;
    };
    // SAFETY: `pthread_self` and `pthread_kill` are async-signal-safe; the thread is alive
    // while libFuzzer runs (the process ends inside it).
    unsafe {
        if libc::pthread_equal(libc::pthread_self(), f.thread) == 0 {
            libc::pthread_kill(f.thread, sig);
            return;
        }
        let handler = f.previous.sa_sigaction;
        if f.previous.sa_flags & libc::SA_SIGINFO != 0 {
            let h: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                std::mem::transmute(handler);
            h(sig, info, context);
        } else {
            let h: extern "C" fn(libc::c_int) = std::mem::transmute(handler);
            h(sig);
        }
    }
}

/// Routes `SIGALRM` to the calling thread's libFuzzer handler, once libFuzzer has installed
/// one (`-timeout` above 0); does nothing when there is none, or on a second call.
pub fn forward_to_this_thread() {
    // SAFETY: sigaction queried and set with valid structures; the new handler only reads
    // `FORWARD`, which is set before it is installed.
    unsafe {
        let mut previous: libc::sigaction = std::mem::zeroed();
        if libc::sigaction(libc::SIGALRM, std::ptr::null(), &mut previous) != 0 {
            return;
        }
        if previous.sa_sigaction == libc::SIG_DFL || previous.sa_sigaction == libc::SIG_IGN {
            return;
        }
        let thread = libc::pthread_self();
        if FORWARD.set(Forward { thread, previous }).is_err() {
            return;
        }
        let mut ours = previous;
        ours.sa_sigaction = forward as *const () as libc::sighandler_t;
        ours.sa_flags |= libc::SA_SIGINFO;
        libc::sigaction(libc::SIGALRM, &ours, std::ptr::null_mut());
    }
}
