//! One test case in a process of its own: how a test case that kills its process (an abort,
//! a stack overflow, an allocation failure, a hang) is replayed, shrunk and reported.
//!
//! The parent re-runs its own executable with `TAPEFUZZ_CHILD` naming a request file (the
//! property and the tape): under libtest, filtered to the one test (`<name> --exact`); a
//! program of one's own, with its own arguments. When that process reaches the property (in
//! [`Property::run_test_observed`](super::Property::run_test_observed), which calls
//! [`serve_child`]), it serves the request instead of running: it
//! writes the tape the generator recorded, runs the test case and writes how it ended, and
//! exits. Other properties in a child return at once without running. The parent reads the
//! answer, or how the process died, and kills it after the timeout.

use super::Test;
use crate::corpus::{from_hex, to_hex};
use crate::engine::Isolated;
use crate::tape::{BytesSource, Status, Tape};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The variable that makes a process a child.
pub const CHILD_VAR: &str = "TAPEFUZZ_CHILD";

/// How long an isolated test case may run when the run has no timeout.
pub const DEFAULT_ISOLATED_TIMEOUT: Duration = Duration::from_secs(10);

/// A child's request.
struct Request {
    property: String,
    tape: Vec<u8>,
    out: PathBuf,
    /// The parent kills the child after this; the child ends itself a little later, in case
    /// the parent died first.
    timeout: Duration,
    /// The parent's allocation limit in bytes (0: none), which the child applies too.
    malloc_limit: u64,
}

fn one_line(s: &str) -> String {
    s.replace('\\', "\\\\").replace('\n', "\\n")
}

fn read_request(path: &Path) -> Option<Request> {
    let text = std::fs::read_to_string(path).ok()?;
    let (mut property, mut tape, mut out) = (None, None, None);
    let mut timeout = DEFAULT_ISOLATED_TIMEOUT;
    let mut malloc_limit = 0;
    for line in text.lines() {
        match line.split_once(": ") {
            Some(("property", v)) => property = Some(v.to_string()),
            Some(("tape", v)) => tape = from_hex(v).ok(),
            Some(("out", v)) => out = Some(PathBuf::from(v)),
            Some(("timeout_ms", v)) => {
                if let Ok(ms) = v.parse() {
                    timeout = Duration::from_millis(ms);
                }
            }
            Some(("malloc_limit", v)) => malloc_limit = v.parse().unwrap_or(0),
            _ => {}
        }
    }
    Some(Request {
        property: property?,
        tape: tape?,
        out: out?,
        timeout,
        malloc_limit,
    })
}

/// Serves the child request in the file `path` for the property `name` running `test`, and
/// exits; returns (without running anything) when the request is for another property. A
/// request file that cannot be read ends the process with exit status 2.
pub fn serve_child(path: &Path, name: &str, test: &dyn Test, max_choices: usize) {
    let Some(req) = read_request(path) else {
        // Never a silent pass: a process given a request it cannot read runs nothing.
        eprintln!(
            "tapefuzz: {CHILD_VAR}={}: cannot read the request (this variable is set by tapefuzz for a test case run in a process of its own)",
            path.display()
        );
        std::process::exit(2);
    };
    if req.property != name {
        return;
    }
    let Ok(mut out) = std::fs::File::create(&req.out) else {
        std::process::exit(2);
    };
    // The parent's allocation limit: a test case over it fails here as it failed there.
    crate::allocation::set_limit(Some(req.malloc_limit));
    // An orphan never outlives its parent's patience by much.
    let limit = req.timeout * 2 + Duration::from_secs(1);
    std::thread::spawn(move || {
        std::thread::sleep(limit);
        std::process::exit(crate::engine::HANG_EXIT_CODE);
    });
    // First the tape the generator records (so the parent has it even if the test case kills
    // this process), then how the test case ends.
    let mut src = BytesSource::new(&req.tape);
    let mut tape = Tape::recording(&mut src).with_max_choices(max_choices);
    test.generate_only(&mut tape);
    let recorded = crate::tape::encoding::encode(tape.finish().choices.as_slice());
    let _ = writeln!(out, "tape: {}", to_hex(&recorded));
    let _ = out.flush();
    let mut src = BytesSource::new(&req.tape);
    let mut tape = Tape::recording(&mut src).with_max_choices(max_choices);
    // The test case's own time: the parent's timeout is for it, not for this process's
    // start, which a loaded machine can make slow.
    let started = std::time::Instant::now();
    let e = test.explain(&mut tape);
    let _ = writeln!(out, "ms: {}", started.elapsed().as_millis());
    let _ = writeln!(out, "status: {}", e.status as u8);
    if let Some(m) = e.message {
        let _ = writeln!(out, "message: {}", one_line(&m));
    }
    let _ = out.sync_all();
    std::process::exit(0);
}

/// The arguments that make this executable run the one property again: libtest's filter for
/// the test `test` (or the current test thread's name), or this process's own arguments.
fn child_args(test: Option<&str>) -> Vec<String> {
    let thread = std::thread::current();
    let name = test.or(thread.name().filter(|n| *n != "main"));
    match name {
        Some(n) => vec![
            n.to_string(),
            "--exact".into(),
            // The property may be in an `#[ignore]`d test run with `--include-ignored`.
            "--include-ignored".into(),
            "--test-threads=1".into(),
            "-q".into(),
        ],
        None => std::env::args().skip(1).collect(),
    }
}

