//! The coverage-guided loop: run tapes, keep those that reach new features, mutate the kept
//! ones, stop at the first failure and shrink it.

use super::mutant::mutant;
use super::{Coverage, Feature, FeatureMap, GreyboxReport, Kept, Options, Queue};
use crate::corpus::{Corpus, EntryMeta, Folder};
use crate::engine::{Config, Failure, Found};
use crate::property::Test;
use crate::shrink::Shrinker;
use crate::tape::{
    BytesSource, Fallback, RandomSource, Recording, ReplaySource, Rng, Source, Status, Tape,
    encoding,
};
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// A seed from the clock and the process id, for runs without one.
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    Rng::derive(nanos, std::process::id() as u64)
}

/// Runs `test` on `tape`, failing it when it runs longer than `timeout` (measured after it
/// returns, as the blackbox engine does).
fn run_timed(test: &dyn Test, timeout: Option<Duration>, tape: &mut Tape<'_>) -> Status {
    match timeout {
        None => test.run(tape),
        Some(limit) => {
            let start = Instant::now();
            let status = test.run(tape);
            if start.elapsed() > limit {
                Status::Interesting
            } else {
                status
            }
        }
    }
}

/// One test case's outcome: its status, its record (empty unless recorded), its fingerprint.
struct Outcome {
    status: Status,
    recording: Recording,
    fingerprint: u64,
}

/// The loop's state.
struct Loop<'a> {
    test: &'a dyn Test,
    coverage: &'a mut dyn Coverage,
    config: &'a Config,
    map: FeatureMap,
    /// Features the last test case reached that `map` does not have.
    novel: Vec<Feature>,
    queue: Queue,
}

impl Loop<'_> {
    /// Runs one test case from `source` with fresh counters, and collects its new features
    /// into `self.novel` (without adding them: only a kept tape's features count as seen,
    /// or a feature reached by a tape that is dropped would be lost for good).
    fn execute(&mut self, source: &mut dyn Source, record: bool) -> Outcome {
        self.coverage.reset();
        let mut tape = Tape::new(source, record).with_max_choices(self.config.max_choices);
        let status = run_timed(self.test, self.config.timeout, &mut tape);
        let fingerprint = tape.fingerprint();
        let recording = tape.finish();
        self.novel.clear();
        let (map, novel) = (&self.map, &mut self.novel);
        self.coverage.for_each_hit(&mut |edge, count| {
            let f = FeatureMap::feature(edge, count);
            if map.is_new(f) {
                novel.push(f);
            }
        });
        Outcome {
            status,
            recording,
            fingerprint,
        }
    }

    /// Whether the last test case should be kept: it reached a new feature and produced a
    /// tape worth mutating (an overrun is cut short, so its coverage is not its own).
    fn worth_keeping(&self, status: Status) -> bool {
        !self.novel.is_empty() && matches!(status, Status::Valid | Status::Invalid)
    }

    /// Keeps `recording`, crediting it with the features in `self.novel`.
    fn keep(&mut self, recording: Recording, status: Status, generated: bool) {
        for &f in &self.novel {
            self.map.add(f);
        }
        self.queue.push(Kept {
            recording,
            new_features: self.novel.len() as u32,
            valid: status == Status::Valid,
            generated,
        });
    }
}

/// Tallies of the generate phase.
#[derive(Default)]
struct Tally {
    valid: u64,
    invalid: u64,
    overrun: u64,
    unique: HashSet<u64>,
}

impl Tally {
    fn add(&mut self, o: &Outcome) {
        match o.status {
            Status::Valid => {
                self.valid += 1;
                self.unique.insert(o.fingerprint);
            }
            Status::Invalid => self.invalid += 1,
            Status::Overrun => self.overrun += 1,
            Status::Interesting => {}
        }
    }
}

