//! One conformance suite for every source (strategy): deterministic for its input, the
//! choices it makes replay to the same value, and the tape it yields is saved as bytes that
//! the bytes source (libFuzzer's view) replays to the same value. The sources: random, bytes,
//! replay (both fallbacks), the `sa` neighbourhood of a base tape, the greybox engine's
//! mutants, and the `rl` guide after some learning.

use tapefuzz::search::greybox::mutant;
use tapefuzz::search::rl::{Guide, Learn};
use tapefuzz::mutate::{Aligned, Mutator, Neighbour, Neighbourhood};
use tapefuzz::prelude::*;
use tapefuzz::tape::{
    BytesSource, Fallback, RandomSource, Recording, ReplaySource, Rng, Source, Status, encoding,
};

fn generator() -> impl Gen<Value = String> {
    (
        vecs(ints::<i32>(-50..=50), 0..=8),
        option(strings(CharClass::ascii(), 0..=4)),
        one_of![just(0u64), ints::<u64>(..)],
        recursive(just(0usize), 3, 20, 0.5, |inner| {
            vecs(inner, 0..=3).map(|v: Vec<usize>| v.iter().sum::<usize>() + 1)
        }),
    )
        .map(|v| format!("{v:?}"))
}

/// Every source under test, built from a case number (a seed, or bytes derived from it).
fn sources(case: u64) -> Vec<(&'static str, Box<dyn Source>)> {
    let mut bytes = vec![0u8; (case % 64) as usize];
    Rng::new(case).fill(&mut bytes);
    let prefix: Vec<u64> = (0..case % 10).map(|i| Rng::derive(case, i) % 7).collect();
    vec![
        ("random", Box::new(RandomSource::new(case))),
        ("bytes", Box::new(OwnedBytes { bytes, pos: 0 })),
        (
            "replay-simplest",
            Box::new(ReplaySource::new(prefix.clone(), Fallback::Simplest)),
        ),
        (
            "replay-random",
            Box::new(ReplaySource::new(prefix, Fallback::Random(Rng::new(case)))),
        ),
        ("sa", Box::new(neighbour(case))),
        ("greybox", Box::new(greybox_mutant(case))),
        ("rl", Box::new(trained_guide(case))),
    ]
}

/// A random tape of the generator, recorded (the base of `sa` and greybox mutants).
fn base(case: u64) -> Recording {
    let mut src = RandomSource::new(Rng::derive(case, 1));
    let mut tape = Tape::recording(&mut src);
    generator().generate(&mut tape).expect("a value");
    tape.finish()
}

/// A neighbour of a random base tape, at a temperature that varies with the case. (The
/// aligned base is leaked so that the source is `'static`: a few kilobytes per case.)
fn neighbour(case: u64) -> Neighbour<'static> {
    let aligned: &'static Aligned = Box::leak(Box::new(Aligned::new(&base(case))));
    let t = (case % 5) as f64 / 4.0;
    Neighbour::new(aligned, Neighbourhood::default(), t, case)
}

/// The choices of a greybox mutant of a random base tape, replayed.
fn greybox_mutant(case: u64) -> ReplaySource {
    let donor = base(case + 1000);
    let choices = mutant(
        &Mutator::default(),
        &base(case),
        Some(&donor),
        &mut Rng::new(case),
    );
    ReplaySource::new(
        choices
            .iter()
            .filter(|c| !c.forced)
            .map(|c| c.index)
            .collect(),
        Fallback::Random(Rng::new(case)),
    )
}

/// An rl guide that has already learned from `case % 20` episodes (rewarded by a rule of
/// the value), so its choices come from learned Q-values as well as exploration.
fn trained_guide(case: u64) -> Guide {
    let mut guide = Guide::new(Learn::default(), case);
    for _ in 0..case % 20 {
        guide.begin();
        let v = {
            let mut tape = Tape::new(&mut guide, false);
            generator().generate(&mut tape)
        };
        let long = v.is_ok_and(|v| v.len() > 40);
        let reward = guide.reward(Status::Valid, long);
        guide.finish(reward);
    }
    guide.begin();
    guide
}

/// A bytes source that owns its bytes (the library's borrows them).
struct OwnedBytes {
    bytes: Vec<u8>,
    pos: usize,
}

impl Source for OwnedBytes {
    fn draw(&mut self, ctx: &tapefuzz::tape::DrawContext<'_>) -> u64 {
        encoding::read_index(&self.bytes, &mut self.pos, ctx.max)
    }
}

fn generate(
    source: &mut dyn Source,
    record: bool,
) -> (Result<String, Reject>, Vec<tapefuzz::tape::Choice>) {
    let g = generator();
    let mut tape = Tape::new(source, record);
    let v = g.generate(&mut tape);
    (v, tape.finish().choices)
}

#[test]
fn every_source_conforms() {
    for case in 0..200 {
        let names: Vec<&str> = sources(case).iter().map(|s| s.0).collect();
        for (k, name) in names.iter().enumerate() {
            // Deterministic: the same source built twice gives the same value, recording
            // or not.
            let (v, choices) = generate(sources(case)[k].1.as_mut(), true);
            let (w, _) = generate(sources(case).swap_remove(k).1.as_mut(), false);
            assert_eq!(v, w, "{name} case {case}: recording changed the value");
            let v = v.unwrap_or_else(|e| panic!("{name} case {case}: {e:?}"));

            // The recorded choices replay to the same value and the same choices.
            let (r, again) = generate(&mut ReplaySource::of(&choices), true);
            assert_eq!(r.as_ref(), Ok(&v), "{name} case {case}: replay");
            assert_eq!(again, choices, "{name} case {case}: replayed choices");

            // Saved as bytes, libFuzzer's view replays it too.
            let bytes = encoding::encode(&choices);
            let mut src = BytesSource::new(&bytes);
            let (b, _) = generate(&mut src, true);
            assert_eq!(b, Ok(v), "{name} case {case}: bytes");
        }
    }
}
