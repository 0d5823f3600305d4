//! The laws of a search, driven through the trait as the run loop drives it.

use super::{Value, generator, replays};
use crate::engine::{Observation, Proposal, Start, Strategy, Verdict};
use crate::generators::Gen;
use crate::tape::{Choice, Recording, Reject, Source, Status, Tape};

/// What one run of a search did: per test case, its value, choices and status.
type Trace = Vec<(Result<Value, Reject>, Vec<Choice>, Status)>;

/// The suite's property: invalid (rejected) when the text is long, valid otherwise; a
/// utility of the text's length, so that targeted searches have something to climb.
fn status_of(v: &Result<Value, Reject>) -> (Status, Option<f64>) {
    match v {
        Err(r) => (r.status(), None),
        Ok(s) if s.len() > 120 => (Status::Invalid, Some(s.len() as f64)),
        Ok(s) => (Status::Valid, Some(s.len() as f64)),
    }
}

fn run(source: &mut dyn Source, record: bool) -> (Result<Value, Reject>, Recording, u64) {
    let mut tape = Tape::new(source, record);
    let v = generator().generate(&mut tape);
    let print = tape.fingerprint();
    (v, tape.finish(), print)
}

/// One run of at most `tests` test cases from `strategy`'s search with seed `seed`,
/// checking each proposal's laws as it goes.
fn trace(strategy: &dyn Strategy, seed: u64, tests: u64) -> Trace {
    let name = strategy.name();
    let mut search = strategy.search();
    search.start(&Start {
        seed,
        tests,
        keep: 4,
    });
    let mut out = Trace::new();
    let mut counted = 0;
    let mut guard = 0;
    while counted < tests {
        guard += 1;
        assert!(
            guard <= 4 * tests + 100,
            "{name} seed {seed}: proposes uncounted test cases without end"
        );
        let Some(mut p): Option<Proposal<'_>> = search.propose() else {
            break;
        };
        let (record, is_counted) = (p.is_recorded(), p.is_counted());
        let (v, rec, print) = run(p.source(), record);
        drop(p);
        let what = format!("{name} seed {seed} test {}", out.len() + 1);
        if record {
            replays(&what, &v, &rec.choices);
        }
        let (status, score) = status_of(&v);
        // One made-up feature per length of the text (an edge per length, hit once), so a
        // coverage-guided search keeps tapes and mutates them.
        let features = [(v.as_ref().map_or(0, |s| s.len() as u64) << 8)];
        let verdict = search.observe(&Observation {
            status,
            fingerprint: print,
            recording: record.then_some(&rec),
            characteristic: print,
            features: &features,
            score,
            test: if is_counted { counted + 1 } else { 0 },
        });
        let mut choices = rec.choices.clone();
        if !record {
            let replay = search
                .replay()
                .unwrap_or_else(|| panic!("{what}: unrecorded, and no replay"));
            let (w, again, again_print) = run(&mut *replay.source(), true);
            assert_eq!(w, v, "{what}: the replay gives another value");
            assert_eq!(again_print, print, "{what}: the replay draws other choices");
            replays(&what, &v, &again.choices);
            choices = again.choices.clone();
            if verdict == Verdict::Record {
                search.recorded(again);
            }
        }
        if is_counted {
            counted += 1;
        }
        out.push((v, choices, status));
    }
    let finish = search.finish();
    for (k, keep) in finish.keep.iter().enumerate() {
        let (v, rec, _) = run(&mut *keep.source(), true);
        replays(
            &format!("{name} seed {seed} kept tape {k}"),
            &v,
            &rec.choices,
        );
    }
    out
}

/// Runs the search laws on `strategy` for `cases` seeds, 200 test cases each: every
/// proposal gives a value whose choices replay ([`super::replays`]); an unrecorded one is
/// reproduced by [`crate::engine::Search::replay`] (same value, same choices); the same seed
/// gives the same test cases; uncounted test cases do not go on without end; kept tapes
/// replay.
pub fn check_search(strategy: &dyn Strategy, cases: u64) {
    for seed in 0..cases {
        let a = trace(strategy, seed, 200);
        let b = trace(strategy, seed, 200);
        assert_eq!(
            a.len(),
            b.len(),
            "{} seed {seed}: another number of test cases",
            strategy.name()
        );
        for (i, (x, y)) in a.iter().zip(&b).enumerate() {
            assert_eq!(
                x,
                y,
                "{} seed {seed} test {}: the same seed gave another test case",
                strategy.name(),
                i + 1
            );
        }
    }
}
