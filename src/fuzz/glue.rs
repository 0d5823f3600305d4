//! What the fuzz-target macros call.

use super::features::{COUNTERS, Switch, tape_features};
use crate::mutate::{Aligned, Neighbour, Neighbourhood, Operator, TapeMutator, nudge};
use crate::property::Test;
use crate::tape::{BytesSource, RandomSource, Recording, Rng, Status, Tape, encoding};
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
    check_counting(test, data, None)
}

/// [`check`], and for a valid input also calls `features` with each of its tape features
/// ([`tape_features`]; what [`fuzz_target!`](crate::fuzz_target) does when
/// [`Switch::from_env`] is on).
///
/// # Panics
/// As [`check`].
pub fn check_counting(
    test: &dyn Test,
    data: &[u8],
    features: Option<&mut dyn FnMut(usize)>,
) -> bool {
    // Recorded, because libFuzzer's next mutation is usually of this very input (it mutates a
    // mutant again, up to `-mutate_depth` times): the mutator then finds its spans in
    // [`LAST`] instead of running the generator again. The buffers are reused, so recording
    // costs no allocation.
    if features.is_none() && single_run(test).is_some() {
        // A raw-bytes property: the mutator works on the bytes, no recording is needed.
        let mut src = BytesSource::new(data);
        let status = test.run(&mut Tape::new(&mut src, false));
        return settle_status(test, data, status);
    }
    let status = LAST.with(|last| {
        let mut last = last.borrow_mut();
        let mut src = BytesSource::new(data);
        let mut tape = Tape::recording_into(&mut src, std::mem::take(&mut last.recording));
        let status = test.run(&mut tape);
        last.recording = tape.finish();
        if let (Status::Valid, Some(count)) = (status, features) {
            tape_features(&last.recording, count);
        }
        last.data.clear();
        last.data.extend_from_slice(data);
        status
    });
    settle_status(test, data, status)
}

/// What [`check`] answers for `status`: keep, drop, or panic with the failure.
fn settle_status(test: &dyn Test, data: &[u8], status: Status) -> bool {
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

/// The layout of a property whose whole tape is one payload run (`data in bytes(..)`,
/// `s in strings(..)`): the run's length choice takes `header` bytes, then come the bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SingleRun {
    /// Bytes of the length choice (0 when the length is fixed).
    pub header: usize,
    /// Fewest bytes of the run.
    pub min: usize,
    /// Most bytes of the run.
    pub max: usize,
}

/// The [`SingleRun`] layout of `rec`, if every span covers the whole tape and one of them is
/// a payload run.
fn layout_of(rec: &Recording) -> Option<SingleRun> {
    let n = rec.choices.len();
    if n == 0 || rec.spans.iter().any(|s| s.start != 0 || s.end != n) {
        return None;
    }
    let run = crate::mutate::runs(rec).into_iter().next()?;
    if run.at != 0 || run.bytes.len() + 1 != n {
        return None;
    }
    let len = rec.choices[0];
    let header = if len.forced {
        0
    } else {
        encoding::width(len.max)
    };
    Some(SingleRun {
        header,
        min: run.min,
        max: run.max,
    })
}

/// Whether `test`'s tapes are one payload run and nothing else, found once per process by
/// recording two probes (an empty input and a long one): then [`check`] runs without
/// recording and [`mutate`] edits the input's bytes directly, as libFuzzer does a raw
/// target's — the tape costs nothing but its length header.
pub fn single_run(test: &dyn Test) -> Option<SingleRun> {
    LAYOUT.with(|l| {
        if let Some(known) = l.get() {
            return known;
        }
        let probes: [&[u8]; 2] = [&[], &[0xff; 300]];
        let mut found = probes.iter().map(|p| layout_of(&record(test, p)));
        let first = found.next().flatten();
        let known = match first {
            Some(a) if found.all(|b| b == Some(a)) => Some(a),
            _ => None,
        };
        l.set(Some(known));
        known
    })
}

/// The recording of `data`'s tape: its choices and spans (the generator only).
pub fn record(test: &dyn Test, data: &[u8]) -> Recording {
    let mut src = BytesSource::new(data);
    let mut tape = Tape::recording(&mut src);
    test.generate_only(&mut tape);
    tape.finish()
}

/// The input [`check`] ran last, with its recording.
#[derive(Default)]
struct Last {
    data: Vec<u8>,
    recording: Recording,
}

