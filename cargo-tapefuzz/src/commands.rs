//! The commands.

use crate::args::Args;
use crate::build::{self, Build};
use crate::drive::{self, Answer, Found, Request};
use std::path::PathBuf;
use tapefuzz::serve::{
    CI_KEEP, CI_SECONDS, CI_STRATEGY, CiJob, Command as Asked, Mode, PartRequest, RUN_TESTS,
    check_junit_path,
};

fn no_more(args: &Args, n: usize, what: &str) -> Result<(), String> {
    match args.positional.get(n) {
        Some(extra) => Err(format!("unexpected argument `{extra}` ({what})")),
        None => Ok(()),
    }
}

/// `list`: one property per line: its name and corpus folder.
pub fn list(args: &Args) -> Result<i32, String> {
    no_more(args, 0, "list takes no property")?;
    let binaries = build::test_binaries(args)?;
    let found = drive::list(&binaries, &corpora_env(args))?;
    for f in &found {
        println!(
            "{}\t{}",
            f.name,
            f.corpus.as_deref().unwrap_or("(no corpus)")
        );
    }
    eprintln!("cargo-tapefuzz: {} properties", found.len());
    Ok(0)
}

/// The property named first among the arguments, in `build`'s test binaries.
fn property(args: &Args, build: Build) -> Result<Found, String> {
    let Some(name) = args.positional.first() else {
        return Err("this command needs a property name (see `cargo tapefuzz list`)".into());
    };
    let binaries = build::test_binaries(args)?;
    let all = drive::list(&binaries, &corpora_env(args))?;
    let mut found = drive::resolve(&all, name)?.clone();
    if build != Build::Plain {
        found.binary = build::instrumented(args, &found.binary, build)?;
    }
    Ok(found)
}

/// The environment that carries the flags to the property.
fn settings(args: &Args) -> Vec<(String, String)> {
    let mut env = Vec::new();
    let mut set = |k: &str, v: String| env.push((k.to_string(), v));
    if let Some(s) = &args.strategy {
        set("TAPEFUZZ_STRATEGY", s.clone());
    }
    if let Some(s) = args.seconds {
        set("TAPEFUZZ_SECONDS", s.to_string());
    }
    if let Some(t) = args.tests {
        set("TAPEFUZZ_TESTS", t.to_string());
    }
    if let Some(v) = args.valid_tests {
        set("TAPEFUZZ_VALID_TESTS", v.to_string());
    }
    if let Some(s) = args.seed {
        set("TAPEFUZZ_SEED", s.to_string());
    }
    if args.stats {
        set("TAPEFUZZ_STATS", "1".into());
    }
    if let Some(k) = args.keep {
        set("TAPEFUZZ_KEEP", k.to_string());
    }
    if let Some(ms) = args.timeout_ms {
        set("TAPEFUZZ_TIMEOUT_MS", ms.to_string());
    }
    if let Some(mb) = args.malloc_limit_mb {
        set("TAPEFUZZ_MALLOC_LIMIT_MB", mb.to_string());
    }
    if let Some(c) = &args.corpora {
        set(
            "TAPEFUZZ_CORPORA",
            drive::absolute(&c.display().to_string()),
        );
    }
    env
}

/// The environment that gives `list` the corpora folder of `--corpora`, so the folders it
/// prints are the ones the other commands use.
pub(crate) fn corpora_env(args: &Args) -> Vec<(String, String)> {
    settings(args)
        .into_iter()
        .filter(|(k, _)| k == "TAPEFUZZ_CORPORA")
        .collect()
}

/// Without a timeout of the user's (`TAPEFUZZ_TIMEOUT_MS` in the environment or among
/// `env`), a run of `seconds` gets [`tapefuzz::engine::budget_timeout`]: a test case that
/// outlives the run's budget by a margin is a hang, not a run that never ends.
fn budget_timeout(env: &mut Vec<(String, String)>, seconds: f64) {
    let set = std::env::var_os("TAPEFUZZ_TIMEOUT_MS").is_some_and(|v| !v.is_empty())
        || env.iter().any(|(k, _)| k == "TAPEFUZZ_TIMEOUT_MS");
    if !set {
        let ms = tapefuzz::engine::budget_timeout(seconds).as_millis();
        env.push(("TAPEFUZZ_TIMEOUT_MS".into(), ms.to_string()));
    }
}

/// The summary of a run: each summary line the property wrote printed on stdout (its report
/// on stderr); whether it passed, the last summary and the reports. A property that runs
/// several times in its test writes a line each time: the run failed if any of them did, or
/// if the test itself failed (libtest's status 101) after a passing summary.
fn summary(found: &Found, answer: &Answer, print: bool) -> Result<(bool, String, String), String> {
    let mut seen: Option<(bool, String, String)> = None;
    for line in &answer.lines {
        if let Some(e) = drive::error(line) {
            return Err(format!("{}: {e}", found.name));
        }
        if line["type"] != "summary" {
            continue;
        }
        let report = line["report"].as_str().unwrap_or("").to_string();
        eprintln!("cargo-tapefuzz: {report}");
        // Stopped cleanly by a signal (the test binary's own, or ours forwarded): no more
        // properties start, and the exit status says so.
        if let Some(signal) = line["interrupted"].as_i64() {
            tapefuzz::engine::interrupt(signal as i32);
        }
        if print {
            match line["line"].as_str() {
                Some(l) => println!("{l}"),
                None => println!("{}", line["summary"]),
            }
        }
        let passed = line["passed"] == true && seen.as_ref().is_none_or(|s| s.0);
        let reports = match seen {
            Some((_, _, r)) => format!("{r}\n{report}"),
            None => report,
        };
        let text = line["line"]
            .as_str()
            .map_or_else(|| line["summary"].to_string(), str::to_string);
        seen = Some((passed, text, reports));
    }
    let Some((mut passed, last, mut reports)) = seen else {
        return Err(format!(
            "{}: the test binary ended ({}) without a summary: its test never reached the property (a test that runs several properties may stop at one that `cargo tapefuzz` skipped)",
            found.name, answer.status
        ));
    };
    if passed && !answer.status.success() {
        passed = false;
        reports.push_str(&format!(
            "\nthe test of `{}` failed ({}) after the property passed: see its output above",
            found.name, answer.status
        ));
        eprintln!(
            "cargo-tapefuzz: the test of `{}` failed ({}) after the property passed",
            found.name, answer.status
        );
    }
    Ok((passed, last, reports))
}

