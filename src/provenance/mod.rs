//! Provenance: point at a part of a value and see what produced it — the spans, choices and
//! tape bytes it was made of, and the upstream choices (other parts of the tape) it depends
//! on. Synthia's explanation graphs (paper 004, Fig. 3), on the choice tape.
//!
//! - [`PartPath`] ([`path`](mod@path)): `.1[0].x`, `.name`, `[3]`, `.0`, or the empty path
//!   (the whole value).
//! - [`DebugTree`] ([`debug_tree`]): a value's `Debug` text read back as a tree, in which a
//!   path selects a part (a test behind [`Regenerate`] gives its values only by their
//!   `Debug`).
//! - Influence ([`influence`]): each unforced choice of the tape is changed in turn, the
//!   value generated again (the generator alone, [`Regenerate::render`]), and the choice
//!   **influences** the part when the part's text changes or the part disappears.
//! - Location: the spans of the path's steps (field spans for `.N` / `.name`,
//!   element spans for `[i]`); the innermost one is the part's own span. Influencing
//!   choices inside it are the part's **own**; those outside are **upstream** (a length
//!   drawn before a list, the model state a stateful action was drawn in, an earlier
//!   action's argument), shown with the innermost span holding them and, where a span
//!   made a part of the same value, that part's path and value. A step is located when
//!   the counts agree (as many field spans below as the value has fields, as many element
//!   spans as elements); a set or a map is in sorted order, not draw order, and a value a
//!   `map` made of one choice has no spans inside, so such a step is not located. Then the
//!   own span is inferred: the smallest span inside the located one that holds every
//!   choice changing the part, "one more element?" coins aside.
//! - Upstream choices whose change only removes the part (a coin before it, a length, a
//!   variant) are listed apart, as what the part's existence depends on
//!   ([`Provenance::existence`]); the others change its value
//!   ([`Provenance::upstream_values`]).
//! - Rendering: [`Provenance::render_text`], [`Provenance::render_dot`] (Graphviz) and
//!   [`Provenance::render_svg`] (a standalone SVG laid out here: part, then spans, then
//!   choices, left to right).
//!
//! ```
//! use tapefuzz::prelude::*;
//! use tapefuzz::property::property;
//! use tapefuzz::provenance::explain_path;
//!
//! // A count, then that many points.
//! let test = property(
//!     (ints::<u8>(0..=9), vecs((ints::<i8>(-5..=5), ints::<i8>(-5..=5)), 0..=3)),
//!     |_| true,
//! );
//! let p = explain_path(&test, &[4, 1, 6, 2, 0], ".1[0].0").unwrap();
//! assert_eq!(p.part, "-3");
//! assert_eq!(p.value, "(4, [(-3, -1)])");
//! // The part's own choice is the integer drawn in its field span.
//! let own: Vec<_> = p.own_choices().filter(|c| c.influence.is_some()).collect();
//! assert_eq!((own.len(), own[0].index, own[0].bytes.clone()), (1, 6, Some(2..3)));
//! assert!(p.render_text().starts_with("part .1[0].0 = -3\n"));
//! assert!(p.render_svg().starts_with("<svg"));
//! ```
//!
//! `explain` shows this for any property: `harnesses explain <target> FILE --path P [--dot
//! F] [--svg F]`, and for a property of one's own, `cargo tapefuzz explain <property> FILE`
//! with the same flags (or `TAPEFUZZ_EXPLAIN_PATH`, `TAPEFUZZ_EXPLAIN_DOT`,
//! `TAPEFUZZ_EXPLAIN_SVG`, see [`crate::serve`]).

pub mod debug_tree;
mod graph;
pub mod influence;
mod locate;
pub mod path;
mod render_dot;
mod render_svg;
mod render_text;

pub use debug_tree::{DebugTree, Node, ParseError, SelectError, Shape};
pub use influence::{Change, Influence};
pub use path::{PartPath, PathError, PathStep};

use crate::tape::encoding::width;
use crate::tape::{BytesSource, Kind, Recording, Tape};
use std::fmt;
use std::ops::Range;

