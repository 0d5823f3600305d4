//! The public conformance suite ([`tapefuzz::conformance`]) on every built-in source and
//! strategy: random, bytes, replay (both fallbacks), the `sa` neighbourhood of a base tape,
//! the greybox engine's mutants, the `rl` guide after some learning; and the searches
//! `random`, `sa`, `rl` and `greybox` driven as the run loop drives them.

use tapefuzz::conformance::{check_search, check_source, generator};
use tapefuzz::generators::Gen;
use tapefuzz::mutate::{Aligned, Neighbour, Neighbourhood, TapeMutator};
use tapefuzz::search::constrain::SkeletonSearch;
use tapefuzz::search::cover::Cover;
use tapefuzz::search::enumerate::{Enumerate, PrefixSource};
use tapefuzz::search::greybox::{Options, mutant};
use tapefuzz::search::random::Random;
use tapefuzz::search::rl::{Guide, Learn};
use tapefuzz::search::sa::Anneal;
use tapefuzz::tape::{
    BytesSource, DrawContext, Fallback, RandomSource, Recording, ReplaySource, Rng, Source, Status,
    Tape, encoding,
};

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
        &TapeMutator::default(),
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
    fn draw(&mut self, ctx: &DrawContext<'_>) -> u64 {
        encoding::read_index(&self.bytes, &mut self.pos, ctx.max)
    }
}

fn bytes(case: u64) -> OwnedBytes {
    let mut bytes = vec![0u8; (case % 64) as usize];
    Rng::new(case).fill(&mut bytes);
    OwnedBytes { bytes, pos: 0 }
}

fn prefix(case: u64) -> Vec<u64> {
    (0..case % 10).map(|i| Rng::derive(case, i) % 7).collect()
}

#[test]
fn every_source_conforms() {
    let n = 200;
    check_source("random", n, |c| Box::new(RandomSource::new(c)));
    check_source("swarm", n, |c| {
        Box::new(tapefuzz::search::swarm::SwarmSource::new(c))
    });
    check_source("bytes", n, |c| Box::new(bytes(c)));
    // A sanity check of the suite itself: the library's bytes source agrees.
    check_source("bytes (library)", 1, |_| {
        Box::new(BytesSource::new(&[3, 1, 4]))
    });
    check_source("replay-simplest", n, |c| {
        Box::new(ReplaySource::new(prefix(c), Fallback::Simplest))
    });
    check_source("replay-random", n, |c| {
        Box::new(ReplaySource::new(prefix(c), Fallback::Random(Rng::new(c))))
    });
    check_source("sa", n, |c| Box::new(neighbour(c)));
    check_source("greybox", n, |c| Box::new(greybox_mutant(c)));
    check_source("rl", n, |c| Box::new(trained_guide(c)));
    check_source("enumerate", n, |c| {
        Box::new(PrefixSource::new(prefix(c), None))
    });
    check_source("enumerate with a pattern", n, |c| {
        let pattern: Vec<u64> = (0..1 + c % 4).map(|i| Rng::derive(c, i) % 3).collect();
        Box::new(PrefixSource::new(prefix(c), Some(&pattern)))
    });
}

#[test]
fn every_built_in_search_conforms() {
    check_search(&Random, 5);
    check_search(&Anneal::default(), 5);
    check_search(&Learn::default(), 5);
    check_search(
        &Learn {
            bootstrap: true,
            ..Learn::default()
        },
        2,
    );
    check_search(&Options::default(), 5);
    check_search(&Enumerate::default(), 3);
    check_search(
        &Enumerate {
            max_size: Some(2),
            ..Enumerate::default()
        },
        2,
    );
    check_search(&Enumerate::patterns(), 3);
    check_search(&Cover::default(), 3);
    check_search(&tapefuzz::search::swarm::Swarm, 5);
    check_search(&SkeletonSearch::default(), 3);
    check_search(
        &SkeletonSearch {
            instantiations: 1,
            backtracks: 0,
        },
        2,
    );
    check_search(
        &Cover {
            probes: 1,
            max_strength: 3,
            ..Cover::default()
        },
        2,
    );
}
