//! System F with de Bruijn indices and the mutants of Goldstein, Hughes, Lampropoulos and
//! Pierce, "Do Judge a Test by its Cover" (ESOP 2021), the case study of paper 003 §5.2.
//!
//! Ported from `github.com/hgoldstein95/quick-cover`, `src/SystemF.hs` (types, terms,
//! `typeOf`, `subst` with its local `lift`, `liftTypes`, `liftType`, `substInType`, `tSubst`,
//! the small-step `step`/`eval'`, the parallel `pstep`/`peval`, and the `Mutant` type: each
//! mutant is a `mut M good bad` there). The planted bugs are that file's `all_mutants`: every
//! mutant but `CondFalseToTrue`, `SubstInTypeNoLift` and `TSubstNoLift` — 21 of them (paper
//! 003 speaks of 20). The generator, like the source's `genExpr` (`src/SystemFExperiments.hs`),
//! makes no `Cond`, `BTrue`, `BFalse` or `TBool`; they are kept in the language and the
//! evaluators.
//!
//! The property is paper 003's `mutationIrrelevant`: for a well-typed closed term, the
//! small-step trace (the first 100 terms of `eval'`, quick-cover's `prop_evalStepSame`) and
//! the parallel normal form (`peval`, `prop_pevalSame`) of the mutant equal the original's.
//! Both are bounded here: a trace stops at [`TRACE_LEN`] terms or at a term of more than
//! [`MAX_TERM_SIZE`] nodes, and `peval` gives up after [`FUEL`] steps or at such a term (a
//! mutant may loop on the ill-typed terms it builds).
//!
//! The generator ([`ExprGen`]) is a plain recursive generator over the constructors, like
//! `stlc`'s: each node is a `recursive.node` span with a `one_of` union choice and a
//! `variant`#k span; each subterm and type is checked right after it is drawn (an unbound
//! variable, a free type variable, an application of a non-function or to an argument of the
//! wrong type, a type application of a non-`ForAll`) and rejected at once with
//! [`Tape::reject`].

use tapefuzz::prelude::*;
use tapefuzz::property::{Test, property};
use tapefuzz::tape::builtin::{NODE, ONE_OF, VARIANT};
use tapefuzz::tape::{Hint, Label, Reject, Tape};

/// `data Type = Base | TBool | Type :-> Type | TVar Int | ForAll Type`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// The unit-like base type of `Con`.
    Base,
    /// Booleans.
    TBool,
    /// Functions.
    Fun(Box<Type>, Box<Type>),
    /// A type variable, by de Bruijn index.
    TVar(i64),
    /// Universal quantification.
    ForAll(Box<Type>),
}

/// `data Expr = Con | Var Int | Lam Type Expr | Expr :@: Expr | Cond Expr Expr Expr | BTrue |
/// BFalse | TLam Expr | TApp Expr Type`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    /// The constant of type `Base`.
    Con,
    /// A term variable, by de Bruijn index.
    Var(i64),
    /// A lambda with its parameter's type.
    Lam(Type, Box<Expr>),
    /// An application.
    App(Box<Expr>, Box<Expr>),
    /// `if then else`.
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `true`.
    BTrue,
    /// `false`.
    BFalse,
    /// A type abstraction.
    TLam(Box<Expr>),
    /// A type application.
    TApp(Box<Expr>, Type),
}

