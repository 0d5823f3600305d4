use tapefuzz::prelude::*;

tapefuzz::property! {
    fn roundtrip(s in strings(CharClass::ascii(), 0..=20)) {
        let bytes = demo::decode(&demo::encode(s.as_bytes()));
        assert_eq!(String::from_utf8(bytes).unwrap(), s);
    }
}
