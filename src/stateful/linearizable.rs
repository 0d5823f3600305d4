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
/// precondition holding and its output as recorded; `None` when there is none.
pub(crate) fn linearize<M>(
    m: &M,
    state: &M::State,
    threads: &[Vec<M::Action>],
    history: &[Vec<Op<M::Output>>],
) -> Option<Vec<(usize, usize)>>
where
    M: ConcurrentMachine,
    M::Sut: Sync,
{
    let mut next = vec![0; history.len()];
    let mut order = Vec::new();
    let mut nodes = 0;
    let total: usize = history.iter().map(Vec::len).sum();
    if search(
        m, state, threads, history, &mut next, &mut order, total, &mut nodes,
    ) {
        Some(order)
    } else {
        None
    }
}

#[allow(clippy::too_many_arguments)]
fn search<M>(
    m: &M,
    state: &M::State,
    threads: &[Vec<M::Action>],
    history: &[Vec<Op<M::Output>>],
    next: &mut [usize],
    order: &mut Vec<(usize, usize)>,
    total: usize,
    nodes: &mut usize,
) -> bool
where
    M: ConcurrentMachine,
    M::Sut: Sync,
{
    if order.len() == total {
        return true;
    }
    *nodes += 1;
    if *nodes > MAX_NODES {
        return true;
    }
    for t in 0..history.len() {
        let Some(op) = history[t].get(next[t]) else {
            continue;
        };
        // Real time: no other thread's next op may have ended before this one started.
        let blocked = (0..history.len())
            .any(|u| u != t && history[u].get(next[u]).is_some_and(|o| o.end < op.start));
        if blocked {
            continue;
        }
        let action = &threads[t][op.index];
        if !m.precondition(state, action) || m.expected(state, action) != op.output {
            continue;
        }
        let mut after = state.clone();
        m.next_state(&mut after, action);
        next[t] += 1;
        order.push((t, op.index));
        if search(m, &after, threads, history, next, order, total, nodes) {
            return true;
        }
        order.pop();
        next[t] -= 1;
    }
    false
}