/// The mutants of `all_mutants` (`SystemF.hs`); each documents its `mut` site.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mutant {
    /// `lift`: a variable is always incremented (`x + 1`, not only `x >= n`).
    LiftVar,
    /// `lift`: the cutoff is not incremented under a `Lam`.
    LiftLam,
    /// `lift`: the body of a `TLam` is not lifted at all.
    LiftTLamA,
    /// `lift`: the cutoff is incremented under a `TLam`.
    LiftTLamB,
    /// `lift`: the function of a `TApp` is not lifted.
    LiftTApp,
    /// `subst`: a variable above the index is not decremented.
    SubstVar,
    /// `subst`: the decrement test is `x < n` instead of `x > n`.
    SubstLT,
    /// `subst`: in an application, the function is `subst n e1 s` (arguments swapped).
    SubstApp,
    /// `substInType`: a type variable above the index is not decremented.
    SubstInTypeNoDecr,
    /// `substInType`: the decrement test is `x < n` instead of `x > n`.
    SubstInTypeLT,
    /// `liftType`: a type variable is always incremented.
    LiftTypeTVar,
    /// `liftType`: the cutoff is not incremented under a `ForAll`.
    LiftTypeForAll,
    /// `tSubst`: the index is not incremented under a `TLam`.
    TSubstNoIncr,
    /// Beta reduction forgets to substitute (the body is returned).
    AppForgetSubst,
    /// Type-application reduction forgets to substitute.
    TAppForgetSubst,
    /// Beta reduction substitutes the body into the argument (`subst 0 body e2`).
    SubstSwapped,
    /// `subst`: the index is not incremented under a `Lam`.
    SubstNoIncr,
    /// `subst`: the substituted term is not lifted under a `Lam`.
    SubstNoLift,
    /// `substInType`: the index is not incremented under a `ForAll`.
    SubstInTypeNoIncr,
    /// `subst`: the type annotations of the substituted term are not lifted under a `TLam`.
    SubstNoLiftT,
    /// `liftTypes`: the cutoff is not incremented under a `TLam`.
    LiftTNoIncr,
}

/// The bugs: the mutants' names as in `SystemF.hs`, one line each.
pub const BUGS: &[(&str, &str)] = &[
    ("LiftVar", "lift increments every variable, bound ones too"),
    ("LiftLam", "lift does not raise its cutoff under a Lam"),
    ("LiftTLamA", "lift leaves the body of a TLam unlifted"),
    ("LiftTLamB", "lift raises its cutoff under a TLam"),
    ("LiftTApp", "lift leaves the function of a TApp unlifted"),
    (
        "SubstVar",
        "subst does not decrement a variable above the index",
    ),
    (
        "SubstLT",
        "subst decrements variables below the index (x < n)",
    ),
    (
        "SubstApp",
        "subst in an application's function swaps term and target",
    ),
    (
        "SubstInTypeNoDecr",
        "substInType does not decrement a type variable above the index",
    ),
    (
        "SubstInTypeLT",
        "substInType decrements type variables below the index (x < n)",
    ),
    ("LiftTypeTVar", "liftType increments every type variable"),
    (
        "LiftTypeForAll",
        "liftType does not raise its cutoff under a ForAll",
    ),
    (
        "TSubstNoIncr",
        "tSubst does not raise the index under a TLam",
    ),
    (
        "AppForgetSubst",
        "beta reduction returns the body unsubstituted",
    ),
    (
        "TAppForgetSubst",
        "type application returns the body unsubstituted",
    ),
    (
        "SubstSwapped",
        "beta reduction substitutes the body into the argument",
    ),
    ("SubstNoIncr", "subst does not raise the index under a Lam"),
    ("SubstNoLift", "subst does not lift the term under a Lam"),
    (
        "SubstInTypeNoIncr",
        "substInType does not raise the index under a ForAll",
    ),
    (
        "SubstNoLiftT",
        "subst does not lift the term's type annotations under a TLam",
    ),
    (
        "LiftTNoIncr",
        "liftTypes does not raise its cutoff under a TLam",
    ),
];

/// The mutant a name selects (`None`: the original). Panics on an unknown name (the registry
/// checks names first).
pub fn parse_bug(bug: Option<&str>) -> Option<Mutant> {
    use Mutant::*;
    let b = bug?;
    Some(match b {
        "LiftVar" => LiftVar,
        "LiftLam" => LiftLam,
        "LiftTLamA" => LiftTLamA,
        "LiftTLamB" => LiftTLamB,
        "LiftTApp" => LiftTApp,
        "SubstVar" => SubstVar,
        "SubstLT" => SubstLT,
        "SubstApp" => SubstApp,
        "SubstInTypeNoDecr" => SubstInTypeNoDecr,
        "SubstInTypeLT" => SubstInTypeLT,
        "LiftTypeTVar" => LiftTypeTVar,
        "LiftTypeForAll" => LiftTypeForAll,
        "TSubstNoIncr" => TSubstNoIncr,
        "AppForgetSubst" => AppForgetSubst,
        "TAppForgetSubst" => TAppForgetSubst,
        "SubstSwapped" => SubstSwapped,
        "SubstNoIncr" => SubstNoIncr,
        "SubstNoLift" => SubstNoLift,
        "SubstInTypeNoIncr" => SubstInTypeNoIncr,
        "SubstNoLiftT" => SubstNoLiftT,
        "LiftTNoIncr" => LiftTNoIncr,
        _ => panic!("not a System F mutant: {b}"),
    })
}

