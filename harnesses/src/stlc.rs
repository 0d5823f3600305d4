//! The simply typed lambda calculus with de Bruijn indices of the ETNA benchmark (its STLC
//! workload), with ETNA's 10 mutants as planted bugs.
//!
//! Ported from `github.com/jwshii/etna`, `workloads/Haskell/STLC/src/Impl.hs` (types, terms,
//! `getTyp`, `shift`, `subst`, `substTop`, the parallel full reduction `pstep`, `multistep`
//! and the mutants, marked there `{-!! name -}`) and `workloads/Haskell/STLC/src/Spec.hs`
//! (`prop_SinglePreserve`, `prop_MultiPreserve`, with a fuel of 40 steps).
//!
//! One addition: a reduction whose term grows past [`MAX_TERM_SIZE`] nodes stops like one
//! out of fuel (no verdict), so a mutant that builds an ill-typed, growing term cannot make
//! a test case take unbounded time.
//!
//! The generator ([`ExprGen`]) is a plain recursive generator over the four constructors,
//! not a type-directed one: every node is a `recursive.node` span holding a `one_of` union
//! choice of the constructor and a `variant`#k span with the constructor's fields. Being
//! closed and well-typed is its precondition, checked lazily: each subterm is type-checked
//! in its context right after it is drawn, and an unbound variable, an application whose
//! function is not an arrow, or whose argument has the wrong type is rejected at once
//! through [`Tape::reject`], before anything more is drawn; so a search can prune every tape
//! that shares the rejected prefix.

use tapefuzz::prelude::*;
use tapefuzz::property::{Test, property};
use tapefuzz::tape::builtin::{NODE, ONE_OF, VARIANT};
use tapefuzz::tape::{Hint, Reject, Tape};

/// A type: `TBool | TFun Typ Typ`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Typ {
    /// Booleans.
    TBool,
    /// Functions from the first type to the second.
    TFun(Box<Typ>, Box<Typ>),
}

/// A term: `Var Int | Bool Bool | Abs Typ Expr | App Expr Expr` (de Bruijn indices).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    /// A variable, by de Bruijn index.
    Var(i64),
    /// A boolean constant.
    Bool(bool),
    /// A lambda with its parameter's type.
    Abs(Typ, Box<Expr>),
    /// An application.
    App(Box<Expr>, Box<Expr>),
}

/// ETNA's mutants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bug {
    /// `shift`: a variable is never shifted (`go c (Var n) = Var n`).
    ShiftVarNone,
    /// `shift`: every variable is shifted, bound ones too (`= Var (n + d)`).
    ShiftVarAll,
    /// `shift`: the cutoff test is `n <= c` instead of `n < c`.
    ShiftVarLeq,
    /// `shift`: the cutoff is not incremented under a lambda.
    ShiftAbsNoIncr,
    /// `subst`: every variable is replaced (`subst n s (Var m) = s`).
    SubstVarAll,
    /// `subst`: no variable is replaced (`= Var m`).
    SubstVarNone,
    /// `subst`: under a lambda the substituted term is not shifted.
    SubstAbsNoShift,
    /// `subst`: under a lambda the index is not incremented.
    SubstAbsNoIncr,
    /// `substTop s e = subst 0 s e` (neither shift).
    SubstTopNoShift,
    /// `substTop s e = subst 0 (shift 1 s) e` (no shift back down).
    SubstTopNoShiftBack,
}

/// The bugs: name (ETNA's) and one line each.
pub const BUGS: &[(&str, &str)] = &[
    ("shift_var_none", "shift never shifts a variable"),
    (
        "shift_var_all",
        "shift shifts every variable, bound ones too",
    ),
    ("shift_var_leq", "shift's cutoff test is n <= c, not n < c"),
    (
        "shift_abs_no_incr",
        "shift does not raise its cutoff under a lambda",
    ),
    ("subst_var_all", "subst replaces every variable"),
    ("subst_var_none", "subst replaces no variable"),
    (
        "subst_abs_no_shift",
        "subst does not shift the substituted term under a lambda",
    ),
    (
        "subst_abs_no_incr",
        "subst does not raise the index under a lambda",
    ),
    (
        "substTop_no_shift",
        "substTop s e = subst 0 s e: no shift up, no shift back",
    ),
    (
        "substTop_no_shift_back",
        "substTop s e = subst 0 (shift 1 s) e: no shift back down",
    ),
];

