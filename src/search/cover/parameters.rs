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
/// where every recording draws the same choice point with the same range, a choice point
/// that each recording draws only once in its whole tape, and each range has at most
/// `widest` options. A collection's "one more?" coin is drawn again and again at one point,
/// so it ends the parameters (even in a recording where the collection is empty, if another
/// has elements); so does a choice whose range depends on an earlier choice.
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
    // How often each point is drawn in each whole tape.
    let mut counts: std::collections::HashMap<u64, usize> = std::collections::HashMap::new();
    for r in recordings {
        let mut here: std::collections::HashMap<u64, usize> = std::collections::HashMap::new();
        for c in r.choices.iter().filter(|c| !c.forced) {
            *here.entry(c.point.0).or_default() += 1;
        }
        for (p, n) in here {
            let e = counts.entry(p).or_default();
            *e = (*e).max(n);
        }
    }
    let keep = params
        .iter()
        .take_while(|p| p.values <= widest && p.values >= 1 && counts.get(&p.point.0) == Some(&1))
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
        let b = rec(&[(1, 1), (2, 1000), (3, 3), (6, 1), (5, 9)]);
        let p = leading(&[a.clone(), b.clone()], 1 << 24);
        assert_eq!(p.len(), 3, "{p:?}");
        assert_eq!(leading(&[b], 1 << 24).len(), 5);
        // The repeated point (a collection's coin) ends them.
        assert_eq!(leading(std::slice::from_ref(&a), 1 << 24).len(), 3);
        // Even where it is drawn once, if another tape draws it twice.
        let once = rec(&[(4, 1), (7, 3)]);
        let twice = rec(&[(4, 1), (4, 1)]);
        assert!(leading(&[once, twice], 1 << 24).is_empty());
        // Too wide a range ends them.
        assert_eq!(leading(&[a], 100).len(), 1);
        assert!(leading(&[], 10).is_empty());
    }
}