/// `mut m good bad`: `bad` when `m` is the active mutant.
fn mutv<T>(active: Option<Mutant>, m: Mutant, good: T, bad: T) -> T {
    if active == Some(m) { bad } else { good }
}

fn bx<T>(t: T) -> Box<T> {
    Box::new(t)
}

/// `wellFormedType ftv t`: every type variable of `t` is bound or below `ftv`.
pub fn well_formed_type(ftv: i64, t: &Type) -> bool {
    match t {
        Type::Base | Type::TBool => true,
        Type::TVar(n) => *n < ftv && *n >= 0,
        Type::Fun(a, b) => well_formed_type(ftv, a) && well_formed_type(ftv, b),
        Type::ForAll(t) => well_formed_type(ftv + 1, t),
    }
}

/// `liftType n t`: increments (by one) the type variables of `t` at or above `n`.
pub fn lift_type(m: Option<Mutant>, n: i64, t: &Type) -> Type {
    match t {
        Type::TVar(x) => Type::TVar(mutv(
            m,
            Mutant::LiftTypeTVar,
            if *x < n { *x } else { x + 1 },
            x + 1,
        )),
        Type::ForAll(x) => Type::ForAll(bx(lift_type(
            m,
            mutv(m, Mutant::LiftTypeForAll, n + 1, n),
            x,
        ))),
        Type::Fun(a, b) => Type::Fun(bx(lift_type(m, n, a)), bx(lift_type(m, n, b))),
        x => x.clone(),
    }
}

/// `substInType n s t`: `[n -> s]t`, decrementing the type variables above `n`.
pub fn subst_in_type(m: Option<Mutant>, n: i64, s: &Type, t: &Type) -> Type {
    match t {
        Type::TVar(x) => {
            let x = *x;
            if x == n {
                s.clone()
            } else if mutv(m, Mutant::SubstInTypeLT, x > n, x < n) {
                Type::TVar(mutv(m, Mutant::SubstInTypeNoDecr, x - 1, x))
            } else {
                Type::TVar(x)
            }
        }
        Type::ForAll(e) => Type::ForAll(bx(subst_in_type(
            m,
            mutv(m, Mutant::SubstInTypeNoIncr, n + 1, n),
            &lift_type(m, 0, s),
            e,
        ))),
        Type::Fun(a, b) => Type::Fun(bx(subst_in_type(m, n, s, a)), bx(subst_in_type(m, n, s, b))),
        x => x.clone(),
    }
}

/// `typeOf`: the type of a closed term (always the original functions, as `SystemF.hs` does).
pub fn type_of(e: &Expr) -> Option<Type> {
    type_of_in(0, &[], e)
}

/// `typeOf' ftv c e`, with `c` the term context, innermost binder first.
pub fn type_of_in(ftv: i64, c: &[Type], e: &Expr) -> Option<Type> {
    match e {
        Expr::Con => Some(Type::Base),
        Expr::BTrue | Expr::BFalse => Some(Type::TBool),
        Expr::Lam(t, body) => {
            if !well_formed_type(ftv, t) {
                return None;
            }
            let mut c2 = Vec::with_capacity(c.len() + 1);
            c2.push(t.clone());
            c2.extend_from_slice(c);
            Some(Type::Fun(bx(t.clone()), bx(type_of_in(ftv, &c2, body)?)))
        }
        Expr::TLam(body) => {
            let c2: Vec<Type> = c.iter().map(|t| lift_type(None, 0, t)).collect();
            Some(Type::ForAll(bx(type_of_in(ftv + 1, &c2, body)?)))
        }
        Expr::Var(n) => usize::try_from(*n).ok().and_then(|n| c.get(n).cloned()),
        Expr::TApp(f, t) => {
            let t2 = type_of_in(ftv, c, f)?;
            if !well_formed_type(ftv, t) {
                return None;
            }
            match t2 {
                Type::ForAll(t2p) => Some(subst_in_type(None, 0, t, &t2p)),
                _ => None,
            }
        }
        Expr::App(e1, e2) => {
            let t12 = type_of_in(ftv, c, e1)?;
            let t1p = type_of_in(ftv, c, e2)?;
            match t12 {
                Type::Fun(t1, t2) if *t1 == t1p => Some(*t2),
                _ => None,
            }
        }
        Expr::Cond(e1, e2, e3) => {
            let t1 = type_of_in(ftv, c, e1)?;
            let t2 = type_of_in(ftv, c, e2)?;
            let t3 = type_of_in(ftv, c, e3)?;
            (t1 == Type::TBool && t2 == t3).then_some(t2)
        }
    }
}

