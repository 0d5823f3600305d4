//! `sorted_insert` through the tape (the libFuzzer issue adds the tapefuzz macro, the
//! structure-aware mutator and one target per harness target).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tapefuzz::tape::{BytesSource, Status, Tape};

fuzz_target!(|data: &[u8]| {
    let target = harnesses::find("sorted_insert").expect("registered");
    let bug = std::env::var("TAPEFUZZ_BUG").ok();
    let test = target
        .test(bug.as_deref())
        .expect("TAPEFUZZ_BUG names a planted bug");
    let mut src = BytesSource::new(data);
    let mut tape = Tape::new(&mut src, false);
    if test.run(&mut tape) == Status::Interesting {
        panic!("sorted_insert failed");
    }
});
