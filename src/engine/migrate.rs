//! Tapes of an older byte encoding, read and re-encoded through the subject's generator.

use super::Subject;
use crate::corpus::{Corpus, Folder};
use crate::reporter::Reporter;
use crate::tape::{ENCODING_VERSION, LegacySource, Status, Tape, encoding};

/// The tape `bytes` of the byte encoding `version` re-encoded in the current one: the
/// subject's generator (not its test) draws from a [`LegacySource`], and what it recorded is
/// encoded again. The same bytes when `version` is current (or not one `LegacySource`
/// reads). The value is the one the old tape made, since the encodings differ only in how
/// payload runs are laid out (version 1) and in how text is repaired (version 2), unless the
/// re-encoded tape of version 2 overruns `max_choices`: then `bytes` are kept as they are.
pub fn reencode(
    subject: &mut dyn Subject,
    bytes: &[u8],
    version: u32,
    max_choices: usize,
) -> Vec<u8> {
    if version >= ENCODING_VERSION {
        return bytes.to_vec();
    }
    let Some(mut src) = LegacySource::of_version(bytes, version) else {
        return bytes.to_vec();
    };
    let mut tape = Tape::recording(&mut src).with_max_choices(max_choices);
    if subject.generate(&mut tape) == Status::Overrun && version == 2 {
        // Cut short by the size budget (version 2's text can grow by a few bytes where its
        // characters are rewritten): what was recorded would be another value. The tape as
        // it was has today's layout and reads as the same value but for such characters.
        return bytes.to_vec();
    }
    encoding::encode(&tape.finish().choices)
}

/// Migrates `corpus`'s `corpus/` folder to the current encoding when it holds older tapes
/// ([`Corpus::encoding`]): each entry re-encoded ([`reencode`]) and saved under its new
/// name, the old file removed, then `FORMAT` updated. Regression files keep their own
/// version and replay as they are. Returns warnings (a file that could not be written: the
/// old one stays, and the folder keeps its old format until a later run succeeds).
pub fn migrate_corpus(
    corpus: &mut Corpus,
    subject: &mut dyn Subject,
    max_choices: usize,
    reporter: &dyn Reporter,
) -> Vec<String> {
    let version = corpus.encoding();
    if version >= ENCODING_VERSION {
        return Vec::new();
    }
    let mut warnings = Vec::new();
    let entries = corpus.load(Folder::Corpus);
    let n = entries.len();
    for entry in &entries {
        let bytes = reencode(subject, &entry.bytes, version, max_choices);
        if let Err(e) = corpus.migrate_entry(entry, &bytes) {
            warnings.push(format!("cannot migrate a corpus entry: {e}"));
        }
    }
    if warnings.is_empty() {
        match corpus.finish_migration() {
            Ok(()) => reporter.note(&format!(
                "{}: {n} corpus entries migrated to tape encoding {ENCODING_VERSION}",
                corpus.root().display()
            )),
            Err(e) => warnings.push(format!("cannot mark the migrated corpus: {e}")),
        }
    }
    for w in &warnings {
        reporter.warning(w);
    }
    warnings
}
