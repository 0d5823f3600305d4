//! `kv_store` and `kv_store_concurrent`: a small key-value store with snapshots (a pool of
//! earlier states that later actions restore, by [`Var`]) and an atomic-looking `Add`. The
//! sequential target's bugs are in snapshots; the concurrent target's bug is a lost update
//! that no sequential run can show.

use super::Trace;
use std::collections::BTreeMap;
use std::sync::Mutex;
use tapefuzz::generators::Boxed;
use tapefuzz::prelude::*;
use tapefuzz::property::Test;
use tapefuzz::stateful::{
    ConcurrentMachine, Pool, StateMachine, Var, concurrent, run_against_model, stateful,
};

/// The sequential target's planted bugs.
pub const BUGS: &[(&str, &str)] = &[
    (
        "stale_snapshot",
        "a snapshot shares its values with the store: a put on a key it holds writes through",
    ),
    (
        "restore_keeps_newer",
        "a restore merges the snapshot into the store: keys added after it survive",
    ),
];

/// The concurrent target's planted bug.
pub const CONCURRENT_BUGS: &[(&str, &str)] = &[(
    "lost_update",
    "add reads and writes under two separate locks: two adds at once can lose one",
)];

/// Each bug's minimal trace, and why nothing shorter fails.
pub const MINIMAL: &[Trace] = &[
    Trace {
        bug: "stale_snapshot",
        steps: "1. Put(0, 0)\n2. Snapshot\n3. Put(0, 1)\n4. Restore(v0)",
        also: &[],
        why: "the snapshot must hold a key, a later put must change it, and a restore must \
              bring the snapshot back",
    },
    Trace {
        bug: "restore_keeps_newer",
        steps: "1. Snapshot\n2. Put(0, 0)\n3. Restore(v0)",
        also: &[],
        why: "a key must be added between a snapshot and its restore",
    },
    Trace {
        bug: "lost_update",
        steps: "prefix:\nthread 1:\n1. Add(0, 1)\nthread 2:\n1. Add(0, 1)",
        also: &[],
        why: "an update is lost only between two adds of the same key at the same time",
    },
];

/// The store's contents.
pub type Map = BTreeMap<u8, u32>;

/// What `Add(k, n)` makes of `k` in `map` (an absent key counts as 0; the sum wraps).
fn added(map: &Map, k: u8, n: u32) -> u32 {
    map.get(&k).copied().unwrap_or(0).wrapping_add(n)
}

/// An action on the store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// Set a key.
    Put(u8, u32),
    /// Read a key.
    Get(u8),
    /// Add to a key (0 when absent) and read the sum.
    Add(u8, u32),
    /// Save the contents; the snapshot is the next variable of the pool.
    Snapshot,
    /// Bring a saved snapshot back.
    Restore(Var<Map>),
}

/// What an action returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Out {
    /// A put or a restore is done.
    Done,
    /// A get's or an add's value.
    Value(Option<u32>),
    /// A snapshot's variable.
    Saved(Var<Map>),
}

#[derive(Debug, Default)]
struct Inner {
    map: Map,
    snapshots: Pool<Map>,
    /// With `stale_snapshot`: the keys each snapshot shares with the store.
    shared: Vec<Var<Map>>,
}

/// The store under test: safe to share between threads.
#[derive(Debug, Default)]
pub struct Store {
    inner: Mutex<Inner>,
    bug: Option<&'static str>,
}

