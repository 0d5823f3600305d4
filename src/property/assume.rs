//! `assume!`: rejecting a value by returning from the property, not by unwinding.
//!
//! Unwinding costs about a microsecond per rejected value (the panic machinery, the payload
//! allocation, `catch_unwind`), which properties that reject most of their inputs pay on
//! every test case. So `assume!(cond)` expands to `return` of a *rejected* value of the
//! property's own return type ([`Rejection::rejected`]); for return types that cannot say
//! "rejected" themselves (`()`, `bool`, `Result<(), E>` for an `E` other than
//! [`Fail`]), it also raises a per-thread flag that the test wrapper (and every
//! [`Outcome::into_result`](super::Outcome::into_result) of this crate) reads after the call.
//! [`reject`](super::reject) still unwinds: it works from any depth, in helper functions
//! whose return type is something else.

use super::outcome::Fail;
use super::rejected::raise;
use std::any::Any;

/// A return type of a property that [`assume!`](crate::assume) can return from: the value
/// that means "this test case is rejected".
///
/// - `Result<(), Fail>`: `Err(Fail::Rejected)`, a value that says it by itself (it also
///   propagates through `?` from a helper function returning `Result<(), Fail>`);
/// - `()`, `bool` (`true`) and `Result<(), E>` for any other `E` (`Ok(())`): a value that
///   would pass, plus a per-thread flag that the property's runner reads when the property
///   returns, so the test case is counted as rejected.
///
/// Edge: with the flag, the rejection belongs to the test case, not to the function that
/// returned. `assume!` in a closure *inside* a property (`v.iter().for_each(|x| {
/// assume!(*x > 0) })`) returns from that inner closure only; the property goes on, and its
/// test case is rejected when it returns or panics, whatever the outcome (the rejection came
/// first).
/// In a helper function whose result the property uses, prefer
/// [`reject`](crate::property::reject), which unwinds out of the property at once.
///
/// ```
/// use tapefuzz::prelude::*;
///
/// // `()`: panic to fail.
/// Property::new("assume_unit").no_corpus().tests(50).check(ints::<u8>(..), |x: u8| {
///     assume!(x % 2 == 0);
///     assert!(x % 2 == 0);
/// });
/// // `bool`.
/// Property::new("assume_bool").no_corpus().tests(50).check(ints::<u8>(..), |x: u8| {
///     assume!(x > 0);
///     x > 0
/// });
/// // `Result<(), Fail>`.
/// Property::new("assume_result").no_corpus().tests(50).check(ints::<u8>(..), |x: u8| {
///     assume!(x < 200);
///     ensure!(x < 200);
///     Ok(())
/// });
/// // `Result<(), E>` for your own error type.
/// Property::new("assume_string").no_corpus().tests(50).check(ints::<u8>(..), |x: u8| {
///     assume!(x != 7);
///     if x == 7 { Err(format!("seven")) } else { Ok(()) }
/// });
/// ```
pub trait Rejection {
    /// The value `assume!` returns to reject the test case (raising the per-thread flag when
    /// the value cannot say so itself).
    fn rejected() -> Self;
}

impl Rejection for () {
    #[inline]
    fn rejected() {
        raise();
    }
}

impl Rejection for bool {
    #[inline]
    fn rejected() -> bool {
        raise();
        true
    }
}

impl<E: 'static> Rejection for Result<(), E> {
    #[inline]
    fn rejected() -> Result<(), E> {
        // `E` is `Fail` exactly when an `Option<Fail>` is an `Option<E>`: no allocation and
        // no unsafe code, and the check folds to a constant once monomorphised.
        let mut fail = Some(Fail::Rejected);
        if let Some(e) = (&mut fail as &mut dyn Any)
            .downcast_mut::<Option<E>>()
            .and_then(Option::take)
        {
            return Err(e);
        }
        raise();
        Ok(())
    }
}

/// Rejects the value — the test case is invalid, not a failure — unless `cond` holds.
///
/// `assume!` **returns** from the enclosing function or closure (the property) with a
/// rejected value of its return type ([`Rejection`]: `()`, `bool`, `Result<(), Fail>`,
/// `Result<(), E>`), which costs about as much as returning `Err(Fail::Rejected)` by hand.
/// Inside a helper function that returns something else, call
/// [`reject()`](crate::property::reject) instead: it unwinds out of the property from any
/// depth, at the price of a panic (about a microsecond per rejected value).
///
/// A closure whose only other way out is `Ok(())` does not say its error type, and Rust does
/// not guess it (`E0282: type annotations needed`): end it with `Ok::<(), Fail>(())`, give
/// the closure a return type (`|x| -> Result<(), Fail> { … }`), use `ensure!` (which names
/// `Fail`), or return nothing (`()`).
///
/// ```
/// use tapefuzz::prelude::*;
///
/// check(vecs(ints::<i32>(..), 0..=10), |v: Vec<i32>| {
///     assume!(!v.is_empty());
///     let max = *v.iter().max().unwrap();
///     assert!(v.contains(&max));
/// });
///
/// // From a helper that returns a value: `reject()` unwinds.
/// fn first_even(v: &[u8]) -> u8 {
///     match v.iter().find(|x| *x % 2 == 0) {
///         Some(x) => *x,
///         None => tapefuzz::property::reject(),
///     }
/// }
/// check(vecs(ints::<u8>(..), 0..=10), |v: Vec<u8>| first_even(&v) % 2 == 0);
///
/// // With `Ok(())`: name the error type.
/// check(ints::<u8>(..), |x: u8| {
///     assume!(x > 0);
///     Ok::<(), Fail>(())
/// });
/// ```
#[macro_export]
macro_rules! assume {
    ($cond:expr $(,)?) => {
        if !$cond {
            return $crate::property::Rejection::rejected();
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::property::rejected::{clear_rejected, take_rejected};

    #[test]
    fn fail_result_says_it_without_the_flag() {
        clear_rejected();
        assert_eq!(
            <Result<(), Fail> as Rejection>::rejected(),
            Err(Fail::Rejected)
        );
        assert!(!take_rejected());
    }

    #[test]
    fn other_types_raise_the_flag_once() {
        clear_rejected();
        <() as Rejection>::rejected();
        assert!(take_rejected());
        assert!(!take_rejected());
        assert!(<bool as Rejection>::rejected());
        assert!(take_rejected());
        assert_eq!(<Result<(), String> as Rejection>::rejected(), Ok(()));
        assert!(take_rejected());
    }
}
