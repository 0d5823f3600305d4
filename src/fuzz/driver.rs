//! libFuzzer inside a test binary: `cargo tapefuzz fuzz <property>` builds the crate's tests
//! with SanitizerCoverage and this crate's `libfuzzer` feature (which links libFuzzer through
//! `libfuzzer-sys`), then runs the property's test with `TAPEFUZZ_COMMAND=fuzz`. The property
//! hands the process to libFuzzer's `LLVMFuzzerRunDriver`, which runs the property on each
//! input as a tape, with tapefuzz's tape-aware mutator and crossover: the same property as
//! `cargo test`, no fuzz target of its own, and its corpus folder shared.
//!
//! libFuzzer ends the process itself (at `-max_total_time`, `-runs`, or a crash, saving the
//! crashing input where `-artifact_prefix` says). Without the `libfuzzer` feature, the
//! command stops the process with an error saying how to build for it.
//!
//! Unless a `-max_len=` is given, libFuzzer's longest input is the generator's own
//! ([`max_input_len`]: `bytes(0..=4096)` reads at most 4,098 bytes), not libFuzzer's
//! default of 4,096; and `-len_control=100` (libFuzzer's default for a plain target, which
//! it drops when a custom mutator is present) lets inputs grow from short ones.
//!
//! Limits: `-jobs`/`-fork`/`-workers` re-run the executable with libFuzzer's flags, which a
//! test harness does not take (run several `cargo tapefuzz fuzz` instead); tape features
//! (`TAPEFUZZ_FEATURES`) are counted by [`fuzz_target!`](crate::fuzz_target) targets only.

use crate::property::{Property, Report, Test};
use crate::tape::{DrawContext, Source, Status, Tape, encoding};
use std::path::PathBuf;

/// Set by a standalone fuzzer of `cargo tapefuzz build-fuzzers` (OSS-Fuzz, ClusterFuzzLite)
/// to its own path, which libFuzzer's children then start: libFuzzer gets exactly the
/// folders it was given, as a fuzzing service
/// expects (its corpus first, `-merge=1`'s output first), and the property's own `corpus/`
/// folder, a path of the machine that built the binary, is left out.
pub const STANDALONE_VAR: &str = "TAPEFUZZ_STANDALONE";

