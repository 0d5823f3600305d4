//! The coverage-guided queue as a search.

use super::{Kept, Options, Queue, mutant};
use crate::coverage::cmplog::{self, Comparison};
use crate::coverage::{Feature, FeatureMap};
use crate::engine::{
    Finish, Observation, Proposal, Replay, Search, Start, Stat, Strategy, Verdict,
};
use crate::env::{ConfigError, Env};
use crate::mutate::{edit_run, mutate_bytes, runs};
use crate::tape::{Choice, Fallback, RandomSource, Recording, ReplaySource, Rng, Status, encoding};
use std::sync::Arc;

/// The search of [`Options`]: `warmup` random tapes, then mostly mutants of kept tapes.
///
/// Random tapes run on the fast, unrecorded path; one that reaches new coverage is re-run
/// with recording ([`Verdict::Record`]) and kept with the features of its first run (a re-run
/// may cover less: code that runs once per process does not run again). A mutant is replayed
/// with random choices past its end, recorded, so a kept mutant has a fresh record for later
/// mutations. Kept tapes are credited with their new features only when kept, or a feature
/// reached by a tape that is dropped would be lost for good.
pub struct GreyboxSearch {
    options: Options,
    seed: u64,
    rng: Rng,
    map: FeatureMap,
    /// Features of the last test case that `map` does not have.
    novel: Vec<u64>,
    queue: Queue,
    /// Test cases proposed.
    proposed: u64,
    /// The seed of the last proposal when it was a random tape.
    last_seed: Option<u64>,
    random: RandomSource,
    /// Whether the last test case came from the generate phase (not replayed).
    generated: bool,
    /// The status the pending [`Verdict::Record`] was for.
    pending: Status,
    /// Operands the code under test compared ([`crate::coverage::cmplog`]), most recent
    /// last: what input-to-state mutations write into choices and payload runs.
    dictionary: Dictionary,
    /// Kept tapes not yet run with the comparison log on.
    to_trace: Vec<usize>,
    /// The kept tape the last test case re-ran with the comparison log on.
    tracing: Option<usize>,
    /// Length control: the most bytes a mutant's payload run gets past its minimum (set at
    /// the first mutant), and the test case since which nothing was kept.
    run_cap: Option<u64>,
    stalled_since: u64,
}

/// libFuzzer's `-len_control` default: the run cap grows by `log2(cap)` once this many
/// times `log2(cap)` test cases keep nothing, so inputs start short (fast, and simple) and
/// grow only when short ones stop finding anything.
const LEN_CONTROL: u64 = 100;

/// Comparison operands gathered over the run (bounded; a new one pushes out the oldest).
#[derive(Default)]
struct Dictionary {
    ints: Vec<(u64, u64)>,
    words: Vec<Vec<u8>>,
    seen_ints: std::collections::HashSet<(u64, u64)>,
    seen_words: std::collections::HashSet<Vec<u8>>,
    scratch: Vec<Comparison>,
}

/// How many integer pairs and byte strings the dictionary keeps.
const DICTIONARY: usize = 512;

impl Dictionary {
    /// Adds what the comparison log holds after a test case; the integer pairs also go to
    /// `own` (once each), the comparisons of that test case alone.
    fn gather(&mut self, own: &mut Vec<(u64, u64)>) {
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        cmplog::take(&mut scratch);
        for c in scratch.drain(..) {
            match c {
                Comparison::Int { width, a, b } => {
                    if !own.contains(&(a, b)) {
                        own.push((a, b));
                    }
                    if self.seen_ints.insert((a, b)) {
                        if self.ints.len() >= DICTIONARY {
                            let old = self.ints.remove(0);
                            self.seen_ints.remove(&old);
                        }
                        self.ints.push((a, b));
                        // A wide constant compared with bytes read off the input (a magic
                        // number loaded as one integer) is a word for the byte runs too.
                        if width >= 2 {
                            let w = usize::from(width.min(8));
                            for x in [a, b] {
                                self.add_word(x.to_le_bytes()[..w].to_vec());
                            }
                        }
                    }
                }
                Comparison::Bytes { a, b } => {
                    self.add_word(a);
                    self.add_word(b);
                }
            }
        }
        self.scratch = scratch;
    }

    fn add_word(&mut self, w: Vec<u8>) {
        if !self.seen_words.contains(&w) {
            if self.words.len() >= DICTIONARY {
                let old = self.words.remove(0);
                self.seen_words.remove(&old);
            }
            self.seen_words.insert(w.clone());
            self.words.push(w);
        }
    }
}

/// A pair of `pairs` at random (not empty), in a random direction (`(from, to)`).
fn pair(pairs: &[(u64, u64)], rng: &mut Rng) -> (u64, u64) {
    let (a, b) = pairs[rng.below_or_eq(pairs.len() as u64 - 1) as usize];
    if rng.next_u64() & 1 == 0 {
        (a, b)
    } else {
        (b, a)
    }
}

