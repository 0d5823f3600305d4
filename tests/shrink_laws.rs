//! Laws of shrinking: never larger in shortlex, still failing, deterministic.

use std::cmp::Ordering;
use std::time::Duration;
use tapefuzz::generators::value_from_bytes;
use tapefuzz::prelude::*;
use tapefuzz::shrink::{Budget, Shrinker, shortlex_cmp};
use tapefuzz::tape::Status;
use tapefuzz::tape::Tape;
use tapefuzz::tape::{RandomSource, Recording, Rng};

type Value = (Vec<u32>, Option<i16>, String);

fn generator() -> impl Gen<Value = Value> {
    (
        vecs(ints::<u32>(0..=5000), 0..=12),
        option(ints::<i16>(..)),
        strings(CharClass::lowercase(), 0..=6),
    )
}

/// A family of properties indexed by `k`, all failing on some values.
fn fails(k: u64, v: &Value) -> bool {
    let sum: u64 = v.0.iter().map(|&x| x as u64).sum();
    match k % 5 {
        0 => sum > 2000 + k * 10,
        1 => v.0.len() >= 3 && v.2.len() >= 2,
        2 => v.1.is_some_and(|x| x < -50) || v.0.contains(&(k as u32 % 50)),
        3 => v.0.windows(2).any(|w| w[0] > w[1] + 100),
        _ => v.2.contains('q') || sum % 7 == 3,
    }
}

fn shrink(k: u64, start: Recording) -> Recording {
    let g = generator();
    let mut test = |tape: &mut Tape<'_>| match g.generate(tape) {
        Ok(v) if fails(k, &v) => Status::Interesting,
        Ok(_) => Status::Valid,
        Err(r) => r.status(),
    };
    let budget = Budget {
        calls: 5_000,
        time: Duration::from_secs(30),
    };
    Shrinker::new(&mut test, start, budget).run().best
}

#[test]
fn shrinking_never_grows_and_keeps_failing() {
    let g = generator();
    let mut checked = 0;
    for k in 0..40u64 {
        for i in 0..200 {
            let mut src = RandomSource::new(Rng::derive(k, i));
            let mut tape = Tape::recording(&mut src);
            let Ok(v) = g.generate(&mut tape) else {
                continue;
            };
            if !fails(k, &v) {
                continue;
            }
            let start = tape.finish();
            let best = shrink(k, start.clone());
            assert_ne!(
                shortlex_cmp(&best.choices, &start.choices),
                Ordering::Greater
            );
            let w = value_from_bytes(&g, &tapefuzz::tape::encoding::encode(&best.choices)).unwrap();
            assert!(fails(k, &w), "shrunk value {w:?} passes property {k}");
            // Deterministic: the same start shrinks to the same tape.
            assert_eq!(shrink(k, start).choices, best.choices);
            checked += 1;
            break;
        }
    }
    assert!(
        checked >= 30,
        "only {checked} properties had a failure to shrink"
    );
}

#[test]
fn sibling_elements_are_sorted() {
    for seed in 0..10 {
        let r = Property::new("sort")
            .no_corpus()
            .seed(seed)
            .tests(100_000)
            .run(vecs(ints::<u8>(0..=9), 0..=12), |v: Vec<u8>| {
                !(v.contains(&7) && v.contains(&5) && v.contains(&3))
            });
        assert_eq!(r.value.as_deref(), Some("[3, 5, 7]"), "seed {seed}");
    }
}
