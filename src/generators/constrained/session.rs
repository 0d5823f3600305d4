//! The symbolic session: the store and the filter's decisions while a constrained generator
//! runs its skeleton and its filter on open integers.
//!
//! A thread-local, because the filter is the user's plain function: its comparisons on
//! [`super::Open`] values (`PartialOrd`, `PartialEq`) have nowhere else to ask.

use super::store::{Store, ZERO};
use std::cell::{Cell, RefCell};

/// A relation between two open integers a comparison may settle on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rel {
    Lt,
    Le,
    Eq,
    Ge,
    Gt,
}

/// One decision of the filter: which of `count` feasible outcomes was taken, at which
/// comparison of the run.
#[derive(Clone, Copy, Debug)]
struct Decision {
    taken: u8,
    count: u8,
    comparison: usize,
}

/// The outcomes of one comparison that the store allowed (indices into its outcomes, the
/// first `count`): the same on every run that reaches it by the same decisions.
#[derive(Clone, Copy, Debug)]
struct Feasible {
    outcomes: [u8; 3],
    count: u8,
    /// The comparison it answered (its operands and how many outcomes it had): a filter
    /// that is not deterministic may reach another one here, which is then decided anew.
    of: ((u32, i64), (u32, i64), usize),
    /// The relation the current path took here, and the store's mark just before it was
    /// added: a run after a backtrack resumes from there instead of from the base.
    taken: Rel,
    mark: usize,
}

/// What stopped symbolic execution: an operation outside difference constraints.
pub(crate) type Abort = &'static str;

/// The state of one constrained value being built. `Default` is an empty placeholder that
/// allocates nothing (what the generator holds while its session is lent out: [`lend`]);
/// [`Session::new`] makes one to use.
#[derive(Debug, Default)]
pub(crate) struct Session {
    pub(crate) store: Store,
    /// Each variable's range as drawn (index = variable; [`ZERO`] first).
    pub(crate) ranges: Vec<(i64, i64)>,
    base_lo: Vec<i64>,
    base_hi: Vec<i64>,
    decisions: Vec<Decision>,
    at: usize,
    /// What each comparison of the current path allowed, so a run that replays the path
    /// after a backtrack does not try its outcomes again.
    feasible: Vec<Feasible>,
    /// Comparisons made so far in this run.
    comparisons: usize,
    seed: u64,
    /// Comparisons are decisions only in the filter phase.
    filtering: bool,
    pub(crate) aborted: Option<Abort>,
    /// Test cases of the filter run so far for this value.
    pub(crate) runs: u32,
    /// The comparisons at the start of this run whose relations are in the store already
    /// (a run resumed after a backtrack), and the mark the next run resumes from.
    resumed: usize,
    resume: Option<(usize, usize)>,
}

// Sessions move between the generator and this thread's slot boxed: a session is a few
// hundred bytes, and moving it by value cost a copy at every hand-over (several per filter
// run: 7% of a constrained test case's instructions).
thread_local! {
    static SESSION: RefCell<Option<Box<Session>>> = const { RefCell::new(None) };
    /// A session given back after a test case, for the next one's allocations.
    static SPARE: Cell<Option<Box<Session>>> = const { Cell::new(None) };
    /// An empty session left in the generator's hands while its own is lent out
    /// ([`lend`]).
    static PLACEHOLDER: Cell<Option<Box<Session>>> = const { Cell::new(None) };
}

/// A session in [`Session::new`]'s state: the one given back last on this thread, recycled,
/// or a new one.
pub(crate) fn fresh() -> Box<Session> {
    match SPARE.with(Cell::take) {
        Some(mut s) => {
            s.recycle();
            s
        }
        None => Box::new(Session::new()),
    }
}

/// Keeps `s` for the next [`fresh`] on this thread.
pub(crate) fn give_back(s: Box<Session>) {
    SPARE.with(|spare| spare.set(Some(s)));
}

