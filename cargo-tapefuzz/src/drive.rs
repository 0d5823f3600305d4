//! Running a test binary with a command for its properties (the protocol of
//! `tapefuzz::serve`), and the property registry that `list` reads from it.

use crate::build::TestBinary;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use tapefuzz::serve::{Command as Asked, Mode, PartRequest};

/// One property, as its test binary announced it.
#[derive(Clone, Debug)]
pub struct Found {
    /// The property's name (`x1::roundtrip`).
    pub name: String,
    /// The libtest name of its test (`roundtrip`).
    pub test: Option<String>,
    /// Its corpus folder, if it has one.
    pub corpus: Option<String>,
    /// The test binary that holds it.
    pub binary: TestBinary,
}

/// A command for one test binary.
#[derive(Clone)]
pub struct Request<'a> {
    /// The command.
    pub command: Asked,
    /// The property that serves it (`None` for `list`).
    pub property: Option<&'a Found>,
    /// Files or libFuzzer's arguments.
    pub args: Vec<String>,
    /// More environment (`TAPEFUZZ_SECONDS`, …).
    pub env: Vec<(String, String)>,
    /// `run`: where coverage comes from.
    pub mode: Mode,
    /// `explain`: the part asked about.
    pub part: PartRequest,
}

/// What the binary wrote, and how it ended.
pub struct Answer {
    /// The JSON lines of the out file.
    pub lines: Vec<Value>,
    /// The process's exit status.
    pub status: ExitStatus,
}

/// Set when every running test binary should stop (a `fuzz --jobs` job found a crash: the
/// others are asked to end, so the crashes are imported without waiting for their budget).
pub static STOP_ALL: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn out_file() -> PathBuf {
    // Several children at once (`--jobs`): a counter keeps their files apart.
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    std::env::temp_dir().join(format!(
        "cargo-tapefuzz-{}-{n}-{nanos}.jsonl",
        std::process::id()
    ))
}

/// Runs `binary` with `request`: filtered to the property's test (`--exact`), or every test
/// for `list`. The test harness's own output goes to stderr (stdout is for results); `quiet`
/// drops it instead (`list` runs the crate's other tests too).
pub fn drive(binary: &TestBinary, request: &Request<'_>, quiet: bool) -> Result<Answer, String> {
    let out = out_file();
    let mut cmd = Command::new(&binary.exe);
    // Slow properties are often `#[ignore]`d: they are properties all the same.
    cmd.arg("--include-ignored");
    if let Some(p) = request.property {
        let Some(test) = p.test.as_deref() else {
            return Err(format!(
                "cannot tell which test runs `{}`: run it on its test's own thread (libtest names that thread after the test)",
                p.name
            ));
        };
        cmd.args([test, "--exact", "--nocapture"]);
    }
    let served = tapefuzz::serve::Request {
        command: Some(request.command),
        property: request.property.map(|p| p.name.clone()),
        out: Some(out.clone()),
        args: request.args.clone(),
        mode: request.mode,
        part: request.part.clone(),
    };
    cmd.current_dir(&binary.package_dir)
        .env("CARGO_MANIFEST_DIR", &binary.package_dir)
        .envs(served.to_env())
        .envs(request.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null());
    if quiet {
        cmd.stdout(Stdio::null()).stderr(Stdio::null());
    } else {
        // libtest's "running 1 test" lines are not results: stdout of the child goes to our
        // stderr.
        cmd.stdout(std::io::stderr());
    }
    let status = wait_forwarding_sigterm(&mut cmd)
        .map_err(|e| format!("cannot run {}: {e}", binary.exe.display()))?;
    let text = std::fs::read_to_string(&out).unwrap_or_default();
    let _ = std::fs::remove_file(&out);
    let lines = text
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    Ok(Answer { lines, status })
}

/// The properties of `binaries` (`env`: variables for the test binaries, such as
/// `TAPEFUZZ_CORPORA`): each binary runs its tests with `TAPEFUZZ_COMMAND=list`,
/// so each property announces itself and returns at once. Tests that are not properties
/// run as under `cargo test` (their outcome is ignored).
pub fn list(binaries: &[TestBinary], env: &[(String, String)]) -> Result<Vec<Found>, String> {
    let mut found = Vec::new();
    for b in binaries {
        let request = Request {
            command: Asked::List,
            property: None,
            args: Vec::new(),
            env: env.to_vec(),
            mode: Mode::Blackbox,
            part: PartRequest::default(),
        };
        let answer = drive(b, &request, true)?;
        // A failing test ends with 101; anything else (a signal, an abort) may have cut the
        // listing short.
        if !answer.status.success() && answer.status.code() != Some(101) {
            eprintln!(
                "cargo-tapefuzz: warning: {} ended ({}) while listing its properties: those of \
                 the tests after the one that ended it are missing",
                b.exe.display(),
                answer.status
            );
        }
        for line in answer.lines {
            if let Some(e) = error(&line) {
                return Err(format!("{}: {e}", b.exe.display()));
            }
            if line["type"] != "property" {
                continue;
            }
            let Some(name) = line["name"].as_str() else {
                continue;
            };
            // A test that runs one property several times announces it each time; two
            // binaries announcing one name share its corpus: said, the first one kept.
            if let Some(first) = found.iter().find(|f: &&Found| f.name == name) {
                if first.binary.exe != b.exe {
                    eprintln!(
                        "cargo-tapefuzz: warning: two test binaries announce the property `{name}` \
                         ({} and {}): they share its corpus and commands run the first; give one \
                         a name of its own (Property::new(\"…\"))",
                        first.binary.exe.display(),
                        b.exe.display()
                    );
                }
                continue;
            }
            found.push(Found {
                name: name.to_string(),
                test: line["test"].as_str().map(str::to_string),
                corpus: line["corpus"].as_str().map(str::to_string),
                binary: b.clone(),
            });
        }
    }
    found.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(found)
}

