//! SanitizerCoverage's inline 8-bit counters: where the instrumented code keeps them.
//!
//! A crate compiled with `-Cpasses=sancov-module` and
//! `-Cllvm-args=-sanitizer-coverage-inline-8bit-counters` gets one byte per edge, bumped
//! inline by the instrumented code, in a linker section whose bounds each instrumented module
//! hands to [`__sanitizer_cov_8bit_counters_init`] from a constructor that runs before
//! `main`. With `-sanitizer-coverage-pc-table` it also hands its table of program counters to
//! [`__sanitizer_cov_pcs_init`].
//!
//! Those two callbacks are defined here only with the cargo feature `sancov-callbacks`:
//! libFuzzer (linked by the `fuzz/` crate) defines the same symbols, and two definitions do
//! not link. Without the feature, nothing registers and [`Sancov::new`] finds no counters.

use super::{Coverage, stack_depth};
use std::sync::Mutex;

/// One registered range of memory: start address and length in bytes.
type Range = (usize, usize);

/// Counter ranges and program-counter tables handed over by module constructors. A plain
/// mutex: the constructors run one at a time before `main`, and the engine reads the list
/// once when it starts.
static COUNTERS: Mutex<Vec<Range>> = Mutex::new(Vec::new());
static PC_TABLES: Mutex<Vec<Range>> = Mutex::new(Vec::new());

/// Adds `range` unless it is already there. Every module of a crate reports the bounds of the
/// whole linked section, not its own part, so the same range comes once per module.
fn add_range(list: &Mutex<Vec<Range>>, range: Range) {
    if range.1 == 0 {
        return;
    }
    let mut list = list.lock().unwrap_or_else(|e| e.into_inner());
    if !list.contains(&range) {
        list.push(range);
    }
}

/// Registers the 8-bit counters in `start..stop` (what the SanitizerCoverage callback does).
/// Registering the same range again changes nothing; an empty range is ignored.
///
/// # Safety
///
/// `start..stop` must be memory that stays valid, writable and otherwise unused by Rust
/// references for the rest of the process: [`Sancov`] reads and clears it at any time.
pub unsafe fn register_counters(start: *mut u8, stop: *mut u8) {
    let (start, stop) = (start as usize, stop as usize);
    add_range(&COUNTERS, (start, stop.saturating_sub(start)));
}

/// Registers a program-counter table `beg..end` (pairs of words: address, flags), as the
/// SanitizerCoverage callback does; only its length is used (see [`pc_count`]).
pub fn register_pcs(beg: *const usize, end: *const usize) {
    let (beg, end) = (beg as usize, end as usize);
    add_range(&PC_TABLES, (beg, end.saturating_sub(beg)));
}

/// Whether any 8-bit counters are registered: false unless the binary was built with
/// instrumentation (see `scripts/greybox-build`) and the `sancov-callbacks` feature.
pub fn counters_registered() -> bool {
    counter_count() > 0
}

/// Number of registered counters (instrumented edges).
pub fn counter_count() -> usize {
    let list = COUNTERS.lock().unwrap_or_else(|e| e.into_inner());
    list.iter().map(|r| r.1).sum()
}

/// Number of entries in the registered program-counter tables (one per counter when the
/// instrumentation has `-sanitizer-coverage-pc-table`).
pub fn pc_count() -> usize {
    let list = PC_TABLES.lock().unwrap_or_else(|e| e.into_inner());
    list.iter()
        .map(|r| r.1 / (2 * std::mem::size_of::<usize>()))
        .sum()
}

/// SanitizerCoverage's callback: a module's 8-bit counters are `start..stop`.
///
/// # Safety
///
/// As [`register_counters`]: the instrumentation calls it with its counter section, static
/// for the life of the process and referenced by no Rust code.
#[cfg(feature = "sancov-callbacks")]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __sanitizer_cov_8bit_counters_init(start: *mut u8, stop: *mut u8) {
    // SAFETY: the caller's contract is `register_counters`'s.
    unsafe { register_counters(start, stop) }
}

/// SanitizerCoverage's callback: a module's program-counter table is `beg..end`.
#[cfg(feature = "sancov-callbacks")]
#[unsafe(no_mangle)]
pub extern "C" fn __sanitizer_cov_pcs_init(beg: *const usize, end: *const usize) {
    register_pcs(beg, end);
}

