//! What the fuzz-target macros call.

use crate::mutate::{Mutator, Operator};
use crate::property::Test;
use crate::tape::{BytesSource, Recording, Rng, Status, Tape, encoding};
use std::cell::RefCell;

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
    let mut src = BytesSource::new(data);
    let mut tape = Tape::new(&mut src, false);
    match test.run(&mut tape) {
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

thread_local! {
    /// The last input recorded, and its recording: libFuzzer mutates the same input several
    /// times in a row.
    static LAST: RefCell<Option<(Vec<u8>, Recording)>> = const { RefCell::new(None) };
}

fn with_recording<R>(test: &dyn Test, data: &[u8], f: impl FnOnce(&Recording) -> R) -> R {
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        if last.as_ref().is_none_or(|(d, _)| d != data) {
            *last = Some((data.to_vec(), record(test, data)));
        }
        f(&last.as_ref().expect("just set").1)
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
    let edited = with_recording(test, &data[..size], |base| {
        Mutator::default()
            .mutate(base, None, &mut rng)
            .map(|(_, c)| encoding::encode(&c))
    });
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
    let donor = record(test, b);
    let edited = with_recording(test, a, |base| {
        Operator::SpliceSpan
            .apply(base, Some(&donor), &mut rng)
            .map(|c| encoding::encode(&c))
    });
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
