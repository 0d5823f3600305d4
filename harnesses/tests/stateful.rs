//! The stateful targets (issue 20): every planted bug is found and shrunk to its minimal
//! trace; no shorter trace fails (checked exhaustively over a small alphabet); the lost
//! update shows only in concurrent runs.

use harnesses::stateful::{self, kv_store, lru_cache, minimal, undo_buffer};
use tapefuzz::prelude::*;
use tapefuzz::property::Test;
use tapefuzz::stateful::{StateMachine, Var, run_commands};

/// A target's test with a bug planted.
type TestFn = fn(Option<&str>) -> Box<dyn Test>;

/// A target: its name, its test and its bugs.
type Target = (
    &'static str,
    TestFn,
    &'static [(&'static str, &'static str)],
);

fn shrunk(test: &dyn Test, name: &str, seed: u64, strategy: &str) -> (String, String) {
    let report = Property::new(format!("stateful_targets::{name}"))
        .no_corpus()
        .seed(seed)
        .tests(200_000)
        .strategy_named(strategy)
        .unwrap()
        .run_test(test);
    let value = report
        .value
        .clone()
        .unwrap_or_else(|| panic!("{name}: not found\n{report}"));
    (value, report.message.clone().unwrap_or_default())
}

/// Every planted bug of the sequential targets, found by random on three seeds and shrunk
/// to its minimal trace (up to the names of keys: `canonical`).
#[test]
fn sequential_bugs_shrink_to_their_minimal_traces() {
    let cases: Vec<Target> = vec![
        ("lru_cache", lru_cache::test, lru_cache::BUGS),
        ("undo_buffer", undo_buffer::test, undo_buffer::BUGS),
        ("kv_store", kv_store::test, kv_store::BUGS),
    ];
    for (target, test, bugs) in cases {
        for (bug, _) in bugs {
            let want = minimal(bug).unwrap();
            for seed in 1..=3 {
                let (got, message) = shrunk(&*test(Some(bug)), bug, seed, "random");
                let got = stateful::canonical(target, &got);
                assert!(
                    want.matches(&got),
                    "{target} {bug} seed {seed}: {message}\n{got}"
                );
            }
        }
    }
}

/// rl and sa find the bugs too, on the same tapes.
#[test]
fn rl_and_sa_find_them_too() {
    for strategy in ["rl", "sa"] {
        let (got, _) = shrunk(
            &*kv_store::test(Some("stale_snapshot")),
            "stale_snapshot",
            1,
            strategy,
        );
        assert_eq!(got, minimal("stale_snapshot").unwrap().steps, "{strategy}");
    }
}

/// The correct versions pass.
#[test]
fn correct_versions_pass() {
    for test in [
        lru_cache::test(None),
        undo_buffer::test(None),
        kv_store::test(None),
    ] {
        let report = Property::new("stateful_targets::correct")
            .no_corpus()
            .seed(7)
            .tests(3_000)
            .run_test(&*test);
        assert!(report.passed(), "{report}");
    }
    let report = Property::new("stateful_targets::correct_concurrent")
        .no_corpus()
        .seed(7)
        .tests(200)
        .run_test(&*kv_store::concurrent_test(None));
    assert!(report.passed(), "{report}");
}

/// All sequences of `len` actions over `alphabet`.
fn sequences<A: Clone>(alphabet: &[A], len: usize) -> Vec<Vec<A>> {
    let mut out = vec![Vec::new()];
    for _ in 0..len {
        out = out
            .into_iter()
            .flat_map(|s| {
                alphabet.iter().map(move |a| {
                    let mut t = s.clone();
                    t.push(a.clone());
                    t
                })
            })
            .collect();
    }
    out
}

/// No sequence shorter than a bug's minimal trace fails, over every action with small
/// arguments: the minimum is the minimum (the arguments left out behave as these do).
fn nothing_shorter<M: StateMachine>(bug: &str, machine: &M, alphabet: &[M::Action]) {
    let min = minimal(bug).unwrap().steps.lines().count();
    let mut checked = 0;
    for len in 0..min {
        for s in sequences(alphabet, len) {
            assert!(
                run_commands(machine, &s).is_ok(),
                "{bug}: {s:?} is shorter than the minimal trace and fails"
            );
            checked += 1;
        }
    }
    // ... and the minimal length itself is reached with this alphabet.
    assert!(
        sequences(alphabet, min)
            .iter()
            .any(|s| run_commands(machine, s).is_err()),
        "{bug}: no trace of {min} actions fails"
    );
    assert!(checked > 0);
}

#[test]
fn minimal_traces_are_minimal() {
    use lru_cache::Op as L;
    let mut lru = Vec::new();
    for k in 0..4 {
        lru.push(L::Get(k));
        for v in 0..2 {
            lru.push(L::Put(k, v));
        }
    }
    for (bug, _) in lru_cache::BUGS {
        nothing_shorter(bug, &lru_cache::Machine { bug: Some(bug) }, &lru);
    }

    use undo_buffer::Op as U;
    let mut undo = vec![U::Undo, U::Redo];
    for i in 0..3 {
        undo.push(U::Delete(i));
        for c in ['a', 'b'] {
            undo.push(U::Insert(i, c));
        }
    }
    for (bug, _) in undo_buffer::BUGS {
        nothing_shorter(bug, &undo_buffer::Machine { bug: Some(bug) }, &undo);
    }

    use kv_store::Op as K;
    let mut kv = vec![K::Snapshot];
    for k in 0..2 {
        kv.push(K::Get(k));
        for v in 0..2 {
            kv.push(K::Put(k, v));
            kv.push(K::Add(k, v + 1));
        }
    }
    for i in 0..3 {
        kv.push(K::Restore(Var::new(i)));
    }
    for (bug, _) in kv_store::BUGS {
        let m = kv_store::Machine {
            bug: Some(bug),
            adds_first: false,
        };
        nothing_shorter(bug, &m, &kv);
    }
}

/// The lost update: found by the concurrent mode and shrunk to two adds, one a thread; the
/// sequential mode with the same bug planted never fails.
#[test]
fn lost_update_needs_the_concurrent_mode() {
    let want = minimal("lost_update").unwrap().steps;
    for seed in 1..=3 {
        let (got, message) = shrunk(
            &*kv_store::concurrent_test(Some("lost_update")),
            "lost_update",
            seed,
            "random",
        );
        assert_eq!(got, want, "seed {seed}: {message}");
    }
    let report = Property::new("stateful_targets::lost_update_sequential")
        .no_corpus()
        .seed(1)
        .tests(20_000)
        .run_test(&*kv_store::sequential(Some("lost_update")));
    assert!(report.passed(), "{report}");
    assert_eq!(report.valid, 20_000);
}
