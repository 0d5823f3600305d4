//! State abstraction: what a learner knows about the choices made before the current one
//! (paper 002 §4.3).
//!
//! RLCheck's best abstraction ("Tree L/R") is the sequence of abstracted choices that
//! *influence* the current one — those of its ancestors in the value being built, not of
//! siblings — trimmed to a window of `w`. The paper writes it by hand into each generator;
//! on the tape it falls out of the spans. [`Influence`] keeps, for the spans open at the
//! current draw, the choices drawn directly inside each (not inside a child span that has
//! closed since), outermost first, as tokens:
//!
//! - each choice as a hash of its label and arm ([`token`]);
//! - with learners shared by label, each open span's label;
//! - a coin taken as 1 right before a span (the "left child?" before the child, a list's
//!   "one more?") is dropped when the span opens: the span's label, or with a learner per
//!   choice-point id the id itself, says it already. Any other choice stays (an element
//!   name, an operator, a type: the span path holds labels, not values; dropping those too
//!   cost xml_doc seven in eight of its unique valid documents). A `true` drawn as data right
//!   before a span is lost this way; keeping every coin instead cost a fifth of bst_valid's
//!   unique valid trees;
//! - once child spans have closed, one token saying how many: a list element's position,
//!   which nothing else in the state tells (on bst_valid it costs nothing; on xml_doc it took
//!   unique valid documents in 5 s from 20 to 159, before the rule above);
//! - but a struct's or a tuple's field ([`Kind::Field`]) that closed holding one choice
//!   leaves that choice, tagged with the field, as if drawn in the parent: a derived type
//!   draws each field in a span of its own, and without this a recursive child never saw its
//!   parent's key (which a hand-written generator draws in the node itself). A field that
//!   held more leaves nothing: the next field's label says how far the struct has got;
//! - a combinator's own wrapper span ([`Kind::Combinator`], an option's value) enters no
//!   label: the span around it says where the state is (the coin that opened it is dropped,
//!   as above), and the token would take room in the window.
//!
//! Measured (BENCHMARKS.md, "rl and the size of valid values"): on the derived RLCheck tree
//! the last two rules doubled the distinct valid trees and raised their mean size by a
//! quarter; on xml_doc (tuples of attribute name and value) distinct valid documents rose
//! 2.5–3.5×; generators without field or combinator spans (bst_valid, lang) are unchanged.

use crate::tape::{DrawContext, Kind, Label};
use std::fmt;
use std::sync::Arc;

/// How a learner's state is derived from the choices before it.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum Abstraction {
    /// The last `window` choices of the enclosing spans (RLCheck's "Tree L/R", derived from
    /// the spans). The default.
    #[default]
    Tree,
    /// The last `window` choices, whatever span they were drawn in (RLCheck's "Sequence").
    Sequence,
    /// One state: each learner learns a single distribution.
    None,
    /// A function of the draw and the tokens [`Abstraction::Tree`] sees (untrimmed: hashes of
    /// each choice's label and arm, span labels, closed-children counts; the draw context has
    /// the labels and, on a recording tape, the choices themselves): a hand-written state for
    /// one choice point.
    Custom(StateFn),
}

/// The function inside a [`StateFn`].
pub type StateFnInner = dyn Fn(&DrawContext<'_>, &[u64]) -> u64 + Send + Sync;

/// A hand-written state abstraction: `(draw, influencing tokens) → state`.
#[derive(Clone)]
pub struct StateFn(pub Arc<StateFnInner>);

impl StateFn {
    /// Wraps `f`.
    pub fn new(f: impl Fn(&DrawContext<'_>, &[u64]) -> u64 + Send + Sync + 'static) -> StateFn {
        StateFn(Arc::new(f))
    }
}

impl fmt::Debug for StateFn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("StateFn(..)")
    }
}

