//! Flags and positional arguments.

use std::path::PathBuf;

/// Parsed command-line options (which ones a command takes is checked by the command).
#[derive(Clone, Debug, Default)]
pub struct Args {
    /// Property names and files, in order.
    pub positional: Vec<String>,
    /// Everything after `--` (libFuzzer's flags for `fuzz`).
    pub passthrough: Vec<String>,
    /// `--manifest-path`.
    pub manifest_path: Option<PathBuf>,
    /// `-p` / `--package`.
    pub package: Option<String>,
    /// `--test`: only this test target.
    pub test_target: Option<String>,
    /// `--features`, forwarded to cargo.
    pub features: Vec<String>,
    /// `--release`.
    pub release: bool,
    /// `--all` (run, greybox: every property).
    pub all: bool,
    /// `--strategy`.
    pub strategy: Option<String>,
    /// `--seconds`.
    pub seconds: Option<f64>,
    /// `--tests`.
    pub tests: Option<u64>,
    /// `--valid-tests`.
    pub valid_tests: Option<u64>,
    /// `--seed`.
    pub seed: Option<u64>,
    /// `--stats`.
    pub stats: bool,
    /// `--seconds-per-target` (ci).
    pub seconds_per_target: Option<f64>,
    /// `--junit` (ci).
    pub junit: Option<PathBuf>,
    /// `--keep` (ci: corpus cap per property and run).
    pub keep: Option<usize>,
    /// `--corpora`: where corpora live instead of `<crate>/corpora`.
    pub corpora: Option<PathBuf>,
    /// `--path` (explain): the part of the value to explain.
    pub path: Option<String>,
    /// `--dot` (explain --path): where to write the explanation graph, in DOT.
    pub dot: Option<PathBuf>,
    /// `--svg` (explain --path): where to write the explanation graph, as SVG.
    pub svg: Option<PathBuf>,
    /// `--instrument` (fuzz, greybox): which crates get coverage — `all` (default),
    /// `workspace`, or crate names separated by commas.
    pub instrument: Option<String>,
    /// `--no-debug-assertions` (fuzz, greybox): instrumented crates without debug
    /// assertions and overflow checks.
    pub no_debug_assertions: bool,
    /// `import` run by `fuzz`: its answer lines go to stderr (stdout lists crash files).
    pub answers_to_stderr: bool,
    /// A per-test-case timeout for the test binary (`TAPEFUZZ_TIMEOUT_MS`), set by `fuzz`
    /// for the import of a `timeout-` input (not a flag).
    pub timeout_ms: Option<u64>,
}

/// Every flag, for the error on an unknown one.
pub const FLAGS: &str = "--manifest-path, -p/--package, --test, --features, --release, --all, --strategy, --seconds, --tests, --valid-tests, --seed, --stats, --seconds-per-target, --junit, --keep, --corpora, --path, --dot, --svg, --instrument, --no-debug-assertions";

fn value<'a>(flag: &str, it: &mut impl Iterator<Item = &'a String>) -> Result<&'a String, String> {
    it.next()
        .ok_or_else(|| format!("flag {flag} needs a value"))
}

fn number<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, String> {
    v.parse()
        .map_err(|_| format!("flag {flag} takes a number, got `{v}`"))
}

fn seconds(flag: &str, raw: &str) -> Result<f64, String> {
    let s: f64 = number(flag, raw)?;
    if tapefuzz::engine::seconds(s).is_none() {
        return Err(format!(
            "flag {flag} takes a non-negative number of seconds, got `{raw}`"
        ));
    }
    Ok(s)
}

impl Args {
    /// Parses everything after the command.
    pub fn parse(argv: &[String]) -> Result<Args, String> {
        let mut a = Args::default();
        let mut it = argv.iter();
        while let Some(arg) = it.next() {
            match arg.as_str() {
                "--" => {
                    a.passthrough = it.by_ref().cloned().collect();
                }
                "--manifest-path" => a.manifest_path = Some(value(arg, &mut it)?.into()),
                "-p" | "--package" => a.package = Some(value(arg, &mut it)?.clone()),
                "--test" => a.test_target = Some(value(arg, &mut it)?.clone()),
                "--features" => a.features.push(value(arg, &mut it)?.clone()),
                "--release" => a.release = true,
                "--all" => a.all = true,
                "--strategy" => a.strategy = Some(value(arg, &mut it)?.clone()),
                "--seconds" => a.seconds = Some(seconds(arg, value(arg, &mut it)?)?),
                "--tests" => a.tests = Some(number(arg, value(arg, &mut it)?)?),
                "--valid-tests" => a.valid_tests = Some(number(arg, value(arg, &mut it)?)?),
                "--seed" => a.seed = Some(number(arg, value(arg, &mut it)?)?),
                "--stats" => a.stats = true,
                "--seconds-per-target" => {
                    a.seconds_per_target = Some(seconds(arg, value(arg, &mut it)?)?);
                }
                "--junit" => a.junit = Some(value(arg, &mut it)?.into()),
                "--keep" => a.keep = Some(number(arg, value(arg, &mut it)?)?),
                "--corpora" => a.corpora = Some(value(arg, &mut it)?.into()),
                "--path" => a.path = Some(value(arg, &mut it)?.clone()),
                "--dot" => a.dot = Some(value(arg, &mut it)?.into()),
                "--svg" => a.svg = Some(value(arg, &mut it)?.into()),
                "--instrument" => {
                    let v = value(arg, &mut it)?;
                    if v.is_empty() || v.split(',').any(|n| n.trim().is_empty()) {
                        return Err(format!(
                            "flag --instrument takes `all`, `workspace` or crate names separated by commas, got `{v}`"
                        ));
                    }
                    a.instrument = Some(v.clone());
                }
                "--no-debug-assertions" => a.no_debug_assertions = true,
                s if s.starts_with('-') && s.len() > 1 => {
                    return Err(format!("unknown flag `{s}` (valid: {FLAGS})"));
                }
                _ => a.positional.push(arg.clone()),
            }
        }
        Ok(a)
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
    }
}
