//! ProSyT benchmark (issue 19, paper 001 §7, BENCHMARKS.md "Constrained generation"): for
//! each of the ten programs, the valid inputs (and distinct valid inputs) of size 10..=100
//! that generate-and-filter (`random` on `filtered(spec)`), `rl` on the same generator and
//! `constrain` on `constrained(spec)` make in the same budget, side by side in one run; then
//! the seconds each takes to find the program's planted bug.
//!
//! ```text
//! Usage: prosyt-bench [--programs a,b] [--seconds S] [--bug-seconds S] [--seeds N]
//! ```
//!
//! One JSON line per run on stdout (`{"bench":"prosyt","program","config","seed","tests",
//! "valid","unique_valid","bug_found","bug_seconds"}`), then a Markdown table of the
//! medians over the seeds.

use harnesses::prosyt::{Mode, programs};
use tapefuzz::env::Env;
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
                let r = run(None, seconds).run;
                let b = run(Some(bug), bug_seconds).run;
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
    }
    println!();
    println!(
        "| program | generator | valid in {seconds} s | distinct valid | bug found (seeds) | median s to bug |"
    );
    println!("|---|---|---:|---:|---:|---:|");
    for (name, config, v, u, f, s) in rows {
        println!(
            "| `{name}` | {config} | {v:.0} | {u:.0} | {f}/{seeds} | {} |",
            if s.is_nan() {
                "—".to_string()
            } else {
                format!("{s:.2}")
            }
        );
    }
}
