//! RLCheck benchmark (benchmarks §3): unique valid binary search trees in N generations,
//! random against the `rl` guide and its variants, with proptest as the Rust peer, all in one
//! run. One JSON line per (tool, seed) on stdout; progress on stderr. `scripts/rl-bench`
//! runs it and writes the table in BENCHMARKS.md.
//!
//! Usage: rl-bench [--seeds N] [--generations N] [--repeats N] [--only TOOL[,TOOL...]]
//!
//! `--repeats N` (default 5): each (tool, seed) runs N times, interleaved with the other
//! tools; its time is the fastest of the N (they do identical work), its counts the same.

use harnesses::bst::{Tree, is_bst, tree_gen};
use harnesses::peers::proptest_tree;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config as PtConfig, RngAlgorithm, TestRng, TestRunner};
use std::collections::HashSet;
use std::hint::black_box;
use std::time::Instant;
use tapefuzz::generators::Gen;
use tapefuzz::search::rl::{Abstraction, Guide, Learn, Learners, Update};
use tapefuzz::tape::{DrawContext, RandomSource, Rng, Source, Status, Tape};

/// What one run counted.
struct Counts {
    valid: u64,
    unique: usize,
    seconds: f64,
    /// Mean nodes of the unique valid trees.
    mean_size: f64,
    /// Learners (choice point × state) the guide made; 0 without a guide.
    states: usize,
    /// Mean choices drawn per value (0 when not counted).
    choices: f64,
}

fn nodes(t: &Tree) -> usize {
    1 + t.left.as_deref().map_or(0, nodes) + t.right.as_deref().map_or(0, nodes)
}

/// Counts valid and unique valid trees; `next` makes one tree and learns from whether it was
/// valid and new (the judge says `None` for an invalid tree, else whether it is new, so the
/// validity check runs once per value for every tool). A tree is known by its tape's fingerprint (what the engine uses; one tape
/// per tree for this generator, see the quality tests), or by the tree itself for proptest.
fn count(
    n: u64,
    mut next: impl FnMut(u64, &mut dyn FnMut(&Tree, Option<u64>) -> Option<bool>),
) -> Counts {
    let mut trees: HashSet<Tree> = HashSet::new();
    let mut prints: HashSet<u64> = HashSet::new();
    let mut valid = 0;
    let mut size = 0usize;
    let start = Instant::now();
    for i in 0..n {
        next(i, &mut |t: &Tree, print: Option<u64>| {
            if !is_bst(t) {
                return None;
            }
            valid += 1;
            let new = match print {
                Some(p) => prints.insert(p),
                None => !trees.contains(t) && trees.insert(t.clone()),
            };
            if new {
                size += nodes(t);
            }
            Some(new)
        });
    }
    let seconds = start.elapsed().as_secs_f64();
    let unique = trees.len() + prints.len();
    Counts {
        valid,
        unique,
        seconds,
        mean_size: size as f64 / unique.max(1) as f64,
        states: 0,
        choices: 0.0,
    }
}

/// A random source behind the full draw context (choice-point ids, span stack), as the guide
/// gets it: how much of the guide's cost is the tape's, not the learners'.
struct Contextual(RandomSource);

impl Source for Contextual {
    fn draw(&mut self, ctx: &DrawContext<'_>) -> u64 {
        self.0.pick(ctx.max, ctx.hint)
    }
}

/// Random generation: on the engine's fast path, or behind the full draw context.
fn random(n: u64, seed: u64, context: bool) -> Counts {
    let g = tree_gen();
    let mut choices = 0;
    let mut c = count(n, |i, judge| {
        // Only the source measured is built.
        let (mut fast, mut slow);
        let src: &mut dyn Source = if context {
            slow = Contextual(RandomSource::new(Rng::derive(seed, i)));
            &mut slow
        } else {
            fast = RandomSource::new(Rng::derive(seed, i));
            &mut fast
        };
        let mut tape = Tape::new(src, false);
        let t = g.generate(&mut tape).expect("a tree");
        choices += tape.drawn();
        let print = tape.fingerprint();
        black_box(judge(&t, Some(print)));
    });
    c.choices = choices as f64 / n as f64;
    c
}

fn guided(n: u64, seed: u64, learn: &Learn) -> Counts {
    let g = tree_gen();
    let mut guide = Guide::new(learn.clone(), seed);
    let mut choices = 0;
    let mut c = count(n, |_, judge| {
        guide.begin();
        let (t, print) = {
            let mut tape = Tape::new(&mut guide, false);
            let t = g.generate(&mut tape).expect("a tree");
            choices += tape.drawn();
            (t, tape.fingerprint())
        };
        let reward = match judge(&t, Some(print)) {
            Some(new) => guide.reward(Status::Valid, new),
            None => guide.reward(Status::Invalid, false),
        };
        guide.finish(reward);
    });
    c.states = guide.states();
    c.choices = choices as f64 / n as f64;
    c
}

