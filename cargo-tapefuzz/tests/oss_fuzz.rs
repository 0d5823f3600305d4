//! What a fuzzing service does to a build (OSS-Fuzz, ClusterFuzzLite), on a scratch crate
//! with three properties (one with a planted bug): `cargo tapefuzz build-fuzzers` run in an
//! environment holding only the variables OSS-Fuzz sets (`$SRC`, `$OUT`, `$WORK`, `$CC`,
//! `$CXX`, `$CFLAGS`, `$CXXFLAGS`, `$RUSTFLAGS`, `$LIB_FUZZING_ENGINE`, `$SANITIZER`, with
//! `PATH` and `HOME`; values for this machine's gcc, as the services' clang flags are not
//! gcc's) leaves three fuzzers and their seed zips in `$OUT`. Then checks modelled on
//! OSS-Fuzz's `check_build`: each fuzzer is an ELF executable naming libFuzzer's entry point,
//! survives an empty input, runs its unpacked seed corpus with `-runs=0` and exits 0, from a
//! folder of its own with no variable set; the planted bug is found within a minute; and the
//! crate's own corpora are untouched.

mod common;

use common::{files, workspace};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

const PROPS: &str = r#"use tapefuzz::prelude::*;

tapefuzz::property! {
    fn sorted_stays_sorted(v in vecs(ints::<u8>(..), 0..=16)) {
        let mut w = v.clone();
        w.sort();
        assert!(w.windows(2).all(|p| p[0] <= p[1]));
    }
    fn utf8_lengths_agree(data in bytes(0..=64)) {
        if let Ok(s) = std::str::from_utf8(&data) {
            assert_eq!(s.len(), data.len());
        }
    }
    // The planted bug: a header that claims more bytes than follow.
    fn header_fits(data in bytes(0..=64)) {
        if data.len() >= 2 && data[0] == b'H' {
            let claimed = data[1] as usize;
            assert!(claimed <= data.len() - 2, "claimed {claimed}, {} follow", data.len() - 2);
        }
    }
}
"#;

fn scratch_crate(root: &Path) -> PathBuf {
    let dir = common::props_crate(&root.join("src/project"), "project", PROPS);
    // A saved corpus entry each: the seed corpora are made of them.
    for p in ["sorted_stays_sorted", "utf8_lengths_agree", "header_fits"] {
        let c = dir.join(format!("corpora/props.{p}/corpus"));
        std::fs::create_dir_all(&c).unwrap();
        std::fs::write(
            c.join("0000000000000000000000000000000000000001"),
            [0u8, 2, b'o', b'k'],
        )
        .unwrap();
    }
    dir
}

/// A fuzzer of `$OUT`, run the way a service runs it: no variable but `PATH`, from `cwd`.
fn fuzzer(out: &Path, name: &str, cwd: &Path, args: &[&str]) -> Output {
    Command::new(out.join(name))
        .args(args)
        .current_dir(cwd)
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .output()
        .unwrap()
}

