//! One structure-aware edit of a recorded tape.

use crate::tape::{Choice, Recording, Rng, Span};

/// A structure-aware edit of a recorded tape. Each returns the edited choices, or `None`
/// when the tape has nothing it applies to (no spans, no free choices, no donor).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operator {
    /// Removes a span's choices (a list element, a subtree, an optional field).
    DeleteSpan,
    /// Inserts a copy of a span right after it.
    DuplicateSpan,
    /// Exchanges the choices of two disjoint spans with the same label.
    SwapSpans,
    /// Moves one free choice within a neighbourhood of its index ([`nudge`]).
    MoveChoice,
    /// Replaces a span's free choices with random indices of the same sizes.
    RandomizeSpan,
    /// Replaces a span with a span of the same label from another tape (crossover).
    SpliceSpan,
    /// Overwrites a span with a copy of another span of the same label in the same tape
    /// (equal subtrees, repeated fields: structure that byte mutations rarely build).
    CopySpan,
}

impl Operator {
    /// Every operator, in a fixed order.
    pub const ALL: [Operator; 7] = [
        Operator::DeleteSpan,
        Operator::DuplicateSpan,
        Operator::SwapSpans,
        Operator::MoveChoice,
        Operator::RandomizeSpan,
        Operator::SpliceSpan,
        Operator::CopySpan,
    ];

    /// A short name, for statistics and logs.
    pub fn name(self) -> &'static str {
        match self {
            Operator::DeleteSpan => "delete_span",
            Operator::DuplicateSpan => "duplicate_span",
            Operator::SwapSpans => "swap_spans",
            Operator::MoveChoice => "move_choice",
            Operator::RandomizeSpan => "randomize_span",
            Operator::SpliceSpan => "splice_span",
            Operator::CopySpan => "copy_span",
        }
    }

    /// Applies the operator to `base`; [`Operator::SpliceSpan`] takes its span from `donor`.
    pub fn apply(
        self,
        base: &Recording,
        donor: Option<&Recording>,
        rng: &mut Rng,
    ) -> Option<Vec<Choice>> {
        let c = &base.choices;
        match self {
            Operator::DeleteSpan => {
                let s = pick_span(base, rng)?;
                Some(splice(c, s.start, s.end, &[]))
            }
            Operator::DuplicateSpan => {
                let s = pick_span(base, rng)?;
                Some(splice(c, s.end, s.end, &c[s.start..s.end]))
            }
            Operator::SwapSpans => {
                let a = pick_span(base, rng)?;
                let same: Vec<&Span> = base
                    .spans
                    .iter()
                    .filter(|b| b.label == a.label && !b.is_empty())
                    .filter(|b| b.end <= a.start || a.end <= b.start)
                    .collect();
                if same.is_empty() {
                    return None;
                }
                let b = same[rng.below_or_eq(same.len() as u64 - 1) as usize];
                let (x, y) = if a.start < b.start { (a, b) } else { (b, a) };
                let mut out = Vec::with_capacity(c.len());
                out.extend_from_slice(&c[..x.start]);
                out.extend_from_slice(&c[y.start..y.end]);
                out.extend_from_slice(&c[x.end..y.start]);
                out.extend_from_slice(&c[x.start..x.end]);
                out.extend_from_slice(&c[y.end..]);
                Some(out)
            }
            Operator::MoveChoice => {
                let free: Vec<usize> = (0..c.len())
                    .filter(|&i| !c[i].forced && c[i].max > 0)
                    .collect();
                if free.is_empty() {
                    return None;
                }
                let i = free[rng.below_or_eq(free.len() as u64 - 1) as usize];
                let mut out = c.clone();
                out[i].index = nudge(out[i].index, out[i].max, rng);
                Some(out)
            }
            Operator::RandomizeSpan => {
                let s = pick_span(base, rng)?;
                let mut out = c.clone();
                for ch in &mut out[s.start..s.end] {
                    if !ch.forced {
                        ch.index = rng.below_or_eq(ch.max);
                    }
                }
                Some(out)
            }
            Operator::CopySpan => {
                let to = pick_span(base, rng)?;
                let from: Vec<&Span> = base
                    .spans
                    .iter()
                    .filter(|s| s.label == to.label && !s.is_empty())
                    .filter(|s| (s.start, s.end) != (to.start, to.end))
                    .filter(|s| s.end <= to.start || to.end <= s.start)
                    .collect();
                if from.is_empty() {
                    return None;
                }
                let s = from[rng.below_or_eq(from.len() as u64 - 1) as usize];
                Some(splice(c, to.start, to.end, &c[s.start..s.end]))
            }
            Operator::SpliceSpan => {
                let donor = donor?;
                let s = pick_span(base, rng)?;
                let same: Vec<&Span> = donor
                    .spans
                    .iter()
                    .filter(|t| t.label == s.label && !t.is_empty())
                    .collect();
                let t = if same.is_empty() {
                    pick_span(donor, rng)?
                } else {
                    same[rng.below_or_eq(same.len() as u64 - 1) as usize]
                };
                Some(splice(c, s.start, s.end, &donor.choices[t.start..t.end]))
            }
        }
    }
}

