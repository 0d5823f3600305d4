//! Binary search trees: the RLCheck BST generator (benchmarks §3) and insertion.

use tapefuzz::prelude::*;
use tapefuzz::property::Test;
use tapefuzz::tape::Label;
use tapefuzz::{property::property, tape::Reject, tape::Tape};

/// A binary tree with values 0..=10.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tree {
    /// The node's value.
    pub value: u8,
    /// Left subtree.
    pub left: Option<Box<Tree>>,
    /// Right subtree.
    pub right: Option<Box<Tree>>,
}

/// Depth below which nodes may have children (RLCheck's `MAX_DEPTH`).
pub const MAX_DEPTH: usize = 4;

const NODE: Label = Label::new("bst.node");
const LEFT: Label = Label::new("bst.left");
const RIGHT: Label = Label::new("bst.right");
const HAS_LEFT: Label = Label::new("bst.has_left");
const HAS_RIGHT: Label = Label::new("bst.has_right");

/// The RLCheck generator: a value uniform in 0..=10, then a coin "left child?" and a coin
/// "right child?" while the depth is below [`MAX_DEPTH`]. Each node is a span `bst.node`;
/// children sit in spans `bst.left` / `bst.right`, so every choice point's id says where in
/// the tree it is. Simplest: a single node 0. Running out: the nodes drawn so far, value 0
/// and no further children.
#[derive(Clone, Copy, Debug, Default)]
pub struct TreeGen;

/// Draws one node at `depth`; with `bounds` (exclusive `lo`, `hi`, for [`StrictTreeGen`]),
/// a value outside them is rejected the moment it is drawn.
fn node(
    tape: &mut Tape<'_>,
    depth: usize,
    bounds: Option<(Option<u8>, Option<u8>)>,
) -> Result<Tree, Reject> {
    tape.span(NODE, |t| {
        let value = ints::<u8>(0..=10).generate(t)?;
        if let Some((lo, hi)) = bounds
            && (lo.is_some_and(|l| value <= l) || hi.is_some_and(|h| value >= h))
        {
            return Err(t.reject());
        }
        let below = |lo, hi| bounds.map(|_| (lo, hi));
        let mut left = None;
        let mut right = None;
        if depth < MAX_DEPTH && t.draw_bool(HAS_LEFT, 0.5)? {
            let b = below(bounds.and_then(|b| b.0), Some(value));
            left = Some(Box::new(t.span(LEFT, |t| node(t, depth + 1, b))?));
        }
        if depth < MAX_DEPTH && t.draw_bool(HAS_RIGHT, 0.5)? {
            let b = below(Some(value), bounds.and_then(|b| b.1));
            right = Some(Box::new(t.span(RIGHT, |t| node(t, depth + 1, b))?));
        }
        Ok(Tree { value, left, right })
    })
}

impl Gen for TreeGen {
    type Value = Tree;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<Tree, Reject> {
        node(tape, 0, None)
    }
}

/// [`TreeGen`] with the BST invariant checked as the tree is drawn: a key outside the bounds
/// its ancestors set is rejected at once (`bst_insert`'s generator). It draws exactly what
/// [`TreeGen`] draws up to that point, so valid trees come from the same tapes and a random
/// run makes the same valid trees; a rejected tree costs less, and the rejection's position
/// lets an enumerator prune every tape that shares the prefix (LazySearch's lazy
/// precondition).
#[derive(Clone, Copy, Debug, Default)]
pub struct StrictTreeGen;

impl Gen for StrictTreeGen {
    type Value = Tree;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<Tree, Reject> {
        node(tape, 0, Some((None, None)))
    }
}

/// Valid trees by construction, the same shape as [`TreeGen`]'s: a key uniform in the
/// bounds its ancestors leave (`0..=10` at the root), then a coin of 1/2 for each child while
/// the depth is below [`MAX_DEPTH`] and the bounds leave a key for it. What a user writes when
/// only valid trees will do: the yardstick for the size of the valid trees a guided search
/// makes from a generator that does not know the invariant. Every value is a strict BST.
#[derive(Clone, Copy, Debug, Default)]
pub struct ValidTreeGen;

fn valid_node(tape: &mut Tape<'_>, depth: usize, lo: u8, hi: u8) -> Result<Tree, Reject> {
    let value = ints::<u8>(lo..=hi).generate(tape)?;
    let left = if depth < MAX_DEPTH && value > lo && tape.draw_bool(HAS_LEFT, 0.5)? {
        Some(Box::new(valid_node(tape, depth + 1, lo, value - 1)?))
    } else {
        None
    };
    let right = if depth < MAX_DEPTH && value < hi && tape.draw_bool(HAS_RIGHT, 0.5)? {
        Some(Box::new(valid_node(tape, depth + 1, value + 1, hi)?))
    } else {
        None
    };
    Ok(Tree { value, left, right })
}

