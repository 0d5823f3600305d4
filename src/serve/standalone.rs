//! A test binary that is its own standalone fuzzer (`cargo tapefuzz build-fuzzers`, for
//! OSS-Fuzz and ClusterFuzzLite): the service runs `$OUT/<name> [libFuzzer's flags and
//! folders]`, and `$OUT/<name>` is the instrumented test binary itself (a hard link or a copy,
//! one name per property), so what the service checks in the file — libFuzzer's entry point,
//! the sanitizer's calls — is in it.
//!
//! Before `main` (libtest's, which would refuse libFuzzer's flags), [`LAUNCH_FOLDER`]`/<name>.launch`
//! beside the executable names the property and its test. When that file is there (and the
//! process was not started by this hook: [`STARTED_VAR`]), the process starts itself again as a test binary running that one test, asked to fuzz the
//! property with exactly the arguments it was given
//! ([`STANDALONE_VAR`](crate::fuzz::driver::STANDALONE_VAR) set to its own path,
//! which libFuzzer's `-fork`/`-jobs` children start again). Without the file (a test binary
//! of `cargo tapefuzz fuzz`, or one under its own name in the build folder) nothing happens.
//! A damaged launch file or an argument that is not UTF-8 ends the process with exit status 2
//! and a message naming it.
//!
//! Only in builds with the `libfuzzer` feature on Linux with glibc (the services' platform):
//! the hook is an ELF start-up function, which glibc calls with the process's arguments. The
//! process it starts must hand itself to libFuzzer: one whose test ran no such property
//! ends with exit status 2 instead of passing. A launch folder beside the executable without
//! its launch file is an error too (exit status 2), not a test binary taking libFuzzer's
//! flags for test filters. A process serving one isolated test case never launches.

/// Set by the hook to the process's id when it starts itself again as a test binary (an
/// `exec` keeps the id): that process runs the test. libFuzzer's `-fork`/`-jobs` children
/// inherit the variable but not the id, so they start as fuzzers again.
pub const STARTED_VAR: &str = "TAPEFUZZ_STANDALONE_PID";

/// The folder beside a standalone fuzzer that holds its launch file.
pub const LAUNCH_FOLDER: &str = "tapefuzz";

/// What a standalone fuzzer runs: its launch file (JSON: `{"binary": …, "test": …,
/// "property": …}`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    /// The file name, in [`LAUNCH_FOLDER`], of the test binary under cargo's name with
    /// `.bin` added (`props-0123456789abcdef.bin`), which the fuzzer is a link to: started
    /// under that name, the binary names its properties as under `cargo test` (a `check` in
    /// `fn roundtrip` of `tests/props.rs` is `props::roundtrip`, the crate read off the
    /// name's stem).
    pub binary: String,
    /// The libtest name of the property's test (`props::header_fits`).
    pub test: String,
    /// The property's name.
    pub property: String,
}

impl Launch {
    /// The launch file's text.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(&serde_json::json!({
            "binary": self.binary,
            "test": self.test,
            "property": self.property,
        }))
        .expect("strings serialize")
    }

    /// Reads a launch file's text; the error names what is missing or why it is not JSON.
    pub fn from_json(text: &str) -> Result<Launch, String> {
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let field = |k: &str| {
            v[k].as_str()
                .map(String::from)
                .ok_or_else(|| format!("no `{k}`"))
        };
        let binary = field("binary")?;
        // A file name in the launch folder, nothing else.
        if binary.is_empty() || binary.contains(['/', '\\']) || binary == "." || binary == ".." {
            return Err(format!("`binary` is not a file name: {binary:?}"));
        }
        Ok(Launch {
            binary,
            test: field("test")?,
            property: field("property")?,
        })
    }

    /// The launch file of the executable at `exe`: `LAUNCH_FOLDER/<its file name>.launch`
    /// beside it.
    pub fn file_for(exe: &std::path::Path) -> Option<std::path::PathBuf> {
        let name = exe.file_name()?.to_str()?;
        Some(
            exe.parent()?
                .join(LAUNCH_FOLDER)
                .join(format!("{name}.launch")),
        )
    }
}

/// Keeps the start-up hook in the link: an `#[used]` static of a library is only linked when
/// its object file is, and this function is called on every `fuzz` request.
pub(super) fn keep_hook() {
    #[cfg(all(feature = "libfuzzer", target_os = "linux", target_env = "gnu"))]
    std::hint::black_box((&hook::START, &hook::ENTRY_POINT_NAME));
}

#[cfg(all(feature = "libfuzzer", target_os = "linux", target_env = "gnu"))]
mod hook {
    use super::{Launch, STARTED_VAR};
    use crate::fuzz::driver::STANDALONE_VAR;
    use crate::serve::{Command, Mode, PartRequest, Request};
    use std::ffi::{CStr, c_char, c_int};
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::process::CommandExt;

    /// Run by the C runtime before `main`, with the process's arguments (glibc passes them
    /// to every start-up function).
    #[used]
    #[unsafe(link_section = ".init_array")]
    pub(super) static START: extern "C" fn(c_int, *const *const c_char) = start;

