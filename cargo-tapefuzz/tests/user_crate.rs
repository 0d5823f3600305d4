//! `cargo tapefuzz` on a user's crate, end to end: a scratch crate outside the workspace
//! (tests/demo, copied to a temporary folder, tapefuzz as a path dependency) with two test
//! files that each hold a property named `roundtrip`. It lists them, runs one, runs `ci`
//! with a JUnit report, explains a saved tape, runs the greybox engine on the other, fuzzes
//! one property with libFuzzer (a bug
//! planted by `DEMO_BUG=1`; the crash is shrunk into a regression at once), fuzzes a
//! property whose bug sits in a local dependency (instrumented by default; `--instrument
//! workspace` leaves it out), imports the crash again, and checks that `cargo test` then fails
//! first on the imported, shrunk regression, that `run` and `greybox` find the same bug from
//! nothing — and that the two properties never shared a corpus.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace root")
        .to_path_buf()
}

/// A scratch copy of the demo crate, depending on this workspace's tapefuzz.
fn scratch_crate() -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let dir = std::env::temp_dir().join(format!(
        "tapefuzz-user-crate-{}-{nanos}",
        std::process::id()
    ));
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/demo");
    for sub in ["src", "tests"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
        for e in std::fs::read_dir(demo.join(sub)).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), dir.join(sub).join(e.file_name())).unwrap();
        }
    }
    // A dependency outside the crate (a published crate stands there in real life).
    let dep = dir.with_extension("dep");
    std::fs::create_dir_all(dep.join("src")).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/demo-dep/src/lib.rs"),
        dep.join("src/lib.rs"),
    )
    .unwrap();
    std::fs::write(
        dep.join("Cargo.toml"),
        "[package]\nname = \"demo-dep\"\nversion = \"0.1.0\"\nedition = \"2024\"\n",
    )
    .unwrap();
    let manifest = format!(
        "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
         [dependencies]\ntapefuzz = {{ path = {:?} }}\ndemo-dep = {{ path = {:?} }}\n\n[workspace]\n",
        workspace().display().to_string(),
        dep.display().to_string()
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    dir
}

struct Demo {
    dir: PathBuf,
    target: PathBuf,
}

impl Demo {
    fn command(&self, program: &str, args: &[&str], bug: bool) -> Output {
        self.command_env(program, args, bug, &[])
    }

