//! The constrained generator: a skeleton with open integers, the filter run symbolically on
//! it, and the integers instantiated within the bounds the filter left them.

use super::session::{self, Session};
use super::{Num, Open, order};
use crate::generators::{Gen, derived};
use crate::tape::{
    DrawContext, Fallback, Hint, Reject, ReplaySource, Segment, Source, Tape, builtin,
};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// A type whose values have a validity filter: its generator and its filter, both written
/// once over the number type `N` (see [`Num`]). [`constrained`] makes a generator of valid
/// values from it (ProSyT's constrain-and-generate, paper 001); [`filtered`] is plain
/// generate-and-filter on the same two functions.
///
/// ```
/// use tapefuzz::prelude::*;
/// use tapefuzz::generators::constrained::{Constrain, Num, constrained, nums};
///
/// /// A non-decreasing list of 10 to 100 integers.
/// struct Ordered;
///
/// impl Constrain for Ordered {
///     type Value<N: Num> = Vec<N>;
///     fn generator<N: Num>(&self) -> impl Gen<Value = Vec<N>> {
///         vecs(nums::<N>(-10_000..=10_000), 10..=100)
///     }
///     fn valid<N: Num>(&self, list: &Vec<N>) -> bool {
///         list.windows(2).all(|w| w[0] <= w[1])
///     }
/// }
///
/// // Every value is valid: no rejection, no hand-written generator.
/// check(constrained(Ordered), |l: Vec<i64>| l.is_sorted() && l.len() >= 10);
/// ```
pub trait Constrain {
    /// The value type, over the number type `N`.
    type Value<N: Num>;

    /// The generator: the same combinators for every `N`, with the integers the filter
    /// constrains drawn by [`super::nums`].
    fn generator<N: Num>(&self) -> impl Gen<Value = Self::Value<N>>;

    /// The validity filter: a plain, deterministic function.
    fn valid<N: Num>(&self, value: &Self::Value<N>) -> bool;
}

/// How many runs of the filter a skeleton may take (depth-first over the filter's
/// decisions) before it is rejected: this many, plus four per decision of the first run.
pub const DEFAULT_RUNS: u32 = 64;

/// The generator of valid values of a [`Constrain`] type (see [`constrained`]).
#[derive(Debug)]
pub struct Constrained<C> {
    spec: C,
    runs: u32,
    warned: AtomicBool,
    /// The last skeleton's solved filter: `constrain` instantiates one skeleton many times
    /// in a row, and the filter's symbolic runs are most of a value's cost.
    last: Mutex<Solved>,
}

/// The last skeleton (its shape choices and decisions seed) and, once it came twice in a
/// row, the session its filter left: a random run, where every skeleton is new, pays only
/// for the key (copied into a reused buffer), not for a copy of every session.
#[derive(Debug, Default)]
struct Solved {
    shape: Vec<u64>,
    seed: u64,
    session: Option<(Session, bool)>,
    /// The draws of the last skeleton that came twice in a row, logged: an instantiation
    /// that the source says replays it makes them again without the generator.
    replay: Option<Replay>,
}

/// A skeleton's draws over open numbers, for the shape choices `shape`, logged in
/// `context`.
#[derive(Debug)]
struct Replay {
    shape: Vec<u64>,
    context: Context,
    segment: Segment,
}

/// What a skeleton's draws depend on besides its shape choices: the nodes counted before it
/// (a `recursive` generator's limit) and an enclosing derived value's frame.
type Context = (usize, (bool, u32, u32, u32));

