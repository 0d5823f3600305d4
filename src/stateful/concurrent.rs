//! Concurrent execution of a tail of actions, checked for linearizability against the model
//! (quickcheck-state-machine's parallel mode, on the tape).

use super::StateMachine;
use super::commands::{draw_steps, write_numbered};
use super::linearizable::{Op, linearize};
use crate::generators::{Gen, SizeRange};
use crate::property::{Fail, Test, Unremembered, property};
use crate::tape::{Reject, Tape};
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// A state machine whose system can be shared between threads: every action is a call on
/// `&Sut` that returns what it observed, and the model says what it should return.
///
/// The sequential [`StateMachine::run`] of such a machine is usually
/// [`run_against_model`]`(self, sut, state, action)`.
pub trait ConcurrentMachine: StateMachine
where
    Self::Sut: Sync,
{
    /// What an action returns (a read's value, a write's acknowledgement).
    type Output: fmt::Debug + PartialEq + Send;

    /// Runs `action` on the shared system, from any thread, and returns what it observed.
    fn call(&self, sut: &Self::Sut, action: &Self::Action) -> Self::Output;

    /// What the model says `action` returns in `state` (before [`StateMachine::next_state`]).
    fn expected(&self, state: &Self::State, action: &Self::Action) -> Self::Output;
}

/// The sequential step of a [`ConcurrentMachine`]: [`ConcurrentMachine::call`], compared
/// with [`ConcurrentMachine::expected`]; a difference is a failure naming both.
pub fn run_against_model<M>(
    m: &M,
    sut: &mut M::Sut,
    state: &M::State,
    action: &M::Action,
) -> Result<(), Fail>
where
    M: ConcurrentMachine,
    M::Sut: Sync,
{
    let got = m.call(sut, action);
    let want = m.expected(state, action);
    if got == want {
        Ok(())
    } else {
        Err(Fail::failed(format!(
            "returned {got:?}, the model says {want:?}"
        )))
    }
}

/// A concurrent test case: actions run one after another, then one list of actions per
/// thread, run at the same time. Its `Debug` lists each part's actions, numbered.
#[derive(Clone, PartialEq)]
pub struct Parallel<A> {
    /// Run first, on one thread.
    pub prefix: Vec<A>,
    /// Run at the same time, one list a thread.
    pub threads: Vec<Vec<A>>,
}

impl<A: fmt::Debug> fmt::Debug for Parallel<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "prefix:")?;
        if !self.prefix.is_empty() {
            writeln!(f)?;
            write_numbered(f, &self.prefix)?;
        }
        for (t, actions) in self.threads.iter().enumerate() {
            write!(f, "\nthread {}:", t + 1)?;
            if !actions.is_empty() {
                writeln!(f)?;
                write_numbered(f, actions)?;
            }
        }
        Ok(())
    }
}

/// The generator [`parallel_commands`] returns.
pub struct ParallelCommands<M> {
    machine: Arc<M>,
    prefix: SizeRange,
    tail: SizeRange,
    threads: usize,
}

/// Concurrent test cases of `machine`: a prefix of `prefix` actions drawn as [`commands`]
/// draws them, then `threads` lists of `tail` actions, each drawn from the model's state
/// after the prefix, moving a copy of it along (so each thread's actions meet their
/// preconditions when that thread runs alone; the linearizability check only accepts
/// orders where every precondition holds).
///
/// On the tape: the prefix list, then each thread's list, each action a list element, so
/// shrinking deletes actions from any part and simplifies their arguments. Simplicity order:
/// fewer actions (the prefix's and each thread's), each simplest. Running out: every list
/// ends at its minimum.
///
/// # Panics
///
/// When `threads` is 0.
///
/// [`commands`]: super::commands
pub fn parallel_commands<M: StateMachine>(
    machine: M,
    prefix: impl Into<SizeRange>,
    threads: usize,
    tail: impl Into<SizeRange>,
) -> ParallelCommands<M> {
    assert!(threads > 0, "parallel_commands needs at least one thread");
    ParallelCommands {
        machine: Arc::new(machine),
        prefix: prefix.into(),
        tail: tail.into(),
        threads,
    }
}

impl<M: StateMachine> Gen for ParallelCommands<M> {
    type Value = Parallel<M::Action>;

