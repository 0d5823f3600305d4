//! Settings from the environment, in one place: the engine's [`Config`], the strategy
//! (`TAPEFUZZ_STRATEGY` and its own variables), the corpus folder, and a one-line warning
//! for a `TAPEFUZZ_*` variable that nothing reads but is one or two letters from one that
//! tapefuzz reads ("did you mean `TAPEFUZZ_TESTS`?"). Other variables are left alone: a
//! `TAPEFUZZ_*` variable of one's own scripts is not tapefuzz's business.

use crate::engine::{Config, Strategy};
use crate::env::{self, ConfigError, Env, Variable};
use crate::search::registry;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A run's settings: the loop's configuration, the strategy and the corpus root.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The engine's configuration.
    pub config: Config,
    /// The strategy (`random` by default).
    pub strategy: Arc<dyn Strategy>,
    /// Whether `TAPEFUZZ_STRATEGY` chose the strategy (a command's own default, such as
    /// greybox mode's, gives way to it).
    pub strategy_chosen: bool,
    /// The folder that holds every property's corpus folder (`TAPEFUZZ_CORPORA`), when set.
    pub corpora: Option<PathBuf>,
}

/// Every `TAPEFUZZ_*` variable a user may set: the engine's and the property layer's
/// ([`env::CORE`]), every strategy's ([`registry::vars`]) and the others ([`env::OTHER`]);
/// sorted, each once. The protocol's own ([`env::PROTOCOL`]) are not among them.
pub fn known_vars() -> Vec<&'static str> {
    known().to_vec()
}

/// [`known_vars`], made once per process (the lists are constants): every
/// [`Settings::from_env`] checks the environment against it.
fn known() -> &'static [&'static str] {
    static KNOWN: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    KNOWN.get_or_init(|| {
        let mut v: Vec<&'static str> = reference()
            .into_iter()
            .flat_map(|(_, vars)| vars.into_iter().map(|v| v.name))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    })
}

/// Every variable a user may set, documented, in groups: `"run"` (the engine's and the
/// property layer's, [`env::CORE`]), then each strategy with variables of its own under
/// its name (a list shared by two strategies, as `enumerate` and `patterns` share theirs,
/// comes once, under both names joined by `, `), then `"other"` ([`env::OTHER`]). The
/// guide's configuration reference is this, rendered ([`render_reference`]).
pub fn reference() -> Vec<(String, Vec<&'static Variable>)> {
    let mut groups: Vec<(String, Vec<&'static Variable>)> =
        vec![("run".into(), env::CORE.iter().collect())];
    for e in registry::STRATEGIES.iter().filter(|e| !e.vars.is_empty()) {
        match groups
            .iter_mut()
            .find(|(_, v)| std::ptr::eq(v[0], &e.vars[0]))
        {
            Some((name, _)) => {
                name.push_str(", ");
                name.push_str(e.name);
            }
            None => groups.push((e.name.into(), e.vars.iter().collect())),
        }
    }
    groups.push(("other".into(), env::OTHER.iter().collect()));
    groups
}

/// [`reference()`] as Markdown: a heading and a table (variable, values, default, what it
/// does) per group. Deterministic, so a test can hold a document to it.
pub fn render_reference() -> String {
    let mut out = String::new();
    for (group, vars) in reference() {
        let title = match group.as_str() {
            "run" => "Every run".to_string(),
            "other" => "Fuzzing and explain".to_string(),
            g => format!("`--strategy {}`", g.replace(", ", "` and `")),
        };
        out.push_str(&format!(
            "### {title}\n\n| variable | values | default | what it does |\n|---|---|---|---|\n"
        ));
        for v in vars {
            out.push_str(&format!(
                "| `{}` | {} | {} | {} |\n",
                v.name, v.values, v.default, v.meaning
            ));
        }
        out.push('\n');
    }
    out
}

/// The known variable a misspelt `name` most likely meant: the nearest by edit distance
/// (after `TAPEFUZZ_`), at most two edits away, or one that starts with `name`
/// (`TAPEFUZZ_TIMEOUT` for `TAPEFUZZ_TIMEOUT_MS`); `None` for a name of one's own.
pub fn did_you_mean(name: &str) -> Option<&'static str> {
    let tail = name.strip_prefix("TAPEFUZZ_")?;
    if tail.len() < 3 {
        return None;
    }
    known()
        .iter()
        .filter_map(|&k| {
            let ktail = &k["TAPEFUZZ_".len()..];
            let d = edit_distance(tail, ktail);
            let prefix = ktail.starts_with(tail) && tail.len() >= 4;
            (d <= 2 || prefix).then_some((d, k))
        })
        .min()
        .map(|(_, k)| k)
}