/// The error line's message, if `line` is one.
pub fn error(line: &Value) -> Option<&str> {
    (line["type"] == "error").then(|| line["message"].as_str().unwrap_or("error"))
}

/// The property `wanted` among `all`: its full name, or a unique suffix after `::` (so
/// `roundtrip` finds `x1::roundtrip` when no other property ends so).
pub fn resolve<'a>(all: &'a [Found], wanted: &str) -> Result<&'a Found, String> {
    if let Some(f) = all.iter().find(|f| f.name == wanted) {
        return Ok(f);
    }
    let suffix = format!("::{wanted}");
    let matches: Vec<&Found> = all.iter().filter(|f| f.name.ends_with(&suffix)).collect();
    match matches.as_slice() {
        [one] => Ok(one),
        [] => Err(format!(
            "no property `{wanted}` (properties: {})",
            names(all)
        )),
        _ => Err(format!(
            "`{wanted}` names several properties: {} (give the full name)",
            matches
                .iter()
                .map(|f| f.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

fn names(all: &[Found]) -> String {
    if all.is_empty() {
        return "none found".into();
    }
    all.iter()
        .map(|f| f.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A path as an absolute one (the test binary runs in its package folder).
pub fn absolute(path: &str) -> String {
    let p = Path::new(path);
    if p.is_absolute() {
        return path.to_string();
    }
    std::env::current_dir()
        .map(|d| d.join(p).display().to_string())
        .unwrap_or_else(|_| path.to_string())
}

/// Runs `cmd` to its end. A SIGTERM sent to this process (a CI's timeout) is passed on to
/// the test binary, which stops its run cleanly and writes its summary; SIGINT from a
/// terminal reaches both processes already (one process group), so it is not sent again,
/// which would end the test binary at once.
fn wait_forwarding_sigterm(cmd: &mut Command) -> std::io::Result<ExitStatus> {
    let mut child = cmd.spawn()?;
    #[cfg(unix)]
    let (mut forwarded, mut stopped) = (false, false);
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(status);
        }
        #[cfg(unix)]
        if !forwarded && tapefuzz::engine::interrupted() == Some(libc::SIGTERM) {
            forwarded = true;
            // SAFETY: kill(2) on our own child's pid, which has not been reaped yet.
            unsafe {
                libc::kill(child.id() as libc::pid_t, libc::SIGTERM);
            }
        }
        #[cfg(unix)]
        if !stopped && STOP_ALL.load(std::sync::atomic::Ordering::Relaxed) {
            stopped = true;
            // SAFETY: as above. libFuzzer ends on SIGINT, writing what it found.
            unsafe {
                libc::kill(child.id() as libc::pid_t, libc::SIGINT);
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(name: &str) -> Found {
        Found {
            name: name.into(),
            test: None,
            corpus: None,
            binary: TestBinary {
                exe: PathBuf::new(),
                package_dir: PathBuf::new(),
                select: Vec::new(),
            },
        }
    }

    #[test]
    fn names_resolve_whole_or_by_a_unique_suffix() {
        let all = [
            found("x1::roundtrip"),
            found("x2::roundtrip"),
            found("demo::tests::encode_is_short"),
            found("bst_valid"),
        ];
        assert_eq!(
            resolve(&all, "x2::roundtrip").unwrap().name,
            "x2::roundtrip"
        );
        assert_eq!(resolve(&all, "bst_valid").unwrap().name, "bst_valid");
        assert_eq!(
            resolve(&all, "encode_is_short").unwrap().name,
            "demo::tests::encode_is_short"
        );
        assert_eq!(
            resolve(&all, "tests::encode_is_short").unwrap().name,
            "demo::tests::encode_is_short"
        );
        let e = resolve(&all, "roundtrip").unwrap_err();
        assert!(
            e.contains("x1::roundtrip") && e.contains("x2::roundtrip"),
            "{e}"
        );
        // A suffix matches whole segments only.
        let e = resolve(&all, "trip").unwrap_err();
        assert!(e.contains("no property `trip`"), "{e}");
        assert!(resolve(&[], "x").unwrap_err().contains("none found"));
    }
}
