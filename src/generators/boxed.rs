//! A type-erased, clonable generator.

use super::{Gen, NoInverse, Reflection};
use crate::tape::{Reject, Tape};
use std::fmt;
use std::rc::Rc;

/// A generator behind a shared pointer: clone it freely, store it in unions and recursions.
pub struct Boxed<T>(Rc<dyn Gen<Value = T>>);

impl<T> Boxed<T> {
    /// Erases the type of `g`.
    pub fn new<G: Gen<Value = T> + 'static>(g: G) -> Boxed<T> {
        Boxed(Rc::new(g))
    }
}

impl<T> Clone for Boxed<T> {
    fn clone(&self) -> Self {
        Boxed(self.0.clone())
    }
}

impl<T> fmt::Debug for Boxed<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Boxed<Gen>")
    }
}

impl<T> Gen for Boxed<T> {
    type Value = T;
    #[inline]
    fn generate(&self, tape: &mut Tape<'_>) -> Result<T, Reject> {
        self.0.generate(tape)
    }

    fn reflect(&self, value: &T, out: &mut Reflection) -> Result<(), NoInverse> {
        self.0.reflect(value, out)
    }
}
