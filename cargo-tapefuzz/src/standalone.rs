//! Standalone fuzzers for fuzzing services (OSS-Fuzz, ClusterFuzzLite): `cargo tapefuzz
//! build-fuzzers [OUT]` leaves in `OUT` (default `$OUT`, which those services set) one
//! executable per property, named after it (`x1::roundtrip` → `x1_roundtrip`), with its
//! `<name>_seed_corpus.zip`.
//!
//! Each executable is the property's instrumented test binary itself (a hard link to its copy
//! under cargo's name in `OUT/tapefuzz/`, a copy where links fail), so what a service checks
//! in the file — libFuzzer's entry point, the sanitizer's calls under `$SANITIZER=address` —
//! is in it. Its launch file (`OUT/tapefuzz/<name>.launch`: that copy, the test and the
//! property) tells the test binary, before its `main`, that it is that property's fuzzer
//! ([`tapefuzz::serve::Launch`]): it takes libFuzzer's flags, corpus folders and inputs, from
//! any working folder, with no variable to set. The property's own `corpus/` folder (a path
//! of the machine that built it) is left out ([`tapefuzz::fuzz::driver::STANDALONE_VAR`]),
//! and libFuzzer's `-fork`/`-jobs` children start the fuzzer again.

use crate::args::Args;
use crate::build::{self, Build};
use crate::drive;
use std::path::{Path, PathBuf};
use tapefuzz::serve::{LAUNCH_FOLDER, Launch, SANITIZERS};

