//! Reflective generators and shrinking a value the user hands in: `Gen::reflect` runs a
//! generator backwards to the choices that make a value (laws: reflect, then replay, gives
//! the value back, for every generator that reflects, over many seeds); `map_with` gives
//! `map` an inverse; `Property::shrink_value` shrinks a hand-given failing value to the same
//! minimum as a generated failure of the same property; a failing explicit example is
//! shrunk; the errors name the generator.

use std::collections::{BTreeSet, HashSet, VecDeque};
use std::fmt::Debug;
use std::rc::Rc;
use std::sync::Arc;
use tapefuzz::generators::{
    Boxed, Recursive, Reflection, arrays, btree_sets, hash_sets, results, string_of, vec_deques,
    weighted_bools,
};
use tapefuzz::prelude::*;
use tapefuzz::tape::{RandomSource, Rng, Tape};

/// Seeds per generator in the round-trip laws.
const SEEDS: u64 = 300;

/// The round-trip law over `SEEDS` random values of `g`: each reflects, and its reflection
/// replays to the value. Returns how many values were checked.
fn round_trip<G: Gen>(name: &str, g: &G) -> u64
where
    G::Value: PartialEq + Debug,
{
    let mut checked = 0;
    for seed in 0..SEEDS {
        let mut src = RandomSource::new(Rng::derive(0x5eed, seed));
        let mut tape = Tape::new(&mut src, false);
        let Ok(v) = g.generate(&mut tape) else {
            continue;
        };
        let r = Reflection::of(g, &v)
            .unwrap_or_else(|e| panic!("{name}, seed {seed}: {v:?} does not reflect: {e}"));
        assert_eq!(r.replay(g), Ok(v), "{name}, seed {seed}: {:?}", r.indices());
        checked += 1;
    }
    assert!(checked > SEEDS / 2, "{name}: only {checked} values");
    checked
}

macro_rules! laws {
    ($($g:expr),+ $(,)?) => {$(
        round_trip(stringify!($g), &$g);
    )+};
}

#[test]
fn integers_floats_bools_and_chars_round_trip() {
    laws!(
        ints::<u8>(..),
        ints::<i8>(-3..=100),
        ints::<i32>(-1000..=-10),
        ints::<u64>(..),
        ints::<i64>(..),
        ints::<u128>(..),
        ints::<i128>(..),
        ints::<i128>(-5..=(1 << 100)),
        ints::<usize>(7..=7),
        floats::<f64>(..),
        floats::<f32>(..),
        floats::<f64>(-2.5..=1e6),
        floats::<f64>(0.0..1.0),
        floats::<f32>(-1.0..1.0),
        bools(),
        weighted_bools(0.9),
        chars(CharClass::any()),
        chars(CharClass::ascii()),
        chars(CharClass::from_chars("xyzx")),
        CharClass::digits(),
    );
}

#[test]
fn strings_and_collections_round_trip() {
    laws!(
        strings(CharClass::any(), 0..=20),
        strings(CharClass::ascii(), 3..=8),
        strings(CharClass::digits(), 5),
        string_of(chars(CharClass::lowercase()), 0..=6),
        // Constants that reflect: `just(())` mapped with an inverse that compares.
        string_of(
            one_of![
                just(()).map_with(|()| 'a', |&c| (c == 'a').then_some(())),
                just(()).map_with(|()| 'b', |&c| (c == 'b').then_some(())),
            ],
            1..=4
        )
        .filter(|s| s.len() < 4),
        bytes(0..=64),
        bytes(4..=4),
        vecs(ints::<u8>(..), 2..=9),
        vecs(ints::<i16>(..), 0..=10),
        vecs(ints::<u8>(0..=9), 3..),
        vecs(vecs(bools(), 0..=3), 1..=4),
        vec_deques(ints::<u32>(..), 0..=7),
        btree_sets(ints::<u8>(0..=20), 0..=8),
        hash_sets(ints::<i64>(..), 1..=9),
        hash_sets(strings(CharClass::lowercase(), 0..=3), 0..=5),
    );
}

#[derive(Clone, Debug, PartialEq)]
enum Tree {
    Leaf(u8),
    Pair(Box<Tree>, Box<Tree>),
    Neg(Box<Tree>),
}

fn trees() -> Recursive<Tree> {
    let leaf = ints::<u8>(..).map_with(Tree::Leaf, |t| match t {
        Tree::Leaf(x) => Some(*x),
        _ => None,
    });
    Recursive::new(leaf, |inner: Boxed<Tree>| {
        one_of![
            (inner.clone(), inner.clone()).map_with(
                |(a, b)| Tree::Pair(Box::new(a), Box::new(b)),
                |t| match t {
                    Tree::Pair(a, b) => Some(((**a).clone(), (**b).clone())),
                    _ => None,
                },
            ),
            inner.map_with(
                |a| Tree::Neg(Box::new(a)),
                |t| match t {
                    Tree::Neg(a) => Some((**a).clone()),
                    _ => None,
                },
            ),
        ]
    })
    .depth(5)
    .max_nodes(12)
}

#[test]
fn combinators_round_trip() {
    let g = (ints::<u8>(..), bools());
    let boxed: Box<dyn Gen<Value = (u8, bool)>> = Box::new(g.clone());
    laws!(
        (
            ints::<u8>(..),
            option(strings(CharClass::any(), 0..=4)),
            bools()
        ),
        (
            ints::<u8>(..),
            ints::<u8>(..),
            ints::<u8>(..),
            ints::<u8>(..),
            ints::<u8>(..),
            ints::<u8>(..),
            ints::<u8>(..),
            ints::<u8>(..),
            ints::<u8>(..),
            ints::<u8>(..)
        ),
        arrays::<_, 4>(ints::<i16>(-5..=5)),
        option(option(ints::<u8>(..))),
        results(ints::<u8>(..), bools()),
        just(()),
        one_of![ints::<i32>(0..=10), ints::<i32>(-10..=-1), ints::<i32>(..)],
        weighted(vec![
            (3, ints::<u8>(0..=3).boxed()),
            (0, ints::<u8>(..).boxed()),
            (1, ints::<u8>(100..=200).boxed()),
        ]),
        ints::<u16>(..).filter(|x| x % 3 == 0),
        ints::<u16>(..).labelled("labelled"),
        ints::<u16>(..).boxed(),
        ints::<u16>(..).map_with(|x| x as u32 * 7, |&y| u16::try_from(y / 7).ok()),
        ints::<u16>(..).with_neighbour(|&x, _| Ok(x.wrapping_add(1))),
        &g,
        boxed,
        Arc::new(g.clone()),
        Rc::new(g.clone()),
        trees(),
        vecs(trees(), 0..=3),
    );
}

#[test]
fn any_of_the_built_in_types_round_trips() {
    laws!(
        any::<u8>(),
        any::<i16>(),
        any::<u32>(),
        any::<i64>(),
        any::<u128>(),
        any::<isize>(),
        any::<f32>(),
        any::<f64>(),
        any::<bool>(),
        any::<char>(),
        any::<String>(),
        any::<()>(),
        any::<Option<u8>>(),
        any::<Result<u8, String>>(),
        any::<Box<u16>>(),
        any::<Rc<bool>>(),
        any::<Arc<char>>(),
        any::<Vec<u8>>(),
        any::<Vec<Vec<i8>>>(),
        any::<VecDeque<u16>>(),
        any::<BTreeSet<u8>>(),
        any::<HashSet<i32>>(),
        any::<(u8, bool, String)>(),
        any::<[u8; 3]>(),
        any::<[String; 2]>(),
    );
}
