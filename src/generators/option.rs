//! Optional values.

use super::{Gen, NoInverse, Reflection};
use crate::tape::{Label, Reject, Tape};

const SOME: Label = crate::tape::builtin::SOME;
const VALUE: Label = crate::tape::builtin::OPTION_VALUE;

/// See [`option`].
#[derive(Clone, Debug)]
pub struct Optional<G>(G);

/// `None` or `Some` of the inner generator's value. Simplest: `None` (a 0 "some?" boolean),
/// then `Some` with the inner order (its choices in a span `option.value`). Running out: `None`.
pub fn option<G: Gen>(inner: G) -> Optional<G> {
    Optional(inner)
}

impl<G: Gen> Gen for Optional<G> {
    type Value = Option<G::Value>;
    #[inline]
    fn generate(&self, tape: &mut Tape<'_>) -> Result<Option<G::Value>, Reject> {
        if tape.draw_bool(SOME, 0.5)? {
            tape.span(VALUE, |t| self.0.generate(t)).map(Some)
        } else {
            Ok(None)
        }
    }

    fn reflect(&self, value: &Option<G::Value>, out: &mut Reflection) -> Result<(), NoInverse> {
        out.draw_bool(value.is_some());
        match value {
            Some(v) => self.0.reflect(v, out).map_err(|e| e.at(".0")),
            None => Ok(()),
        }
    }
}
