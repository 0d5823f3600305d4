//! The neighbourhood of a recorded tape, constructed automatically from the generator's own
//! draws (paper 000, Tables I and II): a [`Source`] that re-runs the generator and answers
//! each choice near the base tape's answer.
//!
//! - **Alignment by span path.** Every choice of the base is keyed by where it sits in the
//!   span tree: the labels of its enclosing spans, each with its ordinal among same-label
//!   siblings, then its own label and ordinal. The neighbour's draws are keyed the same way
//!   as they happen, so when a dependent generator draws a different shape (a union switched
//!   variant, a list got longer, a count drawn first changed), the rest still finds its base
//!   answers by path, not by position. A draw with no base answer is fresh (random).
//! - **Lists** (spans labelled `element`, opened by a `more` coin): before each element, with
//!   probabilities scaled by the temperature and a growth coefficient drawn per neighbour,
//!   insert a fresh element, delete the base element, modify it, or keep it.
//! - **Numbers** (any other choice with more than two options) move uniformly within a window
//!   of `window × range × t` indices each way (at least one); **unions** (`one_of`,
//!   `weighted`, `sampled_from` choices) switch to another variant, whose span is then fresh;
//!   **coins** flip. Choices outside any list element (tuple and struct fields, a count
//!   drawn first) are modified with probability `field × t`; inside a modified element with
//!   probability `leaf`.
//! - **Hand-written neighbourhoods** (`with_neighbour`): the base's value and steps are
//!   kept and one more step is taken, drawn by the user's function. When that function calls
//!   the constructed neighbourhood (`Step::constructed`), the call's span is aligned to the
//!   same call in the base's last step, or for a first call to the wrapped generator's own
//!   value, and gets the constructed neighbourhood described here.
//! - **Zero temperature** changes nothing: a valid base comes back unchanged, and a base
//!   answer that no longer fits (its index above the new maximum) is replaced by a random one.
//!
//! The same source, with temperature 0 and `edits` applied to some base choices, realigns a
//! positional edit made by an [`super::Operator`]: see [`Neighbour::with_edits`].

use crate::tape::builtin::{
    MORE, NEIGHBOUR_ANOTHER as ANOTHER, NEIGHBOUR_BASE as BASE, NEIGHBOUR_CONSTRUCTED,
    NEIGHBOUR_STEP as STEP,
};
use crate::tape::{
    DrawContext, Hint, Kind, Label, NeighbourPart, OpenSpan, RandomSource, Recording, Rng, Source,
};
/// Keys are already well-mixed path hashes: hashed as themselves (SipHash dominated the
/// cost of indexing a base).
type HashMap<K, V> =
    std::collections::HashMap<K, V, std::hash::BuildHasherDefault<crate::tape::PassThrough>>;

/// `generators::MAX_STEPS`: a base with this many hand-written steps gets a fresh span.
const MAX_STEPS: u32 = 1000;

/// The settings of the constructed neighbourhood; every probability is multiplied by the
/// temperature `t` in `0..=1` except `leaf`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Neighbourhood {
    /// Per list element: probability (× t) that it is changed structurally (inserted before
    /// or deleted), split by the growth coefficient.
    pub resize: f64,
    /// Per list element: probability (× t) that it is modified.
    pub modify: f64,
    /// Per choice outside any list element: probability (× t) that it is modified.
    pub field: f64,
    /// Per choice inside a modified element: probability that it is modified.
    pub leaf: f64,
    /// Half-width of a number's window, as a share of its range (× t; at least one index).
    pub window: f64,
    /// The growth coefficient is drawn uniformly from this range per neighbour: the share of
    /// structural changes that insert rather than delete.
    pub growth: (f64, f64),
}

impl Default for Neighbourhood {
    /// The paper's numbers where it gives them (window 5% of the range × t each way, growth
    /// coefficient in 0.1..0.9); list and field rates chosen so that a neighbour at t = 1
    /// changes a few parts of a large input.
    fn default() -> Neighbourhood {
        Neighbourhood {
            resize: 0.2,
            modify: 0.1,
            field: 0.5,
            leaf: 0.5,
            window: 0.05,
            growth: (0.1, 0.9),
        }
    }
}

