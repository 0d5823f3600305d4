//! The `constrain` strategy: skeleton search and repeated instantiation for constrained
//! generators (paper 001, ProSyT's constrain-and-generate).
//!
//! A [`crate::generators::constrained::constrained`] generator lays a value out on the tape
//! as its skeleton (shape choices; span kind [`crate::tape::Kind::Skeleton`]), one choice
//! ordering the filter's branches, then the instantiated integers (span kind
//! [`crate::tape::Kind::Solution`]). This search reads those kinds:
//!
//! - **Skeleton search**, three lanes side by side. Fresh random tapes (not recorded; a valid
//!   one is recorded on demand). Every 4th exploring test case, the next skeleton of a
//!   **systematic depth-first search** (`enumerate`'s [`crate::search::enumerate::Tree`]:
//!   iterative deepening by size, depth-first within each size bound, every skeleton once,
//!   pruned at rejections; a run is cut at its decisions choice, so instantiations are not
//!   enumerated). Every 8th, a recorded **probe**: when
//!   the generator rejected it early (inside the skeleton, an `assume` on a subtree, say), a
//!   burst of randomised depth-first backtracks follows: keep the choices before a position
//!   below the rejection (the deepest most often), change the one there, draw the rest
//!   afresh; the burst goes on while rejections come deeper, for
//!   [`SkeletonSearch::backtracks`] tries otherwise. A skeleton the filter rejected as a
//!   whole (at the decisions choice) says nothing about which choice to change, so it gets
//!   no burst.
//! - **Instantiation.** A tape that is valid (or fails the property) has feasible
//!   skeletons: the choices of each constrained value's skeleton span (and its decisions
//!   choice) are kept, each replayed in its own value's skeleton, and the next test cases
//!   redraw the rest — every solution, and whatever else the input draws. A property over
//!   two constrained trees keeps both shapes. A visit lasts 16 times as many test cases as the skeleton search spends
//!   per feasible skeleton it finds (a few dozen where most random skeletons are feasible,
//!   up to [`SkeletonSearch::instantiations`], ProSyT's fixed 1,500, where they are rare),
//!   and ends early at the first instantiation that repeats a value the search made before:
//!   a small skeleton has few values, and the bug may need another shape.
//! - **Revisiting.** When the skeleton search has run twice a visit's length without finding
//!   a skeleton, a skeleton found before is visited again (round robin), so a type with few
//!   feasible skeletons still yields valid values at full speed; ProSyT stops there instead.
//! - **Corpus.** Saved valid tapes replayed before the search are skeletons too, and the
//!   search hands its skeletons back for `corpus/` ([`crate::engine::Finish::keep`], as many
//!   as the run keeps): a skeleton that took a minute to find is found once.
//!
//! On a generator that is not constrained (no solution span) it is random search with the
//! same backtracking. Stats: `skeletons` (distinct feasible skeletons found),
//! `instantiations`, `explored` (skeleton-search test cases).
//!
//! ```
//! use tapefuzz::prelude::*;
//! use tapefuzz::generators::constrained::{Constrain, Num, constrained, nums};
//! use tapefuzz::search::constrain::SkeletonSearch;
//!
//! struct Ordered;
//! impl Constrain for Ordered {
//!     type Value<N: Num> = Vec<N>;
//!     fn generator<N: Num>(&self) -> impl Gen<Value = Vec<N>> {
//!         vecs(nums::<N>(-10_000..=10_000), 10..=100)
//!     }
//!     fn valid<N: Num>(&self, l: &Vec<N>) -> bool {
//!         l.windows(2).all(|w| w[0] <= w[1])
//!     }
//! }
//!
//! let report = Property::new("doc::constrain")
//!     .no_corpus()
//!     .strategy(SkeletonSearch::default())
//!     .tests(3_000)
//!     .run(constrained(Ordered), |l: Vec<i64>| l.is_sorted());
//! assert!(report.passed());
//! assert_eq!(report.valid, 3_000);
//! assert!(report.stat("skeletons").unwrap() >= 2);
//! ```

mod held;
mod search;
mod settings;
mod source;

pub use search::ConstrainSearch;
pub use settings::SkeletonSearch;
pub(crate) use settings::{VARS, from_env};
