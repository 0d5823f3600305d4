//! `merge`: the corpora folders of several jobs (CI shards, machines, branches) copied into
//! one. Every file of a store is named by its content (`corpus/<sha1>`,
//! `regressions/<sha1>.txt`, named by its tape), so a merge is a copy of what is missing:
//! nothing is ever overwritten. A regression whose tape the destination holds in the same
//! encoding is present even when its text differs (the failure's message names a line that
//! moved); one whose name the destination holds with another regression (another encoding
//! of the same bytes, a file this build cannot read) goes beside it as `<sha1>-N.txt`, as a
//! run saves it. A property folder saved in another encoding (`FORMAT`) is not mixed in (run
//! the property on both sides first: a run migrates its folder); any other name that holds
//! other bytes on each side (only a damaged file can) is reported and left as it is in the
//! destination.

use std::path::{Path, PathBuf};

/// What a merge did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Merged {
    /// Files copied into the destination.
    pub copied: usize,
    /// Files the destination already held, byte for byte.
    pub present: usize,
    /// Files whose name the destination holds with other bytes: left as they were.
    pub conflicts: Vec<PathBuf>,
    /// Files that could not be read or written, with the error.
    pub errors: Vec<String>,
}

/// Copies every store file of `source` (a corpora folder: `<property>/corpus/…`,
/// `<property>/regressions/…` and the folders' own files) into `dest`, which is made when
/// missing. Skipped: the flight records (`.inflight/`, a run's own), temporary files of an
/// unfinished write, links and anything that is not a regular file.
pub fn merge(source: &Path, dest: &Path, out: &mut Merged) {
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        let dir = source.join(&rel);
        let entries = match std::fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) => {
                out.errors.push(format!("{}: {e}", dir.display()));
                continue;
            }
        };
        let mut names: Vec<_> = entries.flatten().collect();
        names.sort_by_key(|e| e.file_name());
        for entry in names {
            let name = entry.file_name();
            let text = name.to_string_lossy();
            if text == ".inflight" || tapefuzz::corpus::is_temp_name(&text) {
                continue;
            }
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let rel = rel.join(&name);
            if kind.is_dir() {
                if text == "corpus" && !same_format(source, dest, &rel) {
                    continue;
                }
                stack.push(rel);
            } else if kind.is_file() {
                copy_one(&source.join(&rel), &dest.join(&rel), out);
            }
        }
    }
}

/// Whether the property folder holding `corpus` (relative to both roots) has one encoding
/// on both sides, or a side without a `FORMAT` yet: where they differ its `corpus/` entries
/// are not copied (the `FORMAT` file itself is the conflict reported).
fn same_format(source: &Path, dest: &Path, corpus: &Path) -> bool {
    let format = |root: &Path| std::fs::read(root.join(corpus).with_file_name("FORMAT")).ok();
    match (format(source), format(dest)) {
        (Some(a), Some(b)) => a == b,
        _ => true,
    }
}

/// The tape and encoding of a regression file's text, if it is one.
fn regression_key(bytes: &[u8]) -> Option<(Vec<u8>, u32)> {
    let text = std::str::from_utf8(bytes).ok()?;
    tapefuzz::corpus::Regression::parse(text)
        .ok()
        .map(|r| (r.tape, r.encoding))
}

/// Copies one file unless `to` exists: the same bytes (for a regression, the same tape)
/// count as present, other bytes as a conflict.
fn copy_one(from: &Path, to: &Path, out: &mut Merged) {
    let bytes = match std::fs::read(from) {
        Ok(b) => b,
        Err(e) => {
            out.errors.push(format!("{}: {e}", from.display()));
            return;
        }
    };
    let regression = to.parent().and_then(|p| p.file_name()) == Some("regressions".as_ref())
        && to.extension().is_some_and(|e| e == "txt");
    let key = if regression {
        regression_key(&bytes)
    } else {
        None
    };
    if let Some(key) = key {
        // The first of its names that is free or holds the same failure: another
        // encoding's file, or one this build cannot read, stays and this one goes beside it.
        for name in tapefuzz::corpus::regression_names(to) {
            match std::fs::read(&name) {
                Ok(there) if there == bytes || regression_key(&there).as_ref() == Some(&key) => {
                    out.present += 1;
                    return;
                }
                Ok(_) => continue,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    return copy_new(&name, &bytes, out);
                }
                Err(e) => {
                    out.errors.push(format!("{}: {e}", name.display()));
                    return;
                }
            }
        }
        out.conflicts.push(to.to_path_buf());
        return;
    }
    match std::fs::read(to) {
        Ok(there) if there == bytes => out.present += 1,
        Ok(_) => out.conflicts.push(to.to_path_buf()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => copy_new(to, &bytes, out),
        Err(e) => out.errors.push(format!("{}: {e}", to.display())),
    }
}

