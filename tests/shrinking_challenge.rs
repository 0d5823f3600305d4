//! The shrinking challenge (github.com/jlink/shrinking-challenge), with tapefuzz generators
//! written from the public definitions: each challenge, on every seed, must shrink to its
//! known minimum, without the shrink budget stopping it, and — where Hypothesis published a
//! figure — in fewer test calls on average than Hypothesis.
//!
//! A seed's failure is the first failing test case of a random run; it is then shrunk with
//! [`Shrinker`] directly, through a test function that counts its own calls (the figure
//! compared with Hypothesis's "evaluations": calls of the test function made while shrinking,
//! including those whose value the generator rejected).
//!
//! 20 seeds per challenge, in debug builds too (the whole file takes well under a second).
//! `cargo test --release --test shrinking_challenge -- --ignored table --nocapture` prints
//! the table of BENCHMARKS.md ("Shrinking challenge"); `scripts/shrink-challenge` writes it.

use std::cell::{Cell, RefCell};
use std::fmt::{self, Debug};
use tapefuzz::prelude::*;
use tapefuzz::property::{Test, ValueMemo, property};
use tapefuzz::shrink::{Budget, Shrinker};
use tapefuzz::tape::Reject;
use tapefuzz::tape::Tape;
use tapefuzz::tape::{ReplaySource, Rng};

mod common;

/// Seeds per challenge.
const SEEDS: u64 = 20;
/// Random test cases a seed may take to find its first failure.
const MAX_TESTS: u64 = 1_000_000;

/// What the property said about a value.
enum Verdict {
    Pass,
    Fail,
    /// `assume` rejected it.
    Reject,
}

/// One seed's shrink.
struct Run {
    value: String,
    /// Test-function calls made by the shrinker.
    calls: u64,
    /// Of those, the calls in which the property ran (the generator built a value the shrink
    /// had not seen pass: a `Property` skips those, `Test::run_memo`).
    property_calls: u64,
    budget_exhausted: bool,
}

/// The result of a challenge over every seed.
struct Outcome {
    name: &'static str,
    expected: String,
    runs: Vec<Run>,
    /// Hypothesis's published mean evaluations while shrinking, where there is one.
    hypothesis: Option<f64>,
}

impl Outcome {
    fn minimal(&self) -> usize {
        self.runs
            .iter()
            .filter(|r| r.value == self.expected)
            .count()
    }
    fn mean_calls(&self) -> f64 {
        self.runs.iter().map(|r| r.calls as f64).sum::<f64>() / self.runs.len() as f64
    }
    fn mean_property_calls(&self) -> f64 {
        self.runs
            .iter()
            .map(|r| r.property_calls as f64)
            .sum::<f64>()
            / self.runs.len() as f64
    }
    fn budget_stops(&self) -> usize {
        self.runs.iter().filter(|r| r.budget_exhausted).count()
    }

    /// The acceptance bar: minimal on every seed, never stopped by the budget, and fewer calls
    /// than Hypothesis where it published a figure.
    fn check(&self) {
        let misses: Vec<String> = self
            .runs
            .iter()
            .enumerate()
            .filter(|(_, r)| r.value != self.expected)
            .map(|(s, r)| format!("seed {s}: {}", r.value))
            .collect();
        assert!(
            misses.is_empty(),
            "{}: {}/{} minimal (want {}); {}",
            self.name,
            self.minimal(),
            self.runs.len(),
            self.expected,
            misses.join("; ")
        );
        assert_eq!(
            self.budget_stops(),
            0,
            "{}: the budget stopped a shrink",
            self.name
        );
        if let Some(h) = self.hypothesis {
            assert!(
                self.mean_calls() < h,
                "{}: mean {:.1} calls, Hypothesis {h}",
                self.name,
                self.mean_calls()
            );
        }
    }
}

