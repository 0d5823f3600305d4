//! The shrinker: holds the best failing tape and tries candidates against the test.

use super::cache::Cache;
use super::passed::Passed;
use super::passes::{PASSES, Tier, char_bytes, lower_common_offset, text_bytes};
use super::{Budget, shortlex_less};
use crate::tape::{Choice, Fallback, Recording, ReplaySource, Status, Tape};
use std::collections::HashSet;
use std::time::Instant;

/// The outcome of a shrink.
#[derive(Clone, Debug)]
pub struct Shrunk {
    /// The smallest failing tape found.
    pub best: Recording,
    /// Calls of the test function the shrinker made: one per candidate it ran, including
    /// candidates the generator rejected before the property ran (the shrinker cannot tell
    /// them apart: both are one call of the same function). Candidates decided without a
    /// call (not shortlex-smaller than the best, or repeating an earlier run) are not counted.
    pub calls: u64,
    /// Of [`Shrunk::calls`], those made up to and including the last accepted candidate: the
    /// rest only confirmed that no pass improves the result.
    pub calls_to_best: u64,
    /// Candidates accepted.
    pub improvements: u64,
    /// Whether the budget stopped shrinking: true only if some candidate was left untried
    /// because the budget had run out. A shrink that reached its fixpoint with the last call
    /// of the budget was not stopped.
    pub budget_exhausted: bool,
    /// Calls and improvements of each pass, in the order the passes run.
    pub passes: Vec<PassStats>,
}

/// What one shrink pass did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassStats {
    /// The pass's name.
    pub name: &'static str,
    /// Test-function calls it made.
    pub calls: u64,
    /// Candidates of its that were accepted.
    pub improvements: u64,
    /// Of its calls, those made after the shrink's last accepted candidate (by any pass):
    /// what it spent confirming that nothing more improves.
    pub confirming: u64,
}

/// What trying one candidate did.
pub(super) enum Tried {
    /// It failed, was shortlex-smaller and is now the best tape.
    Improved,
    /// It ran without improving, now or in one of the latest runs: the tape it recorded.
    Ran(Recording),
    /// An earlier run decided it (without improving): that run's tape length (for a run cut
    /// short as [`Tried::Cut`], the best tape's length then: at most its own).
    Known(usize),
    /// It rose above the best tape first ([`Shrinker::attempt`]) and its run, given one
    /// choice less than the best tape, needed more: the choices it read, cut there (spans
    /// that closed before are whole). With the whole budget it would have recorded at least
    /// the best tape's length.
    Cut(Recording),
    /// It was not run: not smaller than the best, out of budget, held back by a stalled
    /// joint or last-resort pass (thinned out, or past the stall limit), or a cut of a
    /// collection where one element fewer already passed (`cuts_known_to_fail`).
    Skipped,
}

/// The size budget of one candidate's run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cap {
    /// The best tape's length.
    Whole,
    /// The candidate's own length, forced choices included ([`Shrinker::attempt_strict`]):
    /// a run that forces more than the candidate recorded may overrun early, and one that
    /// forces fewer may read a few simplest choices past its end.
    Strict,
    /// One below the best tape's length, for a candidate that rises first at this position
    /// ([`Shrinker::attempt`]): it is smaller only if its run is shorter.
    Shorter(usize),
}

