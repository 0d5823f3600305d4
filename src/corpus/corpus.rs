//! One property's corpus folder.

use super::atomic::{
    clean_stale_temps, create_dir_durably, is_temp_name, open_regular, read_regular, with_path,
};
use super::{Regression, write_atomic, write_new_atomic};
use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// Entries larger than this are reported and skipped (left on disk).
pub const MAX_ENTRY_BYTES: u64 = 1 << 20;

/// How many files named after one tape (`<sha1>.txt`, `<sha1>-1.txt`, …) a regression may
/// be saved beside before [`Corpus::save_regression`] gives up rather than replace one.
pub const MAX_SIBLINGS: usize = 16;

/// The names a regression file named `path` may take in its folder, in the order they are
/// tried: `path` itself, then `<stem>-1.txt` to `<stem>-16.txt` ([`MAX_SIBLINGS`]), where
/// `<stem>` is `path`'s name without its `.txt` and without a `-N` of its own (so a sibling's
/// names are its first's). A name without a stem gives `path` alone.
///
/// ```
/// use std::path::Path;
/// use tapefuzz::corpus::regression_names;
///
/// let names = regression_names(Path::new("regressions/ab12-2.txt"));
/// assert_eq!(names[0], Path::new("regressions/ab12-2.txt"));
/// assert_eq!(names[1], Path::new("regressions/ab12-1.txt"));
/// assert_eq!(names.len(), 17);
/// ```
pub fn regression_names(path: &Path) -> Vec<PathBuf> {
    let name = path.file_stem().map(|s| s.to_string_lossy().into_owned());
    let stem = name.as_deref().map(|n| match n.rsplit_once('-') {
        Some((stem, k)) if !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()) => stem,
        _ => n,
    });
    let mut names = vec![path.to_path_buf()];
    if let Some(stem) = stem {
        names.extend((1..=MAX_SIBLINGS).map(|k| path.with_file_name(format!("{stem}-{k}.txt"))));
    }
    names
}

/// The folder's format marker: the file `FORMAT` at its root, written once (and once more
/// when [`Corpus::finish_migration`] moves a folder to this version). Format 4 holds tapes
/// of the byte encoding's version 3 in `corpus/`; format 3 held version-2 tapes, format 2
/// version-1 tapes.
pub const FORMAT: &str = "tapefuzz corpus 4\n\
corpus/<sha1>           raw tape bytes, encoding 3 (libFuzzer's format and naming)\n\
regressions/<sha1>.txt  one text file per shrunk failure, replayed first\n";

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

/// One tape read from a corpus.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its path.
    pub path: PathBuf,
    /// Its bytes (the encoded tape).
    pub bytes: Vec<u8>,
    /// What its regression file said (`None` for a `corpus/` entry, and for a regression
    /// saved as raw bytes by an earlier layout).
    pub regression: Option<Regression>,
    /// The version of the byte encoding its bytes are in: a regression file says it; a
    /// `corpus/` entry is in its folder's ([`Corpus::encoding`]).
    pub encoding: u32,
}

