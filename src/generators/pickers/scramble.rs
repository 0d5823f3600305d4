//! Scramble: a permutation of a list.

use crate::generators::Gen;
use crate::tape::{Hint, Label, Reject, Tape};

const VALUES: Label = crate::tape::builtin::SCRAMBLE_VALUES;
const DIGIT: Label = crate::tape::builtin::SCRAMBLE_DIGIT;

/// See [`scramble`].
#[derive(Clone, Debug)]
pub struct Scramble<G>(G);

/// The values of a list in a drawn order (Synthia's `Scramble`): the list from `inner`, then
/// a permutation of it.
///
/// **On the tape**: the list (span `scramble.values`), then the permutation as a Lehmer
/// code: for position `k` of the output, one choice among the `n - k` values not yet placed,
/// index `j` = the `j`-th of them in their original order (the last position is forced and
/// reads no bytes).
///
/// **Simplicity order**: the simplest list, in its own order (every digit 0: each value stays
/// in place); a lower digit takes an earlier value. **Running out**: the rest of the list in
/// its own order.
///
/// ```
/// use tapefuzz::prelude::*;
/// use tapefuzz::generators::scramble;
///
/// check(scramble(vecs(ints::<u8>(..), 0..=8)), |v: Vec<u8>| {
///     let mut s = v.clone();
///     s.sort();
///     s.len() == v.len()
/// });
/// ```
pub fn scramble<G: Gen<Value = Vec<T>>, T>(inner: G) -> Scramble<G> {
    Scramble(inner)
}

impl<G: Gen<Value = Vec<T>>, T> Gen for Scramble<G> {
    type Value = Vec<T>;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<Vec<T>, Reject> {
        let mut left = tape.span(VALUES, |t| self.0.generate(t))?;
        let mut out = Vec::with_capacity(left.len());
        while !left.is_empty() {
            let j = tape.draw(DIGIT, (left.len() - 1) as u64, Hint::Uniform)?;
            // `remove`, not `swap_remove`: the remaining values keep their order, so digit 0
            // always means "the next value in the original order".
            out.push(left.remove(j as usize));
        }
        Ok(out)
    }
}
