//! STLC (`harnesses::stlc`, ETNA's STLC workload): the correct version passes, every one of
//! ETNA's 10 mutants fails on a hand-picked term and is found by random testing, and the
//! generator rejects an ill-typed subterm as soon as it is drawn.

use harnesses::find;
use harnesses::stlc::{self, BUGS, Expr, ExprGen, Typ, parse_bug};
use tapefuzz::prelude::*;
use tapefuzz::tape::{Kind, RandomSource, Tape};

fn var(n: i64) -> Expr {
    Expr::Var(n)
}
fn abs(t: Typ, e: Expr) -> Expr {
    Expr::Abs(t, Box::new(e))
}
fn app(f: Expr, a: Expr) -> Expr {
    Expr::App(Box::new(f), Box::new(a))
}
fn tb() -> Typ {
    Typ::TBool
}
fn tf(a: Typ, b: Typ) -> Typ {
    Typ::TFun(Box::new(a), Box::new(b))
}

/// A closed, well-typed term each mutant gets wrong (the shrunk failures of random runs).
fn counterexample(bug: &str) -> Expr {
    match bug {
        "shift_var_none" | "substTop_no_shift" => abs(tb(), app(abs(tb(), var(1)), var(0))),
        "shift_var_all" | "shift_abs_no_incr" => {
            app(abs(tb(), abs(tb(), var(0))), Expr::Bool(false))
        }
        "shift_var_leq" | "subst_abs_no_shift" => {
            abs(tb(), app(abs(tb(), abs(tf(tb(), tb()), var(1))), var(0)))
        }
        "subst_var_all" => abs(tf(tb(), tb()), abs(tb(), app(abs(tb(), var(2)), var(0)))),
        "subst_var_none" => app(abs(tb(), var(0)), Expr::Bool(false)),
        "subst_abs_no_incr" => abs(tb(), app(abs(tb(), abs(tf(tb(), tb()), var(0))), var(0))),
        "substTop_no_shift_back" => abs(tb(), app(abs(tb(), var(0)), var(0))),
        _ => panic!("{bug}"),
    }
}

#[test]
fn every_mutant_fails_on_its_counterexample() {
    assert_eq!(BUGS.len(), 10);
    for (bug, _) in BUGS {
        let e = counterexample(bug);
        assert!(stlc::type_of(&[], &e).is_some(), "{e:?} is ill-typed");
        assert!(
            stlc::check(&e, None).is_ok(),
            "correct version fails on {e:?}"
        );
        assert!(
            stlc::check(&e, parse_bug(Some(bug))).is_err(),
            "{bug} passes on {e:?}"
        );
    }
}

#[test]
fn the_correct_version_passes_a_random_run() {
    let target = find("stlc").unwrap();
    let test = target.test(None).unwrap();
    let r = Property::new("stlc")
        .no_corpus()
        .seed(11)
        .tests(20_000)
        .run_test(test.as_ref());
    assert!(r.passed(), "\n{r}");
    assert!(r.total_valid() > 2_000, "{}", r.total_valid());
}

#[test]
fn random_testing_finds_every_mutant() {
    let target = find("stlc").unwrap();
    for (bug, _) in BUGS {
        let mut found = Vec::new();
        for seed in 1..=3 {
            let test = target.test(Some(bug)).unwrap();
            let r = Property::new("stlc")
                .no_corpus()
                .seed(seed)
                .tests(300_000)
                .run_test(test.as_ref());
            let n = r
                .first_failure_test()
                .unwrap_or_else(|| panic!("{bug}, seed {seed}: not found in 300,000 tests"));
            found.push(n);
        }
        found.sort();
        println!("{bug}: tests to failure {found:?}, median {}", found[1]);
    }
}

#[test]
fn an_ill_typed_subterm_is_rejected_as_soon_as_it_is_drawn() {
    let mut rejected = 0;
    let mut valid = 0;
    for seed in 0..2000 {
        let mut src = RandomSource::new(seed);
        let mut tape = Tape::recording(&mut src);
        match ExprGen::default().generate(&mut tape) {
            Ok(e) => {
                valid += 1;
                assert!(stlc::type_of(&[], &e).is_some(), "{e:?}");
                let rec = tape.finish();
                // One union choice per term node (the constructor), each opening its node.
                let unions = rec
                    .labels
                    .iter()
                    .filter(|l| l.kind() == Kind::Union)
                    .count();
                assert!(unions >= stlc::size(&e), "{e:?}");
                for (k, l) in rec.labels.iter().enumerate() {
                    if l.kind() == Kind::Union {
                        assert!(
                            rec.spans
                                .iter()
                                .any(|s| s.label.kind() == Kind::Node && s.start == k),
                            "choice {k} does not open a node span"
                        );
                    }
                }
            }
            Err(_) => {
                rejected += 1;
                // Nothing is drawn after the rejection.
                assert_eq!(tape.rejected_at(), Some(tape.drawn()), "seed {seed}");
            }
        }
    }
    assert!(
        rejected > 100 && valid > 100,
        "{rejected} rejected, {valid} valid"
    );
}

#[test]
fn reduction_examples() {
    // (\x:Bool. x) true  -->  true
    let e = app(abs(tb(), var(0)), Expr::Bool(true));
    assert_eq!(stlc::pstep(&e, None), Some(Expr::Bool(true)));
    // \y:Bool. (\x:Bool. \z:Bool. y) y  -->  \y:Bool. \z:Bool. y   (indices: y is 1 under z)
    let e = abs(tb(), app(abs(tb(), abs(tb(), var(2))), var(0)));
    assert_eq!(
        stlc::multistep(stlc::FUEL, &e, None),
        Some(abs(tb(), abs(tb(), var(1))))
    );
}
