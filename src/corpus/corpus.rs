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

/// Reads a regular file of at most `limit` bytes. Anything else — a folder, a device, a
/// FIFO, a file over the limit — is an error naming the problem, and nothing past the limit
/// is read.
pub fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let shown = path.display();
    let meta = fs::metadata(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("{shown}: not a regular file"));
    }
    if meta.len() > limit {
        return Err(format!(
            "{shown}: {} bytes, over the {limit}-byte limit",
            meta.len()
        ));
    }
    let file = fs::File::open(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {shown}: {e}"))?;
    if bytes.len() as u64 > limit {
        return Err(format!(
            "{shown}: grew over the {limit}-byte limit while read"
        ));
    }
    Ok(bytes)
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
        if path.exists() {
            match read_bounded(&path, MAX_MANIFEST_BYTES) {
                Err(e) => c.warn(format!("{e}; manifest rebuilt")),
                Ok(bytes) => match Manifest::decode(&bytes) {
                    Ok(m) if m.tape_encoding == ENCODING_VERSION => c.manifest = m,
                    Ok(m) => {
                        c.warn(format!(
                            "{}: written with tape encoding v{}, this build uses v{ENCODING_VERSION}; rebuilt",
                            path.display(),
                            m.tape_encoding
                        ));
                        c.bad_manifest = Some(bytes);
                    }
                    Err(e) => {
                        c.warn(format!("{}: {e}; rebuilt", path.display()));
                        c.bad_manifest = Some(bytes);
                    }
                },
            }
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
            match read_bounded(&path, MAX_ENTRY_BYTES) {
                Ok(bytes) => out.push(Entry { path, bytes }),
                Err(e) => self.warn(format!("{e}; skipped")),
            }
        }
        out
    }

    /// Adds the entries on disk that a rebuilt manifest does not know (strategy `unknown`).
    fn relist_entries(&mut self) {
        for folder in [Folder::Corpus, Folder::Regressions] {
            let Ok(read) = fs::read_dir(self.folder(folder)) else {
                continue;
            };
            for item in read.flatten() {
                let name = item.file_name().to_string_lossy().into_owned();
                let loadable = item
                    .metadata()
                    .is_ok_and(|m| m.is_file() && m.len() <= MAX_ENTRY_BYTES);
                if !name.starts_with('.') && loadable {
                    self.manifest
                        .entries
                        .entry(format!("{}/{name}", folder.name()))
                        .or_insert_with(|| EntryMeta {
                            strategy: "unknown".into(),
                            ..EntryMeta::default()
                        });
                }
            }
        }
    }

    /// Whether `folder` already holds a file with exactly these bytes.
    pub fn contains(&self, folder: Folder, bytes: &[u8]) -> bool {
        let path = self.folder(folder).join(sha1_name(bytes));
        fs::read(path).ok().as_deref() == Some(bytes)
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
            // Keep every unreadable manifest: the first free MANIFEST.bad[.N].
            let mut keep = self.root.join("MANIFEST.bad");
            let mut n = 0;
            while keep.exists() {
                n += 1;
                keep = self.root.join(format!("MANIFEST.bad.{n}"));
            }
            write_atomic(&keep, &bad)?;
            self.relist_entries();
        }
        self.manifest.tape_encoding = ENCODING_VERSION;
        write_atomic(&self.root.join("MANIFEST"), &self.manifest.encode())
    }
}
