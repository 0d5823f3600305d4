//! Constrained generation: valid values from a plain filter (paper 001).

use tapefuzz::generators::constrained::{Constrain, Num, constrained, filtered, nums};
use tapefuzz::prelude::*;
use tapefuzz::tape::{Fallback, Kind, RandomSource, ReplaySource, Status, Tape};

fn ordered<N: Num>(l: &[N]) -> bool {
    l.windows(2).all(|w| w[0] <= w[1])
}

struct Ordered;
impl Constrain for Ordered {
    type Value<N: Num> = Vec<N>;
    fn generator<N: Num>(&self) -> impl Gen<Value = Vec<N>> {
        vecs(nums::<N>(-10_000..=10_000), 10..=100)
    }
    fn valid<N: Num>(&self, l: &Vec<N>) -> bool {
        ordered(l)
    }
}

/// L = L1 ++ L2 with |len L1 − len L2| ≤ 1, L1 non-decreasing and L2 non-increasing.
struct UpDown;
impl Constrain for UpDown {
    type Value<N: Num> = Vec<N>;
    fn generator<N: Num>(&self) -> impl Gen<Value = Vec<N>> {
        vecs(nums::<N>(-10_000..=10_000), 10..=100)
    }
    fn valid<N: Num>(&self, l: &Vec<N>) -> bool {
        let n = l.len();
        [n / 2, n.div_ceil(2)]
            .into_iter()
            .any(|k| ordered(&l[..k]) && l[k..].windows(2).all(|w| w[0] >= w[1]))
    }
}

/// `(n, s)` with n the length of s.
struct Stack;
impl Constrain for Stack {
    type Value<N: Num> = (N, Vec<N>);
    fn generator<N: Num>(&self) -> impl Gen<Value = (N, Vec<N>)> {
        (
            nums::<N>(-10_000..=10_000),
            vecs(nums::<N>(-10_000..=10_000), 0..=100),
        )
    }
    fn valid<N: Num>(&self, (n, s): &(N, Vec<N>)) -> bool {
        *n == N::from_len(s.len())
    }
}

/// Strictly increasing, with a sum no one can keep symbolic.
struct Summed;
impl Constrain for Summed {
    type Value<N: Num> = Vec<N>;
    fn generator<N: Num>(&self) -> impl Gen<Value = Vec<N>> {
        vecs(nums::<N>(0..=3), 0..=4)
    }
    fn valid<N: Num>(&self, l: &Vec<N>) -> bool {
        l.iter().fold(N::constant(0), |a, &b| a + b) <= N::constant(4)
    }
}

fn run<G: Gen>(g: &G, seed: u64) -> (Status, Option<G::Value>) {
    let mut src = RandomSource::new(seed);
    let mut tape = Tape::new(&mut src, false);
    match g.generate(&mut tape) {
        Ok(v) => (Status::Valid, Some(v)),
        Err(_) => (Status::Invalid, None),
    }
}

#[test]
fn every_constrained_value_is_valid_and_filtering_rarely_is() {
    let g = constrained(Ordered);
    let mut valid = 0;
    let mut long = 0;
    for seed in 0..2000 {
        if let (Status::Valid, Some(v)) = run(&g, seed) {
            assert!(v.is_sorted() && (10..=100).contains(&v.len()), "{v:?}");
            assert!(v.iter().all(|x| (-10_000..=10_000).contains(x)));
            valid += 1;
            long += (v.len() >= 20) as u32;
        }
    }
    assert_eq!(
        valid, 2000,
        "every skeleton of an ordered list is satisfiable"
    );
    assert!(long > 100, "long lists too: {long}");
    let f = filtered(Ordered);
    let valid = (0..2000).filter(|&s| run(&f, s).0 == Status::Valid).count();
    assert!(valid < 20, "generate-and-filter: {valid} of 2000");
}

#[test]
fn disjunctions_and_equalities_are_solved() {
    let g = constrained(UpDown);
    for seed in 0..500 {
        let (st, v) = run(&g, seed);
        assert_eq!(st, Status::Valid, "seed {seed}");
        assert!(UpDown.valid(&v.unwrap()));
    }
    let g = constrained(Stack);
    for seed in 0..500 {
        let (st, v) = run(&g, seed);
        assert_eq!(st, Status::Valid, "seed {seed}");
        let (n, s) = v.unwrap();
        assert_eq!(n, s.len() as i64);
    }
}

#[test]
fn a_filter_outside_difference_constraints_falls_back_to_filtering() {
    let g = constrained(Summed);
    let mut valid = 0;
    for seed in 0..500 {
        if let (Status::Valid, Some(v)) = run(&g, seed) {
            assert!(v.iter().sum::<i64>() <= 4, "{v:?}");
            valid += 1;
        }
    }
    assert!(valid > 50, "{valid}");
}