/// One base choice, by key.
#[derive(Clone, Copy, Debug)]
struct BaseChoice {
    index: u64,
    label: Label,
}

/// The base tape indexed by span path.
#[derive(Clone, Debug, Default)]
pub struct Aligned {
    choices: HashMap<u64, BaseChoice>,
    spans: HashMap<u64, bool>,
    /// Key of each unforced base choice, by position (for [`Neighbour::with_edits`]).
    keys: Vec<Option<u64>>,
}

const ROOT: u64 = 0x6a09_e667_f3bc_c908;

fn key(parent: u64, label: Label, ordinal: u32) -> u64 {
    let x = (parent.rotate_left(29) ^ label.hash()).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let x = (x ^ (x >> 31) ^ u64::from(ordinal)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^ (x >> 27)
}

/// Ordinal counters of one span, per label.
#[derive(Clone, Debug, Default)]
struct Counters(Vec<(Label, u32)>);

impl Counters {
    fn peek(&self, label: Label) -> u32 {
        self.0
            .iter()
            .find(|(l, _)| *l == label)
            .map_or(0, |&(_, n)| n)
    }
    fn bump(&mut self, label: Label, by: u32) -> u32 {
        match self.0.iter_mut().find(|(l, _)| *l == label) {
            Some((_, n)) => {
                let old = *n;
                *n += by;
                old
            }
            None => {
                self.0.push((label, by));
                0
            }
        }
    }
}

impl Aligned {
    /// Indexes `base` by span path. Only spans holding an unforced choice count (a source
    /// never sees the others), exactly as [`Neighbour`] counts them while drawing.
    pub fn new(base: &Recording) -> Aligned {
        let n = base.choices.len();
        let mut unforced_prefix = vec![0usize; n + 1];
        for (i, c) in base.choices.iter().enumerate() {
            unforced_prefix[i + 1] = unforced_prefix[i] + usize::from(!c.forced);
        }
        let visible =
            |s: &crate::tape::Span| unforced_prefix[s.end.min(n)] > unforced_prefix[s.start.min(n)];
        let mut span_keys = vec![0u64; base.spans.len()];
        let mut span_counters: Vec<Counters> = vec![Counters::default(); base.spans.len()];
        let mut root_counters = Counters::default();
        let mut owner = vec![usize::MAX; n];
        let mut spans = HashMap::default();
        for (i, s) in base.spans.iter().enumerate() {
            if !visible(s) {
                continue;
            }
            let (pkey, counters) = match s.parent {
                Some(p) => (span_keys[p], &mut span_counters[p]),
                None => (ROOT, &mut root_counters),
            };
            let k = key(pkey, s.label, counters.bump(s.label, 1));
            span_keys[i] = k;
            spans.insert(k, true);
            for o in &mut owner[s.start.min(n)..s.end.min(n)] {
                *o = i;
            }
        }
        let mut choices = HashMap::with_capacity_and_hasher(n, Default::default());
        let mut keys = vec![None; n];
        let mut root_choice_counters = Counters::default();
        let mut choice_counters: Vec<Counters> = vec![Counters::default(); base.spans.len()];
        for (i, c) in base.choices.iter().enumerate() {
            if c.forced {
                continue;
            }
            let label = base.labels.get(i).copied().unwrap_or(Label::new(""));
            let (pkey, counters) = match owner[i] {
                usize::MAX => (ROOT, &mut root_choice_counters),
                o => (span_keys[o], &mut choice_counters[o]),
            };
            let k = key(pkey, label, counters.bump(label, 1));
            choices.insert(
                k,
                BaseChoice {
                    index: c.index,
                    label,
                },
            );
            keys[i] = Some(k);
        }
        Aligned {
            choices,
            spans,
            keys,
        }
    }
}

/// What happens to the draws of one span of the neighbour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Outside any list element: fields modified with probability `field × t`.
    Fields,
    /// A list element being modified: choices modified with probability `leaf`.
    Modify,
    /// Copied from the base unchanged.
    Keep,
    /// No base: drawn at random.
    Fresh,
    /// A span with a hand-written neighbourhood: its base and steps are kept and one more
    /// step is taken (drawn at random by the user's function).
    User,
}

