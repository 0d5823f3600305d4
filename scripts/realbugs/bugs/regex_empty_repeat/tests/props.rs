use tapefuzz::prelude::*;

tapefuzz::property! {
    fn raw(s in strings(CharClass::any(), 0..=256)) {
        regex_empty_repeat::entry(&s);
    }
}
