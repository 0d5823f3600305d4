//! State abstraction: what a learner knows about the choices made before the current one
//! (paper 002 §4.3).
//!
//! RLCheck's best abstraction ("Tree L/R") is the sequence of abstracted choices that
//! *influence* the current one — those of its ancestors in the value being built, not of
//! siblings — trimmed to a window of `w`. The paper writes it by hand into each generator;
//! on the tape it falls out of the spans. [`Influence`] keeps, for the spans open at the
//! current draw, the choices drawn directly inside each (not inside a child span that has
//! closed since), outermost first. A choice that opens a span (the coin right before a
//! child, a list's "one more?") is dropped when the span opens: the learner of every choice
//! inside knows it anyway, since choice-point ids include the span path.

use crate::tape::{DrawContext, Label};
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
    /// A function of the draw and the choices of the enclosing spans (as [`Abstraction::Tree`]
    /// sees them, untrimmed): a hand-written state for one choice point.
    Custom(StateFn),
}

/// The function inside a [`StateFn`].
pub type StateFnInner = dyn Fn(&DrawContext<'_>, &[u64]) -> u64 + Send + Sync;

/// A hand-written state abstraction: `(draw, influencing choices) → state`.
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

/// One open span as the tracker last saw it.
#[derive(Clone, Copy, Debug)]
struct Frame {
    start: usize,
    path: u64,
    /// Where this span's choices begin in `Influence::values`.
    from: usize,
    /// Child spans closed so far.
    closed: u32,
}

/// The position recorded for a "children closed so far" token.
const COUNT: usize = usize::MAX - 1;

/// Tracks the abstracted choices of one test case (see the module docs).
#[derive(Debug, Default)]
pub(crate) struct Influence {
    frames: Vec<Frame>,
    /// Abstracted choices of the open spans, outermost first, and where each was drawn
    /// (`usize::MAX` for a span's label).
    values: Vec<u64>,
    positions: Vec<usize>,
    /// Every abstracted choice of the test case, in order (for [`Abstraction::Sequence`]).
    history: Vec<u64>,
    /// Top-level spans closed so far.
    root_closed: u32,
}

#[inline]
fn mix(a: u64, b: u64) -> u64 {
    crate::tape::mix_hashes(a, b)
}

impl Influence {
    /// Forgets the test case.
    pub(crate) fn clear(&mut self) {
        self.root_closed = 0;
        self.frames.clear();
        self.values.clear();
        self.positions.clear();
        self.history.clear();
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
        let mut keep = 0;
        while keep < self.frames.len()
            && keep < path.len()
            && self.frames[keep].start == path[keep].start
            && self.frames[keep].path == path[keep].path
        {
            keep += 1;
        }
        if keep < self.frames.len() {
            let from = self.frames[keep].from;
            self.values.truncate(from);
            self.positions.truncate(from);
            self.frames.truncate(keep);
            {
                // How many child spans of the parent have closed: the position in a list,
                // which the parent's own choices do not tell.
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
                let t = mix(0xc105_ed00, u64::from(closed));
                if self.positions.last() == Some(&COUNT) {
                    *self.values.last_mut().expect("parallel") = t;
                } else {
                    self.values.push(t);
                    self.positions.push(COUNT);
                }
            }
        }
        for span in &path[keep..] {
            // The choice right before a span opened it: the span path says it already.
            if self
                .positions
                .last()
                .is_some_and(|&p| p < COUNT && p + 1 == span.start)
            {
                self.values.pop();
                self.positions.pop();
            }
            self.frames.push(Frame {
                start: span.start,
                path: span.path,
                from: self.values.len(),
                closed: 0,
            });
            if labels {
                self.values.push(span.label.hash());
                self.positions.push(usize::MAX);
            }
        }
    }

    /// Records the abstracted choice `value` of the draw at `position` (and in the whole
    /// history when `sequence`: some choice point uses [`Abstraction::Sequence`]).
    #[inline]
    pub(crate) fn note(&mut self, position: usize, value: u64, sequence: bool) {
        self.values.push(value);
        self.positions.push(position);
        if sequence {
            self.history.push(value);
        }
    }

    /// The state for the current draw under `abstraction`, keeping the last `window` tokens
    /// (and, for [`Abstraction::Tree`], the last `recent` choices of the test case).
    #[inline]
    pub(crate) fn state(
        &self,
        abstraction: &Abstraction,
        window: usize,
        recent: usize,
        ctx: &DrawContext<'_>,
    ) -> u64 {
        // Tokens are already mixed hashes: rotating and xoring keeps their order apart
        // without a multiply per token (the key is mixed once more by the caller).
        let tail = |s: &[u64]| {
            let from = s.len().saturating_sub(window);
            s[from..]
                .iter()
                .fold(0x51_7cc1_b727_220a_u64, |h, &v| h.rotate_left(17) ^ v)
        };
        match abstraction {
            Abstraction::Tree if recent == 0 => tail(&self.values),
            Abstraction::Tree => {
                let from = self.history.len().saturating_sub(recent);
                let last = self.history[from..]
                    .iter()
                    .fold(0x1234_5678_u64, |h, &v| h.rotate_left(29) ^ v);
                tail(&self.values).rotate_left(7) ^ last
            }
            Abstraction::Sequence => tail(&self.history),
            Abstraction::None => 0,
            Abstraction::Custom(f) => (f.0)(ctx, &self.values),
        }
    }
}

/// The abstracted form of choosing `arm` at a choice point labelled `label`: tokens of
/// different choice points never collide.
#[inline]
pub(crate) fn token(label: Label, arm: usize) -> u64 {
    mix(label.hash(), arm as u64)
}
