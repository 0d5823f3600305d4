//! Which leading choices of a generator are parameters: drawn once, at the same place, with
//! the same finite range, by every test case.

use crate::tape::{PointId, Recording};

/// One parameter: a leading choice point and its number of options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parameter {
    /// The choice point.
    pub point: PointId,
    /// Its options (`max + 1`).
    pub values: u64,
}

/// The leading parameters common to every recording: the longest prefix of unforced choices
/// where every recording draws the same choice point with the same range, no choice point
/// twice, and each range has at most `widest` options. A collection's "one more?" coin is
/// drawn again and again at one point, so it ends the parameters; so does a choice whose
/// range depends on an earlier choice.
pub fn leading(recordings: &[Recording], widest: u64) -> Vec<Parameter> {
    let mut lists = recordings
        .iter()
        .map(|r| r.choices.iter().filter(|c| !c.forced));
    let Some(first) = lists.next() else {
        return Vec::new();
    };
    let mut params: Vec<Parameter> = first
        .map(|c| Parameter {
            point: c.point,
            values: c.max.saturating_add(1),
        })
        .collect();
    for list in lists {
        let same = params
            .iter()
            .zip(list)
            .take_while(|(p, c)| p.point == c.point && p.values == c.max.saturating_add(1))
            .count();
        params.truncate(same);
    }
    let mut seen = crate::tape::HashesSet::default();
    let keep = params
        .iter()
        .take_while(|p| p.values <= widest && p.values >= 1 && seen.insert(p.point.0))
        .count();
    params.truncate(keep);
    params
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tape::Choice;

    fn rec(choices: &[(u64, u64)]) -> Recording {
        Recording {
            choices: choices
                .iter()
                .map(|&(point, max)| Choice {
                    point: PointId(point),
                    max,
                    index: 0,
                    forced: false,
                })
                .collect(),
            ..Recording::default()
        }
    }

    #[test]
    fn the_common_prefix_of_distinct_points() {
        let a = rec(&[(1, 1), (2, 1000), (3, 3), (4, 1), (4, 1)]);
        let b = rec(&[(1, 1), (2, 1000), (3, 3), (4, 1), (5, 9)]);
        let p = leading(&[a.clone(), b], 1 << 24);
        assert_eq!(p.len(), 4, "{p:?}");
        // The repeated point (a collection's coin) ends them.
        assert_eq!(leading(&[a.clone()], 1 << 24).len(), 4);
        // Too wide a range ends them.
        assert_eq!(leading(&[a], 100).len(), 1);
        assert!(leading(&[], 10).is_empty());
    }
}
