//! Synthia's pickers as generators on the tape.
//!
//! In Synthia (Plourde and Hallé, ICSE 2022) a *picker* is a stateful object whose `pick()`
//! produces the next value, drawing its randomness from other pickers. On the tape a picker
//! is an ordinary [`Gen`](super::Gen): whatever state it keeps (the current state of a Markov
//! chain, the live entities of a knit, the running total of a tick) is a function of the
//! choices it drew, so every output replays, shrinks, is enumerated and is saved like any
//! other value. A picker that Synthia calls many times becomes one generator of a `Vec`: the
//! sequence of its picks, drawn as collections are (a "one more?" coin before each element,
//! coin and element in one [`Kind::Element`](crate::tape::Kind::Element) span, so deleting
//! the span deletes one pick).
//!
//! | Synthia | here | value |
//! |---|---|---|
//! | `MarkovChain` | [`markov`] | the walk, `Vec<T>` |
//! | `GrammarPicker` | [`grammar`] | the tokens of one derivation, `Vec<T>` |
//! | `Knit` | [`knit`] | interleaved `(entity, value)` pairs |
//! | `Tick` | [`tick`] | running totals, `Vec<T>` |
//! | `Playback` | [`playback`] | a fixed list, looped from a drawn start |
//! | `Freeze` | [`freeze`] | copies of one drawn value |
//! | `Scramble` | [`scramble`] | a permutation of a drawn list |
//! | `Bound`, bounded pickers | [`take`] (any `Vec` generator is one) | a finite `Vec` |
//! | `Unbound` | [`unbound`] | a bounded list, then picks among its values |
//! | `Enumerate` | [`enumerate_all`] | one combination of several lists |
//!
//! Synthia's `isDone` / `reset` of bounded pickers become finite `Vec`s: a bounded picker is
//! a generator of the whole finite sequence, and "reset" is generating again.
//!
//! Every picker states its **simplicity order** (what a tape of zeros gives, what index 0
//! means) and what it does when the tape **runs out** (every further choice is index 0, so
//! the rest of the value is its simplest completion).
//!
//! ```
//! use tapefuzz::prelude::*;
//! use tapefuzz::generators::{MarkovState, knit, markov};
//!
//! // Visitors of a site: each one a walk of a Markov chain, interleaved by knit.
//! let visit = markov(
//!     vec![
//!         MarkovState::new(just("home")).to(1, 3).to(2, 1),
//!         MarkovState::new(just("page")).to(1, 1).to(2, 1),
//!         MarkovState::new(just("logout")),
//!     ],
//!     0,
//!     0..=8,
//! );
//! check(knit(visit, 0..=30), |log: Vec<(usize, &str)>| {
//!     // A visitor's first request is always "home".
//!     let mut seen = std::collections::HashSet::new();
//!     log.iter().all(|&(id, page)| !seen.insert(id) || page == "home")
//! });
//! ```

mod bounded;
mod enumerate;
mod freeze;
mod grammar;
mod knit;
mod markov;
mod playback;
mod scramble;
mod tick;

pub use bounded::{Unbound, take, unbound};
pub use enumerate::{EnumerateAll, enumerate_all};
pub use freeze::{Freeze, freeze};
pub use grammar::{Grammar, Symbol, grammar};
pub use knit::{Knit, knit};
pub use markov::{Markov, MarkovState, markov};
pub use playback::{Playback, playback};
pub use scramble::{Scramble, scramble};
pub use tick::{Increment, Tick, tick};

use super::SizeRange;
use crate::tape::{Label, Reject, Tape};

const ELEMENT: Label = crate::tape::builtin::ELEMENT;
const MORE: Label = crate::tape::builtin::MORE;

/// The collection loop of pickers whose sequence can end on its own (a terminal state, no
/// live entity): as [`SizeRange`]'s loop — a "one more?" coin before each step, coin and
/// step in one element span, forced `true` below `min` and `false` at `max` — and the coin
/// is also forced `false` when `can_go(state)` says the sequence cannot go on (then it ends
/// below `min`). `step` returns whether the step produced an element; when it did not, the
/// sequence ends (so a step never loops without drawing).
pub(crate) fn steps<S>(
    size: &SizeRange,
    tape: &mut Tape<'_>,
    state: &mut S,
    can_go: impl Fn(&S) -> bool,
    mut step: impl FnMut(&mut S, &mut Tape<'_>) -> Result<bool, Reject>,
) -> Result<(), Reject> {
    let p = size.p_more();
    let mut count = 0;
    loop {
        let depth = tape.depth();
        tape.start_span(ELEMENT);
        let more = if !can_go(state) || count >= size.max {
            tape.force_bool(MORE, false)
        } else if count < size.min {
            tape.force_bool(MORE, true)
        } else {
            tape.draw_bool(MORE, p)
        };
        let r = match more {
            Ok(true) => step(state, tape),
            Ok(false) => Ok(false),
            Err(e) => Err(e),
        };
        tape.close_to(depth);
        if !r? {
            return Ok(());
        }
        count += 1;
    }
}
