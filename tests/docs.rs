//! The documentation holds: every Rust example of the README and the guide (`guide/src/`)
//! compiles and runs as a user's test file would, no link points outside the repository, the
//! configuration reference is the one the code generates, the guide's table of contents
//! lists every page, every paper or system the docs name is cited in the background chapter,
//! and the README stays a front door (at most 200 lines).
//!
//! Each ```` ```rust ```` block becomes a test file of a scratch crate (in
//! `target/docs-test/`) that depends on this one: a block with a `#[test]`, a
//! `property!` or a crate attribute is the whole file; any other block is the body of one
//! `#[test]`. An HTML comment just before a block (invisible on GitHub and in the book) can
//! say more:
//!
//! - `<!-- doc-test: setup … -->` — code the example leaves out (the user's own types and
//!   functions), put before the block;
//! - `<!-- doc-test: fails with `text` -->` — the example shows a failure: its test must
//!   fail, saying `text`;
//! - `<!-- doc-test: skip <why> -->` — not a test file (a cargo-fuzz target, built by the
//!   fuzz step).
//!
//! A block without a comment must compile and pass. `UPDATE_DOCS=1 cargo test --test docs`
//! rewrites the generated configuration reference instead of failing on it.

use std::path::{Path, PathBuf};
use std::process::Command;

/// One example.
struct Block {
    /// The page's line of its opening fence.
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
            if lines[start].contains("<!-- doc-test:") {
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
            .trim_start_matches("<!-- doc-test:")
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
        format!("#[test]\nfn doc_example() {{\n{}\n{indented}}}\n", b.setup)
    }
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    // Unchanged files keep their times: cargo then rebuilds nothing.
    if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
        std::fs::write(path, text).unwrap();
    }
}

/// The pages whose examples run: the README, then the guide's pages in path order.
fn pages() -> Vec<PathBuf> {
    let mut out = vec![workspace().join("README.md")];
    let mut guide = Vec::new();
    let mut stack = vec![workspace().join("guide").join("src")];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "md") {
                guide.push(path);
            }
        }
    }
    guide.sort();
    out.extend(guide);
    out
}

/// `page` relative to the workspace, as a test file name's prefix: `guide_src_derive_md`.
fn slug(page: &Path) -> String {
    page.strip_prefix(workspace())
        .unwrap()
        .to_string_lossy()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect()
}

#[test]
fn every_rust_example_of_the_readme_and_the_guide_compiles_and_runs() {
    let root = workspace().join("target").join("docs-test");
    let krate = root.join("crate");
    let _ = std::fs::remove_dir_all(krate.join("tests"));
    let _ = std::fs::remove_dir_all(krate.join("corpora"));
    write(
        &krate.join("Cargo.toml"),
        &format!(
            "[package]\nname = \"docs\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
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
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for b in blocks(&text).iter().filter(|b| !b.skip) {
            let name = format!("{}_line_{}", slug(&page), b.line);
            write(
                &krate.join("tests").join(format!("{name}.rs")),
                &test_file(b),
            );
            expected.push((name, b.fails, b.fails_with.clone()));
        }
    }
    assert!(expected.len() >= 20, "found {} rust blocks", expected.len());
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
        "an example does not compile (the test file is named after the page and the line \
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
                "{name} ({}): expected to {expected}{saying}, {how}\n{output}",
                exe.display(),
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

/// The Markdown files whose links are checked: every page above, and the repository's other
/// documents.
fn linked_documents() -> Vec<PathBuf> {
    let mut docs = pages();
    for other in ["CHANGELOG.md", "BENCHMARKS.md", "corpora/README.md"] {
        docs.push(workspace().join(other));
    }
    docs
}

/// The targets of the inline links `[text](target)` of `text`, with their lines, outside
/// code blocks and code spans.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fenced = false;
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Code spans hold no links.
        let plain: String = line
            .split('`')
            .enumerate()
            .filter(|(i, _)| i % 2 == 0)
            .map(|(_, s)| s)
            .collect::<Vec<_>>()
            .join(" ");
        let mut rest = plain.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let end = after.find(')').unwrap_or(after.len());
            out.push((n + 1, after[..end].trim().to_string()));
            rest = &after[end..];
        }
    }
    out
}

