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
use tapefuzz::engine::Found;
use tapefuzz::generators::{
    Boxed, Recursive, Reflection, arrays, btree_sets, hash_sets, results, string_of, vec_deques,
    weighted_bools,
};
use tapefuzz::prelude::*;
use tapefuzz::property::{Report, ShrinkValueError};
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

// ---------------------------------------------------------------------------------------------
// Shrinking a value handed in: the same minimum as a generated failure.

/// Shrinks `given` with `shrink_value`, and finds and shrinks a failure of the same property
/// by generating (three seeds): all four reports must end at `minimal`.
fn same_minimum<G, P>(make: impl Fn() -> G, prop: P, given: G::Value, minimal: &str) -> Report
where
    G: Gen,
    G::Value: Debug + 'static,
    P: Fn(G::Value) -> bool + Clone,
{
    let r = Property::new("shrink_value_given")
        .no_corpus()
        .shrink_value(make(), prop.clone(), given)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.value.as_deref(), Some(minimal), "{r}");
    assert!(!r.passed());
    for seed in 1..=3 {
        let found = Property::new("shrink_value_found")
            .no_corpus()
            .seed(seed)
            .tests(5000)
            .run(make(), prop.clone());
        assert!(
            matches!(
                found.failure.as_ref().map(|f| &f.found),
                Some(Found::Generate(_))
            ),
            "seed {seed}: {found}"
        );
        assert_eq!(
            found.value.as_deref(),
            Some(minimal),
            "seed {seed}: {found}"
        );
    }
    r
}

#[derive(Generate, Debug, Clone)]
struct Order {
    items: Vec<u32>,
    coupon: Option<u8>,
}

#[test]
fn a_derived_value_shrinks_to_the_minimum_of_a_generated_failure() {
    let r = same_minimum(
        any::<Order>,
        |o: Order| !(o.coupon.is_some() && o.items.len() > 2),
        Order {
            items: vec![120, 7, 99, 4000, 3],
            coupon: Some(15),
        },
        "Order { items: [0, 0, 0], coupon: Some(0) }",
    );
    // The report says where it started.
    let text = r.to_string();
    assert!(text.contains("on the value given to shrink"), "{text}");
    assert!(
        text.contains("given value: Order { items: [120, 7, 99, 4000, 3], coupon: Some(15) }"),
        "{text}"
    );
    assert!(matches!(
        &r.failure.as_ref().unwrap().found,
        Found::Given { example: None, .. }
    ));
}

fn nodes(e: &Expr) -> usize {
    match e {
        Expr::Num(_) => 1,
        Expr::Add(a, b) => 1 + nodes(a) + nodes(b),
        Expr::Neg(a) => 1 + nodes(a),
    }
}

fn dirs(d: &Dir) -> usize {
    1 + d.children.iter().map(dirs).sum::<usize>()
}

#[test]
fn a_recursive_derived_value_shrinks_to_the_minimum_of_a_generated_failure() {
    let num = |n| Box::new(Expr::Num(n));
    let given = Expr::Neg(Box::new(Expr::Add(
        Box::new(Expr::Add(num(7), num(-3))),
        Box::new(Expr::Neg(num(99))),
    )));
    let _ = same_minimum(
        any::<Expr>,
        |e: Expr| nodes(&e) < 3,
        given,
        "Add(Num(0), Num(0))",
    );
    let leaf = |name: &str, size| Dir {
        name: name.into(),
        size,
        children: vec![],
    };
    let given = Dir {
        children: vec![
            leaf("a", 1),
            Dir {
                children: vec![leaf("bc", 9), leaf("", 0)],
                ..leaf("d", 4)
            },
        ],
        ..leaf("top", 200)
    };
    let _ = same_minimum(
        any::<Dir>,
        |d: Dir| dirs(&d) < 3,
        given,
        "Dir { name: \"\", size: 0, children: [Dir { name: \"\", size: 0, children: [] }, \
         Dir { name: \"\", size: 0, children: [] }] }",
    );
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Num(u32),
    Word(String),
}