/// Whether the test binary was killed (a signal, or an exit status that is neither
/// libtest's 0 nor 101, such as the watchdog's).
fn killed(status: &std::process::ExitStatus) -> bool {
    !matches!(status.code(), Some(0) | Some(101))
}

/// `run` and `greybox`: a campaign on one property (or each, with `--all`); one JSON summary
/// line per property on stdout.
pub fn run(args: &Args, build: Build) -> Result<i32, String> {
    let chosen: Vec<Found> = if args.all {
        no_more(args, 0, "--all takes no property")?;
        let binaries = build::test_binaries(args)?;
        let mut all = drive::list(&binaries, &corpora_env(args))?;
        if build != Build::Plain {
            for f in &mut all {
                f.binary = build::instrumented(args, &f.binary, build)?;
            }
        }
        all
    } else {
        no_more(args, 1, "run takes one property, or --all")?;
        vec![property(args, build)?]
    };
    let mut env = settings(args);
    if args.seconds.is_none() && args.tests.is_none() && args.valid_tests.is_none() {
        env.push(("TAPEFUZZ_TESTS".into(), RUN_TESTS.to_string()));
    }
    if let Some(s) = args.seconds {
        budget_timeout(&mut env, s);
    }
    let mode = if build == Build::Greybox {
        Mode::Greybox
    } else {
        Mode::Blackbox
    };
    let mut failed = false;
    let mut errors = 0;
    // Ctrl-C or a CI's SIGTERM: the test binary stops its run cleanly and writes its
    // summary, which this process stays alive to print.
    tapefuzz::serve::stop_cleanly_on_signals();
    for found in &chosen {
        if tapefuzz::engine::interrupted().is_some() {
            break;
        }
        let request = Request {
            command: Asked::Run,
            property: Some(found),
            args: Vec::new(),
            env: env.clone(),
            mode,
            part: PartRequest::default(),
        };
        let jobs = args.jobs.unwrap_or(1);
        let outcome = if jobs == 1 {
            campaign(found, &request, true)
        } else {
            campaigns(found, &request, jobs, args.seed)
        };
        match outcome {
            Ok((passed, _, _)) => failed |= !passed,
            // Stopped from outside before its summary: said, and not an error.
            Err(e) if tapefuzz::engine::interrupted().is_some() => {
                eprintln!("cargo-tapefuzz: {e}");
                break;
            }
            // One property that cannot run does not stop the others: said, and the exit
            // status is 2 at the end.
            Err(e) if chosen.len() > 1 => {
                eprintln!("cargo-tapefuzz: error: {e}");
                errors += 1;
            }
            Err(e) => return Err(e),
        }
    }
    if errors > 0 {
        eprintln!(
            "cargo-tapefuzz: {errors} of {} properties could not run (see above)",
            chosen.len()
        );
        return Ok(2);
    }
    Ok(tapefuzz::serve::exit_status(failed))
}

/// `run --jobs N`: the campaign in N test processes at once on the property's one corpus
/// folder, worker `k` with seed `seed + k` (a fresh seed when none is given) and its share of
/// a test budget (a time budget is every worker's). One summary line for them all
/// ([`merged_summary`]); passed when every worker passed, an error when one could not run.
fn campaigns(
    found: &Found,
    request: &Request<'_>,
    jobs: usize,
    seed: Option<u64>,
) -> Result<(bool, String, String), String> {
    let base = seed.unwrap_or_else(|| {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        t ^ (u64::from(std::process::id()) << 32)
    });
    eprintln!(
        "cargo-tapefuzz: {} in {jobs} processes on one corpus, seeds {base}…{}",
        found.name,
        base.wrapping_add(jobs as u64 - 1)
    );
    let worker = |k: usize| {
        let mut own = request.clone();
        own.env.retain(|(key, _)| key != "TAPEFUZZ_SEED");
        own.env.push((
            "TAPEFUZZ_SEED".into(),
            base.wrapping_add(k as u64).to_string(),
        ));
        for (key, value) in own.env.iter_mut() {
            if (key == "TAPEFUZZ_TESTS" || key == "TAPEFUZZ_VALID_TESTS")
                && let Ok(n) = value.parse::<u64>()
            {
                *value = n.div_ceil(jobs as u64).to_string();
            }
        }
        campaign(found, &own, false)
    };
    let results: Vec<Result<(bool, String, String), String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs).map(|k| scope.spawn(move || worker(k))).collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err("a worker panicked".into())))
            .collect()
    });
    // Every worker's outcome counts: one that failed is a failure even when another could
    // not finish.
    let mut passed = true;
    let mut lines = Vec::new();
    let mut reports = Vec::new();
    let mut error = None;
    for r in results {
        match r {
            Ok((p, line, report)) => {
                passed &= p;
                lines.push(line);
                reports.push(report);
            }
            Err(e) => {
                error.get_or_insert(e);
            }
        }
    }
    if lines.is_empty() {
        return Err(error.unwrap_or_else(|| "no worker ran".into()));
    }
    // The workers that finished are summed up even when another could not run.
    let line = merged_summary(&lines, base).to_string();
    println!("{line}");
    match error {
        Some(e) if passed => Err(e),
        Some(e) => {
            eprintln!("cargo-tapefuzz: {e}");
            Ok((false, line, reports.join("\n")))
        }
        None => Ok((passed, line, reports.join("\n"))),
    }
}