/// The bug a name selects (`None`: the correct version). Panics on an unknown name (the
/// registry checks names first).
pub fn parse_bug(bug: Option<&str>) -> Option<Bug> {
    let b = bug?;
    Some(match b {
        "shift_var_none" => Bug::ShiftVarNone,
        "shift_var_all" => Bug::ShiftVarAll,
        "shift_var_leq" => Bug::ShiftVarLeq,
        "shift_abs_no_incr" => Bug::ShiftAbsNoIncr,
        "subst_var_all" => Bug::SubstVarAll,
        "subst_var_none" => Bug::SubstVarNone,
        "subst_abs_no_shift" => Bug::SubstAbsNoShift,
        "subst_abs_no_incr" => Bug::SubstAbsNoIncr,
        "substTop_no_shift" => Bug::SubstTopNoShift,
        "substTop_no_shift_back" => Bug::SubstTopNoShiftBack,
        _ => panic!("not an STLC bug: {b}"),
    })
}

/// `getTyp ctx e`: the type of `e` in `ctx` (index 0 the innermost binder), if it has one.
pub fn type_of(ctx: &[Typ], e: &Expr) -> Option<Typ> {
    fn go(ctx: &mut Vec<Typ>, e: &Expr) -> Option<Typ> {
        match e {
            Expr::Var(n) => {
                let n = usize::try_from(*n).ok()?;
                (n < ctx.len()).then(|| ctx[ctx.len() - 1 - n].clone())
            }
            Expr::Bool(_) => Some(Typ::TBool),
            Expr::Abs(t, body) => {
                ctx.push(t.clone());
                let r = go(ctx, body);
                ctx.pop();
                Some(Typ::TFun(Box::new(t.clone()), Box::new(r?)))
            }
            Expr::App(f, a) => {
                let Typ::TFun(t11, t12) = go(ctx, f)? else {
                    return None;
                };
                let t2 = go(ctx, a)?;
                (*t11 == t2).then_some(*t12)
            }
        }
    }
    // `ctx` lists the innermost binder first; the stack keeps it last.
    let mut stack: Vec<Typ> = ctx.iter().rev().cloned().collect();
    go(&mut stack, e)
}

/// `shift d e`: adds `d` to every free variable of `e`.
pub fn shift(d: i64, e: &Expr, bug: Option<Bug>) -> Expr {
    fn go(d: i64, c: i64, e: &Expr, bug: Option<Bug>) -> Expr {
        match e {
            Expr::Var(n) => {
                let n = *n;
                match bug {
                    Some(Bug::ShiftVarNone) => Expr::Var(n),
                    Some(Bug::ShiftVarAll) => Expr::Var(n + d),
                    Some(Bug::ShiftVarLeq) => {
                        if n <= c {
                            Expr::Var(n)
                        } else {
                            Expr::Var(n + d)
                        }
                    }
                    _ => {
                        if n < c {
                            Expr::Var(n)
                        } else {
                            Expr::Var(n + d)
                        }
                    }
                }
            }
            Expr::Bool(b) => Expr::Bool(*b),
            Expr::Abs(t, body) => {
                let c = if bug == Some(Bug::ShiftAbsNoIncr) {
                    c
                } else {
                    c + 1
                };
                Expr::Abs(t.clone(), Box::new(go(d, c, body, bug)))
            }
            Expr::App(f, a) => Expr::App(Box::new(go(d, c, f, bug)), Box::new(go(d, c, a, bug))),
        }
    }
    go(d, 0, e, bug)
}

/// `subst n s e`: `[n -> s]e`.
pub fn subst(n: i64, s: &Expr, e: &Expr, bug: Option<Bug>) -> Expr {
    match e {
        Expr::Var(m) => match bug {
            Some(Bug::SubstVarAll) => s.clone(),
            Some(Bug::SubstVarNone) => Expr::Var(*m),
            _ => {
                if *m == n {
                    s.clone()
                } else {
                    Expr::Var(*m)
                }
            }
        },
        Expr::Bool(b) => Expr::Bool(*b),
        Expr::Abs(t, body) => {
            let body = match bug {
                Some(Bug::SubstAbsNoShift) => subst(n + 1, s, body, bug),
                Some(Bug::SubstAbsNoIncr) => subst(n, &shift(1, s, bug), body, bug),
                _ => subst(n + 1, &shift(1, s, bug), body, bug),
            };
            Expr::Abs(t.clone(), Box::new(body))
        }
        Expr::App(f, a) => Expr::App(Box::new(subst(n, s, f, bug)), Box::new(subst(n, s, a, bug))),
    }
}

