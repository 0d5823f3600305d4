//! `constrain` against a hand-written generator of valid trees, on the BST insertion mutants
//! (`harnesses::bst::Bug`): tests and seconds to the first failure, medians over seeds.
//! The quality test asserts every mutant is found; `table` (ignored) prints the benchmark
//! (`cargo test --release -p harnesses --test constrain_bst table -- --ignored --nocapture`).

use harnesses::bst::{Bug, OpenBst, OrderedBst, Tree, check};
use harnesses::timing::median;
use tapefuzz::engine::{Config, Report};
use tapefuzz::generators::constrained::constrained;
use tapefuzz::prelude::*;
use tapefuzz::search::constrain::SkeletonSearch;

/// A valid tree by construction: up to 15 keys of `0..=10` inserted in order.
fn inserted() -> impl Gen<Value = Tree> {
    vecs(ints::<u8>(0..=10), 1..=15).map(|keys| {
        let mut t = Tree {
            value: keys[0],
            left: None,
            right: None,
        };
        for &k in &keys[1..] {
            t = harnesses::bst::insert(t, k, None);
        }
        t
    })
}

const BUGS: [Bug; 4] = [Bug::Duplicate, Bug::LoseRight, Bug::WrongSide, Bug::Crowded];

/// A run of `tests` test cases with `seed`, no corpus and no shrinking: its seconds are the
/// time to the first failure.
fn unshrunk(name: &str, seed: u64, tests: u64) -> Property {
    let mut c = Config {
        seed: Some(seed),
        tests,
        reuse: false,
        save: false,
        ..Config::default()
    };
    c.shrink.calls = 0;
    Property::new(name).config(c)
}

/// Tests and seconds to the first failure (`None`: not found in `tests`).
fn constrain_run(bug: Bug, seed: u64, tests: u64) -> Option<(u64, f64)> {
    let r = constrain_report(Some(bug), seed, tests);
    r.first_failure_test().map(|n| (n, r.seconds))
}

/// A `constrain` run against `bug` (`None`: the correct insertion, nothing to find).
fn constrain_report(bug: Option<Bug>, seed: u64, tests: u64) -> Report {
    unshrunk("constrain_bst", seed, tests)
        .strategy(SkeletonSearch::default())
        .run(
            (constrained(OrderedBst), ints::<u8>(0..=10)),
            move |(t, k): (OpenBst<i64>, u8)| check(&t.to_tree(), k, bug),
        )
}

fn hand_run(bug: Bug, seed: u64, tests: u64) -> Option<(u64, f64)> {
    let r = hand_report(Some(bug), seed, tests);
    r.first_failure_test().map(|n| (n, r.seconds))
}

/// A random run over inserted trees against `bug` (`None`: nothing to find).
fn hand_report(bug: Option<Bug>, seed: u64, tests: u64) -> Report {
    unshrunk("inserted_bst", seed, tests).run(
        (inserted(), ints::<u8>(0..=10)),
        move |(t, k): (Tree, u8)| check(&t, k, bug),
    )
}

#[test]
fn constrain_finds_every_insertion_mutant() {
    for bug in BUGS {
        assert!(
            constrain_run(bug, 1, 200_000).is_some(),
            "constrain missed {bug:?}"
        );
    }
}

/// Runs per seed whose median time is the seed's (see `table`).
const REPEATS: usize = 15;

#[test]
#[ignore]
fn table() {
    let seeds = 9u64;
    for bug in BUGS {
        let mut rows = Vec::new();
        for (name, run) in [
            (
                "constrain",
                constrain_run as fn(Bug, u64, u64) -> Option<(u64, f64)>,
            ),
            ("inserted random", hand_run),
        ] {
            let (mut tests, mut secs, mut found) = (Vec::new(), Vec::new(), 0);
            for seed in 1..=seeds {
                // A run lasts well under a millisecond: each seed's time is the median of
                // REPEATS runs (the same test cases each time), so timer noise does not
                // decide the ratio.
                let runs: Vec<_> = (0..REPEATS).map(|_| run(bug, seed, 1_000_000)).collect();
                match runs[0] {
                    Some((n, _)) => {
                        found += 1;
                        tests.push(n as f64);
                        let times: Vec<f64> = runs.iter().flatten().map(|r| r.1).collect();
                        secs.push(median(&times));
                    }
                    None => {
                        tests.push(1e6);
                        secs.push(f64::INFINITY);
                    }
                }
            }
            rows.push((name, found, median(&tests), median(&secs)));
        }
        let ratio = rows[0].3 / rows[1].3;
        for (name, found, t, s) in rows {
            eprintln!(
                "CBST {bug:?}\t{name}\t{found}/{seeds}\t{t:.0} tests\t{:.2} ms",
                s * 1000.0
            );
        }
        eprintln!("CBST {bug:?}\ttime ratio constrain / inserted: {ratio:.2}");
    }
    // What a test case costs each way, without a bug to stop the run.
    for (name, report) in [
        (
            "constrain",
            constrain_report as fn(Option<Bug>, u64, u64) -> Report,
        ),
        ("inserted random", hand_report),
    ] {
        let runs: Vec<Report> = (1..=3).map(|seed| report(None, seed, 20_000)).collect();
        assert!(
            runs.iter().all(|r| r.passed()),
            "{name}: a run without a bug failed"
        );
        let us = median(
            &runs
                .iter()
                .map(|r| r.seconds * 1e6 / r.total_tests().max(1) as f64)
                .collect::<Vec<_>>(),
        );
        let valid = median(&runs.iter().map(|r| r.valid as f64).collect::<Vec<_>>());
        let stat = |s: &str| {
            median(
                &runs
                    .iter()
                    .map(|r| r.stat(s).unwrap_or(0) as f64)
                    .collect::<Vec<_>>(),
            )
        };
        eprintln!(
            "CBST per test\t{name}\t{us:.2} us\t{valid:.0} of 20000 valid\t{:.0} exploring, {:.0} skeletons",
            stat("explored"),
            stat("skeletons")
        );
    }
}