    /// The services take an executable of `$OUT` for a fuzzer when its bytes hold
    /// libFuzzer's entry point's name (ClusterFuzz's test for a fuzz target); a property's
    /// test binary calls libFuzzer's driver instead of defining that function.
    #[used]
    pub(super) static ENTRY_POINT_NAME: [u8; 22] = *b"LLVMFuzzerTestOneInput";

    extern "C" fn start(argc: c_int, argv: *const *const c_char) {
        // A process that runs one test case in isolation is a test binary.
        if argv.is_null() || crate::env::path_var(crate::property::isolation::CHILD_VAR).is_some() {
            return;
        }
        // Started again by this hook: the test binary runs its one test, which must fuzz.
        let id = std::process::id().to_string();
        if crate::env::path_var(STARTED_VAR).is_some_and(|v| v.as_os_str() == id.as_str()) {
            // SAFETY: registering a plain `extern "C" fn()`.
            unsafe { libc::atexit(fuzzed_or_fail) };
            return;
        }
        // The name it was started under: a hard link's own (`/proc/self/exe` names the link
        // that was executed).
        let Ok(exe) = std::fs::read_link("/proc/self/exe") else {
            return;
        };
        let Some(file) = Launch::file_for(&exe) else {
            return;
        };
        let name = exe
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let fail = |why: String| -> ! {
            eprintln!("{name}: {why}");
            std::process::exit(2);
        };
        let text = match std::fs::read_to_string(&file) {
            Ok(t) => t,
            // Beside a launch folder but without its file: a fuzzer whose file was lost,
            // not a test binary (which would take libFuzzer's flags for test filters).
            Err(e) if file.parent().is_some_and(|d| d.is_dir()) => fail(format!(
                "cannot read its launch file {}: {e}",
                file.display()
            )),
            Err(_) => return,
        };
        let launch = Launch::from_json(&text).unwrap_or_else(|e| {
            fail(format!(
                "its launch file {} is damaged: {e}",
                file.display()
            ))
        });
        let mut args = Vec::new();
        for i in 1..usize::try_from(argc).unwrap_or(0) {
            // SAFETY: glibc passes `argc` valid, NUL-terminated strings in `argv`.
            let a = unsafe { CStr::from_ptr(*argv.add(i)) };
            match a.to_str() {
                Ok(a) => args.push(a.to_string()),
                Err(_) => fail(format!(
                    "argument {:?} is not UTF-8",
                    std::ffi::OsStr::from_bytes(a.to_bytes())
                )),
            }
        }
        let request = Request {
            command: Some(Command::Fuzz),
            property: Some(launch.property),
            out: None,
            args,
            mode: Mode::Blackbox,
            part: PartRequest::default(),
        };
        // Under cargo's name, so that properties are named as under `cargo test`.
        let binary = file.with_file_name(&launch.binary);
        let mut cmd = std::process::Command::new(&binary);
        cmd.args(["--include-ignored", &launch.test, "--exact", "--nocapture"]);
        for p in crate::env::PROTOCOL {
            cmd.env_remove(p);
        }
        let e = cmd
            .envs(request.to_env())
            // What libFuzzer's `-fork`/`-jobs` children start: the fuzzer, by its name.
            .env(STANDALONE_VAR, &exe)
            .env(STARTED_VAR, &id)
            .exec();
        fail(format!("cannot start {}: {e}", binary.display()))
    }

    /// At the exit of the process the hook started: when its test never handed the process
    /// to libFuzzer (the test is gone, or its property has another name), the fuzzer did
    /// nothing, which a fuzzing service must not take for a clean run.
    extern "C" fn fuzzed_or_fail() {
        if !crate::fuzz::driver::entered() {
            eprintln!(
                "tapefuzz: this fuzzer ended without fuzzing (see above; when its test runs no property of its launch file's name, rebuild the fuzzers: `cargo tapefuzz build-fuzzers`)"
            );
            // SAFETY: ends the process at once, as exit handlers may.
            unsafe { libc::_exit(2) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn launch_files_round_trip() {
        let l = Launch {
            binary: "props-0123456789abcdef".into(),
            test: "props::roundtrip".into(),
            property: "props::roundtrip".into(),
        };
        assert_eq!(Launch::from_json(&l.to_json()).unwrap(), l);
        assert!(Launch::from_json("{}").unwrap_err().contains("binary"));
        let with = |b: &str| format!(r#"{{"binary": "{b}", "test": "t", "property": "p"}}"#);
        assert!(
            Launch::from_json(&with("../x"))
                .unwrap_err()
                .contains("file name")
        );
        assert!(
            Launch::from_json(&with(".."))
                .unwrap_err()
                .contains("file name")
        );
        assert!(Launch::from_json(&with("b")).is_ok());
        assert!(
            Launch::from_json(r#"{"binary": "b", "test": "t"}"#)
                .unwrap_err()
                .contains("property")
        );
        assert!(Launch::from_json("not json").is_err());
    }

    #[test]
    fn the_launch_file_sits_in_a_folder_beside_the_executable() {
        assert_eq!(
            Launch::file_for(std::path::Path::new("/out/props_roundtrip")),
            Some(std::path::PathBuf::from(
                "/out/tapefuzz/props_roundtrip.launch"
            ))
        );
    }
}
