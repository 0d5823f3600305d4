//! Catching panics in properties without printing each one.

use super::outcome::Rejected;
use crate::allocation;
use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

thread_local! {
    static QUIET: Cell<bool> = const { Cell::new(false) };
    /// Where the last quiet panic of this thread happened (`file:line:column`).
    static LOCATION: RefCell<Option<String>> = const { RefCell::new(None) };
}

static HOOK: Once = Once::new();

/// What a caught panic was.
pub enum Caught {
    /// [`super::reject`] (from `assume!`).
    Rejected,
    /// Any other panic, with its message.
    Panic(String),
}

/// Runs `f`, turning a panic into `Err`. The panic hook stays silent for panics caught here
/// (shrinking runs thousands) and prints as before for every other panic. The message
/// names where the panic happened, as Rust's own panic message does (`panicked at
/// src/lib.rs:37:26: …`): inside the code under test, not at the `check` call.
///
/// A single allocation at or over the engine's limit while `f` ran (in the instrumented builds of
/// `cargo tapefuzz`, see [`crate::allocation`]) is a failure too, whatever `f`
/// returned: `Caught::Panic` with a message that gives the size and the limit.
pub fn catch<R>(f: impl FnOnce() -> R) -> Result<R, Caught> {
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if QUIET.with(|q| q.get()) {
                // `reject()` (every `assume!` from a helper) is no failure: nothing to
                // locate, and no string to format on that path.
                if info.payload().is::<Rejected>() {
                    return;
                }
                let at = info
                    .location()
                    .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
                LOCATION.with(|l| *l.borrow_mut() = at);
            } else {
                previous(info)
            }
        }));
    });
    let was = QUIET.with(|q| q.replace(true));
    // A location left by an earlier panic never names this one (a payload resumed without
    // the hook, such as a joined thread's, has none).
    LOCATION.with(|l| l.borrow_mut().take());
    let requests = allocation::over_count();
    let r = panic::catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|q| q.set(was));
    if allocation::over_count() != requests {
        return Err(Caught::Panic(over_limit(allocation::last_over())));
    }
    r.map_err(|payload| {
        if payload.is::<Rejected>() {
            return Caught::Rejected;
        }
        // A hook of the user's own, set after ours, may have left no location.
        let at = LOCATION
            .with(|l| l.borrow_mut().take())
            .map_or_else(String::new, |l| format!(" at {l}"));
        if let Some(s) = payload.downcast_ref::<&str>() {
            Caught::Panic(format!("panicked{at}: {s}"))
        } else if let Some(s) = payload.downcast_ref::<String>() {
            Caught::Panic(format!("panicked{at}: {s}"))
        } else {
            Caught::Panic(format!("panicked{at}"))
        }
    })
}

/// The failure message of a request of `size` bytes over the allocation limit.
fn over_limit(size: u64) -> String {
    let limit = allocation::limit().unwrap_or(0) >> 20;
    format!(
        "asked for {size} bytes in one allocation, at or over the limit of {limit} MB (libFuzzer's -malloc_limit_mb; TAPEFUZZ_MALLOC_LIMIT_MB sets it, 0 turns it off)"
    )
}

/// [`catch`] with the panic as its message (`assume!`'s rejection included, as "rejected").
pub(crate) fn catch_message<R>(f: impl FnOnce() -> R) -> Result<R, String> {
    catch(f).map_err(|c| match c {
        Caught::Rejected => "rejected".to_string(),
        Caught::Panic(m) => m,
    })
}

/// [`catch`] telling `assume!`'s rejection (`Err(None)`) from a panic (`Err(Some(message))`).
pub(crate) fn catch_or_reject<R>(f: impl FnOnce() -> R) -> Result<R, Option<String>> {
    catch(f).map_err(|c| match c {
        Caught::Rejected => None,
        Caught::Panic(m) => Some(m),
    })
}
