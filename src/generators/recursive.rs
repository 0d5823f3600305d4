//! Recursive structures, bounded in depth and size.

use super::{Boxed, Gen, GenExt};
use crate::tape::{Label, Reject, Tape};
use std::rc::Rc;

const RECURSE: Label = crate::tape::builtin::BRANCH;
const NODE: Label = crate::tape::builtin::NODE;

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
        let branch = if tape.nodes() >= self.max_nodes {
            tape.force_bool(RECURSE, false)?
        } else {
            tape.draw_bool(RECURSE, self.p_branch)?
        };
        if branch {
            tape.count_node();
            tape.span(NODE, |t| self.branch.generate(t))
        } else {
            self.leaf.generate(tape)
        }
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
/// built in a test case every further choice is a leaf (a forced choice). A random source takes
/// a branch with probability `p_branch`.
///
/// Simplicity order: a leaf first (a 0 "branch?" boolean), then branches, each in a span
/// `recursive.node`. Running out: a leaf.
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
    let mut current = leaf.clone();
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
