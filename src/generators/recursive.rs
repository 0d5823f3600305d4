//! Recursive structures, bounded in depth and size.

use super::no_inverse::clipped;
use super::{Boxed, Gen, GenExt, NoInverse, Reflection};
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

    /// A leaf when the leaf generator makes the value (simplest), else a branch while the
    /// node bound allows.
    fn reflect(&self, value: &T, out: &mut Reflection) -> Result<(), NoInverse> {
        let mark = out.mark();
        out.draw_bool(false);
        let leaf = match self.leaf.reflect(value, out) {
            Ok(()) => return Ok(()),
            Err(e) => e,
        };
        out.rewind(mark);
        if out.nodes() >= self.max_nodes {
            return Err(NoInverse::of::<Recursive<T>>(format!(
                "not a leaf ({}), and a branch here would pass its {} branches (`max_nodes`)",
                clipped(&leaf),
                self.max_nodes
            )));
        }
        out.draw_bool(true);
        out.count_node();
        self.branch.reflect(value, out).map_err(|branch| {
            NoInverse::of::<Recursive<T>>(format!(
                "neither a leaf ({}) nor a branch ({})",
                clipped(&leaf),
                clipped(&branch)
            ))
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

    fn reflect(&self, value: &T, out: &mut Reflection) -> Result<(), NoInverse> {
        out.draw_bool(false);
        self.leaf.reflect(value, out).map_err(|leaf| {
            NoInverse::of::<Recursive<T>>(format!(
                "not a leaf ({}), and branches nest no deeper here (`depth`)",
                clipped(&leaf)
            ))
        })
    }
}

/// How a random source grows a recursive structure by default ([`Recursive::new`]): at most
/// this many branches nest,
pub const DEFAULT_DEPTH: usize = 6;
/// at most this many branches in one test case,
pub const DEFAULT_MAX_NODES: usize = 50;
/// and a subtree is a branch with this probability.
pub const DEFAULT_P_BRANCH: f64 = 0.4;

/// The parts a [`Recursive`] is rebuilt from when a bound changes.
struct Parts<T> {
    leaf: Boxed<T>,
    branch: Box<dyn Fn(Boxed<T>) -> Boxed<T>>,
}

impl<T: 'static> Parts<T> {
    fn new<B, F>(leaf: impl Gen<Value = T> + 'static, branch: F) -> Rc<Parts<T>>
    where
        B: Gen<Value = T> + 'static,
        F: Fn(Boxed<T>) -> B + 'static,
    {
        Rc::new(Parts {
            leaf: leaf.boxed(),
            branch: Box::new(move |inner| branch(inner).boxed()),
        })
    }
}

/// A recursive structure (see [`recursive`] and [`Recursive::new`]); `depth`, `max_nodes`
/// and `p_branch` change its bounds.
pub struct Recursive<T> {
    current: Boxed<T>,
    parts: Rc<Parts<T>>,
    depth: usize,
    max_nodes: usize,
    p_branch: f64,
}

impl<T> Clone for Recursive<T> {
    fn clone(&self) -> Self {
        Recursive {
            current: self.current.clone(),
            parts: self.parts.clone(),
            depth: self.depth,
            max_nodes: self.max_nodes,
            p_branch: self.p_branch,
        }
    }
}

impl<T> std::fmt::Debug for Recursive<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Recursive")
            .field("depth", &self.depth)
            .field("max_nodes", &self.max_nodes)
            .field("p_branch", &self.p_branch)
            .finish_non_exhaustive()
    }
}

