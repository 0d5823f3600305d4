//! A trace: where a tape writes each index its source chose, as it chooses it, so that a test
//! case that kills the process (an abort, a stack overflow, a hang) leaves its choices behind.

/// Slots for the indices a tape's source chooses (forced choices are not traced: a
/// [`super::ReplaySource`] over the traced indices replays the test case), and the count
/// written so far. Past the slots' end the count goes on and the indices are dropped.
#[derive(Debug)]
pub struct Trace<'t> {
    slots: &'t mut [u64],
    count: &'t mut u64,
}

impl<'t> Trace<'t> {
    /// A trace into `slots`, counting in `count` (set to 0 here).
    pub fn new(slots: &'t mut [u64], count: &'t mut u64) -> Trace<'t> {
        *count = 0;
        Trace { slots, count }
    }

    /// Writes one index.
    #[inline]
    pub fn push(&mut self, index: u64) {
        let n = *self.count as usize;
        if let Some(slot) = self.slots.get_mut(n) {
            *slot = index;
        }
        *self.count += 1;
    }
}