    fn generate(&self, tape: &mut Tape<'_>) -> Result<Parallel<M::Action>, Reject> {
        let m = &*self.machine;
        let mut state = m.initial();
        let prefix = draw_steps(m, &mut state, self.prefix, tape)?;
        let mut threads = Vec::with_capacity(self.threads);
        for _ in 0..self.threads {
            let mut s = state.clone();
            threads.push(draw_steps(m, &mut s, self.tail, tape)?);
        }
        Ok(Parallel { prefix, threads })
    }
}

/// How many times [`run_parallel`] runs a test case's threads by default: an interleaving
/// that shows a bug may come only now and then.
pub const DEFAULT_REPEATS: usize = 64;

/// Runs `case` `repeats` times (at least once; once when fewer than two threads have
/// actions), each time on a fresh system: the prefix in order, each action's output compared
/// with the model's; then the threads at the same time (started together), each action's
/// output and its start and end on a shared clock recorded; then checks that some order of
/// the threads' actions that respects that clock (an action that ended before another
/// started comes first) gives, run on the model from the prefix's state, exactly the outputs
/// the system returned. The first run for which no such order exists is a failure listing
/// what each thread saw; a panic in an action is a failure too. A run for which no order
/// even keeps every precondition true (the threads' actions conflict: two deletes of one
/// key) is not judged: the test case is rejected ([`Fail::Rejected`]). The search for an
/// order gives up after 2^20 steps and accepts the run (long thread lists: a false alarm
/// would be worse than a missed bug); keep the threads' lists short (4 or so).
pub fn run_parallel<M>(m: &M, case: &Parallel<M::Action>, repeats: usize) -> Result<(), Fail>
where
    M: ConcurrentMachine + Sync,
    M::Sut: Sync,
    M::Action: Sync,
{
    // With fewer than two threads that act, nothing runs at the same time: one run says all.
    let acting = case.threads.iter().filter(|t| !t.is_empty()).count();
    let repeats = if acting < 2 { 1 } else { repeats.max(1) };
    // The model through the prefix, once: each action that runs, with the state before it.
    let mut state = m.initial();
    let mut prefix = Vec::with_capacity(case.prefix.len());
    for (i, action) in case.prefix.iter().enumerate() {
        if m.precondition(&state, action) {
            prefix.push((i, action, state.clone()));
            m.next_state(&mut state, action);
        }
    }
    let mut suts = Vec::with_capacity(repeats);
    for _ in 0..repeats {
        let mut sut = m.reset();
        for (i, action, before) in &prefix {
            run_against_model(m, &mut sut, before, action)
                .map_err(|e| Fail::failed(format!("prefix step {} ({action:?}): {e}", i + 1)))?;
        }
        suts.push(sut);
    }
    let histories = run_threads(m, &suts, &case.threads)?;
    for history in &histories {
        if linearize(m, &state, &case.threads, history, true).is_some() {
            continue;
        }
        // No order keeps every precondition true whatever the outputs: the threads' actions
        // conflict (two deletes of the one key), and the model cannot judge the run.
        if linearize(m, &state, &case.threads, history, false).is_none() {
            return Err(Fail::Rejected);
        }
        let mut msg = String::from("no order of the threads' actions explains their outputs:");
        for (t, ops) in history.iter().enumerate() {
            for op in ops {
                msg.push_str(&format!(
                    "\n  thread {} {:?} -> {:?}",
                    t + 1,
                    case.threads[t][op.index],
                    op.output
                ));
            }
        }
        return Err(Fail::failed(msg));
    }
    Ok(())
}

/// Waits until all `n` threads are at `gate`. A spinning start (yielding after a while, in
/// case there are more threads than cores) releases the threads within a few hundred
/// nanoseconds of each other, where a sleeping barrier wakes them tens of microseconds apart
/// and their actions would rarely overlap.
fn start_together(gate: &AtomicUsize, n: usize) {
    gate.fetch_add(1, Ordering::SeqCst);
    let mut spins = 0u32;
    while gate.load(Ordering::SeqCst) < n {
        if spins < 1_000 {
            std::hint::spin_loop();
            spins += 1;
        } else {
            std::thread::yield_now();
        }
    }
}