/// `subst`'s local `lift n e`: increments the term variables of `e` at or above `n`.
fn lift(m: Option<Mutant>, n: i64, e: &Expr) -> Expr {
    use Mutant::*;
    match e {
        Expr::Con | Expr::BTrue | Expr::BFalse => e.clone(),
        Expr::Var(x) => Expr::Var(mutv(m, LiftVar, if *x < n { *x } else { x + 1 }, x + 1)),
        Expr::Lam(t, b) => Expr::Lam(t.clone(), bx(lift(m, mutv(m, LiftLam, n + 1, n), b))),
        Expr::TLam(b) => Expr::TLam(bx(if m == Some(LiftTLamA) {
            (**b).clone()
        } else {
            lift(m, mutv(m, LiftTLamB, n, n + 1), b)
        })),
        Expr::App(e1, e2) => Expr::App(bx(lift(m, n, e1)), bx(lift(m, n, e2))),
        Expr::TApp(e1, t2) => Expr::TApp(
            bx(if m == Some(LiftTApp) {
                (**e1).clone()
            } else {
                lift(m, n, e1)
            }),
            t2.clone(),
        ),
        Expr::Cond(a, b, c) => Expr::Cond(bx(lift(m, n, a)), bx(lift(m, n, b)), bx(lift(m, n, c))),
    }
}

/// `liftTypes n e`: lifts the type annotations of `e` (type variables at or above `n`).
pub fn lift_types(m: Option<Mutant>, n: i64, e: &Expr) -> Expr {
    match e {
        Expr::Lam(t, b) => Expr::Lam(lift_type(m, n, t), bx(lift_types(m, n, b))),
        Expr::TLam(b) => Expr::TLam(bx(lift_types(m, mutv(m, Mutant::LiftTNoIncr, n + 1, n), b))),
        Expr::App(e1, e2) => Expr::App(bx(lift_types(m, n, e1)), bx(lift_types(m, n, e2))),
        Expr::TApp(e1, t2) => Expr::TApp(bx(lift_types(m, n, e1)), lift_type(m, n, t2)),
        Expr::Cond(a, b, c) => Expr::Cond(
            bx(lift_types(m, n, a)),
            bx(lift_types(m, n, b)),
            bx(lift_types(m, n, c)),
        ),
        x => x.clone(),
    }
}

/// `subst n s e`: `[n -> s]e`, decrementing the term variables above `n`.
pub fn subst(m: Option<Mutant>, n: i64, s: &Expr, e: &Expr) -> Expr {
    use Mutant::*;
    match e {
        Expr::Con | Expr::BTrue | Expr::BFalse => e.clone(),
        Expr::Var(x) => {
            let x = *x;
            if x == n {
                s.clone()
            } else if mutv(m, SubstLT, x > n, x < n) {
                Expr::Var(mutv(m, SubstVar, x - 1, x))
            } else {
                Expr::Var(x)
            }
        }
        Expr::Lam(t, b) => {
            let s2 = if m == Some(SubstNoLift) {
                s.clone()
            } else {
                lift(m, 0, s)
            };
            Expr::Lam(
                t.clone(),
                bx(subst(m, mutv(m, SubstNoIncr, n + 1, n), &s2, b)),
            )
        }
        Expr::TLam(b) => {
            let s2 = if m == Some(SubstNoLiftT) {
                s.clone()
            } else {
                lift_types(m, 0, s)
            };
            Expr::TLam(bx(subst(m, n, &s2, b)))
        }
        Expr::App(e1, e2) => {
            let f = if m == Some(SubstApp) {
                subst(m, n, e1, s)
            } else {
                subst(m, n, s, e1)
            };
            Expr::App(bx(f), bx(subst(m, n, s, e2)))
        }
        Expr::TApp(e1, t2) => Expr::TApp(bx(subst(m, n, s, e1)), t2.clone()),
        Expr::Cond(a, b, c) => Expr::Cond(
            bx(subst(m, n, s, a)),
            bx(subst(m, n, s, b)),
            bx(subst(m, n, s, c)),
        ),
    }
}

