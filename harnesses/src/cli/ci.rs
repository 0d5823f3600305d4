//! `ci`: what a CI job runs on every push. For each target: reuse (`regressions/`, then all
//! of `corpus/`), then a blackbox `rl` campaign until the target's time budget is spent (the
//! budget counts from the start of the reuse phase, so a large corpus leaves less time for
//! the campaign but never makes the job longer), which saves a sample of the new unique valid
//! tapes to `corpus/`; a failure is shrunk (for at most the budget again) and saved to
//! `regressions/`. One JSON summary line per target; exit status 1 when any target failed
//! or a save failed (a corpus tape or a regression that could not be written: each is
//! reported with its path and counted in the summary's `save_errors`);
//! a JUnit XML report on request.

use super::Args;
use harnesses::{Target, property_for, targets};
use std::fmt::Write as _;
use tapefuzz::junit::{TestCase, render};
use tapefuzz::property::Report;
use tapefuzz::settings::Settings;
use tapefuzz::summary::Summary;

/// Default campaign per target, in seconds.
const SECONDS: f64 = 10.0;
/// Default cap on the unique valid tapes one target's campaign adds to `corpus/`.
const KEEP: usize = 8;

/// `ci`: see the module docs.
pub fn ci(args: &Args) -> Result<i32, String> {
    if let Some(extra) = args.positional.first() {
        return Err(format!("unexpected argument `{extra}`"));
    }
    if args.strategy.is_some()
        || args.mode.is_some()
        || args.tests.is_some()
        || args.seconds.is_some()
        || args.jobs.is_some()
        || args.utility_trace.is_some()
        || args.all
    {
        return Err("ci runs a blackbox rl campaign on every target: it takes --seconds-per-target, --keep, --seed, --bug TARGET=BUG, --corpora and --junit".into());
    }
    let seconds = args.seconds_per_target.unwrap_or(SECONDS);
    let all = targets();
    // `--bug TARGET=BUG` plants one bug in one target (a check that CI fails when it should).
    let planted: Option<(String, String)> = match args.bug.as_deref() {
        None => None,
        Some(spec) => {
            let (t, b) = spec
                .split_once('=')
                .ok_or_else(|| format!("ci takes --bug TARGET=BUG, got `{spec}`"))?;
            let target = harnesses::find(t)?;
            target.test(Some(b))?;
            Some((t.to_string(), b.to_string()))
        }
    };
    // A path that cannot be written is an error before any campaign, not after them all.
    let junit = match &args.junit {
        Some(path) => {
            let existed = path.exists();
            std::fs::OpenOptions::new()
                .append(true)
                .create(true)
                .open(path)
                .map_err(|e| format!("cannot write the JUnit report {}: {e}", path.display()))?;
            if !existed {
                let _ = std::fs::remove_file(path);
            }
            Some(path.clone())
        }
        None => None,
    };
    let mut base = Settings::from_env().map_err(|e| e.to_string())?.config;
    base.seconds = Some(seconds);
    base.tests = u64::MAX;
    base.keep = args.keep.unwrap_or(KEEP);
    base.progress = true;
    base.shrink.time = tapefuzz::engine::seconds(seconds.max(1.0)).unwrap_or_default();
    if let Some(s) = args.seed {
        base.seed = Some(s);
    }
    let started = std::time::Instant::now();
    let mut results: Vec<(&Target, Report, Summary)> = Vec::new();
    for target in &all {
        let bug = planted
            .as_ref()
            .filter(|(t, _)| t == target.name)
            .map(|(_, b)| b.as_str());
        let mut p = property_for(target, bug)?;
        if let Some(dir) = &args.corpora {
            p = p.corpora(dir);
        }
        // The campaign's settings, with what the target says about itself
        // (`Target::rarely_valid`).
        let mut config = base.clone();
        config.fail_without_valid = p.config_ref().fail_without_valid;
        let p = p
            .config(config)
            .strategy_named("rl")
            .map_err(|e| e.to_string())?;
        eprintln!(
            "tapefuzz ci: {} ({seconds}s rl campaign{})",
            target.name,
            bug.map(|b| format!(", bug {b} planted"))
                .unwrap_or_default()
        );
        let test = target.test(bug)?;
        let report = p.run_test(test.as_ref());
        eprintln!("tapefuzz: {report}");
        let summary = report.summary("rl", "blackbox");
        results.push((target, report, summary));
    }
    let failed = results.iter().filter(|(_, r, _)| !r.passed()).count();
    let save_errors: u64 = results.iter().map(|(_, _, s)| s.save_errors).sum();
    eprintln!(
        "tapefuzz ci: {} targets, {failed} failed, {} tapes added to corpora, {save_errors} saves failed, {:.1}s",
        results.len(),
        results.iter().map(|(_, _, s)| s.corpus_added).sum::<u64>(),
        started.elapsed().as_secs_f64()
    );
    if let Some(path) = junit {
        let xml = junit_xml(&results);
        tapefuzz::corpus::write_atomic(&path, xml.as_bytes())
            .map_err(|e| format!("cannot write the JUnit report {}: {e}", path.display()))?;
    }
    for (_, _, s) in &results {
        println!("{}", s.to_json());
    }
    Ok((failed > 0 || save_errors > 0) as i32)
}

/// The JUnit XML report: one test case per target, a `<failure>` with the shrunk value, the
/// message and the replay command when it failed, the JSON summary as its output.
fn junit_xml(results: &[(&Target, Report, Summary)]) -> String {
    let cases: Vec<TestCase> = results
        .iter()
        .map(|(target, report, summary)| TestCase {
            name: target.name.to_string(),
            seconds: summary.seconds,
            failure: (!report.passed()).then(|| {
                let mut body = format!(
                    "value: {}\n",
                    report.value.as_deref().unwrap_or("<no value>")
                );
                if let Some(m) = &report.message {
                    let _ = writeln!(body, "failure: {m}");
                }
                if let Some(r) = &report.replay {
                    let _ = writeln!(body, "replay: {r}");
                }
                let message = report.message.as_deref().unwrap_or("property failed");
                (message.to_string(), body)
            }),
            output: Some(summary.to_json()),
        })
        .collect();
    render("tapefuzz ci", &cases)
}
