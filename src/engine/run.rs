//! The run loop, written once: reuse → search → shrink → save.

use super::events::{self, Collecting};
use super::failure::{settle_isolated, settle_watched};
use super::health::{self, Seen};
use super::observability::{How, Log};
use super::progress::Progress;
use super::reuse::{Pending, Replayed, replay_one};
use super::runner::{Flying, Kind, Runner};
use super::watchdog::Watchdog;
use super::{
    Best, Config, Described, Found, Improvement, Isolated, Observation, Observer, Replay, Report,
    Search, Start, Statistics, Stop, Subject, Utility, Verdict,
};
use crate::corpus::{Corpus, Flight, Folder};
use crate::shrink::Passed;
use crate::tape::{HashesSet, Rng, Status, Tape, encoding};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Test cases that take longer than this each make the run loop read the clock after every
/// one, not every 64th (see the generate phase).
const SLOW_TEST: Duration = Duration::from_micros(100);

/// A test function: runs the property on the value generated from the tape.
pub type TestFn<'a> = dyn FnMut(&mut Tape<'_>) -> Status + 'a;

/// A seed from the clock and the process id, for runs without one.
pub(super) fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    Rng::derive(nanos, std::process::id() as u64)
}

/// Where a best tape is: its replay, or its bytes when it was recorded.
struct Bests {
    best: Vec<(Utility, Replay)>,
    improvements: Vec<Improvement>,
}

impl Bests {
    /// Keeps, per label, the better of the best so far and `us` from test number `test`
    /// (valid and failing test cases; rejected ones do not count). `tape` is asked only when
    /// a label improves.
    fn note(
        &mut self,
        us: Vec<Utility>,
        status: Status,
        test: u64,
        mut tape: impl FnMut() -> Option<Replay>,
    ) {
        if !matches!(status, Status::Valid | Status::Interesting) {
            return;
        }
        for u in us {
            match self.best.iter().position(|(b, _)| b.label == u.label) {
                Some(i) if u.score() > self.best[i].0.score() => {
                    if let Some(t) = tape() {
                        self.best[i] = (u, t);
                    }
                }
                Some(_) => continue,
                None => {
                    if let Some(t) = tape() {
                        self.best.push((u, t));
                    }
                }
            }
            self.improvements.push(Improvement {
                test,
                label: u.label,
                value: u.value,
            });
        }
    }
}

/// Runs `subject` through the phases, with `search` proposing the test cases and
/// `observer` watching each:
///
/// 1. **reuse** (when `corpus` is given and `config.reuse`): first the test case a dead run
///    was running (its flight record, see [`crate::corpus::Flight`]: a crash or a hang),
///    replayed in a process of its own ([`Subject::isolated`]); then every tape of
///    `regressions/` (those marked `isolate` in a process of their own), then of `corpus/`,
///    recorded and told to the search; a failing one ends the phase. A regression whose tape
///    now records another structure than when it was saved (the generator changed) is
///    reported in [`Report::warnings`] with its saved rendering and today's
///    ([`Subject::describe`]), and replayed all the same.
/// 2. **search**: proposals until `config.tests` counted test cases, `config.seconds`, a
///    failure, or the search has no more ([`Report::exhausted`]).
/// 3. **shrink** and **save** the failure ([`super::settle`]); with `config.save`, the
///    search's kept tapes and, for a targeted search, each utility label's best tape (when it
///    beats every replayed `corpus/` tape's) go to `corpus/`. A save that fails is counted
///    and reported ([`Report::save_errors`]) and the run goes on.
///
/// With a corpus, the test case in flight is on disk before it runs (a random one's seed, or
/// the indices it draws as it draws them), so that one that kills the process is found by the
/// next run; with `config.timeout`, a watchdog ends the process when a test case runs over it
/// (it cannot be stopped otherwise), its input kept the same way. The run's seed is printed
/// on stderr before anything runs.
///
/// The loop never knows generators, value types or strategies: only tapes, statuses and the
/// traits.
pub fn run(
    config: &Config,
    corpus: Option<&mut Corpus>,
    subject: &mut dyn Subject,
    search: &mut dyn Search,
    observer: &mut dyn Observer,
) -> Report {
    config.arm_allocation_limit();
    let mut run = Run::open(config, corpus, subject, search, observer);
    run.reuse();
    if run.found.is_none() {
        run.generate();
    }
    run.finish_search();
    run.settle();
    run.finish()
}

