//! Changing two choices at once: moving an amount from one to the other, or lowering both.
//!
//! Integers order their indices 0, 1, −1, 2, −2, … (see `generators::ints`), so index
//! arithmetic is not value arithmetic: adding 1 to an index flips its sign. Steps of 2
//! keep the sign and move the value by 1, on either side of zero; on a range that starts
//! at its simplest value (index = value − low end) a step of 2 moves the value by 2 and a
//! step of 1 by 1. So each pair is tried with steps of 2 and then of 1, which moves value
//! on both kinds of range without knowing which one it is. Where both generators name the
//! same step, 1 or 2 ([`crate::tape::Tape::value_step`]), `redistribute` tries only that
//! step, and a last-resort pass the other where it does what the search over multiples of
//! the first cannot: a step of 2 on a step-1 range (an amount that must stay even: the
//! search stops at the first `k` that passes, 1), a step of 1 on an order that alternates
//! sides where it flips both signs at once.

use super::super::Shrinker;
use super::super::search::{find_integer_between, find_integer_hinted};

/// How many later choices (with three or more options) a choice is paired with.
const WINDOW: usize = 4;

impl Shrinker<'_> {
    /// The next [`WINDOW`] unforced choices after `i` with at least three options, no byte of
    /// a text and no union's variant among them: characters are not amounts (a text's length
    /// moved into its own characters only makes a shorter text of larger characters), and
    /// neither is a variant's index (another index is another variant, not more of one).
    fn partners(&self, i: usize) -> Vec<usize> {
        (i + 1..self.choices().len())
            .filter(|&j| {
                self.free(j)
                    && self.choices()[j].max >= 2
                    && !self.run_length(j)
                    && !self.text_byte(j)
                    && !self.union_choice(j)
            })
            .take(WINDOW)
            .collect()
    }

    /// The indices at `i` and `j` if both are still unforced choices with 3+ options.
    fn pair(&self, i: usize, j: usize) -> Option<(u64, u64, u64)> {
        let (a, b) = (self.choices().get(i)?, self.choices().get(j)?);
        (!a.forced && !b.forced && a.max >= 2 && b.max >= 2).then_some((a.index, b.index, b.max))
    }

    /// Lowers `i` by `step · k` and moves `j` by `step · k` (up when `raise`, clamped to its
    /// range, else down), for the largest `k` that still fails; where `i` is a payload run's
    /// length, the run's last `step · k` bytes go with it (`j` must lie before them).
    /// Whether it moved.
    fn shift_pair(&mut self, i: usize, j: usize, step: u64, raise: bool) -> bool {
        let Some((a, b, bmax)) = self.pair(i, j) else {
            return false;
        };
        // On an order that alternates sides (its generator says so) an odd index is on the
        // first side: its value reaches the simplest one a step of 2 past index 0 (1 → 0
        // is value 1 → 0, as 3 → 1 is 2 → 1). Without it, `(1, 9)` with a sum to keep never
        // became `(0, 10)`.
        let alternating = self.value_order(i).is_some_and(|v| v.step == 2);
        let room = if step == 2 && a % 2 == 1 && alternating {
            a + 1
        } else {
            a
        };
        if room < step || (raise && b == bmax) || (!raise && b < step) {
            return false;
        }
        // A payload run's length lowered by `d` drops the run's last `d` bytes with it, so
        // that what follows the run reads as before.
        let run_end = self.payload_run_at(i);
        let base = self.choices().to_vec();
        // Lowered together, the pair often goes as far as one of them can (to 0); moved
        // from one to the other, rarely all the way.
        let most = if raise { u64::MAX } else { room.min(b) / step };
        // Where `j`'s value order ends (see the search below), read before the search
        // borrows.
        let top = (self.value_order(j).and_then(|v| v.end))
            .filter(|&end| end > b)
            .unwrap_or(bmax);
        let try_k = |k: u64| {
            let Some(d) = k.checked_mul(step).filter(|&d| d <= room) else {
                return false;
            };
            let nb = if raise {
                b.saturating_add(d).min(bmax)
            } else if d <= b {
                b - d
            } else {
                return false;
            };
            let mut v = base.clone();
            v[i].index = a.saturating_sub(d);
            v[j].index = nb;
            if let Some(end) = run_end {
                let cut = usize::try_from(d).ok().filter(|&d| j + d < end && d <= end);
                let Some(cut) = cut else {
                    return false;
                };
                v.drain(end - cut..end);
            }
            self.consider(&v)
        };
        // Lowered together, the smaller may end near 0 or the pair barely move (one tied
        // to a third choice): searched from both ends.
        // Moved, the amount most often goes until `j` reaches its largest index (a sum that
        // must stay large, or exactly reached), or the last index of its value order where
        // its generator says that ends sooner (a float's integers, before its other values):
        // that `k` is tried early. Past the range's last index a move is clamped to it, so
        // that one is rounded up; the end of an order is not a clamp, so rounded down (on an
        // order of step 2 one step past it is another kind of value).
        let to_top = if top == bmax {
            (bmax - b).div_ceil(step)
        } else {
            (top - b) / step
        };
        let moved = if raise {
            find_integer_hinted(most, to_top.min(room / step), try_k)
        } else {
            find_integer_between(most, try_k)
        };
        moved > 0
    }
}

