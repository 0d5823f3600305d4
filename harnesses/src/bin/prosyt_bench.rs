//! ProSyT benchmark (issue 19, paper 001 §7, BENCHMARKS.md "Constrained generation"): for
//! each of the ten programs, the valid inputs (and distinct valid inputs) of size 10..=100
//! that generate-and-filter (`random` on `filtered(spec)`), `rl` on the same generator and
//! `constrain` on `constrained(spec)` make in the same budget, side by side in one run; then
//! the seconds each takes to find the program's planted bug.
//!
//! The Rust peer, proptest, generates the same types with its own strategies of the same
//! ranges and sizes (`vec(-10000..=10000i64, 10..=100)`, …) and keeps what the same filter
//! accepts (`prop_filter`'s generate-and-filter); for the tree programs it has no strategy
//! here and its rows say so.
//!
//! ```text
//! Usage: prosyt-bench [--programs a,b] [--seconds S] [--bug-seconds S] [--seeds N]
//! ```
//!
//! One JSON line per run on stdout (`{"bench":"prosyt","program","config","seed","tests",
//! "valid","unique_valid","bug_found","bug_seconds"}`), then a Markdown table of the
//! medians over the seeds.

use harnesses::prosyt::{Mode, lists, matrices, programs};
use proptest::collection::vec;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use std::collections::HashSet;
use std::hash::{Hash, Hasher};
use std::time::{Duration, Instant};
use tapefuzz::env::Env;
use tapefuzz::generators::constrained::Constrain;
use tapefuzz::prelude::*;
use tapefuzz::search::registry;

fn arg<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(String::as_str)
}

const CONFIGS: &[(&str, Mode, &str)] = &[
    ("generate-and-filter", Mode::Filtered, "random"),
    ("rl", Mode::Filtered, "rl"),
    ("constrain", Mode::Constrained, "constrain"),
];

/// proptest generate-and-filter: values of `strategy` for `seconds`, kept when `valid`.
fn peer_loop<S, F>(strategy: S, valid: F, seed: u64, seconds: f64) -> (u64, u64, u64)
where
    S: Strategy,
    S::Value: Hash,
    F: Fn(&S::Value) -> bool,
{
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &bytes),
    );
    let end = Instant::now() + Duration::from_secs_f64(seconds);
    let (mut tests, mut ok) = (0u64, 0u64);
    let mut seen = HashSet::new();
    while Instant::now() < end {
        for _ in 0..64 {
            let v = strategy.new_tree(&mut runner).expect("value").current();
            tests += 1;
            if valid(&v) {
                ok += 1;
                let mut h = std::collections::hash_map::DefaultHasher::new();
                v.hash(&mut h);
                seen.insert(h.finish());
            }
        }
    }
    (tests, ok, seen.len() as u64)
}