#[test]
fn values_replay_from_their_tapes_and_zeros_give_the_simplest() {
    let g = constrained(Ordered);
    for seed in 0..200 {
        let mut src = RandomSource::new(seed);
        let mut tape = Tape::recording(&mut src);
        let v = g.generate(&mut tape).expect("valid");
        let rec = tape.finish();
        assert!(rec.spans.iter().any(|s| s.label.kind() == Kind::Solution));
        let mut replay = ReplaySource::new(rec.indices(), Fallback::Simplest);
        let mut tape = Tape::new(&mut replay, false);
        assert_eq!(g.generate(&mut tape).expect("replays"), v);
    }
    let mut zeros = ReplaySource::new(Vec::new(), Fallback::Simplest);
    let mut tape = Tape::new(&mut zeros, false);
    assert_eq!(g.generate(&mut tape).expect("simplest"), vec![0i64; 10]);
}

#[test]
fn a_failing_property_shrinks_to_a_minimal_valid_value() {
    // "No ordered list holds a value above 100 twice": the minimal counterexample is
    // ten values, the last two 101.
    let report = Property::new("constrained_shrinks")
        .no_corpus()
        .seed(3)
        .tests(2000)
        .run(constrained(Ordered), |l: Vec<i64>| {
            l.iter().filter(|&&x| x > 100).count() < 2
        });
    let value = report.value.expect("found");
    assert_eq!(value, "[0, 0, 0, 0, 0, 0, 0, 0, 101, 101]");
}

#[test]
fn any_bytes_give_a_valid_value_or_a_rejection_never_a_panic() {
    use tapefuzz::generators::value_from_bytes;
    let mut rng = tapefuzz::tape::Rng::new(11);
    let (g, u, s) = (
        constrained(Ordered),
        constrained(UpDown),
        constrained(Stack),
    );
    for len in 0..400 {
        let bytes: Vec<u8> = (0..len % 200).map(|_| rng.next_u64() as u8).collect();
        if let Ok(v) = value_from_bytes(&g, &bytes) {
            assert!(Ordered.valid(&v), "{v:?}");
        }
        if let Ok(v) = value_from_bytes(&u, &bytes) {
            assert!(UpDown.valid(&v), "{v:?}");
        }
        if let Ok(v) = value_from_bytes(&s, &bytes) {
            assert!(Stack.valid(&v), "{v:?}");
        }
    }
}

/// The value of a fixed tape does not change between versions (a saved tape means the same
/// value): the skeleton's "one more?" coins, the decisions choice, then each integer's
/// index within the bounds its constraints leave.
#[test]
fn a_fixed_tape_gives_a_fixed_value() {
    let g = constrained(Ordered);
    // Eleven elements (ten forced, a "one more?" coin taken, then one not), decisions 0,
    // then the integers: index 3 of -10000..=10000 is 2 (0, 1, -1, 2), and each next one
    // counts up from the one before (its bounds start there).
    let mut indices = vec![1, 0, 0];
    indices.extend([3, 2, 0, 5, 0, 0, 0, 0, 0, 1, 4]);
    let mut src = ReplaySource::new(indices, Fallback::Simplest);
    let mut tape = Tape::new(&mut src, false);
    let v = g.generate(&mut tape).expect("valid");
    assert_eq!(v, vec![2, 4, 4, 9, 9, 9, 9, 9, 9, 10, 14]);
}

/// Every constrained value of a test case keeps its shape while `constrain` instantiates it:
/// with two ordered lists in one input, both lengths hold from one test case to the next,
/// and only the numbers change.
#[test]
fn constrain_holds_the_shape_of_every_constrained_value() {
    use std::cell::RefCell;
    use std::rc::Rc;
    use tapefuzz::search::constrain::SkeletonSearch;
    let seen = Rc::new(RefCell::new(Vec::new()));
    let s = seen.clone();
    let report = Property::new("constrained::two_shapes")
        .no_corpus()
        .seed(3)
        .tests(3_000)
        .strategy(SkeletonSearch::default())
        .run(
            (constrained(Ordered), constrained(Ordered)),
            move |(a, b): (Vec<i64>, Vec<i64>)| {
                s.borrow_mut().push((a.len(), b.len(), a, b));
            },
        );
    assert!(report.passed(), "{report}");
    let seen = seen.borrow();
    let pairs = seen.windows(2);
    // Consecutive test cases of one visit: the first list's length held and its numbers
    // changed.
    let (mut held, mut both) = (0, 0);
    for w in pairs {
        if w[0].0 == w[1].0 && w[0].2 != w[1].2 {
            held += 1;
            both += (w[0].1 == w[1].1) as usize;
        }
    }
    assert!(held > 100, "instantiations seen: {held}");
    assert!(
        both * 10 >= held * 9,
        "the second list's length held in {both} of {held} instantiations"
    );
}

