//! Shrinks that a pass tuned for fewer calls can lose without any challenge table noticing:
//! each starts from a hand-given failing value (`Property::shrink_value`) and checks the
//! minimum the shrinker reaches. Found by a review of a change that skipped the "other" step
//! of index where a generator named its own (`Tape::value_step`), paired a number with fewer
//! later numbers, and left one-value spans out of `copy_spans`; each of those lost one of the
//! shrinks below. The last test is of a pass of its own (`sort_and_renumber`).

use tapefuzz::prelude::*;

mod common;

/// The shrunk value of `given` (its Debug).
fn shrunk<G, F>(g: G, prop: F, given: G::Value) -> String
where
    G: Gen,
    G::Value: std::fmt::Debug,
    F: Fn(G::Value) -> bool,
{
    Property::new("shrink_generality")
        .no_corpus()
        .shrink_value(g, prop, given)
        .expect("the given value fails")
        .value
        .expect("a shrunk value")
}

#[test]
fn an_amount_that_must_stay_even_moves_in_steps_of_two() {
    // Fails when x is even and x + y ≥ 100: x can go only in steps of 2, y takes the rest.
    let g = (ints::<u32>(0..=100), ints::<u32>(0..=100));
    for given in [(40, 60), (44, 56), (98, 30), (62, 70)] {
        assert_eq!(
            shrunk(g.clone(), |(x, y)| !(x % 2 == 0 && x + y >= 100), given),
            "(0, 100)",
            "from {given:?}"
        );
    }
}

#[test]
fn two_signs_flip_together() {
    // x · y = −15 holds with both signs flipped: (−3, 5) becomes (3, −5), a smaller tape
    // (0, 1, −1, 2, −2, … orders signed integers).
    let g = (ints::<i32>(-1000..=1000), ints::<i32>(-1000..=1000));
    let out = shrunk(g, |(x, y)| x * y != -15, (-3, 5));
    assert!(
        ["(3, -5)", "(1, -15)"].contains(&out.as_str()),
        "from (-3, 5): {out}"
    );
}

#[test]
fn an_amount_moves_past_values_that_must_stay() {
    // y and z must stay 7; the amount x + w moves from x to w across them.
    let g = (
        ints::<u32>(0..=100),
        ints::<u32>(0..=100),
        ints::<u32>(0..=100),
        ints::<u32>(0..=100),
    );
    assert_eq!(
        shrunk(
            g,
            |(x, y, z, w)| !(y == 7 && z == 7 && x + w >= 100),
            (60, 7, 7, 40)
        ),
        "(0, 7, 7, 100)"
    );
}

#[test]
fn two_elements_equal_only_in_a_bucket_become_equal() {
    // Two elements of at least 100 with the same last digit: copying one over the other makes
    // them equal, and then they shrink together to 100.
    let g = vecs(ints::<u64>(0..=1000), 0..=10);
    let fails = |v: &Vec<u64>| {
        let big: Vec<u64> = v.iter().copied().filter(|&x| x >= 100).collect();
        (0..big.len()).any(|i| (i + 1..big.len()).any(|j| big[i] % 10 == big[j] % 10))
    };
    for given in [vec![100, 190], vec![850, 100], vec![3, 470, 9, 130]] {
        assert_eq!(
            shrunk(g.clone(), |v| !fails(&v), given.clone()),
            "[100, 100]",
            "from {given:?}"
        );
    }
}

#[test]
fn a_pair_that_must_stay_ordered_reaches_zero_and_one_on_lopsided_ranges() {
    // Signed: (−1, 0) fails too, but −1 is a larger index than 0; lowering it needs the other
    // raised past it, to the positive side's far end, wherever that is on the range.
    for (lo, hi) in [
        (-1000, 1000),
        (-1000, 10),
        (-10, 1000),
        (i64::MIN, i64::MAX),
    ] {
        let g = (ints::<i64>(lo..=hi), ints::<i64>(lo..=hi));
        assert_eq!(shrunk(g, |(a, b)| a >= b, (-1, 0)), "(0, 1)", "{lo}..={hi}");
    }
}

#[test]
fn indices_into_a_list_follow_its_elements() {
    // A list, then an index into it (`flat_map`): the element it names must be large. The
    // smallest tape has the list sorted, with the index moved to the large element's new
    // place, and a list of the minimum size: deleting an element moves the index too.
    let g = || {
        vecs(ints::<u8>(0..=100), 2..=8).flat_map(|v| {
            let n = v.len();
            ints::<usize>(0..n).map(move |i| (v.clone(), i))
        })
    };
    for seed in 1..=10 {
        let r = Property::new("indices_follow")
            .no_corpus()
            .seed(seed)
            .tests(5000)
            .run(g(), |(v, i): (Vec<u8>, usize)| v[i] < 50);
        assert_eq!(r.value.as_deref(), Some("([0, 50], 1)"), "seed {seed}: {r}");
    }
}

