//! `tcas` through the tape: libFuzzer mutates the tape's bytes and, through tapefuzz's custom
//! mutator, its spans and choices. `TAPEFUZZ_BUG=<name>` plants a bug.
#![no_main]

tapefuzz::fuzz_target!(harnesses::fuzz_test("tcas"));