/// `tSubst n s e`: substitutes the type `s` for type variable `n` in `e`.
pub fn t_subst(m: Option<Mutant>, n: i64, s: &Type, e: &Expr) -> Expr {
    match e {
        Expr::TLam(b) => Expr::TLam(bx(t_subst(
            m,
            mutv(m, Mutant::TSubstNoIncr, n + 1, n),
            &lift_type(m, 0, s),
            b,
        ))),
        Expr::TApp(b, t) => Expr::TApp(bx(t_subst(m, n, s, b)), subst_in_type(m, n, s, t)),
        Expr::Lam(t, b) => Expr::Lam(subst_in_type(m, n, s, t), bx(t_subst(m, n, s, b))),
        Expr::App(e1, e2) => Expr::App(bx(t_subst(m, n, s, e1)), bx(t_subst(m, n, s, e2))),
        Expr::Cond(a, b, c) => Expr::Cond(
            bx(t_subst(m, n, s, a)),
            bx(t_subst(m, n, s, b)),
            bx(t_subst(m, n, s, c)),
        ),
        x => x.clone(),
    }
}

/// Beta reduction of `(Lam _ body) arg` with the mutants' choices.
fn beta(m: Option<Mutant>, body: &Expr, arg: &Expr) -> Expr {
    match m {
        Some(Mutant::SubstSwapped) => subst(m, 0, body, arg),
        Some(Mutant::AppForgetSubst) => body.clone(),
        _ => subst(m, 0, arg, body),
    }
}

/// Type-application reduction of `TApp (TLam body) t`.
fn tbeta(m: Option<Mutant>, body: &Expr, t: &Type) -> Expr {
    mutv(
        m,
        Mutant::TAppForgetSubst,
        t_subst(m, 0, t, body),
        body.clone(),
    )
}

/// `step e`: one small step (leftmost-outermost, head only); `None` when none applies.
pub fn step(m: Option<Mutant>, e: &Expr) -> Option<Expr> {
    match e {
        Expr::App(e1, e2) => match &**e1 {
            Expr::Lam(_, body) => Some(beta(m, body, e2)),
            _ => Some(Expr::App(bx(step(m, e1)?), e2.clone())),
        },
        Expr::TApp(e1, t) => match &**e1 {
            Expr::TLam(body) => Some(tbeta(m, body, t)),
            _ => Some(Expr::TApp(bx(step(m, e1)?), t.clone())),
        },
        Expr::Cond(e1, e2, e3) => match &**e1 {
            Expr::BTrue => Some((**e2).clone()),
            Expr::BFalse => Some((**e3).clone()),
            _ => Some(Expr::Cond(bx(step(m, e1)?), e2.clone(), e3.clone())),
        },
        _ => None,
    }
}

/// `pstep e`: one parallel step (every subterm at once, inner results first).
pub fn pstep(m: Option<Mutant>, e: &Expr) -> Expr {
    match e {
        Expr::Lam(t, b) => Expr::Lam(t.clone(), bx(pstep(m, b))),
        Expr::App(e1, e2) => {
            let e1p = pstep(m, e1);
            let e2p = pstep(m, e2);
            match e1p {
                Expr::Lam(_, body) => beta(m, &body, &e2p),
                _ => Expr::App(bx(e1p), bx(e2p)),
            }
        }
        Expr::TLam(b) => Expr::TLam(bx(pstep(m, b))),
        Expr::TApp(e1, t) => match pstep(m, e1) {
            Expr::TLam(body) => tbeta(m, &body, t),
            e1p => Expr::TApp(bx(e1p), t.clone()),
        },
        Expr::Cond(e1, e2, e3) => {
            let (a, b, c) = (pstep(m, e1), pstep(m, e2), pstep(m, e3));
            match a {
                Expr::BTrue => b,
                Expr::BFalse => c,
                a => Expr::Cond(bx(a), bx(b), bx(c)),
            }
        }
        x => x.clone(),
    }
}