/// The proptest peer of program `name` (tests, valid, distinct valid), if it has one.
fn proptest_peer(name: &str, seed: u64, seconds: f64) -> Option<(u64, u64, u64)> {
    let int = || -10_000i64..=10_000;
    Some(match name {
        "ord_insert" => peer_loop(
            (vec(int(), 10..=100), int()),
            |v| lists::OrdInsert.valid(v),
            seed,
            seconds,
        ),
        "up_down_seq" => peer_loop(
            vec(int(), 10..=100),
            |v| lists::UpDownSeq.valid(v),
            seed,
            seconds,
        ),
        "n_up_seqs" => peer_loop(
            vec(vec(int(), 1..=30), 2..=10),
            |v| lists::NUpSeqs.valid(v),
            seed,
            seconds,
        ),
        "delete" => peer_loop(
            (vec(int(), 10..=100), vec(int(), 0..=60), vec(int(), 0..=60)),
            |v| lists::Delete.valid(v),
            seed,
            seconds,
        ),
        "stack" => peer_loop(
            (int(), vec(int(), 10..=100)),
            |v| lists::Stack.valid(v),
            seed,
            seconds,
        ),
        "matrix_mult" => {
            let m = || vec(vec(int(), 1..=8), 1..=8);
            peer_loop((m(), m()), |v| matrices::MatrixMult.valid(v), seed, seconds)
        }
        "det_tri_matrix" => peer_loop(
            vec(vec(int(), 1..=13), 4..=13),
            |v| matrices::DetTriMatrix.valid(v),
            seed,
            seconds,
        ),
        _ => return None,
    })
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        f64::NAN
    } else {
        v[v.len() / 2]
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let only: Option<Vec<String>> =
        arg(&args, "--programs").map(|s| s.split(',').map(str::to_string).collect());
    let seconds: f64 = arg(&args, "--seconds").map_or(10.0, |s| s.parse().expect("--seconds"));
    let bug_seconds: f64 =
        arg(&args, "--bug-seconds").map_or(10.0, |s| s.parse().expect("--bug-seconds"));
    let seeds: u64 = arg(&args, "--seeds").map_or(1, |s| s.parse().expect("--seeds"));
    let env = Env::from_pairs([]);
    let mut rows = Vec::new();
    for p in programs() {
        if only
            .as_ref()
            .is_some_and(|o| !o.iter().any(|n| n == p.name))
        {
            continue;
        }
        let bug = p.bugs[0].0;
        for &(config, mode, strategy) in CONFIGS {
            let (mut valid, mut unique, mut found, mut secs) = (vec![], vec![], 0, vec![]);
            for seed in 1..=seeds {
                let run = |bug: Option<&str>, budget: f64| {
                    let test = (p.test)(mode, bug);
                    Property::new(format!("{}.{config}", p.name))
                        .no_corpus()
                        .seed(seed)
                        .tests(u64::MAX)
                        .seconds(budget)
                        .strategy_arc(registry::named(strategy, &env).expect("strategy"))
                        .run_test(test.as_ref())
                };
                let r = run(None, seconds);
                let b = run(Some(bug), bug_seconds);
                println!(
                    "{{\"bench\":\"prosyt\",\"program\":\"{}\",\"config\":\"{config}\",\"seed\":{seed},\"tests\":{},\"valid\":{},\"unique_valid\":{},\"bug_found\":{},\"bug_seconds\":{}}}",
                    p.name,
                    r.total_tests(),
                    r.valid,
                    r.unique_valid,
                    b.failure.is_some(),
                    b.first_failure_seconds
                        .map_or("null".to_string(), |s| format!("{s:.3}"))
                );
                eprintln!(
                    "prosyt-bench: {} {config} seed {seed}: {} valid, bug {}",
                    p.name,
                    r.valid,
                    if b.failure.is_some() {
                        "found"
                    } else {
                        "not found"
                    }
                );
                valid.push(r.valid as f64);
                unique.push(r.unique_valid as f64);
                if b.failure.is_some() {
                    found += 1;
                    secs.push(b.first_failure_seconds.unwrap_or(bug_seconds));
                }
            }
            rows.push((
                p.name,
                config,
                median(valid),
                median(unique),
                found,
                median(secs),
            ));
        }
        let (mut valid, mut unique) = (vec![], vec![]);
        for seed in 1..=seeds {
            if let Some((tests, v, u)) = proptest_peer(p.name, seed, seconds) {
                println!(
                    "{{\"bench\":\"prosyt\",\"program\":\"{}\",\"config\":\"proptest\",\"seed\":{seed},\"tests\":{tests},\"valid\":{v},\"unique_valid\":{u},\"bug_found\":null,\"bug_seconds\":null}}",
                    p.name
                );
                valid.push(v as f64);
                unique.push(u as f64);
            }
        }
        rows.push((
            p.name,
            "proptest (prop_filter)",
            median(valid),
            median(unique),
            0,
            f64::NAN,
        ));
    }
    println!();
    println!(
        "| program | generator | valid in {seconds} s | distinct valid | bug found (seeds) | median s to bug |"
    );
    println!("|---|---|---:|---:|---:|---:|");
    for (name, config, v, u, f, s) in rows {
        let peer = config.starts_with("proptest");
        if peer && v.is_nan() {
            println!("| `{name}` | {config} | no strategy here | | | |");
            continue;
        }
        println!(
            "| `{name}` | {config} | {v:.0} | {u:.0} | {} | {} |",
            if peer {
                "not run".to_string()
            } else {
                format!("{f}/{seeds}")
            },
            if s.is_nan() {
                "—".to_string()
            } else {
                format!("{s:.2}")
            }
        );
    }
}
