use tapefuzz::prelude::*;

#[test]
fn roundtrip() {
    // `DEMO_REJECT_ALL=1`: a property whose `assume!` rejects every value (a health check).
    let reject_all = std::env::var_os("DEMO_REJECT_ALL").is_some();
    check(vecs(ints::<u8>(..), 0..=40), move |v: Vec<u8>| {
        assume!(!reject_all);
        ensure_eq!(demo::decode(&demo::encode(&v)), v);
        Ok(())
    });
}
