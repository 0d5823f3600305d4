//! The comparison log: operands of the comparisons the code under test made (LibAFL's
//! CmpLog, Redqueen's input-to-state), so that a search can set a choice that equals one
//! operand to the other — a magic number, a keyword, a length that must match.
//!
//! Two kinds of comparison reach it:
//! - integer comparisons and `match`es, through SanitizerCoverage's `trace_cmp` /
//!   `trace_switch` callbacks (`-sanitizer-coverage-trace-compares`, which
//!   `cargo tapefuzz greybox` turns on);
//! - byte-string comparisons (`==` on slices and `str`, which compile to `memcmp` / `bcmp`),
//!   through tapefuzz's own `memcmp` and `bcmp`, which the instrumented builds link in front
//!   of the C library's.
//!
//! With the `sancov-callbacks` feature (the in-process greybox engine) both kinds go to this
//! log, which records only while [`enable`] says so (a relaxed atomic load when it is off).
//! With the `libfuzzer` feature, libFuzzer defines the `trace_cmp` callbacks itself, and the
//! `memcmp` / `bcmp` interposers hand byte comparisons to libFuzzer's
//! `__sanitizer_weak_hook_memcmp` (its table of recent comparisons and its automatic
//! dictionary), as a sanitizer's interceptors do under cargo-fuzz with ASan.
//!
//! The log is per thread (the code under test runs on the engine's thread) and small: the
//! last [`PAIRS`] integer pairs and the last [`STRINGS`] byte-string pairs whose operands
//! differed (an equal comparison teaches nothing).

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};

/// Integer pairs the log keeps per test case (the most recent ones).
pub const PAIRS: usize = 256;
/// Byte-string pairs the log keeps per test case.
pub const STRINGS: usize = 64;
/// Bytes kept of each operand of a byte-string comparison.
pub const STRING_BYTES: usize = 32;

/// One comparison's operands.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Comparison {
    /// Two integers of `width` bytes (1, 2, 4 or 8).
    Int {
        /// Width of the operands in bytes.
        width: u8,
        /// The first operand.
        a: u64,
        /// The second operand.
        b: u64,
    },
    /// Two byte strings (at most [`STRING_BYTES`] of each; the shorter length of the two).
    Bytes {
        /// The first operand.
        a: Vec<u8>,
        /// The second operand.
        b: Vec<u8>,
    },
}

#[derive(Default)]
struct Log {
    ints: Vec<(u8, u64, u64)>,
    next_int: usize,
    strings: Vec<(Vec<u8>, Vec<u8>)>,
    next_string: usize,
}

static ENABLED: AtomicBool = AtomicBool::new(false);
static AVAILABLE: AtomicBool = AtomicBool::new(false);

/// Says that this process's code under test is instrumented for the log (what
/// `cargo tapefuzz greybox` does): a search may then [`enable`] it when it wants operands.
pub fn make_available() {
    AVAILABLE.store(true, Ordering::Relaxed);
}

/// Whether [`make_available`] was called.
pub fn available() -> bool {
    AVAILABLE.load(Ordering::Relaxed)
}

