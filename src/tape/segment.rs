//! A logged stretch of draws that a tape can play again without the generator that made it.
//!
//! The constrained generator instantiates one skeleton many times in a row: each time it
//! draws the same shape choices over open numbers, only to throw that value away when the
//! skeleton's solved filter is reused. When the source says in advance which indices it
//! will give ([`super::Source::planned`]), the draws the generator made for those indices
//! before can be made again from a log ([`super::Tape::replay_segment`]): the same choices,
//! counts, fingerprint and node count, at a fraction of the generator's cost.

use super::Label;

/// One logged draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Logged {
    pub(crate) label: Label,
    pub(crate) max: u64,
    pub(crate) index: u64,
    /// Made with [`super::Tape::force`].
    pub(crate) forced: bool,
}

/// What a tape logs while a logged capture is on ([`super::Tape::start_logged_capture`]).
#[derive(Debug, Default)]
pub(crate) struct Log {
    pub(crate) draws: Vec<Logged>,
    /// The tape's draw count and node count when the log started.
    pub(crate) drawn_at: usize,
    pub(crate) nodes_at: usize,
    /// A payload or text run was drawn (see `Tape::unlogged`).
    pub(crate) runs: bool,
}

impl Log {
    /// Logs one draw.
    pub(crate) fn note(&mut self, label: Label, max: u64, index: u64, forced: bool) {
        self.draws.push(Logged {
            label,
            max,
            index,
            forced,
        });
    }
}

/// The draws of a stretch of tape, in order, and the nodes counted in it: what
/// [`super::Tape::replay_segment`] plays again.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Segment {
    pub(crate) draws: Vec<Logged>,
    pub(crate) nodes: usize,
}

impl Segment {
    /// The indices a source chose in it (not forced choices, not one-option draws): what
    /// a capture of the same stretch holds.
    pub(crate) fn chosen(&self) -> impl Iterator<Item = u64> + '_ {
        self.draws
            .iter()
            .filter(|d| !d.forced && d.max > 0)
            .map(|d| d.index)
    }
}
