//! What the end-to-end tests share: the workspace, a scratch crate of properties, and the
//! files of a folder.

#![allow(dead_code)] // each test binary uses its part

use std::path::{Path, PathBuf};

/// This workspace's root.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace root")
        .to_path_buf()
}

/// A crate `name` in `dir` (made afresh): an empty library and `tests/props.rs` holding
/// `props`, depending on this workspace's tapefuzz, with this workspace's lock file (no
/// resolution, no network).
pub fn props_crate(dir: &Path, name: &str, props: &str) -> PathBuf {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::create_dir_all(dir.join("tests")).unwrap();
    std::fs::write(dir.join("src/lib.rs"), "").unwrap();
    std::fs::write(dir.join("tests/props.rs"), props).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
             [dependencies]\ntapefuzz = {{ path = {:?} }}\n\n[workspace]\n",
            workspace().display().to_string()
        ),
    )
    .unwrap();
    std::fs::copy(workspace().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    dir.to_path_buf()
}

/// Every file under `dir` but flight records (`.inflight/`), relative to it, with its bytes,
/// sorted.
pub fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                if e.file_name() != ".inflight" {
                    stack.push(p);
                }
            } else {
                out.push((
                    p.strip_prefix(dir).unwrap().to_path_buf(),
                    std::fs::read(&p).unwrap_or_default(),
                ));
            }
        }
    }
    out.sort();
    out
}
