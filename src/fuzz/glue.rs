//! What the fuzz-target macros call.

use crate::mutate::{Mutator, Operator};
use crate::property::Test;
use crate::tape::{BytesSource, Recording, Rng, Status, Tape, encoding};
use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;

/// Calls out of [`SHARE_OF`] that mutate on the tape; the rest use libFuzzer's byte mutator.
pub const TAPE_SHARE: u64 = 2;
/// See [`TAPE_SHARE`].
pub const SHARE_OF: u64 = 3;

/// Runs `test` on `data` (decoded as a tape). Returns whether libFuzzer should keep the input
/// (`false` for inputs the generator or property rejected, so they never enter the corpus).
///
/// # Panics
/// When the property fails, with the value and the message, so that libFuzzer saves the input
/// as a crash (`import` then shrinks it on the tape).
pub fn check(test: &dyn Test, data: &[u8]) -> bool {
    // Recorded, because libFuzzer's next mutation is usually of this very input: the
    // mutator then finds its spans in the cache instead of running the generator again.
    let mut src = BytesSource::new(data);
    let mut tape = Tape::recording(&mut src);
    let status = test.run(&mut tape);
    remember(data, tape.finish());
    match status {
        Status::Valid => true,
        Status::Invalid | Status::Overrun => false,
        Status::Interesting => {
            let mut src = BytesSource::new(data);
            let e = test.explain(&mut Tape::new(&mut src, false));
            panic!(
                "tapefuzz: the property failed\n  value: {}\n  message: {}",
                e.value.as_deref().unwrap_or("(none)"),
                e.message.as_deref().unwrap_or("(none)")
            );
        }
    }
}

/// The recording of `data`'s tape: its choices and spans (the generator only).
pub fn record(test: &dyn Test, data: &[u8]) -> Recording {
    let mut src = BytesSource::new(data);
    let mut tape = Tape::recording(&mut src);
    test.generate_only(&mut tape);
    tape.finish()
}

/// Recordings of recent inputs: libFuzzer mutates the same input several times in a row and
/// crosses over with the same corpus entries again and again, and recording is most of a
/// mutation's cost.
struct Recordings {
    map: HashMap<Vec<u8>, Rc<Recording>>,
    order: VecDeque<Vec<u8>>,
}

/// How many recordings [`Recordings`] keeps.
const KEEP: usize = 1024;

thread_local! {
    static RECORDINGS: RefCell<Recordings> = RefCell::new(Recordings {
        map: HashMap::new(),
        order: VecDeque::new(),
    });
}

/// The recording of `data`, from the cache when it is there.
fn recording(test: &dyn Test, data: &[u8]) -> Rc<Recording> {
    let cached = RECORDINGS.with(|r| r.borrow().map.get(data).cloned());
    cached.unwrap_or_else(|| remember(data, record(test, data)))
}

/// Caches the recording of `data` (the oldest entry makes room).
fn remember(data: &[u8], rec: Recording) -> Rc<Recording> {
    RECORDINGS.with(|r| {
        let mut r = r.borrow_mut();
        if let Some(rec) = r.map.get(data) {
            return Rc::clone(rec);
        }
        let rec = Rc::new(rec);
        if r.order.len() >= KEEP
            && let Some(old) = r.order.pop_front()
        {
            r.map.remove(&old);
        }
        r.order.push_back(data.to_vec());
        r.map.insert(data.to_vec(), Rc::clone(&rec));
        rec
    })
}

/// libFuzzer's custom mutator: mutates `data[..size]` in place into at most `max_size` bytes
/// and returns the new size. [`TAPE_SHARE`] in [`SHARE_OF`] calls apply a tape operator
/// (the result is the edited choices' encoding); the rest, and any tape edit that would not
/// fit or changes nothing, call `bytes` (libFuzzer's `fuzzer_mutate`).
pub fn mutate(
    test: &dyn Test,
    data: &mut [u8],
    size: usize,
    max_size: usize,
    seed: u32,
    bytes: &mut dyn FnMut(&mut [u8], usize, usize) -> usize,
) -> usize {
    let mut rng = Rng::new(Rng::derive(u64::from(seed), 0x6d75_7461_7465));
    if rng.below_or_eq(SHARE_OF - 1) >= TAPE_SHARE {
        return bytes(data, size, max_size);
    }
    let base = recording(test, &data[..size]);
    let edited = Mutator::default()
        .mutate(&base, None, &mut rng)
        .map(|(_, c)| encoding::encode(&c));
    match edited {
        Some(out) if out.len() <= max_size && out[..] != data[..size] => {
            data[..out.len()].copy_from_slice(&out);
            out.len()
        }
        _ => bytes(data, size, max_size),
    }
}

/// libFuzzer's custom crossover: a span of `a` replaced by a span of `b` with the same label
/// (any span when no label matches), written to `out`; returns its length (0 when nothing
/// fits).
pub fn crossover(test: &dyn Test, a: &[u8], b: &[u8], out: &mut [u8], seed: u32) -> usize {
    let mut rng = Rng::new(Rng::derive(u64::from(seed), 0x0063_726f_7373));
    let (base, donor) = (recording(test, a), recording(test, b));
    let edited = Operator::SpliceSpan
        .apply(&base, Some(&donor), &mut rng)
        .map(|c| encoding::encode(&c));
    match edited {
        Some(bytes) if bytes.len() <= out.len() => {
            out[..bytes.len()].copy_from_slice(&bytes);
            bytes.len()
        }
        _ => {
            let n = a.len().min(out.len());
            out[..n].copy_from_slice(&a[..n]);
            n
        }
    }
}