/// Runs `challenge` on every seed: finds a failure at random, shrinks it, renders the result.
/// The property runs as a `Property`'s does (`property::property`): while shrinking, a value
/// that already passed in the shrink is not checked again (`Test::run_memo`).
fn run<G: Gen>(
    name: &'static str,
    generator: G,
    verdict: impl Fn(&G::Value) -> Verdict,
    expected: &str,
    hypothesis: Option<f64>,
) -> Outcome
where
    G::Value: Debug,
{
    let property_calls = Cell::new(0u64);
    let test_calls = Cell::new(0u64);
    // `SHRINK_TRACE=<challenge>` (or `all`): every call's unforced indices and status on
    // stderr, for whoever tunes the passes.
    let trace = std::env::var("SHRINK_TRACE").is_ok_and(|t| t == name || t == "all");
    let checked = property(&generator, |v: G::Value| {
        property_calls.set(property_calls.get() + 1);
        match verdict(&v) {
            Verdict::Pass => Ok(()),
            Verdict::Fail => Err(Fail::Failed(String::new())),
            Verdict::Reject => Err(Fail::Rejected),
        }
    });
    // Some while a shrink runs, as the engine's (`Subject::shrinking`).
    let memo: RefCell<Option<ValueMemo>> = RefCell::new(None);
    let mut test = |tape: &mut Tape<'_>| {
        test_calls.set(test_calls.get() + 1);
        let status = match memo.borrow_mut().as_mut() {
            Some(m) => checked.run_memo(tape, m),
            None => checked.run(tape),
        };
        if trace {
            common::trace_call(test_calls.get(), status, tape);
        }
        status
    };
    let stream = name
        .bytes()
        .fold(0u64, |h, b| h.wrapping_mul(31) ^ b as u64);
    let mut runs = Vec::new();
    for seed in 0..SEEDS {
        // The generation phase's passing test cases, known to the shrink as the engine's are.
        let (start, passed) =
            common::challenge_start(&mut test, name, seed, Rng::derive(stream, seed), MAX_TESTS);
        test_calls.set(0);
        property_calls.set(0);
        *memo.borrow_mut() = Some(ValueMemo::new());
        let shrunk = Shrinker::new(&mut test, start, Budget::default())
            .with_passed(&passed)
            .run();
        *memo.borrow_mut() = None;
        assert_eq!(
            shrunk.calls,
            test_calls.get(),
            "{name} seed {seed}: the shrinker miscounts its calls"
        );
        let mut src = ReplaySource::of(&shrunk.best.choices);
        let value = generator
            .generate(&mut Tape::recording(&mut src))
            .expect("the shrunk tape replays");
        if trace {
            eprintln!(
                "seed {seed}: {value:?} after {} calls ({name})",
                shrunk.calls
            );
        }
        runs.push(Run {
            value: format!("{value:?}"),
            calls: shrunk.calls,
            property_calls: property_calls.get(),
            budget_exhausted: shrunk.budget_exhausted,
        });
    }
    Outcome {
        name,
        expected: expected.to_string(),
        runs,
        hypothesis,
    }
}

fn check(b: bool) -> Verdict {
    if b { Verdict::Pass } else { Verdict::Fail }
}

// ---- the challenges ----

fn reverse() -> Outcome {
    // Reversing a list gives the same list.
    run(
        "reverse",
        vecs(ints::<i64>(..), ..),
        |v| check(v.iter().rev().eq(v.iter())),
        "[0, 1]",
        Some(45.95),
    )
}

/// bound5 with lists of up to `most` elements: five lists of `i16`s, each summing below
/// 256, so the (wrapping) total is below 5 · 256. The shortlex minimum puts the two elements
/// in the last lists, as Hypothesis's normal form does.
fn bound5_of(name: &'static str, most: usize, hypothesis: Option<f64>) -> Outcome {
    let sum = |v: &[i16]| v.iter().fold(0i16, |a, &x| a.wrapping_add(x));
    let list = move || vecs(ints::<i16>(..), 0..=most).filter(move |v| sum(v) < 256);
    run(
        name,
        (list(), list(), list(), list(), list()),
        move |p| {
            let total = [&p.0, &p.1, &p.2, &p.3, &p.4]
                .iter()
                .fold(0i16, |a, l| a.wrapping_add(sum(l)));
            check(total < 5 * 256)
        },
        "([], [], [], [-1], [-32768])",
        hypothesis,
    )
}

