//! A CI matrix on one machine: a scratch crate with eight properties (four with a bug), `cargo
//! tapefuzz ci --shard K/4` in four processes at once, each on a corpora folder of its own;
//! every property ran in exactly one shard, `merge` unites the four folders with no conflict
//! and nothing lost, `cargo test` then fails first on every regression a shard saved, and
//! `cmin` cuts a merged corpus down without losing a tape feature or a failing entry, and
//! `run --jobs 2` runs one property in two processes on that corpus. The
//! wall time of the four shards against one job over all eight is printed (BENCHMARKS.md).

mod common;

use common::{files, workspace};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Instant;

/// Eight properties: `p0`…`p7`; the odd ones fail on a value of 100 or more.
const PROPS: &str = r#"use tapefuzz::prelude::*;

fn holds(bug: bool, v: &[u32]) -> bool {
    !bug || v.iter().all(|&x| x < 100)
}

tapefuzz::property! {
    fn p0(v in vecs(ints::<u32>(0..=1000), 0..=8)) { assert!(holds(false, &v)); }
    fn p1(v in vecs(ints::<u32>(0..=1000), 0..=8)) { assert!(holds(true, &v)); }
    fn p2(v in vecs(ints::<u32>(0..=1000), 0..=8)) { assert!(holds(false, &v)); }
    fn p3(v in vecs(ints::<u32>(0..=1000), 0..=8)) { assert!(holds(true, &v)); }
    fn p4(v in vecs(ints::<u32>(0..=1000), 0..=8)) { assert!(holds(false, &v)); }
    fn p5(v in vecs(ints::<u32>(0..=1000), 0..=8)) { assert!(holds(true, &v)); }
    fn p6(v in vecs(ints::<u32>(0..=1000), 0..=8)) { assert!(holds(false, &v)); }
    fn p7(v in vecs(ints::<u32>(0..=1000), 0..=8)) { assert!(holds(true, &v)); }
}
"#;

fn scratch_crate() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tapefuzz-shards-{}", std::process::id()));
    common::props_crate(&dir, "sharded", PROPS)
}

fn command(dir: &Path, program: &str, args: &[&str]) -> Command {
    let mut cmd = Command::new(program);
    for (k, _) in std::env::vars_os() {
        if k.to_string_lossy().starts_with("TAPEFUZZ_") {
            cmd.env_remove(k);
        }
    }
    cmd.args(args)
        .current_dir(dir)
        .env(
            "CARGO_TARGET_DIR",
            workspace().join("target").join("shards-test"),
        )
        .env("RUST_BACKTRACE", "0");
    cmd
}

fn tapefuzz(dir: &Path, args: &[&str]) -> Command {
    let mut all = vec!["tapefuzz"];
    all.extend_from_slice(args);
    command(dir, env!("CARGO_BIN_EXE_cargo-tapefuzz"), &all)
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The `target` of every JSON summary line on `stdout`.
fn targets(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v["target"].as_str().map(String::from))
        .collect()
}

