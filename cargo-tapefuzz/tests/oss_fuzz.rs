//! What a fuzzing service does to a build (OSS-Fuzz, ClusterFuzzLite), on a scratch crate
//! with three properties (one with a planted bug): `cargo tapefuzz build-fuzzers` run in an
//! environment holding only the variables OSS-Fuzz sets (`$SRC`, `$OUT`, `$WORK`, `$CC`,
//! `$CXX`, `$CFLAGS`, `$CXXFLAGS`, `$RUSTFLAGS`, `$LIB_FUZZING_ENGINE`, `$SANITIZER`, with
//! `PATH` and `HOME`; values for this machine's gcc, as the services' clang flags are not
//! gcc's) leaves three fuzzers and their seed zips in `$OUT`. Then checks modelled on
//! OSS-Fuzz's `check_build`: each fuzzer is an ELF executable naming libFuzzer's entry point,
//! survives an empty input, runs its unpacked seed corpus with `-runs=0` and exits 0, from a
//! folder of its own with no variable set; the planted bug is found within a minute; and the
//! crate's own corpora are untouched. The same build with `SANITIZER=address` on nightly
//! (the services' default) passes their sanitizer checks and finds a bug only the sanitizer
//! sees.

mod common;

use common::{files, workspace};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

/// The library under test: a small record reader (code the fuzzers' coverage counts; the
/// services want at least 100 edges), with a bug only AddressSanitizer sees: `checksum` of a
/// record tagged `C` reads one byte past its data, which an unsanitized build reads from the
/// allocation's slack without a fault.
const LIB: &str = r#"pub fn records(data: &[u8]) -> Vec<(u8, &[u8])> {
    let mut out = Vec::new();
    let mut rest = data;
    while let [tag, len, tail @ ..] = rest {
        let n = (*len as usize).min(tail.len());
        match tag {
            b'a'..=b'z' => out.push((*tag, &tail[..n])),
            b'0'..=b'9' if n % 2 == 0 => out.push((b'#', &tail[..n])),
            0 => break,
            _ => {}
        }
        rest = &tail[n..];
    }
    out
}

pub fn checksum(data: &[u8]) -> u32 {
    let mut sum = 0u32;
    let extra = usize::from(data.len() > 3 && data[0] == b'C');
    for i in 0..data.len() + extra {
        // SAFETY: none when `extra` is 1 (the planted bug).
        sum = sum.wrapping_mul(31).wrapping_add(u32::from(unsafe { *data.as_ptr().add(i) }));
    }
    sum
}
"#;

const PROPS: &str = r#"use tapefuzz::prelude::*;

tapefuzz::property! {
    fn records_stay_inside(data in bytes(0..=64)) {
        let total: usize = project::records(&data).iter().map(|(_, r)| r.len() + 2).sum();
        assert!(total <= data.len());
        std::hint::black_box(project::checksum(&data));
    }
    // The planted bug: a header that claims more bytes than follow.
    fn header_fits(data in bytes(0..=64)) {
        if data.len() >= 2 && data[0] == b'H' {
            let claimed = data[1] as usize;
            assert!(claimed <= data.len() - 2, "claimed {claimed}, {} follow", data.len() - 2);
        }
    }
}

// A property named by its test, as `check` names it (`props::utf8_lengths_agree`).
#[test]
fn utf8_lengths_agree() {
    check(bytes(0..=64), |data: Vec<u8>| {
        if let Ok(s) = std::str::from_utf8(&data) {
            assert_eq!(s.len(), data.len());
        }
    });
}
"#;

