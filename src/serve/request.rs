//! The request a test binary serves: what `cargo tapefuzz` (or a parent test process) asks
//! of one property, written to the environment and read back from it here, in one place.

use super::explain::PartRequest;
use crate::env;
use std::ffi::OsString;
use std::path::PathBuf;

/// The command (see [`Command`]).
pub const COMMAND_VAR: &str = "TAPEFUZZ_COMMAND";
/// The one property that serves the command.
pub const PROPERTY_VAR: &str = "TAPEFUZZ_PROPERTY";
/// The file the property appends its JSON lines to.
pub const OUT_VAR: &str = "TAPEFUZZ_OUT";
/// The command's arguments: a JSON array of strings (tape files; libFuzzer's arguments).
pub const ARGS_VAR: &str = "TAPEFUZZ_ARGS";
/// `blackbox` (the default) or `greybox`.
pub const MODE_VAR: &str = "TAPEFUZZ_MODE";
/// `explain`: the path of the part to explain (`.1[0].x`; see
/// [`PartPath::parse`](crate::provenance::PartPath::parse)); empty or unset: the span tree
/// of the whole tape, as without it.
pub const EXPLAIN_PATH_VAR: &str = "TAPEFUZZ_EXPLAIN_PATH";
/// `explain` with [`EXPLAIN_PATH_VAR`]: a file to write the explanation graph to, in DOT.
pub const EXPLAIN_DOT_VAR: &str = "TAPEFUZZ_EXPLAIN_DOT";
/// `explain` with [`EXPLAIN_PATH_VAR`]: a file to write the explanation graph to, as SVG.
pub const EXPLAIN_SVG_VAR: &str = "TAPEFUZZ_EXPLAIN_SVG";
/// The variable that makes a process a child serving one isolated test case (its value: the
/// request file; see [`crate::property::isolation`]).
pub const CHILD_VAR: &str = crate::property::isolation::CHILD_VAR;

/// A command of `cargo tapefuzz`, as the test binary receives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// Announce the property.
    List,
    /// Run it.
    Run,
    /// Replay saved tapes.
    Replay,
    /// Describe tape files.
    Explain,
    /// Shrink failing tape files, saving nothing.
    Shrink,
    /// Shrink failing tape files and save them as regressions.
    Import,
    /// Run libFuzzer on the property.
    Fuzz,
    /// Minimise the property's `corpus/` by tape features.
    Cmin,
}

impl Command {
    /// Every command, by name.
    pub const ALL: [(&'static str, Command); 8] = [
        ("list", Command::List),
        ("run", Command::Run),
        ("replay", Command::Replay),
        ("explain", Command::Explain),
        ("shrink", Command::Shrink),
        ("import", Command::Import),
        ("fuzz", Command::Fuzz),
        ("cmin", Command::Cmin),
    ];

    /// The command named `name`, if there is one.
    pub fn named(name: &str) -> Option<Command> {
        Command::ALL
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, c)| c)
    }

    /// The command's name (`run`, …).
    pub fn name(self) -> &'static str {
        Command::ALL
            .iter()
            .find(|(_, c)| *c == self)
            .map_or("run", |(n, _)| n)
    }
}

/// Where `run` looks for coverage.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// No coverage: the strategies' own guidance (the default).
    #[default]
    Blackbox,
    /// The counters of an instrumented build (`cargo tapefuzz greybox`).
    Greybox,
}

impl Mode {
    /// `blackbox` or `greybox`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Blackbox => "blackbox",
            Mode::Greybox => "greybox",
        }
    }
}

/// What one test binary is asked: a command, for one property or (for `list`) all of them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Request {
    /// The command (`None` only in [`Request::default`], which asks nothing).
    pub command: Option<Command>,
    /// The one property that serves it; `None`: every property reached (`list`).
    pub property: Option<String>,
    /// The file the answers are appended to, one JSON object a line; `None`: stdout.
    pub out: Option<PathBuf>,
    /// Tape files (`replay`, `explain`, `shrink`, `import`) or libFuzzer's arguments (`fuzz`).
    pub args: Vec<String>,
    /// Where `run` looks for coverage.
    pub mode: Mode,
    /// `explain`: the part asked about and its graph files.
    pub part: PartRequest,
}

/// What this process is asked to do, read from its environment by [`Ask::from_env`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ask {
    /// Nothing: an ordinary run (`cargo test`, a program of one's own).
    Nothing,
    /// Serve one test case in a process of its own; the request file.
    Child(PathBuf),
    /// Serve a command.
    Command(Request),
}

