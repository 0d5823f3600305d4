//! A small statement language (in the spirit of RLCheck's JavaScript benchmarks, paper 002
//! §5): a plain random program generator, validity = well-scoped and well-typed, and a
//! constant-propagation optimizer under test that only valid programs reach.

use std::collections::HashMap;
use tapefuzz::prelude::*;
use tapefuzz::property::Test;
use tapefuzz::tape::Label;
use tapefuzz::{property::property, tape::Reject, tape::Tape};

/// Variable names the generator picks from.
pub const VARS: [&str; 3] = ["a", "b", "c"];
/// Deepest nesting of blocks and of expressions.
pub const MAX_DEPTH: usize = 2;
/// Loop iterations a run may take in all (then it stops; both runs stop alike).
pub const FUEL: u32 = 64;

/// A type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// Integers (wrapping).
    Int,
    /// Booleans.
    Bool,
}

/// An expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    /// An integer literal.
    Int(i64),
    /// A boolean literal.
    Bool(bool),
    /// A variable.
    Var(&'static str),
    /// `a + b` on integers.
    Add(Box<Expr>, Box<Expr>),
    /// `a < b` on integers.
    Lt(Box<Expr>, Box<Expr>),
    /// `a && b` on booleans.
    And(Box<Expr>, Box<Expr>),
    /// `!a` on a boolean.
    Not(Box<Expr>),
}

