//! The tour: each bug's property run until it fails (the failure shrunk and saved to a
//! corpus folder), then run again, which replays the saved regression first.
//!
//! ```
//! use tapefuzz_demo::tour::{BUGS, DEFAULT_SEED, hunt};
//!
//! let scratch = tempfile::tempdir().unwrap();
//! let h = hunt(&BUGS[0], DEFAULT_SEED, scratch.path());
//! assert!(h.problems().is_empty(), "{:?}", h.problems());
//! assert_eq!(h.found.value.as_deref(), Some(BUGS[0].minimal));
//! ```

use crate::{codec, config, ranges, ring};
use std::path::Path;
use tapefuzz::engine::{Config, Found, Report};
use tapefuzz::env::Env;
use tapefuzz::prelude::*;
use tapefuzz::reporter::Reporting;
use tapefuzz::search::registry;

/// The seed of the tour when none is given: the same run, the same table, every time.
pub const DEFAULT_SEED: u64 = 1;

/// A planted bug and the property that finds it.
#[derive(Clone, Copy, Debug)]
pub struct Bug {
    /// The property's name (its corpus folder is named after it).
    pub name: &'static str,
    /// What the code under test is, in a few words.
    pub what: &'static str,
    /// The strategy that runs the property (a name of tapefuzz's registry).
    pub strategy: &'static str,
    /// The most test cases to run before giving up.
    pub tests: u64,
    /// The minimal failing value, as the report shows it (see the bug's module).
    pub minimal: &'static str,
    /// The property, run with a property's settings, on the code with its bug (`false`) or
    /// fixed (`true`).
    pub run: fn(&Property, bool) -> Report,
}

/// The bugs of the tour, in order.
pub const BUGS: [Bug; 4] = [
    Bug {
        name: "codec::rle_roundtrip",
        what: "run-length codec",
        strategy: "random",
        tests: 10_000,
        minimal: "[(0, 256)]",
        run: codec::run,
    },
    Bug {
        name: "ring::matches_model",
        what: "ring buffer",
        strategy: "random",
        tests: 10_000,
        minimal: "1. Push(0)\n2. Push(0)\n3. Push(0)\n4. Push(1)\n5. Pop",
        run: ring::run,
    },
    Bug {
        name: "config::print_parse_roundtrip",
        what: "settings parser",
        strategy: "random",
        tests: 10_000,
        minimal: r#"[("a", "\\")]"#,
        run: config::run,
    },
    Bug {
        name: "ranges::coalesce_is_canonical",
        what: "range coalescing",
        strategy: "enumerate",
        tests: 10_000,
        minimal: "[0..1, 1..2]",
        run: ranges::run,
    },
];

/// `bug`'s property with every setting given here, none read from `TAPEFUZZ_*` variables:
/// `seed`, the bug's strategy (with its default settings) and budget, the default shrink
/// budget, no corpus folder, and nothing printed (the report holds the warnings).
pub fn property(bug: &Bug, seed: u64) -> Property {
    let strategy = registry::named(bug.strategy, &Env::default())
        .unwrap_or_else(|e| panic!("{}: {e}", bug.name));
    let quiet = Config {
        reporter: Reporting::silent(),
        ..Config::default()
    };
    Property::new(bug.name)
        .config(quiet)
        .strategy_arc(strategy)
        .no_corpus()
        .seed(seed)
        .tests(bug.tests)
}

/// One bug hunted: the run that found it and the run that replayed it.
#[derive(Debug)]
pub struct Hunt {
    /// The bug.
    pub bug: &'static Bug,
    /// The first run: the failure found, shrunk and saved.
    pub found: Report,
    /// The second run, when the first found a failure: the saved regression replayed.
    pub replay: Option<Report>,
}

/// Runs `bug`'s property with `seed`, its corpus under `corpora`, then runs it again: the
/// second run replays the regression the first one saved before generating anything.
pub fn hunt(bug: &'static Bug, seed: u64, corpora: &Path) -> Hunt {
    let p = property(bug, seed).corpora(corpora);
    let found = (bug.run)(&p, false);
    let replay = found.failure.is_some().then(|| (bug.run)(&p, false));
    Hunt { bug, found, replay }
}

impl Hunt {
    /// What went wrong, if anything: the bug not found, not shrunk to its minimal value,
    /// not saved, or its saved regression not failing again when replayed.
    pub fn problems(&self) -> Vec<String> {
        let Some(failure) = &self.found.failure else {
            return vec![format!("not found in {} tests", self.found.tests)];
        };
        let mut problems = Vec::new();
        let value = self.found.value.as_deref().unwrap_or("(none)");
        if value != self.bug.minimal {
            problems.push(format!(
                "shrunk to {}, not to {}",
                one_line(value),
                one_line(self.bug.minimal)
            ));
        }
        if failure.saved.is_none() {
            let why = failure.save_error.as_deref().unwrap_or("no corpus folder");
            problems.push(format!("not saved: {why}"));
        }
        match self.replay.as_ref().and_then(|r| r.failure.as_ref()) {
            Some(f) if matches!(f.found, Found::Reuse(_)) => {
                let again = self.replay.as_ref().and_then(|r| r.value.as_deref());
                if again != Some(value) {
                    problems.push(format!(
                        "replayed as {}",
                        one_line(again.unwrap_or("(none)"))
                    ));
                }
            }
            Some(_) => problems.push("the saved regression passed; a new failure was found".into()),
            None => problems.push("the saved regression passed when replayed".into()),
        }
        problems
    }
}

/// A value on one line: a stateful trace's numbered lines (`1. Push(0)`) joined with `, `.
pub fn one_line(value: &str) -> String {
    let steps: Vec<&str> = value
        .lines()
        .map(|l| l.split_once(". ").map_or(l, |(_, step)| step))
        .collect();
    if steps.len() > 1 {
        steps.join(", ")
    } else {
        value.to_string()
    }
}

/// The hunts as a table for people: each bug, its strategy, the test that found it and
/// when, the shrink's calls, the minimal value, and whether the replay failed again.
pub fn table(hunts: &[Hunt]) -> String {
    let mut rows = vec![
        [
            "bug",
            "strategy",
            "found at",
            "after",
            "shrink",
            "minimal value",
            "replay",
        ]
        .map(String::from),
    ];
    for h in hunts {
        let failure = h.found.failure.as_ref();
        let replayed = h
            .replay
            .as_ref()
            .and_then(|r| r.failure.as_ref())
            .is_some_and(|f| matches!(f.found, Found::Reuse(_)));
        rows.push([
            format!("{} ({})", h.bug.name, h.bug.what),
            h.bug.strategy.to_string(),
            h.found
                .first_failure_test()
                .map_or("-".into(), |n| format!("test {n}")),
            h.found
                .first_failure_seconds
                .map_or("-".into(), |s| format!("{:.1} ms", s * 1e3)),
            failure.map_or("-".into(), |f| format!("{} calls", f.shrink_calls)),
            h.found.value.as_deref().map_or("-".into(), one_line),
            match (&h.replay, replayed) {
                (None, _) => "-",
                (Some(_), true) => "failed again",
                (Some(_), false) => "did NOT fail",
            }
            .to_string(),
        ]);
    }
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for (i, row) in rows.iter().enumerate() {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(cell, &w)| format!("{cell:<w$}"))
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
        if i == 0 {
            let rule: Vec<String> = widths.iter().map(|&w| "-".repeat(w)).collect();
            out.push_str(&rule.join("  "));
            out.push('\n');
        }
    }
    out
}
