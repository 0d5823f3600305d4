//! Synthia's mutators on the tape: each one's value pinned on fixed tapes, shrunk to the
//! simplest mutation a failure needs, and checked against the generator laws.

use std::fmt::Debug;
use tapefuzz::conformance::check_generator;
use tapefuzz::generators::mutators::{
    DeleteElement, MutateElement, Swap, boxed, choice, insert_element, offset, replace,
};
use tapefuzz::generators::{Gen, value_from_bytes};
use tapefuzz::generators::{MarkovState, knit, markov, mutated};
use tapefuzz::prelude::*;

/// A mixed tape.
const T1: &[u8] = &[
    0x01, 0x02, 0x03, 0xff, 0x80, 0x10, 0x00, 0x07, 0x42, 0x99, 0x01, 0xfe, 0x33, 0x05,
];
/// All ones: the last index of every choice (modulo its size).
const T2: &[u8] = &[0xff; 24];
/// "Mutate", then a base list of three elements (coin, value, …), then the mutation's
/// decisions.
const T3: &[u8] = &[
    0x01, 0x01, 0x05, 0x01, 0x09, 0x01, 0x0e, 0x00, 0x02, 0x01, 0x03,
];

/// Pins the values of `g` on T1, T2, T3 and the empty tape (which runs out at once:
/// unmutated).
fn pin<G: Gen>(g: &G, t1: &str, t2: &str, t3: &str, empty: &str)
where
    G::Value: Debug,
{
    let got = [T1, T2, T3, &[]].map(|t| format!("{:?}", value_from_bytes(g, t)));
    if std::env::var_os("PIN_PRINT").is_some() {
        println!("PIN {:?}", got);
    }
    assert_eq!(got, [t1, t2, t3, empty]);
}

/// The shrunk failing value of `prop` over `g` (Debug), from a seeded random run.
fn shrunk<G, F>(name: &str, g: G, prop: F) -> String
where
    G: Gen,
    G::Value: Debug + 'static,
    F: Fn(G::Value) -> bool,
{
    common::shrunk(&format!("mutators::{name}"), g, prop)
}

/// Strictly increasing lists: valid inputs for a property about sorted lists.
fn increasing() -> impl Gen<Value = Vec<u8>> + Clone {
    vecs(ints::<u8>(0..=20), 0..=6).map(|mut v| {
        v.sort();
        v.dedup();
        v
    })
}

fn is_sorted(v: &[u8]) -> bool {
    v.windows(2).all(|w| w[0] <= w[1])
}

#[test]
fn offset_moves_a_number() {
    let g = mutated(ints::<i32>(0..=100), offset(ints::<i32>(-5..=5)));
    pin(&g, "Ok(4)", "Ok(52)", "Ok(4)", "Ok(0)");
    assert_eq!(shrunk("offset", g.clone(), |x| x <= 100), "101");
    check_generator("offset", &g, 100);
    // Integers wrap: no overflow panic at the ends of the type.
    check_generator(
        "offset wrapping",
        &mutated(ints::<u8>(..), offset(ints::<u8>(..))),
        100,
    );
}

#[test]
fn replace_puts_another_value() {
    let g = mutated(ints::<u32>(1..=9), replace(just(0u32)));
    pin(&g, "Ok(0)", "Ok(0)", "Ok(0)", "Ok(1)");
    assert_eq!(shrunk("replace", g.clone(), |x| x != 0), "0");
    check_generator("replace", &g, 100);
}

#[test]
fn delete_element_removes_one() {
    let g = mutated(vecs(ints::<u8>(0..=9), 2..=4), DeleteElement);
    pin(
        &g,
        "Ok([3, 8])",
        "Ok([5, 5, 5])",
        "Ok([5, 9, 4])",
        "Ok([0, 0])",
    );
    assert_eq!(shrunk("delete", g.clone(), |v| v.len() >= 2), "[0]");
    check_generator("delete", &g, 100);
}

