//! How a mutant is made from a kept tape: one structure-aware operator, then sometimes a few
//! value edits on top.

use crate::mutate::{TapeMutator, nudge};
use crate::tape::{Choice, Recording, Rng};

/// The choices of a mutant of `base`: one operator of `mutator` (splicing from `donor` when
/// given), then, half the time, one to three value edits ([`tweak`]). The operators edit
/// structure through the spans, which only a recorded tape has, so they apply once; value
/// edits need no spans and stack, as libFuzzer stacks its byte mutations. When no operator
/// applies (a tape without spans or free choices), only value edits are made.
pub fn mutant(
    mutator: &TapeMutator,
    base: &Recording,
    donor: Option<&Recording>,
    rng: &mut Rng,
) -> Vec<Choice> {
    match mutator.mutate(base, donor, rng) {
        Some((_, mut out)) => {
            if rng.next_u64() & 1 == 0 {
                for _ in 0..=rng.below_or_eq(2) {
                    tweak(&mut out, donor, rng);
                }
            }
            out
        }
        None => {
            let mut out = base.choices.clone();
            tweak(&mut out, donor, rng);
            out
        }
    }
}

/// Changes the index of one free choice of `choices`, without knowing what it means: a
/// quarter of the time to the index some choice of the same choice point has in `donor` (a
/// value that mattered to another kept tape: a field copied across), a quarter of the time
/// to a uniform index, otherwise a [`nudge`] (near the old index, or 0, or the largest).
/// Does nothing when no choice is free.
pub fn tweak(choices: &mut [Choice], donor: Option<&Recording>, rng: &mut Rng) {
    let free = choices.iter().filter(|c| is_free(c)).count();
    if free == 0 {
        return;
    }
    let k = rng.below_or_eq(free as u64 - 1) as usize;
    let Some(c) = choices.iter_mut().filter(|c| is_free(c)).nth(k) else {
        return;
    };
    match rng.below_or_eq(3) {
        0 => {
            let same = |d: &&Choice| d.point == c.point && !d.forced;
            let pool = donor.map_or(0, |d| d.choices.iter().filter(same).count());
            if pool > 0 {
                let j = rng.below_or_eq(pool as u64 - 1) as usize;
                let d = donor.expect("pool > 0").choices.iter().filter(same).nth(j);
                c.index = d.expect("j < pool").index.min(c.max);
            } else {
                c.index = nudge(c.index, c.max, rng);
            }
        }
        1 => c.index = rng.below_or_eq(c.max),
        _ => c.index = nudge(c.index, c.max, rng),
    }
}

/// A choice a mutation may change: not forced, and with more than one option.
fn is_free(c: &Choice) -> bool {
    !c.forced && c.max > 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tape::PointId;

    fn ch(point: u64, max: u64, index: u64, forced: bool) -> Choice {
        Choice {
            point: PointId(point),
            max,
            index,
            forced,
            in_run: false,
        }
    }

    #[test]
    fn tweaks_change_only_free_choices_within_range() {
        let base = vec![ch(1, 0, 0, false), ch(2, 9, 3, true), ch(3, 255, 7, false)];
        let donor = Recording {
            choices: vec![ch(3, 255, 200, false)],
            ..Recording::default()
        };
        let mut rng = Rng::new(5);
        let mut copied = 0;
        for _ in 0..1000 {
            let mut c = base.clone();
            tweak(&mut c, Some(&donor), &mut rng);
            assert_eq!(c[..2], base[..2]);
            assert!(c[2].index <= 255);
            copied += (c[2].index == 200) as u32;
        }
        assert!(copied > 150, "copied from the donor {copied} times");
        let mut none = vec![ch(1, 0, 0, false)];
        tweak(&mut none, None, &mut rng);
        assert_eq!(none, vec![ch(1, 0, 0, false)]);
    }

    #[test]
    fn a_tape_without_spans_still_mutates() {
        let base = Recording {
            choices: vec![ch(3, 255, 7, false)],
            ..Recording::default()
        };
        let mut rng = Rng::new(6);
        let changed = (0..100)
            .filter(|_| mutant(&TapeMutator::default(), &base, None, &mut rng)[0].index != 7)
            .count();
        assert!(changed > 50, "{changed}");
    }
}
