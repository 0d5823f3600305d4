//! The search of the `constrain` strategy.

use super::SkeletonSearch;
use super::held::{HeldSource, Skeletons};
use super::source::PrefixThenRandom;
use crate::engine::{Finish, Observation, Proposal, Replay, Search, Start, Stat, Verdict};
use crate::search::enumerate::{Branch, Next, PrefixSource, Tree};
use crate::tape::{HashesSet, Kind, RandomSource, Recording, Rng, Status};
use std::collections::HashMap;
use std::rc::Rc;

/// What the next test case does.
#[derive(Debug)]
enum Mode {
    /// Skeleton search: fresh random tapes, every `SYSTEMATIC`-th the enumeration's next,
    /// every `PROBE`-th a recorded probe, and bursts of backtracks after an early rejection.
    Explore,
    /// Instantiating the skeleton `pool[index]`, `left` more times.
    Instantiate { index: usize, left: u64 },
}

/// Every this many exploring test cases, one is recorded to see where it was rejected.
const PROBE: u64 = 8;

/// Every this many exploring test cases, one comes from the systematic enumeration of
/// skeletons (until it is exhausted).
const SYSTEMATIC: u64 = 4;

/// A visit of a skeleton runs this many test cases per exploring test case a find costs
/// (see `burst_len`): most test cases instantiate, and a new shape still comes every few
/// dozen.
const BURST_PER_FIND: u64 = 16;

/// Nodes the tree of enumerated skeletons may hold (32 bytes each).
const TREE_NODES: usize = 4_000_000;

/// The proposal being run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Proposed {
    /// A fresh random tape, not recorded (replayed by seed).
    Fresh,
    /// A recorded exploring tape (a probe or a backtrack).
    Probe,
    /// The next skeleton of the depth-first search (recorded).
    Systematic,
    /// An instantiation of a known skeleton (recorded).
    Instance,
}

/// The search of [`SkeletonSearch`] (see [`super`]).
#[derive(Debug)]
pub struct ConstrainSearch {
    settings: SkeletonSearch,
    rng: Rng,
    mode: Mode,
    /// The prefix of the next backtrack (empty: none pending).
    backtrack: Vec<u64>,
    /// Backtracks left in the current burst, and the deepest rejection reached in it.
    burst: u32,
    deepest: usize,
    /// Exploring test cases since a skeleton was last found or revisited.
    stalled: u64,
    /// Feasible skeletons, with the unforced indices of the valid tape each came from.
    pool: Vec<(Rc<Skeletons>, Vec<u64>)>,
    /// Where each skeleton (by hash) is in the pool.
    seen: HashMap<u64, usize>,
    next_revisit: usize,
    prefixed: PrefixThenRandom,
    held: HeldSource,
    random: RandomSource,
    /// Skeletons enumerated smallest first, pruned where they were rejected (`None` once
    /// exhausted or full).
    tree: Option<Tree>,
    enumerated: PrefixSource,
    /// The prefix of the last systematic proposal.
    prefix: Vec<u64>,
    last_seed: u64,
    kind: Proposed,
    explored: u64,
    instantiated: u64,
    /// Exploring test cases that were valid (a feasible skeleton found, new or not).
    explored_valid: u64,
    /// Fingerprints of the valid instantiations: one seen before ends its skeleton's visit.
    values: HashesSet,
    /// Most skeletons to hand back for `corpus/`.
    keep: usize,
}

