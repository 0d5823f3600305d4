//! The run loop.

use super::anneal::{self, Step};
use super::learn::{self, Episode};
use super::{
    Best, Characteristic, Config, Failure, Found, Identity, Improvement, RunReport, Strategy,
    Utility,
};
use crate::corpus::{Corpus, EntryMeta, Folder};
use crate::shrink::Shrinker;
use crate::tape::{
    BytesSource, Fallback, RandomSource, Recording, ReplaySource, Rng, Source, Status, Tape,
    encoding,
};
use std::cell::RefCell;
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// A test function: runs the property on the value generated from the tape.
pub type TestFn<'a> = dyn FnMut(&mut Tape<'_>) -> Status + 'a;

fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    Rng::derive(nanos, std::process::id() as u64)
}

/// `test` with the configured timeout applied: a test case that runs longer fails.
fn with_timeout<'a>(
    timeout: Option<Duration>,
    test: &'a mut TestFn<'_>,
) -> impl FnMut(&mut Tape<'_>) -> Status + 'a {
    move |tape: &mut Tape<'_>| match timeout {
        None => test(tape),
        Some(limit) => {
            let start = Instant::now();
            let status = test(tape);
            if start.elapsed() > limit {
                Status::Interesting
            } else {
                status
            }
        }
    }
}

/// Where a best tape is: a random test's seed (re-recorded at the end, so the hot loop never
/// records) or its bytes.
enum BestTape {
    Seed(u64),
    Bytes(Vec<u8>),
    /// The unforced indices of a guided test case (replayed and recorded at the end).
    Indices(Vec<u64>),
}

/// The best utility of each label so far, with its tape, and every improvement in order.
#[derive(Default)]
struct Bests {
    best: Vec<(Utility, BestTape)>,
    improvements: Vec<Improvement>,
}

impl Bests {
    /// Keeps, per label, the better of the best so far and `us` from test number `test`
    /// (valid and failing test cases; rejected ones do not count).
    fn note(&mut self, us: Vec<Utility>, status: Status, test: u64, tape: impl Fn() -> BestTape) {
        if !matches!(status, Status::Valid | Status::Interesting) {
            return;
        }
        for u in us {
            match self.best.iter_mut().find(|(b, _)| b.label == u.label) {
                Some((b, t)) if u.score() > b.score() => {
                    *b = u;
                    *t = tape();
                }
                Some(_) => continue,
                None => self.best.push((u, tape())),
            }
            self.improvements.push(Improvement {
                test,
                label: u.label,
                value: u.value,
            });
        }
    }
}

/// Saves each label's best tape to `corpus/` when it beats every utility the manifest holds
/// for a `corpus/` entry (utility is a characteristic: a new best is kept). Returns how many
/// were new.
fn save_bests(corpus: &mut Corpus, bests: &[Best], strategy: &str) -> u64 {
    let mut added = 0;
    for b in bests {
        let known: Vec<f64> = corpus
            .manifest()
            .entries
            .iter()
            .filter(|(k, _)| k.starts_with("corpus/"))
            .filter_map(|(_, m)| m.utility)
            .collect();
        let score = |v: f64| {
            Utility {
                value: v,
                ..b.utility
            }
            .score()
        };
        if known.iter().any(|&v| score(v) >= b.utility.score()) {
            continue;
        }
        let meta = EntryMeta {
            strategy: strategy.into(),
            status: "valid".into(),
            utility: Some(b.utility.value),
            ..EntryMeta::default()
        };
        if corpus.save(Folder::Corpus, &b.bytes, meta).is_ok() {
            added += 1;
        }
    }
    added
}