/// Number of nodes of a term (`size` in `SystemF.hs`).
pub fn size(e: &Expr) -> usize {
    match e {
        Expr::Lam(_, b) | Expr::TLam(b) | Expr::TApp(b, _) => 1 + size(b),
        Expr::App(a, b) => 1 + size(a) + size(b),
        Expr::Cond(a, b, c) => 1 + size(a) + size(b) + size(c),
        _ => 1,
    }
}

/// Terms of the small-step trace compared (quick-cover's `take 100`).
pub const TRACE_LEN: usize = 100;
/// Parallel steps before `peval` gives up.
pub const FUEL: usize = 100;
/// A trace or `peval` stops at a term larger than this.
pub const MAX_TERM_SIZE: usize = 5_000;

/// `take 100 (eval' e)`: `e` and the terms it steps to, stopping after a term larger than
/// [`MAX_TERM_SIZE`].
pub fn trace(m: Option<Mutant>, e: &Expr) -> Vec<Expr> {
    let mut out = vec![e.clone()];
    while out.len() < TRACE_LEN && size(out.last().expect("non-empty")) <= MAX_TERM_SIZE {
        match step(m, out.last().expect("non-empty")) {
            Some(next) => out.push(next),
            None => break,
        }
    }
    out
}

/// `peval e`: parallel steps to a fixed point; `None` past [`FUEL`] steps or
/// [`MAX_TERM_SIZE`] nodes.
pub fn peval(m: Option<Mutant>, e: &Expr) -> Option<Expr> {
    let mut e = e.clone();
    for _ in 0..FUEL {
        let next = pstep(m, &e);
        if next == e {
            return Some(e);
        }
        if size(&next) > MAX_TERM_SIZE {
            return None;
        }
        e = next;
    }
    None
}

/// The property for a closed term: if it is well-typed, the mutant's small-step trace and
/// parallel normal form equal the original's.
pub fn check(e: &Expr, m: Option<Mutant>) -> Result<(), Fail> {
    assume!(type_of(e).is_some());
    if m.is_none() {
        return Ok(());
    }
    let (t0, t1) = (trace(None, e), trace(m, e));
    ensure!(
        t0 == t1,
        "small steps differ: original {t0:?}, mutant {t1:?}"
    );
    let (p0, p1) = (peval(None, e), peval(m, e));
    ensure!(
        p0 == p1,
        "parallel normal forms differ: original {p0:?}, mutant {p1:?}"
    );
    Ok(())
}

/// Default depth bound of terms.
pub const MAX_DEPTH: usize = 6;
/// Default depth bound of types.
pub const MAX_TYPE_DEPTH: usize = 2;
/// Term and type variables are drawn with an index in `0..=MAX_VAR` (rejected when unbound).
pub const MAX_VAR: u64 = 2;

const VAR_INDEX: Label = Label::new("systemf.var");
const TVAR_INDEX: Label = Label::new("systemf.tvar");

