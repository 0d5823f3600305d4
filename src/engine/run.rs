//! The run loop, written once: reuse → search → shrink → save.

use super::events::{self, Collecting};
use super::failure::{settle, settle_isolated};
use super::health::{self, Seen};
use super::observability::{How, Log};
use super::watchdog::Watchdog;
use super::{
    Best, Config, Described, Found, Improvement, Isolated, Observer, Outcome, Replay, RunReport,
    Search, Start, Statistics, Stop, Subject, Utility, Verdict,
};
use crate::corpus::{Corpus, CrashedInput, Entry, Flight, Folder};
use crate::tape::{
    BytesSource, Fallback, HashesSet, RandomSource, Recording, ReplaySource, Rng, Source, Status,
    Tape, encoding,
};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// Test cases that take longer than this each make the run loop read the clock after every
/// one, not every 64th (see the generate phase).
const SLOW_TEST: Duration = Duration::from_micros(100);

/// A test function: runs the property on the value generated from the tape.
pub type TestFn<'a> = dyn FnMut(&mut Tape<'_>) -> Status + 'a;

/// What the flight record says about the test case about to run.
#[derive(Clone, Copy)]
enum Flying {
    /// Nothing (re-runs for a recording).
    Not,
    /// A random test case: its number and seed.
    Seed(u64, u64),
    /// Test case number n: its indices are traced as drawn.
    Traced(u64),
}

/// What a test case is to the statistics and the observability log.
#[derive(Clone, Copy)]
enum Kind {
    /// A saved tape replayed in the reuse phase: tallied and logged.
    Replay,
    /// The n-th counted test case of the generate phase: tallied, timed and logged.
    Test(u64),
    /// An uncounted test case of the generate phase (a warm-up): logged only.
    Warmup,
    /// A re-run to record a tape already run: neither.
    Record,
}

/// A failure waiting to be settled.
enum Pending {
    /// Found in this process: its recording.
    Here(Recording),
    /// Kills its process (a flight record of a dead run, or a regression marked `isolate`):
    /// its tape.
    Isolated(Vec<u8>),
}

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

/// Runs test cases: the subject's test with its timeout, the observer around it, the
/// flight record before it.
struct Runner<'a> {
    config: &'a Config,
    subject: &'a mut dyn Subject,
    observer: &'a mut dyn Observer,
    /// [`Observer::watches`], asked once.
    watching: bool,
    flight: Option<Flight>,
    /// Statistics or an observability log are on: each test case's notes are taken.
    collect: bool,
    stats: Option<&'a mut Statistics>,
    log: Option<&'a mut Log>,
    /// The search's name (the log's `how_generated`).
    strategy: &'static str,
}

