//! The explanation graph in Graphviz's DOT language.

use super::graph::{Graph, Role};
use std::fmt::Write;

/// A DOT string literal's content: quotes and backslashes escaped.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out
}

pub(crate) fn render(g: &Graph) -> String {
    let mut out = String::from(
        "digraph provenance {\n  rankdir=LR;\n  node [shape=box, fontname=\"monospace\", fontsize=10];\n",
    );
    for (i, n) in g.nodes.iter().enumerate() {
        let label: Vec<String> = n.lines.iter().map(|l| escape(l)).collect();
        let style = match n.role {
            Role::Part => ", style=\"bold,filled\", fillcolor=\"#fde9c9\"",
            Role::Own => ", style=filled, fillcolor=\"#dbe9f6\"",
            Role::Upstream => ", style=filled, fillcolor=\"#e4f3dc\"",
            Role::Choice => "",
            Role::Quiet => ", style=dashed, fontcolor=\"#777777\"",
        };
        let _ = writeln!(out, "  n{i} [label=\"{}\"{style}];", label.join("\\n"));
    }
    for e in &g.edges {
        let _ = writeln!(out, "  n{} -> n{} [label=\"{}\"];", e.from, e.to, e.label);
    }
    out.push_str("}\n");
    out
}
