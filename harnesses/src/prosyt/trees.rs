//! The tree programs: balanced_tree, binomial_tree_heap, avl_insert.

use super::{HI, LO, Mode, Program, sized, test_in};
use tapefuzz::generators::constrained::{Constrain, Num, nums};
use tapefuzz::prelude::*;
use tapefuzz::property::Test;
use tapefuzz::tape::{Label, Reject, Tape};

fn num<N: Num>() -> impl Gen<Value = N> + 'static {
    nums::<N>(LO..=HI)
}

/// A binary tree.
#[derive(Clone, Debug, PartialEq)]
pub enum Tree<N> {
    /// The empty tree.
    Leaf,
    /// A node: left subtree, key, right subtree.
    Node(Box<Tree<N>>, N, Box<Tree<N>>),
}

impl<N> Tree<N> {
    /// Nodes.
    pub fn size(&self) -> usize {
        match self {
            Tree::Leaf => 0,
            Tree::Node(l, _, r) => 1 + l.size() + r.size(),
        }
    }
    /// Height (a leaf's is 0).
    pub fn height(&self) -> usize {
        match self {
            Tree::Leaf => 0,
            Tree::Node(l, _, r) => 1 + l.height().max(r.height()),
        }
    }
}

/// Binary trees of a size drawn in 10..=100 (ProSyT's `typeof` with a size target): the
/// size first, then at each node how many of the remaining nodes go left, the key, the left
/// and the right subtree. Index 0 everywhere: ten nodes, each with an empty left subtree.
#[derive(Clone, Copy, Debug)]
pub struct SizedTrees<N>(std::marker::PhantomData<fn() -> N>);

const TREE_NODE: Label = Label::new("tree.node");

fn sized_tree<N: Num>(n: usize, tape: &mut Tape<'_>) -> Result<Tree<N>, Reject> {
    if n == 0 {
        return Ok(Tree::Leaf);
    }
    tape.span(TREE_NODE, |tape| {
        let left = ints::<usize>(0..=n - 1).generate(tape)?;
        let l = sized_tree(left, tape)?;
        let k = num::<N>().generate(tape)?;
        let r = sized_tree(n - 1 - left, tape)?;
        Ok(Tree::Node(Box::new(l), k, Box::new(r)))
    })
}

impl<N: Num> Gen for SizedTrees<N> {
    type Value = Tree<N>;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<Tree<N>, Reject> {
        let n = ints::<usize>(10..=100).generate(tape)?;
        sized_tree(n, tape)
    }
}

fn trees<N: Num>() -> SizedTrees<N> {
    SizedTrees(std::marker::PhantomData)
}

/// The height if every node's subtrees differ in height by at most one.
fn balanced_height<N>(t: &Tree<N>) -> Option<usize> {
    match t {
        Tree::Leaf => Some(0),
        Tree::Node(l, _, r) => {
            let (a, b) = (balanced_height(l)?, balanced_height(r)?);
            (a.abs_diff(b) <= 1).then_some(1 + a.max(b))
        }
    }
}

/// Strictly ordered keys in order, within (lo, hi).
fn strict<N: Num>(t: &Tree<N>, lo: Option<N>, hi: Option<N>) -> bool {
    match t {
        Tree::Leaf => true,
        Tree::Node(l, k, r) => {
            lo.is_none_or(|lo| lo < *k)
                && hi.is_none_or(|hi| *k < hi)
                && strict(l, lo, Some(*k))
                && strict(r, Some(*k), hi)
        }
    }
}

fn keys(t: &Tree<i64>, out: &mut Vec<i64>) {
    if let Tree::Node(l, k, r) = t {
        keys(l, out);
        out.push(*k);
        keys(r, out);
    }
}

// ---- balanced_tree ----------------------------------------------------------------------

/// A height-balanced tree of 10..=100 nodes.
pub struct BalancedTree;
impl Constrain for BalancedTree {
    type Value<N: Num> = Tree<N>;
    fn generator<N: Num>(&self) -> impl Gen<Value = Tree<N>> {
        trees::<N>()
    }
    fn valid<N: Num>(&self, t: &Tree<N>) -> bool {
        sized(t.size()) && balanced_height(t).is_some()
    }
}

/// The keys in order. With `lean_left`, a node whose left subtree is one taller than its
/// right, at height 3 or more on the left, loses its right subtree.
pub fn flatten(t: &Tree<i64>, lean_left: bool, out: &mut Vec<i64>) {
    if let Tree::Node(l, k, r) = t {
        flatten(l, lean_left, out);
        out.push(*k);
        let (hl, hr) = (l.height(), r.height());
        if !(lean_left && hl >= 3 && hl == hr + 1) {
            flatten(r, lean_left, out);
        }
    }
}