/// A failure found while instantiating a skeleton replays (from the indices the search
/// drew) and shrinks to a valid minimal value.
#[test]
fn a_failure_found_by_instantiation_replays_and_shrinks() {
    use tapefuzz::search::constrain::SkeletonSearch;
    let report = Property::new("constrained::instance_failure")
        .no_corpus()
        .seed(5)
        .tests(20_000)
        .strategy(SkeletonSearch::default())
        .run(
            (constrained(Ordered), constrained(Ordered)),
            |(a, b): (Vec<i64>, Vec<i64>)| a.is_sorted() && b.last().is_none_or(|&x| x < 9_000),
        );
    assert!(!report.passed(), "no failure found");
    let value = report.value.clone().unwrap_or_default();
    assert!(value.contains("9000"), "{report}");
}

/// Plain integers inside a skeleton (a list of small `ints` beside the constrained number):
/// the collection's fast loop on a random tape keeps them in the skeleton's capture, so the
/// concrete value replays the same shape and every value is valid.
#[test]
fn plain_collections_inside_a_skeleton_are_captured() {
    struct Tagged;
    impl Constrain for Tagged {
        type Value<N: Num> = (Vec<u8>, N);
        fn generator<N: Num>(&self) -> impl Gen<Value = (Vec<u8>, N)> {
            (vecs(ints::<u8>(0..=9), 0..=5), nums::<N>(0..=10))
        }
        fn valid<N: Num>(&self, (_, n): &(Vec<u8>, N)) -> bool {
            *n > N::constant(5)
        }
    }
    let report = Property::new("constrained::tagged")
        .no_corpus()
        .seed(2)
        .tests(300)
        .run(constrained(Tagged), |(tags, n): (Vec<u8>, i64)| {
            n > 5 && tags.iter().all(|&t| t <= 9)
        });
    assert!(report.passed(), "{report}");
    assert_eq!(report.valid, 300, "{report}");
}

/// A filter that is not deterministic (it asks other questions on every run, with two or
/// three outcomes at the same place): the solver replays paths after backtracks, and what it
/// kept of a run must never be applied to another comparison (a value or a rejection, never
/// a panic).
#[test]
fn a_filter_that_changes_between_runs_never_panics() {
    use std::cell::Cell;
    use std::cmp::Ordering;
    thread_local!(static RUNS: Cell<u64> = const { Cell::new(0) });
    struct Fickle;
    impl Constrain for Fickle {
        type Value<N: Num> = Vec<N>;
        fn generator<N: Num>(&self) -> impl Gen<Value = Vec<N>> {
            vecs(nums::<N>(0..=5), 3..=6)
        }
        fn valid<N: Num>(&self, l: &Vec<N>) -> bool {
            let run = RUNS.with(|r| {
                r.set(r.get() + 1);
                r.get()
            });
            let (a, b, c) = (l[0], l[1], l[2]);
            if run.is_multiple_of(3) {
                // Three outcomes where the other runs have two, at the same comparison.
                a.partial_cmp(&b) == Some(Ordering::Greater) && b < c && c < a
            } else if run % 3 == 1 {
                a < b && b < c && c < a
            } else {
                b <= a && c > b && a == c
            }
        }
    }
    let g = constrained(Fickle);
    for seed in 0..300 {
        let _ = run(&g, seed);
    }
}

/// `x > MIN` and `y < MAX` with each drawn from its end of the `i64` range: only exact arithmetic on
/// the constraints keeps the values next to the type's ends.
struct AtTheEnds;
impl Constrain for AtTheEnds {
    type Value<N: Num> = (N, N);
    fn generator<N: Num>(&self) -> impl Gen<Value = (N, N)> {
        (
            nums::<N>(i64::MIN..=i64::MIN + 1),
            nums::<N>(i64::MAX - 1..=i64::MAX),
        )
    }
    fn valid<N: Num>(&self, (x, y): &(N, N)) -> bool {
        *x > N::constant(i64::MIN) && *y < N::constant(i64::MAX)
    }
}

#[test]
fn comparisons_at_the_ends_of_the_range_lose_no_value() {
    let g = constrained(AtTheEnds);
    for seed in 0..50 {
        let (st, v) = run(&g, seed);
        assert_eq!(
            st,
            Status::Valid,
            "seed {seed}: the one valid pair was lost"
        );
        assert_eq!(v, Some((i64::MIN + 1, i64::MAX - 1)));
    }
}
