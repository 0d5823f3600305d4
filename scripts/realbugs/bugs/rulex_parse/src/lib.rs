//! `rulex` 0.4.2: the parser slices into a multi-byte UTF-8 character after a backslash or in
//! a string literal (RUSTSEC-2022-0031), and recurses without limit on nested groups
//! (RUSTSEC-2022-0030, stack overflow).
//!
//! - Advisories: <https://rustsec.org/advisories/RUSTSEC-2022-0031.html>
//!   (GHSA-8v9w-p43c-r885), <https://rustsec.org/advisories/RUSTSEC-2022-0030.html>
//!   (GHSA-v78m-2q7v-fjqp)
//! - Buggy: `rulex = "=0.4.2"` (yanked: kept through Cargo.lock); fixed: `rulex = "=0.4.3"`.
//! - Input: text (`&str`, a rulex expression).
//! - Failure: panic (byte index is not a char boundary), or stack overflow.

/// Parses and compiles `s` as a user would.
pub fn entry(s: &str) {
    if let Ok(r) = rulex::Rulex::parse(s, Default::default()) {
        let _ = r.compile(Default::default());
    }
}
