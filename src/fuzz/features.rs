//! Tape-level features for libFuzzer: what a valid input's tape looks like, as extra 8-bit
//! counters, so that an input with a structurally new tape is kept even when it reaches no
//! new code.
//!
//! [`fuzz_target!`](crate::fuzz_target) registers [`COUNTERS`] counters of its own (a
//! `sancov::Counters`) with libFuzzer when [`Switch::from_env`] says so, and after every valid
//! input increments the counters that [`tape_features`] names. libFuzzer clears them before
//! each input and turns each (counter, log2 count bucket) into a feature, exactly as for the
//! compiler's counters, so a feature's multiplicity counts too (a fourth `node` under `left`).
//!
//! The features, each hashed into one of [`COUNTERS`] counters:
//! - **choice**: the choice point's label, the label of the span it was drawn in, and the
//!   index bucket ([`index_bucket`]);
//! - **span path**: a span's label with its parent's and grandparent's (paths of depth 3: a
//!   deeper path would make every new tree shape a new feature);
//! - **depth**: a span's label with its nesting depth (capped at 31), so deeper recursion is new;
//! - **validity**: one counter per valid input. Inputs the generator or property rejected
//!   return `Corpus::Reject`, so they never enter the corpus whatever their features, and
//!   [`crate::fuzz::check`] does not compute features for them.

use crate::tape::{Recording, mix_hashes};

/// How many counters the tape features are hashed into.
pub const COUNTERS: usize = 4096;

/// The [`COUNTERS`] 8-bit counters a fuzz target counts tape features in, registered with
/// libFuzzer by [`fuzz_target!`](crate::fuzz_target) (as SanitizerCoverage's inline 8-bit
/// counters are) when `TAPEFUZZ_FEATURES` is on. Increments are relaxed and wrap, as the
/// compiler's counters do.
pub struct FeatureCounters([std::sync::atomic::AtomicU8; COUNTERS]);

impl FeatureCounters {
    /// All zero.
    #[allow(clippy::new_without_default)]
    pub const fn new() -> FeatureCounters {
        FeatureCounters([const { std::sync::atomic::AtomicU8::new(0) }; COUNTERS])
    }

    /// The counters' bounds, as `__sanitizer_cov_8bit_counters_init` takes them.
    pub fn bounds(&'static self) -> (*const u8, *const u8) {
        let start = self.0.as_ptr() as *const u8;
        // SAFETY: one past the end of the array.
        (start, unsafe { start.add(COUNTERS) })
    }

    /// Adds one to counter `i` (wrapping). Panics when `i >= COUNTERS`.
    pub fn increment(&self, i: usize) {
        self.0[i].fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
}

/// Whether a fuzz target reports tape features: `TAPEFUZZ_FEATURES`, read once at start-up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Switch {
    /// Tape features are registered and counted.
    On,
    /// Only the compiler's coverage counters guide libFuzzer.
    Off,
}

impl Switch {
    /// The default when `TAPEFUZZ_FEATURES` is unset (see BENCHMARKS.md, "Tape-level features").
    pub const DEFAULT: Switch = Switch::Off;

    /// Parses a `TAPEFUZZ_FEATURES` value: `1`/`on`/`true` or `0`/`off`/`false`; empty means
    /// the default.
    pub fn parse(value: &str) -> Result<Switch, String> {
        match value.trim().to_ascii_lowercase().as_str() {
            "" => Ok(Switch::DEFAULT),
            "1" | "on" | "true" => Ok(Switch::On),
            "0" | "off" | "false" => Ok(Switch::Off),
            other => Err(format!(
                "TAPEFUZZ_FEATURES: `{other}` is not one of 1, on, true, 0, off, false"
            )),
        }
    }

    /// The switch from the environment variable `TAPEFUZZ_FEATURES` (the default when unset).
    pub fn from_env() -> Result<Switch, String> {
        match crate::env::Env::from_process().get("TAPEFUZZ_FEATURES") {
            Some(v) => Switch::parse(v),
            None => Ok(Switch::DEFAULT),
        }
    }
}

/// A small number naming the part of `0..=max` that `index` lies in: the index itself for
/// choices with at most 8 options and for indices below 4; the last option; otherwise the
/// index's bit length. Wide choices (integers) thus add a handful of features, not thousands.
pub fn index_bucket(index: u64, max: u64) -> u64 {
    if max < 8 || index < 4 {
        index
    } else if index == max {
        100
    } else {
        u64::from(64 - index.leading_zeros()) + 4
    }
}

const CHOICE: u64 = 0x6368_6f69_6365;
const PATH: u64 = 0x7061_7468;
const DEPTH: u64 = 0x0064_6570_7468;
const VALID: u64 = 0x0076_616c_6964;
const ROOT: u64 = 0x726f_6f74;