/// Writes `bytes` to `to`, a name the destination does not hold. A file another process
/// put there since is never replaced: the name is reported as a conflict.
fn copy_new(to: &Path, bytes: &[u8], out: &mut Merged) {
    let made = to
        .parent()
        .map_or(Ok(()), tapefuzz::corpus::create_dir_durably)
        .and_then(|()| tapefuzz::corpus::write_new_atomic(to, bytes));
    match made {
        Ok(()) => out.copied += 1,
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            out.conflicts.push(to.to_path_buf())
        }
        Err(e) => out.errors.push(format!("{}: {e}", to.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(root: &Path, rel: &str, bytes: &[u8]) {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }

    #[test]
    fn a_regression_of_another_encoding_at_the_name_goes_beside_it() {
        let tmp = std::env::temp_dir().join(format!("tapefuzz-merge-enc-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
        let (a, b, dest) = (tmp.join("a"), tmp.join("b"), tmp.join("dest"));
        let reg = |encoding: u32| {
            tapefuzz::corpus::Regression {
                property: "p".into(),
                generator: 0,
                value: Some(format!("read in encoding {encoding}")),
                failure: None,
                isolate: false,
                tape: vec![2, 0, 58],
                encoding,
            }
            .to_text()
        };
        let today = tapefuzz::tape::ENCODING_VERSION;
        write(&dest, "p/regressions/x.txt", reg(2).as_bytes());
        write(&a, "p/regressions/x.txt", reg(today).as_bytes());
        // Another job saved today's beside its own old file already: present, not copied.
        write(&b, "p/regressions/x-1.txt", reg(today).as_bytes());
        let mut m = Merged::default();
        merge(&a, &dest, &mut m);
        merge(&b, &dest, &mut m);
        assert_eq!((m.copied, m.present), (1, 1), "{m:?}");
        assert!(m.conflicts.is_empty() && m.errors.is_empty(), "{m:?}");
        let read = |n: &str| std::fs::read_to_string(dest.join("p/regressions").join(n)).unwrap();
        assert_eq!(read("x.txt"), reg(2));
        assert_eq!(read("x-1.txt"), reg(today));
        let _ = std::fs::remove_dir_all(&tmp);
    }

    #[test]
    fn a_merge_copies_what_is_missing_and_overwrites_nothing() {
        let tmp = std::env::temp_dir().join(format!("tapefuzz-merge-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
        let (a, b, dest) = (tmp.join("a"), tmp.join("b"), tmp.join("dest"));
        write(&a, "p/corpus/aaa", b"1");
        write(&a, "p/regressions/r1.txt", b"reg");
        write(&a, ".inflight/p.1.flight", b"in flight");
        write(&a, "p/corpus/.ddd.tmp-0000000000000001", b"half");
        write(&b, "p/corpus/aaa", b"1");
        write(&b, "p/corpus/bbb", b"2");
        write(&b, "q/corpus/ccc", b"3");
        write(&dest, "p/corpus/bbb", b"damaged");
        // The same regression tape with another message: present, not a conflict.
        let reg = |failure: &str| {
            tapefuzz::corpus::Regression {
                property: "p".into(),
                generator: 0,
                value: Some("[1]".into()),
                failure: Some(failure.into()),
                isolate: false,
                tape: vec![1, 0, 1],
                encoding: tapefuzz::tape::ENCODING_VERSION,
            }
            .to_text()
        };
        write(
            &a,
            "p/regressions/same.txt",
            reg("panicked at src/lib.rs:10:5").as_bytes(),
        );
        write(
            &dest,
            "p/regressions/same.txt",
            reg("panicked at src/lib.rs:12:5").as_bytes(),
        );
        // Another encoding: neither FORMAT nor entries are mixed in.
        write(&b, "old/FORMAT", b"tapefuzz corpus 2\n");
        write(&b, "old/corpus/eee", b"4");
        write(&dest, "old/FORMAT", b"tapefuzz corpus 4\n");
        let mut m = Merged::default();
        merge(&a, &dest, &mut m);
        merge(&b, &dest, &mut m);
        assert_eq!(m.copied, 3, "{m:?}"); // aaa and r1 from a, ccc from b
        assert_eq!(m.present, 2, "{m:?}"); // same.txt, and aaa again
        let mut conflicts = m.conflicts.clone();
        conflicts.sort();
        assert_eq!(
            conflicts,
            [dest.join("old/FORMAT"), dest.join("p/corpus/bbb")]
        );
        assert!(!dest.join("old/corpus/eee").exists());
        assert!(m.errors.is_empty(), "{m:?}");
        assert_eq!(
            std::fs::read(dest.join("p/corpus/bbb")).unwrap(),
            b"damaged"
        );
        assert_eq!(std::fs::read(dest.join("q/corpus/ccc")).unwrap(), b"3");
        assert!(!dest.join(".inflight").exists());
        assert!(!dest.join("p/corpus/.ddd.tmp-0000000000000001").exists());
        let _ = std::fs::remove_dir_all(&tmp);
    }
}