    fn command_env(&self, program: &str, args: &[&str], bug: bool, env: &[(&str, &str)]) -> Output {
        let mut cmd = Command::new(program);
        // The user's crate sees none of the `TAPEFUZZ_*` variables this test runs under.
        for (k, _) in std::env::vars_os() {
            if k.to_string_lossy().starts_with("TAPEFUZZ_") {
                cmd.env_remove(k);
            }
        }
        cmd.envs(env.iter().copied());
        cmd.args(args)
            .current_dir(&self.dir)
            // Kept between runs (and out of the source tree): the build of tapefuzz and of
            // libFuzzer is the slow part.
            .env("CARGO_TARGET_DIR", &self.target);
        if bug {
            cmd.env("DEMO_BUG", "1");
        } else {
            cmd.env_remove("DEMO_BUG");
        }
        let out = cmd.output().expect("runs");
        eprintln!(
            "$ {program} {}\n{}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    fn tapefuzz(&self, args: &[&str], bug: bool) -> Output {
        self.command(env!("CARGO_BIN_EXE_cargo-tapefuzz"), args, bug)
    }
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn a_users_crate_end_to_end() {
    let demo = Demo {
        dir: scratch_crate(),
        target: workspace().join("target").join("user-crate-test"),
    };

    // The cargo subcommand form: `cargo tapefuzz list` runs `cargo-tapefuzz tapefuzz list`.
    let list = demo.tapefuzz(&["tapefuzz", "list"], false);
    assert!(list.status.success());
    let listed = stdout(&list);
    let corpus_of = |name: &str| -> String {
        listed
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{name}\t")))
            .unwrap_or_else(|| panic!("{name} not listed in:\n{listed}"))
            .to_string()
    };
    let (c1, c2) = (corpus_of("x1::roundtrip"), corpus_of("x2::roundtrip"));
    assert_ne!(c1, c2, "same-named properties share a corpus");

    let run = demo.tapefuzz(
        &["run", "x1::roundtrip", "--tests", "500", "--seed", "3"],
        false,
    );
    assert_eq!(run.status.code(), Some(0));
    let summary: serde_json::Value = serde_json::from_str(stdout(&run).trim()).unwrap();
    assert_eq!(summary["target"], "x1::roundtrip");
    assert_eq!(summary["tests"], 500);
    assert_eq!(summary["failures"], 0);

    // A property that rejects every value fails its health check, through the CLI too.
    let rejecting = demo.command_env(
        env!("CARGO_BIN_EXE_cargo-tapefuzz"),
        &["run", "x1::roundtrip", "--tests", "300"],
        false,
        &[("DEMO_REJECT_ALL", "1")],
    );
    assert_eq!(rejecting.status.code(), Some(1));
    let err = String::from_utf8_lossy(&rejecting.stderr);
    assert!(
        err.contains("assume!") && err.contains("--strategy rl"),
        "{err}"
    );

    // An ambiguous short name is an error naming both.
    let ambiguous = demo.tapefuzz(&["run", "roundtrip"], false);
    assert_eq!(ambiguous.status.code(), Some(2));
    let err = String::from_utf8_lossy(&ambiguous.stderr);
    assert!(
        err.contains("x1::roundtrip") && err.contains("x2::roundtrip"),
        "{err}"
    );

    let junit = demo.dir.join("junit.xml");
    let ci = demo.tapefuzz(
        &[
            "ci",
            "--seconds-per-target",
            "2",
            "--junit",
            junit.to_str().unwrap(),
        ],
        false,
    );
    assert_eq!(ci.status.code(), Some(0));
    let lines: Vec<serde_json::Value> = stdout(&ci)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 5);
    assert!(
        lines
            .iter()
            .all(|l| l["strategy"] == "rl" && l["failures"] == 0)
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("tests=\"5\" failures=\"0\""), "{xml}");
    for c in [&c1, &c2] {
        let saved = std::fs::read_dir(Path::new(c).join("corpus"))
            .unwrap()
            .count();
        assert!(
            (1..=8).contains(&saved),
            "{c}: {saved} tapes (ci keeps up to 8)"
        );
    }

    let tape = std::fs::read_dir(Path::new(&c1).join("corpus"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let explain = demo.tapefuzz(&["explain", "x1::roundtrip", tape.to_str().unwrap()], false);
    assert_eq!(explain.status.code(), Some(0));
    let text = stdout(&explain);
    assert!(
        text.starts_with("value: [") && text.contains("status: passes"),
        "{text}"
    );

    // The in-process greybox engine on the same property (an instrumented build of it).
    let greybox = demo.tapefuzz(&["greybox", "x2::roundtrip", "--seconds", "1"], false);
    assert_eq!(greybox.status.code(), Some(0));
    let summary: serde_json::Value = serde_json::from_str(stdout(&greybox).trim()).unwrap();
    assert_eq!(summary["mode"], "greybox");
    assert_eq!(summary["strategy"], "greybox");
    assert!(summary["features"].as_u64().unwrap() > 0, "{summary}");

    // libFuzzer on the property itself, with the bug planted.
    let fuzz = demo.tapefuzz(&["fuzz", "x1::roundtrip", "--seconds", "10"], true);
    assert_eq!(fuzz.status.code(), Some(1), "no crash found in 10 s");
    let crashes: Vec<String> = stdout(&fuzz).lines().map(str::to_string).collect();
    assert!(!crashes.is_empty());

    // `fuzz` shrank the crash into a regression already.
    let err = String::from_utf8_lossy(&fuzz.stderr);
    assert!(err.contains("imported into"), "{err}");

    // Bugs planted in a dependency (by an environment variable), each fuzzed for at most
    // 120 s with seed 1 and `extra` libFuzzer flags: the run must end with a crash (exit 1).
    let dependency_bug = |property: &str, var: &str, extra: &[&str]| -> (String, String) {
        let mut args = vec!["fuzz", property, "--", "-max_total_time=120", "-seed=1"];
        args.extend_from_slice(extra);
        let run = demo.command_env(
            env!("CARGO_BIN_EXE_cargo-tapefuzz"),
            &args,
            false,
            &[(var, "1")],
        );
        let err = String::from_utf8_lossy(&run.stderr).into_owned();
        assert_eq!(
            run.status.code(),
            Some(1),
            "{property}: not found in 120 s: {err}"
        );
        (stdout(&run), err)
    };

    // A bug in a dependency: its code is instrumented too, so libFuzzer is guided past the
    // dependency's magic header and finds the overflow (on by default, as under cargo-fuzz).
    let (_, err) = dependency_bug("x3::in_dependency", "DEMO_DEP_BUG", &[]);
    assert!(err.contains("attempt to add with overflow"), "{err}");
    let counters = |e: &str| -> Option<u64> {
        let l = e.lines().find(|l| l.contains("inline 8-bit counters"))?;
        l.split('(').nth(1)?.split_whitespace().next()?.parse().ok()
    };
    // A reservation of gigabytes from a length field (Linux grants it untouched): found on
    // stable, with no sanitizer, by libFuzzer's allocation limit through tapefuzz's malloc
    // hooks, and saved as an `oom-` input.
    let (_, oom_err) = dependency_bug("x3::reserves", "DEMO_DEP_ALLOC", &["-malloc_limit_mb=512"]);
    assert!(oom_err.contains("out-of-memory (malloc("), "{oom_err}");
    // The `oom-` input is imported under libFuzzer's limit (its flag), shrunk and saved.
    assert!(
        oom_err.contains("in one allocation, at or over the limit of 512 MB"),
        "{oom_err}"
    );
    // The in-process greybox engine fails the same test case by its own limit (2,048 MB by
    // default, as libFuzzer's) and shrinks it there: the magic, then the smallest count
    // whose reservation reaches 2 GiB (0x8000 blocks of 64 KiB).
    let over = demo.command_env(
        env!("CARGO_BIN_EXE_cargo-tapefuzz"),
        &["greybox", "x3::reserves", "--seconds", "60", "--seed", "1"],
        false,
        &[("DEMO_DEP_ALLOC", "1")],
    );
    let over_err = String::from_utf8_lossy(&over.stderr);
    assert_eq!(over.status.code(), Some(1), "{over_err}");
    assert!(
        over_err.contains("at or over the limit of 2048 MB"),
        "{over_err}"
    );
    let summary: serde_json::Value = serde_json::from_str(stdout(&over).trim()).unwrap();
    assert_eq!(
        summary["shrunk"], "[84, 70, 90, 77, 65, 71, 73, 67, 128, 0]",
        "{summary}"
    );

    // A hang in the dependency: libFuzzer's `-timeout` fires although libFuzzer runs on a
    // test thread, and the `timeout-` input is reported (it hangs again on import, which
    // stops at the same timeout) instead of a run that never ends.
    let (hang_out, hang_err) = dependency_bug("x3::counts", "DEMO_DEP_HANG", &["-timeout=2"]);
    assert!(hang_err.contains("libFuzzer: timeout"), "{hang_err}");
    assert!(
        hang_err.contains("timed out: ran over the timeout (2s) (not shrunk, not saved"),
        "{hang_err}"
    );
    assert!(hang_out.contains("/timeout-"), "{hang_out}");

    // Narrowed to the workspace, the dependency has no counters: fewer edges.
    let narrow = demo.tapefuzz(
        &[
            "fuzz",
            "x3::in_dependency",
            "--instrument",
            "workspace",
            "--",
            "-runs=0",
        ],
        false,
    );
    let (all, workspace_only) = (
        counters(&err).expect("counters of the default build"),
        counters(&String::from_utf8_lossy(&narrow.stderr)).expect("counters of the narrow build"),
    );
    assert!(
        all > workspace_only,
        "{all} counters with the dependency, {workspace_only} without"
    );

    let mut import = vec!["import", "x1::roundtrip"];
    import.extend(crashes.iter().map(String::as_str));
    let imported = demo.tapefuzz(&import, true);
    assert_eq!(imported.status.code(), Some(0));
    let answer: serde_json::Value =
        serde_json::from_str(stdout(&imported).lines().next().unwrap()).unwrap();
    assert_eq!(answer["fails"], true);
    assert_eq!(answer["value"], "[128, 128, 128]", "not shrunk: {answer}");
    let saved = answer["saved"].as_str().unwrap();
    assert!(saved.starts_with(&format!("{c1}/regressions/")), "{saved}");

    // `cargo test` fails first on that regression (replayed before any generation).
    let test = demo.command(env!("CARGO"), &["test", "--test", "x1"], true);
    assert!(!test.status.success());
    let out = stdout(&test);
    assert!(
        out.contains(&format!("failed on saved tape {saved}"))
            && out.contains("minimal failing value: [128, 128, 128]"),
        "{out}"
    );
    // The same bug found by `run` and by `greybox` too, each searching from nothing (a
    // corpora folder of its own, so no saved regression helps): the lib + bin crate's whole
    // cycle — run, fuzz, import, a red `cargo test`, greybox — in this one test.
    for cmd in ["run", "greybox"] {
        let fresh = demo.dir.join(format!("corpora-{cmd}"));
        let found = demo.tapefuzz(
            &[
                cmd,
                "x1::roundtrip",
                "--seconds",
                "60",
                "--corpora",
                fresh.to_str().unwrap(),
            ],
            true,
        );
        let err = String::from_utf8_lossy(&found.stderr);
        assert_eq!(found.status.code(), Some(1), "{cmd}: {err}");
        assert!(
            err.contains("minimal failing value: [128, 128, 128]"),
            "{cmd}: {err}"
        );
        assert!(fresh.join("x1.roundtrip").join("regressions").is_dir());
    }

    // A test case that aborts the process: `run` replays it in a process of its own and
    // reports it shrunk, in one command.
    let aborting = demo.command_env(
        env!("CARGO_BIN_EXE_cargo-tapefuzz"),
        &["run", "x2::roundtrip", "--tests", "20000", "--seed", "1"],
        false,
        &[("DEMO_ABORT", "1")],
    );
    assert_eq!(aborting.status.code(), Some(1));
    let summary: serde_json::Value = serde_json::from_str(stdout(&aborting).trim()).unwrap();
    assert_eq!(summary["failures"], 1);
    assert_eq!(summary["shrunk"], "\"!\"", "{summary}");
    let err = String::from_utf8_lossy(&aborting.stderr);
    assert!(err.contains("killed by signal 6"), "{err}");

    // The same tape as a crash file (what `fuzz` leaves): `import` runs it in a process of
    // its own first, and shrinks and saves it from there instead of dying with it.
    let regressions = demo.dir.join("corpora/x2.roundtrip/regressions");
    let saved = std::fs::read_dir(&regressions)
        .unwrap()
        .flatten()
        .next()
        .unwrap()
        .path();
    let text = std::fs::read_to_string(&saved).unwrap();
    let tape = tapefuzz::corpus::Regression::parse(&text).unwrap().tape;
    std::fs::remove_file(&saved).unwrap();
    let crash = demo.dir.join("crash-aborts");
    std::fs::write(&crash, &tape).unwrap();
    let imported = demo.command_env(
        env!("CARGO_BIN_EXE_cargo-tapefuzz"),
        &["import", "x2::roundtrip", crash.to_str().unwrap()],
        false,
        &[("DEMO_ABORT", "1")],
    );
    let err = String::from_utf8_lossy(&imported.stderr);
    assert!(imported.status.success(), "{err}");
    assert!(err.contains("killed by signal 6"), "{err}");
    let answer: serde_json::Value = stdout(&imported)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|v| v["type"] == "import")
        .unwrap_or_else(|| panic!("no import answer: {err}"));
    let saved = std::path::PathBuf::from(answer["saved"].as_str().unwrap());
    assert!(saved.starts_with(&regressions), "{answer}");
    assert!(
        std::fs::read_to_string(&saved)
            .unwrap()
            .contains("isolate: yes"),
        "{answer}"
    );

    // Without the bugs it passes, and the regressions stay as tests.
    let fixed = demo.command(env!("CARGO"), &["test"], false);
    assert!(fixed.status.success(), "{}", stdout(&fixed));

    let _ = std::fs::remove_dir_all(&demo.dir);
    let _ = std::fs::remove_dir_all(demo.dir.with_extension("dep"));
}