fn bound5() -> Outcome {
    // Lists of at most one element, as the challenge's page states it.
    bound5_of("bound5", 1, Some(136.86))
}

fn bound5_10() -> Outcome {
    // As the peers write it: each list up to 10 elements (Hypothesis's and hegel's originals
    // leave the size open).
    bound5_of("bound5_10", 10, None)
}

fn large_union_list() -> Outcome {
    // Lists of lists of integers hold fewer than five distinct integers.
    run(
        "large_union_list",
        vecs(vecs(ints::<i64>(..), ..), ..),
        |ls| {
            let all: std::collections::HashSet<i64> = ls.iter().flatten().copied().collect();
            check(all.len() < 5)
        },
        "[[0, 1, -1, 2, -2]]",
        Some(341.02),
    )
}

/// The calculator's expressions.
#[derive(Clone, Debug)]
enum Calc {
    Num(i64),
    Add(Box<Calc>, Box<Calc>),
    Div(Box<Calc>, Box<Calc>),
}

fn calculator() -> Outcome {
    use Calc::*;
    // No literal `x / 0` inside (assumed), then evaluating never divides by zero.
    fn div_subterms(e: &Calc) -> bool {
        match e {
            Num(_) => true,
            Div(_, b) if matches!(**b, Num(0)) => false,
            Add(a, b) | Div(a, b) => div_subterms(a) && div_subterms(b),
        }
    }
    fn eval(e: &Calc) -> Option<i64> {
        match e {
            Num(n) => Some(*n),
            Add(a, b) => Some(eval(a)?.wrapping_add(eval(b)?)),
            Div(a, b) => match eval(b)? {
                0 => None,
                d => Some(eval(a)?.wrapping_div(d)),
            },
        }
    }
    let g = recursive(ints::<i64>(..).map(Num), 5, 40, 0.4, |inner| {
        one_of![
            (inner.clone(), inner.clone()).map(|(a, b)| Add(Box::new(a), Box::new(b))),
            (inner.clone(), inner).map(|(a, b)| Div(Box::new(a), Box::new(b))),
        ]
    });
    run(
        "calculator",
        g,
        |e| {
            if !div_subterms(e) {
                Verdict::Reject
            } else {
                check(eval(e).is_some())
            }
        },
        "Div(Num(0), Add(Num(0), Num(0)))",
        Some(341.40),
    )
}

fn lengthlist() -> Outcome {
    // A length in 1..=100 first, then a list of exactly that many integers in 0..=1000 (bind):
    // the maximum stays below 900.
    run(
        "lengthlist",
        ints::<usize>(1..=100).flat_map(|n| vecs(ints::<u32>(0..=1000), n..=n)),
        |v| check(v.iter().all(|&x| x < 900)),
        "[900]",
        Some(85.05),
    )
}

fn difference(name: &'static str, bad: fn(i32) -> bool, expected: &str) -> Outcome {
    // Two positive integers: the first is below 10, or their difference is not `bad`.
    run(
        name,
        (ints::<i32>(1..), ints::<i32>(1..)),
        move |&(a, b)| check(a < 10 || !bad((a - b).abs())),
        expected,
        None,
    )
}

fn difference_must_not_be_zero() -> Outcome {
    difference("difference_must_not_be_zero", |d| d == 0, "(10, 10)")
}

fn difference_must_not_be_small() -> Outcome {
    difference(
        "difference_must_not_be_small",
        |d| (1..=4).contains(&d),
        "(10, 6)",
    )
}

