//! Corpora: untrusted files are reported and skipped, nothing is lost, regressions replay first.

use std::fs;
use std::path::{Path, PathBuf};
use tapefuzz::corpus::{Corpus, Folder, Regression, sha1_name};
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
fn an_old_manifest_and_a_huge_garbage_file_are_reported_and_skipped() {
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
    // A regression file that is not one, beside a good one.
    fs::create_dir_all(target.join("regressions")).unwrap();
    fs::write(target.join("regressions").join("bad.txt"), "hello").unwrap();

    let mut corpus = Corpus::open(&target);
    let entries = corpus.load(Folder::Corpus);
    assert_eq!(entries.len(), 2);
    assert!(corpus.load(Folder::Regressions).is_empty());
    let w = corpus.warnings().join("\n");
    assert!(
        w.contains("MANIFEST: left by an earlier layout and ignored"),
        "{w}"
    );
    assert!(w.contains("huge-garbage") && w.contains("over the"), "{w}");
    assert!(w.contains("a-folder"), "{w}");
    assert!(w.contains("bad.txt: not a regression file"), "{w}");

    // A run replays the good entries and goes on, and says what it skipped.
    let r = Property::new("t")
        .corpora(&root)
        .seed(1)
        .tests(50)
        .run(ints::<u8>(..), |_x: u8| {});
    assert!(r.passed());
    assert_eq!(r.replayed, 2);
    assert_eq!(r.tests, 50);
    assert!(r.to_string().contains("warning: "), "{r}");

    // Nothing was lost: the big file, the bad one, the old manifest and the good entries are
    // all still there.
    assert_eq!(fs::metadata(&huge).unwrap().len(), 10 * 1024 * 1024);
    assert!(good.iter().all(|p| p.exists()));
    assert!(target.join("MANIFEST").exists());
    assert!(target.join("regressions").join("bad.txt").exists());
    // 10 MB of garbage is not left in the temporary folder after every test run.
    let _ = fs::remove_dir_all(&root);
}

#[test]
fn saves_are_atomic_and_idempotent() {
    let root = temp_dir("atomic");
    let mut c = Corpus::open(&root);
    let a = c.save(b"abc").unwrap();
    let b = c.save(b"abc").unwrap();
    assert_eq!(a, b);
    assert_eq!(a.file_name().unwrap().to_str().unwrap(), sha1_name(b"abc"));
    let names: Vec<_> = fs::read_dir(root.join("corpus"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1, "temporary files left: {names:?}");
    assert!(
        fs::read_to_string(root.join("FORMAT"))
            .unwrap()
            .starts_with("tapefuzz corpus 4")
    );
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
    let saved = r.failure.as_ref().unwrap().saved.clone().unwrap();
    assert!(saved.starts_with(root.join("p").join("regressions")));
    // A text file a person reads: the property, the value, the message, the tape.
    let text = fs::read_to_string(&saved).unwrap();
    let saved_regression = Regression::parse(&text).unwrap();
    assert_eq!(saved_regression.tape, tape_of(200));
    assert_eq!(saved_regression.property, "p");
    assert_eq!(saved_regression.value.as_deref(), Some("200"));
    assert!(text.contains("value: 200\n"), "{text}");

    // 2. The next run fails on it first, before generating anything.
    let r = Property::new("p")
        .corpora(&root)
        .seed(99)
        .tests(0)
        .run(ints::<u8>(..), prop);
    assert!(matches!(&r.failure.as_ref().unwrap().found, Found::Reuse(p) if *p == saved));
    assert_eq!(r.tests, 0);

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
            .join(format!("{}.txt", sha1_name(&tape_of(200))))
            .exists()
    );
}

#[test]
fn a_regression_in_the_earlier_raw_layout_keeps_replaying() {
    let root = temp_dir("raw");
    // The earlier layout: raw tape bytes named by their sha1, and a binary MANIFEST.
    write_entry(&root.join("p").join("regressions"), &tape_of(230));
    fs::write(root.join("p").join("MANIFEST"), b"TFZMANIF...").unwrap();
    let r = Property::new("p")
        .corpora(&root)
        .tests(0)
        .run(ints::<u8>(..), |x: u8| x < 200);
    assert!(matches!(r.failure.as_ref().unwrap().found, Found::Reuse(_)));
    assert_eq!(r.value.as_deref(), Some("200"));
}

