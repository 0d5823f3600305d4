//! Context-free grammars: token sequences of one derivation, depth-bounded.

use crate::generators::{Boxed, Gen, GenExt};
use crate::tape::{Hint, Label, Reject, Tape};
use std::cell::OnceCell;
use std::collections::HashMap;

const ALTERNATIVE: Label = crate::tape::builtin::GRAMMAR_ALTERNATIVE;
const NONTERMINAL: Label = crate::tape::builtin::GRAMMAR_NONTERMINAL;
const TERMINAL: Label = crate::tape::builtin::GRAMMAR_TERMINAL;

/// One symbol of a [`grammar`] alternative.
#[derive(Debug)]
pub enum Symbol<T> {
    /// A nonterminal, by the name of its rule.
    Nt(&'static str),
    /// A terminal: one token from a generator.
    Tok(Boxed<T>),
}

impl<T> Clone for Symbol<T> {
    fn clone(&self) -> Self {
        match self {
            Symbol::Nt(n) => Symbol::Nt(n),
            Symbol::Tok(g) => Symbol::Tok(g.clone()),
        }
    }
}

impl<T> Symbol<T> {
    /// A nonterminal, by the name of its rule ([`Grammar::rule`]).
    pub fn nt(name: &'static str) -> Symbol<T> {
        Symbol::Nt(name)
    }

    /// A terminal whose token is drawn from `token` (a `just(…)` for a fixed token).
    pub fn tok(token: impl Gen<Value = T> + 'static) -> Symbol<T> {
        Symbol::Tok(token.boxed())
    }
}

/// A symbol with its nonterminal resolved to a rule index.
enum Resolved<T> {
    Nt(usize),
    Tok(Boxed<T>),
}

/// The grammar, resolved once: per rule, its alternatives sorted by how soon they
/// terminate, and how many of them terminate soonest.
struct Compiled<T> {
    /// Per rule: alternatives, those of least depth first (stable among equals).
    rules: Vec<Vec<Vec<Resolved<T>>>>,
    /// Per rule: the number of alternatives of least depth (a prefix of `rules[i]`).
    soonest: Vec<usize>,
    start: usize,
}

/// See [`grammar`].
pub struct Grammar<T> {
    start: &'static str,
    max_depth: usize,
    rules: Vec<(&'static str, Vec<Vec<Symbol<T>>>)>,
    compiled: OnceCell<Compiled<T>>,
}

impl<T> Clone for Grammar<T> {
    /// A copy of the rules (the copy resolves them again on first use).
    fn clone(&self) -> Self {
        Grammar {
            start: self.start,
            max_depth: self.max_depth,
            rules: self.rules.clone(),
            compiled: OnceCell::new(),
        }
    }
}

impl<T> std::fmt::Debug for Grammar<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<_> = self.rules.iter().map(|(n, _)| *n).collect();
        f.debug_struct("Grammar")
            .field("start", &self.start)
            .field("max_depth", &self.max_depth)
            .field("rules", &names)
            .finish()
    }
}

/// The tokens of one derivation of a context-free grammar (Synthia's `GrammarPicker`),
/// from the nonterminal `start`; add rules with [`Grammar::rule`]. A terminal is a
/// generator, so tokens can carry drawn values (numbers, names).
///
/// **Depth control**: the start symbol is at depth 1. Once a nonterminal sits at depth
/// `max_depth` or deeper, only its alternatives that terminate soonest are allowed (the
/// least derivation depth, computed once per nonterminal), so a derivation is at most
/// `max_depth` plus the least depth of the deepest such chain deep, and finite.
///
/// **On the tape**: each nonterminal's expansion is a span `grammar.nonterminal` (a
/// [`Kind::Node`](crate::tape::Kind::Node)) opening with the choice of its alternative (a
/// [`Kind::Union`](crate::tape::Kind::Union)), then its symbols in order; each token's
/// choices are in a span `grammar.terminal`.
///
/// **Simplicity order**: alternatives are ordered by their least derivation depth (then as
/// listed), and index `i` of the choice is the `i`-th in that order. So index 0 everywhere
/// (a tape of zeros) is the **shortest derivation** (least depth; among equals the first
/// listed), with simplest tokens; past `max_depth` the allowed alternatives are a prefix of
/// the order, so an index keeps its meaning when the depth bound cuts the choice.
/// **Running out**: every further nonterminal takes its soonest-terminating alternative.
///
/// Panics on first use if a nonterminal has no rule, a rule has no alternative, or a
/// nonterminal cannot derive a finite token sequence.
///
/// ```
/// use tapefuzz::prelude::*;
/// use tapefuzz::generators::{Symbol, grammar};
///
/// // expr := expr "+" expr | "(" expr ")" | digit
/// let expr = grammar("expr", 4)
///     .rule("expr", vec![
///         vec![Symbol::nt("expr"), Symbol::tok(just("+".to_string())), Symbol::nt("expr")],
///         vec![Symbol::tok(just("(".to_string())), Symbol::nt("expr"), Symbol::tok(just(")".to_string()))],
///         vec![Symbol::nt("digit")],
///     ])
///     .rule("digit", vec![vec![Symbol::tok(ints::<u8>(0..=9).map(|d| d.to_string()))]]);
/// check(expr, |tokens: Vec<String>| {
///     let opened = tokens.iter().filter(|t| *t == "(").count();
///     opened == tokens.iter().filter(|t| *t == ")").count()
/// });
/// ```
pub fn grammar<T>(start: &'static str, max_depth: usize) -> Grammar<T> {
    Grammar {
        start,
        max_depth,
        rules: Vec::new(),
        compiled: OnceCell::new(),
    }
}

