//! Building the crate's test binaries with cargo, plain or instrumented.

use crate::args::Args;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// How the test binaries are built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Build {
    /// As `cargo test` builds them (`--release` on request).
    Plain,
    /// With SanitizerCoverage counters in the crate's own code and tapefuzz's
    /// `sancov-callbacks` feature: the in-process greybox engine.
    Greybox,
    /// With SanitizerCoverage counters and comparison tracing and tapefuzz's `libfuzzer`
    /// feature: libFuzzer inside the test binary.
    Fuzz,
}

impl Build {
    /// The name of the build, as the wrapper receives it and as its target folder is named.
    pub fn name(self) -> &'static str {
        match self {
            Build::Plain => "plain",
            Build::Greybox => "greybox",
            Build::Fuzz => "fuzz",
        }
    }
}

/// The variable that makes `cargo-tapefuzz` a `RUSTC_WRAPPER` (its value: the
/// build's name).
pub const WRAP_VAR: &str = "CARGO_TAPEFUZZ_WRAP";

/// One test executable.
#[derive(Clone, Debug)]
pub struct TestBinary {
    /// The executable.
    pub exe: PathBuf,
    /// The package folder (the test's working folder and `CARGO_MANIFEST_DIR`).
    pub package_dir: PathBuf,
    /// The cargo flags that select its target alone (`--test x1`, `--lib`, `--bin b`) in
    /// its package (`--manifest-path …`).
    pub select: Vec<String>,
}

fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

fn common(cmd: &mut Command, args: &Args) {
    if let Some(m) = &args.manifest_path {
        cmd.arg("--manifest-path").arg(m);
    }
    if let Some(p) = &args.package {
        cmd.arg("-p").arg(p);
    }
}

/// `cargo metadata` for the crate (`--no-deps` unless `deps`), as JSON.
fn metadata(args: &Args, deps: bool) -> Result<Value, String> {
    let mut cmd = cargo();
    cmd.args(["metadata", "--format-version", "1"]);
    if !deps {
        cmd.arg("--no-deps");
    }
    if let Some(m) = &args.manifest_path {
        cmd.arg("--manifest-path").arg(m);
    }
    let out = cmd
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run cargo metadata: {e}"))?;
    if !out.status.success() {
        return Err("cargo metadata failed (see above)".into());
    }
    serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("cargo metadata printed something else than JSON: {e}"))
}

/// The path `key` of `cargo metadata`'s answer (`target_directory`, `workspace_root`).
fn metadata_path(v: &Value, key: &str) -> Result<PathBuf, String> {
    v[key]
        .as_str()
        .map(PathBuf::from)
        .ok_or_else(|| format!("cargo metadata gave no {key}"))
}

/// The workspace's target folder (`cargo metadata`).
pub fn target_dir(args: &Args) -> Result<PathBuf, String> {
    metadata_path(&metadata(args, false)?, "target_directory")
}

fn host_triple() -> Result<String, String> {
    rustc_field("host")?.ok_or_else(|| "rustc -vV names no host".into())
}

/// A field of `rustc -vV` (`host`, `release`), from the rustc cargo would run (`None`: not
/// named); an error when rustc cannot run.
fn rustc_field(key: &str) -> Result<Option<String>, String> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = Command::new(rustc)
        .arg("-vV")
        .output()
        .map_err(|e| format!("cannot run rustc -vV: {e}"))?;
    let prefix = format!("{key}: ");
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix(&prefix).map(str::to_string)))
}

/// Builds the test binaries (`cargo test --no-run`) and returns them; cargo's progress and
/// errors go to stderr.
pub fn test_binaries(args: &Args) -> Result<Vec<TestBinary>, String> {
    let mut cmd = cargo();
    cmd.args([
        "test",
        "--no-run",
        "--message-format=json-render-diagnostics",
    ]);
    common(&mut cmd, args);
    match &args.test_target {
        Some(t) => {
            cmd.arg("--test").arg(t);
        }
        // Every target with `test = true`: unit tests of the library and binaries, and
        // integration tests.
        None => {
            cmd.arg("--tests");
        }
    }
    finish(cmd, args, Build::Plain)
}

/// Builds `binary`'s test target again for `build` (instrumented) and returns the new
/// executable. Only that target: another test target that does not link tapefuzz (a
/// library's unit tests without properties, say) would lack libFuzzer's or tapefuzz's
/// coverage callbacks.
pub fn instrumented(args: &Args, binary: &TestBinary, build: Build) -> Result<TestBinary, String> {
    let mut cmd = cargo();
    cmd.args([
        "test",
        "--no-run",
        "--message-format=json-render-diagnostics",
    ]);
    cmd.args(&binary.select);
    let mut built = finish(cmd, args, build)?;
    match built.len() {
        1 => Ok(built.remove(0)),
        n => Err(format!("cargo built {n} test binaries for one target")),
    }
}

