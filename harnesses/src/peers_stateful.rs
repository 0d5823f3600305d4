//! The Rust peer of the stateful benchmark: the sequential stateful targets
//! ([`lru_cache`], [`undo_buffer`], [`kv_store`]) with the same planted bugs, tested with
//! `proptest-state-machine` instead of tapefuzz.
//!
//! The peer reuses our models and systems: its `ReferenceStateMachine` is our
//! [`StateMachine`]'s model (`initial`, `next_state`, `precondition`), its
//! `StateMachineTest` drives the real [`lru_cache::Lru`], [`undo_buffer::Buffer`] and
//! [`kv_store::Store`] through our [`StateMachine::run`] and [`StateMachine::check`],
//! panicking on an `Err`. Only the generation and the shrinking are proptest's: each
//! target's transitions draw the same arguments from the same ranges as our
//! `Machine::actions`, in sequences of 1 to [`MAX_TRANSITIONS`] transitions (uniform, 20.5 on
//! average; ours: 0 to 40, 20 on average). Where our sequences leave out an action whose
//! precondition fails, proptest draws it again.
//!
//! [`run`] drives proptest programmatically: a `TestRunner` seeded from the seed (ChaCha), one
//! case after another until the first failure, the case limit or the time limit, then
//! proptest's default shrinking of that failure. It writes no files (no failure persistence)
//! and prints nothing (panics are silenced while it runs).

use crate::stateful::{self, kv_store, lru_cache, undo_buffer};
use proptest::prelude::*;
use proptest::strategy::Union;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};
use proptest_state_machine::{ReferenceStateMachine, StateMachineTest};
use std::cell::Cell;
use std::marker::PhantomData;
use std::panic::{self, AssertUnwindSafe, PanicHookInfo};
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tapefuzz::stateful::{PICK_RANGE, StateMachine};

/// The longest sequence of transitions the peer generates (`sequential_strategy(1..=40)`).
pub const MAX_TRANSITIONS: usize = 40;

/// The case limit of [`run`]: in effect none (the time limit stops it).
pub const UNLIMITED_CASES: u64 = 1_000_000_000;

/// One peer run: proptest-state-machine on a target with a bug planted, from a seed, for at
/// most some seconds.
#[derive(Clone, Debug, PartialEq)]
pub struct PeerRun {
    /// Whether a test case failed.
    pub found: bool,
    /// Seconds to the first failure (before shrinking), or of the whole run.
    pub seconds: f64,
    /// Test cases run, up to and including the first failing one.
    pub cases: u64,
    /// Seconds proptest took to shrink the failure (0 when none was found).
    pub shrink_seconds: f64,
    /// The shrunk transitions in our report's format: numbered lines of each action's
    /// `Debug`, `1. Put(0, 0)\n2. Get(0)`.
    pub shrunk: Option<String>,
}

/// proptest-state-machine on `target` (`lru_cache`, `undo_buffer` or `kv_store`) with `bug`
/// planted (`None`: the correct system), from `seed`, for at most `seconds`.
///
/// # Panics
///
/// On an unknown target, or a bug that is not one of the target's `BUGS` (for `kv_store`,
/// `CONCURRENT_BUGS` too: its `lost_update`, which no sequential run shows).
pub fn run(target: &str, bug: Option<&str>, seed: u64, seconds: f64) -> PeerRun {
    run_cases(target, bug, seed, seconds, UNLIMITED_CASES)
}

/// [`run`], stopping after at most `max_cases` test cases too.
///
/// # Panics
///
/// As [`run`].
pub fn run_cases(
    target: &str,
    bug: Option<&str>,
    seed: u64,
    seconds: f64,
    max_cases: u64,
) -> PeerRun {
    match target {
        "lru_cache" => {
            let bug = stateful::known(lru_cache::BUGS, bug);
            drive::<LruPeer>(bug, seed, seconds, max_cases)
        }
        "undo_buffer" => {
            let bug = stateful::known(undo_buffer::BUGS, bug);
            drive::<UndoPeer>(bug, seed, seconds, max_cases)
        }
        "kv_store" => {
            let bugs: Vec<_> = kv_store::BUGS
                .iter()
                .chain(kv_store::CONCURRENT_BUGS)
                .copied()
                .collect();
            let bug = stateful::known(&bugs, bug);
            drive::<KvPeer>(bug, seed, seconds, max_cases)
        }
        _ => panic!("unknown stateful target `{target}`"),
    }
}

/// The targets [`run`] knows and each one's bugs.
pub fn targets() -> Vec<(&'static str, Vec<&'static str>)> {
    let names = |bugs: &[(&'static str, &'static str)]| -> Vec<&'static str> {
        bugs.iter().map(|b| b.0).collect()
    };
    vec![
        ("lru_cache", names(lru_cache::BUGS)),
        ("undo_buffer", names(undo_buffer::BUGS)),
        (
            "kv_store",
            [names(kv_store::BUGS), names(kv_store::CONCURRENT_BUGS)].concat(),
        ),
    ]
}