/// Records each kept tape (replaying its indices) and saves the valid ones that `corpus/`
/// does not hold yet. Returns how many were new.
fn save_kept(
    corpus: &mut Corpus,
    runner: &mut Runner<'_, '_, '_>,
    kept: Vec<Vec<u64>>,
    strategy: &str,
) -> u64 {
    let mut added = 0;
    for drawn in kept {
        let mut src = ReplaySource::new(drawn, Fallback::Simplest);
        let (status, rec, _) = runner.call(&mut src, true);
        super::clear_utilities();
        if status != Status::Valid {
            continue;
        }
        let bytes = encoding::encode(&rec.choices);
        if corpus.contains(Folder::Corpus, &bytes) {
            continue;
        }
        let meta = EntryMeta {
            strategy: strategy.into(),
            status: "valid".into(),
            ..EntryMeta::default()
        };
        if corpus.save(Folder::Corpus, &bytes, meta).is_ok() {
            added += 1;
        }
    }
    added
}

/// Counts a generated test case by its status (a failure is counted by whoever handles it).
fn tally(report: &mut RunReport, unique: &mut HashSet<u64>, status: Status, fingerprint: u64) {
    match status {
        Status::Valid => {
            report.valid += 1;
            unique.insert(fingerprint);
        }
        Status::Invalid => report.invalid += 1,
        Status::Overrun => report.overrun += 1,
        Status::Interesting => {}
    }
}

struct Runner<'c, 't, 'f> {
    config: &'c Config,
    test: &'t mut TestFn<'f>,
}

impl Runner<'_, '_, '_> {
    /// Runs one test case. Returns its status, its record (empty unless `record`) and its
    /// fingerprint.
    fn call(&mut self, source: &mut dyn Source, record: bool) -> (Status, Recording, u64) {
        let mut tape = Tape::new(source, record).with_max_choices(self.config.max_choices);
        let status = (self.test)(&mut tape);
        let fingerprint = tape.fingerprint();
        (status, tape.finish(), fingerprint)
    }
}

/// Runs `test` through the phases: reuse (`regressions/` then `corpus/` of `corpus`, if
/// given and `config.reuse`), generate (random tapes from the seed until `config.tests`,
/// `config.seconds` or a failure), shrink, and save the shrunk failure to `regressions/`.
pub fn run(config: &Config, corpus: Option<&mut Corpus>, test: &mut TestFn<'_>) -> RunReport {
    run_with(config, corpus, test, &mut Identity)
}

