//! `cookie` 0.7.5: a `Max-Age` attribute with a large number panics in
//! `time::Duration::seconds` (more seconds than a `Duration` holds in milliseconds).
//!
//! - Advisory: RUSTSEC-2017-0005 (CVE-2017-18589),
//!   <https://rustsec.org/advisories/RUSTSEC-2017-0005.html>; fix: rwf2/cookie-rs#86
//! - Buggy: `cookie = "=0.7.5"`; fixed: `cookie = "=0.7.6"`.
//! - Input: text (`&str`, a `Set-Cookie` value such as `a=b; Max-Age=9999999999999999`: a
//!   named attribute, compared without case, and a huge number).
//! - Failure: panic (`Duration::seconds out of bounds`).

/// Parses `s` as a cookie and reads its `Max-Age`, as a user would.
pub fn entry(s: &str) {
    if let Ok(c) = cookie::Cookie::parse(s) {
        let _ = c.max_age();
    }
}
