//! `lru_cache` (stateful, issue 20) through the tape: libFuzzer mutates the action sequence's
//! choices; the model re-runs as it is drawn, so every input meets its preconditions.
//! `TAPEFUZZ_BUG=<name>` plants a bug.
#![no_main]

tapefuzz::fuzz_target!(harnesses::fuzz_test("lru_cache"));
