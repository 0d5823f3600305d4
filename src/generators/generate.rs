//! `any::<T>()`: the default generator of a type.

use super::{
    Arrays, BTreeMaps, BTreeSets, Bools, CharClass, Chars, Floats, Gen, HashMaps, HashSets, Ints,
    Just, Optional, Pointers, Results, SizeRange, Strings, VecDeques, Vecs, arrays, bools,
    btree_maps, btree_sets, chars, floats, hash_maps, hash_sets, ints, just, option, results,
    strings, vec_deques, vecs,
};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::hash::Hash;
use std::rc::Rc;
use std::sync::Arc;

/// A type with a default generator, which [`any`] returns: proptest's `Arbitrary`,
/// Hypothesis's `from_type`. Implemented for the integers, floats, `bool`, `char`, `String`,
/// `()`, `Option`, `Result`, `Box` / `Rc` / `Arc`, `Vec`, `VecDeque`, the maps and sets of
/// `std::collections`, tuples of up to 8 fields and arrays `[T; N]`; a later
/// `#[derive(Generate)]` implements it for your own types, and you can implement it by hand:
///
/// ```
/// use tapefuzz::prelude::*;
/// use tapefuzz::generators::{Generate, Map, Ints};
///
/// #[derive(Debug, Clone, PartialEq)]
/// struct Percent(u8);
///
/// impl Generate for Percent {
///     type Generator = Map<Ints<u8>, fn(u8) -> Percent>;
///     fn generator() -> Self::Generator {
///         ints::<u8>(0..=100).map(Percent as fn(u8) -> Percent)
///     }
/// }
///
/// check(any::<Vec<Percent>>(), |v: Vec<Percent>| v.iter().all(|p| p.0 <= 100));
/// ```
///
/// Each default draws **the same choices as the explicit generator it names** (the same tape
/// gives the same value), so a corpus saved with one replays with the other:
///
/// | type | generator |
/// |---|---|
/// | integers | `ints::<T>(..)` |
/// | `f32`, `f64` | `floats::<T>(..)` (finite values) |
/// | `bool` | `bools()` |
/// | `char` | `chars(CharClass::any())` |
/// | `String` | `strings(CharClass::any(), 0..=100)` |
/// | `()` | `just(())` (draws nothing) |
/// | `Option<T>` | `option(any::<T>())` |
/// | `Result<T, E>` | `results(any::<T>(), any::<E>())` (= `one_of![ok.map(Ok), err.map(Err)]`) |
/// | `Box<T>`, `Rc<T>`, `Arc<T>` | `any::<T>().map(Box::new)` … (as [`Pointers`], which reflects) |
/// | `Vec<T>`, `VecDeque<T>` | `vecs(any::<T>(), 0..=100)`, `vec_deques(…)` |
/// | `BTreeSet<T>`, `HashSet<T>` | `btree_sets(any::<T>(), 0..=100)`, `hash_sets(…)` |
/// | `BTreeMap<K, V>`, `HashMap<K, V>` | `btree_maps((any::<K>(), any::<V>()), 0..=100)`, `hash_maps(…)` |
/// | `(A, B, …)` | `(any::<A>(), any::<B>(), …)` |
/// | `[T; N]` | `arrays::<_, N>(any::<T>())` (= the tuple of N `any::<T>()`) |
///
/// Collections and strings take [`any_size`] (`0..=100`): about **5** elements on average
/// from a random source (see [`SizeRange`]); for other sizes use the explicit generator.
///
/// Every default but the maps' runs backwards ([`Gen::reflect`]), so a value of any of these
/// types can be shrunk with
/// [`Property::shrink_value`](crate::property::Property::shrink_value); a generator you
/// write by hand reflects when it is built from reflecting parts (`map_with` rather than
/// `map`).
pub trait Generate: Sized {
    /// The default generator's type.
    type Generator: Gen<Value = Self>;

    /// The default generator.
    fn generator() -> Self::Generator;
}

/// Collections and strings whose default generator takes a size: what
/// `#[generate(size = ..)]` on a derived field calls. `generator_sized(size)` is the
/// [`Generate::generator`] of the type with `size` in place of [`any_size`]
/// (`vecs(any::<T>(), size)`, `strings(CharClass::any(), size)`…).
pub trait GenerateSized: Generate {
    /// The default generator with `size` elements (or characters).
    fn generator_sized(size: SizeRange) -> Self::Generator;
}

macro_rules! generate_sized {
    ($($t:ty, [$($p:ident: $($b:path),*);*], |$s:ident| $e:expr;)*) => {$(
        impl<$($p: $($b +)* Generate),*> GenerateSized for $t {
            fn generator_sized($s: SizeRange) -> Self::Generator {
                $e
            }
        }
    )*};
}
generate_sized!(
    Vec<T>, [T:], |size| vecs(any::<T>(), size);
    VecDeque<T>, [T:], |size| vec_deques(any::<T>(), size);
    BTreeSet<T>, [T: Ord], |size| btree_sets(any::<T>(), size);
    HashSet<T>, [T: Eq, Hash], |size| hash_sets(any::<T>(), size);
    BTreeMap<K, V>, [K: Ord; V:], |size| btree_maps((any::<K>(), any::<V>()), size);
    HashMap<K, V>, [K: Eq, Hash; V:], |size| hash_maps((any::<K>(), any::<V>()), size);
);

impl GenerateSized for String {
    fn generator_sized(size: SizeRange) -> Strings<CharClass> {
        strings(CharClass::any(), size)
    }
}