fn scratch_crate(root: &Path) -> PathBuf {
    let dir = common::props_crate(&root.join("src/project"), "project", PROPS);
    std::fs::write(dir.join("src/lib.rs"), LIB).unwrap();
    // A saved corpus entry each: the seed corpora are made of them.
    for p in ["records_stay_inside", "utf8_lengths_agree", "header_fits"] {
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

/// One test at a time: each builds the scratch crate in release mode (two at once on two
/// cores only make both slower, and the `--jobs` check below has a time bound).
static BUILDS: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// `cargo tapefuzz build-fuzzers` on a fresh scratch crate under `root`, as a service's
/// build.sh runs it: only the service's variables, `$SANITIZER` set to `sanitizer`, with the
/// toolchain `toolchain` when given (the services' Rust image has nightly as its default).
/// Returns the project and `$OUT`; the build must succeed and leave the three fuzzers and
/// their seed zips.
fn build_for_service(
    root: &Path,
    sanitizer: &str,
    toolchain: Option<&str>,
    target: &str,
) -> (PathBuf, PathBuf) {
    let _ = std::fs::remove_dir_all(root);
    let project = scratch_crate(root);
    let (out, work) = (root.join("out"), root.join("work"));
    std::fs::create_dir_all(&out).unwrap();
    std::fs::create_dir_all(&work).unwrap();
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
        .env("SANITIZER", sanitizer)
        // Kept between runs of this test (a fuzzing service builds from scratch).
        .env("CARGO_TARGET_DIR", workspace().join("target").join(target));
    for k in ["CARGO_HOME", "RUSTUP_HOME", "RUSTUP_TOOLCHAIN"] {
        if let Some(v) = std::env::var_os(k) {
            build.env(k, v);
        }
    }
    if let Some(t) = toolchain {
        build.env("RUSTUP_TOOLCHAIN", t);
    }
    let built = build.output().unwrap();
    let stderr = String::from_utf8_lossy(&built.stderr);
    assert!(built.status.success(), "{stderr}");
    for f in FUZZERS {
        assert!(out.join(f).is_file(), "{f} missing: {stderr}");
        assert!(
            out.join(format!("{f}_seed_corpus.zip")).is_file(),
            "{f}'s seeds"
        );
    }
    (project, out)
}

const FUZZERS: [&str; 3] = [
    "props_records_stay_inside",
    "props_utf8_lengths_agree",
    "props_header_fits",
];

/// The seed zip of `f`, unpacked into `dir` as a service does (when `unzip` is there).
fn unpack_seeds(out: &Path, f: &str, dir: &Path) -> PathBuf {
    let seeds = dir.join(format!("{f}-seeds"));
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
    seeds
}

/// A fuzzer of `$OUT` run for at most a minute on an empty corpus in `dir`, as a service
/// hunts: it must crash saying `expected`. Returns the seconds it took and its stderr.
fn hunt(out: &Path, name: &str, dir: &Path, expected: &str) -> (f64, String) {
    let corpus = dir.join("corpus");
    std::fs::create_dir_all(&corpus).unwrap();
    let started = Instant::now();
    let hunt = fuzzer(
        out,
        name,
        dir,
        &["-max_total_time=60", corpus.to_str().unwrap()],
    );
    let seconds = started.elapsed().as_secs_f64();
    let err = String::from_utf8_lossy(&hunt.stderr).into_owned();
    assert!(!hunt.status.success(), "{err}");
    assert!(err.contains(expected), "{err}");
    (seconds, err)
}

#[test]
fn build_fuzzers_leaves_what_a_fuzzing_service_runs() {
    let _one = BUILDS.lock().unwrap_or_else(|e| e.into_inner());
    let root = std::env::temp_dir().join(format!("tapefuzz-oss-fuzz-{}", std::process::id()));
    let (project, out) = build_for_service(&root, "none", None, "oss-fuzz-test");
    let corpora_before = files(&project.join("corpora"));
    let fuzzers = FUZZERS;

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
        // No sanitizer asked, none in it (the services' check for mixed sanitizers).
        assert_eq!(asan_calls(&out.join(f)), 0, "{f}");
        // An empty input does not crash it.
        let empty = fuzzer(&out, f, &elsewhere, &["-runs=1", "empty"]);
        assert!(
            empty.status.success(),
            "{f}: {}",
            String::from_utf8_lossy(&empty.stderr)
        );
        // Its seed corpus, unpacked as a service does, runs with -runs=0.
        let seeds = unpack_seeds(&out, f, &elsewhere);
        let seeded = fuzzer(&out, f, &elsewhere, &["-runs=0", seeds.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&seeded.stderr);
        assert!(seeded.status.success(), "{f}: {err}");
        assert!(err.contains("INITED"), "{f}: {err}");
    }

    // A fuzzer whose launch file names a property its test does not run ends with exit
    // status 2 (it fuzzed nothing), and one whose launch file is gone too; the test binary
    // under its own name in the launch folder stays a test binary.
    let launch = out.join("tapefuzz/props_header_fits.launch");
    let good = std::fs::read_to_string(&launch).unwrap();
    let mut renamed: serde_json::Value = serde_json::from_str(&good).unwrap();
    renamed["property"] = "props::renamed".into();
    std::fs::write(&launch, renamed.to_string()).unwrap();
    assert_ne!(std::fs::read_to_string(&launch).unwrap(), good);
    let renamed = fuzzer(&out, "props_header_fits", &elsewhere, &["-runs=10"]);
    let err = String::from_utf8_lossy(&renamed.stderr);
    assert_eq!(renamed.status.code(), Some(2), "{err}");
    assert!(err.contains("ended without fuzzing"), "{err}");
    std::fs::remove_file(&launch).unwrap();
    let lost = fuzzer(&out, "props_header_fits", &elsewhere, &["-runs=10"]);
    let err = String::from_utf8_lossy(&lost.stderr);
    assert_eq!(lost.status.code(), Some(2), "{err}");
    assert!(err.contains("launch file"), "{err}");
    std::fs::write(&launch, &good).unwrap();
    let binary: serde_json::Value = serde_json::from_str(&good).unwrap();
    let listed = fuzzer(
        &out.join("tapefuzz"),
        binary["binary"].as_str().unwrap(),
        &elsewhere,
        &["--list"],
    );
    assert!(listed.status.success());
    assert!(String::from_utf8_lossy(&listed.stdout).contains("header_fits: test"));

    // The planted bug, from an empty corpus, within a minute.
    let (seconds, err) = hunt(&out, "props_header_fits", &elsewhere, "claimed");
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

/// Whether `rustup` has a nightly toolchain here (the sanitizer needs it); the reason when not.
fn nightly() -> Result<(), String> {
    match Command::new("rustc").args(["+nightly", "-vV"]).output() {
        Ok(o) if o.status.success() => Ok(()),
        Ok(o) => Err(String::from_utf8_lossy(&o.stderr).trim().to_string()),
        Err(e) => Err(e.to_string()),
    }
}

/// Calls to AddressSanitizer's runtime in `exe`, counted as OSS-Fuzz's `bad_build_check`
/// counts them (`objdump -dC`, `call <__asan…>`).
fn asan_calls(exe: &Path) -> usize {
    let dump = Command::new("objdump")
        .arg("-dC")
        .arg(exe)
        .output()
        .expect("objdump (binutils) runs");
    String::from_utf8_lossy(&dump.stdout)
        .lines()
        .filter(|l| {
            l.split_once("call")
                .is_some_and(|(_, rest)| rest.contains("<__asan"))
        })
        .count()
}

/// The services' default build, `SANITIZER=address` (OSS-Fuzz's default for Rust; what
/// ClusterFuzzLite asks by default), checked as their `bad_build_check` checks it: each
/// fuzzer holds at least 1,000 calls to AddressSanitizer's runtime and none without it
/// (the unsanitized build of the test above has 0), starts and runs 4 inputs
/// (`-seed=1337 -runs=4`: "Done 4 runs", and not "no interesting inputs"), loads at least
/// 100 coverage counters, and runs its seed corpus with `-runs=0`. Then the bug only the
/// sanitizer sees (a one-byte heap over-read) is found within a minute. Skipped, saying so,
/// where there is no nightly toolchain.
#[test]
fn the_address_sanitizer_build_passes_the_services_checks() {
    if let Err(why) = nightly() {
        eprintln!("SKIPPED: no nightly toolchain for -Zsanitizer=address ({why})");
        return;
    }
    let _one = BUILDS.lock().unwrap_or_else(|e| e.into_inner());
    let root = std::env::temp_dir().join(format!("tapefuzz-oss-fuzz-asan-{}", std::process::id()));
    let (_, out) = build_for_service(&root, "address", Some("nightly"), "oss-fuzz-asan-test");
    let elsewhere = root.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    for f in FUZZERS {
        let calls = asan_calls(&out.join(f));
        assert!(calls >= 1000, "{f}: {calls} calls to ASan's runtime");
        let start = fuzzer(&out, f, &elsewhere, &["-seed=1337", "-runs=4"]);
        let err = String::from_utf8_lossy(&start.stderr);
        assert!(err.contains("Done 4 runs"), "{f}: {err}");
        assert!(!err.contains("ERROR: no interesting inputs"), "{f}: {err}");
        let counters: usize = err
            .lines()
            .find_map(|l| {
                let rest = l.strip_prefix("INFO: Loaded ")?;
                rest.split("counters): ")
                    .nth(1)?
                    .split_whitespace()
                    .next()?
                    .parse()
                    .ok()
            })
            .unwrap_or_else(|| panic!("{f}: no counters line: {err}"));
        assert!(counters >= 100, "{f}: {counters} counters");
        let seeds = unpack_seeds(&out, f, &elsewhere);
        let seeded = fuzzer(&out, f, &elsewhere, &["-runs=0", seeds.to_str().unwrap()]);
        assert!(
            seeded.status.success(),
            "{f}: {}",
            String::from_utf8_lossy(&seeded.stderr)
        );
    }
    let (seconds, _) = hunt(
        &out,
        "props_records_stay_inside",
        &elsewhere,
        "AddressSanitizer: heap-buffer-overflow",
    );
    eprintln!("OSS-FUZZ\tASan-only bug found in {seconds:.2} s");
    let _ = std::fs::remove_dir_all(&root);
}