/// Runs `f` with the session `s` installed as this thread's session ([`with`]); `s` holds
/// it again afterwards (an empty placeholder meanwhile, kept from one call to the next).
pub(crate) fn lend<R>(s: &mut Box<Session>, f: impl FnOnce() -> R) -> R {
    let placeholder = PLACEHOLDER
        .with(Cell::take)
        .unwrap_or_else(|| Box::new(Session::default()));
    let session = std::mem::replace(s, placeholder);
    let (r, back) = with(session, f);
    PLACEHOLDER.with(|p| p.set(Some(std::mem::replace(s, back))));
    r
}

/// Runs `f` with `session` installed as this thread's session, and hands the session back
/// (a session installed before is restored afterwards).
fn with<R>(session: Box<Session>, f: impl FnOnce() -> R) -> (R, Box<Session>) {
    let before = SESSION.with(|s| s.replace(Some(session)));
    // Restore even if `f` panics (the property runner catches panics and goes on).
    struct Restore(Option<Option<Box<Session>>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            if let Some(b) = self.0.take() {
                SESSION.with(|s| {
                    s.replace(b);
                });
            }
        }
    }
    let mut guard = Restore(Some(before));
    let r = f();
    let before = guard.0.take().expect("restored once");
    let session = SESSION
        .with(|s| s.replace(before))
        .expect("the session is still installed");
    (r, session)
}

/// A new variable in the installed session, `None` when there is none.
pub(crate) fn new_var(lo: i64, hi: i64) -> Option<u32> {
    SESSION.with(|s| {
        let mut s = s.borrow_mut();
        let s = s.as_mut()?;
        s.ranges.push((lo, hi));
        Some(s.store.var(lo, hi))
    })
}

/// Stops symbolic execution (the value falls back to generate-and-filter) and says why.
pub(crate) fn abort(why: Abort) {
    SESSION.with(|s| {
        if let Some(s) = s.borrow_mut().as_mut() {
            s.aborted.get_or_insert(why);
        }
    });
}

/// The bounds of variable `v` in the installed session.
pub(crate) fn bounds(v: u32) -> Option<(i64, i64)> {
    SESSION.with(|s| s.borrow().as_ref().map(|s| s.store.bounds(v)))
}

/// Decides a comparison between `x + dx` and `y + dy`: picks one of `outcomes` (relations
/// that partition the possibilities, each with the answer it gives) among those the store
/// allows, records the decision, adds the relation and returns its answer.
pub(crate) fn decide<T: Copy>(
    (x, dx): (u32, i64),
    (y, dy): (u32, i64),
    outcomes: &[(Rel, T)],
) -> T {
    SESSION.with(|s| {
        let mut s = s.borrow_mut();
        let Some(s) = s.as_mut() else {
            panic!(
                "tapefuzz: an open integer was compared outside the constrained generator that \
                 made it (keep `Open` values inside the generator and its filter)"
            )
        };
        s.decide((x, dx), (y, dy), outcomes)
    })
}

impl Clone for Session {
    fn clone(&self) -> Session {
        let mut s = Session::new();
        s.clone_from(self);
        s
    }

    /// A copy of `source` in this session's allocations.
    fn clone_from(&mut self, source: &Session) {
        // Destructured, so a new field cannot be forgotten here.
        let Session {
            store,
            ranges,
            base_lo,
            base_hi,
            decisions,
            at,
            feasible,
            comparisons,
            seed,
            filtering,
            aborted,
            runs,
            resumed,
            resume,
        } = self;
        store.clone_from(&source.store);
        ranges.clone_from(&source.ranges);
        base_lo.clone_from(&source.base_lo);
        base_hi.clone_from(&source.base_hi);
        decisions.clone_from(&source.decisions);
        *at = source.at;
        feasible.clone_from(&source.feasible);
        *comparisons = source.comparisons;
        *seed = source.seed;
        *filtering = source.filtering;
        *aborted = source.aborted;
        *runs = source.runs;
        *resumed = source.resumed;
        *resume = source.resume;
    }
}