impl PartialEq for StateFn {
    fn eq(&self, other: &StateFn) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// One abstracted choice of an open span, with the position of a coin taken as 1 (a possible
/// opener of the next span), else [`NOT_OPENER`] (or [`COUNT`] for the closed-children
/// token).
#[derive(Clone, Copy, Debug)]
struct Token {
    value: u64,
    position: usize,
    /// The fold ([`fold`]) of every token up to and including this one: the state of any
    /// window is then two lookups instead of a loop (see [`Influence::tree_state`]).
    prefix: u64,
}

/// Where the fold of a token sequence starts.
const SEED: u64 = 0x51_7cc1_b727_220a;
/// The fold's rotation per token.
const ROT: u32 = 17;

/// One step of the fold that makes a state of tokens: rotating and xoring keeps their order
/// apart without a multiply per token (tokens are already mixed hashes, and the key is mixed
/// once more by the table's probe).
#[inline(always)]
fn fold(h: u64, value: u64) -> u64 {
    h.rotate_left(ROT) ^ value
}

/// The placeholder in front of every token sequence (its prefix is the empty fold), so a
/// window that reaches the start needs no branch.
const SENTINEL: Token = Token {
    value: 0,
    position: NOT_OPENER,
    prefix: SEED,
};

/// One open span as the tracker last saw it.
#[derive(Clone, Copy, Debug)]
struct Frame {
    start: usize,
    path: u64,
    /// Where this span's tokens begin in `Influence::tokens`, its label's included (at 1 or
    /// later: the sentinel).
    from: usize,
    /// Child spans closed so far.
    closed: u32,
    /// A struct's field (or a tuple's): when it closes holding one choice, that choice stays
    /// in the parent's state (see [`Influence::close_innermost`]); the label's hash, else 0.
    field: u64,
    /// Where this span's choices begin in `tokens` (after its label's token, if any).
    first: usize,
    /// Draws made inside this span (its closed children's included): a span closed with none
    /// is forgotten, as a draw context never shows it.
    draws: u32,
    /// The coin taken as 1 dropped when this span opened (see [`Influence::push`]), put back
    /// if it is forgotten.
    dropped: Option<Token>,
}

/// The position recorded for a "children closed so far" token.
const COUNT: usize = usize::MAX - 1;
/// The position recorded for a token that cannot open a span (a span label, a choice that
/// is not a coin taken as 1).
pub(crate) const NOT_OPENER: usize = usize::MAX;

/// Tracks the abstracted choices of one test case (see the module docs).
#[derive(Debug)]
pub(crate) struct Influence {
    frames: Vec<Frame>,
    /// Abstracted choices of the open spans, outermost first, after [`SENTINEL`].
    tokens: Vec<Token>,
    /// The tokens' values, gathered for an [`Abstraction::Custom`] state.
    scratch: Vec<u64>,
    /// Every abstracted choice of the test case, in order (for [`Abstraction::Sequence`]).
    history: Vec<u64>,
    /// Top-level spans closed so far.
    root_closed: u32,
}

#[inline]
fn mix(a: u64, b: u64) -> u64 {
    crate::tape::mix_hashes(a, b)
}

impl Default for Influence {
    fn default() -> Influence {
        Influence {
            frames: Vec::new(),
            tokens: vec![SENTINEL],
            scratch: Vec::new(),
            history: Vec::new(),
            root_closed: 0,
        }
    }
}

impl Influence {
    /// Forgets the test case.
    pub(crate) fn clear(&mut self) {
        self.root_closed = 0;
        self.frames.clear();
        self.tokens.truncate(1);
        self.history.clear();
    }

    /// Appends a token, extending the fold.
    #[inline(always)]
    fn push_token(&mut self, value: u64, position: usize) {
        // Never empty: the sentinel stays.
        let before = self.tokens[self.tokens.len() - 1].prefix;
        self.tokens.push(Token {
            value,
            position,
            prefix: fold(before, value),
        });
    }

    /// Brings the open spans up to date with `ctx.path` before a draw; `labels`: enter each
    /// newly open span's label as a token.
    #[inline]
    pub(crate) fn enter(&mut self, ctx: &DrawContext<'_>, labels: bool) {
        let path = ctx.path;
        // Still in the same innermost span (so in the same ancestors too): nothing changed.
        if self.frames.len() == path.len()
            && self
                .frames
                .last()
                .zip(path.last())
                .is_none_or(|(f, s)| f.start == s.start && f.path == s.path)
        {
            return;
        }
        // A span's path hashes every label above it, so the deepest frame that still matches
        // the draw's path says how many are kept: search from the deep end, where a draw
        // usually is one span below or a few above the last one.
        let mut keep = self.frames.len().min(path.len());
        while keep > 0
            && (self.frames[keep - 1].start != path[keep - 1].start
                || self.frames[keep - 1].path != path[keep - 1].path)
        {
            keep -= 1;
        }
        if keep < self.frames.len() {
            self.close_to(keep);
        }
        for span in &path[keep..] {
            self.push(span.label, span.start, span.path, labels);
        }
    }

