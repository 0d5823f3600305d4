//! Mutant benchmark (issue 18, paper 003 §5): for every planted bug of the chosen targets,
//! the time each strategy takes to find it, side by side in one run, with a budget per
//! (bug, strategy, seed). Random strategies run several seeds (the table reports medians);
//! `enumerate` and `patterns` are deterministic up to timing and run one seed unless asked.
//!
//! The Rust peer, `proptest` (tcas only: its inputs are a tuple), generates with a proptest
//! strategy of the same ranges and checks until the bug shows or the budget ends.
//!
//! ```text
//! Usage: mutants-bench [--targets tcas,stlc] [--strategies random,rl,enumerate,patterns,cover,proptest]
//!                      [--seconds tcas=60,stlc=10] [--seeds N] [--bugs b1,b2] [--jobs N]
//!                      [--pattern-scale X] [--patterns t:f:seconds[:random],…]
//!                      [--cap strategy@target=N,…]   (a smaller budget for one strategy on one
//!                                                     target: enumerate on tcas, say)
//! ```
//!
//! One JSON line per run on stdout: `{"bench":"mutants","target","bug","strategy","seed",
//! "found","seconds","tests","budget"}`; progress on stderr. `scripts/bench mutants` runs it
//! and writes the tables in BENCHMARKS.md.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use tapefuzz::env::Env;
use tapefuzz::prelude::*;
use tapefuzz::search::registry;

/// One run to do.
#[derive(Clone, Debug)]
struct Job {
    target: String,
    bug: String,
    strategy: String,
    seed: u64,
    budget: f64,
}

fn arg<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(String::as_str)
}

fn list(s: &str) -> Vec<String> {
    s.split(',')
        .map(|x| x.trim().to_string())
        .filter(|x| !x.is_empty())
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let targets = list(arg(&args, "--targets").unwrap_or("tcas,stlc"));
    let strategies =
        list(arg(&args, "--strategies").unwrap_or("random,rl,enumerate,patterns,cover,proptest"));
    let seeds: u64 = arg(&args, "--seeds").map_or(3, |s| s.parse().expect("--seeds N"));
    let jobs: usize = arg(&args, "--jobs").map_or(1, |s| s.parse().expect("--jobs N"));
    let only_bugs = arg(&args, "--bugs").map(list);
    let mut budgets: BTreeMap<String, f64> =
        [("tcas".to_string(), 60.0), ("stlc".to_string(), 10.0)].into();
    if let Some(s) = arg(&args, "--seconds") {
        for kv in list(s) {
            let (k, v) = kv.split_once('=').expect("--seconds target=N,…");
            budgets.insert(k.into(), v.parse().expect("seconds"));
        }
    }
    let mut caps: BTreeMap<(String, String), f64> = BTreeMap::new();
    if let Some(s) = arg(&args, "--cap") {
        for kv in list(s) {
            let (k, v) = kv.split_once('=').expect("--cap strategy@target=N,…");
            let (strategy, target) = k.split_once('@').expect("--cap strategy@target=N");
            caps.insert(
                (strategy.into(), target.into()),
                v.parse().expect("seconds"),
            );
        }
    }
    let scale = arg(&args, "--pattern-scale").unwrap_or("0.1").to_string();
    let mut pairs = vec![("TAPEFUZZ_PATTERN_SCALE", scale.as_str())];
    if let Some(p) = arg(&args, "--patterns") {
        pairs.push(("TAPEFUZZ_PATTERNS", p));
    }
    let env = Env::from_pairs(pairs);

    let mut todo = Vec::new();
    for t in &targets {
        let target = harnesses::find(t).unwrap_or_else(|e| panic!("{e}"));
        let budget = budgets.get(t.as_str()).copied().unwrap_or(10.0);
        for bug in target.bug_names() {
            if only_bugs
                .as_ref()
                .is_some_and(|b| !b.iter().any(|x| x == bug))
            {
                continue;
            }
            for s in &strategies {
                if s == "proptest" && t != "tcas" {
                    continue;
                }
                let n = if matches!(s.as_str(), "enumerate" | "patterns") {
                    1
                } else {
                    seeds
                };
                let budget = caps.get(&(s.clone(), t.clone())).copied().unwrap_or(budget);
                for seed in 1..=n {
                    todo.push(Job {
                        target: t.clone(),
                        bug: bug.to_string(),
                        strategy: s.clone(),
                        seed,
                        budget,
                    });
                }
            }
        }
    }
    let total = todo.len();
    eprintln!("mutants-bench: {total} runs, {jobs} at a time");
    let next = AtomicUsize::new(0);
    let out = Mutex::new(());
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(job) = todo.get(k) else { break };
                    let (found, seconds, tests, exhausted) = if job.strategy == "proptest" {
                        proptest_tcas(job)
                    } else {
                        engine(job, &env)
                    };
                    let line = serde_json::json!({
                        "bench": "mutants",
                        "target": job.target,
                        "bug": job.bug,
                        "strategy": job.strategy,
                        "seed": job.seed,
                        "found": found,
                        "seconds": seconds,
                        "tests": tests,
                        "budget": job.budget,
                        "exhausted": exhausted,
                    });
                    let _g = out.lock().unwrap();
                    println!("{line}");
                    eprintln!(
                        "[{}/{total}] {}/{} {} seed {}: {}",
                        k + 1,
                        job.target,
                        job.bug,
                        job.strategy,
                        job.seed,
                        match seconds {
                            Some(s) if found => format!("found in {s:.3} s"),
                            _ if exhausted => "exhausted, not found".into(),
                            _ => "not found".into(),
                        }
                    );
                }
            });
        }
    });
}

/// A run of the engine: found, seconds to the failure, tests (to the failure, or all),
/// whether the search was exhausted.
fn engine(job: &Job, env: &Env) -> (bool, Option<f64>, u64, bool) {
    let target = harnesses::find(&job.target).expect("target");
    let test = target.test(Some(&job.bug)).expect("bug");
    let strategy = registry::named(&job.strategy, env).expect("strategy");
    let report = Property::new(format!("{}.{}", job.target, job.bug))
        .no_corpus()
        .seed(job.seed)
        .tests(u64::MAX)
        .seconds(job.budget)
        .strategy_arc(strategy)
        .run_test(test.as_ref());
    let r = &report;
    (
        r.failure.is_some(),
        r.first_failure_seconds,
        r.first_failure_test().unwrap_or(r.total_tests()),
        r.exhausted,
    )
}

/// The proptest peer on tcas: inputs from [`harnesses::peers::proptest_tcas`] with a seeded
/// runner, checked against the original until they differ or the budget ends.
fn proptest_tcas(job: &Job) -> (bool, Option<f64>, u64, bool) {
    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    let version = harnesses::tcas::version(Some(&job.bug));
    let mut seed = [0u8; 32];
    seed[..8].copy_from_slice(&job.seed.to_le_bytes());
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &seed),
    );
    let strategy = harnesses::peers::proptest_tcas();
    let start = std::time::Instant::now();
    let mut tests = 0u64;
    loop {
        tests += 1;
        let inputs = strategy.new_tree(&mut runner).expect("a value").current();
        if harnesses::tcas::check(&inputs, version).is_err() {
            return (true, Some(start.elapsed().as_secs_f64()), tests, false);
        }
        if tests.is_multiple_of(1024) && start.elapsed().as_secs_f64() >= job.budget {
            return (false, None, tests, false);
        }
    }
}