/// Shrinks a failing tape. Deterministic: the same test and start give the same result.
///
/// Every accepted candidate is the tape actually recorded when replaying it, and it is
/// accepted only if the test is still [`Status::Interesting`] and the tape is strictly
/// smaller in shortlex order, so a shrink never makes the tape larger.
///
/// The passes, blind to value types (see `passes/`): delete runs of sibling spans
/// (adaptively), blocks of choices, and two bytes of a string together; move length from
/// one string or byte vector to a later one with its label, an element from one list
/// to the next in a list of lists, and a part of an element (a field inside it) into an
/// earlier list as an element of its own; replace spans by
/// their simplest choices (in the first sweep also every element of a collection at once,
/// its length kept) and by descendants with the same label, realigning the rest of the
/// tape when the shape changes; try the simpler indices the generators suggested
/// ([`Tape::suggest`]: a float's shorter fractions); minimize each index (fixing up a size
/// it controlled); edit identical spans and equal choices together; sort, swap and copy
/// spans with the same label (a list's elements with the later indices into it following
/// them); move an amount between two choices, or from a deleted element to the choice
/// before it, or lower them together; lower a choice (or equal choices together) with the
/// next few at their largest index (or, for a signed value, at the far end of its positive
/// side: [`crate::tape::ValueStep::far_side`]), and delete a span with the choices around
/// it at theirs (an amount that must stay reached: the raised choices are lowered
/// afterwards); raise a branch choice where the new shape is shorter, and any choice to its
/// largest index where the run comes out shorter (a gate whose higher values skip what it
/// guards); lower two integers together along the ratio of their magnitudes
/// ([`crate::tape::ValueStep::magnitude`]), or drop an integer's leading decimal digit or
/// trailing zeros. A product's field deleted with choices after it runs only when the
/// shorter tape holds the choices its run draws (`Shrinker::attempt_strict`); other
/// candidates read the simplest choices past their end. A candidate whose run first
/// differs from the best tape by a higher index can only be smaller by being shorter: it
/// runs with a size budget one choice short, so the property sees it only if it is.
/// Candidates replay clamped
/// ([`ReplaySource::clamping`]): a later choice whose range shrank keeps the largest value
/// that fits. Cheap structural passes run to a fixpoint before costlier ones, and the shrink
/// ends when no pass improves.
///
/// A joint or last-resort pass that is not paying stops early (Hypothesis's shrinker does the
/// same with every pass, after 20 failures): a last-resort pass, after 20 calls in a row that
/// improve nothing, runs only one in 4 of its candidates (chosen by a hash of the candidate,
/// so the rest of the tape is still sampled), and after 40 it stops until the next sweep; a
/// joint pass thins out after 30 and stops after 60. Confirming that nothing more shrinks
/// then costs each of those passes at most that many calls, where some would try every pair
/// of spans; a shrink that needs one of them far into a long tape may stop short of the
/// minimum. The structural passes never stop early.
pub struct Shrinker<'a> {
    test: &'a mut dyn FnMut(&mut Tape<'_>) -> Status,
    pub(super) best: Recording,
    /// [`char_bytes`] of the best tape.
    pub(super) char_bytes: Vec<bool>,
    /// [`text_bytes`] of the best tape.
    pub(super) text_bytes: Vec<bool>,
    budget: Budget,
    started: Instant,
    calls: u64,
    calls_to_best: u64,
    improvements: u64,
    cache: Cache,
    /// The runs of candidates that rose first and overran their capped budget
    /// ([`Tried::Cut`]), by the choices they read, where those include the one that rose:
    /// known not to improve. Apart from `cache`, so that an entry does not hide the
    /// recordings of runs that went on through the same choices, and asked only for a
    /// candidate that rises first.
    rising: Cache,
    /// Test cases that passed before the shrink ([`Shrinker::with_passed`]).
    passed: Option<&'a Passed>,
    /// A candidate was left untried for lack of budget.
    stopped: bool,
    /// Calls the running pass made in a row without an improvement.
    stall: u64,
    /// Sweeps of the structural tier begun so far.
    pub(super) sweeps: u32,
    /// When the running pass stops for a stall, if it does (see [`Stall`]).
    stall_at: Option<Stall>,
    /// [`Cache::hash`]es of the strict candidates that overran, with the size budget they
    /// had (kept apart from the cache, which reads a candidate's missing choices as the
    /// simplest).
    overran: HashSet<(u64, usize)>,
}

/// How long a pass may go without paying: after `thinning` calls in a row without an
/// improvement it runs only one in [`THINNING`] of its candidates (chosen by a hash of the
/// candidate, so the same ones on the same tape), and after `limit` it stops. The structural
/// tier never stalls (each of its passes must try every choice once for the result to be
/// minimal choice by choice); a joint pass, which does most of the work on values that must
/// change together, gets more room than a last-resort one. Hypothesis stops every pass after
/// 20 failures in a row and jumps around after 10.
#[derive(Clone, Copy, Debug)]
struct Stall {
    thinning: u64,
    limit: u64,
}

impl Tier {
    /// When a pass of this tier stalls.
    fn stall(self) -> Option<Stall> {
        match self {
            Tier::Structure => None,
            Tier::Joint => Some(Stall {
                thinning: 30,
                limit: 60,
            }),
            Tier::LastResort => Some(Stall {
                thinning: 20,
                limit: 40,
            }),
        }
    }
}

/// See [`Stall`].
const THINNING: u64 = 4;

