//! A value's `Debug` text (`{:?}` or `{:#?}`) read back as a small tree, so that a
//! [`PartPath`] can point into it.
//!
//! A test behind [`Regenerate`](super::Regenerate) gives its values only by their `Debug`
//! text; this module parses the shapes derived and standard `Debug` impls print:
//!
//! | text | shape |
//! |---|---|
//! | `(a, b)`, `(a,)`, `()` | [`Shape::Tuple`] without a name |
//! | `Some(3)`, `Put(0, 1)`, `Point(1, 2)` | [`Shape::Tuple`] with a name |
//! | `Point { x: 1, y: 2 }` (also `{ .., }` of non-exhaustive structs) | [`Shape::Struct`] |
//! | `[a, b]`, `{a, b}` (a set), `{}` | [`Shape::List`] |
//! | `{k: v, …}` | [`Shape::Map`] of [`Shape::Entry`] nodes |
//! | `"a, \"b\"]"`, `'c'`, `-1`, `2.5e-7`, `NaN`, `None`, `a::B`, `PhantomData<(u8, u16)>` | [`Shape::Atom`] |
//!
//! A trace printed one numbered item a line (`1. Put(0, 1)` then `2. Get(0)`) reads as a
//! list of its items, and `(no actions)` as an empty list; a concurrent trace (`prefix:`,
//! `thread 1:`, … each followed by its numbered lines) as a struct of such lists, `.prefix`,
//! `.thread1`, …. Anything else that is not one of
//! these shapes is an error with the byte offset where reading stopped; whitespace and
//! newlines between tokens and trailing commas (`{:#?}`) are allowed.

use super::path::{PartPath, PathStep};
use std::fmt;

/// One part of a parsed value: its shape and where its text is in the whole.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// Byte offset of the part's first character in the parsed text.
    pub start: usize,
    /// Byte offset one past the part's last character.
    pub end: usize,
    /// What the part is.
    pub shape: Shape,
}

/// The shape of a [`Node`].
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// A leaf: a number, a string or char literal (escapes kept as printed), a unit name
    /// (`None`, `Empty`), or any other token.
    Atom,
    /// Positional fields: a tuple (`name` is `None`), a tuple struct or a tuple-like enum
    /// variant (`Some(3)`: `name` is `Some("Some")`).
    Tuple {
        /// The struct's or variant's name as printed, if any.
        name: Option<String>,
        /// The fields, in order.
        items: Vec<Node>,
    },
    /// Named fields: `Name { a: 1, b: 2 }`.
    Struct {
        /// The struct's or variant's name as printed.
        name: String,
        /// The fields and their values, in order.
        fields: Vec<(String, Node)>,
    },
    /// Elements: a list `[…]` (`bracket` is `'['`) or a set `{…}` (`'{'`; also the empty
    /// `{}`, which may be an empty map).
    List {
        /// `'['` or `'{'`.
        bracket: char,
        /// The elements, in order.
        items: Vec<Node>,
    },
    /// A map `{k: v, …}`: its elements are [`Shape::Entry`] nodes.
    Map {
        /// The entries, in order.
        entries: Vec<Node>,
    },
    /// One entry `key: value` of a map; `.0` is the key, `.1` the value.
    Entry {
        /// The key.
        key: Box<Node>,
        /// The value.
        value: Box<Node>,
    },
}

/// A parsed `Debug` text.
#[derive(Clone, Debug, PartialEq)]
pub struct DebugTree {
    /// The text parsed.
    pub text: String,
    /// Its root: the whole value.
    pub root: Node,
}

/// Why a `Debug` text could not be read as a tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Byte offset in the text where reading stopped.
    pub position: usize,
    /// What was expected there.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot read the value's Debug text at byte {}: {}",
            self.position, self.message
        )
    }
}

impl std::error::Error for ParseError {}

/// Why a path does not lead to a part of a value: how far it got, and what is there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelectError {
    /// The longest prefix of the path that exists in the value.
    pub found: PartPath,
    /// The step that does not.
    pub step: PathStep,
    /// What is at `found` and why `step` does not apply to it.
    pub message: String,
}

impl fmt::Display for SelectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.found.steps.is_empty() {
            "the value".to_string()
        } else {
            format!("`{}`", self.found)
        };
        write!(
            f,
            "no `{}` in {at}{}: {}",
            self.step,
            if self.found.steps.is_empty() {
                ""
            } else {
                " of the value"
            },
            self.message
        )
    }
}

impl std::error::Error for SelectError {}

