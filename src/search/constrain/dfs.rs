//! Depth-first search over skeletons, pruned where they were rejected.

use crate::tape::Recording;

/// Alternatives tried at one choice before the search backs up past it (a wide choice — a
/// concrete 64-bit integer, say — is not searched exhaustively).
pub(crate) const WIDTH: u64 = 64;

/// One choice on the current path: its largest index and the index taken now.
#[derive(Clone, Copy, Debug)]
struct Frame {
    max: u64,
    index: u64,
}

/// Lexicographic depth-first search over the unforced choices of skeletons: the first tape
/// is the simplest (all zeros); after each run, the deepest choice before where the run
/// ended (its rejection, or the end of its skeleton) that has an untried index takes the
/// next one, and everything after it is drawn at its simplest again. A rejection at choice
/// `p` prunes every tape that shares the choices before `p`, so a generator that rejects a
/// part as soon as it is built (ProSyT's coroutining) backs up to the choice that made it.
#[derive(Debug, Default)]
pub(crate) struct Dfs {
    path: Vec<Frame>,
    done: bool,
}

impl Dfs {
    /// The prefix to run next, `None` once every path (within [`WIDTH`]) has run.
    pub(crate) fn next(&self) -> Option<Vec<u64>> {
        (!self.done).then(|| self.path.iter().map(|f| f.index).collect())
    }

    /// The run of the last prefix: its choices up to `end` (unforced ones are the path).
    pub(crate) fn ran(&mut self, rec: &Recording, end: usize) {
        let known = self.path.len();
        let unforced = rec.choices[..end.min(rec.choices.len())]
            .iter()
            .filter(|c| !c.forced);
        // The choices past the prefix join the path; a run that ended before the prefix
        // did (a generator that drew less on it) cuts the path there.
        let mut n = 0;
        for c in unforced {
            if n >= known {
                self.path.push(Frame {
                    max: c.max,
                    index: c.index,
                });
            } else {
                self.path[n].max = c.max;
            }
            n += 1;
        }
        self.path.truncate(n);
        // Back up to the deepest choice with an untried index.
        while let Some(f) = self.path.last_mut() {
            if f.index < f.max && f.index + 1 < WIDTH {
                f.index += 1;
                return;
            }
            self.path.pop();
        }
        self.done = true;
    }
}
