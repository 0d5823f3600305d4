//! The commands.

use super::Args;
use harnesses::{Target, find, property_for, targets};
use tapefuzz::coverage::{CoverageObserver, Sancov, counter_count};
use tapefuzz::property::{Property, Report};
use tapefuzz::serve::{Command, PartRequest, Request, Show};
use tapefuzz::settings::Settings;

/// `list`: targets and their planted bugs.
pub fn list(args: &Args) -> Result<i32, String> {
    no_positional(args, 0)?;
    for t in targets() {
        println!("{:<16} {}", t.name, t.description);
        for (b, d) in t.bugs {
            println!("  --bug {b:<12} {d}");
        }
    }
    Ok(0)
}

fn no_positional(args: &Args, n: usize) -> Result<(), String> {
    if args.positional.len() > n {
        return Err(format!("unexpected argument `{}`", args.positional[n]));
    }
    Ok(())
}

fn property(target: &Target, args: &Args) -> Result<Property, String> {
    target.test(args.bug.as_deref())?;
    let mut p = property_for(target, args.bug.as_deref())?;
    if let Some(dir) = &args.corpora {
        p = p.corpora(dir);
    }
    let mut config = Settings::from_env().map_err(|e| e.to_string())?.config;
    // What the target says about itself stays (see `Target::rarely_valid`).
    config.fail_without_valid = p.config_ref().fail_without_valid;
    config.progress = true;
    if args.seconds.is_some() || args.tests.is_some() {
        config.seconds = args.seconds;
        config.tests = args.tests.unwrap_or(u64::MAX);
        // A test case that outlives the run's budget by a margin is a hang, also without
        // TAPEFUZZ_TIMEOUT_MS.
        if let (Some(s), None) = (args.seconds, config.timeout) {
            config.timeout = Some(tapefuzz::engine::budget_timeout(s));
        }
    } else if std::env::var_os("TAPEFUZZ_TESTS").is_none()
        && std::env::var_os("TAPEFUZZ_SECONDS").is_none()
    {
        config.tests = tapefuzz::serve::RUN_TESTS;
    }
    if let Some(s) = args.seed {
        config.seed = Some(s);
    }
    if let Some(k) = args.keep {
        config.keep = k;
    }
    // --stats adds to TAPEFUZZ_STATS; it never turns statistics off.
    config.stats |= args.stats;
    p = p.config(config);
    if let Some(name) = args.strategy.as_deref() {
        p = p.strategy_named(name).map_err(|e| e.to_string())?;
    }
    Ok(p)
}

/// Whether the run is in greybox mode (checked against the strategy).
fn check_strategy(args: &Args) -> Result<bool, String> {
    let greybox = match args.mode.as_deref() {
        None | Some("blackbox") => false,
        Some("greybox") => true,
        Some(m) => return Err(format!("unknown mode `{m}` (valid: blackbox, greybox)")),
    };
    // Every registered strategy runs in greybox mode (reading coverage through the
    // observer); the `greybox` search needs coverage, so it runs only there.
    match (args.strategy.as_deref(), greybox) {
        (None, _) => Ok(greybox),
        (Some("greybox"), false) => Err(
            "strategy `greybox` needs coverage: run it with --mode greybox (see scripts/greybox-build)"
                .into(),
        ),
        // The argument parser took only registered names.
        (Some(_), _) => Ok(greybox),
    }
}

