//! `protobuf` 3.7.1: unknown fields of the group wire type are skipped (and kept) by a
//! recursion without a depth limit, so a message of nested start-group tags overflows the
//! stack.
//!
//! - Advisory: RUSTSEC-2024-0437 / CVE-2025-53605,
//!   <https://rustsec.org/advisories/RUSTSEC-2024-0437.html>
//! - Buggy: `protobuf = "=3.7.1"`; fixed: `protobuf = "=3.7.2"` (recursion limit).
//! - Input: binary protobuf (nested start-group tags of an unknown field, e.g. `0x13` =
//!   field 2, wire type 3, repeated).
//! - Failure: stack overflow (the process dies).

use protobuf3::Message;

/// Parses `data` as a `google.protobuf.BytesValue` (field 1; any other field is unknown).
pub fn entry(data: &[u8]) {
    let _ = protobuf3::well_known_types::wrappers::BytesValue::parse_from_bytes(data);
}
