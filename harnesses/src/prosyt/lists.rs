//! The list programs: ord_insert, up_down_seq, n_up_seqs, delete, stack.

use super::{HI, LO, Mode, Program, sized, test_in};
use tapefuzz::generators::constrained::{Constrain, Num, nums};
use tapefuzz::prelude::*;
use tapefuzz::property::Test;

fn num<N: Num>() -> impl Gen<Value = N> {
    nums::<N>(LO..=HI)
}

/// Non-decreasing.
pub fn ordered<N: Num>(l: &[N]) -> bool {
    l.windows(2).all(|w| w[0] <= w[1])
}

fn non_increasing<N: Num>(l: &[N]) -> bool {
    l.windows(2).all(|w| w[0] >= w[1])
}

fn sorted_copy(l: &[i64]) -> Vec<i64> {
    let mut v = l.to_vec();
    v.sort();
    v
}

// ---- ord_insert -------------------------------------------------------------------------

/// An ordered list of 10..=100 integers and an integer to insert.
pub struct OrdInsert;
impl Constrain for OrdInsert {
    type Value<N: Num> = (Vec<N>, N);
    fn generator<N: Num>(&self) -> impl Gen<Value = (Vec<N>, N)> {
        (vecs(num::<N>(), 10..=100), num::<N>())
    }
    fn valid<N: Num>(&self, (l, _): &(Vec<N>, N)) -> bool {
        ordered(l)
    }
}

/// The paper's `insert`; with `swapped`, its bug (`[X, I | Xs]` for `[I, X | Xs]`).
pub fn insert(i: i64, l: &[i64], swapped: bool) -> Vec<i64> {
    let mut out = Vec::with_capacity(l.len() + 1);
    for (k, &x) in l.iter().enumerate() {
        if i <= x {
            out.extend(if swapped { [x, i] } else { [i, x] });
            out.extend_from_slice(&l[k + 1..]);
            return out;
        }
        out.push(x);
    }
    out.push(i);
    out
}

fn ord_insert(mode: Mode, bug: Option<&str>) -> Box<dyn Test> {
    let swapped = bug == Some("swapped");
    test_in(OrdInsert, mode, move |(l, i): (Vec<i64>, i64)| {
        let out = insert(i, &l, swapped);
        ensure!(ordered(&out), "not ordered: {out:?}");
        let mut expected = l.clone();
        expected.push(i);
        ensure_eq!(sorted_copy(&out), sorted_copy(&expected));
        Ok(())
    })
}

/// `ord_insert`.
pub const ORD_INSERT: Program = Program {
    name: "ord_insert",
    description: "insertion into an ordered list (ProSyT's running example; filter: the list is non-decreasing)",
    bugs: &[(
        "swapped",
        "the paper's bug: inserts [X, I | Xs] for [I, X | Xs]",
    )],
    test: ord_insert,
};

// ---- up_down_seq ------------------------------------------------------------------------

/// L1 ++ L2 with |len L1 − len L2| ≤ 1, L1 non-decreasing, L2 non-increasing.
pub struct UpDownSeq;
impl Constrain for UpDownSeq {
    type Value<N: Num> = Vec<N>;
    fn generator<N: Num>(&self) -> impl Gen<Value = Vec<N>> {
        vecs(num::<N>(), 10..=100)
    }
    fn valid<N: Num>(&self, l: &Vec<N>) -> bool {
        let n = l.len();
        let splits = if n.is_multiple_of(2) {
            vec![n / 2]
        } else {
            vec![n / 2, n / 2 + 1]
        };
        splits
            .into_iter()
            .any(|k| ordered(&l[..k]) && non_increasing(&l[k..]))
    }
}

/// The peak of an up-down sequence: walks up while the next is not smaller. With
/// `plateau`, stops at the first step that does not rise (a plateau before the peak).
pub fn peak(l: &[i64], plateau: bool) -> i64 {
    let mut i = 0;
    while i + 1 < l.len() && (l[i] < l[i + 1] || (!plateau && l[i] == l[i + 1])) {
        i += 1;
    }
    l[i]
}

fn up_down_seq(mode: Mode, bug: Option<&str>) -> Box<dyn Test> {
    let plateau = bug == Some("plateau");
    test_in(UpDownSeq, mode, move |l: Vec<i64>| {
        let max = *l.iter().max().expect("non-empty");
        ensure_eq!(peak(&l, plateau), max);
        Ok(())
    })
}

/// `up_down_seq`.
pub const UP_DOWN_SEQ: Program = Program {
    name: "up_down_seq",
    description: "the peak of an up-down sequence (filter: L1 ++ L2 of about equal lengths, L1 non-decreasing, L2 non-increasing)",
    bugs: &[("plateau", "the walk up stops at two equal neighbours")],
    test: up_down_seq,
};

// ---- n_up_seqs --------------------------------------------------------------------------

/// 2..=10 non-decreasing lists, each longer than the one before, 10..=100 elements in all.
pub struct NUpSeqs;
impl Constrain for NUpSeqs {
    type Value<N: Num> = Vec<Vec<N>>;
    fn generator<N: Num>(&self) -> impl Gen<Value = Vec<Vec<N>>> {
        vecs(vecs(num::<N>(), 1..=30), 2..=10)
    }
    fn valid<N: Num>(&self, ls: &Vec<Vec<N>>) -> bool {
        (2..=10).contains(&ls.len())
            && sized(ls.iter().map(Vec::len).sum())
            && ls.windows(2).all(|w| w[0].len() < w[1].len())
            && ls.iter().all(|l| ordered(l))
    }
}

