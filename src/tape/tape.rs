//! The tape: what a generator draws from, and the record of what it drew.

use super::fingerprint::{PRINT_START, join, print_step};
use super::label::mix;
use super::random_source::coin_threshold;
use super::segment::{Log, Segment};
use super::{
    Choice, DrawContext, Hint, Label, OpenSpan, PointId, RandomSource, Reject, Source, Span, Trace,
};

/// Where a tape's choices come from.
enum Origin<'s> {
    /// A random source on a non-recording tape: drawn directly, no context.
    Fast(&'s mut RandomSource),
    /// A source that ignores the draw context (bytes, replay) on a non-recording tape: drawn
    /// without choice-point ids or spans.
    Plain(&'s mut dyn Source),
    /// A source that ignores the draw context but follows spans ([`Source::follows_spans`]:
    /// the `rl` guide) on a non-recording tape: drawn without choice-point ids, told of
    /// spans as they open and close.
    Steered(&'s mut dyn Source),
    /// Any source, given the full draw context.
    Context(&'s mut dyn Source),
}

/// A text run as an older byte encoding laid it out, for the string generator to turn into
/// today's bytes ([`Tape::draw_text`], [`super::LegacySource`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LegacyText<'a> {
    /// Version 1: the class indices of its characters.
    Indices(&'a [u64]),
    /// Version 2: its bytes, to be read with that version's repair.
    Bytes(&'a [u8]),
}

/// A text run's shape ([`Tape::draw_text`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TextRun {
    /// Fewest bytes.
    pub bytes_min: usize,
    /// Most bytes.
    pub bytes_max: usize,
    /// Probability of each further element past the minimum, for a source that draws the
    /// length ([`Hint::Length`]).
    pub p_more: f64,
    /// How version 1 of the encoding laid the text out: a collection of `(min, max)`
    /// elements with largest index `.2` (a character class's size less one).
    pub elements: (u64, u64, u64),
}

/// Default size budget: a test case that draws more choices than this overruns.
pub const DEFAULT_MAX_CHOICES: usize = 64 * 1024;

const ROOT_PATH: u64 = 0x243f_6a88_85a3_08d3;

/// Everything a recording tape kept: the choices, the spans and where a rejection happened.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recording {
    /// The choices, in draw order.
    pub choices: Vec<Choice>,
    /// The spans, in the order they were opened (parents before children).
    pub spans: Vec<Span>,
    /// Choice position at which a filter or `assume` rejected the value, if one did.
    pub rejected_at: Option<usize>,
    /// The label of each choice (parallel to `choices`), for explanations.
    pub labels: Vec<Label>,
    /// Simpler indices the generators suggested for their choices, as `(position, index)`
    /// in the order to try them; empty unless the tape asked for them
    /// ([`Tape::with_suggestions`]). A shrinker tries them before searching a choice's range.
    pub suggested: Vec<(usize, u64)>,
    /// What the generators said of their choices' index orders ([`Tape::value_step`]), in
    /// draw order. Recorded only with [`Tape::with_suggestions`].
    pub value_steps: Vec<ValueStep>,
    /// Larger values the generators named for their choices ([`Tape::value_shift`]), in draw
    /// order. Recorded only with [`Tape::with_suggestions`].
    pub shifts: Vec<Shift>,
}

/// A larger value a generator named for one of its choices ([`Tape::value_shift`]): where
/// index arithmetic does not move its value (a float's fraction), the index of the value
/// `delta` units above it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shift {
    /// The choice's position in the tape.
    pub at: usize,
    /// How many units of value above the choice's value (the units of the amounts that
    /// [`ValueStep::step`] moves: 1 for integers and floats).
    pub delta: u64,
    /// The index of that value.
    pub index: u64,
}

/// What a generator said of the index order of one of its choices ([`Tape::value_step`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValueStep {
    /// The choice's position in the tape.
    pub at: usize,
    /// Steps of index per step of value: 1 where indices are in value order (0, 1, 2, …
    /// from the simplest value), 2 where they alternate sides of it (0, 1, −1, 2, −2, …).
    pub step: u64,
    /// For an order that alternates sides: the index of the far end of the side that the
    /// choice's last index is not on (a signed integer's last index is its most negative
    /// value, so this is its largest positive one), when the generator knows it.
    pub far_side: Option<u64>,
    /// The value's distance from zero in steps of value (an integer's absolute value), when
    /// the generator knows it and it fits a [`u64`]: the shrinker reads two values in a fixed
    /// ratio from it (`20` and `10`: lowered together as `2·k` and `k`), which index
    /// arithmetic alone does not show (a range from 1 has index `value − 1`). It moves each
    /// index by `step` per unit of magnitude, so it reaches only magnitudes on the same part
    /// of the order (not, past the end of an alternating order, the values inside it).
    pub magnitude: Option<u64>,
    /// The last index of the part of the order this step describes, where that part ends
    /// before the choice's last index (a float's integers around its simplest value, up to
    /// 2^16 on each side, after which come its other values, fractions first: see
    /// [`Tape::value_order_ends`]); `None`: the whole range. The shrinker that moves an
    /// amount into this choice tries first to bring it to this index (a sum that must stay
    /// large is most often kept by the last value in order, in a range such as `0.0..=100.0`
    /// its largest integer).
    pub end: Option<u64>,
}

impl Recording {
    /// A fingerprint of the tape's structure — each choice's label (with its kind), its range
    /// and whether it was forced, in order; not the indices drawn. Saved with a regression:
    /// when a changed generator reads the same tape differently (a field added before the
    /// others, a range widened, a variant added), the structure it records differs.
    pub fn structure(&self) -> u64 {
        let mut h: u64 = 0x7374_7275_6374_7572;
        for (i, c) in self.choices.iter().enumerate() {
            let label = self.labels.get(i).map_or(0, |l| l.hash());
            h = mix(h, label);
            h = mix(h, c.max ^ (u64::from(c.forced) << 63));
        }
        mix(h, self.choices.len() as u64)
    }

    /// The indices of the unforced choices (what a [`super::ReplaySource`] replays).
    pub fn indices(&self) -> Vec<u64> {
        self.choices
            .iter()
            .filter(|c| !c.forced)
            .map(|c| c.index)
            .collect()
    }
}