#[cfg(unix)]
fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGABRT => "SIGABRT",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGBUS => "SIGBUS",
        libc::SIGILL => "SIGILL",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGTRAP => "SIGTRAP",
        _ => "a signal",
    }
}

/// How a child process died, when it did not exit normally.
fn death(status: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return format!("crashed: killed by signal {sig} ({})", signal_name(sig));
        }
    }
    match status.code() {
        Some(c) => format!("crashed: exited with status {c}"),
        None => "crashed".into(),
    }
}

/// The prefix of a child's folder in the temporary folder.
const CHILD_DIR: &str = "tapefuzz-child-";

/// A folder of its own for one child, `<tmp>/tapefuzz-child-<random>`, created exclusively
/// (never derived from the process id: in containers every run can have the same one), with a
/// `lock` file held while the child runs: a folder whose lock nobody holds is a dead run's
/// leftover, removed by the first child of the next run ([`clean_stale_children`]).
fn child_dir() -> Option<(PathBuf, std::fs::File)> {
    let tmp = std::env::temp_dir();
    static CLEANED: std::sync::Once = std::sync::Once::new();
    CLEANED.call_once(|| clean_stale_children(&tmp));
    for _ in 0..16 {
        // Made under a hidden name, its lock taken, then renamed into view: a cleaner never
        // sees a folder whose lock is not held yet.
        let staging = tmp.join(format!(
            ".{CHILD_DIR}{:016x}",
            crate::corpus::random_suffix()
        ));
        match std::fs::create_dir(&staging) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(_) => return None,
        }
        let locked = std::fs::File::create(staging.join("lock"))
            .ok()
            .filter(|f| f.lock().is_ok());
        let dir = tmp.join(format!(
            "{CHILD_DIR}{:016x}",
            crate::corpus::random_suffix()
        ));
        match locked {
            Some(lock) if !dir.exists() && std::fs::rename(&staging, &dir).is_ok() => {
                return Some((dir, lock));
            }
            _ => {
                let _ = std::fs::remove_dir_all(&staging);
            }
        }
    }
    None
}

/// How long a child may take to start and reach the property before its timeout starts
/// counting anyway (a child that never gets there is a hang, not a wait forever).
const CHILD_START: Duration = Duration::from_secs(10);

/// Removes the child folders in `tmp` whose lock nobody holds (their run died).
fn clean_stale_children(tmp: &Path) {
    let Ok(read) = std::fs::read_dir(tmp) else {
        return;
    };
    for item in read.flatten() {
        if !item.file_name().to_string_lossy().starts_with(CHILD_DIR)
            || !item.file_type().is_ok_and(|t| t.is_dir())
        {
            continue;
        }
        let dir = item.path();
        // A lock that is not a regular file (a FIFO or a link someone planted) is never
        // waited on nor followed: the folder is left alone.
        let free =
            crate::corpus::open_regular(&dir.join("lock"), std::fs::OpenOptions::new().write(true))
                .is_ok_and(|f| f.try_lock().is_ok());
        if free {
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}

/// The last [`STDERR_TAIL`] bytes a child writes to `stderr`, read on a thread of their own
/// until it closes, then sent (a child that prints without end fills no disk and never
/// blocks; a process the child left behind holding the pipe only delays the words).
fn tail_of(mut stderr: std::process::ChildStderr) -> std::sync::mpsc::Receiver<Vec<u8>> {
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::io::Read as _;
        let mut tail = Vec::new();
        let mut buf = [0u8; 8192];
        while let Ok(n) = stderr.read(&mut buf) {
            if n == 0 {
                break;
            }
            tail.extend_from_slice(&buf[..n]);
            if tail.len() > 2 * STDERR_TAIL {
                tail.drain(..tail.len() - STDERR_TAIL);
            }
        }
        let keep = tail.len().saturating_sub(STDERR_TAIL);
        tail.drain(..keep);
        let _ = send.send(tail);
    });
    receive
}

/// How much of a child's stderr is kept for its last words.
const STDERR_TAIL: usize = 64 * 1024;

/// What a process that died said about it, from its stderr: a sanitizer's `SUMMARY:` line,
/// else the last `fatal runtime error` or `ERROR:` line (at most 200 characters).
fn last_words(stderr: &str) -> Option<String> {
    let lines: Vec<&str> = stderr.lines().map(str::trim).collect();
    let found = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("SUMMARY: "))
        .or_else(|| {
            lines
                .iter()
                .rev()
                .find(|l| l.contains("fatal runtime error") || l.contains("ERROR: "))
        })?;
    Some(found.chars().take(200).collect())
}