/// The default generator of `T` (see [`Generate`]): `any::<u8>()`, `any::<Vec<(bool,
/// String)>>()`, `any::<Option<[i64; 4]>>()`.
///
/// ```
/// use tapefuzz::prelude::*;
///
/// check(any::<(Vec<u8>, Option<char>)>(), |(v, c): (Vec<u8>, Option<char>)| {
///     v.len() <= 100 && c.is_none_or(|c| c.len_utf8() <= 4)
/// });
/// ```
pub fn any<T: Generate>() -> T::Generator {
    T::generator()
}

/// The size bounds of every collection and string [`any`] makes: `0..=100` (a random source
/// aims for 5 elements).
pub fn any_size() -> SizeRange {
    SizeRange::new(0, 100)
}

macro_rules! generate_ints {
    ($($t:ty)*) => {$(
        impl Generate for $t {
            type Generator = Ints<$t>;
            fn generator() -> Ints<$t> {
                ints::<$t>(..)
            }
        }
    )*};
}
generate_ints!(u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize);

impl Generate for f32 {
    type Generator = Floats<f32>;
    fn generator() -> Floats<f32> {
        floats::<f32>(..)
    }
}

impl Generate for f64 {
    type Generator = Floats<f64>;
    fn generator() -> Floats<f64> {
        floats::<f64>(..)
    }
}

impl Generate for bool {
    type Generator = Bools;
    fn generator() -> Bools {
        bools()
    }
}

impl Generate for char {
    type Generator = Chars;
    fn generator() -> Chars {
        chars(CharClass::any())
    }
}

impl Generate for String {
    type Generator = Strings<CharClass>;
    fn generator() -> Strings<CharClass> {
        strings(CharClass::any(), any_size())
    }
}

impl Generate for () {
    type Generator = Just<()>;
    fn generator() -> Just<()> {
        just(())
    }
}

impl<T: Generate> Generate for Option<T> {
    type Generator = Optional<T::Generator>;
    fn generator() -> Self::Generator {
        option(any::<T>())
    }
}

impl<T: Generate, E: Generate> Generate for Result<T, E> {
    type Generator = Results<T::Generator, E::Generator>;
    fn generator() -> Self::Generator {
        results(any::<T>(), any::<E>())
    }
}

macro_rules! generate_pointer {
    ($($p:ident)*) => {$(
        impl<T: Generate> Generate for $p<T> {
            type Generator = Pointers<T::Generator, $p<T>>;
            fn generator() -> Self::Generator {
                Pointers::new(any::<T>())
            }
        }
    )*};
}
generate_pointer!(Box Rc Arc);

impl<T: Generate> Generate for Vec<T> {
    type Generator = Vecs<T::Generator>;
    fn generator() -> Self::Generator {
        vecs(any::<T>(), any_size())
    }
}

impl<T: Generate> Generate for VecDeque<T> {
    type Generator = VecDeques<T::Generator>;
    fn generator() -> Self::Generator {
        vec_deques(any::<T>(), any_size())
    }
}

impl<T: Generate + Ord> Generate for BTreeSet<T> {
    type Generator = BTreeSets<T::Generator>;
    fn generator() -> Self::Generator {
        btree_sets(any::<T>(), any_size())
    }
}

impl<T: Generate + Eq + Hash> Generate for HashSet<T> {
    type Generator = HashSets<T::Generator>;
    fn generator() -> Self::Generator {
        hash_sets(any::<T>(), any_size())
    }
}

impl<K: Generate + Ord, V: Generate> Generate for BTreeMap<K, V> {
    type Generator = BTreeMaps<(K::Generator, V::Generator)>;
    fn generator() -> Self::Generator {
        btree_maps((any::<K>(), any::<V>()), any_size())
    }
}

impl<K: Generate + Eq + Hash, V: Generate> Generate for HashMap<K, V> {
    type Generator = HashMaps<(K::Generator, V::Generator)>;
    fn generator() -> Self::Generator {
        hash_maps((any::<K>(), any::<V>()), any_size())
    }
}

impl<T: Generate, const N: usize> Generate for [T; N] {
    type Generator = Arrays<T::Generator, N>;
    fn generator() -> Self::Generator {
        arrays(any::<T>())
    }
}

macro_rules! generate_tuple {
    ($($t:ident),+) => {
        impl<$($t: Generate),+> Generate for ($($t,)+) {
            type Generator = ($($t::Generator,)+);
            fn generator() -> Self::Generator {
                ($(any::<$t>(),)+)
            }
        }
    };
}
generate_tuple!(A);
generate_tuple!(A, B);
generate_tuple!(A, B, C);
generate_tuple!(A, B, C, D);
generate_tuple!(A, B, C, D, E);
generate_tuple!(A, B, C, D, E, F);
generate_tuple!(A, B, C, D, E, F, G);
generate_tuple!(A, B, C, D, E, F, G, H);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::value_from_bytes;

    #[test]
    fn simplest_values() {
        let none: &[u8] = &[];
        assert_eq!(value_from_bytes(&any::<i32>(), none), Ok(0));
        assert_eq!(value_from_bytes(&any::<String>(), none), Ok(String::new()));
        assert_eq!(value_from_bytes(&any::<[u8; 2]>(), none), Ok([0, 0]));
        assert_eq!(
            value_from_bytes(&any::<Result<bool, u8>>(), none),
            Ok(Ok(false))
        );
        assert_eq!(
            value_from_bytes(&any::<Box<char>>(), none),
            Ok(Box::new('0'))
        );
        assert_eq!(value_from_bytes(&any::<()>(), none), Ok(()));
    }
}