#[test]
fn no_link_points_outside_the_repository() {
    let root = workspace().canonicalize().unwrap();
    let mut wrong = Vec::new();
    for doc in linked_documents() {
        let text = std::fs::read_to_string(&doc).unwrap();
        let name = doc.strip_prefix(workspace()).unwrap().display().to_string();
        if doc.starts_with(workspace().join("guide")) || name == "README.md" {
            for (n, line) in text.lines().enumerate() {
                if line.contains("../shared") || line.contains("shared/design.md") {
                    wrong.push(format!(
                        "{name}:{}: names a folder outside the repository",
                        n + 1
                    ));
                }
            }
        }
        for (line, target) in links(&text) {
            if target.starts_with("http://")
                || target.starts_with("https://")
                || target.starts_with("mailto:")
                || target.starts_with('#')
            {
                continue;
            }
            let path = target.split('#').next().unwrap();
            let resolved = doc.parent().unwrap().join(path);
            match resolved.canonicalize() {
                Ok(p) if p.starts_with(&root) => {}
                Ok(_) => wrong.push(format!(
                    "{name}:{line}: `{target}` is outside the repository"
                )),
                Err(_) => wrong.push(format!("{name}:{line}: `{target}` does not exist")),
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_configuration_reference_is_generated_from_the_code() {
    let page = workspace().join("guide/src/configuration.md");
    let text = std::fs::read_to_string(&page).unwrap();
    let (begin, end) = ("<!-- reference:begin -->\n", "<!-- reference:end -->");
    let start = text.find(begin).expect("the begin marker") + begin.len();
    let stop = text.find(end).expect("the end marker");
    let generated = tapefuzz::settings::render_reference();
    if text[start..stop] != generated {
        if std::env::var_os("UPDATE_DOCS").is_some() {
            let new = format!("{}{generated}{}", &text[..start], &text[stop..]);
            std::fs::write(&page, new).unwrap();
        } else {
            panic!(
                "guide/src/configuration.md is not what tapefuzz::settings::render_reference() \
                 makes: run `UPDATE_DOCS=1 cargo test --test docs` and commit the page"
            );
        }
    }
    // Every variable a user may set is in it.
    for var in tapefuzz::settings::known_vars() {
        assert!(generated.contains(&format!("`{var}`")), "{var} is missing");
    }
}

#[test]
fn the_table_of_contents_lists_every_page() {
    let src = workspace().join("guide").join("src");
    let summary = std::fs::read_to_string(src.join("SUMMARY.md")).unwrap();
    let listed: Vec<PathBuf> = links(&summary)
        .into_iter()
        .map(|(_, t)| src.join(t))
        .collect();
    for page in pages().into_iter().skip(1) {
        if page.ends_with("SUMMARY.md") {
            continue;
        }
        assert!(
            listed.contains(&page),
            "SUMMARY.md does not list {}",
            page.display()
        );
    }
    for page in &listed {
        assert!(
            page.exists(),
            "SUMMARY.md lists {}, which does not exist",
            page.display()
        );
    }
}

#[test]
fn every_paper_and_system_named_is_cited_in_the_background_chapter() {
    // What the docs name; the background chapter must cite each one it names.
    const NAMES: &[&str] = &[
        "paper 000",
        "paper 001",
        "paper 002",
        "paper 003",
        "paper 004",
        "PropEr",
        "ProSyT",
        "RLCheck",
        "Synthia",
        "QuickCheck",
        "Hypothesis",
        "proptest",
        "quickcheck",
        "bolero",
        "cargo-fuzz",
        "arbitrary",
        "libFuzzer",
        "SanitizerCoverage",
        "AddressSanitizer",
        "LibAFL",
        "Redqueen",
        "CmpLog",
        "AFL",
        "OSS-Fuzz",
        "ClusterFuzzLite",
        "ETNA",
        "System F",
        "LazySearch",
        "SmallCheck",
        "TCAS",
        "Siemens",
        "IPOG",
        "AETG",
        "PICT",
        "Goldstein",
        "Groce",
        "swarm testing",
        "Katona",
        "Bush",
        "Chateauneuf",
    ];
    let background = std::fs::read_to_string(workspace().join("guide/src/background.md")).unwrap();
    let lower = background.to_lowercase();
    let mut missing = Vec::new();
    for page in pages() {
        if page.ends_with("background.md") {
            continue;
        }
        let text = std::fs::read_to_string(&page).unwrap();
        for name in NAMES {
            if text.contains(name) && !lower.contains(&name.to_lowercase()) {
                missing.push(format!("{name} (named in {})", page.display()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "not cited in background.md: {missing:?}"
    );
}

#[test]
fn the_readme_is_a_front_door() {
    let readme = std::fs::read_to_string(workspace().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(lines <= 200, "README.md has {lines} lines (at most 200)");
    // The two set-up commands, and the dependency line.
    assert!(readme.contains("cargo run --release -p tapefuzz-demo"));
    assert!(readme.contains("scripts/test"));
    assert!(readme.contains("[dev-dependencies]\ntapefuzz = "));
}

#[test]
fn comments_before_blocks_are_read() {
    let text = "a\n<!-- doc-test: setup\nfn f() {}\n-->\n\n```rust\nf();\n```\n\
                <!-- doc-test: fails with `boom` -->\n```rust\npanic!(\"boom\");\n```\n\
                <!-- just a comment -->\n```rust\nlet x = 1;\n```\n";
    let b = blocks(text);
    assert_eq!(b.len(), 3);
    assert_eq!(b[0].setup, "fn f() {}");
    assert_eq!(b[0].code, "f();\n");
    assert!(!b[0].fails && b[1].fails && !b[2].fails);
    assert_eq!(b[1].fails_with.as_deref(), Some("boom"));
    assert_eq!(b[2].setup, "");
    assert_eq!(b[1].line, 10);
    assert!(test_file(&b[0]).contains("fn doc_example() {\nfn f() {}\n    f();"));
}

#[test]
fn links_are_found_outside_code() {
    let text = "see [a](x.md) and `[b](y.md)`\n```\n[c](z.md)\n```\n[d](w.md#part)\n";
    let l = links(text);
    assert_eq!(l, [(1, "x.md".to_string()), (5, "w.md#part".to_string())]);
}