fn difference_must_not_be_one() -> Outcome {
    difference("difference_must_not_be_one", |d| d == 1, "(10, 9)")
}

fn distinct() -> Outcome {
    // A list holds fewer than three distinct integers.
    run(
        "distinct",
        vecs(ints::<i64>(..), ..),
        |v| {
            let all: std::collections::HashSet<&i64> = v.iter().collect();
            check(all.len() < 3)
        },
        "[0, 1, -1]",
        None,
    )
}

fn nestedlists() -> Outcome {
    // The lengths of a list of lists sum to at most 10.
    run(
        "nestedlists",
        vecs(vecs(ints::<i64>(..), ..), ..),
        |ls| check(ls.iter().map(Vec::len).sum::<usize>() <= 10),
        "[[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]",
        None,
    )
}

fn deletion() -> Outcome {
    // Removing (the first instance of) the element at `i` leaves no copy of it.
    run(
        "deletion",
        (vecs(ints::<i64>(..), ..), ints::<usize>(0..=10)),
        |(ls, i)| {
            if *i >= ls.len() {
                return Verdict::Reject;
            }
            let x = ls[*i];
            let mut rest = ls.clone();
            let at = rest.iter().position(|&y| y == x).expect("present");
            rest.remove(at);
            check(!rest.contains(&x))
        },
        "([0, 0], 0)",
        None,
    )
}

fn coupling() -> Outcome {
    // Elements are indices into the list (assumed); no two point at each other.
    run(
        "coupling",
        vecs(ints::<usize>(0..=10), ..),
        |ls| {
            if ls.iter().any(|&v| v >= ls.len()) {
                return Verdict::Reject;
            }
            check(ls.iter().enumerate().all(|(i, &j)| i == j || ls[j] != i))
        },
        "[1, 0]",
        None,
    )
}

/// A binary heap: `None`, or a key no larger than every key of its two sub-heaps.
#[derive(Clone)]
struct Heap(Option<Box<(i64, Heap, Heap)>>);

impl Debug for Heap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            None => write!(f, "None"),
            Some(n) => write!(f, "({}, {:?}, {:?})", n.0, n.1, n.2),
        }
    }
}

/// Heaps as the challenge's Hypothesis original draws them: a size in 0..=20 first, then at
/// each node a branch in 1..=8 (1, or a size of 0, is an empty heap), a key no smaller than
/// the parent's, and two sub-heaps of half the size. Each heap is one span.
struct HeapGen {
    bound: Option<i64>,
    size: usize,
}

impl Gen for HeapGen {
    type Value = Heap;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<Heap, Reject> {
        tape.span(tapefuzz::tape::Label::new("heap"), |t| {
            let branch = ints::<u8>(1..=8).generate(t)?;
            if branch == 1 || self.size == 0 {
                return Ok(Heap(None));
            }
            let key = match self.bound {
                Some(b) => ints::<i64>(b..).generate(t)?,
                None => ints::<i64>(..).generate(t)?,
            };
            let child = HeapGen {
                bound: Some(key),
                size: self.size / 2,
            };
            let left = child.generate(t)?;
            let right = child.generate(t)?;
            Ok(Heap(Some(Box::new((key, left, right)))))
        })
    }
}

