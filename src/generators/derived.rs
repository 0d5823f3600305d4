//! What `#[derive(Generate)]`'s generators call: the size budget of recursive types and the
//! generators of their recursive `Option` and `Vec` fields. Public for the macro's code, and
//! documented for whoever reads a derived generator's choices.
//!
//! # How a derived value is drawn
//!
//! A derived **struct** draws its fields in declaration order, each in a span
//! [`FIELD`](crate::tape::builtin::FIELD)`.indexed(i)`: the same choices as the tuple of its
//! field generators, mapped. A derived **enum** draws its variant as `one_of` does (one
//! [`ONE_OF`](crate::tape::builtin::ONE_OF) choice, index i = the i-th variant), or as
//! `weighted` does when a variant carries `#[generate(weight = ..)]`, then the variant's
//! fields in a span [`VARIANT`](crate::tape::builtin::VARIANT)`.indexed(i)`. So without
//! attributes that change it, a derived type replays the tapes of the equivalent combinator
//! generator, and its simplicity order is theirs: the first variant, each field simplest.
//!
//! # Recursive types
//!
//! A type is recursive when a field's type mentions `Self` or the type's own name (or is
//! marked `#[generate(recursive)]`, for recursion through other types). Such a type is drawn
//! node by node, bounded by a **size budget**:
//!
//! - at the **root** (a recursive derived value not inside another one) a budget is drawn,
//!   uniform in `0..=size` ([`BUDGET`] label): the most branch nodes the value may have
//!   (`size` is [`MAX_BUDGET`], 24, unless the type says `#[generate(size = ..)]`: see
//!   [`Limits`]);
//! - every **node** is a span [`TREE`](crate::tape::builtin::TREE) that starts with a
//!   "branch?" coin ([`BRANCH`](crate::tape::builtin::BRANCH)). A branch node spends one unit
//!   of the budget and draws its recursive parts: an enum picks among its recursive variants,
//!   a struct draws its recursive fields. A leaf node draws no recursion: an enum picks among
//!   its variants without a recursive field, a struct gives its recursive fields
//!   `Default::default()` (an empty `Vec`, `None`);
//! - a random source takes the branch at the root whenever the budget allows (so only a 0
//!   budget, 1 root in 25, gives a bare leaf), and below it with probability [`P_ENUM`] for
//!   an enum (0.6), or the share of the budget still unspent when that is larger (so a
//!   value's size follows the budget drawn at the root, instead of dying out near a few
//!   nodes when each node has about one recursive child), and [`P_STRUCT`] for a struct (always: its `Option` and `Vec` fields
//!   decide the shape, drawn with [`RecursiveOption`] and [`RecursiveVec`], which favour
//!   children more than `option` and `vecs` do);
//! - once the budget is spent, or `depth` nodes nest ([`MAX_DEPTH`], 16, unless the type says
//!   `#[generate(depth = ..)]`), the coin is still drawn (with
//!   probability 0 for a random source) and a 1 still means a leaf: every subtree starts with
//!   the same choice wherever it sits, as in [`Recursive`](super::Recursive).
//!
//! Measured over 10,000 random values (`tests/derive.rs`): a binary tree `enum Tree { Leaf,
//! Node(Box<Tree>, i64, Box<Tree>) }` is a bare `Leaf` about 4% of the time (`recursive`
//! with one branch probability: 60%), with about 11 `Node`s on average, never more than 24,
//! and a number of nodes close to uniform over `0..=24`; `#[generate(size = 200)]` on it
//! gives 96 on average.
//!
//! The budget lives in a thread-local frame set up at the root and restored when the root
//! returns (or unwinds): it is a function of the choices drawn so far, so a tape replays to
//! the same value. **Running out** (every choice 0): a 0 budget, so the root is a leaf: the
//! first leaf variant with simplest fields, or the struct with empty recursive fields.
//! Shrinking lowers the budget and the coins, so failures shrink towards small trees.
//!
//! # Reflecting a derived value
//!
//! A derived generator reflects ([`Gen::reflect`]) every value it can make: a struct its
//! fields in order, an enum its variant's index (the first of its block, with weights) and
//! fields; a field that is not drawn (`skip`, `default = ..`) is not checked. A recursive
//! value is reflected node by node ([`reflect_node`]): a node is a leaf (coin 0) when it
//! can be — an enum's variant without a recursive field, a struct whose recursive fields
//! make the same choices as their `Default::default()` — and a branch otherwise; the root's
//! budget is then **the number of branch nodes**, the smallest budget that replays the
//! value. A value with more than `size` branch nodes, or with a branch nested `depth` nodes
//! deep, cannot be made: an error.

