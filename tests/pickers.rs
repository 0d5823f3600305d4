//! Synthia's pickers on the tape: each one's value pinned on fixed tapes, shrunk to its
//! simplest failing output, and checked against the generator laws.

use std::fmt::Debug;
use tapefuzz::conformance::check_generator;
use tapefuzz::generators::{Gen, take, unbound, value_from_bytes};
use tapefuzz::generators::{
    MarkovState, Symbol, enumerate_all, freeze, grammar, knit, markov, playback, scramble, tick,
};
use tapefuzz::prelude::*;

/// A mixed tape.
const T1: &[u8] = &[
    0x01, 0x02, 0x03, 0xff, 0x80, 0x10, 0x00, 0x07, 0x42, 0x99, 0x01, 0xfe, 0x33, 0x05,
];
/// All ones: the last index of every choice (modulo its size).
const T2: &[u8] = &[0xff; 24];

/// Pins the values of `g` on T1, T2 and the empty tape (which runs out at once).
fn pin<G: Gen>(g: &G, t1: &str, t2: &str, empty: &str)
where
    G::Value: Debug,
{
    let got = [T1, T2, &[]].map(|t| format!("{:?}", value_from_bytes(g, t)));
    if std::env::var_os("PIN_PRINT").is_some() {
        println!("PIN {:?}", got);
    }
    assert_eq!(got, [t1, t2, empty]);
}

/// The shrunk failing value of `prop` over `g` (Debug), from a seeded random run.
fn shrunk<G, F>(name: &str, g: G, prop: F) -> String
where
    G: Gen,
    G::Value: Debug + 'static,
    F: Fn(G::Value) -> bool,
{
    common::shrunk(&format!("pickers::{name}"), g, prop)
}

fn site() -> impl Gen<Value = Vec<&'static str>> + Clone {
    markov(
        vec![
            MarkovState::new(just("home")).to(1, 3).to(2, 1),
            MarkovState::new(just("page")).to(1, 1).to(2, 1),
            MarkovState::new(just("logout")),
        ],
        0,
        0..=8,
    )
}

fn numbered() -> impl Gen<Value = Vec<u8>> + Clone {
    markov(
        vec![
            MarkovState::new(ints::<u8>(0..=9)).to(0, 1).to(1, 1),
            MarkovState::new(ints::<u8>(100..=109)).to(0, 1),
        ],
        0,
        1..=6,
    )
}

fn expr() -> impl Gen<Value = Vec<String>> {
    let t = |s: &str| Symbol::tok(just(s.to_string()));
    grammar("expr", 4)
        .rule(
            "expr",
            vec![
                vec![Symbol::nt("expr"), t("+"), Symbol::nt("expr")],
                vec![t("("), Symbol::nt("expr"), t(")")],
                vec![Symbol::nt("digit")],
            ],
        )
        .rule(
            "digit",
            vec![vec![Symbol::tok(ints::<u8>(0..=9).map(|d| d.to_string()))]],
        )
}

fn sessions() -> impl Gen<Value = Vec<(usize, u8)>> {
    knit(vecs(ints::<u8>(0..=9), 1..=3), 0..=10)
}

#[test]
fn markov_chains() {
    pin(
        &site(),
        "Ok([\"home\", \"page\", \"logout\"])",
        "Ok([\"home\", \"logout\"])",
        "Ok([\"home\"])",
    );
    pin(
        &numbered(),
        "Ok([1, 3, 6])",
        "Ok([5, 105, 5, 105, 5, 105, 5])",
        "Ok([0, 0])",
    );
    assert_eq!(
        shrunk("markov", site(), |w| !w.contains(&"logout")),
        "[\"home\", \"logout\"]"
    );
    check_generator("markov", &site(), 100);
    check_generator("markov numbered", &numbered(), 100);
}

/// How many steps of a walk come before the step whose span starts at `start`: the element
/// spans before it, plus the start state.
fn span_step(rec: &tapefuzz::tape::Recording, start: usize) -> usize {
    1 + rec
        .spans
        .iter()
        .filter(|s| s.label.kind() == tapefuzz::tape::Kind::Element && s.start < start)
        .count()
}