/// The counter a feature hash lands in.
#[inline]
fn counter(hash: u64) -> usize {
    // The top bits: `mix` spreads its input there best.
    (hash >> (64 - COUNTERS.trailing_zeros())) as usize
}

/// Calls `count` once per tape feature of a valid input's recording (a counter index below
/// [`COUNTERS`]; the same index may come several times, and its count matters).
pub fn tape_features(rec: &Recording, count: &mut dyn FnMut(usize)) {
    let spans = &rec.spans;
    let label = |s: Option<usize>| s.map_or(ROOT, |s| spans[s].label.hash());
    // The innermost span holding each choice: the last span opened at or before it, or the
    // nearest of its ancestors not yet closed (spans are listed in the order they opened).
    let mut innermost: Option<usize> = None;
    let mut next = 0;
    for (i, (c, l)) in rec.choices.iter().zip(&rec.labels).enumerate() {
        while next < spans.len() && spans[next].start <= i {
            innermost = Some(next);
            next += 1;
        }
        while let Some(s) = innermost
            && spans[s].end <= i
        {
            innermost = spans[s].parent;
        }
        let h = mix_hashes(mix_hashes(CHOICE, l.hash()), label(innermost));
        count(counter(mix_hashes(h, index_bucket(c.index, c.max))));
    }
    for s in spans {
        let parent = s.parent;
        let grandparent = parent.and_then(|p| spans[p].parent);
        let h = mix_hashes(mix_hashes(PATH, s.label.hash()), label(parent));
        count(counter(mix_hashes(h, label(grandparent))));
        let d = mix_hashes(mix_hashes(DEPTH, s.label.hash()), s.depth.min(31) as u64);
        count(counter(d));
    }
    count(counter(mix_hashes(VALID, 1)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tape::{Fallback, Hint, Label, ReplaySource, Tape};

    const NODE: Label = Label::new("node");
    const LEAF: Label = Label::new("leaf?");
    const KEY: Label = Label::new("key");

    /// A tree whose shape the indices decide: at each node a "leaf?" coin, then a key and two
    /// children.
    fn tree(tape: &mut Tape<'_>) -> usize {
        tape.start_span(NODE);
        let leaf = tape.draw(LEAF, 1, Hint::Uniform).unwrap_or(1) == 1;
        let size = if leaf {
            0
        } else {
            let _ = tape.draw(KEY, 1000, Hint::Uniform);
            1 + tree(tape) + tree(tape)
        };
        tape.end_span();
        size
    }

    fn features(indices: &[u64]) -> Vec<usize> {
        let mut src = ReplaySource::new(indices.to_vec(), Fallback::Simplest);
        let mut tape = Tape::recording(&mut src);
        tree(&mut tape);
        let rec = tape.finish();
        let mut out = Vec::new();
        tape_features(&rec, &mut |i| out.push(i));
        out.sort_unstable();
        out
    }

    #[test]
    fn features_are_counter_indices_and_stable() {
        let f = features(&[0, 5, 1, 1]);
        assert!(f.iter().all(|&i| i < COUNTERS));
        assert_eq!(f, features(&[0, 5, 1, 1]));
        // 4 choices, 3 spans (two features each), one validity feature.
        assert_eq!(f.len(), 4 + 3 * 2 + 1);
    }

    #[test]
    fn a_deeper_tree_has_new_features_a_new_key_in_the_same_bucket_does_not() {
        let shallow = features(&[0, 5, 1, 1]);
        let same_bucket = features(&[0, 6, 1, 1]);
        assert_eq!(shallow, same_bucket, "keys 5 and 6 share bit length 3");
        let deeper = features(&[0, 5, 0, 7, 1, 1, 1]);
        let new: Vec<_> = deeper.iter().filter(|f| !shallow.contains(f)).collect();
        assert!(
            !new.is_empty(),
            "depth 2 and the node/node/node path are new"
        );
    }

    #[test]
    fn index_buckets() {
        assert_eq!(index_bucket(1, 1), 1);
        assert_eq!(index_bucket(6, 7), 6);
        assert_eq!(index_bucket(3, 1000), 3);
        assert_eq!(index_bucket(1000, 1000), 100);
        assert_eq!(index_bucket(5, 1000), index_bucket(7, 1000));
        assert_ne!(index_bucket(7, 1000), index_bucket(8, 1000));
    }

    #[test]
    fn the_switch_parses_and_rejects_unknown_values() {
        assert_eq!(Switch::parse("1"), Ok(Switch::On));
        assert_eq!(Switch::parse(" Off "), Ok(Switch::Off));
        assert_eq!(Switch::parse(""), Ok(Switch::DEFAULT));
        assert!(Switch::parse("maybe").unwrap_err().contains("maybe"));
    }
}