/// One summary line for the workers of `run --jobs N` (their summary lines, in worker
/// order; `base`: the first worker's seed): counts added up, the time the longest worker
/// took, the failure (time, test, shrunk value) of the worker that failed first, the best
/// utility;
/// `unique_valid` is the sum of the workers' own counts (a value two workers both made
/// counts twice). `jobs` says how many, and `workers` holds each worker's own line.
fn merged_summary(lines: &[String], base: u64) -> serde_json::Value {
    // A line that is not a JSON object is kept as it came, and counts for nothing.
    let workers: Vec<serde_json::Value> = lines
        .iter()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l)
                .ok()
                .filter(serde_json::Value::is_object)
                .unwrap_or_else(|| l.as_str().into())
        })
        .collect();
    let mut merged = workers
        .iter()
        .find(|w| w.is_object())
        .cloned()
        .unwrap_or_else(|| serde_json::json!({}));
    let sum = |k: &str| -> u64 { workers.iter().filter_map(|w| w[k].as_u64()).sum() };
    let fmax = |k: &str| {
        workers
            .iter()
            .filter_map(|w| w[k].as_f64())
            .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))))
    };
    for k in [
        "tests",
        "valid",
        "unique_valid",
        "failures",
        "corpus_added",
        "save_errors",
    ] {
        if workers.iter().any(|w| w[k].is_u64()) {
            merged[k] = sum(k).into();
        }
    }
    let seconds = fmax("seconds").unwrap_or(0.0);
    merged["seconds"] = seconds.into();
    merged["tests_per_second"] = if seconds > 0.0 {
        (sum("tests") as f64 / seconds).into()
    } else {
        0.0.into()
    };
    merged["best_utility"] = fmax("best_utility").into();
    // The failure of the worker that failed first (by its own clock), all from that worker.
    let at = |w: &serde_json::Value| w["first_failure_seconds"].as_f64().unwrap_or(f64::MAX);
    let failing = workers
        .iter()
        .filter(|w| w["failures"].as_u64().unwrap_or(0) > 0)
        .min_by(|a, b| at(a).total_cmp(&at(b)));
    for k in ["first_failure_seconds", "first_failure_test", "shrunk"] {
        merged[k] = failing.map_or(serde_json::Value::Null, |w| w[k].clone());
    }
    merged["seed"] = base.into();
    merged["jobs"] = workers.len().into();
    merged["workers"] = workers.into();
    merged
}

/// A `run` request and its summary. When the process dies before it writes one (a test case
/// that aborts or overflows its stack), the run is made again with no new tests: the
/// property then replays the test case in flight, which the dead run saved, in a process of
/// its own, shrinks it and reports it.
fn campaign(
    found: &Found,
    request: &Request<'_>,
    print: bool,
) -> Result<(bool, String, String), String> {
    let started = std::time::Instant::now();
    let answer = drive::drive(&found.binary, request, false)?;
    let died_after = started.elapsed().as_secs_f64();
    let died = killed(&answer.status)
        && !answer.lines.iter().any(|l| l["type"] == "summary")
        && answer.lines.iter().all(|l| drive::error(l).is_none());
    if !died {
        return summary(found, &answer, print);
    }
    if let Some(signal) = tapefuzz::engine::interrupted() {
        // Stopped from outside (a second Ctrl-C): not a test case that killed it.
        return Err(format!(
            "{}: the test binary was stopped by {} ({}) before its summary",
            found.name,
            tapefuzz::engine::signal_name(signal),
            answer.status
        ));
    }
    eprintln!(
        "cargo-tapefuzz: {}: the test binary died ({}); replaying the test case in flight in a process of its own",
        found.name, answer.status
    );
    let mut env = request.env.clone();
    env.retain(|(k, _)| k != "TAPEFUZZ_TESTS" && k != "TAPEFUZZ_SECONDS");
    env.push(("TAPEFUZZ_TESTS".into(), "0".into()));
    let again = Request {
        command: request.command,
        property: request.property,
        args: request.args.clone(),
        env,
        mode: request.mode,
        part: request.part.clone(),
    };
    let first = answer.status;
    let mut answer = drive::drive(&found.binary, &again, false)?;
    for line in &mut answer.lines {
        timed_from_first_process(line, died_after);
    }
    let (passed, last, report) = summary(found, &answer, print)?;
    if passed {
        // The replay did not find it (no corpus, so no flight record): a death is never a pass.
        let why = format!(
            "property `{}`: the test binary died ({first}) and the replay did not reproduce it (a property without a corpus keeps no record of the test case in flight)",
            found.name
        );
        eprintln!("cargo-tapefuzz: {why}");
        return Ok((false, last, format!("{why}\n{report}")));
    }
    Ok((passed, last, report))
}