/// A statement.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Stmt {
    /// `let x: ty = e;` declares `x` in the current block.
    Let(&'static str, Ty, Expr),
    /// `x = e;` assigns a variable in scope.
    Assign(&'static str, Expr),
    /// `if e { … } else { … }`; each branch is a block.
    If(Expr, Vec<Stmt>, Vec<Stmt>),
    /// `while e { … }`.
    While(Expr, Vec<Stmt>),
    /// `print e;`
    Print(Expr),
}

const STMT: Label = Label::new("lang.stmt");
const EXPR: Label = Label::new("lang.expr");
const KIND: Label = Label::new("lang.kind");

/// Plain expressions: any operator on any operands (no types known). Simplest: `0`.
#[derive(Clone, Copy, Debug)]
pub struct ExprGen {
    depth: usize,
}

impl Gen for ExprGen {
    type Value = Expr;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<Expr, Reject> {
        tape.span(EXPR, |t| {
            let kinds = if self.depth < MAX_DEPTH { 7 } else { 3 };
            let sub = ExprGen {
                depth: self.depth + 1,
            };
            let b = |t: &mut Tape<'_>| sub.generate(t).map(Box::new);
            Ok(
                match t.draw(KIND, kinds - 1, tapefuzz::tape::Hint::Uniform)? {
                    0 => Expr::Int(ints::<i64>(0..=9).generate(t)?),
                    1 => Expr::Bool(bools().generate(t)?),
                    2 => Expr::Var(sampled_from(VARS).generate(t)?),
                    3 => Expr::Add(b(t)?, b(t)?),
                    4 => Expr::Lt(b(t)?, b(t)?),
                    5 => Expr::And(b(t)?, b(t)?),
                    _ => Expr::Not(b(t)?),
                },
            )
        })
    }
}

/// Plain programs: a block of up to 6 statements; `if` and `while` nest blocks below
/// [`MAX_DEPTH`]. Simplest: the empty program.
#[derive(Clone, Copy, Debug, Default)]
pub struct BlockGen {
    depth: usize,
}

impl Gen for BlockGen {
    type Value = Vec<Stmt>;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<Vec<Stmt>, Reject> {
        vecs(StmtGen { depth: self.depth }, 0..=6)
            .average(2.0)
            .generate(tape)
    }
}

/// One statement of [`BlockGen`].
#[derive(Clone, Copy, Debug)]
pub struct StmtGen {
    depth: usize,
}

impl Gen for StmtGen {
    type Value = Stmt;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<Stmt, Reject> {
        tape.span(STMT, |t| {
            let kinds = if self.depth < MAX_DEPTH { 5 } else { 3 };
            let e = ExprGen { depth: 0 };
            let block = BlockGen {
                depth: self.depth + 1,
            };
            Ok(
                match t.draw(KIND, kinds - 1, tapefuzz::tape::Hint::Uniform)? {
                    0 => {
                        let x = sampled_from(VARS).generate(t)?;
                        let ty = if bools().generate(t)? {
                            Ty::Bool
                        } else {
                            Ty::Int
                        };
                        Stmt::Let(x, ty, e.generate(t)?)
                    }
                    1 => Stmt::Assign(sampled_from(VARS).generate(t)?, e.generate(t)?),
                    2 => Stmt::Print(e.generate(t)?),
                    3 => Stmt::If(e.generate(t)?, block.generate(t)?, block.generate(t)?),
                    _ => Stmt::While(e.generate(t)?, block.generate(t)?),
                },
            )
        })
    }
}

/// The program generator.
pub fn program_gen() -> BlockGen {
    BlockGen::default()
}

/// Scopes: one map per open block, innermost last.
struct Scopes<T>(Vec<HashMap<&'static str, T>>);

impl<T: Clone> Scopes<T> {
    fn get(&self, x: &str) -> Option<&T> {
        self.0.iter().rev().find_map(|s| s.get(x))
    }
    fn get_mut(&mut self, x: &str) -> Option<&mut T> {
        self.0.iter_mut().rev().find_map(|s| s.get_mut(x))
    }
}

fn type_of(e: &Expr, env: &Scopes<Ty>) -> Result<Ty, String> {
    let want = |e: &Expr, ty: Ty| -> Result<(), String> {
        match type_of(e, env)? {
            t if t == ty => Ok(()),
            t => Err(format!("{e:?} is {t:?}, not {ty:?}")),
        }
    };
    Ok(match e {
        Expr::Int(_) => Ty::Int,
        Expr::Bool(_) => Ty::Bool,
        Expr::Var(x) => *env.get(x).ok_or_else(|| format!("{x} is not in scope"))?,
        Expr::Add(a, b) => {
            want(a, Ty::Int)?;
            want(b, Ty::Int)?;
            Ty::Int
        }
        Expr::Lt(a, b) => {
            want(a, Ty::Int)?;
            want(b, Ty::Int)?;
            Ty::Bool
        }
        Expr::And(a, b) => {
            want(a, Ty::Bool)?;
            want(b, Ty::Bool)?;
            Ty::Bool
        }
        Expr::Not(a) => {
            want(a, Ty::Bool)?;
            Ty::Bool
        }
    })
}

fn check_block(block: &[Stmt], env: &mut Scopes<Ty>) -> Result<(), String> {
    env.0.push(HashMap::new());
    for s in block {
        match s {
            Stmt::Let(x, ty, e) => {
                let t = type_of(e, env)?;
                if t != *ty {
                    return Err(format!("let {x}: {ty:?} = a {t:?}"));
                }
                if env.0.last().is_some_and(|s| s.contains_key(x)) {
                    return Err(format!("{x} declared twice in one block"));
                }
                env.0.last_mut().expect("a scope").insert(x, *ty);
            }
            Stmt::Assign(x, e) => {
                let ty = *env.get(x).ok_or_else(|| format!("{x} is not in scope"))?;
                if type_of(e, env)? != ty {
                    return Err(format!("{x} = a value of another type"));
                }
            }
            Stmt::If(c, a, b) => {
                if type_of(c, env)? != Ty::Bool {
                    return Err("if on an integer".into());
                }
                check_block(a, env)?;
                check_block(b, env)?;
            }
            Stmt::While(c, body) => {
                if type_of(c, env)? != Ty::Bool {
                    return Err("while on an integer".into());
                }
                check_block(body, env)?;
            }
            Stmt::Print(e) => {
                type_of(e, env)?;
            }
        }
    }
    env.0.pop();
    Ok(())
}

/// Validity: every variable is declared (at most once per block) before use, in scope, and
/// every expression, declaration, assignment and condition is well-typed.
pub fn well_formed(program: &[Stmt]) -> Result<(), String> {
    check_block(program, &mut Scopes(Vec::new()))
}

/// A value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Val {
    /// An integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
}

fn eval(e: &Expr, env: &Scopes<Val>) -> Val {
    let int = |e: &Expr| match eval(e, env) {
        Val::Int(n) => n,
        Val::Bool(_) => unreachable!("well-typed"),
    };
    let boolean = |e: &Expr| match eval(e, env) {
        Val::Bool(b) => b,
        Val::Int(_) => unreachable!("well-typed"),
    };
    match e {
        Expr::Int(n) => Val::Int(*n),
        Expr::Bool(b) => Val::Bool(*b),
        Expr::Var(x) => *env.get(x).expect("well-scoped"),
        Expr::Add(a, b) => Val::Int(int(a).wrapping_add(int(b))),
        Expr::Lt(a, b) => Val::Bool(int(a) < int(b)),
        Expr::And(a, b) => Val::Bool(boolean(a) && boolean(b)),
        Expr::Not(a) => Val::Bool(!boolean(a)),
    }
}

/// Runs a block; `false` when the fuel ran out (the run stops there).
fn exec(block: &[Stmt], env: &mut Scopes<Val>, fuel: &mut u32, out: &mut Vec<Val>) -> bool {
    env.0.push(HashMap::new());
    let mut going = true;
    for s in block {
        going = match s {
            Stmt::Let(x, _, e) => {
                let v = eval(e, env);
                env.0.last_mut().expect("a scope").insert(x, v);
                true
            }
            Stmt::Assign(x, e) => {
                let v = eval(e, env);
                *env.get_mut(x).expect("well-scoped") = v;
                true
            }
            Stmt::If(c, a, b) => {
                let branch = if eval(c, env) == Val::Bool(true) {
                    a
                } else {
                    b
                };
                exec(branch, env, fuel, out)
            }
            Stmt::While(c, body) => loop {
                if eval(c, env) != Val::Bool(true) {
                    break true;
                }
                if *fuel == 0 {
                    break false;
                }
                *fuel -= 1;
                if !exec(body, env, fuel, out) {
                    break false;
                }
            },
            Stmt::Print(e) => {
                out.push(eval(e, env));
                true
            }
        };
        if !going {
            break;
        }
    }
    env.0.pop();
    going
}

/// What a well-formed program prints (at most [`FUEL`] loop iterations in all).
pub fn run(program: &[Stmt]) -> Vec<Val> {
    let mut out = Vec::new();
    let mut fuel = FUEL;
    exec(program, &mut Scopes(Vec::new()), &mut fuel, &mut out);
    out
}

/// Planted bugs in [`optimize`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bug {
    /// Leaving a block does not restore the constants of variables that the block's own
    /// `let`s shadowed: after `if … { let a = 5; }` the outer `a` is taken to be 5.
    Shadow,
}