fn tokens() -> impl Gen<Value = Vec<Token>> {
    let token = one_of![
        ints::<u32>(..).map_with(Token::Num, |t| match t {
            Token::Num(n) => Some(*n),
            _ => None,
        }),
        strings(CharClass::alphanumeric(), 0..=8).map_with(Token::Word, |t| match t {
            Token::Word(w) => Some(w.clone()),
            _ => None,
        }),
    ];
    vecs(token, 0..=10)
}

#[test]
fn a_combinator_value_shrinks_to_the_minimum_of_a_generated_failure() {
    let g = || {
        (
            vecs(ints::<i32>(-1000..=1000), 0..=20),
            option(ints::<u8>(..)),
        )
    };
    let _ = same_minimum(
        g,
        |(v, o): (Vec<i32>, Option<u8>)| !(o.is_some() && v.iter().any(|&x| x > 100)),
        (vec![-5, 400, 17, -3], Some(200)),
        "([101], Some(0))",
    );
    let _ = same_minimum(
        tokens,
        |ts: Vec<Token>| {
            ts.iter()
                .all(|t| !matches!(t, Token::Word(w) if w.len() > 3))
        },
        vec![
            Token::Num(12),
            Token::Word("hello".into()),
            Token::Word("xy".into()),
        ],
        "[Word(\"0000\")]",
    );
}

/// A date from a count of days since 2000-01-01 (the proleptic Gregorian calendar).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Date {
    year: i32,
    month: u32,
    day: u32,
}

fn leap(y: i32) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

