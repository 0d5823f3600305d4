//! One target's corpus folder.

use super::{EntryMeta, Manifest, write_atomic};
use crate::tape::ENCODING_VERSION;
use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// Entries larger than this are reported and skipped (left on disk).
pub const MAX_ENTRY_BYTES: u64 = 1 << 20;
const MAX_MANIFEST_BYTES: u64 = 64 << 20;

/// The two folders of a corpus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Folder {
    /// `corpus/`: inputs worth keeping (shared with libFuzzer).
    Corpus,
    /// `regressions/`: shrunk failures, replayed first.
    Regressions,
}

impl Folder {
    /// The folder's name on disk.
    pub fn name(self) -> &'static str {
        match self {
            Folder::Corpus => "corpus",
            Folder::Regressions => "regressions",
        }
    }
}

/// One tape file read from a corpus.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its path.
    pub path: PathBuf,
    /// Its bytes (the encoded tape).
    pub bytes: Vec<u8>,
}

/// A target's corpus: `root/corpus/`, `root/regressions/` and `root/MANIFEST`.
pub struct Corpus {
    root: PathBuf,
    manifest: Manifest,
    /// The unreadable manifest found on open, kept aside before it is first rewritten.
    bad_manifest: Option<Vec<u8>>,
    warnings: Vec<String>,
}

impl fmt::Debug for Corpus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Corpus").field("root", &self.root).finish()
    }
}

/// The sha1 of `bytes` in hex: an entry's file name (libFuzzer's naming).
pub fn sha1_name(bytes: &[u8]) -> String {
    sha1_smol::Sha1::from(bytes).digest().to_string()
}

impl Corpus {
    /// Opens the corpus at `root` (it need not exist yet). A missing manifest is normal; a
    /// corrupt or foreign one is reported and rebuilt, its old bytes saved as `MANIFEST.bad`
    /// when the new one is first written.
    pub fn open(root: impl Into<PathBuf>) -> Corpus {
        let root = root.into();
        let mut c = Corpus {
            manifest: Manifest {
                tape_encoding: ENCODING_VERSION,
                ..Manifest::default()
            },
            root,
            bad_manifest: None,
            warnings: Vec::new(),
        };
        let path = c.root.join("MANIFEST");
        match fs::metadata(&path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => c.warn(format!("cannot read {}: {e}", path.display())),
            Ok(m) if m.len() > MAX_MANIFEST_BYTES => c.warn(format!(
                "{}: {} bytes, too large for a manifest; ignored and rebuilt",
                path.display(),
                m.len()
            )),
            Ok(_) => match fs::read(&path) {
                Err(e) => c.warn(format!("cannot read {}: {e}", path.display())),
                Ok(bytes) => match Manifest::decode(&bytes) {
                    Ok(m) => c.manifest = m,
                    Err(e) => {
                        c.warn(format!("{}: {e}; rebuilt", path.display()));
                        c.bad_manifest = Some(bytes);
                    }
                },
            },
        }
        c
    }

    fn warn(&mut self, msg: String) {
        eprintln!("tapefuzz: warning: {msg}");
        self.warnings.push(msg);
    }

    /// The corpus folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Warnings so far (also printed on stderr as they happen).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The manifest as read or rebuilt.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// The path of a folder.
    pub fn folder(&self, folder: Folder) -> PathBuf {
        self.root.join(folder.name())
    }

    /// Reads every entry of a folder, sorted by name. Unreadable entries, sub-folders and
    /// entries over [`MAX_ENTRY_BYTES`] are reported and skipped (and left on disk).
    pub fn load(&mut self, folder: Folder) -> Vec<Entry> {
        let dir = self.folder(folder);
        let read = match fs::read_dir(&dir) {
            Ok(r) => r,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Vec::new(),
            Err(e) => {
                self.warn(format!("cannot list {}: {e}", dir.display()));
                return Vec::new();
            }
        };
        let mut paths: Vec<PathBuf> = Vec::new();
        for item in read {
            match item {
                Ok(item) => {
                    let name = item.file_name();
                    if !name.to_string_lossy().starts_with('.') {
                        paths.push(item.path());
                    }
                }
                Err(e) => self.warn(format!("cannot list {}: {e}", dir.display())),
            }
        }
        paths.sort();
        let mut out = Vec::new();
        for path in paths {
            match fs::metadata(&path) {
                Ok(m) if m.is_dir() => {
                    self.warn(format!("{}: a folder, skipped", path.display()));
                }
                Ok(m) if m.len() > MAX_ENTRY_BYTES => self.warn(format!(
                    "{}: {} bytes, over the {MAX_ENTRY_BYTES}-byte limit for a tape; skipped",
                    path.display(),
                    m.len()
                )),
                Ok(_) => match fs::read(&path) {
                    Ok(bytes) => out.push(Entry { path, bytes }),
                    Err(e) => self.warn(format!("cannot read {}: {e}; skipped", path.display())),
                },
                Err(e) => self.warn(format!("cannot read {}: {e}; skipped", path.display())),
            }
        }
        out
    }

    /// Saves a tape to a folder under its sha1 name (atomically), records `meta` in the
    /// manifest, and returns the path. Saving the same bytes again is harmless.
    pub fn save(&mut self, folder: Folder, bytes: &[u8], meta: EntryMeta) -> io::Result<PathBuf> {
        let name = sha1_name(bytes);
        let path = self.folder(folder).join(&name);
        if fs::read(&path).ok().as_deref() != Some(bytes) {
            write_atomic(&path, bytes)?;
        }
        self.manifest
            .entries
            .insert(format!("{}/{name}", folder.name()), meta);
        self.write_manifest()?;
        Ok(path)
    }

    fn write_manifest(&mut self) -> io::Result<()> {
        if let Some(bad) = self.bad_manifest.take() {
            write_atomic(&self.root.join("MANIFEST.bad"), &bad)?;
        }
        self.manifest.tape_encoding = ENCODING_VERSION;
        write_atomic(&self.root.join("MANIFEST"), &self.manifest.encode())
    }
}
