//! Where a part of the value is on the tape: the spans that correspond to the steps of a
//! [`PartPath`], and the path of the part each span made.
//!
//! Product generators (tuples, `#[derive(Generate)]` structs and variants) draw each field
//! in a [`Kind::Field`] span, collections each element in a [`Kind::Element`] span (whose
//! last one holds only the "no more" coin). So a tuple's or a struct's `N`th field is the
//! `N`th field span directly below the part's span (spans of other kinds, a variant or a
//! combinator's, are looked through), and a list's `i`th element is its `i`th element span.
//! A step is located only when the counts agree with the value (as many field spans as
//! fields, as many element spans as elements); a set or a map is in sorted order, not draw
//! order, so its elements are not located; an unlocated step leaves the part at the span of
//! the longest located prefix.

use super::debug_tree::{DebugTree, Node, Shape};
use super::path::{PartPath, PathStep};
use crate::tape::{Kind, Recording};

/// The spans directly below `scope` (the whole tape for `None`) of kind `kind`: no field or
/// element span in between. In tape order.
pub(crate) fn layer(rec: &Recording, scope: Option<usize>, kind: Kind) -> Vec<usize> {
    let mut out = Vec::new();
    for (k, s) in rec.spans.iter().enumerate() {
        if s.label.kind() != kind || Some(k) == scope {
            continue;
        }
        // Walk up to the scope; fail on a field or element span in between.
        let mut up = s.parent;
        let mut ok = true;
        loop {
            if up == scope {
                break;
            }
            match up {
                None => {
                    ok = false;
                    break;
                }
                Some(p) => {
                    if matches!(rec.spans[p].label.kind(), Kind::Field | Kind::Element) {
                        ok = false;
                        break;
                    }
                    up = rec.spans[p].parent;
                }
            }
        }
        if ok {
            out.push(k);
        }
    }
    out
}

/// The element spans below `scope` that hold an element: not the last one, whose only
/// choice is the "no more" coin.
pub(crate) fn elements(rec: &Recording, scope: Option<usize>) -> Vec<usize> {
    layer(rec, scope, Kind::Element)
        .into_iter()
        .filter(|&k| {
            let s = rec.spans[k];
            !(s.len() == 1 && rec.choices[s.start].index == 0)
        })
        .collect()
}

/// The span (if located) for the part one `step` below `node` at `scope`, when the counts
/// agree. `pick` chooses among element spans when they do not (`None`: not located).
pub(crate) fn step_span(
    rec: &Recording,
    node: &Node,
    scope: Option<usize>,
    step: &PathStep,
    pick: &dyn Fn(&[usize], usize) -> Option<usize>,
) -> Option<usize> {
    match (&node.shape, step) {
        (Shape::Tuple { items, .. }, PathStep::Position(n)) => {
            let fields = layer(rec, scope, Kind::Field);
            (fields.len() == items.len()).then(|| fields.get(*n).copied())?
        }
        (Shape::Struct { fields: named, .. }, PathStep::Field(name)) => {
            let fields = layer(rec, scope, Kind::Field);
            let n = named.iter().position(|(f, _)| f == name)?;
            (fields.len() == named.len()).then(|| fields.get(n).copied())?
        }
        (
            Shape::List {
                bracket: '[',
                items,
            },
            PathStep::Index(i),
        ) => {
            let els = elements(rec, scope);
            if els.len() == items.len() {
                els.get(*i).copied()
            } else {
                pick(&els, *i)
            }
        }
        _ => None,
    }
}

/// The span of each step of `path` (`None` where a step is not located; every later step
/// is then not located either).
pub(crate) fn path_spans(
    rec: &Recording,
    tree: &DebugTree,
    path: &PartPath,
    pick: &dyn Fn(&[usize], usize) -> Option<usize>,
) -> Vec<Option<usize>> {
    let mut out = Vec::new();
    let mut node = &tree.root;
    let mut scope = None;
    let mut lost = false;
    for (k, step) in path.steps.iter().enumerate() {
        let span = if lost {
            None
        } else {
            step_span(rec, node, scope, step, pick)
        };
        match span {
            Some(s) => scope = Some(s),
            None => lost = true,
        }
        out.push(span);
        let prefix = PartPath {
            steps: path.steps[..=k].to_vec(),
        };
        match tree.select(&prefix) {
            Ok(n) => node = n,
            Err(_) => lost = true,
        }
    }
    out
}

/// For every span, the path of the part it made when located exactly (`Some((path,
/// true))`), else the path of the nearest located enclosing part (`Some((path, false))`;
/// the whole value's path is empty).
pub(crate) fn span_paths(rec: &Recording, tree: &DebugTree) -> Vec<(PartPath, bool)> {
    let mut exact: Vec<Option<PartPath>> = vec![None; rec.spans.len()];
    assign(rec, &tree.root, None, &PartPath::root(), &mut exact);
    (0..rec.spans.len())
        .map(|k| {
            if let Some(p) = &exact[k] {
                return (p.clone(), true);
            }
            let mut up = rec.spans[k].parent;
            while let Some(p) = up {
                if let Some(path) = &exact[p] {
                    return (path.clone(), false);
                }
                up = rec.spans[p].parent;
            }
            (PartPath::root(), false)
        })
        .collect()
}

fn assign(
    rec: &Recording,
    node: &Node,
    scope: Option<usize>,
    path: &PartPath,
    exact: &mut [Option<PartPath>],
) {
    let children: Vec<(PathStep, &Node)> = match &node.shape {
        Shape::Tuple { items, .. } => items
            .iter()
            .enumerate()
            .map(|(i, n)| (PathStep::Position(i), n))
            .collect(),
        Shape::Struct { fields, .. } => fields
            .iter()
            .map(|(f, n)| (PathStep::Field(f.clone()), n))
            .collect(),
        Shape::List {
            bracket: '[',
            items,
        } => items
            .iter()
            .enumerate()
            .map(|(i, n)| (PathStep::Index(i), n))
            .collect(),
        _ => return,
    };
    for (step, child) in children {
        if let Some(s) = step_span(rec, node, scope, &step, &|_, _| None) {
            let p = path.child(step);
            exact[s] = Some(p.clone());
            assign(rec, child, Some(s), &p, exact);
        }
    }
}