/// A summary line of the run that replayed a dead process's test case, timed as the whole
/// run: the failure was known when the first process died `died_after` seconds into the run
/// (a hang: its timeout had run out), not at the replay's start, and the run lasted both.
/// The line's text keeps its fields in their order (the design page's), and the `summary`
/// object beside it gets the same figures.
fn timed_from_first_process(line: &mut serde_json::Value, died_after: f64) {
    if line["type"] != "summary" {
        return;
    }
    let Some(text) = line["line"].as_str().map(str::to_string) else {
        return;
    };
    let Ok(summary) = serde_json::from_str::<serde_json::Value>(&text) else {
        return;
    };
    if !summary["first_failure_seconds"].is_number() {
        return;
    }
    let seconds = died_after + summary["seconds"].as_f64().unwrap_or(0.0);
    let mut text = text;
    // `tests` and `tests_per_second` stay the replay's: the dead process's count is lost.
    for (key, value) in [("first_failure_seconds", died_after), ("seconds", seconds)] {
        if let Some(patched) = with_number(&text, key, value) {
            text = patched;
            if line["summary"].is_object() {
                line["summary"][key] = value.into();
            }
        }
    }
    line["line"] = text.into();
}

/// `json` (one object, compact, as serde writes it) with the number of its top-level field
/// `key` replaced by `value`; `None` when there is no such field with a number.
fn with_number(json: &str, key: &str, value: f64) -> Option<String> {
    let field = format!("\"{key}\":");
    let at = json.find(&field)?;
    let start = at + field.len();
    let len = json[start..].find([',', '}']).unwrap_or(json.len() - start);
    json[start..start + len].parse::<f64>().ok()?;
    Some(format!(
        "{}{}{}",
        &json[..start],
        serde_json::Value::from(value),
        &json[start + len..]
    ))
}

/// libFuzzer's flags that name a file or folder.
const PATH_FLAGS: [&str; 10] = [
    "-dict",
    "-artifact_prefix",
    "-exact_artifact_path",
    "-features_dir",
    "-mutation_graph_file",
    "-seed_inputs",
    "-merge_control_file",
    "-data_flow_trace",
    "-load_coverage_summary",
    "-save_coverage_summary",
];

/// One of libFuzzer's arguments after `--`, its path made absolute: the test binary runs in
/// its package's folder, not here. A corpus folder (no leading `-`) and the value of a flag
/// in [`PATH_FLAGS`] are paths (`-seed_inputs`' comma-separated files each; an `@file`
/// list too); anything else is kept as given.
fn libfuzzer_arg(arg: &str) -> String {
    if !arg.starts_with('-') {
        return drive::absolute(arg);
    }
    let Some((flag, value)) = arg.split_once('=') else {
        return arg.to_string();
    };
    if !PATH_FLAGS.contains(&flag) || value.is_empty() {
        return arg.to_string();
    }
    let value = if flag == "-seed_inputs" {
        value
            .split(',')
            .map(|v| match v.strip_prefix('@') {
                Some(list) => format!("@{}", drive::absolute(list)),
                None => drive::absolute(v),
            })
            .collect::<Vec<_>>()
            .join(",")
    } else {
        // `-artifact_prefix=dir/` keeps its trailing separator: it is a prefix.
        let slash = if value.ends_with('/') { "/" } else { "" };
        match value.trim_end_matches('/') {
            "" => value.to_string(),
            path => format!("{}{slash}", drive::absolute(path)),
        }
    };
    format!("{flag}={value}")
}

fn absolute_files(args: &Args) -> Vec<String> {
    args.positional[1..]
        .iter()
        .map(|f| drive::absolute(f))
        .collect()
}

/// The build that runs tape files: the plain one, or with `--sanitizer` the sanitized one
/// (a crash only a sanitizer sees reproduces there alone: the build `fuzz --sanitizer` found
/// it in, whose import this may be); `fuzz`'s import of its `oom-` inputs runs in the build
/// that fuzzed (its allocation limit reproduces them).
fn tape_file_build(args: &Args) -> Build {
    match args.sanitizer.as_deref() {
        _ if args.fuzz_build => Build::Fuzz,
        Some(s) if s != "none" => Build::Fuzz,
        _ => Build::Plain,
    }
}

/// `replay`: the property's regressions and corpus, or the given tape files.
pub fn replay(args: &Args) -> Result<i32, String> {
    let found = property(args, tape_file_build(args))?;
    let files = absolute_files(args);
    let request = Request {
        command: Asked::Replay,
        property: Some(&found),
        args: files.clone(),
        env: settings(args),
        mode: Mode::Blackbox,
        part: PartRequest::default(),
    };
    let answer = drive::drive(&found.binary, &request, false)?;
    if files.is_empty() {
        let (passed, _, _) = summary(&found, &answer, true)?;
        return Ok(!passed as i32);
    }
    show(&found, false).answers(
        Asked::Replay,
        &answer.lines,
        files.len(),
        &answer.status.to_string(),
    )
}

/// `cmin <property>`: the property's `corpus/` cut down to the entries that cover its tape
/// features (smallest first; a failing entry always stays; `regressions/` untouched). One
/// JSON line on stdout: entries, kept, removed, failing, features.
pub fn cmin(args: &Args) -> Result<i32, String> {
    no_more(args, 1, "cmin takes one property")?;
    let found = property(args, Build::Plain)?;
    let request = Request {
        command: Asked::Cmin,
        property: Some(&found),
        args: Vec::new(),
        env: settings(args),
        mode: Mode::Blackbox,
        part: PartRequest::default(),
    };
    let answer = drive::drive(&found.binary, &request, false)?;
    for line in &answer.lines {
        if let Some(e) = drive::error(line) {
            return Err(e.to_string());
        }
        if line["type"] == "cmin" {
            eprintln!(
                "cargo-tapefuzz: cmin {}: kept {} of {} corpus entries ({} tape features; {} failing and {} rejected kept), removed {}",
                found.name,
                line["kept"],
                line["entries"],
                line["features"],
                line["failing"],
                line["invalid"],
                line["removed"]
            );
            println!("{line}");
            return Ok(0);
        }
    }
    Err(format!(
        "the test binary gave no answer for {} ({})",
        found.name, answer.status
    ))
}

