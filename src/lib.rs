//! tapefuzz: property-based testing and fuzzing over one choice tape.
//!
//! ```toml
//! [dev-dependencies]
//! tapefuzz = { path = "../tapefuzz" }   # a clone of the repository (not on crates.io yet)
//! ```
//!
//! Every generator draws all its decisions from one [`tape::Tape`]. Random generation,
//! byte-mutating fuzzers, shrinking, replay and saved corpora all work on that same tape, so
//! any input found by any strategy is saved as bytes every other strategy can replay. The
//! manual is the guide, an mdBook in the repository's `guide/` folder (`mdbook build guide`
//! writes it to `target/guide/`); this page is the API reference.
//!
//! # Quick start
//!
//! Declare properties with [`property!`] (each becomes a `#[test]`), or call [`check`](serve::check) in a
//! `#[test]` of your own; `use tapefuzz::prelude::*` brings in everything both need:
//!
//! ```
//! use tapefuzz::prelude::*;
//!
//! tapefuzz::property! {
//!     // Arguments are drawn from generators; the body panics, returns a `bool`, or
//!     // returns `Result<(), Fail>` with `ensure!`.
//!     fn reverse_twice_is_identity(v in vecs(ints::<i32>(..), 0..=20)) {
//!         let mut w = v.clone();
//!         w.reverse();
//!         w.reverse();
//!         assert_eq!(v, w);
//!     }
//!     // Several arguments; `assume!` discards a value; `examples(…)` are checked first.
//!     fn division_round_trips(a in ints::<i64>(..), b in ints::<i64>(..)) examples((7, 2)) {
//!         assume!(b != 0 && !(a == i64::MIN && b == -1));
//!         ensure_eq!((a / b) * b + a % b, a);
//!         Ok(())
//!     }
//! }
//! ```
//!
//! Or, without the macro, in a `#[test]` of your own (the property is named after the test):
//!
//! ```
//! use tapefuzz::prelude::*;
//!
//! // `any::<T>()` is the default generator of a type.
//! check(any::<Vec<u8>>(), |v: Vec<u8>| {
//!     let mut sorted = v.clone();
//!     sorted.sort();
//!     sorted.len() == v.len() && sorted.windows(2).all(|w| w[0] <= w[1])
//! });
//! ```
//!
//! `cargo test` runs them: 256 random test cases each (`TAPEFUZZ_TESTS`), every saved
//! failure of `corpora/<name>/` replayed first; a failure is shrunk on the tape, saved as a
//! readable regression file and reported with the command that replays it. The panic points
//! at your `check` call.
//!
//! # Where to read what
//!
//! | you want to… | read |
//! |---|---|
//! | write a property | [`prelude`], [`property!`], [`check`](serve::check), [`assume!`], [`ensure!`] |
//! | configure a run: tests, seconds, seed, corpus folder, explicit examples | [`Property`](property::Property) (and [`engine::Config`] for every knob) |
//! | derive the generator of your own struct or enum | [`Generate`] (`#[derive(Generate)]`, its attributes), [`generators::derived`] (how recursive types are bounded) |
//! | test a system with a state: action sequences against a model, concurrent runs, monkey testing | [`stateful`]: [`StateMachine`](stateful::StateMachine), [`stateful()`](stateful::stateful), [`check_test`](serve::check_test) |
//! | build generators | [`generators`]: [`ints`](generators::ints), [`vecs`](generators::vecs) (sizes: [`SizeRange`](generators::SizeRange)), [`any`](generators::any), [`one_of!`], [`Recursive`](generators::Recursive), [`GenExt`](generators::GenExt)'s `map` / `filter` / `flat_map`; Synthia's pickers ([`markov`](generators::markov), [`grammar`](generators::grammar), [`knit`](generators::knit)…: [`generators::pickers`]) and mutators ([`mutated`](generators::mutated): [`generators::mutators`]) |
//! | steer the search (targeted PBT, RL, greybox) | [`search`]: strategies by name with `TAPEFUZZ_STRATEGY=random\|sa\|rl\|greybox…` ([`search::registry`]); [`target`](property::target) / [`minimize`](property::minimize) for a utility to climb |
//! | every small input, or every combination of options | [`search::enumerate`] (smallest tapes first, "no counterexample of size ≤ n"; constructor patterns), [`search::cover`] (covering arrays over configuration-like inputs), [`covering`] (the arrays themselves) |
//! | keep, replay and share inputs | [`corpus`]: `corpora/<name>/corpus/` (raw tapes, libFuzzer's format) and `regressions/` (text, for `git diff`) |
//! | fuzz with libFuzzer | [`fuzz`] and [`fuzz_target!`] |
//! | see which choices made a value, or a part of it | [`explain`], [`provenance`] (a path such as `.1[0].x`: its spans, choices, bytes and upstream choices; text, DOT, SVG) |
//! | write your own strategy or source | [`engine`] (the `Search` and `Observer` traits), [`tape`] (the `Source` trait), [`conformance`] (the suite they must pass) |
//! | understand shrinking | [`shrink`] |
//! | shrink a failing value you already have (a bug report, an explicit example) | [`Property::shrink_value`](property::Property::shrink_value), [`Gen::reflect`](generators::Gen::reflect), [`map_with`](generators::GenExt::map_with) |
//! | every `TAPEFUZZ_*` variable | [`settings`], [`mod@env`], [`engine::Config`] |
//!
//! From the command line, `cargo tapefuzz` (a cargo subcommand of this workspace: `cargo
//! install --path cargo-tapefuzz`) drives the same properties in any crate: `cargo tapefuzz
//! list | run | replay | explain | shrink | import | fuzz | greybox | ci | merge | cmin`. It runs a
//! property's own `#[test]` with a command in the environment ([`serve`]), so a
//! property written once runs under `cargo test`, campaigns, the greybox engine and
//! libFuzzer with one corpus.
//!
//! # Layers
//!
//! Dependencies point down. A module imports only from its own layer and the layers below
//! it, and no two modules import each other, even through others: `tests/layers.rs` reads
//! every `crate::` path in `src/` and checks both against this list.
//!
//! 6. Entry: [`serve`], [`conformance`] — where a property starts and what it serves.
//! 5. Properties: [`mod@property`], [`fuzz`], [`stateful`] — a generator and a check as one
//!    test, run by the engine, by libFuzzer, or as a state machine.
//! 4. Searches: [`search`], [`settings`] — the strategies, their registry and settings.
//! 3. Engine: [`engine`], [`coverage`] — one run loop over a `Search` and an `Observer`,
//!    and where coverage comes from.
//! 2. Values: [`generators`], [`mutate`], [`shrink`], [`corpus`], [`covering`],
//!    [`explain`], [`provenance`] — what the tape makes, and what is done with tapes.
//! 1. Base: [`tape`], [`mod@env`], [`junit`], [`reporter`], [`allocation`] — the tape
//!    itself, the environment, the JUnit report format, where a run's words for a person go,
//!    and the allocation limit of the instrumented builds.
//!
//! The tape's byte encoding is version [`tape::ENCODING_VERSION`]: see [`tape::encoding`].
#![deny(missing_docs)]

