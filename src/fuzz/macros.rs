//! The fuzz-target macro.

/// Defines a libFuzzer fuzz target for a test: `tapefuzz::fuzz_target!(make_test());`, or
/// for a generator and a property: `tapefuzz::fuzz_target!(gen, prop);`, in a cargo-fuzz
/// target file (its crate must depend on `libfuzzer-sys`, as `cargo fuzz init` makes it).
///
/// The expression builds the test once per thread (anything implementing
/// [`Test`](crate::property::Test), e.g. [`property`](crate::property::property)`(gen, prop)`
/// or a `Box<dyn Test>`). The macro defines the fuzz target (a failing property panics, so
/// libFuzzer saves the crash; rejected inputs return `Corpus::Reject`), the custom mutator
/// and the custom crossover of [`crate::fuzz`]. When `TAPEFUZZ_FEATURES` turns them on
/// ([`Switch`](crate::fuzz::Switch)), it registers [`COUNTERS`](crate::fuzz::COUNTERS)
/// 8-bit counters ([`FeatureCounters`](crate::fuzz::FeatureCounters)) and a matching PC
/// table with libFuzzer, and counts each valid input's
/// [tape features](crate::fuzz::tape_features) in them.
#[macro_export]
macro_rules! fuzz_target {
    ($generator:expr, $prop:expr $(,)?) => {
        $crate::fuzz_target!($crate::property::property($generator, $prop));
    };
    ($make:expr $(,)?) => {
        ::std::thread_local! {
            static __TAPEFUZZ_TEST: ::std::boxed::Box<dyn $crate::property::Test> =
                ::std::boxed::Box::new($make);
        }

        static __TAPEFUZZ_FEATURES: $crate::fuzz::FeatureCounters =
            $crate::fuzz::FeatureCounters::new();
        static __TAPEFUZZ_FEATURES_ON: ::std::sync::atomic::AtomicBool =
            ::std::sync::atomic::AtomicBool::new(false);

        unsafe extern "C" {
            // libFuzzer's: the counters, and a PC table of the same size beside them.
            fn __sanitizer_cov_8bit_counters_init(start: *const u8, end: *const u8);
            fn __sanitizer_cov_pcs_init(start: *const usize, end: *const usize);
        }

        // Runs at start-up, before libFuzzer runs any input (and before it checks counters
        // against PC tables): a test that cannot be built (an unknown planted bug, say) or a
        // bad `TAPEFUZZ_FEATURES` stops the run with its error and no crash file.
        ::libfuzzer_sys::fuzz_target!(init: {
            if $crate::fuzz::feature_switch() == $crate::fuzz::Switch::On {
                let (start, end) = __TAPEFUZZ_FEATURES.bounds();
                // SAFETY: static counters, registered once.
                unsafe { __sanitizer_cov_8bit_counters_init(start, end) };
                let table = $crate::fuzz::feature_pc_table();
                // SAFETY: a leaked table of (PC, flags) pairs, one per registered counter.
                unsafe { __sanitizer_cov_pcs_init(table.as_ptr(), table.as_ptr().add(table.len())) };
                __TAPEFUZZ_FEATURES_ON.store(true, ::std::sync::atomic::Ordering::Relaxed);
            }
            __TAPEFUZZ_TEST.with(|_| ());
        }, |data: &[u8]| -> ::libfuzzer_sys::Corpus {
            let kept = __TAPEFUZZ_TEST.with(|t| {
                if __TAPEFUZZ_FEATURES_ON.load(::std::sync::atomic::Ordering::Relaxed) {
                    $crate::fuzz::check_counting(&**t, data, Some(&mut |i: usize| {
                        __TAPEFUZZ_FEATURES.increment(i)
                    }))
                } else {
                    $crate::fuzz::check(&**t, data)
                }
            });
            if kept {
                ::libfuzzer_sys::Corpus::Keep
            } else {
                ::libfuzzer_sys::Corpus::Reject
            }
        });

        ::libfuzzer_sys::fuzz_mutator!(|data: &mut [u8],
                                        size: usize,
                                        max_size: usize,
                                        seed: u32| {
            __TAPEFUZZ_TEST.with(|t| {
                $crate::fuzz::mutate(&**t, data, size, max_size, seed, &mut |d, s, m| {
                    ::libfuzzer_sys::fuzzer_mutate(d, s, m)
                })
            })
        });

        ::libfuzzer_sys::fuzz_crossover!(|data1: &[u8],
                                          data2: &[u8],
                                          out: &mut [u8],
                                          seed: u32| {
            __TAPEFUZZ_TEST.with(|t| $crate::fuzz::crossover(&**t, data1, data2, out, seed))
        });
    };
}