#[test]
fn markov_walks_stay_valid_after_deleting_a_step() {
    use tapefuzz::tape::{Kind, RandomSource, ReplaySource, Tape};
    let g = numbered();
    let valid = |w: &Vec<u8>| {
        assert!(w[0] < 10, "{w:?}");
        for pair in w.windows(2) {
            assert!(
                pair[0] < 10 || pair[1] < 10,
                "{w:?}: 1 -> 1 is no transition"
            );
        }
    };
    // Any tape gives a walk of the chain: every transition is one the chain has.
    for bytes in common_inputs() {
        valid(&value_from_bytes(&g, &bytes).expect("a walk"));
    }
    // A recorded walk with any one step's span deleted (what shrinking does) replays to a
    // walk of the chain (the steps after the deletion may change: a state with one
    // successor draws no transition, so what follows reads differently).
    let mut deleted = 0;
    for seed in 0..200 {
        let mut src = RandomSource::new(seed);
        let mut tape = Tape::recording(&mut src);
        let w = g.generate(&mut tape).expect("a walk");
        let rec = tape.finish();
        for span in rec.spans.iter().filter(|s| s.label.kind() == Kind::Element) {
            let more = rec.choices[span.start].index == 1;
            if !more {
                continue; // the closing "no more" coin
            }
            let mut choices = rec.choices.clone();
            choices.drain(span.start..span.end);
            let mut replay = ReplaySource::of(&choices);
            let mut tape = Tape::recording(&mut replay);
            let shorter = g.generate(&mut tape).expect("a walk");
            valid(&shorter);
            assert_eq!(
                shorter[..span_step(&rec, span.start)],
                w[..span_step(&rec, span.start)]
            );
            deleted += 1;
        }
    }
    assert!(deleted > 100);
}

#[test]
fn grammars() {
    pin(
        &expr(),
        "Ok([\"(\", \"5\", \")\", \"+\", \"(\", \"0\", \"+\", \"7\", \")\"])",
        "Ok([\"5\"])",
        "Ok([\"0\"])",
    );
    // Index 0 everywhere: the shortest derivation.
    assert_eq!(
        format!("{:?}", value_from_bytes(&expr(), &[])),
        "Ok([\"0\"])"
    );
    assert_eq!(
        shrunk("grammar", expr(), |t| !t.contains(&"+".to_string())),
        "[\"0\", \"+\", \"0\"]"
    );
    check_generator("grammar", &expr(), 100);
}

#[test]
fn grammar_depth_is_bounded() {
    for bytes in common_inputs() {
        let t = value_from_bytes(&expr(), &bytes).expect("tokens");
        // Depth 4, then only `digit`: at most 2^3 digits joined by pluses, in parentheses.
        assert!(
            t.iter().filter(|x| x.parse::<u8>().is_ok()).count() <= 8,
            "{t:?}"
        );
    }
}

#[test]
fn knits() {
    pin(
        &sessions(),
        "Ok([(0, 3), (0, 8), (1, 1)])",
        "Ok([(0, 5), (1, 5), (0, 5)])",
        "Ok([])",
    );
    assert_eq!(
        shrunk("knit", sessions(), |log| log.iter().all(|(id, _)| *id == 0)),
        "[(0, 0), (1, 0)]"
    );
    check_generator("knit", &sessions(), 100);
    check_generator("knit of markov", &knit(site(), 0..=12), 100);
}

#[test]
fn ticks() {
    let g = tick(ints::<i32>(-5..=5), ints::<i32>(0..=3), 1..=6);
    pin(&g, "Ok([1])", "Ok([-1, 2, 5, 8, 11, 14])", "Ok([0])");
    assert_eq!(
        shrunk("tick", g.clone(), |v| v.iter().all(|x| *x == v[0])),
        "[0, 1]"
    );
    check_generator("tick", &g, 100);
    // Integers wrap instead of overflowing.
    check_generator(
        "tick wrapping",
        &tick(ints::<u8>(..), ints::<u8>(..), 0..=9),
        100,
    );
    check_generator(
        "tick floats",
        &tick(floats::<f64>(-1.0..=1.0), floats::<f64>(0.0..=1.0), 0..=4),
        50,
    );
}