impl Runner<'_> {
    /// Runs one test case: its status, its record (empty unless `record`) and fingerprint.
    #[inline]
    fn call(
        &mut self,
        source: &mut dyn Source,
        record: bool,
        flying: Flying,
        kind: Kind,
    ) -> (Status, Recording, u64) {
        if self.watching {
            self.observer.before();
        }
        let trace = match (&mut self.flight, flying) {
            (Some(f), Flying::Seed(n, seed)) => {
                f.begin_seed(n, seed);
                None
            }
            (Some(f), Flying::Traced(n)) => Some(f.begin_trace(n)),
            _ => None,
        };
        let mut tape = Tape::new(source, record)
            .with_max_choices(self.config.max_choices)
            .with_trace(trace);
        let status = match self.config.timeout {
            None => self.subject.run(&mut tape),
            Some(limit) => {
                let start = Instant::now();
                let status = self.subject.run(&mut tape);
                if start.elapsed() > limit {
                    Status::Interesting
                } else {
                    status
                }
            }
        };
        let fingerprint = tape.fingerprint();
        let drawn = tape.drawn();
        let recording = tape.finish();
        if let Some(f) = &mut self.flight {
            f.end();
        }
        if self.collect {
            // One branch on the hot path; the notes are taken off it.
            self.collected(kind, status, drawn);
        }
        if self.watching {
            self.observer.after(fingerprint);
        }
        (status, recording, fingerprint)
    }

    /// Tallies and logs the notes of the test case just run (statistics or observability
    /// on: off the hot path).
    #[cold]
    #[inline(never)]
    fn collected(&mut self, kind: Kind, status: Status, drawn: usize) {
        let case = events::take_case();
        let (tallied, timed, how, test) = match kind {
            Kind::Replay => (true, false, How::Replay, 0),
            Kind::Test(n) => (true, true, How::Generated(self.strategy), n),
            Kind::Warmup => (false, false, How::Generated(self.strategy), 0),
            Kind::Record => return,
        };
        if tallied && let Some(s) = self.stats.as_deref_mut() {
            s.tally(&case, drawn, timed);
        }
        if let Some(log) = self.log.as_deref_mut() {
            let utilities = super::utility::peek_utilities();
            log.test_case(how, status, &case, &utilities, drawn, test);
        }
    }

    /// The observer's characteristic of the last test case.
    #[inline]
    fn characteristic(&self, fingerprint: u64) -> u64 {
        if self.watching {
            self.observer.characteristic(fingerprint)
        } else {
            fingerprint
        }
    }

    /// The observer's features of the last test case.
    #[inline]
    fn features(&self) -> &[u64] {
        if self.watching {
            self.observer.features()
        } else {
            &[]
        }
    }

    /// Replays `replay` recording, with the utilities it reports dropped.
    fn record(&mut self, replay: &Replay) -> (Status, Recording) {
        let (status, rec, _) = self.call(&mut *replay.source(), true, Flying::Not, Kind::Record);
        super::clear_utilities();
        (status, rec)
    }

    /// The tape of a dead run's test case, recorded by the generator alone.
    fn crashed_tape(&mut self, input: &CrashedInput) -> Vec<u8> {
        let mut source: Box<dyn Source> = match input {
            CrashedInput::Seed(s) => Box::new(RandomSource::new(*s)),
            CrashedInput::Indices(i) => Box::new(ReplaySource::new(i.clone(), Fallback::Simplest)),
        };
        let mut tape = Tape::recording(&mut *source).with_max_choices(self.config.max_choices);
        self.subject.generate(&mut tape);
        encoding::encode(tape.choices())
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
///    reported in [`RunReport::warnings`] with its saved rendering and today's
///    ([`Subject::describe`]), and replayed all the same.
/// 2. **search**: proposals until `config.tests` counted test cases, `config.seconds`, a
///    failure, or the search has no more ([`RunReport::exhausted`]).
/// 3. **shrink** and **save** the failure ([`super::settle`]); with `config.save`, the
///    search's kept tapes and, for a targeted search, each utility label's best tape (when it
///    beats every replayed `corpus/` tape's) go to `corpus/`. A save that fails is counted
///    and reported ([`RunReport::save_errors`]) and the run goes on.
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
    mut corpus: Option<&mut Corpus>,
    subject: &mut dyn Subject,
    search: &mut dyn Search,
    observer: &mut dyn Observer,
) -> RunReport {
    let started = Instant::now();
    let seed = config.seed.unwrap_or_else(fresh_seed);
    let strategy = search.name();
    let name = match subject.name() {
        "" => "property".to_string(),
        n => n.to_string(),
    };
    eprintln!("tapefuzz: {name}: {strategy} run, seed {seed} (TAPEFUZZ_SEED={seed} repeats it)");
    let mut report = RunReport {
        seed,
        strategy,
        ..RunReport::default()
    };
    let mut log = config.observability.as_ref().and_then(|target| {
        match Log::open(target, &name, strategy, seed) {
            Ok(log) => Some(log),
            Err(e) => {
                let w = format!(
                    "cannot open the observability log {}: {e}; running without it",
                    super::observability::log_path(target).display()
                );
                eprintln!("tapefuzz: warning: {w}");
                report.warnings.push(w);
                None
            }
        }
    });
    if let Some(c) = corpus.as_deref_mut() {
        report
            .warnings
            .extend(super::migrate_corpus(c, &mut *subject, config.max_choices));
    }
    let mut statistics = config.stats.then(Statistics::default);
    // Events and timings are noted only from here to the end of the run.
    let _collecting = Collecting::start(config.stats, log.is_some());
    let needs_utilities = search.needs_utilities();
    let mut saw_utilities = false;
    search.start(&Start {
        seed,
        tests: config.tests,
        keep: if config.save { config.keep } else { 0 },
    });
    let mut found: Option<(Found, Pending)> = None;
    // Flight records of dead runs, settled (and removed) after the run.
    let mut crashed_paths = Vec::new();
    // The best utility of each label among the replayed `corpus/` tapes.
    let mut corpus_best: Vec<Utility> = Vec::new();
    let mut bests = Bests {
        best: Vec::new(),
        improvements: Vec::new(),
    };
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
                eprintln!("tapefuzz: warning: {w}");
                report.warnings.push(w);
                None
            }
        },
        None => None,
    };
    let watchdog = match (&flight, config.timeout) {
        (Some(f), Some(limit)) => Some(Watchdog::start(f.view(), limit, f.path().to_path_buf())),
        _ => None,
    };
    {
        let watching = observer.watches();
        let mut runner = Runner {
            config,
            subject: &mut *subject,
            observer,
            watching,
            flight,
            collect: statistics.is_some() || log.is_some(),
            stats: statistics.as_mut(),
            log: log.as_mut(),
            strategy,
        };
        let reuse_started = Instant::now();

        // Reuse: the fingerprints of the valid replayed tapes, distinct.
        let mut replayed = HashesSet::default();
        if config.reuse
            && let Some((dir, name)) = &inflight
        {
            for crashed in Flight::collect(dir, name) {
                report.replayed += 1;
                let what = if crashed.hung { "hung" } else { "crashed" };
                eprintln!(
                    "tapefuzz: test case {} of an earlier run {what}; replaying it in a process of its own ({})",
                    crashed.test,
                    crashed.path.display()
                );
                let bytes = runner.crashed_tape(&crashed.input);
                crashed_paths.push(crashed.path.clone());
                if found.is_none() {
                    found = Some((Found::Reuse(crashed.path), Pending::Isolated(bytes)));
                }
            }
        }
        if found.is_none()
            && config.reuse
            && let Some(c) = corpus.as_deref_mut()
        {
            'reuse: for folder in [Folder::Regressions, Folder::Corpus] {
                for mut entry in c.load(folder) {
                    report.replayed += 1;
                    // A regression saved before the current encoding replays as the value
                    // it was saved as.
                    entry.bytes = super::reencode(
                        &mut *runner.subject,
                        &entry.bytes,
                        entry.encoding,
                        config.max_choices,
                    );
                    if entry.regression.as_ref().is_some_and(|r| r.isolate) {
                        let isolated = runner.subject.isolated(&entry.bytes, config.timeout);
                        if isolated.is_none_or(|i| i.status == Status::Interesting) {
                            found =
                                Some((Found::Reuse(entry.path), Pending::Isolated(entry.bytes)));
                            break 'reuse;
                        }
                        passes_now(&entry, &mut report);
                        continue;
                    }
                    let (status, rec, fingerprint) = runner.call(
                        &mut BytesSource::new(&entry.bytes),
                        true,
                        Flying::Traced(0),
                        Kind::Replay,
                    );
                    if folder == Folder::Corpus && super::has_utilities() {
                        for u in super::take_utilities() {
                            note_known(&mut corpus_best, u);
                        }
                    }
                    super::clear_utilities();
                    if let Some(w) = stale(&entry, &rec, &mut *runner.subject) {
                        eprintln!("tapefuzz: warning: {w}");
                        report.warnings.push(w);
                    }
                    if status == Status::Interesting {
                        found = Some((Found::Reuse(entry.path), Pending::Here(rec)));
                        break 'reuse;
                    }
                    if folder == Folder::Regressions {
                        passes_now(&entry, &mut report);
                    }
                    if status == Status::Valid {
                        report.replayed_valid += 1;
                        replayed.insert(fingerprint);
                    }
                    search.reused(&Outcome {
                        status,
                        fingerprint,
                        recording: Some(&rec),
                        characteristic: runner.characteristic(fingerprint),
                        features: runner.features(),
                        score: None,
                        test: 0,
                    });
                }
            }
        }
        report.replayed_unique = replayed.len() as u64;
        if let Some(s) = runner.stats.as_deref_mut() {
            s.replaying = reuse_started.elapsed();
        }

        // Search.
        if found.is_none() {
            // A budget too large to represent is no deadline at all.
            let deadline = config
                .seconds
                .and_then(|s| super::seconds(s.max(0.0)))
                .and_then(|d| started.checked_add(d));
            let mut unique = HashesSet::default();
            let mut last_progress = Instant::now();
            let mut tests = 0u64;
            let (mut next_check, mut last_check) = (0u64, (Instant::now(), 0u64));
            // On a terminal the progress line is redrawn in place; elsewhere (a log, libtest's
            // captured stderr) it is one plain line a second.
            let tty = config.progress && std::io::stderr().is_terminal();
            let mut drawn_progress = false;
            super::clear_utilities();
            loop {
                if tests >= config.tests {
                    break;
                }
                if config.valid_tests.is_some_and(|v| report.valid >= v) {
                    report.stopped = Stop::ValidTests;
                    break;
                }
                if tests >= next_check {
                    let now = Instant::now();
                    if deadline.is_some_and(|d| now >= d) {
                        report.stopped = Stop::Time;
                        break;
                    }
                    // The clock is read every 64 test cases, or after every one while they
                    // take more than SLOW_TEST each (slow properties: a concurrent state
                    // machine runs its threads 64 times a test case), so a time budget is
                    // kept. The first test case is timed alone.
                    let since = tests - last_check.1;
                    let slow =
                        since == 0 || now.duration_since(last_check.0) > SLOW_TEST * since as u32;
                    last_check = (now, tests);
                    next_check = tests + if slow { 1 } else { 64 };
                    // A bar on a terminal moves four times a second; lines in a log, once.
                    let every = if tty {
                        Duration::from_millis(250)
                    } else {
                        Duration::from_secs(1)
                    };
                    if config.progress && last_progress.elapsed() >= every {
                        last_progress = Instant::now();
                        let line = super::progress::line(
                            &name,
                            config,
                            &report,
                            tests,
                            unique.len(),
                            bests.best.first().map(|(u, _)| u),
                            &*search,
                            started,
                        );
                        if tty {
                            let done = super::progress::fraction(config, tests, started.elapsed());
                            eprint!("\r\x1b[2K{}{line}", super::progress::bar(done));
                            drawn_progress = true;
                        } else {
                            eprintln!("{line}");
                        }
                    }
                }
                let Some(mut proposal) = search.propose() else {
                    report.exhausted = true;
                    report.stopped = Stop::Exhausted;
                    break;
                };
                let (record, counted) = (proposal.is_recorded(), proposal.is_counted());
                let flying = match proposal.seed() {
                    Some(s) => Flying::Seed(tests + 1, s),
                    None => Flying::Traced(tests + 1),
                };
                let kind = if counted {
                    Kind::Test(tests + 1)
                } else {
                    Kind::Warmup
                };
                let (status, rec, fingerprint) =
                    runner.call(proposal.source(), record, flying, kind);
                drop(proposal);
                if counted {
                    tests += 1;
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
                let utilities = if super::has_utilities() {
                    saw_utilities = true;
                    super::take_utilities()
                } else {
                    Vec::new()
                };
                let verdict = search.observe(&Outcome {
                    status,
                    fingerprint,
                    recording: record.then_some(&rec),
                    characteristic: runner.characteristic(fingerprint),
                    features: runner.features(),
                    score: super::total_score(&utilities),
                    test: if counted { tests } else { 0 },
                });
                if counted && !utilities.is_empty() {
                    bests.note(utilities, status, tests, || {
                        if record {
                            Some(Replay::Bytes(encoding::encode(&rec.choices)))
                        } else {
                            search.replay()
                        }
                    });
                }
                if status == Status::Interesting {
                    report.first_failure_seconds = Some(started.elapsed().as_secs_f64());
                    let rec = match (record, search.replay()) {
                        (false, Some(replay)) => runner.record(&replay).1,
                        _ => rec,
                    };
                    found = Some((Found::Generate(tests.max(1)), Pending::Here(rec)));
                    break;
                }
                if verdict == Verdict::Record
                    && !record
                    && let Some(replay) = search.replay()
                {
                    let (_, rec) = runner.record(&replay);
                    search.recorded(rec);
                }
            }
            if drawn_progress {
                eprintln!();
            }
            report.tests = tests;
            report.unique_valid = unique.len() as u64;
        }

        let finish = search.finish();
        report.stats = finish.stats;
        if let Some(note) = &finish.note {
            eprintln!("tapefuzz: {note}");
        }
        report.note = finish.note;
        // The best tape of each utility label, as bytes.
        for (utility, replay) in std::mem::take(&mut bests.best) {
            let bytes = match replay {
                Replay::Bytes(b) => b,
                other => encoding::encode(&runner.record(&other).1.choices),
            };
            report.best.push(Best { utility, bytes });
        }
        if config.save
            && let Some(c) = corpus.as_deref_mut()
        {
            let mut to_save: Vec<Vec<u8>> = Vec::new();
            if finish.keep_bests {
                for b in &report.best {
                    let known = corpus_best.iter().find(|k| k.label == b.utility.label);
                    if known.is_none_or(|k| b.utility.score() > k.score()) {
                        to_save.push(b.bytes.clone());
                    }
                }
            }
            for replay in &finish.keep {
                let (status, rec) = runner.record(replay);
                if status == Status::Valid {
                    to_save.push(encoding::encode(&rec.choices));
                }
            }
            // After a few failed saves in a row (a full disk, a folder that cannot be made)
            // the rest are not tried: each would fail the same way.
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
                        eprintln!("tapefuzz: warning: {e}");
                        report.save_errors.push(e);
                        in_a_row += 1;
                        if in_a_row == GIVE_UP && k + 1 < total {
                            let e = format!(
                                "gave up saving after {GIVE_UP} failed saves in a row: {} corpus tapes not saved",
                                total - k - 1
                            );
                            eprintln!("tapefuzz: warning: {e}");
                            report.save_errors.push(e);
                            break;
                        }
                    }
                }
            }
        }
        // Stopped before the flight record it reads goes with the runner.
        drop(watchdog);
    }
    report.improvements = bests.improvements;

    if let Some((where_found, original)) = found {
        if report.first_failure_seconds.is_none() {
            report.first_failure_seconds = Some(started.elapsed().as_secs_f64());
        }
        let save_to = if config.save {
            corpus.as_deref_mut()
        } else {
            None
        };
        let shrink_started = Instant::now();
        let mut logged;
        let subject: &mut dyn Subject = match log.as_mut() {
            Some(log) => {
                logged = Logged {
                    inner: subject,
                    log,
                };
                &mut logged
            }
            None => subject,
        };
        let failure = match original {
            Pending::Here(rec) => settle(subject, where_found, rec, config, save_to),
            Pending::Isolated(bytes) => {
                settle_isolated(subject, where_found, &bytes, config, save_to)
            }
        };
        if let Some(s) = &mut statistics {
            s.shrinking = shrink_started.elapsed();
        }
        if let Some(e) = &failure.save_error {
            let e = format!("cannot save the shrunk failure: {e}");
            eprintln!("tapefuzz: warning: {e}");
            report.save_errors.push(e);
        }
        report.failure = Some(failure);
    }
    // A dead run's record is settled: its failure is a regression now (or it did not fail
    // again, which the report says), so it is not replayed again.
    if report
        .failure
        .as_ref()
        .is_some_and(|f| f.saved.is_some() || f.flaky)
        || !config.save
    {
        for p in &crashed_paths {
            let _ = std::fs::remove_file(p);
        }
    }
    if let Some(c) = corpus {
        report.warnings.extend(c.warnings().iter().cloned());
    }
    if report.failure.is_some() {
        report.stopped = Stop::Failure;
    }
    health::check(
        &mut report,
        config,
        &Seen {
            needs_utilities,
            saw_utilities,
        },
    );
    if let Some(e) = log.and_then(|l| l.error) {
        eprintln!("tapefuzz: warning: {e}");
        report.warnings.push(e);
    }
    report.statistics = statistics;
    report.seconds = started.elapsed().as_secs_f64();
    if config.stats {
        eprint!("{}", super::render_statistics(&name, &report));
    }
    report
}