/// A short wait before action `index` of thread `t` in run `run` of a test case: none in the
/// first run (the threads' actions as aligned as they come), then a pseudo-random spin of up
/// to a few microseconds, different in every run, so that the repeats of a test case try
/// different overlaps of the threads' actions rather than the same one again.
fn jitter(run: u64, t: usize, index: usize) {
    if run == 0 {
        return;
    }
    let h = crate::tape::Rng::derive(run, ((t as u64) << 32) | index as u64);
    for _ in 0..h % 2048 {
        std::hint::spin_loop();
    }
}

/// One history: each thread's ops, in its order.
type History<O> = Vec<Vec<Op<O>>>;

/// Runs each thread's actions on every system of `suts` in turn (one run each), the threads
/// released together at the start of every run; each run's history. The threads are spawned
/// once for all the runs (spawning costs more than a run). A panic in an action is a failure
/// naming it; the thread still takes part in the later runs' starts, so none waits forever.
fn run_threads<M>(
    m: &M,
    suts: &[M::Sut],
    threads: &[Vec<M::Action>],
) -> Result<Vec<History<M::Output>>, Fail>
where
    M: ConcurrentMachine + Sync,
    M::Sut: Sync,
    M::Action: Sync,
{
    let clock = AtomicU64::new(0);
    let gates: Vec<AtomicUsize> = suts.iter().map(|_| AtomicUsize::new(0)).collect();
    let n = threads.len();
    let results: Vec<Result<History<M::Output>, String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = threads
            .iter()
            .enumerate()
            .map(|(t, actions)| {
                let (clock, gates) = (&clock, &gates);
                scope.spawn(move || {
                    let mut runs = Vec::with_capacity(suts.len());
                    let mut failure = None;
                    for (run, sut) in suts.iter().enumerate() {
                        start_together(&gates[run], n);
                        if failure.is_some() {
                            continue;
                        }
                        let mut ops = Vec::with_capacity(actions.len());
                        for (index, action) in actions.iter().enumerate() {
                            jitter(run as u64, t, index);
                            let start = clock.fetch_add(1, Ordering::SeqCst);
                            match crate::property::catch_message(|| m.call(sut, action)) {
                                Ok(output) => {
                                    let end = clock.fetch_add(1, Ordering::SeqCst);
                                    ops.push(Op {
                                        index,
                                        start,
                                        end,
                                        output,
                                    });
                                }
                                Err(msg) => {
                                    failure = Some(format!("{action:?} {msg}"));
                                    break;
                                }
                            }
                        }
                        runs.push(ops);
                    }
                    failure.map_or(Ok(runs), Err)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err("panicked".into())))
            .collect()
    });
    let mut per_thread = Vec::with_capacity(results.len());
    for (t, r) in results.into_iter().enumerate() {
        per_thread.push(r.map_err(|e| Fail::failed(format!("thread {}: {e}", t + 1)))?);
    }
    // Runs × threads, from threads × runs.
    let mut histories: Vec<History<M::Output>> = (0..suts.len()).map(|_| Vec::new()).collect();
    for runs in per_thread {
        for (run, ops) in runs.into_iter().enumerate() {
            histories[run].push(ops);
        }
    }
    Ok(histories)
}

/// The concurrent property of `machine`: test cases of [`parallel_commands`] run by
/// [`run_parallel`] with [`DEFAULT_REPEATS`] runs each. A failure shrinks to the fewest
/// actions (prefix and threads) that still show it, with the simplest arguments; since a
/// bad interleaving may not come on every run, shrinking keeps a smaller case only when one
/// of its runs fails. In a `#[test]`: [`check_test`](crate::serve::check_test).
pub fn concurrent<M>(
    machine: M,
    prefix: impl Into<SizeRange>,
    threads: usize,
    tail: impl Into<SizeRange>,
) -> impl Test
where
    M: ConcurrentMachine + Sync + 'static,
    M::Sut: Sync,
    M::Action: Sync,
{
    let g = parallel_commands(machine, prefix, threads, tail);
    let m = g.machine.clone();
    // Failures show on some runs only: a candidate that passes runs SHRINK_ATTEMPTS times.
    Unremembered {
        test: property(g, move |case: Parallel<M::Action>| {
            run_parallel(&*m, &case, DEFAULT_REPEATS)
        }),
        attempts: SHRINK_ATTEMPTS,
    }
}

/// How many times shrinking runs a concurrent case that passed before it counts as passing
/// (each run [`DEFAULT_REPEATS`] repeats): on a loaded machine the threads of a small case
/// may run one after the other for a whole run.
pub const SHRINK_ATTEMPTS: usize = 4;