impl DebugTree {
    /// Parses a value's `Debug` text (see the module docs for the shapes).
    ///
    /// ```
    /// use tapefuzz::provenance::{DebugTree, PartPath};
    ///
    /// let t = DebugTree::parse("(4, [Point { x: 3, y: -1 }])").unwrap();
    /// let part = t.select(&PartPath::parse(".1[0].y").unwrap()).unwrap();
    /// assert_eq!(t.text_of(part), "-1");
    /// ```
    pub fn parse(text: &str) -> Result<DebugTree, ParseError> {
        if let Some(root) = numbered_lines(text)?.or(sections(text)?) {
            return Ok(DebugTree {
                text: text.to_string(),
                root,
            });
        }
        let mut p = Parser {
            s: text,
            b: text.as_bytes(),
            i: 0,
        };
        p.ws();
        let root = p.value()?;
        p.ws();
        if p.i < p.b.len() {
            return Err(p.err(format!(
                "unexpected `{}` after the value",
                p.s[p.i..].chars().next().unwrap_or('?')
            )));
        }
        Ok(DebugTree {
            text: text.to_string(),
            root,
        })
    }

    /// The whole `text` as one leaf, for a value whose `Debug` text is not a shape
    /// [`DebugTree::parse`] reads: only the empty path selects in it.
    pub fn atom(text: &str) -> DebugTree {
        DebugTree {
            text: text.to_string(),
            root: Node {
                start: 0,
                end: text.len(),
                shape: Shape::Atom,
            },
        }
    }

    /// The text of a node of this tree.
    pub fn text_of(&self, node: &Node) -> &str {
        &self.text[node.start..node.end]
    }

    /// The part at `path`, or why there is none.
    pub fn select(&self, path: &PartPath) -> Result<&Node, SelectError> {
        let mut node = &self.root;
        for (k, step) in path.steps.iter().enumerate() {
            let found = PartPath {
                steps: path.steps[..k].to_vec(),
            };
            let fail = |message: String| SelectError {
                found: found.clone(),
                step: step.clone(),
                message,
            };
            node = match (step, &node.shape) {
                (PathStep::Position(n), Shape::Tuple { items, .. }) => items.get(*n),
                (PathStep::Position(0), Shape::Entry { key, .. }) => Some(&**key),
                (PathStep::Position(1), Shape::Entry { value, .. }) => Some(&**value),
                (PathStep::Field(name), Shape::Struct { fields, .. }) => {
                    fields.iter().find(|(f, _)| f == name).map(|(_, v)| v)
                }
                (PathStep::Index(i), Shape::List { items, .. } | Shape::Map { entries: items }) => {
                    items.get(*i)
                }
                _ => None,
            }
            .ok_or_else(|| fail(self.describe(node)))?;
        }
        Ok(node)
    }