/// Known constants per open block; `None` marks a variable known not to be constant.
type Consts = Scopes<Option<Val>>;

fn fold(e: &Expr, k: &Consts) -> Expr {
    use Expr::*;
    let f = |e: &Expr| Box::new(fold(e, k));
    let e = match e {
        Var(x) => match k.get(x) {
            Some(Some(Val::Int(n))) => Int(*n),
            Some(Some(Val::Bool(b))) => Bool(*b),
            _ => Var(x),
        },
        Int(_) | Bool(_) => e.clone(),
        Add(a, b) => Add(f(a), f(b)),
        Lt(a, b) => Lt(f(a), f(b)),
        And(a, b) => And(f(a), f(b)),
        Not(a) => Not(f(a)),
    };
    match &e {
        Add(a, b) => match (&**a, &**b) {
            (Int(x), Int(y)) => Int(x.wrapping_add(*y)),
            _ => e,
        },
        Lt(a, b) => match (&**a, &**b) {
            (Int(x), Int(y)) => Bool(x < y),
            _ => e,
        },
        And(a, b) => match (&**a, &**b) {
            (Bool(x), Bool(y)) => Bool(*x && *y),
            _ => e,
        },
        Not(a) => match &**a {
            Bool(x) => Bool(!x),
            _ => e,
        },
        _ => e,
    }
}

fn literal(e: &Expr) -> Option<Val> {
    match e {
        Expr::Int(n) => Some(Val::Int(*n)),
        Expr::Bool(b) => Some(Val::Bool(*b)),
        _ => None,
    }
}

/// Variables a block assigns to (at any depth), declared outside it or not.
fn assigned(block: &[Stmt], out: &mut Vec<&'static str>) {
    for s in block {
        match s {
            Stmt::Assign(x, _) => out.push(x),
            Stmt::If(_, a, b) => {
                assigned(a, out);
                assigned(b, out);
            }
            Stmt::While(_, body) => assigned(body, out),
            Stmt::Let(..) | Stmt::Print(_) => {}
        }
    }
}

/// Forgets what is known of the variables `block` may assign.
fn forget_assigned(block: &[Stmt], k: &mut Consts) {
    let mut xs = Vec::new();
    assigned(block, &mut xs);
    for x in xs {
        if let Some(c) = k.get_mut(x) {
            *c = None;
        }
    }
}

fn opt_block(block: &[Stmt], k: &mut Consts, bug: Option<Bug>) -> Vec<Stmt> {
    k.0.push(HashMap::new());
    let mut out = Vec::new();
    for s in block {
        out.push(match s {
            Stmt::Let(x, ty, e) => {
                let e = fold(e, k);
                k.0.last_mut().expect("a scope").insert(x, literal(&e));
                Stmt::Let(x, *ty, e)
            }
            Stmt::Assign(x, e) => {
                let e = fold(e, k);
                if let Some(c) = k.get_mut(x) {
                    *c = literal(&e);
                }
                Stmt::Assign(x, e)
            }
            Stmt::Print(e) => Stmt::Print(fold(e, k)),
            Stmt::If(c, a, b) => {
                let c = fold(c, k);
                // Each branch starts from what is known here; afterwards only what neither
                // branch may have assigned is still known (a branch's own scope is gone).
                let before = k.0.clone();
                let a2 = opt_block(a, k, bug);
                k.0 = before;
                let b2 = opt_block(b, k, bug);
                forget_assigned(a, k);
                forget_assigned(b, k);
                Stmt::If(c, a2, b2)
            }
            Stmt::While(c, body) => {
                forget_assigned(body, k);
                let c = fold(c, k);
                let body2 = opt_block(body, k, bug);
                forget_assigned(body, k);
                Stmt::While(c, body2)
            }
        });
    }
    let inner = k.0.pop().expect("a scope");
    if bug == Some(Bug::Shadow) {
        // The bug: what the block knew of its own declarations leaks into the enclosing
        // scopes, over the outer variables they shadowed.
        for (x, c) in inner {
            if let Some(outer) = k.get_mut(x) {
                *outer = c;
            }
        }
    }
    out
}

