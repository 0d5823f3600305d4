//! `cargo tapefuzz`: the tapefuzz properties of any crate, from the command line.
//!
//! ```text
//! cargo tapefuzz list                                  the properties in the crate's tests
//! cargo tapefuzz run <property|--all> [--strategy S] [--seconds N] [--tests N] [--seed N] [--stats] [--jobs N]
//! cargo tapefuzz replay <property> [FILE…]             regressions and corpus, or the files
//! cargo tapefuzz explain <property> FILE [--path P [--dot F] [--svg F]]
//!                                                      value, failure and span tree of a tape;
//!                                                      with --path, the provenance of a part
//! cargo tapefuzz shrink <property> FILE                the minimal failing value (saves nothing)
//! cargo tapefuzz import <property> FILE…               libFuzzer crashes → shrunk regressions
//! cargo tapefuzz fuzz <property> [--seconds N] [--jobs N] [--sanitizer address] [-- libFuzzer flags]
//! cargo tapefuzz greybox <property> [--seconds N] [--strategy S]
//! cargo tapefuzz ci [--seconds-per-target N] [--strategy S] [--junit FILE] [--keep N] [--shard K/N] [--jobs N]
//! cargo tapefuzz merge DIR… [--corpora DEST]           corpora of several jobs → one
//! cargo tapefuzz cmin <property>                       corpus/ cut to what covers its tape features
//! cargo tapefuzz build-fuzzers [OUT] [--sanitizer S]   standalone fuzzers for OSS-Fuzz / ClusterFuzzLite
//! ```
//!
//! The mechanism: cargo builds the crate's test binaries (`cargo test --no-run`), and a test
//! binary runs one test (`<test> --exact`) with `TAPEFUZZ_COMMAND` and friends set; the
//! property in it serves the command (`tapefuzz::serve`). So the test harness is
//! the registry: any property run by `check`, `property!` or `Property::…` in a `#[test]` is
//! a property here, with the same corpus folder as under `cargo test`. `fuzz` and `greybox`
//! build the tests again with coverage instrumentation of every crate the tests reach
//! (dependencies included; `--instrument` narrows it), in `target/tapefuzz/<fuzz|greybox>/`.
//!
//! Results (JSON summary lines) go to stdout, progress and reports to stderr. Exit status: 0
//! passed, 1 a property failed (or a crash was found), 2 an error.

mod args;
mod build;
mod commands;
mod drive;
mod merge;
mod standalone;
mod zip;

use std::ffi::OsString;

const USAGE: &str = "usage: cargo tapefuzz <list|run|replay|explain|shrink|import|fuzz|greybox|ci|merge|cmin|build-fuzzers> [property] [files…] [flags]
  list                          the properties in the crate's test targets
  run <property|--all>          a campaign: --strategy S --seconds N --tests N --valid-tests N
                                --seed N --stats --jobs N (N processes on one corpus)
  replay <property> [FILE…]     replay regressions and corpus, or the given tape files
  explain <property> FILE       a tape's value, failure and span tree; --path P (`.1[0].x`):
                                the provenance of that part, --dot F / --svg F its graph
  shrink <property> FILE        shrink a failing tape and print the minimal value
  import <property> FILE…       shrink libFuzzer crashes and save them to regressions/
  fuzz <property>               libFuzzer on the property: --seconds N, --jobs N (N processes
                                on one corpus), -- libFuzzer flags
  greybox <property|--all>      the in-process coverage-guided engine: --seconds N --strategy S
  ci                            reuse, then a campaign per property: --seconds-per-target N
                                --strategy S (default rl) --junit FILE --keep N
                                --shard K/N (the K-th of N shares of the properties, by name)
                                --jobs N (N properties at a time)
  merge DIR…                    copy the corpora folders DIR… (CI shards, other machines) into
                                ./corpora or --corpora DEST: what is missing, nothing overwritten
  cmin <property>               cut corpus/ down to the entries that cover its tape features
  build-fuzzers [OUT]           every property as a standalone libFuzzer binary in OUT (default
                                $OUT, as OSS-Fuzz sets it), with <name>_seed_corpus.zip;
                                --sanitizer address|none (default $SANITIZER, else none)
--version, --help (also after a command)
common flags: --manifest-path PATH, -p PACKAGE, --test TARGET, --features F, --release, --corpora DIR
fuzz and greybox: --instrument all|workspace|CRATE,… (which crates get coverage; default all,
                                dependencies included), --no-debug-assertions
