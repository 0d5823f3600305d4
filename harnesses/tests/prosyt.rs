//! The ten ProSyT programs (paper 001) under `constrain`: every planted bug is found from
//! valid inputs, every value is valid, and generate-and-filter makes far fewer valid inputs
//! in the same number of tests.

use harnesses::prosyt::{Mode, program, programs};
use tapefuzz::prelude::*;
use tapefuzz::search::constrain::SkeletonSearch;
use tapefuzz::search::random::Random;

fn run(
    name: &str,
    mode: Mode,
    bug: Option<&str>,
    tests: u64,
    strategy: impl tapefuzz::engine::Strategy + 'static,
) -> tapefuzz::property::Report {
    let p = program(name).expect("program");
    let test = (p.test)(mode, bug);
    Property::new(format!("prosyt.{name}"))
        .no_corpus()
        .seed(1)
        .tests(tests)
        .strategy(strategy)
        .run_test(test.as_ref())
}

/// A binomial tree has one shape of each order, which the skeleton search finds after
/// seconds to a minute (millions of test cases); `run --strategy constrain` keeps the
/// skeletons it found in `corpus/`, and the next run instantiates them first. Runs on a copy
/// of the target's checked-in corpus, so that nothing is written to it.
fn from_corpus(name: &str, bug: &str) -> tapefuzz::property::Report {
    let src = harnesses::corpora_dir().join(name);
    let root = std::env::temp_dir().join(format!("tapefuzz-prosyt-{}", std::process::id()));
    let dst = root.join(name).join("corpus");
    std::fs::create_dir_all(&dst).unwrap();
    std::fs::copy(src.join("FORMAT"), root.join(name).join("FORMAT")).unwrap();
    for e in std::fs::read_dir(src.join("corpus")).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), dst.join(e.file_name())).unwrap();
    }
    let p = program(name).unwrap();
    let test = (p.test)(Mode::Constrained, Some(bug));
    let r = Property::new(name)
        .corpora(&root)
        .seed(1)
        .tests(10_000)
        .strategy(SkeletonSearch::default())
        .run_test(test.as_ref());
    std::fs::remove_dir_all(&root).ok();
    r
}

#[test]
fn constrain_finds_every_planted_bug() {
    for p in programs() {
        let bug = p.bugs[0].0;
        let r = if p.name == "binomial_tree_heap" {
            from_corpus(p.name, bug)
        } else {
            run(
                p.name,
                Mode::Constrained,
                Some(bug),
                400_000,
                SkeletonSearch::default(),
            )
        };
        assert!(r.failure.is_some(), "{}: {bug} not found\n{r}", p.name);
        eprintln!(
            "{}: {bug} found at test {:?}: {}",
            p.name,
            r.first_failure_test(),
            r.value.as_deref().unwrap_or("")
        );
    }
}

#[test]
fn the_paper_bug_shrinks_to_the_smallest_valid_input() {
    let r = run(
        "ord_insert",
        Mode::Constrained,
        Some("swapped"),
        10_000,
        SkeletonSearch::default(),
    );
    assert_eq!(
        r.value.as_deref(),
        Some("([0, 0, 0, 0, 0, 0, 0, 0, 0, 0], -1)"),
        "\n{r}"
    );
}

#[test]
fn constrained_values_are_valid_where_filtering_rarely_is() {
    for p in programs()
        .into_iter()
        .filter(|p| p.name != "binomial_tree_heap")
    {
        let c = run(
            p.name,
            Mode::Constrained,
            None,
            20_000,
            SkeletonSearch::default(),
        );
        let f = run(p.name, Mode::Filtered, None, 20_000, Random);
        eprintln!(
            "{}: constrain {} valid of {}, generate-and-filter {} of {}",
            p.name,
            c.valid,
            c.total_tests(),
            f.valid,
            f.total_tests()
        );
        assert!(c.passed() || c.failure.is_none(), "{}\n{c}", p.name);
        assert!(
            c.valid > f.valid,
            "{}: constrain {} valid, generate-and-filter {}",
            p.name,
            c.valid,
            f.valid
        );
    }
}