use super::{Gen, NoInverse, Reflection, ReflectionMark, SizeRange};
use crate::tape::{Hint, Label, Reject, Tape};
use std::cell::Cell;

/// The budget choice at the root of a recursive derived value.
pub const BUDGET: Label = crate::tape::builtin::DERIVE_BUDGET;
const BRANCH: Label = crate::tape::builtin::BRANCH;
const TREE: Label = crate::tape::builtin::TREE;
const ELEMENT: Label = crate::tape::builtin::ELEMENT;
const MORE: Label = crate::tape::builtin::MORE;
const SOME: Label = crate::tape::builtin::SOME;
const OPTION_VALUE: Label = crate::tape::builtin::OPTION_VALUE;

/// The largest budget by default: at most this many branch nodes in one recursive value
/// (`#[generate(size = ..)]` on the type changes it).
pub const MAX_BUDGET: u64 = 24;
/// By default at most this many nodes nest (below, every node is a leaf): no stack overflow
/// (`#[generate(depth = ..)]` on the type changes it).
pub const MAX_DEPTH: u32 = 16;

/// The bounds of one recursive derived type: what `#[generate(size = .., depth = ..)]` on the
/// type sets, [`Limits::DEFAULT`] without them.
///
/// A value of a recursive type nested inside another one (a field of a different recursive
/// derived type) shares the outer root's budget: the outer type's `size` is spent by both,
/// and each node checks its own type's `depth` against the nesting counted from the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The largest budget: the root draws its budget uniformly in `0..=size`, and a value has
    /// at most `size` branch nodes. 0 makes every value a leaf.
    pub size: u64,
    /// At most this many branch nodes nest: a node this deep is a leaf. The root is at depth
    /// 0, so 0 makes every value a leaf and 1 a root whose children are leaves. Deep limits
    /// are the user's to choose: each level is a stack frame of the generator and of the
    /// property's own recursion.
    pub depth: u32,
}