fn balanced_tree(mode: Mode, bug: Option<&str>) -> Box<dyn Test> {
    let lean = bug == Some("lean_left");
    test_in(BalancedTree, mode, move |t: Tree<i64>| {
        let mut out = Vec::new();
        flatten(&t, lean, &mut out);
        ensure_eq!(out.len(), t.size());
        Ok(())
    })
}

/// `balanced_tree`.
pub const BALANCED_TREE: Program = Program {
    name: "balanced_tree",
    description: "in-order traversal of a height-balanced tree (filter: subtree heights differ by at most one everywhere)",
    bugs: &[(
        "lean_left",
        "a node leaning left by one at height 3 or more loses its right subtree",
    )],
    test: balanced_tree,
};

// ---- binomial_tree_heap -----------------------------------------------------------------

/// A tree with any number of children.
#[derive(Clone, Debug, PartialEq)]
pub struct Rose<N> {
    /// The key.
    pub key: N,
    /// The children.
    pub kids: Vec<Rose<N>>,
}

impl<N> Rose<N> {
    /// Nodes.
    pub fn size(&self) -> usize {
        1 + self.kids.iter().map(Rose::size).sum::<usize>()
    }
}

/// Trees of `size` nodes with any number of children: the key, then the size of each next
/// child (1 to what is left) and the child, until the nodes are used up. With `each`, every
/// subtree must pass it or the value is rejected as soon as the subtree is complete — the
/// part of a filter that holds for every subtree, checked as the tree is built (what
/// ProSyT's coroutining of the generator and the filter does), so that `constrain`'s
/// skeleton search backtracks from there.
#[derive(Clone, Copy)]
pub struct SizedRoses<N> {
    size: usize,
    each: Option<fn(&Rose<N>) -> bool>,
}

const ROSE_NODE: Label = Label::new("rose.node");

impl<N: Num> Gen for SizedRoses<N> {
    type Value = Rose<N>;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<Rose<N>, Reject> {
        tape.span(ROSE_NODE, |tape| {
            let key = num::<N>().generate(tape)?;
            let mut left = self.size - 1;
            let mut kids = Vec::new();
            while left > 0 {
                let k = ints::<usize>(1..=left).generate(tape)?;
                let kid = SizedRoses {
                    size: k,
                    each: self.each,
                }
                .generate(tape)?;
                if self.each.is_some_and(|f| !f(&kid)) {
                    // Rejected here, as soon as the subtree is complete: a search that
                    // backtracks from the rejection changes this subtree's choices.
                    return Err(tape.reject());
                }
                kids.push(kid);
                left -= k;
            }
            Ok(Rose { key, kids })
        })
    }
}

/// Rose trees of a size drawn in 10..=100 whose every subtree passes `each`.
fn roses<N: Num>(each: Option<fn(&Rose<N>) -> bool>) -> impl Gen<Value = Rose<N>> {
    ints::<usize>(10..=100).flat_map(move |size| SizedRoses { size, each })
}

/// The order of a binomial tree (children of orders k−1, …, 0), if it is one.
fn binomial_order<N>(t: &Rose<N>) -> Option<usize> {
    let k = t.kids.len();
    t.kids
        .iter()
        .enumerate()
        .all(|(i, c)| binomial_order(c) == Some(k - 1 - i))
        .then_some(k)
}

fn heap<N: Num>(t: &Rose<N>) -> bool {
    t.kids.iter().all(|c| t.key <= c.key && heap(c))
}

/// A binomial tree with the minimum-heap property, of 16, 32 or 64 nodes (orders 4 to 6).
pub struct BinomialTreeHeap;
impl Constrain for BinomialTreeHeap {
    type Value<N: Num> = Rose<N>;
    fn generator<N: Num>(&self) -> impl Gen<Value = Rose<N>> {
        // The shape part of the filter holds for every subtree of a binomial tree: checked
        // as each subtree is built (the heap order is left to the solver).
        roses::<N>(Some(|t| binomial_order(t).is_some()))
    }
    fn valid<N: Num>(&self, t: &Rose<N>) -> bool {
        binomial_order(t).is_some() && sized(t.size()) && heap(t)
    }
}

/// Removes the minimum: the root's key and its children. With `drop_last`, a tree of order
/// 4 or more loses its last child (the one of order 0).
pub fn extract_min(t: &Rose<i64>, drop_last: bool) -> (i64, Vec<Rose<i64>>) {
    let mut kids = t.kids.clone();
    if drop_last && kids.len() >= 4 {
        kids.pop();
    }
    (t.key, kids)
}

