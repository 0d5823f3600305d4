//! Recursive structures, bounded in depth and size.

use super::{Boxed, Gen, GenExt};
use crate::tape::{Label, Reject, Tape};
use std::rc::Rc;

const RECURSE: Label = crate::tape::builtin::BRANCH;
const TREE: Label = crate::tape::builtin::TREE;

/// One layer of a recursive generator: a leaf, or a branch built from the layer below.
struct Layer<T> {
    leaf: Boxed<T>,
    branch: Boxed<T>,
    p_branch: f64,
    max_nodes: usize,
}

impl<T> Gen for Layer<T> {
    type Value = T;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<T, Reject> {
        // At the node bound the "branch?" choice is still drawn, not forced: a random source
        // never takes it (p = 0) and taking it still gives a leaf. So every subtree starts
        // with the same choice wherever it sits, and a shrinker that deletes or moves
        // subtrees (lowering the node count) keeps the rest of the tape aligned.
        tape.span(TREE, |tape| {
            let open = tape.nodes() < self.max_nodes;
            let p = if open { self.p_branch } else { 0.0 };
            let branch = tape.draw_bool(RECURSE, p)? && open;
            if branch {
                // The subtree's own span holds the branch's choices: no second span per
                // node (recording one cost libFuzzer's recording check 8% per input).
                tape.count_node();
                self.branch.generate(tape)
            } else {
                self.leaf.generate(tape)
            }
        })
    }
}

/// The layer below the depth bound: a leaf behind the same "branch?" choice as every other
/// layer (never taken by a random source, a leaf if taken), so a subtree promoted to a
/// shallower position replays with the same choices (see [`Layer::generate`]).
struct Bottom<T> {
    leaf: Boxed<T>,
}

impl<T> Gen for Bottom<T> {
    type Value = T;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<T, Reject> {
        tape.span(TREE, |tape| {
            tape.draw_bool(RECURSE, 0.0)?;
            self.leaf.generate(tape)
        })
    }
}

/// See [`recursive`].
pub struct Recursive<T>(Boxed<T>);

impl<T> Clone for Recursive<T> {
    fn clone(&self) -> Self {
        Recursive(self.0.clone())
    }
}

/// A recursive structure: `leaf` values, or branches that `branch` builds from a generator of
/// smaller structures. At most `depth` branches nest, and once `max_nodes` branches have been
/// built in a test case every further subtree is a leaf. A random source takes a branch with
/// probability `p_branch`.
///
/// Simplicity order: a leaf first (a 0 "branch?" boolean), then branches. Every subtree,
/// leaf or branch, is a span `recursive.tree` that starts with its "branch?" boolean and holds
/// the leaf's or the branch's choices. The boolean is drawn also
/// at the depth and node bounds, where a random source never takes it and a 1 still means a
/// leaf: the tape of a subtree does not depend on where it sits, so shrinking can replace a
/// tree by any subtree, a leaf included.
/// Running out: a leaf.
pub fn recursive<T: 'static, B, F>(
    leaf: impl Gen<Value = T> + 'static,
    depth: usize,
    max_nodes: usize,
    p_branch: f64,
    branch: F,
) -> Recursive<T>
where
    B: Gen<Value = T> + 'static,
    F: Fn(Boxed<T>) -> B,
{
    let leaf = leaf.boxed();
    let mut current = Boxed::new(Rc::new(Bottom { leaf: leaf.clone() }));
    for _ in 0..depth {
        let layer = Layer {
            leaf: leaf.clone(),
            branch: branch(current).boxed(),
            p_branch,
            max_nodes,
        };
        current = Boxed::new(Rc::new(layer));
    }
    Recursive(current)
}

impl<T> Gen for Recursive<T> {
    type Value = T;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<T, Reject> {
        self.0.generate(tape)
    }
}
