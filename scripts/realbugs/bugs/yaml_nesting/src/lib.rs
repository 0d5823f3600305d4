//! `yaml-rust` 0.4.0: unbounded recursion on deeply nested flow collections (`[[[[…`), so a
//! small document overflows the stack.
//!
//! - Advisory: RUSTSEC-2018-0006, <https://rustsec.org/advisories/RUSTSEC-2018-0006.html>;
//!   fix <https://github.com/chyh1990/yaml-rust/pull/109>
//! - Buggy: `yaml-rust = "=0.4.0"`; fixed: `yaml-rust = "=0.4.1"` (recursion limit).
//! - Input: text (`&str`).
//! - Failure: stack overflow (the process dies).

/// Loads `s` as YAML documents.
pub fn entry(s: &str) {
    let _ = yaml_rust::YamlLoader::load_from_str(s);
}
