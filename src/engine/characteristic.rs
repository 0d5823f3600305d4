//! The characteristic ξ of a test case (paper 002, §3): what makes a valid test case "new" for
//! the `rl` strategy's unique reward.

/// Computes ξ for each guided test case. The engine calls [`Characteristic::before`] before
/// running it and [`Characteristic::of`] right after.
pub trait Characteristic {
    /// Called before each guided test case (a coverage trace resets its counters here).
    fn before(&mut self) {}

    /// ξ of the test case just run, whose tape has the fingerprint `fingerprint`.
    fn of(&mut self, fingerprint: u64) -> u64;

    /// Whether ξ is the fingerprint itself (then the corpus's replayed tapes count as seen).
    fn is_identity(&self) -> bool {
        false
    }
}

/// ξ = the tape itself (its fingerprint): blackbox mode, unique valid inputs.
#[derive(Clone, Copy, Debug, Default)]
pub struct Identity;

impl Characteristic for Identity {
    fn of(&mut self, fingerprint: u64) -> u64 {
        fingerprint
    }
    fn is_identity(&self) -> bool {
        true
    }
}
