//! Peer for the benchmarks: `bst_insert` written the plain way, with `#[derive(Arbitrary)]`
//! (values taken mod 11 and subtrees cut at the same depth as the tapefuzz generator).
#![no_main]

use arbitrary::Arbitrary;
use harnesses::bst::{self, Bug, MAX_DEPTH, Tree};
use libfuzzer_sys::{Corpus, fuzz_target};
use std::sync::OnceLock;
use tapefuzz::property::Fail;

#[derive(Arbitrary, Debug)]
struct Node {
    value: u8,
    left: Option<Box<Node>>,
    right: Option<Box<Node>>,
}

fn tree(n: &Node, depth: usize) -> Tree {
    let child = |c: &Option<Box<Node>>| {
        c.as_ref()
            .filter(|_| depth < MAX_DEPTH)
            .map(|c| Box::new(tree(c, depth + 1)))
    };
    Tree {
        value: n.value % 11,
        left: child(&n.left),
        right: child(&n.right),
    }
}

fn bug() -> Option<Bug> {
    static BUG: OnceLock<Option<Bug>> = OnceLock::new();
    *BUG.get_or_init(|| {
        // Validates the name against the registry (unknown names exit with status 2).
        drop(harnesses::fuzz_test("bst_insert"));
        match std::env::var("TAPEFUZZ_BUG").ok().as_deref() {
            Some("duplicate") => Some(Bug::Duplicate),
            Some("lose_right") => Some(Bug::LoseRight),
            Some("wrong_side") => Some(Bug::WrongSide),
            Some("crowded") => Some(Bug::Crowded),
            _ => None,
        }
    })
}

fuzz_target!(init: bug(), |input: (Node, u8)| -> Corpus {
    let t = tree(&input.0, 0);
    if !bst::is_bst(&t) {
        return Corpus::Reject;
    }
    match bst::check(&t, input.1 % 11, bug()) {
        Ok(()) => Corpus::Keep,
        Err(Fail::Rejected) => Corpus::Reject,
        Err(Fail::Failed(m)) => panic!("bst_insert failed on {t:?}: {m}"),
    }
});
