//! Every target as a `#[test]`: replays `corpora/<target>/regressions/` and `corpus/`, then
//! generates (256 tests unless `TAPEFUZZ_TESTS` / `TAPEFUZZ_SECONDS` say otherwise).
//!
//! `TAPEFUZZ_BUG=<name>` plants that bug in the targets that have it, so a regression saved
//! by `run <target> --bug <name>` fails here first.

use harnesses::{find, property_for, targets};

fn bug_for(target: &harnesses::Target) -> Option<String> {
    let bug = std::env::var("TAPEFUZZ_BUG")
        .ok()
        .filter(|b| !b.is_empty())?;
    let known: Vec<&str> = targets().iter().flat_map(|t| t.bug_names()).collect();
    assert!(
        known.contains(&bug.as_str()),
        "TAPEFUZZ_BUG={bug} is not a planted bug (valid: {})",
        known.join(", ")
    );
    target.bug_names().contains(&bug.as_str()).then_some(bug)
}

fn check(name: &str) {
    let target = find(name).unwrap();
    let bug = bug_for(&target);
    let test = target.test(bug.as_deref()).unwrap();
    let report = property_for(&target, bug.as_deref())
        .unwrap()
        .run_test(test.as_ref());
    assert!(report.passed(), "\n{report}");
}

#[test]
fn ord_insert() {
    check("ord_insert");
}

#[test]
fn up_down_seq() {
    check("up_down_seq");
}

#[test]
fn n_up_seqs() {
    check("n_up_seqs");
}

#[test]
fn delete() {
    check("delete");
}

#[test]
fn stack() {
    check("stack");
}

#[test]
fn matrix_mult() {
    check("matrix_mult");
}

#[test]
fn det_tri_matrix() {
    check("det_tri_matrix");
}

#[test]
fn balanced_tree() {
    check("balanced_tree");
}

#[test]
fn binomial_tree_heap() {
    check("binomial_tree_heap");
}

#[test]
fn avl_insert() {
    check("avl_insert");
}

#[test]
fn lru_cache() {
    check("lru_cache");
}

#[test]
fn undo_buffer() {
    check("undo_buffer");
}

#[test]
fn kv_store() {
    check("kv_store");
}

#[test]
fn kv_store_concurrent() {
    check("kv_store_concurrent");
}

#[test]
fn sorted_insert() {
    check("sorted_insert");
}

#[test]
fn bst_insert() {
    check("bst_insert");
}

#[test]
fn bst_valid() {
    check("bst_valid");
}

#[test]
fn xml_doc() {
    check("xml_doc");
}

#[test]
fn lang() {
    check("lang");
}

#[test]
fn graph_sink() {
    check("graph_sink");
}

#[test]
fn graph_sink_dependent() {
    check("graph_sink_dependent");
}

#[test]
fn ifc() {
    check("ifc");
}

#[test]
fn expr_simplify() {
    check("expr_simplify");
}

#[test]
fn magic_chain() {
    check("magic_chain");
}

#[test]
fn misbehave() {
    check("misbehave");
}

#[test]
fn tcas() {
    check("tcas");
}

#[test]
fn stlc() {
    check("stlc");
}

#[test]
fn systemf() {
    check("systemf");
}

#[test]
fn every_target_has_a_test_here() {
    let here = [
        "sorted_insert",
        "bst_insert",
        "bst_valid",
        "graph_sink",
        "graph_sink_dependent",
        "ifc",
        "xml_doc",
        "lang",
        "expr_simplify",
        "magic_chain",
        "misbehave",
        "tcas",
        "stlc",
        "systemf",
        "ord_insert",
        "up_down_seq",
        "n_up_seqs",
        "delete",
        "stack",
        "matrix_mult",
        "det_tri_matrix",
        "balanced_tree",
        "binomial_tree_heap",
        "avl_insert",
        "lru_cache",
        "undo_buffer",
        "kv_store",
        "kv_store_concurrent",
    ];
    for t in targets() {
        assert!(here.contains(&t.name), "target {} has no #[test]", t.name);
    }
}

/// `cargo fuzz run <target> corpora/<target>/corpus` needs the folder to exist, and git keeps
/// no empty folders: every target has a checked-in corpus with at least one tape.
#[test]
fn every_target_has_a_checked_in_corpus() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpora");
    for t in targets() {
        let dir = root.join(t.name).join("corpus");
        let tapes = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .filter_map(Result::ok)
            .filter(|e| e.path().is_file())
            .count();
        assert!(tapes > 0, "{} holds no tape", dir.display());
        // The current layout: its marker, and no file that every save would rewrite.
        let format = std::fs::read_to_string(root.join(t.name).join("FORMAT")).unwrap();
        assert_eq!(format, tapefuzz::corpus::FORMAT, "{}", t.name);
        assert!(!root.join(t.name).join("MANIFEST").exists(), "{}", t.name);
    }
}