/// A new index near `index` in `0..=max`: 1 in 8 the simplest (0), 1 in 16 the largest,
/// 1 in 16 uniform, otherwise `index ± d` with `d` log-uniform up to the size of the range
/// (small steps as likely as each larger scale), clamped to the range.
pub fn nudge(index: u64, max: u64, rng: &mut Rng) -> u64 {
    match rng.below_or_eq(15) {
        0 | 1 => 0,
        2 => max,
        3 => rng.below_or_eq(max),
        _ => {
            let bits = 64 - max.leading_zeros();
            let scale = rng.below_or_eq(bits.saturating_sub(1) as u64) as u32;
            let d = 1 + (rng.next_u64() >> (63 - scale));
            if rng.next_u64() & 1 == 0 {
                index.saturating_add(d).min(max)
            } else {
                index.saturating_sub(d)
            }
        }
    }
}

/// A non-empty span, uniformly.
fn pick_span<'a>(rec: &'a Recording, rng: &mut Rng) -> Option<&'a Span> {
    let n = rec.spans.iter().filter(|s| !s.is_empty()).count();
    if n == 0 {
        return None;
    }
    let k = rng.below_or_eq(n as u64 - 1) as usize;
    rec.spans.iter().filter(|s| !s.is_empty()).nth(k)
}

/// `c` with `c[start..end]` replaced by `with`.
fn splice(c: &[Choice], start: usize, end: usize, with: &[Choice]) -> Vec<Choice> {
    let mut out = Vec::with_capacity(c.len() - (end - start) + with.len());
    out.extend_from_slice(&c[..start]);
    out.extend_from_slice(with);
    out.extend_from_slice(&c[end..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tape::{Label, PointId};

    fn rec() -> Recording {
        let ch = |index| Choice {
            point: PointId(0),
            max: 9,
            index,
            forced: false,
            in_run: false,
        };
        let span = |start, end| Span {
            label: Label::new("e"),
            start,
            end,
            parent: None,
            depth: 0,
        };
        Recording {
            choices: (0..6).map(ch).collect(),
            spans: vec![span(0, 2), span(2, 4), span(4, 6)],
            rejected_at: None,
            labels: vec![],
            suggested: vec![],
            value_steps: vec![],
            shifts: vec![],
        }
    }

    fn idx(c: &[Choice]) -> Vec<u64> {
        c.iter().map(|c| c.index).collect()
    }

    #[test]
    fn span_edits_keep_other_choices() {
        let r = rec();
        let mut rng = Rng::new(1);
        for _ in 0..100 {
            let d = idx(&Operator::DeleteSpan.apply(&r, None, &mut rng).unwrap());
            assert!([vec![2, 3, 4, 5], vec![0, 1, 4, 5], vec![0, 1, 2, 3]].contains(&d));
            let d = idx(&Operator::DuplicateSpan.apply(&r, None, &mut rng).unwrap());
            assert_eq!(d.len(), 8);
            let s = idx(&Operator::SwapSpans.apply(&r, None, &mut rng).unwrap());
            let mut sorted = s.clone();
            sorted.sort();
            assert_eq!(sorted, vec![0, 1, 2, 3, 4, 5]);
            assert!(s.chunks(2).all(|p| p[1] == p[0] + 1), "{s:?}");
            let m = idx(&Operator::MoveChoice.apply(&r, None, &mut rng).unwrap());
            assert!(m.iter().zip(0..).filter(|(a, b)| **a != *b).count() <= 1);
            assert!(m.iter().all(|&i| i <= 9));
        }
        for _ in 0..20 {
            let c = idx(&Operator::CopySpan.apply(&r, None, &mut rng).unwrap());
            assert_eq!(c.len(), 6);
            assert!(c.chunks(2).all(|p| p[1] == p[0] + 1), "{c:?}");
            assert!(
                c[..2] == c[2..4] || c[2..4] == c[4..] || c[..2] == c[4..],
                "{c:?}"
            );
        }
        assert_eq!(Operator::SpliceSpan.apply(&r, None, &mut rng), None);
        let spliced = Operator::SpliceSpan.apply(&r, Some(&r), &mut rng).unwrap();
        assert_eq!(spliced.len(), 6);
    }

    #[test]
    fn nudge_stays_in_range_and_moves_locally() {
        let mut rng = Rng::new(2);
        let mut near = 0;
        for _ in 0..10_000 {
            let v = nudge(500, 1000, &mut rng);
            assert!(v <= 1000);
            near += (v.abs_diff(500) <= 8) as u32;
            nudge(3, u64::MAX, &mut rng);
            assert_eq!(nudge(0, 0, &mut rng), 0);
        }
        assert!(near > 1500, "small steps are common: {near}");
    }
}
