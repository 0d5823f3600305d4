//! Fixed-size arrays.

use super::{Gen, NoInverse, Reflection};
use crate::tape::{Label, Reject, Tape};

// A tuple's field label: `[T; N]` is drawn exactly as a tuple of N copies of the element
// generator, so the two spell the same tape.
const FIELD: Label = crate::tape::builtin::FIELD;

/// See [`arrays`].
#[derive(Clone, Debug)]
pub struct Arrays<G, const N: usize>(G);

/// Arrays `[T; N]` of `element`'s values: each element in its own span `field`#i, as a tuple's
/// fields are (the same tape as the tuple `(element, element, …)`). Simplicity order:
/// lexicographic over the elements. Running out: every element simplest. `N = 0` draws
/// nothing.
///
/// ```
/// use tapefuzz::prelude::*;
/// use tapefuzz::generators::{arrays, value_from_bytes};
///
/// let g = arrays::<_, 3>(ints::<u8>(..));
/// assert_eq!(value_from_bytes(&g, &[1, 2]), Ok([1, 2, 0]));
/// ```
pub fn arrays<G: Gen, const N: usize>(element: G) -> Arrays<G, N> {
    Arrays(element)
}

impl<G: Gen, const N: usize> Gen for Arrays<G, N> {
    type Value = [G::Value; N];
    fn generate(&self, tape: &mut Tape<'_>) -> Result<[G::Value; N], Reject> {
        let mut out = Vec::with_capacity(N);
        for i in 0..N {
            out.push(tape.span(FIELD.indexed(i as u64), |t| self.0.generate(t))?);
        }
        // Exactly N elements were pushed.
        Ok(out
            .try_into()
            .unwrap_or_else(|_| unreachable!("N elements")))
    }

    fn reflect(&self, value: &[G::Value; N], out: &mut Reflection) -> Result<(), NoInverse> {
        for (i, v) in value.iter().enumerate() {
            self.0.reflect(v, out).map_err(|e| e.at(format!("[{i}]")))?;
        }
        Ok(())
    }
}