/// Recordings of corpus entries: inputs the mutator or crossover was handed that were not the
/// last one checked. libFuzzer picks its mutation bases and crossover partners from the corpus
/// again and again, and recording is most of a mutation's cost. Filled only on such misses,
/// so the executions themselves do not churn it.
struct Recordings {
    map: HashMap<u64, (Vec<u8>, Rc<Recording>)>,
    order: VecDeque<u64>,
}

/// How many recordings [`Recordings`] keeps.
const KEEP: usize = 4096;

thread_local! {
    static LAYOUT: std::cell::Cell<Option<Option<SingleRun>>> = const { std::cell::Cell::new(None) };
    static LAST: RefCell<Last> = RefCell::new(Last::default());
    static RECORDINGS: RefCell<Recordings> = RefCell::new(Recordings {
        map: HashMap::new(),
        order: VecDeque::new(),
    });
}

/// A 64-bit hash of `data` (the cache key; the bytes themselves are compared on a hit).
fn key(data: &[u8]) -> u64 {
    let mut h = 0x243f_6a88_85a3_08d3_u64 ^ data.len() as u64;
    let mut chunks = data.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
        h = (h.rotate_left(5) ^ w).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    for &b in chunks.remainder() {
        h = (h.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    h
}

/// Calls `f` with the recording of `data`: the last checked input's, a cached one, or a new
/// one (then cached).
fn with_recording<R>(test: &dyn Test, data: &[u8], f: impl FnOnce(&Recording) -> R) -> R {
    let mut f = Some(f);
    let hit = LAST.with(|last| {
        let last = last.borrow();
        (last.data == data).then(|| f.take().expect("unused")(&last.recording))
    });
    match hit {
        Some(r) => r,
        None => f.take().expect("unused")(&cached(test, data)),
    }
}

/// The recording of `data` from the cache, recorded and cached on a miss (the oldest entry
/// makes room).
fn cached(test: &dyn Test, data: &[u8]) -> Rc<Recording> {
    let k = key(data);
    let hit = RECORDINGS.with(|r| {
        r.borrow()
            .map
            .get(&k)
            .filter(|(d, _)| d[..] == *data)
            .map(|(_, rec)| Rc::clone(rec))
    });
    if let Some(rec) = hit {
        return rec;
    }
    let rec = Rc::new(record(test, data));
    RECORDINGS.with(|r| {
        let mut r = r.borrow_mut();
        if r.order.len() >= KEEP
            && let Some(old) = r.order.pop_front()
        {
            r.map.remove(&old);
        }
        if r.map.insert(k, (data.to_vec(), Rc::clone(&rec))).is_none() {
            r.order.push_back(k);
        }
    });
    rec
}

/// libFuzzer's custom mutator: mutates `data[..size]` in place into at most `max_size` bytes
/// and returns the new size. A [`SingleRun`] input is always mutated by `bytes` on its
/// payload, its length header then set to match. Otherwise [`FRESH_SHARE`] in [`FRESH_OF`]
/// calls write a fresh input of the random strategy instead ([`FRESH_SHARE`]), and of the
/// rest [`TAPE_SHARE`] in [`SHARE_OF`]
/// calls apply a tape operator
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
    if let Some(l) = single_run(test) {
        // Every mutation is libFuzzer's, on the payload: one of the whole input would edit
        // the length header, and the bytes past the length it then gives are dead.
        return mutate_payload(l, data, size, max_size, bytes);
    }
    let mut rng = Rng::new(Rng::derive(u64::from(seed), 0x6d75_7461_7465));
    if rng.below_or_eq(FRESH_OF - 1) < FRESH_SHARE {
        let out = fresh(test, rng.next_u64());
        if out.len() <= max_size && out[..] != data[..size] {
            data[..out.len()].copy_from_slice(&out);
            return out.len();
        }
    }
    if rng.below_or_eq(SHARE_OF - 1) >= TAPE_SHARE {
        return bytes(data, size, max_size);
    }
    let realign = rng.below_or_eq(REALIGN_OF - 1) < REALIGN_SHARE;
    let run_edit = rng.below_or_eq(RUN_OF - 1) < RUN_SHARE;
    let edited = with_recording(test, &data[..size], |base| {
        if run_edit || mostly_runs(base) {
            // libFuzzer's own mutations (its comparison table and dictionary included) on
            // the bytes of one payload run, the length set to match.
            let mut via_libfuzzer = |b: &mut Vec<u8>, most: usize| {
                let len = b.len();
                // The rest of the tape keeps its bytes: the run may take what is left.
                let rest = size.saturating_sub(len);
                let room = most.min(max_size.saturating_sub(rest)).max(len);
                if room == 0 {
                    return;
                }
                b.resize(room, 0);
                let n = bytes(&mut b[..], len, room);
                b.truncate(n);
            };
            if let Some(c) = crate::mutate::edit_run(base, &mut rng, &mut via_libfuzzer) {
                return Some(encoding::encode(&c));
            }
        }
        if realign {
            return realigned_move(test, base, &mut rng);
        }
        TapeMutator::default()
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

/// Calls out of [`FRESH_OF`] that replace the input by a fresh one from the random
/// strategy's distribution (boundary values, small sizes, whole-range lengths: what `cargo
/// test` and `cargo tapefuzz run` try first), so that a bug random testing finds in a few
/// test cases is found under libFuzzer too, whose byte mutations rarely write, say, the four
/// `0xff` bytes of `i32::MIN`'s choice. libFuzzer keeps a fresh input that reaches new
/// coverage, as any other.
pub const FRESH_SHARE: u64 = 1;
/// See [`FRESH_SHARE`].
pub const FRESH_OF: u64 = 16;

/// The encoded tape of one test case of the random strategy (payload lengths exploring
/// their whole range, as under the coverage-guided engines) for `seed`.
fn fresh(test: &dyn Test, seed: u64) -> Vec<u8> {
    let mut src = RandomSource::new(seed).exploring();
    let mut tape = Tape::recording(&mut src);
    let _ = test.generate_only(&mut tape);
    encoding::encode(&tape.finish().choices)
}

/// A [`SingleRun`] input mutated as bytes: libFuzzer's mutator on the payload after the
/// header, then the header set to the new length.
fn mutate_payload(
    l: SingleRun,
    data: &mut [u8],
    size: usize,
    max_size: usize,
    bytes: &mut dyn FnMut(&mut [u8], usize, usize) -> usize,
) -> usize {
    let h = l.header;
    if data.len() < h || max_size <= h {
        return bytes(data, size, max_size);
    }
    if size < h {
        data[size..h].fill(0);
    }
    let len = size.max(h) - h;
    let room = (max_size - h).min(l.max).max(len);
    let n = bytes(&mut data[h..], len, room);
    set_header(l, &mut data[..h], n);
    h + n
}

/// Writes the length header of a [`SingleRun`] payload of `n` bytes (clamped to its bounds).
fn set_header(l: SingleRun, header: &mut [u8], n: usize) {
    let index = n.clamp(l.min, l.max) - l.min;
    let mut out = Vec::with_capacity(header.len());
    encoding::write_index(&mut out, (l.max - l.min) as u64, index as u64);
    header.copy_from_slice(&out[..header.len()]);
}

/// Of the tape mutations of a tape with payload runs (byte vectors), [`RUN_SHARE`] in
/// [`RUN_OF`] apply libFuzzer's byte mutator to the bytes of one run
/// ([`crate::mutate::edit_run`]) — all of them when runs hold most of the tape
/// ([`mostly_runs`]: a raw-bytes property, where the structure operators would only drop or
/// copy the whole payload); the others, and every tape mutation of a tape without runs, use
/// the structure operators below.
pub const RUN_SHARE: u64 = 3;
/// See [`RUN_SHARE`].
pub const RUN_OF: u64 = 4;

/// Of the tape mutations, [`REALIGN_SHARE`] in [`REALIGN_OF`] move one choice and realign
/// the rest by span path ([`realigned_move`]); the others use the [`TapeMutator`]'s operators.
pub const REALIGN_SHARE: u64 = 1;
/// See [`REALIGN_SHARE`].
pub const REALIGN_OF: u64 = 2;

/// Moves one free choice of `base` ([`nudge`]) and re-runs the generator with the rest of
/// the tape aligned by span path ([`Neighbour::with_edits`]): flipping a "child?" coin adds
/// a fresh subtree and leaves the rest of the tree as it was, where a positional replay
/// would shift every later choice.
fn realigned_move(test: &dyn Test, base: &Recording, rng: &mut Rng) -> Option<Vec<u8>> {
    let free: Vec<usize> = (0..base.choices.len())
        .filter(|&i| !base.choices[i].forced)
        .collect();
    if free.is_empty() {
        return None;
    }
    let i = free[rng.below_or_eq(free.len() as u64 - 1) as usize];
    let c = base.choices[i];
    let mut index = nudge(c.index, c.max, rng);
    if index == c.index {
        index = if c.index == 0 { c.max.min(1) } else { 0 };
    }
    let aligned = Aligned::new(base);
    let mut src = Neighbour::new(&aligned, Neighbourhood::default(), 0.0, rng.next_u64())
        .with_edits([(i, index)]);
    let mut tape = Tape::recording(&mut src);
    test.generate_only(&mut tape);
    Some(encoding::encode(&tape.finish().choices))
}

/// Whether payload runs hold at least three quarters of `rec`'s choices.
pub fn mostly_runs(rec: &Recording) -> bool {
    let n = rec.choices.len();
    n > 0 && 4 * rec.choices.iter().filter(|c| c.in_run).count() >= 3 * n
}

/// libFuzzer's custom crossover, written to `out`; returns its length (0 when nothing
/// fits, and always for a [`SingleRun`] property, whose crossovers are libFuzzer's own).
/// When both tapes have payload runs, half the time (always when runs hold most of `a`) a
/// run of `a` gets bytes of a run of `b` as libFuzzer crosses byte strings over: its head,
/// then `b`'s tail, or a piece of `b` put in. Otherwise a span of `a` replaced by a span of
/// `b` with the same label (any span when no label matches).
pub fn crossover(test: &dyn Test, a: &[u8], b: &[u8], out: &mut [u8], seed: u32) -> usize {
    if single_run(test).is_some() {
        // Declined: libFuzzer then picks its custom mutator, whose byte mutations include
        // libFuzzer's own crossover. A raw target's mix of mutations is kept that way; a
        // custom crossover that accepted would be half of all of them.
        return 0;
    }
    let mut rng = Rng::new(Rng::derive(u64::from(seed), 0x0063_726f_7373));
    let edited = with_recording(test, a, |base| {
        with_recording(test, b, |donor| {
            let (mine, theirs) = (crate::mutate::runs(base), crate::mutate::runs(donor));
            if !mine.is_empty()
                && !theirs.is_empty()
                && (mostly_runs(base) || rng.next_u64() & 1 == 0)
            {
                let run = &mine[rng.below_or_eq(mine.len() as u64 - 1) as usize];
                let other = &theirs[rng.below_or_eq(theirs.len() as u64 - 1) as usize].bytes;
                let at = |rng: &mut Rng, n: usize| rng.below_or_eq(n as u64) as usize;
                let i = at(&mut rng, run.bytes.len());
                let j = at(&mut rng, other.len());
                let mut bytes = run.bytes[..i].to_vec();
                if rng.next_u64() & 1 == 0 {
                    bytes.extend_from_slice(&other[j..]);
                } else {
                    let k = at(&mut rng, other.len() - j);
                    bytes.extend_from_slice(&other[j..j + k]);
                    bytes.extend_from_slice(&run.bytes[i..]);
                }
                return Some(encoding::encode(&crate::mutate::with_run_bytes(
                    base, run, &bytes,
                )));
            }
            Operator::SpliceSpan
                .apply(base, Some(donor), &mut rng)
                .map(|c| encoding::encode(&c))
        })
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

/// The PC table [`fuzz_target!`](crate::fuzz_target) registers beside its [`COUNTERS`]
/// feature counters: libFuzzer stops when its counters and PC tables differ in size. Pairs
/// of (PC, flags), one per counter; the PCs are addresses inside [`tape_features`], so
/// `-print_pcs` names that function. Built once and leaked (it must live as long as the
/// process).
pub fn feature_pc_table() -> &'static [usize] {
    let base = tape_features as *const () as usize;
    let table: Vec<usize> = (0..COUNTERS).flat_map(|i| [base + i, 0]).collect();
    Box::leak(table.into_boxed_slice())
}

/// [`Switch::from_env`] for a fuzz target's start-up: an invalid `TAPEFUZZ_FEATURES` stops
/// the run with a clear error (exit status 2), as an unknown `TAPEFUZZ_BUG` does.
pub fn feature_switch() -> Switch {
    Switch::from_env().unwrap_or_else(|e| {
        eprintln!("tapefuzz: {e}");
        std::process::exit(2);
    })
}
