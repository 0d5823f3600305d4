//! Bounded pickers: finite sequences, and `Unbound`, which goes on past their end.

use super::steps;
use crate::generators::{Gen, SizeRange, Vecs, vecs};
use crate::tape::{Hint, Label, Reject, Tape};

const BOUNDED: Label = crate::tape::builtin::UNBOUND_BOUNDED;
const PICK: Label = crate::tape::builtin::UNBOUND_PICK;
/// The range of a pick among the bounded values (or more, when there are more), taken
/// modulo their number.
const PICK_RANGE: u64 = 15;

/// A bounded picker from an unbounded one (Synthia's `Bound`: pick a number, then relay that
/// many values): [`vecs`] under the name Synthia gives it. Any generator of a `Vec` is a
/// bounded picker here — Synthia's `isDone` is the end of the `Vec`, its `reset` is
/// generating again. Simplicity order and running out: as [`vecs`] (`size.min` simplest
/// values).
///
/// ```
/// use tapefuzz::prelude::*;
/// use tapefuzz::generators::take;
///
/// check(take(ints::<u8>(..), 3), |v: Vec<u8>| v.len() == 3);
/// ```
pub fn take<G: Gen>(inner: G, size: impl Into<SizeRange>) -> Vecs<G> {
    vecs(inner, size)
}

/// See [`unbound`].
#[derive(Clone, Debug)]
pub struct Unbound<G> {
    bounded: G,
    size: SizeRange,
}

/// A bounded picker made unbounded (Synthia's `Unbound`): the values of `bounded` (a
/// generator of a finite `Vec`), then `size` more values (bounded as for [`vecs`]), each one
/// of the bounded values picked again.
///
/// **On the tape**: the bounded values (span `unbound.bounded`), then per extra value an
/// element span with its "one more?" coin and the pick (index `i` = the `i`-th bounded
/// value; an index past a shrunk list wraps around). An empty bounded list has nothing to
/// pick from: the value is then empty, whatever `size.min`.
///
/// **Simplicity order**: the simplest bounded list, then `size.min` copies of its first
/// value. **Running out**: the same.
///
/// ```
/// use tapefuzz::prelude::*;
/// use tapefuzz::generators::playback;
/// use tapefuzz::generators::unbound;
///
/// // Three distinct ids, then requests that only ever use them.
/// let ids = unbound(playback(vec![10u32, 20, 30], 3), 0..=10);
/// check(ids, |v: Vec<u32>| v.iter().all(|x| [10, 20, 30].contains(x)));
/// ```
pub fn unbound<G: Gen<Value = Vec<T>>, T: Clone>(
    bounded: G,
    size: impl Into<SizeRange>,
) -> Unbound<G> {
    Unbound {
        bounded,
        size: size.into(),
    }
}

impl<G: Gen<Value = Vec<T>>, T: Clone> Gen for Unbound<G> {
    type Value = Vec<T>;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<Vec<T>, Reject> {
        let mut out = tape.span(BOUNDED, |t| self.bounded.generate(t))?;
        let bounded = out.len();
        steps(
            &self.size,
            tape,
            &mut out,
            |_| bounded > 0,
            |out, t| {
                // A fixed range modulo the bounded values (wider when there are more): the
                // pick keeps its place on the tape when shrinking shortens the bounded list.
                let i = t.draw(PICK, PICK_RANGE.max(bounded as u64 - 1), Hint::Uniform)?;
                out.push(out[(i % bounded as u64) as usize].clone());
                Ok(true)
            },
        )?;
        Ok(out)
    }
}