/// `transitions` in our report's format: `1. Put(0, 0)\n2. Get(0)`.
pub fn numbered<T: std::fmt::Debug>(transitions: &[T]) -> String {
    transitions
        .iter()
        .enumerate()
        .map(|(i, t)| format!("{}. {t:?}", i + 1))
        .collect::<Vec<_>>()
        .join("\n")
}

thread_local! {
    /// The bug the systems under test of this thread's run get (proptest-state-machine's
    /// traits have no `self` to carry it).
    static BUG: Cell<Option<&'static str>> = const { Cell::new(None) };
}

/// A target as the peer drives it: our machine (the model and the system) and the proptest
/// strategy of its actions.
trait PeerTarget: 'static {
    /// Our state machine.
    type Machine: StateMachine<State: 'static, Action: 'static>;
    /// Our machine with `bug` planted.
    fn machine(bug: Option<&'static str>) -> Self::Machine;
    /// The actions in `state`, as our `Machine::actions` draws them.
    fn transitions(state: &State<Self>) -> BoxedStrategy<Action<Self>>;
}

type State<T> = <<T as PeerTarget>::Machine as StateMachine>::State;
type Action<T> = <<T as PeerTarget>::Machine as StateMachine>::Action;
type Sut<T> = <<T as PeerTarget>::Machine as StateMachine>::Sut;
/// A generated case: the initial state, the transitions, and the counter of those the test
/// saw (for the shrinking).
type Case<T> = (State<T>, Vec<Action<T>>, Option<Arc<AtomicUsize>>);

/// `lru_cache`: a put or a get (a fair coin), keys in 0..=7, values in 0..=99.
struct LruPeer;

impl PeerTarget for LruPeer {
    type Machine = lru_cache::Machine;
    fn machine(bug: Option<&'static str>) -> Self::Machine {
        lru_cache::Machine { bug }
    }
    fn transitions(_: &State<Self>) -> BoxedStrategy<lru_cache::Op> {
        use lru_cache::Op;
        let put = (0u8..=7, 0u8..=99).prop_map(|(k, v)| Op::Put(k, v));
        let get = (0u8..=7).prop_map(Op::Get);
        prop_oneof![put, get].boxed()
    }
}

/// `undo_buffer`: which action (0..=3), a position (0..=15) and a lowercase character, as our
/// machine draws them (an insert's position clamped to the length, a delete's counted from
/// the end).
struct UndoPeer;

impl PeerTarget for UndoPeer {
    type Machine = undo_buffer::Machine;
    fn machine(bug: Option<&'static str>) -> Self::Machine {
        undo_buffer::Machine { bug }
    }
    fn transitions(state: &undo_buffer::Model) -> BoxedStrategy<undo_buffer::Op> {
        use undo_buffer::Op;
        let len = state.text().chars().count();
        (0u8..=3, 0usize..=15, proptest::char::range('a', 'z'))
            .prop_map(move |(which, i, c)| match which {
                0 => Op::Insert(i.min(len), c),
                1 => Op::Delete(len.wrapping_sub(1).wrapping_sub(i)),
                2 => Op::Undo,
                _ => Op::Redo,
            })
            .boxed()
    }
}

/// `kv_store`: one of put (keys 0..=3, values 0..=99), add (1..=9), get, snapshot and, once
/// there is a snapshot, restore (an index in 0..=[`PICK_RANGE`] modulo the live snapshots).
struct KvPeer;

impl PeerTarget for KvPeer {
    type Machine = kv_store::Machine;
    fn machine(bug: Option<&'static str>) -> Self::Machine {
        kv_store::Machine {
            bug,
            adds_first: false,
        }
    }
    fn transitions(state: &kv_store::Model) -> BoxedStrategy<kv_store::Op> {
        use kv_store::Op;
        let mut ops = vec![
            (0u8..=3, 0u32..=99)
                .prop_map(|(k, v)| Op::Put(k, v))
                .boxed(),
            (0u8..=3, 1u32..=9).prop_map(|(k, n)| Op::Add(k, n)).boxed(),
            (0u8..=3).prop_map(Op::Get).boxed(),
            Just(Op::Snapshot).boxed(),
        ];
        let live = state.snapshots().live();
        if !live.is_empty() {
            ops.push(
                (0..=PICK_RANGE)
                    .prop_map(move |i| Op::Restore(live[(i % live.len() as u64) as usize]))
                    .boxed(),
            );
        }
        Union::new(ops).boxed()
    }
}

/// The reference state machine and the test of a target.
struct Peer<T>(PhantomData<T>);

impl<T: PeerTarget> ReferenceStateMachine for Peer<T> {
    type State = State<T>;
    type Transition = Action<T>;

    fn init_state() -> BoxedStrategy<State<T>> {
        Just(T::machine(None).initial()).boxed()
    }
    fn transitions(state: &State<T>) -> BoxedStrategy<Action<T>> {
        T::transitions(state)
    }
    fn apply(mut state: State<T>, transition: &Action<T>) -> State<T> {
        T::machine(None).next_state(&mut state, transition);
        state
    }
    fn preconditions(state: &State<T>, transition: &Action<T>) -> bool {
        T::machine(None).precondition(state, transition)
    }
}

