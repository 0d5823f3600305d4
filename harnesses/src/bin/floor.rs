//! Generation against the hand-written floor: ns per value of a tapefuzz generator and of a
//! plain `rand::rngs::SmallRng` loop that produces the same distribution (the loop a user
//! would write without a library), side by side in one run, tools interleaved within each
//! round, medians over `--rounds` rounds.
//!
//! Each tapefuzz value is drawn as the engine draws a test case: a fresh seed
//! `Rng::derive(run_seed, i)`, a `RandomSource` and a non-recording `Tape`. The floor keeps one
//! `SmallRng` for the whole round and draws uniform values where tapefuzz's integers are
//! biased towards small numbers and the ends of their range (so the floor pays less).
//!
//! Target: every row at most 1.3× the floor; a derived recursive type at most 1.2× the
//! hand-written `Gen` per node.
//!
//! Usage: `floor [--rounds N] [--quick] [--only NAME] [--profile tapefuzz|floor]`. Progress
//! on stderr, one JSON line per workload on stdout (`"bench": "floor"`). `--profile` runs one
//! side only, one round, no output: for callgrind.

use harnesses::bst::{DerivedTree, MAX_DEPTH, Tree, tree_gen};
use harnesses::expr::{Expr, expr_gen};
use harnesses::timing::{Sample, median, round2, timed};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use std::hint::black_box;
use tapefuzz::generators::{Boxed, Gen, GenExt, any, ints, just, option, vecs};
use tapefuzz::one_of;
use tapefuzz::tape::{Label, RandomSource, Reject, Rng, Tape};

const TARGET: f64 = 1.3;
const TARGET_DERIVED: f64 = 1.2;

/// `n` values of `g`, each from a fresh random tape as the engine draws a test case.
fn tapefuzz_loop<G: Gen>(g: &G, n: usize, seed: u64, size: impl Fn(&G::Value) -> usize) -> Sample {
    timed(n, |i| {
        let mut src = RandomSource::new(Rng::derive(seed, i));
        let mut tape = Tape::new(&mut src, false);
        let v = g.generate(&mut tape).expect("a value");
        let s = size(&v);
        black_box(&v);
        s
    })
}

/// `n` values from `make` with one `SmallRng`.
fn floor_loop<T>(
    n: usize,
    seed: u64,
    mut make: impl FnMut(&mut SmallRng) -> T,
    size: impl Fn(&T) -> usize,
) -> Sample {
    let mut rng = SmallRng::seed_from_u64(seed);
    timed(n, |_| {
        let v = make(&mut rng);
        let s = size(&v);
        black_box(&v);
        s
    })
}

// ---------------------------------------------------------------------------------------------
// Vectors.

/// `vecs(ints::<u64>(..), 0..=100).average(50.0)`: "one more?" with probability 50/51 while
/// under 100 elements (a mean of about 43).
fn vec_mean43(n: usize, seed: u64, floor: bool) -> Sample {
    if floor {
        floor_loop(
            n,
            seed,
            |rng| {
                let mut v = Vec::new();
                while v.len() < 100 && rng.random_bool(50.0 / 51.0) {
                    v.push(rng.random::<u64>());
                }
                v
            },
            Vec::len,
        )
    } else {
        let g = vecs(ints::<u64>(..), 0..=100).average(50.0);
        tapefuzz_loop(&g, n, seed, Vec::len)
    }
}

/// A length uniform in `0..=100`, then that many `u64`: `flat_map` in tapefuzz.
fn vec_uniform(n: usize, seed: u64, floor: bool) -> Sample {
    if floor {
        floor_loop(
            n,
            seed,
            |rng| {
                let len = rng.random_range(0..=100usize);
                (0..len).map(|_| rng.random::<u64>()).collect::<Vec<u64>>()
            },
            Vec::len,
        )
    } else {
        let g = ints::<usize>(0..=100).flat_map(|len| vecs(ints::<u64>(..), len..=len));
        tapefuzz_loop(&g, n, seed, Vec::len)
    }
}

