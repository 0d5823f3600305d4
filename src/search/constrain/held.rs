//! Instantiating known skeletons: every constrained value of a test case keeps its shape,
//! everything else is drawn afresh.

use crate::tape::{DrawContext, Kind, Label, RandomSource, Recording, Source};
use std::rc::Rc;

/// The shapes of one feasible test case: for each constrained value in it, in draw order,
/// the unforced indices of its skeleton span followed by its decisions choice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Skeletons(pub(crate) Vec<Vec<u64>>);

impl Skeletons {
    /// The skeletons of `rec`: each outermost span of kind [`Kind::Skeleton`], with the
    /// [`Kind::Decisions`] choice after it. `None` when `rec` has no skeleton (a generator
    /// that is not constrained).
    pub(crate) fn of(rec: &Recording) -> Option<Skeletons> {
        let mut parts = Vec::new();
        // Outermost: no enclosing span is a skeleton too (as `HeldSource` counts them).
        let nested = |mut parent: Option<usize>| {
            while let Some(p) = parent {
                if rec.spans[p].label.kind() == Kind::Skeleton {
                    return true;
                }
                parent = rec.spans[p].parent;
            }
            false
        };
        for span in &rec.spans {
            if span.label.kind() != Kind::Skeleton || nested(span.parent) {
                continue;
            }
            let mut part: Vec<u64> = rec.choices[span.start..span.end.min(rec.choices.len())]
                .iter()
                .filter(|c| !c.forced)
                .map(|c| c.index)
                .collect();
            // The decisions choice: the first choice after the span labelled so.
            let decision = (span.end..rec.choices.len())
                .find(|&i| {
                    rec.labels
                        .get(i)
                        .is_some_and(|l| l.kind() == Kind::Decisions)
                })
                .map_or(0, |i| rec.choices[i].index);
            part.push(decision);
            parts.push(part);
        }
        (!parts.is_empty()).then_some(Skeletons(parts))
    }

    /// A hash of every part, in order.
    pub(crate) fn hash(&self) -> u64 {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        for part in &self.0 {
            for &x in part {
                h = (h ^ x).wrapping_mul(0x0100_0000_01b3);
            }
            h = (h ^ 0xff).wrapping_mul(0x0100_0000_01b3);
        }
        h
    }
}

/// A source that replays the k-th skeleton of [`Skeletons`] inside the k-th skeleton span
/// of the test case (and its decisions choice after it), and draws every other choice as a
/// random source does: the solution of each constrained value, and whatever the rest of the
/// property's input draws. Keeps the indices it gave, so the test case replays from them.
/// Past a skeleton's recorded indices (a generator that draws more than before), random.
#[derive(Debug)]
pub(crate) struct HeldSource {
    skeletons: Rc<Skeletons>,
    random: RandomSource,
    /// Open spans.
    depth: usize,
    /// The depth of the open skeleton span, if one is open.
    inside: Option<usize>,
    /// Which skeleton the open (or last closed) skeleton span replays, and where in it.
    current: usize,
    at: usize,
    /// Skeleton spans opened so far.
    opened: usize,
    /// The decisions choice of the skeleton that just closed is next.
    decision_due: bool,
    drawn: Vec<u64>,
}

impl HeldSource {
    pub(crate) fn new(skeletons: Rc<Skeletons>, seed: u64) -> HeldSource {
        HeldSource {
            skeletons,
            random: RandomSource::new(seed),
            depth: 0,
            inside: None,
            current: 0,
            at: 0,
            opened: 0,
            decision_due: false,
            drawn: Vec::new(),
        }
    }

    /// Starts another test case over `skeletons` with `seed`, keeping the buffer of drawn
    /// indices (one instantiation after another allocates nothing).
    pub(crate) fn restart(&mut self, skeletons: Rc<Skeletons>, seed: u64) {
        let mut drawn = std::mem::take(&mut self.drawn);
        drawn.clear();
        *self = HeldSource {
            drawn,
            ..HeldSource::new(skeletons, seed)
        };
    }

    /// The indices given so far, in order.
    pub(crate) fn drawn(&self) -> &[u64] {
        &self.drawn
    }

    fn part(&self) -> Option<&[u64]> {
        self.skeletons.0.get(self.current).map(Vec::as_slice)
    }
}

impl Source for HeldSource {
    fn draw(&mut self, ctx: &DrawContext<'_>) -> u64 {
        let held = if self.inside.is_some() {
            let at = self.at;
            self.at += 1;
            // The part's last index is its decisions choice, not a skeleton choice.
            self.part()
                .and_then(|p| p.get(..p.len().saturating_sub(1)))
                .and_then(|p| p.get(at).copied())
        } else if self.decision_due && ctx.label.kind() == Kind::Decisions {
            self.decision_due = false;
            self.part().and_then(|p| p.last().copied())
        } else {
            None
        };
        let index = match held {
            Some(i) => i.min(ctx.max),
            None => self.random.draw(ctx),
        };
        self.drawn.push(index);
        index
    }

    fn needs_context(&self) -> bool {
        false
    }

    fn follows_spans(&self) -> bool {
        true
    }

    /// Inside a skeleton span, the rest of its held skeleton (the instantiation's shape).
    fn planned(&self) -> Option<&[u64]> {
        self.inside?;
        let part = self.part()?;
        part.get(..part.len().saturating_sub(1))?.get(self.at..)
    }

    fn open_span(&mut self, label: Label, _position: usize) {
        self.depth += 1;
        if self.inside.is_none() && label.kind() == Kind::Skeleton {
            self.inside = Some(self.depth);
            self.current = self.opened;
            self.opened += 1;
            self.at = 0;
            self.decision_due = false;
        }
    }

    fn close_span(&mut self, _position: usize) {
        if self.inside == Some(self.depth) {
            self.inside = None;
            self.decision_due = true;
        }
        self.depth = self.depth.saturating_sub(1);
    }
}
