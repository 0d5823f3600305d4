//! Every Rust example of the README compiles and runs, as a user's test file would.
//!
//! Each ```` ```rust ```` block becomes a test file of a scratch crate (in
//! `target/readme-test/`) that depends on this one: a block with a `#[test]`, a
//! `property!` or a crate attribute is the whole file; any other block is the body of one
//! `#[test]`. An HTML comment just before a block (invisible on GitHub) can say more:
//!
//! - `<!-- readme-test: setup … -->` — code the example leaves out (the user's own types and
//!   functions), put before the block;
//! - `<!-- readme-test: fails with `text` -->` — the example shows a failure: its test must
//!   fail, saying `text`;
//! - `<!-- readme-test: skip <why> -->` — not a test file (a cargo-fuzz target, built by the
//!   fuzz step).
//!
//! A block without a comment must compile and pass.

use std::path::{Path, PathBuf};
use std::process::Command;

/// One example.
struct Block {
    /// The README line of its opening fence.
    line: usize,
    code: String,
    setup: String,
    fails: bool,
    /// What the failure's output must contain (`fails with `text``).
    fails_with: Option<String>,
    skip: bool,
}

/// The ```` ```rust ```` blocks of `text`, each with the comment before it.
fn blocks(text: &str) -> Vec<Block> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim() != "```rust" {
            i += 1;
            continue;
        }
        let line = i + 1;
        // The comment that ends right before the fence (blank lines between allowed).
        let mut j = i;
        while j > 0 && lines[j - 1].trim().is_empty() {
            j -= 1;
        }
        let mut comment = String::new();
        if j > 0 && lines[j - 1].trim_end().ends_with("-->") {
            let end = j - 1;
            let mut start = end;
            while start > 0 && !lines[start].contains("<!--") {
                start -= 1;
            }
            if lines[start].contains("<!-- readme-test:") {
                comment = lines[start..=end].join("\n");
            }
        }
        let mut code = String::new();
        i += 1;
        while i < lines.len() && lines[i].trim() != "```" {
            code.push_str(lines[i]);
            code.push('\n');
            i += 1;
        }
        let body = comment
            .trim_start_matches("<!-- readme-test:")
            .trim_end_matches("-->")
            .trim();
        out.push(Block {
            line,
            code,
            setup: body
                .strip_prefix("setup")
                .map(|s| s.trim_start_matches(['\n', ' ']).to_string())
                .unwrap_or_default(),
            fails: body.starts_with("fails"),
            fails_with: body
                .strip_prefix("fails with ")
                .map(|t| t.trim().trim_matches('`').to_string()),
            skip: body.starts_with("skip"),
        });
        i += 1;
    }
    out
}

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The test file of `b`.
fn test_file(b: &Block) -> String {
    let whole = b.code.contains("#[test]")
        || b.code.contains("property!")
        || b.code.trim_start().starts_with("#![");
    if whole {
        format!("{}\n{}", b.setup, b.code)
    } else {
        let indented: String = b.code.lines().map(|l| format!("    {l}\n")).collect();
        format!(
            "#[test]\nfn readme_example() {{\n{}\n{indented}}}\n",
            b.setup
        )
    }
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    // Unchanged files keep their times: cargo then rebuilds nothing.
    if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
        std::fs::write(path, text).unwrap();
    }
}

#[test]
fn every_rust_example_of_the_readme_compiles_and_runs() {
    let readme = std::fs::read_to_string(workspace().join("README.md")).unwrap();
    let blocks = blocks(&readme);
    assert!(blocks.len() >= 10, "found {} rust blocks", blocks.len());
    let root = workspace().join("target").join("readme-test");
    let krate = root.join("crate");
    let _ = std::fs::remove_dir_all(krate.join("tests"));
    let _ = std::fs::remove_dir_all(krate.join("corpora"));
    write(
        &krate.join("Cargo.toml"),
        &format!(
            "[package]\nname = \"readme\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
             [dependencies]\ntapefuzz = {{ path = {:?} }}\n\n[workspace]\n",
            workspace().display().to_string()
        ),
    );
    write(&krate.join("src").join("lib.rs"), "");
    // This workspace's versions of every dependency: no resolution, no network.
    write(
        &krate.join("Cargo.lock"),
        &std::fs::read_to_string(workspace().join("Cargo.lock")).unwrap(),
    );
    let mut expected = Vec::new();
    for b in blocks.iter().filter(|b| !b.skip) {
        let name = format!("line_{}", b.line);
        write(
            &krate.join("tests").join(format!("{name}.rs")),
            &test_file(b),
        );
        expected.push((name, b.fails, b.fails_with.clone()));
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let clean = |c: &mut Command| {
        for (k, _) in std::env::vars_os() {
            if k.to_string_lossy().starts_with("TAPEFUZZ_") {
                c.env_remove(k);
            }
        }
        // The scratch crate's corpora, never this repository's.
        c.env("CARGO_TARGET_DIR", root.join("target"))
            .env("CARGO_MANIFEST_DIR", &krate)
            .current_dir(&krate);
    };
    let mut build = Command::new(&cargo);
    build.args([
        "test",
        "--no-run",
        "--message-format=json-render-diagnostics",
    ]);
    clean(&mut build);
    let out = build.output().expect("cargo runs");
    assert!(
        out.status.success(),
        "a README example does not compile (the test file is named after the README line \
         of its fence):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut exes = std::collections::HashMap::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if let (Some(exe), Some(name)) = (v["executable"].as_str(), v["target"]["name"].as_str()) {
            exes.insert(name.to_string(), PathBuf::from(exe));
        }
    }
    let mut wrong = Vec::new();
    for (name, fails, fails_with) in &expected {
        let exe = exes
            .get(name)
            .unwrap_or_else(|| panic!("no test binary {name}"));
        let mut run = Command::new(exe);
        run.arg("--test-threads=1");
        clean(&mut run);
        let out = run.output().expect("the example runs");
        let passed = out.status.success();
        let output = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let ran = output.contains("running 0 tests");
        let said = fails_with
            .as_ref()
            .is_none_or(|t| output.contains(t.as_str()));
        if passed == *fails || ran || !said {
            let saying = fails_with
                .as_ref()
                .map(|t| format!(" saying `{t}`"))
                .unwrap_or_default();
            let how = if ran {
                "ran no test"
            } else if passed {
                "passed"
            } else {
                "failed"
            };
            let expected = if *fails { "fail" } else { "pass" };
            wrong.push(format!(
                "README {} ({}): expected to {expected}{saying}, {how}\n{output}",
                name.replace('_', " "),
                exe.display(),
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

#[test]
fn comments_before_blocks_are_read() {
    let text = "a\n<!-- readme-test: setup\nfn f() {}\n-->\n\n```rust\nf();\n```\n\
                <!-- readme-test: fails with `boom` -->\n```rust\npanic!(\"boom\");\n```\n\
                <!-- just a comment -->\n```rust\nlet x = 1;\n```\n";
    let b = blocks(text);
    assert_eq!(b.len(), 3);
    assert_eq!(b[0].setup, "fn f() {}");
    assert_eq!(b[0].code, "f();\n");
    assert!(!b[0].fails && b[1].fails && !b[2].fails);
    assert_eq!(b[1].fails_with.as_deref(), Some("boom"));
    assert_eq!(b[2].setup, "");
    assert_eq!(b[1].line, 10);
    assert!(test_file(&b[0]).contains("fn readme_example() {\nfn f() {}\n    f();"));
}