/// How this tool shows the answers of a command on tape files.
fn show(found: &Found, json_to_stderr: bool) -> tapefuzz::serve::Show<'_> {
    tapefuzz::serve::Show {
        prefix: "cargo-tapefuzz: ",
        json_to_stderr,
        corpus: found.corpus.as_deref().map(std::path::Path::new),
    }
}

/// `explain`, `shrink`, `import`: one answer per tape file.
pub fn files(args: &Args, command: &str) -> Result<i32, String> {
    if args.dot.is_some() || args.svg.is_some() {
        if command != "explain" || args.path.is_none() {
            return Err("--dot and --svg go with explain --path (the part to explain)".into());
        }
    } else if args.path.is_some() && command != "explain" {
        return Err("--path goes with explain".into());
    }
    let found = property(args, tape_file_build(args))?;
    let files = absolute_files(args);
    if files.is_empty() {
        return Err(format!("{command} needs at least one tape file"));
    }
    let asked = Asked::named(command).ok_or_else(|| format!("`{command}` is not a command"))?;
    // explain: the part and its graph files (paths made absolute: the test binary runs in
    // the crate's folder).
    let absolute = |f: &Option<PathBuf>| {
        f.as_ref()
            .map(|f| PathBuf::from(drive::absolute(&f.display().to_string())))
    };
    let part = PartRequest {
        path: args.path.clone().filter(|p| !p.is_empty()),
        dot: absolute(&args.dot),
        svg: absolute(&args.svg),
    };
    let request = Request {
        command: asked,
        property: Some(&found),
        args: files.clone(),
        env: settings(args),
        mode: Mode::Blackbox,
        part,
    };
    let answer = drive::drive(&found.binary, &request, false)?;
    show(&found, args.answers_to_stderr).answers(
        asked,
        &answer.lines,
        files.len(),
        &answer.status.to_string(),
    )
}

/// `fuzz`: libFuzzer inside the property's own test binary.
pub fn fuzz(args: &Args) -> Result<i32, String> {
    no_more(
        args,
        1,
        "fuzz takes one property; libFuzzer's flags go after `--`",
    )?;
    let found = property(args, Build::Fuzz)?;
    // A folder of this run's own: two runs at once never take each other's crashes, and a
    // crash found again (same name) is this run's crash all the same.
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let artifacts = build::target_dir(args)?
        .join("tapefuzz")
        .join("artifacts")
        .join(found.name.replace("::", "."))
        .join(format!("{}-{stamp}", std::process::id()));
    std::fs::create_dir_all(&artifacts)
        .map_err(|e| format!("cannot create {}: {e}", artifacts.display()))?;
    let jobs = args.jobs.unwrap_or(1);
    let mut flags = Vec::new();
    if let Some(s) = args.seconds {
        flags.push(format!("-max_total_time={}", s.ceil().max(1.0) as u64));
    }
    flags.extend(args.passthrough.iter().map(|f| libfuzzer_arg(f)));
    let mut env = settings(args);
    env.retain(|(k, _)| k != "TAPEFUZZ_SECONDS");
    eprintln!(
        "cargo-tapefuzz: fuzzing {} with libFuzzer{} (crashes go to {})",
        found.name,
        if jobs > 1 {
            format!(", {jobs} processes on one corpus")
        } else {
            String::new()
        },
        artifacts.display()
    );
    // One libFuzzer process per job, each in a test binary of its own, all on the property's
    // one corpus folder (libFuzzer reloads it: what one finds, the others mutate), each with
    // its own crash folder (`job-<k>/`, so two never write the same crash file at once).
    let job = |k: usize| -> Result<drive::Answer, String> {
        let folder = if jobs == 1 {
            artifacts.clone()
        } else {
            artifacts.join(format!("job-{k}"))
        };
        std::fs::create_dir_all(&folder)
            .map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
        let mut own = vec![format!("-artifact_prefix={}/", folder.display())];
        own.extend(flags.iter().cloned());
        let request = Request {
            command: Asked::Fuzz,
            property: Some(&found),
            args: own,
            env: env.clone(),
            mode: Mode::Blackbox,
            part: PartRequest::default(),
        };
        let answer = drive::drive(&found.binary, &request, false);
        // A crash ends this job: the others stop too, so it is imported now.
        if jobs > 1 && !crashes(&folder).is_empty() {
            drive::STOP_ALL.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        answer
    };
    // Ctrl-C reaches every libFuzzer process (one process group) and ends them; this one
    // stays to import what they found.
    tapefuzz::serve::stop_cleanly_on_signals();
    let answers: Vec<Result<drive::Answer, String>> = if jobs == 1 {
        vec![job(0)]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..jobs).map(|k| scope.spawn(move || job(k))).collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|_| Err("a fuzzing job panicked".into()))
                })
                .collect()
        })
    };
    // The stop was for the jobs: the import below runs test binaries of its own.
    drive::STOP_ALL.store(false, std::sync::atomic::Ordering::Relaxed);
    // Every job's outcome is read before anything is said: a job that could not run does
    // not hide the crashes of another.
    let mut ended_badly = None;
    let mut error = None;
    for answer in answers {
        match answer {
            Ok(answer) => {
                if let Some(e) = answer.lines.iter().find_map(drive::error) {
                    error.get_or_insert(e.to_string());
                }
                if !answer.status.success() {
                    ended_badly = Some(answer.status);
                }
            }
            Err(e) => {
                error.get_or_insert(e);
            }
        }
    }
    let new = crashes(&artifacts);
    if new.is_empty() {
        remove_empty_folders(&artifacts);
        if let Some(e) = error {
            return Err(e);
        }
        if tapefuzz::engine::interrupted().is_some() {
            eprintln!("cargo-tapefuzz: stopped, no crash");
            return Ok(tapefuzz::serve::exit_status(false));
        }
        if let Some(status) = ended_badly {
            return Err(format!("libFuzzer ended with {status}"));
        }
        eprintln!("cargo-tapefuzz: no crash");
        return Ok(0);
    }
    for c in &new {
        println!("{}", c.display());
    }
    let shown: Vec<String> = new.iter().map(|c| c.display().to_string()).collect();
    eprintln!(
        "cargo-tapefuzz: {} crash file(s); shrinking them into regressions (cargo tapefuzz import{} {} {})",
        new.len(),
        args.corpora
            .as_ref()
            .map(|c| format!(" --corpora {}", drive::absolute(&c.display().to_string())))
            .unwrap_or_default(),
        found.name,
        shown.join(" ")
    );
    // The crash shrunk and saved as a regression, as `import` does: `cargo test` replays it
    // (one only a sanitizer sees fails under `replay --sanitizer` alone). An `oom-` input
    // goes in the build that fuzzed, whose allocation limit reproduces it (the plain build
    // has none); the rest in the plain build, as `import` runs them.
    let (oom, rest): (Vec<String>, Vec<String>) = shown
        .into_iter()
        .partition(|c| named(std::path::Path::new(c), "oom-"));
    let mut import = args.clone();
    import.passthrough.clear();
    import.seconds = None;
    // stdout lists the crash files; the import's answers go with its report.
    import.answers_to_stderr = true;
    // A hang replays under libFuzzer's own per-input timeout (its `-timeout`, 1,200 s by
    // default), unless the environment sets one: the import reports it instead of hanging.
    if std::env::var_os("TAPEFUZZ_TIMEOUT_MS").is_none() && new.iter().any(|c| named(c, "timeout-"))
    {
        let seconds = last_flag(&args.passthrough, "-timeout=").unwrap_or(1200);
        import.timeout_ms = Some(seconds.max(1) * 1000);
    }
    if !oom.is_empty() {
        eprintln!(
            "cargo-tapefuzz: the oom- input(s) go in the build that fuzzed, under libFuzzer's allocation limit: a plain `import` has no limit, and they pass there"
        );
    }
    for (files_of, in_fuzz_build) in [(rest, false), (oom, true)] {
        if files_of.is_empty() {
            continue;
        }
        let mut import = import.clone();
        import.positional = std::iter::once(found.name.clone())
            .chain(files_of)
            .collect();
        if in_fuzz_build {
            import.fuzz_build = true;
            // libFuzzer's own allocation limit: its `-malloc_limit_mb`, or `-rss_limit_mb`
            // when that is 0 or not given, as libFuzzer does.
            if std::env::var_os("TAPEFUZZ_MALLOC_LIMIT_MB").is_none() {
                import.malloc_limit_mb = Some(libfuzzer_malloc_limit_mb(&args.passthrough));
            }
        }
        if let Err(e) = files(&import, "import") {
            eprintln!("cargo-tapefuzz: the crash could not be imported: {e}");
        }
    }
    Ok(1)
}

