//! The `rl` strategy: RLCheck (paper 002). A [`Guide`] makes every choice; after each test
//! case it is rewarded for a unique valid characteristic, a valid one seen before, or an
//! invalid one, and learns.

use crate::guide::{Guide, Learn};
use crate::tape::{Rng, Source, Status};
use std::collections::HashSet;

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
    /// Distinct valid characteristics.
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
/// fails. `each` sees every episode (counts, progress) with whether it was unique;
/// `after` is called after each guided test case with the indices it drew (bests).
#[allow(clippy::too_many_arguments)]
pub(crate) fn search(
    learn: &Learn,
    seed: u64,
    tests: u64,
    keep: usize,
    teach: &mut dyn Iterator<Item = Box<dyn Source + '_>>,
    call: &mut Call<'_>,
    stop: &mut dyn FnMut(u64) -> bool,
    each: &mut dyn FnMut(&Episode, &[u64]),
) -> Learned {
    let mut out = Learned::default();
    let mut guide = Guide::new(learn.clone(), Rng::derive(seed, 0x524c));
    let mut rng = Rng::new(Rng::derive(seed, 0x6b656570));
    let mut seen: HashSet<u64> = HashSet::new();
    if learn.bootstrap {
        for mut teacher in teach {
            guide.begin();
            let e = call(&mut guide.follow(&mut *teacher));
            if e.status == Status::Valid {
                seen.insert(e.characteristic);
                guide.finish(learn.rewards.unique);
                out.taught += 1;
            }
        }
        guide.begin();
    }
    let mut unique_found = 0u64;
    while out.tests < tests && !stop(out.tests) {
        guide.begin();
        let e = call(&mut guide);
        out.tests += 1;
        let new = e.status == Status::Valid && seen.insert(e.characteristic);
        each(&e, guide.drawn());
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
    out.unique = seen.len() as u64;
    out.states = guide.states();
    out
}
