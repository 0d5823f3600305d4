//! `one_of!`'s union: a tuple of generators, each called directly (no box, no indirect call).

use super::one_of::reflect_first;
use super::{Gen, NoInverse, OneOf, Reflection};
use crate::tape::{Hint, Label, Reject, Tape};

const VARIANT: Label = crate::tape::builtin::ONE_OF;
const CHOSEN: Label = crate::tape::builtin::VARIANT;

/// A tuple of generators of one value type, the variants of a [`Union`]: implemented for
/// tuples of 1 to 24 generators. Variant `i` is the tuple's field `i`.
#[diagnostic::on_unimplemented(
    message = "`one_of!` takes 1 to 24 generators",
    label = "more than 24 generators",
    note = "for more variants: `one_of(vec![g1.boxed(), g2.boxed(), …])`"
)]
pub trait Variants {
    /// The value every variant makes.
    type Value;
    /// How many variants.
    const COUNT: usize;
    /// Generates with variant `i` (`i < COUNT`; a larger `i` generates with the last).
    fn generate_variant(&self, i: usize, tape: &mut Tape<'_>) -> Result<Self::Value, Reject>;
    /// Reflects `value` through variant `i` (as [`Gen::reflect`]; a larger `i` is the last).
    fn reflect_variant(
        &self,
        i: usize,
        value: &Self::Value,
        out: &mut Reflection,
    ) -> Result<(), NoInverse>;
}

/// What `one_of![g1, g2, …]` makes: one of its generators, uniformly, each kept as its own
/// type (a [`OneOf`](super::OneOf) boxes every variant instead). The same choices as
/// [`one_of`](super::one_of) over the same generators, so the two replay each other's tapes:
/// a variant choice (index i = the i-th generator; the first listed is the simplest), then
/// the variant's own choices in a span `variant`#i. Running out: the first variant's
/// simplest value.
///
/// Reflects ([`Gen::reflect`]) a value through the first variant, in the order listed, that
/// reflects it; fails when none does, with each variant's reason.
///
/// ```
/// use tapefuzz::prelude::*;
/// use tapefuzz::tape::{RandomSource, Tape};
///
/// let g = one_of![ints::<i32>(0..=9), ints::<i32>(100..=109)];
/// let mut src = RandomSource::new(1);
/// let v = g.generate(&mut Tape::new(&mut src, false)).unwrap();
/// assert!((0..=9).contains(&v) || (100..=109).contains(&v));
/// ```
#[derive(Clone, Debug)]
pub struct Union<V>(V);

impl<V: Variants> Union<V> {
    /// A union of the tuple's generators (what `one_of!` builds).
    pub fn new(variants: V) -> Self {
        Union(variants)
    }
}

impl<V: Variants> Gen for Union<V> {
    type Value = V::Value;

    #[inline]
    fn generate(&self, tape: &mut Tape<'_>) -> Result<V::Value, Reject> {
        let i = tape.draw(VARIANT, (V::COUNT - 1) as u64, Hint::Uniform)?;
        if tape.is_fast() {
            // No span to open: skip computing its label.
            return self.0.generate_variant(i as usize, tape);
        }
        tape.span(CHOSEN.indexed(i), |t| {
            self.0.generate_variant(i as usize, t)
        })
    }