fn finish(mut cmd: Command, args: &Args, build: Build) -> Result<Vec<TestBinary>, String> {
    for f in &args.features {
        cmd.arg("--features").arg(f);
    }
    if args.release || build != Build::Plain {
        cmd.arg("--release");
    }
    if build != Build::Plain {
        let feature = match build {
            Build::Greybox => "tapefuzz/sancov-callbacks",
            _ => "tapefuzz/libfuzzer",
        };
        // An explicit target keeps build scripts and proc macros out of the instrumented
        // build; a target folder of its own keeps it from invalidating the plain one.
        let folder = instrument_env(&mut cmd, args, build)?;
        cmd.arg("--features")
            .arg(feature)
            .arg("--target")
            .arg(host_triple()?)
            .arg("--target-dir")
            .arg(folder);
    }
    let out = cmd
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err("cargo test --no-run failed (see above)".into());
    }
    let mut binaries = Vec::new();
    for line in text.lines() {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if v["reason"] != "compiler-artifact" || v["profile"]["test"] != true {
            continue;
        }
        let (Some(exe), Some(manifest), Some(name)) = (
            v["executable"].as_str(),
            v["manifest_path"].as_str(),
            v["target"]["name"].as_str(),
        ) else {
            continue;
        };
        let kinds = &v["target"]["kind"];
        let has = |k: &str| kinds.as_array().is_some_and(|a| a.iter().any(|x| x == k));
        if has("test") && no_harness(Path::new(manifest), name) {
            eprintln!(
                "cargo-tapefuzz: note: skipping the test target `{name}` (harness = false): \
                 its properties, if any, are not reached through libtest"
            );
            continue;
        }
        let mut select = vec!["--manifest-path".to_string(), manifest.to_string()];
        if has("test") {
            select.extend(["--test".to_string(), name.to_string()]);
        } else if has("bin") {
            select.extend(["--bin".to_string(), name.to_string()]);
        } else if has("example") {
            select.extend(["--example".to_string(), name.to_string()]);
        } else if has("bench") {
            select.extend(["--bench".to_string(), name.to_string()]);
        } else {
            select.push("--lib".to_string());
        }
        binaries.push(TestBinary {
            select,
            exe: PathBuf::from(exe),
            package_dir: Path::new(manifest)
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_default(),
        });
    }
    if binaries.is_empty() {
        return Err("cargo built no test binaries (no tests in this package?)".into());
    }
    Ok(binaries)
}

