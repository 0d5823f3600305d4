//! Which leading choices of a generator are parameters: drawn once, at the same place, with
//! the same finite range, by every test case.

use crate::tape::{Kind, PointId, Recording};

/// One parameter: a leading choice point and its number of options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parameter {
    /// The choice point.
    pub point: PointId,
    /// Its options (`max + 1`).
    pub values: u64,
}

/// The leading parameters common to every recording: the longest prefix of unforced choices
/// where every recording draws the same choice point with the same range, each a value or a
/// union's variant (not a collection's "one more?" coin nor a recursive structure's
/// "branch?" coin: those repeat, and the parameters end there), each with at most `widest`
/// options. A choice whose range depends on an earlier choice ends them too (the
/// recordings disagree there).
pub fn leading(recordings: &[Recording], widest: u64) -> Vec<Parameter> {
    if recordings.is_empty() {
        return Vec::new();
    }
    let unforced = |r: &'_ Recording| {
        r.choices
            .iter()
            .zip(r.labels.iter().map(Some).chain(std::iter::repeat(None)))
            .filter(|(c, _)| !c.forced)
            .map(|(c, l)| (*c, l.map(|l| l.kind())))
            .collect::<Vec<_>>()
    };
    let mut params: Vec<Parameter> = Vec::new();
    let lists: Vec<_> = recordings.iter().map(unforced).collect();
    for (k, &(c, kind)) in lists[0].iter().enumerate() {
        let repeats = matches!(kind, Some(Kind::More | Kind::Branch | Kind::Neighbour(_)));
        let values = c.max.saturating_add(1);
        let same = lists[1..].iter().all(|l| {
            l.get(k)
                .is_some_and(|(d, _)| d.point == c.point && d.max == c.max)
        });
        if repeats || !same || values > widest {
            break;
        }
        params.push(Parameter {
            point: c.point,
            values,
        });
    }
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
                    in_run: false,
                })
                .collect(),
            ..Recording::default()
        }
    }

    #[test]
    fn the_common_prefix_of_values() {
        let a = rec(&[(1, 1), (2, 1000), (2, 1000), (3, 3), (4, 1)]);
        let b = rec(&[(1, 1), (2, 1000), (2, 1000), (3, 3), (5, 9)]);
        let p = leading(&[a.clone(), b.clone()], 1 << 24);
        assert_eq!(p.len(), 4, "{p:?}");
        assert_eq!(leading(std::slice::from_ref(&b), 1 << 24).len(), 5);
        // Too wide a range ends them.
        assert_eq!(leading(&[a], 100).len(), 1);
        assert!(leading(&[], 10).is_empty());
        // A collection's coin ends them.
        let mut coin = rec(&[(7, 1), (8, 3)]);
        coin.labels = vec![crate::tape::builtin::MORE, crate::tape::builtin::INT];
        assert!(leading(&[coin], 1 << 24).is_empty());
    }
}
