//! Fuzzes the corpus loader: a manifest of any bytes is reported, never a crash.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tapefuzz::corpus::Manifest;

fuzz_target!(|data: &[u8]| {
    if let Ok(m) = Manifest::decode(data) {
        assert_eq!(Manifest::decode(&m.encode()), Ok(m));
    }
    let mut with_magic = tapefuzz::corpus::MAGIC.to_vec();
    with_magic.extend_from_slice(&1u32.to_le_bytes());
    with_magic.extend_from_slice(data);
    let _ = Manifest::decode(&with_magic);
});
