//! Stateful targets: systems driven by sequences of actions against a model, with planted
//! bugs that only a sequence reaches (issue 20): `lru_cache`, `undo_buffer`, `kv_store`
//! (snapshots, with references to earlier snapshots through a pool) and
//! `kv_store_concurrent` (a lost update that only concurrent runs show).

pub mod kv_store;
pub mod lru_cache;
pub mod undo_buffer;

use tapefuzz::generators::SizeRange;

/// A planted bug's minimal failing trace (as the report prints it) and why nothing shorter
/// fails.
#[derive(Clone, Copy, Debug)]
pub struct Trace {
    /// The bug.
    pub bug: &'static str,
    /// The minimal trace, as the failure report prints the value.
    pub steps: &'static str,
    /// Other traces as short and as simple (the shrinker may end at any of them, as the
    /// seed has it).
    pub also: &'static [&'static str],
    /// Why no shorter trace fails.
    pub why: &'static str,
}

impl Trace {
    /// Whether `trace` is this minimal trace or one of the equally minimal ones.
    pub fn matches(&self, trace: &str) -> bool {
        trace == self.steps || self.also.contains(&trace)
    }
}

/// `trace` (a report's numbered lines) with the keys of `target`'s actions renamed in order
/// of first use (the first key used is 0, the next new one 1, …): the keys of `lru_cache`
/// and `kv_store` (`Put(k, _)`, `Get(k)`, `Add(k, _)`) are names, and shrinking lowers them
/// one at a time, so equally short traces may differ only in their keys' names. Other
/// targets' traces are returned as they are. [`Trace`]s are in this form.
pub fn canonical(target: &str, trace: &str) -> String {
    if !matches!(target, "lru_cache" | "kv_store") {
        return trace.to_string();
    }
    let mut names: Vec<String> = Vec::new();
    let mut rename = |k: &str| {
        let i = names.iter().position(|n| n == k).unwrap_or_else(|| {
            names.push(k.to_string());
            names.len() - 1
        });
        i.to_string()
    };
    trace
        .lines()
        .map(|line| {
            for op in ["Put(", "Get(", "Add("] {
                if let Some(at) = line.find(op) {
                    let start = at + op.len();
                    let end = start + line[start..].find([',', ')']).unwrap_or(line.len() - start);
                    return format!(
                        "{}{}{}",
                        &line[..start],
                        rename(&line[start..end]),
                        &line[end..]
                    );
                }
            }
            line.to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The minimal trace of `bug` in any stateful target.
pub fn minimal(bug: &str) -> Option<Trace> {
    [lru_cache::MINIMAL, undo_buffer::MINIMAL, kv_store::MINIMAL]
        .into_iter()
        .flatten()
        .find(|t| t.bug == bug)
        .copied()
}

/// The number of actions of the sequential targets: up to 40, 20 on average (long enough
/// that random sequences meet a bug's pattern often).
pub fn steps() -> SizeRange {
    SizeRange::new(0, 40).with_average(20.0)
}

/// `bug` as one of `bugs`' static names (the registry has checked it already).
///
/// # Panics
///
/// On a name not in `bugs`.
pub fn known(bugs: &[(&'static str, &'static str)], bug: Option<&str>) -> Option<&'static str> {
    bug.map(|b| {
        bugs.iter()
            .find(|(n, _)| *n == b)
            .map(|(n, _)| *n)
            .unwrap_or_else(|| panic!("unknown bug `{b}`"))
    })
}
