//! The learning loop as a search.

use super::{Guide, Learn};
use crate::engine::{Finish, Observation, Proposal, Replay, Search, Start, Stat, Verdict};
use crate::tape::{Fallback, HashesSet, ReplaySource, Rng, Status};

/// The search of [`Learn`]. Each guided test case is an episode: the guide draws every
/// choice (not recorded: the tape tells it of spans), then is rewarded by the outcome.
/// Valid replayed tapes count as seen, so finding one again is no new find; with
/// [`Learn::bootstrap`], they are taught to the guide first, as uncounted test cases.
/// Keeps a uniform sample (reservoir) of at most [`Start::keep`] unique valid tapes.
pub struct LearnSearch {
    learn: Learn,
    guide: Guide,
    rng: Rng,
    seen: HashesSet,
    keep: usize,
    kept: Vec<Vec<u64>>,
    /// Unique valid characteristics the guided test cases found.
    found: u64,
    taught: u64,
    /// Valid replayed tapes to teach (their unforced indices), and the next one's index.
    teach: Vec<Vec<u64>>,
    next_teacher: usize,
    teacher: ReplaySource,
    teaching: bool,
}

impl LearnSearch {
    /// A search with `learn`'s settings.
    pub fn new(learn: Learn) -> LearnSearch {
        LearnSearch {
            guide: Guide::new(learn.clone(), 0),
            learn,
            rng: Rng::new(0),
            seen: HashesSet::default(),
            keep: 0,
            kept: Vec::new(),
            found: 0,
            taught: 0,
            teach: Vec::new(),
            next_teacher: 0,
            teacher: ReplaySource::new(Vec::new(), Fallback::Simplest),
            teaching: false,
        }
    }
}

impl Search for LearnSearch {
    fn name(&self) -> &'static str {
        "rl"
    }

    fn start(&mut self, start: &Start) {
        self.guide = Guide::new(self.learn.clone(), Rng::derive(start.seed, 0x524c));
        self.rng = Rng::new(Rng::derive(start.seed, 0x6b656570));
        self.keep = start.keep;
    }

    fn reused(&mut self, outcome: &Observation<'_>) {
        if outcome.status != Status::Valid {
            return;
        }
        self.seen.insert(outcome.characteristic);
        if self.learn.bootstrap
            && let Some(rec) = outcome.recording
        {
            self.teach.push(rec.indices());
        }
    }

    #[inline]
    fn propose(&mut self) -> Option<Proposal<'_>> {
        self.guide.begin();
        if let Some(indices) = self.teach.get_mut(self.next_teacher) {
            self.next_teacher += 1;
            self.teaching = true;
            self.teacher = ReplaySource::new(std::mem::take(indices), Fallback::Simplest);
            let follow = self.guide.follow(&mut self.teacher);
            return Some(Proposal::boxed(Box::new(follow)).uncounted());
        }
        self.teaching = false;
        Some(Proposal::new(&mut self.guide))
    }

    #[inline]
    fn observe(&mut self, outcome: &Observation<'_>) -> Verdict {
        if self.teaching {
            if outcome.status == Status::Valid {
                self.seen.insert(outcome.characteristic);
                self.guide.credit(self.learn.rewards.unique);
                self.taught += 1;
            }
            return Verdict::Continue;
        }
        let new = outcome.status == Status::Valid && self.seen.insert(outcome.characteristic);
        if new {
            self.found += 1;
            if self.keep > 0 {
                if self.kept.len() < self.keep {
                    self.kept.push(self.guide.drawn().to_vec());
                } else {
                    let j = self.rng.below_or_eq(self.found - 1) as usize;
                    if j < self.keep {
                        self.kept[j] = self.guide.drawn().to_vec();
                    }
                }
            }
        }
        let reward = self.guide.reward(outcome.status, new);
        self.guide.credit(reward);
        Verdict::Continue
    }

    fn replay(&self) -> Option<Replay> {
        Some(Replay::Indices(self.guide.drawn().to_vec()))
    }

    fn progress(&self) -> String {
        format!("{} learners", self.guide.states())
    }

    fn finish(&mut self) -> Finish {
        Finish {
            note: None,
            keep: std::mem::take(&mut self.kept)
                .into_iter()
                .map(Replay::Indices)
                .collect(),
            keep_bests: false,
            stats: vec![
                Stat {
                    name: "learners",
                    value: self.guide.states() as u64,
                },
                Stat {
                    name: "taught",
                    value: self.taught,
                },
                Stat {
                    name: "characteristics",
                    value: self.found,
                },
            ],
        }
    }
}