/// The name among `names` closest to `word` (a misspelt command or flag), compared without
/// their leading dashes and without a `=value`: within one edit (an adjacent swap is one) for
/// a word of three or four characters, two for a longer one, none for a shorter one, or a
/// name it begins (four characters at least); `None` otherwise, and for names that are only
/// dashes (`--`).
///
/// ```
/// use tapefuzz::settings::closest_name;
/// assert_eq!(closest_name("fuz", &["run", "fuzz"]), Some("fuzz"));
/// assert_eq!(closest_name("rnu", &["run", "fuzz"]), Some("run"));
/// assert_eq!(closest_name("--secnds=3", &["--seconds", "--seed", "--"]), Some("--seconds"));
/// assert_eq!(closest_name("ls", &["ci", "run"]), None);
/// assert_eq!(closest_name("-j", &["--jobs", "--"]), None);
/// ```
pub fn closest_name<'n>(word: &str, names: &[&'n str]) -> Option<&'n str> {
    let bare = |s: &str| -> String {
        let s = s.trim_start_matches('-');
        s.split('=').next().unwrap_or(s).to_string()
    };
    let w = bare(word);
    if w.is_empty() {
        return None;
    }
    let most = match w.len() {
        0..=2 => 0,
        3..=4 => 1,
        _ => 2,
    };
    names
        .iter()
        .filter_map(|&n| {
            let b = bare(n);
            if b.is_empty() {
                return None;
            }
            let d = edit_distance(&w, &b);
            (d <= most || (b.starts_with(&w) && w.len() >= 4)).then_some((d, n))
        })
        .min()
        .map(|(_, n)| n)
}

/// Edit distance between two ASCII names: insertions, deletions, substitutions and swaps of
/// two adjacent characters each count one (optimal string alignment).
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