// `#[derive(Generate)]` writes `::tapefuzz::…` paths, also in this crate's own tests.
extern crate self as tapefuzz;

pub mod allocation;
pub mod conformance;
pub mod corpus;
pub mod coverage;
pub mod covering;
pub mod engine;
pub mod env;
pub mod explain;
pub mod fuzz;
pub mod generators;
pub mod junit;
pub mod mutate;
pub mod property;
pub mod provenance;
pub mod reporter;
pub mod search;
pub mod serve;
pub mod settings;
pub mod shrink;
pub mod stateful;
pub mod tape;

/// The generator trait and its derive, also at the crate's root (as `serde::Serialize` and
/// `arbitrary::Arbitrary` are): `#[cfg_attr(test, derive(tapefuzz::Generate))]` on a type
/// of a crate that has tapefuzz only as a dev-dependency. The same item as
/// [`generators::Generate`] and the prelude's.
///
/// ```
/// // In a crate with tapefuzz as a dev-dependency:
/// // `#[cfg_attr(test, derive(tapefuzz::Generate))]`.
/// #[derive(Clone, Debug, tapefuzz::Generate)]
/// struct Dir {
///     size: u8,
///     children: Vec<Dir>,
/// }
/// # use tapefuzz::prelude::*;
/// # let _ = any::<Dir>();
/// ```
pub use generators::Generate;

/// The everyday API, at most 30 names: the generators people reach for and their traits
/// ([`Gen`](generators::Gen), [`GenExt`](generators::GenExt),
/// [`Generate`] and its derive, [`any`](generators::any)),
/// [`check`](serve::check), [`Property`](property::Property) and the
/// [`property!`](crate::property!) macro, [`Fail`](property::Fail),
/// [`target`](engine::target), the stateful entry point
/// ([`StateMachine`](stateful::StateMachine), [`stateful`](stateful::stateful)), and the
/// macros `assume!`, `ensure!`, `ensure_eq!`, `event!`, `one_of!`.
///
/// Everything else is public by its module path: the other generators
/// (`tapefuzz::generators::{btree_maps, hash_sets, string_of, freeze, …}`), the research
/// pickers (`generators::{markov, grammar, knit, tick, scramble, mutated}`), `minimize`
/// (`tapefuzz::property::minimize`), the tape, the engine, strategies and corpora
/// (`tapefuzz::tape::Tape`, `tapefuzz::engine::Config`, `tapefuzz::search::rl::Learn`…).
/// `tests/layers.rs` keeps the count at 30 or fewer.
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
        CharClass, Gen, GenExt, Generate, any, bools, bytes, chars, floats, hash_maps, ints, just,
        one_of, option, recursive, sampled_from, strings, vecs, weighted,
    };
    pub use crate::property::{Fail, Property, target};
    pub use crate::serve::check;
    pub use crate::stateful::{StateMachine, stateful};
    pub use crate::{assume, ensure, ensure_eq, event, one_of, property};
}

#[cfg(all(feature = "libfuzzer", feature = "sancov-callbacks"))]
compile_error!(
    "tapefuzz's `libfuzzer` and `sancov-callbacks` features exclude each other: libFuzzer defines the coverage callbacks itself"
);