impl Gen for ValidTreeGen {
    type Value = Tree;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<Tree, Reject> {
        valid_node(tape, 0, 0, 10)
    }
}

/// The tree generator of benchmarks §3.
pub fn tree_gen() -> TreeGen {
    TreeGen
}

/// Whether every value in the left subtree is smaller and every value in the right larger
/// (strict), at every node.
pub fn is_bst(t: &Tree) -> bool {
    fn within(t: &Tree, lo: Option<u8>, hi: Option<u8>) -> bool {
        lo.is_none_or(|l| t.value > l)
            && hi.is_none_or(|h| t.value < h)
            && t.left.as_ref().is_none_or(|l| within(l, lo, Some(t.value)))
            && t.right
                .as_ref()
                .is_none_or(|r| within(r, Some(t.value), hi))
    }
    within(t, None, None)
}

/// The values in order.
pub fn keys(t: &Tree) -> Vec<u8> {
    let mut out = Vec::new();
    fn walk(t: &Tree, out: &mut Vec<u8>) {
        if let Some(l) = &t.left {
            walk(l, out);
        }
        out.push(t.value);
        if let Some(r) = &t.right {
            walk(r, out);
        }
    }
    walk(t, &mut out);
    out
}

/// Planted bugs in [`insert`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bug {
    /// A key already present is inserted again (to the right).
    Duplicate,
    /// Inserting into the left subtree drops the right subtree.
    LoseRight,
    /// Below the root, a larger key goes left when the right subtree is empty.
    WrongSide,
    /// Inserting into a tree that already holds [`CROWDED`] keys or more drops its smallest
    /// key (a size-triggered clean-up gone wrong): only large valid trees reach it.
    Crowded,
}

/// Size at which [`Bug::Crowded`] strikes.
pub const CROWDED: usize = 8;

/// Removes the leftmost (smallest) node of `t`.
fn drop_min(mut t: Box<Tree>) -> Option<Box<Tree>> {
    match t.left.take() {
        None => t.right.take(),
        Some(l) => {
            t.left = drop_min(l);
            Some(t)
        }
    }
}

/// Inserts `k` into the BST `t`.
pub fn insert(t: Tree, k: u8, bug: Option<Bug>) -> Tree {
    fn go(t: Option<Box<Tree>>, k: u8, bug: Option<Bug>, depth: usize) -> Box<Tree> {
        let Some(mut t) = t else {
            return Box::new(Tree {
                value: k,
                left: None,
                right: None,
            });
        };
        if k < t.value {
            t.left = Some(go(t.left.take(), k, bug, depth + 1));
            if bug == Some(Bug::LoseRight) {
                t.right = None;
            }
        } else if k > t.value {
            if bug == Some(Bug::WrongSide) && depth > 0 && t.right.is_none() {
                t.left = Some(go(t.left.take(), k, bug, depth + 1));
            } else {
                t.right = Some(go(t.right.take(), k, bug, depth + 1));
            }
        } else if bug == Some(Bug::Duplicate) {
            t.right = Some(go(t.right.take(), k, bug, depth + 1));
        }
        t
    }
    let crowded = bug == Some(Bug::Crowded) && keys(&t).len() >= CROWDED;
    let out = go(Some(Box::new(t)), k, bug, 0);
    if crowded {
        return drop_min(out).map_or(
            Tree {
                value: k,
                left: None,
                right: None,
            },
            |t| *t,
        );
    }
    *out
}

/// The property: for a valid BST (others are rejected), inserting keeps it a strict BST
/// whose keys are the old keys plus `k`.
pub fn check(t: &Tree, k: u8, bug: Option<Bug>) -> Result<(), Fail> {
    assume!(is_bst(t));
    let out = insert(t.clone(), k, bug);
    ensure!(is_bst(&out), "not a BST: {out:?}");
    let mut expected = keys(t);
    if !expected.contains(&k) {
        expected.push(k);
        expected.sort();
    }
    ensure_eq!(keys(&out), expected);
    Ok(())
}

/// `bst_valid` (benchmarks §3): a tree alone from [`tree_gen`], rejected unless it is a strict
/// BST; inserting each key of 0..=10 into it must keep the invariant and the keys. Validity
/// is the hard part (about a third of random trees are BSTs, nearly all of 1 to 3 nodes: 838
/// distinct ones in 100,000), which is what the `rl` strategy is for.
pub fn valid_test(bug: Option<&str>) -> Box<dyn Test> {
    let bug = parse_bug(bug);
    Box::new(property(tree_gen(), move |t: Tree| -> Result<(), Fail> {
        assume!(is_bst(&t));
        for k in 0..=10 {
            check(&t, k, bug)?;
        }
        Ok(())
    }))
}

