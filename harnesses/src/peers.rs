//! The RLCheck tree generator written the plain way for the Rust peers of the benchmarks:
//! a hand-written `arbitrary` function and a proptest strategy, with the same distribution as
//! [`crate::bst::tree_gen`] (value uniform in 0..=10, a fair coin for each child while the
//! depth is below [`MAX_DEPTH`]).

use crate::bst::{MAX_DEPTH, Tree};
use arbitrary::{Arbitrary, Unstructured};
use proptest::prelude::*;

/// The tree from `u`, `arbitrary` style.
pub fn arbitrary_tree(u: &mut Unstructured<'_>, depth: usize) -> arbitrary::Result<Tree> {
    let value: u8 = u.int_in_range(0..=10)?;
    let mut left = None;
    let mut right = None;
    if depth < MAX_DEPTH && bool::arbitrary(u)? {
        left = Some(Box::new(arbitrary_tree(u, depth + 1)?));
    }
    if depth < MAX_DEPTH && bool::arbitrary(u)? {
        right = Some(Box::new(arbitrary_tree(u, depth + 1)?));
    }
    Ok(Tree { value, left, right })
}

/// The tree as a proptest strategy (`option::of` is a fair coin).
pub fn proptest_tree(depth: usize) -> BoxedStrategy<Tree> {
    if depth >= MAX_DEPTH {
        return (0u8..=10)
            .prop_map(|value| Tree {
                value,
                left: None,
                right: None,
            })
            .boxed();
    }
    let sub = proptest_tree(depth + 1);
    (
        0u8..=10,
        proptest::option::of(sub.clone()),
        proptest::option::of(sub),
    )
        .prop_map(|(value, l, r)| Tree {
            value,
            left: l.map(Box::new),
            right: r.map(Box::new),
        })
        .boxed()
}

/// TCAS's 12 inputs as a proptest strategy, in the ranges of [`crate::tcas::InputsGen`]
/// (uniform: the blackbox scenario of paper 003's Table 4).
pub fn proptest_tcas() -> impl Strategy<Value = crate::tcas::Inputs> {
    let int = || 0i32..=1000;
    (
        (int(), any::<bool>(), any::<bool>(), int(), int(), int()),
        (0i32..=3, int(), int(), 0i32..=2, 1i32..=2, any::<bool>()),
    )
        .prop_map(
            |((a, b, c, d, e, f), (g, h, i, j, k, l))| crate::tcas::Inputs {
                cur_vertical_sep: a,
                high_confidence: b,
                two_of_three_reports_valid: c,
                own_tracked_alt: d,
                own_tracked_alt_rate: e,
                other_tracked_alt: f,
                alt_layer_value: g,
                up_separation: h,
                down_separation: i,
                other_rac: j,
                other_capability: k,
                climb_inhibit: l,
            },
        )
}
