//! The `constrain` strategy: skeleton search and repeated instantiation for constrained
//! generators (paper 001, ProSyT's constrain-and-generate).
//!
//! A [`crate::generators::constrained::constrained`] generator lays a value out on the tape
//! as its skeleton (shape choices; span kind [`crate::tape::Kind::Skeleton`]), one choice
//! ordering the filter's branches, then the instantiated integers (span kind
//! [`crate::tape::Kind::Solution`]). This search reads those kinds:
//!
//! - **Skeleton search.** Random tapes, searched depth-first at random: a tape rejected at
//!   choice `p` (a skeleton no path of the filter accepts is rejected at its decisions
//!   choice; a generator that rejects early, earlier) keeps its choices before a position
//!   below `p` — the deepest most often — changes the one there and draws the rest afresh;
//!   after [`SkeletonSearch::backtracks`] failures in a row it starts from a new random tape.
//! - **Instantiation.** A tape that is valid (or fails the property) has a feasible
//!   skeleton: its choices up to the solution span are kept and the next
//!   [`SkeletonSearch::instantiations`] test cases redraw only the rest (ProSyT instantiates
//!   each skeleton up to 1,500 times).
//! - **Revisiting.** When the skeleton search has failed as many times in a row as one
//!   skeleton is instantiated, a skeleton found before is instantiated again (round robin),
//!   so a type with few feasible skeletons still yields valid values at full speed; ProSyT
//!   stops there instead.
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
//! assert_eq!(report.run.valid, 3_000);
//! assert!(report.run.stat("skeletons").unwrap() >= 2);
//! ```

mod search;
mod settings;
mod source;

pub use search::ConstrainSearch;
pub use settings::SkeletonSearch;
pub(crate) use settings::{VARS, from_env};
