use tapefuzz::prelude::*;

tapefuzz::property! {
    fn raw(s in strings(CharClass::any(), 0..=256)) {
        cookie_maxage::entry(&s);
    }
}