/// What provenance asks of a test: the value (its `Debug` text) a tape makes. Every
/// [`Test`](crate::property::Test) is one; provenance needs nothing else of a property.
pub trait Regenerate {
    /// The value the generator alone makes of the tape; `None` when the generator makes
    /// no value there, or when this test cannot run its generator alone (then
    /// [`Regenerate::value`] is used, and the property runs too).
    fn render(&self, tape: &mut Tape<'_>) -> Option<String>;

    /// The value of the whole test case on the tape (the generator, then the property, whose
    /// failure is caught); `None` when the generator makes no value there.
    fn value(&self, tape: &mut Tape<'_>) -> Option<String>;
}

/// One choice of the tape, as provenance shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChoiceNote {
    /// Its position on the tape (0 for the first choice).
    pub position: usize,
    /// Its label's name.
    pub label: &'static str,
    /// Its label's kind.
    pub kind: Kind,
    /// The index drawn.
    pub index: u64,
    /// The largest index it allowed.
    pub max: u64,
    /// Whether it was forced (no alternative; no bytes).
    pub forced: bool,
    /// The bytes of the tape file it was read from (`None` for a forced choice, and for a
    /// one-option choice, which reads no bytes). May lie past the end of the file: such a
    /// choice read zeros (index 0).
    pub bytes: Option<Range<usize>>,
    /// The innermost span holding it (an index into [`Provenance::spans`]), if any.
    pub span: Option<usize>,
    /// How changing it changed the part (`None`: no change seen, or forced).
    pub influence: Option<Influence>,
}

impl ChoiceNote {
    /// Whether changing this choice removed the part (rather than changing its text).
    pub fn removes(&self) -> bool {
        matches!(
            self.influence,
            Some(Influence {
                change: Change::Gone,
                ..
            })
        )
    }
}

/// One span of the tape, as provenance shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpanNote {
    /// Its label's name.
    pub label: &'static str,
    /// Its label's kind.
    pub kind: Kind,
    /// Its first choice position.
    pub start: usize,
    /// One past its last choice position.
    pub end: usize,
    /// The enclosing span, if any.
    pub parent: Option<usize>,
    /// The path of the part of the value it made, when known exactly (a field or element
    /// span located in the value); else the path of the nearest enclosing located part (the
    /// empty path: the whole value).
    pub path: PartPath,
    /// Whether [`SpanNote::path`] is the part this span made (not an enclosing one).
    pub exact: bool,
    /// The `Debug` text at [`SpanNote::path`] (`None` when the value's text could not be
    /// parsed).
    pub value: Option<String>,
}

/// What produced a part of a value: see the [module docs](self).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Provenance {
    /// The part's path.
    pub path: PartPath,
    /// The whole value's `Debug` text.
    pub value: String,
    /// The part's `Debug` text.
    pub part: String,
    /// The length of the tape file, in bytes.
    pub input_len: usize,
    /// Every choice of the tape, in order.
    pub choices: Vec<ChoiceNote>,
    /// Every span of the tape, in the order opened.
    pub spans: Vec<SpanNote>,
    /// For each step of the path, the span located for it (`None` from the first step that
    /// could not be located: a value made by `map` out of one choice, a set's element, …).
    pub located: Vec<Option<usize>>,
    /// The part's own span: the span of the last located step (`None`: the whole tape);
    /// when a step is not located, the smallest span inside that one holding every choice
    /// that changes the part, "one more element?" coins aside ([`Provenance::inferred`]).
    pub own: Option<usize>,
    /// Whether [`Provenance::own`] was inferred from the influencing choices, not located
    /// from the path.
    pub inferred: bool,
    /// How many unforced choices were not tried (0 unless the tape is very long: see
    /// [`influence`]); their [`ChoiceNote::influence`] is `None` without evidence.
    pub untried: usize,
}

/// Why [`explain_path`] could not explain a part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProvenanceError {
    /// The path does not parse.
    Path(PathError),
    /// The generator made no value of the tape (it rejected it, overran or panicked).
    NoValue,
    /// The value's `Debug` text could not be read as a tree (only the empty path works).
    Unreadable(ParseError),
    /// The path does not lead to a part of the value.
    NoSuchPart(SelectError),
}

