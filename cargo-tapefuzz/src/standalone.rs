//! Standalone fuzzers for fuzzing services (OSS-Fuzz, ClusterFuzzLite): `cargo tapefuzz
//! build-fuzzers [OUT]` leaves in `OUT` (default `$OUT`, which those services set) one
//! executable per property, named after it (`x1::roundtrip` → `x1_roundtrip`), with its
//! `<name>_seed_corpus.zip`; the instrumented test binaries they run live in `OUT/tapefuzz/`.
//!
//! Each executable is a copy of `cargo-tapefuzz` itself beside a launch file
//! (`OUT/tapefuzz/<name>.launch`: the test binary, its test, the property). Started under
//! any name but its own, with that file beside it, `cargo-tapefuzz` becomes the launcher: it
//! replaces itself with the test binary running that one test, asked to fuzz the property
//! with exactly the arguments it was given (libFuzzer's flags, corpus folders, inputs to
//! run) — no environment variable to set, any working folder. The property's own `corpus/`
//! folder (a path of the machine that built it) is left out
//! ([`tapefuzz::fuzz::driver::STANDALONE_VAR`]), and libFuzzer's `-fork`/`-jobs` children
//! start the launcher again.

use crate::args::Args;
use crate::build::{self, Build};
use crate::drive;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The folder beside the executables that holds the test binaries and launch files.
const FOLDER: &str = "tapefuzz";

/// OSS-Fuzz and ClusterFuzzLite take an executable of `$OUT` for a fuzzer when its bytes
/// hold libFuzzer's entry point's name: the launcher holds it (and runs a test binary that
/// defines it).
static ENTRY_POINT_NAME: &[u8] = b"LLVMFuzzerTestOneInput";

/// What a standalone fuzzer runs.
#[derive(Debug, PartialEq)]
struct Launch {
    /// The test binary's file name in [`FOLDER`].
    binary: String,
    /// The libtest name of the property's test.
    test: String,
    /// The property.
    property: String,
}

impl Launch {
    fn to_json(&self) -> String {
        serde_json::to_string_pretty(&serde_json::json!({
            "binary": self.binary,
            "test": self.test,
            "property": self.property,
        }))
        .expect("strings serialize")
    }

    fn from_json(text: &str) -> Result<Launch, String> {
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let field = |k: &str| {
            v[k].as_str()
                .map(String::from)
                .ok_or_else(|| format!("no `{k}`"))
        };
        Ok(Launch {
            binary: field("binary")?,
            test: field("test")?,
            property: field("property")?,
        })
    }
}

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

