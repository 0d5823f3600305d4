//! `misbehave` through the tape: libFuzzer keeps a crash- or timeout- artifact when a planted
//! bug kills the process or hangs. `TAPEFUZZ_BUG=<name>` plants a bug.
#![no_main]

tapefuzz::fuzz_target!(harnesses::fuzz_test("misbehave"));
