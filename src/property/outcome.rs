//! What a property returns, and how it rejects a value.

use super::rejected::take_rejected;
use std::any::Any;
use std::fmt;

/// Why a property did not pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fail {
    /// The property failed, with a message.
    Failed(String),
    /// The value is outside the property's domain (`assume`): the test case is invalid.
    Rejected,
}

impl Fail {
    /// A failure with `message`.
    pub fn failed(message: impl Into<String>) -> Fail {
        Fail::Failed(message.into())
    }
}

impl fmt::Display for Fail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fail::Failed(m) => f.write_str(m),
            Fail::Rejected => f.write_str("rejected"),
        }
    }
}

/// The marker payload with which [`reject`] unwinds.
pub(crate) struct Rejected;

/// Rejects the current value from anywhere inside a property, at any depth of calls: the
/// test case counts as invalid, not as a failure. It unwinds (a panic with a private payload
/// that the runner catches), so it works in helper functions of any return type, but costs
/// about a microsecond per rejected value; [`assume!`](crate::assume), which returns from
/// the property instead, costs about as much as returning `Err(Fail::Rejected)`.
/// Outside a property run it is an ordinary panic.
pub fn reject() -> ! {
    std::panic::panic_any(Rejected)
}

/// What a property may return: `()` (panic to fail), `bool` (`false` fails) or
/// `Result<(), E>` (`Err` fails with `E`'s Debug, or is a [`Fail`] itself).
///
/// The implementations of this crate also read (and clear) the per-thread flag that
/// [`assume!`](crate::assume) raises (see [`Rejection`](super::Rejection)): after an
/// `assume!` rejected, `into_result` is `Err(Fail::Rejected)` whatever the value.
pub trait Outcome {
    /// `Ok` when the property held.
    fn into_result(self) -> Result<(), Fail>;
}

impl Outcome for () {
    #[inline]
    fn into_result(self) -> Result<(), Fail> {
        if take_rejected() {
            return Err(Fail::Rejected);
        }
        Ok(())
    }
}

impl Outcome for bool {
    #[inline]
    fn into_result(self) -> Result<(), Fail> {
        if take_rejected() {
            Err(Fail::Rejected)
        } else if self {
            Ok(())
        } else {
            Err(Fail::failed("property returned false"))
        }
    }
}

impl<E: fmt::Debug + 'static> Outcome for Result<(), E> {
    #[inline]
    fn into_result(self) -> Result<(), Fail> {
        if take_rejected() {
            return Err(Fail::Rejected);
        }
        self.map_err(|e| match (&e as &dyn Any).downcast_ref::<Fail>() {
            Some(f) => f.clone(),
            None => Fail::failed(format!("{e:?}")),
        })
    }
}

/// Fails the property unless `cond` holds: `ensure!(x < 3)` or `ensure!(x < 3, "x = {}", x)`.
/// The property must return `Result<(), Fail>`.
#[macro_export]
macro_rules! ensure {
    ($cond:expr $(,)?) => {
        if !$cond {
            return Err($crate::property::Fail::failed(concat!("ensure failed: ", stringify!($cond))));
        }
    };
    ($cond:expr, $($fmt:tt)+) => {
        if !$cond {
            return Err($crate::property::Fail::failed(format!($($fmt)+)));
        }
    };
}

/// Fails the property unless the two values are equal (showing both).
#[macro_export]
macro_rules! ensure_eq {
    ($a:expr, $b:expr $(,)?) => {{
        let (a, b) = (&$a, &$b);
        if a != b {
            return Err($crate::property::Fail::failed(format!(
                "ensure_eq failed: {} = {:?}, {} = {:?}",
                stringify!($a),
                a,
                stringify!($b),
                b
            )));
        }
    }};
}
