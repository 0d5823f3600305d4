//! The per-thread "rejected" flag of [`assume!`](crate::assume): raised when a property
//! returns a rejection its return type cannot carry (`()`, `bool`), taken by the test
//! wrapper when the property returns. On its own so that the outcome (which reads it) and
//! `assume!` (which raises it) do not import each other.

use std::cell::Cell;

thread_local! {
    /// Set by [`Rejection::rejected`](super::Rejection::rejected) when the returned value cannot carry the rejection.
    static REJECTED: Cell<bool> = const { Cell::new(false) };
}

/// Raises the "rejected" flag of this thread.
#[inline]
pub(crate) fn raise() {
    REJECTED.with(|r| r.set(true));
}

/// Whether `assume!` rejected since the flag was last taken, clearing it. The test wrapper
/// calls it after the property returns; [`clear_rejected`] before it runs.
#[inline]
pub(crate) fn take_rejected() -> bool {
    REJECTED.with(|r| r.replace(false))
}

/// Clears a flag left by an `assume!` outside any property (so it cannot reject the next
/// test case).
#[inline]
pub(crate) fn clear_rejected() {
    REJECTED.with(|r| r.set(false));
}
