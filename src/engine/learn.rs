//! The `rl` strategy: RLCheck (paper 002). A [`Guide`] makes every choice; after each test
//! case it is rewarded for a unique valid characteristic, a valid one seen before, or an
//! invalid one, and learns.

use super::ConfigError;
use crate::guide::{Abstraction, Guide, Learn, Learners, Update};
use crate::tape::{Rng, Source, Status};
use std::collections::HashSet;

// The settings live with the guide; reading them from the environment is the engine's
// business (the guide depends on the tape alone).
impl Learn {
    /// Applies the `TAPEFUZZ_RL_*` environment variables: `EPSILON`, `WINDOW`, `STATE`
    /// (`tree`, `sequence` or `none`), `RECENT`, `LEARNERS` (`label` or `point`), `UNIQUE`, `VALID`, `INVALID` (rewards), `DECAY` (alpha
    /// of [`Update::Decayed`]; 0 = plain averages), `BONUS`, `BOOTSTRAP` (0 or 1).
    pub fn apply_env(&mut self) -> Result<(), ConfigError> {
        let bad = |name: &str| ConfigError {
            var: name.into(),
            value: std::env::var(name).unwrap_or_default(),
        };
        let number = |name: &str| -> Result<Option<f64>, ConfigError> {
            match std::env::var(name) {
                Err(_) => Ok(None),
                Ok(v) => match v.trim().parse::<f64>() {
                    Ok(x) if x.is_finite() => Ok(Some(x)),
                    _ => Err(bad(name)),
                },
            }
        };
        if let Some(e) = number("TAPEFUZZ_RL_EPSILON")? {
            if !(0.0..=1.0).contains(&e) {
                return Err(bad("TAPEFUZZ_RL_EPSILON"));
            }
            self.epsilon = e;
        }
        if let Some(w) = number("TAPEFUZZ_RL_WINDOW")? {
            if w < 0.0 || w.fract() != 0.0 || w > 64.0 {
                return Err(bad("TAPEFUZZ_RL_WINDOW"));
            }
            self.window = w as usize;
        }
        if let Some(r) = number("TAPEFUZZ_RL_RECENT")? {
            if r < 0.0 || r.fract() != 0.0 || r > 64.0 {
                return Err(bad("TAPEFUZZ_RL_RECENT"));
            }
            self.recent = r as usize;
        }
        if let Ok(s) = std::env::var("TAPEFUZZ_RL_STATE") {
            self.abstraction = match s.trim() {
                "tree" => Abstraction::Tree,
                "sequence" => Abstraction::Sequence,
                "none" => Abstraction::None,
                _ => return Err(bad("TAPEFUZZ_RL_STATE")),
            };
        }
        if let Ok(s) = std::env::var("TAPEFUZZ_RL_LEARNERS") {
            self.learners = match s.trim() {
                "label" => Learners::ByLabel,
                "point" => Learners::ByPoint,
                _ => return Err(bad("TAPEFUZZ_RL_LEARNERS")),
            };
        }
        for (name, slot) in [
            ("TAPEFUZZ_RL_UNIQUE", &mut self.rewards.unique),
            ("TAPEFUZZ_RL_VALID", &mut self.rewards.valid),
            ("TAPEFUZZ_RL_INVALID", &mut self.rewards.invalid),
        ] {
            if let Some(r) = number(name)? {
                *slot = r;
            }
        }
        if let Some(a) = number("TAPEFUZZ_RL_DECAY")? {
            self.update = match a {
                0.0 => Update::Average,
                a if a > 0.0 && a <= 1.0 => Update::Decayed(a),
                _ => return Err(bad("TAPEFUZZ_RL_DECAY")),
            };
        }
        if let Some(b) = number("TAPEFUZZ_RL_BONUS")? {
            if b < 0.0 {
                return Err(bad("TAPEFUZZ_RL_BONUS"));
            }
            self.bonus = b;
        }
        if let Some(b) = number("TAPEFUZZ_RL_BOOTSTRAP")? {
            self.bootstrap = match b {
                0.0 => false,
                1.0 => true,
                _ => return Err(bad("TAPEFUZZ_RL_BOOTSTRAP")),
            };
        }
        Ok(())
    }
}

