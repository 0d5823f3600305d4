//! Observers: what the loop makes of each test case beyond its status — an identity
//! (blackbox mode) or a coverage trace (greybox mode). A search reads the observations from
//! the [`super::Observation`]; so "a learner rewarded by new coverage" is a learning search with
//! a coverage observer, and no special case.

/// Watches every test case the loop runs. [`Observer::before`] is called right before the
/// test case, [`Observer::after`] right after; the loop then reads
/// [`Observer::characteristic`] and [`Observer::features`] into the outcome.
pub trait Observer {
    /// Whether the observer watches at all. `false` (an identity) lets the loop skip every
    /// other call on the hot path: ξ is then the fingerprint and there are no features.
    fn watches(&self) -> bool {
        true
    }

    /// Before a test case (a coverage observer resets its counters here).
    fn before(&mut self) {}

    /// After a test case whose tape had the fingerprint `fingerprint`.
    fn after(&mut self, fingerprint: u64) {
        let _ = fingerprint;
    }

    /// The characteristic ξ of the last test case (paper 002, §3): what makes a valid test
    /// case "new". The fingerprint itself unless the observer knows better.
    fn characteristic(&self, fingerprint: u64) -> u64 {
        fingerprint
    }

    /// The features of the last test case (coverage: one number per edge and hit-count
    /// bucket), empty by default.
    fn features(&self) -> &[u64] {
        &[]
    }

    /// The name of the mode this observer makes: `blackbox` or `greybox`.
    fn mode(&self) -> &'static str {
        "blackbox"
    }
}

/// Observes nothing: ξ is the tape's fingerprint (blackbox mode, unique valid inputs).
#[derive(Clone, Copy, Debug, Default)]
pub struct Identity;

impl Observer for Identity {
    fn watches(&self) -> bool {
        false
    }
}