impl<T> Grammar<T> {
    /// Adds the rule `name := alternative | …`, each alternative a sequence of symbols (an
    /// empty one derives nothing). Adding a second rule of the same name adds its
    /// alternatives to the first.
    pub fn rule(mut self, name: &'static str, alternatives: Vec<Vec<Symbol<T>>>) -> Grammar<T> {
        self.compiled = OnceCell::new();
        match self.rules.iter_mut().find(|(n, _)| *n == name) {
            Some((_, alts)) => alts.extend(alternatives),
            None => self.rules.push((name, alternatives)),
        }
        self
    }

    fn compiled(&self) -> &Compiled<T> {
        self.compiled.get_or_init(|| self.compile())
    }

    fn compile(&self) -> Compiled<T> {
        let index: HashMap<&str, usize> = self
            .rules
            .iter()
            .enumerate()
            .map(|(i, (n, _))| (*n, i))
            .collect();
        let find = |n: &str| -> usize {
            *index
                .get(n)
                .unwrap_or_else(|| panic!("grammar: no rule for nonterminal {n:?}"))
        };
        let rules: Vec<Vec<Vec<Resolved<T>>>> = self
            .rules
            .iter()
            .map(|(name, alts)| {
                assert!(
                    !alts.is_empty(),
                    "grammar: rule {name:?} has no alternative"
                );
                alts.iter()
                    .map(|alt| {
                        alt.iter()
                            .map(|s| match s {
                                Symbol::Nt(n) => Resolved::Nt(find(n)),
                                Symbol::Tok(g) => Resolved::Tok(g.clone()),
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect();
        // Least derivation depth per rule, by fixpoint: an alternative's depth is one more
        // than its deepest nonterminal's.
        let alt_depth = |depth: &[usize], alt: &[Resolved<T>]| -> usize {
            alt.iter()
                .map(|s| match s {
                    Resolved::Nt(j) => depth[*j],
                    Resolved::Tok(_) => 0,
                })
                .max()
                .unwrap_or(0)
                .saturating_add(1)
        };
        let mut depth = vec![usize::MAX; rules.len()];
        loop {
            let mut changed = false;
            for (i, alts) in rules.iter().enumerate() {
                let d = alts
                    .iter()
                    .map(|a| alt_depth(&depth, a))
                    .min()
                    .unwrap_or(usize::MAX);
                if d < depth[i] {
                    depth[i] = d;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for (i, (name, _)) in self.rules.iter().enumerate() {
            assert!(
                depth[i] != usize::MAX,
                "grammar: nonterminal {name:?} never derives a finite sequence"
            );
        }
        let mut soonest = Vec::with_capacity(rules.len());
        let rules = rules
            .into_iter()
            .map(|alts| {
                let mut keyed: Vec<(usize, Vec<Resolved<T>>)> = alts
                    .into_iter()
                    .map(|a| (alt_depth(&depth, &a), a))
                    .collect();
                keyed.sort_by_key(|(d, _)| *d); // stable: listed order among equals
                let least = keyed[0].0;
                soonest.push(keyed.iter().take_while(|(d, _)| *d == least).count());
                keyed.into_iter().map(|(_, a)| a).collect()
            })
            .collect();
        Compiled {
            rules,
            soonest,
            start: find(self.start),
        }
    }

    fn expand(
        &self,
        c: &Compiled<T>,
        rule: usize,
        depth: usize,
        tape: &mut Tape<'_>,
        out: &mut Vec<T>,
    ) -> Result<(), Reject> {
        tape.span(NONTERMINAL, |t| {
            let alts = &c.rules[rule];
            let allowed = if depth >= self.max_depth {
                c.soonest[rule]
            } else {
                alts.len()
            };
            let i = t.draw(ALTERNATIVE, (allowed - 1) as u64, Hint::Uniform)?;
            for (k, s) in alts[i as usize].iter().enumerate() {
                match s {
                    Resolved::Nt(j) => self.expand(c, *j, depth + 1, t, out)?,
                    Resolved::Tok(g) => {
                        out.push(t.span(TERMINAL.indexed(k as u64), |t| g.generate(t))?)
                    }
                }
            }
            Ok(())
        })
    }
}

impl<T> Gen for Grammar<T> {
    type Value = Vec<T>;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<Vec<T>, Reject> {
        let c = self.compiled();
        let mut out = Vec::new();
        self.expand(c, c.start, 1, tape, &mut out)?;
        Ok(out)
    }
}
