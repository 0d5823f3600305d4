//! The explanation graph as a standalone SVG, laid out here: one column per rank (the part,
//! then spans, then choices), boxes stacked in each column, straight arrows between them.

use super::graph::{Graph, Role};
use std::fmt::Write;

const CHAR_W: f64 = 7.2;
const LINE_H: f64 = 16.0;
const PAD: f64 = 8.0;
const GAP_X: f64 = 70.0;
const GAP_Y: f64 = 14.0;
const MARGIN: f64 = 20.0;
/// What the arrows mean, under the graph.
const LEGEND: &str =
    "arrows: solid = made of, dashed = depends on (changes its value), dotted = exists only with";

// XML text is escaped as the JUnit report escapes it (markup, quotes, control characters).
use crate::junit::escape;

pub(crate) fn render(g: &Graph) -> String {
    let (boxes, width, bottom) = layout(g);
    draw(g, &boxes, width, bottom)
}

/// A node's box: x, y, width, height.
type Frame = (f64, f64, f64, f64);

/// Each node's box, the picture's width, and the bottom of the lowest box: one column per
/// rank, a band per node of rank 1 (see below).
fn layout(g: &Graph) -> (Vec<Frame>, f64, f64) {
    let ranks = g.nodes.iter().map(|n| n.rank).max().map_or(0, |r| r + 1);
    let size = |lines: &[String]| {
        let chars = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
        (
            chars as f64 * CHAR_W + 2.0 * PAD,
            lines.len() as f64 * LINE_H + PAD,
        )
    };
    let mut col_w = vec![0.0f64; ranks];
    for n in &g.nodes {
        col_w[n.rank] = col_w[n.rank].max(size(&n.lines).0);
    }
    let mut col_x = vec![MARGIN; ranks];
    for r in 1..ranks {
        col_x[r] = col_x[r - 1] + col_w[r - 1] + GAP_X;
    }
    let width =
        (col_x.last().copied().unwrap_or(MARGIN) + col_w.last().copied().unwrap_or(0.0) + MARGIN)
            .max(LEGEND.len() as f64 * CHAR_W * 0.85 + 2.0 * MARGIN);
    // A tree, laid out in bands: each node of rank 1 gets a band as tall as it or its
    // children stacked, whichever is taller, and sits in the middle of it, its children
    // beside it; the part sits in the middle of everything. Nodes of other ranks (none
    // today) are stacked below.
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); g.nodes.len()];
    let mut has_parent = vec![false; g.nodes.len()];
    for e in &g.edges {
        if g.nodes[e.to].rank == g.nodes[e.from].rank + 1 && !has_parent[e.to] {
            children[e.from].push(e.to);
            has_parent[e.to] = true;
        }
    }
    let sizes: Vec<(f64, f64)> = g.nodes.iter().map(|n| size(&n.lines)).collect();
    let stack = |nodes: &[usize]| -> f64 {
        nodes.iter().map(|&k| sizes[k].1).sum::<f64>()
            + GAP_Y * nodes.len().saturating_sub(1) as f64
    };
    let mut boxes: Vec<Option<(f64, f64, f64, f64)>> = vec![None; g.nodes.len()];
    let mut y = MARGIN;
    for (k, n) in g.nodes.iter().enumerate() {
        if n.rank != 1 {
            continue;
        }
        let band = sizes[k].1.max(stack(&children[k]));
        boxes[k] = Some((
            col_x[1],
            y + (band - sizes[k].1) / 2.0,
            sizes[k].0,
            sizes[k].1,
        ));
        let mut cy = y + (band - stack(&children[k])) / 2.0;
        for &c in &children[k] {
            let r = g.nodes[c].rank;
            boxes[c] = Some((col_x[r], cy, sizes[c].0, sizes[c].1));
            cy += sizes[c].1 + GAP_Y;
        }
        y += band + GAP_Y;
    }
    let body = (y - GAP_Y).max(MARGIN);
    for (k, n) in g.nodes.iter().enumerate() {
        if n.rank == 0 {
            let top = MARGIN + ((body - MARGIN) - sizes[k].1).max(0.0) / 2.0;
            boxes[k] = Some((col_x[0], top, sizes[k].0, sizes[k].1));
        }
    }
    let mut rest_y = body + GAP_Y;
    for (k, n) in g.nodes.iter().enumerate() {
        if boxes[k].is_none() {
            boxes[k] = Some((col_x[n.rank], rest_y, sizes[k].0, sizes[k].1));
            rest_y += sizes[k].1 + GAP_Y;
        }
    }
    let boxes: Vec<(f64, f64, f64, f64)> =
        boxes.into_iter().map(|b| b.unwrap_or_default()).collect();
    let bottom = boxes.iter().map(|b| b.1 + b.3).fold(MARGIN, f64::max);
    (boxes, width, bottom)
}

/// The SVG document of `g` laid out in `boxes`.
fn draw(g: &Graph, boxes: &[Frame], width: f64, bottom: f64) -> String {
    let height = bottom + LINE_H + 2.0 * MARGIN;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"monospace\" font-size=\"12\">"
    );
    out.push_str("  <title>provenance</title>\n");
    out.push_str("  <defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"#444\"/></marker></defs>\n");
    out.push_str("  <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    for e in &g.edges {
        let (x1, y1, w1, h1) = boxes[e.from];
        let (x2, y2, _, h2) = boxes[e.to];
        let dash = match e.label {
            "depends on" => " stroke-dasharray=\"6,3\"",
            "exists with" => " stroke-dasharray=\"2,3\"",
            _ => "",
        };
        let _ = writeln!(
            out,
            "  <line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#444\"{dash} marker-end=\"url(#arrow)\"><title>{}</title></line>",
            x1 + w1,
            y1 + h1 / 2.0,
            x2,
            y2 + h2 / 2.0,
            escape(e.label)
        );
    }
    for (n, &(x, y, w, h)) in g.nodes.iter().zip(boxes) {
        let (fill, stroke) = match n.role {
            Role::Part => ("#fde9c9", " stroke-width=\"2\""),
            Role::Own => ("#dbe9f6", ""),
            Role::Upstream => ("#e4f3dc", ""),
            Role::Choice => ("#f4f4f4", ""),
            Role::Quiet => ("#ffffff", " stroke-dasharray=\"4,2\""),
        };
        let _ = writeln!(
            out,
            "  <rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{h:.1}\" rx=\"4\" fill=\"{fill}\" stroke=\"#333\"{stroke}/>"
        );
        for (k, line) in n.lines.iter().enumerate() {
            let _ = writeln!(
                out,
                "  <text x=\"{:.1}\" y=\"{:.1}\" xml:space=\"preserve\">{}</text>",
                x + PAD,
                y + PAD / 2.0 + LINE_H * (k as f64 + 0.75),
                escape(line)
            );
        }
    }
    let _ = writeln!(
        out,
        "  <text x=\"{MARGIN:.1}\" y=\"{:.1}\" font-size=\"10\" fill=\"#555\">{}</text>",
        bottom + MARGIN + LINE_H / 2.0,
        escape(LEGEND)
    );
    out.push_str("</svg>\n");
    out
}