/// A generator of the values of `spec` that its filter accepts, by constraint solving:
///
/// 1. **Skeleton.** `spec.generator::<Open>()` draws its shape choices from the tape (list
///    lengths, variants, …) and leaves every [`super::nums`] integer open: a variable of a
///    store of difference constraints, bounded by its range.
/// 2. **Filter.** `spec.valid` runs on the open value. Each comparison whose answer the
///    constraints do not already decide is a branch: it takes an outcome the store allows
///    (the one that makes the comparison true first) and adds it; when the filter returns
///    false, the run is repeated with the last branch changed (depth-first). One choice
///    (kind [`crate::tape::Kind::Decisions`]) orders the other outcomes.
/// 3. **Instantiation.** Each variable, in the order it was made, takes one choice within
///    the bounds its constraints leave (index 0 the value nearest zero), and the store
///    narrows the rest; any value inside the bounds extends to a solution, so this never
///    fails.
/// 4. The concrete value is `spec.generator::<i64>()` replayed with those integers, and
///    `spec.valid` checks it once more. The generator must draw the same choices over `i64`
///    and over [`Open`] apart from its [`super::nums`] integers (draw the filter's integers
///    with `nums`); one that does not is rejected, and said so once on stderr.
///
/// Everything it decided is an ordinary choice on the tape, in spans of kinds
/// [`crate::tape::Kind::Skeleton`] and [`crate::tape::Kind::Solution`]: a value replays from
/// its tape with any source, shrinks (a shrunk value is valid too) and is saved like any
/// other. Running out: the simplest skeleton, the first satisfying path and the values
/// nearest zero.
///
/// A skeleton no path of the filter accepts within its budget of runs (`DEFAULT_RUNS`) is
/// rejected at the decisions choice. A filter that leaves difference constraints (adds two
/// open values, asks one's concrete value) or a generator that compares open values falls
/// back to generate-and-filter for that value — the integers drawn within their ranges and
/// the filter checking them — and says so once on stderr.
pub fn constrained<C: Constrain>(spec: C) -> Constrained<C> {
    Constrained {
        spec,
        runs: DEFAULT_RUNS,
        warned: AtomicBool::new(false),
        last: Mutex::new(Solved::default()),
    }
}

impl<C> Constrained<C> {
    /// Sets the base budget of filter runs per skeleton (see [`DEFAULT_RUNS`]).
    pub fn runs(mut self, runs: u32) -> Constrained<C> {
        self.runs = runs;
        self
    }

    /// The specification.
    pub fn spec(&self) -> &C {
        &self.spec
    }
}

/// Replays a skeleton's shape choices and the instantiated integers to the concrete
/// generator: a `nums` draw takes the next integer, every other draw the next shape index.
struct Splice<'a> {
    shape: &'a [u64],
    nums: &'a [u64],
    at_shape: usize,
    at_num: usize,
}

impl Source for Splice<'_> {
    fn draw(&mut self, ctx: &DrawContext<'_>) -> u64 {
        let (list, at) = if ctx.label == builtin::NUM {
            (self.nums, &mut self.at_num)
        } else {
            (self.shape, &mut self.at_shape)
        };
        let i = list.get(*at).copied().unwrap_or(0);
        *at += 1;
        i
    }
    fn needs_context(&self) -> bool {
        false
    }
}

impl<C: Constrain> Constrained<C> {
    fn warn(&self, why: &str) {
        if !self.warned.swap(true, Ordering::Relaxed) {
            eprintln!(
                "tapefuzz: constrained generator of {}: {why}: the value is generated and \
                 filtered instead (once per generator)",
                std::any::type_name::<C>()
            );
        }
    }
}

impl<C> Constrained<C> {
    fn warn_mismatch(&self) {
        if !self.warned.swap(true, Ordering::Relaxed) {
            eprintln!(
                "tapefuzz: constrained generator of {}: its generator draws differently over \
                 i64 than over Open (draw the filter's integers with `nums`, not `ints` or \
                 `any`); such values are rejected (once per generator)",
                std::any::type_name::<C>()
            );
        }
    }
}

