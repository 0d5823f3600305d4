//! Corpora: untrusted files are reported and skipped, nothing is lost, regressions replay first.

use std::fs;
use std::path::{Path, PathBuf};
use tapefuzz::corpus::{Corpus, EntryMeta, Folder, MAGIC, Manifest, sha1_name};
use tapefuzz::engine::Found;
use tapefuzz::prelude::*;
use tapefuzz::tape::encoding;

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tapefuzz-test-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).unwrap();
    d
}

fn write_entry(dir: &Path, bytes: &[u8]) -> PathBuf {
    fs::create_dir_all(dir).unwrap();
    let p = dir.join(sha1_name(bytes));
    fs::write(&p, bytes).unwrap();
    p
}

/// The tape that makes `ints::<u8>(..)` produce `x`.
fn tape_of(x: u8) -> Vec<u8> {
    encoding::encode_indices(&[(255, x as u64)])
}

#[test]
fn corrupt_manifest_and_huge_garbage_file_are_reported_and_skipped() {
    let root = temp_dir("corrupt");
    let target = root.join("t");
    fs::create_dir_all(&target).unwrap();
    fs::write(
        target.join("MANIFEST"),
        b"\x00\x01garbage that is not a manifest",
    )
    .unwrap();
    let good = [
        write_entry(&target.join("corpus"), &tape_of(3)),
        write_entry(&target.join("corpus"), &tape_of(9)),
    ];
    let huge = target.join("corpus").join("huge-garbage");
    fs::write(&huge, vec![0xA5u8; 10 * 1024 * 1024]).unwrap();
    fs::create_dir_all(target.join("corpus").join("a-folder")).unwrap();

    let mut corpus = Corpus::open(&target);
    let entries = corpus.load(Folder::Corpus);
    assert_eq!(entries.len(), 2);
    let w = corpus.warnings().join("\n");
    assert!(w.contains("not a tapefuzz manifest"), "{w}");
    assert!(w.contains("huge-garbage") && w.contains("over the"), "{w}");
    assert!(w.contains("a-folder"), "{w}");

    // A run replays the good entries and goes on.
    let r = Property::new("t")
        .corpora(&root)
        .seed(1)
        .tests(50)
        .run(ints::<u8>(..), |_x: u8| {});
    assert!(r.passed());
    assert_eq!(r.run.replayed, 2);
    assert_eq!(r.run.tests, 50);

    // Nothing was lost: the big file and the good entries are still there.
    assert_eq!(fs::metadata(&huge).unwrap().len(), 10 * 1024 * 1024);
    assert!(good.iter().all(|p| p.exists()));

    // Rewriting the manifest keeps the corrupt one aside.
    let mut corpus = Corpus::open(&target);
    corpus
        .save(Folder::Corpus, &tape_of(5), EntryMeta::default())
        .unwrap();
    assert_eq!(
        fs::read(target.join("MANIFEST.bad")).unwrap(),
        b"\x00\x01garbage that is not a manifest"
    );
    // The rebuilt manifest lists the new entry and the two good ones found on disk (not the
    // oversized file, which is no tape).
    let m = Manifest::decode(&fs::read(target.join("MANIFEST")).unwrap()).unwrap();
    assert_eq!(m.entries.len(), 3);
    assert!(Corpus::open(&target).warnings().is_empty());
}

#[test]
fn manifest_of_another_version_is_reported() {
    let root = temp_dir("version");
    let mut bytes = MAGIC.to_vec();
    bytes.extend_from_slice(&99u32.to_le_bytes());
    fs::write(root.join("MANIFEST"), &bytes).unwrap();
    let c = Corpus::open(&root);
    assert!(c.warnings()[0].contains("version 99"), "{:?}", c.warnings());
}

