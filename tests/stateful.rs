//! Stateful testing: action sequences against a model, shrunk to the minimal failing trace
//! with preconditions kept.

use std::collections::BTreeMap;
use tapefuzz::generators::Boxed;
use tapefuzz::prelude::*;
use tapefuzz::stateful::{StateMachine, commands, stateful};
use tapefuzz::tape::{Fallback, RandomSource, ReplaySource, Tape};

/// A key-value store whose delete leaves the value behind for a later `get` (the bug).
#[derive(Default)]
struct Store {
    live: BTreeMap<u8, u32>,
    ghosts: BTreeMap<u8, u32>,
}

#[derive(Clone, Debug, PartialEq)]
enum Op {
    Put(u8, u32),
    Delete(u8),
    Get(u8),
}

struct Kv;

impl StateMachine for Kv {
    type State = BTreeMap<u8, u32>;
    type Sut = Store;
    type Action = Op;

    fn initial(&self) -> Self::State {
        BTreeMap::new()
    }
    fn reset(&self) -> Store {
        Store::default()
    }
    fn actions(&self, state: &Self::State) -> Boxed<Op> {
        let put = (ints::<u8>(0..=7), ints::<u32>(..))
            .map(|(k, v)| Op::Put(k, v))
            .boxed();
        let get = ints::<u8>(0..=7).map(Op::Get).boxed();
        if state.is_empty() {
            return one_of![put, get].boxed();
        }
        // Delete only a key that exists: an index into the model's keys, drawn from a range
        // that does not depend on how many there are (so that deleting an earlier action
        // leaves this choice where it was on the tape, and shrinking stays aligned).
        let keys: Vec<u8> = state.keys().copied().collect();
        let delete = ints::<usize>(0..=7)
            .map(move |i| Op::Delete(keys[i % keys.len()]))
            .boxed();
        one_of![put, delete, get].boxed()
    }
    fn precondition(&self, state: &Self::State, action: &Op) -> bool {
        match action {
            Op::Delete(k) => state.contains_key(k),
            _ => true,
        }
    }
    fn next_state(&self, state: &mut Self::State, action: &Op) {
        match action {
            Op::Put(k, v) => {
                state.insert(*k, *v);
            }
            Op::Delete(k) => {
                state.remove(k);
            }
            Op::Get(_) => {}
        }
    }
    fn run(&self, sut: &mut Store, state: &Self::State, action: &Op) -> Result<(), Fail> {
        match action {
            Op::Put(k, v) => {
                sut.live.insert(*k, *v);
            }
            Op::Delete(k) => {
                if let Some(v) = sut.live.remove(k) {
                    sut.ghosts.insert(*k, v);
                }
            }
            Op::Get(k) => {
                let got = sut.live.get(k).or_else(|| sut.ghosts.get(k)).copied();
                ensure_eq!(got, state.get(k).copied());
            }
        }
        Ok(())
    }
}

#[test]
fn a_failing_sequence_shrinks_to_its_minimal_trace() {
    let report = Property::new("stateful::kv")
        .no_corpus()
        .seed(1)
        .tests(20_000)
        .run_test(&stateful(Kv, 0..=40));
    let value = report.value.clone().expect("the bug is found");
    // Put, delete, get of the same key: the shortest trace that shows the ghost, with the
    // simplest arguments.
    assert_eq!(value, "1. Put(0, 0)\n2. Delete(0)\n3. Get(0)", "\n{report}");
    let message = report.message.unwrap_or_default();
    assert!(message.starts_with("step 3 (Get(0))"), "{message}");
}

#[test]
fn sequences_keep_their_preconditions_on_any_tape() {
    let g = commands(Kv, 0..=40);
    for seed in 0..500 {
        let mut src = RandomSource::new(seed);
        let mut tape = Tape::recording(&mut src);
        let steps = g.generate(&mut tape).expect("a sequence");
        let rec = tape.finish();
        let mut model = BTreeMap::new();
        for op in &steps.0 {
            assert!(Kv.precondition(&model, op), "{op:?} in {model:?}");
            Kv.next_state(&mut model, op);
        }
        // Any edit of the tape (here: every other index zeroed) still gives a sequence whose
        // preconditions hold: the model is re-run as it is drawn.
        let edited: Vec<u64> = rec
            .indices()
            .iter()
            .enumerate()
            .map(|(i, &x)| if i % 2 == 0 { 0 } else { x })
            .collect();
        let mut replay = ReplaySource::new(edited, Fallback::Simplest);
        let mut tape = Tape::new(&mut replay, false);
        if let Ok(steps) = g.generate(&mut tape) {
            let mut model = BTreeMap::new();
            for op in &steps.0 {
                assert!(Kv.precondition(&model, op), "{op:?} in {model:?}");
                Kv.next_state(&mut model, op);
            }
        }
    }
}