#[test]
fn insert_element_adds_one() {
    let g = mutated(vecs(ints::<u8>(0..=9), 0..=3), insert_element(just(42u8)));
    pin(
        &g,
        "Ok([42])",
        "Ok([5, 5, 5, 42])",
        "Ok([42, 5, 9, 4])",
        "Ok([])",
    );
    assert_eq!(shrunk("insert", g.clone(), |v| !v.contains(&42)), "[42]");
    check_generator("insert", &g, 100);
}

#[test]
fn swap_exchanges_two() {
    let g = mutated(increasing(), Swap);
    pin(&g, "Ok([])", "Ok([3])", "Ok([5, 14, 9])", "Ok([])");
    assert_eq!(shrunk("swap", g.clone(), |v| is_sorted(&v)), "[1, 0]");
    check_generator("swap", &g, 100);
}

#[test]
fn mutate_element_mutates_one() {
    let g = mutated(
        vecs(ints::<u8>(1..=9), 1..=3),
        MutateElement(replace(just(0u8))),
    );
    pin(
        &g,
        "Ok([0, 4])",
        "Ok([0, 4, 4])",
        "Ok([2, 2, 0])",
        "Ok([1])",
    );
    assert_eq!(
        shrunk("mutate_element", g.clone(), |v| !v.contains(&0)),
        "[0]"
    );
    check_generator("mutate_element", &g, 100);
}

fn near_sorted() -> impl Gen<Value = Vec<u8>> + Clone {
    mutated(
        increasing(),
        choice(vec![
            boxed(Swap),
            boxed(DeleteElement),
            boxed(MutateElement(offset(ints::<u8>(0..=5)))),
        ]),
    )
}

#[test]
fn a_choice_of_mutators_breaks_a_sorted_list_with_a_single_swap() {
    let g = near_sorted();
    pin(&g, "Ok([])", "Ok([3])", "Ok([5, 12, 14])", "Ok([])");
    // Deleting never unsorts; an offset of element 0 of [0, 1] by 1 gives [1, 1], still
    // sorted: the simplest failure is the simplest base with two elements, swapped. [1, 0]
    // from a strictly increasing base can only be a swap.
    assert_eq!(shrunk("choice", g.clone(), |v| is_sorted(&v)), "[1, 0]");
    check_generator("choice", &g, 100);
}

#[test]
fn the_unmutated_value_is_index_zero() {
    // Every base value comes back unmutated when the "mutate?" coin is 0 (the first byte).
    let base = increasing();
    for bytes in common::inputs() {
        let mut unmutated = bytes.clone();
        if let Some(b) = unmutated.first_mut() {
            *b &= !1;
        }
        let b = value_from_bytes(&base, unmutated.get(1..).unwrap_or(&[])).expect("a base");
        let m = value_from_bytes(&near_sorted(), &unmutated).expect("a value");
        assert_eq!(b, m, "bytes {unmutated:?}");
        assert!(is_sorted(&m));
    }
}

mod common;

/// The guide's example of pickers and mutators (guide/src/pickers.md), as it is there.
#[test]
fn readme_example() {
    use tapefuzz::generators::mutators::{
        DeleteElement, MutateElement, Swap, boxed, choice, offset,
    };
    let visit = markov(
        vec![
            MarkovState::new(just("home")).to(1, 3).to(2, 1),
            MarkovState::new(just("page")).to(1, 1).to(2, 1),
            MarkovState::new(just("logout")),
        ],
        0,
        0..=8,
    );
    check(knit(visit, 0..=30), |log: Vec<(usize, &str)>| {
        log.len() <= 30
    });
    let sorted = vecs(ints::<u8>(0..=20), 0..=6).map(|mut v| {
        v.sort();
        v.dedup();
        v
    });
    let near = mutated(
        sorted,
        choice(vec![
            boxed(Swap),
            boxed(DeleteElement),
            boxed(MutateElement(offset(ints::<u8>(0..=5)))),
        ]),
    );
    let report = Property::new("readme::near_sorted")
        .no_corpus()
        .seed(1)
        .tests(10_000)
        .run(near, |v: Vec<u8>| {
            ensure!(v.windows(2).all(|w| w[0] <= w[1]));
            Ok(())
        });
    assert_eq!(report.value.as_deref(), Some("[1, 0]"), "{report}");
}
