//! The search of [`Cover`]: probe, find the parameters, run the rows of covering arrays of
//! growing strength, then go on at random.

use super::Cover;
use super::parameters::{Parameter, leading};
use super::plan::Plan;
use crate::engine::{Finish, Observation, Proposal, Replay, Search, Start, Stat, Verdict};
use crate::tape::{Fallback, RandomSource, Recording, ReplaySource, Rng};

/// What the test case proposed last was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Last {
    Probe,
    Row,
    Random,
}

/// The search of [`Cover`].
pub struct CoverSearch {
    settings: Cover,
    seed: u64,
    test: u64,
    probes: Vec<Recording>,
    params: Option<Vec<Parameter>>,
    plan: Option<Plan>,
    next_row: usize,
    /// The strength of the array running (0: none yet).
    strength: usize,
    /// No more arrays: the strengths ran, or none can be built; why, for the note.
    arrays_done: Option<String>,
    rows_run: u64,
    /// The next test case alternates to random ([`Cover::alternate`]).
    random_turn: bool,
    last: Last,
    last_seed: u64,
    row_source: ReplaySource,
    random: RandomSource,
}

impl CoverSearch {
    /// A search with these settings.
    pub fn new(settings: Cover) -> CoverSearch {
        CoverSearch {
            settings,
            seed: 0,
            test: 0,
            probes: Vec::new(),
            params: None,
            plan: None,
            next_row: 0,
            strength: 0,
            arrays_done: None,
            rows_run: 0,
            random_turn: false,
            last: Last::Probe,
            last_seed: 0,
            row_source: ReplaySource::new(Vec::new(), Fallback::Simplest),
            random: RandomSource::new(0),
        }
    }

    /// Builds the array of the next strength; sets `arrays_done` when there is none.
    fn next_array(&mut self) {
        let params = self.params.as_deref().unwrap_or(&[]);
        if params.is_empty() {
            self.arrays_done = Some(
                "no parameters: the generator's first choice is not drawn alike by every test case (or is wider than 2^24)"
                    .into(),
            );
            return;
        }
        let t = if self.strength == 0 {
            self.settings.strength.max(1)
        } else {
            self.strength + 1
        };
        let last = self
            .settings
            .max_strength
            .clamp(1, 6)
            .max(self.settings.strength);
        let full = self.plan.as_ref().is_some_and(|p| p.is_full_product);
        if t > last || full {
            self.arrays_done = Some(format!(
                "the arrays of strength {} to {} ran",
                self.settings.strength.max(1),
                self.strength
            ));
            return;
        }
        let seed = Rng::derive(self.seed, 0x636f_7665_7200 + t as u64);
        match Plan::build(params, t, seed, &self.settings) {
            Ok(plan) => {
                self.strength = t;
                self.next_row = 0;
                self.plan = Some(plan);
            }
            Err(why) => {
                self.arrays_done = Some(format!("strength {t}: {why}"));
            }
        }
    }
}

impl Search for CoverSearch {
    fn name(&self) -> &'static str {
        "cover"
    }

    fn start(&mut self, start: &Start) {
        self.seed = start.seed;
    }

    fn propose(&mut self) -> Option<Proposal<'_>> {
        self.test += 1;
        let seed = Rng::derive(self.seed, self.test);
        self.last_seed = seed;
        if self.params.is_none() {
            if (self.probes.len() as u64) < self.settings.probes.max(1) {
                self.last = Last::Probe;
                self.random = RandomSource::new(seed);
                return Some(Proposal::new(&mut self.random).seeded(seed).recorded());
            }
            self.params = Some(leading(&self.probes, self.settings.widest));
            self.probes = Vec::new();
        }
        if self.arrays_done.is_none()
            && self
                .plan
                .as_ref()
                .is_none_or(|p| self.next_row >= p.rows.len())
        {
            self.next_array();
        }
        let random_turn = self.settings.alternate && self.random_turn;
        self.random_turn = !self.random_turn;
        if self.arrays_done.is_none()
            && !random_turn
            && let Some(plan) = &self.plan
        {
            let row = plan.rows[self.next_row].clone();
            self.next_row += 1;
            self.rows_run += 1;
            self.last = Last::Row;
            self.row_source = ReplaySource::new(row, Fallback::Random(Rng::new(seed)));
            return Some(Proposal::new(&mut self.row_source).recorded());
        }
        self.last = Last::Random;
        self.random = RandomSource::new(seed);
        Some(Proposal::new(&mut self.random).seeded(seed))
    }

    fn observe(&mut self, outcome: &Observation<'_>) -> Verdict {
        if self.last == Last::Probe
            && let Some(rec) = outcome.recording
        {
            self.probes.push(rec.clone());
        }
        Verdict::Continue
    }

    fn replay(&self) -> Option<Replay> {
        (self.last == Last::Random).then_some(Replay::Seed(self.last_seed))
    }

    fn progress(&self) -> String {
        match (&self.plan, &self.arrays_done) {
            (Some(p), None) => format!(
                "strength {} row {}/{} ({} parameters, {} columns)",
                self.strength,
                self.next_row,
                p.rows.len(),
                p.parameters,
                p.columns
            ),
            (_, Some(_)) => "arrays done, random".into(),
            (None, None) => "probing".into(),
        }
    }

    fn finish(&mut self) -> Finish {
        let params = self.params.as_ref().map_or(0, |p| p.len() as u64);
        let note = match (&self.arrays_done, self.params.is_some()) {
            (Some(why), _) => Some(format!(
                "cover: {params} parameters, {} rows of covering arrays ran; {why}; then random",
                self.rows_run
            )),
            (None, true) => Some(format!(
                "cover: {params} parameters, {} rows ran, up to strength {}",
                self.rows_run, self.strength
            )),
            (None, false) => None,
        };
        Finish {
            note,
            keep: Vec::new(),
            keep_bests: false,
            stats: vec![
                Stat {
                    name: "parameters",
                    value: params,
                },
                Stat {
                    name: "strength",
                    value: self.strength as u64,
                },
                Stat {
                    name: "rows",
                    value: self.rows_run,
                },
            ],
        }
    }
}
