//! The registry of targets.

use std::path::PathBuf;
use tapefuzz::property::{Property, Test};

/// A target: a name, a generator and a property (with planted bugs to enable by name).
pub struct Target {
    /// The target's name (also its corpus folder).
    pub name: &'static str,
    /// One line on what it tests.
    pub description: &'static str,
    /// Planted bugs: name and one line each.
    pub bugs: &'static [(&'static str, &'static str)],
    /// The property is false by design even without a planted bug (a demonstration that a
    /// search finds what random testing misses): `run --all` reports a failure as expected,
    /// saves nothing for it and does not fail the job on it.
    pub false_by_design: Option<&'static str>,
    /// Random generation hardly ever makes a valid value (the target measures how well a
    /// search finds valid ones, RLCheck's benchmarks): a run with no valid test case warns
    /// instead of failing its health check ([`tapefuzz::engine::Config::fail_without_valid`]).
    pub rarely_valid: Option<&'static str>,
    build: fn(Option<&str>) -> Box<dyn Test>,
}

impl Target {
    /// The target's test with `bug` planted (`None`: the correct version). An unknown bug
    /// name is an error naming the valid ones.
    pub fn test(&self, bug: Option<&str>) -> Result<Box<dyn Test>, String> {
        if let Some(b) = bug
            && !self.bugs.iter().any(|(n, _)| *n == b)
        {
            return Err(format!(
                "unknown bug `{b}` for target `{}` (valid: {})",
                self.name,
                if self.bugs.is_empty() {
                    "none".to_string()
                } else {
                    self.bug_names().join(", ")
                }
            ));
        }
        Ok((self.build)(bug))
    }

    /// Names of the planted bugs.
    pub fn bug_names(&self) -> Vec<&'static str> {
        self.bugs.iter().map(|(n, _)| *n).collect()
    }
}

/// The planted bugs of BST insertion (`bst_insert`, `bst_valid`).
const BST_BUGS: &[(&str, &str)] = &[
    (
        "duplicate",
        "inserting a key already present adds a second node",
    ),
    (
        "lose_right",
        "inserting into the left subtree drops the right subtree",
    ),
    (
        "wrong_side",
        "below the root, a larger key goes left when the right is empty",
    ),
    (
        "crowded",
        "inserting into a tree of 8 or more keys drops the smallest key",
    ),
];