/// Constant propagation and folding.
pub fn optimize(program: &[Stmt], bug: Option<Bug>) -> Vec<Stmt> {
    opt_block(program, &mut Scopes(Vec::new()), bug)
}

/// The property: a well-formed program prints the same before and after optimization.
pub fn check(program: &[Stmt], bug: Option<Bug>) -> Result<(), Fail> {
    if well_formed(program).is_err() {
        return Err(Fail::Rejected);
    }
    let optimized = optimize(program, bug);
    let (before, after) = (run(program), run(&optimized));
    ensure!(
        before == after,
        "prints {before:?}, optimized {after:?}: {optimized:?}"
    );
    Ok(())
}

/// The target's test.
pub fn test(bug: Option<&str>) -> Box<dyn Test> {
    let bug = match bug {
        Some("shadow") => Some(Bug::Shadow),
        _ => None,
    };
    Box::new(property(program_gen(), move |p: Vec<Stmt>| check(&p, bug)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use Expr::{Add, Int, Lt, Var};

    fn b(e: Expr) -> Box<Expr> {
        Box::new(e)
    }

    #[test]
    fn validity_is_scope_and_types() {
        assert!(well_formed(&[Stmt::Print(Var("a"))]).is_err(), "undeclared");
        assert!(
            well_formed(&[Stmt::Let("a", Ty::Bool, Int(1))]).is_err(),
            "mistyped"
        );
        let twice = [
            Stmt::Let("a", Ty::Int, Int(1)),
            Stmt::Let("a", Ty::Int, Int(2)),
        ];
        assert!(well_formed(&twice).is_err(), "twice in one block");
        let scoped = [
            Stmt::If(
                Expr::Bool(true),
                vec![Stmt::Let("a", Ty::Int, Int(1))],
                vec![],
            ),
            Stmt::Print(Var("a")),
        ];
        assert!(well_formed(&scoped).is_err(), "out of its block");
        let ok = [
            Stmt::Let("a", Ty::Int, Int(1)),
            Stmt::If(
                Expr::Bool(true),
                vec![Stmt::Let("a", Ty::Bool, Expr::Bool(false))],
                vec![],
            ),
            Stmt::Print(Var("a")),
        ];
        assert!(well_formed(&ok).is_ok(), "shadowing in an inner block");
    }

    #[test]
    fn the_optimizer_keeps_what_programs_print() {
        let programs = [
            // A branch assigns: the constant is forgotten after the `if`.
            vec![
                Stmt::Let("a", Ty::Int, Int(1)),
                Stmt::If(
                    Lt(b(Var("a")), b(Int(5))),
                    vec![Stmt::Assign("a", Int(2))],
                    vec![],
                ),
                Stmt::Print(Var("a")),
            ],
            // A loop assigns: forgotten before and after the loop.
            vec![
                Stmt::Let("a", Ty::Int, Int(0)),
                Stmt::While(
                    Lt(b(Var("a")), b(Int(3))),
                    vec![Stmt::Assign("a", Add(b(Var("a")), b(Int(1))))],
                ),
                Stmt::Print(Var("a")),
            ],
            // Folding through known constants.
            vec![
                Stmt::Let("a", Ty::Int, Int(4)),
                Stmt::Let("b", Ty::Int, Add(b(Var("a")), b(Int(5)))),
                Stmt::Print(Lt(b(Var("b")), b(Int(10)))),
            ],
        ];
        for p in programs {
            assert!(well_formed(&p).is_ok(), "{p:?}");
            assert!(check(&p, None).is_ok(), "{p:?}");
        }
        assert_eq!(
            run(&[Stmt::While(Expr::Bool(true), vec![])]),
            [],
            "fuel ends loops"
        );
    }

    #[test]
    fn shadow_leaks_an_inner_constant() {
        let p = [
            Stmt::Let("a", Ty::Int, Int(1)),
            Stmt::If(
                Expr::Bool(false),
                vec![],
                vec![Stmt::Let("a", Ty::Int, Int(0))],
            ),
            Stmt::Print(Var("a")),
        ];
        assert_eq!(run(&p), [Val::Int(1)]);
        assert!(check(&p, None).is_ok());
        assert!(check(&p, Some(Bug::Shadow)).is_err());
    }
}