/// One run between its phases: what the loop knows so far.
struct Run<'a> {
    config: &'a Config,
    corpus: Option<&'a mut Corpus>,
    search: &'a mut dyn Search,
    runner: Runner<'a>,
    /// Ends the process when a test case runs over the timeout (with a flight record only).
    watchdog: Option<Watchdog>,
    report: Report,
    started: Instant,
    /// The subject's name, for people (`property` when it has none).
    name: String,
    /// Where the flight records are, and this corpus's name among them.
    inflight: Option<(PathBuf, String)>,
    /// The failure found, waiting to be settled.
    found: Option<(Found, Pending)>,
    /// Flight records of dead runs, settled (and removed) after the run.
    crashed_paths: Vec<PathBuf>,
    /// The best utility of each label among the replayed `corpus/` tapes.
    corpus_best: Vec<Utility>,
    bests: Bests,
    /// The distinct valid test cases of the generate phase (their count is the report's
    /// `unique_valid`), known to the shrink
    /// ([`crate::shrink::Shrinker::with_passed`]).
    passed: Passed,
    needs_utilities: bool,
    saw_utilities: bool,
    /// Events and timings are noted only while this lives: to the end of the run.
    _collecting: Collecting,
}

impl<'a> Run<'a> {
    /// Before anything runs: the seed (printed), the observability log, the corpus migrated
    /// to today's encoding, the search started, the flight record and its watchdog.
    fn open(
        config: &'a Config,
        mut corpus: Option<&'a mut Corpus>,
        subject: &'a mut dyn Subject,
        search: &'a mut dyn Search,
        observer: &'a mut dyn Observer,
    ) -> Run<'a> {
        let started = Instant::now();
        let seed = config.seed.unwrap_or_else(fresh_seed);
        let strategy = search.name();
        let name = match subject.name() {
            "" => "property".to_string(),
            n => n.to_string(),
        };
        config.reporter.note(&format!(
            "{name}: {strategy} run, seed {seed} (TAPEFUZZ_SEED={seed} repeats it)"
        ));
        let mut report = Report {
            seed,
            strategy,
            ..Report::default()
        };
        let log = config.observability.as_ref().and_then(|target| {
            match Log::open(target, &name, strategy, seed) {
                Ok(log) => Some(log),
                Err(e) => {
                    let w = format!(
                        "cannot open the observability log {}: {e}; running without it",
                        super::observability::log_path(target).display()
                    );
                    report.warn(config, w);
                    None
                }
            }
        });
        if let Some(c) = corpus.as_deref_mut() {
            report.warnings.extend(super::migrate_corpus(
                c,
                &mut *subject,
                config.max_choices,
                &*config.reporter,
            ));
        }
        let stats = config.stats.then(Statistics::default);
        let collecting = Collecting::start(config.stats, log.is_some());
        let needs_utilities = search.needs_utilities();
        search.start(&Start {
            seed,
            tests: config.tests,
            keep: if config.save { config.keep } else { 0 },
        });
        // The flight record: beside the corpus, where the next run looks.
        let inflight = corpus.as_deref().map(|c| {
            let root = c.root();
            let name = root
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            (root.parent().unwrap_or(root).join(".inflight"), name)
        });
        let flight = match &inflight {
            Some((dir, name)) => match Flight::create(dir, name) {
                Ok(f) => Some(f),
                Err(e) => {
                    let w = format!(
                        "no flight record ({e}): a test case that kills the process will not be replayed"
                    );
                    report.warn(config, w);
                    None
                }
            },
            None => None,
        };
        let watchdog = match (&flight, config.timeout) {
            (Some(f), Some(limit)) => Some(Watchdog::start(
                f.view(),
                limit,
                f.path().to_path_buf(),
                config.reporter.clone(),
            )),
            _ => None,
        };
        let watching = observer.watches();
        Run {
            config,
            corpus,
            search,
            runner: Runner {
                config,
                subject,
                observer,
                watching,
                flight,
                collect: stats.is_some() || log.is_some(),
                stats,
                log,
                strategy,
            },
            watchdog,
            report,
            started,
            name,
            inflight,
            found: None,
            crashed_paths: Vec::new(),
            corpus_best: Vec::new(),
            bests: Bests {
                best: Vec::new(),
                improvements: Vec::new(),
            },
            passed: Passed::new(),
            needs_utilities,
            saw_utilities: false,
            _collecting: collecting,
        }
    }

    /// The reuse phase (with `config.reuse`): a dead run's test cases, then the saved tapes.
    fn reuse(&mut self) {
        let started = Instant::now();
        if self.config.reuse {
            self.replay_crashed();
            if self.found.is_none() {
                self.replay_saved();
            }
        }
        if let Some(s) = self.runner.stats.as_mut() {
            s.replaying = started.elapsed();
        }
    }

    /// The test cases dead runs were running (their flight records), each replayed in a
    /// process of its own. One that fails there (or hung, as the watchdog saw) is the failure.
    /// One that passes there did not kill its run: that run was stopped from outside (a
    /// SIGKILL or SIGTERM, a CI timeout, the OOM killer): noted, its record removed, nothing
    /// saved, no failure.
    fn replay_crashed(&mut self) {
        let Some((dir, name)) = &self.inflight else {
            return;
        };
        for crashed in Flight::collect(dir, name) {
            if self.found.is_some() {
                // Settled with the first: the others wait for the next run.
                break;
            }
            self.report.replayed += 1;
            let bytes = self.runner.crashed_tape(&crashed.input);
            if !crashed.hung {
                let alone = self.runner.subject.isolated(&bytes, self.config.timeout);
                if let Some(a) = alone.filter(|a| a.status != Status::Interesting) {
                    self.report.replayed_valid += (a.status == Status::Valid) as u64;
                    self.config.reporter.note(&format!(
                        "an earlier run was stopped during its test case {}, which passes in a process of its own: the run was ended from outside (a kill, a CI timeout), not by the test case; nothing saved ({} removed)",
                        crashed.test,
                        crashed.path.display()
                    ));
                    let _ = std::fs::remove_file(&crashed.path);
                    continue;
                }
            }
            let what = if crashed.hung { "hung" } else { "crashed" };
            let note = if crashed.shrinking {
                format!(
                    "an earlier run was shrinking a failure when shrink candidate {} {what}; shrinking it again, each candidate in a process of its own ({})",
                    crashed.test,
                    crashed.path.display()
                )
            } else {
                format!(
                    "test case {} of an earlier run {what}; replaying it in a process of its own ({})",
                    crashed.test,
                    crashed.path.display()
                )
            };
            self.config.reporter.note(&note);
            self.crashed_paths.push(crashed.path.clone());
            self.found = Some((Found::Reuse(crashed.path), Pending::Isolated(bytes)));
        }
    }

    /// Every tape of `regressions/`, then of `corpus/`, told to the search; a failing one
    /// ends the phase.
    fn replay_saved(&mut self) {
        let Some(c) = self.corpus.as_deref_mut() else {
            return;
        };
        // The fingerprints of the valid replayed tapes, distinct.
        let mut replayed = HashesSet::default();
        'reuse: for folder in [Folder::Regressions, Folder::Corpus] {
            for entry in c.load(folder) {
                if let Some(signal) = super::interrupted() {
                    self.report.stopped = Stop::Interrupted(signal);
                    break 'reuse;
                }
                self.report.replayed += 1;
                match replay_one(
                    &mut self.runner,
                    &mut *self.search,
                    &mut self.report,
                    &mut self.corpus_best,
                    folder,
                    entry,
                ) {
                    Replayed::Failed(found) => {
                        self.found = Some(found);
                        break 'reuse;
                    }
                    Replayed::Valid(fingerprint) => {
                        replayed.insert(fingerprint);
                    }
                    Replayed::Other => {}
                }
            }
        }
        self.report.replayed_unique = replayed.len() as u64;
    }

    /// The generate phase: proposals until `config.tests` counted test cases,
    /// `config.seconds`, `config.valid_tests` valid ones, a failure, or the search has no
    /// more.
    fn generate(&mut self) {
        let config = self.config;
        // A budget too large to represent is no deadline at all.
        let deadline = config
            .seconds
            .and_then(|s| super::seconds(s.max(0.0)))
            .and_then(|d| self.started.checked_add(d));
        let mut progress = Progress::new(config);
        let mut tests = 0u64;
        let (mut next_check, mut last_check) = (0u64, (Instant::now(), 0u64));
        super::clear_utilities();
        loop {
            if tests >= config.tests {
                break;
            }
            if let Some(signal) = super::interrupted() {
                self.report.stopped = Stop::Interrupted(signal);
                break;
            }
            if config.valid_tests.is_some_and(|v| self.report.valid >= v) {
                self.report.stopped = Stop::ValidTests;
                break;
            }
            if tests >= next_check {
                let now = Instant::now();
                if deadline.is_some_and(|d| now >= d) {
                    self.report.stopped = Stop::Time;
                    break;
                }
                // The clock is read every 64 test cases, or after every one while they take
                // more than SLOW_TEST each (slow properties: a concurrent state machine runs
                // its threads 64 times a test case), so a time budget is kept. The first test
                // case is timed alone.
                let since = tests - last_check.1;
                let slow =
                    since == 0 || now.duration_since(last_check.0) > SLOW_TEST * since as u32;
                last_check = (now, tests);
                next_check = tests + if slow { 1 } else { 64 };
                if progress.due() {
                    let line = super::progress::line(
                        &self.name,
                        config,
                        &self.report,
                        tests,
                        self.passed.len(),
                        self.bests.best.first().map(|(u, _)| u),
                        &*self.search,
                        self.started,
                    );
                    progress.show(config, tests, self.started, &line);
                }
            }
            match self.one_test(&mut tests) {
                Next::Go => {}
                Next::Exhausted => {
                    self.report.exhausted = true;
                    self.report.stopped = Stop::Exhausted;
                    break;
                }
                Next::Failed => break,
            }
        }
        progress.end(config);
        self.report.tests = tests;
        self.report.unique_valid = self.passed.len() as u64;
    }

    /// One proposal of the search, run, counted and told to the search.
    #[inline]
    fn one_test(&mut self, tests: &mut u64) -> Next {
        let Some(mut proposal) = self.search.propose() else {
            return Next::Exhausted;
        };
        let (record, counted) = (proposal.is_recorded(), proposal.is_counted());
        let flying = match proposal.seed() {
            Some(s) => Flying::Seed(*tests + 1, s),
            None => Flying::Traced(*tests + 1),
        };
        let kind = if counted {
            Kind::Test(*tests + 1)
        } else {
            Kind::Warmup
        };
        let (status, rec, fingerprint, drawn) =
            self.runner.call(proposal.source(), record, flying, kind);
        drop(proposal);
        if counted {
            *tests += 1;
            match status {
                Status::Valid => {
                    self.report.valid += 1;
                    self.passed.insert(fingerprint, drawn);
                }
                Status::Invalid => {
                    self.report.invalid += 1;
                    self.passed.insert_rejected(fingerprint, drawn);
                }
                Status::Overrun => self.report.overrun += 1,
                Status::Interesting => {}
            }
        }
        let utilities = if super::has_utilities() {
            self.saw_utilities = true;
            super::take_utilities()
        } else {
            Vec::new()
        };
        let verdict = self.search.observe(&Observation {
            status,
            fingerprint,
            recording: record.then_some(&rec),
            characteristic: self.runner.characteristic(fingerprint),
            features: self.runner.features(),
            score: super::total_score(&utilities),
            test: if counted { *tests } else { 0 },
        });
        if counted && !utilities.is_empty() {
            let search = &mut *self.search;
            self.bests.note(utilities, status, *tests, || {
                if record {
                    Some(Replay::Bytes(encoding::encode(&rec.choices)))
                } else {
                    search.replay()
                }
            });
        }
        if status == Status::Interesting {
            self.report.first_failure_seconds = Some(self.started.elapsed().as_secs_f64());
            let rec = match (record, self.search.replay()) {
                (false, Some(replay)) => self.runner.record(&replay).1,
                _ => rec,
            };
            self.found = Some((Found::Generate((*tests).max(1)), Pending::Here(rec)));
            return Next::Failed;
        }
        if verdict == Verdict::Record
            && !record
            && let Some(replay) = self.search.replay()
        {
            let (_, rec) = self.runner.record(&replay);
            self.search.recorded(rec);
        }
        Next::Go
    }

    /// The search's end: its note and numbers, the best tape of each utility label, and
    /// (with `config.save`) the tapes it keeps saved to `corpus/`. Then the flight record
    /// and its watchdog go: nothing after this runs a test case of the search.
    fn finish_search(&mut self) {
        let finish = self.search.finish();
        self.report.stats = finish.stats;
        if let Some(note) = &finish.note {
            self.config.reporter.note(note);
        }
        self.report.note = finish.note;
        // The best tape of each utility label, as bytes.
        for (utility, replay) in std::mem::take(&mut self.bests.best) {
            let bytes = match replay {
                Replay::Bytes(b) => b,
                other => encoding::encode(&self.runner.record(&other).1.choices),
            };
            self.report.best.push(Best { utility, bytes });
        }
        if self.config.save && self.corpus.is_some() {
            let mut to_save: Vec<Vec<u8>> = Vec::new();
            if finish.keep_bests {
                for b in &self.report.best {
                    let known = self.corpus_best.iter().find(|k| k.label == b.utility.label);
                    if known.is_none_or(|k| b.utility.score() > k.score()) {
                        to_save.push(b.bytes.clone());
                    }
                }
            }
            for replay in &finish.keep {
                let (status, rec) = self.runner.record(replay);
                if status == Status::Valid {
                    to_save.push(encoding::encode(&rec.choices));
                }
            }
            if let Some(c) = self.corpus.as_deref_mut() {
                save_all(self.config, c, to_save, &mut self.report);
            }
        }
        // Stopped before the flight record it reads goes. With a failure to shrink under a
        // timeout, both stay for the settle phase: a shrink candidate that hangs is caught.
        if self.found.is_none() || self.config.timeout.is_none() {
            self.watchdog = None;
            self.runner.flight = None;
        }
        self.report.improvements = std::mem::take(&mut self.bests.improvements);
    }

    /// The settle phase: the failure found is confirmed, shrunk and saved
    /// ([`super::settle`]), each shrink candidate logged.
    fn settle(&mut self) {
        let Some((where_found, original)) = self.found.take() else {
            return;
        };
        if self.report.first_failure_seconds.is_none() {
            self.report.first_failure_seconds = Some(self.started.elapsed().as_secs_f64());
        }
        let config = self.config;
        let save_to = if config.save {
            self.corpus.as_deref_mut()
        } else {
            None
        };
        let shrink_started = Instant::now();
        let Runner {
            subject,
            log,
            stats,
            flight,
            ..
        } = &mut self.runner;
        let mut logged;
        let subject: &mut dyn Subject = match log.as_mut() {
            Some(log) => {
                logged = Logged {
                    inner: &mut **subject,
                    log,
                };
                &mut logged
            }
            None => &mut **subject,
        };
        let failure = match original {
            Pending::Here(rec) => settle_watched(
                subject,
                where_found,
                rec,
                config,
                save_to,
                flight.as_mut(),
                Some(&self.passed),
            ),
            Pending::Isolated(bytes) => {
                settle_isolated(subject, where_found, &bytes, config, save_to)
            }
        };
        if let Some(s) = stats {
            s.shrinking = shrink_started.elapsed();
        }
        self.watchdog = None;
        self.runner.flight = None;
        if let Some(e) = &failure.save_error {
            let e = format!("cannot save the shrunk failure: {e}");
            config.reporter.warning(&e);
            self.report.save_errors.push(e);
        }
        self.report.set_failure(failure);
    }

    /// The end: dead runs' records settled, the corpus's and the log's warnings, the health
    /// checks, statistics and the time taken.
    fn finish(mut self) -> Report {
        let config = self.config;
        let mut report = std::mem::take(&mut self.report);
        // A dead run's record is settled: its failure is a regression now (or it did not fail
        // again, which the report says), so it is not replayed again.
        if report
            .failure
            .as_ref()
            .is_some_and(|f| f.saved.is_some() || f.flaky)
            || !config.save
        {
            for p in &self.crashed_paths {
                let _ = std::fs::remove_file(p);
            }
        }
        if let Some(c) = self.corpus.as_deref() {
            report.warnings.extend(c.warnings().iter().cloned());
        }
        if report.failure.is_some() {
            report.stopped = Stop::Failure;
        }
        health::check(
            &mut report,
            config,
            &Seen {
                needs_utilities: self.needs_utilities,
                saw_utilities: self.saw_utilities,
            },
        );
        if let Some(e) = self.runner.log.take().and_then(|l| l.error) {
            report.warn(config, e);
        }
        report.statistics = self.runner.stats.take();
        report.seconds = self.started.elapsed().as_secs_f64();
        if config.stats {
            config
                .reporter
                .text(&super::render_statistics(&self.name, &report));
        }
        report
    }
}