#[test]
fn two_values_in_a_ratio_go_down_together() {
    // No move of one value alone, no common offset and no amount moved between them keeps
    // `a == r · b`: only both scaled down together, which the magnitudes the generators give
    // show (indices do not: a range from 1 has index `value − 1`).
    let g = (ints::<u32>(1..=1000), ints::<u32>(1..=1000));
    let twice = |(a, b): (u32, u32)| !(a >= 20 && a == 2 * b);
    for given in [(84, 42), (500, 250), (998, 499)] {
        assert_eq!(
            shrunk(g.clone(), twice, given),
            "(20, 10)",
            "from {given:?}"
        );
    }
    let thrice = |(a, b): (u32, u32)| !(a >= 20 && a == 3 * b);
    assert_eq!(shrunk(g, thrice, (300, 100)), "(21, 7)");
    // Signed, opposite signs: magnitudes in the ratio, each index on its own side.
    let g = (ints::<i32>(-1000..=1000), ints::<i32>(-1000..=1000));
    let opposite = |(a, b): (i32, i32)| !(a >= 20 && a == -2 * b);
    assert_eq!(shrunk(g, opposite, (840, -420)), "(20, -10)");
}

#[test]
fn two_keys_in_one_bucket_close_their_gap() {
    // Equal modulo m: the difference stays a multiple of m, and the later key goes to the
    // earlier one plus the difference divided by its prime factors (m unknown to the
    // shrinker).
    let g = (ints::<u32>(..), ints::<u32>(..));
    let bucket =
        |m: u32| move |(a, b): (u32, u32)| !(a != b && a >= 1000 && b >= 1000 && a % m == b % m);
    assert_eq!(
        shrunk(g.clone(), bucket(97), (1000, 2_949_522_583)),
        "(1000, 1097)"
    );
    assert_eq!(
        shrunk(g.clone(), bucket(13), (123_456, 4_000_000_025)),
        "(1000, 1013)"
    );
    assert_eq!(shrunk(g, bucket(64), (5000, 3_000_000_008)), "(1000, 1064)");
}

#[test]
fn reordering_a_list_keeps_its_forced_coins_and_other_lists_indices() {
    // Found by review: below a collection's minimum size its "one more?" coins are forced
    // (not replayed), so a sort that moved them shifted every later choice; and an index into
    // a second list of the same length was renumbered with the first.
    let list_and_index = |min: usize| {
        vecs(ints::<u8>(0..=100), min..=8).flat_map(|v| {
            let n = v.len();
            ints::<usize>(0..n.max(1)).map(move |i| (v.clone(), i))
        })
    };
    for min in [0, 1, 2] {
        for seed in 1..=5 {
            let r = Property::new("forced_coins")
                .no_corpus()
                .seed(seed)
                .tests(5000)
                .run(list_and_index(min), |(v, i): (Vec<u8>, usize)| {
                    v.len() < 2 || v[i] < 50
                });
            assert_eq!(
                r.value.as_deref(),
                Some("([0, 50], 1)"),
                "min {min} seed {seed}: {r}"
            );
        }
    }
    let one = || {
        vecs(ints::<u8>(0..=100), 2..=2).flat_map(|v| {
            let n = v.len();
            ints::<usize>(0..n).map(move |i| (v.clone(), i))
        })
    };
    for seed in 1..=5 {
        let r = Property::new("two_lists")
            .no_corpus()
            .seed(seed)
            .tests(20_000)
            .run((one(), one()), |((a, i), (b, j))| a[i] < 50 || b[j] < 50);
        assert_eq!(
            r.value.as_deref(),
            Some("(([0, 50], 1), ([0, 50], 1))"),
            "seed {seed}: {r}"
        );
    }
    // A float after a list: its range is all of `u64`, which a list's length plus one
    // overflowed when compared (a panic with overflow checks, as in `cargo test`).
    let r = Property::new("float_after_list").no_corpus().seed(1).run(
        (vecs(ints::<u8>(0..=100), 2..=4), floats::<f64>(..)),
        |(v, x)| !(v.len() >= 2 && x >= 5.0),
    );
    assert_eq!(r.value.as_deref(), Some("([0, 0], 5.0)"));
}

