//! Properties: a generator plus a check, run by the engine from `#[test]`s and the CLI.
//!
//! ```
//! use tapefuzz::prelude::*;
//!
//! Property::new("doc_example").no_corpus().tests(200).check(
//!     vecs(ints::<u32>(..), 0..=10),
//!     |v: Vec<u32>| {
//!         let mut sorted = v.clone();
//!         sorted.sort();
//!         ensure!(sorted.len() == v.len());
//!         Ok(())
//!     },
//! );
//! ```

mod assume;
mod examples;
pub mod isolation;
mod memo;
mod outcome;
mod panic;
#[allow(clippy::module_inception)]
mod property;
mod rejected;
mod shrink_value;
mod test;

pub use crate::engine::Report;
pub use crate::engine::{
    Direction, EventValue, IntoEventValue, Utility, clear_utilities, collecting, event,
    event_value, has_utilities, minimize, minimize_labelled, take_utilities, target,
    target_labelled, total_score,
};
pub use assume::Rejection;
pub use memo::{MEMO_LIMIT, ValueMemo};
pub use outcome::{Fail, Outcome, reject};
pub use panic::catch;
pub(crate) use panic::{catch_message, catch_or_reject};
pub use property::{Property, target_dir_name, test_property_name};
pub use shrink_value::ShrinkValueError;
pub(crate) use test::Unremembered;
pub use test::{Explained, PropertyTest, Test, property};
