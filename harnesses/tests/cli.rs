//! The CLI: exit statuses, one-line errors, the JSON summary, the regression flow.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tapefuzz-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn cli(corpora: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_harnesses"))
        .args(args)
        .env("TAPEFUZZ_CORPORA", corpora)
        .env_remove("TAPEFUZZ_TESTS")
        .env_remove("TAPEFUZZ_SECONDS")
        .output()
        .unwrap()
}

fn last_json(out: &Output) -> serde_json::Value {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.lines().last().unwrap_or_else(|| {
        panic!(
            "no stdout; stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    serde_json::from_str(line).unwrap()
}

#[test]
fn bad_input_gets_a_one_line_error_and_status_2() {
    let d = temp_dir("errors");
    for (args, needle) in [
        (
            vec!["run", "nope"],
            "unknown target `nope` (valid: sorted_insert",
        ),
        (
            vec!["run", "bst_insert", "--bug", "nope"],
            "(valid: duplicate, lose_right, wrong_side, crowded)",
        ),
        (
            vec!["run", "bst_insert", "--frobnicate"],
            "unknown flag `--frobnicate`",
        ),
        (
            vec!["run", "bst_insert", "--tests", "many"],
            "takes a number",
        ),
        (
            vec!["run", "bst_insert", "--strategy", "magic"],
            "unknown strategy `magic`",
        ),
        (
            vec!["explain", "bst_insert", "/no/such/file"],
            "cannot read /no/such/file",
        ),
        (
            vec!["run", "ifc", "--utility-trace", "/no/such/dir/trace.jsonl"],
            "cannot write the utility trace /no/such/dir/trace.jsonl",
        ),
        (vec!["frob"], "unknown command `frob`"),
        (vec![], "no command given"),
    ] {
        let out = cli(&d, &args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.starts_with("tapefuzz: error: ") && err.contains(needle),
            "{args:?}: {err}"
        );
    }
    let big = d.join("big");
    std::fs::write(&big, vec![1u8; 2 << 20]).unwrap();
    let out = cli(&d, &["replay", "bst_insert", big.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("over the"));
}

#[test]
fn utility_trace_has_a_line_per_new_best() {
    let d = temp_dir("trace");
    let trace = d.join("trace.jsonl");
    let args = [
        "run",
        "graph_sink",
        "--strategy",
        "sa",
        "--tests",
        "500",
        "--seed",
        "3",
    ];
    let out = cli(
        &d,
        &[&args[..], &["--utility-trace", trace.to_str().unwrap()]].concat(),
    );
    assert_eq!(out.status.code(), Some(0));
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&trace)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(!lines.is_empty());
    for pair in lines.windows(2) {
        assert!(pair[0]["test"].as_u64() < pair[1]["test"].as_u64());
        assert!(pair[0]["value"].as_f64() < pair[1]["value"].as_f64());
    }
    let last = lines.last().unwrap();
    assert_eq!(last["target"], "graph_sink");
    assert_eq!(last["label"], "utility");
    assert_eq!(last["value"], last_json(&out)["best_utility"]);
}

#[test]
fn run_prints_the_json_summary_last() {
    let d = temp_dir("json");
    let out = cli(&d, &["run", "--all", "--tests", "300", "--seed", "5"]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), harnesses::targets().len());
    for key in [
        "target",
        "strategy",
        "mode",
        "seed",
        "tests",
        "valid",
        "unique_valid",
        "failures",
        "first_failure_test",
        "seconds",
        "tests_per_second",
        "best_utility",
        "shrunk",
        "corpus_added",
    ] {
        let v: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
        assert!(v.get(key).is_some(), "missing {key}");
    }
    let v = last_json(&out);
    let last = harnesses::targets().pop().unwrap().name;
    assert_eq!(v["target"], last);
    assert_eq!(v["tests"], 300);
    assert_eq!(v["seed"], 5);
}

#[test]
fn regression_flow_through_the_cli() {
    let d = temp_dir("flow");
    // A failing run: exit 1, the shrunk value, the tape saved.
    let out = cli(
        &d,
        &["run", "sorted_insert", "--bug", "swapped", "--seed", "2"],
    );
    assert_eq!(out.status.code(), Some(1));
    let v = last_json(&out);
    assert_eq!(v["failures"], 1);
    assert_eq!(v["shrunk"], "([0], -1)");
    let reg = d.join("sorted_insert").join("regressions");
    let files: Vec<PathBuf> = std::fs::read_dir(&reg)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "replay: cargo run --release -p harnesses -- replay sorted_insert --bug swapped"
        ),
        "{err}"
    );

    // The next run fails on it first (no test generated).
    let out = cli(
        &d,
        &["run", "sorted_insert", "--bug", "swapped", "--tests", "0"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(last_json(&out)["first_failure_test"], 1);
    assert!(String::from_utf8_lossy(&out.stderr).contains("failed on saved tape"));

    // replay / explain / shrink on the file.
    let f = files[0].to_str().unwrap();
    let out = cli(&d, &["replay", "sorted_insert", "--bug", "swapped", f]);
    assert_eq!(out.status.code(), Some(1));
    let out = cli(&d, &["explain", "sorted_insert", f]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("value: ([0], -1)") && text.contains("element [0..2)"),
        "{text}"
    );
    let out = cli(&d, &["shrink", "sorted_insert", "--bug", "swapped", f]);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "([0], -1)");
    // A libFuzzer crash file through the CLI: shrunk in this process (the CLI serves it
    // in-process; only a test binary run by `cargo tapefuzz` tries a process of its own).
    let crash = d.join("crash-1");
    std::fs::write(&crash, tapefuzz::corpus::read_tape(&files[0]).unwrap()).unwrap();
    let started = std::time::Instant::now();
    let out = cli(
        &d,
        &[
            "shrink",
            "sorted_insert",
            "--bug",
            "swapped",
            crash.to_str().unwrap(),
        ],
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "([0], -1)");
    assert!(started.elapsed().as_secs() < 30, "{:?}", started.elapsed());

    // Removing the file makes the run pass again.
    let bytes = tapefuzz::corpus::read_tape(&files[0]).unwrap();
    std::fs::remove_file(&files[0]).unwrap();
    let out = cli(
        &d,
        &["run", "sorted_insert", "--bug", "swapped", "--tests", "0"],
    );
    assert_eq!(out.status.code(), Some(0));

    // Without the bug the tape is valid: a replay of the corpus counts it so, and the same
    // tape under two names once as unique, from the corpus or from the files given.
    let corpus = d.join("sorted_insert").join("corpus");
    std::fs::create_dir_all(&corpus).unwrap();
    std::fs::write(corpus.join("tape"), &bytes).unwrap();
    std::fs::write(corpus.join("again"), &bytes).unwrap();
    let counts = |out: &Output| {
        let v = last_json(out);
        [&v["tests"], &v["valid"], &v["unique_valid"]].map(|x| x.as_u64().unwrap())
    };
    let out = cli(&d, &["replay", "sorted_insert"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(counts(&out), [2, 2, 1]);
    let (a, b) = (corpus.join("tape"), corpus.join("again"));
    let out = cli(
        &d,
        &[
            "replay",
            "sorted_insert",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(counts(&out), [2, 2, 1]);
}

/// Every JSON line of stdout.
fn json_lines(out: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn ci_keeps_its_budget_and_its_corpus_cap_and_passes_without_a_bug() {
    let d = temp_dir("ci-pass");
    let junit = d.join("junit.xml");
    let targets = harnesses::targets().len();
    let started = std::time::Instant::now();
    let out = cli(
        &d,
        &[
            "ci",
            "--seconds-per-target",
            "0.3",
            "--keep",
            "3",
            "--seed",
            "5",
            "--junit",
            junit.to_str().unwrap(),
        ],
    );
    let wall = started.elapsed().as_secs_f64();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The campaigns take 0.3 s each; start-up, reuse and saving must stay small.
    assert!(
        wall < targets as f64 * 0.3 + 5.0,
        "ci took {wall:.1}s for {targets} targets"
    );
    let lines = json_lines(&out);
    assert_eq!(lines.len(), targets);
    for s in &lines {
        assert_eq!(s["strategy"], "rl");
        assert_eq!(s["failures"], 0);
        // The budget is checked between test cases: one slow case (a long list under `rl`
        // in a debug build, seen at 1.36 s for `delete` on an idle machine) may run over.
        let margin = if cfg!(debug_assertions) { 3.0 } else { 1.0 };
        assert!(s["seconds"].as_f64().unwrap() < 0.3 + margin, "{s}");
        let added = s["corpus_added"].as_u64().unwrap();
        assert!(added <= 3, "{s}");
        let name = s["target"].as_str().unwrap();
        let on_disk =
            std::fs::read_dir(d.join(name).join("corpus")).map_or(0, |r| r.count()) as u64;
        assert_eq!(on_disk, added, "{name}");
    }
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.starts_with("<?xml"));
    assert_eq!(xml.matches("<testcase ").count(), targets);
    assert!(xml.contains("failures=\"0\""));
    assert!(!xml.contains("<failure"));
    // A second run replays what the first one saved, and adds at most 3 more per target.
    let again = cli(&d, &["ci", "--seconds-per-target", "0.1", "--keep", "3"]);
    assert_eq!(again.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&again.stderr).contains("saved tapes replayed"));
    for s in json_lines(&again) {
        assert!(s["corpus_added"].as_u64().unwrap() <= 3, "{s}");
    }
}

#[test]
fn ci_fails_with_a_planted_bug_and_saves_the_regression() {
    let d = temp_dir("ci-bug");
    let junit = d.join("junit.xml");
    let out = cli(
        &d,
        &[
            "ci",
            "--seconds-per-target",
            "0.5",
            "--seed",
            "1",
            "--bug",
            "bst_valid=crowded",
            "--junit",
            junit.to_str().unwrap(),
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = json_lines(&out);
    let failed: Vec<&str> = lines
        .iter()
        .filter(|s| s["failures"] != 0)
        .map(|s| s["target"].as_str().unwrap())
        .collect();
    assert_eq!(failed, ["bst_valid"]);
    assert_eq!(
        std::fs::read_dir(d.join("bst_valid").join("regressions"))
            .unwrap()
            .count(),
        1
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert_eq!(xml.matches("<failure ").count(), 1);
    assert!(xml.contains("replay bst_valid --bug crowded"));
    // Bad --bug specs are one-line errors.
    for (spec, needle) in [
        ("crowded", "ci takes --bug TARGET=BUG"),
        ("bst_valid=nope", "unknown bug `nope`"),
        ("nope=crowded", "unknown target `nope`"),
    ] {
        let out = cli(&d, &["ci", "--bug", spec]);
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains(needle));
    }
}

#[test]
fn run_all_expects_the_demonstrations_false_by_design_and_saves_nothing_for_them() {
    let d = temp_dir("all");
    // sa falsifies graph_sink within a few thousand tests on every seed.
    let out = cli(
        &d,
        &[
            "run",
            "--all",
            "--strategy",
            "sa",
            "--tests",
            "5000",
            "--seed",
            "1",
        ],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("graph_sink: expected"), "{err}");
    assert!(!d.join("graph_sink").join("regressions").exists());
    // Asked for by name, the failure is a failure, and saved.
    let out = cli(
        &d,
        &[
            "run",
            "graph_sink",
            "--strategy",
            "sa",
            "--tests",
            "5000",
            "--seed",
            "1",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(d.join("graph_sink").join("regressions").exists());
}

/// The number after `key` in `text` (`"tests: 12, …"` → 12 for `"tests: "`).
fn number_after(text: &str, key: &str) -> u64 {
    let at = text
        .find(key)
        .unwrap_or_else(|| panic!("no `{key}` in {text}"))
        + key.len();
    text[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .unwrap_or_else(|_| panic!("no number after `{key}` in {text}"))
}

#[test]
fn stats_counts_equal_the_json_summary_replays_included() {
    let d = temp_dir("stats");
    // Tapes in corpus/ first, so that the run replays some.
    let seeded = cli(
        &d,
        &[
            "run",
            "bst_valid",
            "--strategy",
            "rl",
            "--tests",
            "300",
            "--keep",
            "5",
            "--seed",
            "1",
        ],
    );
    assert_eq!(seeded.status.code(), Some(0));
    assert!(last_json(&seeded)["corpus_added"].as_u64().unwrap() > 0);
    let out = cli(
        &d,
        &[
            "run",
            "bst_valid",
            "--tests",
            "500",
            "--seed",
            "2",
            "--stats",
        ],
    );
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    let stats = &err[err
        .find("tapefuzz: statistics of `bst_valid`")
        .unwrap_or_else(|| panic!("no statistics: {err}"))..];
    let json = last_json(&out);
    assert_eq!(number_after(stats, "  tests: "), json["tests"]);
    assert_eq!(number_after(stats, ", valid: "), json["valid"]);
    assert_eq!(number_after(stats, "unique valid: "), json["unique_valid"]);
    let replayed_at = stats.find(" saved tapes replayed").unwrap();
    let replayed: u64 = stats[..replayed_at]
        .rsplit('(')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(replayed > 0, "some tapes replayed: {stats}");
    assert_eq!(json["tests"], 500 + replayed);
    assert!(
        stats.contains("stopped by the tests budget (500 generated)"),
        "{stats}"
    );
    assert!(stats.contains("choices per test case: min "), "{stats}");
    // The report's line agrees too.
    let passed = &err[err.find("property `bst_valid` passed: ").unwrap()..];
    assert_eq!(number_after(passed, "passed: "), json["tests"]);
    assert_eq!(number_after(passed, "tests ("), json["valid"]);
    // Without --stats, no statistics.
    let quiet = cli(&d, &["run", "bst_valid", "--tests", "50"]);
    assert!(!String::from_utf8_lossy(&quiet.stderr).contains("statistics of"));
}

#[test]
fn explain_with_a_path_shows_the_provenance_of_a_part_and_writes_its_graph() {
    let d = temp_dir("explain-path");
    let tape = d.join("tape");
    // ([2, 4], 3): the elements' ints 7 (4) and 3 (2), sorted; then the number 5 (3).
    std::fs::write(&tape, [1, 0, 7, 1, 0, 3, 0, 0, 5]).unwrap();
    let f = tape.to_str().unwrap();
    // Without --path: the span tree, as before.
    let out = cli(&d, &["explain", "sorted_insert", f]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("element [0..2)") && !text.contains("part "),
        "{text}"
    );

    let (dot, svg) = (d.join("g.dot"), d.join("g.svg"));
    let out = cli(
        &d,
        &[
            "explain",
            "sorted_insert",
            "--bug",
            "swapped",
            f,
            "--path",
            ".0[1]",
            "--dot",
            dot.to_str().unwrap(),
            "--svg",
            svg.to_str().unwrap(),
        ],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for line in [
        "status: fails\n",
        "failure: not sorted: [2, 4, 3]\n",
        "part .0[1] = 4\n",
        "on the tape: .0 field [0..5), [1] element [2..4)\n",
        // Sorting: the element's value came from the first element's choice (index 7 is 4).
        "  element [0..2) at .0[0] = 2\n    #1 int 7/20000 bytes[1..3) changes it: 7->0: 2\n",
    ] {
        assert!(text.contains(line), "{line:?} in\n{text}");
    }
    let dot = std::fs::read_to_string(dot).unwrap();
    assert!(dot.contains("n0 -> n1 [label=\"made of\"]"), "{dot}");
    let svg = std::fs::read_to_string(svg).unwrap();
    assert!(
        svg.starts_with("<svg xmlns=") && svg.contains(">part .0[1]</text>"),
        "{svg}"
    );

    for (args, needle) in [
        (vec!["--path", ".0[x]"], "bad path: at byte 3 of the path"),
        (vec!["--path", ".2"], "no `.2` in the value: a tuple of 2"),
        (vec!["--svg", "x.svg"], "--dot and --svg need --path"),
        (
            vec!["--path", "", "--dot", "x.dot"],
            "--dot and --svg need --path",
        ),
        (
            vec!["--path", ".0", "--svg", "/no/such/dir/x.svg"],
            "cannot write /no/such/dir/x.svg: no folder /no/such/dir",
        ),
    ] {
        let mut all = vec!["explain", "sorted_insert", f];
        all.extend(args.iter().copied());
        let out = cli(&d, &all);
        assert!(!d.join("x.svg").exists() && !d.join("x.dot").exists());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn path_dot_and_svg_go_with_explain_only() {
    let d = temp_dir("path-flags");
    let out = cli(&d, &["replay", "sorted_insert", "--path", ".0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--path, --dot and --svg go with explain")
    );
}

/// `explain --path` on a failing stateful trace (a fixed tape of `kv_store` with
/// `stale_snapshot`): the restore's argument, its own choices and bytes, the actions it
/// depends on, and its graph; pinned.
#[test]
fn explain_points_at_an_action_of_a_failing_stateful_trace() {
    let d = temp_dir("explain-stateful");
    let tape = d.join("tape");
    // Put(0, 0), Snapshot, Put(0, 1), Restore(v0): the minimal trace of the bug.
    std::fs::write(&tape, [1, 0, 0, 0, 1, 3, 1, 0, 0, 1, 1, 4]).unwrap();
    let svg = d.join("g.svg");
    let out = cli(
        &d,
        &[
            "explain",
            "kv_store",
            "--bug",
            "stale_snapshot",
            tape.to_str().unwrap(),
            "--path",
            "[3].0",
            "--svg",
            svg.to_str().unwrap(),
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "\
status: fails
failure: step 4 (Restore(v0)): ensure_eq failed: sut.lock().map = {0: 1}, s.map = {0: 0}
part [3].0 = v0
value: 1. Put(0, 0)
2. Snapshot
3. Put(0, 1)
4. Restore(v0)
on the tape: [3] element [10..13), .0 (no span of its own)
own span: element [10..13)
  #10 more 1/1 bytes[10..11) changes it: 1->0: gone
  #11 one_of 4/4 bytes[11..12) changes it: 4->0: 0
  #12 int 0/15 bytes[12..13) past the end (no change seen)
upstream (choices outside the own span that change its value):
  element [6..10) at [2] = Put(0, 1)
    #7 one_of 0/4 bytes[7..8) changes it: 0->4: 0
exists only with (changing one of these removes the part):
  #0 more 1/1 bytes[0..1) in element [0..4): 1->0: gone
  #1 one_of 0/3 bytes[1..2) in element [0..4): 0->3: gone
  #4 more 1/1 bytes[4..5) in element [4..6): 1->0: gone
  #5 one_of 3/3 bytes[5..6) in element [4..6): 3->0: gone
  #6 more 1/1 bytes[6..7) in element [6..10): 1->0: gone
"
    );
    let svg = std::fs::read_to_string(svg).unwrap();
    for text in [
        ">part [3].0</text>",
        ">element [10..13)</text>",
        ">#11 one_of 4/4 bytes[11..12)</text>",
    ] {
        assert!(svg.contains(text), "{text} in\n{svg}");
    }
    assert!(svg.starts_with("<svg xmlns=") && svg.trim_end().ends_with("</svg>"));
}

/// Without `TAPEFUZZ_TIMEOUT_MS`, a test case that outlives the run's `--seconds` by the
/// margin is a hang: the run ends (exit 70) instead of never.
#[test]
fn a_hang_without_a_timeout_ends_within_the_budget_and_its_margin() {
    let d = temp_dir("budget-hang");
    let started = std::time::Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_harnesses"))
        .args([
            "run",
            "misbehave",
            "--bug",
            "hang",
            "--seconds",
            "1",
            "--seed",
            "1",
        ])
        .env("TAPEFUZZ_CORPORA", &d)
        .env_remove("TAPEFUZZ_TIMEOUT_MS")
        .output()
        .unwrap();
    let took = started.elapsed();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(70), "{err}");
    let bound = std::time::Duration::from_secs(1)
        + tapefuzz::engine::BUDGET_MARGIN
        + tapefuzz::engine::GRACE
        + std::time::Duration::from_secs(10);
    assert!(took < bound, "{took:?} (bound {bound:?}): {err}");
    assert!(err.contains("ran over the timeout"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}