#[test]
fn saves_are_atomic_and_idempotent() {
    let root = temp_dir("atomic");
    let mut c = Corpus::open(&root);
    let a = c
        .save(Folder::Regressions, b"abc", EntryMeta::default())
        .unwrap();
    let b = c
        .save(Folder::Regressions, b"abc", EntryMeta::default())
        .unwrap();
    assert_eq!(a, b);
    assert_eq!(a.file_name().unwrap().to_str().unwrap(), sha1_name(b"abc"));
    let names: Vec<_> = fs::read_dir(root.join("regressions"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1, "temporary files left: {names:?}");
}

#[test]
fn a_failure_is_saved_replayed_first_and_gone_when_removed() {
    let root = temp_dir("regression");
    let prop = |x: u8| x < 200;
    // 1. A failing run saves the shrunk tape to regressions/.
    let r = Property::new("p")
        .corpora(&root)
        .seed(4)
        .run(ints::<u8>(..), prop);
    assert_eq!(r.value.as_deref(), Some("200"));
    let saved = r.run.failure.as_ref().unwrap().saved.clone().unwrap();
    assert!(saved.starts_with(root.join("p").join("regressions")));
    assert_eq!(fs::read(&saved).unwrap(), tape_of(200));

    // 2. The next run fails on it first, before generating anything.
    let r = Property::new("p")
        .corpora(&root)
        .seed(99)
        .tests(0)
        .run(ints::<u8>(..), prop);
    assert!(matches!(&r.run.failure.as_ref().unwrap().found, Found::Reuse(p) if *p == saved));
    assert_eq!(r.run.tests, 0);

    // 3. Removing the file makes it pass again.
    fs::remove_file(&saved).unwrap();
    let r = Property::new("p")
        .corpora(&root)
        .seed(99)
        .tests(0)
        .run(ints::<u8>(..), prop);
    assert!(r.passed());
}

#[test]
fn a_failing_corpus_entry_is_shrunk_and_saved_as_a_regression() {
    let root = temp_dir("entry");
    write_entry(&root.join("p").join("corpus"), &tape_of(250));
    let r = Property::new("p")
        .corpora(&root)
        .tests(0)
        .run(ints::<u8>(..), |x: u8| x < 200);
    assert_eq!(r.value.as_deref(), Some("200"));
    assert!(
        root.join("p")
            .join("regressions")
            .join(sha1_name(&tape_of(200)))
            .exists()
    );
}

#[test]
fn every_bad_manifest_is_kept_and_the_rebuilt_one_lists_the_entries() {
    let root = temp_dir("bad-twice");
    let entry = write_entry(&root.join("corpus"), &tape_of(1));
    for (k, garbage) in [b"first bad".as_slice(), b"second bad"].iter().enumerate() {
        fs::write(root.join("MANIFEST"), garbage).unwrap();
        let mut c = Corpus::open(&root);
        c.save(Folder::Regressions, &tape_of(2), EntryMeta::default())
            .unwrap();
        let kept = if k == 0 {
            "MANIFEST.bad"
        } else {
            "MANIFEST.bad.1"
        };
        assert_eq!(fs::read(root.join(kept)).unwrap(), *garbage);
    }
    let m = Manifest::decode(&fs::read(root.join("MANIFEST")).unwrap()).unwrap();
    let name = format!("corpus/{}", entry.file_name().unwrap().to_str().unwrap());
    assert_eq!(m.entries[&name].strategy, "unknown");
    assert_eq!(m.entries.len(), 2);
}

#[test]
fn a_manifest_of_another_tape_encoding_is_reported() {
    let root = temp_dir("encoding");
    let m = Manifest {
        tape_encoding: 99,
        ..Manifest::default()
    };
    fs::write(root.join("MANIFEST"), m.encode()).unwrap();
    let c = Corpus::open(&root);
    assert!(
        c.warnings()[0].contains("tape encoding v99"),
        "{:?}",
        c.warnings()
    );
}

#[cfg(unix)]
#[test]
fn devices_and_fifos_in_a_corpus_are_skipped_without_reading() {
    let root = temp_dir("devices");
    let dir = root.join("corpus");
    write_entry(&dir, &tape_of(4));
    std::os::unix::fs::symlink("/dev/zero", dir.join("zeros")).unwrap();
    let fifo = dir.join("fifo");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let mut c = Corpus::open(&root);
    let entries = c.load(Folder::Corpus);
    assert_eq!(entries.len(), 1);
    let w = c.warnings().join("\n");
    assert!(
        w.contains("zeros: not a regular file") && w.contains("fifo: not a regular file"),
        "{w}"
    );
}