impl Request {
    /// The environment that asks a test binary for this request: the command, property, out
    /// file, arguments and mode always (empty values for what is not asked, so a parent's
    /// leftovers never leak in); the part to explain only when it is asked.
    pub fn to_env(&self) -> Vec<(&'static str, OsString)> {
        let path = |p: &Option<PathBuf>| p.clone().map(OsString::from).unwrap_or_default();
        let mut env = vec![
            (COMMAND_VAR, self.command.map_or("", Command::name).into()),
            (
                PROPERTY_VAR,
                self.property.clone().unwrap_or_default().into(),
            ),
            (OUT_VAR, path(&self.out)),
            (
                ARGS_VAR,
                serde_json::to_string(&self.args)
                    .expect("strings serialize")
                    .into(),
            ),
            (MODE_VAR, self.mode.name().into()),
        ];
        // The part to explain only when asked: one set in the user's shell reaches the test
        // binary otherwise.
        if let Some(p) = &self.part.path {
            env.push((EXPLAIN_PATH_VAR, p.into()));
        }
        if self.part.dot.is_some() {
            env.push((EXPLAIN_DOT_VAR, path(&self.part.dot)));
        }
        if self.part.svg.is_some() {
            env.push((EXPLAIN_SVG_VAR, path(&self.part.svg)));
        }
        env
    }

    /// Reads a request from `var` (the environment, or a test's map): `Ok(None)` when no
    /// command is asked (unset or empty); an error, saying why, for a command, mode or
    /// argument list that cannot be read — a command must never pass silently.
    pub fn read(var: impl Fn(&str) -> Option<String>) -> Result<Option<Request>, String> {
        Request::read_for(var, None)
    }

    /// [`Request::read`] in the process of the property `serving` (`None`: any): the mode and
    /// the arguments are read (and can fail) only when the request is for it — `list`, and
    /// a request for another property, read the command, the property and the out file
    /// alone.
    pub fn read_for(
        var: impl Fn(&str) -> Option<String>,
        serving: Option<&str>,
    ) -> Result<Option<Request>, String> {
        let var = |name: &str| var(name).filter(|v| !v.is_empty());
        let Some(name) = var(COMMAND_VAR) else {
            return Ok(None);
        };
        let Some(command) = Command::named(&name) else {
            let valid: Vec<&str> = Command::ALL.iter().map(|(n, _)| *n).collect();
            return Err(format!(
                "{COMMAND_VAR}={name:?} is not a command (valid: {})",
                valid.join(", ")
            ));
        };
        let property = var(PROPERTY_VAR);
        let out = var(OUT_VAR).map(PathBuf::from);
        // `list` reads nothing else, and a property the command is not for returns at once:
        // neither fails on the rest of the request.
        let other = serving.is_some() && property.is_some() && property.as_deref() != serving;
        if command == Command::List || other {
            return Ok(Some(Request {
                command: Some(command),
                property,
                out,
                ..Request::default()
            }));
        }
        let mode = match var(MODE_VAR).as_deref() {
            None | Some("blackbox") => Mode::Blackbox,
            Some("greybox") => Mode::Greybox,
            Some(m) => {
                return Err(format!(
                    "{MODE_VAR}={m:?} is not a mode (valid: blackbox, greybox)"
                ));
            }
        };
        let args = match var(ARGS_VAR) {
            None => Vec::new(),
            Some(raw) => serde_json::from_str::<Vec<String>>(&raw)
                .map_err(|e| format!("{ARGS_VAR} is not a JSON array of strings: {e}"))?,
        };
        Ok(Some(Request {
            command: Some(command),
            property,
            out,
            args,
            mode,
            part: PartRequest {
                path: var(EXPLAIN_PATH_VAR),
                dot: var(EXPLAIN_DOT_VAR).map(PathBuf::from),
                svg: var(EXPLAIN_SVG_VAR).map(PathBuf::from),
            },
        }))
    }

    /// The command asked (`Run` for a default request).
    pub fn command(&self) -> Command {
        self.command.unwrap_or(Command::Run)
    }

    /// The tape files of the arguments.
    pub fn files(&self) -> Vec<PathBuf> {
        self.args.iter().map(PathBuf::from).collect()
    }
}