impl Session {
    /// A session whose variables will be made by the skeleton.
    pub(crate) fn new() -> Session {
        Session {
            store: Store::new(),
            ranges: vec![(0, 0)],
            ..Session::default()
        }
    }

    /// Back to [`Session::new`]'s state, keeping the allocations (a constrained generator
    /// reuses one session from test case to test case).
    pub(crate) fn recycle(&mut self) {
        let Session {
            store,
            ranges,
            base_lo,
            base_hi,
            decisions,
            at,
            feasible,
            comparisons,
            seed,
            filtering,
            aborted,
            runs,
            resumed,
            resume,
        } = self;
        store.recycle();
        ranges.clear();
        ranges.push((0, 0));
        base_lo.clear();
        base_hi.clear();
        decisions.clear();
        *at = 0;
        feasible.clear();
        *comparisons = 0;
        *seed = 0;
        *filtering = false;
        *aborted = None;
        *runs = 0;
        *resumed = 0;
        *resume = None;
    }

    /// Starts the filter phase: the skeleton's bounds become the base every run starts from.
    pub(crate) fn begin_filter(&mut self, seed: u64) {
        self.store
            .snapshot_into(&mut self.base_lo, &mut self.base_hi);
        self.seed = seed;
        self.filtering = true;
        self.decisions.clear();
        self.feasible.clear();
        self.resume = None;
    }

    /// Starts one run of the filter: the decisions so far replayed. After a backtrack the
    /// store is undone to where the changed decision was taken, and the comparisons before
    /// it answer from the path without adding their relations again (most of a failed
    /// skeleton's cost was re-adding them, run after run); otherwise the base bounds.
    pub(crate) fn begin_run(&mut self) {
        match self.resume.take() {
            Some((comparison, mark)) => {
                self.store.undo(mark);
                self.resumed = comparison;
            }
            None => {
                self.store.reset(&self.base_lo, &self.base_hi);
                self.resumed = 0;
            }
        }
        self.at = 0;
        self.comparisons = 0;
        self.runs += 1;
    }

    /// After a run that the filter failed: the next untried decision (depth-first, deepest
    /// first). `false` when every path was tried.
    pub(crate) fn backtrack(&mut self) -> bool {
        self.decisions.truncate(self.at);
        while let Some(d) = self.decisions.last_mut() {
            if d.taken + 1 < d.count {
                d.taken += 1;
                // The comparisons after this one may differ now.
                self.feasible.truncate(d.comparison + 1);
                self.resume = Some((d.comparison, self.feasible[d.comparison].mark));
                return true;
            }
            self.decisions.pop();
        }
        false
    }

    /// The store as the path's first `upto` comparisons leave it, added again from the base
    /// (their marks renewed); the run goes on from there without resuming.
    fn rebuild(&mut self, upto: usize) {
        self.store.reset(&self.base_lo, &self.base_hi);
        self.resumed = 0;
        for c in 0..upto {
            let f = self.feasible[c];
            let (x, y, _) = f.of;
            self.feasible[c].mark = self.store.mark();
            for (a, b, k) in Session::constraint(f.taken, x, y) {
                if !self.store.entails(a, b, k) {
                    let ok = self.store.add(a, b, k);
                    debug_assert!(ok, "a feasible outcome stays feasible");
                }
            }
        }
    }

    /// Decisions taken on the current path.
    pub(crate) fn depth(&self) -> usize {
        self.at
    }

    fn constraint(rel: Rel, (x, dx): (u32, i64), (y, dy): (u32, i64)) -> [(u32, u32, i128); 2] {
        // x + dx  rel  y + dy, as differences x − y ≤ k (and y − x ≤ k'), exact in i128:
        // saturating i64 would lose a value at the type's ends (x > MIN as x ≥ MIN + 2).
        let d = dy as i128 - dx as i128;
        const NONE: (u32, u32, i128) = (ZERO, ZERO, 0);
        match rel {
            Rel::Le => [(x, y, d), NONE],
            Rel::Lt => [(x, y, d - 1), NONE],
            Rel::Ge => [(y, x, -d), NONE],
            Rel::Gt => [(y, x, -d - 1), NONE],
            Rel::Eq => [(x, y, d), (y, x, -d)],
        }
    }