/// The name of a property's fuzzer: its name with every character but letters, digits and
/// `_` as `_` (`x1::roundtrip` → `x1__roundtrip` would be ugly: `::` is one `_`).
pub fn fuzzer_name(property: &str) -> String {
    property
        .replace("::", "_")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The sanitizer of a `build-fuzzers` run: `--sanitizer`, else `$SANITIZER` (which the
/// services set), else none. A value the build cannot make is an error naming it.
fn sanitizer(args: &Args) -> Result<Option<String>, String> {
    if let Some(s) = &args.sanitizer {
        return Ok(Some(s.clone()));
    }
    match std::env::var("SANITIZER") {
        Ok(s) if s.is_empty() => Ok(None),
        Ok(s) if SANITIZERS.contains(&s.as_str()) => Ok(Some(s)),
        // Rust has no UndefinedBehaviorSanitizer: OSS-Fuzz's own Rust builds then add none.
        Ok(s) if s == "undefined" => {
            eprintln!(
                "cargo-tapefuzz: note: SANITIZER=undefined: Rust has no UndefinedBehaviorSanitizer; building without a sanitizer, as OSS-Fuzz's Rust builds do"
            );
            Ok(None)
        }
        // The services' coverage and introspector builds (daily, besides the fuzzing ones)
        // must not fail: they get the plain instrumented build.
        Ok(s) if s == "coverage" || s == "introspector" => {
            eprintln!(
                "cargo-tapefuzz: note: SANITIZER={s}: building without a sanitizer (source-based coverage reports of tapefuzz fuzzers are not supported)"
            );
            Ok(None)
        }
        Ok(s) => Err(format!(
            "SANITIZER={s}: build-fuzzers builds with {} (MemorySanitizer needs the standard library rebuilt)",
            SANITIZERS.join(" or ")
        )),
        Err(_) => Ok(None),
    }
}

/// `build-fuzzers [OUT]`: every property of the crate as a standalone fuzzer in `OUT`
/// (default `$OUT`), with its seed corpus. One JSON line per fuzzer on stdout.
pub fn build_fuzzers(args: &Args) -> Result<i32, String> {
    let out = match (args.positional.first(), std::env::var_os("OUT")) {
        (Some(dir), _) => PathBuf::from(dir),
        (None, Some(dir)) if !dir.is_empty() => PathBuf::from(dir),
        _ => {
            return Err(
                "build-fuzzers takes the folder to fill (or $OUT, as OSS-Fuzz sets it)".into(),
            );
        }
    };
    if args.positional.len() > 1 {
        return Err(format!(
            "unexpected argument `{}` (build-fuzzers takes one folder)",
            args.positional[1]
        ));
    }
    if !cfg!(target_os = "linux") {
        return Err("build-fuzzers makes Linux fuzzers (the fuzzing services' platform)".into());
    }
    let mut args = args.clone();
    args.sanitizer = sanitizer(&args)?;
    let args = &args;
    let folder = out.join(LAUNCH_FOLDER);
    std::fs::create_dir_all(&folder)
        .map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
    // The properties, from the plain build; then only the test targets that hold some are
    // built again instrumented (another would lack the coverage callbacks).
    let binaries = build::test_binaries(args)?;
    let mut found = drive::list(&binaries, &crate::commands::corpora_env(args))?;
    // Two properties whose names make one fuzzer name would overwrite each other.
    let mut names: Vec<(String, &str)> = Vec::new();
    for f in &found {
        let name = fuzzer_name(&f.name);
        if name == LAUNCH_FOLDER {
            return Err(format!(
                "property `{}` would be the fuzzer `{name}`, the name of the folder beside the fuzzers: rename it",
                f.name
            ));
        }
        if let Some((_, other)) = names.iter().find(|(n, _)| *n == name) {
            return Err(format!(
                "properties `{other}` and `{}` would both be the fuzzer `{name}`: rename one",
                f.name
            ));
        }
        names.push((name, &f.name));
    }
    if found.is_empty() {
        return Err("no properties found in the crate's tests".into());
    }
    let mut built: Vec<(PathBuf, build::TestBinary)> = Vec::new();
    for f in &mut found {
        let plain = f.binary.exe.clone();
        let fuzz = match built.iter().find(|(p, _)| *p == plain) {
            Some((_, b)) => b.clone(),
            None => {
                let b = build::instrumented(args, &f.binary, Build::Fuzz)?;
                built.push((plain, b.clone()));
                b
            }
        };
        f.binary = fuzz;
    }
    // One copy of each test binary under cargo's name in the launch folder; each fuzzer is a
    // hard link to it.
    let mut copied: Vec<PathBuf> = Vec::new();
    for f in &found {
        let Some(test) = f.test.clone() else {
            eprintln!(
                "cargo-tapefuzz: skipping {}: cannot tell which test runs it",
                f.name
            );
            continue;
        };
        // `.bin`: a fuzzing service takes every file of `$OUT` without an extension that
        // names libFuzzer's entry point for a fuzzer, in subfolders too, and unpacks a
        // chosen fuzzer's files and those with an extension; the crate is read off the stem.
        let binary = format!(
            "{}.bin",
            f.binary
                .exe
                .file_name()
                .and_then(|n| n.to_str())
                .ok_or("a test binary without a name")?
        );
        if !copied.contains(&f.binary.exe) {
            copy(&f.binary.exe, &folder.join(&binary))?;
            copied.push(f.binary.exe.clone());
        }
        let name = fuzzer_name(&f.name);
        let launch = Launch {
            binary: binary.clone(),
            test,
            property: f.name.clone(),
        };
        let text = launch.to_json();
        tapefuzz::corpus::write_atomic(&folder.join(format!("{name}.launch")), text.as_bytes())
            .map_err(|e| e.to_string())?;
        link(&folder.join(&binary), &out.join(&name))?;
        let mut seeds = seed_files(f.corpus.as_deref().map(Path::new));
        if seeds.len() > MAX_SEEDS {
            eprintln!(
                "cargo-tapefuzz: {}: {} seed inputs, the first {MAX_SEEDS} (smallest first) go in its zip (`cargo tapefuzz cmin` cuts a corpus down)",
                f.name,
                seeds.len()
            );
            seeds.sort_by_key(|(_, b)| b.len());
            seeds.truncate(MAX_SEEDS);
        }
        let zip_path = out.join(format!("{name}_seed_corpus.zip"));
        // No seeds, no zip: an empty archive makes `unzip` (and a service's runner) fail.
        if seeds.is_empty() {
            let _ = std::fs::remove_file(&zip_path);
        } else {
            let zip = crate::zip::stored(&seeds)?;
            tapefuzz::corpus::write_atomic(&zip_path, &zip).map_err(|e| e.to_string())?;
        }
        eprintln!(
            "cargo-tapefuzz: {} → {} ({} seed inputs)",
            f.name,
            out.join(&name).display(),
            seeds.len()
        );
        println!(
            "{}",
            serde_json::json!({
                "type": "fuzzer",
                "property": f.name,
                "fuzzer": out.join(&name).display().to_string(),
                "seed_corpus": (!seeds.is_empty()).then(|| zip_path.display().to_string()),
                "seeds": seeds.len(),
            })
        );
    }
    Ok(0)
}

/// Most seed inputs in one zip (a zip without zip64 counts entries in 16 bits, and 65,535
/// means "see zip64" to some readers).
const MAX_SEEDS: usize = 65_534;

/// `to` (replaced) as a hard link to `from`, or a copy where links fail (another file
/// system). A standalone fuzzer knows itself by the name it was started under, which a hard
/// link keeps (a symbolic one would not: `/proc/self/exe` names its target).
fn link(from: &Path, to: &Path) -> Result<(), String> {
    let _ = std::fs::remove_file(to);
    if std::fs::hard_link(from, to).is_ok() {
        return Ok(());
    }
    copy(from, to)
}

/// Copies `from` to `to` (replacing it), executable.
fn copy(from: &Path, to: &Path) -> Result<(), String> {
    let tmp = to.with_extension("tapefuzz-tmp");
    std::fs::copy(from, &tmp)
        .and_then(|_| std::fs::rename(&tmp, to))
        .map_err(|e| format!("cannot copy {} to {}: {e}", from.display(), to.display()))
}

/// The seed inputs of a property's corpus folder: every `corpus/` entry, and the tape of
/// every regression (libFuzzer's inputs are tapes), named by their files; tapes of the
/// encodings that lay choices out as today's (2 and 3: a seed claims nothing, and version
/// 2 reads as today but for a text's characters between two of its class's), not version
/// 1's (a run migrates those first).
fn seed_files(corpus: Option<&Path>) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let Some(dir) = corpus else {
        return out;
    };
    // `corpus/` entries of a folder saved by the first encoding are not laid out as today's:
    // a run (any `cargo test`) migrates them first. (A folder without `FORMAT` is one
    // libFuzzer or a user filled: today's tapes.)
    let old = dir.join("FORMAT").is_file() && tapefuzz::corpus::Corpus::open(dir).encoding() < 2;
    if old {
        eprintln!(
            "cargo-tapefuzz: {}: saved with an older encoding; run its property once to migrate it, its entries are left out of the seeds",
            dir.display()
        );
    }
    let read = |sub: &str| -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(dir.join(sub))
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                p.is_file()
                    && p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| !n.starts_with('.'))
            })
            .collect();
        v.sort();
        v
    };
    for p in read("corpus").into_iter().filter(|_| !old) {
        if let Ok(bytes) = std::fs::read(&p) {
            out.push((file_name(&p), bytes));
        }
    }
    for p in read("regressions") {
        let parsed = std::fs::read_to_string(&p)
            .ok()
            .and_then(|t| tapefuzz::corpus::Regression::parse(&t).ok());
        if let Some(r) = parsed.filter(|r| r.encoding >= 2) {
            out.push((format!("regression-{}", file_name(&p)), r.tape));
        }
    }
    out
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fuzzer_names_are_plain() {
        assert_eq!(fuzzer_name("x1::roundtrip"), "x1_roundtrip");
        assert_eq!(fuzzer_name("a::b#2"), "a_b_2");
        assert_eq!(fuzzer_name("plain"), "plain");
    }
}