    /// A short description of a node for error messages: its shape, what steps apply to
    /// it, and its text (cut after 60 characters).
    pub fn describe(&self, node: &Node) -> String {
        let text = self.text_of(node);
        let short: String = if text.chars().count() > 60 {
            text.chars().take(57).chain("...".chars()).collect()
        } else {
            text.to_string()
        };
        let what = match &node.shape {
            Shape::Atom => "a plain value (no parts)".to_string(),
            Shape::Tuple { name: None, items } => {
                format!(
                    "a tuple of {} (steps .0 to .{})",
                    items.len(),
                    items.len().max(1) - 1
                )
            }
            Shape::Tuple {
                name: Some(n),
                items,
            } => format!(
                "`{n}` with {} positional field(s) (steps .0 to .{})",
                items.len(),
                items.len().max(1) - 1
            ),
            Shape::Struct { name, fields } => format!(
                "`{name}` with fields {}",
                fields
                    .iter()
                    .map(|(f, _)| format!(".{f}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Shape::List { items, .. } => format!(
                "a list of {} element(s) (steps [0] to [{}])",
                items.len(),
                items.len().max(1) - 1
            ),
            Shape::Map { entries } => format!(
                "a map of {} entries (steps [i], then .0 for the key, .1 for the value)",
                entries.len()
            ),
            Shape::Entry { .. } => "a map entry (steps .0 key, .1 value)".to_string(),
        };
        format!("{what}: `{short}`")
    }
}

/// A trace printed one numbered item a line (`1. a` / `2. b`), or `(no actions)`: a list.
fn numbered_lines(text: &str) -> Result<Option<Node>, ParseError> {
    if text.trim() == "(no actions)" {
        return Ok(Some(Node {
            start: 0,
            end: text.len(),
            shape: Shape::List {
                bracket: '[',
                items: Vec::new(),
            },
        }));
    }
    if !text.starts_with("1. ") {
        return Ok(None);
    }
    let mut items = Vec::new();
    let mut offset = 0;
    for (k, line) in text.split('\n').enumerate() {
        let Some(v) = numbered_item(text, offset, line, k + 1)? else {
            return Ok(None);
        };
        items.push(v);
        offset += line.len() + 1;
    }
    Ok(Some(Node {
        start: 0,
        end: text.len(),
        shape: Shape::List {
            bracket: '[',
            items,
        },
    }))
}

/// The value of `line` (which starts at `offset` in `text`) numbered `n` (`n. value`), or
/// `None` when the line is not that number and one value.
fn numbered_item(
    text: &str,
    offset: usize,
    line: &str,
    n: usize,
) -> Result<Option<Node>, ParseError> {
    let prefix = format!("{n}. ");
    if !line.starts_with(&prefix) {
        return Ok(None);
    }
    let mut p = Parser {
        s: text,
        b: &text.as_bytes()[..offset + line.len()],
        i: offset + prefix.len(),
    };
    let v = p.value()?;
    p.ws();
    Ok((p.i == p.b.len()).then_some(v))
}

/// A concurrent trace (`stateful::Parallel`): `prefix:` then `thread 1:`, `thread 2:`, …,
/// each header followed by its numbered lines. A struct whose fields are the sections
/// (spaces dropped: `.prefix`, `.thread1`), each a list.
fn sections(text: &str) -> Result<Option<Node>, ParseError> {
    if !text.starts_with("prefix:") {
        return Ok(None);
    }
    let mut fields: Vec<(String, Node)> = Vec::new();
    let mut current: Option<(String, usize, usize, Vec<Node>)> = None;
    let mut offset = 0;
    let close = |c: Option<(String, usize, usize, Vec<Node>)>, fields: &mut Vec<(String, Node)>| {
        if let Some((name, start, end, items)) = c {
            fields.push((
                name,
                Node {
                    start,
                    end,
                    shape: Shape::List {
                        bracket: '[',
                        items,
                    },
                },
            ));
        }
    };
    for line in text.split('\n') {
        let header = line
            .strip_suffix(':')
            .filter(|h| !h.starts_with(|c: char| c.is_ascii_digit()));
        if let Some(name) = header {
            close(current.take(), &mut fields);
            current = Some((
                name.replace(' ', ""),
                offset,
                offset + line.len(),
                Vec::new(),
            ));
        } else {
            let Some((_, _, end, items)) = current.as_mut() else {
                return Ok(None);
            };
            let Some(v) = numbered_item(text, offset, line, items.len() + 1)? else {
                return Ok(None);
            };
            items.push(v);
            *end = offset + line.len();
        }
        offset += line.len() + 1;
    }
    close(current, &mut fields);
    Ok(Some(Node {
        start: 0,
        end: text.len(),
        shape: Shape::Struct {
            name: "Parallel".to_string(),
            fields,
        },
    }))
}

struct Parser<'a> {
    s: &'a str,
    b: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn err(&self, message: String) -> ParseError {
        ParseError {
            position: self.i,
            message,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn ws(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_whitespace()) {
            self.i += 1;
        }
    }

    fn found(&self) -> String {
        match self.s[self.i..self.b.len()].chars().next() {
            Some(c) => format!("`{c}`"),
            None => "the end".to_string(),
        }
    }

    fn value(&mut self) -> Result<Node, ParseError> {
        let start = self.i;
        match self.peek() {
            Some(b'(') => {
                self.i += 1;
                let items = self.seq(b')')?;
                Ok(self.node(start, Shape::Tuple { name: None, items }))
            }
            Some(b'[') => {
                self.i += 1;
                let items = self.seq(b']')?;
                Ok(self.node(
                    start,
                    Shape::List {
                        bracket: '[',
                        items,
                    },
                ))
            }
            Some(b'{') => {
                self.i += 1;
                self.braces(start)
            }
            Some(b'"') => {
                self.quoted(b'"')?;
                Ok(self.node(start, Shape::Atom))
            }
            Some(b'\'') => {
                self.quoted(b'\'')?;
                Ok(self.node(start, Shape::Atom))
            }
            Some(c) if !b",)]}:".contains(&c) && !c.is_ascii_whitespace() => self.named(start),
            _ => Err(self.err(format!("expected a value, found {}", self.found()))),
        }
    }

    fn node(&self, start: usize, shape: Shape) -> Node {
        Node {
            start,
            end: self.i,
            shape,
        }
    }

    /// A string or char literal, escapes skipped over.
    fn quoted(&mut self, quote: u8) -> Result<(), ParseError> {
        let start = self.i;
        self.i += 1;
        while let Some(c) = self.peek() {
            self.i += 1;
            if c == b'\\' {
                self.i += 1;
            } else if c == quote {
                return Ok(());
            }
        }
        Err(ParseError {
            position: start,
            message: "a literal that is never closed".into(),
        })
    }

    /// A token (a number, a name, a path with generics), then `(…)` or ` { … }` when it
    /// names a tuple struct or a struct.
    fn named(&mut self, start: usize) -> Result<Node, ParseError> {
        let mut angle = 0usize;
        while let Some(c) = self.peek() {
            match c {
                b'<' => angle += 1,
                b'>' if angle > 0 => angle -= 1,
                _ if angle > 0 => {}
                b',' | b'(' | b')' | b'[' | b']' | b'{' | b'}' => break,
                b':' if self
                    .b
                    .get(self.i + 1)
                    .is_none_or(|n| n.is_ascii_whitespace()) =>
                {
                    break;
                }
                _ if c.is_ascii_whitespace() => break,
                _ => {}
            }
            self.i += 1;
        }
        let name = self.s[start..self.i].to_string();
        let ident = name
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_');
        match self.peek() {
            Some(b'(') if ident => {
                self.i += 1;
                let items = self.seq(b')')?;
                return Ok(self.node(
                    start,
                    Shape::Tuple {
                        name: Some(name),
                        items,
                    },
                ));
            }
            _ => {}
        }
        if ident {
            // `Name { … }`: look past whitespace for a brace.
            let after = self.i;
            self.ws();
            if self.peek() == Some(b'{') {
                self.i += 1;
                let fields = self.fields()?;
                return Ok(self.node(start, Shape::Struct { name, fields }));
            }
            self.i = after;
        }
        Ok(self.node(start, Shape::Atom))
    }

    /// Comma-separated values up to `close` (a trailing comma allowed).
    fn seq(&mut self, close: u8) -> Result<Vec<Node>, ParseError> {
        let mut items = Vec::new();
        loop {
            self.ws();
            if self.peek() == Some(close) {
                self.i += 1;
                return Ok(items);
            }
            items.push(self.value()?);
            self.separator(close)?;
        }
    }

    /// After an item: a `,` (consumed) or `close` (left for the caller's loop to see).
    fn separator(&mut self, close: u8) -> Result<(), ParseError> {
        self.ws();
        match self.peek() {
            Some(b',') => {
                self.i += 1;
                Ok(())
            }
            Some(c) if c == close => Ok(()),
            _ => Err(self.err(format!(
                "expected `,` or `{}`, found {}",
                close as char,
                self.found()
            ))),
        }
    }

    /// After `{`: a set, a map or the empty `{}`.
    fn braces(&mut self, start: usize) -> Result<Node, ParseError> {
        let mut items = Vec::new();
        let mut entries = Vec::new();
        loop {
            self.ws();
            if self.peek() == Some(b'}') {
                self.i += 1;
                break;
            }
            let first = self.value()?;
            self.ws();
            if self.peek() == Some(b':') {
                if !items.is_empty() {
                    return Err(self.err("a map entry in a set".into()));
                }
                self.i += 1;
                self.ws();
                let value = self.value()?;
                entries.push(Node {
                    start: first.start,
                    end: value.end,
                    shape: Shape::Entry {
                        key: Box::new(first),
                        value: Box::new(value),
                    },
                });
            } else {
                if !entries.is_empty() {
                    return Err(self.err(format!(
                        "expected `:` after a map key, found {}",
                        self.found()
                    )));
                }
                items.push(first);
            }
            self.separator(b'}')?;
        }
        Ok(if entries.is_empty() {
            self.node(
                start,
                Shape::List {
                    bracket: '{',
                    items,
                },
            )
        } else {
            self.node(start, Shape::Map { entries })
        })
    }

    /// After `Name {`: `field: value` pairs up to `}`, a trailing `..` allowed.
    fn fields(&mut self) -> Result<Vec<(String, Node)>, ParseError> {
        let mut fields = Vec::new();
        loop {
            self.ws();
            match self.peek() {
                Some(b'}') => {
                    self.i += 1;
                    return Ok(fields);
                }
                Some(b'.') if self.s[self.i..self.b.len()].starts_with("..") => {
                    self.i += 2;
                }
                Some(c) if c.is_ascii_alphabetic() || c == b'_' => {
                    let from = self.i;
                    while self
                        .peek()
                        .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'#')
                    {
                        self.i += 1;
                    }
                    let name = self.s[from..self.i].trim_start_matches("r#").to_string();
                    self.ws();
                    if self.peek() != Some(b':') {
                        return Err(self.err(format!(
                            "expected `:` after field `{name}`, found {}",
                            self.found()
                        )));
                    }
                    self.i += 1;
                    self.ws();
                    let v = self.value()?;
                    fields.push((name, v));
                }
                _ => {
                    return Err(self.err(format!("expected a field name, found {}", self.found())));
                }
            }
            self.separator(b'}')?;
        }
    }
}
