use tapefuzz::prelude::*;

#[test]
fn roundtrip() {
    check(vecs(ints::<u8>(..), 0..=40), |v: Vec<u8>| {
        ensure_eq!(demo::decode(&demo::encode(&v)), v);
        Ok(())
    });
}
