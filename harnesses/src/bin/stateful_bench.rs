//! Stateful benchmark (issue 20, BENCHMARKS.md "Stateful testing"): for every planted bug of
//! `lru_cache`, `undo_buffer` and `kv_store`, the seconds and test cases to the first failure
//! and whether the failure shrank to the bug's minimal trace, for `random`, `rl` and `sa` on
//! the same action sequences, and for the Rust peer, proptest-state-machine, on the same
//! systems and models, side by side in one run over several seeds. Then the lost update of
//! `kv_store_concurrent`: the concurrent mode against the sequential one with the same bug.
//!
//! ```text
//! Usage: stateful-bench [--seconds S] [--seeds N] [--bugs a,b]
//! ```
//!
//! One JSON line per run on stdout (`{"bench":"stateful","target","bug","config","seed",
//! "found","seconds","tests","minimal","shrunk"}`), then a Markdown table of the medians.

use harnesses::stateful::{canonical, kv_store, lru_cache, minimal, undo_buffer};
use tapefuzz::env::Env;
use tapefuzz::prelude::*;
use tapefuzz::property::Test;
use tapefuzz::search::registry;

fn arg<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(String::as_str)
}

fn median(mut v: Vec<f64>) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    Some(if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    })
}

/// One run's outcome.
struct Outcome {
    found: bool,
    seconds: f64,
    tests: u64,
    shrunk: Option<String>,
}

type Build = fn(Option<&str>) -> Box<dyn Test>;

fn ours(test: &dyn Test, name: &str, strategy: &str, seed: u64, seconds: f64) -> Outcome {
    let env = Env::from_pairs([]);
    let r = Property::new(format!("stateful_bench::{name}"))
        .no_corpus()
        .seed(seed)
        .tests(u64::MAX)
        .seconds(seconds)
        .strategy_arc(registry::named(strategy, &env).expect("strategy"))
        .run_test(test);
    let found = r.failure.is_some();
    Outcome {
        found,
        seconds: r.first_failure_seconds.unwrap_or(r.seconds),
        tests: r.total_tests(),
        shrunk: r.value.clone(),
    }
}

fn peer(target: &str, bug: &str, seed: u64, seconds: f64) -> Outcome {
    let p = harnesses::peers_stateful::run(target, Some(bug), seed, seconds);
    Outcome {
        found: p.found,
        seconds: p.seconds,
        tests: p.cases,
        shrunk: p.shrunk,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let seconds: f64 = arg(&args, "--seconds").map_or(10.0, |s| s.parse().expect("--seconds"));
    let seeds: u64 = arg(&args, "--seeds").map_or(10, |s| s.parse().expect("--seeds"));
    let only: Option<Vec<String>> =
        arg(&args, "--bugs").map(|s| s.split(',').map(str::to_string).collect());
    let mut cases: Vec<(&str, &str, &str, Build)> = Vec::new();
    for (target, bugs, build) in [
        ("lru_cache", lru_cache::BUGS, lru_cache::test as Build),
        ("undo_buffer", undo_buffer::BUGS, undo_buffer::test as Build),
        ("kv_store", kv_store::BUGS, kv_store::test as Build),
    ] {
        for (bug, _) in bugs {
            for config in ["random", "swarm", "rl", "sa", "proptest-state-machine"] {
                cases.push((target, bug, config, build));
            }
        }
    }
    for config in ["random", "swarm", "rl", "sa"] {
        cases.push((
            "kv_store_concurrent",
            "lost_update",
            config,
            kv_store::concurrent_test as Build,
        ));
    }
    let sequential_lost: Build = |_| kv_store::sequential(Some("lost_update"));
    cases.push((
        "kv_store",
        "lost_update",
        "random (sequential)",
        sequential_lost,
    ));
    cases.push((
        "kv_store",
        "lost_update",
        "proptest-state-machine",
        kv_store::test,
    ));

    let mut rows = Vec::new();
    for (target, bug, config, build) in cases {
        if only.as_ref().is_some_and(|o| !o.iter().any(|b| b == bug)) {
            continue;
        }
        let want = minimal(bug).expect("a minimal trace");
        let (mut found, mut on_minimum, mut secs, mut tests, mut lengths) =
            (0, 0, vec![], vec![], vec![]);
        for seed in 1..=seeds {
            let o = if config == "proptest-state-machine" {
                peer(target, bug, seed, seconds)
            } else {
                let strategy = config.split(' ').next().unwrap();
                ours(&*build(Some(bug)), bug, strategy, seed, seconds)
            };
            let shrunk = o.shrunk.clone().map(|s| canonical(target, &s));
            let is_minimal = o.found && shrunk.as_deref().is_some_and(|s| want.matches(s));
            println!(
                "{{\"bench\":\"stateful\",\"target\":\"{target}\",\"bug\":\"{bug}\",\"config\":\"{config}\",\"seed\":{seed},\"found\":{},\"seconds\":{:.4},\"tests\":{},\"minimal\":{is_minimal},\"shrunk\":{:?}}}",
                o.found,
                o.seconds,
                o.tests,
                shrunk.clone().unwrap_or_default()
            );
            eprintln!(
                "stateful-bench: {target} {bug} {config} seed {seed}: {}",
                if o.found {
                    format!(
                        "found in {:.3} s, {} tests, {}",
                        o.seconds,
                        o.tests,
                        if is_minimal { "minimal" } else { "NOT minimal" }
                    )
                } else {
                    "not found".to_string()
                }
            );
            if o.found {
                found += 1;
                secs.push(o.seconds);
                tests.push(o.tests as f64);
                if let Some(s) = &shrunk {
                    lengths.push(s.lines().filter(|l| l.contains(". ")).count() as f64);
                }
                if is_minimal {
                    on_minimum += 1;
                }
            }
        }
        rows.push((target, bug, config, found, on_minimum, secs, tests, lengths));
    }
    println!();
    println!(
        "| target | bug (minimal actions) | config | found (of {seeds}) | median s to failure | median tests to failure | shrunk to the minimum | median shrunk actions |"
    );
    println!("|---|---|---|---:|---:|---:|---:|---:|");
    for (target, bug, config, found, on_min, secs, tests, lengths) in rows {
        let min_len = minimal(bug)
            .unwrap()
            .steps
            .lines()
            .filter(|l| l.contains(". "))
            .count();
        let f = |v: Option<f64>, p: usize| v.map_or("–".to_string(), |x| format!("{x:.p$}"));
        println!(
            "| `{target}` | {bug} ({min_len}) | {config} | {found} | {} | {} | {on_min} of {found} | {} |",
            f(median(secs), 4),
            f(median(tests), 0),
            f(median(lengths), 1),
        );
    }
}