/// The system under test with its machine and the model's state before the next transition
/// (our `run` compares with the state before an action; proptest-state-machine passes the
/// state after it).
struct Driven<T: PeerTarget> {
    machine: T::Machine,
    sut: Sut<T>,
    before: State<T>,
}

impl<T: PeerTarget> StateMachineTest for Peer<T> {
    type SystemUnderTest = Driven<T>;
    type Reference = Self;

    fn init_test(ref_state: &State<T>) -> Driven<T> {
        let machine = T::machine(BUG.with(Cell::get));
        let sut = machine.reset();
        Driven {
            machine,
            sut,
            before: ref_state.clone(),
        }
    }
    fn apply(mut d: Driven<T>, _: &State<T>, transition: Action<T>) -> Driven<T> {
        if let Err(e) = d.machine.run(&mut d.sut, &d.before, &transition) {
            panic!("{transition:?}: {e}");
        }
        d.machine.next_state(&mut d.before, &transition);
        d
    }
    fn check_invariants(d: &Driven<T>, ref_state: &State<T>) {
        if let Err(e) = d.machine.check(&d.sut, ref_state) {
            panic!("invariant: {e}");
        }
    }
}

/// The 32 bytes of ChaCha's seed from `seed` (splitmix64).
fn seed_bytes(seed: u64) -> [u8; 32] {
    let mut x = seed;
    let mut out = [0u8; 32];
    for chunk in out.chunks_mut(8) {
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        chunk.copy_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    out
}

type Hook = Box<dyn Fn(&PanicHookInfo<'_>) + Sync + Send + 'static>;

/// Runs that silence panics now, and the hook to restore after the last.
static SILENCED: Mutex<(usize, Option<Hook>)> = Mutex::new((0, None));

/// Silences panic printing (process-wide) while it lives; runs at the same time share it.
struct Silence;

impl Silence {
    fn new() -> Silence {
        let mut s = SILENCED.lock().unwrap_or_else(|e| e.into_inner());
        if s.0 == 0 {
            s.1 = Some(panic::take_hook());
            panic::set_hook(Box::new(|_| {}));
        }
        s.0 += 1;
        Silence
    }
}

impl Drop for Silence {
    fn drop(&mut self) {
        let mut s = SILENCED.lock().unwrap_or_else(|e| e.into_inner());
        s.0 -= 1;
        if s.0 == 0
            && let Some(hook) = s.1.take()
        {
            panic::set_hook(hook);
        }
    }
}

/// The message of a panic's payload.
fn message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "<panic>".to_string())
}

/// The run loop: cases until the first failure, `max_cases` or `seconds`, then proptest's
/// shrinking.
fn drive<T: PeerTarget>(
    bug: Option<&'static str>,
    seed: u64,
    seconds: f64,
    max_cases: u64,
) -> PeerRun {
    BUG.with(|b| b.set(bug));
    let config = Config {
        cases: u32::MAX,
        failure_persistence: None,
        max_local_rejects: u32::MAX,
        max_global_rejects: u32::MAX,
        verbose: 0,
        fork: false,
        timeout: 0,
        ..Config::default()
    };
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes(seed));
    let mut runner = TestRunner::new_with_rng(config.clone(), rng);
    let strategy = Peer::<T>::sequential_strategy(1..=MAX_TRANSITIONS);
    let _silence = Silence::new();
    let start = Instant::now();
    let first_failure: Cell<Option<f64>> = Cell::new(None);
    let test = |(state, transitions, seen): Case<T>| {
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
            Peer::<T>::test_sequential(config.clone(), state, transitions, seen)
        }));
        outcome.map_err(|payload| {
            if first_failure.get().is_none() {
                first_failure.set(Some(start.elapsed().as_secs_f64()));
            }
            TestCaseError::fail(message(&*payload))
        })
    };
    let mut cases = 0;
    while cases < max_cases && start.elapsed().as_secs_f64() < seconds {
        let Ok(tree) = strategy.new_tree(&mut runner) else {
            break;
        };
        cases += 1;
        match runner.run_one(tree, test) {
            Ok(_) => {}
            Err(TestError::Fail(_, (_, transitions, _))) => {
                let found_at = first_failure.get().unwrap_or_default();
                return PeerRun {
                    found: true,
                    seconds: found_at,
                    cases,
                    shrink_seconds: start.elapsed().as_secs_f64() - found_at,
                    shrunk: Some(numbered(&transitions)),
                };
            }
            Err(TestError::Abort(_)) => break,
        }
    }
    PeerRun {
        found: false,
        seconds: start.elapsed().as_secs_f64(),
        cases,
        shrink_seconds: 0.0,
        shrunk: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_lines() {
        assert_eq!(
            numbered(&[lru_cache::Op::Put(0, 0), lru_cache::Op::Get(0)]),
            "1. Put(0, 0)\n2. Get(0)"
        );
    }

    #[test]
    fn seeds_differ() {
        assert_ne!(seed_bytes(1), seed_bytes(2));
    }
}