/// The tape a generator draws every decision from.
///
/// Each draw asks the [`Source`] for an index and, when the tape records, appends a
/// [`Choice`]. Spans and choice-point ids are tracked for every source that reads the
/// context ([`Source::needs_context`]), so such a source sees the same [`DrawContext`]
/// whether or not the tape records. A non-recording tape is the hot path of random testing:
/// it keeps only a count and a fingerprint of what was drawn, and over a source that ignores
/// the context ([`RandomSource`], bytes, replay) it skips ids and spans altogether — the
/// values are the same, since the source's answers are. A source that ignores the context
/// but follows spans ([`Source::follows_spans`], the `rl` guide) is told of each span
/// instead of being given a path.
pub struct Tape<'s> {
    origin: Origin<'s>,
    /// Open spans on the fast path, where no span stack is kept.
    fast_depth: usize,
    recording: bool,
    choices: Vec<Choice>,
    labels: Vec<Label>,
    spans: Vec<Span>,
    stack: Vec<OpenSpan>,
    open: Vec<usize>,
    path: u64,
    drawn: usize,
    max_choices: usize,
    /// `max_choices` while the tape is on the random fast path with no capture on, else 0:
    /// `draw` makes one comparison for the common case ([`Tape::fast_room`]).
    fast_room: usize,
    /// Fingerprint lanes: even and odd draw positions.
    prints: [u64; 2],
    rejected_at: Option<usize>,
    nodes: usize,
    trace: Option<Trace<'s>>,
    /// Indices the source chose while a capture is on ([`Tape::start_capture`]).
    capture: Option<Vec<u64>>,
    /// Every draw, force and node count while a logged capture is on
    /// ([`Tape::start_logged_capture`]).
    log: Option<Box<Log>>,
    /// What generators suggested ([`Tape::suggest`]), while asked for.
    suggested: Option<Vec<(usize, u64)>>,
    /// What generators said of their index orders ([`Tape::value_step`]), kept while
    /// suggestions are asked for.
    value_steps: Vec<ValueStep>,
    shifts: Vec<Shift>,
}