impl Limits {
    /// [`MAX_BUDGET`] branch nodes, [`MAX_DEPTH`] levels.
    pub const DEFAULT: Limits = Limits {
        size: MAX_BUDGET,
        depth: MAX_DEPTH,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}
/// A random source's probability of a branch below the root of a recursive enum.
pub const P_ENUM: f64 = 0.6;
/// ... of a recursive struct (its recursive `Option` / `Vec` fields decide the shape).
pub const P_STRUCT: f64 = 1.0;
/// A random source's probability of `Some` for a recursive `Option` field.
pub const P_SOME: f64 = 0.75;
/// A random source's probability of a first element of a recursive `Vec` field,
pub const P_FIRST: f64 = 0.9;
/// and of each further one.
pub const P_MORE: f64 = 0.5;
/// Most elements of a recursive `Vec` field (as `any::<Vec<T>>()`).
pub const MAX_ELEMENTS: usize = 100;

#[derive(Clone, Copy)]
struct Frame {
    active: bool,
    remaining: u32,
    /// The root's budget.
    budget: u32,
    depth: u32,
}

const IDLE: Frame = Frame {
    active: false,
    remaining: 0,
    budget: 0,
    depth: 0,
};

thread_local! {
    static FRAME: Cell<Frame> = const { Cell::new(IDLE) };
}

/// The open recursive value's frame (none: all zero), which the draws of a derived value
/// nested in it depend on: the constrained generator replays a logged skeleton only in the
/// frame it was logged in.
pub(crate) fn frame_state() -> (bool, u32, u32, u32) {
    let f = FRAME.with(Cell::get);
    (f.active, f.remaining, f.budget, f.depth)
}

/// Restores the frame when a node returns or unwinds: the one before the root at the root,
/// else the depth of the node's parent (keeping what the subtree spent).
struct Restore {
    root: bool,
    depth: u32,
}

impl Drop for Restore {
    fn drop(&mut self) {
        FRAME.with(|f| {
            if self.root {
                f.set(IDLE);
            } else {
                let mut now = f.get();
                now.depth = self.depth;
                f.set(now);
            }
        });
    }
}

/// Draws one node of a recursive derived value (see the [module docs](self)) bounded by
/// `limits`: the budget (uniform in `0..=limits.size`) if this is the root, then, in a `TREE`
/// span, the "branch?" coin a random source takes with probability `p_inner` below the root
/// (1 at the root), then `body(tape, branch)`. A node `limits.depth` deep, or one past the
/// budget, is a leaf.
#[inline]
pub fn node<T>(
    tape: &mut Tape<'_>,
    p_inner: f64,
    limits: Limits,
    body: impl FnOnce(&mut Tape<'_>, bool) -> Result<T, Reject>,
) -> Result<T, Reject> {
    let frame = FRAME.with(Cell::get);
    let (root, mut frame) = if frame.active {
        (false, frame)
    } else {
        let budget = tape.draw(BUDGET, limits.size, Hint::Uniform)?;
        let frame = Frame {
            active: true,
            remaining: budget as u32,
            budget: budget as u32,
            depth: 0,
        };
        (true, frame)
    };
    let restore = Restore {
        root,
        depth: frame.depth,
    };
    let r = tape.span(TREE, |tape| {
        let open = frame.remaining > 0 && frame.depth < limits.depth;
        let p = match (open, frame.depth) {
            (false, _) => 0.0,
            (true, 0) => 1.0,
            (true, _) if p_inner >= 1.0 => 1.0,
            // Spend what is left: the sizes follow the budget drawn at the root.
            (true, _) => p_inner.max(frame.remaining as f64 / frame.budget as f64),
        };
        let branch = tape.draw_bool(BRANCH, p)? && open;
        if branch {
            tape.count_node();
            frame.remaining -= 1;
        }
        frame.depth += 1;
        FRAME.with(|f| f.set(frame));
        body(tape, branch)
    });
    drop(restore);
    r
}

/// The size budget of a recursive derived value being reflected: what [`node`]'s frame
/// is while generating, counted the other way (branches spent so far, not left).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ReflectFrame {
    /// A root is open.
    active: bool,
    /// Branch nodes reflected since the root opened.
    branches: u32,
    /// Nodes enclosing the one being reflected.
    depth: u32,
}

impl ReflectFrame {
    /// Forgets the branches counted between two states of the frame (`from` before `to`).
    pub(crate) fn uncount(&mut self, to: ReflectFrame, from: ReflectFrame) {
        self.branches -= to.branches.saturating_sub(from.branches);
    }
}

/// [`node`] run backwards: reflects one node of a recursive derived value of type `name`
/// (for errors) that is a branch when `branch` says so, its parts recorded by `body`. At a
/// root, the budget comes first: it is set, once the whole value is reflected, to the number
/// of branch nodes (the smallest budget that replays the value), and an error names `name`
/// when that is more than `limits.size`. A branch nested `limits.depth` nodes deep is an
/// error too: `node` makes a leaf there.
pub fn reflect_node(
    out: &mut Reflection,
    name: &str,
    limits: Limits,
    branch: bool,
    body: impl FnOnce(&mut Reflection) -> Result<(), NoInverse>,
) -> Result<(), NoInverse> {
    let outer = out.frame;
    let budget_at = if outer.active {
        None
    } else {
        out.frame = ReflectFrame {
            active: true,
            branches: 0,
            depth: 0,
        };
        let at = out.len();
        out.draw(limits.size, 0);
        Some(at)
    };
    let depth = out.frame.depth;
    if branch && depth >= limits.depth {
        out.frame = outer;
        return Err(too_deep(name, depth, limits));
    }
    out.draw_bool(branch);
    if branch {
        out.count_node();
        out.frame.branches += 1;
    }
    out.frame.depth = depth + 1;
    let r = body(out);
    let branches = out.frame.branches;
    match budget_at {
        Some(at) => {
            out.frame = outer;
            r?;
            if u64::from(branches) > limits.size {
                let size = limits.size;
                return Err(NoInverse::new(
                    name,
                    format!(
                        "{branches} branch nodes: a value of this type has at most {size} \
                         (`#[generate(size = ..)]`, default {MAX_BUDGET})"
                    ),
                ));
            }
            out.set(at, u64::from(branches));
            Ok(())
        }
        None => {
            out.frame.depth = depth;
            r
        }
    }
}

/// The error of a branch nested `depth` nodes deep, where `limits` makes a leaf.
fn too_deep(name: &str, depth: u32, limits: Limits) -> NoInverse {
    let max = limits.depth;
    NoInverse::new(
        name,
        format!(
            "a branch nested {depth} nodes deep: values of this type nest at most {max} \
             (`#[generate(depth = ..)]`, default {MAX_DEPTH})"
        ),
    )
}

/// [`reflect_node`] for a recursive struct, whose node is a leaf when its recursive fields
/// hold their `Default::default()` (a leaf node does not draw them). `body` reflects the
/// fields in order: the others with [`Gen::reflect`], the recursive ones with
/// [`StructNode::field`], which tells whether each holds its default by comparing choices
/// (no `PartialEq` needed). The node is reflected as a branch, then turned into a leaf (the
/// recursive fields' choices dropped) when every recursive field holds its default; nested
/// `limits.depth` nodes deep, where no branch is made, it must be a leaf.
pub fn reflect_struct_node(
    out: &mut Reflection,
    name: &str,
    limits: Limits,
    body: impl FnOnce(&mut Reflection, &mut StructNode<'_>) -> Result<(), NoInverse>,
) -> Result<(), NoInverse> {
    let depth = if out.frame.active { out.frame.depth } else { 0 };
    let deep = depth >= limits.depth;
    let mut node = StructNode {
        name,
        limits,
        depth,
        leaf: deep,
        defaults: true,
        drawn: Vec::new(),
    };
    reflect_node(out, name, limits, !deep, |out| {
        let coin = out.len() - 1;
        body(out, &mut node)?;
        if !deep && node.defaults {
            // A leaf: the coin 0, no recursive field drawn, one branch less.
            for &(from, to) in node.drawn.iter().rev() {
                out.cut(from, to);
            }
            out.set(coin, 0);
            out.uncount_node();
            out.frame.branches -= 1;
        }
        Ok(())
    })
}

/// The recursive fields of a struct node being reflected ([`reflect_struct_node`]).
pub struct StructNode<'n> {
    name: &'n str,
    /// The type's bounds and this node's depth (for the error of a branch too deep).
    limits: Limits,
    depth: u32,
    /// The node must be a leaf (too deep for a branch).
    leaf: bool,
    /// Every recursive field so far holds its default.
    defaults: bool,
    /// Where each recursive field's choices are.
    drawn: Vec<(ReflectionMark, ReflectionMark)>,
}

impl StructNode<'_> {
    /// Reflects the recursive field `value` through `generator` (as a branch draws it),
    /// noting whether it holds `default` (the same choices). In a node that must be a leaf
    /// nothing is drawn, and a value other than its default is an error.
    pub fn field<G: Gen + ?Sized>(
        &mut self,
        out: &mut Reflection,
        generator: &G,
        value: &G::Value,
        default: &G::Value,
    ) -> Result<(), NoInverse> {
        if self.leaf {
            if same_choices(generator, value, default, out) {
                return Ok(());
            }
            return Err(too_deep(self.name, self.depth, self.limits));
        }
        let from = out.mark();
        generator.reflect(value, out)?;
        let to = out.mark();
        // The default's choices here, compared, then forgotten.
        let same =
            generator.reflect(default, out).is_ok() && out.since(to) == out.between(from, to);
        out.rewind(to);
        if same {
            self.drawn.push((from, to));
        } else {
            self.defaults = false;
        }
        Ok(())
    }
}