/// Input-to-state on `choices`: for a compared pair `(a, b)` of `pairs`, a free choice whose
/// index is one operand gets the other (or, for integers of the byte widths, the operand's
/// bytes written over a payload run's bytes where the other operand's bytes are). Whether
/// anything changed.
fn input_to_state(pairs: &[(u64, u64)], choices: &mut [Choice], rng: &mut Rng) -> bool {
    if pairs.is_empty() {
        return false;
    }
    // A compared integer that some choice holds: set it to the other operand.
    for _ in 0..4 {
        let (from, to) = pair(pairs, rng);
        let hits: Vec<usize> = (0..choices.len())
            .filter(|&i| {
                let c = &choices[i];
                !c.forced && c.index == from && to <= c.max
            })
            .collect();
        if hits.is_empty() {
            continue;
        }
        let i = hits[rng.below_or_eq(hits.len() as u64 - 1) as usize];
        choices[i].index = to;
        return true;
    }
    // Input-to-state on the bytes of payload runs: where a compared integer's bytes
    // (little-endian, as loaded from the input) stand, the other operand's go.
    for _ in 0..4 {
        let (from, to) = pair(pairs, rng);
        for width in [8usize, 4, 2] {
            if width < 8 && (from >> (8 * width) != 0 || to >> (8 * width) != 0) {
                continue;
            }
            let (f, t) = (&from.to_le_bytes()[..width], &to.to_le_bytes()[..width]);
            let at = choices.windows(width).position(|w| {
                w.iter()
                    .zip(f)
                    .all(|(c, &x)| c.in_run && c.index == u64::from(x))
            });
            if let Some(at) = at {
                for (c, &x) in choices[at..at + width].iter_mut().zip(t) {
                    c.index = u64::from(x);
                }
                return true;
            }
        }
    }
    false
}

impl GreyboxSearch {
    /// A search with `options`.
    pub fn new(options: Options) -> GreyboxSearch {
        GreyboxSearch {
            options,
            seed: 0,
            rng: Rng::new(0),
            map: FeatureMap::new(0),
            novel: Vec::new(),
            queue: Queue::default(),
            proposed: 0,
            last_seed: None,
            random: RandomSource::new(0),
            generated: true,
            pending: Status::Valid,
            dictionary: Dictionary::default(),
            to_trace: Vec::new(),
            tracing: None,
            run_cap: None,
            stalled_since: 0,
        }
    }

    /// The run cap for the next mutant: at first the longest run kept (at least 4 bytes),
    /// then grown as [`LEN_CONTROL`] says.
    fn run_cap(&mut self) -> u64 {
        let cap = *self.run_cap.get_or_insert_with(|| {
            let longest = self.queue.entries().iter().flat_map(|k| runs(&k.recording));
            longest
                .map(|r| r.bytes.len() as u64)
                .max()
                .unwrap_or(0)
                .max(4)
        });
        let log = u64::from(cap.ilog2());
        if self.proposed.saturating_sub(self.stalled_since) > LEN_CONTROL * log {
            self.run_cap = Some(cap.saturating_add(log));
            self.stalled_since = self.proposed;
        }
        cap
    }

    /// Collects the features of `outcome` that the map does not have into `self.novel`.
    fn collect_novel(&mut self, outcome: &Observation<'_>) {
        self.novel.clear();
        for &f in outcome.features {
            if self.map.is_new(Feature::from_code(f)) {
                self.novel.push(f);
            }
        }
        // A feature can repeat within one trace only if the observer repeats it; keep one.
        self.novel.sort_unstable();
        self.novel.dedup();
    }

    /// Whether the last test case is worth keeping: it reached a new feature and produced a
    /// tape worth mutating (an overrun is cut short, so its coverage is not its own).
    fn worth_keeping(&self, status: Status) -> bool {
        !self.novel.is_empty() && matches!(status, Status::Valid | Status::Invalid)
    }

    /// Keeps `recording`, crediting it with the features in `self.novel`.
    fn keep(&mut self, recording: Recording, status: Status) {
        self.stalled_since = self.proposed;
        for &f in &self.novel {
            self.map.add(Feature::from_code(f));
        }
        if cmplog::available() {
            self.to_trace.push(self.queue.len());
        }
        self.queue.push(Kept {
            recording,
            new_features: self.novel.len() as u32,
            valid: status == Status::Valid,
            generated: self.generated,
            compared: Vec::new(),
        });
    }
}

