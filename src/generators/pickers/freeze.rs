//! Freeze: one value, repeated.

use crate::generators::{Gen, SizeRange};
use crate::tape::{Label, Reject, Tape};

const VALUE: Label = crate::tape::builtin::FREEZE_VALUE;

/// See [`freeze`].
#[derive(Clone, Debug)]
pub struct Freeze<G> {
    inner: G,
    size: SizeRange,
}

/// One value drawn once and repeated (Synthia's `Freeze`, whose every pick returns the first
/// value it picked): `size` copies (bounded as for [`vecs`](crate::generators::vecs)) of a
/// value of `inner`.
///
/// **On the tape**: the value (span `freeze.value`, always drawn, even for zero copies, so
/// the length never moves it), then the "one more?" coins of the copies, which draw nothing
/// else.
///
/// **Simplicity order**: the simplest value, `size.min` copies. **Running out**: the same.
///
/// ```
/// use tapefuzz::prelude::*;
/// use tapefuzz::generators::freeze;
///
/// check(freeze(ints::<i32>(..), 1..=5), |v: Vec<i32>| v.iter().all(|x| *x == v[0]));
/// ```
pub fn freeze<G: Gen>(inner: G, size: impl Into<SizeRange>) -> Freeze<G>
where
    G::Value: Clone,
{
    Freeze {
        inner,
        size: size.into(),
    }
}

impl<G: Gen> Gen for Freeze<G>
where
    G::Value: Clone,
{
    type Value = Vec<G::Value>;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<Vec<G::Value>, Reject> {
        let value = tape.span(VALUE, |t| self.inner.generate(t))?;
        let mut out = Vec::new();
        self.size.repeat(tape, |_| {
            out.push(value.clone());
            Ok(true)
        })?;
        Ok(out)
    }
}