impl<T: 'static> Recursive<T> {
    /// A recursive structure of `leaf` values and branches that `branch` builds from a
    /// generator of smaller structures, with the default bounds: at most
    /// [`DEFAULT_DEPTH`] (6) branches nest, at most [`DEFAULT_MAX_NODES`] (50) branches in a
    /// test case, and a random source takes a branch with probability
    /// [`DEFAULT_P_BRANCH`] (0.4). Change them with [`Recursive::depth`],
    /// [`Recursive::max_nodes`] and [`Recursive::p_branch`]. Same tape, order and bounds as
    /// [`recursive`] with the same numbers.
    ///
    /// A small expression tree:
    ///
    /// ```
    /// use tapefuzz::prelude::*;
    /// use tapefuzz::generators::Recursive;
    ///
    /// #[derive(Clone, Debug)]
    /// enum Expr {
    ///     Num(i64),
    ///     Add(Box<Expr>, Box<Expr>),
    ///     Neg(Box<Expr>),
    /// }
    ///
    /// fn eval(e: &Expr) -> i128 {
    ///     match e {
    ///         Expr::Num(n) => *n as i128,
    ///         Expr::Add(a, b) => eval(a) + eval(b),
    ///         Expr::Neg(a) => -eval(a),
    ///     }
    /// }
    ///
    /// let exprs = Recursive::new(ints::<i64>(-100..=100).map(Expr::Num), |inner| {
    ///     one_of![
    ///         (inner.clone(), inner.clone()).map(|(a, b)| Expr::Add(Box::new(a), Box::new(b))),
    ///         inner.map(|a| Expr::Neg(Box::new(a))),
    ///     ]
    /// })
    /// .depth(4);
    ///
    /// // Negating twice changes nothing.
    /// check(exprs, |e: Expr| {
    ///     let twice = Expr::Neg(Box::new(Expr::Neg(Box::new(e.clone()))));
    ///     eval(&twice) == eval(&e)
    /// });
    /// ```
    pub fn new<B, F>(leaf: impl Gen<Value = T> + 'static, branch: F) -> Recursive<T>
    where
        B: Gen<Value = T> + 'static,
        F: Fn(Boxed<T>) -> B + 'static,
    {
        Recursive::build(
            Parts::new(leaf, branch),
            DEFAULT_DEPTH,
            DEFAULT_MAX_NODES,
            DEFAULT_P_BRANCH,
        )
    }

    /// At most `depth` branches nest (below, every subtree is a leaf); 0 gives leaves only.
    pub fn depth(self, depth: usize) -> Recursive<T> {
        Recursive::build(self.parts, depth, self.max_nodes, self.p_branch)
    }

    /// Once `max_nodes` branches have been built in a test case, every further subtree is a
    /// leaf; 0 gives leaves only.
    pub fn max_nodes(self, max_nodes: usize) -> Recursive<T> {
        Recursive::build(self.parts, self.depth, max_nodes, self.p_branch)
    }

    /// A random source takes a branch with probability `p_branch` (clamped to 0..=1; the
    /// tape and the simplicity order do not depend on it).
    pub fn p_branch(self, p_branch: f64) -> Recursive<T> {
        let p = if p_branch.is_nan() {
            0.0
        } else {
            p_branch.clamp(0.0, 1.0)
        };
        Recursive::build(self.parts, self.depth, self.max_nodes, p)
    }

    /// The layers, from the leaf-only bottom up to `depth` branches.
    fn build(parts: Rc<Parts<T>>, depth: usize, max_nodes: usize, p_branch: f64) -> Recursive<T> {
        let mut current = Boxed::new(Rc::new(Bottom {
            leaf: parts.leaf.clone(),
        }));
        for _ in 0..depth {
            let layer = Layer {
                leaf: parts.leaf.clone(),
                branch: (parts.branch)(current),
                p_branch,
                max_nodes,
            };
            current = Boxed::new(Rc::new(layer));
        }
        Recursive {
            current,
            parts,
            depth,
            max_nodes,
            p_branch,
        }
    }
}

/// A recursive structure: `leaf` values, or branches that `branch` builds from a generator of
/// smaller structures. At most `depth` branches nest, and once `max_nodes` branches have been
/// built in a test case every further subtree is a leaf. A random source takes a branch with
/// probability `p_branch`. [`Recursive::new`] is the same with defaults for the three numbers
/// (and an example).
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
    F: Fn(Boxed<T>) -> B + 'static,
{
    Recursive::build(Parts::new(leaf, branch), depth, max_nodes, p_branch)
}

impl<T> Gen for Recursive<T> {
    type Value = T;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<T, Reject> {
        self.current.generate(tape)
    }

    /// Each subtree a leaf when the leaf generator makes it, else a branch through the
    /// branch generator (whose inner generator reflects the subtrees), within the depth and
    /// node bounds.
    fn reflect(&self, value: &T, out: &mut Reflection) -> Result<(), NoInverse> {
        self.current.reflect(value, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::{ints, value_from_bytes};

    #[derive(Clone, Debug, PartialEq)]
    enum T {
        Leaf(u8),
        Pair(Box<T>, Box<T>),
    }

    fn pair(inner: Boxed<T>) -> impl Gen<Value = T> {
        (inner.clone(), inner).map(|(a, b)| T::Pair(Box::new(a), Box::new(b)))
    }

    fn depth(t: &T) -> usize {
        match t {
            T::Leaf(_) => 0,
            T::Pair(a, b) => 1 + depth(a).max(depth(b)),
        }
    }

    #[test]
    fn builder_is_the_function_with_the_same_numbers() {
        let a = Recursive::new(ints::<u8>(..).map(T::Leaf), pair)
            .depth(3)
            .max_nodes(7)
            .p_branch(0.6);
        let b = recursive(ints::<u8>(..).map(T::Leaf), 3, 7, 0.6, pair);
        let mut x = 1u64;
        for _ in 0..200 {
            let bytes: Vec<u8> = (0..64)
                .map(|_| {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (x >> 56) as u8
                })
                .collect();
            let (va, vb) = (value_from_bytes(&a, &bytes), value_from_bytes(&b, &bytes));
            assert_eq!(va, vb);
            if let Ok(v) = va {
                assert!(depth(&v) <= 3);
            }
        }
    }

    #[test]
    fn defaults_and_depth_zero() {
        let g = Recursive::new(ints::<u8>(..).map(T::Leaf), pair);
        assert_eq!(
            (g.depth, g.max_nodes, g.p_branch),
            (DEFAULT_DEPTH, DEFAULT_MAX_NODES, DEFAULT_P_BRANCH)
        );
        // Every "branch?" coin up: still a leaf at depth 0.
        let leaves = g.depth(0);
        assert_eq!(value_from_bytes(&leaves, &[1, 5]), Ok(T::Leaf(5)));
        assert_eq!(leaves.clone().p_branch(f64::NAN).p_branch, 0.0);
    }
}
