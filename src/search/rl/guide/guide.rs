//! The guide: a [`Source`] that makes every choice with a Monte Carlo Control learner
//! (RLCheck, paper 002 §4.2).

use super::learner::Table;
use super::state::{Influence, NOT_OPENER, token};
use super::{Abstraction, Arms, Learn, Learners};
use crate::tape::{DrawContext, Hint, Label, RandomSource, Source, Status, coin_threshold};

/// Makes each choice with the learner of its choice point and state: with probability ε an
/// exploring choice drawn as a [`RandomSource`] would (following the generator's hint),
/// otherwise the arm with the best average reward so far. A state never seen before also
/// follows the generator, so the first test cases are the random generator's (the paper's
/// "totally random" first episode). Wide choices are learned over buckets ([`Arms`]).
///
/// One test case is one episode: [`Guide::begin`] starts it, draws record which (state, arm)
/// pairs it took, and [`Guide::finish`] credits them all with the reward (no discount).
/// Coins a random source never or always takes (`Hint::Coin(0.0)` / `(1.0)`) are left to
/// the generator and not learned. The guide never runs out: it decides every choice asked.
pub struct Guide {
    learn: Learn,
    table: Table,
    influence: Influence,
    random: RandomSource,
    explore: u64,
    /// Whether any choice point's state is [`super::Abstraction::Sequence`].
    sequence: bool,
    episode: Vec<u32>,
    drawn: Vec<u64>,
    /// Whether the learners need the full draw context: a learner per choice-point id, or a
    /// hand-written state. Otherwise the tape tells the guide of spans as they open and close
    /// ([`Source::follows_spans`]), which costs less than a span stack and ids.
    context: bool,
    /// Whether this test case's tape tells of spans (so the draw context has none).
    hooked: bool,
    /// Learners by label (not by choice-point id).
    by_label: bool,
    /// Every choice point's state is the plain [`Abstraction::Tree`] (no overrides, no
    /// `recent`): the common case, computed without dispatch.
    plain: bool,
    /// The bits of the last coin probability seen, and its [`coin_threshold`].
    coin_p: u64,
    coin_threshold: u64,
}

impl Guide {
    /// A guide with fresh learners; `seed` makes its exploring choices reproducible.
    pub fn new(learn: Learn, seed: u64) -> Guide {
        let explore = coin_threshold(learn.epsilon);
        let sequence = std::iter::once(&learn.abstraction)
            .chain(learn.overrides.iter().map(|(_, a)| a))
            .any(|a| *a == Abstraction::Sequence)
            || learn.recent > 0;
        let context = learn.learners == Learners::ByPoint
            || std::iter::once(&learn.abstraction)
                .chain(learn.overrides.iter().map(|(_, a)| a))
                .any(|a| matches!(a, Abstraction::Custom(_)));
        let by_label = learn.learners == Learners::ByLabel;
        let plain = learn.overrides.is_empty()
            && learn.abstraction == Abstraction::Tree
            && learn.recent == 0;
        Guide {
            sequence,
            context,
            by_label,
            plain,
            hooked: false,
            coin_p: 0.5f64.to_bits(),
            coin_threshold: coin_threshold(0.5),
            learn,
            table: Table::default(),
            influence: Influence::default(),
            random: RandomSource::new(seed),
            explore,
            episode: Vec::new(),
            drawn: Vec::new(),
        }
    }

    /// The settings.
    pub fn settings(&self) -> &Learn {
        &self.learn
    }

    /// Starts an episode (one test case), forgetting an unfinished one.
    pub fn begin(&mut self) {
        self.hooked = false;
        self.influence.clear();
        self.episode.clear();
        self.drawn.clear();
    }

    /// The indices this episode drew so far, in order: a [`crate::tape::ReplaySource`] over
    /// them replays the test case.
    pub fn drawn(&self) -> &[u64] {
        &self.drawn
    }

    /// The reward of a test case that ended with `status` and, when valid, a characteristic
    /// that was `new`.
    pub fn reward(&self, status: Status, new: bool) -> f64 {
        let r = &self.learn.rewards;
        match status {
            Status::Interesting => r.unique,
            Status::Valid if new => r.unique,
            Status::Valid => r.valid,
            Status::Invalid | Status::Overrun => r.invalid,
        }
    }

    /// Credits every choice of the episode with `reward`, keeping [`Guide::drawn`] until the
    /// next [`Guide::begin`] (the run loop may still ask for the test case's indices).
    pub fn credit(&mut self, reward: f64) {
        for &cell in &self.episode {
            self.table.credit(cell, reward, self.learn.update);
        }
        self.episode.clear();
    }

    /// Ends the episode, crediting every choice it made with `reward`.
    pub fn finish(&mut self, reward: f64) {
        for &cell in &self.episode {
            self.table.credit(cell, reward, self.learn.update);
        }
        self.begin();
    }

    /// How many (choice point, state) pairs have a learner so far.
    pub fn states(&self) -> usize {
        self.table.states()
    }

    /// A source that takes its indices from `teacher` while this guide watches: every choice
    /// is entered in the episode as if the guide had made it, so [`Guide::finish`] teaches
    /// the learners that tape (bootstrapping from a corpus).
    pub fn follow<'a>(&'a mut self, teacher: &'a mut dyn Source) -> Follow<'a> {
        Follow {
            guide: self,
            teacher,
        }
    }

