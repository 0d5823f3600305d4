//! The fuzz-target macro.

/// Defines a libFuzzer fuzz target for a test: `tapefuzz::fuzz_target!(make_test());` in a
/// cargo-fuzz target file (its crate must depend on `libfuzzer-sys`).
///
/// The expression builds the test once per thread (anything implementing
/// [`Test`](crate::property::Test), e.g. [`property`](crate::property::property)`(gen, prop)`
/// or a `Box<dyn Test>`). The macro defines the fuzz target (a failing property panics, so
/// libFuzzer saves the crash; rejected inputs return `Corpus::Reject`), the custom mutator
/// and the custom crossover of [`crate::fuzz`].
#[macro_export]
macro_rules! fuzz_target {
    ($make:expr $(,)?) => {
        ::std::thread_local! {
            static __TAPEFUZZ_TEST: ::std::boxed::Box<dyn $crate::property::Test> =
                ::std::boxed::Box::new($make);
        }

        // Built at start-up, before libFuzzer runs any input: a test that cannot be built
        // (an unknown planted bug, say) stops the run with its error and no crash file.
        ::libfuzzer_sys::fuzz_target!(init: __TAPEFUZZ_TEST.with(|_| ()), |data: &[u8]| -> ::libfuzzer_sys::Corpus {
            if __TAPEFUZZ_TEST.with(|t| $crate::fuzz::check(&**t, data)) {
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
