//! The command line of the tools that serve commands (`cargo tapefuzz`, the harnesses' CLI):
//! one parser, each tool naming the flags it takes ([`Flag`]). Which flags a command uses is
//! the command's to check.
//!
//! ```
//! use tapefuzz::serve::{Args, Flag};
//!
//! let argv: Vec<String> = ["x::p", "--seconds", "2", "--", "-runs=10"].map(String::from).into();
//! let args = Args::parse(&argv, &[Flag::Seconds, Flag::Passthrough]).unwrap();
//! assert_eq!(args.positional, ["x::p"]);
//! assert_eq!(args.seconds, Some(2.0));
//! assert_eq!(args.passthrough, ["-runs=10"]);
//! // A flag the tool does not take is an error that lists the ones it does.
//! let err = Args::parse(&["--bug".to_string()], &[Flag::Seconds]).unwrap_err();
//! assert_eq!(err, "unknown flag `--bug` (valid: --seconds)");
//! ```

use std::path::PathBuf;

/// A flag of the command line. [`Flag::spelling`] is how it is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flag {
    /// `--all`: every target or property.
    All,
    /// `--strategy NAME`.
    Strategy,
    /// `--mode blackbox|greybox`.
    Mode,
    /// `--tests N`.
    Tests,
    /// `--valid-tests N`.
    ValidTests,
    /// `--seconds S` (finite, not negative).
    Seconds,
    /// `--seconds-per-target S` (`ci`).
    SecondsPerTarget,
    /// `--seed N`.
    Seed,
    /// `--stats`.
    Stats,
    /// `--keep N` (`ci`: corpus cap per property and run).
    Keep,
    /// `--corpora DIR`.
    Corpora,
    /// `--junit FILE` (`ci`).
    Junit,
    /// `--path PATH` (`explain`: the part of the value to explain).
    Path,
    /// `--dot FILE` (`explain --path`).
    Dot,
    /// `--svg FILE` (`explain --path`).
    Svg,
    /// `--bug NAME` (a built-in target's planted bug).
    Bug,
    /// `--jobs N` (at least 1).
    Jobs,
    /// `--shard K/N` (`ci`): the K-th of N shares of the properties (1 ≤ K ≤ N).
    Shard,
    /// `--utility-trace FILE`.
    UtilityTrace,
    /// `--manifest-path FILE`.
    ManifestPath,
    /// `-p NAME` / `--package NAME`.
    Package,
    /// `--test NAME`: one test target.
    Test,
    /// `--features F` (repeatable).
    Features,
    /// `--release`.
    Release,
    /// `--instrument all|workspace|CRATES`.
    Instrument,
    /// `--no-debug-assertions`.
    NoDebugAssertions,
    /// `--sanitizer address|none`.
    Sanitizer,
    /// `--`: everything after it, untouched (libFuzzer's flags).
    Passthrough,
}

impl Flag {
    /// How the flag is written (`--seconds`, `-p/--package`, `--`).
    pub fn spelling(self) -> &'static str {
        match self {
            Flag::All => "--all",
            Flag::Strategy => "--strategy",
            Flag::Mode => "--mode",
            Flag::Tests => "--tests",
            Flag::ValidTests => "--valid-tests",
            Flag::Seconds => "--seconds",
            Flag::SecondsPerTarget => "--seconds-per-target",
            Flag::Seed => "--seed",
            Flag::Stats => "--stats",
            Flag::Keep => "--keep",
            Flag::Corpora => "--corpora",
            Flag::Junit => "--junit",
            Flag::Path => "--path",
            Flag::Dot => "--dot",
            Flag::Svg => "--svg",
            Flag::Bug => "--bug",
            Flag::Jobs => "--jobs",
            Flag::Shard => "--shard",
            Flag::UtilityTrace => "--utility-trace",
            Flag::ManifestPath => "--manifest-path",
            Flag::Package => "-p/--package",
            Flag::Test => "--test",
            Flag::Features => "--features",
            Flag::Release => "--release",
            Flag::Instrument => "--instrument",
            Flag::NoDebugAssertions => "--no-debug-assertions",
            Flag::Sanitizer => "--sanitizer",
            Flag::Passthrough => "--",
        }
    }

    /// The flag written `arg`, if any.
    fn of(arg: &str) -> Option<Flag> {
        Some(match arg {
            "--all" => Flag::All,
            "--strategy" => Flag::Strategy,
            "--mode" => Flag::Mode,
            "--tests" => Flag::Tests,
            "--valid-tests" => Flag::ValidTests,
            "--seconds" => Flag::Seconds,
            "--seconds-per-target" => Flag::SecondsPerTarget,
            "--seed" => Flag::Seed,
            "--stats" => Flag::Stats,
            "--keep" => Flag::Keep,
            "--corpora" => Flag::Corpora,
            "--junit" => Flag::Junit,
            "--path" => Flag::Path,
            "--dot" => Flag::Dot,
            "--svg" => Flag::Svg,
            "--bug" => Flag::Bug,
            "--jobs" => Flag::Jobs,
            "--shard" => Flag::Shard,
            "--utility-trace" => Flag::UtilityTrace,
            "--manifest-path" => Flag::ManifestPath,
            "-p" | "--package" => Flag::Package,
            "--test" => Flag::Test,
            "--features" => Flag::Features,
            "--release" => Flag::Release,
            "--instrument" => Flag::Instrument,
            "--no-debug-assertions" => Flag::NoDebugAssertions,
            "--sanitizer" => Flag::Sanitizer,
            "--" => Flag::Passthrough,
            _ => return None,
        })
    }
}

