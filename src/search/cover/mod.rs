//! The `cover` strategy: combinatorial testing on the tape (paper 003 §2 and §4).
//!
//! Many properties take configuration-like inputs first: a few booleans, enumerations and
//! bounded integers, each drawn once. `cover` finds them — the leading choices that every
//! one of a few random test cases draws alike, at the same choice point with the same range
//! ([`Cover::probes`]) — and treats each as a **parameter**. It then runs the rows of a
//! `t`-way **covering array** over them ([`crate::covering`]): every combination of values
//! of any `t` parameters appears in some test case, in far fewer test cases than all
//! combinations. Each row forces the leading choices; the rest of the tape is random. While
//! the arrays run, every other test case is plain random ([`Cover::alternate`]), so a bug
//! that random testing finds at once is found about as soon.
//!
//! **Radix Coverage.** A parameter with many options (an integer in 0..=1000) would make
//! the array huge. It is split into digits of the smallest base that needs at most 6 of
//! them (1001 values: 5 digits of base 4), the digits of one number fully interact (a
//! sub-relation of strength = its number of digits, so every value of the range appears),
//! `t`-way interactions hold between all digits, and a constraint keeps each number within
//! its range.
//!
//! Strength grows from [`Cover::strength`] to [`Cover::max_strength`], one array after the
//! other; when they have run (or the next one is too large to build,
//! [`Cover::max_tuples`]), the search goes on at random. The end of the run says how many
//! parameters and rows ran.
//!
//! ```
//! use tapefuzz::prelude::*;
//! use tapefuzz::search::cover::Cover;
//!
//! // Three flags and a level in 0..=1000: a bug needs two of them at once.
//! let report = Property::new("doc::flags")
//!     .strategy(Cover::default())
//!     .tests(5_000)
//!     .run(
//!         (bools(), bools(), bools(), ints::<u16>(0..=1000)),
//!         |(a, b, c, level): (bool, bool, bool, u16)| !(a && !c && level == 777),
//!     );
//! assert!(!report.passed());
//! ```

mod parameters;
mod plan;
mod search;
mod settings;

pub use parameters::{Parameter, leading};
pub use plan::Plan;
pub use search::CoverSearch;
pub use settings::Cover;
pub(crate) use settings::{VARS, from_env};