/// Runs `test` with coverage feedback from `coverage`.
///
/// Phases, as in [`crate::engine::run`]: **reuse** (when `corpus` is given and
/// `config.reuse`: every tape of `regressions/` then `corpus/`, with coverage, so they seed
/// the search; a failing one ends the run), **generate** (`options.warmup` random tapes, then
/// mostly mutants of kept tapes, until `config.tests`, `config.seconds` or a failure),
/// **shrink** the failure with the tape shrinker, and **save** (when `config.save`: the
/// shrunk failure to `regressions/`, and up to `options.corpus_cap` valid kept tapes of this
/// run to `corpus/`).
///
/// A mutant is replayed with random choices past its end ([`Fallback::Random`]) on a
/// recording tape, so a kept mutant has a fresh record (choices and spans) for later
/// mutations. Random tapes run on the fast, non-recording path and are re-run recording only
/// when kept. The loop never knows value types: only the [`Test`], its statuses and tapes.
pub fn run(
    test: &dyn Test,
    coverage: &mut dyn Coverage,
    config: &Config,
    options: &Options,
    mut corpus: Option<&mut Corpus>,
) -> GreyboxReport {
    let started = Instant::now();
    let seed = config.seed.unwrap_or_else(fresh_seed);
    let edges = coverage.edges();
    let mut lp = Loop {
        test,
        coverage,
        config,
        map: FeatureMap::new(edges),
        novel: Vec::new(),
        queue: Queue::default(),
    };
    let mut report = GreyboxReport::default();
    report.run.seed = seed;
    let mut found: Option<(Found, Recording)> = None;
    // The fingerprints of the valid replayed tapes (distinct as the generated ones are).
    let mut replayed: std::collections::HashSet<u64> = std::collections::HashSet::new();

    if config.reuse
        && let Some(c) = corpus.as_deref_mut()
    {
        'reuse: for folder in [Folder::Regressions, Folder::Corpus] {
            for entry in c.load(folder) {
                report.run.replayed += 1;
                let mut src = BytesSource::new(&entry.bytes);
                let o = lp.execute(&mut src, true);
                if o.status == Status::Interesting {
                    found = Some((Found::Reuse(entry.path), o.recording));
                    break 'reuse;
                }
                if o.status == Status::Valid {
                    report.run.replayed_valid += 1;
                    if replayed.insert(o.fingerprint) {
                        report.run.replayed_unique += 1;
                    }
                }
                if lp.worth_keeping(o.status) {
                    lp.keep(o.recording, o.status, false);
                }
            }
        }
    }

    let mut tally = Tally::default();
    let mut i = 0u64;
    if found.is_none() {
        // A budget too large to represent is no deadline at all.
        let deadline = config
            .seconds
            .and_then(|s| crate::engine::seconds(s.max(0.0)))
            .and_then(|d| started.checked_add(d));
        let every =
            Duration::try_from_secs_f64(options.progress_every.max(0.05)).unwrap_or(Duration::MAX);
        let mut last_progress = Instant::now();
        let mut rng = Rng::new(Rng::derive(seed, u64::MAX));
        let random_one_in = options.random_one_in.max(1);
        while i < config.tests {
            if i.is_multiple_of(32) {
                let now = Instant::now();
                if deadline.is_some_and(|d| now >= d) {
                    break;
                }
                if config.progress && now.duration_since(last_progress) >= every {
                    last_progress = now;
                    let secs = started.elapsed().as_secs_f64();
                    eprintln!(
                        "tapefuzz: greybox {i} tests ({:.0}/s), {} features on {} edges, {} kept, {:.1}s",
                        i as f64 / secs.max(1e-9),
                        lp.map.features(),
                        lp.map.edges(),
                        lp.queue.len(),
                        secs
                    );
                }
            }
            i += 1;
            let random = lp.queue.is_empty()
                || i <= options.warmup
                || rng.below_or_eq(random_one_in - 1) == 0;
            if random {
                let test_seed = Rng::derive(seed, i);
                let mut src = RandomSource::new(test_seed);
                let o = lp.execute(&mut src, false);
                tally.add(&o);
                let (interesting, keep) =
                    (o.status == Status::Interesting, lp.worth_keeping(o.status));
                if interesting || keep {
                    // Values are a function of the per-test seed: re-run recording. The
                    // features credited stay the first run's: a re-run may cover less (code
                    // that runs once per process, such as a lazy initialisation, does not run
                    // again), and those features were reached by this tape all the same.
                    let novel = std::mem::take(&mut lp.novel);
                    let mut src = RandomSource::new(test_seed);
                    let again = lp.execute(&mut src, true);
                    lp.novel = novel;
                    if interesting {
                        found = Some((Found::Generate(i), again.recording));
                        break;
                    }
                    lp.keep(again.recording, o.status, true);
                }
            } else {
                let parent = lp.queue.pick(&mut rng);
                let donor = lp.queue.pick(&mut rng);
                let donor = (donor != parent).then(|| lp.queue.get(donor));
                let choices = mutant(&options.mutator, lp.queue.get(parent), donor, &mut rng);
                let indices = choices
                    .iter()
                    .filter(|c| !c.forced)
                    .map(|c| c.index)
                    .collect();
                let fallback = Fallback::Random(Rng::new(rng.next_u64()));
                let mut src = ReplaySource::new(indices, fallback);
                let o = lp.execute(&mut src, true);
                tally.add(&o);
                if o.status == Status::Interesting {
                    found = Some((Found::Generate(i), o.recording));
                    break;
                }
                if lp.worth_keeping(o.status) {
                    lp.keep(o.recording, o.status, true);
                }
            }
        }
    }
    report.run.tests = i;
    report.run.valid = tally.valid;
    report.run.invalid = tally.invalid;
    report.run.overrun = tally.overrun;
    report.run.unique_valid = tally.unique.len() as u64;
    report.features = lp.map.features();
    report.edges = lp.map.edges();
    report.kept = lp.queue.len() as u64;

    if let Some((where_found, original)) = found {
        report.failure_seconds = Some(started.elapsed().as_secs_f64());
        shrink_and_save(
            &mut report,
            test,
            config,
            where_found,
            original,
            &mut corpus,
        );
    }
    if config.save
        && let Some(c) = corpus
    {
        report.corpus_added = save_kept(c, lp.queue.entries(), options.corpus_cap);
    }
    report.run.seconds = started.elapsed().as_secs_f64();
    report
}