/// `substTop s e`: `[0 -> s]e` for the body `e` of a lambda applied to `s`.
pub fn subst_top(s: &Expr, e: &Expr, bug: Option<Bug>) -> Expr {
    match bug {
        Some(Bug::SubstTopNoShift) => subst(0, s, e, bug),
        Some(Bug::SubstTopNoShiftBack) => subst(0, &shift(1, s, bug), e, bug),
        _ => shift(-1, &subst(0, &shift(1, s, bug), e, bug), bug),
    }
}

/// `pstep e`: one step of parallel full reduction (every redex of `e` at once, inner ones
/// first); `None` when `e` has no redex.
pub fn pstep(e: &Expr, bug: Option<Bug>) -> Option<Expr> {
    match e {
        Expr::Abs(t, body) => Some(Expr::Abs(t.clone(), Box::new(pstep(body, bug)?))),
        Expr::App(f, a) => {
            if let Expr::Abs(_, e1) = &**f {
                let e1p = pstep(e1, bug).unwrap_or_else(|| (**e1).clone());
                let e2p = pstep(a, bug).unwrap_or_else(|| (**a).clone());
                return Some(subst_top(&e2p, &e1p, bug));
            }
            match (pstep(f, bug), pstep(a, bug)) {
                (None, None) => None,
                (me1, me2) => Some(Expr::App(
                    Box::new(me1.unwrap_or_else(|| (**f).clone())),
                    Box::new(me2.unwrap_or_else(|| (**a).clone())),
                )),
            }
        }
        _ => None,
    }
}

/// Past this many nodes a reduction stops without a verdict (see the module's note).
pub const MAX_TERM_SIZE: usize = 5_000;

/// ETNA's fuel for `prop_MultiPreserve`.
pub const FUEL: usize = 40;

/// Number of nodes of `e` (ETNA's `sizeSTLC`).
pub fn size(e: &Expr) -> usize {
    match e {
        Expr::Abs(_, b) => 1 + size(b),
        Expr::App(f, a) => 1 + size(f) + size(a),
        _ => 1,
    }
}

/// `multistep fuel pstep e`: steps until a normal form (`Some`), or `None` out of fuel (or
/// past [`MAX_TERM_SIZE`]).
pub fn multistep(fuel: usize, e: &Expr, bug: Option<Bug>) -> Option<Expr> {
    let mut e = e.clone();
    for _ in 0..fuel {
        match pstep(&e, bug) {
            None => return Some(e),
            Some(next) => {
                if size(&next) > MAX_TERM_SIZE {
                    return None;
                }
                e = next;
            }
        }
    }
    None
}

/// The two properties for a closed term `e`: if it has a type, one step of reduction and
/// reduction to a normal form (within [`FUEL`] steps) keep it (`prop_SinglePreserve`,
/// `prop_MultiPreserve`).
pub fn check(e: &Expr, bug: Option<Bug>) -> Result<(), Fail> {
    let t = type_of(&[], e);
    assume!(t.is_some());
    let t = t.expect("checked by assume!");
    if let Some(e1) = pstep(e, bug) {
        let t1 = type_of(&[], &e1);
        ensure!(
            t1.as_ref() == Some(&t),
            "single step: {e:?} : {t:?} steps to {e1:?} : {t1:?}"
        );
    }
    if let Some(en) = multistep(FUEL, e, bug) {
        let tn = type_of(&[], &en);
        ensure!(
            tn.as_ref() == Some(&t),
            "multistep: {e:?} : {t:?} reduces to {en:?} : {tn:?}"
        );
    }
    Ok(())
}

/// Default depth bound of [`ExprGen`]: at most this many constructors nest on a path.
pub const MAX_DEPTH: usize = 6;
/// Default depth bound of the types in lambdas: `TFun` nests at most this deep.
pub const MAX_TYPE_DEPTH: usize = 2;
/// Variables are drawn with an index in `0..=MAX_VAR` (whatever the context; an index
/// the context does not bind is rejected).
pub const MAX_VAR: u64 = 3;

