//! libFuzzer's `-malloc_limit_mb` without a sanitizer (glibc Linux, `cargo tapefuzz fuzz`).
//!
//! libFuzzer stops on a single allocation larger than `-malloc_limit_mb` (by default
//! `-rss_limit_mb`, 2,048 MB) and saves the input as `oom-…` — but only when a sanitizer
//! runtime gives it malloc hooks (`__sanitizer_install_malloc_and_free_hooks`). Under
//! `cargo fuzz run -s none` there is none, so a parser that reserves gigabytes from a length
//! field (`Vec::with_capacity(n)`, which Linux grants without touching a page) is never
//! reported. Here the hook installer and `malloc` / `calloc` / `realloc` are defined: each
//! allocation goes to glibc's own (`__libc_malloc`, …) and its size to libFuzzer's hook,
//! which compares it with the limit. `free` is not wrapped: libFuzzer's free hook only
//! traces (`-trace_malloc` therefore shows allocations, not frees, in this build).
//!
//! Not in a build with AddressSanitizer (`--sanitizer address`, which sets
//! `cfg(tapefuzz_asan)` on this crate): its runtime owns `malloc` and gives libFuzzer the
//! hooks itself.

use std::ffi::{c_int, c_void};
use std::sync::atomic::{AtomicPtr, Ordering};

/// libFuzzer's malloc hook, once it has installed it (null before).
static HOOK: AtomicPtr<c_void> = AtomicPtr::new(std::ptr::null_mut());

type MallocHook = unsafe extern "C" fn(*const c_void, usize);

unsafe extern "C" {
    fn __libc_malloc(size: usize) -> *mut c_void;
    fn __libc_calloc(n: usize, size: usize) -> *mut c_void;
    fn __libc_realloc(p: *mut c_void, size: usize) -> *mut c_void;
}

/// Tells libFuzzer's hook of an allocation of `size` bytes at `p`.
#[inline(always)]
fn report(p: *const c_void, size: usize) {
    let hook = HOOK.load(Ordering::Relaxed);
    if !hook.is_null() {
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

/// glibc's `malloc`, its size reported to libFuzzer's hook.
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

/// glibc's `calloc`, its size reported to libFuzzer's hook.
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

/// glibc's `realloc`, its new size reported to libFuzzer's hook.
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