/// A property's corpus: `root/corpus/` and `root/regressions/`.
///
/// No file is rewritten by every save: `corpus/` holds one raw tape per file, named by its
/// sha1, and `regressions/` one text file per failure ([`Regression`]); `FORMAT` is written
/// once. Any number of processes may read and write one folder (see
/// [`super::write_atomic`]), two branches that each add entries merge without conflict, and
/// everything read is untrusted: an unreadable, foreign, huge or garbage file is reported
/// and skipped, never a crash, never deleted. A `MANIFEST` left by the earlier layout is
/// ignored (reported once): its entries are the files beside it, which are read as they are.
pub struct Corpus {
    root: PathBuf,
    property: String,
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
    let file = open_regular(path, fs::OpenOptions::new().read(true))
        .map_err(|e| format!("cannot read {shown}: {e}"))?;
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

/// Reads a tape from a file: a regression text file's tape (when the file starts with
/// [`super::REGRESSION_HEADER`]), otherwise the file's raw bytes (a `corpus/` entry, a
/// libFuzzer crash). At most [`MAX_ENTRY_BYTES`]; errors name the path.
pub fn read_tape(path: &Path) -> Result<Vec<u8>, String> {
    read_tape_versioned(path).map(|(tape, _)| tape)
}

/// [`read_tape`], with the version of the byte encoding the tape is in: a regression file's
/// own, the current one for anything else.
pub fn read_tape_versioned(path: &Path) -> Result<(Vec<u8>, u32), String> {
    let bytes = read_bounded(path, MAX_ENTRY_BYTES)?;
    if !bytes.starts_with(super::regression::REGRESSION_PREFIX.as_bytes()) {
        return Ok((bytes, crate::tape::ENCODING_VERSION));
    }
    std::str::from_utf8(&bytes)
        .map_err(|_| "not UTF-8 text".to_string())
        .and_then(Regression::parse)
        .map(|r| (r.tape, r.encoding))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// The sha1 of `bytes` in hex: an entry's file name (libFuzzer's naming).
pub fn sha1_name(bytes: &[u8]) -> String {
    sha1_smol::Sha1::from(bytes).digest().to_string()
}

impl Corpus {
    /// Opens the corpus at `root` (it need not exist yet); regressions name the property
    /// after the folder until [`Corpus::property`] says otherwise. Nothing is written until
    /// the first save.
    pub fn open(root: impl Into<PathBuf>) -> Corpus {
        let root = root.into();
        let property = root
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let mut c = Corpus {
            root,
            property,
            warnings: Vec::new(),
        };
        let legacy = c.root.join("MANIFEST");
        if fs::symlink_metadata(&legacy).is_ok() {
            c.warn(format!(
                "{}: left by an earlier layout and ignored (the tapes beside it are read as they are; it can be deleted)",
                legacy.display()
            ));
        }
        c
    }

    /// The property's name, written into its regression files.
    pub fn property(mut self, name: impl Into<String>) -> Corpus {
        self.property = name.into();
        self
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

    /// The path of a folder.
    pub fn folder(&self, folder: Folder) -> PathBuf {
        self.root.join(folder.name())
    }

    /// Reads every entry of a folder, sorted by name, after removing the temporary files of
    /// dead writers. Unreadable entries, sub-folders, entries over [`MAX_ENTRY_BYTES`] and
    /// regression files that do not parse are reported and skipped (and left on disk). In
    /// `regressions/`, a file without the `.txt` ending is a raw tape (the earlier layout)
    /// and replays as such.
    pub fn load(&mut self, folder: Folder) -> Vec<Entry> {
        let dir = self.folder(folder);
        let root_temps = if folder == Folder::Regressions {
            clean_stale_temps(&self.root)
        } else {
            Vec::new()
        };
        for p in root_temps.into_iter().chain(clean_stale_temps(&dir)) {
            eprintln!(
                "tapefuzz: removed {}, left by a writer that died",
                p.display()
            );
        }
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
                    let name = name.to_string_lossy();
                    if !name.starts_with('.') && !is_temp_name(&name) {
                        paths.push(item.path());
                    }
                }
                Err(e) => self.warn(format!("cannot list {}: {e}", dir.display())),
            }
        }
        paths.sort();
        let mut out = Vec::new();
        for path in paths {
            let bytes = match read_bounded(&path, MAX_ENTRY_BYTES) {
                Ok(bytes) => bytes,
                Err(e) => {
                    self.warn(format!("{e}; skipped"));
                    continue;
                }
            };
            let text =
                folder == Folder::Regressions && path.extension().is_some_and(|e| e == "txt");
            if !text {
                out.push(Entry {
                    path,
                    bytes,
                    regression: None,
                    encoding: self.encoding(),
                });
                continue;
            }
            match std::str::from_utf8(&bytes)
                .map_err(|_| "not UTF-8 text".to_string())
                .and_then(Regression::parse)
            {
                Ok(r) => {
                    // Another property's file (copied across folders?): replayed, but said.
                    let folder_name = |n: &str| n.replace("::", ".");
                    if !r.property.is_empty()
                        && folder_name(&r.property) != folder_name(&self.property)
                    {
                        self.warn(format!(
                            "{} was saved by the property `{}`, not `{}`: replayed anyway",
                            path.display(),
                            r.property,
                            self.property
                        ));
                    }
                    out.push(Entry {
                        path,
                        bytes: r.tape.clone(),
                        encoding: r.encoding,
                        regression: Some(r),
                    })
                }
                Err(e) => self.warn(format!("{}: {e}; skipped", path.display())),
            }
        }
        out
    }

