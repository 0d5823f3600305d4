//! The crate's layering holds: every `crate::` path in `src/` goes to the module's own layer
//! or one below it (the layer list of `src/lib.rs`'s crate docs), and no two top-level
//! modules import each other, even through others. No exception list.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers of `src/lib.rs`'s docs, bottom first: lines `//! N. Name: [`a`], [`mod@b`] …`.
fn layers() -> BTreeMap<String, usize> {
    let lib = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs"))
        .expect("src/lib.rs");
    let section = lib
        .split("//! # Layers")
        .nth(1)
        .expect("a `# Layers` section in lib.rs");
    // Each item, its continuation lines joined.
    let mut items: Vec<(usize, String)> = Vec::new();
    for line in section.lines().skip(1).take_while(|l| l.starts_with("//!")) {
        let text = line.trim_start_matches("//!");
        let item = text
            .trim_start()
            .split_once(". ")
            .and_then(|(n, rest)| n.parse::<usize>().ok().map(|n| (n, rest.to_string())));
        match item {
            Some(item) => items.push(item),
            None if text.starts_with("    ") => {
                if let Some(last) = items.last_mut() {
                    last.1.push(' ');
                    last.1.push_str(text.trim());
                }
            }
            None => {}
        }
    }
    let mut out = BTreeMap::new();
    for (level, rest) in items {
        // The modules are the links before the dash.
        let names = rest.split(" — ").next().unwrap_or("");
        for link in names.split("[`").skip(1) {
            let name = link.split('`').next().unwrap_or("");
            let name = name.trim_start_matches("mod@");
            assert!(
                out.insert(name.to_string(), level).is_none(),
                "{name} is in two layers"
            );
        }
    }
    assert!(out.len() > 5, "the layer list in lib.rs could not be read");
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("src/") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The top-level module of a file under `src/` (`None`: the crate root).
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).expect("under src/");
    let first = rel.components().next()?.as_os_str().to_string_lossy();
    let name = first.trim_end_matches(".rs").to_string();
    (name != "lib").then_some(name)
}

/// The modules a line of code names as `crate::<module>` (not macros: `crate::one_of!`).
fn crate_paths(line: &str) -> Vec<String> {
    let code = line.trim_start();
    if code.starts_with("//") {
        return Vec::new();
    }
    // A trailing comment is not code either.
    let code = match code.find("// ") {
        Some(i) if !code[..i].contains('"') => &code[..i],
        _ => code,
    };
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        let before = rest[..i].chars().last();
        rest = &rest[i + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            continue; // `$crate::`, `tapefuzz_crate::`
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if rest[name.len()..].starts_with('!') || name.is_empty() {
            continue;
        }
        out.push(name);
    }
    out
}

/// The top-level modules lib.rs declares (`pub mod x;`, `mod x;`).
fn modules() -> BTreeSet<String> {
    let lib = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs"))
        .expect("src/lib.rs");
    lib.lines()
        .filter_map(|l| {
            let l = l.trim();
            let l = l.strip_prefix("pub ").unwrap_or(l);
            l.strip_prefix("mod ")?
                .strip_suffix(';')
                .map(str::to_string)
        })
        .collect()
}

/// Every import between top-level modules: (from, to) → the first place it is made.
fn imports() -> BTreeMap<(String, String), String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let modules = modules();
    let mut out = BTreeMap::new();
    for f in files {
        let Some(from) = module_of(&src, &f) else {
            continue;
        };
        let text = std::fs::read_to_string(&f).expect("a source file");
        for (n, line) in text.lines().enumerate() {
            // A path to an item at the root (an exported macro, a re-export) is no module's.
            for to in crate_paths(line) {
                if to != from && modules.contains(&to) {
                    out.entry((from.clone(), to))
                        .or_insert_with(|| format!("{}:{}", f.display(), n + 1));
                }
            }
        }
    }
    out
}

#[test]
fn paths_are_read_from_code_only() {
    assert_eq!(crate_paths("use crate::tape::{Tape, Status};"), ["tape"]);
    assert_eq!(
        crate_paths("    let x = crate::engine::run(a, crate::corpus::X);"),
        ["engine", "corpus"]
    );
    assert!(crate_paths("/// see [`crate::serve`]").is_empty());
    assert!(crate_paths("$crate::property::Property::for_test(").is_empty());
    assert!(crate_paths("crate::one_of![a, b]").is_empty());
    assert_eq!(crate_paths("f(crate::tape::X); // crate::serve"), ["tape"]);
}

#[test]
fn no_module_imports_from_a_higher_layer() {
    let layers = layers();
    let mut wrong: Vec<String> = modules()
        .into_iter()
        .filter(|m| !layers.contains_key(m))
        .map(|m| format!("src/lib.rs: module `{m}` is in no layer of the crate docs"))
        .collect();
    for ((from, to), at) in imports() {
        let (Some(&a), Some(&b)) = (layers.get(&from), layers.get(&to)) else {
            let missing = if layers.contains_key(&from) {
                &to
            } else {
                &from
            };
            wrong.push(format!("{at}: `{missing}` is in no layer of lib.rs"));
            continue;
        };
        if b > a {
            wrong.push(format!(
                "{at}: {from} (layer {a}) imports {to} (layer {b}), a higher layer"
            ));
        }
    }
    assert!(wrong.is_empty(), "layering broken:\n{}", wrong.join("\n"));
}