impl ConstrainSearch {
    /// A search with these settings.
    pub fn new(settings: SkeletonSearch) -> ConstrainSearch {
        ConstrainSearch {
            settings,
            rng: Rng::new(0),
            mode: Mode::Explore,
            backtrack: Vec::new(),
            burst: 0,
            deepest: 0,
            stalled: 0,
            pool: Vec::new(),
            seen: HashMap::new(),
            next_revisit: 0,
            prefixed: PrefixThenRandom::new(Vec::new(), 0),
            held: HeldSource::new(Rc::new(Skeletons(Vec::new())), 0),
            random: RandomSource::new(0),
            tree: Some(Tree::new(TREE_NODES)),
            enumerated: PrefixSource::new(Vec::new(), None),
            prefix: Vec::new(),
            last_seed: 0,
            kind: Proposed::Fresh,
            explored: 0,
            instantiated: 0,
            explored_valid: 0,
            values: HashesSet::default(),
            keep: 0,
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
    /// (the deepest most often), change the one there. `false` when there is none.
    fn backtrack_from(&mut self, rec: &Recording, end: usize) -> bool {
        let end = end.min(rec.choices.len());
        let free: Vec<usize> = (0..end).filter(|&i| !rec.choices[i].forced).collect();
        if free.is_empty() {
            return false;
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
        // Another index than the one that was rejected.
        let other = (c.index + 1 + self.rng.below_or_eq(c.max - 1)) % (c.max + 1);
        prefix.push(other);
        self.backtrack = prefix;
        true
    }

    /// A rejected recorded exploring tape: backtrack from it if it was rejected early (by
    /// the generator, at a choice inside the skeleton), where the position says something.
    /// A skeleton the filter rejected as a whole (at the decisions choice) says nothing
    /// about which of its choices to change: the search draws fresh tapes instead.
    fn rejected(&mut self, rec: &Recording) {
        let Some(p) = rec.rejected_at else {
            self.burst = 0;
            return;
        };
        let blind = p > 0
            && rec
                .labels
                .get(p - 1)
                .is_some_and(|l| l.kind() == Kind::Decisions);
        if blind {
            self.burst = 0;
            return;
        }
        if self.burst == 0 {
            // A new burst from a probe.
            self.burst = self.settings.backtracks;
            self.deepest = p;
        } else if p > self.deepest {
            // Deeper than before: the burst goes on from here with its full budget.
            self.deepest = p;
            self.burst = self.settings.backtracks;
        } else {
            self.burst -= 1;
        }
        if self.burst == 0 || !self.backtrack_from(rec, p) {
            self.burst = 0;
            self.backtrack.clear();
        }
    }

    /// The next prefix of the systematic enumeration, deepening the size as sizes complete.
    fn next_skeleton(&mut self) -> Option<Vec<u64>> {
        let tree = self.tree.as_mut()?;
        loop {
            match tree.next_tape() {
                Next::Tape(p) => return Some(p),
                Next::Done { cut: true } => {
                    let n = tree.size();
                    tree.restart(n + 1);
                }
                Next::Done { cut: false } | Next::Full => {
                    self.tree = None;
                    return None;
                }
            }
        }
    }

    /// Adds an enumerated run to the tree. It ends at its skeleton: where it was rejected, or
    /// at the decisions choice (what follows is instantiation, not shape), so every skeleton
    /// is enumerated once.
    fn enumerated_run(&mut self, rec: &Recording, status: Status) {
        let Some(tree) = self.tree.as_mut() else {
            return;
        };
        let mut end = match (status, rec.rejected_at) {
            (Status::Invalid, Some(p)) => p.min(rec.choices.len()),
            _ => rec.choices.len(),
        };
        if let Some(d) = rec.labels.iter().position(|l| l.kind() == Kind::Decisions) {
            end = end.min(d);
        }
        let steps: Vec<Branch> = rec.choices[..end]
            .iter()
            .filter(|c| !c.forced)
            .map(|c| Branch {
                max: c.max,
                index: c.index,
                fixed: false,
            })
            .collect();
        tree.insert(&steps, status);
        if !tree.has(&self.prefix) {
            tree.skip();
        }
    }

    /// A valid tape `rec`: its skeletons join the pool (once) and a visit of them starts.
    /// `explored`: the skeleton search found it (it counts towards the cost of a find); a
    /// saved tape replayed before the search gets a full visit instead.
    fn found(&mut self, rec: &Recording, explored: bool) {
        self.burst = 0;
        self.backtrack.clear();
        let Some(skeletons) = Skeletons::of(rec) else {
            return;
        };
        let hash = skeletons.hash();
        let index = match self.seen.get(&hash) {
            // The same skeletons again (a hash collision with others is reinstantiated as
            // those: harmless).
            Some(&i) => i,
            None => {
                self.seen.insert(hash, self.pool.len());
                self.pool.push((Rc::new(skeletons), rec.indices()));
                self.pool.len() - 1
            }
        };
        let burst = if explored {
            self.explored_valid += 1;
            self.burst_len()
        } else {
            self.settings.instantiations
        };
        if burst > 1 {
            self.mode = Mode::Instantiate {
                index,
                left: burst - 1,
            };
        }
        self.stalled = 0;
    }

    /// Test cases per visit of a feasible skeleton, the find included: [`BURST_PER_FIND`]
    /// times what the skeleton search spends per feasible skeleton it finds, so that
    /// exploring keeps a share of the run. Where random tapes are mostly feasible, that is a
    /// few dozen and new shapes keep coming; where a feasible skeleton is rare, it grows to
    /// [`SkeletonSearch::instantiations`] (ProSyT's fixed 1,500).
    fn burst_len(&self) -> u64 {
        let per_find = self.explored.div_ceil(self.explored_valid.max(1));
        (BURST_PER_FIND * per_find).clamp(1, self.settings.instantiations.max(1))
    }
}

impl Search for ConstrainSearch {
    fn name(&self) -> &'static str {
        "constrain"
    }

    fn start(&mut self, start: &Start) {
        self.rng = Rng::new(Rng::derive(start.seed, 0xc0_57a1));
        self.keep = start.keep;
    }

    fn reused(&mut self, outcome: &Observation<'_>) {
        // A saved valid tape has a feasible skeleton: instantiate it first, then search on.
        if matches!(outcome.status, Status::Valid | Status::Interesting)
            && let Some(rec) = outcome.recording
        {
            self.found(rec, false);
        }
    }

    fn propose(&mut self) -> Option<Proposal<'_>> {
        let seed = self.rng.next_u64();
        if let Mode::Explore = self.mode
            && !self.pool.is_empty()
            && self.stalled >= 2 * self.burst_len()
        {
            // The skeleton search has stalled: instantiate a known skeleton again.
            let index = self.next_revisit % self.pool.len();
            self.next_revisit += 1;
            self.stalled = 0;
            self.mode = Mode::Instantiate {
                index,
                left: self.burst_len(),
            };
        }
        match &mut self.mode {
            Mode::Instantiate { index, left } => {
                *left -= 1;
                let skeletons = Rc::clone(&self.pool[*index].0);
                if *left == 0 {
                    self.mode = Mode::Explore;
                }
                // Not recorded: the held source keeps what it drew, to replay a failure.
                self.kind = Proposed::Instance;
                self.held.restart(skeletons, seed);
                Some(Proposal::new(&mut self.held))
            }
            Mode::Explore => {
                self.explored += 1;
                self.stalled += 1;
                if self.explored.is_multiple_of(SYSTEMATIC)
                    && let Some(prefix) = self.next_skeleton()
                {
                    self.kind = Proposed::Systematic;
                    self.prefix = prefix.clone();
                    self.enumerated = PrefixSource::new(prefix, None);
                    Some(Proposal::new(&mut self.enumerated).recorded())
                } else if self.burst > 0 && !self.backtrack.is_empty() {
                    self.kind = Proposed::Probe;
                    let prefix = std::mem::take(&mut self.backtrack);
                    self.prefixed = PrefixThenRandom::new(prefix, seed);
                    Some(Proposal::new(&mut self.prefixed).recorded())
                } else if self.explored.is_multiple_of(PROBE) {
                    self.kind = Proposed::Probe;
                    self.prefixed = PrefixThenRandom::new(Vec::new(), seed);
                    Some(Proposal::new(&mut self.prefixed).recorded())
                } else {
                    self.kind = Proposed::Fresh;
                    self.last_seed = seed;
                    self.random = RandomSource::new(seed);
                    Some(Proposal::new(&mut self.random).seeded(seed))
                }
            }
        }
    }

    fn observe(&mut self, outcome: &Observation<'_>) -> Verdict {
        let valid = matches!(outcome.status, Status::Valid | Status::Interesting);
        match (self.kind, outcome.recording) {
            (Proposed::Instance, _) => {
                self.instantiated += valid as u64;
                // A value this skeleton made before: its instantiations are running out of
                // new values, so the search moves on to other shapes.
                if valid && !self.values.insert(outcome.fingerprint) {
                    self.mode = Mode::Explore;
                }
            }
            (Proposed::Fresh, _) if valid => return Verdict::Record,
            (Proposed::Fresh, _) => {}
            (Proposed::Systematic, Some(rec)) => {
                self.enumerated_run(rec, outcome.status);
                if valid {
                    self.found(rec, true);
                }
            }
            (Proposed::Systematic, None) => {}
            (Proposed::Probe, Some(rec)) if valid => self.found(rec, true),
            (Proposed::Probe, Some(rec)) if outcome.status == Status::Invalid => self.rejected(rec),
            (Proposed::Probe, _) => {
                self.burst = 0;
                self.backtrack.clear();
            }
        }
        Verdict::Continue
    }

    fn recorded(&mut self, recording: Recording) {
        self.found(&recording, true);
    }

    fn replay(&self) -> Option<Replay> {
        match self.kind {
            Proposed::Fresh => Some(Replay::Seed(self.last_seed)),
            Proposed::Instance => Some(Replay::Indices(self.held.drawn().to_vec())),
            _ => None,
        }
    }

    fn progress(&self) -> String {
        format!(
            "{} skeletons, {} instantiations",
            self.pool.len(),
            self.instantiated
        )
    }

    fn finish(&mut self) -> Finish {
        // The valid tape of every feasible skeleton, for `corpus/`: the next run starts from
        // them.
        let keep = self
            .pool
            .iter()
            .take(self.keep)
            .map(|(_, tape)| Replay::Indices(tape.clone()))
            .collect();
        Finish {
            keep,
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
