//! The allocation limit: a test case that asks for more than a limit in one allocation
//! fails, as under libFuzzer's `-malloc_limit_mb`.
//!
//! A parser that reserves gigabytes from a length field (`Vec::with_capacity(n)`) is a bug a
//! fuzzer should report, but Linux grants such a reservation without touching a page, so
//! nothing fails on its own. In the builds of `cargo tapefuzz` (the `libfuzzer` and
//! `sancov-callbacks` features, glibc Linux, no AddressSanitizer) this module defines
//! `malloc`, `calloc` and `realloc`: each goes to glibc's own (`__libc_malloc`, …) and its
//! size is checked.
//!
//! - Under libFuzzer (`cargo tapefuzz fuzz`), libFuzzer installs its malloc hook
//!   ([`__sanitizer_install_malloc_and_free_hooks`]) and every size goes to it: libFuzzer
//!   stops on one larger than `-malloc_limit_mb` (by default `-rss_limit_mb`, 2,048 MB) and
//!   saves the input as `oom-…`, as it does under a sanitizer.
//! - Otherwise (the engine's runs: `greybox`, `run`, `import`, `shrink`, replays of
//!   regressions) the engine sets the limit ([`set_limit`], from `TAPEFUZZ_MALLOC_LIMIT_MB`)
//!   and the largest request over it is remembered; the property layer takes it
//!   ([`take_over`]) when the test case returns and fails the test case with it. The
//!   allocation itself succeeds, so code that goes on to fill gigabytes runs until it
//!   finishes or the timeout ends it.
//!
//! Elsewhere (plain `cargo test` builds, other platforms, AddressSanitizer builds, whose
//! runtime owns `malloc` and gives libFuzzer the hooks itself) nothing is interposed and
//! [`take_over`] is always `None`. `free` is never wrapped: libFuzzer's free hook only
//! traces (`-trace_malloc` therefore shows allocations, not frees). `posix_memalign` and
//! `aligned_alloc` (Rust's allocator for alignments above 16 bytes) are not checked.

use std::sync::atomic::{AtomicUsize, Ordering};

/// The limit in bytes (0: none).
static LIMIT: AtomicUsize = AtomicUsize::new(0);
/// The largest request over [`LIMIT`] since the last [`take_over`] (0: none).
static OVER: AtomicUsize = AtomicUsize::new(0);

/// The default limit, libFuzzer's: 2,048 MB.
pub const DEFAULT_LIMIT_MB: u64 = 2048;

/// Whether this build checks allocations (see the module docs); [`set_limit`] does nothing
/// in one that does not.
pub const CHECKED: bool = cfg!(all(
    any(feature = "libfuzzer", feature = "sancov-callbacks"),
    target_os = "linux",
    target_env = "gnu",
    not(tapefuzz_asan)
));

/// Sets the limit for the engine's runs: `Some(bytes)`, or `None` for no limit. Process-wide;
/// a request already remembered stays until [`take_over`].
pub fn set_limit(bytes: Option<u64>) {
    let b = bytes.map_or(0, |b| usize::try_from(b).unwrap_or(usize::MAX).max(1));
    LIMIT.store(b, Ordering::Relaxed);
}

/// The limit in bytes, when one is set.
pub fn limit() -> Option<u64> {
    match LIMIT.load(Ordering::Relaxed) {
        0 => None,
        b => Some(b as u64),
    }
}

/// The largest single request over the limit since the last call (from any thread), and
/// forgets it: `None` when there was none (always in a build that does not check).
pub fn take_over() -> Option<u64> {
    // A plain load first: the common case writes nothing.
    if OVER.load(Ordering::Relaxed) == 0 {
        return None;
    }
    match OVER.swap(0, Ordering::Relaxed) {
        0 => None,
        n => Some(n as u64),
    }
}

#[cfg(all(
    any(feature = "libfuzzer", feature = "sancov-callbacks"),
    target_os = "linux",
    target_env = "gnu",
    not(tapefuzz_asan)
))]
mod interposed {
    use super::{LIMIT, OVER};
    use std::ffi::{c_int, c_void};
    use std::sync::atomic::{AtomicPtr, Ordering};

    /// Notes a request of `size` bytes against the limit.
    #[inline(always)]
    fn check(size: usize) {
        let limit = LIMIT.load(Ordering::Relaxed);
        if limit != 0 && size > limit {
            OVER.fetch_max(size, Ordering::Relaxed);
        }
    }

    /// libFuzzer's malloc hook, once it has installed it (null before).
    static HOOK: AtomicPtr<c_void> = AtomicPtr::new(std::ptr::null_mut());

    type MallocHook = unsafe extern "C" fn(*const c_void, usize);

    unsafe extern "C" {
        fn __libc_malloc(size: usize) -> *mut c_void;
        fn __libc_calloc(n: usize, size: usize) -> *mut c_void;
        fn __libc_realloc(p: *mut c_void, size: usize) -> *mut c_void;
    }

    /// Tells libFuzzer's hook of an allocation of `size` bytes at `p`, or checks `size`
    /// against the engine's limit when there is no hook.
    #[inline(always)]
    fn report(p: *const c_void, size: usize) {
        let hook = HOOK.load(Ordering::Relaxed);
        if hook.is_null() {
            check(size);
        } else {
            // SAFETY: only ever set from `__sanitizer_install_malloc_and_free_hooks`, to
            // libFuzzer's `MallocHook`, which has this signature.
            unsafe { std::mem::transmute::<*mut c_void, MallocHook>(hook)(p, size) }
        }
    }

    /// The sanitizer interface libFuzzer calls at start-up to install its hooks: keeps the
    /// malloc hook (the free hook only traces, see the module docs). Returns 1 (installed).
    ///
    /// # Safety
    /// `malloc_hook` is null or a function of the sanitizer hook's signature.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn __sanitizer_install_malloc_and_free_hooks(
        malloc_hook: Option<MallocHook>,
        _free_hook: Option<unsafe extern "C" fn(*const c_void)>,
    ) -> c_int {
        let p = malloc_hook.map_or(std::ptr::null_mut(), |f| f as *mut c_void);
        HOOK.store(p, Ordering::Relaxed);
        1
    }

    /// glibc's `malloc`, its size checked.
    ///
    /// # Safety
    /// As C's `malloc`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn malloc(size: usize) -> *mut c_void {
        // SAFETY: glibc's allocator, as C's malloc.
        let p = unsafe { __libc_malloc(size) };
        report(p, size);
        p
    }

    /// glibc's `calloc`, its size checked.
    ///
    /// # Safety
    /// As C's `calloc`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn calloc(n: usize, size: usize) -> *mut c_void {
        // SAFETY: glibc's allocator, as C's calloc.
        let p = unsafe { __libc_calloc(n, size) };
        report(p, n.saturating_mul(size));
        p
    }

    /// glibc's `realloc`, its new size checked.
    ///
    /// # Safety
    /// As C's `realloc`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn realloc(p: *mut c_void, size: usize) -> *mut c_void {
        // SAFETY: glibc's allocator, as C's realloc; `p` came from it.
        let q = unsafe { __libc_realloc(p, size) };
        report(q, size);
        q
    }
}

#[cfg(all(
    any(feature = "libfuzzer", feature = "sancov-callbacks"),
    target_os = "linux",
    target_env = "gnu",
    not(tapefuzz_asan)
))]
pub use interposed::{__sanitizer_install_malloc_and_free_hooks, calloc, malloc, realloc};
