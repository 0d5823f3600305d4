//! A key-value store whose delete leaves the value behind, and its state machine: the
//! stateful tests' and the provenance tests' failing system.

use std::collections::BTreeMap;
use tapefuzz::generators::Boxed;
use tapefuzz::prelude::*;
use tapefuzz::stateful::StateMachine;

/// A key-value store whose delete leaves the value behind for a later `get` (the bug).
#[derive(Default)]
pub struct Store {
    pub live: BTreeMap<u8, u32>,
    pub ghosts: BTreeMap<u8, u32>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    Put(u8, u32),
    Delete(u8),
    Get(u8),
}

pub struct Kv;

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
