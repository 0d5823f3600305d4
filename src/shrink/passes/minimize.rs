//! Lowering single choices, and the sizes they control.

use super::super::Shrinker;
use super::super::search::find_integer;
use super::super::shrinker::Tried;

/// The narrowest gap over which `minimize_together` checks whether the failing set ends just
/// below the current index, before probing from the bottom and before a binary search (one
/// call against the ten or more either costs).
const SPARSE_CHECK_FROM: u64 = 1 << 10;

impl Shrinker<'_> {
    /// Lowers the choices at `positions` (which hold the same index) together to the
    /// smallest index that still fails. Tries 0 and 1, then one and two steps down (a
    /// signed integer's index moves by 2 per unit of value, see `redistribute.rs`; for a
    /// single choice whose generator names its step as 1 or 2, only that one: two steps of 1
    /// are left to [`step_over_choices`], and from a negative value one step of 2 reaches
    /// the positive one of the same size through `lower_and_delete_after`'s step of 1):
    /// when neither works the choice is taken as stuck, a few calls instead of a search.
    /// Equal choices lowered together (a group) always try both steps: no other pass lowers
    /// a group by two. On a wide
    /// range it then tries four steps down: when that passes, the failure ends just below
    /// (a value tied to another choice), and two steps down is the last try. Else it
    /// probes up from the bottom in steps of the current index's parity, at 2, 4, 16, 256,
    /// … above it (the exponent doubling) until one fails, halves the exponents between the
    /// last two probes down to a factor of two, searches that gap, and last tries one below
    /// the answer (the other parity: a range that starts at its simplest value counts by
    /// 1). Answers are usually far below a random start, but not always (a threshold
    /// halfway up a wide range): this costs about `log2(answer) + 2 log2 log2(answer)`
    /// calls, where doubling the gap from the bottom cost `2 log2(answer)`. Returns whether
    /// anything was accepted.
    pub(super) fn minimize_together(&mut self, positions: &[usize]) -> bool {
        self.minimize_stepped(positions, positions.len() == 1)
    }

    /// [`Shrinker::minimize_together`]; with `own_step`, the first step down is only the
    /// one the generator names (when it names 1 or 2), else both.
    fn minimize_stepped(&mut self, positions: &[usize], own_step: bool) -> bool {
        let current = |s: &Self| -> Option<u64> {
            let first = *s.choices().get(positions[0])?;
            positions
                .iter()
                .all(|&i| {
                    s.choices()
                        .get(i)
                        .is_some_and(|c| !c.forced && c.index == first.index)
                })
                .then_some(first.index)
        };
        let try_index = |s: &mut Self, v: u64| -> bool {
            match current(s) {
                Some(now) if v < now => {
                    let edits: Vec<(usize, u64)> = positions.iter().map(|&i| (i, v)).collect();
                    s.consider(&s.with_indices(&edits))
                }
                _ => false,
            }
        };
        let Some(start) = current(self) else {
            return false;
        };
        if start == 0 {
            return false;
        }
        if try_index(self, 0) {
            return true;
        }
        if start == 1 {
            return false;
        }
        if try_index(self, 1) {
            return true;
        }
        if start == 2 {
            return false;
        }
        let own = (self.value_order(positions[0]))
            .map(|v| v.step)
            .filter(|&step| own_step && step <= 2);
        let down = |s: &mut Self, d: u64| own.is_none_or(|o| o == d) && try_index(s, start - d);
        if !down(self, 1) && !down(self, 2) {
            return false;
        }
        // Known: `lo` (0 or 1, same parity as `hi`) does not fail, `hi` fails.
        let Some(hi) = current(self) else {
            return true;
        };
        let mut lo = hi % 2;
        // A failure tied to another choice (a difference that must stay 1) ends a few steps
        // below `hi`: when four steps down passes, two down is the last place to look, where
        // probing up from the bottom would spend a call per bit finding nothing.
        if hi - lo >= SPARSE_CHECK_FROM && !try_index(self, hi - 4) {
            try_index(self, hi - 2);
            return true;
        }
        let Some(mut hi) = current(self) else {
            return true;
        };
        // Gaps 2^1, 2^2, 2^4, 2^8, … (the exponent doubling) until a probe fails, then a
        // binary search over the exponents between: about `2 log2 log2` calls to bracket
        // the answer within a factor of two, where doubling the gap costs `log2` of it.
        let (mut e_lo, mut e) = (0u32, 1u32);
        let mut e_hi = None;
        while e < 64 {
            let Some(probe) = (hi % 2).checked_add(1 << e).filter(|&p| p < hi) else {
                break;
            };
            if self.stopped() {
                break;
            }
            if try_index(self, probe) {
                match current(self) {
                    Some(now) => hi = now,
                    None => return true,
                }
                e_hi = Some(e);
                break;
            }
            lo = probe;
            e_lo = e;
            e *= 2;
        }
        let mut e_hi = e_hi.unwrap_or_else(|| 64 - hi.leading_zeros());
        while e_hi > e_lo + 1 && !self.stopped() {
            let e = (e_lo + e_hi) / 2;
            let Some(probe) = (hi % 2).checked_add(1 << e).filter(|&p| p < hi && p > lo) else {
                break;
            };
            if try_index(self, probe) {
                match current(self) {
                    Some(now) => hi = now,
                    None => return true,
                }
                e_hi = e;
            } else {
                lo = probe;
                e_lo = e;
            }
        }
        // No probe failed, and the gap is wide: a failing set that is sparse just below `hi`
        // (a difference that must stay 1, a hash bucket) loses the failure four steps down,
        // and a binary search would spend a call per bit finding nothing. A threshold in the
        // gap fails there too, and the search goes on.
        if hi.checked_sub(lo).is_some_and(|d| d >= SPARSE_CHECK_FROM)
            && current(self) == Some(hi)
            && !try_index(self, hi - 4)
        {
            return true;
        }
        if let Some(now) = current(self) {
            hi = now;
        }
        while hi.checked_sub(lo).is_some_and(|d| d >= 4) && hi % 2 == lo % 2 && !self.stopped() {
            let mid = lo + (hi - lo) / 4 * 2;
            if try_index(self, mid) {
                match current(self) {
                    Some(now) => hi = now,
                    None => return true,
                }
            } else {
                lo = mid;
            }
        }
        if let Some(now) = current(self)
            && now >= 2
        {
            try_index(self, now - 1);
        }
        true
    }

    /// Before cutting a collection at the element whose "one more?" coin is at `i` (and
    /// then at each later one), deletes its last element: where that fails, this cut and
    /// the later ones are held back (see [`Shrinker::cuts_known_to_fail`]), where each
    /// would have cost a call. Only where three or more of the later cuts would run: a
    /// list one element longer than it must be pays this call for nothing.
    fn probe_last_element(&mut self, i: usize) {
        if !self.more_coin(i) || self.choices()[i].index != 1 {
            return;
        }
        let Some(cut) = self.cut_deletions(&self.with_indices(&[(i, 0)])) else {
            return;
        };
        let Some(last) = cut.last.map(|j| self.element_deletion(j)) else {
            return;
        };
        if self.decided(&cut.own) || self.decided(&last) {
            return;
        }
        let undecided = |k: &usize| !self.decided(&self.element_deletion(*k));
        if cut.after.iter().filter(|k| undecided(k)).take(3).count() == 3 {
            self.consider(&last);
        }
    }

    /// When choice `i` cannot go lower on its own because lowering it shortens the tape (it
    /// is a size: lowering it drops the last of the things it counts), lowers it by `k` and
    /// deletes the first `k` things it counted instead, adaptively.
    fn lower_and_delete_after(&mut self, i: usize) -> bool {
        let Some(&c) = self.choices().get(i) else {
            return false;
        };
        if c.forced || c.index == 0 || c.max < 2 {
            return false;
        }
        let lowered = self.with_indices(&[(i, c.index - 1)]);
        let len = self.choices().len();
        let shorter = match self.attempt(&lowered) {
            Tried::Improved => return true,
            Tried::Ran(rec) => rec.choices.len(),
            Tried::Known(n) => n,
            Tried::Cut(_) => len,
            Tried::Skipped => return false,
        };
        if shorter >= len {
            return false;
        }
        // What one step less of `i` lost, taken from right after it instead of the end: after
        // the forced choices there (a payload run's fixed length), which the replay skips.
        let lost = len - shorter;
        let base = self.choices().to_vec();
        let from = (i + 1..base.len())
            .find(|&j| !base[j].forced)
            .unwrap_or(base.len());
        let steps = find_integer(|k| {
            let cut = k as usize * lost;
            if k > c.index || from + cut > base.len() {
                return false;
            }
            let mut v = Vec::with_capacity(base.len() - cut);
            v.extend_from_slice(&base[..from]);
            v[i].index = c.index - k;
            v.extend_from_slice(&base[from + cut..]);
            self.consider(&v)
        });
        steps > 0
    }
}

