//! `Open`: an integer that may still be open — a variable of the constrained generator's
//! store plus an offset — on which the user's filter runs.

use super::session::{self, Rel};
use super::store::ZERO;
use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, Mul, Sub};

/// An integer a constrained generator has not fixed yet: `variable + offset`, or a constant
/// (the variable is the constant zero). Comparisons between open integers, and with
/// constants, are the filter's branch points: each asks the generator's store which outcomes
/// its constraints still allow and takes one (see [`super::Constrained`]). Adding or
/// subtracting a constant keeps a value open; anything else on two open values (their sum,
/// a product, [`super::Num::to_i64`]) leaves difference constraints, and the value falls
/// back to generate-and-filter.
///
/// Outside the generator that made them only constants compare; comparing a variable there
/// panics.
#[derive(Clone, Copy)]
pub struct Open {
    var: u32,
    offset: i64,
}

impl Open {
    /// The constant `v`.
    pub const fn constant(v: i64) -> Open {
        Open {
            var: ZERO,
            offset: v,
        }
    }

    pub(crate) const fn var(var: u32) -> Open {
        Open { var, offset: 0 }
    }

    /// The constant's value, or `None` for an open value.
    pub fn as_constant(self) -> Option<i64> {
        (self.var == ZERO).then_some(self.offset)
    }

    fn key(self) -> (u32, i64) {
        (self.var, self.offset)
    }

    fn same(self, other: Open) -> Option<Ordering> {
        (self.var == other.var).then(|| self.offset.cmp(&other.offset))
    }

    /// The bounds the store gives the value now (a constant's are itself).
    pub fn bounds(self) -> (i64, i64) {
        match session::bounds(self.var) {
            Some((lo, hi)) if self.var != ZERO => (
                lo.saturating_add(self.offset),
                hi.saturating_add(self.offset),
            ),
            _ => (self.offset, self.offset),
        }
    }
}

impl fmt::Debug for Open {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.as_constant() {
            Some(c) => write!(f, "{c}"),
            None if self.offset == 0 => write!(f, "x{}", self.var),
            None => write!(f, "x{}{:+}", self.var, self.offset),
        }
    }
}

impl PartialEq for Open {
    fn eq(&self, other: &Open) -> bool {
        if let Some(o) = self.same(*other) {
            return o == Ordering::Equal;
        }
        session::decide(
            self.key(),
            other.key(),
            &[(Rel::Eq, true), (Rel::Lt, false), (Rel::Gt, false)],
        )
    }
}

impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Open) -> Option<Ordering> {
        if let Some(o) = self.same(*other) {
            return Some(o);
        }
        Some(session::decide(
            self.key(),
            other.key(),
            &[
                (Rel::Lt, Ordering::Less),
                (Rel::Eq, Ordering::Equal),
                (Rel::Gt, Ordering::Greater),
            ],
        ))
    }

    fn lt(&self, other: &Open) -> bool {
        self.two_way(other, Rel::Lt, Rel::Ge, Ordering::is_lt)
    }

    fn le(&self, other: &Open) -> bool {
        self.two_way(other, Rel::Le, Rel::Gt, Ordering::is_le)
    }

    fn gt(&self, other: &Open) -> bool {
        self.two_way(other, Rel::Gt, Rel::Le, Ordering::is_gt)
    }

    fn ge(&self, other: &Open) -> bool {
        self.two_way(other, Rel::Ge, Rel::Lt, Ordering::is_ge)
    }
}

impl Open {
    fn two_way(&self, other: &Open, yes: Rel, no: Rel, concrete: fn(Ordering) -> bool) -> bool {
        if let Some(o) = self.same(*other) {
            return concrete(o);
        }
        session::decide(self.key(), other.key(), &[(yes, true), (no, false)])
    }

    fn not_symbolic(self, other: Open, why: &'static str) -> Open {
        session::abort(why);
        // Something deterministic to go on with; the value is generated and filtered again.
        Open::constant(self.bounds().0.saturating_add(other.bounds().0))
    }
}

impl Add for Open {
    type Output = Open;
    fn add(self, other: Open) -> Open {
        match (self.as_constant(), other.as_constant()) {
            (_, Some(c)) => Open {
                var: self.var,
                offset: self.offset.saturating_add(c),
            },
            (Some(c), None) => Open {
                var: other.var,
                offset: other.offset.saturating_add(c),
            },
            (None, None) => self.not_symbolic(other, "the filter adds two open integers"),
        }
    }
}

impl Sub for Open {
    type Output = Open;
    fn sub(self, other: Open) -> Open {
        if self.var == other.var {
            return Open::constant(self.offset.saturating_sub(other.offset));
        }
        match other.as_constant() {
            Some(c) => Open {
                var: self.var,
                offset: self.offset.saturating_sub(c),
            },
            None => self.not_symbolic(other, "the filter subtracts an open integer from another"),
        }
    }
}

impl Mul for Open {
    type Output = Open;
    fn mul(self, other: Open) -> Open {
        match (self.as_constant(), other.as_constant()) {
            (Some(a), Some(b)) => Open::constant(a.saturating_mul(b)),
            (_, Some(0)) | (Some(0), _) => Open::constant(0),
            (_, Some(1)) => self,
            (Some(1), _) => other,
            _ => self.not_symbolic(other, "the filter multiplies an open integer"),
        }
    }
}