// ---------------------------------------------------------------------------------------------
// The RLCheck BST: a value uniform in 0..=10, a coin for each child while depth < 4.

fn tree_nodes(t: &Tree) -> usize {
    1 + t.left.as_deref().map_or(0, tree_nodes) + t.right.as_deref().map_or(0, tree_nodes)
}

fn floor_tree(rng: &mut SmallRng, depth: usize) -> Tree {
    let value = rng.random_range(0..=10u8);
    let left =
        (depth < MAX_DEPTH && rng.random_bool(0.5)).then(|| Box::new(floor_tree(rng, depth + 1)));
    let right =
        (depth < MAX_DEPTH && rng.random_bool(0.5)).then(|| Box::new(floor_tree(rng, depth + 1)));
    Tree { value, left, right }
}

/// The BST from combinators: one generator per level, `option` children.
fn tree_combinators(depth: usize) -> Boxed<Tree> {
    let child = if depth < MAX_DEPTH {
        option(tree_combinators(depth + 1).map(Box::new)).boxed()
    } else {
        just(None).boxed()
    };
    (ints::<u8>(0..=10), child.clone(), child)
        .map(|(value, left, right)| Tree { value, left, right })
        .boxed()
}

fn bst_combinators(n: usize, seed: u64, floor: bool) -> Sample {
    if floor {
        floor_loop(n, seed, |rng| floor_tree(rng, 0), tree_nodes)
    } else {
        tapefuzz_loop(&tree_combinators(0), n, seed, tree_nodes)
    }
}

/// The BST as a user writes a `Gen` by hand: the floor's code with the tape for the RNG.
struct HandTree;

const HAS_LEFT: Label = Label::new("has_left");
const HAS_RIGHT: Label = Label::new("has_right");

fn hand_node(tape: &mut Tape<'_>, depth: usize) -> Result<Tree, Reject> {
    let value = ints::<u8>(0..=10).generate(tape)?;
    let left = if depth < MAX_DEPTH && tape.draw_bool(HAS_LEFT, 0.5)? {
        Some(Box::new(hand_node(tape, depth + 1)?))
    } else {
        None
    };
    let right = if depth < MAX_DEPTH && tape.draw_bool(HAS_RIGHT, 0.5)? {
        Some(Box::new(hand_node(tape, depth + 1)?))
    } else {
        None
    };
    Ok(Tree { value, left, right })
}

impl Gen for HandTree {
    type Value = Tree;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<Tree, Reject> {
        hand_node(tape, 0)
    }
}

fn bst_hand_gen(n: usize, seed: u64, floor: bool) -> Sample {
    if floor {
        floor_loop(n, seed, |rng| floor_tree(rng, 0), tree_nodes)
    } else {
        tapefuzz_loop(&HandTree, n, seed, tree_nodes)
    }
}

/// The harnesses' RLCheck generator (`harnesses::bst::TreeGen`: spans per node and child,
/// and the bounds check its strict twin shares).
fn bst_harness_gen(n: usize, seed: u64, floor: bool) -> Sample {
    if floor {
        floor_loop(n, seed, |rng| floor_tree(rng, 0), tree_nodes)
    } else {
        tapefuzz_loop(&tree_gen(), n, seed, tree_nodes)
    }
}

// ---------------------------------------------------------------------------------------------
// Expressions.

fn expr_nodes(e: &Expr) -> usize {
    match e {
        Expr::Num(_) | Expr::Var => 1,
        Expr::Neg(a) => 1 + expr_nodes(a),
        Expr::Add(a, b) | Expr::Sub(a, b) | Expr::Mul(a, b) => 1 + expr_nodes(a) + expr_nodes(b),
    }
}

fn floor_leaf(rng: &mut SmallRng) -> Expr {
    if rng.random_bool(0.5) {
        Expr::Num(rng.random_range(-8..=8))
    } else {
        Expr::Var
    }
}