    /// Decides (or, following, enters) the choice `ctx`. Coins, most of the choices, take
    /// the inlined path; the rest are out of line, so that the coins' path keeps its
    /// registers.
    #[inline(always)]
    fn decide(&mut self, ctx: &DrawContext<'_>, taught: Option<u64>) -> u64 {
        if let Hint::Coin(p) = ctx.hint {
            let learned = p > 0.0 && p < 1.0;
            if learned && ctx.max == 1 {
                // The threshold of the last coin's probability, kept: generators mostly draw
                // coins of one or two probabilities, and converting costs more than comparing.
                if p.to_bits() != self.coin_p {
                    self.coin_p = p.to_bits();
                    self.coin_threshold = coin_threshold(p);
                }
                return self.choose::<true>(ctx, taught, self.coin_threshold);
            }
            if !learned {
                return self.fixed(taught, p);
            }
        }
        self.choose_wide(ctx, taught)
    }

    /// A coin a random source never or always takes: not learned.
    #[cold]
    #[inline(never)]
    fn fixed(&mut self, taught: Option<u64>, p: f64) -> u64 {
        let index = taught.unwrap_or((p >= 1.0) as u64);
        self.drawn.push(index);
        index
    }

    /// [`Guide::choose`] for a choice that is not a coin.
    #[inline(never)]
    fn choose_wide(&mut self, ctx: &DrawContext<'_>, taught: Option<u64>) -> u64 {
        self.choose::<false>(ctx, taught, 0)
    }

    /// [`Guide::decide`] for a choice that is not a fixed coin; `COIN`: a coin whose 1 comes
    /// with probability `threshold` (see [`coin_threshold`]). Coins, most of the choices, get
    /// their own instance: two arms, no loop, and no second branch on what kind of choice
    /// this is (the processor cannot predict it, the tree's shape decides).
    #[inline(always)]
    fn choose<const COIN: bool>(
        &mut self,
        ctx: &DrawContext<'_>,
        taught: Option<u64>,
        threshold: u64,
    ) -> u64 {
        let by_label = self.by_label;
        if !self.hooked {
            self.influence.enter(ctx, by_label);
        }
        let arms = Arms::of(ctx.max);
        let n = if COIN { 2 } else { arms.count() };
        let state = if self.plain {
            self.influence.tree_state(self.learn.window)
        } else {
            let abstraction = self.learn.abstraction_of(ctx.label);
            self.influence
                .state(abstraction, self.learn.window, self.learn.recent, ctx)
        };
        let who = if by_label {
            ctx.label.hash()
        } else {
            ctx.point.0
        };
        // All three are hashes or small: xor-combined here, mixed by the table's probe.
        let key = who ^ state.rotate_left(1) ^ ctx.max.rotate_left(41);
        let at = self.table.slot(key, n);
        // Random draws take fresh words, not the source's bit pool: whether the pool needs
        // refilling would be one more branch the processor cannot predict.
        let explore = |g: &mut Guide| {
            if COIN {
                u64::from((g.random.rng().next_u64() >> 32) < threshold)
            } else {
                g.random.pick(ctx.max, ctx.hint)
            }
        };
        let index = match taught {
            Some(i) => i,
            None if COIN && self.learn.bonus <= 0.0 => {
                // One random word decides it all, without a branch: its low half the ε coin,
                // its high half the exploring coin, or (when greedy) a tie between the arms.
                let r = self.random.rng().next_u64();
                let explore = (r & 0xffff_ffff) < self.explore;
                let coin = u64::from((r >> 32) < threshold);
                let arms = self.table.coin(at);
                let greedy = std::hint::select_unpredictable(arms.tie, r >> 63, arms.better);
                std::hint::select_unpredictable(explore | arms.unseen, coin, greedy)
            }
            None if (self.random.rng().next_u64() >> 32) < self.explore => explore(self),
            None => {
                // (A coin gets here only with an exploration bonus.)
                let greedy = self
                    .table
                    .greedy(at, n, self.learn.bonus, self.random.rng());
                match greedy {
                    Some(arm) if COIN => arm as u64,
                    Some(arm) => arms.index(arm, self.random.rng()),
                    None => explore(self),
                }
            }
        };
        let arm = if COIN {
            index as usize
        } else {
            arms.arm(index)
        };
        self.episode.push(at + arm as u32);
        // A possible opener of the next span: a coin taken as 1. A select, not a branch on
        // the index (which the processor cannot predict).
        let opener = std::hint::select_unpredictable(
            (ctx.max == 1) & (index == 1),
            ctx.position,
            NOT_OPENER,
        );
        self.influence
            .note(opener, token(ctx.label, arm), self.sequence);
        self.drawn.push(index);
        index
    }
}

impl Source for Guide {
    fn draw(&mut self, ctx: &DrawContext<'_>) -> u64 {
        self.decide(ctx, None)
    }

    fn needs_context(&self) -> bool {
        self.context
    }

    fn follows_spans(&self) -> bool {
        true
    }

    fn open_span(&mut self, label: Label, position: usize) {
        self.hooked = true;
        self.influence.open(label, position, self.by_label);
    }

    fn close_span(&mut self, _position: usize) {
        self.influence.close();
    }
}

/// See [`Guide::follow`].
pub struct Follow<'a> {
    guide: &'a mut Guide,
    teacher: &'a mut dyn Source,
}

impl Source for Follow<'_> {
    fn draw(&mut self, ctx: &DrawContext<'_>) -> u64 {
        let index = self.teacher.draw(ctx).min(ctx.max);
        self.guide.decide(ctx, Some(index))
    }

    fn needs_context(&self) -> bool {
        self.guide.needs_context() || self.teacher.needs_context()
    }

    fn follows_spans(&self) -> bool {
        true
    }

    fn open_span(&mut self, label: Label, position: usize) {
        self.guide.open_span(label, position);
        if self.teacher.follows_spans() {
            self.teacher.open_span(label, position);
        }
    }

    fn close_span(&mut self, position: usize) {
        self.guide.close_span(position);
        if self.teacher.follows_spans() {
            self.teacher.close_span(position);
        }
    }
}