fuzz, build-fuzzers, import, shrink, replay, explain: --sanitizer address (AddressSanitizer,
                                in the fuzz build: nightly Rust, `cargo +nightly tapefuzz …`)
                                or none (the default)";

/// The commands, for the hint after a misspelt one.
const COMMANDS: &[&str] = &[
    "list",
    "run",
    "greybox",
    "replay",
    "explain",
    "shrink",
    "import",
    "fuzz",
    "ci",
    "merge",
    "cmin",
    "build-fuzzers",
];

fn main() {
    // Output piped into `head` ends this process quietly, as any command-line tool, instead
    // of a panic on a closed stdout (Rust ignores SIGPIPE by default).
    #[cfg(unix)]
    // SAFETY: restoring a signal's default disposition before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let argv: Vec<OsString> = std::env::args_os().collect();
    if let Some(build) = std::env::var_os(build::WRAP_VAR) {
        std::process::exit(build::wrap(&build.to_string_lossy(), &argv[1..]));
    }
    let args: Result<Vec<String>, String> = argv
        .into_iter()
        .skip(1)
        .map(|a| {
            a.into_string()
                .map_err(|a| format!("argument {a:?} is not valid UTF-8"))
        })
        .collect();
    let code = match args.and_then(|a| run(&a)) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("cargo-tapefuzz: error: {e}");
            2
        }
    };
    std::process::exit(code);
}

fn run(argv: &[String]) -> Result<i32, String> {
    // `cargo tapefuzz …` runs `cargo-tapefuzz tapefuzz …`.
    let argv = match argv.first().map(String::as_str) {
        Some("tapefuzz") => &argv[1..],
        _ => argv,
    };
    let Some((command, rest)) = argv.split_first() else {
        eprintln!("{USAGE}");
        return Ok(2);
    };
    if matches!(command.as_str(), "-h" | "--help" | "help") {
        println!("{USAGE}");
        return Ok(0);
    }
    if matches!(command.as_str(), "-V" | "--version" | "version") {
        println!(
            "cargo-tapefuzz {} (tapefuzz tape encoding {})",
            env!("CARGO_PKG_VERSION"),
            tapefuzz::tape::ENCODING_VERSION
        );
        return Ok(0);
    }
    // `cargo tapefuzz fuzz --help`: the usage, not an unknown flag (libFuzzer's own flags
    // after `--` are left alone).
    if rest
        .iter()
        .take_while(|a| *a != "--")
        .any(|a| a == "-h" || a == "--help")
    {
        println!("{USAGE}");
        return Ok(0);
    }
    let args = args::Args::parse(rest)?;
    if args.jobs.is_some() && !matches!(command.as_str(), "fuzz" | "run" | "ci") {
        return Err(format!(
            "--jobs is a flag of `fuzz`, `run` and `ci`, not of `{command}`"
        ));
    }
    if args.sanitizer.is_some()
        && !matches!(
            command.as_str(),
            "fuzz" | "build-fuzzers" | "import" | "shrink" | "replay" | "explain"
        )
    {
        return Err(format!(
            "--sanitizer is a flag of `fuzz`, `build-fuzzers` and the commands on tape files (`import`, `shrink`, `replay`, `explain`), not of `{command}`"
        ));
    }
    if args.shard.is_some() && command != "ci" {
        return Err(format!("--shard is a flag of `ci`, not of `{command}`"));
    }
    match command.as_str() {
        "list" => commands::list(&args),
        "run" => commands::run(&args, build::Build::Plain),
        "greybox" => commands::run(&args, build::Build::Greybox),
        "replay" => commands::replay(&args),
        "explain" => commands::files(&args, "explain"),
        "shrink" => commands::files(&args, "shrink"),
        "import" => commands::files(&args, "import"),
        "fuzz" => commands::fuzz(&args),
        "ci" => commands::ci(&args),
        "merge" => commands::merge(&args),
        "cmin" => commands::cmin(&args),
        "build-fuzzers" => standalone::build_fuzzers(&args),
        other => {
            let hint = if other.starts_with('-') {
                " (the command comes first, its flags after it)".to_string()
            } else {
                tapefuzz::settings::closest_name(other, COMMANDS)
                    .map(|c| format!(" (did you mean `{c}`?)"))
                    .unwrap_or_default()
            };
            Err(format!("unknown command `{other}`{hint}\n{USAGE}"))
        }
    }
}
