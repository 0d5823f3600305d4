//! Booleans.

use super::{Gen, NoInverse, Reflection};
use crate::tape::{Label, Reject, Tape};

const BOOL: Label = crate::tape::builtin::BOOL;

/// Booleans; see [`bools`].
#[derive(Clone, Debug)]
pub struct Bools(f64);

/// Fair booleans. Simplest: `false` (index 0), then `true`. Running out: `false`.
pub fn bools() -> Bools {
    Bools(0.5)
}

/// Booleans that a random source makes `true` with probability `p`; order as [`bools`].
pub fn weighted_bools(p: f64) -> Bools {
    Bools(p.clamp(0.0, 1.0))
}

impl Gen for Bools {
    type Value = bool;
    #[inline]
    fn generate(&self, tape: &mut Tape<'_>) -> Result<bool, Reject> {
        tape.draw_bool(BOOL, self.0)
    }

    fn reflect(&self, value: &bool, out: &mut Reflection) -> Result<(), NoInverse> {
        out.draw_bool(*value);
        Ok(())
    }
}
