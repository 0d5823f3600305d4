//! `binomial_tree_heap` (ProSyT, paper 001) through the tape: libFuzzer mutates the skeleton, the
//! filter's branch order and the instantiated integers; every input is valid.
//! `TAPEFUZZ_BUG=<name>` plants a bug.
#![no_main]

tapefuzz::fuzz_target!(harnesses::fuzz_test("binomial_tree_heap"));
