//! The reuse phase's work on one saved tape: re-encoded, replayed (in a process of its
//! own when marked `isolate`), told to the search; a stale or passing regression warned
//! about.

use super::runner::{Flying, Kind, Runner};
use super::{Config, Found, Observation, Report, Search, Subject, Utility};
use crate::corpus::{Entry, Folder};
use crate::tape::{BytesSource, Recording, Status};

/// A failure waiting to be settled.
pub(super) enum Pending {
    /// Found in this process: its recording.
    Here(Recording),
    /// Kills its process (a flight record of a dead run, or a regression marked `isolate`):
    /// its tape.
    Isolated(Vec<u8>),
}

/// What replaying one saved tape gave.
pub(super) enum Replayed {
    /// It failed: the failure to settle.
    Failed((Found, Pending)),
    /// It was valid, with this fingerprint.
    Valid(u64),
    /// Anything else.
    Other,
}

/// Replays one saved tape of `folder`: recorded, told to the search, a stale regression
/// warned about, a passing one noted.
pub(super) fn replay_one(
    runner: &mut Runner<'_>,
    search: &mut dyn Search,
    report: &mut Report,
    corpus_best: &mut Vec<Utility>,
    folder: Folder,
    mut entry: Entry,
) -> Replayed {
    let config = runner.config;
    // A regression saved before the current encoding replays as the value it was saved as.
    entry.bytes = super::reencode(
        &mut *runner.subject,
        &entry.bytes,
        entry.encoding,
        config.max_choices,
    );
    if entry.regression.as_ref().is_some_and(|r| r.isolate) {
        let isolated = runner.subject.isolated(&entry.bytes, config.timeout);
        if isolated.is_none_or(|i| i.status == Status::Interesting) {
            return Replayed::Failed((Found::Reuse(entry.path), Pending::Isolated(entry.bytes)));
        }
        passes_now(config, &entry, report);
        return Replayed::Other;
    }
    let (status, rec, fingerprint, _) = runner.call(
        &mut BytesSource::new(&entry.bytes),
        true,
        Flying::Traced(0),
        Kind::Replay,
    );
    if folder == Folder::Corpus && super::has_utilities() {
        for u in super::take_utilities() {
            note_known(corpus_best, u);
        }
    }
    super::clear_utilities();
    if let Some(w) = stale(&entry, &rec, &mut *runner.subject) {
        report.warn(config, w);
    }
    if status == Status::Interesting {
        return Replayed::Failed((Found::Reuse(entry.path), Pending::Here(rec)));
    }
    if folder == Folder::Regressions {
        passes_now(config, &entry, report);
    }
    if status == Status::Valid {
        report.replayed_valid += 1;
    }
    search.reused(&Observation {
        status,
        fingerprint,
        recording: Some(&rec),
        characteristic: runner.characteristic(fingerprint),
        features: runner.features(),
        score: None,
        test: 0,
    });
    if status == Status::Valid {
        Replayed::Valid(fingerprint)
    } else {
        Replayed::Other
    }
}

/// The warning for a regression that no longer fails.
fn passes_now(config: &Config, entry: &Entry, report: &mut Report) {
    let w = format!(
        "regression {} passes now: the bug is fixed, or the failure is flaky; once fixed, remove the file (it is replayed first on every run)",
        entry.path.display()
    );
    report.warn(config, w);
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