fn binheap() -> Outcome {
    fn to_list(h: &Heap) -> Vec<i64> {
        let (mut out, mut stack) = (Vec::new(), vec![h]);
        while let Some(h) = stack.pop() {
            if let Some(n) = &h.0 {
                out.push(n.0);
                stack.push(&n.1);
                stack.push(&n.2);
            }
        }
        out
    }
    fn merge(a: &Heap, b: &Heap) -> Heap {
        match (&a.0, &b.0) {
            (None, _) => b.clone(),
            (_, None) => a.clone(),
            (Some(x), Some(y)) if x.0 <= y.0 => {
                Heap(Some(Box::new((x.0, merge(&x.2, b), x.1.clone()))))
            }
            (_, Some(y)) => Heap(Some(Box::new((y.0, merge(&y.2, a), y.1.clone())))),
        }
    }
    fn wrong_to_sorted_list(h: &Heap) -> Vec<i64> {
        match &h.0 {
            None => Vec::new(),
            Some(n) => std::iter::once(n.0)
                .chain(to_list(&merge(&n.1, &n.2)))
                .collect(),
        }
    }
    run(
        "binheap",
        ints::<usize>(0..=20).flat_map(|size| HeapGen { bound: None, size }),
        |h| {
            let l1 = to_list(h);
            let l2 = wrong_to_sorted_list(h);
            let mut sorted2 = l2.clone();
            sorted2.sort();
            let mut sorted1 = l1;
            sorted1.sort();
            check(l2 == sorted2 && sorted1 == l2)
        },
        "(0, None, (0, (0, None, None), (1, None, None)))",
        None,
    )
}

// ---- the tests ----

macro_rules! challenge_tests {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                super::$name().check();
            }
        )*
        /// Every challenge, in the order of the table.
        const ALL: &[fn() -> Outcome] = &[$(super::$name),*];
    };
}

mod challenge {
    use super::Outcome;
    challenge_tests!(
        reverse,
        bound5,
        bound5_10,
        large_union_list,
        calculator,
        lengthlist,
        difference_must_not_be_zero,
        difference_must_not_be_small,
        difference_must_not_be_one,
        distinct,
        nestedlists,
        deletion,
        coupling,
        binheap,
    );

    /// Prints the BENCHMARKS.md table (between its markers) for every challenge.
    #[test]
    #[ignore = "prints the benchmark table: run with --ignored --nocapture"]
    fn table() {
        println!("<!-- shrink-challenge:begin -->");
        println!();
        println!(
            "| challenge | minimal | mean calls | mean property calls | Hypothesis mean | \
             calls / Hypothesis | budget stops | shrunk to |"
        );
        println!("|---|---:|---:|---:|---:|---:|---:|---|");
        for f in ALL {
            let o = f();
            let (h, ratio) = match o.hypothesis {
                Some(h) => (format!("{h:.2}"), format!("{:.2}", o.mean_calls() / h)),
                None => ("—".into(), "—".into()),
            };
            // The values that were not minimal, each once with its count, the first three.
            let mut misses: Vec<(&str, usize)> = Vec::new();
            for r in o.runs.iter().filter(|r| r.value != o.expected) {
                match misses.iter_mut().find(|(v, _)| *v == r.value) {
                    Some((_, n)) => *n += 1,
                    None => misses.push((&r.value, 1)),
                }
            }
            let shown: Vec<String> = misses
                .iter()
                .take(3)
                .map(|(v, n)| format!("`{v}` ×{n}"))
                .collect();
            println!(
                "| {} | {}/{} | {:.1} | {:.1} | {h} | {ratio} | {} | {}{} |",
                o.name,
                o.minimal(),
                o.runs.len(),
                o.mean_calls(),
                o.mean_property_calls(),
                o.budget_stops(),
                if misses.is_empty() {
                    format!("all `{}`", o.expected)
                } else {
                    shown.join(", ")
                },
                if misses.len() > 3 { ", …" } else { "" },
            );
        }
        println!();
        println!("<!-- shrink-challenge:end -->");
        // For scripts/shrink-challenge's side-by-side table: medians, as Hypothesis's script
        // reports them.
        for f in ALL {
            let o = f();
            let median = |mut c: Vec<u64>| {
                c.sort_unstable();
                let n = c.len();
                (c[(n - 1) / 2] + c[n / 2]) as f64 / 2.0
            };
            println!(
                "CLASSIC\t{}\t{}\t{}\t{}\t{}",
                o.name,
                o.minimal(),
                o.runs.len(),
                median(o.runs.iter().map(|r| r.calls).collect()),
                median(o.runs.iter().map(|r| r.property_calls).collect()),
            );
        }
    }
}