/// Merges ordered lists. With `short_last`, the last list is merged without its last element
/// when there are more than three lists.
pub fn merge_all(ls: &[Vec<i64>], short_last: bool) -> Vec<i64> {
    let mut out: Vec<i64> = Vec::new();
    for (k, l) in ls.iter().enumerate() {
        let l = if short_last && ls.len() > 3 && k + 1 == ls.len() {
            &l[..l.len() - 1]
        } else {
            &l[..]
        };
        let mut merged = Vec::with_capacity(out.len() + l.len());
        let (mut i, mut j) = (0, 0);
        while i < out.len() || j < l.len() {
            if j == l.len() || (i < out.len() && out[i] <= l[j]) {
                merged.push(out[i]);
                i += 1;
            } else {
                merged.push(l[j]);
                j += 1;
            }
        }
        out = merged;
    }
    out
}

fn n_up_seqs(mode: Mode, bug: Option<&str>) -> Box<dyn Test> {
    let short = bug == Some("short_last");
    test_in(NUpSeqs, mode, move |ls: Vec<Vec<i64>>| {
        let out = merge_all(&ls, short);
        ensure_eq!(out, sorted_copy(&ls.concat()));
        Ok(())
    })
}

/// `n_up_seqs`.
pub const N_UP_SEQS: Program = Program {
    name: "n_up_seqs",
    description: "merging ordered lists (filter: 2..10 non-decreasing lists, each longer than the one before)",
    bugs: &[(
        "short_last",
        "with more than three lists, the last one loses its last element",
    )],
    test: n_up_seqs,
};

// ---- delete -----------------------------------------------------------------------------

/// `(l, d, r)`: d and r ordered, l their ordered merge, 10..=100 elements in l.
pub struct Delete;
impl Constrain for Delete {
    type Value<N: Num> = (Vec<N>, Vec<N>, Vec<N>);
    fn generator<N: Num>(&self) -> impl Gen<Value = (Vec<N>, Vec<N>, Vec<N>)> {
        (
            vecs(num::<N>(), 10..=100),
            vecs(num::<N>(), 0..=60),
            vecs(num::<N>(), 0..=60),
        )
    }
    fn valid<N: Num>(&self, (l, d, r): &(Vec<N>, Vec<N>, Vec<N>)) -> bool {
        if l.len() != d.len() + r.len() || !ordered(d) || !ordered(r) {
            return false;
        }
        // l is the merge of d and r.
        let (mut i, mut j) = (0, 0);
        for x in l {
            let from_d = j == r.len() || (i < d.len() && d[i] <= r[j]);
            let y = if from_d { &d[i] } else { &r[j] };
            if x != y {
                return false;
            }
            if from_d {
                i += 1;
            } else {
                j += 1;
            }
        }
        true
    }
}

/// Deletes the elements of the ordered `d` from the ordered `l`, one occurrence each. With
/// `keep_last`, the walk never deletes `l`'s last element.
pub fn delete(l: &[i64], d: &[i64], keep_last: bool) -> Vec<i64> {
    let mut out = Vec::with_capacity(l.len());
    let mut j = 0;
    for (k, &x) in l.iter().enumerate() {
        let last = k + 1 == l.len();
        if j < d.len() && d[j] == x && !(keep_last && last) {
            j += 1;
        } else {
            out.push(x);
        }
    }
    out
}

fn delete_test(mode: Mode, bug: Option<&str>) -> Box<dyn Test> {
    let keep_last = bug == Some("keep_last");
    test_in(
        Delete,
        mode,
        move |(l, d, r): (Vec<i64>, Vec<i64>, Vec<i64>)| {
            ensure_eq!(delete(&l, &d, keep_last), r);
            Ok(())
        },
    )
}

/// `delete`.
pub const DELETE: Program = Program {
    name: "delete",
    description: "deleting an ordered list's elements from an ordered list (filter: l is the ordered merge of d and r)",
    bugs: &[("keep_last", "the last element of l is never deleted")],
    test: delete_test,
};

// ---- stack ------------------------------------------------------------------------------

/// `(n, s)`: a stack s of 10..=100 elements and its size n.
pub struct Stack;
impl Constrain for Stack {
    type Value<N: Num> = (N, Vec<N>);
    fn generator<N: Num>(&self) -> impl Gen<Value = (N, Vec<N>)> {
        (num::<N>(), vecs(num::<N>(), 10..=100))
    }
    fn valid<N: Num>(&self, (n, s): &(N, Vec<N>)) -> bool {
        *n == N::from_len(s.len())
    }
}

/// Pops `n` elements off `s` (its top is the front), returning the new size and stack.
/// With `lost_count`, a stack of more than 50 elements keeps its size after a pop.
pub fn pop(n: i64, s: &[i64], lost_count: bool) -> (i64, Vec<i64>) {
    let dec = if lost_count && s.len() > 50 { 0 } else { 1 };
    (n - dec, s[1..].to_vec())
}

fn stack(mode: Mode, bug: Option<&str>) -> Box<dyn Test> {
    let lost = bug == Some("lost_count");
    test_in(Stack, mode, move |(n, s): (i64, Vec<i64>)| {
        let (n2, s2) = pop(n, &s, lost);
        ensure_eq!(n2, s2.len() as i64);
        Ok(())
    })
}

/// `stack`.
pub const STACK: Program = Program {
    name: "stack",
    description: "popping a stack that keeps its size (filter: n is the length of s)",
    bugs: &[(
        "lost_count",
        "a stack of more than 50 elements keeps its size after a pop",
    )],
    test: stack,
};
