//! Peer for the benchmarks: `expr_simplify` written the plain way, with
//! `#[derive(Arbitrary)]` (constants mapped into -8..=8, operators cut at the same depth as
//! the tapefuzz generator).
#![no_main]

use arbitrary::Arbitrary;
use harnesses::expr::{self, Bug, Expr, MAX_DEPTH};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

#[derive(Arbitrary, Debug)]
enum AExpr {
    Num(i8),
    Var,
    Add(Box<AExpr>, Box<AExpr>),
    Sub(Box<AExpr>, Box<AExpr>),
    Mul(Box<AExpr>, Box<AExpr>),
    Neg(Box<AExpr>),
}

fn expr(e: &AExpr, depth: usize) -> Expr {
    let sub = |a: &AExpr| Box::new(expr(a, depth + 1));
    match e {
        AExpr::Num(n) => Expr::Num(i64::from(*n).rem_euclid(17) - 8),
        AExpr::Var => Expr::Var,
        _ if depth >= MAX_DEPTH => Expr::Num(0),
        AExpr::Add(a, b) => Expr::Add(sub(a), sub(b)),
        AExpr::Sub(a, b) => Expr::Sub(sub(a), sub(b)),
        AExpr::Mul(a, b) => Expr::Mul(sub(a), sub(b)),
        AExpr::Neg(a) => Expr::Neg(sub(a)),
    }
}

fn bug() -> Option<Bug> {
    static BUG: OnceLock<Option<Bug>> = OnceLock::new();
    *BUG.get_or_init(|| {
        drop(harnesses::fuzz_test("expr_simplify"));
        match std::env::var("TAPEFUZZ_BUG").ok().as_deref() {
            Some("factor_swap") => Some(Bug::FactorSwap),
            _ => None,
        }
    })
}

fuzz_target!(init: bug(), |input: AExpr| {
    let e = expr(&input, 0);
    if let Err(f) = expr::check(&e, bug()) {
        panic!("expr_simplify failed on {e:?}: {f:?}");
    }
});
