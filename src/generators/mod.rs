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

mod arbitrary;
mod arrays;
mod bools;
mod boxed;
mod chars;
mod collections;
pub mod derived;
mod filter;
mod flat_map;
mod floats;
mod generate;
mod generator;
mod ints;
mod just;
mod labelled;
mod map;
mod one_of;
mod option;
mod recursive;
mod results;
mod sampled_from;
mod size;
mod strings;
mod tuple;
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
pub use one_of::{OneOf, one_of};
pub use option::{Optional, option};
pub use recursive::{DEFAULT_DEPTH, DEFAULT_MAX_NODES, DEFAULT_P_BRANCH, Recursive, recursive};
pub use results::{Results, results};
pub use sampled_from::{SampledFrom, sampled_from};
pub use size::SizeRange;
pub use strings::{Strings, string_of, strings};
#[doc(inline)]
pub use tapefuzz_derive::Generate;
pub use weighted::{Weighted, weighted};
pub use with_neighbour::{MAX_STEPS, Step, WithNeighbour};