#[test]
fn build_fuzzers_leaves_what_a_fuzzing_service_runs() {
    let root = std::env::temp_dir().join(format!("tapefuzz-oss-fuzz-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let project = scratch_crate(&root);
    let (out, work) = (root.join("out"), root.join("work"));
    std::fs::create_dir_all(&out).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    let corpora_before = files(&project.join("corpora"));

    // The build, as a service's build.sh makes it: only its variables.
    let mut build = Command::new(env!("CARGO_BIN_EXE_cargo-tapefuzz"));
    build
        .args(["tapefuzz", "build-fuzzers"])
        .current_dir(&project)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap())
        .env("HOME", std::env::var_os("HOME").unwrap())
        .env("SRC", root.join("src"))
        .env("OUT", &out)
        .env("WORK", &work)
        .env("CC", "cc")
        .env("CXX", "c++")
        .env("CFLAGS", "-O1 -g")
        .env("CXXFLAGS", "-O1 -g")
        .env(
            "RUSTFLAGS",
            "--cfg fuzzing -Cdebug-assertions -Coverflow_checks",
        )
        .env("LIB_FUZZING_ENGINE", "-fsanitize=fuzzer")
        .env("SANITIZER", "none")
        // Kept between runs of this test (a fuzzing service builds from scratch).
        .env(
            "CARGO_TARGET_DIR",
            workspace().join("target").join("oss-fuzz-test"),
        );
    for k in ["CARGO_HOME", "RUSTUP_HOME", "RUSTUP_TOOLCHAIN"] {
        if let Some(v) = std::env::var_os(k) {
            build.env(k, v);
        }
    }
    let built = build.output().unwrap();
    let stderr = String::from_utf8_lossy(&built.stderr);
    assert!(built.status.success(), "{stderr}");
    let fuzzers = [
        "props_sorted_stays_sorted",
        "props_utf8_lengths_agree",
        "props_header_fits",
    ];
    for f in fuzzers {
        assert!(out.join(f).is_file(), "{f} missing: {stderr}");
        assert!(
            out.join(format!("{f}_seed_corpus.zip")).is_file(),
            "{f}'s seeds"
        );
    }

    let elsewhere = root.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::write(elsewhere.join("empty"), b"").unwrap();
    for f in fuzzers {
        // check_build's checks: an ELF executable that names libFuzzer's entry point.
        let bytes = std::fs::read(out.join(f)).unwrap();
        assert_eq!(&bytes[..4], b"\x7fELF", "{f}");
        assert!(
            bytes.windows(22).any(|w| w == b"LLVMFuzzerTestOneInput"),
            "{f} does not name the entry point"
        );
        // An empty input does not crash it.
        let empty = fuzzer(&out, f, &elsewhere, &["-runs=1", "empty"]);
        assert!(
            empty.status.success(),
            "{f}: {}",
            String::from_utf8_lossy(&empty.stderr)
        );
        // Its seed corpus, unpacked as a service does, runs with -runs=0.
        let seeds = elsewhere.join(format!("{f}-seeds"));
        std::fs::create_dir_all(&seeds).unwrap();
        let unzip = Command::new("unzip")
            .args(["-q", "-o"])
            .arg(out.join(format!("{f}_seed_corpus.zip")))
            .arg("-d")
            .arg(&seeds)
            .output();
        if let Ok(u) = unzip {
            assert!(u.status.success(), "{}", String::from_utf8_lossy(&u.stderr));
            assert!(
                std::fs::read_dir(&seeds).unwrap().count() >= 1,
                "{f}: no seed"
            );
        }
        let seeded = fuzzer(&out, f, &elsewhere, &["-runs=0", seeds.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&seeded.stderr);
        assert!(seeded.status.success(), "{f}: {err}");
        assert!(err.contains("INITED"), "{f}: {err}");
    }

    // The planted bug, from an empty corpus, within a minute.
    let corpus = elsewhere.join("corpus");
    std::fs::create_dir_all(&corpus).unwrap();
    let started = Instant::now();
    let hunt = fuzzer(
        &out,
        "props_header_fits",
        &elsewhere,
        &["-max_total_time=60", corpus.to_str().unwrap()],
    );
    let seconds = started.elapsed().as_secs_f64();
    let err = String::from_utf8_lossy(&hunt.stderr);
    assert!(!hunt.status.success(), "{err}");
    assert!(err.contains("claimed"), "{err}");
    let crashes: Vec<_> = std::fs::read_dir(&elsewhere)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("crash-"))
        .collect();
    assert_eq!(crashes.len(), 1, "{err}");
    eprintln!("OSS-FUZZ\tplanted bug found in {seconds:.2} s");

    // Nothing was written into the crate's own corpora by the fuzzers.
    assert_eq!(files(&project.join("corpora")), corpora_before);

    // The same bug under `cargo tapefuzz fuzz --jobs 2` (the same instrumented build): the
    // job that finds it stops the other, and the crash is shrunk into `regressions/` at once.
    let started = Instant::now();
    let jobs = Command::new(env!("CARGO_BIN_EXE_cargo-tapefuzz"))
        .args([
            "tapefuzz",
            "fuzz",
            "props::header_fits",
            "--jobs",
            "2",
            "--seconds",
            "900",
        ])
        .current_dir(&project)
        .env(
            "CARGO_TARGET_DIR",
            workspace().join("target").join("oss-fuzz-test"),
        )
        .env_remove("TAPEFUZZ_SEED")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&jobs.stderr);
    assert_eq!(jobs.status.code(), Some(1), "{err}");
    assert!(err.contains("2 processes on one corpus"), "{err}");
    // Far below the budget, whatever the build costs on a busy machine: a job left running
    // would take all of its 900 s.
    assert!(
        started.elapsed().as_secs() < 600,
        "the other job was not stopped: {err}"
    );
    let regressions = project.join("corpora/props.header_fits/regressions");
    assert!(
        std::fs::read_dir(&regressions).is_ok_and(|r| r.count() >= 1),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&root);
}
