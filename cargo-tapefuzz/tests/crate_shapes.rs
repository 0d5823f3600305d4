//! `cargo tapefuzz` on the crate shapes people have, end to end: a scratch workspace (outside
//! this one) with
//!
//! - `binonly`: a binary-only crate whose property is a unit test in `src/main.rs`;
//! - `libonly`: a library-only crate whose property is an integration test;
//! - `multi`: a library built as `cdylib` and `rlib`, with a `build.rs`, a proc-macro
//!   dependency (`mac`, a member too), a feature that plants a bug, an example, a bench, a
//!   `harness = false` test target, unit tests in `src/lib.rs` and an integration test.
//!
//! Each command the newcomer uses — list, run, ci, import, fuzz, greybox — runs on it, with
//! `-p` and `--features`, and finds the planted bugs.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace root")
        .to_path_buf()
}

/// `(path, text)` of every file of the scratch workspace (`TAPEFUZZ` stands for the path of
/// this workspace's tapefuzz).
const FILES: &[(&str, &str)] = &[
    (
        "Cargo.toml",
        "[workspace]\nmembers = [\"binonly\", \"libonly\", \"multi\", \"mac\"]\nresolver = \"3\"\n",
    ),
    (
        "libonly/Cargo.toml",
        "[package]\nname = \"libonly\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
         [dev-dependencies]\ntapefuzz = { path = \"TAPEFUZZ\" }\n",
    ),
    (
        "libonly/src/lib.rs",
        r#"/// The mean of some bytes. The bug: no bytes divides by zero.
pub fn mean(v: &[u8]) -> u8 {
    (v.iter().map(|&x| u32::from(x)).sum::<u32>() / v.len() as u32) as u8
}
"#,
    ),
    (
        "libonly/tests/stats.rs",
        r#"use tapefuzz::prelude::*;

#[test]
fn mean_is_at_most_the_max() {
    check(vecs(ints::<u8>(..), 0..=8), |v: Vec<u8>| {
        let m = libonly::mean(&v);
        assert!(v.iter().any(|&x| x >= m));
    });
}
"#,
    ),
    (
        "binonly/Cargo.toml",
        "[package]\nname = \"binonly\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
         [dev-dependencies]\ntapefuzz = { path = \"TAPEFUZZ\" }\n",
    ),
    (
        "binonly/src/main.rs",
        r#"/// A port number. The bug: no range check.
fn parse_port(s: &str) -> Option<u16> {
    let n: u32 = s.parse().ok()?;
    if n == 0 { None } else { Some(n as u16) }
}

fn main() {
    println!("{:?}", parse_port(&std::env::args().nth(1).unwrap_or_default()));
}

#[cfg(test)]
mod tests {
    use super::*;
    use tapefuzz::prelude::*;

    #[test]
    fn port_roundtrip() {
        check(ints::<u32>(1..=100_000), |n: u32| {
            if let Some(p) = parse_port(&n.to_string()) {
                assert_eq!(u32::from(p), n);
            }
        });
    }
}
"#,
    ),
    (
        "mac/Cargo.toml",
        "[package]\nname = \"mac\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n[lib]\nproc-macro = true\n",
    ),
    (
        "mac/src/lib.rs",
        r#"use proc_macro::TokenStream;

/// `answer!()` is `42`.
#[proc_macro]
pub fn answer(_: TokenStream) -> TokenStream {
    "42u8".parse().unwrap()
}
"#,
    ),
    (
        "multi/Cargo.toml",
        "[package]\nname = \"multi\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
         [lib]\ncrate-type = [\"cdylib\", \"rlib\"]\n\n[features]\nfast = []\n\n\
         [dependencies]\nmac = { path = \"../mac\" }\n\n\
         [dev-dependencies]\ntapefuzz = { path = \"TAPEFUZZ\" }\n\n\
         [[test]]\nname = \"custom\"\nharness = false\n",
    ),
    (
        "multi/build.rs",
        "fn main() {\n    println!(\"cargo:rustc-env=MULTI_GREETING=hi\");\n}\n",
    ),
    (
        "multi/src/lib.rs",
        r#"/// `hi n`.
pub fn greet(n: u8) -> String {
    format!("{} {n}", env!("MULTI_GREETING"))
}

/// The answer, from the proc macro.
pub fn answer() -> u8 {
    mac::answer!()
}

/// The absolute value. The `fast` feature's version overflows on `i32::MIN`.
#[cfg(feature = "fast")]
pub fn abs(x: i32) -> i32 {
    if x < 0 { -x } else { x }
}

/// The absolute value.
#[cfg(not(feature = "fast"))]
pub fn abs(x: i32) -> i32 {
    x.wrapping_abs()
}

/// Reads a command. The bug: a command that starts `GO` panics.
#[unsafe(no_mangle)]
pub extern "C" fn command_len(p: *const u8, n: usize) -> usize {
    let b = unsafe { std::slice::from_raw_parts(p, n) };
    classify(b)
}

/// The command's length; panics on `GO…`.
pub fn classify(b: &[u8]) -> usize {
    if b.len() >= 2 && b[0] == b'G' && b[1] == b'O' {
        panic!("GO is not implemented");
    }
    b.len()
}

#[cfg(test)]
mod tests {
    use tapefuzz::prelude::*;

    #[test]
    fn commands_classify() {
        check(bytes(0..=16), |b: Vec<u8>| {
            super::classify(&b);
        });
    }
}
"#,
    ),
    (
        "multi/tests/p.rs",
        r#"use tapefuzz::prelude::*;

#[test]
fn greet_ends_with_the_number() {
    check(ints::<u8>(..), |n: u8| {
        multi::greet(n).ends_with(&n.to_string()) && multi::answer() == 42
    });
}

#[test]
fn abs_is_not_negative() {
    check(ints::<i32>(..), |x: i32| multi::abs(x) >= 0 || x == i32::MIN);
}
"#,
    ),
    (
        "multi/tests/custom.rs",
        "fn main() {\n    std::fs::write(\"custom-ran\", \"\").unwrap();\n}\n",
    ),
    ("multi/examples/ex.rs", "fn main() {}\n"),
    ("multi/benches/b.rs", "fn main() {}\n"),
];

/// The scratch workspace, written afresh.
fn scratch_workspace() -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let dir = std::env::temp_dir().join(format!(
        "tapefuzz-crate-shapes-{}-{nanos}",
        std::process::id()
    ));
    let tapefuzz = workspace().display().to_string();
    for (path, text) in FILES {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text.replace("TAPEFUZZ", &tapefuzz)).unwrap();
    }
    dir
}

/// Runs `cargo-tapefuzz tapefuzz <args>` in `dir`, the build kept in this workspace's
/// `target/` between runs, with none of this test's `TAPEFUZZ_*` variables.
fn tapefuzz(dir: &Path, args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cargo-tapefuzz"));
    for (k, _) in std::env::vars_os() {
        if k.to_string_lossy().starts_with("TAPEFUZZ_") {
            cmd.env_remove(k);
        }
    }
    cmd.arg("tapefuzz")
        .args(args)
        .current_dir(dir)
        .env(
            "CARGO_TARGET_DIR",
            workspace().join("target").join("crate-shapes-test"),
        )
        .env("RUST_BACKTRACE", "0");
    let out = cmd.output().expect("cargo-tapefuzz runs");
    eprintln!(
        "$ cargo tapefuzz {}\n{}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn every_crate_shape_runs_every_command() {
    let dir = scratch_workspace();

    // list: unit tests of a binary and of a library, integration tests; the custom harness
    // is skipped with a note, not run.
    let list = tapefuzz(&dir, &["list"]);
    assert_eq!(list.status.code(), Some(0));
    let listed = stdout(&list);
    for name in [
        "binonly::tests::port_roundtrip",
        "multi::tests::commands_classify",
        "p::greet_ends_with_the_number",
        "p::abs_is_not_negative",
        "stats::mean_is_at_most_the_max",
    ] {
        assert!(
            listed.lines().any(|l| l.starts_with(&format!("{name}\t"))),
            "{name} not listed:\n{listed}"
        );
    }
    assert!(
        stderr(&list).contains("skipping the test target `custom` (harness = false)"),
        "{}",
        stderr(&list)
    );
    // (It writes `custom-ran` in its package folder when it runs.)
    assert!(
        !dir.join("multi/custom-ran").exists(),
        "the custom harness ran"
    );

    // run: the binary-only crate's bug, shrunk to its minimum.
    let run = tapefuzz(
        &dir,
        &["run", "binonly::tests::port_roundtrip", "--seconds", "5"],
    );
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    assert!(
        stderr(&run).contains("minimal failing value: 65536"),
        "{}",
        stderr(&run)
    );
    // The failing test names the property only: the report is printed once.
    assert_eq!(
        stderr(&run).matches("minimal failing value").count(),
        1,
        "{}",
        stderr(&run)
    );
    // …and `import` of its saved regression (a tape file like any other) says it fails.
    let regressions = dir.join("binonly/corpora/binonly.tests.port_roundtrip/regressions");
    let saved = std::fs::read_dir(&regressions)
        .expect("the failure was saved")
        .next()
        .unwrap()
        .unwrap()
        .path();
    let import = tapefuzz(
        &dir,
        &[
            "import",
            "binonly::tests::port_roundtrip",
            saved.to_str().unwrap(),
        ],
    );
    assert_eq!(import.status.code(), Some(0), "{}", stderr(&import));
    assert!(stderr(&import).contains("65536"), "{}", stderr(&import));

    // run with a feature and -p: the planted overflow inside the library.
    let feature = tapefuzz(
        &dir,
        &[
            "run",
            "p::abs_is_not_negative",
            "-p",
            "multi",
            "--features",
            "multi/fast",
            "--seconds",
            "5",
        ],
    );
    assert_eq!(feature.status.code(), Some(1), "{}", stderr(&feature));
    assert!(
        stderr(&feature).contains("panicked at multi/src/lib.rs")
            && stderr(&feature).contains("attempt to negate with overflow"),
        "{}",
        stderr(&feature)
    );

    // greybox on the cdylib + rlib library's unit test: the two-byte magic prefix (before
    // `ci`, which finds it too and saves it).
    let greybox = tapefuzz(
        &dir,
        &[
            "greybox",
            "multi::tests::commands_classify",
            "-p",
            "multi",
            "--seconds",
            "30",
        ],
    );
    assert_eq!(greybox.status.code(), Some(1), "{}", stderr(&greybox));
    assert!(
        stderr(&greybox).contains("GO is not implemented"),
        "{}",
        stderr(&greybox)
    );
    let summary: serde_json::Value =
        serde_json::from_str(stdout(&greybox).lines().last().unwrap()).unwrap();
    assert!(summary["features"].as_u64().unwrap() > 0, "{summary}");

    // Every shape under both coverage-guided engines, each from nothing (a corpora folder
    // of its own): the binary-only crate under greybox, the library-only crate under both.
    for (cmd, property, package, says) in [
        (
            "greybox",
            "binonly::tests::port_roundtrip",
            "binonly",
            "minimal failing value: 65536",
        ),
        (
            "greybox",
            "stats::mean_is_at_most_the_max",
            "libonly",
            "attempt to divide by zero",
        ),
        (
            "fuzz",
            "stats::mean_is_at_most_the_max",
            "libonly",
            "attempt to divide by zero",
        ),
    ] {
        let fresh = dir.join(format!("corpora-{cmd}-{package}"));
        let fresh = fresh.to_str().unwrap();
        let budget = if cmd == "fuzz" {
            vec!["--corpora", fresh, "--", "-max_total_time=60", "-seed=1"]
        } else {
            vec!["--corpora", fresh, "--seconds", "30"]
        };
        let mut args = vec![cmd, property, "-p", package];
        args.extend(budget);
        let found = tapefuzz(&dir, &args);
        assert_eq!(
            found.status.code(),
            Some(1),
            "{cmd} {property}: {}",
            stderr(&found)
        );
        assert!(
            stderr(&found).contains(says),
            "{cmd} {property}: {}",
            stderr(&found)
        );
    }

    // ci over the workspace, JUnit report: the failures are counted, the others pass.
    let junit = dir.join("junit.xml");
    let ci = tapefuzz(
        &dir,
        &[
            "ci",
            "--seconds-per-target",
            "1",
            "--junit",
            junit.to_str().unwrap(),
        ],
    );
    assert_eq!(ci.status.code(), Some(1), "{}", stderr(&ci));
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("tests=\"5\""), "{xml}");
    assert!(xml.contains("port_roundtrip"), "{xml}");

    // fuzz, binary-only crate: it links (its executable gets stub callbacks) and finds it.
    let fuzz = tapefuzz(
        &dir,
        &[
            "fuzz",
            "binonly::tests::port_roundtrip",
            "-p",
            "binonly",
            "--",
            "-max_total_time=60",
            "-seed=1",
        ],
    );
    assert_eq!(fuzz.status.code(), Some(1), "{}", stderr(&fuzz));
    assert!(stderr(&fuzz).contains("imported into"), "{}", stderr(&fuzz));

    // fuzz with a feature: the library's overflow, inlined into the test, still panics
    // (the test harness keeps `cargo test`'s overflow checks).
    let fuzz = tapefuzz(
        &dir,
        &[
            "fuzz",
            "p::abs_is_not_negative",
            "-p",
            "multi",
            "--features",
            "multi/fast",
            "--",
            "-max_total_time=60",
            "-seed=1",
        ],
    );
    assert_eq!(fuzz.status.code(), Some(1), "{}", stderr(&fuzz));
    assert!(
        stderr(&fuzz).contains("attempt to negate with overflow"),
        "{}",
        stderr(&fuzz)
    );

    let _ = std::fs::remove_dir_all(&dir);
}