/// libFuzzer's allocation limit under the flags `passthrough`: the last `-malloc_limit_mb`
/// when it is not 0, else the last `-rss_limit_mb` (2,048 by default; 0: none); at most
/// `MAX_LIMIT_MB`, the most `TAPEFUZZ_MALLOC_LIMIT_MB` takes.
fn libfuzzer_malloc_limit_mb(passthrough: &[String]) -> u64 {
    use tapefuzz::allocation::{DEFAULT_LIMIT_MB, MAX_LIMIT_MB};
    let mb = match last_flag(passthrough, "-malloc_limit_mb=") {
        Some(mb) if mb > 0 => mb,
        _ => last_flag(passthrough, "-rss_limit_mb=").unwrap_or(DEFAULT_LIMIT_MB),
    };
    mb.min(MAX_LIMIT_MB)
}

/// The number of the last libFuzzer flag `prefix` (`-timeout=`) among `passthrough`.
fn last_flag(passthrough: &[String], prefix: &str) -> Option<u64> {
    passthrough
        .iter()
        .rev()
        .find_map(|a| a.strip_prefix(prefix)?.parse().ok())
}

/// Whether the file `path` names starts with `prefix` (a libFuzzer artifact's kind, `oom-`).
fn named(path: &std::path::Path, prefix: &str) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with(prefix))
}

/// The crash files libFuzzer left in `dir` and in its jobs' folders (`job-<k>/`).
fn crashes(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut v = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for path in std::fs::read_dir(&d)
            .into_iter()
            .flatten()
            .filter_map(|e| e.ok().map(|e| e.path()))
        {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if path.is_dir() && name.starts_with("job-") {
                dirs.push(path);
            } else if ["crash-", "timeout-", "oom-", "leak-"]
                .iter()
                .any(|k| name.starts_with(k))
            {
                v.push(path);
            }
        }
    }
    v.sort();
    v
}

/// Removes `dir` and its jobs' folders when they hold nothing.
fn remove_empty_folders(dir: &std::path::Path) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let _ = std::fs::remove_dir(entry.path());
    }
    let _ = std::fs::remove_dir(dir);
}

