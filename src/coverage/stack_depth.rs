//! The deepest stack a test case reached, as a coverage feature (libFuzzer's stack depth).
//!
//! Code compiled with `-sanitizer-coverage-stack-depth` stores, on entry to each
//! instrumented function, the stack pointer into the thread-local `__sancov_lowest_stack`
//! when it is lower than what is there. Setting it to the current stack pointer before a
//! test case and reading it after gives how deep the test case went: an input that nests one
//! level deeper (a recursive parser one more level in) is new coverage even when it reaches
//! no new edge. libFuzzer defines the thread-local and counts depths on a log scale
//! ([`step`]); the in-process engine does the same here.
//!
//! The thread-local is defined only where it can be read without nightly Rust's
//! `#[thread_local]`: with the `sancov-callbacks` feature on x86-64 Linux, in assembly
//! ([`available`]). Elsewhere the depth reads as 0 and adds no feature.

/// Number of distinct depth features: [`step`] of the largest depth, plus one.
pub const STEPS: usize = 496;

/// libFuzzer's step function, about `8 * log2(words)`: depths up to 7 words count one by
/// one, then eight steps per doubling. `step(0) == 0`.
pub fn step(words: usize) -> usize {
    if words == 0 {
        return 0;
    }
    let log2 = words.ilog2() as usize;
    if log2 < 3 {
        return words;
    }
    let shift = log2 - 3;
    (shift + 1) * 8 + ((words >> shift) & 7)
}

/// Whether this build defines `__sancov_lowest_stack` (so [`deepest`] can say something).
pub const fn available() -> bool {
    cfg!(all(
        feature = "sancov-callbacks",
        target_os = "linux",
        target_arch = "x86_64"
    ))
}

#[cfg(all(
    feature = "sancov-callbacks",
    target_os = "linux",
    target_arch = "x86_64"
))]
mod tls {
    // The thread-local the instrumentation writes, 8 bytes of zero-initialised TLS, exported
    // so that the instrumented crates' initial-exec references resolve to it (libFuzzer
    // defines the same symbol; this feature is never built with libFuzzer).
    core::arch::global_asm!(
        ".pushsection .tbss,\"awT\",@nobits",
        ".globl __sancov_lowest_stack",
        ".type __sancov_lowest_stack,@tls_object",
        ".size __sancov_lowest_stack,8",
        ".p2align 3",
        "__sancov_lowest_stack:",
        ".zero 8",
        ".popsection",
    );

    /// Sets this thread's `__sancov_lowest_stack` to `value`.
    #[inline]
    pub fn set(value: usize) {
        // SAFETY: an initial-exec access to the 8-byte thread-local defined above.
        unsafe {
            core::arch::asm!(
                "mov {t}, qword ptr [rip + __sancov_lowest_stack@GOTTPOFF]",
                "mov qword ptr fs:[{t}], {v}",
                t = out(reg) _,
                v = in(reg) value,
                options(nostack, preserves_flags),
            );
        }
    }

    /// This thread's `__sancov_lowest_stack`.
    #[inline]
    pub fn get() -> usize {
        let value: usize;
        // SAFETY: as in `set`.
        unsafe {
            core::arch::asm!(
                "mov {t}, qword ptr [rip + __sancov_lowest_stack@GOTTPOFF]",
                "mov {v}, qword ptr fs:[{t}]",
                t = out(reg) _,
                v = out(reg) value,
                options(nostack, preserves_flags, readonly),
            );
        }
        value
    }
}

/// Where a test case's stack starts: the current stack position, recorded as the lowest so
/// far. Returns it, for [`deepest`].
#[inline(never)]
pub fn start() -> usize {
    let here = 0u8;
    let at = std::hint::black_box(&here) as *const u8 as usize;
    #[cfg(all(
        feature = "sancov-callbacks",
        target_os = "linux",
        target_arch = "x86_64"
    ))]
    tls::set(at);
    at
}

/// Bytes below `start` (what [`start`] returned) that an instrumented function's frame
/// reached since; 0 when none went deeper, or without [`available`].
pub fn deepest(start: usize) -> usize {
    #[cfg(all(
        feature = "sancov-callbacks",
        target_os = "linux",
        target_arch = "x86_64"
    ))]
    {
        let lowest = tls::get();
        if lowest != 0 {
            return start.saturating_sub(lowest);
        }
    }
    let _ = start;
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_follow_libfuzzer() {
        // libFuzzer's own assertions, and the edges of the scale.
        assert_eq!(step(1024), 64);
        assert_eq!(step(1024 * 4), 80);
        assert_eq!(step(1024 * 1024), 144);
        assert_eq!((step(0), step(1), step(7), step(8)), (0, 1, 7, 8));
        assert_eq!(step(usize::MAX), STEPS - 1);
        let all: Vec<usize> = (0..100_000).map(step).collect();
        assert!(all.windows(2).all(|w| w[0] <= w[1]), "monotone");
    }

    #[test]
    fn nothing_deeper_is_depth_zero() {
        let s = start();
        assert_eq!(deepest(s), 0, "no instrumented code ran");
    }

    #[cfg(all(
        feature = "sancov-callbacks",
        target_os = "linux",
        target_arch = "x86_64"
    ))]
    #[test]
    fn what_the_instrumentation_writes_is_read_back_per_thread() {
        let s = start();
        // What an instrumented function 800 bytes further down would store.
        tls::set(s - 800);
        assert_eq!(deepest(s), 800);
        let other = std::thread::spawn(|| {
            let s = start();
            deepest(s)
        });
        assert_eq!(other.join().unwrap(), 0, "another thread has its own");
        assert_eq!(deepest(s), 800);
    }
}