/// Confirms, shrinks, explains and saves the failure found on `original`.
fn shrink_and_save(
    report: &mut GreyboxReport,
    test: &dyn Test,
    config: &Config,
    found: Found,
    original: Recording,
    corpus: &mut Option<&mut Corpus>,
) {
    let mut timed = |t: &mut Tape<'_>| run_timed(test, config.timeout, t);
    // Confirm the failure on the recorded tape before shrinking it.
    let mut replay = ReplaySource::of(&original.choices);
    let mut tape = Tape::recording(&mut replay).with_max_choices(config.max_choices);
    let flaky = timed(&mut tape) != Status::Interesting;
    let (shrunk, shrink_calls, shrink_budget_exhausted) = if flaky {
        (original.clone(), 0, false)
    } else {
        let r = Shrinker::new(&mut timed, original.clone(), config.shrink).run();
        (r.best, r.calls, r.budget_exhausted)
    };
    let bytes = encoding::encode(&shrunk.choices);
    let mut src = BytesSource::new(&bytes);
    let mut tape = Tape::recording(&mut src).with_max_choices(config.max_choices);
    let explained = test.explain(&mut tape);
    // Without the timeout, does the shrunk tape still fail? If not, it is a timeout.
    let timed_out = config.timeout.is_some() && !flaky && explained.status != Status::Interesting;
    report.value = explained.value;
    report.message = if timed_out {
        let limit = config.timeout.unwrap_or_default();
        Some(format!("timed out: ran longer than {limit:?}"))
    } else {
        explained.message
    };
    let mut failure = Failure {
        found,
        original,
        shrunk,
        shrink_calls,
        shrink_budget_exhausted,
        bytes,
        saved: None,
        save_error: None,
        flaky,
        timed_out,
    };
    if config.save
        && let Some(c) = corpus.as_deref_mut()
    {
        failure.save(c, "greybox");
    }
    report.run.failure = Some(failure);
}

/// Saves up to `cap` valid tapes kept in the generate phase to `corpus/`: those credited
/// with the most new features, ties to the later (deeper) one. Saved at the end of the run,
/// not as they are found: each save writes the manifest, which would stall the loop while
/// many tapes are kept early on. Returns how many were saved.
fn save_kept(corpus: &mut Corpus, kept: &[Kept], cap: u64) -> u64 {
    let mut chosen: Vec<(usize, &Kept)> = kept
        .iter()
        .enumerate()
        .filter(|(_, k)| k.valid && k.generated)
        .collect();
    chosen.sort_by_key(|&(i, k)| std::cmp::Reverse((k.new_features, i)));
    chosen.truncate(cap as usize);
    let mut saved = 0;
    for (_, k) in chosen {
        let meta = EntryMeta {
            strategy: "greybox".into(),
            status: "valid".into(),
            features: k.new_features,
            ..EntryMeta::default()
        };
        if corpus
            .save(
                Folder::Corpus,
                &encoding::encode(&k.recording.choices),
                meta,
            )
            .is_ok()
        {
            saved += 1;
        }
    }
    saved
}
