//! `any::<T>()`: every default generator spells the same tape as the explicit generator it
//! documents (value stability), and makes values of the right shape.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::rc::Rc;
use std::sync::Arc;
use tapefuzz::generators::{SizeRange, btree_maps, btree_sets, vec_deques};
use tapefuzz::generators::{any_size, arrays, results, value_from_bytes};
use tapefuzz::prelude::*;

mod common;
use common::{inputs, same};

#[test]
fn scalars_are_the_full_range_generators() {
    same(any::<u8>(), ints::<u8>(..));
    same(any::<i64>(), ints::<i64>(..));
    same(any::<u128>(), ints::<u128>(..));
    same(any::<isize>(), ints::<isize>(..));
    same(any::<f64>(), floats::<f64>(..));
    same(any::<f32>(), floats::<f32>(..));
    same(any::<bool>(), bools());
    same(any::<char>(), chars(CharClass::any()));
    same(any::<()>(), just(()));
}

#[test]
fn strings_and_collections_take_any_size() {
    same(any::<String>(), strings(CharClass::any(), 0..=100));
    same(any::<Vec<u16>>(), vecs(ints::<u16>(..), 0..=100));
    same(any::<VecDeque<i8>>(), vec_deques(ints::<i8>(..), 0..=100));
    same(any::<BTreeSet<u8>>(), btree_sets(ints::<u8>(..), 0..=100));
    same(
        any::<BTreeMap<u8, bool>>(),
        btree_maps((ints::<u8>(..), bools()), 0..=100),
    );
    // Hash collections: compare sorted, their iteration order is random.
    for bytes in inputs() {
        let a = value_from_bytes(&any::<HashSet<u8>>(), &bytes).map(|s| {
            let mut v: Vec<_> = s.into_iter().collect();
            v.sort();
            v
        });
        let b = value_from_bytes(&btree_sets(ints::<u8>(..), 0..=100), &bytes)
            .map(|s| s.into_iter().collect::<Vec<_>>());
        assert_eq!(a, b);
        let a = value_from_bytes(&any::<HashMap<u8, u8>>(), &bytes)
            .map(|m| m.into_iter().collect::<BTreeMap<_, _>>());
        let b = value_from_bytes(
            &hash_maps((ints::<u8>(..), ints::<u8>(..)), 0..=100),
            &bytes,
        )
        .map(|m| m.into_iter().collect::<BTreeMap<_, _>>());
        assert_eq!(a, b);
    }
    assert_eq!(any_size(), SizeRange::new(0, 100));
}

#[test]
fn wrappers_and_products() {
    same(any::<Option<u32>>(), option(ints::<u32>(..)));
    same(
        any::<Result<u8, String>>(),
        one_of![
            ints::<u8>(..).map(Ok),
            strings(CharClass::any(), 0..=100).map(Err)
        ],
    );
    same(any::<Result<bool, i8>>(), results(bools(), ints::<i8>(..)));
    same(any::<Box<u8>>(), ints::<u8>(..).map(Box::new));
    same(any::<Rc<bool>>(), bools().map(Rc::new));
    same(any::<Arc<i16>>(), ints::<i16>(..).map(Arc::new));
    same(any::<(u8,)>(), (ints::<u8>(..),));
    same(
        any::<(u8, bool, char, i64, u16, i8, f32, String)>(),
        (
            ints::<u8>(..),
            bools(),
            chars(CharClass::any()),
            ints::<i64>(..),
            ints::<u16>(..),
            ints::<i8>(..),
            floats::<f32>(..),
            strings(CharClass::any(), 0..=100),
        ),
    );
    // An array is the tuple of its elements.
    same(
        any::<[u8; 3]>().map(|[a, b, c]| (a, b, c)),
        (ints::<u8>(..), ints::<u8>(..), ints::<u8>(..)),
    );
    same(any::<[u8; 0]>(), arrays::<_, 0>(ints::<u8>(..)));
    same(
        any::<Vec<Option<(u8, [bool; 2])>>>(),
        vecs(option((ints::<u8>(..), arrays::<_, 2>(bools()))), 0..=100),
    );
}

#[test]
fn any_in_a_property() {
    Property::new("any_property")
        .no_corpus()
        .tests(100)
        .check(any::<(Vec<u8>, Option<char>)>(), |(v, _c)| v.len() <= 100);
}
