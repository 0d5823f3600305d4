//! What a newcomer types first: `--version`, `--help` after a command, a typo. None of these
//! builds anything.

use std::process::Command;

fn tapefuzz(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cargo-tapefuzz"))
        .arg("tapefuzz")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn version_help_and_typos() {
    for v in ["--version", "-V", "version"] {
        let (code, out, err) = tapefuzz(&[v]);
        assert_eq!(code, Some(0), "{v}: {err}");
        assert!(out.starts_with("cargo-tapefuzz 0."), "{v}: {out}");
    }
    for args in [
        &["fuzz", "--help"][..],
        &["run", "x::p", "-h"],
        &["help"],
        &["--help"],
    ] {
        let (code, out, err) = tapefuzz(args);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        assert!(out.starts_with("usage: cargo tapefuzz"), "{args:?}: {out}");
    }
    // libFuzzer's `-help=1` after `--` is libFuzzer's, not ours: no usage printed here (the
    // command then fails for want of a crate, which is beside the point).
    let (_, out, _) = tapefuzz(&[
        "fuzz",
        "--manifest-path",
        "/nonexistent/Cargo.toml",
        "x",
        "--",
        "-h",
    ]);
    assert!(!out.starts_with("usage:"), "{out}");
    let (code, _, err) = tapefuzz(&["fuz"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("unknown command `fuz` (did you mean `fuzz`?)"),
        "{err}"
    );
    let (code, _, err) = tapefuzz(&["rnu"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("(did you mean `run`?)"), "{err}");
    let (_, _, err) = tapefuzz(&["ls"]);
    assert!(!err.contains("did you mean"), "{err}");
    let (_, _, err) = tapefuzz(&["-p", "x", "run"]);
    assert!(err.contains("the command comes first"), "{err}");
    let (_, _, err) = tapefuzz(&["run", "-j", "2"]);
    assert!(!err.contains("did you mean"), "{err}");
    let (code, _, err) = tapefuzz(&["run", "--secnds", "3"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("unknown flag `--secnds` (did you mean `--seconds`? valid:"),
        "{err}"
    );

    // Piped into a reader that stops early: no panic on the closed pipe.
    let mut child = Command::new(env!("CARGO_BIN_EXE_cargo-tapefuzz"))
        .args(["tapefuzz", "--help"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
}
