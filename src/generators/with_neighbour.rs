//! A generator with a hand-written neighbourhood for targeted search (paper 000 §III).

use super::{Gen, NoInverse, Reflection};
use crate::tape::{Hint, Label, Reject, Tape};

/// The span of a generator with a hand-written neighbourhood.
pub(crate) const NEIGHBOURED: Label = crate::tape::builtin::NEIGHBOURED;
/// Its first part: the wrapped generator's own value.
pub(crate) const BASE: Label = crate::tape::builtin::NEIGHBOUR_BASE;
/// "One more hand-written step?" (probability 0 for random sources: only a neighbourhood
/// answers 1).
pub(crate) const ANOTHER: Label = crate::tape::builtin::NEIGHBOUR_ANOTHER;
/// One hand-written step: the temperature, then the neighbourhood function's draws.
pub(crate) const STEP: Label = crate::tape::builtin::NEIGHBOUR_STEP;
/// The temperature a step was drawn at, in thousandths.
pub(crate) const TEMPERATURE: Label = crate::tape::builtin::NEIGHBOUR_TEMPERATURE;
/// A call of the constructed neighbourhood from a step ([`Step::constructed`]).
pub(crate) const CONSTRUCTED: Label = crate::tape::builtin::NEIGHBOUR_CONSTRUCTED;

/// Steps a value carries at most; a neighbour of a value at the bound is a fresh value.
pub const MAX_STEPS: usize = 1000;

/// What a hand-written neighbourhood function gets besides the base value: the tape to draw
/// its decisions from and the temperature.
pub struct Step<'a, 't> {
    tape: &'a mut Tape<'t>,
    temperature: f64,
}

impl<'t> Step<'_, 't> {
    /// The tape to draw this step's decisions from (with any generator), so that the step
    /// replays and shrinks like every other choice.
    pub fn tape(&mut self) -> &mut Tape<'t> {
        self.tape
    }

    /// The search's temperature when the step was taken, in `0..=1` (recorded on the tape,
    /// so a replay sees the same value).
    pub fn temperature(&self) -> f64 {
        self.temperature
    }

    /// A value from `generator` by the **constructed** neighbourhood (the one `sa` builds
    /// for any generator from its tape), for a hand-written neighbourhood that wants it for
    /// all or part of a step: e.g. `step.constructed(&gen)` for the wrapped generator, with
    /// hand-written moves around it.
    ///
    /// Under `sa`, the value is a neighbour, at the step's temperature, of what the same call
    /// drew in the previous step; the first call of a step whose previous step made none
    /// continues the wrapped generator's own value, so pass the wrapped generator (or one
    /// with the same draws) there. The neighbour is of that earlier draw, not of `base` after
    /// any hand-written change to it. Call it from the neighbourhood function itself, not
    /// from inside a generator it runs. Under any other source (random, replay, bytes) it
    /// simply draws a value from `generator`.
    ///
    /// Running out: as `generator` does.
    pub fn constructed<G: Gen>(&mut self, generator: &G) -> Result<G::Value, Reject> {
        self.tape.span(CONSTRUCTED, |t| generator.generate(t))
    }
}

/// See [`super::GenExt::with_neighbour`].
#[derive(Clone, Debug)]
pub struct WithNeighbour<G, F> {
    inner: G,
    neighbour: F,
}

impl<G, F> WithNeighbour<G, F> {
    pub(crate) fn new(inner: G, neighbour: F) -> Self {
        WithNeighbour { inner, neighbour }
    }
}

impl<G, F> Gen for WithNeighbour<G, F>
where
    G: Gen,
    F: Fn(&G::Value, &mut Step<'_, '_>) -> Result<G::Value, Reject>,
{
    type Value = G::Value;

    /// The wrapped generator's value (span `neighboured.base`), then, while the
    /// `neighboured.another` coin says so (never for random sources), a hand-written step
    /// applied to the value so far (span `neighboured.step`, at most [`MAX_STEPS`]).
    /// Simplest and running out: the wrapped generator's simplest value, no step.
    fn generate(&self, tape: &mut Tape<'_>) -> Result<G::Value, Reject> {
        tape.span(NEIGHBOURED, |t| {
            let mut value = t.span(BASE, |t| self.inner.generate(t))?;
            for _ in 0..MAX_STEPS {
                if t.draw(ANOTHER, 1, Hint::Coin(0.0))? == 0 {
                    break;
                }
                value = t.span(STEP, |t| {
                    let temperature = t.draw(TEMPERATURE, 1000, Hint::Uniform)? as f64 / 1000.0;
                    let mut step = Step {
                        tape: t,
                        temperature,
                    };
                    (self.neighbour)(&value, &mut step)
                })?;
            }
            Ok(value)
        })
    }

    /// The wrapped generator's reflection, then no step.
    fn reflect(&self, value: &G::Value, out: &mut Reflection) -> Result<(), NoInverse> {
        self.inner.reflect(value, out)?;
        out.draw(1, 0);
        Ok(())
    }
}
