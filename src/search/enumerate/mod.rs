//! The `enumerate` strategy: bounded-exhaustive search over the choice tree, smallest tapes
//! first, and its `patterns` variant, which reprioritises enumeration by constructor
//! patterns (paper 003, LazySearch and Radix Coverage for algebraic data).
//!
//! **Enumeration.** Every tape is a path in the tree of choices, and its **size** is the sum
//! of its indices (index 0 is the simplest option of every choice, so the all-zero tape is
//! the simplest value; see [`Tree`]). The search runs every tape of size 0, then of size 1,
//! and so on (iterative deepening), each exactly once, in lexicographic order within a size.
//! Each run is added to a [`Tree`]; a test case that a filter or `assume!` rejected ends its
//! path at the choice where it was rejected, so every tape sharing that prefix is pruned at
//! once (LazySearch's idea on the tape: a generator that rejects as soon as it can, an
//! application whose function is not an arrow, say, prunes everything below it). When
//! every tape up to [`Enumerate::max_size`] has run, the search is exhausted and the run
//! says "no counterexample of size ≤ n exists"; when the whole space is finite and ran, it
//! says so too.
//!
//! Because sizes grow one at a time, the first counterexample found has the smallest size
//! of all counterexamples (it is then shrunk as usual).
//!
//! **Constructor patterns** (`patterns`, or [`Enumerate::patterns`] set). A pattern fixes
//! the constructors of the first descent of a tape: the first choice of kind
//! [`crate::tape::Kind::Union`] (a `one_of` variant: the root's constructor), then the next
//! one drawn deeper in the spans (its first child's constructor), and so on for `fineness`
//! levels; a constructor with no children ends the descent and the rest of the pattern does
//! not apply. A `strength`-way covering array over the `fineness` positions gives the
//! patterns; each gets its own enumeration (or random tapes with the pattern forced,
//! [`PatternConfig::random`]), run for a time budget before the next pattern (round robin,
//! resuming where it stopped). Several configurations run side by side; the
//! default is the paper's portfolio ([`PatternConfig::portfolio`]). This keeps enumeration
//! from spending its whole budget on one homogeneous corner of the space (many identity
//! functions applied to things) before visiting others.
//!
//! A tape runs once per enumeration; different patterns can reach the same tape (two
//! patterns that differ only after a constructor without children).
//!
//! ```
//! use tapefuzz::prelude::*;
//! use tapefuzz::search::enumerate::Enumerate;
//!
//! // Every pair of small numbers up to size 6, smallest first: the run is exhausted and
//! // proves that no counterexample of size ≤ 6 exists.
//! let report = Property::new("doc::sums")
//!     .strategy(Enumerate { max_size: Some(6), ..Enumerate::default() })
//!     .tests(1_000)
//!     .run((ints::<u8>(0..=3), ints::<u8>(0..=3)), |(a, b): (u8, u8)| a + b <= 6);
//! assert!(report.passed());
//! assert!(report.exhausted);
//! assert_eq!(report.stat("exhausted_size"), Some(6));
//! ```

mod patterns;
mod search;
mod settings;
mod source;
mod tree;

pub use patterns::pattern_rows;
pub use search::EnumerateSearch;
pub use settings::{Enumerate, PatternConfig};
pub(crate) use settings::{VARS, from_env, patterns_from_env};
pub use source::PrefixSource;
pub use tree::{Branch, Next, Tree};