    /// A span labelled `label` opened at `start` (told by the tape, instead of
    /// [`Influence::enter`] finding it in the draw context); `labels` as there.
    #[inline]
    pub(crate) fn open(&mut self, label: Label, start: usize, labels: bool) {
        self.push(label, start, 0, labels);
    }

    /// The innermost open span closed (told by the tape). One in which nothing was drawn is
    /// forgotten, its opener coin put back, and counts as no child: a state found from the
    /// draw contexts ([`Influence::enter`]) never sees such a span, and both ways must agree.
    #[inline]
    pub(crate) fn close(&mut self) {
        match self.frames.last() {
            Some(f) if f.draws == 0 => {
                let f = *f;
                self.frames.pop();
                self.tokens.truncate(f.from);
                if let Some(t) = f.dropped {
                    self.push_token(t.value, t.position);
                }
            }
            Some(_) => self.close_innermost(),
            None => {}
        }
    }

    /// Closes the open spans beyond the first `keep`, innermost first, as the tape closes
    /// them one by one ([`Influence::close`]): a field inside a field hoists its choice
    /// twice, whichever way the spans are learned of.
    fn close_to(&mut self, keep: usize) {
        while self.frames.len() > keep {
            self.close_innermost();
        }
    }

    /// Closes the innermost open span: its choices leave the state, and the span left
    /// innermost counts one more closed child.
    fn close_innermost(&mut self) {
        let keep = self.frames.len() - 1;
        let from = self.frames[keep].from;
        // A field that held one choice (a struct's key, a flag): the choice stays in the
        // parent's state, as if drawn there, tagged with the field, so a recursive child
        // sees its parent's scalar fields (a derived tree's key), as it sees the choices a
        // hand-written generator draws in the node itself. Other closed spans leave a count.
        let inner = self.frames[keep];
        let field = inner.field != 0;
        if let Some(parent) = keep.checked_sub(1) {
            self.frames[parent].draws += inner.draws;
        }
        let hoisted = (field
            && self.tokens.len() == inner.first + 1
            && self.tokens[inner.first].position != COUNT)
            .then(|| mix(inner.field, self.tokens[inner.first].value));
        self.frames.truncate(keep);
        // A count of the closed children: a list element's position, which the parent's
        // own choices do not tell.
        let closed = match self.frames.last_mut() {
            Some(f) => {
                f.closed += 1;
                f.closed
            }
            None => {
                self.root_closed += 1;
                self.root_closed
            }
        };
        if let Some(t) = hoisted {
            self.tokens.truncate(from);
            self.push_token(t, NOT_OPENER);
            return;
        }
        if field {
            self.tokens.truncate(from);
            return;
        }
        let t = mix(0xc105_ed00, u64::from(closed));
        // The count replaces the parent's last count, if its last token is one (selected,
        // not branched on). `from` is at least 1 (the sentinel, which is no count).
        let at = from - usize::from(self.tokens[from - 1].position == COUNT);
        self.tokens.truncate(at);
        self.push_token(t, COUNT);
    }

    /// Enters a span that opened at `start` (`path`: its path hash, when known).
    #[inline]
    fn push(&mut self, label: Label, start: usize, path: u64, labels: bool) {
        // A coin taken as 1 right before the span opened it: the span's label (or, with a
        // learner per choice-point id, the id) says so already.
        // Never empty (the sentinel, which opens nothing, stays); dropped by a select.
        let last = self.tokens[self.tokens.len() - 1];
        let opener = last.position < COUNT && last.position + 1 == start;
        self.tokens
            .truncate(self.tokens.len() - usize::from(opener));
        let dropped = opener.then_some(last);
        let from = self.tokens.len();
        // A combinator's own wrapper span (an option's value) enters no label: the field or
        // span around it says where the state is (the "some?" coin that opened it is dropped
        // as its opener), and the token would take room in the window.
        let labelled = labels && label.kind() != Kind::Combinator;
        self.frames.push(Frame {
            start,
            path,
            from,
            closed: 0,
            field: if label.kind() == Kind::Field {
                label.hash() | 1
            } else {
                0
            },
            first: from + usize::from(labelled),
            draws: 0,
            dropped,
        });
        if labelled {
            self.push_token(label.hash(), NOT_OPENER);
        }
    }