fn month_days(y: i32, m: u32) -> u32 {
    match m {
        2 if leap(y) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

fn from_days(mut days: u32) -> Date {
    let mut year = 2000;
    while days >= if leap(year) { 366 } else { 365 } {
        days -= if leap(year) { 366 } else { 365 };
        year += 1;
    }
    let mut month = 1;
    while days >= month_days(year, month) {
        days -= month_days(year, month);
        month += 1;
    }
    Date {
        year,
        month,
        day: days + 1,
    }
}

fn to_days(d: &Date) -> Option<u32> {
    let valid = d.year >= 2000 && (1..=12).contains(&d.month);
    if !valid || d.day == 0 || d.day > month_days(d.year, d.month) {
        return None;
    }
    let years: u32 = (2000..d.year)
        .map(|y| if leap(y) { 366 } else { 365 })
        .sum();
    let months: u32 = (1..d.month).map(|m| month_days(d.year, m)).sum();
    Some(years + months + d.day - 1)
}

fn dates() -> impl Gen<Value = Date> {
    ints::<u32>(0..=36_500).map_with(from_days, to_days)
}

#[test]
fn a_map_with_value_shrinks_to_the_minimum_of_a_generated_failure() {
    let given = Date {
        year: 2031,
        month: 7,
        day: 14,
    };
    let _ = same_minimum(
        dates,
        |d: Date| d.year == 2000 && d.month < 3,
        given,
        "Date { year: 2000, month: 3, day: 1 }",
    );
    // Not a date the inverse knows.
    let e = Reflection::of(
        &dates(),
        &Date {
            year: 2001,
            month: 2,
            day: 29,
        },
    )
    .unwrap_err();
    assert!(e.generator().starts_with("MapWith<Ints<u32>"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// Errors.

#[test]
fn a_plain_map_has_no_inverse_and_says_so() {
    let e = Property::new("no_inverse")
        .no_corpus()
        .shrink_value(ints::<u8>(..).map(|x| x as u32 * 3), |y: u32| y < 10, 30)
        .unwrap_err();
    let ShrinkValueError::Unreachable(no) = &e else {
        panic!("{e}");
    };
    assert!(no.generator().starts_with("Map<Ints<u8>, "), "{no}");
    let text = e.to_string();
    assert!(
        text.contains("no inverse through `Map<Ints<u8>, "),
        "{text}"
    );
    assert!(
        text.contains("give one with `map_with(f, inverse)`"),
        "{text}"
    );
    // Deep inside a value, with the path to the part.
    let g = (bools(), vecs(ints::<u8>(..).map(|x| x as u16), 0..=3));
    let e = Reflection::of(&g, &(true, vec![1, 2])).unwrap_err();
    assert_eq!(e.path(), ".1[0]");
    // The others with no inverse.
    let e = Reflection::of(
        &ints::<u8>(..).flat_map(|n| vecs(bools(), n as usize)),
        &vec![],
    )
    .unwrap_err();
    assert!(e.reason().contains("`flat_map` has no inverse"), "{e}");
    let e = Reflection::of(&sampled_from(vec!["a", "b"]), &"a").unwrap_err();
    assert!(e.generator().starts_with("SampledFrom<"), "{e}");
    let e = Reflection::of(&just(5u8), &5).unwrap_err();
    assert_eq!(e.generator(), "Just<u8>");
    let e = Reflection::of(
        &hash_maps((ints::<u8>(..), bools()), 0..=3),
        &Default::default(),
    )
    .unwrap_err();
    assert!(e.generator().starts_with("HashMaps<"), "{e}");
}

#[test]
fn a_value_out_of_range_is_a_clear_error() {
    let e = Property::new("out_of_range")
        .no_corpus()
        .shrink_value(ints::<u8>(0..=10), |x: u8| x < 5, 50)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "cannot shrink the value: the generator cannot make it: no inverse through `Ints<u8>`: \
         50 is outside its range 0..=10"
    );
    let e = Reflection::of(&vecs(bools(), 1..=2), &vec![true; 3]).unwrap_err();
    assert_eq!(e.reason(), "3 elements, outside its size range 1..=2");
    let e = Reflection::of(&strings(CharClass::digits(), 0..=5), &"12a".to_string()).unwrap_err();
    assert!(
        e.reason()
            .contains("'a' (at byte 2) is not in its character class"),
        "{e}"
    );
    let e = Reflection::of(&ints::<u8>(..).filter(|x| x % 2 == 0), &3).unwrap_err();
    assert_eq!(e.reason(), "the filter rejects the value");
    let e = Reflection::of(&floats::<f64>(..), &f64::NAN).unwrap_err();
    assert!(e.reason().contains("NaN"), "{e}");
}

#[test]
fn a_value_the_property_passes_on_has_nothing_to_shrink() {
    let e = Property::new("passes")
        .no_corpus()
        .shrink_value(
            vecs(ints::<u8>(..), 0..=10),
            |v: Vec<u8>| v.len() < 5,
            vec![1, 2],
        )
        .unwrap_err();
    assert_eq!(
        e,
        ShrinkValueError::Passes {
            value: "[1, 2]".into()
        }
    );
    assert_eq!(
        e.to_string(),
        "nothing to shrink: the property passes on it ([1, 2])"
    );
    let e = Property::new("rejected")
        .no_corpus()
        .shrink_value(
            ints::<u8>(..),
            |x: u8| {
                assume!(x > 100);
                false
            },
            3,
        )
        .unwrap_err();
    assert!(matches!(e, ShrinkValueError::Rejected { .. }), "{e}");
}

#[test]
fn an_inverse_that_does_not_invert_is_caught_by_the_replay() {
    // `x / 2` has no inverse `|y| Some(y)`: 7 replays as 3.
    let g = ints::<u8>(..).map_with(|x| x / 2, |&y| Some(y));
    let e = Property::new("wrong_inverse")
        .no_corpus()
        .shrink_value(g, |_: u8| false, 7)
        .unwrap_err();
    assert_eq!(
        e,
        ShrinkValueError::Mismatch {
            given: "7".into(),
            replayed: "3".into()
        }
    );
}

#[test]
fn a_hash_set_shrinks_whatever_order_it_prints_in() {
    let given: HashSet<u16> = [500, 3, 77, 1024, 9, 31_000].into_iter().collect();
    let r = Property::new("hash_set")
        .no_corpus()
        .shrink_value(
            hash_sets(ints::<u16>(..), 0..=10),
            |s: HashSet<u16>| s.len() < 3,
            given,
        )
        .unwrap_or_else(|e| panic!("{e}"));
    let value = r.value.unwrap();
    let mut numbers: Vec<&str> = value
        .trim_matches(|c| c == '{' || c == '}')
        .split(", ")
        .collect();
    numbers.sort_unstable();
    assert_eq!(numbers, ["0", "1", "2"], "{value}");
}

#[test]
fn a_shrunk_value_is_saved_as_a_regression_and_replayed_first() {
    let dir = std::env::temp_dir().join(format!("tapefuzz-shrink-value-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let prop = |v: Vec<u8>| v.iter().all(|&x| x < 50);
    let p = Property::new("shrink_value_saved").corpora(&dir).tests(0);
    let r = p
        .shrink_value(vecs(ints::<u8>(..), 0..=10), prop, vec![3, 200, 9])
        .unwrap();
    assert_eq!(r.value.as_deref(), Some("[50]"));
    let saved = r.failure.as_ref().unwrap().saved.clone().expect("saved");
    let text = std::fs::read_to_string(&saved).unwrap();
    assert!(text.contains("[50]"), "{text}");
    // The next run replays it first, like any regression.
    let again = p.run(vecs(ints::<u8>(..), 0..=10), prop);
    assert!(
        matches!(&again.failure.as_ref().unwrap().found, Found::Reuse(path) if *path == saved),
        "{again}"
    );
    assert_eq!(again.value.as_deref(), Some("[50]"));
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------------------------
// Explicit examples.

#[test]
fn a_failing_explicit_example_is_shrunk_from_it() {
    let prop = |o: Order| !(o.coupon.is_some() && o.items.len() > 2);
    let r = Property::new("example_shrunk")
        .no_corpus()
        .example(Order {
            items: vec![1, 2],
            coupon: None,
        })
        .example(Order {
            items: vec![9, 9, 9, 9],
            coupon: Some(3),
        })
        .run(any::<Order>(), prop);
    assert_eq!(
        r.value.as_deref(),
        Some("Order { items: [0, 0, 0], coupon: Some(0) }"),
        "{r}"
    );
    let fail = r.failure.as_ref().unwrap();
    assert_eq!(
        fail.found,
        Found::Given {
            example: Some(2),
            value: "Order { items: [9, 9, 9, 9], coupon: Some(3) }".into()
        }
    );
    assert!(fail.shrink_calls > 0);
    assert!(
        r.message
            .as_deref()
            .unwrap()
            .starts_with("explicit example failed")
    );
    let text = r.to_string();
    assert!(
        text.contains("on explicit example #2, shrunk from it"),
        "{text}"
    );
    assert!(
        text.contains("explicit example: Order { items: [9, 9, 9, 9], coupon: Some(3) }"),
        "{text}"
    );
    assert!(
        text.contains("minimal failing value: Order { items: [0, 0, 0]"),
        "{text}"
    );
}

#[test]
fn an_explicit_example_the_generator_cannot_reflect_is_reported_as_given() {
    let r = Property::new("example_as_given")
        .no_corpus()
        .example(250u8)
        .run(ints::<u8>(0..=100).map(|x| x * 2), |x: u8| x < 120);
    assert_eq!(r.value.as_deref(), Some("250"));
    assert_eq!(r.failure.as_ref().unwrap().found, Found::Example(1));
    let m = r.message.as_deref().unwrap();
    assert!(
        m.starts_with("explicit example failed (not shrunk: no inverse through `Map<Ints<u8>, "),
        "{m}"
    );
    assert!(
        r.to_string()
            .contains("failed on explicit example #1, not shrunk")
    );
}

// ---------------------------------------------------------------------------------------------
// The guide's example (guide/src/shrinking.md), as it is there.

#[test]
fn readme_shrink_a_value() {
    #[derive(Generate, Debug, Clone)]
    struct Order {
        items: Vec<u32>,
        coupon: Option<u8>,
    }

    // The bug: a coupon on more than two items.
    let prop = |o: Order| !(o.coupon.is_some() && o.items.len() > 2);
    // The order from the bug report.
    let reported = Order {
        items: vec![120, 7, 99, 4000],
        coupon: Some(15),
    };
    let report = Property::new("orders")
        .no_corpus()
        .shrink_value(any::<Order>(), prop, reported)
        .unwrap();
    assert_eq!(
        report.value.as_deref(),
        Some("Order { items: [0, 0, 0], coupon: Some(0) }")
    );

    // `map` has no inverse; `map_with` takes one.
    let evens = ints::<u32>(0..=1000).map_with(|x| 2 * x, |&y| (y % 2 == 0).then_some(y / 2));
    let report = Property::new("evens")
        .no_corpus()
        .shrink_value(evens, |y: u32| y < 100, 736)
        .unwrap();
    assert_eq!(report.value.as_deref(), Some("100"));
}