/// Runs the test case of `tape` for the property `name` in a child process (see the module
/// docs), killed after `timeout` (default [`DEFAULT_ISOLATED_TIMEOUT`]). `None` when no child
/// could be started, and always in a process that is itself such a child.
pub(crate) fn run_isolated(
    name: &str,
    test: Option<&str>,
    tape: &[u8],
    timeout: Option<Duration>,
) -> Option<Isolated> {
    // A child never starts children of its own: whatever path led here, a chain of
    // processes each starting the next is impossible.
    if crate::env::path_var(CHILD_VAR).is_some() {
        return None;
    }
    let exe = std::env::current_exe().ok()?;
    let (dir, _lock) = child_dir()?;
    let req = dir.join("request");
    let out = dir.join("answer");
    let limit = timeout.unwrap_or(DEFAULT_ISOLATED_TIMEOUT);
    let text = format!(
        "property: {name}\ntape: {}\nout: {}\ntimeout_ms: {}\nmalloc_limit: {}\n",
        to_hex(tape),
        out.display(),
        limit.as_millis(),
        crate::allocation::limit().unwrap_or(0)
    );
    std::fs::write(&req, text).ok()?;
    let result = (|| {
        let mut command = Command::new(&exe);
        command
            .args(child_args(test))
            .env(CHILD_VAR, &req)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            // Read for what a dying process says last (a sanitizer's summary).
            .stderr(Stdio::piped());
        // A process group of its own: a Ctrl-C or a CI's SIGTERM to the group stops the run
        // (cleanly, in this process), not the test case, whose death would read as a crash.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn().ok()?;
        let said = child.stderr.take().map(tail_of);
        let spawned = Instant::now();
        // The timeout counts from when the child reached the property (its `tape:` line),
        // not from the spawn: starting a process on a loaded machine can take longer than
        // the test case is allowed.
        let mut case_started: Option<Instant> = None;
        let status = loop {
            if case_started.is_none()
                && std::fs::read_to_string(&out).is_ok_and(|a| a.starts_with("tape: "))
            {
                case_started = Some(Instant::now());
            }
            let overdue = match case_started {
                // Past the limit, a grace period: a child that is dying (an abort, an
                // allocation failure printing its backtrace) is a crash, not a hang.
                Some(t) => t.elapsed() > limit + crate::engine::GRACE,
                None => spawned.elapsed() > limit + crate::engine::GRACE + CHILD_START,
            };
            match child.try_wait() {
                Ok(Some(s)) => break Some(s),
                Ok(None) if overdue => {
                    let _ = child.kill();
                    let _ = child.wait();
                    break None;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(2)),
                Err(_) => return None,
            }
        };
        let answer = std::fs::read_to_string(&out).unwrap_or_default();
        let field = |key: &str| {
            answer
                .lines()
                .find_map(|l| l.strip_prefix(key).map(str::to_string))
        };
        let Some(status) = status else {
            return Some(Isolated::hang(limit));
        };
        // Ended on its own within the grace period, but past the limit: it ran over (unless
        // it died, which is a crash). The child's own measure of the test case when it gave
        // one, else the time since it reached the property.
        let ran_over = match field("ms: ").and_then(|ms| ms.trim().parse::<u64>().ok()) {
            Some(ms) => Duration::from_millis(ms) > limit,
            None => case_started.unwrap_or(spawned).elapsed() > limit,
        };
        if let Some(code) = field("status: ") {
            if ran_over {
                return Some(Isolated::hang(limit));
            }
            let status = match code.trim() {
                "0" => Status::Overrun,
                "1" => Status::Invalid,
                "2" => Status::Valid,
                _ => Status::Interesting,
            };
            return Some(Isolated {
                status,
                message: field("message: ").map(|m| m.replace("\\n", "\n")),
                timed_out: false,
                crashed: false,
            });
        }
        if field("tape: ").is_none() && status.code().is_some() {
            // The child never reached the property (another test, a filter that matched
            // nothing, a request it could not read): it cannot be isolated this way.
            return None;
        }
        let said = said
            .and_then(|r| r.recv_timeout(Duration::from_secs(1)).ok())
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default();
        Some(Isolated {
            status: Status::Interesting,
            message: Some(match last_words(&said) {
                Some(w) => format!("{} ({w})", death(status)),
                None => death(status),
            }),
            timed_out: false,
            crashed: true,
        })
    })();
    let _ = std::fs::remove_dir_all(&dir);
    result
}

#[cfg(test)]
mod tests {
    use super::last_words;

    #[test]
    fn a_dying_process_is_known_by_its_last_words() {
        let asan = "==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x1\n  #0 f\nSUMMARY: AddressSanitizer: heap-buffer-overflow props.rs in f\n==1==ABORTING\n";
        assert_eq!(
            last_words(asan).as_deref(),
            Some("SUMMARY: AddressSanitizer: heap-buffer-overflow props.rs in f")
        );
        let overflow = "\nthread 'x' has overflowed its stack\nfatal runtime error: stack overflow, aborting\n";
        assert_eq!(
            last_words(overflow).as_deref(),
            Some("fatal runtime error: stack overflow, aborting")
        );
        assert_eq!(last_words("running 1 test\n"), None);
        assert_eq!(
            last_words(&format!("SUMMARY: {}", "x".repeat(500)))
                .unwrap()
                .len(),
            200
        );
    }
}
