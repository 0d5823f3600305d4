//! Command-line parsing and the commands.

mod args;
mod ci;
mod commands;

pub use args::Args;

const USAGE: &str = "usage: harnesses <command> [options]
commands:
  list                                   targets, with their planted bugs
  run <target|--all> [--strategy random|sa|rl|greybox|swarm|…] [--mode blackbox|greybox] [--tests N | --seconds S]
      [--seed N] [--bug NAME] [--corpora DIR] [--jobs N] [--utility-trace FILE] [--keep N] [--stats]
      --stats (or TAPEFUZZ_STATS=1): per target on stderr, the counts (as in the JSON line),
      events, choices per test case, the time split and why the run stopped;
      TAPEFUZZ_OBSERVABILITY=FILE|DIR appends one JSON line per test case (Hypothesis's format)
      --strategy rl: RLCheck guidance towards unique valid values (TAPEFUZZ_RL_* settings)
      --keep N: an rl campaign adds at most N of its unique valid tapes to corpus/
      --utility-trace: one JSON line per new best utility value (test, label, value)
      --mode greybox: coverage as the observer, in-process (strategy greybox by default,
      or rl rewarding new coverage traces, or any other; one job); run the binary that
      scripts/greybox-build prints
      --all: graph_sink and graph_sink_dependent are false by design: a failure there is
      expected, saved nowhere, and does not fail the job
      TAPEFUZZ_TIMEOUT_MS: a watchdog ends a run whose test case overruns it (exit 70); the
      next run replays a test case that crashed or hung first, in a process of its own;
      SIGINT / SIGTERM stop the run cleanly (summary printed, exit 130 / 143)
  replay <target> [--bug NAME] [FILE...] replay corpus and regressions, or the given files
  shrink <target> [--bug NAME] FILE...   shrink failing tapes, print each minimal value (saves nothing)
  import <target> [--bug NAME] FILE...   shrink libFuzzer crashes on the tape into regressions/
  explain <target> [--bug NAME] FILE... [--path P] [--dot F] [--svg F]
      show the value and the choices behind each part; --path P (`.1[0].x`, `[2].0`, …):
      the provenance of that part instead — its own span, choices and tape bytes, and the
      upstream choices it depends on (found by changing each choice and generating again);
      --dot / --svg write its explanation graph
  ci [--seconds-per-target S] [--keep N] [--junit FILE] [--seed N] [--bug TARGET=BUG] [--corpora DIR]
      every target: replay regressions/ and corpus/, then an rl campaign of S seconds (10)
      that adds at most N (8) new unique valid tapes to corpus/; failures, shrunk, go to
      regressions/; exit 1 when any target fails or a save fails; --junit writes a JUnit
      XML report
import's --bug defaults to $TAPEFUZZ_BUG, as in the fuzz targets. replay FILE..., shrink,
import and explain are served by the library as `cargo tapefuzz` has them served: the same
lines on stderr, JSON answers and summary on stdout.";

/// Runs the CLI; returns the exit status (0 pass, 1 a failure found) or a usage error.
pub fn main(argv: &[String]) -> Result<i32, String> {
    let Some((cmd, rest)) = argv.split_first() else {
        return Err(
            "no command given (valid: list, run, replay, shrink, import, explain, ci; see --help)"
                .into(),
        );
    };
    let args = Args::parse(rest, args::FLAGS)?;
    if cmd != "explain" && (args.path.is_some() || args.dot.is_some() || args.svg.is_some()) {
        return Err("--path, --dot and --svg go with explain".into());
    }
    match cmd.as_str() {
        "list" => commands::list(&args),
        "run" => commands::run(&args),
        "replay" => commands::replay(&args),
        "shrink" => commands::shrink(&args),
        "import" => commands::import(&args),
        "explain" => commands::explain(&args),
        "ci" => ci::ci(&args),
        "help" | "--help" | "-h" => {
            println!("{USAGE}");
            Ok(0)
        }
        other => Err(format!(
            "unknown command `{other}` (valid: list, run, replay, shrink, import, explain, ci)"
        )),
    }
}
