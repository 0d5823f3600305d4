//! Structure is typed: a user's label named like a built-in one ("element", "more",
//! "one_of", "neighboured") is the user's, and strategies treat it as any other user label.

use tapefuzz::generators::{Gen, GenExt, ints, vecs};
use tapefuzz::mutate::{Aligned, Neighbour, Neighbourhood, TapeMutator};
use tapefuzz::tape::{Kind, Label, RandomSource, Recording, Rng, Tape};

/// A list whose elements each sit in a user span named `name`.
fn list(name: &'static str) -> impl Gen<Value = Vec<(i32, bool)>> {
    vecs(
        (ints::<i32>(-100..=100), ints::<u8>(0..=1).map(|b| b == 1)).labelled(name),
        0..=8,
    )
}

fn record(g: &impl Gen, source: &mut dyn tapefuzz::tape::Source) -> Recording {
    let mut tape = Tape::recording(source);
    g.generate(&mut tape).expect("a value");
    tape.finish()
}

fn indices(r: &Recording) -> Vec<u64> {
    r.choices.iter().map(|c| c.index).collect()
}

/// The choices `sa`'s neighbourhood and the greybox mutator make from one seed, for the
/// generator with user spans named `name`.
fn moves(name: &'static str, seed: u64) -> (Vec<u64>, Vec<u64>) {
    let g = list(name);
    let base = record(&g, &mut RandomSource::new(seed));
    let donor = record(&g, &mut RandomSource::new(seed + 1_000));
    let aligned = Aligned::new(&base);
    let t = (seed % 4 + 1) as f64 / 4.0;
    let mut n = Neighbour::new(&aligned, Neighbourhood::default(), t, seed);
    let neighbour = indices(&record(&g, &mut n));
    let mutant = TapeMutator::default()
        .mutate(&base, Some(&donor), &mut Rng::new(seed))
        .map(|(_, c)| c.iter().map(|c| c.index).collect())
        .unwrap_or_default();
    (neighbour, mutant)
}

#[test]
fn a_user_label_named_like_a_built_in_one_changes_no_strategy_choice() {
    for name in [
        "element",
        "more",
        "one_of",
        "neighboured",
        "variant",
        "field",
    ] {
        for seed in 0..300 {
            assert_eq!(
                moves(name, seed),
                moves("a_user_span", seed),
                "label {name:?}, seed {seed}"
            );
        }
    }
}

#[test]
fn a_user_label_is_of_the_user_kind() {
    let g = list("element");
    let rec = record(&g, &mut RandomSource::new(3));
    let user: Vec<&Label> = rec
        .spans
        .iter()
        .map(|s| &s.label)
        .filter(|l| l.name() == "element")
        .collect();
    assert!(user.iter().any(|l| l.kind() == Kind::User));
    assert!(user.iter().any(|l| l.kind() == Kind::Element));
}