/// Every target, in a fixed order.
pub fn targets() -> Vec<Target> {
    vec![
        Target {
            name: "sorted_insert",
            description: "insert into a non-decreasing list keeps it sorted (ProSyT ord_insert)",
            bugs: &[(
                "swapped",
                "for I <= X returns [X, I | Xs] instead of [I, X | Xs]",
            )],
            rarely_valid: None,
            build: crate::sorted_insert::test,
            false_by_design: None,
        },
        Target {
            name: "bst_insert",
            description: "insert into a strict BST keeps the invariant and the keys (RLCheck BST generator, invariant checked as drawn)",
            bugs: BST_BUGS,
            rarely_valid: None,
            build: crate::bst::test,
            false_by_design: None,
        },
        Target {
            name: "bst_valid",
            description: "random trees, valid only when strict BSTs; inserting any key keeps them so (RLCheck, rl)",
            bugs: BST_BUGS,
            rarely_valid: None,
            build: crate::bst::valid_test,
            false_by_design: None,
        },
        Target {
            name: "graph_sink",
            description: "longest shortest path to the sink of a 42-vertex graph is < 21 (targeted PBT)",
            bugs: &[("threshold5", "the property claims the distance is < 5")],
            rarely_valid: None,
            build: crate::graph_sink::test,
            false_by_design: Some(
                "a graph whose sink is 21 steps away exists: sa finds one, random testing about once in 100 runs of 100,000 tests",
            ),
        },
        Target {
            name: "graph_sink_dependent",
            description: "graph_sink with the vertex count drawn first, 2..=42 (paper's graph_duplicated_edges)",
            bugs: &[("threshold5", "the property claims the distance is < 5")],
            rarely_valid: None,
            build: crate::graph_sink::dependent_test,
            false_by_design: Some(
                "a graph whose sink is 21 steps away exists: sa finds one, random testing about once in 100 runs of 100,000 tests",
            ),
        },
        Target {
            name: "ifc",
            description: "an information-flow stack machine is noninterferent (EENI, targeted PBT)",
            bugs: &[
                ("add", "Add labels its result low"),
                ("push", "Push ignores the immediate's level"),
                ("load", "Load ignores the address's level"),
                (
                    "store_no_check",
                    "Store skips the no-sensitive-upgrade check",
                ),
                (
                    "store_no_taint",
                    "Store does not taint the value with the address's level",
                ),
                ("store_both", "both store bugs"),
            ],
            rarely_valid: None,
            build: crate::ifc::test,
            false_by_design: None,
        },
        Target {
            name: "expr_simplify",
            description: "simplifying an arithmetic expression keeps its value",
            bugs: &[("factor_swap", "a*b - a*c is factored as a*(c - b)")],
            rarely_valid: None,
            build: crate::expr::test,
            false_by_design: None,
        },
        Target {
            name: "xml_doc",
            description: "random XML-like build files, valid only under a schema; the build plan runs dependencies first (RLCheck's Ant, rl)",
            bugs: &[(
                "chain2",
                "the default target's dependencies are never run (needs a valid dependency)",
            )],
            rarely_valid: Some(
                "a random build file is hardly ever valid under the schema: rl learns to make valid ones",
            ),
            build: crate::xml::test,
            false_by_design: None,
        },
        Target {
            name: "lang",
            description: "random programs, valid only when well-scoped and well-typed; constant propagation keeps what they print (RLCheck's JavaScript, rl)",
            bugs: &[(
                "shadow",
                "a block's `let` leaks its constant over the outer variable it shadowed",
            )],
            rarely_valid: Some(
                "a random program is hardly ever well-scoped and well-typed: rl learns to make valid ones",
            ),
            build: crate::lang::test,
            false_by_design: None,
        },
        Target {
            name: "magic_chain",
            description: "a packet handler behind a 4-record handshake accepts no more records than it got (greybox)",
            bugs: &[(
                "magic",
                "after the handshake T, A, P, E the handler accepts one record too many",
            )],
            rarely_valid: None,
            build: crate::magic::test,
            false_by_design: None,
        },
        Target {
            name: "tcas",
            description: "the Siemens suite's TCAS: each faulty version v1..v41 gives the original's advisory (paper 003 §5.1)",
            bugs: crate::tcas::BUGS,
            rarely_valid: None,
            build: crate::tcas::test,
            false_by_design: None,
        },
        Target {
            name: "stlc",
            description: "closed well-typed lambda terms (rejected early otherwise); reduction preserves types (ETNA STLC)",
            bugs: crate::stlc::BUGS,
            rarely_valid: None,
            build: crate::stlc::test,
            false_by_design: None,
        },
        Target {
            name: "systemf",
            description: "closed well-typed System F terms (rejected early otherwise); each mutant's small steps and parallel normal form equal the original's (Goldstein et al. 2021, paper 003 §5.2)",
            bugs: crate::systemf::BUGS,
            rarely_valid: None,
            build: crate::systemf::test,
            false_by_design: None,
        },
        Target {
            name: "ord_insert",
            description: crate::prosyt::lists::ORD_INSERT.description,
            bugs: crate::prosyt::lists::ORD_INSERT.bugs,
            rarely_valid: None,
            build: crate::prosyt::target::ord_insert,
            false_by_design: None,
        },
        Target {
            name: "up_down_seq",
            description: crate::prosyt::lists::UP_DOWN_SEQ.description,
            bugs: crate::prosyt::lists::UP_DOWN_SEQ.bugs,
            rarely_valid: None,
            build: crate::prosyt::target::up_down_seq,
            false_by_design: None,
        },
        Target {
            name: "n_up_seqs",
            description: crate::prosyt::lists::N_UP_SEQS.description,
            bugs: crate::prosyt::lists::N_UP_SEQS.bugs,
            rarely_valid: None,
            build: crate::prosyt::target::n_up_seqs,
            false_by_design: None,
        },
        Target {
            name: "delete",
            description: crate::prosyt::lists::DELETE.description,
            bugs: crate::prosyt::lists::DELETE.bugs,
            rarely_valid: Some(
                "l's length is d's plus r's in about 1 random skeleton in 50 (5 valid in 256 tests on average, none on about 1 seed in 200): `--strategy constrain` finds and reuses them",
            ),
            build: crate::prosyt::target::delete,
            false_by_design: None,
        },
        Target {
            name: "stack",
            description: crate::prosyt::lists::STACK.description,
            bugs: crate::prosyt::lists::STACK.bugs,
            rarely_valid: None,
            build: crate::prosyt::target::stack,
            false_by_design: None,
        },
        Target {
            name: "matrix_mult",
            description: crate::prosyt::matrices::MATRIX_MULT.description,
            bugs: crate::prosyt::matrices::MATRIX_MULT.bugs,
            rarely_valid: Some(
                "two rectangular matrices of matching sizes are a rare skeleton: `--strategy constrain` finds and reuses them",
            ),
            build: crate::prosyt::target::matrix_mult,
            false_by_design: None,
        },
        Target {
            name: "det_tri_matrix",
            description: crate::prosyt::matrices::DET_TRI_MATRIX.description,
            bugs: crate::prosyt::matrices::DET_TRI_MATRIX.bugs,
            rarely_valid: Some(
                "its filter constrains the shape, which the skeleton search rarely meets (see BENCHMARKS.md, ProSyT)",
            ),
            build: crate::prosyt::target::det_tri_matrix,
            false_by_design: None,
        },
        Target {
            name: "balanced_tree",
            description: crate::prosyt::trees::BALANCED_TREE.description,
            bugs: crate::prosyt::trees::BALANCED_TREE.bugs,
            rarely_valid: Some(
                "its filter constrains the shape, which the skeleton search rarely meets (see BENCHMARKS.md, ProSyT)",
            ),
            build: crate::prosyt::target::balanced_tree,
            false_by_design: None,
        },
        Target {
            name: "binomial_tree_heap",
            description: crate::prosyt::trees::BINOMIAL_TREE_HEAP.description,
            bugs: crate::prosyt::trees::BINOMIAL_TREE_HEAP.bugs,
            rarely_valid: Some(
                "its filter constrains the shape, which the skeleton search rarely meets (see BENCHMARKS.md, ProSyT)",
            ),
            build: crate::prosyt::target::binomial_tree_heap,
            false_by_design: None,
        },
        Target {
            name: "avl_insert",
            description: crate::prosyt::trees::AVL_INSERT.description,
            bugs: crate::prosyt::trees::AVL_INSERT.bugs,
            rarely_valid: Some(
                "its filter constrains the shape, which the skeleton search rarely meets (see BENCHMARKS.md, ProSyT)",
            ),
            build: crate::prosyt::target::avl_insert,
            false_by_design: None,
        },
        Target {
            name: "lru_cache",
            description: "an LRU cache of capacity 2 against a model, driven by puts and gets (stateful)",
            bugs: crate::stateful::lru_cache::BUGS,
            rarely_valid: None,
            build: crate::stateful::lru_cache::test,
            false_by_design: None,
        },
        Target {
            name: "undo_buffer",
            description: "an undoable text buffer (insert, delete, undo, redo) against a model (stateful)",
            bugs: crate::stateful::undo_buffer::BUGS,
            rarely_valid: None,
            build: crate::stateful::undo_buffer::test,
            false_by_design: None,
        },
        Target {
            name: "kv_store",
            description: "a key-value store with snapshots restored by reference, against a model (stateful)",
            bugs: crate::stateful::kv_store::BUGS,
            rarely_valid: None,
            build: crate::stateful::kv_store::test,
            false_by_design: None,
        },
        Target {
            name: "kv_store_concurrent",
            description: "the key-value store with two threads at once, checked for linearizability (stateful, concurrent)",
            bugs: crate::stateful::kv_store::CONCURRENT_BUGS,
            rarely_valid: None,
            build: crate::stateful::kv_store::concurrent_test,
            false_by_design: None,
        },
        Target {
            name: "misbehave",
            description: "a request handler; its bugs kill the process or never return on a request of 1000 or more",
            bugs: &[
                ("abort", "calls std::process::abort()"),
                (
                    "stack_overflow",
                    "recurses without end: the stack overflows",
                ),
                (
                    "oom",
                    "allocates 64 TiB: the allocation fails and the process aborts",
                ),
                ("hang", "loops forever (give it TAPEFUZZ_TIMEOUT_MS)"),
            ],
            rarely_valid: None,
            build: crate::misbehave::test,
            false_by_design: None,
        },
    ]
}