    /// Records the abstracted choice `value` of a draw; `opener` is its position when it is a
    /// coin taken as 1, else [`NOT_OPENER`]. Also in the whole history when `sequence` (some
    /// choice point uses [`Abstraction::Sequence`] or `recent`).
    #[inline]
    pub(crate) fn note(&mut self, opener: usize, value: u64, sequence: bool) {
        if let Some(f) = self.frames.last_mut() {
            f.draws += 1;
        }
        self.push_token(value, opener);
        if sequence {
            self.history.push(value);
        }
    }

    /// The state for the current draw under `abstraction`, keeping the last `window` tokens
    /// (and, for [`Abstraction::Tree`], the last `recent` choices of the test case).
    #[inline]
    pub(crate) fn state(
        &mut self,
        abstraction: &Abstraction,
        window: usize,
        recent: usize,
        ctx: &DrawContext<'_>,
    ) -> u64 {
        let tail = |s: &Influence| s.tree_state(window);
        match abstraction {
            Abstraction::Tree if recent == 0 => tail(self),
            Abstraction::Tree => {
                let from = self.history.len().saturating_sub(recent);
                let last = self.history[from..]
                    .iter()
                    .fold(0x1234_5678_u64, |h, &v| h.rotate_left(29) ^ v);
                tail(self).rotate_left(7) ^ last
            }
            Abstraction::Sequence => {
                let from = self.history.len().saturating_sub(window);
                self.history[from..]
                    .iter()
                    .fold(0x51_7cc1_b727_220a_u64, |h, &v| h.rotate_left(17) ^ v)
            }
            Abstraction::None => 0,
            Abstraction::Custom(f) => {
                self.scratch.clear();
                self.scratch
                    .extend(self.tokens[1..].iter().map(|t| t.value));
                (f.0)(ctx, &self.scratch)
            }
        }
    }

    /// The [`Abstraction::Tree`] state: the last `window` tokens.
    #[inline]
    pub(crate) fn tree_state(&self, window: usize) -> u64 {
        // The fold of the last k tokens from SEED, from two prefixes (rotation distributes
        // over xor): prefix(all) = rotl(prefix(before the window), 17k) ^ window's terms,
        // and the window's fold = rotl(SEED, 17k) ^ window's terms. No loop: its trip count
        // is data, which the processor mispredicts.
        let last = self.tokens.len() - 1;
        let k = last.min(window);
        let r = (ROT as usize * k) as u32;
        self.tokens[last].prefix ^ self.tokens[last - k].prefix.rotate_left(r) ^ SEED.rotate_left(r)
    }

    /// The tokens' values, outermost first.
    #[cfg(test)]
    fn values(&self) -> Vec<u64> {
        self.tokens[1..].iter().map(|t| t.value).collect()
    }
}

/// The abstracted form of choosing `arm` at a choice point labelled `label`: tokens of
/// different choice points never collide.
#[inline]
pub(crate) fn token(label: Label, arm: usize) -> u64 {
    mix(label.hash(), arm as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tape::{Hint, OpenSpan, PointId};

    const A: Label = Label::new("a");
    const B: Label = Label::new("b");

    fn span(label: Label, start: usize) -> OpenSpan {
        OpenSpan {
            label,
            start,
            path: label.hash() ^ start as u64,
        }
    }

    fn at<'a>(path: &'a [OpenSpan], position: usize) -> DrawContext<'a> {
        DrawContext {
            point: PointId(0),
            label: A,
            max: 1,
            hint: Hint::Uniform,
            position,
            path,
            choices: &[],
        }
    }