/// Whether `a` and `b` make the same choices through `generator` (so, replayed, the same
/// value): how a derived recursive struct tells that its recursive fields hold their
/// `Default::default()` (then the node can be a leaf) without asking for `PartialEq`.
/// `false` when either cannot be reflected. `out` is left as it was.
pub fn same_choices<G: Gen + ?Sized>(
    generator: &G,
    a: &G::Value,
    b: &G::Value,
    out: &mut Reflection,
) -> bool {
    let start = out.mark();
    let first = generator
        .reflect(a, out)
        .ok()
        .map(|()| out.since(start).to_vec());
    out.rewind(start);
    let same = first.is_some_and(|first| {
        generator.reflect(b, out).is_ok() && out.since(start) == first.as_slice()
    });
    out.rewind(start);
    same
}

/// `any::<Box<T>>()` for a recursive field: the same choices, boxed without the function
/// pointer `map` calls through.
#[derive(Clone, Debug)]
pub struct Boxing<G>(G);

impl<G> Boxing<G> {
    /// Wraps the generator of the boxed value.
    pub fn new(inner: G) -> Self {
        Boxing(inner)
    }
}

impl<G: Gen> Gen for Boxing<G> {
    type Value = Box<G::Value>;
    #[inline]
    fn generate(&self, tape: &mut Tape<'_>) -> Result<Box<G::Value>, Reject> {
        self.0.generate(tape).map(Box::new)
    }

