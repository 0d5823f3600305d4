//! Generators: values built from choices drawn on a [`Tape`](crate::tape::Tape).
//!
//! Every generator documents its **simplicity order** (which value index 0 gives, and what a
//! lower index means) and what it does when the tape **runs out** (a bytes source past its end
//! or a replay source past its prefix answers index 0 to every draw): since index 0 is always
//! the simplest option and every collection stops at a 0 "one more?" choice, a tape that runs
//! out always finishes with the simplest completion of the value. Past the tape's size budget
//! a draw fails with [`Reject::Overrun`](crate::tape::Reject).
//!
//! Generators are small, object-safe [`Gen`]s; conveniences (`map`, `filter`, `boxed`…) are
//! on [`GenExt`].
//!
//! # Running a generator backwards
//!
//! [`Gen::reflect`] finds the choices that make a given value (a [`Reflection`]), so a value
//! you already have — from a bug report, an explicit example — can be replayed and shrunk
//! ([`Property::shrink_value`](crate::property::Property::shrink_value)). It is implemented
//! by integers, floats, bools, chars, strings, `vecs` / `bytes`, `vec_deques`, the sets,
//! tuples, arrays, `option`, `results`, `one_of` / `one_of!` and `weighted` (the first
//! variant that makes the value), `filter` (when the filter keeps the value), `labelled`,
//! `boxed`, `Recursive`, [`GenExt::map_with`] (through its inverse), `with_neighbour`,
//! `any::<T>()` of the built-in types but maps, and `#[derive(Generate)]` types (see
//! [`derived`]); `just` only for zero-sized types. Anything else fails with a [`NoInverse`]
//! that names the generator: `map` (use `map_with`), `flat_map`, the maps, `sampled_from`
//! (no `PartialEq` to find the value), `from_arbitrary`, the pickers, mutators and
//! constrained generators.
//!
//! Synthia's pickers (Markov chains, grammars, knit, tick, playback, freeze, scramble,
//! bounded pickers, enumerate) are generators too, in [`pickers`]; its mutators, which turn
//! valid values into near-invalid ones on the tape, are in [`mutators`].

mod arbitrary;
mod arrays;
mod bools;
mod boxed;
mod chars;
mod collections;
pub mod constrained;
pub mod derived;
mod filter;
mod flat_map;
mod float_order;
mod floats;
mod generate;
mod generator;
mod ints;
mod just;
mod labelled;
mod map;
mod map_with;
pub mod mutators;
mod no_inverse;
mod one_of;
mod option;
pub mod pickers;
mod pointers;
mod recursive;
mod reflect;
mod results;
mod sampled_from;
mod size;
mod strings;
mod tuple;
mod union;
mod weighted;
mod with_neighbour;

