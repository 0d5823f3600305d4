//! The ten programs of ProSyT's evaluation (paper 001, §7, Table 1), each with its validity
//! filter written once as a plain function over `N: Num`, a property over the program, and
//! a planted bug that only valid inputs reach. Integers are in [−10000, 10000]; the size of
//! every valid input (elements or nodes) is in 10..=100, as in the paper.
//!
//! Each target's generator is `constrained(spec)` (the filter solved symbolically);
//! [`Mode::Filtered`] gives generate-and-filter over the same generator and filter, the
//! baseline the benchmark compares with.

pub mod lists;
pub mod matrices;
pub mod trees;

use tapefuzz::generators::constrained::{Constrain, constrained, filtered};
use tapefuzz::prelude::*;
use tapefuzz::property::{Test, property};

/// The integers of every program.
pub const LO: i64 = -10_000;
/// The integers of every program.
pub const HI: i64 = 10_000;

/// Whether a size is in the paper's interval.
pub fn sized(n: usize) -> bool {
    (10..=100).contains(&n)
}

/// How a program's inputs are generated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `constrained(spec)`: the filter solved symbolically (the targets' generator).
    Constrained,
    /// `filtered(spec)`: generate-and-filter over the same generator and filter.
    Filtered,
}

/// A property over a [`Constrain`] type's values in `mode`.
pub fn test_in<C, F>(spec: C, mode: Mode, check: F) -> Box<dyn Test>
where
    C: Constrain + 'static,
    C::Value<i64>: std::fmt::Debug + Clone + 'static,
    F: Fn(C::Value<i64>) -> Result<(), Fail> + 'static,
{
    match mode {
        Mode::Constrained => Box::new(property(constrained(spec), check)),
        Mode::Filtered => Box::new(property(filtered(spec), check)),
    }
}

/// The programs: name, one line, planted bugs, and the test in a mode with a bug.
pub struct Program {
    /// The target's name.
    pub name: &'static str,
    /// What the input is.
    pub description: &'static str,
    /// The planted bugs.
    pub bugs: &'static [(&'static str, &'static str)],
    /// The test in a mode, with a bug planted or not.
    pub test: fn(Mode, Option<&str>) -> Box<dyn Test>,
}

/// The ten programs, in the paper's order.
pub fn programs() -> Vec<Program> {
    vec![
        lists::ORD_INSERT,
        lists::UP_DOWN_SEQ,
        lists::N_UP_SEQS,
        lists::DELETE,
        lists::STACK,
        matrices::MATRIX_MULT,
        matrices::DET_TRI_MATRIX,
        trees::BALANCED_TREE,
        trees::BINOMIAL_TREE_HEAP,
        trees::AVL_INSERT,
    ]
}

/// The program called `name`.
pub fn program(name: &str) -> Option<Program> {
    programs().into_iter().find(|p| p.name == name)
}

macro_rules! target_tests {
    ($($name:ident => $program:path),* $(,)?) => {
        /// The targets' tests: each program in [`Mode::Constrained`].
        pub mod target {
            use super::*;
            $(
                /// The target's test.
                pub fn $name(bug: Option<&str>) -> Box<dyn Test> {
                    ($program.test)(Mode::Constrained, bug)
                }
            )*
        }
    };
}

target_tests! {
    ord_insert => lists::ORD_INSERT,
    up_down_seq => lists::UP_DOWN_SEQ,
    n_up_seqs => lists::N_UP_SEQS,
    delete => lists::DELETE,
    stack => lists::STACK,
    matrix_mult => matrices::MATRIX_MULT,
    det_tri_matrix => matrices::DET_TRI_MATRIX,
    balanced_tree => trees::BALANCED_TREE,
    binomial_tree_heap => trees::BINOMIAL_TREE_HEAP,
    avl_insert => trees::AVL_INSERT,
}
