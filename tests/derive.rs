//! `#[derive(Generate)]`: structs, enums, generics, recursion and attributes; value stability
//! against the equivalent combinators; the size distribution of recursive types; shrinking
//! a failure over a derived type to its minimal value.

use std::collections::BTreeSet;
use std::fmt::Debug;
use tapefuzz::generators::Recursive;
use tapefuzz::generators::{Boxed, derived, value_from_bytes};
use tapefuzz::prelude::*;
use tapefuzz::tape::{RandomSource, Rng, Tape};

mod common;
use common::same;

/// `n` values from a random source (seeded), through a non-recording tape.
fn random_values<G: Gen>(g: &G, n: u64, seed: u64) -> Vec<G::Value> {
    (0..n)
        .map(|i| {
            let mut src = RandomSource::new(Rng::derive(seed, i));
            let mut tape = Tape::new(&mut src, false);
            g.generate(&mut tape).expect("a value")
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Plain types.

#[derive(Generate, Debug, Clone, PartialEq)]
struct Point {
    x: i64,
    y: i64,
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
struct Pair<T> {
    a: T,
    b: T,
}

#[derive(Generate, Debug, Clone, PartialEq)]
enum Either<L, R> {
    Left(L),
    Right(R),
}

#[test]
fn structs_draw_as_the_tuple_of_their_fields() {
    same(
        any::<Point>(),
        (any::<i64>(), any::<i64>(), any::<Vec<u8>>()).map(|(x, y, tags)| Point { x, y, tags }),
    );
    same(
        any::<Meters>(),
        (any::<u32>(), any::<bool>()).map(|(a, b)| Meters(a, b)),
    );
    same(any::<Unit>(), just(Unit));
    same(
        any::<Pair<char>>(),
        (any::<char>(), any::<char>()).map(|(a, b)| Pair { a, b }),
    );
}

#[test]
fn enums_draw_as_one_of_their_variants() {
    same(
        any::<Shape>(),
        one_of![
            just(Shape::Empty),
            (any::<u16>(),).map(|(r,)| Shape::Circle(r)),
            (any::<u8>(), any::<u8>()).map(|(w, h)| Shape::Rect { w, h }),
        ],
    );
    same(
        any::<Either<u8, String>>(),
        one_of![
            (any::<u8>(),).map(|(l,)| Either::Left(l)),
            (any::<String>(),).map(|(r,)| Either::Right(r)),
        ],
    );
}

#[test]
fn simplest_values() {
    let none: &[u8] = &[];
    assert_eq!(
        value_from_bytes(&any::<Point>(), none),
        Ok(Point {
            x: 0,
            y: 0,
            tags: vec![]
        })
    );
    assert_eq!(value_from_bytes(&any::<Shape>(), none), Ok(Shape::Empty));
    assert_eq!(
        value_from_bytes(&any::<Either<bool, u8>>(), none),
        Ok(Either::Left(false))
    );
    assert_eq!(value_from_bytes(&any::<Tree>(), none), Ok(Tree::Leaf));
    assert_eq!(
        value_from_bytes(&any::<Rose>(), none),
        Ok(Rose { v: 0, kids: vec![] })
    );
}

#[test]
fn any_picks_the_derived_generator_inside_std_types() {
    let vs = random_values(&any::<Vec<Option<Shape>>>(), 200, 1);
    assert!(vs.iter().flatten().flatten().any(|s| *s == Shape::Empty));
    let ps = random_values(&any::<(Pair<u8>, [Meters; 2])>(), 50, 2);
    assert_eq!(ps.len(), 50);
}

// ---------------------------------------------------------------------------------------------
// Attributes.

#[derive(Generate, Debug, Clone, PartialEq)]
struct Config {
    #[generate(range = 1..=100)]
    percent: u8,
    #[generate(size = 1..=3)]
    name: String,
    #[generate(size = 2..=4)]
    ids: Vec<u16>,
    #[generate(with = sampled_from(vec!["red", "green"]))]
    colour: &'static str,
    #[generate(skip)]
    cache: Option<u64>,
    #[generate(default = 42)]
    answer: i32,
    set: BTreeSet<u8>,
}

#[derive(Generate, Debug, Clone, Copy, PartialEq)]
enum Op {
    #[generate(weight = 3)]
    Push(#[generate(range = -5..=5)] i8),
    Pop,
    #[generate(skip)]
    Halt,
    #[generate(weight = 2)]
    Dup,
}

#[test]
fn field_attributes_use_the_generators_they_name() {
    same(
        any::<Config>(),
        (
            ints::<u8>(1..=100),
            strings(CharClass::any(), 1..=3),
            vecs(any::<u16>(), 2..=4),
            sampled_from(vec!["red", "green"]),
            any::<BTreeSet<u8>>(),
        )
            .map(|(percent, name, ids, colour, set)| Config {
                percent,
                name,
                ids,
                colour,
                cache: None,
                answer: 42,
                set,
            }),
    );
    for c in random_values(&any::<Config>(), 500, 3) {
        assert!((1..=100).contains(&c.percent));
        assert!((1..=3).contains(&c.name.chars().count()));
        assert!((2..=4).contains(&c.ids.len()));
        assert_eq!((c.cache, c.answer), (None, 42));
    }
}

#[test]
fn weights_draw_as_weighted() {
    same(
        any::<Op>(),
        weighted(vec![
            (3, (ints::<i8>(-5..=5),).map(|(x,)| Op::Push(x)).boxed()),
            (1, just(Op::Pop).boxed()),
            (0, just(Op::Halt).boxed()),
            (2, just(Op::Dup).boxed()),
        ]),
    );
    let ops = random_values(&any::<Op>(), 6000, 4);
    let pushes = ops.iter().filter(|o| matches!(o, Op::Push(_))).count();
    assert!(!ops.contains(&Op::Halt));
    assert!((2700..3300).contains(&pushes), "{pushes} pushes of 6000");
}

// ---------------------------------------------------------------------------------------------
// Recursive types.

#[derive(Generate, Debug, Clone, PartialEq)]
enum Tree {
    Leaf,
    Node(Box<Tree>, i64, Box<Tree>),
}

impl Tree {
    fn nodes(&self) -> usize {
        match self {
            Tree::Leaf => 0,
            Tree::Node(l, _, r) => 1 + l.nodes() + r.nodes(),
        }
    }
    fn depth(&self) -> usize {
        match self {
            Tree::Leaf => 0,
            Tree::Node(l, _, r) => 1 + l.depth().max(r.depth()),
        }
    }
}

#[derive(Generate, Debug, Clone, PartialEq)]
struct Rose {
    v: u8,
    kids: Vec<Rose>,
}

impl Rose {
    fn size(&self) -> usize {
        1 + self.kids.iter().map(Rose::size).sum::<usize>()
    }
}

/// The shape of the harnesses' BST (`harnesses/src/bst.rs`).
#[derive(Generate, Debug, Clone, PartialEq)]
struct Bst {
    #[generate(range = 0..=10)]
    value: u8,
    left: Option<Box<Bst>>,
    right: Option<Box<Self>>,
}

impl Bst {
    fn size(&self) -> usize {
        1 + self.left.as_deref().map_or(0, Bst::size) + self.right.as_deref().map_or(0, Bst::size)
    }
}

#[derive(Generate, Debug, Clone, PartialEq)]
enum List<T> {
    Nil,
    Cons(T, Box<List<T>>),
}

#[derive(Debug, Clone, Copy)]
struct Figures {
    empty: f64,
    mean: f64,
    max: usize,
}

fn figures(sizes: impl Iterator<Item = usize>, empty_size: usize) -> Figures {
    let (mut n, mut empty, mut total, mut max) = (0usize, 0usize, 0usize, 0usize);
    for s in sizes {
        n += 1;
        empty += (s == empty_size) as usize;
        total += s;
        max = max.max(s);
    }
    Figures {
        empty: empty as f64 / n as f64,
        mean: total as f64 / n as f64,
        max,
    }
}

#[test]
fn recursive_sizes_are_healthy() {
    let trees = random_values(&any::<Tree>(), 10_000, 5);
    let t = figures(trees.iter().map(Tree::nodes), 0);
    let deepest = trees.iter().map(Tree::depth).max().unwrap();
    eprintln!("Tree: {t:?}, deepest {deepest}");
    assert!(t.empty <= 0.15, "{t:?}");
    assert!(t.mean >= 5.0, "{t:?}");
    assert!(t.max <= derived::MAX_BUDGET as usize, "{t:?}");
    assert!(deepest <= derived::MAX_DEPTH as usize);

    let roses = random_values(&any::<Rose>(), 10_000, 6);
    let r = figures(roses.iter().map(Rose::size), 1);
    eprintln!("Rose: {r:?}");
    assert!(r.empty <= 0.15 && r.mean >= 5.0, "{r:?}");

    let bsts = random_values(&any::<Bst>(), 10_000, 7);
    let b = figures(bsts.iter().map(Bst::size), 1);
    eprintln!("Bst: {b:?}");
    assert!(b.empty <= 0.15 && b.mean >= 5.0, "{b:?}");
    assert!(b.max <= 2 * derived::MAX_BUDGET as usize + 1, "{b:?}");

    // Today's `recursive` with one branch probability, for comparison (42% empty).
    let old = Recursive::new(just(Tree::Leaf), |inner: Boxed<Tree>| {
        (inner.clone(), ints::<i64>(..), inner)
            .map(|(l, x, r)| Tree::Node(Box::new(l), x, Box::new(r)))
    });
    let o = figures(random_values(&old, 10_000, 5).iter().map(Tree::nodes), 0);
    eprintln!("recursive(): {o:?}");
    assert!(t.empty < o.empty);
}

#[test]
fn a_recursive_value_from_a_fixed_tape() {
    // The layout of a recursive value, pinned: budget, then per node its "branch?" coin, the
    // variant (one per class here, so no byte), the fields in order.
    let mut bytes = vec![2, 1]; // budget 2; the root branches
    bytes.extend([1]); // its left child branches (the budget is now spent)
    bytes.extend([0]); // whose left child is a leaf
    bytes.extend(3u64.to_be_bytes()); // whose value is index 3: 2
    bytes.extend([0]); // whose right child is a leaf
    bytes.extend(0u64.to_be_bytes()); // the root's value: 0
    bytes.extend([1]); // the root's right child: a 1, but no budget left: a leaf
    let leaf = || Box::new(Tree::Leaf);
    assert_eq!(
        value_from_bytes(&any::<Tree>(), &bytes),
        Ok(Tree::Node(
            Box::new(Tree::Node(leaf(), 2, leaf())),
            0,
            leaf()
        ))
    );
    // Past the end of the bytes every choice is 0: the same tree.
    assert_eq!(
        value_from_bytes(&any::<Tree>(), &bytes[..bytes.len() - 1]),
        value_from_bytes(&any::<Tree>(), &bytes)
    );
}

#[test]
fn generic_recursive_lists_end() {
    for l in random_values(&any::<List<u8>>(), 2000, 8) {
        let mut len = 0;
        let mut at = &l;
        while let List::Cons(_, next) = at {
            len += 1;
            at = next;
        }
        assert!(len <= derived::MAX_DEPTH as usize);
    }
}

/// Mutual recursion, which the derive cannot see: marked with `#[generate(recursive)]`.
#[derive(Generate, Debug, Clone)]
enum Block {
    Lit(#[allow(dead_code)] u8),
    Stmts(#[generate(recursive)] Vec<Stmt>),
}

#[derive(Generate, Debug, Clone)]
enum Stmt {
    Nop,
    Eval(#[generate(recursive)] Box<Block>),
}

fn block_depth(b: &Block) -> usize {
    match b {
        Block::Lit(_) => 0,
        Block::Stmts(s) => 1 + s.iter().map(stmt_depth).max().unwrap_or(0),
    }
}

fn stmt_depth(s: &Stmt) -> usize {
    match s {
        Stmt::Nop => 0,
        Stmt::Eval(b) => 1 + block_depth(b),
    }
}

#[test]
fn marked_mutual_recursion_is_bounded() {
    let blocks = random_values(&any::<Block>(), 5000, 10);
    let deepest = blocks.iter().map(block_depth).max().unwrap();
    assert!(deepest <= derived::MAX_DEPTH as usize, "{deepest}");
    assert!(blocks.iter().any(|b| block_depth(b) >= 3));
    for fill in [0xffu8, 0x01] {
        // Neither overflows the stack nor panics, whatever it gives.
        let _ = value_from_bytes(&any::<Block>(), &vec![fill; 4096]);
    }
}

#[test]
fn no_tape_overflows_the_stack() {
    // Every choice as large as it goes: budget, coins, variants.
    for fill in [0xffu8, 0x80, 0x01] {
        let bytes = vec![fill; 4096];
        let t = value_from_bytes(&any::<Tree>(), &bytes).expect("a tree");
        assert!(t.nodes() <= derived::MAX_BUDGET as usize);
        let r = value_from_bytes(&any::<Rose>(), &bytes);
        assert!(r.is_ok() || r == Err(tapefuzz::tape::Reject::Overrun));
    }
}

#[test]
fn recursive_values_replay_from_their_tape() {
    use tapefuzz::tape::{Fallback, ReplaySource};
    for seed in 0..200u64 {
        let mut src = RandomSource::new(Rng::derive(9, seed));
        let mut tape = Tape::recording(&mut src);
        let v = any::<Tree>().generate(&mut tape).unwrap();
        let rec = tape.finish();
        let mut replay = ReplaySource::new(rec.indices(), Fallback::Simplest);
        let mut tape = Tape::recording(&mut replay);
        assert_eq!(any::<Tree>().generate(&mut tape).unwrap(), v);
    }
}

/// A tree with its own bounds: many more nodes than the default, but shallow.
#[derive(Generate, Debug, Clone, PartialEq)]
#[generate(size = 200, depth = 6)]
enum Wide {
    Leaf,
    Node(Vec<Wide>),
}

impl Wide {
    fn branches(&self) -> usize {
        match self {
            Wide::Leaf => 0,
            Wide::Node(c) => 1 + c.iter().map(Wide::branches).sum::<usize>(),
        }
    }
    fn depth(&self) -> usize {
        match self {
            Wide::Leaf => 0,
            Wide::Node(c) => 1 + c.iter().map(Wide::depth).max().unwrap_or(0),
        }
    }
}

/// The same shape with only a depth bound (the default size).
#[derive(Generate, Debug, Clone, PartialEq)]
#[generate(depth = 2)]
struct Shallow {
    children: Vec<Shallow>,
}

impl Shallow {
    fn depth(&self) -> usize {
        1 + self.children.iter().map(Shallow::depth).max().unwrap_or(0)
    }
}

#[test]
fn type_attributes_bound_size_and_depth() {
    let wide = random_values(&any::<Wide>(), 5_000, 21);
    let w = figures(wide.iter().map(Wide::branches), 0);
    let deepest = wide.iter().map(Wide::depth).max().unwrap();
    eprintln!("Wide: {w:?}, deepest {deepest}");
    assert!(w.max <= 200 && deepest <= 6, "{w:?}, deepest {deepest}");
    // A larger budget than the default's 24 is used: some values go past it.
    assert!(w.max > derived::MAX_BUDGET as usize, "{w:?}");
    assert!(w.mean > 8.0, "{w:?}");

    let shallow = random_values(&any::<Shallow>(), 2_000, 22);
    let deepest = shallow.iter().map(Shallow::depth).max().unwrap();
    // Two nested branch nodes, then leaves (a leaf struct has no children): three levels of
    // values.
    assert_eq!(
        deepest, 3,
        "a root, its children, and childless grandchildren"
    );

    // Running out: budget 0, a leaf.
    assert_eq!(value_from_bytes(&any::<Wide>(), &[]), Ok(Wide::Leaf));
}

#[test]
fn type_attributes_bound_reflection() {
    use tapefuzz::generators::Reflection;
    // Within the bounds: reflected, and replayed to the same value.
    let mut v = Wide::Leaf;
    for _ in 0..6 {
        v = Wide::Node(vec![v]);
    }
    let r = Reflection::of(&any::<Wide>(), &v).expect("six nested branches are allowed");
    assert_eq!(r.replay(&any::<Wide>()), Ok(v.clone()));
    // The budget is the count of branch nodes: 6, under the type's 200.
    assert_eq!(r.indices()[0], 6);

    // One level too deep: an error naming the type's bound.
    let deep = Wide::Node(vec![v]);
    let e = Reflection::of(&any::<Wide>(), &deep)
        .unwrap_err()
        .to_string();
    assert!(e.contains("Wide") && e.contains("at most 6"), "{e}");

    // Too many branches for the type's size (1 + 100 × 2 = 201 > 200) in three levels.
    let wide = Wide::Node(vec![Wide::Node(vec![Wide::Node(vec![])]); 100]);
    let e = Reflection::of(&any::<Wide>(), &wide)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("201 branch nodes") && e.contains("at most 200"),
        "{e}"
    );

    // A struct node too deep for `depth = 2`: a grandchild with children.
    let leaf = || Shallow { children: vec![] };
    let s = Shallow {
        children: vec![Shallow {
            children: vec![Shallow {
                children: vec![leaf()],
            }],
        }],
    };
    let e = Reflection::of(&any::<Shallow>(), &s)
        .unwrap_err()
        .to_string();
    assert!(e.contains("at most 2"), "{e}");
    let ok = Shallow {
        children: vec![
            Shallow {
                children: vec![leaf(); 2]
            };
            3
        ],
    };
    let r = Reflection::of(&any::<Shallow>(), &ok).expect("two levels");
    assert_eq!(r.replay(&any::<Shallow>()), Ok(ok));
}

// ---------------------------------------------------------------------------------------------
// The guide's example (guide/src/derive.md).

#[derive(Generate, Debug, Clone)]
enum Expr {
    Num(#[generate(range = -100..=100)] i64),
    #[generate(weight = 2)]
    Add(Box<Expr>, Box<Expr>),
    Neg(Box<Self>),
}

#[derive(Generate, Debug, Clone)]
struct Job {
    #[generate(size = 1..=8)]
    name: String,
    steps: Vec<Expr>,
    #[generate(skip)] // Default::default()
    retries: u32,
}

#[test]
fn jobs() {
    check(any::<Job>(), |j: Job| j.retries == 0);
    fn ok(e: &Expr) -> bool {
        match e {
            Expr::Num(n) => (-100..=100).contains(n),
            Expr::Add(a, b) => ok(a) && ok(b),
            Expr::Neg(a) => ok(a),
        }
    }
    for j in random_values(&any::<Job>(), 1000, 13) {
        assert!(j.steps.iter().all(ok) && (1..=8).contains(&j.name.chars().count()));
    }
}

// ---------------------------------------------------------------------------------------------
// Shrinking.

#[test]
fn a_failure_shrinks_to_the_minimal_derived_value() {
    let r = Property::new("derive_shrink_tree")
        .no_corpus()
        .seed(11)
        .run(any::<Tree>(), |t: Tree| t.nodes() < 2);
    assert_eq!(
        r.value.as_deref(),
        Some("Node(Leaf, 0, Node(Leaf, 0, Leaf))"),
        "{r}"
    );

    let r = Property::new("derive_shrink_shape")
        .no_corpus()
        .seed(12)
        .run(any::<Vec<Shape>>(), |v: Vec<Shape>| {
            !v.iter()
                .any(|s| matches!(s, Shape::Rect { w, .. } if *w >= 3))
        });
    assert_eq!(r.value.as_deref(), Some("[Rect { w: 3, h: 0 }]"), "{r}");
}