impl Search for GreyboxSearch {
    fn name(&self) -> &'static str {
        "greybox"
    }

    fn start(&mut self, start: &Start) {
        self.seed = start.seed;
        self.rng = Rng::new(Rng::derive(start.seed, u64::MAX));
    }

    fn reused(&mut self, outcome: &Observation<'_>) {
        self.collect_novel(outcome);
        if self.worth_keeping(outcome.status)
            && let Some(rec) = outcome.recording
        {
            self.generated = false;
            self.keep(rec.clone(), outcome.status);
        }
    }

    fn propose(&mut self) -> Option<Proposal<'_>> {
        self.proposed += 1;
        self.generated = true;
        let i = self.proposed;
        // A kept tape runs once more with the comparison log on: its operands are what
        // input-to-state mutations of it (and of the others) write in.
        if let Some(k) = self.to_trace.pop() {
            self.tracing = Some(k);
            self.last_seed = None;
            cmplog::enable(true);
            let indices = self.queue.get(k).indices();
            return Some(
                Proposal::boxed(Box::new(ReplaySource::new(indices, Fallback::Simplest)))
                    .recorded(),
            );
        }
        let random = self.queue.is_empty()
            || i <= self.options.warmup
            || self.rng.below_or_eq(self.options.random_one_in.max(1) - 1) == 0;
        if random {
            let seed = Rng::derive(self.seed, i);
            self.last_seed = Some(seed);
            self.random = RandomSource::new(seed);
            return Some(Proposal::new(&mut self.random).seeded(seed));
        }
        self.last_seed = None;
        let cap = self.run_cap();
        let parent = self.queue.pick(&mut self.rng);
        let donor = self.queue.pick(&mut self.rng);
        let donor = (donor != parent).then(|| self.queue.get(donor));
        let base = self.queue.get(parent);
        let words = &self.dictionary.words;
        let rng = &mut self.rng;
        // Half the mutants of a tape with payload runs edit one run as bytes (libFuzzer's
        // kinds of edits, the comparison log's byte strings among them), growing it up to the
        // length control's cap at most (as libFuzzer's `MaxSize`): bytes inserted past it
        // would push the run's own tail out.
        let mut bytes_rng = Rng::new(rng.next_u64());
        let grow_to = usize::try_from(cap).unwrap_or(usize::MAX);
        let mut choices = match (rng.next_u64() & 1 == 0)
            .then(|| {
                edit_run(base, rng, &mut |b, most| {
                    let most = most.min(grow_to.max(b.len()));
                    mutate_bytes(b, most, words, &mut bytes_rng)
                })
            })
            .flatten()
        {
            Some(c) => c,
            None => mutant(&self.options.mutator, base, donor, rng),
        };
        if rng.below_or_eq(3) == 0 {
            // Mostly the comparisons the parent itself made: their operands stand in its
            // bytes; now and then those of the whole run (a constant another input reached).
            let own = &self.queue.entries()[parent].compared;
            let pairs = if !own.is_empty() && rng.below_or_eq(3) != 0 {
                own
            } else {
                &self.dictionary.ints
            };
            input_to_state(pairs, &mut choices, rng);
        }
        let indices = choices
            .iter()
            .filter(|c| !c.forced)
            .map(|c| c.index)
            .collect();
        let fallback = Fallback::Random(Rng::new(self.rng.next_u64()));
        let source = ReplaySource::new(indices, fallback).with_run_cap(cap);
        Some(Proposal::boxed(Box::new(source)).recorded())
    }

    fn observe(&mut self, outcome: &Observation<'_>) -> Verdict {
        if let Some(k) = self.tracing.take() {
            cmplog::enable(false);
            let mut own = Vec::new();
            self.dictionary.gather(&mut own);
            self.queue.entry_mut(k).compared = own;
        }
        self.collect_novel(outcome);
        if outcome.status == Status::Interesting || !self.worth_keeping(outcome.status) {
            return Verdict::Continue;
        }
        match outcome.recording {
            Some(rec) => {
                self.keep(rec.clone(), outcome.status);
                Verdict::Continue
            }
            None => {
                self.pending = outcome.status;
                Verdict::Record
            }
        }
    }

    fn recorded(&mut self, recording: Recording) {
        self.keep(recording, self.pending);
    }

    fn replay(&self) -> Option<Replay> {
        self.last_seed.map(Replay::Seed)
    }

    fn progress(&self) -> String {
        format!(
            "{} features on {} edges, {} kept",
            self.map.features(),
            self.map.edges(),
            self.queue.len()
        )
    }

    /// Keeps up to `options.corpus_cap` valid tapes of the generate phase: those credited
    /// with the most new features, ties to the later (deeper) one.
    fn finish(&mut self) -> Finish {
        let mut chosen: Vec<(usize, &Kept)> = self
            .queue
            .entries()
            .iter()
            .enumerate()
            .filter(|(_, k)| k.valid && k.generated)
            .collect();
        chosen.sort_by_key(|&(i, k)| std::cmp::Reverse((k.new_features, i)));
        chosen.truncate(self.options.corpus_cap as usize);
        Finish {
            note: None,
            keep: chosen
                .into_iter()
                .map(|(_, k)| Replay::Bytes(encoding::encode(&k.recording.choices)))
                .collect(),
            keep_bests: false,
            stats: vec![
                Stat {
                    name: "features",
                    value: self.map.features(),
                },
                Stat {
                    name: "edges",
                    value: self.map.edges(),
                },
                Stat {
                    name: "kept",
                    value: self.queue.len() as u64,
                },
            ],
        }
    }
}

impl Strategy for Options {
    fn name(&self) -> &'static str {
        "greybox"
    }
    fn search(&self) -> Box<dyn Search> {
        Box::new(GreyboxSearch::new(self.clone()))
    }
}

/// The registry's entry.
pub(crate) fn from_env(_env: &Env) -> Result<Arc<dyn Strategy>, ConfigError> {
    Ok(Arc::new(Options::default()))
}