/// `ci`: reuse, then a campaign per property (rl unless `--strategy`), within
/// `--seconds-per-target` each; one JSON line per property, a JUnit report on request; exit
/// status 1 when a property failed or a save failed, 2 when a property could not run.
pub fn ci(args: &Args) -> Result<i32, String> {
    if args.seconds.is_some() || args.tests.is_some() {
        return Err("ci takes --seconds-per-target (per property), not --seconds / --tests".into());
    }
    let binaries = build::test_binaries(args)?;
    let mut all = drive::list(&binaries, &corpora_env(args))?;
    if !args.positional.is_empty() {
        let chosen: Vec<Found> = args
            .positional
            .iter()
            .map(|n| drive::resolve(&all, n).cloned())
            .collect::<Result<_, _>>()?;
        all = chosen;
    }
    if all.is_empty() {
        return Err("no properties found in the crate's tests".into());
    }
    if let Some((k, n)) = args.shard {
        // By name, so every job of a matrix splits the same list the same way.
        all.sort_by(|a, b| a.name.cmp(&b.name));
        let total = all.len();
        all = all
            .into_iter()
            .enumerate()
            .filter(|(i, _)| tapefuzz::serve::in_shard(*i, (k, n)))
            .map(|(_, f)| f)
            .collect();
        let names: Vec<&str> = all.iter().map(|f| f.name.as_str()).collect();
        eprintln!(
            "cargo-tapefuzz: shard {k}/{n}: {} of {total} properties: {}",
            all.len(),
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        );
    }
    let seconds = args.seconds_per_target.unwrap_or(CI_SECONDS);
    if let Some(path) = &args.junit {
        check_junit_path(path)?;
    }
    let mut env = settings(args);
    let strategy = args.strategy.clone().unwrap_or_else(|| CI_STRATEGY.into());
    env.retain(|(k, _)| k != "TAPEFUZZ_STRATEGY");
    env.push(("TAPEFUZZ_STRATEGY".into(), strategy.clone()));
    env.push(("TAPEFUZZ_SECONDS".into(), seconds.to_string()));
    budget_timeout(&mut env, seconds);
    if args.keep.is_none() {
        env.push(("TAPEFUZZ_KEEP".into(), CI_KEEP.to_string()));
    }
    let job = std::sync::Mutex::new(CiJob::new("cargo-tapefuzz"));
    tapefuzz::serve::stop_cleanly_on_signals();
    // `--jobs N`: N properties at a time, each in a test process of its own (the corpora
    // folder is shared: every file of a store is named by its content).
    let next = std::sync::atomic::AtomicUsize::new(0);
    let worker = || {
        loop {
            if tapefuzz::engine::interrupted().is_some() {
                return;
            }
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(found) = all.get(i) else {
                return;
            };
            let lock = || job.lock().unwrap_or_else(|e| e.into_inner());
            lock().starting(&found.name, &strategy, seconds, "");
            let request = Request {
                command: Asked::Run,
                property: Some(found),
                args: Vec::new(),
                env: env.clone(),
                mode: Mode::Blackbox,
                part: PartRequest::default(),
            };
            let started = std::time::Instant::now();
            match campaign(found, &request, true) {
                Ok((passed, line, report)) => lock().ran(&found.name, &line, passed, &report),
                // Stopped from outside before its summary: said, not counted as a failure.
                Err(e) if tapefuzz::engine::interrupted().is_some() => {
                    eprintln!("cargo-tapefuzz: {e}");
                    return;
                }
                Err(e) => lock().broke(&found.name, &e, started.elapsed().as_secs_f64()),
            }
        }
    };
    let jobs = args.jobs.unwrap_or(1).min(all.len()).max(1);
    if jobs == 1 {
        worker();
    } else {
        std::thread::scope(|scope| {
            for _ in 0..jobs {
                scope.spawn(worker);
            }
        });
    }
    job.into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .finish(args.junit.as_deref())
}

/// `merge DIR…`: every corpora folder given copied into `--corpora DEST` (default
/// `corpora` in the current folder) — what is missing, nothing overwritten
/// ([`crate::merge`]). One JSON line on stdout; exit status 1 when a name held other bytes
/// on both sides or a file could not be copied, 2 when a folder is missing.
pub fn merge(args: &Args) -> Result<i32, String> {
    if args.positional.is_empty() {
        return Err(
            "merge takes the corpora folders to merge: cargo tapefuzz merge DIR… [--corpora DEST]"
                .into(),
        );
    }
    let dest = args
        .corpora
        .clone()
        .unwrap_or_else(|| PathBuf::from("corpora"));
    // Every source checked before anything is copied: one inside another would copy itself.
    let full_dest = PathBuf::from(drive::absolute(&dest.display().to_string()));
    let full_dest = full_dest.canonicalize().unwrap_or(full_dest);
    for source in &args.positional {
        let path = std::path::Path::new(source);
        if !path.is_dir() {
            return Err(format!("{source}: not a folder"));
        }
        let full = path.canonicalize().map_err(|e| format!("{source}: {e}"))?;
        if full_dest.starts_with(&full) || full.starts_with(&full_dest) {
            return Err(format!(
                "{source} and the destination {} hold one another (choose another with --corpora DEST)",
                dest.display()
            ));
        }
    }
    let mut merged = crate::merge::Merged::default();
    for source in &args.positional {
        let source = std::path::Path::new(source);
        crate::merge::merge(source, &dest, &mut merged);
        eprintln!(
            "cargo-tapefuzz: merged {} into {}: {} copied so far, {} already there",
            source.display(),
            dest.display(),
            merged.copied,
            merged.present
        );
    }
    for c in &merged.conflicts {
        eprintln!(
            "cargo-tapefuzz: {} holds other bytes in a source: kept as it is (a damaged file?)",
            c.display()
        );
    }
    for e in &merged.errors {
        eprintln!("cargo-tapefuzz: merge: {e}");
    }
    let paths =
        |v: &[PathBuf]| -> Vec<String> { v.iter().map(|p| p.display().to_string()).collect() };
    println!(
        "{}",
        serde_json::json!({
            "type": "merge",
            "into": dest.display().to_string(),
            "copied": merged.copied,
            "present": merged.present,
            "conflicts": paths(&merged.conflicts),
            "errors": merged.errors,
        })
    );
    Ok(i32::from(
        !merged.conflicts.is_empty() || !merged.errors.is_empty(),
    ))
}

