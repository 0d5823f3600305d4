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

// ---------------------------------------------------------------------------------------------
// Derived types.

#[derive(Generate, Debug, Clone, PartialEq)]
struct Point {
    x: i64,
    #[generate(range = -5..=5)]
    y: i8,
    tags: Vec<u8>,
}

#[derive(Generate, Debug, Clone, PartialEq)]
struct Meters(u32, bool);

#[derive(Generate, Debug, Clone, PartialEq)]
struct Unit;

#[derive(Generate, Debug, Clone, PartialEq)]
enum Shape {
    Empty,
    Circle(u16),
    Rect { w: u8, h: u8 },
}

#[derive(Generate, Debug, Clone, PartialEq)]
enum Op {
    #[generate(weight = 3)]
    Push(#[generate(range = -9..=9)] i8),
    Pop,
    #[generate(skip)]
    Halt,
    #[generate(weight = 2)]
    Dup {
        times: u8,
    },
}

#[derive(Generate, Debug, Clone, PartialEq)]
struct Program {
    #[generate(size = 1..=6)]
    ops: Vec<Op>,
    #[generate(with = ints::<u32>(10..=20).map_with(|x| x * 2, |&y| Some(y / 2)))]
    even: u32,
    #[generate(skip)]
    cache: Option<u64>,
    name: Option<String>,
}

#[derive(Generate, Debug, Clone, PartialEq)]
struct Pair<T> {
    a: T,
    b: T,
}

/// A recursive enum: a leaf and two branches.
#[derive(Generate, Debug, Clone, PartialEq)]
enum Expr {
    Num(#[generate(range = -100..=100)] i64),
    Add(Box<Expr>, Box<Expr>),
    Neg(Box<Self>),
}

/// A recursive struct (a rose tree).
#[derive(Generate, Debug, Clone, PartialEq)]
struct Dir {
    #[generate(size = 0..=3)]
    name: String,
    size: u8,
    children: Vec<Dir>,
}

/// A recursive struct through an `Option`.
#[derive(Generate, Debug, Clone, PartialEq)]
struct List {
    head: u8,
    tail: Option<Box<List>>,
}

/// A recursive enum with weights, holding another recursive type.
#[derive(Generate, Debug, Clone, PartialEq)]
enum Doc {
    #[generate(weight = 2)]
    Text(#[generate(size = 0..=2)] String),
    Folder(Dir),
    #[generate(weight = 3)]
    Seq(Vec<Doc>),
}

#[test]
fn derived_types_round_trip() {
    laws!(
        any::<Point>(),
        any::<Meters>(),
        any::<Unit>(),
        any::<Shape>(),
        any::<Op>(),
        any::<Program>(),
        any::<Pair<Shape>>(),
        any::<Expr>(),
        any::<Dir>(),
        any::<List>(),
        any::<Doc>(),
        vecs(any::<Expr>(), 0..=4),
        (any::<List>(), any::<Dir>()),
    );
}

#[test]
fn a_derived_recursive_value_reflects_with_the_smallest_budget() {
    use tapefuzz::generators::derived::MAX_BUDGET;
    let e = Expr::Add(
        Box::new(Expr::Num(3)),
        Box::new(Expr::Neg(Box::new(Expr::Num(-1)))),
    );
    let r = Reflection::of(&any::<Expr>(), &e).unwrap();
    // The budget is the number of branch nodes (Add and Neg), then the root: a branch, Add
    // (the first recursive variant), its left a leaf of 3 (index 5: 0, 1, -1, 2, -2, 3)…
    assert_eq!(&r.indices()[..4], &[2, 1, 0, 0]);
    assert_eq!(r.indices()[4], 5);
    assert_eq!(r.replay(&any::<Expr>()), Ok(e));
    // A leaf: budget 0.
    let r = Reflection::of(&any::<Expr>(), &Expr::Num(0)).unwrap();
    assert_eq!(r.indices(), &[0, 0, 0]);
    // More branches than any budget: a complete tree of depth 5, 31 branches.
    fn complete(depth: u32) -> Expr {
        match depth {
            0 => Expr::Num(1),
            d => Expr::Add(Box::new(complete(d - 1)), Box::new(complete(d - 1))),
        }
    }
    let e = Reflection::of(&any::<Expr>(), &complete(5)).unwrap_err();
    assert_eq!(e.generator(), "any::<Expr>()");
    assert!(e.reason().contains(&format!("at most {MAX_BUDGET}")), "{e}");
    assert!(Reflection::of(&any::<Expr>(), &complete(4)).is_ok());
    // Nested deeper than the depth bound.
    let mut deep = Expr::Num(1);
    for _ in 0..20 {
        deep = Expr::Neg(Box::new(deep));
    }
    let e = Reflection::of(&any::<Expr>(), &deep).unwrap_err();
    assert!(e.reason().contains("nest at most 16"), "{e}");
    // A struct whose recursive field holds its default is a leaf.
    let r = Reflection::of(
        &any::<List>(),
        &List {
            head: 4,
            tail: None,
        },
    )
    .unwrap();
    assert_eq!(r.indices(), &[0, 0, 4]);
    let leaf = |size| Dir {
        name: String::new(),
        size,
        children: vec![],
    };
    let r = Reflection::of(&any::<Dir>(), &leaf(0)).unwrap();
    assert_eq!(r.indices(), &[0, 0, 0, 0]);
    // One branch (the root), its two children leaves: budget 1.
    let two = Dir {
        children: vec![leaf(1), leaf(2)],
        ..leaf(3)
    };
    let r = Reflection::of(&any::<Dir>(), &two).unwrap();
    assert_eq!(
        r.indices(),
        &[1, 1, 0, 3, 1, 0, 0, 1, 1, 0, 0, 2, 0],
        "budget, branch, name, size, (more, leaf child) × 2, no more"
    );
    assert_eq!(r.replay(&any::<Dir>()), Ok(two));
}

#[test]
fn a_derived_variant_never_generated_has_no_inverse() {
    let e = Reflection::of(&any::<Op>(), &Op::Halt).unwrap_err();
    assert_eq!(e.generator(), "any::<Op>()");
    assert!(e.reason().contains("`Halt` is never generated"), "{e}");
    let e = Reflection::of(
        &any::<Point>(),
        &Point {
            x: 0,
            y: 9,
            tags: vec![],
        },
    )
    .unwrap_err();
    assert_eq!((e.generator(), e.path()), ("Ints<i8>", ".y"));
}