pub use arbitrary::{FromArbitrary, from_arbitrary};
pub use arrays::{Arrays, arrays};
pub use bools::{Bools, bools, weighted_bools};
pub use boxed::Boxed;
pub use chars::{CharClass, Chars, chars};
pub use collections::{
    BTreeMaps, BTreeSets, HashMaps, HashSets, VecDeques, Vecs, btree_maps, btree_sets, bytes,
    hash_maps, hash_sets, vec_deques, vecs,
};
pub use filter::{FILTER_ATTEMPTS, Filter};
pub use flat_map::FlatMap;
pub use floats::{Float, Floats, floats};
pub use generate::{Generate, GenerateSized, any, any_size};
pub use generator::{Gen, GenExt, value_from_bytes};
pub use ints::{Int, Ints, ints};
pub use just::{Just, just};
pub use labelled::Labelled;
pub use map::Map;
pub use map_with::MapWith;
pub use mutators::{Mutated, Mutator, mutated};
pub use no_inverse::NoInverse;
pub use one_of::{OneOf, one_of};
pub use option::{Optional, option};
pub use pickers::{
    EnumerateAll, Freeze, Grammar, Increment, Knit, Markov, MarkovState, Playback, Scramble,
    Symbol, Tick, Unbound, enumerate_all, freeze, grammar, knit, markov, playback, scramble, take,
    tick, unbound,
};
pub use pointers::Pointers;
pub use recursive::{DEFAULT_DEPTH, DEFAULT_MAX_NODES, DEFAULT_P_BRANCH, Recursive, recursive};
pub use reflect::{Reflection, ReflectionMark};
pub use results::{Results, results};
pub use sampled_from::{SampledFrom, sampled_from};
pub use size::SizeRange;
pub use strings::{Strings, string_of, strings};
/// `#[derive(Generate)]`: the default generator ([`Generate`](trait@Generate), so
/// [`any`]`::<T>()`) of a struct or an enum, with no generator written by hand.
///
/// A struct draws its fields in order (the same choices as the tuple of their generators,
/// mapped); an enum draws a variant as [`one_of`] does (or [`weighted`], with weights),
/// then that variant's fields. Each field takes `any::<FieldType>()` unless an attribute
/// says otherwise. Type parameters must implement `Generate` themselves. Recursive types
/// (a field mentions `Self` or the type's name) are bounded by a size budget drawn at the
/// root: see [`derived`] for how and what it measures. The simplest value (what a tape of
/// zeros gives, and where shrinking heads) is the first variant with simplest fields, and
/// for a recursive type its first non-recursive variant (or the struct with empty
/// recursive fields).
///
/// A generic enum:
///
/// ```
/// use tapefuzz::prelude::*;
///
/// #[derive(Generate, Debug, Clone, PartialEq)]
/// enum Message<T> {
///     Ping,
///     Data(T),
///     Move { x: i32, y: i32 },
/// }
///
/// check(any::<Vec<Message<u8>>>(), |v: Vec<Message<u8>>| v.len() <= 100);
/// ```
///
/// A recursive struct (a rose tree), with field attributes:
///
/// ```
/// use tapefuzz::prelude::*;
///
/// #[derive(Generate, Debug, Clone)]
/// struct Dir {
///     #[generate(size = 1..=8)]
///     name: String,
///     #[generate(range = 0..=4096)]
///     bytes: u32,
///     children: Vec<Dir>,
/// }
///
/// fn total(d: &Dir) -> u64 {
///     d.bytes as u64 + d.children.iter().map(total).sum::<u64>()
/// }
///
/// check(any::<Dir>(), |d: Dir| total(&d) >= d.bytes as u64);
/// ```
///
/// # Attributes
///
/// | where | attribute | generator |
/// |---|---|---|
/// | integer field | `#[generate(range = 0..=100)]` | `ints::<T>(0..=100)` |
/// | collection or `String` field | `#[generate(size = 1..=10)]` | its default with that size ([`GenerateSized`]) |
/// | any field | `#[generate(with = expr)]` | the generator `expr` (boxed) |
/// | any field | `#[generate(skip)]` | `Default::default()`, nothing drawn |
/// | any field | `#[generate(default = expr)]` | the value `expr`, nothing drawn |
/// | any field | `#[generate(recursive)]` | counts as recursive (recursion through other types) |
/// | enum variant | `#[generate(weight = 3)]` | a [`weighted`] union (no weight: 1) |
/// | enum variant | `#[generate(skip)]` | never generated (weight 0) |
/// | recursive type | `#[generate(size = 100)]` | at most 100 branch nodes (default 24; [`derived::Limits`]) |
/// | recursive type | `#[generate(depth = 6)]` | at most 6 levels: a node that deep is a leaf (default 16) |
///
/// ```
/// use tapefuzz::prelude::*;
///
/// #[derive(Generate, Debug, Clone)]
/// enum Op {
///     #[generate(weight = 3)]
///     Push(#[generate(range = -9..=9)] i8),
///     Pop,
///     #[generate(skip)]
///     Halt,
/// }
///
/// #[derive(Generate, Debug, Clone)]
/// struct Program {
///     #[generate(size = 1..=20)]
///     ops: Vec<Op>,
///     #[generate(with = sampled_from(vec!["a", "b"]))]
///     label: &'static str,
///     #[generate(skip)]
///     cache: Option<u64>,
/// }
///
/// check(any::<Program>(), |p: Program| !p.ops.is_empty() && p.cache.is_none());
/// ```
///
/// Mistakes are compile errors at the attribute:
///
/// A recursive type's budget and depth, proptest's `prop_recursive(depth, size, ..)`: the
/// root draws its budget uniformly in `0..=size` (so small trees stay common: failures shrink
/// and `cargo test` starts small), and no node nests deeper than `depth`:
///
/// ```
/// use tapefuzz::prelude::*;
///
/// #[derive(Generate, Debug, Clone)]
/// #[generate(size = 200, depth = 8)]
/// enum Json {
///     Null,
///     Num(i32),
///     Array(Vec<Json>),
/// }
///
/// fn depth(j: &Json) -> u32 {
///     match j {
///         Json::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
///         _ => 0,
///     }
/// }
///
/// check(any::<Json>(), |j: Json| depth(&j) <= 8);
/// ```
///
/// ```compile_fail
/// use tapefuzz::prelude::*;
///
/// #[derive(Generate, Debug)]
/// #[generate(size = 10)] // not recursive: put `size = 0..=10` on a collection field
/// struct Flat {
///     items: Vec<u8>,
/// }
/// ```
///
/// ```compile_fail
/// use tapefuzz::prelude::*;
///
/// #[derive(Generate, Debug)]
/// struct S {
///     #[generate(ranges = 0..=3)] // unknown attribute
///     x: u8,
/// }
/// ```
///
/// ```compile_fail
/// use tapefuzz::prelude::*;
///
/// #[derive(Generate, Debug)]
/// struct S {
///     #[generate(weight = 3)] // a variant's attribute on a field
///     x: u8,
/// }
/// ```
///
/// ```compile_fail
/// use tapefuzz::prelude::*;
///
/// #[derive(Generate, Debug)]
/// enum E {
///     #[generate(skip)]
///     A,
///     #[generate(weight = 0)]
///     B,
/// } // no variant left to generate
/// ```
///
/// ```compile_fail
/// use tapefuzz::prelude::*;
///
/// #[derive(Generate, Debug)]
/// enum Infinite {
///     More(Box<Infinite>), // no leaf variant: the value could never end
/// }
/// ```
///
/// ```compile_fail
/// use tapefuzz::prelude::*;
///
/// #[derive(Generate, Debug)]
/// struct S {
///     #[generate(range = 0..=3, size = 1..=2)] // two generators for one field
///     x: Vec<u8>,
/// }
/// ```
pub use tapefuzz_derive::Generate;
pub use union::{Union, Variants};
pub use weighted::{Weighted, weighted};
pub use with_neighbour::{MAX_STEPS, Step, WithNeighbour};
