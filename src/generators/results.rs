//! `Result`s: `Ok` or `Err`, as a union of two variants.

use super::{Gen, NoInverse, Reflection};
use crate::tape::{Hint, Label, Reject, Tape};

// The labels of `one_of`: a `Result` is drawn exactly as `one_of![ok.map(Ok), err.map(Err)]`
// is, so the two spell the same tape (and shrink the same way), without boxing either side.
const VARIANT: Label = crate::tape::builtin::ONE_OF;
const CHOSEN: Label = crate::tape::builtin::VARIANT;

/// See [`results`].
#[derive(Clone, Debug)]
pub struct Results<A, B> {
    ok: A,
    err: B,
}

/// `Ok` of `ok`'s values or `Err` of `err`'s, uniformly. Simplicity order: `Ok` first (a
/// variant choice, 0 = `Ok`), then the side's own order; the side's choices sit in a span
/// `variant`#0 or #1. The same tape as `one_of![ok.map(Ok), err.map(Err)]`. Running out: `Ok`
/// of `ok`'s simplest value.
///
/// ```
/// use tapefuzz::prelude::*;
/// use tapefuzz::generators::results;
///
/// let g = results(ints::<u8>(..), strings(CharClass::lowercase(), 0..=3));
/// // The simplest value:
/// assert_eq!(tapefuzz::generators::value_from_bytes(&g, &[]), Ok(Ok(0)));
/// ```
pub fn results<A: Gen, B: Gen>(ok: A, err: B) -> Results<A, B> {
    Results { ok, err }
}

impl<A: Gen, B: Gen> Gen for Results<A, B> {
    type Value = Result<A::Value, B::Value>;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<Self::Value, Reject> {
        let i = tape.draw(VARIANT, 1, Hint::Uniform)?;
        tape.span(CHOSEN.indexed(i), |t| {
            if i == 0 {
                self.ok.generate(t).map(Ok)
            } else {
                self.err.generate(t).map(Err)
            }
        })
    }

    fn reflect(&self, value: &Self::Value, out: &mut Reflection) -> Result<(), NoInverse> {
        match value {
            Ok(v) => {
                out.draw(1, 0);
                self.ok.reflect(v, out).map_err(|e| e.at(".0"))
            }
            Err(e) => {
                out.draw(1, 1);
                self.err.reflect(e, out).map_err(|e| e.at(".0"))
            }
        }
    }
}
