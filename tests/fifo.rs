//! FIFOs and symbolic links under the store's names (a temporary file's, a flight record's,
//! `FORMAT`, a corpus entry's) never hang a run, and nothing is written through them.
#![cfg(unix)]

use std::path::Path;
use std::process::Command;
use std::sync::mpsc;
use std::time::Duration;
use tapefuzz::prelude::*;

fn mkfifo(path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let ok = Command::new("mkfifo").arg(path).status().unwrap().success();
    assert!(ok, "mkfifo {}", path.display());
}

#[test]
fn fifos_and_links_in_the_store_are_skipped_not_opened() {
    let dir = std::env::temp_dir().join(format!("tapefuzz-fifo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let root = dir.join("fifo");
    // Under a temporary file's name (the cleanup opened it for writing), a flight record's
    // (read when collected), the format marker's, and a corpus entry's.
    mkfifo(&root.join("corpus").join(".evil.tmp-0000000000000002"));
    mkfifo(&dir.join(".inflight").join("fifo.0000000000000001.flight"));
    mkfifo(&root.join("FORMAT"));
    mkfifo(&root.join("corpus").join("0".repeat(40)));
    // A link under a temporary name, to a file outside the store: left as it is.
    let outside = dir.join("outside.txt");
    std::fs::write(&outside, b"keep").unwrap();
    std::os::unix::fs::symlink(
        &outside,
        root.join("corpus").join(".link.tmp-0000000000000003"),
    )
    .unwrap();

    let (done, wait) = mpsc::channel();
    let corpora = dir.clone();
    std::thread::spawn(move || {
        Property::new("fifo")
            .corpora(&corpora)
            .tests(200)
            .check(vecs(ints::<u8>(..), 0..=5), |v: Vec<u8>| v.len() <= 5);
        done.send(()).unwrap();
    });
    wait.recv_timeout(Duration::from_secs(60))
        .expect("the run ended (a FIFO in the store hung it)");
    assert_eq!(std::fs::read(&outside).unwrap(), b"keep");
    let _ = std::fs::remove_dir_all(&dir);
}
