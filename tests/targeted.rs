//! Targeted search (`sa`) from a `#[test]`: utilities and a hand-written neighbourhood.

use tapefuzz::engine::{Config, Strategy};
use tapefuzz::generators::Step;
use tapefuzz::prelude::*;
use tapefuzz::property::minimize;
use tapefuzz::search::{random::Random, sa::Anneal};

/// Four numbers in 0..=100; the property fails when all are 50. The utility is minus the
/// distance to that point.
fn run(
    strategy: impl Strategy + 'static,
    seed: u64,
    hand_written: bool,
) -> tapefuzz::property::Report {
    let plain = vecs(ints::<i32>(0..=100), 4..=4);
    let config = Config {
        tests: 20_000,
        seed: Some(seed),
        save: false,
        ..Config::default()
    };
    let property = |v: Vec<i32>| {
        let distance: i32 = v.iter().map(|x| (x - 50).abs()).sum();
        minimize(f64::from(distance));
        ensure!(distance > 0, "all at 50: {v:?}");
        Ok(())
    };
    let p = Property::new("targeted")
        .no_corpus()
        .config(config)
        .strategy(strategy);
    if hand_written {
        // One element up or down by one.
        let g = plain.with_neighbour(|v: &Vec<i32>, step: &mut Step<'_, '_>| {
            let i = ints::<usize>(0..=3).generate(step.tape())?;
            let mut w = v.clone();
            w[i] += if bools().generate(step.tape())? {
                1
            } else {
                -1
            };
            Ok(w)
        });
        p.run(g, property)
    } else {
        p.run(plain, property)
    }
}

#[test]
fn sa_with_a_hand_written_neighbourhood_climbs_where_random_does_not() {
    for seed in 1..=3 {
        let r = run(Anneal::default(), seed, true);
        assert!(r.failure.is_some(), "seed {seed}: {:?}", r.best_utility());
        assert_eq!(r.value.as_deref(), Some("[50, 50, 50, 50]"));
    }
    // 1 in 101^4 per test: random does not get there.
    let r = run(Random, 1, true);
    assert!(r.failure.is_none());
    assert!(r.best_utility().unwrap() > 0.0);
}

#[test]
fn a_hand_written_neighbourhood_leaves_random_generation_alone() {
    // Same seed, same values with and without the wrapper: random sources take no step.
    let a = run(Random, 9, true);
    let b = run(Random, 9, false);
    assert_eq!(a.best_utility(), b.best_utility());
}