#[test]
fn a_ratio_on_a_lopsided_range_stays_on_its_side() {
    // Past the end of the alternating order (`-5..=1000` counts up after ±5), lowering a
    // magnitude by index arithmetic would land on values of either sign: the ratio is kept
    // down to the first magnitude the arithmetic reaches, and never crosses to a wrong value.
    let g = (ints::<i32>(-5..=1000), ints::<i32>(-5..=1000));
    let out = shrunk(g, |(a, b)| !(a >= 2 && a == 3 * b), (300, 100));
    assert!(["(3, 1)", "(18, 6)"].contains(&out.as_str()), "{out}");
}

#[test]
fn only_the_indices_that_depend_on_a_list_follow_it() {
    // Found by a second review: which later choices depend on a list is read from a run with
    // an element deleted, only where that run kept the shape after the list (a mask of the
    // list's length shifts the index), and only for choices whose range shrank in every such
    // run (an index into an inner list whose length follows the outer index); a filter that
    // rejects every shorter list shows nothing, and then every index is tried.
    let masked = vecs(ints::<u8>(0..=100), 0..=8).flat_map(|v| {
        let n = v.len();
        (vecs(bools(), n..=n), ints::<usize>(0..n.max(1))).map(move |(m, i)| (v.clone(), m, i))
    });
    let filtered = vecs(ints::<u8>(0..=100), 0..=8)
        .filter(|v| v.len() >= 2)
        .flat_map(|v| {
            let n = v.len();
            ints::<usize>(0..n).map(move |i| (v.clone(), i))
        });
    for seed in 1..=5 {
        let r = Property::new("masked")
            .no_corpus()
            .seed(seed)
            .tests(20_000)
            .run(masked.clone(), |(v, _, i): (Vec<u8>, Vec<bool>, usize)| {
                v.len() < 2 || v[i] < 50
            });
        assert_eq!(
            r.value.as_deref(),
            Some("([0, 50], [false, false], 1)"),
            "seed {seed}: {r}"
        );
        let r = Property::new("filtered")
            .no_corpus()
            .seed(seed)
            .tests(20_000)
            .run(filtered.clone(), |(v, i): (Vec<u8>, usize)| v[i] < 50);
        assert_eq!(r.value.as_deref(), Some("([0, 50], 1)"), "seed {seed}: {r}");
    }
}

/// The value `g` makes from the tape that shrinking `start` (indices) under `fails` ends at.
fn shrunk_tape<G>(g: &G, fails: impl Fn(&G::Value) -> bool, start: Vec<u64>) -> String
where
    G: Gen,
    G::Value: std::fmt::Debug,
{
    use tapefuzz::tape::{ReplaySource, Status, Tape};
    let mut test = |tape: &mut Tape<'_>| match g.generate(tape) {
        Ok(v) if fails(&v) => Status::Interesting,
        Ok(_) => Status::Valid,
        Err(r) => r.status(),
    };
    let best = common::shrink_from(&mut test, start);
    let mut src = ReplaySource::of(&best.choices);
    format!("{:?}", g.generate(&mut Tape::recording(&mut src)).ok())
}

