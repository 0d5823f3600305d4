//! A trace: where a tape writes each index its source chose, as it chooses it, so that a test
//! case that kills the process (an abort, a stack overflow, a hang) leaves its choices behind.

use std::marker::PhantomData;

/// Where a [`Trace`] gets more slots when its first ones are full.
///
/// # Safety
///
/// [`TraceRoom::grow`] must return a count of slots that are valid for reads and writes of
/// `u64` from the start of the slots the trace was made with, for as long as the trace lives.
pub unsafe trait TraceRoom {
    /// Makes room for at least `wanted` slots from the trace's start, if it can; returns the
    /// number of slots there are now (which may be fewer).
    fn grow(&mut self, wanted: usize) -> usize;
}

/// Slots for the indices a tape's source chooses (forced choices are not traced: a
/// [`super::ReplaySource`] over the traced indices replays the test case), and the count
/// written so far. When the slots are full a trace made with [`Trace::growing`] asks for
/// more; past the last slot it can get the count goes on and the indices are dropped.
#[derive(Debug)]
pub struct Trace<'t> {
    slots: *mut u64,
    len: usize,
    count: &'t mut u64,
    room: Option<RoomRef<'t>>,
    _slots: PhantomData<&'t mut [u64]>,
}

/// A room, for `Debug`.
struct RoomRef<'t>(&'t mut dyn TraceRoom);

impl std::fmt::Debug for RoomRef<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TraceRoom")
    }
}

impl<'t> Trace<'t> {
    /// A trace into `slots`, counting in `count` (set to 0 here).
    pub fn new(slots: &'t mut [u64], count: &'t mut u64) -> Trace<'t> {
        *count = 0;
        Trace {
            len: slots.len(),
            slots: slots.as_mut_ptr(),
            count,
            room: None,
            _slots: PhantomData,
        }
    }

    /// A trace into the `len` slots at `slots` that asks `room` for more slots, after them,
    /// when they are full (a flight record that writes its file's blocks only when a test
    /// case needs them).
    ///
    /// # Safety
    ///
    /// The `len` slots at `slots` must be valid for reads and writes, and touched by nothing
    /// else, for `'t`; so must every slot `room` grants from the same start ([`TraceRoom`]).
    pub unsafe fn growing(
        slots: *mut u64,
        len: usize,
        count: &'t mut u64,
        room: &'t mut dyn TraceRoom,
    ) -> Trace<'t> {
        *count = 0;
        Trace {
            slots,
            len,
            count,
            room: Some(RoomRef(room)),
            _slots: PhantomData,
        }
    }

    /// Writes one index.
    #[inline]
    pub fn push(&mut self, index: u64) {
        let n = *self.count as usize;
        if n < self.len {
            // SAFETY: `n` is below the slots' length (the first ones, or what the room
            // vouched for).
            unsafe { *self.slots.add(n) = index };
        } else {
            self.overflow(n, index);
        }
        *self.count += 1;
    }

    #[cold]
    #[inline(never)]
    fn overflow(&mut self, n: usize, index: u64) {
        if let Some(RoomRef(room)) = &mut self.room {
            let wanted = (n + 1).max(self.len.saturating_mul(2));
            let len = room.grow(wanted);
            if len > self.len {
                self.len = len;
            }
            if n < self.len {
                // SAFETY: the room vouches for its slots from the trace's start.
                unsafe { *self.slots.add(n) = index };
            } else {
                // No more room: not asked again for this trace.
                self.room = None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_trace_drops_indices_but_counts_them() {
        let (mut slots, mut count) = ([0u64; 2], 7);
        let mut t = Trace::new(&mut slots, &mut count);
        for i in 1..=3 {
            t.push(i);
        }
        assert_eq!((slots, count), ([1, 2], 3));
    }

    #[test]
    fn a_growing_trace_asks_its_room() {
        struct Room(usize);
        // SAFETY: the slots below are 8 long, and the room never grants more.
        unsafe impl TraceRoom for Room {
            fn grow(&mut self, wanted: usize) -> usize {
                self.0 = wanted.min(8);
                self.0
            }
        }
        let (mut slots, mut count) = ([0u64; 8], 0);
        let mut room = Room(2);
        {
            // The trace is made over the first two slots; the room grants up to eight
            // from the same start.
            // SAFETY: the eight slots, which nothing else touches while the trace lives.
            let mut t = unsafe { Trace::growing(slots.as_mut_ptr(), 2, &mut count, &mut room) };
            for i in 1..=10 {
                t.push(i);
            }
        }
        assert_eq!(count, 10);
        assert_eq!(slots, [1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(room.0, 8);
    }
}
