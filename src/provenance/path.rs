//! Paths into a value: `.1[0].x`, `.field`, `[3]`, `.0`, and the empty path (the whole
//! value).

use std::fmt;

/// One step of a [`PartPath`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PathStep {
    /// `.N`: the `N`th positional field of a tuple, a tuple struct or an enum variant
    /// (`Some(3)`, `Put(0, 1)`), counted from 0; on a map entry, `.0` is the key and `.1`
    /// the value.
    Position(usize),
    /// `.name`: the field called `name` of a struct or a struct-like variant.
    Field(String),
    /// `[i]`: the `i`th element of a list, a set or a map (a map's element is an entry
    /// `key: value`), counted from 0.
    Index(usize),
}

impl fmt::Display for PathStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathStep::Position(n) => write!(f, ".{n}"),
            PathStep::Field(name) => write!(f, ".{name}"),
            PathStep::Index(i) => write!(f, "[{i}]"),
        }
    }
}

/// A path to a part of a value, as a user writes it: steps `.N`, `.name` and `[i]` in any
/// order, with no spaces (`.1[0].x`). The empty path is the whole value. Its
/// [`Display`](fmt::Display) writes it back as parsed (`[1].0`; the empty path as the empty
/// string).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PartPath {
    /// The steps, outermost first.
    pub steps: Vec<PathStep>,
}

/// Why a path did not parse: what was wrong and at which byte of the path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathError {
    /// The byte offset in the path where the problem is (the path's length for a path that
    /// ends too early).
    pub position: usize,
    /// What is wrong there.
    pub message: String,
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {} of the path: {}", self.position, self.message)
    }
}

impl std::error::Error for PathError {}

impl fmt::Display for PartPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for s in &self.steps {
            write!(f, "{s}")?;
        }
        Ok(())
    }
}

impl PartPath {
    /// The whole value (no steps).
    pub fn root() -> PartPath {
        PartPath::default()
    }

    /// Parses a path. `.` followed by digits is a position, `.` followed by an identifier
    /// (a letter or `_`, then letters, digits or `_`; raw identifiers `r#type` too) a field,
    /// `[digits]` an index. Leading zeros are allowed (`.01` is `.1`); spaces are not.
    ///
    /// ```
    /// use tapefuzz::provenance::{PartPath, PathStep};
    ///
    /// let p = PartPath::parse(".1[0].x").unwrap();
    /// assert_eq!(p.steps, [PathStep::Position(1), PathStep::Index(0), PathStep::Field("x".into())]);
    /// assert_eq!(p.to_string(), ".1[0].x");
    /// assert!(PartPath::parse("").unwrap().steps.is_empty());
    /// let e = PartPath::parse(".1[x]").unwrap_err();
    /// assert_eq!(e.position, 3);
    /// ```
    pub fn parse(text: &str) -> Result<PartPath, PathError> {
        let bytes = text.as_bytes();
        let mut steps = Vec::new();
        let mut i = 0;
        let err = |position: usize, message: String| PathError { position, message };
        let number = |from: usize| -> Result<(usize, usize), PathError> {
            let end = from
                + bytes[from..]
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count();
            let n = text[from..end]
                .parse::<usize>()
                .map_err(|_| err(from, format!("`{}` is too large", &text[from..end])))?;
            Ok((n, end))
        };
        while i < bytes.len() {
            match bytes[i] {
                b'.' => {
                    let from = i + 1;
                    match bytes.get(from) {
                        Some(b) if b.is_ascii_digit() => {
                            let (n, end) = number(from)?;
                            steps.push(PathStep::Position(n));
                            i = end;
                        }
                        Some(b) if b.is_ascii_alphabetic() || *b == b'_' => {
                            let start = if text[from..].starts_with("r#") {
                                from + 2
                            } else {
                                from
                            };
                            let end = start
                                + bytes[start..]
                                    .iter()
                                    .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                                    .count();
                            if end == start {
                                return Err(err(start, "expected a field name after `r#`".into()));
                            }
                            steps.push(PathStep::Field(text[start..end].to_string()));
                            i = end;
                        }
                        Some(_) => {
                            let c = text[from..].chars().next().unwrap_or('?');
                            return Err(err(
                                from,
                                format!(
                                    "expected a position (`.0`) or a field name (`.x`) after `.`, found `{c}`"
                                ),
                            ));
                        }
                        None => {
                            return Err(err(
                                from,
                                "the path ends after `.`: expected a position (`.0`) or a field name (`.x`)".into(),
                            ));
                        }
                    }
                }
                b'[' => {
                    let from = i + 1;
                    match bytes.get(from) {
                        Some(b) if b.is_ascii_digit() => {
                            let (n, end) = number(from)?;
                            match bytes.get(end) {
                                Some(b']') => {
                                    steps.push(PathStep::Index(n));
                                    i = end + 1;
                                }
                                Some(_) => {
                                    let c = text[end..].chars().next().unwrap_or('?');
                                    return Err(err(
                                        end,
                                        format!("expected `]` after the index, found `{c}`"),
                                    ));
                                }
                                None => {
                                    return Err(err(
                                        end,
                                        "the path ends inside `[…]`: expected `]`".into(),
                                    ));
                                }
                            }
                        }
                        Some(_) => {
                            let c = text[from..].chars().next().unwrap_or('?');
                            return Err(err(
                                from,
                                format!(
                                    "expected an element index (digits, as in `[0]`) after `[`, found `{c}`"
                                ),
                            ));
                        }
                        None => {
                            return Err(err(
                                from,
                                "the path ends after `[`: expected an index and `]`".into(),
                            ));
                        }
                    }
                }
                _ => {
                    let c = text[i..].chars().next().unwrap_or('?');
                    return Err(err(
                        i,
                        format!(
                            "expected `.` or `[` to start a step, found `{c}` (paths look like `.1[0].x`)"
                        ),
                    ));
                }
            }
        }
        Ok(PartPath { steps })
    }

    /// The path with one more step.
    pub fn child(&self, step: PathStep) -> PartPath {
        let mut steps = self.steps.clone();
        steps.push(step);
        PartPath { steps }
    }
}

impl std::str::FromStr for PartPath {
    type Err = PathError;
    fn from_str(s: &str) -> Result<PartPath, PathError> {
        PartPath::parse(s)
    }
}