#[test]
fn a_union_written_with_an_integer_tag_takes_its_shorter_variant() {
    // Found by a review: a hand-written expression whose variant is an integer drawn before
    // `flat_map` (0 a literal, 1 a sum, 2 a negation). A compound expression worth 7 in
    // absolute value: `Add(Lit(0), Lit(7))` is longer than `Neg(Lit(7))`, which only raising
    // the tag from 1 to 2 with the second operand read on reaches.
    #[derive(Clone, Debug)]
    enum E {
        Lit(i64),
        Add(Box<E>, Box<E>),
        Neg(Box<E>),
    }
    fn eval(e: &E) -> i64 {
        match e {
            E::Lit(n) => *n,
            E::Add(a, b) => eval(a) + eval(b),
            E::Neg(a) => -eval(a),
        }
    }
    fn expr(depth: u32) -> tapefuzz::generators::Boxed<E> {
        if depth == 0 {
            return ints::<i64>(-100..=100).map(E::Lit).boxed();
        }
        ints::<u8>(0..=2)
            .flat_map(move |tag| match tag {
                0 => ints::<i64>(-100..=100).map(E::Lit).boxed(),
                1 => (expr(depth - 1), expr(depth - 1))
                    .map(|(a, b)| E::Add(Box::new(a), Box::new(b)))
                    .boxed(),
                _ => expr(depth - 1).map(|a| E::Neg(Box::new(a))).boxed(),
            })
            .boxed()
    }
    let g = (ints::<u8>(0..=5), expr(2));
    let fails = |(_, e): &(u8, E)| !matches!(e, E::Lit(_)) && eval(e).abs() == 7;
    // `(0, Add(Lit(0), Lit(7)))`: 7 is index 13 of an alternating order.
    assert_eq!(
        shrunk_tape(&g, fails, vec![0, 1, 0, 0, 0, 13]),
        "Some((0, Neg(Lit(7))))"
    );
    // Three numbers where one would do: the tag raised from 0 to 2.
    let g = (
        ints::<u8>(0..=5),
        ints::<u8>(0..=3).flat_map(|tag| match tag {
            0 => (
                ints::<u32>(0..=100),
                ints::<u32>(0..=100),
                ints::<u32>(0..=100),
            )
                .map(|(a, b, c)| vec![a, b, c])
                .boxed(),
            2 => ints::<u32>(0..=100).map(|a| vec![a]).boxed(),
            _ => just(vec![]).boxed(),
        }),
    );
    assert_eq!(
        shrunk_tape(
            &g,
            |(_, v)| v.iter().sum::<u32>() >= 50,
            vec![0, 0, 50, 0, 0]
        ),
        "Some((0, [50]))"
    );
}

#[test]
fn a_number_that_decides_a_shape_is_raised_where_the_shape_is_shorter() {
    // k = 0 sums two numbers, any other k is the number k · 10 itself: `[0, 10, 50]` (k, a,
    // b) is a longer tape than `[1]`, which only raising k reaches.
    let g = ints::<u8>(0..=5).flat_map(|k| {
        if k == 0 {
            (ints::<u32>(0..=100), ints::<u32>(0..=100))
                .map(|(a, b)| a + b)
                .boxed()
        } else {
            just(k as u32 * 10).boxed()
        }
    });
    assert_eq!(shrunk_tape(&g, |&v| v >= 10, vec![0, 10, 50]), "Some(10)");
}

#[test]
fn a_value_that_must_stay_odd_goes_down_by_twos_and_searches_on() {
    // One step of 1 breaks the parity: two steps down, then the search from there.
    let out = shrunk(ints::<u32>(..), |x| !(x % 2 == 1 && x > 500), 1_000_001);
    assert_eq!(out, "501");
}

#[test]
fn equal_values_that_must_stay_even_go_down_together_by_twos() {
    let g = (ints::<u32>(0..=100), ints::<u32>(0..=100));
    let out = shrunk(g, |(a, b)| !(a == b && a % 2 == 0 && a >= 10), (50, 50));
    assert_eq!(out, "(10, 10)");
}

#[test]
fn an_exact_amount_that_must_stay_even_moves_in_steps_of_two() {
    // `x + y == 100` exactly, x even: the amount moves 2 at a time into y.
    let g = (ints::<u32>(0..=100), ints::<u32>(0..=100));
    for given in [(40, 60), (62, 38)] {
        let out = shrunk(g.clone(), |(x, y)| !(x % 2 == 0 && x + y == 100), given);
        assert_eq!(out, "(0, 100)", "from {given:?}");
    }
}

#[test]
fn two_negative_values_turn_positive_together() {
    // x · y ≥ 100 holds for two negatives and for the two positives of the same sizes, a
    // smaller tape (0, 1, −1, 2, −2, … orders signed integers).
    let g = (ints::<i32>(-1000..=1000), ints::<i32>(-1000..=1000));
    let out = shrunk(g, |(x, y)| x * y < 100, (-1, -100));
    assert_eq!(out, "(1, 100)");
}

/// A hand-written record: `n` rows of two fields (a tuple each), a tag, `n` bare flags, and a
/// total — two groups sized by one count, with other integers of the flags' label around them.
struct Rows;

impl Gen for Rows {
    type Value = (Vec<(u8, u8)>, i64, Vec<u8>, i64);
    fn generate(
        &self,
        tape: &mut tapefuzz::tape::Tape<'_>,
    ) -> Result<Self::Value, tapefuzz::tape::Reject> {
        let n = ints::<usize>(0..=4).generate(tape)?;
        let rows = (0..n)
            .map(|_| (ints::<u8>(0..=9), ints::<u8>(0..=9)).generate(tape))
            .collect::<Result<Vec<_>, _>>()?;
        let tag = ints::<i64>(0..=100).generate(tape)?;
        let flags = (0..n)
            .map(|_| ints::<u8>(0..=3).generate(tape))
            .collect::<Result<Vec<_>, _>>()?;
        Ok((rows, tag, flags, ints::<i64>(0..=100).generate(tape)?))
    }
}

