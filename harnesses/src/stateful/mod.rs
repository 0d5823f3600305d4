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