impl fmt::Display for ProvenanceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProvenanceError::Path(e) => write!(f, "bad path: {e}"),
            ProvenanceError::NoValue => write!(f, "the generator makes no value of this tape"),
            ProvenanceError::Unreadable(e) => {
                write!(f, "{e} (only the empty path, the whole value, works)")
            }
            ProvenanceError::NoSuchPart(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ProvenanceError {}

impl From<PathError> for ProvenanceError {
    fn from(e: PathError) -> Self {
        ProvenanceError::Path(e)
    }
}

/// Explains the part at `path` (see [`PartPath::parse`]) of the value `test`'s generator
/// makes of the tape file `bytes`: which spans, choices and bytes made it, and which other
/// choices it depends on. Runs the generator once per alternative tried (see
/// [`influence`]), not the property — except for a test whose [`Regenerate::render`]
/// gives nothing, whose property runs too (its failures are caught).
///
/// Errors: a bad path, a tape of which the generator makes no value, a path that is not in
/// the value (the message says what is there), a value whose `Debug` text is not one of
/// the shapes [`DebugTree`] reads (then only the empty path works).
pub fn explain_path<T: Regenerate + ?Sized>(
    test: &T,
    bytes: &[u8],
    path: &str,
) -> Result<Provenance, ProvenanceError> {
    let path = PartPath::parse(path)?;
    let (rec, value, with_property) = record(test, bytes).ok_or(ProvenanceError::NoValue)?;
    let tree = match DebugTree::parse(&value) {
        Ok(t) => t,
        Err(_) if path.steps.is_empty() => DebugTree::atom(&value),
        Err(e) => return Err(ProvenanceError::Unreadable(e)),
    };
    let part = tree
        .text_of(tree.select(&path).map_err(ProvenanceError::NoSuchPart)?)
        .to_string();
    // The part's span as located from the structure alone: its choices are tried first.
    let first = locate::path_spans(&rec, &tree, &path, &|els, i| els.get(i).copied());
    let focus = match first.iter().map_while(|s| *s).last() {
        Some(s) => rec.spans[s].start..rec.spans[s].end,
        None => 0..rec.choices.len(),
    };
    let influence::Found {
        changes: found,
        untried,
    } = influence::influences(test, &rec, &path, &part, with_property, focus);
    let influenced = |span: usize| {
        let s = rec.spans[span];
        found[s.start..s.end].iter().any(Option::is_some)
    };
    // Elements that do not match the list one to one (an action its precondition skipped):
    // the first at or after the index that the part depends on.
    let pick = |els: &[usize], i: usize| els.iter().skip(i).copied().find(|&k| influenced(k));
    let located = locate::path_spans(&rec, &tree, &path, &pick);
    let mut own = located.iter().map_while(|s| *s).last();
    // A step not located on the tape (a hand-written generator without field spans, a set):
    // the smallest span inside the located one that holds every influencing choice other
    // than a "one more element?" coin (those decide whether the part exists, not what it is).
    let mut inferred = false;
    if located.iter().any(Option::is_none) {
        let scope = own.map_or(0..rec.choices.len(), |s| {
            rec.spans[s].start..rec.spans[s].end
        });
        let making: Vec<usize> = scope
            .clone()
            .filter(|&i| {
                found[i].is_some() && rec.labels.get(i).is_none_or(|l| l.kind() != Kind::More)
            })
            .collect();
        if let (Some(&lo), Some(&hi)) = (making.first(), making.last()) {
            let best = rec
                .spans
                .iter()
                .enumerate()
                .filter(|(_, s)| {
                    s.start <= lo && hi < s.end && scope.start <= s.start && s.end <= scope.end
                })
                .min_by_key(|(k, s)| (s.len(), std::cmp::Reverse(*k)))
                .map(|(k, _)| k);
            if best.is_some() && best != own {
                own = best;
                inferred = true;
            }
        }
    }
    let paths = locate::span_paths(&rec, &tree);
    let spans = rec
        .spans
        .iter()
        .zip(paths)
        .map(|(s, (p, exact))| SpanNote {
            label: s.label.name(),
            kind: s.label.kind(),
            start: s.start,
            end: s.end,
            parent: s.parent,
            value: tree.select(&p).ok().map(|n| tree.text_of(n).to_string()),
            path: p,
            exact,
        })
        .collect();
    let mut inner: Vec<Option<usize>> = vec![None; rec.choices.len()];
    for (k, s) in rec.spans.iter().enumerate() {
        for slot in &mut inner[s.start..s.end.min(rec.choices.len())] {
            *slot = Some(k);
        }
    }
    let mut offset = 0;
    let choices = rec
        .choices
        .iter()
        .zip(found)
        .enumerate()
        .map(|(i, (c, influence))| {
            let bytes = (!c.forced && c.max > 0).then(|| {
                let r = offset..offset + width(c.max);
                offset = r.end;
                r
            });
            ChoiceNote {
                position: i,
                label: rec.labels.get(i).map_or("?", |l| l.name()),
                kind: rec.labels.get(i).map_or(Kind::User, |l| l.kind()),
                index: c.index,
                max: c.max,
                forced: c.forced,
                bytes,
                span: inner[i],
                influence,
            }
        })
        .collect();
    Ok(Provenance {
        path,
        value,
        part,
        input_len: bytes.len(),
        choices,
        spans,
        located,
        own,
        inferred,
        untried,
    })
}

/// Records the tape: the generator alone when the test can render, else the whole test.
fn record<T: Regenerate + ?Sized>(test: &T, bytes: &[u8]) -> Option<(Recording, String, bool)> {
    let mut src = BytesSource::new(bytes);
    let mut tape = Tape::recording(&mut src);
    if let Some(v) = test.render(&mut tape) {
        return Some((tape.finish(), v, false));
    }
    let mut src = BytesSource::new(bytes);
    let mut tape = Tape::recording(&mut src);
    let v = test.value(&mut tape)?;
    Some((tape.finish(), v, true))
}

impl Provenance {
    /// The choice positions of the part's own span (the whole tape when it has none).
    pub fn own_range(&self) -> Range<usize> {
        match self.own {
            Some(s) => self.spans[s].start..self.spans[s].end,
            None => 0..self.choices.len(),
        }
    }

    /// The choices of the part's own span, forced ones and those with no influence seen
    /// included.
    pub fn own_choices(&self) -> impl Iterator<Item = &ChoiceNote> {
        self.choices[self.own_range()].iter()
    }

    /// The upstream choices: outside the part's own span, and influencing it (its value or
    /// its existence). Grouped by the innermost span holding them (`None`: no span), groups
    /// in tape order.
    pub fn upstream(&self) -> Vec<(Option<usize>, Vec<&ChoiceNote>)> {
        let own = self.own_range();
        let mut groups: Vec<(Option<usize>, Vec<&ChoiceNote>)> = Vec::new();
        for c in &self.choices {
            if own.contains(&c.position) || c.influence.is_none() {
                continue;
            }
            match groups.iter_mut().find(|(s, _)| *s == c.span) {
                Some((_, v)) => v.push(c),
                None => groups.push((c.span, vec![c])),
            }
        }
        groups
    }

    /// The upstream choices that change the part's value (the part is still there, with
    /// another text), grouped as [`Provenance::upstream`].
    pub fn upstream_values(&self) -> Vec<(Option<usize>, Vec<&ChoiceNote>)> {
        self.upstream()
            .into_iter()
            .filter_map(|(s, v)| {
                let v: Vec<&ChoiceNote> = v.into_iter().filter(|c| !c.removes()).collect();
                (!v.is_empty()).then_some((s, v))
            })
            .collect()
    }

    /// The upstream choices whose change only removes the part (a "one more element?" coin
    /// before it, a variant choice, a length): what the part's existence depends on.
    pub fn existence(&self) -> Vec<&ChoiceNote> {
        self.upstream()
            .into_iter()
            .flat_map(|(_, v)| v)
            .filter(|c| c.removes())
            .collect()
    }

    /// The explanation as text: the part, where it is on the tape, its own choices, then the
    /// upstream choices that change its value, by span, then those whose change removes it.
    /// See the [module docs](self).
    pub fn render_text(&self) -> String {
        render_text::render(self)
    }

    /// The explanation graph in Graphviz's DOT language: the part, spans and choices as
    /// nodes, edges "made of" (part to its own span, spans to their choices) and "depends
    /// on" (part to an upstream span).
    pub fn render_dot(&self) -> String {
        render_dot::render(&graph::Graph::of(self))
    }

    /// The explanation graph as a standalone SVG document (laid out here, no Graphviz):
    /// the part on the left, spans in the middle, choices on the right.
    pub fn render_svg(&self) -> String {
        render_svg::render(&graph::Graph::of(self))
    }
}
