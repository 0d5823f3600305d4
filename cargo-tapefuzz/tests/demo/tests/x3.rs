use tapefuzz::prelude::*;

tapefuzz::property! {
    // The bug is in a dependency (`demo-dep`): only its instrumentation guides the fuzzer
    // past the magic header.
    fn in_dependency(data in bytes(0..=256)) {
        demo::parse_records(&data);
    }
}