    #[test]
    fn the_state_holds_the_enclosing_spans_choices_and_a_count_of_closed_children() {
        let mut inf = Influence::default();
        let root = [span(A, 0)];
        inf.enter(&at(&root, 0), true);
        assert_eq!(inf.values(), [A.hash()], "the span's label");
        inf.note(NOT_OPENER, 100, false);
        // A coin taken as 1, then the span it opens: the coin gives way to the span's label.
        inf.enter(&at(&root, 1), true);
        inf.note(1, 101, false);
        let first = [span(A, 0), span(B, 2)];
        inf.enter(&at(&first, 2), true);
        assert_eq!(inf.values(), [A.hash(), 100, B.hash()]);
        inf.note(NOT_OPENER, 102, false);
        // The child closed: its choices are gone, one token counts it.
        inf.enter(&at(&root, 3), true);
        assert_eq!(inf.values()[..2], [A.hash(), 100]);
        assert_eq!(inf.values().len(), 3);
        let one = inf.values()[2];
        inf.note(3, 103, false);
        let second = [span(A, 0), span(B, 4)];
        inf.enter(&at(&second, 4), true);
        assert_eq!(inf.values(), [A.hash(), 100, one, B.hash()]);
        inf.note(NOT_OPENER, 104, false);
        inf.enter(&at(&root, 5), true);
        assert_eq!(inf.values().len(), 3, "the count is replaced, not appended");
        assert_ne!(inf.values()[2], one, "two children closed");
    }

    #[test]
    fn a_field_of_one_choice_stays_in_its_parent_and_a_wrapper_enters_no_label() {
        use crate::tape::builtin::{FIELD, OPTION_VALUE};
        let mut inf = Influence::default();
        inf.open(A, 0, true);
        // A key in a field of its own: it stays, tagged with the field.
        inf.open(FIELD.indexed(0), 0, true);
        assert_eq!(inf.values(), [A.hash(), FIELD.indexed(0).hash()]);
        inf.note(NOT_OPENER, 7, false);
        inf.close();
        let key = mix(FIELD.indexed(0).hash() | 1, 7);
        assert_eq!(inf.values(), [A.hash(), key]);
        // A field holding an option's coin and its value: the wrapper has no label, and the
        // closed field leaves nothing (not even a count).
        inf.open(FIELD.indexed(1), 1, true);
        inf.note(1, 8, false);
        inf.open(OPTION_VALUE, 2, true);
        assert_eq!(inf.values(), [A.hash(), key, FIELD.indexed(1).hash()]);
        inf.open(B, 2, true);
        inf.note(NOT_OPENER, 9, false);
        assert_eq!(
            inf.values(),
            [A.hash(), key, FIELD.indexed(1).hash(), B.hash(), 9],
            "the child sees its parent's key"
        );
        inf.close();
        inf.close();
        inf.close();
        assert_eq!(inf.values(), [A.hash(), key]);
        // A span of another kind holding one choice is counted, as before.
        inf.open(B, 3, true);
        inf.note(NOT_OPENER, 10, false);
        inf.close();
        assert_eq!(inf.values().len(), 3);
        assert_ne!(inf.values()[2], mix(B.hash() | 1, 10));
    }

    #[test]
    fn spans_closed_together_leave_what_spans_closed_one_by_one_leave() {
        use crate::tape::builtin::FIELD;
        let (outer, inner) = (FIELD.indexed(1), FIELD.indexed(0));
        // Told by the tape: a field holding a field holding one choice, closed in turn.
        let mut told = Influence::default();
        told.open(A, 0, true);
        told.open(outer, 0, true);
        told.open(inner, 0, true);
        told.note(NOT_OPENER, 5, false);
        told.close();
        told.close();
        // Found in the draw contexts: both close at the next draw, at once.
        let mut found = Influence::default();
        let nested = [span(A, 0), span(outer, 0), span(inner, 0)];
        found.enter(&at(&nested, 0), true);
        found.note(NOT_OPENER, 5, false);
        let root = [span(A, 0)];
        found.enter(&at(&root, 1), true);
        assert_eq!(found.values(), told.values());
        let hoisted = mix(outer.hash() | 1, mix(inner.hash() | 1, 5));
        assert_eq!(told.values(), [A.hash(), hoisted]);
    }