/// A regression saved by an earlier version of a generator: the structure differs.
#[test]
fn a_changed_generator_is_reported_with_both_renderings() {
    let root = temp_dir("changed");
    // (u8, Vec<u8>): fails on a first field over 100.
    let before = (ints::<u8>(..), vecs(ints::<u8>(..), 0..=3));
    let r = Property::new("p")
        .corpora(&root)
        .seed(3)
        .tests(1000)
        .run(before, |(a, _): (u8, Vec<u8>)| a <= 100);
    assert_eq!(r.value.as_deref(), Some("(101, [])"));
    // A field added in the middle: the saved tape now reads as another value.
    let after = (ints::<u8>(..), ints::<u8>(..), vecs(ints::<u8>(..), 0..=3));
    let r = Property::new("p")
        .corpora(&root)
        .tests(0)
        .run(after, |(a, _, _): (u8, u8, Vec<u8>)| a <= 100);
    let w = r.warnings.join("\n");
    assert!(w.contains("saved by another generator"), "{w}");
    assert!(w.contains("saved as `(101, [])`"), "{w}");
    assert!(w.contains("replays today as `(101, 0, [])`"), "{w}");
    // Replayed all the same: it still fails.
    assert!(!r.passed());
    // A widened range.
    let root = temp_dir("widened");
    let narrow = (ints::<u32>(0..=100), vecs(ints::<u8>(..), 0..=3));
    let _ = Property::new("q")
        .corpora(&root)
        .seed(5)
        .tests(1000)
        .run(narrow, |(a, v): (u32, Vec<u8>)| a < 50 || v.len() < 2);
    let wide = (ints::<u32>(0..=100_000), vecs(ints::<u8>(..), 0..=3));
    let r = Property::new("q")
        .corpora(&root)
        .tests(0)
        .run(wide, |(a, v): (u32, Vec<u8>)| a < 50 || v.len() < 2);
    let w = r.warnings.join("\n");
    assert!(w.contains("saved by another generator"), "{w}");
    assert!(w.contains("saved as `(50, [0, 0])`"), "{w}");
    // The unchanged generator says nothing.
    let r = Property::new("q").corpora(&root).tests(0).run(
        (ints::<u32>(0..=100), vecs(ints::<u8>(..), 0..=3)),
        |(a, v): (u32, Vec<u8>)| a < 50 || v.len() < 2,
    );
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
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

#[test]
fn a_regression_of_another_property_is_replayed_and_said() {
    let root = temp_dir("other-property");
    let r = Property::new("a")
        .corpora(&root)
        .seed(3)
        .tests(1000)
        .run(ints::<u8>(..), |x: u8| x <= 100);
    assert!(!r.passed());
    // Its regression copied into another property's folder.
    let from = root.join("a").join("regressions");
    let to = root.join("b").join("regressions");
    fs::create_dir_all(&to).unwrap();
    for f in fs::read_dir(&from).unwrap().flatten() {
        fs::copy(f.path(), to.join(f.file_name())).unwrap();
    }
    let r = Property::new("b")
        .corpora(&root)
        .tests(0)
        .run(ints::<u8>(..), |_: u8| true);
    let w = r.warnings.join("\n");
    assert!(w.contains("saved by the property `a`, not `b`"), "{w}");
    assert!(r.passed(), "replayed anyway: {r}");
    let _ = fs::remove_dir_all(&root);
}

/// A regression file already at a failure's name that this build would not write the same
/// way (a newer build's format, an older encoding of the same bytes, a damaged file) is kept:
/// the new failure goes beside it. The same failure again rewrites its own file.
#[test]
fn a_regression_never_replaces_a_file_of_another_encoding() {
    let root = temp_dir("siblings");
    let mut c = Corpus::open(root.join("p"));
    let tape = tape_of(200);
    let first = c.regression_path(&tape);
    fs::create_dir_all(first.parent().unwrap()).unwrap();
    let newer = "tapefuzz regression 9\nproperty: p\nsomething: this build cannot read\n";
    fs::write(&first, newer).unwrap();
    let older = Regression {
        property: "p".into(),
        generator: 1,
        value: Some("an old reading".into()),
        failure: None,
        isolate: false,
        tape: tape.clone(),
        encoding: 2,
    };
    let second = first.with_file_name(format!("{}-1.txt", sha1_name(&tape)));
    fs::write(&second, older.to_text()).unwrap();

    let today = Regression {
        encoding: tapefuzz::tape::ENCODING_VERSION,
        value: Some("200".into()),
        ..older.clone()
    };
    let saved = c.save_regression(&today).unwrap();
    let third = first.with_file_name(format!("{}-2.txt", sha1_name(&tape)));
    assert_eq!(saved, third);
    assert_eq!(fs::read_to_string(&first).unwrap(), newer);
    assert_eq!(fs::read_to_string(&second).unwrap(), older.to_text());
    // The same failure again: its own file, rewritten with what it says now.
    let again = Regression {
        failure: Some("a new message".into()),
        ..today.clone()
    };
    assert_eq!(c.save_regression(&again).unwrap(), third);
    assert_eq!(
        Regression::parse(&fs::read_to_string(&third).unwrap())
            .unwrap()
            .failure
            .as_deref(),
        Some("a new message")
    );
    assert_eq!(fs::read_dir(first.parent().unwrap()).unwrap().count(), 3);
    // With the first name free again, the same failure still goes to its own file (no
    // second copy that would replay twice).
    fs::remove_file(&first).unwrap();
    assert_eq!(c.save_regression(&again).unwrap(), third);
    assert_eq!(fs::read_dir(first.parent().unwrap()).unwrap().count(), 2);
    let _ = fs::remove_dir_all(&root);
}

#[test]
fn writers_of_two_encodings_racing_for_one_name_both_keep_their_file() {
    // Two builds save the same tape at the same moment, each in its own encoding: each
    // finds the first name free, and neither may replace the other's file there.
    let tape = tape_of(77);
    let older = Regression {
        property: "p".into(),
        generator: 1,
        value: Some("old".into()),
        failure: None,
        isolate: false,
        tape: tape.clone(),
        encoding: 2,
    };
    let today = Regression {
        encoding: tapefuzz::tape::ENCODING_VERSION,
        value: Some("77".into()),
        ..older.clone()
    };
    for round in 0..100 {
        let root = temp_dir(&format!("race-{round}"));
        let saved: Vec<_> = std::thread::scope(|s| {
            [&older, &today]
                .map(|r| {
                    let root = &root;
                    s.spawn(move || Corpus::open(root.join("p")).save_regression(r).unwrap())
                })
                .map(|h| h.join().unwrap())
                .to_vec()
        });
        assert_ne!(
            saved[0], saved[1],
            "round {round}: both wrote {:?}",
            saved[0]
        );
        for (path, r) in saved.iter().zip([&older, &today]) {
            assert_eq!(
                fs::read_to_string(path).unwrap(),
                r.to_text(),
                "round {round}"
            );
        }
        let _ = fs::remove_dir_all(&root);
    }
}