/// The registered SanitizerCoverage counters as a [`Coverage`] source. Edge `i` is byte `i`
/// of the registered ranges laid end to end, in registration order.
#[derive(Debug)]
pub struct Sancov {
    ranges: Vec<Range>,
    edges: usize,
    /// Where the current test case's stack started ([`super::stack_depth::start`]).
    stack: usize,
}

impl Sancov {
    /// The counters registered so far, or `None` when there are none (an uninstrumented
    /// binary, or one built without the `sancov-callbacks` feature).
    pub fn new() -> Option<Sancov> {
        let ranges = COUNTERS.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let edges = ranges.iter().map(|r| r.1).sum();
        (edges > 0).then_some(Sancov {
            ranges,
            edges,
            stack: 0,
        })
    }
}

/// The edges of the counters, then (where the build defines the thread-local,
/// [`stack_depth::available`]) one pseudo-edge per step of stack depth: the deepest stack a
/// test case reached is hit as edge `counters + step(depth in words)`, as libFuzzer counts it.
impl Coverage for Sancov {
    fn edges(&self) -> usize {
        if stack_depth::available() {
            self.edges + stack_depth::STEPS
        } else {
            self.edges
        }
    }

    fn reset(&mut self) {
        for &(start, len) in &self.ranges {
            // SAFETY: a registered range is valid, writable memory for the whole process
            // (the contract of `register_counters`), and no test code runs during the reset.
            unsafe { std::ptr::write_bytes(start as *mut u8, 0, len) }
        }
        self.stack = stack_depth::start();
    }

    fn for_each_hit(&mut self, f: &mut dyn FnMut(usize, u8)) {
        let mut offset = 0;
        for &(start, len) in &self.ranges {
            // SAFETY: as in `reset`; the slice lives only while no instrumented code runs.
            let bytes = unsafe { std::slice::from_raw_parts(start as *const u8, len) };
            // Most counters are zero after a test case: skip them eight at a time.
            let mut words = bytes.chunks_exact(8);
            let mut at = offset;
            for w in &mut words {
                if u64::from_ne_bytes(w.try_into().expect("8 bytes")) != 0 {
                    for (k, &c) in w.iter().enumerate() {
                        if c != 0 {
                            f(at + k, c);
                        }
                    }
                }
                at += 8;
            }
            for (k, &c) in words.remainder().iter().enumerate() {
                if c != 0 {
                    f(at + k, c);
                }
            }
            offset += len;
        }
        let depth = stack_depth::deepest(self.stack);
        if depth > 0 {
            f(offset + stack_depth::step(depth / 8), 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_deduplicated_and_read_end_to_end() {
        // Two fake "modules", leaked as the instrumentation's sections would be static. This
        // is the only test that registers counters: the registry is global to the process.
        let a: &'static mut [u8] = Box::leak(vec![0u8; 13].into_boxed_slice());
        let b: &'static mut [u8] = Box::leak(vec![0u8; 3].into_boxed_slice());
        let (pa, pb) = (a.as_mut_ptr(), b.as_mut_ptr());
        unsafe {
            register_counters(pa, pa.add(13));
            register_counters(pa, pa.add(13));
            register_counters(pb, pb.add(3));
            register_counters(pb, pb);
        }
        assert!(counters_registered());
        assert!(counter_count() >= 16);
        let mut cov = Sancov::new().expect("registered");
        let base = cov
            .ranges
            .iter()
            .take_while(|r| r.0 != pa as usize)
            .map(|r| r.1)
            .sum::<usize>();
        assert_eq!(cov.ranges.iter().filter(|r| r.0 == pa as usize).count(), 1);
        cov.reset();
        unsafe {
            *pa.add(0) = 1;
            *pa.add(12) = 200;
            *pb.add(2) = 3;
        }
        let mut hits = Vec::new();
        cov.for_each_hit(&mut |e, c| hits.push((e, c)));
        assert!(hits.contains(&(base, 1)));
        assert!(hits.contains(&(base + 12, 200)));
        assert_eq!(hits.len(), 3);
        cov.reset();
        let mut n = 0;
        cov.for_each_hit(&mut |_, _| n += 1);
        assert_eq!(n, 0);

        static TABLE: [usize; 8] = [0; 8];
        let before = pc_count();
        register_pcs(TABLE.as_ptr(), TABLE.as_ptr().wrapping_add(8));
        register_pcs(TABLE.as_ptr(), TABLE.as_ptr().wrapping_add(8));
        assert_eq!(pc_count(), before + 4);
    }
}