/// What the generate phase does after one test case.
enum Next {
    /// On.
    Go,
    /// The search has no more.
    Exhausted,
    /// It failed.
    Failed,
}

/// Saves `to_save` to `corpus/` (those it does not hold yet). After a few failed saves in a
/// row (a full disk, a folder that cannot be made) the rest are not tried: each would fail
/// the same way.
fn save_all(config: &Config, c: &mut Corpus, to_save: Vec<Vec<u8>>, report: &mut Report) {
    const GIVE_UP: usize = 5;
    let mut in_a_row = 0;
    let total = to_save.len();
    for (k, bytes) in to_save.into_iter().enumerate() {
        if c.contains(Folder::Corpus, &bytes) {
            continue;
        }
        match c.save(&bytes) {
            Ok(_) => {
                report.corpus_added += 1;
                in_a_row = 0;
            }
            Err(e) => {
                let e = format!("cannot save a corpus tape: {e}");
                config.reporter.warning(&e);
                report.save_errors.push(e);
                in_a_row += 1;
                if in_a_row == GIVE_UP && k + 1 < total {
                    let e = format!(
                        "gave up saving after {GIVE_UP} failed saves in a row: {} corpus tapes not saved",
                        total - k - 1
                    );
                    config.reporter.warning(&e);
                    report.save_errors.push(e);
                    break;
                }
            }
        }
    }
}

