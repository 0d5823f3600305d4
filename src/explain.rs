//! Explanations: which choices produced which part of a value, as an indented span tree.
//! For one part of a value (a path such as `.1[0].x`) and the choices it depends on, see
//! [`crate::provenance`].

use crate::tape::{Recording, Span};
use std::fmt::Write;

/// Renders a recording as a tree: each span with its label and choice range, and each
/// choice as `#position label index/max` (`forced` marked) under the innermost span holding it.
pub fn span_tree(rec: &Recording) -> String {
    let label_of = |pos: usize| {
        rec.labels
            .get(pos)
            .map_or_else(|| "?".to_string(), |l| l.name().to_string())
    };
    let mut out = String::new();
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); rec.spans.len()];
    let mut roots = Vec::new();
    for (i, s) in rec.spans.iter().enumerate() {
        match s.parent {
            Some(p) => children[p].push(i),
            None => roots.push(i),
        }
    }
    walk(
        rec,
        &roots,
        &children,
        0,
        rec.choices.len(),
        0,
        &mut out,
        &label_of,
    );
    out
}

#[allow(clippy::too_many_arguments)]
fn walk(
    rec: &Recording,
    spans: &[usize],
    children: &[Vec<usize>],
    start: usize,
    end: usize,
    depth: usize,
    out: &mut String,
    label_of: &impl Fn(usize) -> String,
) {
    let mut pos = start;
    let mut next = spans.iter().peekable();
    while pos < end || next.peek().is_some() {
        if let Some(&&k) = next.peek() {
            let s: Span = rec.spans[k];
            if s.start <= pos {
                next.next();
                let _ = writeln!(
                    out,
                    "{:indent$}{} [{}..{})",
                    "",
                    s.label.name(),
                    s.start,
                    s.end,
                    indent = depth * 2
                );
                walk(
                    rec,
                    &children[k],
                    children,
                    s.start,
                    s.end,
                    depth + 1,
                    out,
                    label_of,
                );
                pos = pos.max(s.end);
                continue;
            }
        }
        if pos >= end {
            break;
        }
        let c = &rec.choices[pos];
        let _ = writeln!(
            out,
            "{:indent$}#{pos} {} {}/{}{}",
            "",
            label_of(pos),
            c.index,
            c.max,
            if c.forced { " forced" } else { "" },
            indent = depth * 2
        );
        pos += 1;
    }
}
