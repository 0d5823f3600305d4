//! A small expression simplifier: constant folding and algebraic rewrites over `x`.

use tapefuzz::prelude::*;
use tapefuzz::property::Test;
use tapefuzz::property::property;

/// An arithmetic expression over one variable `x` (wrapping `i64` arithmetic).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    /// A constant.
    Num(i64),
    /// The variable `x`.
    Var,
    /// `a + b`.
    Add(Box<Expr>, Box<Expr>),
    /// `a - b`.
    Sub(Box<Expr>, Box<Expr>),
    /// `a * b`.
    Mul(Box<Expr>, Box<Expr>),
    /// `-a`.
    Neg(Box<Expr>),
}

use Expr::*;

/// Deepest nesting of operators the generator builds.
pub const MAX_DEPTH: usize = 5;

/// Expressions: leaves are constants in -8..=8 or `x`; operators nest at most
/// [`MAX_DEPTH`] deep, 40 operators at most. Simplest: `Num(0)`.
pub fn expr_gen() -> impl Gen<Value = Expr> {
    let leaf = one_of![ints::<i64>(-8..=8).map(Num), just(Var)];
    recursive(leaf, MAX_DEPTH, 40, 0.55, |inner| {
        let pair = || (inner.clone(), inner.clone());
        one_of![
            pair().map(|(a, b)| Add(Box::new(a), Box::new(b))),
            pair().map(|(a, b)| Sub(Box::new(a), Box::new(b))),
            pair().map(|(a, b)| Mul(Box::new(a), Box::new(b))),
            inner.clone().map(|a| Neg(Box::new(a))),
        ]
    })
}

/// The value of `e` at `x`.
pub fn eval(e: &Expr, x: i64) -> i64 {
    match e {
        Num(n) => *n,
        Var => x,
        Add(a, b) => eval(a, x).wrapping_add(eval(b, x)),
        Sub(a, b) => eval(a, x).wrapping_sub(eval(b, x)),
        Mul(a, b) => eval(a, x).wrapping_mul(eval(b, x)),
        Neg(a) => eval(a, x).wrapping_neg(),
    }
}

/// Planted bugs in [`simplify`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bug {
    /// Factoring `a*b - a*c` gives `a*(c - b)` instead of `a*(b - c)`.
    FactorSwap,
}

/// Simplifies children first, then folds constants and applies: `e+0`, `0+e`, `e-0`, `e*1`,
/// `1*e` → `e`; `e*0`, `0*e`, `e-e` → `0`; `--e` → `e`; and `a*b - a*c` → `a*(b - c)` for a
/// compound common factor `a` (a shared subexpression, not a leaf).
pub fn simplify(e: &Expr, bug: Option<Bug>) -> Expr {
    let s = |e: &Expr| simplify(e, bug);
    match e {
        Num(_) | Var => e.clone(),
        Neg(a) => match s(a) {
            Num(n) => Num(n.wrapping_neg()),
            Neg(inner) => *inner,
            a => Neg(Box::new(a)),
        },
        Add(a, b) => match (s(a), s(b)) {
            (Num(x), Num(y)) => Num(x.wrapping_add(y)),
            (Num(0), e) | (e, Num(0)) => e,
            (a, b) => Add(Box::new(a), Box::new(b)),
        },
        Sub(a, b) => match (s(a), s(b)) {
            (Num(x), Num(y)) => Num(x.wrapping_sub(y)),
            (e, Num(0)) => e,
            (a, b) if a == b => Num(0),
            (Mul(a1, b1), Mul(a2, c)) if a1 == a2 && !matches!(*a1, Num(_) | Var) => {
                let diff = if bug == Some(Bug::FactorSwap) {
                    Sub(c, b1)
                } else {
                    Sub(b1, c)
                };
                Mul(a1, Box::new(diff))
            }
            (a, b) => Sub(Box::new(a), Box::new(b)),
        },
        Mul(a, b) => match (s(a), s(b)) {
            (Num(x), Num(y)) => Num(x.wrapping_mul(y)),
            (Num(0), _) | (_, Num(0)) => Num(0),
            (Num(1), e) | (e, Num(1)) => e,
            (a, b) => Mul(Box::new(a), Box::new(b)),
        },
    }
}

/// The property: the simplified expression has the same value as the original at a few `x`.
pub fn check(e: &Expr, bug: Option<Bug>) -> Result<(), Fail> {
    let simple = simplify(e, bug);
    for x in [-3, 0, 1, 7] {
        let (got, want) = (eval(&simple, x), eval(e, x));
        ensure!(
            got == want,
            "at x = {x}: {got} != {want}, simplified: {simple:?}"
        );
    }
    Ok(())
}

/// The target's test.
pub fn test(bug: Option<&str>) -> Box<dyn Test> {
    let bug = match bug {
        Some("factor_swap") => Some(Bug::FactorSwap),
        _ => None,
    };
    Box::new(property(expr_gen(), move |e: Expr| check(&e, bug)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(e: Expr) -> Box<Expr> {
        Box::new(e)
    }

    #[test]
    fn factoring_is_right_and_the_bug_is_not() {
        let a = || b(Neg(b(Var)));
        let e = Sub(b(Mul(a(), b(Num(2)))), b(Mul(a(), b(Num(3)))));
        assert!(check(&e, None).is_ok());
        assert_eq!(simplify(&e, None), Mul(a(), b(Sub(b(Num(2)), b(Num(3))))));
        assert!(check(&e, Some(Bug::FactorSwap)).is_err());
    }
}
