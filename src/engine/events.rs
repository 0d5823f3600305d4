//! What a test case tells the run beyond its status, when someone is listening: user events
//! (`event!`, Hypothesis's `event` and QuickCheck's `classify` / `collect`), and, from the
//! property layer, the time spent generating and testing, the value's Debug form and the
//! failure message.
//!
//! All of it goes through one thread-local: a flag that says whether the run collects
//! (statistics on, or an observability log) and the current test case's notes. The flag is
//! checked first, so with statistics and observability off an event costs one thread-local
//! read and a branch, and the property layer measures nothing.
//!
//! ```
//! use tapefuzz::prelude::*;
//!
//! Property::new("events_doc").no_corpus().tests(50).check(
//!     vecs(ints::<u8>(..), 0..=5),
//!     |v: Vec<u8>| {
//!         tapefuzz::event!(if v.is_empty() { "empty" } else { "non-empty" });
//!         tapefuzz::event!("length", v.len());
//!         Ok::<(), Fail>(())
//!     },
//! );
//! ```

use std::cell::{Cell, RefCell};
use std::time::Duration;

/// Nothing is collected.
const OFF: u8 = 0;
/// Events and timings are collected (statistics or an observability log).
const COLLECT: u8 = 1;
/// The value's Debug form and the failure message are wanted too (an observability log).
const OBSERVE: u8 = 2;

thread_local! {
    static MODE: Cell<u8> = const { Cell::new(OFF) };
    static CASE: RefCell<Case> = const { RefCell::new(Case::new()) };
}

/// An event's value: a number (its distribution is reported) or text (counted per value).
#[derive(Clone, Debug, PartialEq)]
pub enum EventValue {
    /// A number.
    Number(f64),
    /// Anything else, as text.
    Text(String),
}

/// What may be the value of an event ([`event_value`]): numbers, `bool`, `char` and text.
pub trait IntoEventValue {
    /// The value as an event's.
    fn into_event_value(self) -> EventValue;
}

macro_rules! number_event_values {
    ($($t:ty),*) => {$(
        impl IntoEventValue for $t {
            fn into_event_value(self) -> EventValue {
                // Wide integers lose precision past 2^53: fine for a distribution.
                EventValue::Number(self as f64)
            }
        }
    )*};
}
number_event_values!(
    u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize, f32, f64
);

impl IntoEventValue for bool {
    fn into_event_value(self) -> EventValue {
        EventValue::Text(self.to_string())
    }
}

impl IntoEventValue for char {
    fn into_event_value(self) -> EventValue {
        EventValue::Text(self.to_string())
    }
}

impl IntoEventValue for &str {
    fn into_event_value(self) -> EventValue {
        EventValue::Text(self.to_string())
    }
}

impl IntoEventValue for String {
    fn into_event_value(self) -> EventValue {
        EventValue::Text(self)
    }
}

impl IntoEventValue for EventValue {
    fn into_event_value(self) -> EventValue {
        self
    }
}

/// One test case's notes, taken by the run loop after it ran.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Case {
    /// Events in order of report: the label and, for [`event_value`], the value. A label
    /// reported twice keeps its last value.
    pub events: Vec<(String, Option<EventValue>)>,
    /// Time spent in the generator.
    pub generating: Duration,
    /// Time spent in the property.
    pub testing: Duration,
    /// The value's Debug form (observability only).
    pub representation: Option<String>,
    /// The failure message (observability only).
    pub message: Option<String>,
}

impl Case {
    const fn new() -> Case {
        Case {
            events: Vec::new(),
            generating: Duration::ZERO,
            testing: Duration::ZERO,
            representation: None,
            message: None,
        }
    }
}

/// Whether the current run collects events and timings (statistics or observability on).
/// Cheap: one thread-local read. Code that computes an event's value at some cost should
/// ask first (the [`crate::event!`] macro does).
#[inline]
pub fn collecting() -> bool {
    MODE.with(Cell::get) != OFF
}

/// Whether the current run logs each test case (an observability log): only then is the
/// value's Debug form worth computing.
#[inline]
pub fn observing() -> bool {
    MODE.with(Cell::get) & OBSERVE != 0
}

