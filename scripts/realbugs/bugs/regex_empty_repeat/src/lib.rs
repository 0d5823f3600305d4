//! `regex` 1.5.4: a large repetition of an empty sub-expression compiles for minutes (empty
//! sub-expressions did not count towards the compiled program's size limit).
//!
//! - Advisory: RUSTSEC-2022-0013 (CVE-2022-24713),
//!   <https://rustsec.org/advisories/RUSTSEC-2022-0013.html>; fix: regex 1.5.5.
//! - Buggy: `regex = "=1.5.4"`; fixed: `regex = "=1.5.5"` (the size limit refuses it at once).
//! - Input: text, a pattern such as `(?:){4294967295}` (an empty group, a repetition count
//!   of nine digits or more, or repetitions of repetitions: `(?:){1000}{1000}{1000}`).
//! - Failure: hang (seconds per million repetitions).

/// Compiles `s` as a regular expression, as a service taking patterns from users would.
pub fn entry(s: &str) {
    let _ = regex::Regex::new(s);
}
