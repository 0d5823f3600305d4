use tapefuzz::prelude::*;

tapefuzz::property! {
    // The bug is in a dependency (`demo-dep`): only its instrumentation guides the fuzzer
    // past the magic header.
    fn in_dependency(data in bytes(0..=256)) {
        demo::parse_records(&data);
    }
}

tapefuzz::property! {
    // With `DEMO_DEP_ALLOC`, a header's count reserves up to 4 GiB in the dependency:
    // libFuzzer's allocation limit reports it.
    fn reserves(data in bytes(0..=64)) {
        demo::reserve_records(&data);
    }
}

tapefuzz::property! {
    // With `DEMO_DEP_HANG`, records that start `LOOP` hang the dependency: libFuzzer's
    // `-timeout` reports it.
    fn counts(data in bytes(0..=32)) {
        demo::count_records(&data);
    }
}