/// One open span of the neighbour, with the base key it is aligned to.
#[derive(Clone, Debug)]
struct Frame {
    label: Label,
    start: usize,
    key: u64,
    mode: Mode,
    /// For [`Mode::User`]: the hand-written steps the base took.
    steps: u32,
    spans: Counters,
    choices: Counters,
}

/// A source that draws a neighbour of a base tape (see the module documentation).
pub struct Neighbour<'a> {
    base: &'a Aligned,
    settings: Neighbourhood,
    t: f64,
    growth: f64,
    rng: Rng,
    fresh: RandomSource,
    stack: Vec<Frame>,
    root: Frame,
    edits: HashMap<u64, u64>,
}

impl<'a> Neighbour<'a> {
    /// A neighbour of `base` at temperature `t` (clamped to `0..=1`), with randomness from
    /// `seed`.
    pub fn new(base: &'a Aligned, settings: Neighbourhood, t: f64, seed: u64) -> Neighbour<'a> {
        let mut rng = Rng::new(seed);
        let t = if t.is_finite() {
            t.clamp(0.0, 1.0)
        } else {
            0.0
        };
        let (lo, hi) = settings.growth;
        let growth = lo + (hi - lo) * (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let fresh = RandomSource::new(rng.next_u64());
        Neighbour {
            base,
            settings,
            t,
            growth,
            rng,
            fresh,
            stack: Vec::new(),
            root: Frame {
                label: Label::new(""),
                start: 0,
                key: ROOT,
                mode: Mode::Fields,
                steps: 0,
                spans: Counters::default(),
                choices: Counters::default(),
            },
            edits: HashMap::default(),
        }
    }

    /// Zero temperature, with the base choices at `positions` answered by the given indices
    /// instead: realigns a positional edit (the rest of the tape follows by span path).
    /// Positions of forced or unknown choices are ignored.
    pub fn with_edits(mut self, edits: impl IntoIterator<Item = (usize, u64)>) -> Neighbour<'a> {
        self.t = 0.0;
        for (pos, index) in edits {
            if let Some(Some(k)) = self.base.keys.get(pos) {
                self.edits.insert(*k, index);
            }
        }
        self
    }

    fn chance(&mut self, p: f64) -> bool {
        p > 0.0 && self.rng.chance(p.min(1.0))
    }

    /// Brings the frame stack in line with the tape's open spans, opening (and deciding the
    /// fate of) the spans entered since the last draw.
    fn sync(&mut self, path: &[OpenSpan]) {
        let mut same = 0;
        while same < self.stack.len()
            && same < path.len()
            && self.stack[same].label == path[same].label
            && self.stack[same].start == path[same].start
        {
            same += 1;
        }
        self.stack.truncate(same);
        for open in &path[same..] {
            let frame = self.open(open);
            self.stack.push(frame);
        }
    }

    fn open(&mut self, open: &OpenSpan) -> Frame {
        let t = self.t;
        let s = self.settings;
        let parent_mode = self.stack.last().map_or(self.root.mode, |f| f.mode);
        let parent_key = self.stack.last().map_or(ROOT, |f| f.key);
        // Inside a span with a hand-written neighbourhood, the base and its steps are kept.
        let mut mode = if parent_mode == Mode::User {
            Mode::Keep
        } else {
            parent_mode
        };
        let mut ordinal = self.top().spans.peek(open.label);
        let mut k = key(parent_key, open.label, ordinal);
        if open.label.kind() == Kind::Neighbour(NeighbourPart::Constructed)
            && t > 0.0
            && let Some(aligned) = self.constructed_base(ordinal)
        {
            k = aligned;
            mode = Mode::Fields;
        }
        if mode != Mode::Fresh && !self.base.spans.contains_key(&k) {
            mode = Mode::Fresh;
        }
        let mut steps = 0;
        if open.label.kind() == Kind::Neighbour(NeighbourPart::Span)
            && matches!(mode, Mode::Fields | Mode::Modify)
            && t > 0.0
        {
            while self
                .base
                .choices
                .get(&key(k, ANOTHER, steps))
                .is_some_and(|c| c.index == 1)
            {
                steps += 1;
            }
            mode = if steps >= MAX_STEPS {
                Mode::Fresh
            } else {
                Mode::User
            };
        }
        let mut consume = 1;
        if open.label.kind() == Kind::Element && matches!(mode, Mode::Fields | Mode::Modify) {
            let continues = self
                .base
                .choices
                .get(&key(k, MORE, 0))
                .is_some_and(|c| c.index == 1);
            let r = (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            let add = t * s.resize * self.growth;
            let del = t * s.resize * (1.0 - self.growth);
            let modify = t * s.modify;
            if r < add {
                // Insert a fresh element here; the base element comes next.
                mode = Mode::Fresh;
                consume = 0;
            } else if continues && r < add + del {
                // Skip the base element: this span takes the next one's place.
                ordinal += 1;
                self.top_mut().spans.bump(open.label, 1);
                k = key(parent_key, open.label, ordinal);
                mode = if self.base.spans.contains_key(&k) {
                    Mode::Keep
                } else {
                    Mode::Fresh
                };
            } else if r < add + del + modify {
                mode = Mode::Modify;
            } else {
                mode = Mode::Keep;
            }
        }
        self.top_mut().spans.bump(open.label, consume);
        Frame {
            label: open.label,
            start: open.start,
            key: k,
            mode,
            steps,
            spans: Counters::default(),
            choices: Counters::default(),
        }
    }

    /// For a `neighboured.constructed` span with `ordinal` opening right inside the new
    /// hand-written step: the key of the base span it continues. That is the same call in
    /// the base's last step, or, for a first call, the wrapped generator's own value (the
    /// function is expected to pass the wrapped generator then). `None` elsewhere, and when
    /// the base has no such span: the call is then drawn fresh.
    fn constructed_base(&self, ordinal: u32) -> Option<u64> {
        let n = self.stack.len();
        let step = &self.stack[n.checked_sub(1)?];
        let user = &self.stack[n.checked_sub(2)?];
        // Only the new step: it is the one with no base (the base's steps are kept).
        if user.mode != Mode::User
            || step.label.kind() != Kind::Neighbour(NeighbourPart::Step)
            || step.mode != Mode::Fresh
        {
            return None;
        }
        let previous = user
            .steps
            .checked_sub(1)
            .map(|last| key(key(user.key, STEP, last), NEIGHBOUR_CONSTRUCTED, ordinal));
        let first = (ordinal == 0).then(|| key(user.key, BASE, 0));
        previous
            .into_iter()
            .chain(first)
            .find(|k| self.base.spans.contains_key(k))
    }

    fn top(&self) -> &Frame {
        self.stack.last().unwrap_or(&self.root)
    }

    fn top_mut(&mut self) -> &mut Frame {
        self.stack.last_mut().unwrap_or(&mut self.root)
    }

    /// A number's neighbour: uniform within the temperature-scaled window, never itself.
    fn window(&mut self, index: u64, max: u64) -> u64 {
        let r = ((max as f64) * self.settings.window * self.t)
            .round()
            .max(1.0) as u64;
        let lo = index.saturating_sub(r);
        let hi = index.saturating_add(r).min(max);
        if hi == lo {
            return index;
        }
        let mut v = lo + self.rng.below_or_eq(hi - lo - 1);
        if v >= index {
            v += 1;
        }
        v.min(max)
    }
}

impl Source for Neighbour<'_> {
    fn draw(&mut self, ctx: &DrawContext<'_>) -> u64 {
        self.sync(ctx.path);
        let frame = self.top_mut();
        let mode = frame.mode;
        let ordinal = frame.choices.bump(ctx.label, 1);
        let k = key(frame.key, ctx.label, ordinal);
        if mode == Mode::User && ctx.label.kind() == Kind::Neighbour(NeighbourPart::Another) {
            // Keep the base's steps, take one more.
            return u64::from(ordinal <= frame.steps).min(ctx.max);
        }
        if ctx.label.kind() == Kind::Neighbour(NeighbourPart::Temperature) && mode == Mode::Fresh {
            return ((self.t * ctx.max as f64).round() as u64).min(ctx.max);
        }
        if mode == Mode::Fresh {
            return self.fresh.draw(ctx);
        }
        let Some(base) = self.base.choices.get(&k).copied() else {
            return self.fresh.draw(ctx);
        };
        if let Some(&i) = self.edits.get(&k) {
            return i.min(ctx.max);
        }
        if base.index > ctx.max || base.label != ctx.label {
            return self.fresh.draw(ctx);
        }
        let p = match mode {
            Mode::Fields => self.settings.field * self.t,
            Mode::Modify => self.settings.leaf,
            Mode::Keep | Mode::Fresh | Mode::User => 0.0,
        };
        // A list's `more` coin follows the list operations, not a flip.
        if ctx.label.kind() == Kind::More || ctx.max == 0 || !self.chance(p) {
            return base.index;
        }
        match ctx.hint {
            Hint::Coin(_) => 1 - base.index.min(1),
            _ if ctx.label.kind() == Kind::Union => {
                let other = self.rng.below_or_eq(ctx.max - 1);
                if other >= base.index {
                    other + 1
                } else {
                    other
                }
            }
            _ if ctx.max == 1 => 1 - base.index,
            _ => self.window(base.index, ctx.max),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::{Gen, GenExt, Step, bools, ints, vecs};
    use crate::one_of;
    use crate::tape::{ReplaySource, Tape};

    fn record<G: Gen>(g: &G, src: &mut dyn Source) -> (G::Value, Recording) {
        let mut tape = Tape::recording(src);
        let v = g.generate(&mut tape).expect("generates");
        (v, tape.finish())
    }

    #[test]
    fn zero_temperature_changes_nothing() {
        let g = vecs(
            (
                ints::<u8>(0..=100),
                one_of![ints::<u8>(0..=9), ints::<u8>(50..=59)],
            ),
            0..=30,
        );
        for seed in 0..50 {
            let (v, rec) = record(&g, &mut RandomSource::new(seed));
            let aligned = Aligned::new(&rec);
            let mut n = Neighbour::new(&aligned, Neighbourhood::default(), 0.0, seed);
            let (w, _) = record(&g, &mut n);
            assert_eq!(v, w);
        }
    }

    /// A list of six numbers whose hand-written neighbourhood moves one element by ±1, next
    /// to a number with the constructed neighbourhood.
    fn plus_minus_one() -> impl Gen<Value = (u8, Vec<i32>)> {
        let list = vecs(ints::<i32>(-1000..=1000), 6..=6).with_neighbour(
            |v: &Vec<i32>, step: &mut Step<'_, '_>| {
                let i = ints::<usize>(0..=v.len() - 1).generate(step.tape())?;
                let up = bools().generate(step.tape())?;
                let mut w = v.clone();
                w[i] += if up { 1 } else { -1 };
                Ok(w)
            },
        );
        (ints::<u8>(0..=255), list)
    }

    #[test]
    fn a_hand_written_neighbourhood_is_honoured_inside_its_span() {
        let g = plus_minus_one();
        let mut outside_changed = 0;
        for seed in 0..20 {
            let (mut base, mut rec) = record(&g, &mut RandomSource::new(seed));
            for step in 0..150u64 {
                let aligned = Aligned::new(&rec);
                let t = 0.2 + 0.8 * (step % 5) as f64 / 4.0;
                let mut n =
                    Neighbour::new(&aligned, Neighbourhood::default(), t, seed * 1000 + step);
                let (next, next_rec) = record(&g, &mut n);
                let moved: Vec<i32> = base.1.iter().zip(&next.1).map(|(a, b)| b - a).collect();
                assert_eq!(
                    moved.iter().filter(|&&d| d != 0).count(),
                    1,
                    "seed {seed} step {step}: {:?} -> {:?}",
                    base.1,
                    next.1
                );
                assert!(moved.iter().all(|d| d.abs() <= 1));
                outside_changed += usize::from(base.0 != next.0);
                // The neighbour's tape replays to the neighbour.
                let (again, _) = record(&g, &mut ReplaySource::of(&next_rec.choices));
                assert_eq!(again, next);
                // Accept every neighbour: the next one is drawn from it.
                (base, rec) = (next, next_rec);
            }
        }
        assert!(
            outside_changed > 0,
            "the rest keeps the constructed neighbourhood"
        );
        // Random generation takes no hand-written step.
        for seed in 0..100 {
            let (_, rec) = record(&g, &mut RandomSource::new(seed));
            assert!(
                rec.labels
                    .iter()
                    .zip(&rec.choices)
                    .all(|(l, c)| *l != ANOTHER || c.index == 0)
            );
        }
    }

    #[test]
    fn a_hand_written_neighbourhood_can_call_the_constructed_one() {
        let inner = vecs(ints::<i32>(-1000..=1000), 20..=20);
        let wrapped = inner.clone();
        let g = inner.with_neighbour(move |_: &Vec<i32>, step: &mut Step<'_, '_>| {
            step.constructed(&wrapped)
        });
        let (mut changed, mut steps) = (0, 0);
        for seed in 0..20 {
            let (mut base, mut rec) = record(&g, &mut RandomSource::new(seed));
            for step in 0..30u64 {
                let aligned = Aligned::new(&rec);
                let mut n =
                    Neighbour::new(&aligned, Neighbourhood::default(), 0.5, seed * 1000 + step);
                let (next, next_rec) = record(&g, &mut n);
                // New elements (an insertion shifts the rest, so not by position).
                changed += next.iter().filter(|x| !base.contains(x)).count();
                steps += 1;
                let (again, _) = record(&g, &mut ReplaySource::of(&next_rec.choices));
                assert_eq!(again, next, "the neighbour's tape replays to it");
                (base, rec) = (next, next_rec);
            }
        }
        // A fresh list would bring about 20 new elements of 20; the constructed neighbourhood
        // at t = 0.5 inserts, deletes or modifies an element with probability 0.15 each.
        let mean = changed as f64 / steps as f64;
        assert!(
            mean > 0.05 && mean < 5.0,
            "mean elements changed per step: {mean}"
        );
    }

    #[test]
    fn zero_temperature_takes_no_hand_written_step() {
        let g = plus_minus_one();
        for seed in 0..20 {
            let (v, rec) = record(&g, &mut RandomSource::new(seed));
            let aligned = Aligned::new(&rec);
            let mut n = Neighbour::new(&aligned, Neighbourhood::default(), 0.0, seed);
            assert_eq!(record(&g, &mut n).0, v);
        }
    }

    #[test]
    fn a_switched_variant_leaves_later_elements_in_place() {
        // Element 0's variant switches (a different number of choices); the elements after
        // it keep their values because they are found by path, not by position.
        let pair = (ints::<u8>(10..=19), ints::<u8>(20..=29)).map(|(a, b)| a + b);
        let g = vecs(one_of![ints::<u8>(0..=9), pair], 3..=3);
        let (v, rec) = record(&g, &mut RandomSource::new(7));
        let aligned = Aligned::new(&rec);
        let pos = (0..rec.choices.len())
            .find(|&i| !rec.choices[i].forced && rec.labels[i].kind() == Kind::Union)
            .expect("a union choice");
        let flipped = 1 - rec.choices[pos].index;
        let mut n =
            Neighbour::new(&aligned, Neighbourhood::default(), 0.0, 1).with_edits([(pos, flipped)]);
        let (w, _) = record(&g, &mut n);
        assert_ne!(v[0], w[0]);
        assert_eq!(v[1..], w[1..]);
    }
}
