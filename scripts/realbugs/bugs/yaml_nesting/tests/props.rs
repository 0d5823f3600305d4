use tapefuzz::prelude::*;

tapefuzz::property! {
    fn raw(s in strings(CharClass::any(), 0..=256)) {
        yaml_nesting::entry(&s);
    }
}
