//! Trying the simpler indices a generator suggested for its choices ([`crate::tape::Tape::suggest`]):
//! what a generator knows of its values' simplicity that the order of indices does not show
//! (a float's short fraction lies past many long ones), handed over as indices, so the pass
//! itself stays blind to value types.

use super::super::Shrinker;

/// For each choice with suggestions, left to right: tries its simplest index (0), then the
/// suggestions in the order given, and takes
/// the first that still fails; the new best tape brings its own suggestions for that choice,
/// tried the same way, until none fails. A choice whose suggestions all pass is left to the
/// other passes. Costs nothing on a tape without suggestions.
pub(in crate::shrink) fn try_suggested(s: &mut Shrinker<'_>) {
    let mut from = 0;
    while !s.stopped() {
        let Some(at) = (s.best.suggested.iter())
            .map(|&(p, _)| p)
            .filter(|&p| p >= from)
            .min()
        else {
            return;
        };
        // The simplest index first, as `minimize_choices` would try it (a cached run it
        // then repeats for free): the suggestions walk down by halves, a call each, to a
        // value that may not matter at all.
        let simplest = (s.choices().get(at)).is_some_and(|c| !c.forced && c.index > 0)
            && s.consider(&s.with_indices(&[(at, 0)]));
        if simplest {
            from = at + 1;
            continue;
        }
        let tried = s.suggestions(at);
        let improved = tried.into_iter().any(|i| {
            s.choices()
                .get(at)
                .is_some_and(|c| !c.forced && i < c.index)
                && s.consider(&s.with_indices(&[(at, i)]))
        });
        if !improved {
            from = at + 1;
        }
    }
}

impl Shrinker<'_> {
    /// The indices the best tape's generators suggested for position `at`, in the order to
    /// try them.
    pub(super) fn suggestions(&self, at: usize) -> Vec<u64> {
        (self.best.suggested.iter())
            .filter(|&&(p, _)| p == at)
            .map(|&(_, i)| i)
            .collect()
    }
}