#[test]
fn playbacks() {
    let g = playback(vec!['a', 'b', 'c'], 0..=5);
    pin(&g, "Ok([])", "Ok(['a', 'b', 'c', 'a', 'b'])", "Ok([])");
    // ['c'] (start 2, one value): from a start of 1 the shorter tape needs a higher start,
    // which deleting a value with the choices around it raised finds.
    assert_eq!(
        shrunk("playback", g.clone(), |v| !v.contains(&'c')),
        "['c']"
    );
    check_generator("playback", &g, 100);
}

#[test]
fn freezes() {
    let g = freeze(ints::<u16>(..), 0..=4);
    pin(
        &g,
        "Ok([258, 258])",
        "Ok([65535, 65535, 65535, 65535])",
        "Ok([])",
    );
    assert_eq!(
        shrunk("freeze", g.clone(), |v| v.len() < 2 || v[0] == 0),
        "[1, 1]"
    );
    check_generator("freeze", &g, 100);
}

#[test]
fn scrambles() {
    let g = scramble(vecs(ints::<u8>(0..=9), 0..=5).map(|mut v| {
        v.sort();
        v
    }));
    pin(&g, "Ok([2, 5])", "Ok([5, 5, 5, 5, 5])", "Ok([])");
    // [1, 0] (base [0, 1], digit 1): from [0, 0, 1] scrambled with digits [2, 0] it takes
    // deleting a base element and changing the digit at once (once a local minimum of the
    // shrinker at [1, 0, 0]).
    assert_eq!(
        shrunk("scramble", g.clone(), |v| v
            .windows(2)
            .all(|w| w[0] <= w[1])),
        "[1, 0]"
    );
    check_generator("scramble", &g, 100);
}

#[test]
fn bounded_pickers() {
    let b = take(ints::<u8>(0..=9), 2..=3);
    pin(&b, "Ok([1, 2, 5])", "Ok([5, 5, 5])", "Ok([0, 0])");
    assert_eq!(
        shrunk("take", b.clone(), |v| v.iter().sum::<u8>() < 3),
        "[0, 3]"
    );
    check_generator("take", &b, 100);

    let u = unbound(vecs(ints::<u8>(0..=9), 0..=3), 0..=5);
    pin(&u, "Ok([2, 5])", "Ok([5, 5, 5, 5, 5, 5, 5, 5])", "Ok([])");
    assert_eq!(
        shrunk("unbound", u.clone(), |v| v.len() < 4),
        "[0, 0, 0, 0]"
    );
    check_generator("unbound", &u, 100);
    // Past the bounded part, only values of the bounded part.
    let ids = unbound(playback(vec![10u32, 20, 30], 3), 0..=10);
    for bytes in common_inputs() {
        let v = value_from_bytes(&ids, &bytes).expect("a value");
        assert!(v.iter().all(|x| [10, 20, 30].contains(x)), "{v:?}");
    }
}

#[test]
fn enumerations() {
    let g = enumerate_all(vec![vec!["a", "b"], vec!["x", "y", "z"]]);
    pin(
        &g,
        "Ok([\"a\", \"y\"])",
        "Ok([\"b\", \"x\"])",
        "Ok([\"a\", \"x\"])",
    );
    let all: Vec<Vec<&str>> = g.all().collect();
    assert_eq!(g.len(), 6);
    assert_eq!(
        all,
        [
            ["a", "x"],
            ["a", "y"],
            ["a", "z"],
            ["b", "x"],
            ["b", "y"],
            ["b", "z"]
        ]
    );
    assert_eq!(
        shrunk("enumerate", g.clone(), |c| c != ["b", "y"]),
        "[\"b\", \"y\"]"
    );
    check_generator("enumerate", &g, 100);
}

/// 300 byte strings (the shared helper's).
fn common_inputs() -> Vec<Vec<u8>> {
    common::inputs()
}

mod common;