#[test]
fn four_shards_at_once_merge_into_one_corpus() {
    let dir = scratch_crate();
    let build = command(&dir, "cargo", &["test", "--no-run", "--quiet"])
        .output()
        .unwrap();
    assert!(build.status.success(), "{}", text(&build).1);
    let ci = |shard: Option<&str>, corpora: &str| {
        let mut args = vec![
            "ci",
            "--seconds-per-target",
            "1",
            "--seed",
            "3",
            "--corpora",
            corpora,
        ];
        if let Some(s) = shard {
            args.extend(["--shard", s]);
        }
        let mut c = tapefuzz(&dir, &args);
        c.stdout(Stdio::piped()).stderr(Stdio::piped());
        c
    };

    // One job over the eight properties, for the time.
    let started = Instant::now();
    let one = ci(None, "one").output().unwrap();
    let one_seconds = started.elapsed().as_secs_f64();
    assert_eq!(one.status.code(), Some(1), "{}", text(&one).1);
    assert_eq!(targets(&text(&one).0).len(), 8, "{}", text(&one).0);

    // One job with two workers (`--jobs 2`): two properties at a time.
    let started = Instant::now();
    let two = ci(None, "two").arg("--jobs").arg("2").output().unwrap();
    let two_seconds = started.elapsed().as_secs_f64();
    assert_eq!(two.status.code(), Some(1), "{}", text(&two).1);
    let mut both = targets(&text(&two).0);
    both.sort();
    assert_eq!(both.len(), 8, "{}", text(&two).0);

    // Four shards at once.
    let started = Instant::now();
    let children: Vec<_> = (1..=4)
        .map(|k| {
            ci(Some(&format!("{k}/4")), &format!("shard{k}"))
                .spawn()
                .unwrap()
        })
        .collect();
    let outputs: Vec<Output> = children
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .collect();
    let shard_seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "SHARDS\t8 properties, 1 s each: one job {one_seconds:.1} s, one job --jobs 2 {two_seconds:.1} s, 4 shards at once on {} cores {shard_seconds:.1} s",
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    let mut ran: Vec<String> = Vec::new();
    for (k, o) in outputs.iter().enumerate() {
        let (out, err) = text(o);
        assert!(
            err.contains(&format!("shard {}/4: 2 of 8 properties", k + 1)),
            "{err}"
        );
        // Round robin over p0…p7: shard 1 holds p0 and p4, shard 2 p1 and p5 (the odd ones
        // fail), …
        let fails = k % 2 == 1;
        assert_eq!(
            o.status.code(),
            Some(i32::from(fails)),
            "shard {}: {err}",
            k + 1
        );
        ran.extend(targets(&out));
    }
    ran.sort();
    let expected: Vec<String> = (0..8).map(|i| format!("props::p{i}")).collect();
    assert_eq!(ran, expected, "every property in exactly one shard");

    // The merge: no conflict, nothing lost.
    let shards: Vec<String> = (1..=4).map(|k| format!("shard{k}")).collect();
    let mut union: Vec<(PathBuf, Vec<u8>)> =
        shards.iter().flat_map(|s| files(&dir.join(s))).collect();
    union.sort();
    union.dedup();
    let mut args = vec!["merge"];
    args.extend(shards.iter().map(String::as_str));
    let merge = tapefuzz(&dir, &args).output().unwrap();
    let (out, err) = text(&merge);
    assert_eq!(merge.status.code(), Some(0), "{err}");
    let line: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    eprintln!("SHARDS\tmerge: {line}");
    assert_eq!(line["conflicts"].as_array().map(Vec::len), Some(0), "{out}");
    assert_eq!(
        files(&dir.join("corpora")),
        union,
        "nothing lost, nothing else"
    );
    // A second merge copies nothing.
    let again = tapefuzz(&dir, &args).output().unwrap();
    assert!(
        text(&again).0.contains("\"copied\":0"),
        "{}",
        text(&again).0
    );

    // `cargo test` replays every regression first: each failing property fails on its
    // saved tape.
    let test = command(&dir, "cargo", &["test", "--no-fail-fast"])
        .output()
        .unwrap();
    let (out, err) = text(&test);
    let all = out + &err;
    assert!(!test.status.success());
    for p in ["p1", "p3", "p5", "p7"] {
        assert!(
            all.contains(&format!("property `props::{p}` failed on saved tape")),
            "{p}: {all}"
        );
    }

    // cmin on a passing property's merged corpus: no feature lost.
    let corpus = dir.join("corpora/props.p0/corpus");
    let before = std::fs::read_dir(&corpus).map_or(0, |r| r.count());
    let cmin = tapefuzz(&dir, &["cmin", "props::p0"]).output().unwrap();
    let (out, err) = text(&cmin);
    assert_eq!(cmin.status.code(), Some(0), "{err}");
    let line: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    eprintln!("SHARDS\tcmin: {line}");
    assert_eq!(line["entries"].as_u64(), Some(before as u64), "{out}");
    let after = std::fs::read_dir(&corpus).map_or(0, |r| r.count());
    assert_eq!(line["kept"].as_u64(), Some(after as u64), "{out}");
    assert!(after >= 1 && after <= before, "{out}");
    // Running cmin again keeps everything: the kept entries cover exactly the features.
    let twice = tapefuzz(&dir, &["cmin", "props::p0"]).output().unwrap();
    let line2: serde_json::Value = serde_json::from_str(text(&twice).0.trim()).unwrap();
    assert_eq!(line2["removed"].as_u64(), Some(0), "{}", text(&twice).0);
    assert_eq!(line2["features"], line["features"]);

    // `run --jobs 2`: two processes on the one corpus, seeds 1 and 2, the budget shared.
    let jobs = tapefuzz(
        &dir,
        &[
            "run",
            "props::p0",
            "--jobs",
            "2",
            "--tests",
            "100",
            "--seed",
            "1",
        ],
    )
    .output()
    .unwrap();
    let (out, err) = text(&jobs);
    assert_eq!(jobs.status.code(), Some(0), "{err}");
    // One summary line for the run, each worker's inside it.
    let summaries: Vec<serde_json::Value> = out
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .collect();
    assert_eq!(summaries.len(), 1, "{out}");
    let run = &summaries[0];
    assert_eq!(run["jobs"].as_u64(), Some(2), "{out}");
    assert_eq!(run["seed"].as_u64(), Some(1), "{out}");
    let workers = run["workers"].as_array().unwrap();
    let mut seeds: Vec<u64> = workers.iter().filter_map(|v| v["seed"].as_u64()).collect();
    seeds.sort_unstable();
    assert_eq!(seeds, [1, 2], "{out}");
    let tests: u64 = workers.iter().filter_map(|w| w["tests"].as_u64()).sum();
    assert_eq!(run["tests"].as_u64(), Some(tests), "{out}");
    // Each worker ran its share (50 new test cases, and the corpus replayed), not 100.
    assert!(
        workers.iter().all(|w| w["tests"].as_u64().unwrap() < 100),
        "the budget is shared: {out}"
    );

    // Flags that are not a command's are refused.
    let wrong = tapefuzz(&dir, &["run", "props::p0", "--shard", "1/2"])
        .output()
        .unwrap();
    assert_eq!(wrong.status.code(), Some(2));
    assert!(text(&wrong).1.contains("--shard is a flag of `ci`"));
    let _ = std::fs::remove_dir_all(&dir);
}
