//! `simple_asn1` 0.6.0: `from_der` panics on a UTCTime whose first character is ASCII and
//! second is above 0x7f (a `str` slice into the middle of a UTF-8 character).
//!
//! - Advisory: RUSTSEC-2021-0125, <https://rustsec.org/advisories/RUSTSEC-2021-0125.html>;
//!   issue <https://github.com/acw/simple_asn1/issues/27>
//! - Buggy: `simple_asn1 = "=0.6.0"`; fixed: `simple_asn1 = "=0.6.1"`.
//! - Input: binary DER (tag 0x17, a length, then the time's bytes).
//! - Failure: panic (byte index is not a char boundary).

/// Decodes `data` as DER.
pub fn entry(data: &[u8]) {
    let _ = simple_asn1::from_der(data);
}
