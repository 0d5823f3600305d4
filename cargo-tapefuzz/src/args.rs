//! The flags `cargo tapefuzz` takes, and what a command sets for another it runs. The
//! parser is the library's, shared with the harnesses' CLI ([`tapefuzz::serve::Args`]).

use tapefuzz::serve::Flag;

/// Every flag, in the order the error on an unknown one lists them.
pub const FLAGS: &[Flag] = &[
    Flag::ManifestPath,
    Flag::Package,
    Flag::Test,
    Flag::Features,
    Flag::Release,
    Flag::All,
    Flag::Strategy,
    Flag::Seconds,
    Flag::Tests,
    Flag::ValidTests,
    Flag::Seed,
    Flag::Stats,
    Flag::SecondsPerTarget,
    Flag::Shard,
    Flag::Jobs,
    Flag::Junit,
    Flag::Keep,
    Flag::Corpora,
    Flag::Path,
    Flag::Dot,
    Flag::Svg,
    Flag::Instrument,
    Flag::NoDebugAssertions,
    Flag::Sanitizer,
    Flag::Passthrough,
];

/// The parsed command line (its fields through `Deref`), plus what a command sets for
/// another it runs (not flags).
#[derive(Clone, Debug, Default)]
pub struct Args {
    flags: tapefuzz::serve::Args,
    /// `import` run by `fuzz`: its answer lines go to stderr (stdout lists crash files).
    pub answers_to_stderr: bool,
    /// A per-test-case timeout for the test binary (`TAPEFUZZ_TIMEOUT_MS`), set by `fuzz`
    /// for the import of a `timeout-` input.
    pub timeout_ms: Option<u64>,
    /// The allocation limit for the test binary (`TAPEFUZZ_MALLOC_LIMIT_MB`), set by `fuzz`
    /// for the import of its crash files: libFuzzer's own.
    pub malloc_limit_mb: Option<u64>,
    /// `import` run by `fuzz` for its `oom-` inputs: in the build that fuzzed, whose
    /// allocation limit reproduces them, not the plain one.
    pub fuzz_build: bool,
}

impl Args {
    /// Parses everything after the command.
    pub fn parse(argv: &[String]) -> Result<Args, String> {
        Ok(Args {
            flags: tapefuzz::serve::Args::parse(argv, FLAGS)?,
            ..Args::default()
        })
    }
}

impl std::ops::Deref for Args {
    type Target = tapefuzz::serve::Args;
    fn deref(&self) -> &Self::Target {
        &self.flags
    }
}

impl std::ops::DerefMut for Args {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.flags
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<Args, String> {
        let v: Vec<String> = s.split_whitespace().map(String::from).collect();
        Args::parse(&v)
    }

    #[test]
    fn flags_positionals_and_passthrough() {
        let a = parse("x1::roundtrip --seconds 2 --release a b -- -runs=10 -max_len=64").unwrap();
        assert_eq!(a.positional, ["x1::roundtrip", "a", "b"]);
        assert_eq!(a.seconds, Some(2.0));
        assert!(a.release);
        assert_eq!(a.passthrough, ["-runs=10", "-max_len=64"]);
    }

    #[test]
    fn bad_flags_are_errors() {
        assert!(parse("--seconds -1").unwrap_err().contains("non-negative"));
        assert!(parse("--tests many").unwrap_err().contains("number"));
        assert!(parse("--what").unwrap_err().contains("unknown flag"));
        assert!(parse("--seed").unwrap_err().contains("needs a value"));
        // The harnesses' flags are not this tool's.
        assert!(parse("--bug x").unwrap_err().contains("unknown flag"));
    }
}
