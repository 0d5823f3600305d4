//! tapefuzz: property-based testing and fuzzing over one choice tape.
//!
//! Every generator draws all its decisions from one [`tape::Tape`]. Random generation,
//! byte-mutating fuzzers, shrinking, replay and saved corpora all work on that same tape, so
//! any input found by any strategy is saved as bytes every other strategy can replay.
//!
//! Layers (dependencies point down): [`mod@property`] and [`fuzz`] → [`search`] (the
//! strategies and their registry) and [`coverage`] → [`engine`] (one run loop over a
//! `Search` and an `Observer`) → [`shrink`] and [`corpus`] → [`generators`] and [`mutate`]
//! → [`tape`]. [`mod@env`] and [`settings`] read the environment, in one place.
//!
//! The tape's byte encoding is version [`tape::ENCODING_VERSION`]: see [`tape::encoding`].
#![deny(missing_docs)]

pub mod conformance;
pub mod corpus;
pub mod coverage;
pub mod engine;
pub mod env;
pub mod explain;
pub mod fuzz;
pub mod generators;
pub mod mutate;
pub mod property;
pub mod search;
pub mod settings;
pub mod shrink;
pub mod summary;
pub mod tape;

/// What a property test needs, and little else: the generator constructors and the
/// generator traits, [`check`](property::check), [`Property`](property::Property) and the
/// [`property!`](crate::property!) macro, [`target`](engine::target) /
/// [`minimize`](engine::minimize), and the macros `assume!`, `ensure!`, `ensure_eq!`,
/// `one_of!`. Everything else (the tape, the engine, strategies, corpora) is reachable by
/// path: `tapefuzz::tape::Tape`, `tapefuzz::engine::Config`, `tapefuzz::search::rl::Learn`…
///
/// ```
/// use tapefuzz::prelude::*;
///
/// Property::new("prelude_doc").no_corpus().tests(50).check(
///     (vecs(ints::<u8>(..), 0..=5), option(bools())),
///     |(v, b): (Vec<u8>, Option<bool>)| {
///         assume!(b != Some(true));
///         target(v.len() as f64);
///         ensure!(v.len() <= 5, "too long: {v:?}");
///         Ok(())
///     },
/// );
/// ```
pub mod prelude {
    pub use crate::generators::{
        CharClass, Gen, GenExt, Generate, Recursive, SizeRange, Step, any, bools, btree_maps,
        btree_sets, bytes, chars, floats, from_arbitrary, hash_maps, hash_sets, ints, just, one_of,
        option, recursive, sampled_from, string_of, strings, vec_deques, vecs, weighted,
        weighted_bools,
    };
    pub use crate::property::{Fail, Property, check, minimize, target};
    pub use crate::{assume, ensure, ensure_eq, one_of, property};
}