/// `run`: reuse, generate, shrink, save for one target or all; one JSON line per target.
pub fn run(args: &Args) -> Result<i32, String> {
    let greybox = check_strategy(args)?;
    let chosen: Vec<Target> = if args.all {
        no_positional(args, 0)?;
        if args.bug.is_some() {
            return Err("--bug goes with one target, not --all".into());
        }
        targets()
    } else {
        match args.positional.as_slice() {
            [name] => vec![find(name)?],
            [] => return Err("run needs a target name or --all".into()),
            [_, extra, ..] => return Err(format!("unexpected argument `{extra}`")),
        }
    };
    // With --all, a target whose property is false by design is a demonstration: its
    // finding is expected, saved nowhere (the checked-in corpora stay as they are) and does
    // not fail the job.
    let expected = |t: &Target| args.all && t.false_by_design.is_some();
    let props: Vec<Property> = chosen
        .iter()
        .map(|t| {
            let p = property(t, args)?;
            Ok::<_, String>(if expected(t) {
                let mut config = p.config_ref().clone();
                config.save = false;
                p.config(config)
            } else {
                p
            })
        })
        .collect::<Result<_, _>>()?;
    if greybox {
        return run_greybox(args, &chosen, &props);
    }
    // Opened before the campaign, so that a bad path costs nothing.
    let trace_file = match &args.utility_trace {
        Some(path) => Some((
            path,
            std::fs::File::create(path)
                .map_err(|e| format!("cannot write the utility trace {}: {e}", path.display()))?,
        )),
        None => None,
    };
    let jobs = args.jobs.unwrap_or(1).min(chosen.len()).max(1);
    let bug = args.bug.clone();
    // Ctrl-C or a CI's SIGTERM: the running targets stop cleanly, no new one starts.
    tapefuzz::serve::stop_cleanly_on_signals();
    let run_one = |k: usize| -> Option<(String, bool, String)> {
        if tapefuzz::engine::interrupted().is_some() {
            return None;
        }
        let target = &chosen[k];
        eprintln!("tapefuzz: running {}", target.name);
        let test = target.test(bug.as_deref()).expect("bug name checked");
        let report = props[k].run_test(test.as_ref());
        print_report(&report);
        let strategy = report.strategy;
        let trace = utility_trace(target.name, strategy, &report.improvements);
        let mut passed = report.passed();
        if let (false, Some(why)) = (passed, target.false_by_design.filter(|_| expected(target))) {
            eprintln!(
                "tapefuzz: {}: expected — its property is false by design ({why}); nothing saved, the job does not fail on it",
                target.name
            );
            passed = true;
        }
        Some((report.summary_json(strategy, "blackbox"), passed, trace))
    };
    let results: Vec<(String, bool, String)> = if jobs == 1 {
        (0..chosen.len()).map_while(run_one).collect()
    } else {
        let next = std::sync::atomic::AtomicUsize::new(0);
        let slots: Vec<std::sync::Mutex<Option<(String, bool, String)>>> = (0..chosen.len())
            .map(|_| std::sync::Mutex::new(None))
            .collect();
        std::thread::scope(|s| {
            for _ in 0..jobs {
                s.spawn(|| {
                    loop {
                        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if k >= chosen.len() {
                            break;
                        }
                        *slots[k].lock().unwrap() = run_one(k);
                    }
                });
            }
        });
        // A target that never started (the run was interrupted) has no summary.
        slots
            .into_iter()
            .filter_map(|m| m.into_inner().unwrap())
            .collect()
    };
    let mut failed = false;
    for (summary, passed, _) in &results {
        println!("{summary}");
        failed |= !passed;
    }
    if let Some((path, mut file)) = trace_file {
        let text: String = results.iter().map(|(_, _, t)| t.as_str()).collect();
        std::io::Write::write_all(&mut file, text.as_bytes())
            .map_err(|e| format!("cannot write the utility trace {}: {e}", path.display()))?;
    }
    Ok(tapefuzz::serve::exit_status(failed))
}

/// `run --utility-trace`: one JSON line per new best of a utility label.
fn utility_trace(
    target: &str,
    strategy: &str,
    improvements: &[tapefuzz::engine::Improvement],
) -> String {
    let mut out = String::new();
    for i in improvements {
        let line = serde_json::json!({
            "target": target,
            "strategy": strategy,
            "test": i.test,
            "label": i.label,
            "value": i.value,
        });
        out.push_str(&line.to_string());
        out.push('\n');
    }
    out
}