/// `expr_gen()`'s distribution: below depth 5 and 40 operators, an operator with probability
/// 0.55 (one of four, uniform), else a leaf (a number in -8..=8 or `x`, even odds).
fn floor_expr(rng: &mut SmallRng, depth: usize, ops: &mut usize) -> Expr {
    if depth < harnesses::expr::MAX_DEPTH && *ops < 40 && rng.random_bool(0.55) {
        *ops += 1;
        let mut sub = |rng: &mut SmallRng| Box::new(floor_expr(rng, depth + 1, ops));
        match rng.random_range(0..4u8) {
            0 => Expr::Add(sub(rng), sub(rng)),
            1 => Expr::Sub(sub(rng), sub(rng)),
            2 => Expr::Mul(sub(rng), sub(rng)),
            _ => Expr::Neg(sub(rng)),
        }
    } else {
        floor_leaf(rng)
    }
}

fn expr_recursive(n: usize, seed: u64, floor: bool) -> Sample {
    if floor {
        floor_loop(n, seed, |rng| floor_expr(rng, 0, &mut 0), expr_nodes)
    } else {
        tapefuzz_loop(&expr_gen(), n, seed, expr_nodes)
    }
}

/// Depth of the `one_of!`-per-level expression generator.
const LEVELS: usize = 4;

/// One `one_of!` per level: at depth `d` below [`LEVELS`], one of six (two leaves, four
/// operators over the level below), uniform; at the last level one of the two leaves.
fn expr_levels(d: usize) -> Boxed<Expr> {
    let num = ints::<i64>(-8..=8).map(Expr::Num);
    if d == LEVELS {
        return one_of![num, just(Expr::Var)].boxed();
    }
    let inner = expr_levels(d + 1);
    let pair = || (inner.clone(), inner.clone());
    one_of![
        num,
        just(Expr::Var),
        pair().map(|(a, b)| Expr::Add(Box::new(a), Box::new(b))),
        pair().map(|(a, b)| Expr::Sub(Box::new(a), Box::new(b))),
        pair().map(|(a, b)| Expr::Mul(Box::new(a), Box::new(b))),
        inner.clone().map(|a| Expr::Neg(Box::new(a))),
    ]
    .boxed()
}

fn floor_levels(rng: &mut SmallRng, d: usize) -> Expr {
    if d == LEVELS {
        return floor_leaf(rng);
    }
    let sub = |rng: &mut SmallRng| Box::new(floor_levels(rng, d + 1));
    match rng.random_range(0..6u8) {
        0 => Expr::Num(rng.random_range(-8..=8)),
        1 => Expr::Var,
        2 => Expr::Add(sub(rng), sub(rng)),
        3 => Expr::Sub(sub(rng), sub(rng)),
        4 => Expr::Mul(sub(rng), sub(rng)),
        _ => Expr::Neg(sub(rng)),
    }
}

fn expr_one_of(n: usize, seed: u64, floor: bool) -> Sample {
    if floor {
        floor_loop(n, seed, |rng| floor_levels(rng, 0), expr_nodes)
    } else {
        tapefuzz_loop(&expr_levels(0), n, seed, expr_nodes)
    }
}

// ---------------------------------------------------------------------------------------------
// A derived recursive type against the hand-written `Gen`, per node (their distributions
// differ: the derived type draws a size budget).

fn derived_tree(n: usize, seed: u64, hand: bool) -> Sample {
    if hand {
        tapefuzz_loop(&HandTree, n, seed, tree_nodes)
    } else {
        tapefuzz_loop(&any::<DerivedTree>(), n, seed, DerivedTree::nodes)
    }
}

// ---------------------------------------------------------------------------------------------

type Workload = fn(usize, u64, bool) -> Sample;

