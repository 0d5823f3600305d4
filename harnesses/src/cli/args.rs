//! Flags and positional arguments.

use std::path::PathBuf;

/// Parsed command-line options.
#[derive(Clone, Debug, Default)]
pub struct Args {
    pub positional: Vec<String>,
    pub all: bool,
    pub strategy: Option<String>,
    pub mode: Option<String>,
    pub tests: Option<u64>,
    pub seconds: Option<f64>,
    pub seed: Option<u64>,
    pub bug: Option<String>,
    pub corpora: Option<PathBuf>,
    pub jobs: Option<usize>,
    pub utility_trace: Option<PathBuf>,
    pub keep: Option<usize>,
    pub seconds_per_target: Option<f64>,
    pub junit: Option<PathBuf>,
    pub stats: bool,
    /// `explain --path`: the part of the value to explain.
    pub path: Option<String>,
    /// `explain --dot`: where to write the explanation graph (DOT).
    pub dot: Option<PathBuf>,
    /// `explain --svg`: where to write the explanation graph (SVG).
    pub svg: Option<PathBuf>,
}

fn value<'a>(flag: &str, it: &mut impl Iterator<Item = &'a String>) -> Result<&'a String, String> {
    it.next()
        .ok_or_else(|| format!("flag {flag} needs a value"))
}

fn number<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, String> {
    v.parse()
        .map_err(|_| format!("flag {flag} takes a number, got `{v}`"))
}

/// A flag's value as a number of seconds (finite, not negative).
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
                "--all" => a.all = true,
                "--stats" => a.stats = true,
                "--strategy" => a.strategy = Some(value(arg, &mut it)?.clone()),
                "--mode" => a.mode = Some(value(arg, &mut it)?.clone()),
                "--tests" => a.tests = Some(number(arg, value(arg, &mut it)?)?),
                "--seconds" => a.seconds = Some(seconds(arg, value(arg, &mut it)?)?),
                "--seconds-per-target" => {
                    a.seconds_per_target = Some(seconds(arg, value(arg, &mut it)?)?);
                }
                "--junit" => a.junit = Some(PathBuf::from(value(arg, &mut it)?)),
                "--seed" => a.seed = Some(number(arg, value(arg, &mut it)?)?),
                "--bug" => a.bug = Some(value(arg, &mut it)?.clone()),
                "--corpora" => a.corpora = Some(PathBuf::from(value(arg, &mut it)?)),
                "--utility-trace" => {
                    a.utility_trace = Some(PathBuf::from(value(arg, &mut it)?));
                }
                "--path" => a.path = Some(value(arg, &mut it)?.clone()),
                "--dot" => a.dot = Some(PathBuf::from(value(arg, &mut it)?)),
                "--svg" => a.svg = Some(PathBuf::from(value(arg, &mut it)?)),
                "--keep" => a.keep = Some(number(arg, value(arg, &mut it)?)?),
                "--jobs" => {
                    let j: usize = number(arg, value(arg, &mut it)?)?;
                    if j == 0 {
                        return Err("flag --jobs takes a number of at least 1".into());
                    }
                    a.jobs = Some(j);
                }
                s if s.starts_with("--") => {
                    return Err(format!(
                        "unknown flag `{s}` (valid: --all, --strategy, --mode, --tests, --seconds, --seed, --bug, --corpora, --jobs, --utility-trace, --keep, --seconds-per-target, --junit, --stats, --path, --dot, --svg)"
                    ));
                }
                _ => a.positional.push(arg.clone()),
            }
        }
        Ok(a)
    }
}