impl<'s> Tape<'s> {
    /// A tape over `source`; `record` says whether choices and spans are kept.
    #[inline]
    pub fn new(source: &'s mut dyn Source, record: bool) -> Tape<'s> {
        let origin = if !record && source.is_random() {
            Origin::Fast(source.as_random().expect("is_random"))
        } else if !record && !source.needs_context() {
            if source.follows_spans() {
                Origin::Steered(source)
            } else {
                Origin::Plain(source)
            }
        } else {
            Origin::Context(source)
        };
        // A context tape keeps the open spans: room for typical nesting up front, because
        // growing from empty (4, 8, 16) cost a steering source's loop more than its learners.
        let stack = match origin {
            Origin::Context(_) => Vec::with_capacity(16),
            _ => Vec::new(),
        };
        let mut tape = Tape {
            origin,
            fast_depth: 0,
            recording: record,
            choices: Vec::new(),
            labels: Vec::new(),
            spans: Vec::new(),
            stack,
            open: Vec::new(),
            path: ROOT_PATH,
            drawn: 0,
            max_choices: DEFAULT_MAX_CHOICES,
            fast_room: 0,
            prints: PRINT_START,
            rejected_at: None,
            nodes: 0,
            trace: None,
            capture: None,
            log: None,
            suggested: None,
            value_steps: Vec::new(),
            shifts: Vec::new(),
        };
        tape.fast_room = tape.fast_room();
        tape
    }

    /// A recording tape over `source`.
    pub fn recording(source: &'s mut dyn Source) -> Tape<'s> {
        Tape::new(source, true)
    }

    /// A recording tape over `source` that records into `reuse`'s buffers (cleared first), so a
    /// loop that records run after run allocates nothing once the buffers have grown.
    pub fn recording_into(source: &'s mut dyn Source, reuse: Recording) -> Tape<'s> {
        let mut tape = Tape::new(source, true);
        let Recording {
            mut choices,
            mut spans,
            mut labels,
            ..
        } = reuse;
        choices.clear();
        spans.clear();
        labels.clear();
        tape.choices = choices;
        tape.spans = spans;
        tape.labels = labels;
        tape
    }

    /// Writes every index the source chooses into `trace` as it is chosen (not on the fast
    /// path of a random source: a random test case is its seed). The run loop traces the test
    /// cases of searches that steer their choices, so that one that kills the process leaves
    /// its choices behind.
    pub fn with_trace(mut self, trace: Option<Trace<'s>>) -> Tape<'s> {
        self.trace = trace;
        self
    }

    /// Asks generators for simpler indices of their choices ([`Tape::suggest`]), kept in
    /// [`Recording::suggested`]. A shrinker asks; everyone else saves the generators the work.
    /// No effect on a tape that does not record.
    pub fn with_suggestions(mut self) -> Tape<'s> {
        if self.recording {
            self.suggested = Some(Vec::new());
        }
        self
    }

    /// Whether [`Tape::suggest`] keeps what it is given: a generator whose suggestions cost
    /// work checks this first.
    #[inline]
    pub fn wants_suggestions(&self) -> bool {
        self.suggested.is_some()
    }

    /// Suggests `index` as a simpler index for the choice drawn last: one a shrinker should
    /// try before searching the choice's range, because the generator knows its value is
    /// simpler in a way the order of indices alone does not show (a float's shorter fraction
    /// lies far below it in that order, past many longer ones). Call it in the order the
    /// indices should be tried. Ignored unless [`Tape::wants_suggestions`], when nothing was
    /// drawn yet, and for an index that is not lower than the choice's own.
    ///
    /// ```
    /// use tapefuzz::generators::Gen;
    /// use tapefuzz::tape::{Fallback, Hint, Label, Reject, ReplaySource, Tape};
    ///
    /// /// Prices up to $100 in cents; a whole dollar amount is simpler than the cents
    /// /// between, which the order of indices (cents) does not show.
    /// struct Cents;
    ///
    /// impl Gen for Cents {
    ///     type Value = u64;
    ///     fn generate(&self, tape: &mut Tape<'_>) -> Result<u64, Reject> {
    ///         let cents = tape.draw(Label::new("cents"), 10_000, Hint::Int)?;
    ///         if tape.wants_suggestions() {
    ///             tape.suggest(cents / 100 * 100); // the whole dollars below
    ///         }
    ///         Ok(cents)
    ///     }
    /// }
    ///
    /// // What a shrinker sees when it replays the choice 1234 ($12.34):
    /// let mut replay = ReplaySource::new(vec![1234], Fallback::Simplest);
    /// let mut tape = Tape::recording(&mut replay).with_suggestions();
    /// assert_eq!(Cents.generate(&mut tape), Ok(1234));
    /// assert_eq!(tape.finish().suggested, [(0, 1200)]); // choice 0: try 1200 first
    /// ```
    pub fn suggest(&mut self, index: u64) {
        let at = self.choices.len().wrapping_sub(1);
        if let (Some(list), Some(last)) = (&mut self.suggested, self.choices.last())
            && index < last.index
            && !(list.iter().rev())
                .take_while(|&&(p, _)| p == at)
                .any(|&(_, i)| i == index)
        {
            list.push((at, index));
        }
    }

    /// Says how many steps of index make one step of value for the choice drawn last: 1 when
    /// its indices are in value order (0, 1, 2, … from the simplest value), 2 when they
    /// alternate sides of it (0, 1, −1, 2, −2, …: one index down flips the sign); for an
    /// alternating order, `far_side` is the index of the far end of the side its last index
    /// is not on, if known; `magnitude`, the value's distance from zero in steps of value (an
    /// integer's absolute value), if known. The shrinker that raises a choice to its last
    /// index (to keep an amount reached while an earlier choice is lowered) also tries
    /// `far_side`; a choice is lowered, and two choices that name the same step move an
    /// amount, by that step first (the other only where it does what multiples of this one
    /// cannot: an amount that must stay even, two signs flipped at once); two
    /// magnitudes in a small ratio are lowered together keeping it. Ignored unless
    /// [`Tape::wants_suggestions`], and when nothing was drawn yet; `step` 0 is ignored.
    ///
    /// ```
    /// use tapefuzz::generators::{Gen, ints};
    /// use tapefuzz::tape::{Fallback, ReplaySource, Tape, ValueStep};
    ///
    /// // Signed integers alternate sides of zero (the last index of -100..=100 is -100, so
    /// // the far end of the other side is 100, index 199); a range from zero counts up.
    /// let mut replay = ReplaySource::new(vec![8, 7], Fallback::Simplest);
    /// let mut tape = Tape::recording(&mut replay).with_suggestions();
    /// assert_eq!(ints::<i32>(-100..=100).generate(&mut tape), Ok(-4));
    /// assert_eq!(ints::<u32>(0..=100).generate(&mut tape), Ok(7));
    /// assert_eq!(
    ///     tape.finish().value_steps,
    ///     [
    ///         ValueStep { at: 0, step: 2, far_side: Some(199), magnitude: Some(4), end: None },
    ///         ValueStep { at: 1, step: 1, far_side: None, magnitude: Some(7), end: None },
    ///     ]
    /// );
    /// ```
    #[inline]
    pub fn value_step(&mut self, step: u64, far_side: Option<u64>, magnitude: Option<u64>) {
        if self.suggested.is_some() && step > 0 && !self.choices.is_empty() {
            self.value_steps.push(ValueStep {
                at: self.choices.len() - 1,
                step,
                far_side,
                magnitude,
                end: None,
            });
        }
    }

    /// Says that the value order named by [`Tape::value_step`] for the choice drawn last ends
    /// at index `end`, before the choice's last index ([`ValueStep::end`]: a float's
    /// integers around its simplest value, after which its other values come). Ignored when
    /// no value step was said for that choice (or suggestions are off), and when `end` is
    /// not below the choice's largest index.
    ///
    /// ```
    /// use tapefuzz::generators::{Gen, floats};
    /// use tapefuzz::tape::{Fallback, ReplaySource, Tape};
    ///
    /// // In 0.0..=100.0 the integers come first, 0.0 to 100.0 at indices 0 to 100.
    /// let g = floats::<f64>(0.0..=100.0);
    /// let mut replay = ReplaySource::new(vec![g.index_of(7.0).unwrap()], Fallback::Simplest);
    /// let mut tape = Tape::recording(&mut replay).with_suggestions();
    /// assert_eq!(g.generate(&mut tape), Ok(7.0));
    /// assert_eq!(tape.finish().value_steps[0].end, Some(100));
    /// ```
    #[inline]
    pub fn value_order_ends(&mut self, end: u64) {
        let at = self.choices.len().wrapping_sub(1);
        let below_max = self.choices.last().is_some_and(|c| end < c.max);
        if let Some(v) = self
            .value_steps
            .last_mut()
            .filter(|v| v.at == at && below_max)
        {
            v.end = Some(end);
        }
    }

    /// Names, for the choice drawn last, the index of the value `delta` units of value above
    /// the one drawn (see [`Shift`]): for a choice whose index order does not move its value
    /// by index arithmetic (a float's fraction, where [`Tape::value_step`] says nothing), so
    /// that a shrinker can move an amount into it from an earlier choice (`[10.0, 0.5]` with
    /// a sum to keep: `[1.0, 9.5]`). Ignored unless [`Tape::wants_suggestions`], and when
    /// nothing was drawn yet; `delta` 0 is ignored.
    ///
    /// ```
    /// use tapefuzz::generators::{Gen, floats};
    /// use tapefuzz::tape::{Fallback, ReplaySource, Shift, Tape};
    ///
    /// let g = floats::<f64>(0.0..=10.0);
    /// let at = g.index_of(7.5).unwrap();
    /// let mut replay = ReplaySource::new(vec![at], Fallback::Simplest);
    /// let mut tape = Tape::recording(&mut replay).with_suggestions();
    /// assert_eq!(g.generate(&mut tape), Ok(7.5));
    /// let shifts = tape.finish().shifts;
    /// // 8.5 and 9.5 (one and two units up); 11.5 is out of range.
    /// let up: Vec<(u64, f64)> = shifts.iter().map(|s| (s.delta, g.value_at(s.index))).collect();
    /// assert_eq!(up, [(1, 8.5), (2, 9.5)]);
    /// ```
    #[inline]
    pub fn value_shift(&mut self, delta: u64, index: u64) {
        if self.suggested.is_some() && delta > 0 && !self.choices.is_empty() {
            self.shifts.push(Shift {
                at: self.choices.len() - 1,
                delta,
                index,
            });
        }
    }

    /// Sets the size budget (number of choices before [`Reject::Overrun`]).
    pub fn with_max_choices(mut self, max: usize) -> Tape<'s> {
        self.max_choices = max;
        self.fast_room = self.fast_room();
        self
    }

    /// What [`Tape`]'s `fast_room` field should hold now: the size budget on the random fast
    /// path with no capture on, else 0 (every draw takes the general path).
    fn fast_room(&self) -> usize {
        match self.origin {
            Origin::Fast(_) if self.capture.is_none() => self.max_choices,
            _ => 0,
        }
    }

    /// Draws an index in `0..=max` at the choice point `label`. A choice with one option
    /// (`max == 0`) asks no source and is recorded as forced.
    ///
    /// Running out: a bytes source past its end and a replay source past its prefix give 0,
    /// the simplest index. Past the size budget this returns [`Reject::Overrun`].
    #[cfg_attr(not(fuzzing), inline(always))]
    #[cfg_attr(fuzzing, inline(never))]
    pub fn draw(&mut self, label: Label, max: u64, hint: Hint) -> Result<u64, Reject> {
        if self.drawn < self.fast_room
            && let Origin::Fast(src) = &mut self.origin
        {
            let index = if max == 0 { 0 } else { src.pick(max, hint) };
            self.count_draw(index);
            return Ok(index);
        }
        if self.drawn >= self.max_choices {
            return Err(Reject::Overrun);
        }
        if let Origin::Fast(src) = &mut self.origin {
            let index = if max == 0 {
                0
            } else {
                let i = src.pick(max, hint);
                if let Some(c) = &mut self.capture {
                    c.push(i);
                }
                i
            };
            self.count_draw(index);
            return Ok(index);
        }
        if let Origin::Plain(src) | Origin::Steered(src) = &mut self.origin {
            let index = if max == 0 {
                if let Some(l) = &mut self.log {
                    l.note(label, max, 0, false);
                }
                0
            } else {
                let ctx = DrawContext {
                    point: PointId(0),
                    label,
                    max,
                    hint,
                    position: self.drawn,
                    path: &[],
                    choices: &[],
                };
                let i = src.draw(&ctx).min(max);
                if let Some(t) = &mut self.trace {
                    t.push(i);
                }
                if let Some(c) = &mut self.capture {
                    c.push(i);
                    if let Some(l) = &mut self.log {
                        l.note(label, max, i, false);
                    }
                }
                i
            };
            self.count_draw(index);
            return Ok(index);
        }
        self.draw_with_context(label, max, hint)
    }

    #[inline(never)]
    fn draw_with_context(&mut self, label: Label, max: u64, hint: Hint) -> Result<u64, Reject> {
        let point = PointId(mix(self.path, label.hash()));
        let index = if max == 0 {
            0
        } else {
            let Origin::Context(source) = &mut self.origin else {
                unreachable!("fast tapes draw in `draw`")
            };
            let ctx = DrawContext {
                point,
                label,
                max,
                hint,
                position: self.drawn,
                path: &self.stack,
                choices: &self.choices,
            };
            let i = source.draw(&ctx);
            debug_assert!(i <= max, "source returned {i} > max {max}");
            let i = i.min(max);
            if let Some(t) = &mut self.trace {
                t.push(i);
            }
            if let Some(c) = &mut self.capture {
                c.push(i);
            }
            i
        };
        self.note(label, point, max, index, max == 0);
        Ok(index)
    }

    /// Draws a boolean (index 1 is `true`) that a random source makes true with probability `p`.
    /// Runs out like [`Tape::draw`]: `false`.
    #[cfg_attr(not(fuzzing), inline)]
    #[cfg_attr(fuzzing, inline(never))]
    pub fn draw_bool(&mut self, label: Label, p: f64) -> Result<bool, Reject> {
        self.draw(label, 1, Hint::Coin(p)).map(|i| i == 1)
    }

    /// Records a choice the generator had no freedom in: the source is not asked, no bytes are
    /// read, and mutators and shrinkers leave it alone. Counts against the size budget.
    #[cfg_attr(not(fuzzing), inline)]
    #[cfg_attr(fuzzing, inline(never))]
    pub fn force(&mut self, label: Label, max: u64, index: u64) -> Result<u64, Reject> {
        if self.drawn >= self.max_choices {
            return Err(Reject::Overrun);
        }
        if !matches!(self.origin, Origin::Context(_)) {
            // A forced choice follows from the draws before it: it adds nothing to the
            // fingerprint (and a collection's forced "one more?" coins cost no hash step).
            self.drawn += 1;
            if let Some(l) = &mut self.log {
                l.note(label, max, index, true);
            }
            return Ok(index);
        }
        let point = PointId(mix(self.path, label.hash()));
        self.drawn += 1;
        self.keep(label, point, max, index, true);
        Ok(index)
    }

    /// [`Tape::force`] for a boolean.
    #[cfg_attr(not(fuzzing), inline)]
    #[cfg_attr(fuzzing, inline(never))]
    pub fn force_bool(&mut self, label: Label, value: bool) -> Result<bool, Reject> {
        self.force(label, 1, value as u64).map(|_| value)
    }

    /// Counts a draw and adds it to its fingerprint lane.
    #[inline(always)]
    fn count_draw(&mut self, index: u64) {
        let lane = &mut self.prints[self.drawn & 1];
        *lane = print_step(*lane, index);
        self.drawn += 1;
    }

    #[inline]
    fn note(&mut self, label: Label, point: PointId, max: u64, index: u64, forced: bool) {
        self.count_draw(index);
        self.keep(label, point, max, index, forced);
    }

    /// Records a choice drawn and counted (on a recording tape).
    #[inline]
    fn keep(&mut self, label: Label, point: PointId, max: u64, index: u64, forced: bool) {
        if self.recording {
            self.choices.push(Choice {
                point,
                max,
                index,
                forced,
                in_run: false,
            });
            self.labels.push(label);
        }
    }

    /// Draws a payload run of `min..=max` bytes into `out` (appended): one length choice
    /// ([`Hint::Length`] with `p_more`, index `length - min`), then one choice with largest
    /// index 255 per byte (index = the byte), inside a [`builtin::PAYLOAD`] span. Encoded,
    /// that is the length's bytes then the raw bytes, so a byte mutation of the encoding is
    /// a mutation of the value; a bytes source clips the length to the input's end. Byte
    /// choices count against the size budget like any other (overrun:
    /// [`Reject::Overrun`], nothing appended past the budget). Running out: `min` zero
    /// bytes.
    ///
    /// [`builtin::PAYLOAD`]: super::builtin::PAYLOAD
    pub fn draw_payload(
        &mut self,
        min: usize,
        max: usize,
        p_more: f64,
        out: &mut Vec<u8>,
    ) -> Result<(), Reject> {
        use super::builtin::PAYLOAD;
        self.unlogged();
        let fast = self.is_fast();
        let depth = self.depth();
        if !fast {
            self.start_span(PAYLOAD);
        }
        let r = self.drawn_run(min, max, p_more, out);
        if !fast {
            self.close_to(depth);
        }
        r
    }

    /// Draws a run of text bytes into `out` (appended): a payload run of
    /// `spec.bytes_min..=spec.bytes_max` bytes ([`Tape::draw_payload`]'s layout and
    /// encoding) that a string generator reads as UTF-8. What the run holds depends on the
    /// source:
    /// - a random source: the bytes `random` writes (the generator's own distribution of
    ///   characters, encoded), cut to `bytes_max` and zero-padded to `bytes_min`, recorded
    ///   as if drawn;
    /// - a reader of an older encoding ([`super::LegacySource`]): `legacy` turns what that
    ///   version laid out into today's bytes — version 1's element indices (`spec.elements`,
    ///   [`Source::legacy_collection`]), version 2's bytes, which it repaired differently
    ///   ([`Source::legacy_text_bytes`]);
    /// - any other source (bytes, replay, the steering searches): a length and the bytes
    ///   themselves, drawn.
    ///
    /// Overrun and running out: as [`Tape::draw_payload`].
    pub fn draw_text(
        &mut self,
        spec: &TextRun,
        out: &mut Vec<u8>,
        random: &mut dyn FnMut(&mut RandomSource, &mut Vec<u8>),
        legacy: &dyn Fn(LegacyText<'_>, &mut Vec<u8>),
    ) -> Result<(), Reject> {
        use super::builtin::{PAYLOAD_BYTE, PAYLOAD_LEN, TEXT};
        self.unlogged();
        let fast = self.is_fast();
        let depth = self.depth();
        if !fast {
            self.start_span(TEXT);
        }
        let (min, max) = (spec.bytes_min, spec.bytes_max);
        let r = (|| {
            if self.drawn >= self.max_choices {
                return Err(Reject::Overrun);
            }
            let mut given = Vec::new();
            let have = match &mut self.origin {
                Origin::Fast(src) => {
                    random(src, &mut given);
                    true
                }
                Origin::Context(src) if src.is_random() => {
                    let src = src.as_random().expect("is_random");
                    random(src, &mut given);
                    true
                }
                Origin::Plain(src) | Origin::Steered(src) | Origin::Context(src) => {
                    let (e_min, e_max, e_top) = spec.elements;
                    if let Some(indices) = src.legacy_collection(e_min, e_max, e_top) {
                        legacy(LegacyText::Indices(&indices), &mut given);
                        true
                    } else if let Some(raw) = src.legacy_text_bytes(min, max) {
                        legacy(LegacyText::Bytes(&raw), &mut given);
                        true
                    } else {
                        false
                    }
                }
            };
            if !have {
                return self.drawn_run(min, max, spec.p_more, out);
            }
            given.truncate(max);
            if given.len() < min {
                given.resize(min, 0);
            }
            let extra = (given.len() - min) as u64;
            if max == min {
                self.force(PAYLOAD_LEN, 0, 0)?;
            } else {
                self.given(PAYLOAD_LEN, (max - min) as u64, extra, false);
            }
            if given.len() > self.max_choices.saturating_sub(self.drawn) {
                return Err(Reject::Overrun);
            }
            let start = out.len();
            out.extend_from_slice(&given);
            self.record_run(PAYLOAD_BYTE, start, out);
            Ok(())
        })();
        if !fast {
            self.close_to(depth);
        }
        r
    }

    /// A payload run's length and bytes, both drawn from the source (inside the run's span,
    /// which the caller opened).
    fn drawn_run(
        &mut self,
        min: usize,
        max: usize,
        p_more: f64,
        out: &mut Vec<u8>,
    ) -> Result<(), Reject> {
        use super::builtin::{PAYLOAD_BYTE, PAYLOAD_LEN};
        let spread = (max - min) as u64;
        let extra = if spread == 0 {
            self.force(PAYLOAD_LEN, 0, 0)?
        } else {
            let hint = Hint::Length {
                p_more,
                min: min as u64,
            };
            self.draw(PAYLOAD_LEN, spread, hint)?
        };
        let len = min + extra as usize;
        if len > self.max_choices.saturating_sub(self.drawn) {
            return Err(Reject::Overrun);
        }
        self.run_bytes(PAYLOAD_BYTE, len, out);
        Ok(())
    }

    /// Counts, traces and records a choice the tape decided itself (a random source's
    /// text run, a migrated one) as if the source had drawn it.
    fn given(&mut self, label: Label, max: u64, index: u64, in_run: bool) {
        if let Some(t) = &mut self.trace {
            t.push(index);
        }
        if let Some(c) = &mut self.capture {
            c.push(index);
        }
        match self.origin {
            Origin::Context(_) => {
                let point = PointId(mix(self.path, label.hash()));
                self.count_draw(index);
                if self.recording {
                    self.choices.push(Choice {
                        point,
                        max,
                        index,
                        forced: false,
                        in_run,
                    });
                    self.labels.push(label);
                }
            }
            _ => self.count_draw(index),
        }
    }

    /// The `len` byte choices of a payload run (the budget was checked), appended to `out`:
    /// in one call to the source where it allows ([`Source::fill_run`]), then counted,
    /// traced and recorded as the byte-by-byte draws they stand for.
    fn run_bytes(&mut self, label: Label, len: usize, out: &mut Vec<u8>) {
        let start = out.len();
        let filled = match &mut self.origin {
            Origin::Fast(src) => {
                src.fill_bytes(len, out);
                true
            }
            Origin::Plain(src) | Origin::Steered(src) => src.fill_run(len, out),
            // A random source ignores the context whatever it says: the same bytes as on
            // the fast path, so a test case re-run with recording is the same value.
            Origin::Context(src) => {
                (src.is_random() || !src.needs_context()) && src.fill_run(len, out)
            }
        };
        if !filled {
            for _ in 0..len {
                // A source that reads the context sees each byte as its own draw.
                let i = self.draw(label, 255, Hint::Int).unwrap_or(0);
                out.push(i as u8);
            }
            self.mark_run(len);
            return;
        }
        self.record_run(label, start, out);
    }

    /// Counts, traces and records `out[start..]` as the byte choices of a payload run.
    fn record_run(&mut self, label: Label, start: usize, out: &[u8]) {
        if !self.recording && self.trace.is_none() && self.capture.is_none() {
            // Only the fingerprint to keep (a fuzzer's check runs here for each input).
            // The two lanes' chains are independent: a pair of bytes a step.
            let bytes = &out[start..];
            let first = self.drawn & 1;
            let (mut a, mut b) = (self.prints[first], self.prints[first ^ 1]);
            let mut pairs = bytes.chunks_exact(2);
            for p in &mut pairs {
                a = print_step(a, u64::from(p[0]));
                b = print_step(b, u64::from(p[1]));
            }
            if let [last] = pairs.remainder() {
                a = print_step(a, u64::from(*last));
            }
            (self.prints[first], self.prints[first ^ 1]) = (a, b);
            self.drawn += bytes.len();
            return;
        }
        let point = PointId(mix(self.path, label.hash()));
        for &b in &out[start..] {
            let index = u64::from(b);
            if let Some(t) = &mut self.trace {
                t.push(index);
            }
            if let Some(c) = &mut self.capture {
                c.push(index);
            }
            self.count_draw(index);
            if self.recording {
                self.choices.push(Choice {
                    point,
                    max: 255,
                    index,
                    forced: false,
                    in_run: true,
                });
                self.labels.push(label);
            }
        }
    }

    /// Marks the last `len` recorded choices as bytes of a payload run.
    fn mark_run(&mut self, len: usize) {
        if self.recording {
            let n = self.choices.len();
            for c in &mut self.choices[n.saturating_sub(len)..] {
                c.in_run = true;
            }
        }
    }

    /// Opens a span; every choice until the matching [`Tape::end_span`] belongs to it.
    #[cfg_attr(not(fuzzing), inline(always))]
    #[cfg_attr(fuzzing, inline(never))]
    pub fn start_span(&mut self, label: Label) {
        match &mut self.origin {
            Origin::Fast(_) | Origin::Plain(_) => {
                self.fast_depth += 1;
                return;
            }
            Origin::Steered(src) => {
                self.fast_depth += 1;
                src.open_span(label, self.drawn);
                return;
            }
            Origin::Context(_) => {}
        }
        self.path = mix(self.path, label.hash());
        self.stack.push(OpenSpan {
            label,
            start: self.drawn,
            path: self.path,
        });
        if self.recording {
            let parent = self.open.last().copied();
            self.open.push(self.spans.len());
            self.spans.push(Span {
                label,
                start: self.drawn,
                end: self.drawn,
                parent,
                depth: self.stack.len() - 1,
            });
        }
    }

    /// Closes the innermost open span (does nothing when none is open).
    #[cfg_attr(not(fuzzing), inline)]
    #[cfg_attr(fuzzing, inline(never))]
    pub fn end_span(&mut self) {
        match &mut self.origin {
            Origin::Fast(_) | Origin::Plain(_) => {
                self.fast_depth = self.fast_depth.saturating_sub(1);
                return;
            }
            Origin::Steered(src) => {
                if self.fast_depth > 0 {
                    self.fast_depth -= 1;
                    src.close_span(self.drawn);
                }
                return;
            }
            Origin::Context(_) => {}
        }
        if self.stack.pop().is_none() {
            return;
        }
        self.path = self.stack.last().map_or(ROOT_PATH, |s| s.path);
        if self.recording
            && let Some(i) = self.open.pop()
        {
            self.spans[i].end = self.drawn;
        }
    }

    /// Runs `f` inside a span labelled `label`; the span is closed however `f` returns,
    /// together with any span `f` left open by returning early.
    #[inline(always)]
    pub fn span<T>(
        &mut self,
        label: Label,
        f: impl FnOnce(&mut Self) -> Result<T, Reject>,
    ) -> Result<T, Reject> {
        if self.is_fast() {
            return f(self);
        }
        let depth = self.depth();
        self.start_span(label);
        let r = f(self);
        self.close_to(depth);
        r
    }

    /// Closes open spans until `depth` remain.
    #[cfg_attr(not(fuzzing), inline(always))]
    #[cfg_attr(fuzzing, inline(never))]
    pub fn close_to(&mut self, depth: usize) {
        match &mut self.origin {
            Origin::Fast(_) | Origin::Plain(_) => self.fast_depth = self.fast_depth.min(depth),
            Origin::Steered(src) => {
                while self.fast_depth > depth {
                    self.fast_depth -= 1;
                    src.close_span(self.drawn);
                }
            }
            Origin::Context(_) => self.close_recorded_to(depth),
        }
    }

    #[inline(never)]
    fn close_recorded_to(&mut self, depth: usize) {
        // Not through `end_span`: this tape is known not to be fast, and the path is
        // restored once, from the span that stays open.
        while self.stack.len() > depth {
            self.stack.pop();
            if self.recording
                && let Some(i) = self.open.pop()
            {
                self.spans[i].end = self.drawn;
            }
        }
        self.path = self.stack.last().map_or(ROOT_PATH, |s| s.path);
    }

    /// Draws a collection of single-choice elements on the fast path, exactly as a collection
    /// loop with one draw per element would: before each element a "more?" coin with
    /// probability `p` (forced `true` below `min` elements, forced `false` at `max_len`), then
    /// one choice with largest index `max` and `hint`, handed to `each`. Same draws in the
    /// same order, so the same values, counts and fingerprint — only without per-draw
    /// overhead. Returns `None` (drawing nothing) when the tape is not on the fast path.
    #[inline(always)]
    pub fn fast_repeat(
        &mut self,
        min: usize,
        max_len: usize,
        p: f64,
        max: u64,
        hint: Hint,
        mut each: impl FnMut(u64),
    ) -> Option<Result<(), Reject>> {
        if self.capture.is_some() {
            // The general path writes every index to the capture.
            return None;
        }
        let Origin::Fast(shared) = &mut self.origin else {
            return None;
        };
        // A local copy keeps the generator state in registers for the loop.
        let mut local = (**shared).clone();
        let src = &mut local;
        let threshold = coin_threshold(p);
        let room = self.max_choices.saturating_sub(self.drawn);
        // Element `count` draws its coin at `2 * count` and its index at `2 * count + 1`;
        // below `bound`, both fit in the budget and the coin is not forced false.
        let bound = max_len.min(room / 2);
        // Coins land in one fingerprint lane and indices in the other, fixed by the parity of
        // the first position.
        let odd = self.drawn & 1;
        let (mut coins, mut indices) = (self.prints[odd], self.prints[odd ^ 1]);
        let biased = max > 255 && hint == Hint::Int;
        let mut count = 0;
        let mut ended = false;
        // The elements below `min`: their coins are forced true, so only the indices are drawn
        // (a loop of its own keeps the per-element tests out of it; the biased integer one
        // apart, because `pick`'s dispatch in the loop cost 15% on a vector of `u64`).
        let forced = min.min(bound);
        // The last integer drawn over this range, in a register (see `RandomSource::int`).
        let mut last = src.last_int(max);
        // A forced coin adds nothing to the fingerprint (see `Tape::force`).
        if biased && count < forced {
            // The first draw sets the last one over this range; the rest repeat it or not.
            let index = src.int_after(max, &mut last);
            indices = print_step(indices, index);
            each(index);
            count += 1;
            let prev = src.int_run_same(forced - count, max, index, |index| {
                indices = print_step(indices, index);
                each(index);
            });
            count = forced;
            last = (max, prev);
        } else if !biased {
            while count < forced {
                let index = if max == 0 { 0 } else { src.pick(max, hint) };
                indices = print_step(indices, index);
                each(index);
                count += 1;
            }
        }
        while count < bound {
            if biased && count >= min && src.pool_bits() < 32 {
                // Steady state of coin-then-integer pairs: each coin finds the pool short and
                // takes a fresh word, whose next 5 bits are the integer's bias bits — the same
                // draws as `coin` and `int` make, without the pool bookkeeping.
                let rng = src.rng();
                let (word, left) = loop {
                    let w = rng.next_u64();
                    let more = ((w & 0xffff_ffff) < threshold) as u64;
                    coins = print_step(coins, more);
                    if more == 0 {
                        ended = true;
                        break (w >> 32, 32);
                    }
                    let kind = (w >> 32) & 31;
                    let v = RandomSource::bias(rng.below_or_eq(max), kind, max);
                    let index = RandomSource::repeat(&mut last, v, kind, max);
                    indices = print_step(indices, index);
                    each(index);
                    count += 1;
                    if count >= bound {
                        break (w >> 37, 27);
                    }
                };
                src.set_pool(word, left);
                break;
            }
            let more = if count < min {
                1
            } else {
                let more = src.coin(threshold);
                coins = print_step(coins, more);
                more
            };
            if more == 0 {
                ended = true;
                break;
            }
            let index = match hint {
                _ if max == 0 => 0,
                Hint::Int if max > 255 => src.int_after(max, &mut last),
                _ => src.pick(max, hint),
            };
            indices = print_step(indices, index);
            each(index);
            count += 1;
        }
        if biased {
            src.set_last_int(max, last);
        }
        let (result, used) = if ended {
            (Ok(()), 2 * count + 1)
        } else if 2 * count >= room {
            (Err(Reject::Overrun), 2 * count)
        } else {
            // At the bound: the coin is forced false (`max_len`), or its index would overrun.
            let more = if count < min {
                1
            } else if count >= max_len {
                0
            } else {
                let more = src.coin(threshold);
                coins = print_step(coins, more);
                more
            };
            let result = if more == 0 {
                Ok(())
            } else {
                Err(Reject::Overrun)
            };
            (result, 2 * count + 1)
        };
        self.drawn += used;
        self.prints[odd] = coins;
        self.prints[odd ^ 1] = indices;
        if let Origin::Fast(shared) = &mut self.origin {
            **shared = local;
        }
        Some(result)
    }

    /// Whether this tape is on a fast path (non-recording, over a random source or one that
    /// ignores the draw context and spans): spans and choice-point ids are not tracked, only
    /// the draws, so a generator may skip opening spans.
    #[cfg_attr(not(fuzzing), inline(always))]
    #[cfg_attr(fuzzing, inline(never))]
    pub fn is_fast(&self) -> bool {
        matches!(self.origin, Origin::Fast(_) | Origin::Plain(_))
    }

    /// Starts capturing: from now until [`Tape::take_capture`], every index a source
    /// chooses (not forced choices, not one-option choices) is also written to a buffer, on
    /// every path of the tape including the fast one. What a generator uses to replay a part
    /// of its draws through another generator (the constrained generator's skeleton). A
    /// capture already on is restarted.
    pub fn start_capture(&mut self) {
        self.log = None;
        self.capture = Some(Vec::new());
        self.fast_room = self.fast_room();
    }

    /// Stops capturing and returns the indices chosen since [`Tape::start_capture`]
    /// (empty when no capture was on).
    pub fn take_capture(&mut self) -> Vec<u64> {
        self.log = None;
        let captured = self.capture.take().unwrap_or_default();
        self.fast_room = self.fast_room();
        captured
    }

    /// [`Tape::start_capture`], and a log of every draw until [`Tape::take_logged_capture`],
    /// for [`Tape::replay_segment`]. Only a tape over a source that steers without the draw
    /// context ([`Source::follows_spans`], not recording) logs every draw: on any other the
    /// log comes back as `None`.
    pub(crate) fn start_logged_capture(&mut self) {
        self.start_capture();
        self.log = Some(Box::new(Log {
            draws: Vec::new(),
            drawn_at: self.drawn,
            nodes_at: self.nodes,
            runs: false,
        }));
    }

    /// A payload or text run checks its length against the budget before drawing its bytes,
    /// which a replay of its draws one by one would not: a log that holds one is not replayed.
    fn unlogged(&mut self) {
        if let Some(l) = &mut self.log {
            l.runs = true;
        }
    }

    /// [`Tape::take_capture`], with the segment logged since
    /// [`Tape::start_logged_capture`]: `None` when a draw went unlogged (a tape that does not
    /// log) or a payload or text run was drawn (see [`Tape::unlogged`]).
    pub(crate) fn take_logged_capture(&mut self) -> (Vec<u64>, Option<Segment>) {
        let log = self.log.take();
        let captured = self.take_capture();
        let segment = log.and_then(|l| {
            let complete = matches!(self.origin, Origin::Steered(_))
                && !l.runs
                && l.draws.len() == self.drawn - l.drawn_at;
            complete.then(|| Segment {
                draws: l.draws,
                nodes: self.nodes - l.nodes_at,
            })
        });
        (captured, segment)
    }

    /// The indices the source will give for the next draws, when it knows them in advance
    /// ([`Source::planned`]); `None` on a tape that records or passes the draw context.
    pub(crate) fn planned(&self) -> Option<&[u64]> {
        match &self.origin {
            Origin::Steered(src) => src.planned(),
            _ => None,
        }
    }

    /// Makes the draws of `segment` again, in order (forced ones forced), and counts its
    /// nodes: what the generator that made it would do, when the source gives the same
    /// indices ([`Tape::planned`] starts with [`Segment::chosen`]) and the generator
    /// depends on nothing else. The spans it opened are not reopened. Overruns as the
    /// generator would.
    pub(crate) fn replay_segment(&mut self, segment: &Segment) -> Result<(), Reject> {
        for d in &segment.draws {
            if d.forced {
                self.force(d.label, d.max, d.index)?;
            } else {
                let i = self.draw(d.label, d.max, Hint::Uniform)?;
                debug_assert_eq!(i, d.index, "the source gave what it planned");
            }
        }
        self.nodes += segment.nodes;
        Ok(())
    }

    /// Number of open spans.
    #[cfg_attr(fuzzing, inline(never))]
    pub fn depth(&self) -> usize {
        match self.origin {
            Origin::Fast(_) | Origin::Plain(_) | Origin::Steered(_) => self.fast_depth,
            Origin::Context(_) => self.stack.len(),
        }
    }

    /// Records that the value was rejected here and returns [`Reject::Invalid`].
    #[cfg_attr(fuzzing, inline(never))]
    pub fn reject(&mut self) -> Reject {
        if self.rejected_at.is_none() {
            self.rejected_at = Some(self.drawn);
        }
        Reject::Invalid
    }

    /// Counts one node of a recursive structure and returns the count so far.
    #[cfg_attr(fuzzing, inline(never))]
    pub fn count_node(&mut self) -> usize {
        self.nodes += 1;
        self.nodes
    }

    /// Nodes counted so far by recursive generators.
    pub fn nodes(&self) -> usize {
        self.nodes
    }

    /// Number of choices drawn so far (recorded or not).
    pub fn drawn(&self) -> usize {
        self.drawn
    }

    /// A hash of the indices drawn so far: equal tapes give equal fingerprints. Choices made
    /// with [`Tape::force`] are counted but not hashed (the draws before them decide them);
    /// one-option draws are hashed like any other.
    pub fn fingerprint(&self) -> u64 {
        join(self.prints, self.drawn)
    }

    /// Whether this tape keeps choices and spans.
    pub fn is_recording(&self) -> bool {
        self.recording
    }

    /// The choices recorded so far.
    pub fn choices(&self) -> &[Choice] {
        &self.choices
    }

    /// Position of the rejection, if any.
    pub fn rejected_at(&self) -> Option<usize> {
        self.rejected_at
    }

    /// Ends the test case: closes open spans and hands over the record.
    pub fn finish(mut self) -> Recording {
        self.take_recording()
    }

    /// [`Tape::finish`] without moving the tape (a few hundred bytes) into the call: the
    /// run loop's hot path ends every test case this way; the tape is left empty.
    #[inline]
    pub(crate) fn take_recording(&mut self) -> Recording {
        self.close_to(0);
        Recording {
            choices: std::mem::take(&mut self.choices),
            spans: std::mem::take(&mut self.spans),
            rejected_at: self.rejected_at,
            labels: std::mem::take(&mut self.labels),
            suggested: self
                .suggested
                .as_mut()
                .map(std::mem::take)
                .unwrap_or_default(),
            value_steps: std::mem::take(&mut self.value_steps),
            shifts: std::mem::take(&mut self.shifts),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{BytesSource, Fallback, RandomSource, ReplaySource};
    use super::*;

    const A: Label = Label::new("a");
    const S: Label = Label::new("s");

    #[test]
    fn suggestions_are_kept_when_asked_for_lower_indices_only() {
        let mut src = ReplaySource::new(vec![5, 9], Fallback::Simplest);
        let mut t = Tape::recording(&mut src).with_suggestions();
        t.suggest(1); // nothing drawn yet
        t.draw(A, 9, Hint::Uniform).unwrap();
        for i in [2, 7, 5, 2, 0] {
            t.suggest(i);
        }
        t.draw(A, 9, Hint::Uniform).unwrap();
        t.suggest(3);
        assert_eq!(t.finish().suggested, [(0, 2), (0, 0), (1, 3)]);
        let mut src = ReplaySource::new(vec![5], Fallback::Simplest);
        let mut t = Tape::new(&mut src, false).with_suggestions();
        assert!(!t.wants_suggestions());
        t.draw(A, 9, Hint::Uniform).unwrap();
        t.suggest(1);
        assert!(t.finish().suggested.is_empty());
    }

    #[test]
    fn records_spans_and_points() {
        let mut src = RandomSource::new(1);
        let mut t = Tape::recording(&mut src);
        t.draw(A, 9, Hint::Uniform).unwrap();
        t.span(S, |t| t.draw(A, 9, Hint::Uniform)).unwrap();
        let r = t.finish();
        assert_eq!(r.choices.len(), 2);
        assert_ne!(r.choices[0].point, r.choices[1].point);
        assert_eq!(r.spans.len(), 1);
        assert_eq!((r.spans[0].start, r.spans[0].end), (1, 2));
    }

    #[test]
    fn overrun_past_budget() {
        let mut src = BytesSource::new(&[]);
        let mut t = Tape::recording(&mut src).with_max_choices(1);
        assert_eq!(t.draw(A, 1, Hint::Uniform), Ok(0));
        assert_eq!(t.draw(A, 1, Hint::Uniform), Err(Reject::Overrun));
    }

    /// A source that follows spans and, inside a span, plans the indices it will give.
    struct Planner {
        plan: Vec<u64>,
        at: usize,
        inside: bool,
        given: Vec<u64>,
    }

    impl Source for Planner {
        fn draw(&mut self, ctx: &DrawContext<'_>) -> u64 {
            let i = self.plan.get(self.at).copied().unwrap_or(0).min(ctx.max);
            self.at += 1;
            self.given.push(i);
            i
        }
        fn needs_context(&self) -> bool {
            false
        }
        fn follows_spans(&self) -> bool {
            true
        }
        fn open_span(&mut self, _label: Label, _position: usize) {
            self.inside = true;
        }
        fn planned(&self) -> Option<&[u64]> {
            self.inside
                .then(|| &self.plan[self.at.min(self.plan.len())..])
        }
    }

    fn planner() -> Planner {
        Planner {
            plan: vec![3, 1, 2],
            at: 0,
            inside: false,
            given: Vec::new(),
        }
    }

    /// Draws, a forced coin, a one-option draw and a node, as a generator would.
    fn stretch(t: &mut Tape<'_>) -> Result<(), Reject> {
        t.draw(A, 5, Hint::Uniform)?;
        t.force_bool(A, true)?;
        t.draw(A, 0, Hint::Uniform)?;
        t.draw(A, 3, Hint::Uniform)?;
        t.count_node();
        t.draw(A, 9, Hint::Int)?;
        Ok(())
    }

    #[test]
    fn a_logged_segment_replays_as_the_draws_that_made_it() {
        let mut first = planner();
        let mut t = Tape::new(&mut first, false);
        t.draw(A, 1, Hint::Uniform).unwrap();
        t.start_span(S);
        assert_eq!(t.planned(), Some(&[1, 2][..]));
        t.start_logged_capture();
        stretch(&mut t).unwrap();
        let (captured, segment) = t.take_logged_capture();
        t.end_span();
        let segment = segment.expect("a steered tape logs every draw");
        assert_eq!(captured, [1, 2, 0]);
        assert!(segment.chosen().eq(captured.iter().copied()));
        let made = (t.fingerprint(), t.drawn(), t.nodes());

        let mut second = planner();
        let mut t = Tape::new(&mut second, false);
        t.draw(A, 1, Hint::Uniform).unwrap();
        t.start_span(S);
        t.replay_segment(&segment).unwrap();
        t.end_span();
        assert_eq!((t.fingerprint(), t.drawn(), t.nodes()), made);
        assert_eq!(second.given, first.given);

        // Where the budget ends inside it, the replay overruns as the generator did.
        let mut third = planner();
        let mut t = Tape::new(&mut third, false).with_max_choices(4);
        t.draw(A, 1, Hint::Uniform).unwrap();
        assert_eq!(t.replay_segment(&segment), Err(Reject::Overrun));
        let mut fourth = planner();
        let mut t = Tape::new(&mut fourth, false).with_max_choices(4);
        t.draw(A, 1, Hint::Uniform).unwrap();
        assert_eq!(stretch(&mut t), Err(Reject::Overrun));
    }

    #[test]
    fn a_payload_run_is_not_logged() {
        let mut src = planner();
        let mut t = Tape::new(&mut src, false);
        t.start_span(S);
        t.start_logged_capture();
        t.draw(A, 5, Hint::Uniform).unwrap();
        t.draw_payload(0, 4, 0.5, &mut Vec::new()).unwrap();
        assert_eq!(t.take_logged_capture().1, None);
    }

    #[test]
    fn only_a_steered_tape_plans_and_logs() {
        let mut src = RandomSource::new(3);
        let mut t = Tape::new(&mut src, false);
        assert_eq!(t.planned(), None);
        t.start_logged_capture();
        stretch(&mut t).unwrap();
        let (captured, segment) = t.take_logged_capture();
        assert_eq!(captured.len(), 3);
        assert_eq!(segment, None);
        let mut src = planner();
        let mut t = Tape::recording(&mut src);
        t.start_span(S);
        assert_eq!(t.planned(), None);
    }

    /// A source that follows spans and logs what it is told.
    #[derive(Default)]
    struct Follower {
        log: Vec<String>,
        context: bool,
    }

    impl Source for Follower {
        fn draw(&mut self, ctx: &DrawContext<'_>) -> u64 {
            self.log
                .push(format!("draw@{} depth {}", ctx.position, ctx.path.len()));
            0
        }
        fn needs_context(&self) -> bool {
            self.context
        }
        fn follows_spans(&self) -> bool {
            true
        }
        fn open_span(&mut self, label: Label, position: usize) {
            self.log.push(format!("open {}@{position}", label.name()));
        }
        fn close_span(&mut self, position: usize) {
            self.log.push(format!("close@{position}"));
        }
    }

    #[test]
    fn a_source_that_follows_spans_is_told_of_each_and_draws_without_a_path() {
        let mut src = Follower::default();
        let mut t = Tape::new(&mut src, false);
        assert!(!t.is_fast(), "generators must open their spans");
        t.draw(A, 1, Hint::Uniform).unwrap();
        t.span(S, |t| {
            t.start_span(A);
            t.draw(A, 1, Hint::Uniform)?;
            // Left open: `span` closes it with its own.
            Ok(())
        })
        .unwrap();
        assert_eq!(t.depth(), 0);
        t.end_span();
        t.start_span(S);
        t.close_to(0);
        assert_eq!(
            src.log,
            [
                "draw@0 depth 0",
                "open s@1",
                "open a@1",
                "draw@1 depth 0",
                "close@2",
                "close@2",
                "open s@2",
                "close@2",
            ]
        );
        // A source that needs the context gets the path instead, and no calls.
        let mut src = Follower {
            context: true,
            ..Follower::default()
        };
        let mut t = Tape::new(&mut src, false);
        t.span(S, |t| t.draw(A, 1, Hint::Uniform)).unwrap();
        assert_eq!(src.log, ["draw@0 depth 1"]);
    }

    #[test]
    fn forced_choices_read_no_bytes() {
        let mut src = BytesSource::new(&[7]);
        let mut t = Tape::recording(&mut src);
        assert!(t.force_bool(A, true).unwrap());
        assert_eq!(t.draw(A, 255, Hint::Uniform), Ok(7));
    }
}
