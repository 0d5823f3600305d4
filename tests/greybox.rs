//! The greybox search with a fake coverage source: counters the test bumps itself, so no
//! instrumentation is needed.

use std::path::Path;
use tapefuzz::corpus::{Corpus, Folder};
use tapefuzz::coverage::{Coverage, CoverageObserver, ManualCounters};
use tapefuzz::engine::{Config, Found};
use tapefuzz::prelude::*;
use tapefuzz::property::{Report, Test, property};
use tapefuzz::search::greybox::Options;

/// A greybox run of `test` observing `counters`, with its corpus in `corpus` when given.
fn greybox(
    test: &dyn Test,
    counters: &mut ManualCounters,
    config: Config,
    options: &Options,
    corpus: Option<&Path>,
) -> Report {
    let p = Property::new("staged")
        .config(config)
        .strategy(options.clone());
    let p = match corpus {
        Some(dir) => p.corpora(dir),
        None => p.no_corpus(),
    };
    p.run_test_observed(test, &mut CoverageObserver::new(counters))
}

/// The bytes the staged bug wants, in order.
const KEY: [u8; 4] = [0xC0, 0xFF, 0xEE, 0x42];

/// A list of bytes; edge `k` is bumped when the first `k + 1` bytes match [`KEY`], and the
/// property fails when all four do. Random lists match with probability about 2⁻³².
fn staged(counters: &ManualCounters) -> impl Test + use<> {
    let c = counters.clone();
    property(vecs(ints::<u8>(..), 0..=8), move |v: Vec<u8>| {
        let matched = v.iter().zip(KEY).take_while(|(a, b)| **a == *b).count();
        for edge in 0..matched {
            c.hit(edge);
        }
        ensure!(matched < KEY.len(), "unlocked by {v:?}");
        Ok(())
    })
}

fn config(seed: u64, tests: u64) -> Config {
    Config {
        tests,
        seed: Some(seed),
        ..Config::default()
    }
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("tapefuzz-greybox-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn coverage_feedback_finds_what_random_testing_does_not() {
    let mut counters = ManualCounters::new(KEY.len());
    let test = staged(&counters);
    for seed in 1..=3 {
        let report = greybox(
            &test,
            &mut counters,
            config(seed, 300_000),
            &Options::default(),
            None,
        );
        assert!(!report.passed(), "seed {seed}: not found in {:?}", report);
        assert_eq!(report.value.as_deref(), Some("[192, 255, 238, 66]"));
        assert_eq!(report.stat("features"), Some(3));
        assert_eq!(
            report.stat("edges"),
            Some(3),
            "the last edge is reached only by the failure"
        );
        let n = report.first_failure_test().unwrap();
        assert!(report.first_failure_seconds.unwrap() <= report.seconds);
        assert!(n < 300_000);
        assert_eq!(report.failure.as_ref().unwrap().found, Found::Generate(n));
        assert_eq!(
            report.failure.as_ref().unwrap().bytes,
            &[4, 0xC0, 0xFF, 0xEE, 0x42]
        );
        let s: serde_json::Value =
            serde_json::from_str(&report.summary_json("greybox", "greybox")).unwrap();
        assert_eq!(s["features"], 3);
        assert_eq!(s["first_failure_test"], n);
    }
    // The same budget of random tests, through the same loop.
    let random = Property::new("staged")
        .no_corpus()
        .config(config(1, 300_000))
        .run_test(&test);
    assert!(random.passed());
}

#[test]
fn same_seed_same_run() {
    let mut counters = ManualCounters::new(KEY.len());
    let test = staged(&counters);
    let mut run = |seed| {
        let r = greybox(
            &test,
            &mut counters,
            config(seed, 300_000),
            &Options::default(),
            None,
        );
        (
            r.first_failure_test(),
            r.valid,
            r.stat("features"),
            r.stat("kept"),
        )
    };
    assert_eq!(run(7), run(7));
}

#[test]
fn a_passing_run_counts_and_keeps_only_new_coverage() {
    // Without the staged edges nothing is ever new after the first test case.
    let mut counters = ManualCounters::new(1);
    let c = counters.clone();
    let test = property(vecs(ints::<u8>(..), 0..=8), move |_v: Vec<u8>| {
        c.hit(0);
    });
    let r = greybox(
        &test,
        &mut counters,
        config(3, 2_000),
        &Options::default(),
        None,
    );
    assert!(r.passed());
    assert_eq!(r.tests, 2_000);
    assert_eq!(r.valid, 2_000);
    assert!(r.unique_valid > 200, "{}", r.unique_valid);
    let stat = |n| r.stat(n).unwrap();
    assert_eq!((stat("features"), stat("edges"), stat("kept")), (1, 1, 1));
    assert_eq!(r.first_failure_test(), None);
    assert_eq!(counters.edges(), 1);
}

#[test]
fn failures_are_saved_and_replayed_first() {
    let dir = temp_dir("save");
    let mut counters = ManualCounters::new(KEY.len());
    let test = staged(&counters);
    let r = greybox(
        &test,
        &mut counters,
        config(2, 300_000),
        &Options::default(),
        Some(&dir),
    );
    let saved = r.failure.as_ref().unwrap().saved.clone().unwrap();
    assert!(saved.starts_with(dir.join("staged").join("regressions")));
    // Valid kept tapes (those that passed part of the key) went to corpus/.
    let added = r.corpus_added;
    assert!(added >= 1, "{added}");
    let mut corpus = Corpus::open(dir.join("staged"));
    assert_eq!(
        corpus.load(Folder::Corpus).len() as u64,
        added,
        "one file per saved tape"
    );

    // The next run fails on the saved tape before generating anything.
    let again = greybox(
        &test,
        &mut counters,
        config(9, 300_000),
        &Options::default(),
        Some(&dir),
    );
    assert_eq!(again.failure.as_ref().unwrap().found, Found::Reuse(saved));
    assert_eq!((again.tests, again.first_failure_test()), (0, Some(1)));

    // A cap of 0 saves no corpus entry.
    let dir = temp_dir("cap");
    let options = Options {
        corpus_cap: 0,
        ..Options::default()
    };
    let r = greybox(
        &test,
        &mut counters,
        config(2, 300_000),
        &options,
        Some(&dir),
    );
    assert_eq!(r.corpus_added, 0);
    assert!(
        Corpus::open(dir.join("staged"))
            .load(Folder::Corpus)
            .is_empty()
    );
    let _ = std::fs::remove_dir_all(temp_dir("save"));
    let _ = std::fs::remove_dir_all(dir);
}