/// Lowers each choice, left to right, to the smallest index that still fails (see
/// [`Shrinker::minimize_together`]); where a choice is a size that cannot go lower alone,
/// lowers it together with deleting what it counted.
pub(in crate::shrink) fn minimize_choices(s: &mut Shrinker<'_>) {
    let mut i = 0;
    while i < s.choices().len() && !s.stopped() {
        if s.free(i) && s.choices()[i].index > 0 && !s.run_length(i) {
            s.probe_last_element(i);
            s.minimize_together(&[i]);
            s.lower_and_delete_after(i);
        }
        i += 1;
    }
}

/// Lowers each choice whose generator counts its values one index apart by two steps, where
/// [`minimize_choices`] tried only one: a failure that holds on every other value (a
/// difference that must stay odd, a parity) skips the value one step down. A last-resort
/// pass: over the challenge suite it improved nothing while the passes before it still
/// could, and each sweep of the joint tier paid for it.
pub(in crate::shrink) fn step_over_choices(s: &mut Shrinker<'_>) {
    let mut i = 0;
    while i < s.choices().len() && !s.stopped() {
        let c = s.choices()[i];
        if s.free(i)
            && c.index >= 3
            && !s.run_length(i)
            && s.value_order(i).is_some_and(|v| v.step == 1)
            && s.consider(&s.with_indices(&[(i, c.index - 2)]))
        {
            // On from there with both steps: one step of 1 has the wrong parity for a
            // failure on every other value, and would stop the search at once.
            s.minimize_stepped(&[i], false);
        }
        i += 1;
    }
}
