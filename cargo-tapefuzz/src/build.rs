//! Building the crate's test binaries with cargo, plain or instrumented.

use crate::args::Args;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// How the test binaries are built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Build {
    /// As `cargo test` builds them (`--release` on request).
    Plain,
    /// With SanitizerCoverage counters in the crate's own code and tapefuzz's
    /// `sancov-callbacks` feature: the in-process greybox engine.
    Greybox,
    /// With SanitizerCoverage counters and comparison tracing and tapefuzz's `libfuzzer`
    /// feature: libFuzzer inside the test binary.
    Fuzz,
}

impl Build {
    /// The name of the build, as the wrapper receives it and as its target folder is named.
    pub fn name(self) -> &'static str {
        match self {
            Build::Plain => "plain",
            Build::Greybox => "greybox",
            Build::Fuzz => "fuzz",
        }
    }
}

/// The variable that makes `cargo-tapefuzz` a `RUSTC_WORKSPACE_WRAPPER` (its value: the
/// build's name).
pub const WRAP_VAR: &str = "CARGO_TAPEFUZZ_WRAP";

/// One test executable.
#[derive(Clone, Debug)]
pub struct TestBinary {
    /// The executable.
    pub exe: PathBuf,
    /// The package folder (the test's working folder and `CARGO_MANIFEST_DIR`).
    pub package_dir: PathBuf,
    /// The cargo flags that select its target alone (`--test x1`, `--lib`, `--bin b`) in
    /// its package (`--manifest-path …`).
    pub select: Vec<String>,
}

fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

fn common(cmd: &mut Command, args: &Args) {
    if let Some(m) = &args.manifest_path {
        cmd.arg("--manifest-path").arg(m);
    }
    if let Some(p) = &args.package {
        cmd.arg("-p").arg(p);
    }
}

/// The workspace's target folder (`cargo metadata`).
pub fn target_dir(args: &Args) -> Result<PathBuf, String> {
    let mut cmd = cargo();
    cmd.args(["metadata", "--format-version", "1", "--no-deps"]);
    if let Some(m) = &args.manifest_path {
        cmd.arg("--manifest-path").arg(m);
    }
    let out = cmd
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run cargo metadata: {e}"))?;
    if !out.status.success() {
        return Err("cargo metadata failed (see above)".into());
    }
    let v: Value = serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("cargo metadata printed something else than JSON: {e}"))?;
    v["target_directory"]
        .as_str()
        .map(PathBuf::from)
        .ok_or_else(|| "cargo metadata gave no target_directory".into())
}

fn host_triple() -> Result<String, String> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = Command::new(rustc)
        .arg("-vV")
        .output()
        .map_err(|e| format!("cannot run rustc -vV: {e}"))?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
        .ok_or_else(|| "rustc -vV names no host".into())
}

/// Builds the test binaries (`cargo test --no-run`) and returns them; cargo's progress and
/// errors go to stderr.
pub fn test_binaries(args: &Args) -> Result<Vec<TestBinary>, String> {
    let mut cmd = cargo();
    cmd.args([
        "test",
        "--no-run",
        "--message-format=json-render-diagnostics",
    ]);
    common(&mut cmd, args);
    match &args.test_target {
        Some(t) => {
            cmd.arg("--test").arg(t);
        }
        // Every target with `test = true`: unit tests of the library and binaries, and
        // integration tests.
        None => {
            cmd.arg("--tests");
        }
    }
    finish(cmd, args, Build::Plain)
}

/// Builds `binary`'s test target again for `build` (instrumented) and returns the new
/// executable. Only that target: another test target that does not link tapefuzz (a
/// library's unit tests without properties, say) would lack libFuzzer's or tapefuzz's
/// coverage callbacks.
pub fn instrumented(args: &Args, binary: &TestBinary, build: Build) -> Result<TestBinary, String> {
    let mut cmd = cargo();
    cmd.args([
        "test",
        "--no-run",
        "--message-format=json-render-diagnostics",
    ]);
    cmd.args(&binary.select);
    let mut built = finish(cmd, args, build)?;
    match built.len() {
        1 => Ok(built.remove(0)),
        n => Err(format!("cargo built {n} test binaries for one target")),
    }
}

