//! `cmin`: a property's `corpus/` cut down to the entries that cover its tape features (a
//! merged corpus from several CI shards or machines holds many inputs that exercise the same
//! structure). libFuzzer's `-merge=1` does the same by code coverage; tape features need no
//! instrumented build: which choice point took which bucket of values, which span paths
//! and depths were reached, and whether the input was valid ([`crate::fuzz::tape_features`]).
//!
//! Entries are taken smallest first (then by name, so the result does not depend on the
//! order of the folder); a valid one is kept when it adds a feature no kept entry has (the
//! features are hashed into libFuzzer's 4,096 counters, as the fuzzer itself sees them, so
//! two can share one). An entry on which the property fails is always kept (a bug found, not
//! a duplicate), so is one the property rejects (its features are not those of a valid
//! input), and `regressions/` is never touched. Each entry runs in this process: one that
//! crashes or hangs it stops the command, whose last line on stderr names it (`cargo
//! tapefuzz replay` finds such entries first).

use super::explain::explain_bytes;
use crate::corpus::Folder;
use crate::property::{Property, Test};
use crate::tape::{ENCODING_VERSION, Status};
use std::collections::HashSet;
use std::path::PathBuf;

/// What a minimisation did.
#[derive(Debug, Default)]
pub(super) struct Minimised {
    /// Entries read.
    pub(super) entries: usize,
    /// Entries kept.
    pub(super) kept: usize,
    /// Entries removed (files deleted), with their paths.
    pub(super) removed: Vec<PathBuf>,
    /// Of the kept, entries on which the property fails.
    pub(super) failing: usize,
    /// Of the kept, entries the property rejects (or that overrun the size budget).
    pub(super) invalid: usize,
    /// Distinct tape features of the kept entries (the same as of all entries).
    pub(super) features: usize,
    /// Entries in an older encoding, left as they are (a run migrates them first).
    pub(super) skipped: usize,
}

/// Minimises `property`'s `corpus/` by tape features (see the module's docs), deleting the
/// entries that add none.
pub(super) fn cmin(property: &Property, test: &dyn Test) -> Result<Minimised, String> {
    let Some(mut corpus) = property.open_corpus_migrated(test) else {
        return Err(format!(
            "property `{}` has no corpus folder (no_corpus)",
            property.name()
        ));
    };
    let mut entries = corpus.load(Folder::Corpus);
    entries.sort_by(|a, b| (a.bytes.len(), &a.path).cmp(&(b.bytes.len(), &b.path)));
    let mut out = Minimised {
        entries: entries.len(),
        ..Minimised::default()
    };
    let mut covered: HashSet<usize> = HashSet::new();
    for entry in entries {
        if entry.encoding != ENCODING_VERSION {
            out.skipped += 1;
            continue;
        }
        // Before it runs: an entry that kills the process is the last one named.
        property
            .config_ref()
            .reporter
            .note(&format!("cmin: {}", entry.path.display()));
        let (explained, rec) = explain_bytes(test, &entry.bytes);
        let mut new = false;
        let valid = explained.status == Status::Valid;
        if valid {
            crate::fuzz::tape_features(&rec, &mut |f| new |= covered.insert(f));
        }
        let fails = explained.status == Status::Interesting;
        if new || !valid {
            out.kept += 1;
            out.failing += usize::from(fails);
            out.invalid += usize::from(!valid && !fails);
        } else {
            std::fs::remove_file(&entry.path)
                .map_err(|e| format!("cannot remove {}: {e}", entry.path.display()))?;
            out.removed.push(entry.path);
        }
    }
    out.features = covered.len();
    Ok(out)
}
