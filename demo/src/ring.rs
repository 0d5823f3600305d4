//! Bug 2, a state machine: a ring buffer that keeps the last [`CAPACITY`] items (a history,
//! a log tail), overwriting the oldest when full.
//!
//! The items live in a fixed array; `head` is the oldest item's slot and `len` the number
//! of items. **The bug:** when the ring is full, a push overwrites the oldest item's slot
//! but does not move `head` on, so the ring takes the newest item for the oldest: the next
//! push or pop after the wrap-around gives the wrong item.
//!
//! **The property:** [`Machine`] runs random sequences of pushes and pops on the ring and,
//! in lockstep, on a model (a `VecDeque`): every push must evict what the model evicts,
//! every pop return what the model pops, and the lengths must agree
//! ([`tapefuzz::stateful`]).
//!
//! **Minimal counterexample:** `Push(0), Push(0), Push(0), Push(1), Pop`. The wrong
//! `head` only shows once the ring has wrapped: 3 pushes fill it, a 4th overwrites an item,
//! and a 5th action (a push or a pop) reads the item at `head`. It reads the 4th item
//! instead of the 2nd, so these must differ: `1` instead of `0` in the 4th push is the
//! least change. The 5th is a pop rather than a push, as a pop draws no item: shrinking
//! makes the choices fewer first, then smaller.

use std::collections::VecDeque;
use tapefuzz::engine::Report;
use tapefuzz::generators::Boxed;
use tapefuzz::prelude::*;

/// How many items the ring holds.
pub const CAPACITY: usize = 3;

/// A ring buffer of the last [`CAPACITY`] items pushed.
#[derive(Debug)]
pub struct Ring {
    items: [u32; CAPACITY],
    /// The oldest item's slot.
    head: usize,
    len: usize,
    fixed: bool,
}

impl Ring {
    /// An empty ring; with `fixed` false, with the planted bug.
    pub fn new(fixed: bool) -> Ring {
        Ring {
            items: [0; CAPACITY],
            head: 0,
            len: 0,
            fixed,
        }
    }

    /// Appends `x`; when the ring is full, the oldest item makes room and is returned.
    pub fn push(&mut self, x: u32) -> Option<u32> {
        let slot = (self.head + self.len) % CAPACITY;
        if self.len < CAPACITY {
            self.items[slot] = x;
            self.len += 1;
            return None;
        }
        // Full: `slot` is `head`, the oldest item's, and the next item becomes the oldest.
        let evicted = std::mem::replace(&mut self.items[slot], x);
        // THE BUG: `head` is not moved on when the ring is full.
        if self.fixed {
            self.head = (self.head + 1) % CAPACITY;
        }
        Some(evicted)
    }

    /// Removes and returns the oldest item.
    pub fn pop(&mut self) -> Option<u32> {
        if self.len == 0 {
            return None;
        }
        let x = self.items[self.head];
        self.head = (self.head + 1) % CAPACITY;
        self.len -= 1;
        Some(x)
    }

    /// The number of items.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the ring holds no item.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// An action on the ring.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// [`Ring::push`] this item.
    Push(u32),
    /// [`Ring::pop`].
    Pop,
}

/// The ring against its model: a `VecDeque` of at most [`CAPACITY`] items, oldest first.
pub struct Machine {
    /// Whether to test the ring with its bug fixed.
    pub fixed: bool,
}

impl StateMachine for Machine {
    type State = VecDeque<u32>;
    type Sut = Ring;
    type Action = Op;

    fn initial(&self) -> VecDeque<u32> {
        VecDeque::new()
    }

    fn reset(&self) -> Ring {
        Ring::new(self.fixed)
    }

    fn actions(&self, _: &VecDeque<u32>) -> Boxed<Op> {
        one_of![ints::<u32>(..).map(Op::Push).boxed(), just(Op::Pop).boxed()].boxed()
    }

    fn next_state(&self, model: &mut VecDeque<u32>, op: &Op) {
        match *op {
            Op::Push(x) => {
                if model.len() == CAPACITY {
                    model.pop_front();
                }
                model.push_back(x);
            }
            Op::Pop => {
                model.pop_front();
            }
        }
    }

    fn run(&self, ring: &mut Ring, model: &VecDeque<u32>, op: &Op) -> Result<(), Fail> {
        match *op {
            Op::Push(x) => {
                let evicted = (model.len() == CAPACITY).then(|| model[0]);
                ensure_eq!(ring.push(x), evicted);
            }
            Op::Pop => ensure_eq!(ring.pop(), model.front().copied()),
        }
        Ok(())
    }

    fn check(&self, ring: &Ring, model: &VecDeque<u32>) -> Result<(), Fail> {
        ensure_eq!(ring.len(), model.len());
        Ok(())
    }
}

/// The property: sequences of up to 40 actions on the ring agree with the model.
pub fn run(property: &Property, fixed: bool) -> Report {
    property.run_test(&stateful(Machine { fixed }, 0..=40))
}