    fn allows(&mut self, rel: Rel, x: (u32, i64), y: (u32, i64)) -> bool {
        let constraints = Session::constraint(rel, x, y);
        // Most comparisons are settled by the bounds alone (a key against its ancestors'
        // bounds): no trial propagation then.
        match self.store.settled(&constraints) {
            Some(answer) => answer,
            None => {
                let m = self.store.mark();
                let ok = constraints.iter().all(|&(a, b, k)| self.store.add(a, b, k));
                self.store.undo(m);
                ok
            }
        }
    }

    fn decide<T: Copy>(&mut self, x: (u32, i64), y: (u32, i64), outcomes: &[(Rel, T)]) -> T {
        if !self.filtering {
            // A comparison while the skeleton is drawn: the generator itself depends on an
            // open value, which only generate-and-filter can follow.
            self.aborted
                .get_or_insert("the generator compares open integers");
        }
        if self.aborted.is_some() {
            // Keep the filter running on something; its answer is discarded.
            return outcomes[0].1;
        }
        let comparison = self.comparisons;
        self.comparisons += 1;
        let of = (x, y, outcomes.len());
        let replaying = comparison < self.resumed;
        if replaying && self.feasible.get(comparison).is_none_or(|k| k.of != of) {
            // A filter that is not deterministic left the path: the store again as the
            // path so far has it, from the base.
            self.rebuild(comparison);
        }
        let replaying = comparison < self.resumed;
        let known = match self.feasible.get(comparison) {
            Some(&known) if known.of == of => known,
            _ => {
                // Not reached before on this path (or, from a filter that is not
                // deterministic, another comparison was): what follows is decided anew.
                self.feasible.truncate(comparison);
                let mut known = Feasible {
                    outcomes: [0; 3],
                    count: 0,
                    of,
                    taken: Rel::Eq,
                    mark: 0,
                };
                for (i, &(rel, _)) in outcomes.iter().enumerate() {
                    if self.allows(rel, x, y) {
                        known.outcomes[known.count as usize] = i as u8;
                        known.count += 1;
                    }
                }
                self.feasible.push(known);
                known
            }
        };
        let mut feasible = known.outcomes.map(usize::from);
        let n = known.count as usize;
        assert!(
            n > 0,
            "a consistent store allows one outcome of a partition"
        );
        if n > 1 && self.seed & 1 == 1 {
            // The order of the outcomes after the first: the seed's choice for this decision.
            let h = self.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (self.at as u64) << 17;
            if h.wrapping_mul(0xff51_afd7_ed55_8ccd) >> 63 == 1 {
                feasible[1..n].reverse();
            }
        }
        let pick = if n == 1 {
            0
        } else {
            let at = self.at;
            self.at += 1;
            match self.decisions.get(at) {
                Some(d) => d.taken as usize,
                None => {
                    self.decisions.push(Decision {
                        taken: 0,
                        count: n as u8,
                        comparison,
                    });
                    0
                }
            }
        };
        let (rel, answer) = outcomes[feasible[pick.min(n - 1)]];
        if replaying {
            // In the store since before the backtrack.
            return answer;
        }
        let mark = self.store.mark();
        if let Some(f) = self.feasible.get_mut(comparison) {
            f.taken = rel;
            f.mark = mark;
        }
        for (a, b, k) in Session::constraint(rel, x, y) {
            // An edge the bounds already entail stays entailed (bounds only narrow until
            // the next undo, which would remove it anyway): not stored, never propagated.
            if !self.store.entails(a, b, k) {
                let ok = self.store.add(a, b, k);
                debug_assert!(ok, "a feasible outcome stays feasible");
            }
        }
        answer
    }
}