#[test]
fn a_count_that_sizes_rows_and_bare_flags_goes_down_with_one_of_each() {
    // Dropping a row alone leaves a flag to be read as the total; the count lowered with one
    // row and one flag keeps the failure, down to no rows.
    let fails = |v: &(Vec<(u8, u8)>, i64, Vec<u8>, i64)| v.1 != 0 && v.3 >= 40;
    for start in [
        vec![3, 2, 5, 2, 5, 2, 5, 7, 1, 2, 3, 60],
        vec![4, 0, 0, 1, 0, 0, 0, 0, 1, 9, 0, 0, 0, 0, 90],
        vec![2, 9, 9, 0, 0, 3, 0, 0, 41],
    ] {
        assert_eq!(
            shrunk_tape(&Rows, fails, start.clone()),
            "Some(([], 1, [], 40))",
            "from {start:?}"
        );
    }
}

#[test]
fn links_by_position_and_by_name_are_renamed_together() {
    // An arena: element i names the element after it; the walk from 0 must visit four.
    // From a chain in another order, only moving the elements with the links that name
    // them keeps it a chain.
    let g = vecs(ints::<usize>(0..=9), 0..=10);
    for given in [vec![3, 0, 1, 2], vec![2, 3, 1, 0], vec![3, 2, 0, 1]] {
        assert_eq!(
            shrunk(
                g.clone(),
                |v: Vec<usize>| common::arena_walk(&v) < 4,
                given.clone()
            ),
            "[1, 2, 3, 0]",
            "from {given:?}"
        );
    }
    // Records linked by id: the walk from the first record must visit three.
    let chain = |nodes: &[(u8, u8)]| {
        let mut seen = vec![false; nodes.len()];
        let (mut at, mut n) = ((!nodes.is_empty()).then_some(0), 0);
        while let Some(i) = at.filter(|&i| !seen[i]) {
            seen[i] = true;
            n += 1;
            at = nodes.iter().position(|r| r.0 == nodes[i].1);
        }
        n >= 3
    };
    let g = vecs((ints::<u8>(0..=20), ints::<u8>(0..=20)), 0..=8);
    for given in [vec![(5, 9), (9, 7), (7, 5)], vec![(2, 0), (0, 1), (1, 0)]] {
        assert_eq!(
            shrunk(g.clone(), |v: Vec<(u8, u8)>| !chain(&v), given.clone()),
            "[(0, 1), (1, 2), (2, 0)]",
            "from {given:?}"
        );
    }
}

#[test]
fn a_case_pair_moves_to_the_ascii_letters_together() {
    // Two distinct characters equal ignoring case: lowered one code point at a time together
    // they leave the letters ("Àà" by one is "¿ß"); moved to the ASCII capitals, a pair again.
    let folds = |s: &String| {
        let c: Vec<char> = s.chars().collect();
        (0..c.len()).any(|i| {
            (i + 1..c.len()).any(|j| c[i] != c[j] && c[i].to_lowercase().eq(c[j].to_lowercase()))
        })
    };
    let g = strings(CharClass::any(), 0..=20);
    for given in ["Àà", "õÕ", "Éé", "ñÑ"] {
        assert_eq!(
            shrunk(g.clone(), |s: String| !folds(&s), given.to_string()),
            "\"Aa\"",
            "from {given:?}"
        );
    }
}

#[test]
fn an_amount_moves_into_a_float_up_to_its_largest_integer() {
    // Two floats in 0.0..=100.0 whose sum must stay above 150: the amount goes from the first
    // to the second until the second is 100.0, the last integer of its order (the fractions
    // come after it), in one try rather than a search over the index range.
    let g = (floats::<f64>(0.0..=100.0), floats::<f64>(0.0..=100.0));
    let report = Property::new("shrink_generality")
        .no_corpus()
        .shrink_value(g, |(a, b): (f64, f64)| a + b <= 150.0, (75.0, 76.0))
        .expect("the given value fails");
    assert_eq!(report.value.as_deref(), Some("(51.0, 100.0)"));
    let calls = report.failure.expect("fails").shrink_calls;
    // Calls of the test function (generator-only runs included): 42 with the move searched
    // from the first choice's index, 34 with it tried at once.
    assert!(calls <= 36, "{calls} calls");
}