#[cfg(test)]
mod tests {
    use super::{
        libfuzzer_arg, libfuzzer_malloc_limit_mb, merged_summary, timed_from_first_process,
    };

    #[test]
    fn workers_summaries_merge_into_one() {
        let a = r#"{"target":"p","tests":10,"valid":9,"failures":1,"seconds":2.0,"first_failure_seconds":1.5,"first_failure_test":7,"shrunk":"a","best_utility":null}"#;
        let b = r#"{"target":"p","tests":30,"valid":30,"failures":1,"seconds":3.0,"first_failure_seconds":0.5,"first_failure_test":20,"shrunk":"b","best_utility":2.5}"#;
        let m = merged_summary(&[a.into(), b.into(), "not json".into()], 7);
        assert_eq!(m["tests"], 40);
        assert_eq!(m["valid"], 39);
        assert_eq!(m["failures"], 2);
        assert_eq!(m["seconds"], 3.0);
        assert_eq!(m["tests_per_second"].as_f64(), Some(40.0 / 3.0));
        // All three from the worker that failed first.
        assert_eq!(m["first_failure_seconds"], 0.5);
        assert_eq!(m["first_failure_test"], 20);
        assert_eq!(m["shrunk"], "b");
        assert_eq!(m["best_utility"], 2.5);
        assert_eq!(m["seed"], 7);
        assert_eq!(m["jobs"], 3);
        assert_eq!(m["workers"][2], "not json");
        // Nothing but text: an object all the same.
        let m = merged_summary(&["[1]".into()], 1);
        assert!(m.is_object());
        assert_eq!(m["workers"][0], "[1]");
        // No failure, zero seconds.
        let c = r#"{"tests":0,"failures":0,"seconds":0.0}"#;
        let m = merged_summary(&[c.into()], 1);
        assert_eq!(m["tests_per_second"], 0.0);
        assert!(m["shrunk"].is_null());
    }

    #[test]
    fn a_replayed_death_is_timed_from_the_first_process() {
        let inner = r#"{"target":"p","tests":73,"failures":1,"first_failure_seconds":0.001,"seconds":30.0,"tests_per_second":2.4,"x":1}"#;
        let mut line =
            serde_json::json!({"type": "summary", "line": inner, "summary": {"seconds": 30.0}});
        timed_from_first_process(&mut line, 6.5);
        // The fields keep their order.
        assert_eq!(
            line["line"],
            r#"{"target":"p","tests":73,"failures":1,"first_failure_seconds":6.5,"seconds":36.5,"tests_per_second":2.4,"x":1}"#
        );
        assert_eq!(line["summary"]["seconds"], 36.5);
        // A passing run and other lines are left alone.
        let pass = r#"{"failures":0,"first_failure_seconds":null,"seconds":1.0}"#;
        let mut line = serde_json::json!({"type": "summary", "line": pass});
        timed_from_first_process(&mut line, 6.5);
        assert_eq!(line["line"], pass);
        let mut other = serde_json::json!({"type": "answer", "line": inner});
        timed_from_first_process(&mut other, 6.5);
        assert_eq!(other["line"], inner);
    }

    #[test]
    fn malloc_limit_follows_libfuzzer() {
        let v = |a: &[&str]| -> Vec<String> { a.iter().map(|s| s.to_string()).collect() };
        assert_eq!(libfuzzer_malloc_limit_mb(&v(&[])), 2048);
        assert_eq!(libfuzzer_malloc_limit_mb(&v(&["-rss_limit_mb=300"])), 300);
        assert_eq!(
            libfuzzer_malloc_limit_mb(&v(&["-rss_limit_mb=300", "-malloc_limit_mb=512"])),
            512
        );
        assert_eq!(
            libfuzzer_malloc_limit_mb(&v(&["-malloc_limit_mb=0", "-rss_limit_mb=0"])),
            0
        );
        assert_eq!(
            libfuzzer_malloc_limit_mb(&v(&["-malloc_limit_mb=9", "-malloc_limit_mb=10"])),
            10
        );
        assert_eq!(
            libfuzzer_malloc_limit_mb(&v(&["-rss_limit_mb=99999999"])),
            1 << 20
        );
    }

    #[test]
    fn libfuzzer_paths_become_absolute() {
        let here = std::env::current_dir().unwrap();
        let abs = |p: &str| here.join(p).display().to_string();
        assert_eq!(libfuzzer_arg("seeds"), abs("seeds"));
        assert_eq!(libfuzzer_arg("/x/seeds"), "/x/seeds");
        assert_eq!(
            libfuzzer_arg("-dict=t.dict"),
            format!("-dict={}", abs("t.dict"))
        );
        assert_eq!(
            libfuzzer_arg("-artifact_prefix=out/"),
            format!("-artifact_prefix={}/", abs("out"))
        );
        assert_eq!(
            libfuzzer_arg("-seed_inputs=a,@list"),
            format!("-seed_inputs={},@{}", abs("a"), abs("list"))
        );
        assert_eq!(libfuzzer_arg("-runs=10"), "-runs=10");
        assert_eq!(libfuzzer_arg("-dict=/abs"), "-dict=/abs");
        assert_eq!(libfuzzer_arg("-artifact_prefix=/"), "-artifact_prefix=/");
    }
}
