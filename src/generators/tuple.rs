//! Tuples of generators: each field in its own span, in order.
//!
//! Simplicity order: lexicographic over the fields (the first field's order first). Running
//! out: each field simplest.

use super::{Gen, NoInverse, Reflection};
use crate::tape::{Label, Reject, Tape};

const FIELD: Label = crate::tape::builtin::FIELD;

macro_rules! tuple {
    ($($g:ident $i:tt),+) => {
        impl<$($g: Gen),+> Gen for ($($g,)+) {
            type Value = ($($g::Value,)+);
            #[inline]
            fn generate(&self, tape: &mut Tape<'_>) -> Result<Self::Value, Reject> {
                Ok(($(tape.span(const { FIELD.indexed($i) }, |t| self.$i.generate(t))?,)+))
            }

            fn reflect(&self, value: &Self::Value, out: &mut Reflection) -> Result<(), NoInverse> {
                $(self.$i.reflect(&value.$i, out).map_err(|e| e.at(concat!(".", $i)))?;)+
                Ok(())
            }
        }
    };
}

tuple!(A 0);
tuple!(A 0, B 1);
tuple!(A 0, B 1, C 2);
tuple!(A 0, B 1, C 2, D 3);
tuple!(A 0, B 1, C 2, D 3, E 4);
tuple!(A 0, B 1, C 2, D 3, E 4, F 5);
tuple!(A 0, B 1, C 2, D 3, E 4, F 5, G 6);
tuple!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);
tuple!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8);
tuple!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9);
