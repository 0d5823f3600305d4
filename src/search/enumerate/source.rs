//! The source of an enumerated tape: a prefix, then the simplest choices, with a constructor
//! pattern forcing the constructors along the first descent.

use crate::tape::{DrawContext, Kind, RandomSource, Source};

/// A constructor pattern being applied: the indices to force on the constructor choices of
/// the first descent (each deeper than the one before), and how far it got.
#[derive(Clone, Debug)]
struct Applying {
    pattern: Vec<u64>,
    next: usize,
    depth: usize,
    done: bool,
}

/// Plays `prefix` (each index clamped to the choice's range), then index 0 — the simplest
/// tape with that prefix. With a pattern, the first constructor choices of the tape (choices
/// of kind [`Kind::Union`], each at a greater span depth than the one before, from the first
/// one on) take the pattern's indices instead; the positions it forced are recorded so the
/// enumerator explores only that index there.
#[derive(Clone, Debug, Default)]
pub struct PrefixSource {
    prefix: Vec<u64>,
    pos: usize,
    pattern: Option<Applying>,
    fixed: Vec<usize>,
    /// Past the prefix, draw at random instead of the simplest choice.
    random: Option<RandomSource>,
}

impl PrefixSource {
    /// A source of `prefix` then zeros, forcing `pattern` (if any) on the first descent.
    pub fn new(prefix: Vec<u64>, pattern: Option<&[u64]>) -> PrefixSource {
        PrefixSource {
            prefix,
            pos: 0,
            pattern: pattern.filter(|p| !p.is_empty()).map(|p| Applying {
                pattern: p.to_vec(),
                next: 0,
                depth: 0,
                done: false,
            }),
            fixed: Vec::new(),
            random: None,
        }
    }

    /// A random tape (from `seed`, as a [`RandomSource`] draws it) with `pattern` forced on
    /// its first descent: a pattern's random test case.
    pub fn random(seed: u64, pattern: Option<&[u64]>) -> PrefixSource {
        PrefixSource {
            random: Some(RandomSource::new(seed)),
            ..PrefixSource::new(Vec::new(), pattern)
        }
    }

    /// Positions (among the draws of the source) whose index the pattern forced.
    pub fn fixed(&self) -> &[usize] {
        &self.fixed
    }

    fn constructor(&mut self, ctx: &DrawContext<'_>) -> Option<u64> {
        let a = self.pattern.as_mut()?;
        if a.done || ctx.label.kind() != Kind::Union {
            return None;
        }
        let depth = ctx.path.len();
        if a.next > 0 && depth <= a.depth {
            // Back at the depth of a constructor already drawn: the descent ended at a
            // constructor without children, and the rest of the pattern does not apply.
            a.done = true;
            return None;
        }
        let want = a.pattern[a.next];
        a.next += 1;
        a.depth = depth;
        a.done = a.next == a.pattern.len();
        // A constructor the choice does not offer here (a depth bound left only leaves):
        // the pattern is not honoured at this node and the choice stays free.
        (want <= ctx.max).then_some(want)
    }
}

impl Source for PrefixSource {
    fn draw(&mut self, ctx: &DrawContext<'_>) -> u64 {
        let here = self.pos;
        self.pos += 1;
        if let Some(i) = self.constructor(ctx) {
            self.fixed.push(here);
            return i;
        }
        match (self.prefix.get(here), &mut self.random) {
            (Some(&i), _) => i.min(ctx.max),
            (None, Some(r)) => r.draw(ctx),
            (None, None) => 0,
        }
    }

    fn needs_context(&self) -> bool {
        self.pattern.is_some()
    }
}
