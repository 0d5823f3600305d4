//! Corpora on disk: `corpora/<target>/{corpus,regressions}/<sha1>` raw tape files and a
//! versioned `MANIFEST`. Everything read here is untrusted: a bad manifest or entry is
//! reported as a warning and skipped, never a crash, and nothing is ever deleted.

mod atomic;
#[allow(clippy::module_inception)]
mod corpus;
mod manifest;

pub use atomic::write_atomic;
pub use corpus::{Corpus, Entry, Folder, MAX_ENTRY_BYTES, read_bounded, sha1_name};
pub use manifest::{EntryMeta, FORMAT_VERSION, MAGIC, Manifest, ManifestError};