/// The warning for the variables of `env` that nothing reads but that look like a
/// misspelling of one that tapefuzz reads (one line each: "… did you mean
/// `TAPEFUZZ_TESTS`?"), or `None` when there are none. A variable far from every known
/// one (a script's own) is left alone.
pub fn unknown_warning(env: &Env) -> Option<String> {
    let lines: Vec<String> = env
        .unknown(known())
        .into_iter()
        .filter(|u| !env::PROTOCOL.contains(u))
        .filter_map(|u| {
            did_you_mean(u).map(|k| {
                format!(
                    "tapefuzz: warning: {u} is not a tapefuzz variable (ignored); did you mean {k}?"
                )
            })
        })
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

impl Settings {
    /// The defaults with `env` applied.
    ///
    /// `TAPEFUZZ_CORPORA` must name a folder, or a path where one can be made: a file or a
    /// device there (`/dev/null`) is an error, since nothing could be saved under it.
    pub fn from(env: &Env) -> Result<Settings, ConfigError> {
        let corpora = env
            .get("TAPEFUZZ_CORPORA")
            .filter(|c| !c.is_empty())
            .map(PathBuf::from);
        if let Some(c) = corpora.as_ref().filter(|c| c.exists() && !c.is_dir()) {
            return Err(ConfigError {
                var: "TAPEFUZZ_CORPORA".into(),
                value: c.display().to_string(),
                expected: "a folder (or a path where one can be made), not a file".into(),
            });
        }
        Ok(Settings {
            config: Config::default().with_env(env)?,
            strategy: registry::from_env(env)?,
            strategy_chosen: env.get("TAPEFUZZ_STRATEGY").is_some_and(|s| !s.is_empty()),
            corpora,
        })
    }

    /// The defaults with the process's environment applied; the first time in a process
    /// that it finds an unknown `TAPEFUZZ_*` variable, it says so on stderr.
    pub fn from_env() -> Result<Settings, ConfigError> {
        static WARNED: AtomicBool = AtomicBool::new(false);
        let env = Env::from_process();
        if let Some(w) = unknown_warning(&env)
            && !WARNED.swap(true, Ordering::Relaxed)
        {
            eprintln!("{w}");
        }
        Settings::from(&env)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reference_names_every_strategy_and_every_variable_once() {
        let strategy = env::CORE
            .iter()
            .find(|v| v.name == "TAPEFUZZ_STRATEGY")
            .unwrap();
        for e in registry::STRATEGIES {
            assert!(
                strategy.values.contains(&format!("`{}`", e.name)),
                "{} is not among TAPEFUZZ_STRATEGY's values",
                e.name
            );
        }
        let names: Vec<&str> = reference()
            .into_iter()
            .flat_map(|(_, v)| v.into_iter().map(|v| v.name))
            .collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(
            sorted.len(),
            names.len(),
            "a variable comes twice: {names:?}"
        );
        let text = render_reference();
        assert!(
            text.contains("### `--strategy enumerate` and `patterns`"),
            "{text}"
        );
    }

    #[test]
    fn corpora_must_be_a_folder() {
        let file = Env::from_pairs([("TAPEFUZZ_CORPORA", "/dev/null")]);
        let Err(e) = Settings::from(&file) else {
            panic!("a file is not a corpora folder");
        };
        assert!(e.to_string().contains("/dev/null"), "{e}");
        let missing = Env::from_pairs([("TAPEFUZZ_CORPORA", "/no/such/folder/yet")]);
        assert!(Settings::from(&missing).is_ok(), "made when first saved to");
    }

    #[test]
    fn a_misspelt_variable_gets_the_nearest_known_one() {
        let env = Env::from_pairs([("TAPEFUZZ_TEST", "100000"), ("TAPEFUZZ_TESTS", "5")]);
        let w = unknown_warning(&env).unwrap();
        assert_eq!(
            w,
            "tapefuzz: warning: TAPEFUZZ_TEST is not a tapefuzz variable (ignored); did you mean TAPEFUZZ_TESTS?"
        );
        assert_eq!(did_you_mean("TAPEFUZZ_SEEDS"), Some("TAPEFUZZ_SEED"));
        assert_eq!(
            did_you_mean("TAPEFUZZ_TIMEOUT"),
            Some("TAPEFUZZ_TIMEOUT_MS")
        );
        assert_eq!(did_you_mean("TAPEFUZZ_STRATEGI"), Some("TAPEFUZZ_STRATEGY"));
        assert_eq!(
            did_you_mean("TAPEFUZZ_RL_EPSILN"),
            Some("TAPEFUZZ_RL_EPSILON")
        );
        // A script's own variables, and the protocol's, are left alone.
        for own in [
            "TAPEFUZZ_BUG",
            "TAPEFUZZ_CI_SECONDS",
            "TAPEFUZZ_SMOKE_SECONDS",
            "TAPEFUZZ_OUT",
            "TAPEFUZZ_CHILD",
        ] {
            assert_eq!(
                unknown_warning(&Env::from_pairs([(own, "1")])),
                None,
                "{own}"
            );
        }
        assert_eq!(
            unknown_warning(&Env::from_pairs([("TAPEFUZZ_SEED", "1")])),
            None
        );
        // Each known variable once, the protocol's not among them.
        let known = known_vars();
        let mut unique = known.clone();
        unique.dedup();
        assert_eq!(known, unique);
        assert!(!known.contains(&"TAPEFUZZ_COMMAND"));
        let s = Settings::from(&Env::from_pairs([
            ("TAPEFUZZ_STRATEGY", "sa"),
            ("TAPEFUZZ_TESTS", "5"),
        ]))
        .unwrap();
        assert_eq!((s.strategy.name(), s.config.tests), ("sa", 5));
    }
}
