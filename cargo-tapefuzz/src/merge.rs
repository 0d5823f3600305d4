//! `merge`: the corpora folders of several jobs (CI shards, machines, branches) copied into
//! one. Every file of a store is named by its content (`corpus/<sha1>`,
//! `regressions/<sha1>.txt`), so a merge is a copy of what is missing: nothing is ever
//! overwritten, and a name that holds other bytes on each side (only a damaged file can) is
//! reported and left as it is in the destination.

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
                stack.push(rel);
            } else if kind.is_file() {
                copy_one(&source.join(&rel), &dest.join(&rel), out);
            }
        }
    }
}

/// Copies one file unless `to` exists: the same bytes count as present, other bytes as a
/// conflict.
fn copy_one(from: &Path, to: &Path, out: &mut Merged) {
    let bytes = match std::fs::read(from) {
        Ok(b) => b,
        Err(e) => {
            out.errors.push(format!("{}: {e}", from.display()));
            return;
        }
    };
    match std::fs::read(to) {
        Ok(there) if there == bytes => out.present += 1,
        Ok(_) => out.conflicts.push(to.to_path_buf()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let made = to
                .parent()
                .map_or(Ok(()), tapefuzz::corpus::create_dir_durably)
                .and_then(|()| tapefuzz::corpus::write_atomic(to, &bytes));
            match made {
                Ok(()) => out.copied += 1,
                Err(e) => out.errors.push(format!("{}: {e}", to.display())),
            }
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
        let mut m = Merged::default();
        merge(&a, &dest, &mut m);
        merge(&b, &dest, &mut m);
        assert_eq!(m.copied, 3, "{m:?}"); // aaa and r1 from a, ccc from b
        assert_eq!(m.present, 1, "{m:?}");
        assert_eq!(m.conflicts, [dest.join("p/corpus/bbb")]);
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
