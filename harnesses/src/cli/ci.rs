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
use harnesses::{property_for, targets};
use tapefuzz::serve::{CI_KEEP, CI_SECONDS, CI_STRATEGY, CiJob, check_junit_path};
use tapefuzz::settings::Settings;

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
    let seconds = args.seconds_per_target.unwrap_or(CI_SECONDS);
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
    if let Some(path) = &args.junit {
        check_junit_path(path)?;
    }
    let mut base = Settings::from_env().map_err(|e| e.to_string())?.config;
    base.seconds = Some(seconds);
    base.tests = u64::MAX;
    base.keep = args.keep.unwrap_or(CI_KEEP);
    base.progress = true;
    base.shrink.time = tapefuzz::engine::seconds(seconds.max(1.0)).unwrap_or_default();
    if let Some(s) = args.seed {
        base.seed = Some(s);
    }
    let mut job = CiJob::new("tapefuzz");
    let mut summaries = Vec::new();
    // Ctrl-C or the CI's SIGTERM: the running campaign stops cleanly, no new one starts.
    tapefuzz::serve::stop_cleanly_on_signals();
    for target in &all {
        if tapefuzz::engine::interrupted().is_some() {
            break;
        }
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
            .strategy_named(CI_STRATEGY)
            .map_err(|e| e.to_string())?;
        let detail = bug
            .map(|b| format!(", bug {b} planted"))
            .unwrap_or_default();
        job.starting(target.name, CI_STRATEGY, seconds, &detail);
        let test = target.test(bug)?;
        let report = p.run_test(test.as_ref());
        eprintln!("tapefuzz: {report}");
        let summary = report.summary_json(CI_STRATEGY, "blackbox");
        job.ran(target.name, &summary, report.passed(), &report.to_string());
        summaries.push(summary);
    }
    let status = job.finish(args.junit.as_deref())?;
    for s in &summaries {
        println!("{s}");
    }
    Ok(status)
}
