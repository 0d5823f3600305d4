//! The Rust peer of the stateful benchmark (proptest-state-machine): it finds a planted bug of
//! each sequential target and shrinks it to a numbered list of transitions; the correct
//! systems pass; the lost update (concurrent only) never shows.

use harnesses::peers_stateful::{self, PeerRun};
use harnesses::stateful::minimal;

/// Whether `trace` is a non-empty list of lines `1. …`, `2. …`, ….
fn is_numbered(trace: &str) -> bool {
    !trace.is_empty()
        && trace
            .lines()
            .enumerate()
            .all(|(i, line)| line.starts_with(&format!("{}. ", i + 1)) && line.len() > 3)
}

#[test]
fn finds_and_shrinks_one_bug_of_each_target() {
    for (target, bug) in [
        ("lru_cache", "evict_late"),
        ("undo_buffer", "stale_redo"),
        ("kv_store", "restore_keeps_newer"),
    ] {
        let r = peers_stateful::run(target, Some(bug), 1, 10.0);
        assert!(r.found, "{target}/{bug}: not found: {r:?}");
        assert!(r.cases >= 1 && r.seconds <= 10.0, "{target}/{bug}: {r:?}");
        let shrunk = r.shrunk.as_deref().unwrap();
        assert!(is_numbered(shrunk), "{target}/{bug}: {shrunk:?}");
    }
}

#[test]
fn correct_systems_pass_200_cases() {
    for (target, _) in peers_stateful::targets() {
        let r = peers_stateful::run_cases(target, None, 1, 10.0, 200);
        assert!(!r.found, "{target}: {r:?}");
        assert_eq!(r.cases, 200, "{target}: {r:?}");
        assert_eq!(r.shrunk, None);
    }
}

#[test]
fn the_lost_update_never_shows_sequentially() {
    let r = peers_stateful::run_cases("kv_store", Some("lost_update"), 1, 10.0, 300);
    assert!(!r.found, "{r:?}");
    assert_eq!(r.cases, 300);
}

#[test]
fn runs_are_deterministic() {
    let a = peers_stateful::run("undo_buffer", Some("undo_delete_shifted"), 7, 10.0);
    let b = peers_stateful::run("undo_buffer", Some("undo_delete_shifted"), 7, 10.0);
    assert_eq!((a.found, a.cases, &a.shrunk), (b.found, b.cases, &b.shrunk));
}

/// The benchmark's table on seed 1, or `PEER_SEED` (`cargo test --release -p harnesses --test
/// peers_stateful -- --ignored --nocapture`): every target × bug, with whether the shrunk
/// trace is our minimal one.
#[test]
#[ignore]
fn table() {
    let seed = std::env::var("PEER_SEED").map_or(1, |s| s.parse().unwrap());
    for (target, bugs) in peers_stateful::targets() {
        for bug in bugs {
            let r: PeerRun = peers_stateful::run(target, Some(bug), seed, 10.0);
            let minimal = r.shrunk.as_deref().is_some_and(|s| {
                let s = harnesses::stateful::canonical(target, s);
                minimal(bug).is_some_and(|t| t.matches(&s))
            });
            println!(
                "{target}/{bug} (seed {seed}): found {} in {:.4} s, {} cases, shrunk in {:.4} s, minimal {minimal}\n{}\n",
                r.found,
                r.seconds,
                r.cases,
                r.shrink_seconds,
                r.shrunk.as_deref().unwrap_or("-"),
            );
        }
    }
}
