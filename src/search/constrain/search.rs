//! The search of the `constrain` strategy.

use super::SkeletonSearch;
use super::source::PrefixThenRandom;
use crate::engine::{Finish, Outcome, Proposal, Replay, Search, Start, Stat, Verdict};
use crate::tape::{Kind, Recording, Rng, Status};
use std::collections::HashSet;

/// What the next test case does.
#[derive(Debug)]
enum Mode {
    /// Skeleton search: a fresh tape, or `prefix` (a backtrack) then random.
    Explore,
    /// Instantiating the skeleton `pool[index]`, `left` more times.
    Instantiate { index: usize, left: u64 },
}

/// The search of [`SkeletonSearch`] (see [`super`]).
#[derive(Debug)]
pub struct ConstrainSearch {
    settings: SkeletonSearch,
    rng: Rng,
    mode: Mode,
    /// The prefix of the next exploring test case (empty: a fresh random tape).
    backtrack: Vec<u64>,
    /// Rejected exploring test cases in a row.
    fails: u32,
    /// Exploring test cases since a skeleton was last found or revisited.
    stalled: u64,
    /// Feasible skeletons: the unforced indices up to their solution span.
    pool: Vec<Vec<u64>>,
    seen: HashSet<u64>,
    next_revisit: usize,
    source: PrefixThenRandom,
    exploring: bool,
    explored: u64,
    instantiated: u64,
}

impl ConstrainSearch {
    /// A search with these settings.
    pub fn new(settings: SkeletonSearch) -> ConstrainSearch {
        ConstrainSearch {
            settings,
            rng: Rng::new(0),
            mode: Mode::Explore,
            backtrack: Vec::new(),
            fails: 0,
            stalled: 0,
            pool: Vec::new(),
            seen: HashSet::new(),
            next_revisit: 0,
            source: PrefixThenRandom::new(Vec::new(), 0),
            exploring: true,
            explored: 0,
            instantiated: 0,
        }
    }

    /// The unforced indices of `rec`'s choices before choice position `end`.
    fn unforced_before(rec: &Recording, end: usize) -> Vec<u64> {
        rec.choices[..end.min(rec.choices.len())]
            .iter()
            .filter(|c| !c.forced)
            .map(|c| c.index)
            .collect()
    }

    /// A backtrack from a tape rejected at `end`: keep its choices before a random position
    /// (the deepest most often), change the one there.
    fn backtrack_from(&mut self, rec: &Recording, end: usize) {
        let end = end.min(rec.choices.len());
        let free: Vec<usize> = (0..end).filter(|&i| !rec.choices[i].forced).collect();
        if free.is_empty() {
            self.backtrack.clear();
            return;
        }
        // Geometric from the deepest: half the time the last choice, a quarter the one
        // before, …
        let mut back = 0;
        while back + 1 < free.len() && self.rng.next_u64() & 1 == 1 {
            back += 1;
        }
        let at = free[free.len() - 1 - back];
        let mut prefix = Self::unforced_before(rec, at);
        let c = rec.choices[at];
        // Another index than the one that failed.
        let other = (c.index + 1 + self.rng.below_or_eq(c.max - 1)) % (c.max + 1);
        prefix.push(other);
        self.backtrack = prefix;
    }

    fn found(&mut self, rec: &Recording) {
        let Some(start) = rec
            .spans
            .iter()
            .find(|s| s.label.kind() == Kind::Solution)
            .map(|s| s.start)
        else {
            return;
        };
        let skeleton = Self::unforced_before(rec, start);
        let hash = skeleton.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &x| {
            (h ^ x).wrapping_mul(0x0100_0000_01b3)
        });
        let index = if self.seen.insert(hash) {
            self.pool.push(skeleton);
            self.pool.len() - 1
        } else {
            match self.pool.iter().position(|p| *p == skeleton) {
                Some(i) => i,
                None => return,
            }
        };
        if self.settings.instantiations > 1 {
            self.mode = Mode::Instantiate {
                index,
                left: self.settings.instantiations - 1,
            };
        }
        self.stalled = 0;
    }
}

impl Search for ConstrainSearch {
    fn name(&self) -> &'static str {
        "constrain"
    }

    fn start(&mut self, start: &Start) {
        self.rng = Rng::new(Rng::derive(start.seed, 0xc0_57a1));
    }

    fn propose(&mut self) -> Option<Proposal<'_>> {
        let seed = self.rng.next_u64();
        if let Mode::Explore = self.mode
            && self.stalled >= self.settings.instantiations
            && !self.pool.is_empty()
        {
            // The skeleton search has stalled: instantiate a known skeleton again.
            let index = self.next_revisit % self.pool.len();
            self.next_revisit += 1;
            self.stalled = 0;
            self.mode = Mode::Instantiate {
                index,
                left: self.settings.instantiations,
            };
        }
        let prefix = match &mut self.mode {
            Mode::Instantiate { index, left } => {
                *left -= 1;
                let p = self.pool[*index].clone();
                if *left == 0 {
                    self.mode = Mode::Explore;
                }
                self.exploring = false;
                p
            }
            Mode::Explore => {
                self.exploring = true;
                self.explored += 1;
                self.stalled += 1;
                std::mem::take(&mut self.backtrack)
            }
        };
        self.source = PrefixThenRandom::new(prefix, seed);
        Some(Proposal::new(&mut self.source).recorded())
    }

    fn observe(&mut self, outcome: &Outcome<'_>) -> Verdict {
        let Some(rec) = outcome.recording else {
            return Verdict::Continue;
        };
        match outcome.status {
            Status::Valid | Status::Interesting => {
                if self.exploring {
                    self.fails = 0;
                    self.found(rec);
                } else {
                    self.instantiated += 1;
                }
            }
            Status::Invalid if self.exploring => {
                self.fails += 1;
                if self.fails > self.settings.backtracks {
                    self.fails = 0;
                    self.backtrack.clear();
                } else {
                    let end = rec.rejected_at.unwrap_or(rec.choices.len());
                    self.backtrack_from(rec, end);
                }
            }
            _ => {
                if self.exploring {
                    self.fails = 0;
                    self.backtrack.clear();
                }
            }
        }
        Verdict::Continue
    }

    fn replay(&self) -> Option<Replay> {
        None
    }

    fn progress(&self) -> String {
        format!(
            "{} skeletons, {} instantiations",
            self.pool.len(),
            self.instantiated
        )
    }

    fn finish(&mut self) -> Finish {
        Finish {
            stats: vec![
                Stat {
                    name: "skeletons",
                    value: self.pool.len() as u64,
                },
                Stat {
                    name: "instantiations",
                    value: self.instantiated,
                },
                Stat {
                    name: "explored",
                    value: self.explored,
                },
            ],
            note: (!self.pool.is_empty()).then(|| {
                format!(
                    "{} feasible skeletons found, {} instantiations",
                    self.pool.len(),
                    self.instantiated
                )
            }),
            ..Finish::default()
        }
    }
}