impl Ask {
    /// What the process environment asks the property `serving`: a child's request file
    /// (which wins: a child is started by a process that may itself serve a command), a
    /// command, or nothing. Errors as [`Request::read_for`]. Paths (the out file, the child's
    /// request, the graph files) are read as the operating system gives them, untrimmed.
    pub fn from_env(serving: &str) -> Result<Ask, String> {
        if let Some(path) = env::path_var(CHILD_VAR) {
            return Ok(Ask::Child(path));
        }
        // Each variable read as it is needed (trimmed, lossily, as `Env` reads them): in an
        // ordinary `cargo test` the command variable is unset and nothing else is read, where
        // a snapshot of the whole environment cost more than a short run's test cases.
        let request = Request::read_for(env::text_var, Some(serving))?;
        Ok(match request {
            Some(mut r) => {
                r.out = env::path_var(OUT_VAR);
                if r.part.dot.is_some() {
                    r.part.dot = env::path_var(EXPLAIN_DOT_VAR);
                }
                if r.part.svg.is_some() {
                    r.part.svg = env::path_var(EXPLAIN_SVG_VAR);
                }
                Ask::Command(r)
            }
            None => Ask::Nothing,
        })
    }

    /// Where the answers of a request that cannot be read go: the out file, if one is set.
    pub fn out_file() -> Option<PathBuf> {
        env::path_var(OUT_VAR)
    }

    /// Whether a property's explicit examples run before its search: in an ordinary run and
    /// under `run`, not under the other commands (`list` runs nothing; `explain`, `import`,
    /// … are about given tapes) nor in a process serving one isolated test case.
    pub fn runs_examples(&self) -> bool {
        match self {
            Ask::Nothing => true,
            Ask::Child(_) => false,
            Ask::Command(r) => r.command() == Command::Run,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn read(env: &[(&'static str, OsString)]) -> Result<Option<Request>, String> {
        let map: HashMap<&str, String> = env
            .iter()
            .map(|(k, v)| (*k, v.to_string_lossy().into_owned()))
            .collect();
        Request::read(|k| map.get(k).cloned())
    }

    #[test]
    fn a_request_reads_back_as_written() {
        let r = Request {
            command: Some(Command::Explain),
            property: Some("x1::p".into()),
            out: Some("/tmp/out.jsonl".into()),
            args: vec!["a b".into(), "c\"d".into()],
            mode: Mode::Greybox,
            part: PartRequest {
                path: Some(".1[0]".into()),
                dot: Some("/tmp/g.dot".into()),
                svg: None,
            },
        };
        assert_eq!(read(&r.to_env()).unwrap(), Some(r));
        assert_eq!(read(&Request::default().to_env()).unwrap(), None);
    }

    #[test]
    fn only_the_property_served_reads_the_rest_of_its_request() {
        let env = |command: &str, property: Option<&str>| {
            let mut e = vec![
                (COMMAND_VAR, OsString::from(command)),
                (MODE_VAR, "grey".into()),
                (ARGS_VAR, "[1]".into()),
            ];
            if let Some(p) = property {
                e.push((PROPERTY_VAR, p.into()));
            }
            e
        };
        let read_for = |e: &[(&'static str, OsString)], serving| {
            let map: HashMap<&str, String> = e
                .iter()
                .map(|(k, v)| (*k, v.to_string_lossy().into_owned()))
                .collect();
            Request::read_for(|k| map.get(k).cloned(), serving)
        };
        // `list`, and a request for another property, pass over a bad mode and arguments.
        assert!(read_for(&env("list", None), Some("a")).is_ok());
        let other = read_for(&env("replay", Some("b")), Some("a"))
            .unwrap()
            .unwrap();
        assert_eq!(other.property.as_deref(), Some("b"));
        // The property served fails on them.
        assert!(read_for(&env("replay", Some("a")), Some("a")).is_err());
        assert!(read_for(&env("replay", None), Some("a")).is_err());
        // The part to explain is written only when asked.
        let plain = Request {
            command: Some(Command::Run),
            ..Request::default()
        };
        assert!(
            !plain
                .to_env()
                .iter()
                .any(|(k, _)| k.starts_with("TAPEFUZZ_EXPLAIN"))
        );
    }

    #[test]
    fn a_bad_request_is_an_error() {
        let bad = |k: &'static str, v: &str| {
            let mut env = Request {
                command: Some(Command::Run),
                ..Request::default()
            }
            .to_env();
            env.retain(|(n, _)| *n != k);
            env.push((k, v.into()));
            read(&env).unwrap_err()
        };
        assert!(bad(COMMAND_VAR, "rnu").contains("not a command"));
        assert!(bad(MODE_VAR, "grey").contains("not a mode"));
        assert!(bad(ARGS_VAR, "[1]").contains("JSON array"));
    }
}