impl<C: Constrain> Constrained<C> {
    /// The open value of the skeleton with shape choices `shape` (a replayed skeleton whose
    /// filter was not solved), drawn on a tape of its own into `s`. That tape counts nodes
    /// from 0, as the concrete value's does (a `recursive` skeleton drawn after other nodes
    /// may read its limit differently; the concrete value is checked by the filter anyway).
    fn open_skeleton(&self, shape: &[u64], s: &mut Box<Session>) -> Result<C::Value<Open>, Reject> {
        let mut src = ReplaySource::new(shape.to_vec(), Fallback::Simplest);
        self.draw_open(&mut Tape::new(&mut src, false), s)
    }

    /// The skeleton's open value drawn from `tape`, its variables made in `s`.
    fn draw_open(
        &self,
        tape: &mut Tape<'_>,
        s: &mut Box<Session>,
    ) -> Result<C::Value<Open>, Reject> {
        let open_gen = self.spec.generator::<Open>();
        session::lend(s, || open_gen.generate(tape))
    }

    /// Runs the filter on `skeleton` depth-first over its decisions, within the budget of
    /// runs: whether a run accepted it (`s` then holds that path's constraints).
    fn solve(&self, skeleton: &C::Value<Open>, s: &mut Box<Session>) -> bool {
        let mut budget = self.runs;
        let mut first = true;
        loop {
            s.begin_run();
            let ok = session::lend(s, || self.spec.valid(skeleton));
            if s.aborted.is_some() || ok {
                return ok;
            }
            if first {
                budget = budget.saturating_add(4 * s.depth() as u32);
                first = false;
            }
            if s.runs >= budget || !s.backtrack() {
                return false;
            }
        }
    }
}

impl<C: Constrain> Gen for Constrained<C> {
    type Value = C::Value<i64>;

    fn generate(&self, tape: &mut Tape<'_>) -> Result<C::Value<i64>, Reject> {
        // One session's allocations serve every test case on this thread.
        let mut s = session::fresh();
        let r = self.generate_in(tape, &mut s);
        session::give_back(s);
        r
    }
}

