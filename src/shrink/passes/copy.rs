//! Copying a span's contents over another span with its label.

use super::super::{Shrinker, shortlex_cmp, shortlex_less};
use crate::tape::{Choice, Span};

/// Copies the contents of a span over a larger span with the same label and depth: two parts
/// that must be equal only in meaning (`0 + 7` and `-(-7)`) become equal on the tape, where
/// the passes over duplicates can shrink them together.
pub(in crate::shrink) fn copy_spans(s: &mut Shrinker<'_>) {
    let mut g = 0;
    loop {
        let groups = s.same_label_groups();
        if g >= groups.len() || s.stopped() {
            return;
        }
        if !s.copy_within(&groups[g]) {
            g += 1;
        }
    }
}

impl Shrinker<'_> {
    /// Copies each member's contents over each larger member of `group`, smaller sources
    /// first; true when one was accepted.
    fn copy_within(&mut self, group: &[usize]) -> bool {
        let spans: Vec<Span> = group.iter().map(|&k| self.spans()[k]).collect();
        let all: Vec<Vec<Choice>> = spans
            .iter()
            .map(|s| self.choices()[s.start..s.end].to_vec())
            .collect();
        let mut sources: Vec<usize> = (0..spans.len())
            // A lone zero (a collection's terminator) would only cut a collection short.
            .filter(|&j| !(all[j].len() == 1 && all[j][0].index == 0))
            .collect();
        sources.sort_by(|&x, &y| shortlex_cmp(&all[x], &all[y]));
        for (i, target) in spans.iter().enumerate() {
            for &j in &sources {
                if !shortlex_less(&all[j], &all[i]) {
                    break;
                }
                if self.replace_span(group[i], *target, &all[j]) {
                    return true;
                }
            }
        }
        false
    }
}