static ENTERED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether this process has entered [`fuzz`] (a standalone fuzzer checks it at exit: a
/// fuzzer that never fuzzed failed).
pub fn entered() -> bool {
    ENTERED.load(std::sync::atomic::Ordering::Relaxed)
}

/// Runs libFuzzer on `property` with the arguments `args` (libFuzzer's flags and corpus
/// folders; the property's `corpus/` folder is added first when it has one, unless
/// [`STANDALONE_VAR`] is set). Does not return.
pub fn fuzz(property: &Property, test: &dyn Test, args: &[PathBuf]) -> Report {
    ENTERED.store(true, std::sync::atomic::Ordering::Relaxed);
    let mut argv: Vec<String> = vec![
        std::env::current_exe()
            .map(|p| p.display().to_string())
            .unwrap_or_else(|_| "tapefuzz".into()),
    ];
    // A standalone fuzzer's launcher is what libFuzzer's `-fork`/`-jobs` children must start.
    let standalone = crate::env::path_var(STANDALONE_VAR);
    if let Some(launcher) = &standalone {
        argv[0] = launcher.display().to_string();
    }
    let standalone = standalone.is_some();
    if let Some(corpus) = (!standalone)
        .then(|| property.open_corpus_migrated(test))
        .flatten()
    {
        match corpus.ensure_folders() {
            Ok(dir) => argv.push(dir.display().to_string()),
            Err(e) => fail(&format!("cannot create the corpus folder: {e}")),
        }
    }
    let given: Vec<String> = args.iter().map(|a| a.display().to_string()).collect();
    if !given.iter().any(|a| a.starts_with("-max_len="))
        && let Some(n) = max_input_len(test)
    {
        argv.push(format!("-max_len={}", n.max(1)));
    }
    // libFuzzer turns its length control off when a custom mutator is present; on, as for a
    // plain target, inputs grow from short ones (cheap to run, and simple) as coverage stops
    // growing, instead of starting at the longest.
    if !given.iter().any(|a| a.starts_with("-len_control=")) {
        argv.push("-len_control=100".into());
    }
    argv.extend(given);
    linked::run(test, argv)
}

/// The longest input the property's generator reads: every choice at its largest index
/// (every collection and payload run at its maximum length), encoded. `None` when that
/// overruns the size budget (a recursive or unbounded generator) or passes 1 MiB: libFuzzer
/// keeps its own default then.
pub fn max_input_len(test: &dyn Test) -> Option<usize> {
    struct Largest;
    impl Source for Largest {
        fn draw(&mut self, ctx: &DrawContext<'_>) -> u64 {
            ctx.max
        }
        fn needs_context(&self) -> bool {
            false
        }
    }
    let mut src = Largest;
    let mut tape = Tape::recording(&mut src);
    if test.generate_only(&mut tape) == Status::Overrun {
        return None;
    }
    let n: usize = tape
        .finish()
        .choices
        .iter()
        .filter(|c| !c.forced)
        .map(|c| encoding::width(c.max))
        .sum();
    (n <= 1 << 20).then_some(n)
}

fn fail(message: &str) -> ! {
    eprintln!("tapefuzz: {message}");
    std::process::exit(2);
}

#[cfg(not(feature = "libfuzzer"))]
mod linked {
    use super::{Report, Test};

    pub(super) fn run(_: &dyn Test, _: Vec<String>) -> Report {
        super::fail(
            "this test binary has no libFuzzer: run the property with `cargo tapefuzz fuzz <property>`, which builds it with tapefuzz's `libfuzzer` feature and coverage instrumentation",
        )
    }
}

#[cfg(feature = "libfuzzer")]
mod linked {
    use super::{Report, Test};
    use std::ffi::{CString, c_char, c_int, c_uint};
    use std::panic::{AssertUnwindSafe, catch_unwind};
    use std::sync::Mutex;

    // Forces libfuzzer-sys (which builds and links libFuzzer) into the link.
    use libfuzzer_sys as _;

    /// The test libFuzzer runs: set once before the driver starts, on the thread that runs
    /// the driver (the process ends inside the driver, so the borrow outlives every use).
    struct Current(*const (dyn Test + 'static));
    // SAFETY: only dereferenced while the driver runs, on the test's own thread.
    unsafe impl Send for Current {}
    static CURRENT: Mutex<Option<Current>> = Mutex::new(None);

    unsafe extern "C" {
        fn LLVMFuzzerRunDriver(
            argc: *mut c_int,
            argv: *mut *mut *mut c_char,
            callback: extern "C" fn(*const u8, usize) -> c_int,
        ) -> c_int;
        fn LLVMFuzzerMutate(data: *mut u8, size: usize, max_size: usize) -> usize;
    }

    fn with_current<T>(f: impl FnOnce(&dyn Test) -> T) -> Option<T> {
        let guard = CURRENT.lock().unwrap_or_else(|e| e.into_inner());
        let ptr = guard.as_ref()?.0;
        drop(guard);
        // SAFETY: see `Current`.
        Some(f(unsafe { &*ptr }))
    }

    extern "C" fn one_input(data: *const u8, size: usize) -> c_int {
        // libFuzzer has installed its signal handlers by its first input.
        #[cfg(unix)]
        {
            static ALARM: std::sync::Once = std::sync::Once::new();
            ALARM.call_once(crate::fuzz::alarm::forward_to_this_thread);
        }
        let bytes: &[u8] = if size == 0 {
            &[]
        } else {
            // SAFETY: libFuzzer passes `size` readable bytes.
            unsafe { std::slice::from_raw_parts(data, size) }
        };
        let kept =
            with_current(|t| catch_unwind(AssertUnwindSafe(|| crate::fuzz::check(t, bytes))));
        match kept {
            Some(Ok(true)) | None => 0,
            Some(Ok(false)) => -1,
            // The property failed: libFuzzer saves the input on the abort.
            Some(Err(_)) => std::process::abort(),
        }
    }

    /// libfuzzer-sys's `LLVMFuzzerTestOneInput` calls this; it runs the current test.
    #[unsafe(no_mangle)]
    #[allow(improper_ctypes_definitions)]
    pub extern "C" fn rust_fuzzer_test_input(bytes: &[u8]) -> i32 {
        one_input(bytes.as_ptr(), bytes.len())
    }

    /// libFuzzer's custom mutator: tapefuzz's tape-aware mutation ([`crate::fuzz::mutate`]).
    ///
    /// # Safety
    /// Called by libFuzzer with a buffer of `max(size, max_size)` bytes.
    #[unsafe(export_name = "LLVMFuzzerCustomMutator")]
    pub unsafe extern "C" fn custom_mutator(
        data: *mut u8,
        size: usize,
        max_size: usize,
        seed: c_uint,
    ) -> usize {
        // SAFETY: see above.
        let buf = unsafe { std::slice::from_raw_parts_mut(data, size.max(max_size)) };
        let mut bytes = |d: &mut [u8], s: usize, m: usize| {
            // SAFETY: `d` holds at least `m` bytes.
            unsafe { LLVMFuzzerMutate(d.as_mut_ptr(), s, m) }
        };
        match with_current(|t| crate::fuzz::mutate(t, buf, size, max_size, seed, &mut bytes)) {
            Some(n) => n,
            None => bytes(buf, size, max_size),
        }
    }

    /// libFuzzer's custom crossover: a span of one input spliced into the other.
    ///
    /// # Safety
    /// Called by libFuzzer with valid buffers of the given sizes.
    #[unsafe(export_name = "LLVMFuzzerCustomCrossOver")]
    pub unsafe extern "C" fn custom_crossover(
        data1: *const u8,
        size1: usize,
        data2: *const u8,
        size2: usize,
        out: *mut u8,
        max_out: usize,
        seed: c_uint,
    ) -> usize {
        // SAFETY: see above.
        // libFuzzer may pass a null pointer with a length of 0: no slice of that.
        let slice = |p: *const u8, n: usize| -> &[u8] {
            if n == 0 || p.is_null() {
                &[]
            } else {
                // SAFETY: libFuzzer passes `n` readable bytes at `p`.
                unsafe { std::slice::from_raw_parts(p, n) }
            }
        };
        let (a, b) = (slice(data1, size1), slice(data2, size2));
        if max_out == 0 || out.is_null() {
            return 0;
        }
        // SAFETY: libFuzzer passes `max_out` writable bytes at `out`.
        let out = unsafe { std::slice::from_raw_parts_mut(out, max_out) };
        with_current(|t| crate::fuzz::crossover(t, a, b, out, seed)).unwrap_or(0)
    }

    // libFuzzer looks for these sanitizer functions at start-up and warns on every run
    // when they are missing ("Failed to find function …"). Without a sanitizer there is no
    // crash state to share, no stack to print and no death callback to run: weak
    // definitions that do nothing (a sanitizer runtime linked in keeps its own).
    #[cfg(target_arch = "x86_64")]
    std::arch::global_asm!(
        ".weak __sanitizer_acquire_crash_state",
        ".type __sanitizer_acquire_crash_state,@function",
        "__sanitizer_acquire_crash_state:",
        "mov eax, 1",
        "ret",
        ".weak __sanitizer_print_stack_trace",
        ".type __sanitizer_print_stack_trace,@function",
        "__sanitizer_print_stack_trace:",
        "ret",
        ".weak __sanitizer_set_death_callback",
        ".type __sanitizer_set_death_callback,@function",
        "__sanitizer_set_death_callback:",
        "ret",
    );
    #[cfg(target_arch = "aarch64")]
    std::arch::global_asm!(
        ".weak __sanitizer_acquire_crash_state",
        ".type __sanitizer_acquire_crash_state,%function",
        "__sanitizer_acquire_crash_state:",
        "mov w0, #1",
        "ret",
        ".weak __sanitizer_print_stack_trace",
        ".type __sanitizer_print_stack_trace,%function",
        "__sanitizer_print_stack_trace:",
        "ret",
        ".weak __sanitizer_set_death_callback",
        ".type __sanitizer_set_death_callback,%function",
        "__sanitizer_set_death_callback:",
        "ret",
    );
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    unsafe extern "C" {
        fn __sanitizer_acquire_crash_state() -> c_int;
        fn __sanitizer_print_stack_trace();
        fn __sanitizer_set_death_callback(callback: Option<extern "C" fn()>);
    }

    pub(super) fn run(test: &dyn Test, argv: Vec<String>) -> Report {
        // A strong reference pulls the weak definitions above into the link (libFuzzer's
        // own references are weak and pull nothing).
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        std::hint::black_box((
            __sanitizer_acquire_crash_state as unsafe extern "C" fn() -> c_int,
            __sanitizer_print_stack_trace as unsafe extern "C" fn(),
            __sanitizer_set_death_callback as unsafe extern "C" fn(Option<extern "C" fn()>),
        ));
        // SAFETY: the pointer is only used while the driver runs, which ends the process.
        let erased: *const (dyn Test + '_) = test;
        let erased: *const (dyn Test + 'static) = unsafe { std::mem::transmute(erased) };
        *CURRENT.lock().unwrap_or_else(|e| e.into_inner()) = Some(Current(erased));
        let args: Vec<CString> = argv
            .into_iter()
            .map(|a| {
                CString::new(a).unwrap_or_else(|_| super::fail("an argument holds a NUL byte"))
            })
            .collect();
        let mut ptrs: Vec<*mut c_char> = args.iter().map(|a| a.as_ptr() as *mut c_char).collect();
        ptrs.push(std::ptr::null_mut());
        let mut argc = args.len() as c_int;
        let mut argv = ptrs.as_mut_ptr();
        // SAFETY: argc/argv as C's main receives them, alive for the whole call.
        let code = unsafe { LLVMFuzzerRunDriver(&mut argc, &mut argv, one_input) };
        std::process::exit(code)
    }
}
