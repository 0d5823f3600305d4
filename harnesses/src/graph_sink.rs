//! The longest shortest path to the sink of a graph (targeted PBT, paper 000 §II-B).

use std::collections::VecDeque;
use tapefuzz::prelude::*;
use tapefuzz::property::Test;
use tapefuzz::property::property;

/// Number of vertices (1..=N; vertex 1 is the sink).
pub const N: u8 = 42;

/// An undirected graph as a list of edges `(a, b)` with `a < b`, no duplicates.
pub type Edges = Vec<(u8, u8)>;

/// Edges drawn as a list of pairs of vertices in 1..=42: each pair is ordered `(min, max)`,
/// loops and duplicates dropped. Simplest: no edge.
pub fn generator() -> impl Gen<Value = Edges> {
    vecs((ints::<u8>(1..=N), ints::<u8>(1..=N)), 0..=200).map(|pairs: Vec<(u8, u8)>| {
        let mut edges: Edges = Vec::new();
        for (a, b) in pairs {
            let e = (a.min(b), a.max(b));
            if e.0 != e.1 && !edges.contains(&e) {
                edges.push(e);
            }
        }
        edges
    })
}

/// The utility value: the largest shortest-path distance (hops) from the sink to a vertex
/// reachable from it.
pub fn longest_distance(edges: &Edges) -> usize {
    let n = N as usize + 1;
    let mut adj = vec![Vec::new(); n];
    for &(a, b) in edges {
        adj[a as usize].push(b as usize);
        adj[b as usize].push(a as usize);
    }
    let mut dist = vec![usize::MAX; n];
    dist[1] = 0;
    let mut queue = VecDeque::from([1]);
    let mut best = 0;
    while let Some(v) = queue.pop_front() {
        best = best.max(dist[v]);
        for &w in &adj[v] {
            if dist[w] == usize::MAX {
                dist[w] = dist[v] + 1;
                queue.push_back(w);
            }
        }
    }
    best
}

/// The target's test: the distance is below 21 (below 5 with the `threshold5` bug). The
/// distance is the utility value (maximized).
pub fn test(bug: Option<&str>) -> Box<dyn Test> {
    let limit = if bug == Some("threshold5") { 5 } else { 21 };
    Box::new(property(generator(), move |edges: Edges| {
        let d = longest_distance(&edges);
        target(d as f64);
        ensure!(d < limit, "distance {d} from the sink");
        Ok(())
    }))
}

/// The paper's `graph_duplicated_edges` (§IV): the number of vertices `n` is drawn first
/// (2..=42), then edges as pairs of vertices in 1..=n (ordered, loops and duplicates
/// dropped). The shape of everything after the first choice depends on it.
pub fn dependent_generator() -> impl Gen<Value = (u8, Edges)> {
    ints::<u8>(2..=N).flat_map(|n| {
        vecs((ints::<u8>(1..=n), ints::<u8>(1..=n)), 0..=200).map(move |pairs: Vec<(u8, u8)>| {
            let mut edges: Edges = Vec::new();
            for (a, b) in pairs {
                let e = (a.min(b), a.max(b));
                if e.0 != e.1 && !edges.contains(&e) {
                    edges.push(e);
                }
            }
            (n, edges)
        })
    })
}

/// `graph_sink_dependent`'s test: the same property and utility over [`dependent_generator`].
pub fn dependent_test(bug: Option<&str>) -> Box<dyn Test> {
    let limit = if bug == Some("threshold5") { 5 } else { 21 };
    Box::new(property(
        dependent_generator(),
        move |(_, edges): (u8, Edges)| {
            let d = longest_distance(&edges);
            target(d as f64);
            ensure!(d < limit, "distance {d} from the sink");
            Ok(())
        },
    ))
}