/// A parsed command line: positionals in order, each flag's value (`None` / `false` / empty
/// when not given).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Args {
    /// Target or property names and files, in order.
    pub positional: Vec<String>,
    /// Everything after `--`.
    pub passthrough: Vec<String>,
    /// `--all`.
    pub all: bool,
    /// `--strategy`: a registered strategy's name (the parser refuses any other).
    pub strategy: Option<String>,
    /// `--mode`.
    pub mode: Option<String>,
    /// `--tests`.
    pub tests: Option<u64>,
    /// `--valid-tests`.
    pub valid_tests: Option<u64>,
    /// `--seconds`.
    pub seconds: Option<f64>,
    /// `--seconds-per-target`.
    pub seconds_per_target: Option<f64>,
    /// `--seed`.
    pub seed: Option<u64>,
    /// `--stats`.
    pub stats: bool,
    /// `--keep`.
    pub keep: Option<usize>,
    /// `--corpora`.
    pub corpora: Option<PathBuf>,
    /// `--junit`.
    pub junit: Option<PathBuf>,
    /// `--path`.
    pub path: Option<String>,
    /// `--dot`.
    pub dot: Option<PathBuf>,
    /// `--svg`.
    pub svg: Option<PathBuf>,
    /// `--bug`.
    pub bug: Option<String>,
    /// `--jobs` (at least 1).
    pub jobs: Option<usize>,
    /// `--shard K/N`: `(K, N)`, 1 ≤ K ≤ N.
    pub shard: Option<(usize, usize)>,
    /// `--utility-trace`.
    pub utility_trace: Option<PathBuf>,
    /// `--manifest-path`.
    pub manifest_path: Option<PathBuf>,
    /// `-p` / `--package`.
    pub package: Option<String>,
    /// `--test`.
    pub test_target: Option<String>,
    /// `--features`, each occurrence.
    pub features: Vec<String>,
    /// `--release`.
    pub release: bool,
    /// `--instrument`.
    pub instrument: Option<String>,
    /// `--no-debug-assertions`.
    pub no_debug_assertions: bool,
    /// `--sanitizer`: `address` or `none` (the only values taken).
    pub sanitizer: Option<String>,
}

/// The sanitizers an instrumented build can add (`--sanitizer`, and `$SANITIZER` under
/// `build-fuzzers`): AddressSanitizer, or none. Rust has no UndefinedBehaviorSanitizer, and
/// MemorySanitizer needs the standard library rebuilt.
pub const SANITIZERS: &[&str] = &["address", "none"];

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
    if crate::engine::seconds(s).is_none() {
        return Err(format!(
            "flag {flag} takes a non-negative number of seconds, got `{raw}`"
        ));
    }
    Ok(s)
}

