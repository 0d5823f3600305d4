//! Playback: a fixed list, looped.

use super::steps;
use crate::generators::{Gen, SizeRange};
use crate::tape::{Hint, Label, Reject, Tape};

const START: Label = crate::tape::builtin::PLAYBACK_START;

/// See [`playback`].
#[derive(Clone, Debug)]
pub struct Playback<T> {
    values: Vec<T>,
    size: SizeRange,
}

/// A fixed list played in a loop (Synthia's `Playback`): `size` values (bounded as for
/// [`vecs`](crate::generators::vecs)) taken from `values` in order, starting at a drawn
/// position and wrapping around after the last. To play the list exactly once from the
/// start, give `size` = `values.len()` and ignore the start (or use
/// [`just`](crate::generators::just)).
///
/// **On the tape**: only where to start (one choice, index `i` = start at `values[i]`; no
/// bytes when there is one value) and the "one more?" coins of the length; the values
/// themselves draw nothing.
///
/// **Simplicity order**: the fewest values, starting at `values[0]`. **Running out**: the
/// first `size.min` values of the list (looped).
///
/// Panics if `values` is empty.
///
/// ```
/// use tapefuzz::prelude::*;
/// use tapefuzz::generators::playback;
///
/// let days = playback(vec!["mon", "tue", "wed", "thu", "fri"], 1..=7);
/// check(days, |ds: Vec<&str>| ds.len() < 6 || ds[0] == ds[5]);
/// ```
pub fn playback<T: Clone>(values: Vec<T>, size: impl Into<SizeRange>) -> Playback<T> {
    assert!(!values.is_empty(), "playback needs at least one value");
    Playback {
        values,
        size: size.into(),
    }
}

impl<T: Clone> Gen for Playback<T> {
    type Value = Vec<T>;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<Vec<T>, Reject> {
        let n = self.values.len();
        let start = tape.draw(START, (n - 1) as u64, Hint::Uniform)? as usize;
        let mut out = Vec::new();
        steps(
            &self.size,
            tape,
            &mut out,
            |_| true,
            |out, _| {
                out.push(self.values[(start + out.len()) % n].clone());
                Ok(true)
            },
        )?;
        Ok(out)
    }
}