thread_local! {
    static LOG: RefCell<Log> = RefCell::new(Log::default());
    /// Set while the log itself runs: a comparison it makes (a `memcmp` inside the
    /// allocator, say) is not logged, and never recurses.
    static BUSY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` unless the log is already running on this thread.
fn guarded(f: impl FnOnce()) {
    let free = BUSY.try_with(|b| !b.replace(true)).unwrap_or(false);
    if free {
        f();
        let _ = BUSY.try_with(|b| b.set(false));
    }
}

/// Turns recording on or off (off by default: the callbacks then return at once). Logging
/// costs on every comparison, so a search turns it on for the test cases it learns from
/// (the greybox search: one run of each tape it keeps, as LibAFL's CmpLog stage).
pub fn enable(on: bool) {
    ENABLED.store(on, Ordering::Relaxed);
}

/// Whether the log records.
#[inline]
pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// Forgets this thread's log (before a test case).
pub fn clear() {
    let _ = LOG.try_with(|l| {
        if let Ok(mut l) = l.try_borrow_mut() {
            l.ints.clear();
            l.next_int = 0;
            l.strings.clear();
            l.next_string = 0;
        }
    });
}

/// Appends this thread's logged comparisons to `out` (after a test case).
pub fn take(out: &mut Vec<Comparison>) {
    let _ = LOG.try_with(|l| {
        if let Ok(l) = l.try_borrow() {
            out.extend(
                l.ints
                    .iter()
                    .map(|&(width, a, b)| Comparison::Int { width, a, b }),
            );
            out.extend(l.strings.iter().map(|(a, b)| Comparison::Bytes {
                a: a.clone(),
                b: b.clone(),
            }));
        }
    });
}

/// Logs an integer comparison of `width` bytes (what the `trace_cmp` callbacks call; also
/// for tests and hand-written observers).
#[inline]
pub fn log_int(width: u8, a: u64, b: u64) {
    if a == b || !enabled() {
        return;
    }
    guarded(|| log_int_now(width, a, b));
}

fn log_int_now(width: u8, a: u64, b: u64) {
    let _ = LOG.try_with(|l| {
        if let Ok(mut l) = l.try_borrow_mut() {
            if l.ints.len() < PAIRS {
                l.ints.push((width, a, b));
            } else {
                let i = l.next_int % PAIRS;
                l.ints[i] = (width, a, b);
            }
            l.next_int = l.next_int.wrapping_add(1);
        }
    });
}

/// Logs a comparison of the byte strings `a` and `b` (the first [`STRING_BYTES`] of the
/// shorter length). Equal strings and strings shorter than 2 bytes are not logged.
pub fn log_bytes(a: &[u8], b: &[u8]) {
    let n = a.len().min(b.len()).min(STRING_BYTES);
    // Not `==` on the slices: that is `bcmp`, which the instrumented builds route here.
    // SAFETY: both have at least `n` bytes.
    if n < 2 || unsafe { compare(a.as_ptr(), b.as_ptr(), n) } == 0 || !enabled() {
        return;
    }
    let _ = LOG.try_with(|l| {
        if let Ok(mut l) = l.try_borrow_mut() {
            let pair = (a[..n].to_vec(), b[..n].to_vec());
            if l.strings.len() < STRINGS {
                l.strings.push(pair);
            } else {
                let i = l.next_string % STRINGS;
                l.strings[i] = pair;
            }
            l.next_string = l.next_string.wrapping_add(1);
        }
    });
}

/// `memcmp`'s result for `n` bytes at `a` and `b`, without calling `memcmp` (the
/// interposers below are `memcmp`): eight bytes at a time, then byte by byte.
///
/// # Safety
/// `a` and `b` must be readable for `n` bytes.
#[inline(never)]
pub unsafe fn compare(a: *const u8, b: *const u8, n: usize) -> i32 {
    let mut i = 0;
    while i + 8 <= n {
        // SAFETY: `i + 8 <= n` bytes are readable at both.
        let (x, y) = unsafe {
            (
                std::ptr::read_unaligned(a.add(i) as *const [u8; 8]),
                std::ptr::read_unaligned(b.add(i) as *const [u8; 8]),
            )
        };
        // The first differing byte decides, as in memcmp: compare as big-endian numbers.
        let (x, y) = (u64::from_be_bytes(x), u64::from_be_bytes(y));
        if x != y {
            return if x < y { -1 } else { 1 };
        }
        i += 8;
    }
    while i < n {
        // SAFETY: `i < n`.
        let (x, y) = unsafe { (*a.add(i), *b.add(i)) };
        if x != y {
            return i32::from(x) - i32::from(y);
        }
        i += 1;
    }
    0
}

/// The interposed `memcmp` / `bcmp` and the SanitizerCoverage comparison callbacks, in the
/// instrumented builds only.
#[cfg(feature = "sancov-callbacks")]
mod hooks {
    use super::compare;
    use std::ffi::{c_int, c_void};

    #[cfg(feature = "libfuzzer")]
    unsafe extern "C" {
        fn __sanitizer_weak_hook_memcmp(
            caller_pc: *const c_void,
            s1: *const c_void,
            s2: *const c_void,
            n: usize,
            result: c_int,
        );
    }

    #[inline(always)]
    unsafe fn hooked(a: *const c_void, b: *const c_void, n: usize) -> c_int {
        // SAFETY: memcmp's contract: `n` readable bytes at both.
        let r = unsafe { compare(a as *const u8, b as *const u8, n) };
        if r != 0 && n > 1 {
            #[cfg(feature = "libfuzzer")]
            // SAFETY: libFuzzer's hook reads `n` bytes at both, which memcmp's caller
            // promised. Its program counter only tells comparisons apart; the interposer's
            // own address is the one it gets.
            unsafe {
                __sanitizer_weak_hook_memcmp(hooked as *const c_void, a, b, n, r)
            };
            #[cfg(not(feature = "libfuzzer"))]
            if super::enabled() {
                // SAFETY: as above.
                let (x, y) = unsafe {
                    (
                        std::slice::from_raw_parts(a as *const u8, n),
                        std::slice::from_raw_parts(b as *const u8, n),
                    )
                };
                super::guarded(|| super::log_bytes(x, y));
            }
        }
        r
    }

    /// `memcmp`, in front of the C library's: compares, then logs the operands.
    ///
    /// # Safety
    /// `a` and `b` readable for `n` bytes.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn memcmp(a: *const c_void, b: *const c_void, n: usize) -> c_int {
        // SAFETY: the caller's contract.
        unsafe { hooked(a, b, n) }
    }

    /// `bcmp` (what `==` on slices compiles to), in front of the C library's.
    ///
    /// # Safety
    /// `a` and `b` readable for `n` bytes.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn bcmp(a: *const c_void, b: *const c_void, n: usize) -> c_int {
        // SAFETY: the caller's contract.
        unsafe { hooked(a, b, n) }
    }

    #[cfg(feature = "sancov-callbacks")]
    mod sancov {
        use super::super::log_int;

        macro_rules! cmp {
            ($($name:ident $t:ty, $w:expr;)*) => {$(
                /// SanitizerCoverage's comparison callback: logs the operands.
                #[unsafe(no_mangle)]
                pub extern "C" fn $name(a: $t, b: $t) {
                    log_int($w, a as u64, b as u64);
                }
            )*};
        }
        cmp! {
            __sanitizer_cov_trace_cmp1 u8, 1;
            __sanitizer_cov_trace_cmp2 u16, 2;
            __sanitizer_cov_trace_cmp4 u32, 4;
            __sanitizer_cov_trace_cmp8 u64, 8;
            __sanitizer_cov_trace_const_cmp1 u8, 1;
            __sanitizer_cov_trace_const_cmp2 u16, 2;
            __sanitizer_cov_trace_const_cmp4 u32, 4;
            __sanitizer_cov_trace_const_cmp8 u64, 8;
        }

        /// SanitizerCoverage's `switch` callback: `cases[0]` is the number of cases,
        /// `cases[1]` their width in bits, then the case values; logs the value against
        /// each case.
        ///
        /// # Safety
        /// `cases` as the instrumentation passes it.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn __sanitizer_cov_trace_switch(value: u64, cases: *const u64) {
            if !super::super::enabled() || cases.is_null() {
                return;
            }
            // SAFETY: the instrumentation's layout, described above.
            let (n, bits) = unsafe { (*cases, *cases.add(1)) };
            let width = (bits / 8).clamp(1, 8) as u8;
            for i in 0..n.min(64) as usize {
                // SAFETY: `i < n` case values follow the two header words.
                log_int(width, value, unsafe { *cases.add(2 + i) });
            }
        }

        /// SanitizerCoverage's division callbacks (not used: divisors teach little).
        #[unsafe(no_mangle)]
        pub extern "C" fn __sanitizer_cov_trace_div4(_: u32) {}
        /// See [`__sanitizer_cov_trace_div4`].
        #[unsafe(no_mangle)]
        pub extern "C" fn __sanitizer_cov_trace_div8(_: u64) {}
        /// SanitizerCoverage's array-index callback (not used).
        #[unsafe(no_mangle)]
        pub extern "C" fn __sanitizer_cov_trace_gep(_: usize) {}
        /// SanitizerCoverage's indirect-call callback (not used).
        #[unsafe(no_mangle)]
        pub extern "C" fn __sanitizer_cov_trace_pc_indir(_: usize) {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compare_agrees_with_slice_order() {
        let cases: [(&[u8], &[u8]); 6] = [
            (b"", b""),
            (b"abcdefgh", b"abcdefgh"),
            (b"abcdefgz", b"abcdefga"),
            (b"abcdefghij", b"abcdefghik"),
            (
                b"\x00\x01\x02\x03\x04\x05\x06\x07\x08",
                b"\x01\x00\x02\x03\x04\x05\x06\x07\x08",
            ),
            (b"\xff", b"\x01"),
        ];
        for (a, b) in cases {
            let r = unsafe { compare(a.as_ptr(), b.as_ptr(), a.len()) };
            assert_eq!(r.signum(), a.cmp(b) as i32, "{a:?} {b:?}");
            let r = unsafe { compare(b.as_ptr(), a.as_ptr(), a.len()) };
            assert_eq!(r.signum(), b.cmp(a) as i32, "{b:?} {a:?}");
        }
    }

    #[test]
    fn the_log_keeps_differing_operands_while_enabled() {
        clear();
        enable(true);
        log_int(4, 7, 7);
        log_int(4, 7, 0x1234);
        log_bytes(b"GIF8", b"PNG\r");
        log_bytes(b"a", b"b");
        log_bytes(b"same", b"same");
        let mut out = Vec::new();
        take(&mut out);
        enable(false);
        log_int(1, 1, 2);
        let mut after = Vec::new();
        take(&mut after);
        clear();
        assert_eq!(
            out,
            [
                Comparison::Int {
                    width: 4,
                    a: 7,
                    b: 0x1234
                },
                Comparison::Bytes {
                    a: b"GIF8".to_vec(),
                    b: b"PNG\r".to_vec()
                }
            ]
        );
        assert_eq!(after, out, "nothing logged while disabled");
    }
}