/// Whether the manifest at `manifest` declares the test target `name` with `harness =
/// false` (a `[[test]]` table with that name): its executable is the user's own `main`, which
/// takes no libtest arguments and may do anything when run. Read as text (cargo metadata
/// does not say); a manifest that cannot be read says no.
fn no_harness(manifest: &Path, name: &str) -> bool {
    let Ok(text) = std::fs::read_to_string(manifest) else {
        return false;
    };
    let mut in_test = false;
    let (mut this_name, mut harness_off) = (None::<String>, false);
    let mut found = false;
    let mut close = |this_name: &Option<String>, harness_off: bool| {
        found |= harness_off && this_name.as_deref() == Some(name);
    };
    for line in text.lines() {
        // A `#` starts a comment (names and `false` hold none).
        let line = line.split('#').next().unwrap_or("").trim();
        if line.starts_with('[') {
            close(&this_name, harness_off);
            in_test = line.replace(' ', "") == "[[test]]";
            (this_name, harness_off) = (None, false);
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        match (in_test, key.trim()) {
            (true, "name") => this_name = Some(value.trim().trim_matches(['"', '\'']).to_string()),
            (true, "harness") => harness_off = value.trim() == "false",
            _ => {}
        }
    }
    close(&this_name, harness_off);
    found
}

/// The variable that says which crates get coverage (the `--instrument` flag): `all`
/// (default: every crate compiled for the target, dependencies included, as cargo-fuzz
/// does), `workspace` (the workspace's own crates), or crate names separated by commas.
pub const INSTRUMENT_VAR: &str = "CARGO_TAPEFUZZ_INSTRUMENT";
/// The variable that turns debug assertions and overflow checks off in instrumented crates
/// (`--no-debug-assertions`; on by default, as under cargo-fuzz).
pub const NO_ASSERT_VAR: &str = "CARGO_TAPEFUZZ_NO_DEBUG_ASSERTIONS";
/// The sanitizer every crate compiled for the target gets (`--sanitizer address`); unset:
/// none.
pub const SANITIZER_VAR: &str = "CARGO_TAPEFUZZ_SANITIZER";
/// The workspace root, for `--instrument workspace`.
const ROOT_VAR: &str = "CARGO_TAPEFUZZ_WORKSPACE_ROOT";
/// Where the stub object lives ([`stub_object`]).
const STUB_VAR: &str = "CARGO_TAPEFUZZ_STUB";
/// A `RUSTC_WRAPPER` the user had set (sccache, say): called in turn.
const INNER_VAR: &str = "CARGO_TAPEFUZZ_INNER_WRAPPER";
/// The crates the tests reach without going through tapefuzz ([`reachable_in`]),
/// separated by commas: what `--instrument all` instruments.
const REACH_VAR: &str = "CARGO_TAPEFUZZ_REACH";

/// Packages whose code (and whose dependencies, unless the crate reaches them another way)
/// is tapefuzz's, not the code under test.
const TAPEFUZZ_PACKAGES: [&str; 3] = ["tapefuzz", "tapefuzz-derive", "libfuzzer-sys"];

/// The crate names of every package the built packages depend on (normal and dev
/// dependencies, transitively) without passing through tapefuzz's own packages, and of the
/// built packages' own targets: the code a property can reach. tapefuzz's dependencies
/// (serde, postcard…) count only when the user's crates depend on them too, so the
/// instrumented build counts the same code a cargo-fuzz target of the crate would.
///
/// The built packages are `package` (`-p`; a `name@version` spec is matched by name) when
/// given, else the workspace's default members, as cargo builds them: another member's
/// dependencies are not reached by this build's properties. A `package` that names no
/// member (a dependency, say) is a root of its own.
fn reachable_in(v: &Value, package: Option<&str>) -> Result<Vec<String>, String> {
    let packages: std::collections::HashMap<&str, &Value> = v["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| Some((p["id"].as_str()?, p)))
        .collect();
    let nodes: std::collections::HashMap<&str, &Value> = v["resolve"]["nodes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|n| Some((n["id"].as_str()?, n)))
        .collect();
    let is_ours = |id: &str| {
        packages
            .get(id)
            .and_then(|p| p["name"].as_str())
            .is_some_and(|n| TAPEFUZZ_PACKAGES.contains(&n))
    };
    let ids = |key: &str| -> Vec<&str> {
        v[key]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .filter(|id| !is_ours(id))
            .collect()
    };
    let name_of = |id: &str| packages.get(id).and_then(|p| p["name"].as_str());
    let members: Vec<&str> = match package {
        Some(spec) => {
            let name = spec_name(spec);
            let named: Vec<&str> = packages
                .keys()
                .copied()
                .filter(|id| name_of(id) == Some(name) && !is_ours(id))
                .collect();
            let in_workspace: Vec<&str> = ids("workspace_members")
                .into_iter()
                .filter(|id| named.contains(id))
                .collect();
            match (in_workspace.is_empty(), named.is_empty()) {
                (false, _) => in_workspace,
                (true, false) => named,
                // A spec this cannot read: instrument more (every member's reach), never
                // nothing.
                (true, true) => ids("workspace_members"),
            }
        }
        None => {
            // Older cargo has no `workspace_default_members`: every member.
            let default = ids("workspace_default_members");
            if default.is_empty() {
                ids("workspace_members")
            } else {
                default
            }
        }
    };
    let mut seen: std::collections::HashSet<&str> = members.iter().copied().collect();
    let mut todo = members.clone();
    while let Some(id) = todo.pop() {
        let Some(node) = nodes.get(id) else { continue };
        for dep in node["deps"].as_array().into_iter().flatten() {
            let Some(pkg) = dep["pkg"].as_str() else {
                continue;
            };
            // Build dependencies run on the host, never in the test process.
            let runtime = dep["dep_kinds"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|k| k["kind"].is_null() || k["kind"] == "dev");
            if runtime && !is_ours(pkg) && seen.insert(pkg) {
                todo.push(pkg);
            }
        }
    }
    let mut names: Vec<String> = Vec::new();
    for id in &seen {
        let Some(p) = packages.get(id) else { continue };
        let member = members.contains(id);
        for t in p["targets"].as_array().into_iter().flatten() {
            let kinds = &t["kind"];
            let lib = kinds.as_array().is_some_and(|a| {
                a.iter()
                    .any(|k| k.as_str().is_some_and(|k| k.ends_with("lib")))
            });
            if (member || lib)
                && let Some(n) = t["name"].as_str()
            {
                names.push(n.replace('-', "_"));
            }
        }
    }
    names.sort();
    names.dedup();
    Ok(names)
}

/// The package name in a `-p` spec: `name`, `name@1.2`, `name:1.2`, or a package ID spec
/// (`path+file:///w/app#0.1.0`, `registry+https://…#name@1.2`).
fn spec_name(spec: &str) -> &str {
    let (url, fragment) = match spec.rsplit_once('#') {
        Some((url, fragment)) => (Some(url), fragment),
        None => (None, spec),
    };
    let name = fragment.split(['@', ':']).next().unwrap_or(fragment);
    match url {
        // `…/app#0.1.0`: the fragment is a version, the name is the URL's last segment.
        Some(url) if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) => {
            url.trim_end_matches('/').rsplit('/').next().unwrap_or(url)
        }
        _ => name,
    }
}

/// A version of the wrapper's rules (which crates, which flags), part of the instrumented
/// build folder's name.
const WRAP_RULES: &str = "rules 4: integration tests not instrumented, with debug assertions and \
                          overflow checks; cdylib libraries instrumented";

/// Crates that never get coverage: tapefuzz's own (the engine's code is not the coverage
/// that matters, and its hot path would slow down) and libFuzzer's bindings.
const NEVER: [&str; 3] = ["tapefuzz", "tapefuzz_derive", "libfuzzer_sys"];

/// The instrumented build's environment and its target folder (in `target/tapefuzz/`,
/// named `build` plus a short hash of the options and of the crates they select, so
/// changing `--instrument` or the dependencies rebuilds in a folder of its own instead of
/// reusing stale objects).
fn instrument_env(cmd: &mut Command, args: &Args, build: Build) -> Result<PathBuf, String> {
    let spec = args.instrument.as_deref().unwrap_or("all");
    // One `cargo metadata` (with dependencies) gives the target folder, the workspace root
    // and the crates the tests reach.
    let meta = metadata(args, true)?;
    let reach = if spec == "all" {
        Some(reachable_in(&meta, args.package.as_deref())?.join(","))
    } else {
        None
    };
    // cargo does not rebuild a crate when only the wrapper's choice for it changed: every
    // choice of crates (options, and the set a dependency change reaches) builds in a
    // folder of its own.
    // The flags and the wrapper's rules count too: a new cargo-tapefuzz that instruments
    // differently builds afresh.
    let flags = sancov_flags(build.name(), None, !args.no_debug_assertions).join(" ");
    let sanitizer = sanitizer(args)?;
    let h = fnv(spec
        .bytes()
        .chain(sanitizer.unwrap_or("").bytes())
        .chain([0, args.no_debug_assertions as u8, 0])
        .chain(reach.iter().flat_map(|r| r.bytes()))
        .chain(flags.bytes())
        .chain(WRAP_RULES.bytes()));
    let folder = format!("{}-{:08x}", build.name(), h as u32);
    let target = metadata_path(&meta, "target_directory")?.join("tapefuzz");
    std::fs::create_dir_all(&target)
        .map_err(|e| format!("cannot create {}: {e}", target.display()))?;
    let me = std::env::current_exe().map_err(|e| format!("cannot find myself: {e}"))?;
    if let Some(inner) = std::env::var_os("RUSTC_WRAPPER").filter(|w| !w.is_empty()) {
        cmd.env(INNER_VAR, inner);
    }
    // A plain wrapper (not the workspace one): dependencies compile through it too.
    cmd.env("RUSTC_WRAPPER", me)
        .env_remove("RUSTC_WORKSPACE_WRAPPER")
        .env(WRAP_VAR, build.name())
        .env(INSTRUMENT_VAR, spec)
        .env(ROOT_VAR, metadata_path(&meta, "workspace_root")?)
        // Named by its source: a stub from an older cargo-tapefuzz is never reused.
        .env(
            STUB_VAR,
            target.join(format!(
                "sancov-stub-{:08x}.o",
                fnv(STUB_SOURCE.bytes()) as u32
            )),
        );
    if args.no_debug_assertions {
        cmd.env(NO_ASSERT_VAR, "1");
    }
    match sanitizer {
        Some(s) => cmd.env(SANITIZER_VAR, s),
        None => cmd.env_remove(SANITIZER_VAR),
    };
    if let Some(reach) = reach {
        cmd.env(REACH_VAR, reach);
    }
    Ok(target.join(folder))
}

/// The sanitizer `args` ask for (`None`: none), checked against the toolchain: rustc's
/// `-Zsanitizer` needs a nightly compiler, and an error says how to get one.
fn sanitizer(args: &Args) -> Result<Option<&str>, String> {
    let Some(s) = args.sanitizer.as_deref().filter(|s| *s != "none") else {
        return Ok(None);
    };
    let release = rustc_field("release")?.unwrap_or_default();
    if !(release.contains("nightly") || release.contains("dev")) {
        return Err(format!(
            "the {s} sanitizer needs nightly Rust (rustc's -Zsanitizer), and rustc is {release}: \
             run `cargo +nightly tapefuzz …` (OSS-Fuzz's and ClusterFuzzLite's Rust image has \
             nightly as its default toolchain), or build without a sanitizer (`--sanitizer none`)"
        ));
    }
    Ok(Some(s))
}

/// What rustc is asked to build, read off its arguments.
#[derive(Debug, Default, PartialEq)]
struct Unit {
    name: String,
    types: Vec<String>,
    test: bool,
    /// Compiled for the target (`--target` given): not a build script, a proc macro or one
    /// of their dependencies, which run on the host while cargo builds.
    for_target: bool,
    /// The crate root's source file, as rustc was given it (`tests/x1.rs`, `src/lib.rs`).
    source: String,
}

impl Unit {
    fn read(args: &[std::ffi::OsString]) -> Unit {
        let mut u = Unit::default();
        let mut iter = args.iter();
        while let Some(a) = iter.next() {
            match a.to_str() {
                Some("--crate-name") => {
                    u.name = iter
                        .next()
                        .and_then(|n| n.to_str())
                        .unwrap_or_default()
                        .into();
                }
                Some("--crate-type") => {
                    u.types
                        .extend(iter.next().and_then(|t| t.to_str()).map(str::to_string));
                }
                Some("--test") => u.test = true,
                Some("--target") => u.for_target = true,
                Some(s) if s.starts_with("--target=") => u.for_target = true,
                Some(s) if s.ends_with(".rs") && !s.starts_with('-') => u.source = s.into(),
                _ => {}
            }
        }
        u
    }

    /// Code under test that runs inside the test process: a library, or a library's or
    /// binary's own unit tests. Not an integration test, bench or example harness
    /// (`tests/x1.rs`): it holds the properties and tapefuzz's generic code instantiated for
    /// them, whose edges are the tape's structure, not the code's — noise that a cargo-fuzz
    /// target does not have.
    fn runs_in_process(&self) -> bool {
        let harness = ["tests/", "benches/", "examples/"]
            .iter()
            .any(|d| self.source.starts_with(d) || self.source.contains(&format!("/{d}")));
        // A library built as `cdylib` (or `staticlib`, `dylib`) besides its `rlib` is
        // compiled once for all of them: the `rlib` is what the tests link.
        (self.test && !harness)
            || (!self.types.is_empty()
                && self.types.iter().all(|t| {
                    matches!(
                        t.as_str(),
                        "lib" | "rlib" | "cdylib" | "dylib" | "staticlib"
                    )
                }))
    }

    /// A test harness of properties compiled for the target (`tests/x1.rs`, a bench or an
    /// example harness): no coverage, but the checks `cargo test` has.
    fn is_test_harness(&self) -> bool {
        self.for_target && self.test && !self.runs_in_process()
    }

    /// A plain executable (not a test harness): it may not link tapefuzz, so it gets the
    /// stub callbacks to resolve the instrumented libraries' references.
    fn is_plain_executable(&self) -> bool {
        !self.test && self.types.iter().any(|t| t == "bin")
    }
}

/// Whether `spec` (`all`, `workspace`, or names) selects the crate `name` whose manifest
/// folder is `dir`, in a workspace at `root`.
fn selected(spec: &str, name: &str, dir: &Path, root: &Path) -> bool {
    match spec {
        "all" => std::env::var(REACH_VAR)
            .map(|reach| reach.split(',').any(|n| n == name))
            .unwrap_or(true),
        "workspace" => dir.starts_with(root),
        names => names
            .split(',')
            .map(|n| n.trim().replace('-', "_"))
            .any(|n| n == name),
    }
}

/// The flags that instrument one crate for `build` (`fuzz`: comparison tracing, indirect
/// calls and `cfg(fuzzing)`, as cargo-fuzz; `greybox`: comparison tracing too, which the
/// engine's comparison log reads) when compiling for `target` (`None`: the host).
fn sancov_flags(build: &str, target: Option<&str>, assertions: bool) -> Vec<&'static str> {
    // cargo-fuzz's flags: the same edges in the same code.
    let mut v = vec![
        "-Cpasses=sancov-module",
        "-Cllvm-args=-sanitizer-coverage-inline-8bit-counters",
        "-Cllvm-args=-sanitizer-coverage-pc-table",
        "-Cllvm-args=-sanitizer-coverage-trace-compares",
        "-Cllvm-args=-simplifycfg-branch-fold-threshold=0",
        // A comparison of byte strings (`==` on slices, `starts_with` of a magic number)
        // stays a `bcmp`/`memcmp` call, whose operands libFuzzer's interceptors and the
        // comparison log see; expanded into loads after the coverage pass (LLVM's
        // ExpandMemCmp runs in code generation), it is traced by nothing.
        "-Cllvm-args=-max-loads-per-memcmp=0",
        "-Ccodegen-units=1",
        "--cfg",
        "fuzzing",
    ];
    v.push(if build == "fuzz" {
        "-Cllvm-args=-sanitizer-coverage-level=4"
    } else {
        "-Cllvm-args=-sanitizer-coverage-level=3"
    });
    if stack_depth(build, target) {
        v.push("-Cllvm-args=-sanitizer-coverage-stack-depth");
    }
    if assertions {
        v.extend(ASSERTION_FLAGS);
    }
    v
}

/// Debug assertions and overflow checks, on in every crate of an instrumented build that is
/// the user's (as under cargo-fuzz, and as `cargo test`'s debug profile has them).
const ASSERTION_FLAGS: [&str; 2] = ["-Cdebug-assertions=on", "-Coverflow-checks=on"];

/// Whether `build` for `target` (`None`: the host) records the deepest stack: an input that
/// nests one level deeper is kept, one of libFuzzer's features (cargo-fuzz sets it on
/// Linux). The instrumentation writes the thread-local `__sancov_lowest_stack`, which
/// libFuzzer defines (`fuzz`, on Linux), the in-process engine on x86-64 Linux only
/// (`greybox`, see `tapefuzz::coverage::stack_depth`), and the stub for plain executables.
fn stack_depth(build: &str, target: Option<&str>) -> bool {
    let (linux, x86_64) = match target {
        Some(t) => (t.contains("-linux"), t.starts_with("x86_64-")),
        None => (cfg!(target_os = "linux"), cfg!(target_arch = "x86_64")),
    };
    linux && (build == "fuzz" || x86_64)
}

/// FNV-1a over `bytes`: a stable name for a choice of flags or a source.
fn fnv(bytes: impl Iterator<Item = u8>) -> u64 {
    bytes.fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// The weak, empty SanitizerCoverage callbacks, in assembly: a plain executable that links
/// instrumented libraries but neither libFuzzer nor tapefuzz (a crate's `src/main.rs`, built
/// beside its tests) resolves the references with them. Weak, so that a binary that does
/// link libFuzzer or tapefuzz's callbacks keeps those.
const STUB_SOURCE: &str = r#"#![no_std]
#![allow(unused)]
macro_rules! weak_returns {
    ($($name:literal),*) => {
        core::arch::global_asm!(
            $(concat!(".weak ", $name), concat!(".type ", $name, ",@function"),
              concat!($name, ":"), "ret",)*
        );
    };
}
weak_returns!(
    "__sanitizer_cov_8bit_counters_init", "__sanitizer_cov_pcs_init",
    "__sanitizer_cov_trace_cmp1", "__sanitizer_cov_trace_cmp2",
    "__sanitizer_cov_trace_cmp4", "__sanitizer_cov_trace_cmp8",
    "__sanitizer_cov_trace_const_cmp1", "__sanitizer_cov_trace_const_cmp2",
    "__sanitizer_cov_trace_const_cmp4", "__sanitizer_cov_trace_const_cmp8",
    "__sanitizer_cov_trace_switch", "__sanitizer_cov_trace_div4",
    "__sanitizer_cov_trace_div8", "__sanitizer_cov_trace_gep",
    "__sanitizer_cov_trace_pc_indir", "__sanitizer_cov_trace_pc_guard",
    "__sanitizer_cov_trace_pc_guard_init"
);
// The thread-local the stack-depth instrumentation writes (initial-exec, as libFuzzer's).
core::arch::global_asm!(
    ".section .tbss,\"awT\",@nobits",
    ".weak __sancov_lowest_stack",
    ".type __sancov_lowest_stack,@object",
    ".size __sancov_lowest_stack,8",
    ".p2align 3",
    "__sancov_lowest_stack:",
    ".zero 8",
    ".text",
);
"#;

/// The stub object at `path`, compiled by `rustc` for `target` when it is not there yet
/// (written under a temporary name and renamed, so concurrent rustc runs never see half of
/// it).
fn stub_object(rustc: &std::ffi::OsStr, path: &Path, target: Option<&str>) -> Result<(), String> {
    if path.is_file() {
        return Ok(());
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    let unique = format!(
        "{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    );
    let src = dir.join(format!("sancov-stub-{unique}.rs"));
    let tmp = dir.join(format!("sancov-stub-{unique}.o"));
    std::fs::write(&src, STUB_SOURCE).map_err(|e| format!("{}: {e}", src.display()))?;
    let mut cmd = Command::new(rustc);
    cmd.args([
        "--crate-type=lib",
        "--emit=obj",
        "--edition=2021",
        "-Cpanic=abort",
    ])
    .arg("-Ccodegen-units=1")
    .args(["--crate-name", "tapefuzz_sancov_stub", "-Copt-level=1"]);
    if let Some(t) = target {
        cmd.args(["--target", t]);
    }
    let status = cmd.arg(&src).arg("-o").arg(&tmp).status();
    let _ = std::fs::remove_file(&src);
    // rustc may leave its codegen unit's object beside the output.
    let prefix = format!("sancov-stub-{unique}.");
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            if e.file_name().to_string_lossy().starts_with(&prefix) && e.path() != tmp {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }
    match status {
        Ok(s) if s.success() => std::fs::rename(&tmp, path)
            .map_err(|e| format!("cannot rename {} to {}: {e}", tmp.display(), path.display())),
        Ok(s) => {
            let _ = std::fs::remove_file(&tmp);
            Err(format!("rustc could not compile the callback stub ({s})"))
        }
        Err(e) => Err(format!("cannot run rustc: {e}")),
    }
}

fn target_of(args: &[std::ffi::OsString]) -> Option<String> {
    let mut iter = args.iter();
    while let Some(a) = iter.next() {
        match a.to_str() {
            Some("--target") => return iter.next().and_then(|t| t.to_str()).map(str::to_string),
            Some(s) if s.starts_with("--target=") => return Some(s["--target=".len()..].into()),
            _ => {}
        }
    }
    None
}

/// `cargo-tapefuzz` as cargo's `RUSTC_WRAPPER` (`args`: rustc and its arguments) for an
/// instrumented build (`build`: `fuzz` or `greybox`). Every crate compiled for the target
/// that [`INSTRUMENT_VAR`] selects gets SanitizerCoverage's counters, comparison tracing,
/// `cfg(fuzzing)` and (unless [`NO_ASSERT_VAR`]) debug assertions and overflow checks, as
/// under cargo-fuzz; tapefuzz's own crates, build scripts, proc macros and whatever runs on
/// the host compile as usual. Plain executables get weak stub callbacks. Returns rustc's
/// exit status.
pub fn wrap(build: &str, args: &[std::ffi::OsString]) -> i32 {
    let Some((rustc, rest)) = args.split_first() else {
        eprintln!("cargo-tapefuzz: {WRAP_VAR} is set but no rustc was given");
        return 2;
    };
    let unit = Unit::read(rest);
    let spec = std::env::var(INSTRUMENT_VAR).unwrap_or_else(|_| "all".into());
    let dir = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_default();
    let root = std::env::var_os(ROOT_VAR)
        .map(PathBuf::from)
        .unwrap_or_default();
    let instrument = unit.for_target
        && unit.runs_in_process()
        && !NEVER.contains(&unit.name.as_str())
        && !unit.name.starts_with("build_script_")
        && selected(&spec, &unit.name, &dir, &root);
    let mut cmd = match std::env::var_os(INNER_VAR) {
        Some(inner) => {
            let mut c = Command::new(inner);
            c.arg(rustc);
            c
        }
        None => Command::new(rustc),
    };
    cmd.args(rest);
    let assertions = std::env::var_os(NO_ASSERT_VAR).is_none();
    // A sanitizer goes into every crate of the target, as under `cargo fuzz -s address`:
    // tapefuzz's own included (its `cfg(tapefuzz_asan)` leaves the allocator to the
    // sanitizer's runtime).
    if unit.for_target
        && let Some(s) = std::env::var(SANITIZER_VAR).ok().filter(|s| !s.is_empty())
    {
        cmd.arg(format!("-Zsanitizer={s}"));
        if unit.name == "tapefuzz" && s == "address" {
            cmd.args(["--cfg", "tapefuzz_asan"]);
        }
    }
    if instrument {
        cmd.args(sancov_flags(build, target_of(rest).as_deref(), assertions));
    } else if assertions && unit.is_test_harness() && !NEVER.contains(&unit.name.as_str()) {
        // A test harness (`tests/x1.rs`) gets no coverage but the checks `cargo test` has:
        // the property's own arithmetic, and the code under test inlined into it (a small
        // function of the library is compiled where it is called, with the caller's
        // overflow checks), overflow as under `cargo test`.
        cmd.args(ASSERTION_FLAGS);
    }
    if unit.for_target
        && unit.is_plain_executable()
        && let Some(stub) = std::env::var_os(STUB_VAR).map(PathBuf::from)
    {
        if let Err(e) = stub_object(rustc, &stub, target_of(rest).as_deref()) {
            eprintln!("cargo-tapefuzz: {e}");
            return 2;
        }
        let mut arg = std::ffi::OsString::from("-Clink-arg=");
        arg.push(&stub);
        cmd.arg(arg);
    }
    match cmd.status() {
        Ok(s) => s.code().unwrap_or(1),
        Err(e) => {
            eprintln!(
                "cargo-tapefuzz: cannot run {}: {e}",
                rustc.to_string_lossy()
            );
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(s: &str) -> Unit {
        let v: Vec<std::ffi::OsString> = s.split_whitespace().map(Into::into).collect();
        Unit::read(&v)
    }

    #[test]
    fn units_read_off_rustc_arguments() {
        let lib = unit(
            "--crate-name der --edition=2021 src/lib.rs --crate-type lib --target x86_64-unknown-linux-gnu",
        );
        assert!(lib.for_target && lib.runs_in_process() && !lib.is_plain_executable());
        let host = unit("--crate-name proc_macro2 --crate-type lib");
        assert!(!host.for_target);
        let bin = unit("--crate-name app --crate-type bin --target=x86_64-unknown-linux-gnu");
        assert!(bin.for_target && !bin.runs_in_process() && bin.is_plain_executable());
        let test = unit("--crate-name app --test src/lib.rs --target x");
        assert!(test.runs_in_process() && !test.is_plain_executable());
        // An integration test holds properties, not the code under test.
        let props = unit("--crate-name x1 --edition=2024 tests/x1.rs --test --target x");
        assert!(!props.runs_in_process() && !props.is_plain_executable());
        // …but it overflows as under `cargo test`.
        assert!(props.is_test_harness() && !lib.is_test_harness() && !test.is_test_harness());
        assert!(!unit("--crate-name x1 tests/x1.rs --test").is_test_harness());
        let abs = unit("--crate-name x1 /w/app/tests/x1.rs --test --target x");
        assert!(!abs.runs_in_process());
        let pm = unit("--crate-name m --crate-type proc-macro");
        assert!(!pm.runs_in_process());
        // A library that is also a C library is code under test all the same.
        let cdylib = unit("--crate-name c --crate-type cdylib --crate-type rlib --target x");
        assert!(cdylib.runs_in_process() && !cdylib.is_plain_executable());
    }

    #[test]
    fn harness_false_test_targets_are_read_off_the_manifest() {
        let dir = std::env::temp_dir().join(format!("ctf-harness-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let m = dir.join("Cargo.toml");
        std::fs::write(
            &m,
            "[package]\nname = \"a\"\n\n[[test]]\nname = \"custom\"\nharness = false # own main\n\n\
             [[test]]\nname = \"plain\"\n\n[[bench]]\nname = \"b\"\nharness = false\n\n\
             [[ test ]]\nharness=false\nname = 'quoted'\n",
        )
        .unwrap();
        assert!(no_harness(&m, "custom"));
        assert!(!no_harness(&m, "plain"));
        assert!(!no_harness(&m, "b"), "a bench is not a test target");
        assert!(no_harness(&m, "quoted"));
        assert!(!no_harness(&dir.join("none.toml"), "custom"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn instrument_specs_select_crates() {
        let root = Path::new("/w");
        assert!(selected("all", "der", Path::new("/reg/der"), root));
        assert!(selected("workspace", "app", Path::new("/w/app"), root));
        assert!(!selected("workspace", "der", Path::new("/reg/der"), root));
        assert!(selected("der,app", "der", Path::new("/reg/der"), root));
        assert!(selected("my-crate", "my_crate", Path::new("/x"), root));
        assert!(!selected("der", "app", Path::new("/w/app"), root));
    }

    /// A workspace of `app` (on `der`, dev on tapefuzz, which brings `serde`) and `other`
    /// (on `memchr`), `app` the only default member.
    fn workspace_metadata() -> Value {
        let lib = |name: &str| serde_json::json!({"name": name, "kind": ["lib"]});
        let pkg = |id: &str, targets: Vec<Value>| serde_json::json!({"id": id, "name": id, "targets": targets});
        let dep = |id: &str, kind: Option<&str>| serde_json::json!({"pkg": id, "dep_kinds": [{"kind": kind}]});
        let node = |id: &str, deps: Vec<Value>| serde_json::json!({"id": id, "deps": deps});
        serde_json::json!({
            "packages": [
                pkg("app", vec![lib("app"), serde_json::json!({"name": "props", "kind": ["test"]})]),
                pkg("other", vec![lib("other")]),
                pkg("der", vec![lib("der")]),
                pkg("memchr", vec![lib("memchr")]),
                pkg("tapefuzz", vec![lib("tapefuzz")]),
                pkg("serde", vec![lib("serde")]),
                pkg("cc", vec![lib("cc")]),
            ],
            "workspace_members": ["app", "other"],
            "workspace_default_members": ["app"],
            "resolve": {"nodes": [
                node("app", vec![dep("der", None), dep("tapefuzz", Some("dev")), dep("cc", Some("build"))]),
                node("other", vec![dep("memchr", None)]),
                node("tapefuzz", vec![dep("serde", None)]),
                node("der", vec![]),
                node("memchr", vec![]),
                node("serde", vec![]),
            ]},
        })
    }

    #[test]
    fn the_reach_is_what_the_built_packages_depend_on() {
        let v = workspace_metadata();
        // Default members: `app`, its test target, `der`; not tapefuzz's `serde`, not the
        // build dependency, not the other member's `memchr`.
        assert_eq!(reachable_in(&v, None).unwrap(), ["app", "der", "props"]);
        assert_eq!(
            reachable_in(&v, Some("other")).unwrap(),
            ["memchr", "other"]
        );
        assert_eq!(
            reachable_in(&v, Some("other@0.1.0")).unwrap(),
            ["memchr", "other"]
        );
        // A dependency named by `-p` is a root of its own.
        assert_eq!(reachable_in(&v, Some("der")).unwrap(), ["der"]);
        // Package ID specs.
        assert_eq!(
            reachable_in(&v, Some("path+file:///w/other#0.1.0")).unwrap(),
            ["memchr", "other"]
        );
        assert_eq!(
            reachable_in(&v, Some("registry+https://x/index#der@1.0")).unwrap(),
            ["der"]
        );
        // A spec that names nothing here: every member's reach, never nothing.
        assert_eq!(
            reachable_in(&v, Some("nope")).unwrap(),
            ["app", "der", "memchr", "other", "props"]
        );
    }
}