/// `--shard`'s value `K/N`, 1 ≤ K ≤ N.
fn shard(raw: &str) -> Result<(usize, usize), String> {
    let parsed = raw
        .split_once('/')
        .and_then(|(k, n)| Some((k.trim().parse().ok()?, n.trim().parse().ok()?)));
    match parsed {
        Some((k, n)) if 1 <= k && k <= n => Ok((k, n)),
        _ => Err(format!(
            "flag --shard takes K/N with 1 <= K <= N (the K-th of N shares), got `{raw}`"
        )),
    }
}

/// Whether the `i`-th of a sorted list of properties belongs to shard `k` of `n` (1-based):
/// round robin, so the shares differ by at most one property and every property is in
/// exactly one of them, whatever the list.
pub fn in_shard(i: usize, (k, n): (usize, usize)) -> bool {
    i % n == k - 1
}

impl Args {
    /// Parses `argv` (everything after the command) for a tool that takes the flags `takes`.
    /// An argument that starts with `-` (and is longer than that) is a flag: one the tool
    /// does not take is an error listing those it does; a flag without its value, a number
    /// that is not one, negative seconds, `--jobs 0`, a `--shard` that is not `K/N` with
    /// 1 ≤ K ≤ N, an empty `--instrument` item, a `--sanitizer` other than
    /// [`SANITIZERS`] or a `--corpora` that is a file (`/dev/null`)
    /// are errors naming the flag. Everything else is a positional, in order.
    pub fn parse(argv: &[String], takes: &[Flag]) -> Result<Args, String> {
        let mut a = Args::default();
        let mut it = argv.iter();
        while let Some(arg) = it.next() {
            let flag = Flag::of(arg).filter(|f| takes.contains(f));
            let Some(flag) = flag else {
                if arg.starts_with('-') && arg.len() > 1 {
                    let valid: Vec<&str> = takes.iter().map(|f| f.spelling()).collect();
                    // `-p/--package` is two spellings.
                    let spellings: Vec<&str> = valid.iter().flat_map(|v| v.split('/')).collect();
                    let hint = crate::settings::closest_name(arg, &spellings)
                        .map(|n| format!("did you mean `{n}`? "))
                        .unwrap_or_default();
                    return Err(format!(
                        "unknown flag `{arg}` ({hint}valid: {})",
                        valid.join(", ")
                    ));
                }
                a.positional.push(arg.clone());
                continue;
            };
            let mut text = || value(arg, &mut it).cloned();
            match flag {
                Flag::All => a.all = true,
                Flag::Stats => a.stats = true,
                Flag::Release => a.release = true,
                Flag::NoDebugAssertions => a.no_debug_assertions = true,
                Flag::Passthrough => a.passthrough = it.by_ref().cloned().collect(),
                Flag::Strategy => {
                    let name = text()?;
                    // Before anything is built: a typo is a one-line error.
                    if crate::search::registry::entry(&name).is_none() {
                        return Err(format!(
                            "unknown strategy `{name}` (valid: {})",
                            crate::search::registry::names()
                        ));
                    }
                    a.strategy = Some(name)
                }
                Flag::Mode => a.mode = Some(text()?),
                Flag::Bug => a.bug = Some(text()?),
                Flag::Path => a.path = Some(text()?),
                Flag::Package => a.package = Some(text()?),
                Flag::Test => a.test_target = Some(text()?),
                Flag::Features => a.features.push(text()?),
                Flag::Corpora => {
                    let dir = PathBuf::from(text()?);
                    if dir.exists() && !dir.is_dir() {
                        return Err(format!(
                            "flag --corpora takes a folder (or a path where one can be made), got `{}`: not a folder",
                            dir.display()
                        ));
                    }
                    a.corpora = Some(dir);
                }
                Flag::Junit => a.junit = Some(text()?.into()),
                Flag::Dot => a.dot = Some(text()?.into()),
                Flag::Svg => a.svg = Some(text()?.into()),
                Flag::UtilityTrace => a.utility_trace = Some(text()?.into()),
                Flag::ManifestPath => a.manifest_path = Some(text()?.into()),
                Flag::Tests => a.tests = Some(number(arg, &text()?)?),
                Flag::ValidTests => a.valid_tests = Some(number(arg, &text()?)?),
                Flag::Seed => a.seed = Some(number(arg, &text()?)?),
                Flag::Keep => a.keep = Some(number(arg, &text()?)?),
                Flag::Seconds => a.seconds = Some(seconds(arg, &text()?)?),
                Flag::SecondsPerTarget => a.seconds_per_target = Some(seconds(arg, &text()?)?),
                Flag::Jobs => {
                    let j: usize = number(arg, &text()?)?;
                    if j == 0 {
                        return Err("flag --jobs takes a number of at least 1".into());
                    }
                    a.jobs = Some(j);
                }
                Flag::Shard => a.shard = Some(shard(&text()?)?),
                Flag::Sanitizer => {
                    let v = text()?;
                    if !SANITIZERS.contains(&v.as_str()) {
                        return Err(format!(
                            "flag --sanitizer takes {}, got `{v}`",
                            SANITIZERS.join(" or ")
                        ));
                    }
                    a.sanitizer = Some(v);
                }
                Flag::Instrument => {
                    let v = text()?;
                    if v.is_empty() || v.split(',').any(|n| n.trim().is_empty()) {
                        return Err(format!(
                            "flag --instrument takes `all`, `workspace` or crate names separated by commas, got `{v}`"
                        ));
                    }
                    a.instrument = Some(v);
                }
            }
        }
        Ok(a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: &[Flag] = &[
        Flag::All,
        Flag::Seconds,
        Flag::Tests,
        Flag::Seed,
        Flag::Release,
        Flag::Jobs,
        Flag::Shard,
        Flag::Instrument,
        Flag::Package,
        Flag::Passthrough,
    ];

    #[test]
    fn shards_parse_and_split_every_list_once() {
        assert_eq!(parse("--shard 2/4").unwrap().shard, Some((2, 4)));
        assert_eq!(parse("--shard 1/1").unwrap().shard, Some((1, 1)));
        for bad in ["0/4", "5/4", "2", "a/b", "2/0", "-1/3"] {
            let e = parse(&format!("--shard {bad}")).unwrap_err();
            assert!(e.contains("--shard takes K/N"), "{bad}: {e}");
        }
        for n in 1..=5 {
            for len in 0..12 {
                let mut seen = vec![0; len];
                for k in 1..=n {
                    let share: Vec<usize> = (0..len).filter(|&i| in_shard(i, (k, n))).collect();
                    assert!(share.len() <= len.div_ceil(n) && share.len() >= len / n);
                    for i in share {
                        seen[i] += 1;
                    }
                }
                assert!(seen.iter().all(|&c| c == 1), "n {n} len {len}: {seen:?}");
            }
        }
    }

    fn parse(s: &str) -> Result<Args, String> {
        let v: Vec<String> = s.split_whitespace().map(String::from).collect();
        Args::parse(&v, ALL)
    }

    #[test]
    fn flags_positionals_and_passthrough() {
        let a =
            parse("x1::roundtrip --seconds 2 --release a b -p k -- -runs=10 -max_len=64").unwrap();
        assert_eq!(a.positional, ["x1::roundtrip", "a", "b"]);
        assert_eq!(a.seconds, Some(2.0));
        assert!(a.release);
        assert_eq!(a.package.as_deref(), Some("k"));
        assert_eq!(a.passthrough, ["-runs=10", "-max_len=64"]);
        assert_eq!(parse("-").unwrap().positional, ["-"]);
    }

    #[test]
    fn bad_flags_are_errors() {
        assert!(parse("--seconds -1").unwrap_err().contains("non-negative"));
        assert!(
            parse("--tests many")
                .unwrap_err()
                .contains("takes a number")
        );
        assert!(parse("--seed").unwrap_err().contains("needs a value"));
        assert!(parse("--jobs 0").unwrap_err().contains("at least 1"));
        assert!(
            parse("--instrument a,,b")
                .unwrap_err()
                .contains("--instrument")
        );
        let e = parse("--what").unwrap_err();
        assert!(
            e.starts_with("unknown flag `--what` (valid: --all, --seconds"),
            "{e}"
        );
        // A flag another tool takes is unknown to this one.
        assert!(
            parse("--bug x")
                .unwrap_err()
                .contains("unknown flag `--bug`")
        );
        assert!(parse("-x").unwrap_err().contains("unknown flag `-x`"));
        let e = Args::parse(&["--corpora".into(), "/dev/null".into()], &[Flag::Corpora]);
        assert!(e.unwrap_err().contains("not a folder"));
    }
}