/// Closed, well-typed terms drawn constructor by constructor and rejected as soon as a
/// subterm or a type is ill-formed (see the module's documentation). Term nodes choose among
/// `Con`, `Var`, `Lam`, `App`, `TLam`, `TApp` (only `Con`, `Var` at the depth bound); type
/// nodes among `Base`, `TVar`, `Fun`, `ForAll` (only `Base`, `TVar` at the bound). A lambda
/// draws its type then its body; an application its function then its argument; a type
/// application its function then its type argument. Simplest: `Con`.
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
    /// A type well-formed under `ftv` free type variables.
    fn typ(&self, tape: &mut Tape<'_>, ftv: i64, depth: usize) -> Result<Type, Reject> {
        tape.span(NODE, |t| {
            let max = if depth == 0 { 1 } else { 3 };
            let k = t.draw(ONE_OF, max, Hint::Uniform)?;
            t.span(VARIANT.indexed(k), |t| match k {
                0 => Ok(Type::Base),
                1 => {
                    let n = t.draw(TVAR_INDEX, MAX_VAR, Hint::Uniform)? as i64;
                    if n >= ftv {
                        return Err(t.reject());
                    }
                    Ok(Type::TVar(n))
                }
                2 => {
                    let a = self.typ(t, ftv, depth - 1)?;
                    let b = self.typ(t, ftv, depth - 1)?;
                    Ok(Type::Fun(bx(a), bx(b)))
                }
                _ => Ok(Type::ForAll(bx(self.typ(t, ftv + 1, depth - 1)?))),
            })
        })
    }

    /// A term well-typed under `ftv` and `ctx` (innermost binder first), with its type.
    fn expr(
        &self,
        tape: &mut Tape<'_>,
        ftv: i64,
        ctx: &[Type],
        depth: usize,
    ) -> Result<(Expr, Type), Reject> {
        tape.span(NODE, |t| {
            let max = if depth == 0 { 1 } else { 5 };
            let k = t.draw(ONE_OF, max, Hint::Uniform)?;
            t.span(VARIANT.indexed(k), |t| match k {
                0 => Ok((Expr::Con, Type::Base)),
                1 => {
                    let n = t.draw(VAR_INDEX, MAX_VAR, Hint::Uniform)? as usize;
                    match ctx.get(n) {
                        Some(ty) => Ok((Expr::Var(n as i64), ty.clone())),
                        None => Err(t.reject()),
                    }
                }
                2 => {
                    let ty = self.typ(t, ftv, self.max_type_depth)?;
                    let mut c2 = Vec::with_capacity(ctx.len() + 1);
                    c2.push(ty.clone());
                    c2.extend_from_slice(ctx);
                    let (b, bt) = self.expr(t, ftv, &c2, depth - 1)?;
                    Ok((Expr::Lam(ty.clone(), bx(b)), Type::Fun(bx(ty), bx(bt))))
                }
                3 => {
                    let (f, ft) = self.expr(t, ftv, ctx, depth - 1)?;
                    let Type::Fun(arg, res) = ft else {
                        return Err(t.reject());
                    };
                    let (a, at) = self.expr(t, ftv, ctx, depth - 1)?;
                    if at != *arg {
                        return Err(t.reject());
                    }
                    Ok((Expr::App(bx(f), bx(a)), *res))
                }
                4 => {
                    let c2: Vec<Type> = ctx.iter().map(|ty| lift_type(None, 0, ty)).collect();
                    let (b, bt) = self.expr(t, ftv + 1, &c2, depth - 1)?;
                    Ok((Expr::TLam(bx(b)), Type::ForAll(bx(bt))))
                }
                _ => {
                    let (f, ft) = self.expr(t, ftv, ctx, depth - 1)?;
                    let Type::ForAll(body) = ft else {
                        return Err(t.reject());
                    };
                    let ty = self.typ(t, ftv, self.max_type_depth)?;
                    let rt = subst_in_type(None, 0, &ty, &body);
                    Ok((Expr::TApp(bx(f), ty), rt))
                }
            })
        })
    }
}

impl Gen for ExprGen {
    type Value = Expr;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<Expr, Reject> {
        Ok(self.expr(tape, 0, &[], self.max_depth)?.0)
    }
}