    fn reflect(&self, value: &Box<G::Value>, out: &mut Reflection) -> Result<(), NoInverse> {
        self.0.reflect(value, out)
    }
}

/// `option(inner)` for a recursive field: the same choices, but a random source takes
/// `Some` with probability [`P_SOME`] (`option`: 0.5), so that trees of optional children
/// rarely stop at the root. Simplest: `None`.
#[derive(Clone, Debug)]
pub struct RecursiveOption<G>(G);

impl<G> RecursiveOption<G> {
    /// Wraps the generator of the `Some` value.
    pub fn new(inner: G) -> Self {
        RecursiveOption(inner)
    }
}

impl<G: Gen> Gen for RecursiveOption<G> {
    type Value = Option<G::Value>;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<Option<G::Value>, Reject> {
        if tape.draw_bool(SOME, P_SOME)? {
            tape.span(OPTION_VALUE, |t| self.0.generate(t)).map(Some)
        } else {
            Ok(None)
        }
    }

    fn reflect(&self, value: &Option<G::Value>, out: &mut Reflection) -> Result<(), NoInverse> {
        out.draw_bool(value.is_some());
        match value {
            Some(v) => self.0.reflect(v, out).map_err(|e| e.at(".0")),
            None => Ok(()),
        }
    }
}

/// `vecs(inner, 0..=100)` for a recursive field: the same choices (a "one more?" coin before
/// each element, in an `element` span), but a random source takes the first coin with
/// probability [`P_FIRST`] and the others with [`P_MORE`] (1.8 children on average), so
/// that a node rarely has none while the budget lasts. Simplest: empty.
#[derive(Clone, Debug)]
pub struct RecursiveVec<G>(G);

