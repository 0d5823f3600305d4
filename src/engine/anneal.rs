//! The `sa` strategy: simulated annealing over tapes (paper 000 §II-C), climbing the utility
//! values a property reports with [`super::target`].
//!
//! The first input comes from the generator (a random tape). Each step draws a neighbour of
//! the current base tape with the constructed neighbourhood ([`crate::mutate::Neighbour`]) at
//! the current temperature and runs the property on it. A neighbour with a better or equal
//! utility becomes the base; a worse one with probability e^{-(u_base − u_new)/t}. The
//! temperature falls from [`Anneal::temperature`] to zero over a cycle ([`Schedule`]); after
//! [`Anneal::restart_after`] steps without a new best, the search restarts from a fresh
//! random input. Invalid neighbours and ones that report no utility are never accepted.

use crate::mutate::{Aligned, Neighbour, Neighbourhood};
use crate::tape::{RandomSource, Recording, Rng, Source, Status};

/// How the temperature falls over a cycle of `n` steps; step `k` counts from 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Schedule {
    /// `t0 · (1 − k/n)`: PropEr's default, over the whole test budget.
    Linear,
    /// `t0 · alpha^k`.
    Exponential(f64),
    /// `t0 / (1 + k)` ("fast annealing").
    Fast,
}

/// Settings of the `sa` strategy. [`Anneal::default`] documents the defaults.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Anneal {
    /// The constructed neighbourhood's rates.
    pub neighbourhood: Neighbourhood,
    /// Temperature at the start of each cycle (0.3: it scales both the neighbourhood and
    /// the acceptance of worse inputs; tuned on graph_sink).
    pub temperature: f64,
    /// How it falls (linear).
    pub schedule: Schedule,
    /// Steps per cycle: the run's test budget when it has one, else this many (10,000);
    /// the temperature starts again at the end of a cycle.
    pub cycle: u64,
    /// Restart from a fresh random input after this many steps without a new best
    /// (`None`: never). Default 2,000.
    pub restart_after: Option<u64>,
}

impl Default for Anneal {
    fn default() -> Anneal {
        Anneal {
            neighbourhood: Neighbourhood::default(),
            temperature: 0.3,
            schedule: Schedule::Linear,
            cycle: 10_000,
            restart_after: Some(2_000),
        }
    }
}

impl Anneal {
    /// Applies the `TAPEFUZZ_SA_*` environment variables: `T0` (temperature), `CYCLE`,
    /// `RESTART` (0 = never), `RESIZE`, `MODIFY`, `FIELD`, `LEAF`, `WINDOW` (the
    /// neighbourhood's rates).
    pub fn apply_env(&mut self) -> Result<(), super::ConfigError> {
        use super::config::var;
        // A rate or temperature: finite and not negative.
        let rate = |name: &str, slot: &mut f64| -> Result<(), super::ConfigError> {
            match var::<f64>(name)? {
                Some(x) if x.is_finite() && x >= 0.0 => *slot = x,
                Some(_) => {
                    return Err(super::ConfigError {
                        var: name.into(),
                        value: std::env::var(name).unwrap_or_default(),
                    });
                }
                None => {}
            }
            Ok(())
        };
        let n = &mut self.neighbourhood;
        rate("TAPEFUZZ_SA_T0", &mut self.temperature)?;
        rate("TAPEFUZZ_SA_RESIZE", &mut n.resize)?;
        rate("TAPEFUZZ_SA_MODIFY", &mut n.modify)?;
        rate("TAPEFUZZ_SA_FIELD", &mut n.field)?;
        rate("TAPEFUZZ_SA_LEAF", &mut n.leaf)?;
        rate("TAPEFUZZ_SA_WINDOW", &mut n.window)?;
        if let Some(c) = var::<u64>("TAPEFUZZ_SA_CYCLE")? {
            self.cycle = c.max(1);
        }
        if let Some(r) = var::<u64>("TAPEFUZZ_SA_RESTART")? {
            self.restart_after = (r > 0).then_some(r);
        }
        Ok(())
    }

    /// The temperature at step `k` of a cycle of `n` steps.
    pub fn temperature_at(&self, k: u64, n: u64) -> f64 {
        let t0 = self.temperature;
        let n = n.max(1);
        let k = k % n;
        match self.schedule {
            Schedule::Linear => t0 * (1.0 - k as f64 / n as f64),
            Schedule::Exponential(alpha) => t0 * alpha.powf(k as f64),
            Schedule::Fast => t0 / (1.0 + k as f64),
        }
    }
}

/// One test case as the search sees it: status, recording, fingerprint and total score.
pub(crate) struct Step {
    pub status: Status,
    pub recording: Recording,
    pub fingerprint: u64,
    pub score: Option<f64>,
}

/// Runs one test case on a source, recording, and collects its utilities.
pub(crate) type Call<'a> = dyn FnMut(&mut dyn Source) -> Step + 'a;

/// What the search did.
#[derive(Default)]
pub(crate) struct Searched {
    pub tests: u64,
    pub restarts: u64,
    /// The failing test case: its number (1-based) and recording.
    pub found: Option<(u64, Recording)>,
}

/// The annealing loop: at most `tests` steps, stopping early when `stop()` says so (a
/// deadline) or a test case fails. `each` sees every step (counts, bests, progress).
pub(crate) fn search(
    anneal: &Anneal,
    seed: u64,
    tests: u64,
    call: &mut Call<'_>,
    stop: &mut dyn FnMut(u64) -> bool,
    each: &mut dyn FnMut(&Step),
) -> Searched {
    let mut out = Searched::default();
    let mut rng = Rng::new(Rng::derive(seed, 0x5341));
    let cycle = if tests == u64::MAX {
        anneal.cycle
    } else {
        tests
    };
    let mut base: Option<(Aligned, f64)> = None;
    let mut best = f64::NEG_INFINITY;
    let mut since_best = 0u64;
    let mut k = 0u64;
    while out.tests < tests && !stop(out.tests) {
        let t = anneal.temperature_at(k, cycle);
        let step = match &base {
            None => call(&mut RandomSource::new(rng.next_u64())),
            Some((aligned, _)) => {
                let mut n = Neighbour::new(aligned, anneal.neighbourhood, t, rng.next_u64());
                call(&mut n)
            }
        };
        out.tests += 1;
        k += 1;
        since_best += 1;
        each(&step);
        if step.status == Status::Interesting {
            out.found = Some((out.tests, step.recording));
            return out;
        }
        let score = match (step.status, step.score) {
            (Status::Valid, Some(s)) => s,
            _ => continue,
        };
        if score > best {
            best = score;
            since_best = 0;
        }
        let accept = match &base {
            None => true,
            Some((_, b)) if score >= *b => true,
            Some((_, b)) => t > 0.0 && rng.chance((-(b - score) / t).exp()),
        };
        if accept {
            base = Some((Aligned::new(&step.recording), score));
        }
        if anneal.restart_after.is_some_and(|r| since_best >= r) {
            base = None;
            best = f64::NEG_INFINITY;
            since_best = 0;
            out.restarts += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedules_start_at_t0_and_fall() {
        let a = Anneal {
            temperature: 1.0,
            ..Anneal::default()
        };
        assert_eq!(a.temperature_at(0, 100), 1.0);
        assert!((a.temperature_at(50, 100) - 0.5).abs() < 1e-12);
        assert_eq!(a.temperature_at(100, 100), 1.0, "a new cycle starts hot");
        let fast = Anneal {
            schedule: Schedule::Fast,
            ..a
        };
        assert!((fast.temperature_at(3, 100) - 0.25).abs() < 1e-12);
    }
}