fn binomial_tree_heap(mode: Mode, bug: Option<&str>) -> Box<dyn Test> {
    let drop = bug == Some("drop_last");
    test_in(BinomialTreeHeap, mode, move |t: Rose<i64>| {
        fn all(t: &Rose<i64>, out: &mut Vec<i64>) {
            out.push(t.key);
            t.kids.iter().for_each(|c| all(c, out));
        }
        let mut every = Vec::new();
        all(&t, &mut every);
        let (min, rest) = extract_min(&t, drop);
        ensure_eq!(Some(&min), every.iter().min());
        ensure_eq!(rest.iter().map(Rose::size).sum::<usize>(), t.size() - 1);
        Ok(())
    })
}

/// `binomial_tree_heap`.
pub const BINOMIAL_TREE_HEAP: Program = Program {
    name: "binomial_tree_heap",
    description: "extracting a binomial heap tree's minimum (filter: a binomial tree of some order with the minimum-heap property)",
    bugs: &[(
        "drop_last",
        "a tree of order 4 or more loses its last child",
    )],
    test: binomial_tree_heap,
};

// ---- avl_insert -------------------------------------------------------------------------

/// An AVL tree (balanced, keys strictly ordered) of 10..=100 nodes and a key to insert.
pub struct AvlInsert;
impl Constrain for AvlInsert {
    type Value<N: Num> = (Tree<N>, N);
    fn generator<N: Num>(&self) -> impl Gen<Value = (Tree<N>, N)> {
        (trees::<N>(), num::<N>())
    }
    fn valid<N: Num>(&self, (t, _): &(Tree<N>, N)) -> bool {
        sized(t.size()) && balanced_height(t).is_some() && strict(t, None, None)
    }
}

fn node(l: Tree<i64>, k: i64, r: Tree<i64>) -> Tree<i64> {
    Tree::Node(Box::new(l), k, Box::new(r))
}

fn rotate_right(t: Tree<i64>) -> Tree<i64> {
    match t {
        Tree::Node(l, k, r) => match *l {
            Tree::Node(ll, lk, lr) => node(*ll, lk, node(*lr, k, *r)),
            leaf => node(leaf, k, *r),
        },
        leaf => leaf,
    }
}

fn rotate_left(t: Tree<i64>) -> Tree<i64> {
    match t {
        Tree::Node(l, k, r) => match *r {
            Tree::Node(rl, rk, rr) => node(node(*l, k, *rl), rk, *rr),
            leaf => node(*l, k, leaf),
        },
        leaf => leaf,
    }
}

fn balance(t: Tree<i64>, single_only: bool) -> Tree<i64> {
    let Tree::Node(l, k, r) = t else { return t };
    let (hl, hr) = (l.height(), r.height());
    if hl > hr + 1 {
        let l = match *l {
            Tree::Node(ll, lk, lr) if lr.height() > ll.height() && !single_only => {
                rotate_left(node(*ll, lk, *lr))
            }
            other => other,
        };
        rotate_right(node(l, k, *r))
    } else if hr > hl + 1 {
        let r = match *r {
            Tree::Node(rl, rk, rr) if rl.height() > rr.height() && !single_only => {
                rotate_right(node(*rl, rk, *rr))
            }
            other => other,
        };
        rotate_left(node(*l, k, r))
    } else {
        node(*l, k, *r)
    }
}

/// AVL insertion. With `single_only`, the left-right and right-left cases get a single
/// rotation (the double rotation is missing).
pub fn avl_insert(t: Tree<i64>, e: i64, single_only: bool) -> Tree<i64> {
    match t {
        Tree::Leaf => node(Tree::Leaf, e, Tree::Leaf),
        Tree::Node(l, k, r) => {
            if e < k {
                balance(node(avl_insert(*l, e, single_only), k, *r), single_only)
            } else if e > k {
                balance(node(*l, k, avl_insert(*r, e, single_only)), single_only)
            } else {
                node(*l, k, *r)
            }
        }
    }
}

fn avl_insert_test(mode: Mode, bug: Option<&str>) -> Box<dyn Test> {
    let single = bug == Some("single_rotation");
    test_in(AvlInsert, mode, move |(t, e): (Tree<i64>, i64)| {
        let mut expected = Vec::new();
        keys(&t, &mut expected);
        if !expected.contains(&e) {
            expected.push(e);
            expected.sort();
        }
        let out = avl_insert(t, e, single);
        ensure!(balanced_height(&out).is_some(), "not balanced: {out:?}");
        let mut got = Vec::new();
        keys(&out, &mut got);
        ensure_eq!(got, expected);
        Ok(())
    })
}

/// `avl_insert`.
pub const AVL_INSERT: Program = Program {
    name: "avl_insert",
    description: "AVL insertion keeps the tree balanced and ordered (filter: balanced and strictly ordered)",
    bugs: &[(
        "single_rotation",
        "the left-right and right-left cases get a single rotation",
    )],
    test: avl_insert_test,
};
