//! Replacing a span by its simplest choices.

use super::super::Shrinker;
use super::zeroed;

/// Sets every unforced choice of a span to index 0, outer spans first: a list emptied, a
/// subtree turned into the simplest leaf, a field made simplest. When the zeros change the
/// span's shape, the shape they recorded is spliced back in with the rest of the tape kept
/// ([`Shrinker::replace_span`]), so a subtree can become a leaf in the middle of a tree.
pub(in crate::shrink) fn zero_spans(s: &mut Shrinker<'_>) {
    let mut k = 0;
    while k < s.spans().len() && !s.stopped() {
        let span = s.spans()[k];
        if !span.is_empty() && !s.trivial(span) {
            let zeros = zeroed(&s.choices()[span.start..span.end]);
            s.replace_span(k, span, &zeros);
        }
        k += 1;
    }
}
