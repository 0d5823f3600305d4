//! `lru_cache`: a least-recently-used cache of capacity 2 against a model (a list in recency
//! order). Its bugs are in recency and eviction, so only a sequence of puts and gets shows
//! them.

use super::Trace;
use tapefuzz::generators::Boxed;
use tapefuzz::prelude::*;
use tapefuzz::property::Test;
use tapefuzz::stateful::{StateMachine, stateful};

/// How many entries the cache holds.
pub const CAPACITY: usize = 2;

/// The planted bugs.
pub const BUGS: &[(&str, &str)] = &[
    (
        "get_no_touch",
        "a get does not make its key the most recently used",
    ),
    (
        "evict_late",
        "the cache evicts only when it holds one entry more than its capacity",
    ),
];

/// Each bug's minimal trace, and why nothing shorter fails (checked exhaustively by
/// `harnesses/tests/stateful.rs`, `minimal_traces_are_minimal`, over a smaller alphabet).
pub const MINIMAL: &[Trace] = &[
    Trace {
        bug: "get_no_touch",
        steps: "1. Put(0, 0)\n2. Put(1, 0)\n3. Get(0)\n4. Put(2, 0)\n5. Get(0)",
        also: &["1. Put(0, 0)\n2. Put(1, 0)\n3. Get(0)\n4. Put(2, 0)\n5. Get(1)"],
        why: "a wrong eviction needs capacity + 1 = 3 distinct puts, a get that should refresh \
              the oldest key before the third put, and a get that observes the eviction \
              (keys named in order of first use: see `super::canonical`)",
    },
    Trace {
        bug: "evict_late",
        steps: "1. Put(0, 0)\n2. Put(1, 0)\n3. Put(2, 0)\n4. Get(0)",
        also: &[],
        why: "an eviction needs 3 distinct puts, and only a get of the evicted key observes it",
    },
];

/// An action on the cache.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// Insert or update a key.
    Put(u8, u8),
    /// Look a key up (it becomes the most recently used).
    Get(u8),
}

/// The cache under test: entries in recency order (least recent first), with bugs.
#[derive(Debug, Default)]
pub struct Lru {
    entries: Vec<(u8, u8)>,
    bug: Option<&'static str>,
}

impl Lru {
    /// An empty cache with `bug` planted.
    pub fn new(bug: Option<&'static str>) -> Lru {
        Lru {
            entries: Vec::new(),
            bug,
        }
    }

    /// The value of `k`, made the most recently used.
    pub fn get(&mut self, k: u8) -> Option<u8> {
        let i = self.entries.iter().position(|e| e.0 == k)?;
        let e = self.entries[i];
        if self.bug != Some("get_no_touch") {
            self.entries.remove(i);
            self.entries.push(e);
        }
        Some(e.1)
    }

    /// Sets `k` to `v` (the most recently used), evicting the least recently used entry when
    /// the cache is over capacity.
    pub fn put(&mut self, k: u8, v: u8) {
        self.entries.retain(|e| e.0 != k);
        self.entries.push((k, v));
        let limit = if self.bug == Some("evict_late") {
            CAPACITY + 1
        } else {
            CAPACITY
        };
        if self.entries.len() > limit {
            self.entries.remove(0);
        }
    }
}

/// The model and the actions.
pub struct Machine {
    /// The planted bug.
    pub bug: Option<&'static str>,
}

impl StateMachine for Machine {
    /// Entries in recency order, least recent first.
    type State = Vec<(u8, u8)>;
    type Sut = Lru;
    type Action = Op;

    fn initial(&self) -> Self::State {
        Vec::new()
    }
    fn reset(&self) -> Lru {
        Lru::new(self.bug)
    }
    fn actions(&self, _: &Self::State) -> Boxed<Op> {
        let put = (ints::<u8>(0..=7), ints::<u8>(0..=99)).map(|(k, v)| Op::Put(k, v));
        let get = ints::<u8>(0..=7).map(Op::Get);
        one_of![put.boxed(), get.boxed()].boxed()
    }
    fn next_state(&self, s: &mut Self::State, op: &Op) {
        match *op {
            Op::Put(k, v) => {
                s.retain(|e| e.0 != k);
                s.push((k, v));
                if s.len() > CAPACITY {
                    s.remove(0);
                }
            }
            Op::Get(k) => {
                if let Some(i) = s.iter().position(|e| e.0 == k) {
                    let e = s.remove(i);
                    s.push(e);
                }
            }
        }
    }
    fn run(&self, sut: &mut Lru, s: &Self::State, op: &Op) -> Result<(), Fail> {
        match *op {
            Op::Put(k, v) => sut.put(k, v),
            Op::Get(k) => {
                let want = s.iter().find(|e| e.0 == k).map(|e| e.1);
                ensure_eq!(sut.get(k), want);
            }
        }
        Ok(())
    }
}

/// The target's test: sequences of up to 40 actions (20 on average).
pub fn test(bug: Option<&str>) -> Box<dyn Test> {
    let bug = super::known(BUGS, bug);
    Box::new(stateful(Machine { bug }, super::steps()))
}