fn finish(mut cmd: Command, args: &Args, build: Build) -> Result<Vec<TestBinary>, String> {
    for f in &args.features {
        cmd.arg("--features").arg(f);
    }
    if args.release || build != Build::Plain {
        cmd.arg("--release");
    }
    if build != Build::Plain {
        let feature = match build {
            Build::Greybox => "tapefuzz/sancov-callbacks",
            _ => "tapefuzz/libfuzzer",
        };
        let me = std::env::current_exe().map_err(|e| format!("cannot find myself: {e}"))?;
        // An explicit target keeps build scripts and proc macros out of the instrumented
        // build; a target folder of its own keeps it from invalidating the plain one.
        cmd.arg("--features")
            .arg(feature)
            .arg("--target")
            .arg(host_triple()?)
            .arg("--target-dir")
            .arg(target_dir(args)?.join("tapefuzz").join(build.name()))
            .env("RUSTC_WORKSPACE_WRAPPER", me)
            .env(WRAP_VAR, build.name());
    }
    let out = cmd
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err("cargo test --no-run failed (see above)".into());
    }
    let mut binaries = Vec::new();
    for line in text.lines() {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if v["reason"] != "compiler-artifact" || v["profile"]["test"] != true {
            continue;
        }
        let (Some(exe), Some(manifest), Some(name)) = (
            v["executable"].as_str(),
            v["manifest_path"].as_str(),
            v["target"]["name"].as_str(),
        ) else {
            continue;
        };
        let kinds = &v["target"]["kind"];
        let has = |k: &str| kinds.as_array().is_some_and(|a| a.iter().any(|x| x == k));
        let mut select = vec!["--manifest-path".to_string(), manifest.to_string()];
        if has("test") {
            select.extend(["--test".to_string(), name.to_string()]);
        } else if has("bin") {
            select.extend(["--bin".to_string(), name.to_string()]);
        } else if has("example") {
            select.extend(["--example".to_string(), name.to_string()]);
        } else if has("bench") {
            select.extend(["--bench".to_string(), name.to_string()]);
        } else {
            select.push("--lib".to_string());
        }
        binaries.push(TestBinary {
            select,
            exe: PathBuf::from(exe),
            package_dir: Path::new(manifest)
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_default(),
        });
    }
    if binaries.is_empty() {
        return Err("cargo built no test binaries (no tests in this package?)".into());
    }
    Ok(binaries)
}

/// `cargo-tapefuzz` as cargo's `RUSTC_WORKSPACE_WRAPPER` (`args`: rustc and its
/// arguments): the crate's own code gets SanitizerCoverage's counters; tapefuzz itself,
/// build scripts and proc macros compile as usual (the engine's code is not the coverage
/// that matters). Returns rustc's exit status.
pub fn wrap(build: &str, args: &[std::ffi::OsString]) -> i32 {
    let Some((rustc, rest)) = args.split_first() else {
        eprintln!("cargo-tapefuzz: {WRAP_VAR} is set but no rustc was given");
        return 2;
    };
    let mut name = None;
    let mut types: Vec<String> = Vec::new();
    let mut test = false;
    let mut iter = rest.iter();
    while let Some(a) = iter.next() {
        match a.to_str() {
            Some("--crate-name") => name = iter.next().and_then(|n| n.to_str()),
            Some("--crate-type") => {
                types.extend(iter.next().and_then(|t| t.to_str()).map(str::to_string));
            }
            Some("--test") => test = true,
            _ => {}
        }
    }
    // The crate's libraries and test harnesses: they link tapefuzz (and so the coverage
    // callbacks or libFuzzer). A plain binary that cargo builds beside a test (for
    // `CARGO_BIN_EXE_*`) may not link it; build scripts and proc macros run on the host.
    let code = test || (!types.is_empty() && types.iter().all(|t| t == "lib" || t == "rlib"));
    let instrument = match name {
        Some(n) => code && !(n == "tapefuzz" || n.starts_with("build_script_")),
        None => false,
    };
    let mut cmd = Command::new(rustc);
    cmd.args(rest);
    if instrument {
        cmd.args([
            "-Cpasses=sancov-module",
            "-Cllvm-args=-sanitizer-coverage-inline-8bit-counters",
            "-Cllvm-args=-sanitizer-coverage-pc-table",
        ]);
        if build == "fuzz" {
            cmd.args([
                "-Cllvm-args=-sanitizer-coverage-level=4",
                "-Cllvm-args=-sanitizer-coverage-trace-compares",
                "--cfg",
                "fuzzing",
            ]);
        } else {
            cmd.arg("-Cllvm-args=-sanitizer-coverage-level=3");
        }
    }
    match cmd.status() {
        Ok(s) => s.code().unwrap_or(1),
        Err(e) => {
            eprintln!(
                "cargo-tapefuzz: cannot run {}: {e}",
                rustc.to_string_lossy()
            );
            2
        }
    }
}
