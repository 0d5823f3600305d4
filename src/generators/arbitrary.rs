//! A bridge from any `arbitrary::Arbitrary` type.

use super::{Gen, SizeRange};
use crate::tape::{Hint, Label, Reject, Tape};
use std::marker::PhantomData;

const BYTE: Label = crate::tape::builtin::BYTE;

/// See [`from_arbitrary`].
pub struct FromArbitrary<T> {
    size: SizeRange,
    _t: PhantomData<fn() -> T>,
}

impl<T> Clone for FromArbitrary<T> {
    fn clone(&self) -> Self {
        FromArbitrary {
            size: self.size,
            _t: PhantomData,
        }
    }
}

/// Values of any [`arbitrary::Arbitrary`] type: draws a byte buffer (as a collection of up
/// to 4,096 bytes, average 64) and hands it to `T::arbitrary`. Simplicity order: shorter
/// buffers, then smaller bytes — `arbitrary` reads missing bytes as zeros, so the simplest
/// value is `T::arbitrary` of an empty buffer. Running out: that value. An
/// `arbitrary::Error` rejects the test case.
pub fn from_arbitrary<T: for<'a> arbitrary::Arbitrary<'a>>() -> FromArbitrary<T> {
    FromArbitrary {
        size: SizeRange::new(0, 4096).with_average(64.0),
        _t: PhantomData,
    }
}

impl<T: for<'a> arbitrary::Arbitrary<'a>> Gen for FromArbitrary<T> {
    type Value = T;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<T, Reject> {
        let mut buf = Vec::new();
        self.size.repeat(tape, |t| {
            buf.push(t.draw(BYTE, 255, Hint::Uniform)? as u8);
            Ok(true)
        })?;
        let mut u = arbitrary::Unstructured::new(&buf);
        T::arbitrary(&mut u).map_err(|_| tape.reject())
    }
}