impl<'a> Shrinker<'a> {
    /// A shrinker for `test`, starting from the failing tape `start`. Record `start` with
    /// [`Tape::with_suggestions`] so the generators' suggestions count from the first pass;
    /// without them they count from the first improvement (every candidate is recorded with
    /// them).
    pub fn new(
        test: &'a mut dyn FnMut(&mut Tape<'_>) -> Status,
        start: Recording,
        budget: Budget,
    ) -> Shrinker<'a> {
        let mut cache = Cache::new();
        cache.insert(&start);
        Shrinker {
            test,
            char_bytes: char_bytes(&start.choices, &start.spans),
            text_bytes: text_bytes(&start.choices, &start.spans),
            best: start,
            budget,
            started: Instant::now(),
            calls: 0,
            calls_to_best: 0,
            improvements: 0,
            cache,
            rising: Cache::new(),
            passed: None,
            stopped: false,
            stall: 0,
            sweeps: 0,
            stall_at: None,
            overran: HashSet::new(),
        }
    }

    /// Counts the test cases of `passed` (the generation phase's: [`Passed`]) as runs made,
    /// so a candidate that repeats one is not run again. Only for a deterministic test.
    pub fn with_passed(mut self, passed: &'a Passed) -> Shrinker<'a> {
        self.passed = Some(passed);
        self
    }

    /// Runs the passes until none improves the best tape or the budget runs out.
    ///
    /// Structural passes run first, over and over while they improve; only when a whole
    /// sweep of them finds nothing do the costlier tiers run, and any improvement there
    /// sends the shrink back to the first tier.
    pub fn run(mut self) -> Shrunk {
        let mut stats: Vec<PassStats> = PASSES
            .iter()
            .map(|p| PassStats {
                name: p.name,
                calls: 0,
                improvements: 0,
                confirming: 0,
            })
            .collect();
        let mut common = PassStats {
            name: "lower_common_offset",
            calls: 0,
            improvements: 0,
            confirming: 0,
        };
        let tiers = [Tier::Structure, Tier::Joint, Tier::LastResort];
        let mut tier = 0;
        while tier < tiers.len() && !self.stopped {
            let before = self.improvements;
            if tiers[tier] == Tier::Structure {
                self.sweeps += 1;
            }
            let start = self.best.choices.clone();
            for (k, pass) in PASSES.iter().enumerate() {
                if pass.tier != tiers[tier] || self.stopped {
                    continue;
                }
                let (calls, improvements) = (self.calls, self.improvements);
                self.stall = 0;
                self.stall_at = pass.tier.stall();
                (pass.run)(&mut self);
                self.stall_at = None;
                self.book(&mut stats, &mut common, k, calls, improvements);
            }
            if tiers[tier] == Tier::Structure && self.improvements > before {
                let (calls, improvements) = (self.calls, self.improvements);
                lower_common_offset(&mut self, &start);
                let n = stats.len();
                self.book(&mut stats, &mut common, n, calls, improvements);
            }
            tier = if self.improvements > before {
                0
            } else {
                tier + 1
            };
        }
        stats.push(common);
        Shrunk {
            budget_exhausted: self.stopped,
            best: self.best,
            calls: self.calls,
            calls_to_best: self.calls_to_best,
            improvements: self.improvements,
            passes: stats,
        }
    }

    /// Books what pass `k` (`k == stats.len()`: `common`) did since the shrink stood at
    /// `calls` and `improvements`: its calls, its improvements, and its calls after the
    /// shrink's last improvement as confirming calls (an improvement within them makes every
    /// earlier confirming call productive after all).
    fn book(
        &self,
        stats: &mut [PassStats],
        common: &mut PassStats,
        k: usize,
        calls: u64,
        improvements: u64,
    ) {
        if self.calls_to_best > calls {
            for s in stats.iter_mut() {
                s.confirming = 0;
            }
            common.confirming = 0;
        }
        let pass = stats.get_mut(k).unwrap_or(common);
        pass.calls += self.calls - calls;
        pass.improvements += self.improvements - improvements;
        pass.confirming += self.calls - self.calls_to_best.max(calls);
    }

    /// Whether the budget has stopped the shrink, or the running pass has stalled (see
    /// [`Stall`]).
    pub(super) fn stopped(&self) -> bool {
        self.stopped || self.stalled()
    }

    /// Whether the running pass has stalled for good (see [`Stall`]).
    fn stalled(&self) -> bool {
        self.stall_at.is_some_and(|s| self.stall >= s.limit)
    }

    /// The best tape's choices.
    pub(super) fn choices(&self) -> &[Choice] {
        &self.best.choices
    }

    /// Tries a candidate ([`Shrinker::attempt`]); whether it became the best tape.
    pub(super) fn consider(&mut self, candidate: &[Choice]) -> bool {
        matches!(self.attempt(candidate), Tried::Improved)
    }

    /// Where the first choice at which `candidate`'s run differs from the best tape's is drawn
    /// as it was (every choice before it replays the same, so the run draws from the same
    /// range there) with a higher index, once clamped to that range: that position.
    fn rises_first(&self, candidate: &[Choice]) -> Option<usize> {
        for (i, (c, b)) in candidate.iter().zip(&self.best.choices).enumerate() {
            if c.forced != b.forced {
                return None;
            }
            // (An index past the range replays as its largest.)
            let index = c.index.min(b.max);
            if c.forced || index == b.index {
                continue;
            }
            return (index > b.index).then_some(i);
        }
        None
    }

    /// Tries a candidate tape (its forced choices are dropped: the generator re-forces
    /// them). Runs it only if it is shortlex-smaller than the best, no earlier run decided
    /// it (nor a passed test case it begins with: [`Shrinker::with_passed`]), it is not a cut
    /// of a collection where one element fewer already passed (`cuts_known_to_fail`), the
    /// budget allows, and the running pass has not stalled (see [`Stall`]).
    ///
    /// Where the candidate first differs from the best tape by a higher index (a pass that
    /// raises a choice so that something after it can go), its run follows the best tape's
    /// up to that choice and is larger from there on, so it can only be smaller by being
    /// shorter: it runs with a size budget one choice below the best tape's length, and one
    /// that needs more ends before the property is called ([`Tried::Cut`]).
    pub(super) fn attempt(&mut self, candidate: &[Choice]) -> Tried {
        if !shortlex_less(candidate, &self.best.choices) {
            return Tried::Skipped;
        }
        let cap = self.rises_first(candidate).map_or(Cap::Whole, Cap::Shorter);
        self.run_candidate(candidate, true, cap)
    }

    /// [`Shrinker::consider`] for a candidate that rises first (see [`Shrinker::attempt`])
    /// and is as long as the best tape or longer, which only a shorter run can make smaller:
    /// the property is called only on a run that is. Whether it became the best tape.
    pub(super) fn consider_shorter(&mut self, candidate: &[Choice]) -> bool {
        self.rises_first(candidate).is_some_and(|at| {
            matches!(
                self.run_candidate(candidate, true, Cap::Shorter(at)),
                Tried::Improved
            )
        })
    }

    /// [`Shrinker::attempt`] for a candidate that must hold every choice its run draws: a
    /// run that needs more ends as an overrun before the property is called (Hypothesis's
    /// shrinker reads every candidate so), where a plain attempt reads the missing choices
    /// as the simplest. An overrun here is not cached: a plain attempt of the same choices
    /// may still run.
    pub(super) fn attempt_strict(&mut self, candidate: &[Choice]) -> Tried {
        if !shortlex_less(candidate, &self.best.choices) {
            return Tried::Skipped;
        }
        self.run_candidate(candidate, true, Cap::Strict)
    }

    /// [`Shrinker::attempt`] for a pass that learns from the shape the candidate records
    /// when it does not improve (where its spans read their choices out of place): the
    /// passed test cases, which have no recording, do not decide it.
    pub(super) fn attempt_for_shape(&mut self, candidate: &[Choice]) -> Tried {
        if !shortlex_less(candidate, &self.best.choices) {
            return Tried::Skipped;
        }
        self.run_candidate(candidate, false, Cap::Whole)
    }

    /// [`Shrinker::attempt_for_shape`] for a candidate that need not be smaller itself: a
    /// probe run to learn what shape it records (which may be smaller, or splice into a
    /// smaller tape).
    pub(super) fn probe(&mut self, candidate: &[Choice]) -> Tried {
        self.run_candidate(candidate, false, Cap::Whole)
    }

    /// How many of `candidate`'s first choices are the best tape's (a recorded run's, whose
    /// forced flags are right: see [`Passed`]).
    fn recorded_prefix(&self, candidate: &[Choice]) -> usize {
        (candidate.iter().zip(&self.best.choices))
            .take_while(|(a, b)| a == b)
            .count()
    }

    /// Whether an earlier run (or a passed test case) already decided `candidate`, so that
    /// trying it would cost no call and could not improve.
    pub(super) fn decided(&self, candidate: &[Choice]) -> bool {
        let indices: Vec<u64> = (candidate.iter())
            .filter(|c| !c.forced)
            .map(|c| c.index)
            .collect();
        self.cache.lookup(&indices).is_some()
            || (self.passed).is_some_and(|p| {
                p.repeated(candidate, self.recorded_prefix(candidate))
                    .is_some()
            })
    }

    /// Runs `candidate` unless something decides it (see [`Shrinker::attempt`]); `untaught`:
    /// whether what a run would only confirm may decide it without a recording (a passed
    /// test case it begins with, a cut known to fail), which a pass that learns from the
    /// recorded shape does not want.
    ///
    /// `cap`: the run's size budget ([`Cap`]). A strict run that overruns is not cached (with
    /// the whole budget it may run); one that rises first is, apart, as known not to improve
    /// (`rising`), where it read past the choice that rose.
    fn run_candidate(&mut self, candidate: &[Choice], untaught: bool, cap: Cap) -> Tried {
        if self.stopped() {
            return Tried::Skipped;
        }
        let indices: Vec<u64> = candidate
            .iter()
            .filter(|c| !c.forced)
            .map(|c| c.index)
            .collect();
        let whole = self.best.choices.len();
        let budget = match cap {
            Cap::Whole => whole,
            Cap::Strict => candidate.len().min(whole),
            Cap::Shorter(_) => whole - 1,
        };
        let key = (cap == Cap::Strict).then(|| (Cache::hash(&indices), budget));
        if key.is_some_and(|k| self.overran.contains(&k)) {
            return Tried::Skipped;
        }
        if let Some(hit) = self.cache.lookup(&indices) {
            return match hit.recording {
                Some(rec) => Tried::Ran(rec),
                None => Tried::Known(hit.len),
            };
        }
        if let Cap::Shorter(_) = cap
            && let Some(hit) = self.rising.lookup(&indices)
        {
            return Tried::Known(hit.len);
        }
        if untaught
            && let Some(len) =
                (self.passed).and_then(|p| p.repeated(candidate, self.recorded_prefix(candidate)))
        {
            return Tried::Known(len);
        }
        if untaught && self.cuts_known_to_fail(candidate) {
            return Tried::Skipped;
        }
        if self.stall_at.is_some_and(|s| self.stall >= s.thinning)
            && !Cache::hash(&indices).is_multiple_of(THINNING)
        {
            return Tried::Skipped;
        }
        if self.calls >= self.budget.calls || self.started.elapsed() >= self.budget.time {
            self.stopped = true;
            return Tried::Skipped;
        }
        self.calls += 1;
        let mut source = ReplaySource::new(indices, Fallback::Simplest).clamping();
        // A candidate longer than the best can never be accepted: stop it early.
        let mut tape = Tape::recording(&mut source)
            .with_max_choices(budget)
            .with_suggestions();
        let status = (self.test)(&mut tape);
        let rec = tape.finish();
        if let Cap::Shorter(at) = cap
            && status == Status::Overrun
        {
            // Whatever starts with the choices it read, the one that rose included (a payload
            // run may overrun at its length, before it), rises above the best tape there and
            // needs more than it had: no later best tape is larger.
            if rec.choices.len() > at {
                self.rising.insert_overrun(&rec, whole);
            }
            self.stall += 1;
            return Tried::Cut(rec);
        }
        if let Some(k) = key.filter(|_| status == Status::Overrun) {
            self.overran.insert(k);
        } else {
            self.cache.insert(&rec);
        }
        if status == Status::Interesting && shortlex_less(&rec.choices, &self.best.choices) {
            self.char_bytes = char_bytes(&rec.choices, &rec.spans);
            self.text_bytes = text_bytes(&rec.choices, &rec.spans);
            self.best = rec;
            self.improvements += 1;
            self.calls_to_best = self.calls;
            self.stall = 0;
            Tried::Improved
        } else {
            self.stall += 1;
            Tried::Ran(rec)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::{Gen, ints, vecs};

    #[test]
    fn a_run_cut_before_the_choice_that_rose_decides_nothing_else() {
        // Three bytes, failing while the last is not 0. Deleting the middle one shifts the
        // 5 up beside the 0 (the candidate rises there), and the run, one choice short,
        // overruns at the length, before the byte that rose: what it read is the length
        // alone, which every edit of the bytes shares, so it must not be known as failing
        // to improve.
        let g = vecs(ints::<u8>(..), 0..=10);
        let mut test = |tape: &mut Tape<'_>| match g.generate(tape) {
            Ok(v) if v.len() == 3 && v[2] != 0 => Status::Interesting,
            Ok(_) => Status::Valid,
            Err(r) => r.status(),
        };
        let mut src = ReplaySource::new(vec![3, 0, 0, 5], Fallback::Simplest);
        let mut tape = Tape::recording(&mut src);
        assert_eq!(g.generate(&mut tape).unwrap(), vec![0, 0, 5]);
        let start = tape.finish();
        let mut s = Shrinker::new(&mut test, start, Budget::default());
        let n = s.choices().len();
        let mut shifted = s.choices().to_vec();
        shifted.remove(n - 2);
        assert!(matches!(s.attempt(&shifted), Tried::Cut(_)));
        let mut lowered = s.choices().to_vec();
        lowered[n - 1].index = 1;
        assert!(matches!(s.attempt(&lowered), Tried::Improved));
    }
}