    fn reflect(&self, value: &V::Value, out: &mut Reflection) -> Result<(), NoInverse> {
        // Named as `one_of` names it: the same union, whichever way it was built.
        let max = (V::COUNT - 1) as u64;
        reflect_first::<OneOf<V::Value>, V::Value>(
            V::COUNT,
            value,
            out,
            |i| (max, i as u64),
            |i, v, out| self.0.reflect_variant(i, v, out),
        )
    }
}

macro_rules! variants {
    ($count:expr; $last:tt; $($i:tt $g:ident),+) => {
        impl<T, $($g: Gen<Value = T>),+> Variants for ($($g,)+) {
            type Value = T;
            const COUNT: usize = $count;
            #[inline]
            fn generate_variant(&self, i: usize, tape: &mut Tape<'_>) -> Result<T, Reject> {
                match i {
                    $($i => self.$i.generate(tape),)+
                    _ => self.$last.generate(tape),
                }
            }
            fn reflect_variant(
                &self,
                i: usize,
                value: &T,
                out: &mut Reflection,
            ) -> Result<(), NoInverse> {
                match i {
                    $($i => self.$i.reflect(value, out),)+
                    _ => self.$last.reflect(value, out),
                }
            }
        }
    };
}

variants!(1; 0; 0 G0);
variants!(2; 1; 0 G0, 1 G1);
variants!(3; 2; 0 G0, 1 G1, 2 G2);
variants!(4; 3; 0 G0, 1 G1, 2 G2, 3 G3);
variants!(5; 4; 0 G0, 1 G1, 2 G2, 3 G3, 4 G4);
variants!(6; 5; 0 G0, 1 G1, 2 G2, 3 G3, 4 G4, 5 G5);
variants!(7; 6; 0 G0, 1 G1, 2 G2, 3 G3, 4 G4, 5 G5, 6 G6);
variants!(8; 7; 0 G0, 1 G1, 2 G2, 3 G3, 4 G4, 5 G5, 6 G6, 7 G7);
variants!(9; 8; 0 G0, 1 G1, 2 G2, 3 G3, 4 G4, 5 G5, 6 G6, 7 G7, 8 G8);
variants!(10; 9; 0 G0, 1 G1, 2 G2, 3 G3, 4 G4, 5 G5, 6 G6, 7 G7, 8 G8, 9 G9);
variants!(11; 10; 0 G0, 1 G1, 2 G2, 3 G3, 4 G4, 5 G5, 6 G6, 7 G7, 8 G8, 9 G9, 10 G10);
variants!(12; 11; 0 G0, 1 G1, 2 G2, 3 G3, 4 G4, 5 G5, 6 G6, 7 G7, 8 G8, 9 G9, 10 G10, 11 G11);
variants!(13; 12; 0 G0, 1 G1, 2 G2, 3 G3, 4 G4, 5 G5, 6 G6, 7 G7, 8 G8, 9 G9, 10 G10, 11 G11,
    12 G12);
variants!(14; 13; 0 G0, 1 G1, 2 G2, 3 G3, 4 G4, 5 G5, 6 G6, 7 G7, 8 G8, 9 G9, 10 G10, 11 G11,
    12 G12, 13 G13);
variants!(15; 14; 0 G0, 1 G1, 2 G2, 3 G3, 4 G4, 5 G5, 6 G6, 7 G7, 8 G8, 9 G9, 10 G10, 11 G11,
    12 G12, 13 G13, 14 G14);
variants!(16; 15; 0 G0, 1 G1, 2 G2, 3 G3, 4 G4, 5 G5, 6 G6, 7 G7, 8 G8, 9 G9, 10 G10, 11 G11,
    12 G12, 13 G13, 14 G14, 15 G15);
variants!(17; 16; 0 G0, 1 G1, 2 G2, 3 G3, 4 G4, 5 G5, 6 G6, 7 G7, 8 G8, 9 G9, 10 G10, 11 G11,
    12 G12, 13 G13, 14 G14, 15 G15, 16 G16);
variants!(18; 17; 0 G0, 1 G1, 2 G2, 3 G3, 4 G4, 5 G5, 6 G6, 7 G7, 8 G8, 9 G9, 10 G10, 11 G11,
    12 G12, 13 G13, 14 G14, 15 G15, 16 G16, 17 G17);
variants!(19; 18; 0 G0, 1 G1, 2 G2, 3 G3, 4 G4, 5 G5, 6 G6, 7 G7, 8 G8, 9 G9, 10 G10, 11 G11,
    12 G12, 13 G13, 14 G14, 15 G15, 16 G16, 17 G17, 18 G18);
variants!(20; 19; 0 G0, 1 G1, 2 G2, 3 G3, 4 G4, 5 G5, 6 G6, 7 G7, 8 G8, 9 G9, 10 G10, 11 G11,
    12 G12, 13 G13, 14 G14, 15 G15, 16 G16, 17 G17, 18 G18, 19 G19);
variants!(21; 20; 0 G0, 1 G1, 2 G2, 3 G3, 4 G4, 5 G5, 6 G6, 7 G7, 8 G8, 9 G9, 10 G10, 11 G11,
    12 G12, 13 G13, 14 G14, 15 G15, 16 G16, 17 G17, 18 G18, 19 G19, 20 G20);
variants!(22; 21; 0 G0, 1 G1, 2 G2, 3 G3, 4 G4, 5 G5, 6 G6, 7 G7, 8 G8, 9 G9, 10 G10, 11 G11,
    12 G12, 13 G13, 14 G14, 15 G15, 16 G16, 17 G17, 18 G18, 19 G19, 20 G20, 21 G21);
variants!(23; 22; 0 G0, 1 G1, 2 G2, 3 G3, 4 G4, 5 G5, 6 G6, 7 G7, 8 G8, 9 G9, 10 G10, 11 G11,
    12 G12, 13 G13, 14 G14, 15 G15, 16 G16, 17 G17, 18 G18, 19 G19, 20 G20, 21 G21, 22 G22);
variants!(24; 23; 0 G0, 1 G1, 2 G2, 3 G3, 4 G4, 5 G5, 6 G6, 7 G7, 8 G8, 9 G9, 10 G10, 11 G11,
    12 G12, 13 G13, 14 G14, 15 G15, 16 G16, 17 G17, 18 G18, 19 G19, 20 G20, 21 G21, 22 G22,
    23 G23);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::{GenExt, ints, one_of};
    use crate::tape::{Fallback, RandomSource, ReplaySource};

