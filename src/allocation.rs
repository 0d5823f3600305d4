//! The allocation limit: a test case that asks for a limit's worth of bytes or more in one
//! allocation fails, as under libFuzzer's `-malloc_limit_mb`.
//!
//! A parser that reserves gigabytes from a length field (`Vec::with_capacity(n)`) is a bug a
//! fuzzer should report, but Linux grants such a reservation without touching a page, so
//! nothing fails on its own. In the builds of `cargo tapefuzz` (the `libfuzzer` and
//! `sancov-callbacks` features, glibc Linux, no AddressSanitizer) this module defines
//! `malloc`, `calloc` and `realloc`: each goes to glibc's own (`__libc_malloc`, …) and its
//! size is checked.
//!
//! - Under libFuzzer (`cargo tapefuzz fuzz`), libFuzzer installs its malloc hook
//!   (`__sanitizer_install_malloc_and_free_hooks`) and every size goes to it: libFuzzer
//!   stops on one of `-malloc_limit_mb` or more (by default `-rss_limit_mb`, 2,048 MB) and
//!   saves the input as `oom-…`, as it does under a sanitizer.
//! - Otherwise (the engine's runs in such a build: `greybox`, and `fuzz`'s import of its
//!   `oom-` inputs) the engine sets the limit ([`set_limit`], from
//!   `TAPEFUZZ_MALLOC_LIMIT_MB`; a test case run in a process of its own gets its parent's)
//!   and each request at or over it is counted ([`over_count`]) and its size kept
//!   ([`last_over`]); the property layer fails a test case during which the count moved.
//!   The allocation itself succeeds, so code that goes on to fill gigabytes runs until it
//!   finishes or the timeout ends it.
//!
//! Elsewhere (plain `cargo test` builds, other platforms, AddressSanitizer builds, whose
//! runtime owns `malloc` and gives libFuzzer the hooks itself) nothing is interposed and the
//! count never moves. A crate of the user's that exports its own `malloc` (an allocator
//! crate built to override the C library's) cannot be linked with these builds. `free` is never wrapped: libFuzzer's free hook only
//! traces (`-trace_malloc` therefore shows allocations, not frees). `posix_memalign` and
//! `aligned_alloc` (Rust's allocator for alignments above 16 bytes) are not checked.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// The limit in bytes (0: none).
static LIMIT: AtomicUsize = AtomicUsize::new(0);
/// Requests at or over [`LIMIT`] so far.
static OVER_COUNT: AtomicU64 = AtomicU64::new(0);
/// The size of the last of them.
static LAST_OVER: AtomicUsize = AtomicUsize::new(0);

/// The default limit, libFuzzer's: 2,048 MB.
pub const DEFAULT_LIMIT_MB: u64 = 2048;

/// The largest limit `TAPEFUZZ_MALLOC_LIMIT_MB` takes: 2^20 MB (1 TiB, more than any
/// allocation that succeeds).
pub const MAX_LIMIT_MB: u64 = 1 << 20;

/// Whether this build checks allocations (see the module docs); in one that does not,
/// [`set_limit`] only stores the limit and [`over_count`] stays 0.
pub const CHECKED: bool = cfg!(all(
    any(feature = "libfuzzer", feature = "sancov-callbacks"),
    target_os = "linux",
    target_env = "gnu",
    not(tapefuzz_asan)
));

/// Sets the limit for the engine's runs: `Some(bytes)`, or `None` (or `Some(0)`) for no
/// limit. Process-wide.
pub fn set_limit(bytes: Option<u64>) {
    let b = bytes.map_or(0, |b| usize::try_from(b).unwrap_or(usize::MAX));
    LIMIT.store(b, Ordering::Relaxed);
}

/// The limit in bytes, when one is set.
pub fn limit() -> Option<u64> {
    match LIMIT.load(Ordering::Relaxed) {
        0 => None,
        b => Some(b as u64),
    }
}

/// How many requests at or over the limit the process has made (from any thread): a test
/// case during which this moved asked for too much. Never reset, so a check nested in
/// another (a state machine's action inside its property) cannot hide it from the outer one.
pub fn over_count() -> u64 {
    OVER_COUNT.load(Ordering::Relaxed)
}

/// The size in bytes of the last request at or over the limit (0 before the first).
pub fn last_over() -> u64 {
    LAST_OVER.load(Ordering::Relaxed) as u64
}

#[cfg(all(
    any(feature = "libfuzzer", feature = "sancov-callbacks"),
    target_os = "linux",
    target_env = "gnu",
    not(tapefuzz_asan)
))]
mod interposed {
    use super::{LAST_OVER, LIMIT, OVER_COUNT};
    use std::ffi::{c_int, c_void};
    use std::sync::atomic::{AtomicPtr, Ordering};

    /// Notes a request of `size` bytes against the limit (at the limit counts, as in
    /// libFuzzer's hook).
    #[inline(always)]
    fn check(size: usize) {
        let limit = LIMIT.load(Ordering::Relaxed);
        if limit != 0 && size >= limit {
            LAST_OVER.store(size, Ordering::Relaxed);
            OVER_COUNT.fetch_add(1, Ordering::Relaxed);
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
