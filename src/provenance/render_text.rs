//! The explanation as text.

use super::{Change, ChoiceNote, Provenance, SpanNote};
use std::fmt::Write;

/// A path as shown: `(whole value)` for the empty one.
pub(crate) fn show_path(p: &super::PartPath) -> String {
    if p.steps.is_empty() {
        "(whole value)".to_string()
    } else {
        p.to_string()
    }
}

/// `s` cut to at most `n` characters (`...` marks a cut), on one line.
pub(crate) fn short(s: &str, n: usize) -> String {
    let one: String = s.chars().map(|c| if c == '\n' { ' ' } else { c }).collect();
    if one.chars().count() <= n {
        one
    } else {
        one.chars()
            .take(n.saturating_sub(3))
            .chain("...".chars())
            .collect()
    }
}

/// `label [start..end)`.
pub(crate) fn span_head(s: &SpanNote) -> String {
    format!("{} [{}..{})", s.label, s.start, s.end)
}

/// Where a span's part is in the value: `at .1[0] = (3, 1)`, `within .1 = …`, or `within
/// (whole value)`.
pub(crate) fn span_where(s: &SpanNote, n: usize) -> String {
    let value = match s.value.as_deref() {
        Some(v) if s.exact || !s.path.steps.is_empty() => format!(" = {}", short(v, n)),
        _ => String::new(),
    };
    let at = if s.exact { "at" } else { "within" };
    format!("{at} {}{value}", show_path(&s.path))
}

/// `#2 int 6/10 bytes[2..3)` (`forced`, or `past the end` for bytes read as zeros).
pub(crate) fn choice_head(c: &ChoiceNote, input_len: usize) -> String {
    let bytes = match &c.bytes {
        None if c.forced => " forced".to_string(),
        None => String::new(),
        Some(r) if r.start >= input_len => format!(" bytes[{}..{}) past the end", r.start, r.end),
        Some(r) => format!(" bytes[{}..{})", r.start, r.end),
    };
    format!("#{} {} {}/{}{bytes}", c.position, c.label, c.index, c.max)
}

/// How changing the choice changed the part: `6->0: 0`, `1->0: gone`.
pub(crate) fn change(c: &ChoiceNote, n: usize) -> Option<String> {
    let i = c.influence.as_ref()?;
    Some(match &i.change {
        Change::To(t) => format!("{}->{}: {}", c.index, i.index, short(t, n)),
        Change::Gone => format!("{}->{}: gone", c.index, i.index),
    })
}

pub(crate) fn render(p: &Provenance) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "part {} = {}", show_path(&p.path), p.part);
    let _ = writeln!(out, "value: {}", p.value);
    if !p.path.steps.is_empty() {
        let steps: Vec<String> = p
            .path
            .steps
            .iter()
            .zip(&p.located)
            .map(|(step, span)| match span {
                Some(s) => format!("{step} {}", span_head(&p.spans[*s])),
                None => format!("{step} (no span of its own)"),
            })
            .collect();
        let _ = writeln!(out, "on the tape: {}", steps.join(", "));
    }
    if p.untried > 0 {
        let _ = writeln!(
            out,
            "not tried: {} choice(s) far from the part (the tape is long)",
            p.untried
        );
    }
    let own = p.own_range();
    match p.own {
        Some(s) => {
            let how = if p.inferred {
                " (inferred: the smallest span holding the choices that change it)"
            } else {
                ""
            };
            let _ = writeln!(out, "own span: {}{how}", span_head(&p.spans[s]));
        }
        None => {
            let _ = writeln!(
                out,
                "own span: none, the whole tape [{}..{})",
                own.start, own.end
            );
        }
    }
    for c in p.own_choices() {
        let note = match change(c, 60) {
            Some(ch) => format!(" changes it: {ch}"),
            None if c.forced => String::new(),
            None => " (no change seen)".to_string(),
        };
        let _ = writeln!(out, "  {}{note}", choice_head(c, p.input_len));
    }
    let up = p.upstream_values();
    if up.is_empty() {
        let _ = writeln!(
            out,
            "upstream: none (no choice outside the own span changes its value)"
        );
    } else {
        let _ = writeln!(
            out,
            "upstream (choices outside the own span that change its value):"
        );
    }
    for (span, choices) in up {
        match span {
            Some(s) => {
                let s = &p.spans[s];
                let _ = writeln!(out, "  {} {}", span_head(s), span_where(s, 60));
            }
            None => {
                let _ = writeln!(out, "  (no span)");
            }
        }
        for c in choices {
            let _ = writeln!(
                out,
                "    {} changes it: {}",
                choice_head(c, p.input_len),
                change(c, 60).unwrap_or_default()
            );
        }
    }
    let exists = p.existence();
    if !exists.is_empty() {
        let _ = writeln!(
            out,
            "exists only with (changing one of these removes the part):"
        );
        for c in exists {
            let span = c
                .span
                .map(|s| format!(" in {}", span_head(&p.spans[s])))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "  {}{span}: {}",
                choice_head(c, p.input_len),
                change(c, 60).unwrap_or_default()
            );
        }
    }
    out
}