impl<G> RecursiveVec<G> {
    /// Wraps the element generator.
    pub fn new(element: G) -> Self {
        RecursiveVec(element)
    }
}

impl<G: Gen> Gen for RecursiveVec<G> {
    type Value = Vec<G::Value>;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<Vec<G::Value>, Reject> {
        let mut out = Vec::new();
        loop {
            let depth = tape.depth();
            tape.start_span(ELEMENT);
            let more = if out.len() >= MAX_ELEMENTS {
                tape.force_bool(MORE, false)
            } else {
                let p = if out.is_empty() { P_FIRST } else { P_MORE };
                tape.draw_bool(MORE, p)
            };
            let step = match more {
                Ok(true) => self.0.generate(tape).map(|v| out.push(v)),
                Ok(false) => {
                    tape.close_to(depth);
                    return Ok(out);
                }
                Err(e) => Err(e),
            };
            tape.close_to(depth);
            step?;
        }
    }

    /// As `vecs(inner, 0..=100)` reflects: a "one more?" coin before each element, the last
    /// one not drawn at 100 elements.
    fn reflect(&self, value: &Vec<G::Value>, out: &mut Reflection) -> Result<(), NoInverse> {
        SizeRange::new(0, MAX_ELEMENTS)
            .reflect::<Self, _>(value.iter(), out, |v, out| self.0.reflect(v, out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::{Generate, ints, value_from_bytes, vecs};

    #[test]
    fn recursive_vec_draws_as_vecs() {
        // Not `u8`: a vector of every `u8` is a payload run, and a recursive field is never
        // one.
        let a = RecursiveVec::new(ints::<u16>(..));
        let b = vecs(ints::<u16>(..), 0..=100);
        let mut x = 7u64;
        for _ in 0..300 {
            let bytes: Vec<u8> = (0..40)
                .map(|_| {
                    x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
                    (x >> 56) as u8
                })
                .collect();
            assert_eq!(value_from_bytes(&a, &bytes), value_from_bytes(&b, &bytes));
        }
    }

    #[test]
    fn recursive_option_draws_as_option() {
        let a = RecursiveOption::new(ints::<u8>(..));
        let b = <Option<u8> as Generate>::generator();
        for bytes in [&[][..], &[0], &[1, 7], &[3, 200], &[2]] {
            assert_eq!(value_from_bytes(&a, bytes), value_from_bytes(&b, bytes));
        }
    }

    /// The derive works inside this crate too (`extern crate self as tapefuzz`).
    #[derive(Generate, Debug, PartialEq)]
    enum Chain {
        End,
        Link(u8, Box<Chain>),
    }

    #[test]
    fn derived_inside_the_crate() {
        assert_eq!(
            value_from_bytes(&crate::generators::any::<Chain>(), &[]),
            Ok(Chain::End)
        );
        // Budget 2; the root branches (a one-variant pick reads no byte), 7; the child
        // branches, 9; its child's coin is 1 too, but the budget is spent: a leaf.
        let bytes = [2, 1, 7, 1, 9, 1];
        assert_eq!(
            value_from_bytes(&crate::generators::any::<Chain>(), &bytes),
            Ok(Chain::Link(
                7,
                Box::new(Chain::Link(9, Box::new(Chain::End)))
            ))
        );
    }

    #[test]
    fn the_frame_is_idle_after_a_rejection() {
        let mut src = crate::tape::BytesSource::new(&[5, 1]);
        let mut tape = Tape::new(&mut src, false).with_max_choices(2);
        let r = node(&mut tape, P_ENUM, Limits::DEFAULT, |tape, _| {
            node(tape, P_ENUM, Limits::DEFAULT, |tape, _| {
                tape.draw(BUDGET, 1, Hint::Uniform)
            })
        });
        assert_eq!(r, Err(Reject::Overrun));
        assert!(!FRAME.with(Cell::get).active);
    }
}