/// [`run`] with the characteristic that the `rl` strategy rewards as unique (the tape itself
/// for [`run`]; a coverage trace in greybox mode). Other strategies ignore it.
pub fn run_with(
    config: &Config,
    mut corpus: Option<&mut Corpus>,
    test: &mut TestFn<'_>,
    xi: &mut dyn Characteristic,
) -> RunReport {
    let started = Instant::now();
    let seed = config.seed.unwrap_or_else(fresh_seed);
    let mut report = RunReport {
        seed,
        ..RunReport::default()
    };
    let mut timed = with_timeout(config.timeout, &mut *test);
    let mut runner = Runner {
        config,
        test: &mut timed,
    };

    let mut found: Option<(Found, Recording)> = None;
    let bests: RefCell<Bests> = RefCell::default();
    // Valid `corpus/` tapes, kept to teach an `rl` guide that bootstraps.
    let bootstrap = matches!(&config.strategy, Strategy::Learn(l) if l.bootstrap);
    let mut teach: Vec<Vec<u8>> = Vec::new();
    // The fingerprints of the valid tapes replayed: counted in the report, and an `rl`
    // campaign that finds one again has found nothing new.
    let mut replayed_valid: HashSet<u64> = HashSet::new();
    if config.reuse
        && let Some(c) = corpus.as_deref_mut()
    {
        'reuse: for folder in [Folder::Regressions, Folder::Corpus] {
            for entry in c.load(folder) {
                report.replayed += 1;
                let mut src = BytesSource::new(&entry.bytes);
                let (status, rec, fingerprint) = runner.call(&mut src, true);
                if status == Status::Interesting {
                    found = Some((Found::Reuse(entry.path), rec));
                    break 'reuse;
                }
                if status == Status::Valid {
                    report.replayed_valid += 1;
                    replayed_valid.insert(fingerprint);
                }
                if bootstrap && folder == Folder::Corpus && status == Status::Valid {
                    teach.push(entry.bytes);
                }
            }
        }
    }

    report.replayed_unique = replayed_valid.len() as u64;

    let mut kept: Vec<Vec<u64>> = Vec::new();
    if found.is_none() {
        // A budget too large to represent is no deadline at all.
        let deadline = config
            .seconds
            .and_then(|s| super::seconds(s.max(0.0)))
            .and_then(|d| started.checked_add(d));
        let mut unique = HashSet::new();
        let mut last_progress = Instant::now();
        let mut progress = |tests: u64, report: &RunReport, unique: usize| {
            if config.progress && last_progress.elapsed() >= Duration::from_secs(1) {
                last_progress = Instant::now();
                let best = bests
                    .borrow()
                    .best
                    .first()
                    .map(|(u, _): &(Utility, BestTape)| format!(", best {} {}", u.label, u.value))
                    .unwrap_or_default();
                eprintln!(
                    "tapefuzz: {} tests, {} valid, {} unique valid{best}, {:.1}s",
                    tests,
                    report.valid,
                    unique,
                    started.elapsed().as_secs_f64()
                );
            }
        };
        super::clear_utilities();
        match &config.strategy {
            Strategy::Random => {
                let mut i = 0u64;
                while i < config.tests {
                    if i.is_multiple_of(64) {
                        if deadline.is_some_and(|d| Instant::now() >= d) {
                            break;
                        }
                        progress(i, &report, unique.len());
                    }
                    let test_seed = Rng::derive(seed, i);
                    let mut src = RandomSource::new(test_seed);
                    let (status, _, fingerprint) = runner.call(&mut src, false);
                    i += 1;
                    if super::has_utilities() {
                        let us = super::take_utilities();
                        bests
                            .borrow_mut()
                            .note(us, status, i, || BestTape::Seed(test_seed));
                    }
                    match status {
                        Status::Valid | Status::Invalid | Status::Overrun => {
                            tally(&mut report, &mut unique, status, fingerprint);
                        }
                        Status::Interesting => {
                            // Values are a function of the per-test seed: re-run recording.
                            let mut src = RandomSource::new(test_seed);
                            let (_, rec, _) = runner.call(&mut src, true);
                            found = Some((Found::Generate(i), rec));
                            break;
                        }
                    }
                }
                report.tests = i;
            }
            Strategy::Anneal(settings) => {
                let mut calls = 0u64;
                let mut call = |src: &mut dyn Source| {
                    let (status, recording, fingerprint) = runner.call(src, true);
                    calls += 1;
                    let us = super::take_utilities();
                    let score = super::total_score(&us);
                    bests.borrow_mut().note(us, status, calls, || {
                        BestTape::Bytes(encoding::encode(&recording.choices))
                    });
                    Step {
                        status,
                        recording,
                        fingerprint,
                        score,
                    }
                };
                let mut stop = |tests: u64| {
                    tests.is_multiple_of(64) && deadline.is_some_and(|d| Instant::now() >= d)
                };
                let mut each = |step: &Step| {
                    tally(&mut report, &mut unique, step.status, step.fingerprint);
                    let tests = report.valid + report.invalid + report.overrun;
                    if tests.is_multiple_of(64) {
                        progress(tests, &report, unique.len());
                    }
                };
                let searched = anneal::search(
                    settings,
                    seed,
                    config.tests,
                    &mut call,
                    &mut stop,
                    &mut each,
                );
                report.tests = searched.tests;
                if let Some((n, rec)) = searched.found {
                    found = Some((Found::Generate(n), rec));
                }
            }
            Strategy::Learn(settings) => {
                // In greybox mode the characteristics are traces, not tapes: the corpus's
                // fingerprints say nothing there.
                let known = if xi.is_identity() {
                    std::mem::take(&mut replayed_valid)
                } else {
                    HashSet::new()
                };
                let mut call = |src: &mut dyn Source| {
                    xi.before();
                    let (status, _, fingerprint) = runner.call(src, false);
                    Episode {
                        status,
                        fingerprint,
                        characteristic: xi.of(fingerprint),
                    }
                };
                let mut stop = |tests: u64| {
                    tests.is_multiple_of(64) && deadline.is_some_and(|d| Instant::now() >= d)
                };
                let mut each = |e: &Episode, test: u64, drawn: &[u64]| {
                    tally(&mut report, &mut unique, e.status, e.fingerprint);
                    if super::has_utilities() {
                        let us = super::take_utilities();
                        bests
                            .borrow_mut()
                            .note(us, e.status, test, || BestTape::Indices(drawn.to_vec()));
                    }
                    if test.is_multiple_of(64) {
                        progress(test, &report, unique.len());
                    }
                };
                let mut teachers = teach
                    .iter()
                    .map(|b| Box::new(BytesSource::new(b)) as Box<dyn Source + '_>);
                let learned = learn::search(
                    settings,
                    seed,
                    config.tests,
                    if config.save { config.keep } else { 0 },
                    known,
                    &mut teachers,
                    &mut call,
                    &mut stop,
                    &mut each,
                );
                report.tests = learned.tests;
                report.learners = learned.states as u64;
                report.taught = learned.taught;
                report.characteristics = learned.unique;
                if let Some((n, drawn)) = learned.found {
                    let mut src = ReplaySource::new(drawn, Fallback::Simplest);
                    let (_, rec, _) = runner.call(&mut src, true);
                    found = Some((Found::Generate(n), rec));
                }
                kept = learned.kept;
            }
        }
        report.unique_valid = unique.len() as u64;
    }
    report.strategy = config.strategy.name();

    let Bests { best, improvements } = bests.into_inner();
    report.improvements = improvements;
    // The best tape of each utility label, as bytes.
    for (utility, tape) in best {
        let bytes = match tape {
            BestTape::Bytes(b) => b,
            BestTape::Seed(s) => {
                let mut src = RandomSource::new(s);
                let (_, rec, _) = runner.call(&mut src, true);
                super::clear_utilities();
                encoding::encode(&rec.choices)
            }
            BestTape::Indices(drawn) => {
                let mut src = ReplaySource::new(drawn, Fallback::Simplest);
                let (_, rec, _) = runner.call(&mut src, true);
                super::clear_utilities();
                encoding::encode(&rec.choices)
            }
        };
        report.best.push(Best { utility, bytes });
    }
    // Only a targeted search keeps its bests: plain random runs (every `cargo test`) leave
    // `corpus/` alone.
    if config.save
        && matches!(config.strategy, Strategy::Anneal(_))
        && let Some(c) = corpus.as_deref_mut()
    {
        report.corpus_added = save_bests(c, &report.best, config.strategy.name());
    }
    // An `rl` campaign keeps a sample of the unique valid tapes it found.
    if config.save
        && !kept.is_empty()
        && let Some(c) = corpus.as_deref_mut()
    {
        report.corpus_added += save_kept(c, &mut runner, kept, config.strategy.name());
    }

    if let Some((where_found, original)) = found {
        // Confirm the failure on the recorded tape before shrinking it.
        let mut replay = ReplaySource::of(&original.choices);
        let (status, _, _) = runner.call(&mut replay, true);
        let flaky = status != Status::Interesting;
        let (shrunk, shrink_calls, shrink_budget_exhausted) = if flaky {
            (original.clone(), 0, false)
        } else {
            let r = Shrinker::new(&mut *runner.test, original.clone(), config.shrink).run();
            (r.best, r.calls, r.budget_exhausted)
        };
        let bytes = encoding::encode(&shrunk.choices);
        // Without the timeout, does the shrunk tape still fail? If not, it is a timeout.
        // (The timed wrapper borrows `test` until it is dropped.)
        drop(timed);
        let timed_out = config.timeout.is_some() && !flaky && {
            let mut src = ReplaySource::of(&shrunk.choices);
            let mut tape = Tape::recording(&mut src).with_max_choices(config.max_choices);
            test(&mut tape) != Status::Interesting
        };
        let mut failure = Failure {
            found: where_found,
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
            && let Some(c) = corpus
        {
            failure.save(c, config.strategy.name());
        }
        report.failure = Some(failure);
    }
    report.seconds = started.elapsed().as_secs_f64();
    report
}