/// One test case as the learning loop sees it.
pub(crate) struct Episode {
    /// How it ended.
    pub status: Status,
    /// The tape's fingerprint (unique inputs).
    pub fingerprint: u64,
    /// Its characteristic ξ: the fingerprint in blackbox mode, a coverage trace in greybox.
    pub characteristic: u64,
}

/// What the loop did.
#[derive(Default)]
pub(crate) struct Learned {
    pub tests: u64,
    /// The failing test case: its number (1-based) and the indices that replay it.
    pub found: Option<(u64, Vec<u64>)>,
    /// Up to `keep` unique valid tapes, sampled uniformly from all of the run's (reservoir),
    /// as indices to replay.
    pub kept: Vec<Vec<u64>>,
    /// Distinct valid characteristics found by the guided test cases (not counting the
    /// corpus's).
    pub unique: u64,
    /// Corpus tapes taught before the campaign.
    pub taught: u64,
    /// Learners (choice point × state) at the end.
    pub states: usize,
}

/// Runs a test case on a source.
pub(crate) type Call<'a> = dyn FnMut(&mut dyn Source) -> Episode + 'a;

/// The learning loop: teaches the guide the `teach` tapes first (when bootstrapping), then
/// at most `tests` guided test cases, stopping early when `stop()` says so or a test case
/// fails. `known` holds the characteristics of the valid tapes replayed before (the corpus):
/// finding one again is no new find. `each` sees every guided episode with its test number
/// (1-based) and the indices it drew (counts, bests, progress).
#[allow(clippy::too_many_arguments)]
pub(crate) fn search(
    learn: &Learn,
    seed: u64,
    tests: u64,
    keep: usize,
    known: HashSet<u64>,
    teach: &mut dyn Iterator<Item = Box<dyn Source + '_>>,
    call: &mut Call<'_>,
    stop: &mut dyn FnMut(u64) -> bool,
    each: &mut dyn FnMut(&Episode, u64, &[u64]),
) -> Learned {
    let mut out = Learned::default();
    let mut guide = Guide::new(learn.clone(), Rng::derive(seed, 0x524c));
    let mut rng = Rng::new(Rng::derive(seed, 0x6b656570));
    let mut seen = known;
    if learn.bootstrap {
        for mut teacher in teach {
            guide.begin();
            let e = call(&mut guide.follow(&mut *teacher));
            // Utilities of taught tapes belong to no guided test case.
            crate::engine::clear_utilities();
            if e.status == Status::Valid {
                seen.insert(e.characteristic);
                guide.finish(learn.rewards.unique);
                out.taught += 1;
            }
        }
        guide.begin();
    }
    let known = seen.len();
    let mut unique_found = 0u64;
    while out.tests < tests && !stop(out.tests) {
        guide.begin();
        let e = call(&mut guide);
        out.tests += 1;
        let new = e.status == Status::Valid && seen.insert(e.characteristic);
        each(&e, out.tests, guide.drawn());
        if e.status == Status::Interesting {
            out.found = Some((out.tests, guide.drawn().to_vec()));
            break;
        }
        if new && keep > 0 {
            unique_found += 1;
            if out.kept.len() < keep {
                out.kept.push(guide.drawn().to_vec());
            } else {
                let j = rng.below_or_eq(unique_found - 1) as usize;
                if j < keep {
                    out.kept[j] = guide.drawn().to_vec();
                }
            }
        }
        let reward = guide.reward(e.status, new);
        guide.finish(reward);
    }
    out.unique = (seen.len() - known) as u64;
    out.states = guide.states();
    out
}
