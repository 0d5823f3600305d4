//! `explain`: what a tape makes (value, status, failure, span tree), or where one part of
//! the value came from (its provenance), as text and graphs.

use crate::corpus::write_atomic;
use crate::explain::span_tree;
use crate::property::{Explained, Test};
use crate::provenance::{Provenance, ProvenanceError, explain_path};
use crate::tape::{BytesSource, Recording, Tape};
use std::path::{Path, PathBuf};

pub(crate) fn explain_bytes(test: &dyn Test, bytes: &[u8]) -> (Explained, Recording) {
    let mut src = BytesSource::new(bytes);
    let mut tape = Tape::recording(&mut src);
    let e = test.explain(&mut tape);
    (e, tape.finish())
}

/// The text of `explain`: value, status, failure, choices and the span tree.
pub fn explanation(test: &dyn Test, bytes: &[u8]) -> (Explained, String) {
    let (e, rec) = explain_bytes(test, bytes);
    let mut text = format!(
        "value: {}\nstatus: {}\n",
        e.value.as_deref().unwrap_or("<no value>"),
        e.status.in_words()
    );
    if let Some(m) = &e.message {
        text.push_str(&format!("failure: {m}\n"));
    }
    text.push_str(&format!(
        "choices: {} ({} forced), {} bytes\n",
        rec.choices.len(),
        rec.choices.iter().filter(|c| c.forced).count(),
        bytes.len()
    ));
    text.push_str(&span_tree(&rec));
    (e, text)
}

/// What `explain` is asked about a part: its path and where to write its graph.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartRequest {
    /// The part's path (`None`: the whole tape's span tree).
    pub path: Option<String>,
    /// Where to write the explanation graph in DOT.
    pub dot: Option<PathBuf>,
    /// Where to write the explanation graph as SVG.
    pub svg: Option<PathBuf>,
}

impl PartRequest {
    /// Whether a graph file is asked for.
    pub fn graphs(&self) -> bool {
        self.dot.is_some() || self.svg.is_some()
    }

    /// The text of `explain` for this request: [`explanation`] without a path; with one,
    /// the test case's status and failure, then the part's provenance
    /// ([`Provenance::render_text`]), and the graph written (atomically) to the DOT and SVG
    /// files asked for. Errors: a bad path or one not in the value
    /// ([`ProvenanceError`]), a graph asked for without a path, a file that cannot be
    /// written — each as one line of text.
    pub fn explain(&self, test: &dyn Test, bytes: &[u8]) -> Result<(Explained, String), String> {
        let Some(path) = &self.path else {
            if self.graphs() {
                return Err("a DOT or SVG graph needs the path of a part to explain".into());
            }
            return Ok(explanation(test, bytes));
        };
        let (e, p, text) = part_explanation(test, bytes, path).map_err(|e| e.to_string())?;
        if let Some(f) = &self.dot {
            write_graph(f, &p.render_dot())?;
        }
        if let Some(f) = &self.svg {
            write_graph(f, &p.render_svg())?;
        }
        Ok((e, text))
    }
}

/// Writes a graph file atomically, into a folder that must exist (none is created).
fn write_graph(file: &Path, text: &str) -> Result<(), String> {
    let dir = match file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !dir.is_dir() {
        return Err(format!(
            "cannot write {}: no folder {}",
            file.display(),
            dir.display()
        ));
    }
    let Some(name) = file.file_name() else {
        return Err(format!("cannot write {}: not a file name", file.display()));
    };
    write_atomic(&dir.join(name), text.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", file.display()))
}

/// The text of `explain` for the part at `path`: the test case's status and failure (the
/// property runs once), then the part's provenance ([`explain_path`]).
pub fn part_explanation(
    test: &dyn Test,
    bytes: &[u8],
    path: &str,
) -> Result<(Explained, Provenance, String), ProvenanceError> {
    let p = explain_path(test, bytes, path)?;
    let (e, _) = explain_bytes(test, bytes);
    let mut text = format!("status: {}\n", e.status.in_words());
    if let Some(m) = &e.message {
        text.push_str(&format!("failure: {m}\n"));
    }
    text.push_str(&p.render_text());
    Ok((e, p, text))
}