/// When this process is a standalone fuzzer (see the module's docs), runs the property and
/// returns its exit status (on Unix it never returns: the test binary replaces it); `None`
/// when it is `cargo-tapefuzz` itself.
pub fn launch(argv: &[OsString]) -> Option<i32> {
    std::hint::black_box(ENTRY_POINT_NAME);
    let exe = std::env::current_exe().ok()?;
    let name = exe.file_name()?.to_str()?.to_string();
    if name.starts_with("cargo-tapefuzz") {
        return None;
    }
    let folder = exe.parent()?.join(FOLDER);
    let fail = |why: String| -> Option<i32> {
        eprintln!("{name}: {why}");
        Some(2)
    };
    let file = folder.join(format!("{name}.launch"));
    let text = match std::fs::read_to_string(&file) {
        Ok(t) => t,
        // Beside a build's folder but without its file: a fuzzer whose file was lost, not
        // `cargo-tapefuzz` under another name.
        Err(e) if folder.is_dir() => return fail(format!("cannot read {}: {e}", file.display())),
        Err(_) => return None,
    };
    let launch = match Launch::from_json(&text) {
        Ok(l) => l,
        Err(e) => return fail(format!("its launch file is damaged: {e}")),
    };
    let mut args = Vec::new();
    for a in argv.iter().skip(1) {
        match a.to_str() {
            Some(a) => args.push(a.to_string()),
            None => return fail(format!("argument {a:?} is not UTF-8")),
        }
    }
    let request = tapefuzz::serve::Request {
        command: Some(tapefuzz::serve::Command::Fuzz),
        property: Some(launch.property),
        out: None,
        args,
        mode: tapefuzz::serve::Mode::Blackbox,
        part: tapefuzz::serve::PartRequest::default(),
    };
    let mut cmd = std::process::Command::new(folder.join(&launch.binary));
    cmd.args(["--include-ignored", &launch.test, "--exact", "--nocapture"]);
    for (k, _) in std::env::vars_os() {
        if tapefuzz::env::PROTOCOL.iter().any(|p| k == *p) {
            cmd.env_remove(k);
        }
    }
    cmd.envs(request.to_env())
        .env(tapefuzz::fuzz::driver::STANDALONE_VAR, &exe);
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let e = cmd.exec();
        fail(format!(
            "cannot run {}: {e}",
            folder.join(&launch.binary).display()
        ))
    }
    #[cfg(not(unix))]
    match cmd.status() {
        Ok(s) => Some(s.code().unwrap_or(1)),
        Err(e) => fail(format!("cannot run {}: {e}", launch.binary)),
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
    let folder = out.join(FOLDER);
    std::fs::create_dir_all(&folder)
        .map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
    // One copy of this executable; each fuzzer a hard link to it (a copy where links fail).
    let launcher = folder.join("launcher");
    copy(
        &std::env::current_exe().map_err(|e| format!("cannot find myself: {e}"))?,
        &launcher,
    )?;
    // The properties, from the plain build; then only the test targets that hold some are
    // built again instrumented (another would lack the coverage callbacks).
    let binaries = build::test_binaries(args)?;
    let mut found = drive::list(&binaries, &crate::commands::corpora_env(args))?;
    // Two properties whose names make one fuzzer name would overwrite each other.
    let mut names: Vec<(String, &str)> = Vec::new();
    for f in &found {
        let name = fuzzer_name(&f.name);
        if name == FOLDER {
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
    let mut copied: Vec<PathBuf> = Vec::new();
    for f in &found {
        let Some(test) = f.test.clone() else {
            eprintln!(
                "cargo-tapefuzz: skipping {}: cannot tell which test runs it",
                f.name
            );
            continue;
        };
        let binary = f
            .binary
            .exe
            .file_name()
            .and_then(|n| n.to_str())
            .ok_or("a test binary without a name")?
            .to_string();
        if !copied.contains(&f.binary.exe) {
            copy(&f.binary.exe, &folder.join(&binary))?;
            copied.push(f.binary.exe.clone());
        }
        let name = fuzzer_name(&f.name);
        let launch = Launch {
            binary,
            test,
            property: f.name.clone(),
        };
        let text = launch.to_json();
        tapefuzz::corpus::write_atomic(&folder.join(format!("{name}.launch")), text.as_bytes())
            .map_err(|e| e.to_string())?;
        link(&launcher, &out.join(&name))?;
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
/// link keeps (a symbolic one would not).
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
/// every regression (libFuzzer's inputs are tapes), named by their files; the encoding of
/// today only (a run migrates older ones first).
fn seed_files(corpus: Option<&Path>) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let Some(dir) = corpus else {
        return out;
    };
    // `corpus/` entries of a folder saved by an older encoding are not tapes of today's:
    // a run (any `cargo test`) migrates them first.
    let old = std::fs::read_to_string(dir.join("FORMAT"))
        .is_ok_and(|f| f.starts_with("tapefuzz corpus 2"));
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
        if let Some(r) = parsed.filter(|r| r.encoding == tapefuzz::tape::ENCODING_VERSION) {
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
    fn launch_files_round_trip() {
        let l = Launch {
            binary: "t-1234".into(),
            test: "roundtrip".into(),
            property: "t::roundtrip".into(),
        };
        assert_eq!(Launch::from_json(&l.to_json()).unwrap(), l);
        assert!(Launch::from_json("{}").unwrap_err().contains("binary"));
    }

    #[test]
    fn fuzzer_names_are_plain() {
        assert_eq!(fuzzer_name("x1::roundtrip"), "x1_roundtrip");
        assert_eq!(fuzzer_name("a::b#2"), "a_b_2");
        assert_eq!(fuzzer_name("plain"), "plain");
    }
}