    /// The path a `corpus/` tape is saved at.
    pub fn corpus_path(&self, bytes: &[u8]) -> PathBuf {
        self.folder(Folder::Corpus).join(sha1_name(bytes))
    }

    /// The path a regression of this tape is saved at when no other file holds that name
    /// (see [`Corpus::save_regression`]: a file there of another encoding, another tape or
    /// that does not parse is kept, and the new one goes beside it).
    pub fn regression_path(&self, tape: &[u8]) -> PathBuf {
        self.folder(Folder::Regressions)
            .join(format!("{}.txt", sha1_name(tape)))
    }

    /// Where `r` is saved: [`Corpus::regression_path`], or `<sha1>-1.txt`, `<sha1>-2.txt`, …
    /// when that name holds a file that is not a regression of the same tape in the same
    /// encoding (a file of an older encoding reads the same bytes as another value; one of a
    /// newer build, or damaged, cannot be read here: neither may be lost). A regression of the
    /// same tape and encoding is the same failure: its file is rewritten, wherever it is.
    /// `true` with the path when it holds that failure already (to rewrite), `false` when it
    /// is free (to create without replacing what another writer may put there meanwhile).
    fn free_regression_path(&self, r: &Regression) -> io::Result<(PathBuf, bool)> {
        let first = self.regression_path(&r.tape);
        let mut free = None;
        for path in regression_names(&first) {
            match fs::symlink_metadata(&path) {
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    free.get_or_insert(path);
                    continue;
                }
                Err(e) => return Err(with_path(e, &path)),
                Ok(_) => {}
            }
            let same = read_bounded(&path, MAX_ENTRY_BYTES)
                .ok()
                .is_some_and(|bytes| {
                    std::str::from_utf8(&bytes)
                        .ok()
                        .and_then(|t| Regression::parse(t).ok())
                        .is_some_and(|old| old.encoding == r.encoding && old.tape == r.tape)
                });
            if same {
                return Ok((path, true));
            }
        }
        free.map(|path| (path, false)).ok_or_else(|| {
            with_path(
                io::Error::other(format!(
                    "{} other files already hold this tape's names: none is replaced",
                    MAX_SIBLINGS + 1
                )),
                &first,
            )
        })
    }

    /// Whether `folder` already holds this tape: in `corpus/`, its file with these bytes; in
    /// `regressions/`, a file at [`Corpus::regression_path`] (of any encoding; the
    /// `<sha1>-N.txt` siblings [`Corpus::save_regression`] may write are not looked at).
    pub fn contains(&self, folder: Folder, bytes: &[u8]) -> bool {
        match folder {
            Folder::Corpus => read_regular(&self.corpus_path(bytes)).ok().as_deref() == Some(bytes),
            Folder::Regressions => self.regression_path(bytes).is_file(),
        }
    }

    /// Creates the folder with its `FORMAT` marker and its `corpus/` folder, and returns the
    /// path of `corpus/`: where a tool that writes tapes by itself (libFuzzer, under `cargo
    /// tapefuzz fuzz`) keeps its inputs. Errors name the path.
    pub fn ensure_folders(&self) -> io::Result<PathBuf> {
        self.mark_format()?;
        let dir = self.folder(Folder::Corpus);
        create_dir_durably(&dir).map_err(|e| with_path(e, &dir))?;
        Ok(dir)
    }

    /// The version of the byte encoding of the tapes in `corpus/`: the current one
    /// ([`crate::tape::ENCODING_VERSION`]) for a folder of format 4 and for one that has no
    /// `corpus/` entries yet; 2 for format 3; 1 for format 2 and for a folder with entries
    /// and no `FORMAT` (the earliest layout).
    pub fn encoding(&self) -> u32 {
        let format = read_regular(&self.root.join("FORMAT"))
            .map(|b| String::from_utf8_lossy(&b).into_owned());
        match format {
            Ok(text) if text.starts_with("tapefuzz corpus 2") => 1,
            Ok(text) if text.starts_with("tapefuzz corpus 3") => 2,
            Ok(_) => crate::tape::ENCODING_VERSION,
            Err(_) => {
                let has_entries = fs::read_dir(self.folder(Folder::Corpus))
                    .map(|mut rd| rd.next().is_some())
                    .unwrap_or(false);
                if has_entries {
                    1
                } else {
                    crate::tape::ENCODING_VERSION
                }
            }
        }
    }

    /// Migration of a `corpus/` entry to the current encoding: saves `bytes` (the entry's
    /// tape re-encoded) and removes the old file when its name differs. Errors name the
    /// path; the old file stays when the new one could not be written.
    pub fn migrate_entry(&mut self, old: &Entry, bytes: &[u8]) -> io::Result<()> {
        let new = self.corpus_path(bytes);
        if new == old.path {
            return Ok(());
        }
        if read_regular(&new).ok().as_deref() != Some(bytes) {
            write_atomic(&new, bytes)?;
        }
        match fs::remove_file(&old.path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(with_path(e, &old.path)),
        }
    }

    /// Ends a migration: every `corpus/` entry has been re-encoded
    /// ([`Corpus::migrate_entry`]), so the folder's `FORMAT` now says the current version.
    /// A migration cut short before this (a kill) leaves entries of both versions under the
    /// old marker; the next run reads the new ones as old, which makes them other inputs,
    /// never failures that are not real (a corpus entry claims nothing), and migrates again.
    pub fn finish_migration(&mut self) -> io::Result<()> {
        create_dir_durably(&self.root)?;
        write_atomic(&self.root.join("FORMAT"), FORMAT.as_bytes())
    }

    /// Writes the `FORMAT` marker once (a concurrent writer may have written it: fine).
    fn mark_format(&self) -> io::Result<()> {
        create_dir_durably(&self.root)?;
        let marker = self.root.join("FORMAT");
        if marker.is_file() {
            return Ok(());
        }
        write_atomic(&marker, FORMAT.as_bytes())
    }

    /// Saves a tape to `corpus/` under its sha1 name (atomically) and returns the path.
    /// Saving the same bytes again is harmless. Errors name the path.
    pub fn save(&mut self, bytes: &[u8]) -> io::Result<PathBuf> {
        self.mark_format()?;
        if self.encoding() != crate::tape::ENCODING_VERSION {
            // A tape of today among tapes of an older encoding would be read as one of them.
            return Err(with_path(
                io::Error::other(
                    "the folder holds tapes of an older encoding: a run of the property migrates it first",
                ),
                &self.root.join("FORMAT"),
            ));
        }
        let path = self.corpus_path(bytes);
        if read_regular(&path).ok().as_deref() != Some(bytes) {
            write_atomic(&path, bytes)?;
        }
        Ok(path)
    }

    /// Saves a failure to `regressions/` as a text file named by its tape's sha1 (property
    /// name filled in when empty) and returns the path. A file already at that name that is
    /// not this tape's regression in this encoding (an older or newer format, a damaged
    /// file) stays: the new file is `<sha1>-1.txt` (or the next free number). A new file is
    /// created without replacing one another process saves at the same name meanwhile (see
    /// [`write_new_atomic`](super::write_new_atomic)): the next free name is taken then.
    /// Errors name the path.
    pub fn save_regression(&mut self, regression: &Regression) -> io::Result<PathBuf> {
        self.mark_format()?;
        let mut r = regression.clone();
        if r.property.is_empty() {
            r.property = self.property.clone();
        }
        let dir = self.folder(Folder::Regressions);
        if dir.exists() && !dir.is_dir() {
            return Err(with_path(
                io::Error::new(io::ErrorKind::NotADirectory, "not a folder"),
                &dir,
            ));
        }
        let text = r.to_text();
        // Another process (another build, another shard) may take a free name between the
        // search and the write: the write never replaces it, and the search runs again.
        let mut taken = None;
        for _ in 0..=MAX_SIBLINGS {
            let (path, same) = self.free_regression_path(&r)?;
            let written = if same {
                write_atomic(&path, text.as_bytes())
            } else {
                write_new_atomic(&path, text.as_bytes())
            };
            match written {
                Ok(()) => return Ok(path),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => taken = Some(e),
                Err(e) => return Err(e),
            }
        }
        Err(taken.unwrap_or_else(|| io::Error::other("no free regression name")))
    }
}