/// For each choice and the few choices with three or more options after it (also in other
/// spans; payload run lengths left to the run's pass, see `Shrinker::run_length`; bytes of
/// text and a union's variant choices left out, see `Shrinker::partners`): moves an amount from
/// the earlier to the later one (Hypothesis's "redistribute": a sum that must stay large),
/// then lowers both together (a difference that must stay the same), by the steps of the
/// module docs. The earlier choice decides shortlex order, so each move is a shrink.
pub(in crate::shrink) fn redistribute(s: &mut Shrinker<'_>) {
    redistribute_by(s, false);
}

/// The moves [`redistribute`] leaves out where both generators name the same step (see the
/// module docs): a step of 2 on a step-1 order (an amount that must stay even), a step of 1
/// that flips two signs at once. A last resort: rarely needed, and a call per pair each time
/// the shrink is confirmed.
pub(in crate::shrink) fn redistribute_other_steps(s: &mut Shrinker<'_>) {
    redistribute_by(s, true);
}

/// [`redistribute`] (`other` false) or [`redistribute_other_steps`] (`other` true).
fn redistribute_by(s: &mut Shrinker<'_>, other: bool) {
    let mut i = 0;
    while i < s.choices().len() && !s.stopped() {
        // (A union's variant is no amount either: see `partners`.)
        if s.free(i)
            && s.choices()[i].max >= 2
            && s.choices()[i].index > 0
            && !s.text_byte(i)
            && !s.union_choice(i)
        {
            // A byte run's length moves an amount only into its own bytes, a step at a
            // time: a byte fewer and another raised ([1, 1, 2, 1, 1] to [1, 2, 2, 1]). Into
            // what follows the run, it would read the run's last bytes as that.
            let own = |s: &Shrinker<'_>| s.payload_run_at(i);
            let in_run = own(s).is_some();
            let byte = s.run_byte(i);
            for j in s.partners(i) {
                // Two bytes: a step of 1 moves a byte's value by 1, and a step of 2 only
                // repeats it.
                let bytes = byte && s.run_byte(j);
                // The index step both generators name (1 or 2), if they name the same.
                let own_step = match (s.value_order(i), s.value_order(j)) {
                    (Some(a), Some(b)) if a.step == b.step && a.step <= 2 => Some(a.step),
                    _ => None,
                };
                for (step, raise) in [(2, true), (1, true), (1, false), (2, false)] {
                    // Where the generators name their step, the other is mostly `k` of it,
                    // which the search over `k` reaches; what it does that multiples of the
                    // named step cannot is left to `redistribute_other_steps`: a step of 2 on
                    // a step-1 order (an amount that must stay even stops the search at
                    // `k = 1`), a step of 1 on an order that alternates sides where it flips
                    // both signs at once (a negative value to a positive one, raising the
                    // other from positive to negative or lowering it from negative to
                    // positive).
                    let parities = (s.choices().get(i))
                        .zip(s.choices().get(j))
                        .map(|(a, b)| (a.index % 2, b.index % 2));
                    let wanted = match own_step {
                        None => !other,
                        Some(o) if o == step => !other,
                        Some(1) => other,
                        _ => other && parities == Some((0, if raise { 1 } else { 0 })),
                    };
                    if !wanted {
                        continue;
                    }
                    // Read again: a move shortens the run.
                    let fits = match own(s) {
                        Some(end) => j < end && (step, raise) == (1, true),
                        None => !in_run && (!bytes || step == 1),
                    };
                    if fits {
                        s.shift_pair(i, j, step, raise);
                    }
                }
            }
        }
        i += 1;
    }
}

/// Moves an amount from an earlier number into a later choice whose generator named larger
/// values of it ([`crate::tape::Tape::value_shift`]: a float's fraction, whose value index
/// arithmetic does not move): the earlier one lowered by `d` units (by its value step, from
/// its positive side), the later one at the value `d` above, for the largest named `d` that
/// still fails (`[10.0, 10.0, 0.5]` whose sum must keep a fraction above 20: `[2.0, 10.0,
/// 8.5]`, then `[1.0, 10.0, 9.5]`). A last resort: at most two calls (the largest amount
/// and the smallest) for each of the first [`WINDOW`] earlier numbers.
pub(in crate::shrink) fn redistribute_into_shifts(s: &mut Shrinker<'_>) {
    let mut k = 0;
    loop {
        let mut targets: Vec<usize> = s.best.shifts.iter().map(|t| t.at).collect();
        targets.dedup();
        let Some(&j) = targets.get(k) else {
            return;
        };
        if s.stopped() {
            return;
        }
        // A move made a new best tape, with shifts of its own: its targets again.
        if !shift_into(s, j) {
            k += 1;
        }
    }
}