/// Name, values per round, the workload (`true`: the floor), the unit of size, whether the
/// ratio is per unit of size (the two sides' distributions differ) and the target.
const WORKLOADS: [(&str, usize, Workload, &str, bool, f64); 8] = [
    ("vec_mean43", 200_000, vec_mean43, "elements", false, TARGET),
    (
        "vec_uniform_flat_map",
        200_000,
        vec_uniform,
        "elements",
        false,
        TARGET,
    ),
    (
        "bst_combinators",
        500_000,
        bst_combinators,
        "nodes",
        false,
        TARGET,
    ),
    (
        "bst_hand_gen",
        500_000,
        bst_hand_gen,
        "nodes",
        false,
        TARGET,
    ),
    (
        "bst_harness_gen",
        500_000,
        bst_harness_gen,
        "nodes",
        false,
        TARGET,
    ),
    (
        "expr_recursive",
        300_000,
        expr_recursive,
        "nodes",
        false,
        TARGET,
    ),
    (
        "expr_one_of_levels",
        300_000,
        expr_one_of,
        "nodes",
        false,
        TARGET,
    ),
    (
        "derived_tree_vs_hand_gen",
        300_000,
        derived_tree,
        "nodes",
        true,
        TARGET_DERIVED,
    ),
];

fn usage() -> ! {
    eprintln!("usage: floor [--rounds N] [--quick] [--only NAME] [--profile tapefuzz|floor]");
    std::process::exit(2)
}

fn main() {
    let mut rounds = 5usize;
    let mut scale = 1usize;
    let mut only: Option<String> = None;
    let mut profile: Option<bool> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rounds" => {
                rounds = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .filter(|&r| r > 0)
                    .unwrap_or_else(|| usage())
            }
            "--quick" => scale = 10,
            "--only" => only = Some(args.next().unwrap_or_else(|| usage())),
            "--profile" => {
                profile = match args.next().as_deref() {
                    Some("tapefuzz") => Some(false),
                    Some("floor") => Some(true),
                    _ => usage(),
                }
            }
            _ => usage(),
        }
    }
    let run_seed = 0x5eed_f100;
    for (name, n, work, unit, per_unit, target) in WORKLOADS {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let n = (n / scale).max(1);
        if let Some(floor) = profile {
            black_box(work(n, run_seed, floor));
            continue;
        }
        // Warm-up: allocator, caches, branch predictors.
        black_box(work((n / 20).max(1), run_seed ^ 0xffff, false));
        black_box(work((n / 20).max(1), run_seed ^ 0xffff, true));
        let (mut tf, mut fl) = (Vec::new(), Vec::new());
        for r in 0..rounds {
            let seed = Rng::derive(run_seed, r as u64);
            let a = work(n, seed, false);
            let b = work(n, seed, true);
            eprintln!(
                "[{name}] round {}/{rounds}: tapefuzz {:>7.1} ns (mean {unit} {:.2}), floor {:>7.1} ns (mean {unit} {:.2})",
                r + 1,
                a.ns,
                a.size,
                b.ns,
                b.size
            );
            tf.push(a);
            fl.push(b);
        }
        let per = |s: &Sample| if per_unit { s.ns / s.size } else { s.ns };
        let tf_ns = median(&tf.iter().map(per).collect::<Vec<_>>());
        let fl_ns = median(&fl.iter().map(per).collect::<Vec<_>>());
        let mean = |s: &[Sample]| s.iter().map(|s| s.size).sum::<f64>() / s.len() as f64;
        let ratio = tf_ns / fl_ns;
        println!(
            "{}",
            serde_json::json!({
                "bench": "floor",
                "workload": name,
                "values_per_round": n,
                "rounds": rounds,
                "per": if per_unit { unit } else { "value" },
                "tapefuzz_ns": round2(tf_ns),
                "floor_ns": round2(fl_ns),
                "ratio": round2(ratio),
                "target": target,
                "pass": ratio <= target,
                "mean_size_tapefuzz": round2(mean(&tf)),
                "mean_size_floor": round2(mean(&fl)),
            })
        );
    }
}