/// The target's test: closed well-typed terms from [`ExprGen`] and [`check`].
pub fn test(bug: Option<&str>) -> Box<dyn Test> {
    let m = parse_bug(bug);
    Box::new(property(ExprGen::default(), move |e: Expr| check(&e, m)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tapefuzz::tape::RandomSource;

    fn lam(t: Type, e: Expr) -> Expr {
        Expr::Lam(t, bx(e))
    }
    fn app(f: Expr, a: Expr) -> Expr {
        Expr::App(bx(f), bx(a))
    }
    fn tlam(e: Expr) -> Expr {
        Expr::TLam(bx(e))
    }
    fn tapp(e: Expr, t: Type) -> Expr {
        Expr::TApp(bx(e), t)
    }
    fn fun(a: Type, b: Type) -> Type {
        Type::Fun(bx(a), bx(b))
    }
    fn all(t: Type) -> Type {
        Type::ForAll(bx(t))
    }
    use Expr::{Con, Var};
    use Type::{Base, TVar};

    /// A closed, well-typed term each mutant gets wrong: random runs' shrunk failures, and
    /// by hand for the seven that 1,000,000 random tests did not find.
    fn counterexample(bug: &str) -> Expr {
        let id_base = || lam(Base, Var(0));
        match bug {
            // Lifting `λ:Base. 0` under a binder: the bound 0 must stay 0.
            "LiftVar" | "LiftLam" => app(lam(fun(Base, Base), lam(Base, Var(1))), id_base()),
            // Lifting `Λ. x` (x free) under a binder: x must be lifted inside the Λ.
            "LiftTLamA" | "LiftTLamB" => {
                lam(Base, app(lam(all(Base), lam(Base, Var(1))), tlam(Var(0))))
            }
            // Lifting `x [Base]` (x free) under a binder.
            "LiftTApp" => lam(
                all(Base),
                app(lam(Base, lam(Base, Var(1))), tapp(Var(0), Base)),
            ),
            // Substituting `λ:T0. 0` (T0 free) under a Λ: its annotation must become T1.
            "SubstNoLiftT" => tlam(app(
                lam(fun(TVar(0), TVar(0)), tlam(Var(0))),
                lam(TVar(0), Var(0)),
            )),
            // Substituting `Λ. λ:T0. 0` under a Λ: its own T0 is bound and must stay T0.
            "LiftTNoIncr" => app(
                lam(all(fun(TVar(0), TVar(0))), tlam(Var(0))),
                tlam(lam(TVar(0), Var(0))),
            ),
            "SubstVar" | "SubstLT" => lam(Base, app(lam(Base, Var(1)), Con)),
            "SubstApp" => app(lam(Base, app(lam(Base, Con), Con)), Con),
            "SubstInTypeNoDecr" | "SubstInTypeLT" => tlam(tapp(tlam(lam(TVar(1), Con)), Base)),
            "LiftTypeTVar" | "LiftTypeForAll" => tapp(tlam(lam(all(TVar(1)), Con)), all(TVar(0))),
            "TSubstNoIncr" => tapp(tlam(tlam(lam(TVar(0), Con))), Base),
            "AppForgetSubst" => app(id_base(), Con),
            "TAppForgetSubst" => tapp(tlam(lam(TVar(0), Con)), Base),
            "SubstSwapped" => app(lam(Base, tlam(Con)), Con),
            "SubstNoIncr" => app(lam(Base, lam(Base, Var(0))), Con),
            "SubstNoLift" => lam(Base, app(lam(Base, lam(Base, Var(1))), Var(0))),
            "SubstInTypeNoIncr" => tapp(tlam(lam(all(TVar(0)), Con)), Base),
            _ => panic!("{bug}"),
        }
    }

    #[test]
    fn every_mutant_fails_on_its_counterexample() {
        assert_eq!(BUGS.len(), 21);
        for (bug, _) in BUGS {
            let e = counterexample(bug);
            assert!(type_of(&e).is_some(), "{bug}: {e:?} is ill-typed");
            // The original preserves the type, in both reductions.
            let t = type_of(&e);
            for s in trace(None, &e) {
                assert_eq!(type_of(&s), t, "{bug}: {s:?}");
            }
            assert_eq!(peval(None, &e).and_then(|n| type_of(&n)), t, "{bug}");
            assert!(check(&e, None).is_ok());
            assert!(
                check(&e, parse_bug(Some(bug))).is_err(),
                "{bug} passes {e:?}"
            );
        }
    }

    #[test]
    fn generated_terms_have_the_type_the_generator_computed_and_reject_at_once() {
        let g = ExprGen::default();
        let (mut valid, mut rejected) = (0, 0);
        for seed in 0..3000 {
            let mut src = RandomSource::new(seed);
            let mut tape = Tape::recording(&mut src);
            match g.expr(&mut tape, 0, &[], g.max_depth) {
                Ok((e, t)) => {
                    valid += 1;
                    assert_eq!(type_of(&e), Some(t), "{e:?}");
                }
                Err(_) => {
                    rejected += 1;
                    assert_eq!(tape.rejected_at(), Some(tape.drawn()), "seed {seed}");
                }
            }
        }
        assert!(
            valid > 100 && rejected > 100,
            "{valid} valid, {rejected} rejected"
        );
    }

    #[test]
    fn random_testing_finds_the_easy_mutants() {
        for bug in ["AppForgetSubst", "TAppForgetSubst", "SubstSwapped"] {
            let r = Property::new("systemf")
                .no_corpus()
                .seed(2)
                .tests(200_000)
                .run_test(test(Some(bug)).as_ref());
            assert!(r.failure.is_some(), "{bug} not found");
        }
        let r = Property::new("systemf")
            .no_corpus()
            .seed(2)
            .tests(5_000)
            .run_test(test(None).as_ref());
        assert!(r.passed(), "\n{r}");
    }
}
