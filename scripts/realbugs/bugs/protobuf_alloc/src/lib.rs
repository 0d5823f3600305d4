//! `protobuf` 2.5.0: `CodedInputStream::read_raw_bytes_into` reserves the length a
//! length-delimited field announces before checking it against the input, so a 3-byte message
//! asks for gigabytes (or, above `isize::MAX`, panics with "capacity overflow").
//!
//! - Advisory: RUSTSEC-2019-0003, <https://rustsec.org/advisories/RUSTSEC-2019-0003.html>;
//!   issue <https://github.com/stepancheg/rust-protobuf/issues/411>
//! - Buggy: `protobuf = "=2.5.0"`; fixed: `protobuf = "=2.6.0"`.
//! - Input: binary protobuf (a `bytes` field: tag 0x0a, then a varint length).
//! - Failure: huge allocation (out-of-memory under libFuzzer's `-rss_limit_mb`/malloc limit;
//!   abort "memory allocation of N bytes failed" or panic "capacity overflow" otherwise).

/// Parses `data` as a `google.protobuf.BytesValue` (a message with one `bytes` field).
pub fn entry(data: &[u8]) {
    let _ = protobuf::parse_from_bytes::<protobuf::well_known_types::BytesValue>(data);
}
