//! Reliability figures of the store, for `scripts/reliability`:
//!
//! - `saves N DIR`: saves N distinct tapes to the corpus at DIR, one JSON line per thousand
//!   with the milliseconds that thousand took and its median save in microseconds (the time
//!   per entry should stay flat: no file is rewritten by every save);
//! - `flight N`: nanoseconds per test case with and without the flight record (a corpus
//!   folder, or none), for the random and the rl strategy, on a two-choice value and a list.

use std::hint::black_box;
use std::time::Instant;
use tapefuzz::corpus::Corpus;
use tapefuzz::engine::Config;
use tapefuzz::prelude::*;

fn saves(n: usize, dir: &str) {
    let mut c = Corpus::open(dir);
    let mut started = Instant::now();
    let mut each: Vec<f64> = Vec::with_capacity(1000);
    for i in 0..n {
        let tape = (i as u64).to_be_bytes();
        let t = Instant::now();
        c.save(&tape).expect("save");
        each.push(t.elapsed().as_secs_f64() * 1e6);
        if (i + 1) % 1000 == 0 {
            let ms = started.elapsed().as_secs_f64() * 1e3;
            // The median save: fsync latency comes in bursts that a sum would show as growth.
            each.sort_by(f64::total_cmp);
            let median_us = each[each.len() / 2];
            println!(
                "{}",
                serde_json::json!({"bench": "saves", "thousand": (i + 1) / 1000, "ms": ms, "median_us": median_us})
            );
            each.clear();
            started = Instant::now();
        }
    }
}

/// ns per test case of `tests` test cases of `strategy`, with a corpus folder or none.
fn per_test(strategy: &str, tests: u64, corpus: bool, list: bool) -> f64 {
    let dir = std::env::temp_dir().join(format!("tapefuzz-flight-bench-{}", std::process::id()));
    let p = Property::new("flight")
        .config(Config {
            tests,
            seed: Some(7),
            save: false,
            ..Config::default()
        })
        .strategy_named(strategy)
        .expect("a strategy");
    let p = if corpus {
        p.corpora(&dir)
    } else {
        p.no_corpus()
    };
    let started = Instant::now();
    let r = if list {
        p.run(vecs(ints::<u64>(..), 0..=20), |v: Vec<u64>| {
            black_box(v.len());
        })
    } else {
        p.run(
            (ints::<u8>(..), option(ints::<i32>(-5..=5))),
            |v: (u8, Option<i32>)| {
                black_box(v);
            },
        )
    };
    let ns = started.elapsed().as_nanos() as f64 / r.tests.max(1) as f64;
    let _ = std::fs::remove_dir_all(&dir);
    ns
}

fn flight(n: u64) {
    for strategy in ["random", "rl"] {
        for list in [false, true] {
            // Interleaved, fastest of 5 each.
            let (mut with, mut without) = (f64::MAX, f64::MAX);
            for _ in 0..5 {
                without = without.min(per_test(strategy, n, false, list));
                with = with.min(per_test(strategy, n, true, list));
            }
            println!(
                "{}",
                serde_json::json!({
                    "bench": "flight",
                    "strategy": strategy,
                    "workload": if list { "vec_u64_0_20" } else { "u8_option_i32" },
                    "ns_without": without,
                    "ns_with": with,
                })
            );
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["saves", n, dir] => saves(n.parse().expect("a count"), dir),
        ["flight", n] => flight(n.parse().expect("a count")),
        _ => {
            eprintln!("usage: store-bench saves N DIR | flight N");
            std::process::exit(2);
        }
    }
}
