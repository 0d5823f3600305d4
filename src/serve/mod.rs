//! The top of the crate: where a property starts, and what it does when the process is
//! asked for something other than an ordinary run.
//!
//! A property's entry points ([`check`], [`Property::check`](crate::property::Property::check),
//! [`Property::run`](crate::property::Property::run) and `run_test`) live here, above
//! everything they may dispatch to. Each reads what the process is asked, once, in one place
//! ([`Ask::from_env`]): nothing (an ordinary run through the engine), one test case in a
//! process of its own ([`crate::property::isolation`]), or a [`Request`] from `cargo
//! tapefuzz`, which this module serves.
//!
//! `cargo tapefuzz` builds the crate's test binaries and runs one of them with the request
//! in its environment ([`Request::to_env`]), filtered to one test (`<test> --exact`) or, for
//! `list`, to all of them. So the test harness is the registry of properties, and one
//! property written once in a test module runs under `cargo test`, the CLI's campaigns, the
//! in-process greybox engine and libFuzzer, with one corpus.
//!
//! | [`Command`] (`TAPEFUZZ_COMMAND`) | what the property does |
//! |---|---|
//! | `list` | appends its name, test and corpus to the out file; runs nothing (passes) |
//! | `run` | runs as configured by the environment (which here overrides the builder) and appends its JSON summary |
//! | `replay` | replays its regressions and corpus (no generation), or the tape files of [`ARGS_VAR`], and appends a summary |
//! | `explain` | appends each tape file's value, status, failure and span tree; with [`EXPLAIN_PATH_VAR`], the provenance of that part of the value instead of the span tree (and, with [`EXPLAIN_DOT_VAR`] / [`EXPLAIN_SVG_VAR`], its graph written to those files, for one tape file) |
//! | `shrink` | shrinks each failing tape file and appends the minimal value (saves nothing) |
//! | `import` | shrinks each failing tape file (a libFuzzer crash) and saves it to `regressions/` |
//! | `fuzz` | hands the process to libFuzzer (the `libfuzzer` feature), which runs this property on its inputs |
//!
//! Only the property named by [`PROPERTY_VAR`] serves the command (when that variable is
//! set): any other property reached in the same process returns at once, passing. Output goes
//! to the file named by [`OUT_VAR`], one JSON object per line, appended with one write each
//! (tests run in parallel under `list`). With [`MODE_VAR`]`=greybox`, `run` reads the
//! coverage counters of an instrumented build (the `sancov-callbacks` feature) and uses the
//! `greybox` strategy unless `TAPEFUZZ_STRATEGY` names another. A request that cannot be
//! read (an unknown command or mode, arguments that are not a JSON array of strings) ends
//! the process with exit status 2 and an `error` line: a command never passes silently.
//!
//! The clients' command line is parsed once, here too ([`Args`]): `cargo tapefuzz` and the
//! harnesses' CLI each name the [`Flag`]s they take.
//!
//! ```
//! use tapefuzz::serve::{Command, Request};
//!
//! let request = Request {
//!     command: Some(Command::Replay),
//!     property: Some("x1::roundtrip".into()),
//!     args: vec!["corpora/x1.roundtrip/regressions/1f2e.txt".into()],
//!     ..Request::default()
//! };
//! // What a client sets in the test binary's environment, and what the binary reads back.
//! let env = request.to_env();
//! let read = Request::read(|name| {
//!     env.iter()
//!         .find(|(n, _)| *n == name)
//!         .map(|(_, v)| v.to_string_lossy().into_owned())
//! });
//! assert_eq!(read, Ok(Some(request)));
//! ```

mod answer;
mod args;
mod ci;
mod cmin;
mod commands;
mod entry;
mod explain;
mod interrupt;
mod output;
mod request;
mod show;
mod standalone;

pub use answer::{Imported, Replayed};
pub use args::{Args, Flag, SANITIZERS, in_shard};
pub use ci::{CI_KEEP, CI_SECONDS, CI_STRATEGY, CiJob, check_junit_path};
pub use commands::{RUN_TESTS, answer};
pub use entry::{check, check_test};
pub use explain::{PartRequest, explanation, part_explanation};
pub use interrupt::{exit_status, interrupted_exit_status, stop_cleanly_on_signals};
pub use request::{
    ARGS_VAR, Ask, CHILD_VAR, COMMAND_VAR, Command, EXPLAIN_DOT_VAR, EXPLAIN_PATH_VAR,
    EXPLAIN_SVG_VAR, MODE_VAR, Mode, OUT_VAR, PROPERTY_VAR, Request,
};
pub use show::Show;
pub use standalone::{LAUNCH_FOLDER, Launch, STARTED_VAR};
