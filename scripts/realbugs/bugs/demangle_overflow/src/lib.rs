//! `rustc-demangle` 0.1.5: a long length prefix in a mangled symbol overflows `usize`
//! (`attempt to multiply with overflow` with debug assertions on; slicing panics without).
//!
//! - Issue: <https://github.com/rust-lang/rustc-demangle/issues/9> (fixed in commit 78501e1,
//!   "Fix some panics uncovered via fuzzing")
//! - Buggy: `rustc-demangle = "=0.1.5"`; fixed: `rustc-demangle = "=0.1.6"`.
//! - Input: text (`&str`, a symbol such as `_ZN2222222222222222222222EE`).
//! - Failure: arithmetic overflow panic.

/// Demangles `s` and formats the result, as a user would.
pub fn entry(s: &str) {
    let _ = rustc_demangle::demangle(s).to_string();
}