impl<C: Constrain> Constrained<C> {
    /// [`Gen::generate`] with `s` (in [`Session::new`]'s state) for the session.
    fn generate_in(
        &self,
        tape: &mut Tape<'_>,
        s: &mut Box<Session>,
    ) -> Result<C::Value<i64>, Reject> {
        // 1. The skeleton, its shape choices captured for the concrete replay. When the
        //    source replays a skeleton whose draws were logged (`constrain` instantiating
        //    it), the draws are made again from the log: the open value would be thrown
        //    away for the last skeleton's solved filter anyway.
        tape.start_span(builtin::SKELETON);
        let context: Context = (tape.nodes(), derived::frame_state());
        // Inside a recursive derived value, the skeleton's own nodes would spend the enclosing
        // frame's budget, which a replay does not: no log there.
        let plan = tape.planned().filter(|_| !context.1.0).map(<[u64]>::to_vec);
        let mut replayed = None;
        let mut log = false;
        if let Some(plan) = plan
            && let Ok(last) = self.last.lock()
        {
            match &last.replay {
                Some(r) if r.shape == plan && r.context == context => {
                    replayed = Some(tape.replay_segment(&r.segment).map(|()| plan));
                }
                _ => log = last.shape == plan,
            }
        }
        let (skeleton, shape) = match replayed {
            Some(shape) => {
                tape.end_span();
                (None, shape?)
            }
            None => {
                if log {
                    tape.start_logged_capture();
                } else {
                    tape.start_capture();
                }
                let skeleton = self.draw_open(tape, s);
                let (shape, segment) = tape.take_logged_capture();
                tape.end_span();
                if let (Some(segment), Ok(_)) = (segment, &skeleton)
                    && segment.chosen().eq(shape.iter().copied())
                    && let Ok(mut last) = self.last.lock()
                {
                    last.replay = Some(Replay {
                        shape: shape.clone(),
                        context,
                        segment,
                    });
                }
                (Some(skeleton?), shape)
            }
        };

        // 2. The filter, depth-first over its decisions: a function of the skeleton and the
        //    seed, so the last skeleton's answer is reused.
        let seed = tape.draw(builtin::DECISIONS, 255, Hint::Uniform)?;
        let (cached, again) = match self.last.lock() {
            Ok(last) if last.seed == seed && last.shape == shape => match &last.session {
                Some((session, solved)) => {
                    (**s).clone_from(session);
                    (Some(*solved), true)
                }
                None => (None, true),
            },
            _ => (None, false),
        };
        let solved = match cached {
            Some(solved) => solved,
            None => {
                let skeleton = match skeleton {
                    Some(k) => k,
                    None => self.open_skeleton(&shape, s)?,
                };
                s.begin_filter(seed);
                let solved = self.solve(&skeleton, s);
                if let Ok(mut last) = self.last.lock() {
                    if again {
                        // Only reached with no session kept (a kept one was reused above).
                        last.session = Some(((**s).clone(), solved));
                    } else {
                        last.shape.clear();
                        last.shape.extend_from_slice(&shape);
                        last.seed = seed;
                        last.session = None;
                    }
                }
                solved
            }
        };
        let fallback = s.aborted;
        if let Some(why) = fallback {
            self.warn(why);
        } else if !solved {
            return Err(tape.reject());
        }

        // 3. Instantiation, in the order the variables were made.
        let vars = s.ranges.len();
        let mut nums = Vec::with_capacity(vars);
        tape.start_span(builtin::SOLUTION);
        for v in 1..vars {
            let (lo0, hi0) = s.ranges[v];
            let (lo, hi) = if fallback.is_some() {
                (lo0, hi0)
            } else {
                s.store.bounds(v as u32)
            };
            let i = tape.draw(builtin::SOLVED, (hi as i128 - lo as i128) as u64, Hint::Int);
            let i = match i {
                Ok(i) => i,
                Err(e) => {
                    tape.end_span();
                    return Err(e);
                }
            };
            let x = order::value_at(lo, hi, i);
            if fallback.is_none() {
                let ok = s.store.fix(v as u32, x);
                debug_assert!(ok, "a value inside the bounds extends to a solution");
            }
            if hi0 > lo0 {
                nums.push(order::index_of(lo0, hi0, x));
            }
        }
        tape.end_span();

        // 4. The concrete value, checked.
        let mut splice = Splice {
            shape: &shape,
            nums: &nums,
            at_shape: 0,
            at_num: 0,
        };
        let value = {
            let mut inner = Tape::new(&mut splice, false);
            self.spec.generator::<i64>().generate(&mut inner)
        };
        if value.is_ok() && (splice.at_shape != shape.len() || splice.at_num != nums.len()) {
            // The generator drew differently over `i64` than over `Open` (an integer drawn
            // with `ints` rather than `nums`, say): the value is not the skeleton's.
            self.warn_mismatch();
            return Err(tape.reject());
        }
        match value {
            Ok(v) if self.spec.valid(&v) => Ok(v),
            Ok(_) => Err(tape.reject()),
            Err(e) => Err(e),
        }
    }
}

/// Generate-and-filter over a [`Constrain`] type (see [`filtered`]).
#[derive(Debug)]
pub struct Filtered<C> {
    spec: C,
}

/// The values of `spec.generator::<i64>()` that `spec.valid` accepts, by plain
/// generate-and-filter: a value the filter rejects rejects the test case (at the end of its
/// choices). The baseline [`constrained`] is measured against: same generator, same filter.
pub fn filtered<C: Constrain>(spec: C) -> Filtered<C> {
    Filtered { spec }
}

impl<C: Constrain> Gen for Filtered<C> {
    type Value = C::Value<i64>;

    fn generate(&self, tape: &mut Tape<'_>) -> Result<C::Value<i64>, Reject> {
        let v = self.spec.generator::<i64>().generate(tape)?;
        if self.spec.valid(&v) {
            Ok(v)
        } else {
            Err(tape.reject())
        }
    }
}