/// [`redistribute_into_shifts`] for the target at `j`; whether it moved.
fn shift_into(s: &mut Shrinker<'_>, j: usize) -> bool {
    if !s.free(j) {
        return false;
    }
    let named: Vec<(u64, u64)> = (s.best.shifts.iter())
        .filter(|t| t.at == j)
        .map(|t| (t.delta, t.index))
        .collect();
    // Numbers whose index moves their value (their generators name a step), on the side
    // where lowering the index lowers the value: an alternating order's odd indices.
    let partners: Vec<(usize, u64)> = (0..j)
        .filter_map(|i| {
            let step = s.value_order(i)?.step;
            let c = s.choices()[i];
            (s.free(i) && c.index > 0 && !s.text_byte(i) && (step == 1 || c.index % 2 == 1))
                .then_some((i, step))
        })
        .take(WINDOW)
        .collect();
    for (i, step) in partners {
        let a = s.choices()[i].index;
        let fits: Vec<(u64, u64)> = (named.iter())
            .filter_map(|&(d, index)| Some((a - d.checked_mul(step).filter(|&x| x <= a)?, index)))
            .collect();
        // The largest amount, then the smallest: a move that fails at both rarely fits
        // between, and a smaller one found is a move; the next round tries the largest again.
        let tries = [fits.last(), fits.first().filter(|_| fits.len() > 1)];
        for &(lowered, index) in tries.into_iter().flatten() {
            if s.consider(&s.with_indices(&[(i, lowered), (j, index)])) {
                return true;
            }
        }
    }
    false
}

/// After a sweep that changed several choices of a same-length tape (`before` is the tape
/// at the sweep's start), lowers all of them together by a common amount (Hypothesis's
/// "lower common node offset"): two choices that can only go down together (a difference
/// that must stay the same) otherwise zig-zag down a few steps per sweep.
pub(in crate::shrink) fn lower_common_offset(s: &mut Shrinker<'_>, before: &[crate::tape::Choice]) {
    if before.len() != s.choices().len() {
        return;
    }
    let changed: Vec<usize> = (0..before.len())
        .filter(|&i| {
            let (was, now) = (before[i], s.choices()[i]);
            !now.forced && now.max >= 2 && now.index > 0 && was.index != now.index
        })
        .collect();
    if changed.len() < 2 {
        return;
    }
    for step in [1, 2] {
        let base = s.choices().to_vec();
        let low = changed.iter().map(|&i| base[i].index).min().unwrap_or(0);
        // The lowest may end near 0, or they barely move: searched from both ends.
        find_integer_between(low / step, |k| {
            let Some(d) = k.checked_mul(step).filter(|&d| d <= low) else {
                return false;
            };
            let mut v = base.clone();
            for &i in &changed {
                v[i].index -= d;
            }
            s.consider(&v)
        });
    }
}

#[cfg(test)]
mod tests {
    use crate::generators::{Gen, sampled_from};
    use crate::shrink::{Budget, Shrinker};
    use crate::tape::{Fallback, ReplaySource, Status, Tape};

    #[test]
    fn no_amount_moves_between_union_choices() {
        // Two picks whose sum must reach 6: another index of a pick is another sample, so
        // `redistribute` leaves them to the passes that lower one choice at a time, which
        // reach the minimum alone.
        let g = (
            sampled_from(vec![1u8, 2, 3, 4, 5]),
            sampled_from(vec![1u8, 2, 3, 4, 5]),
        );
        let mut test = |tape: &mut Tape<'_>| match g.generate(tape) {
            Ok((a, b)) if a + b >= 6 => Status::Interesting,
            Ok(_) => Status::Valid,
            Err(r) => r.status(),
        };
        let mut src = ReplaySource::new(vec![4, 4], Fallback::Simplest);
        let mut tape = Tape::recording(&mut src);
        assert_eq!(g.generate(&mut tape).unwrap(), (5, 5));
        let shrunk = Shrinker::new(&mut test, tape.finish(), Budget::default()).run();
        let mut src = ReplaySource::of(&shrunk.best.choices);
        assert_eq!(g.generate(&mut Tape::recording(&mut src)).unwrap(), (1, 5));
        let calls = |name: &str| {
            (shrunk.passes.iter())
                .find(|p| p.name == name)
                .map_or(0, |p| p.calls)
        };
        assert_eq!(calls("redistribute"), 0, "{:?}", shrunk.passes);
        assert_eq!(calls("redistribute_other_steps"), 0, "{:?}", shrunk.passes);
    }
}
