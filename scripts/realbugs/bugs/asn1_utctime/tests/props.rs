use tapefuzz::prelude::*;

tapefuzz::property! {
    fn raw(data in bytes(0..=4096)) {
        asn1_utctime::entry(&data);
    }
}