/// `run --mode greybox`: the in-process coverage-guided loop over each chosen target in
/// turn (the counters are global to the process, so one target at a time).
fn run_greybox(args: &Args, chosen: &[Target], props: &[Property]) -> Result<i32, String> {
    if args.jobs.is_some_and(|j| j > 1) {
        return Err("--mode greybox runs one target at a time (no --jobs)".into());
    }
    let Some(mut coverage) = Sancov::new() else {
        return Err("this binary has no coverage counters: build it with scripts/greybox-build and run the binary it prints".into());
    };
    let mut summaries = Vec::new();
    let mut failed = false;
    tapefuzz::serve::stop_cleanly_on_signals();
    for (target, p) in chosen.iter().zip(props) {
        if tapefuzz::engine::interrupted().is_some() {
            break;
        }
        // The coverage-guided search unless --strategy says otherwise (rl: rewarded by new
        // coverage traces, paper 002 §5.3).
        let p = if args.strategy.is_none() {
            p.clone()
                .strategy_named("greybox")
                .map_err(|e| e.to_string())?
        } else {
            p.clone()
        };
        let strategy = p.strategy_ref().name();
        eprintln!(
            "tapefuzz: running {} ({strategy}, greybox, {} counters)",
            target.name,
            counter_count()
        );
        let test = target.test(args.bug.as_deref())?;
        let report = p.run_test_observed(test.as_ref(), &mut CoverageObserver::new(&mut coverage));
        print_report(&report);
        let r = &report;
        let stat = |name: &str| r.stat(name).unwrap_or(0);
        let found = r
            .first_failure_seconds
            .map(|s| format!("; failure found after {s:.3}s"))
            .unwrap_or_default();
        eprintln!(
            "tapefuzz: greybox {strategy}: {} features on {} edges, {} tapes kept, {} distinct coverage traces of valid inputs, {} saved to corpus/{found}",
            stat("features"),
            stat("edges"),
            stat("kept"),
            stat("characteristics"),
            r.corpus_added
        );
        failed |= !report.passed();
        summaries.push(report.summary_json(strategy, "greybox"));
    }
    for s in &summaries {
        println!("{s}");
    }
    Ok(tapefuzz::serve::exit_status(failed))
}

fn print_report(report: &Report) {
    eprintln!("tapefuzz: {report}");
}

/// A command on the tape files given after the target name (`replay [FILE…]`, `shrink`,
/// `import`, `explain`), served by the library as `cargo tapefuzz` has it served in a test
/// binary, and shown the same way.
fn on_files(args: &Args, command: Command, part: PartRequest) -> Result<i32, String> {
    let what = command.name();
    let Some((name, files)) = args.positional.split_first() else {
        return Err(format!("{what} needs a target name"));
    };
    let target = find(name)?;
    let test = target.test(args.bug.as_deref())?;
    if files.is_empty() && command != Command::Replay {
        return Err(format!("{what} needs at least one FILE"));
    }
    let mut p = property(&target, args)?;
    if files.is_empty() {
        // The saved tapes only: nothing generated.
        let mut config = p.config_ref().clone();
        config.tests = 0;
        config.seconds = None;
        p = p.config(config);
    }
    let request = Request {
        command: Some(command),
        property: Some(p.name().to_string()),
        args: files.to_vec(),
        part,
        ..Request::default()
    };
    let lines = tapefuzz::serve::answer(&request, &p, test.as_ref())?;
    let corpus = p.corpus_dir();
    let show = Show {
        prefix: "tapefuzz: ",
        json_to_stderr: false,
        corpus: corpus.as_deref(),
    };
    show.answers(command, &lines, files.len(), "in-process")
}

/// `replay`: the target's regressions and corpus, or the given files.
pub fn replay(args: &Args) -> Result<i32, String> {
    on_files(args, Command::Replay, PartRequest::default())
}

/// `shrink`: shrinks each failing tape and prints its minimal value (saves nothing).
pub fn shrink(args: &Args) -> Result<i32, String> {
    on_files(args, Command::Shrink, PartRequest::default())
}

/// `import`: shrinks crashes found by libFuzzer (tape files) with the tape shrinker and
/// stores them in `regressions/`; one line per file on stderr, its JSON answer and the
/// summary on stdout.
pub fn import(args: &Args) -> Result<i32, String> {
    // The bug a fuzz run planted through the environment, unless --bug says otherwise.
    let mut args = args.clone();
    if args.bug.is_none() {
        args.bug = std::env::var("TAPEFUZZ_BUG").ok().filter(|b| !b.is_empty());
    }
    on_files(&args, Command::Import, PartRequest::default())
}

/// `explain`: the value, its status, and the span tree with the choices under each span;
/// with `--path`, the provenance of that part (and its graph in `--dot` / `--svg` files).
pub fn explain(args: &Args) -> Result<i32, String> {
    let part = PartRequest {
        // As for `cargo tapefuzz` (TAPEFUZZ_EXPLAIN_PATH), an empty path is no path.
        path: args.path.clone().filter(|p| !p.is_empty()),
        dot: args.dot.clone(),
        svg: args.svg.clone(),
    };
    if part.path.is_none() && part.graphs() {
        return Err("--dot and --svg need --path (the part to explain)".into());
    }
    on_files(args, Command::Explain, part)
}