    #[test]
    fn a_span_closed_with_nothing_drawn_is_forgotten() {
        use crate::tape::builtin::FIELD;
        // Told by the tape: a field holding a choice and an empty span (a `just` variant).
        let mut told = Influence::default();
        told.open(A, 0, true);
        told.open(FIELD.indexed(0), 0, true);
        told.note(1, 4, false);
        told.open(B, 1, true);
        told.close();
        told.close();
        // Found in the draw contexts: the empty span never shows.
        let mut found = Influence::default();
        let field = [span(A, 0), span(FIELD.indexed(0), 0)];
        found.enter(&at(&field, 0), true);
        found.note(1, 4, false);
        found.enter(&at(&[span(A, 0)], 1), true);
        assert_eq!(told.values(), found.values());
        assert_eq!(
            told.values(),
            [A.hash(), mix(FIELD.indexed(0).hash() | 1, 4)]
        );
    }

    #[test]
    fn a_choice_that_is_not_a_coin_taken_as_1_stays_when_a_span_follows() {
        let mut inf = Influence::default();
        let root = [span(A, 0)];
        inf.enter(&at(&root, 0), false);
        inf.note(NOT_OPENER, 7, false);
        let inner = [span(A, 0), span(B, 1)];
        inf.enter(&at(&inner, 1), false);
        assert_eq!(inf.values(), [7], "no labels without learners by label");
    }

    #[test]
    fn the_tree_state_is_the_fold_of_the_window() {
        // The state from prefixes equals folding the last `window` tokens from the seed,
        // through pushes, replaced counts and closed spans.
        let naive = |inf: &Influence, w: usize| {
            let v = inf.values();
            v[v.len().saturating_sub(w)..]
                .iter()
                .fold(SEED, |h, &t| fold(h, t))
        };
        let mut inf = Influence::default();
        let mut rng = crate::tape::Rng::new(3);
        let mut open: Vec<OpenSpan> = Vec::new();
        for position in 0..2_000 {
            match rng.below_or_eq(3) {
                0 if open.len() < 6 => open.push(span(B, position)),
                1 if !open.is_empty() => {
                    open.pop();
                }
                _ => {}
            }
            inf.enter(&at(&open, position), position % 2 == 0);
            for w in 0..8 {
                assert_eq!(
                    inf.tree_state(w),
                    naive(&inf, w),
                    "window {w} at {position}"
                );
            }
            let opener = if rng.below_or_eq(1) == 0 {
                position
            } else {
                NOT_OPENER
            };
            inf.note(opener, rng.next_u64(), false);
        }
        inf.clear();
        assert_eq!(inf.tree_state(5), SEED);
    }

    #[test]
    fn abstractions_and_windows() {
        let mut inf = Influence::default();
        let root = [span(A, 0)];
        for (i, v) in [10, 20, 30].into_iter().enumerate() {
            inf.enter(&at(&root, i), false);
            inf.note(NOT_OPENER, v, true);
        }
        let c = at(&root, 3);
        let tree = |inf: &mut Influence, w| inf.state(&Abstraction::Tree, w, 0, &c);
        assert_eq!(tree(&mut inf, 2), {
            let mut other = Influence::default();
            other.enter(&c, false);
            other.note(NOT_OPENER, 20, true);
            other.note(NOT_OPENER, 30, true);
            other.state(&Abstraction::Tree, 2, 0, &c)
        });
        assert_ne!(tree(&mut inf, 3), tree(&mut inf, 2));
        assert_eq!(inf.state(&Abstraction::None, 4, 0, &c), 0);
        let recent = inf.state(&Abstraction::Tree, 4, 1, &c);
        assert_ne!(recent, tree(&mut inf, 4));
        let custom = Abstraction::Custom(StateFn::new(|_, tokens| tokens.len() as u64));
        assert_eq!(
            inf.state(&custom, 1, 0, &c),
            3,
            "a custom state sees every token"
        );
        // The sequence keeps what a closed child drew; the tree does not.
        let inner = [span(A, 0), span(B, 3)];
        inf.enter(&at(&inner, 3), false);
        inf.note(NOT_OPENER, 40, true);
        inf.enter(&at(&root, 4), false);
        assert_eq!(inf.history, [10, 20, 30, 40]);
        assert!(!inf.values().contains(&40));
    }
}
