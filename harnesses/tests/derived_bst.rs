//! A derived generator guarded by a validity `assume!` (issue 19): a binary search tree
//! derived from its type, its strict ordering checked by `assume!`, under `rl` (RLCheck's
//! guide) and `constrain`, against the hand-written RLCheck generator (`bst::tree_gen`).

use std::cell::RefCell;
use std::rc::Rc;
use tapefuzz::generators::constrained::{Constrain, constrained};
use tapefuzz::prelude::*;
use tapefuzz::search::constrain::SkeletonSearch;
use tapefuzz::search::rl::Learn;

use harnesses::bst::{DerivedTree, OpenBst, OrderedBst};

/// Valid share and mean size of the valid values of a run.
fn measure<G, T>(
    name: &str,
    g: G,
    strategy: impl tapefuzz::engine::Strategy + 'static,
    size_of: fn(&T) -> usize,
    valid: fn(&T) -> bool,
) -> (f64, f64)
where
    G: Gen<Value = T> + 'static,
    T: std::fmt::Debug + Clone + 'static,
{
    let sizes = Rc::new(RefCell::new(Vec::new()));
    let s = sizes.clone();
    let report = Property::new(name)
        .no_corpus()
        .seed(7)
        .tests(20_000)
        .strategy(strategy)
        .run(g, move |t: T| {
            assume!(valid(&t));
            s.borrow_mut().push(size_of(&t));
        });
    assert!(report.passed(), "{report}");
    let sizes = sizes.borrow();
    let share = report.valid as f64 / report.total_tests() as f64;
    let mean = sizes.iter().sum::<usize>() as f64 / sizes.len().max(1) as f64;
    eprintln!(
        "{name}: {share:.3} valid, mean size {mean:.2} of {} valid",
        sizes.len()
    );
    (share, mean)
}

#[test]
fn a_derived_bst_under_rl_is_mostly_valid_and_as_large_as_the_hand_written_one() {
    let (share, mean) = measure(
        "derived_bst.rl",
        any::<DerivedTree>(),
        Learn::default(),
        DerivedTree::nodes,
        DerivedTree::is_strict,
    );
    let (_, hand) = measure(
        "hand_bst.rl",
        harnesses::bst::tree_gen(),
        Learn::default(),
        |t| harnesses::bst::keys(t).len(),
        harnesses::bst::is_bst,
    );
    // What a generator of valid trees by construction makes (issue 32: the valid trees rl
    // makes from the derived type should be at least 0.8 times as large).
    let (_, valid) = measure(
        "valid_bst.random",
        harnesses::bst::ValidTreeGen,
        tapefuzz::search::random::Random,
        |t| harnesses::bst::keys(t).len(),
        harnesses::bst::is_bst,
    );
    // The baseline, for the record: random generation of the same derived type.
    let (random, _) = measure(
        "derived_bst.random",
        any::<DerivedTree>(),
        tapefuzz::search::random::Random,
        DerivedTree::nodes,
        DerivedTree::is_strict,
    );
    assert!(share > random, "rl {share:.3} against random {random:.3}");
    assert!(share >= 0.5, "valid share {share:.3}");
    assert!(
        mean >= hand / 2.0 && mean <= hand * 2.0,
        "mean {mean:.2} against {hand:.2}"
    );
    assert!(
        mean >= 0.8 * valid,
        "mean {mean:.2} against the valid generator's {valid:.2}"
    );
}

/// A run of at most 200,000 test cases with `seed`, no corpus and no shrinking.
fn unshrunk(name: &str, seed: u64) -> Property {
    let mut c = tapefuzz::engine::Config {
        seed: Some(seed),
        tests: 200_000,
        reuse: false,
        save: false,
        ..Default::default()
    };
    c.shrink.calls = 0;
    Property::new(name).config(c)
}

#[test]
fn rl_on_the_derived_tree_finds_every_insertion_mutant() {
    use harnesses::bst::{Bug, check};
    // `Crowded` needs a valid tree of 8 keys or more: random generation of the derived type
    // never makes one in 200,000 test cases (its large trees are invalid), and neither did
    // rl before a derived node's key stayed in its children's state.
    for bug in [Bug::Duplicate, Bug::LoseRight, Bug::WrongSide, Bug::Crowded] {
        let report = unshrunk("derived_bst.mutant", 1)
            .strategy(Learn::default())
            .run(
                (any::<DerivedTree>(), ints::<u8>(0..=10)),
                move |(t, k): (DerivedTree, u8)| check(&t.to_tree(), k, Some(bug)),
            );
        assert!(
            report.first_failure_test().is_some(),
            "rl missed {bug:?}: {report}"
        );
    }
}

#[test]
fn the_same_tree_under_constrain_is_nearly_always_valid_and_varied() {
    let (share, mean) = measure(
        "open_bst.constrain",
        constrained(OrderedBst),
        SkeletonSearch::default(),
        OpenBst::nodes,
        |t| OrderedBst.valid(t),
    );
    // Against the hand-written generator of strict BSTs (it rejects a key out of its bounds
    // as soon as it is drawn), under random generation.
    let (_, hand) = measure(
        "hand_strict_bst.random",
        harnesses::bst::StrictTreeGen,
        tapefuzz::search::random::Random,
        |t| harnesses::bst::keys(t).len(),
        harnesses::bst::is_bst,
    );
    // Nearly every value valid: the exploring test cases that look for new shapes are the
    // only ones rejected (a tree of more than 11 nodes has no strict keys in 0..=10).
    assert!(share > 0.9, "valid share {share:.3}");
    // Not collapsed on a few small shapes: more than twice the hand-written generator's
    // mean size (a shape is visited until its values repeat, then another is found).
    assert!(mean >= 2.0 * hand, "mean {mean:.2} against {hand:.2}");
}