/// Records that the current test case had the event `label` (Hypothesis's `event`,
/// QuickCheck's `classify`): the statistics give the share of test cases with each label,
/// and the observability log lists it in `features`. Does nothing (beyond a thread-local
/// read) when the run collects nothing, and outside a run.
#[inline]
pub fn event(label: &str) {
    if collecting() {
        note(label, None);
    }
}

/// Records that the current test case had the event `label` with `value` (QuickCheck's
/// `collect`): the statistics give the distribution of a number (minimum, quartiles,
/// maximum) or the counts of each text value. A label reported twice in one test case keeps
/// the last value. Does nothing when the run collects nothing.
#[inline]
pub fn event_value(label: &str, value: impl IntoEventValue) {
    if collecting() {
        note(label, Some(value.into_event_value()));
    }
}

#[cold]
fn note(label: &str, value: Option<EventValue>) {
    CASE.with(|c| {
        let mut c = c.borrow_mut();
        match c.events.iter_mut().find(|(l, _)| l == label) {
            Some((_, v)) => *v = value,
            None => c.events.push((label.to_string(), value)),
        }
    });
}

/// Records an event for the statistics and the observability log: `event!("label")`, or
/// `event!("label", value)` with a number, `bool`, `char` or text value
/// ([`IntoEventValue`]). The value expression is not even evaluated when the run collects
/// nothing (statistics and observability off).
#[macro_export]
macro_rules! event {
    ($label:expr $(,)?) => {
        $crate::engine::event($label)
    };
    ($label:expr, $value:expr $(,)?) => {
        if $crate::engine::collecting() {
            $crate::engine::event_value($label, $value)
        }
    };
}

/// The property layer's note of how long the generator and the property took (call it only
/// when [`collecting`]).
pub fn note_timing(generating: Duration, testing: Duration) {
    CASE.with(|c| {
        let mut c = c.borrow_mut();
        c.generating += generating;
        c.testing += testing;
    });
}

/// The property layer's note of the value's Debug form (call it only when [`observing`]).
pub fn note_representation(representation: String) {
    CASE.with(|c| c.borrow_mut().representation = Some(representation));
}

/// The property layer's note of the failure message (call it only when [`observing`]).
pub fn note_message(message: &str) {
    CASE.with(|c| c.borrow_mut().message = Some(message.to_string()));
}

/// Takes the current test case's notes (empty ones when nothing was noted).
pub(crate) fn take_case() -> Case {
    CASE.with(|c| std::mem::take(&mut *c.borrow_mut()))
}

/// Forgets the current test case's notes: the property layer calls it as a test case
/// starts, so that the notes the loop takes are that test case's alone.
pub fn clear_case() {
    CASE.with(|c| *c.borrow_mut() = Case::default());
}

/// Switches collecting on for this thread until the guard drops (which restores what was
/// there: a run inside a run gives the outer run its mode back).
pub(crate) struct Collecting {
    before: u8,
}

impl Collecting {
    /// Collects events and timings, and with `observe` the Debug forms and messages too;
    /// with neither `collect` nor `observe`, collects nothing.
    pub(crate) fn start(collect: bool, observe: bool) -> Collecting {
        let mode = if observe {
            COLLECT | OBSERVE
        } else if collect {
            COLLECT
        } else {
            OFF
        };
        let before = MODE.with(|m| m.replace(mode));
        clear_case();
        Collecting { before }
    }
}

impl Drop for Collecting {
    fn drop(&mut self) {
        MODE.with(|m| m.set(self.before));
        clear_case();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_kept_only_while_collecting() {
        event("off");
        event_value("off", 3);
        assert_eq!(take_case(), Case::default());
        {
            let _on = Collecting::start(true, false);
            assert!(collecting() && !observing());
            event("a");
            event_value("n", 3u8);
            event_value("n", 4.5);
            crate::event!("t", "x");
            let c = take_case();
            assert_eq!(
                c.events,
                vec![
                    ("a".to_string(), None),
                    ("n".to_string(), Some(EventValue::Number(4.5))),
                    ("t".to_string(), Some(EventValue::Text("x".into()))),
                ]
            );
            {
                let _inner = Collecting::start(false, true);
                assert!(observing());
            }
            assert!(collecting() && !observing());
        }
        assert!(!collecting());
        // The value is not evaluated when off.
        let mut evaluated = 0;
        crate::event!("never", {
            evaluated += 1;
            evaluated
        });
        assert_eq!(evaluated, 0);
    }
}
