//! Bug 3, a parser: settings on one line, `name=demo; greeting="hello \"world\""`.
//!
//! Entries are separated by `;`. A value is bare (`demo`, letters, digits and `-_.:/`) or
//! quoted, where `\"` is a quote and `\\` a backslash. [`print`](fn@print) writes entries
//! in this form and [`parse`] reads them back. **The bug:** the parser decides whether a
//! quote ends the value by looking at the character before it: a quote after `\` is taken
//! as escaped. But in `"a\\"` that backslash is itself escaped, so the closing quote is
//! missed and the value never ends.
//!
//! **The property:** `parse(print(entries)) == entries`, over entries a user would write a
//! generator for: lowercase names and values of any printable ASCII.
//!
//! **Minimal counterexample:** `[("a", "\\")]`, one entry whose value is one backslash.
//! A failure needs a backslash in a value, and `"\\"` is the only value of one character
//! that fails (any other character, the quote included, roundtrips); `"a"` is the simplest
//! name.

use tapefuzz::engine::Report;
use tapefuzz::prelude::*;

/// Settings: `(name, value)` pairs, in order.
pub type Entries = Vec<(String, String)>;

/// Whether `value` can be written without quotes.
fn is_bare(value: &str) -> bool {
    !value.is_empty()
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.:/".contains(c))
}

/// `entries` on one line: `name=value` separated by `; `, values quoted when needed.
pub fn print(entries: &[(String, String)]) -> String {
    let entry = |(name, value): &(String, String)| {
        if is_bare(value) {
            format!("{name}={value}")
        } else {
            let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
            format!("{name}=\"{escaped}\"")
        }
    };
    entries.iter().map(entry).collect::<Vec<_>>().join("; ")
}

/// The entries of `line`; with `fixed` false, with the planted bug.
pub fn parse(line: &str, fixed: bool) -> Result<Entries, String> {
    let mut entries = Vec::new();
    let mut rest = line.trim_start();
    while !rest.is_empty() {
        let (name, after) = rest.split_once('=').ok_or("expected `name=value`")?;
        let after = after.trim_start();
        let (value, after) = match after.strip_prefix('"') {
            Some(quoted) if fixed => unquote(quoted)?,
            Some(quoted) => unquote_looking_back(quoted)?,
            None => {
                let end = after.find(';').unwrap_or(after.len());
                (after[..end].trim_end().to_string(), &after[end..])
            }
        };
        entries.push((name.trim().to_string(), value));
        rest = after.trim_start();
        if let Some(next) = rest.strip_prefix(';') {
            rest = next.trim_start();
        } else if !rest.is_empty() {
            return Err(format!("expected `;` before {rest:?}"));
        }
    }
    Ok(entries)
}

/// The value of a quoted string (`text` starts after its opening quote) and what follows
/// its closing quote.
fn unquote(text: &str) -> Result<(String, &str), String> {
    let mut value = String::new();
    let mut chars = text.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Ok((value, &text[i + 1..])),
            '\\' => value.push(chars.next().ok_or("a `\\` ends the line")?.1),
            c => value.push(c),
        }
    }
    Err("unterminated quoted value".into())
}

/// [`unquote`] with the bug: whether a character is escaped is read from the character
/// before it, which may itself have been escaped.
fn unquote_looking_back(text: &str) -> Result<(String, &str), String> {
    let mut value = String::new();
    let mut previous = None;
    for (i, c) in text.char_indices() {
        match c {
            '"' if previous != Some('\\') => return Ok((value, &text[i + 1..])),
            '\\' if previous != Some('\\') => {}
            c => value.push(c),
        }
        previous = Some(c);
    }
    Err("unterminated quoted value".into())
}

/// Entries a user would write: up to 4, each a lowercase name of 1 to 8 letters and a value
/// of up to 12 printable ASCII characters.
pub fn entries() -> impl Gen<Value = Entries> {
    let name = strings(CharClass::lowercase(), 1..=8);
    let value = strings(CharClass::ascii(), 0..=12);
    vecs((name, value), 0..=4)
}

/// The property: printing then parsing gives the entries back.
pub fn run(property: &Property, fixed: bool) -> Report {
    property.run(entries(), move |entries: Entries| {
        let line = print(&entries);
        let parsed = parse(&line, fixed).map_err(|e| Fail::failed(format!("{line}: {e}")))?;
        ensure!(parsed == entries, "{line} was read as {parsed:?}");
        Ok(())
    })
}
