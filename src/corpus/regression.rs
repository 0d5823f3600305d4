//! Regressions as text a person reads in `git diff`: one small file per shrunk failure.
//!
//! ```text
//! tapefuzz regression 3
//! property: sorted_insert
//! generator: 5d1f0c6a93e2b447
//! value: ([0], -1)
//! failure: panicked at tests/props.rs:12:9: not sorted: [0, -1]
//! tape: 01000000020000
//! ```
//!
//! A failure that kills its process (an abort, a stack overflow, a hang) also says
//! `isolate: yes`: later runs replay it in a process of their own.
//!
//! The first line says the format and its version; then `key: value` lines in any order
//! (unknown keys are ignored, so later versions can add some). `tape` is the shrunk tape's
//! bytes in hex (the byte encoding every source replays); `generator` is the structure
//! fingerprint of the tape as it was recorded ([`crate::tape::Recording::structure`]), so a
//! changed generator is noticed on replay; `value` and `failure` are for people: a value of
//! several lines (a stateful trace, an `assert_eq!` message) takes one line each, the later
//! ones indented by two spaces; backslashes and carriage returns are escaped as `\\` and
//! `\r` (files of earlier builds, with line breaks escaped as `\n`, read the same).
//! Deleting the file deletes the regression.

use std::fmt::Write as _;

/// The first line of every regression file this build writes. The number is the version of
/// the byte encoding of its tape ([`crate::tape::ENCODING_VERSION`]); files that say
/// `tapefuzz regression 1` or `2` hold tapes of those versions, which still replay as the
/// values they were saved as (see [`Regression::encoding`]).
pub const REGRESSION_HEADER: &str = "tapefuzz regression 3";

/// The first line every regression file starts with, whatever its version.
pub const REGRESSION_PREFIX: &str = "tapefuzz regression ";

/// A saved failure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Regression {
    /// The property's name.
    pub property: String,
    /// The structure fingerprint of the tape when it was saved (0: unknown).
    pub generator: u64,
    /// The shrunk value as the property's Debug showed it, if there was one.
    pub value: Option<String>,
    /// The failure message, if any.
    pub failure: Option<String>,
    /// The test case kills its process (a crash, a hang): replay it in a process of its own.
    pub isolate: bool,
    /// The tape's bytes.
    pub tape: Vec<u8>,
    /// The version of the byte encoding the tape is in (the file's first line): 3 for
    /// files this build writes, 1 or 2 for earlier ones (read with
    /// [`crate::tape::LegacySource`]).
    pub encoding: u32,
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('\n', "\\n")
        .replace('\r', "\\r")
}

/// What starts a line that continues the field above it.
const CONTINUATION: &str = "  ";

