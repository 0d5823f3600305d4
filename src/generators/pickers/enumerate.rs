//! Enumerate: every combination of several finite lists.

use crate::generators::Gen;
use crate::tape::{Hint, Label, Reject, Tape};

const INDEX: Label = crate::tape::builtin::ENUMERATE_INDEX;

/// See [`enumerate_all`].
#[derive(Clone, Debug)]
pub struct EnumerateAll<T> {
    lists: Vec<Vec<T>>,
    count: u64,
}

/// One combination of values of several finite lists, one value from each (Synthia's
/// `Enumerate` over bounded pickers: their cartesian product). Combinations are numbered in
/// lexicographic order of positions, the last list varying fastest: combination 0 takes the
/// first value of every list. [`EnumerateAll::all`] iterates every combination in that
/// order, deterministically; as a generator, one choice picks the combination's number.
///
/// **On the tape**: one choice (label `enumerate.index`) with as many options as
/// combinations; index `k` is combination `k` ([`EnumerateAll::combination`]). Shrinking
/// lowers the number: towards earlier values of the first lists.
///
/// **Simplicity order**: combination 0 (the first value of each list), then in order.
/// **Running out**: combination 0.
///
/// For an exhaustive run over these combinations, iterate [`EnumerateAll::all`], or run
/// this generator under the `enumerate` search (`tapefuzz::search::enumerate`), which tries
/// tapes smallest first. The search's tree is not reused here: generators sit below
/// searches (a generator may not import one), and the product of finite lists is a closed
/// form (a mixed-radix number) that needs no tree.
///
/// Panics if there is no list, a list is empty, or there are 2^64 combinations or more.
///
/// ```
/// use tapefuzz::prelude::*;
/// use tapefuzz::generators::enumerate_all;
///
/// let configs = enumerate_all(vec![vec!["tcp", "udp"], vec!["v4", "v6"]]);
/// let all: Vec<Vec<&str>> = configs.all().collect();
/// assert_eq!(all[0], ["tcp", "v4"]);
/// assert_eq!(all[1], ["tcp", "v6"]);
/// assert_eq!(all.len(), 4);
/// check(configs, |c: Vec<&str>| c.len() == 2);
/// ```
pub fn enumerate_all<T: Clone>(lists: Vec<Vec<T>>) -> EnumerateAll<T> {
    assert!(!lists.is_empty(), "enumerate_all needs at least one list");
    let mut count: u64 = 1;
    for l in &lists {
        assert!(
            !l.is_empty(),
            "enumerate_all: an empty list has no combination"
        );
        count = count
            .checked_mul(l.len() as u64)
            .expect("enumerate_all: 2^64 combinations or more");
    }
    EnumerateAll { lists, count }
}

impl<T: Clone> EnumerateAll<T> {
    /// The number of combinations (the product of the lists' lengths).
    pub fn len(&self) -> u64 {
        self.count
    }

    /// Always `false`: every list has a value, so there is at least one combination.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Combination number `k` (the last list varying fastest); `k` is taken modulo
    /// [`EnumerateAll::len`].
    pub fn combination(&self, k: u64) -> Vec<T> {
        let mut k = k % self.count;
        let mut out: Vec<T> = Vec::with_capacity(self.lists.len());
        for l in self.lists.iter().rev() {
            let n = l.len() as u64;
            out.push(l[(k % n) as usize].clone());
            k /= n;
        }
        out.reverse();
        out
    }

    /// Every combination, in order (combination 0 first).
    pub fn all(&self) -> impl Iterator<Item = Vec<T>> + '_ {
        (0..self.count).map(|k| self.combination(k))
    }
}

impl<T: Clone> Gen for EnumerateAll<T> {
    type Value = Vec<T>;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<Vec<T>, Reject> {
        let k = tape.draw(INDEX, self.count - 1, Hint::Uniform)?;
        Ok(self.combination(k))
    }
}
