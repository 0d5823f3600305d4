use tapefuzz::prelude::*;

tapefuzz::property! {
    fn roundtrip(s in strings(CharClass::ascii(), 0..=20)) {
        // `DEMO_ABORT=1`: a test case that kills its process (no panic to catch).
        if s.contains('!') && std::env::var_os("DEMO_ABORT").is_some() {
            std::process::abort();
        }
        let bytes = demo::decode(&demo::encode(s.as_bytes()));
        assert_eq!(String::from_utf8(bytes).unwrap(), s);
    }
}