    fn union() -> impl Gen<Value = i64> {
        crate::one_of![
            ints::<i64>(0..=9),
            ints::<i64>(-1..=-1),
            ints::<i64>(5..=200)
        ]
    }

    fn boxed() -> impl Gen<Value = i64> {
        one_of(vec![
            ints::<i64>(0..=9).boxed(),
            ints::<i64>(-1..=-1).boxed(),
            ints::<i64>(5..=200).boxed(),
        ])
    }

    #[test]
    fn the_macro_and_the_boxed_list_make_the_same_choices() {
        for seed in 0..200 {
            let (mut a, mut b) = (RandomSource::new(seed), RandomSource::new(seed));
            let mut ta = Tape::new(&mut a, true);
            let mut tb = Tape::new(&mut b, true);
            assert_eq!(union().generate(&mut ta), boxed().generate(&mut tb));
            let (ra, rb) = (ta.finish(), tb.finish());
            assert_eq!(ra.choices, rb.choices, "seed {seed}");
            assert_eq!(ra.spans, rb.spans, "seed {seed}");
            assert_eq!(ra.labels, rb.labels, "seed {seed}");
            // Each replays the other's tape.
            let indices: Vec<u64> = ra.choices.iter().map(|c| c.index).collect();
            let mut src = ReplaySource::new(indices, Fallback::Simplest);
            let v = boxed().generate(&mut Tape::new(&mut src, false));
            let mut fresh = RandomSource::new(seed);
            assert_eq!(v, union().generate(&mut Tape::new(&mut fresh, false)));
        }
    }

    #[test]
    fn a_value_reflects_through_the_first_variant_that_makes_it() {
        let g = union();
        for v in [0, 9, -1, 10, 200] {
            let r = Reflection::of(&g, &v).expect("reflects");
            assert_eq!(r.replay(&g), Ok(v));
        }
        // Variant 0 before variant 2: 7 is made by both, reflected through the first.
        assert_eq!(Reflection::of(&g, &7).unwrap().indices()[0], 0);
        assert_eq!(Reflection::of(&g, &17).unwrap().indices()[0], 2);
        let e = Reflection::of(&g, &7_000).unwrap_err().to_string();
        assert!(e.contains("variant 0") && e.contains("variant 2"), "{e}");
    }
}