impl Store {
    /// An empty store with `bug` planted.
    pub fn new(bug: Option<&'static str>) -> Store {
        Store {
            inner: Mutex::default(),
            bug,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs one action.
    pub fn call(&self, op: &Op) -> Out {
        match *op {
            Op::Put(k, v) => {
                let mut g = self.lock();
                if self.bug == Some("stale_snapshot") {
                    let shared = g.shared.clone();
                    for s in shared {
                        if let Some(m) = g.snapshots.get_mut(s)
                            && let Some(x) = m.get_mut(&k)
                        {
                            *x = v;
                        }
                    }
                }
                g.map.insert(k, v);
                Out::Done
            }
            Op::Get(k) => Out::Value(self.lock().map.get(&k).copied()),
            Op::Add(k, n) => {
                if self.bug == Some("lost_update") {
                    let old = self.lock().map.get(&k).copied().unwrap_or(0);
                    // The window between the read and the write another add can fall into.
                    std::thread::yield_now();
                    let new = old.wrapping_add(n);
                    self.lock().map.insert(k, new);
                    Out::Value(Some(new))
                } else {
                    let mut g = self.lock();
                    let new = added(&g.map, k, n);
                    g.map.insert(k, new);
                    Out::Value(Some(new))
                }
            }
            Op::Snapshot => {
                let mut g = self.lock();
                let copy = g.map.clone();
                let v = g.snapshots.push(copy);
                if self.bug == Some("stale_snapshot") {
                    g.shared.push(v);
                }
                Out::Saved(v)
            }
            Op::Restore(v) => {
                let mut g = self.lock();
                if let Some(m) = g.snapshots.get(v).cloned() {
                    if self.bug == Some("restore_keeps_newer") {
                        g.map.extend(m);
                    } else {
                        g.map = m;
                    }
                }
                Out::Done
            }
        }
    }
}

/// The model: the contents and the snapshots.
#[derive(Clone, Debug, Default)]
pub struct Model {
    map: Map,
    snapshots: Pool<Map>,
}

impl Model {
    /// The snapshots saved so far.
    pub fn snapshots(&self) -> &Pool<Map> {
        &self.snapshots
    }
}

/// The model and the actions.
pub struct Machine {
    /// The planted bug.
    pub bug: Option<&'static str>,
    /// Offer `Add` as the first (simplest) action, before `Put`.
    pub adds_first: bool,
}

impl StateMachine for Machine {
    type State = Model;
    type Sut = Store;
    type Action = Op;

    fn initial(&self) -> Model {
        Model::default()
    }
    fn reset(&self) -> Store {
        Store::new(self.bug)
    }
    fn actions(&self, s: &Model) -> Boxed<Op> {
        let key = || ints::<u8>(0..=3);
        let put = (key(), ints::<u32>(0..=99))
            .map(|(k, v)| Op::Put(k, v))
            .boxed();
        let add = (key(), ints::<u32>(1..=9))
            .map(|(k, n)| Op::Add(k, n))
            .boxed();
        // The concurrent target is about adds: there they come first (the simplest action),
        // so shrinking heads for two adds rather than a put, an add and a get.
        let mut ops = if self.adds_first {
            vec![add, put]
        } else {
            vec![put, add]
        };
        ops.push(key().map(Op::Get).boxed());
        ops.push(just(Op::Snapshot).boxed());
        if !s.snapshots.is_empty() {
            ops.push(s.snapshots.pick().map(Op::Restore).boxed());
        }
        one_of(ops).boxed()
    }
    fn precondition(&self, s: &Model, op: &Op) -> bool {
        match *op {
            Op::Restore(v) => s.snapshots.contains(v),
            _ => true,
        }
    }
    fn next_state(&self, s: &mut Model, op: &Op) {
        match *op {
            Op::Put(k, v) => {
                s.map.insert(k, v);
            }
            Op::Get(_) => {}
            Op::Add(k, n) => {
                let new = added(&s.map, k, n);
                s.map.insert(k, new);
            }
            Op::Snapshot => {
                let copy = s.map.clone();
                s.snapshots.push(copy);
            }
            Op::Restore(v) => {
                if let Some(m) = s.snapshots.get(v) {
                    s.map = m.clone();
                }
            }
        }
    }
    fn run(&self, sut: &mut Store, s: &Model, op: &Op) -> Result<(), Fail> {
        run_against_model(self, sut, s, op)
    }
    fn check(&self, sut: &Store, s: &Model) -> Result<(), Fail> {
        ensure_eq!(sut.lock().map, s.map);
        Ok(())
    }
}

impl ConcurrentMachine for Machine {
    type Output = Out;

    fn call(&self, sut: &Store, op: &Op) -> Out {
        sut.call(op)
    }
    fn expected(&self, s: &Model, op: &Op) -> Out {
        match *op {
            Op::Put(..) | Op::Restore(_) => Out::Done,
            Op::Get(k) => Out::Value(s.map.get(&k).copied()),
            Op::Add(k, n) => Out::Value(Some(added(&s.map, k, n))),
            Op::Snapshot => Out::Saved(s.snapshots.next_var()),
        }
    }
}

/// The sequential target's test with any bug (the concurrent one too: it never shows).
pub fn sequential(bug: Option<&'static str>) -> Box<dyn Test> {
    Box::new(stateful(
        Machine {
            bug,
            adds_first: false,
        },
        super::steps(),
    ))
}

/// The sequential target's test (`kv_store`).
pub fn test(bug: Option<&str>) -> Box<dyn Test> {
    sequential(super::known(BUGS, bug))
}

/// The concurrent target's test (`kv_store_concurrent`): a prefix of up to 4 actions, then
/// two threads of up to 4 actions each.
pub fn concurrent_test(bug: Option<&str>) -> Box<dyn Test> {
    let bug = super::known(CONCURRENT_BUGS, bug);
    Box::new(concurrent(
        Machine {
            bug,
            adds_first: true,
        },
        0..=4,
        2,
        0..=4,
    ))
}