/// `key: text`, a text of several lines written one line each, the later ones indented by
/// [`CONTINUATION`], so a trace or an `assert_eq!` message reads as it printed.
fn field(t: &mut String, key: &str, text: &str) {
    let mut lines = text.split('\n');
    let _ = writeln!(t, "{key}: {}", escape(lines.next().unwrap_or_default()));
    for line in lines {
        let _ = writeln!(t, "{CONTINUATION}{}", escape(line));
    }
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

impl Regression {
    /// The file's text.
    pub fn to_text(&self) -> String {
        let mut t = format!("{REGRESSION_PREFIX}{}\n", self.encoding);
        let _ = writeln!(t, "property: {}", escape(&self.property));
        let _ = writeln!(t, "generator: {:016x}", self.generator);
        if let Some(v) = &self.value {
            field(&mut t, "value", v);
        }
        if let Some(f) = &self.failure {
            field(&mut t, "failure", f);
        }
        if self.isolate {
            t.push_str("isolate: yes\n");
        }
        let _ = writeln!(t, "tape: {}", to_hex(&self.tape));
        t
    }

    /// Reads a regression file's text; the error says what is wrong (untrusted input: any
    /// text gives a regression or an error, never a panic).
    pub fn parse(text: &str) -> Result<Regression, String> {
        let mut lines = text.lines();
        let encoding = match lines.next() {
            Some("tapefuzz regression 1") => 1,
            Some("tapefuzz regression 2") => 2,
            Some(REGRESSION_HEADER) => 3,
            Some(h) if h.starts_with(REGRESSION_PREFIX) => {
                return Err(format!(
                    "unsupported format `{h}` (this build reads 1 to 3)"
                ));
            }
            _ => return Err(format!("not a regression file (no `{REGRESSION_HEADER}`)")),
        };
        let mut r = Regression {
            property: String::new(),
            generator: 0,
            value: None,
            failure: None,
            isolate: false,
            tape: Vec::new(),
            encoding,
        };
        let mut tape = None;
        // The multi-line field the next indented line continues (`None` after another key:
        // the continuation of a key a later version added is skipped with it).
        let mut open: Option<&mut Option<String>> = None;
        for (n, line) in lines.enumerate() {
            // A blank line (an editor may strip a continuation's spaces) closes nothing.
            if line.trim().is_empty() {
                continue;
            }
            if let Some(rest) = line.strip_prefix(CONTINUATION) {
                if let Some(field) = open.as_deref_mut().and_then(Option::as_mut) {
                    field.push('\n');
                    field.push_str(&unescape(rest));
                }
                continue;
            }
            open = None;
            let Some((key, value)) = line.split_once(": ").or_else(|| line.split_once(':')) else {
                return Err(format!("line {}: no `key: value`", n + 2));
            };
            match key.trim() {
                "property" => r.property = unescape(value),
                "generator" => {
                    r.generator = u64::from_str_radix(value.trim(), 16)
                        .map_err(|_| format!("line {}: generator is not hex", n + 2))?;
                }
                "value" => {
                    r.value = Some(unescape(value));
                    open = Some(&mut r.value);
                }
                "failure" => {
                    r.failure = Some(unescape(value));
                    open = Some(&mut r.failure);
                }
                "isolate" => r.isolate = value.trim() == "yes",
                "tape" => {
                    tape = Some(from_hex(value.trim()).map_err(|e| format!("line {}: {e}", n + 2))?)
                }
                _ => {}
            }
        }
        r.tape = tape.ok_or("no `tape:` line")?;
        Ok(r)
    }
}

/// Bytes as lowercase hex.
pub(crate) fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Hex (two digits a byte) as bytes; the error says what is wrong.
pub(crate) fn from_hex(s: &str) -> Result<Vec<u8>, String> {
    if !s.len().is_multiple_of(2) {
        return Err("tape has an odd number of hex digits".into());
    }
    (0..s.len())
        .step_by(2)
        .map(|i| {
            s.get(i..i + 2)
                .and_then(|d| u8::from_str_radix(d, 16).ok())
                .ok_or_else(|| "tape is not hex".to_string())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_and_errors_are_named() {
        let r = Regression {
            property: "a::b".into(),
            generator: 0xdead_beef,
            value: Some("([0], \"x\\ny\")".into()),
            failure: Some("panicked: two\nlines \\ here".into()),
            isolate: true,
            tape: vec![1, 0, 255],
            encoding: crate::tape::ENCODING_VERSION,
        };
        let text = r.to_text();
        // The failure's second line is a line of its own, indented.
        assert_eq!(text.lines().count(), 8, "{text}");
        assert!(
            text.contains("failure: panicked: two\n  lines \\\\ here\n"),
            "{text}"
        );
        assert!(text.ends_with("tape: 0100ff\n"));
        assert_eq!(Regression::parse(&text), Ok(r.clone()));
        assert!(
            Regression::parse("junk")
                .unwrap_err()
                .contains("not a regression")
        );
        assert!(
            Regression::parse("tapefuzz regression 9\ntape: 00")
                .unwrap_err()
                .contains("unsupported")
        );
        assert!(Regression::parse(&format!("{REGRESSION_HEADER}\nvalue: 1")).is_err());
        assert!(Regression::parse(&format!("{REGRESSION_HEADER}\ntape: 0g")).is_err());
        assert!(Regression::parse(&format!("{REGRESSION_HEADER}\ntape: 0")).is_err());
        let minimal = Regression::parse(&format!("{REGRESSION_HEADER}\nfuture: x\ntape: 07\n"));
        assert_eq!(minimal.unwrap().tape, vec![7]);
        // A file of the first version: its tape is in encoding 1, and it says so again.
        // Line breaks escaped in one line, as earlier builds wrote them, read the same.
        let escaped = Regression::parse(&format!(
            "{REGRESSION_HEADER}\nfailure: panicked: two\\nlines \\\\ here\ntape: 00\n"
        ));
        assert_eq!(escaped.unwrap().failure, r.failure);
        // A continuation of nothing, or of a key this build does not know (a later
        // version's), is skipped with it; blank lines between continuations too.
        let skipped = Regression::parse(&format!(
            "{REGRESSION_HEADER}\n  x\nfuture: a\n  b: c\ntape: 00\n  y\nvalue: 1\n\n   2\n"
        ))
        .unwrap();
        assert_eq!(skipped.tape, vec![0]);
        assert_eq!(skipped.value.as_deref(), Some("1\n 2"));
        let old = Regression::parse("tapefuzz regression 1\ntape: 0107\n").unwrap();
        assert_eq!((old.encoding, old.tape.clone()), (1, vec![1, 7]));
        assert!(old.to_text().starts_with("tapefuzz regression 1\n"));
    }
}
