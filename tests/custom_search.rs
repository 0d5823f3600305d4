//! A search defined outside the library plugs into the run loop and gets reuse, shrinking
//! and saving with no other code; and it passes the public conformance suite.

use std::sync::Arc;
use tapefuzz::conformance::check_search;
use tapefuzz::corpus::{Corpus, Folder};
use tapefuzz::engine::{Found, Proposal, Replay, Search, Strategy};
use tapefuzz::prelude::*;
use tapefuzz::tape::{Fallback, ReplaySource};

/// "Try the tapes of a fixed list, then stop": each tape is a list of indices, replayed
/// with the simplest choices past its end.
#[derive(Clone, Debug)]
struct FixedList(Arc<Vec<Vec<u64>>>);

struct FixedListSearch {
    tapes: Arc<Vec<Vec<u64>>>,
    next: usize,
    source: ReplaySource,
}

impl Strategy for FixedList {
    fn name(&self) -> &'static str {
        "fixed-list"
    }
    fn search(&self) -> Box<dyn Search> {
        Box::new(FixedListSearch {
            tapes: self.0.clone(),
            next: 0,
            source: ReplaySource::new(Vec::new(), Fallback::Simplest),
        })
    }
}

impl Search for FixedListSearch {
    fn name(&self) -> &'static str {
        "fixed-list"
    }
    fn propose(&mut self) -> Option<Proposal<'_>> {
        let tape = self.tapes.get(self.next)?.clone();
        self.next += 1;
        self.source = ReplaySource::new(tape, Fallback::Simplest);
        Some(Proposal::new(&mut self.source))
    }
    fn replay(&self) -> Option<Replay> {
        Some(Replay::Indices(self.tapes[self.next - 1].clone()))
    }
}

/// Lists of bytes: one payload run, the length then the bytes.
fn list(bytes: &[u64]) -> Vec<u64> {
    std::iter::once(bytes.len() as u64)
        .chain(bytes.iter().copied())
        .collect()
}

fn strategy() -> FixedList {
    FixedList(Arc::new(vec![
        list(&[1, 2]),
        list(&[5, 200, 7]),
        list(&[3, 3, 3, 3, 99, 3]),
        list(&[]),
    ]))
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("tapefuzz-custom-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// Fails on any list holding a byte over 50.
fn property(p: &Property) -> tapefuzz::property::Report {
    p.run(vecs(ints::<u8>(..), 0..=10), |v: Vec<u8>| {
        ensure!(v.iter().all(|&b| b <= 50), "a large byte in {v:?}");
        Ok(())
    })
}

#[test]
fn a_search_of_ones_own_gets_reuse_shrinking_and_saving() {
    let dir = temp_dir("loop");
    let p = Property::new("fixed")
        .corpora(&dir)
        .tests(1_000)
        .seed(1)
        .strategy(strategy());
    let r = property(&p);
    // The second tape fails; the loop shrank it and saved it.
    assert_eq!(r.strategy, "fixed-list");
    assert_eq!(r.first_failure_test(), Some(2));
    assert_eq!(r.value.as_deref(), Some("[51]"));
    let saved = r.failure.as_ref().unwrap().saved.clone().expect("saved");
    assert!(saved.starts_with(dir.join("fixed").join("regressions")));
    // The next run replays it first and fails there, before the search proposes anything.
    let again = property(&p);
    assert_eq!(again.failure.as_ref().unwrap().found, Found::Reuse(saved));
    assert_eq!(again.tests, 0);
    // Without the failing tapes, the search runs out, and the report says so.
    let passing = FixedList(Arc::new(vec![list(&[1]), list(&[2, 3])]));
    let r = property(&Property::new("fixed").no_corpus().strategy(passing));
    assert!(r.passed());
    assert_eq!(r.tests, 2);
    assert!(r.exhausted);
    assert_eq!(
        Corpus::open(dir.join("fixed")).load(Folder::Corpus).len(),
        0
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_search_of_ones_own_passes_the_conformance_suite() {
    check_search(&strategy(), 3);
}