/// A subject whose every test case goes to the observability log as a shrink candidate
/// (the confirm-shrink path runs the test through the subject, not the loop's runner).
struct Logged<'a> {
    inner: &'a mut dyn Subject,
    log: &'a mut Log,
}

impl Subject for Logged<'_> {
    fn run(&mut self, tape: &mut Tape<'_>) -> Status {
        events::clear_case();
        let status = self.inner.run(tape);
        let case = events::take_case();
        self.log
            .test_case(How::Shrink, status, &case, &[], tape.drawn(), 0);
        status
    }

    fn name(&self) -> &str {
        self.inner.name()
    }

    fn describe(&mut self, bytes: &[u8]) -> Described {
        self.inner.describe(bytes)
    }

    fn render(&mut self, bytes: &[u8]) -> Option<String> {
        self.inner.render(bytes)
    }

    fn generate(&mut self, tape: &mut Tape<'_>) -> Status {
        self.inner.generate(tape)
    }

    fn isolated(&mut self, bytes: &[u8], timeout: Option<Duration>) -> Option<Isolated> {
        self.inner.isolated(bytes, timeout)
    }

    fn shrinking(&mut self, on: bool) {
        self.inner.shrinking(on);
    }

    fn attempts(&self) -> usize {
        self.inner.attempts()
    }
}