/// The warning for a regression that no longer fails.
fn passes_now(entry: &Entry, report: &mut RunReport) {
    let w = format!(
        "regression {} passes now: the bug is fixed, or the failure is flaky; once fixed, remove the file (it is replayed first on every run)",
        entry.path.display()
    );
    eprintln!("tapefuzz: warning: {w}");
    report.warnings.push(w);
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
}

/// Keeps the better of `known`'s utility for `u`'s label and `u`.
fn note_known(known: &mut Vec<Utility>, u: Utility) {
    match known.iter_mut().find(|k| k.label == u.label) {
        Some(k) if u.score() > k.score() => *k = u,
        Some(_) => {}
        None => known.push(u),
    }
}

/// The warning for a regression whose tape records another structure today than when it was
/// saved (the generator changed: a field added, a range widened, a variant added), with its
/// saved rendering and today's; `None` when it matches, or when the file says nothing (an
/// earlier layout's raw tape).
fn stale(entry: &Entry, rec: &Recording, subject: &mut dyn Subject) -> Option<String> {
    let saved = entry.regression.as_ref()?;
    let now = rec.structure();
    if saved.generator == 0 || saved.generator == now {
        return None;
    }
    let today = subject
        .describe(&entry.bytes)
        .value
        .unwrap_or_else(|| "<no value>".into());
    // Another structure that makes the same value (a tape of an older encoding, re-encoded:
    // byte vectors were collections then) is the same test case.
    if saved.value.as_deref() == Some(today.as_str()) {
        return None;
    }
    Some(format!(
        "{} was saved by another generator (structure {:016x}, now {:016x}): saved as `{}`, replays today as `{today}`; replayed anyway, but it may no longer reach the bug",
        entry.path.display(),
        saved.generator,
        now,
        saved.value.as_deref().unwrap_or("<no value>")
    ))
}
