//! The explanation graph both DOT and SVG draw: the part, the spans, the choices, and
//! "made of" / "depends on" edges. Each node has a rank (its distance from the part).

use super::Provenance;
use super::render_text::{change, choice_head, short, show_path, span_head, span_where};

/// What a node is (how it is drawn).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    /// The part explained.
    Part,
    /// Its own span.
    Own,
    /// A span holding upstream choices.
    Upstream,
    /// A choice that changes the part.
    Choice,
    /// Choices with no change seen (a summary node).
    Quiet,
}

pub(crate) struct GNode {
    pub lines: Vec<String>,
    pub rank: usize,
    pub role: Role,
}

pub(crate) struct Edge {
    pub from: usize,
    pub to: usize,
    pub label: &'static str,
}

pub(crate) struct Graph {
    pub nodes: Vec<GNode>,
    pub edges: Vec<Edge>,
}

const W: usize = 40;

impl Graph {
    fn add(&mut self, role: Role, rank: usize, lines: Vec<String>) -> usize {
        self.nodes.push(GNode { lines, rank, role });
        self.nodes.len() - 1
    }

    fn edge(&mut self, from: usize, to: usize, label: &'static str) {
        self.edges.push(Edge { from, to, label });
    }

    pub(crate) fn of(p: &Provenance) -> Graph {
        let mut g = Graph {
            nodes: Vec::new(),
            edges: Vec::new(),
        };
        let part = g.add(
            Role::Part,
            0,
            vec![
                format!("part {}", show_path(&p.path)),
                format!("= {}", short(&p.part, W)),
            ],
        );
        let own_lines = match p.own {
            Some(s) => vec![span_head(&p.spans[s]), "own span".to_string()],
            None => {
                let r = p.own_range();
                vec![
                    format!("whole tape [{}..{})", r.start, r.end),
                    "own span".to_string(),
                ]
            }
        };
        let own = g.add(Role::Own, 1, own_lines);
        g.edge(part, own, "made of");
        let choice_lines = |c: &super::ChoiceNote| {
            let mut l = vec![choice_head(c, p.input_len)];
            if let Some(ch) = change(c, 24) {
                l.push(ch);
            }
            l
        };
        let mut quiet = 0;
        for c in p.own_choices() {
            if c.influence.is_some() {
                let n = g.add(Role::Choice, 2, choice_lines(c));
                g.edge(own, n, "made of");
            } else if !c.forced {
                quiet += 1;
            }
        }
        if quiet > 0 {
            let n = g.add(
                Role::Quiet,
                2,
                vec![
                    format!("{quiet} other choice(s)"),
                    "no change seen".to_string(),
                ],
            );
            g.edge(own, n, "made of");
        }
        let exists = p.existence();
        if !exists.is_empty() {
            let mut list: Vec<String> = exists.iter().map(|c| format!("#{}", c.position)).collect();
            if list.len() > 6 {
                let more = list.len() - 5;
                list.truncate(5);
                list.push(format!("+{more}"));
            }
            let n = g.add(
                Role::Quiet,
                1,
                vec!["exists only with".to_string(), list.join(" ")],
            );
            g.edge(part, n, "exists with");
        }
        for (span, choices) in p.upstream_values() {
            let lines = match span {
                Some(s) => vec![
                    span_head(&p.spans[s]),
                    short(&span_where(&p.spans[s], W), W + 12),
                ],
                None => vec!["(no span)".to_string()],
            };
            let s = g.add(Role::Upstream, 1, lines);
            g.edge(part, s, "depends on");
            for c in choices {
                let n = g.add(Role::Choice, 2, choice_lines(c));
                g.edge(s, n, "made of");
            }
        }
        g
    }
}