fn parse_bug(bug: Option<&str>) -> Option<Bug> {
    match bug {
        Some("duplicate") => Some(Bug::Duplicate),
        Some("lose_right") => Some(Bug::LoseRight),
        Some("wrong_side") => Some(Bug::WrongSide),
        Some("crowded") => Some(Bug::Crowded),
        _ => None,
    }
}

/// The target's test.
pub fn test(bug: Option<&str>) -> Box<dyn Test> {
    let bug = parse_bug(bug);
    Box::new(property(
        (StrictTreeGen, ints::<u8>(0..=10)),
        move |(t, k): (Tree, u8)| check(&t, k, bug),
    ))
}

/// The tree's shape, derived (`#[derive(Generate)]`): a key in `0..=10` and optional
/// children, its size bounded by the derive's budget (see `tapefuzz::generators::derived`).
/// What the derive benchmark and the derived-BST quality test draw.
#[derive(Generate, Debug, Clone)]
pub struct DerivedTree {
    /// The key.
    #[generate(range = 0..=10)]
    pub value: u8,
    /// The left subtree.
    pub left: Option<Box<DerivedTree>>,
    /// The right subtree.
    pub right: Option<Box<DerivedTree>>,
}

impl DerivedTree {
    /// The same tree as a [`Tree`].
    pub fn to_tree(&self) -> Tree {
        Tree {
            value: self.value,
            left: self.left.as_deref().map(|l| Box::new(l.to_tree())),
            right: self.right.as_deref().map(|r| Box::new(r.to_tree())),
        }
    }

    /// Nodes.
    pub fn nodes(&self) -> usize {
        1 + self.left.as_deref().map_or(0, DerivedTree::nodes)
            + self.right.as_deref().map_or(0, DerivedTree::nodes)
    }

    /// Whether the keys are strictly ordered (a strict binary search tree).
    pub fn is_strict(&self) -> bool {
        fn within(t: &DerivedTree, lo: Option<u8>, hi: Option<u8>) -> bool {
            lo.is_none_or(|l| t.value > l)
                && hi.is_none_or(|h| t.value < h)
                && t.left
                    .as_deref()
                    .is_none_or(|l| within(l, lo, Some(t.value)))
                && t.right
                    .as_deref()
                    .is_none_or(|r| within(r, Some(t.value), hi))
        }
        within(self, None, None)
    }
}

/// The tree's shape over `N: Num`, derived, for `constrain`
/// (`tapefuzz::generators::constrained`): keys in `0..=10` left open while the skeleton is
/// drawn, then solved by [`OrderedBst`]'s filter (the strict ordering).
#[derive(Generate, Debug, Clone)]
pub struct OpenBst<N: tapefuzz::generators::constrained::Num> {
    /// The key.
    #[generate(with = tapefuzz::generators::constrained::nums::<N>(0..=10))]
    pub value: N,
    /// The left subtree.
    pub left: Option<Box<OpenBst<N>>>,
    /// The right subtree.
    pub right: Option<Box<OpenBst<N>>>,
}

impl OpenBst<i64> {
    /// Nodes.
    pub fn nodes(&self) -> usize {
        1 + self.left.as_deref().map_or(0, OpenBst::nodes)
            + self.right.as_deref().map_or(0, OpenBst::nodes)
    }

    /// The same tree as a [`Tree`] (keys are in `0..=10`).
    pub fn to_tree(&self) -> Tree {
        Tree {
            value: self.value as u8,
            left: self.left.as_deref().map(|l| Box::new(l.to_tree())),
            right: self.right.as_deref().map(|r| Box::new(r.to_tree())),
        }
    }
}

/// The strict BST ordering of [`OpenBst`] as a `constrain` filter.
#[derive(Clone, Copy, Debug, Default)]
pub struct OrderedBst;

impl tapefuzz::generators::constrained::Constrain for OrderedBst {
    type Value<N: tapefuzz::generators::constrained::Num> = OpenBst<N>;
    fn generator<N: tapefuzz::generators::constrained::Num>(&self) -> impl Gen<Value = OpenBst<N>> {
        any::<OpenBst<N>>()
    }
    fn valid<N: tapefuzz::generators::constrained::Num>(&self, t: &OpenBst<N>) -> bool {
        fn within<N: tapefuzz::generators::constrained::Num>(
            t: &OpenBst<N>,
            lo: Option<N>,
            hi: Option<N>,
        ) -> bool {
            lo.is_none_or(|l| t.value > l)
                && hi.is_none_or(|h| t.value < h)
                && t.left
                    .as_deref()
                    .is_none_or(|l| within(l, lo, Some(t.value)))
                && t.right
                    .as_deref()
                    .is_none_or(|r| within(r, Some(t.value), hi))
        }
        within(t, None, None)
    }
}