fn proptest(n: u64, seed: u64) -> Counts {
    let strategy = proptest_tree(0);
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let mut runner = TestRunner::new_with_rng(
        PtConfig::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &bytes),
    );
    count(n, |_, judge| {
        let t = strategy.new_tree(&mut runner).expect("a tree").current();
        black_box(judge(&t, None));
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opt = |name: &str, default: u64| -> u64 {
        match args.iter().position(|a| a == name) {
            Some(i) => args
                .get(i + 1)
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| {
                    eprintln!("rl-bench: {name} takes a number");
                    std::process::exit(2)
                }),
            None => default,
        }
    };
    let seeds = opt("--seeds", 10);
    let n = opt("--generations", 100_000);
    let base = Learn::default();
    let variants: Vec<(&str, Learn)> = vec![
        ("rl", base.clone()),
        (
            "rl window 4",
            Learn {
                window: 4,
                ..base.clone()
            },
        ),
        (
            "rl window 7",
            Learn {
                window: 7,
                ..base.clone()
            },
        ),
        (
            "rl by point",
            Learn {
                learners: Learners::ByPoint,
                window: 2,
                ..base.clone()
            },
        ),
        (
            "rl sequence",
            Learn {
                abstraction: Abstraction::Sequence,
                ..base.clone()
            },
        ),
        (
            "rl no state",
            Learn {
                abstraction: Abstraction::None,
                ..base.clone()
            },
        ),
        (
            "rl decayed 0.01",
            Learn {
                update: Update::Decayed(0.01),
                ..base.clone()
            },
        ),
        (
            "rl bonus 5",
            Learn {
                bonus: 5.0,
                ..base.clone()
            },
        ),
    ];
    // `--only NAME[,NAME...]`: just those tools (profiling, quick comparisons).
    let only = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1).cloned());
    let wanted = |name: &str| {
        only.as_deref()
            .is_none_or(|o| o.split(',').any(|o| o == name))
    };
    let repeats = opt("--repeats", 5).max(1);
    for seed in 1..=seeds {
        // Each tool runs `repeats` times, the tools interleaved, and its time is the fastest
        // run: every run of a (tool, seed) does exactly the same work (all are
        // deterministic; checked below), so a slower one was only slowed by the machine
        // (the other core, the hypervisor), and a run of random takes only ~20 ms.
        let mut runs: Vec<(&str, Counts, Vec<f64>)> = Vec::new();
        for round in 0..repeats {
            let mut this: Vec<(&str, Counts)> = Vec::new();
            if wanted("random") {
                this.push(("random", random(n, seed, false)));
            }
            if wanted("random with context") {
                this.push(("random with context", random(n, seed, true)));
            }
            if wanted("proptest") {
                this.push(("proptest", proptest(n, seed)));
            }
            for (name, learn) in &variants {
                if wanted(name) {
                    this.push((name, guided(n, seed, learn)));
                }
            }
            for (k, (tool, c)) in this.into_iter().enumerate() {
                if round == 0 {
                    let t = c.seconds;
                    runs.push((tool, c, vec![t]));
                } else {
                    let (_, first, times) = &mut runs[k];
                    assert_eq!(
                        (first.valid, first.unique),
                        (c.valid, c.unique),
                        "{tool}: a repeated run differs"
                    );
                    first.seconds = first.seconds.min(c.seconds);
                    times.push(c.seconds);
                }
            }
        }
        for (tool, c, times) in runs {
            eprintln!(
                "rl-bench: seed {seed} {tool:<16} {:>6} valid {:>6} unique valid, {:.0} ns/value, {:.1} choices/value, {} states",
                c.valid,
                c.unique,
                c.seconds * 1e9 / n as f64,
                c.choices,
                c.states
            );
            println!(
                "{}",
                serde_json::json!({
                    "bench": "rl", "workload": "bst_valid", "tool": tool, "seed": seed,
                    "generations": n, "valid": c.valid, "unique_valid": c.unique,
                    "ns_per_value": c.seconds * 1e9 / n as f64, "mean_size": c.mean_size,
                    "states": c.states, "choices_per_value": c.choices,
                    "ns_per_value_runs": times.iter().map(|t| t * 1e9 / n as f64).collect::<Vec<_>>(),
                })
            );
        }
    }
}