/// Closed, well-typed terms drawn constructor by constructor, rejected as soon as a subterm
/// is ill-typed (see the module's documentation). Each node is a `recursive.node` span with
/// a `one_of` choice of the constructor (`Var`, `Bool`, `Abs`, `App`; at the depth bound,
/// `Var` or `Bool` only) and a `variant`#k span holding its fields: a variable's index
/// (0..=[`MAX_VAR`]), a boolean, a lambda's type then body, or an application's function then
/// argument. Types are drawn the same way (`TBool` or `TFun`; only `TBool` at the type depth
/// bound, without a choice). Simplest: `Var 0`, which is rejected (unbound) — the simplest
/// valid term is `Bool false`.
#[derive(Clone, Copy, Debug)]
pub struct ExprGen {
    /// Depth bound of terms.
    pub max_depth: usize,
    /// Depth bound of types.
    pub max_type_depth: usize,
}

impl Default for ExprGen {
    fn default() -> Self {
        ExprGen {
            max_depth: MAX_DEPTH,
            max_type_depth: MAX_TYPE_DEPTH,
        }
    }
}

impl ExprGen {
    fn typ(&self, tape: &mut Tape<'_>, depth: usize) -> Result<Typ, Reject> {
        tape.span(NODE, |t| {
            if depth == 0 {
                return Ok(Typ::TBool);
            }
            let k = t.draw(ONE_OF, 1, Hint::Uniform)?;
            t.span(VARIANT.indexed(k), |t| {
                Ok(match k {
                    0 => Typ::TBool,
                    _ => {
                        let a = self.typ(t, depth - 1)?;
                        let b = self.typ(t, depth - 1)?;
                        Typ::TFun(Box::new(a), Box::new(b))
                    }
                })
            })
        })
    }

    /// A term well-typed in `ctx` (innermost binder last), with its type.
    fn expr(
        &self,
        tape: &mut Tape<'_>,
        ctx: &mut Vec<Typ>,
        depth: usize,
    ) -> Result<(Expr, Typ), Reject> {
        tape.span(NODE, |t| {
            let max = if depth == 0 { 1 } else { 3 };
            let k = t.draw(ONE_OF, max, Hint::Uniform)?;
            t.span(VARIANT.indexed(k), |t| match k {
                0 => {
                    let n = t.draw(VAR_INDEX, MAX_VAR, Hint::Uniform)? as usize;
                    if n >= ctx.len() {
                        return Err(t.reject());
                    }
                    Ok((Expr::Var(n as i64), ctx[ctx.len() - 1 - n].clone()))
                }
                1 => Ok((Expr::Bool(bools().generate(t)?), Typ::TBool)),
                2 => {
                    let ty = self.typ(t, self.max_type_depth)?;
                    ctx.push(ty.clone());
                    let body = self.expr(t, ctx, depth - 1);
                    ctx.pop();
                    let (body, bt) = body?;
                    Ok((
                        Expr::Abs(ty.clone(), Box::new(body)),
                        Typ::TFun(Box::new(ty), Box::new(bt)),
                    ))
                }
                _ => {
                    let (f, ft) = self.expr(t, ctx, depth - 1)?;
                    let Typ::TFun(arg, res) = ft else {
                        return Err(t.reject());
                    };
                    let (a, at) = self.expr(t, ctx, depth - 1)?;
                    if at != *arg {
                        return Err(t.reject());
                    }
                    Ok((Expr::App(Box::new(f), Box::new(a)), *res))
                }
            })
        })
    }
}

const VAR_INDEX: tapefuzz::tape::Label = tapefuzz::tape::Label::new("stlc.var");

impl Gen for ExprGen {
    type Value = Expr;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<Expr, Reject> {
        Ok(self.expr(tape, &mut Vec::new(), self.max_depth)?.0)
    }
}

/// The target's test: closed well-typed terms from [`ExprGen`] and [`check`].
pub fn test(bug: Option<&str>) -> Box<dyn Test> {
    let bug = parse_bug(bug);
    Box::new(property(ExprGen::default(), move |e: Expr| check(&e, bug)))
}
