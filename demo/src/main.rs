//! `cargo run --release -p tapefuzz-demo`: the tour of the planted bugs (see the library's
//! docs). Progress and the final table go to stderr; each property run prints its JSON
//! summary line on stdout. Exit status 0 when every bug was found, shrunk to its minimal
//! value, saved and replayed; 1 otherwise; 2 for bad arguments.

use std::process::ExitCode;
use std::time::Instant;
use tapefuzz_demo::tour::{self, BUGS, DEFAULT_SEED};

const HELP: &str = "\
tapefuzz-demo: finds four planted bugs with tapefuzz, shrinks each to a minimal
counterexample, saves it as a regression file in a scratch folder, and replays it.

usage: cargo run --release -p tapefuzz-demo -- [--seed N] [--keep]

  --seed N   the seed of every run (default 1: the same output every time)
  --keep     keep the scratch folder of regressions and print its path
  -h, --help this help

stdout: one JSON summary line per property run; stderr: progress and a table.
Exit status: 0 when every bug was found, shrunk, saved and replayed; 1 otherwise.";

/// What the command line asks.
struct Args {
    seed: u64,
    keep: bool,
}

fn parse_args(args: &[String]) -> Result<Option<Args>, String> {
    let mut parsed = Args {
        seed: DEFAULT_SEED,
        keep: false,
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-h" | "--help" => return Ok(None),
            "--keep" => parsed.keep = true,
            "--seed" => {
                let n = args.next().ok_or("--seed needs a number")?;
                parsed.seed = seed(n)?;
            }
            other => match other.strip_prefix("--seed=") {
                Some(n) => parsed.seed = seed(n)?,
                None => return Err(format!("unknown argument {other:?} (see --help)")),
            },
        }
    }
    Ok(Some(parsed))
}

fn seed(n: &str) -> Result<u64, String> {
    n.parse()
        .map_err(|_| format!("--seed {n:?}: expected a whole number"))
}

/// Removes the caller's `TAPEFUZZ_*` variables, saying so: the tour sets its own budgets,
/// seed, strategies and folders, and a variable of tapefuzz's protocol (`TAPEFUZZ_COMMAND`)
/// would make a run serve a request instead.
fn ignore_tapefuzz_variables() {
    for (name, _) in std::env::vars_os() {
        if name.to_string_lossy().starts_with("TAPEFUZZ_") {
            eprintln!("tapefuzz-demo: ignoring {}", name.to_string_lossy());
            // SAFETY: called first thing in `main`, before any other thread exists.
            unsafe { std::env::remove_var(&name) };
        }
    }
}

fn main() -> ExitCode {
    let started = Instant::now();
    ignore_tapefuzz_variables();
    let args: Result<Vec<String>, String> = std::env::args_os()
        .skip(1)
        .map(|a| {
            a.into_string()
                .map_err(|a| format!("argument {a:?} is not UTF-8"))
        })
        .collect();
    let args = match args.and_then(|a| parse_args(&a)) {
        Ok(Some(args)) => args,
        Ok(None) => {
            println!("{HELP}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("tapefuzz-demo: error: {e}");
            return ExitCode::from(2);
        }
    };
    let scratch = match tempfile::Builder::new().prefix("tapefuzz-demo-").tempdir() {
        Ok(dir) => dir,
        Err(e) => {
            eprintln!("tapefuzz-demo: error: cannot make a scratch folder: {e}");
            return ExitCode::FAILURE;
        }
    };
    eprintln!(
        "tapefuzz-demo: seed {}; regressions are saved under {}",
        args.seed,
        scratch.path().display()
    );

    let mut hunts = Vec::new();
    for (i, bug) in BUGS.iter().enumerate() {
        eprintln!(
            "\n[{}/{}] {}: {} ({}, up to {} tests)",
            i + 1,
            BUGS.len(),
            bug.name,
            bug.what,
            bug.strategy,
            bug.tests
        );
        let h = tour::hunt(bug, args.seed, scratch.path());
        for report in std::iter::once(&h.found).chain(&h.replay) {
            println!("{}", report.summary_json(bug.strategy, "blackbox"));
            for w in &report.warnings {
                eprintln!("      warning: {w}");
            }
        }
        narrate(&h, scratch.path(), i == 0);
        hunts.push(h);
    }

    eprintln!("\n{}", tour::table(&hunts));
    let failed: Vec<String> = hunts
        .iter()
        .flat_map(|h| {
            h.problems()
                .into_iter()
                .map(|p| format!("{}: {p}", h.bug.name))
        })
        .collect();
    if args.keep {
        eprintln!("the regressions are kept in {}", scratch.keep().display());
    }
    eprintln!(
        "tapefuzz-demo: {} in {:.2} s",
        if failed.is_empty() {
            "every bug found, shrunk, saved and replayed"
        } else {
            "FAILED"
        },
        started.elapsed().as_secs_f64()
    );
    for f in &failed {
        eprintln!("  {f}");
    }
    if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Says on stderr what the two runs of a hunt did; with `show_file`, shows the saved
/// regression file too.
fn narrate(h: &tour::Hunt, scratch: &std::path::Path, show_file: bool) {
    let Some(failure) = &h.found.failure else {
        eprintln!("      not found in {} tests", h.found.tests);
        return;
    };
    eprintln!(
        "      found at test {} after {:.1} ms: {}",
        h.found.first_failure_test().unwrap_or(0),
        h.found.first_failure_seconds.unwrap_or(0.0) * 1e3,
        h.found.message.as_deref().unwrap_or("failed")
    );
    let value = h.found.value.as_deref().unwrap_or("(none)");
    eprintln!(
        "      shrunk in {} calls to {}",
        failure.shrink_calls,
        tour::one_line(value)
    );
    if let Some(path) = &failure.saved {
        let shown = path.strip_prefix(scratch).unwrap_or(path);
        eprintln!("      saved as {}", shown.display());
        if show_file && let Ok(text) = std::fs::read_to_string(path) {
            eprintln!("      | {}", text.trim_end().replace('\n', "\n      | "));
        }
    }
    if let Some(replay) = &h.replay {
        let again = replay.value.as_deref().map_or("-".into(), tour::one_line);
        match replay.failure.as_ref().map(|f| &f.found) {
            Some(tapefuzz::engine::Found::Reuse(_)) => eprintln!(
                "      run again: the saved regression was replayed first and failed again: {again}"
            ),
            _ => eprintln!("      run again: the saved regression did NOT fail again"),
        }
    }
}