/// The test behind a fuzz target: target `name` with the planted bug named by the
/// environment variable `TAPEFUZZ_BUG` (read once, at start-up). An unknown target or bug
/// stops the process with a one-line error and exit status 2.
pub fn fuzz_test(name: &str) -> Box<dyn Test> {
    let bug = std::env::var("TAPEFUZZ_BUG").ok().filter(|b| !b.is_empty());
    match find(name).and_then(|t| t.test(bug.as_deref())) {
        Ok(test) => test,
        Err(e) => {
            eprintln!("tapefuzz: TAPEFUZZ_BUG: {e}");
            std::process::exit(2);
        }
    }
}

/// The target called `name`, or an error naming the valid ones.
pub fn find(name: &str) -> Result<Target, String> {
    let all = targets();
    let names: Vec<&str> = all.iter().map(|t| t.name).collect();
    let joined = names.join(", ");
    all.into_iter()
        .find(|t| t.name == name)
        .ok_or_else(|| format!("unknown target `{name}` (valid: {joined})"))
}

/// Where target corpora live: `$TAPEFUZZ_CORPORA`, else the workspace's `corpora/`.
pub fn corpora_dir() -> PathBuf {
    std::env::var_os("TAPEFUZZ_CORPORA")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let harnesses = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
            harnesses.parent().unwrap_or(harnesses).join("corpora")
        })
}

/// The property runner for a target: its corpus under [`corpora_dir`], and a replay command
/// for the CLI. Fails on a malformed `TAPEFUZZ_*` variable.
pub fn property_for(target: &Target, bug: Option<&str>) -> Result<Property, String> {
    let bug_flag = bug.map(|b| format!(" --bug {b}")).unwrap_or_default();
    let p = Property::try_new(target.name)
        .map_err(|e| e.to_string())?
        .corpora(corpora_dir())
        .replay_command(format!(
            "cargo run --release -p harnesses -- replay {}{bug_flag} {{file}}",
            target.name
        ));
    let mut config = p.config_ref().clone();
    config.fail_without_valid = target.rarely_valid.is_none();
    Ok(p.config(config))
}
