//! Spans: the tree structure over the flat choice sequence.

use super::Label;

/// A labelled range `start..end` of choice positions, with the index of its parent span.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    /// What the span is (a list element, a field, a variant).
    pub label: Label,
    /// First choice position inside the span.
    pub start: usize,
    /// One past the last choice position inside the span.
    pub end: usize,
    /// Index of the enclosing span in the tape's span list, if any.
    pub parent: Option<usize>,
    /// Nesting depth (0 for a top-level span).
    pub depth: usize,
}

impl Span {
    /// Number of choices inside the span.
    pub fn len(&self) -> usize {
        self.end - self.start
    }

    /// Whether the span holds no choice.
    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }
}
