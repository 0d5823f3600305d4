//! The annealing loop as a search.

use super::Anneal;
use crate::engine::{Finish, Observation, Proposal, Replay, Search, Start, Stat};
use crate::mutate::{Aligned, Neighbour};
use crate::tape::{RandomSource, Rng, Status};

/// The search of [`Anneal`]: every test case is recorded (its tape may become the base).
pub struct AnnealSearch {
    settings: Anneal,
    rng: Rng,
    cycle: u64,
    /// The base tape, aligned, and its score.
    base: Option<(Aligned, f64)>,
    best: f64,
    since_best: u64,
    /// Steps taken (the temperature's clock).
    k: u64,
    /// The temperature of the last proposal.
    t: f64,
    restarts: u64,
    fresh: RandomSource,
}

impl AnnealSearch {
    /// A search with `settings`.
    pub fn new(settings: Anneal) -> AnnealSearch {
        AnnealSearch {
            settings,
            rng: Rng::new(0),
            cycle: settings.cycle,
            base: None,
            best: f64::NEG_INFINITY,
            since_best: 0,
            k: 0,
            t: settings.temperature,
            restarts: 0,
            fresh: RandomSource::new(0),
        }
    }
}

impl Search for AnnealSearch {
    fn name(&self) -> &'static str {
        "sa"
    }

    fn start(&mut self, start: &Start) {
        self.rng = Rng::new(Rng::derive(start.seed, 0x5341));
        self.cycle = if start.tests == u64::MAX {
            self.settings.cycle
        } else {
            start.tests
        };
    }

    fn propose(&mut self) -> Option<Proposal<'_>> {
        self.t = self.settings.temperature_at(self.k, self.cycle);
        let seed = self.rng.next_u64();
        Some(match &self.base {
            None => {
                self.fresh = RandomSource::new(seed);
                Proposal::new(&mut self.fresh).seeded(seed).recorded()
            }
            Some((aligned, _)) => Proposal::boxed(Box::new(Neighbour::new(
                aligned,
                self.settings.neighbourhood,
                self.t,
                seed,
            )))
            .recorded(),
        })
    }

    fn observe(&mut self, outcome: &Observation<'_>) -> crate::engine::Verdict {
        use crate::engine::Verdict::Continue;
        self.k += 1;
        self.since_best += 1;
        let score = match (outcome.status, outcome.score) {
            (Status::Valid, Some(s)) => s,
            _ => return Continue,
        };
        if score > self.best {
            self.best = score;
            self.since_best = 0;
        }
        let t = self.t;
        let accept = match &self.base {
            None => true,
            Some((_, b)) if score >= *b => true,
            Some((_, b)) => t > 0.0 && self.rng.chance((-(b - score) / t).exp()),
        };
        if accept && let Some(rec) = outcome.recording {
            self.base = Some((Aligned::new(rec), score));
        }
        if self
            .settings
            .restart_after
            .is_some_and(|r| self.since_best >= r)
        {
            self.base = None;
            self.best = f64::NEG_INFINITY;
            self.since_best = 0;
            self.restarts += 1;
        }
        Continue
    }

    fn replay(&self) -> Option<Replay> {
        None
    }

    fn needs_utilities(&self) -> bool {
        true
    }

    fn progress(&self) -> String {
        format!("t {:.3}", self.t)
    }

    fn finish(&mut self) -> Finish {
        Finish {
            note: None,
            keep: Vec::new(),
            keep_bests: true,
            stats: vec![Stat {
                name: "restarts",
                value: self.restarts,
            }],
        }
    }
}
