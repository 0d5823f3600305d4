//! Knit: interleaved sequences of entities that come and go.

use super::steps;
use crate::generators::{Gen, SizeRange};
use crate::tape::{Hint, Label, Reject, Tape};
use std::collections::VecDeque;

const SPAWN: Label = crate::tape::builtin::KNIT_SPAWN;
const ENTITY: Label = crate::tape::builtin::KNIT_ENTITY;
const PICK: Label = crate::tape::builtin::KNIT_PICK;
/// The range of a pick among live entities (or more, when more are alive), taken modulo
/// their number.
const PICK_RANGE: u64 = 15;

/// See [`knit`].
#[derive(Clone, Debug)]
pub struct Knit<G> {
    entity: G,
    size: SizeRange,
    p_spawn: f64,
}

/// Interleaves the sequences of entities spawned on the fly (Synthia's `Knit`): `entity`
/// generates one entity's whole finite sequence (a [`markov`](super::markov) walk, a
/// [`vecs`](crate::generators::vecs), any generator of a `Vec`); the value is the
/// interleaving, each element tagged with the id of the entity that emitted it (ids count
/// spawns from 0). `size` bounds the number of elements, as for
/// [`vecs`](crate::generators::vecs).
///
/// **Each step** (one element span after its "one more?" coin): a "spawn?" coin (a random
/// source spawns with probability [`Knit::p_spawn`], by default 0.2), and if it says so, or
/// if no entity is alive, a new entity draws its sequence (in a span `knit.entity`) and
/// joins the live ones; then a choice picks which live entity emits its next element (an
/// index into the live entities, oldest first); an entity that has emitted its last element
/// dies. If the only entity spawned has an empty sequence, the knit ends there (below
/// `size.min` if it must).
///
/// **Design**: an entity draws its whole sequence when it spawns, not element by element
/// when it is picked, so its choices stay together in one span (`knit.entity`) that
/// shrinking simplifies as a whole. Shrinking deletes whole steps (their element spans); the
/// pick is an index drawn from a fixed range `0..=15` (wider when more entities are alive)
/// taken modulo the number alive, so it keeps its place on the tape, and stays valid, when
/// deletions before it change how many are alive. The spawn coin is drawn even when no
/// entity is alive (where it reads as "spawn" whatever it says), so every step has the same
/// shape on the tape. (Deleting only an entity's span, with its step's spawn coin left at
/// "spawn", makes the choices after it the new entity's: the shrinker tries it and keeps it
/// only when the property still fails.)
///
/// **Simplicity order**: the fewest elements; the spawn coin's index 0 is "no new entity",
/// the pick's index 0 the oldest live entity (index `i` the `i mod n`-th of `n`): a tape of zeros plays entity 0's simplest
/// sequence to its end, then spawns entity 1, and so on. **Running out**: the same.
///
/// ```
/// use tapefuzz::prelude::*;
/// use tapefuzz::generators::knit;
///
/// // Each entity: a session `open, read…, close`.
/// let session = vecs(just("read"), 0..=3).map(|reads| {
///     let mut s = vec!["open"];
///     s.extend(reads);
///     s.push("close");
///     s
/// });
/// check(knit(session, 0..=20), |log: Vec<(usize, &str)>| {
///     // Every entity's first event is "open".
///     let mut seen = std::collections::HashSet::new();
///     log.iter().all(|&(id, e)| !seen.insert(id) || e == "open")
/// });
/// ```
pub fn knit<G: Gen<Value = Vec<T>>, T>(entity: G, size: impl Into<SizeRange>) -> Knit<G> {
    Knit {
        entity,
        size: size.into(),
        p_spawn: 0.2,
    }
}

impl<G> Knit<G> {
    /// The probability that a random source spawns a new entity at a step (clamped to
    /// `0..=1`; the tape and the simplicity order do not change).
    pub fn p_spawn(mut self, p: f64) -> Knit<G> {
        self.p_spawn = p.clamp(0.0, 1.0);
        self
    }
}

/// The live entities: their ids and what each has left to emit.
struct Live<T> {
    entities: Vec<(usize, VecDeque<T>)>,
    spawned: usize,
    out: Vec<(usize, T)>,
}

impl<G: Gen<Value = Vec<T>>, T> Gen for Knit<G> {
    type Value = Vec<(usize, T)>;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<Vec<(usize, T)>, Reject> {
        let mut live = Live {
            entities: Vec::new(),
            spawned: 0,
            out: Vec::new(),
        };
        steps(
            &self.size,
            tape,
            &mut live,
            |_| true,
            |live, t| {
                let spawn = t.draw_bool(SPAWN, self.p_spawn)?;
                if spawn || live.entities.is_empty() {
                    let seq = t.span(ENTITY, |t| self.entity.generate(t))?;
                    let id = live.spawned;
                    live.spawned += 1;
                    if !seq.is_empty() {
                        live.entities.push((id, seq.into()));
                    }
                }
                if live.entities.is_empty() {
                    return Ok(false);
                }
                let n = live.entities.len();
                // A fixed range (modulo the live entities), so the pick keeps its place on the
                // tape when shrinking changes how many are alive (a range of one option would
                // not be drawn at all).
                let i = (t.draw(PICK, PICK_RANGE.max(n as u64 - 1), Hint::Uniform)? % n as u64)
                    as usize;
                let (id, seq) = &mut live.entities[i];
                let id = *id;
                let v = seq.pop_front().expect("live entities are not empty");
                if seq.is_empty() {
                    live.entities.remove(i);
                }
                live.out.push((id, v));
                Ok(true)
            },
        )?;
        Ok(live.out)
    }
}