#[test]
fn no_circle_between_modules() {
    let edges = imports();
    let mut next: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (from, to) in edges.keys() {
        next.entry(from).or_default().insert(to);
    }
    // A depth-first search from each module; a path back to it is a circle.
    fn back<'a>(
        start: &'a str,
        at: &'a str,
        next: &BTreeMap<&'a str, BTreeSet<&'a str>>,
        path: &mut Vec<&'a str>,
        seen: &mut BTreeSet<&'a str>,
    ) -> bool {
        for &n in next.get(at).into_iter().flatten() {
            if n == start {
                path.push(n);
                return true;
            }
            if seen.insert(n) {
                path.push(n);
                if back(start, n, next, path, seen) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    for &m in next.keys() {
        let mut path = vec![m];
        if back(m, m, &next, &mut path, &mut BTreeSet::new()) {
            let hops: Vec<String> = path
                .windows(2)
                .map(|w| {
                    format!(
                        "{} -> {} ({})",
                        w[0],
                        w[1],
                        edges[&(w[0].to_string(), w[1].to_string())]
                    )
                })
                .collect();
            panic!("a circle between modules:\n{}", hops.join("\n"));
        }
    }
}

/// Every line of code (not a comment) of the Rust files under `src/<dir>`: where it is
/// (`file:line`) and its text, trimmed at the start.
fn code_lines(dir: &str) -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(dir);
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let mut out = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("a source file");
        for (n, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if !code.starts_with("//") {
                out.push((format!("{}:{}", f.display(), n + 1), code.to_string()));
            }
        }
    }
    out
}

#[test]
fn the_environment_is_read_in_one_place() {
    // `src/env.rs` reads the `TAPEFUZZ_*` variables; elsewhere only others' (cargo's) may be
    // read directly, by their literal name.
    let env_rs = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/env.rs");
    let env_rs = env_rs.display().to_string();
    let mut wrong = Vec::new();
    for (at, code) in code_lines("") {
        if at.starts_with(&format!("{env_rs}:")) {
            continue;
        }
        for call in ["env::var(", "env::var_os(", "env::vars(", "env::vars_os("] {
            if let Some(i) = code.find(call) {
                let arg = &code[i + call.len()..];
                let others = arg.starts_with('"') && !arg.starts_with("\"TAPEFUZZ_");
                if !others {
                    wrong.push(format!("{at}: {code}"));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "read through tapefuzz::env::Env instead:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_engine_writes_nothing_to_stderr() {
    // Its words for a person go to the run's reporter (`tapefuzz::reporter`).
    let wrong: Vec<String> = code_lines("engine")
        .into_iter()
        .filter(|(_, code)| code.contains("eprint") || code.contains("io::stderr"))
        .map(|(at, code)| format!("{at}: {code}"))
        .collect();
    assert!(
        wrong.is_empty(),
        "the engine writes to stderr:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn no_two_public_types_share_a_name() {
    // `engine::Outcome` and `property::Outcome` were two things; a user importing both had to
    // rename one. A public struct, enum, trait or type alias has a name of its own.
    let mut seen: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (at, code) in code_lines("") {
        for kind in ["pub struct ", "pub enum ", "pub trait ", "pub type "] {
            if let Some(rest) = code.strip_prefix(kind) {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                seen.entry(name).or_default().push(at.clone());
            }
        }
    }
    let clashes: Vec<String> = seen
        .into_iter()
        .filter(|(_, at)| at.len() > 1)
        .map(|(name, at)| format!("{name}: {}", at.join(", ")))
        .collect();
    assert!(
        clashes.is_empty(),
        "public types sharing a name:\n{}",
        clashes.join("\n")
    );
}

/// The names `pub use` lines in `body` bring in (the last segment, or each name in braces).
fn reexported(body: &str) -> std::collections::BTreeSet<String> {
    let mut names = std::collections::BTreeSet::new();
    for stmt in body.split(';') {
        let Some(at) = stmt.find("pub use ") else {
            continue;
        };
        let path = &stmt[at + "pub use ".len()..];
        let list = match (path.find('{'), path.rfind('}')) {
            (Some(a), Some(b)) => &path[a + 1..b],
            _ => path.rsplit("::").next().unwrap_or(path),
        };
        for n in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let n = n.rsplit(" as ").next().unwrap_or(n);
            names.insert(n.rsplit("::").next().unwrap_or(n).to_string());
        }
    }
    names
}

#[test]
fn the_prelude_has_at_most_30_names() {
    let lib = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs"))
        .expect("src/lib.rs");
    let start = lib.find("pub mod prelude {").expect("a prelude module");
    let body = &lib[start..];
    let body = &body[..body.find("\n}").expect("the prelude's end")];
    let names = reexported(body);
    // `one_of` is a function and a macro: one name to a user.
    assert!(
        names.contains("check") && names.contains("property"),
        "{names:?}"
    );
    assert!(
        names.len() <= 30,
        "the prelude has {} names (at most 30): {names:?}",
        names.len()
    );
}
