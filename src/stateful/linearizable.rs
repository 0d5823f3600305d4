//! The linearizability check: is there one order of the threads' actions, respecting real
//! time, that the model runs to the outputs the system returned? (Wing and Gong's search.)

use super::ConcurrentMachine;

/// One action a thread ran: its place in the thread's list, its start and end on the shared
/// clock, and what it returned.
pub(crate) struct Op<O> {
    pub index: usize,
    pub start: u64,
    pub end: u64,
    pub output: O,
}

/// How many orders the search tries before it gives up and accepts the history: a search
/// that large means long thread lists, and a false alarm would be worse than a missed one.
const MAX_NODES: usize = 1 << 20;

/// An order (thread, op) of every op in `history` that respects real time (an op that ended
/// before another started comes first) and that the model, from `state`, runs with each op's
/// precondition holding and (when `outputs`) its output as recorded; `None` when there is
/// none.
pub(crate) fn linearize<M>(
    m: &M,
    state: &M::State,
    threads: &[Vec<M::Action>],
    history: &[Vec<Op<M::Output>>],
    outputs: bool,
) -> Option<Vec<(usize, usize)>>
where
    M: ConcurrentMachine,
    M::Sut: Sync,
{
    let mut walk = Walk {
        threads,
        history,
        outputs,
        total: history.iter().map(Vec::len).sum(),
        nodes: 0,
        next: vec![0; history.len()],
        order: Vec::new(),
    };
    walk.search(m, state).then_some(walk.order)
}

/// The depth-first search's fixed inputs and its position.
struct Walk<'a, A, O> {
    threads: &'a [Vec<A>],
    history: &'a [Vec<Op<O>>],
    outputs: bool,
    total: usize,
    nodes: usize,
    /// Per thread, its first op not yet placed.
    next: Vec<usize>,
    /// The ops placed so far.
    order: Vec<(usize, usize)>,
}

impl<A, O: PartialEq> Walk<'_, A, O> {
    fn search<M>(&mut self, m: &M, state: &M::State) -> bool
    where
        M: ConcurrentMachine<Action = A, Output = O>,
        M::Sut: Sync,
    {
        if self.order.len() == self.total {
            return true;
        }
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return true;
        }
        for t in 0..self.history.len() {
            let Some(op) = self.history[t].get(self.next[t]) else {
                continue;
            };
            // Real time: no other thread's next op may have ended before this one started
            // (its later ops end later still).
            let blocked = (0..self.history.len()).any(|u| {
                u != t
                    && self.history[u]
                        .get(self.next[u])
                        .is_some_and(|o| o.end < op.start)
            });
            if blocked {
                continue;
            }
            let action = &self.threads[t][op.index];
            if !m.precondition(state, action)
                || (self.outputs && m.expected(state, action) != op.output)
            {
                continue;
            }
            let mut after = state.clone();
            m.next_state(&mut after, action);
            self.next[t] += 1;
            self.order.push((t, op.index));
            if self.search(m, &after) {
                return true;
            }
            self.order.pop();
            self.next[t] -= 1;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::{Boxed, GenExt, just};
    use crate::property::Fail;
    use crate::stateful::StateMachine;

    /// A counter: `Incr` returns the new value, `Read` the value; `Take` needs a positive
    /// value (a precondition) and returns it.
    struct Counter;
    #[derive(Clone, Debug, PartialEq)]
    enum Act {
        Incr,
        Read,
        Take,
    }
    impl StateMachine for Counter {
        type State = u32;
        type Sut = ();
        type Action = Act;
        fn initial(&self) -> u32 {
            0
        }
        fn reset(&self) {}
        fn actions(&self, _: &u32) -> Boxed<Act> {
            just(Act::Read).boxed()
        }
        fn precondition(&self, s: &u32, a: &Act) -> bool {
            *a != Act::Take || *s > 0
        }
        fn next_state(&self, s: &mut u32, a: &Act) {
            match a {
                Act::Incr => *s += 1,
                Act::Take => *s -= 1,
                Act::Read => {}
            }
        }
        fn run(&self, _: &mut (), _: &u32, _: &Act) -> Result<(), Fail> {
            Ok(())
        }
    }
    impl ConcurrentMachine for Counter {
        type Output = u32;
        fn call(&self, _: &(), _: &Act) -> u32 {
            0
        }
        fn expected(&self, s: &u32, a: &Act) -> u32 {
            match a {
                Act::Incr => s + 1,
                Act::Read | Act::Take => *s,
            }
        }
    }

    fn op(start: u64, end: u64, output: u32) -> Op<u32> {
        Op {
            index: 0,
            start,
            end,
            output,
        }
    }

    #[test]
    fn an_op_that_ended_before_another_started_comes_first() {
        let threads = vec![vec![Act::Incr], vec![Act::Read]];
        // The read started after the increment ended, yet saw 0: no order explains it.
        let history = vec![vec![op(0, 1, 1)], vec![op(2, 3, 0)]];
        assert!(linearize(&Counter, &0, &threads, &history, true).is_none());
        // Overlapping, the read may come first.
        let history = vec![vec![op(0, 3, 1)], vec![op(1, 2, 0)]];
        assert_eq!(
            linearize(&Counter, &0, &threads, &history, true),
            Some(vec![(1, 0), (0, 0)])
        );
    }

    #[test]
    fn outputs_must_match_the_model_in_the_order_found() {
        let threads = vec![vec![Act::Incr], vec![Act::Incr]];
        // Two increments at once, both returning 1: a lost update.
        let history = vec![vec![op(0, 3, 1)], vec![op(1, 2, 1)]];
        assert!(linearize(&Counter, &0, &threads, &history, true).is_none());
        // Without outputs, any order respecting time and preconditions does.
        assert!(linearize(&Counter, &0, &threads, &history, false).is_some());
        let history = vec![vec![op(0, 3, 2)], vec![op(1, 2, 1)]];
        assert!(linearize(&Counter, &0, &threads, &history, true).is_some());
    }

    #[test]
    fn conflicting_preconditions_have_no_order_at_all() {
        // Two takes of the one unit: whatever the outputs, one of them cannot run.
        let threads = vec![vec![Act::Take], vec![Act::Take]];
        let history = vec![vec![op(0, 3, 1)], vec![op(1, 2, 1)]];
        assert!(linearize(&Counter, &1, &threads, &history, false).is_none());
    }
}
