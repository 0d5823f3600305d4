//! Pools (Hypothesis's bundles, hegel's variables): values that earlier actions created, for
//! later actions to refer to.

use crate::generators::{Boxed, GenExt, ints};
use std::fmt;
use std::marker::PhantomData;

/// The range of a [`Pool::pick`]'s choice: an index in `0..=PICK_RANGE` (or up to the number
/// of live values less one, when there are more), taken modulo the number of live values. A fixed range keeps the choice
/// where it was on the tape when shrinking deletes the action that created a value (a range
/// that followed the pool's size would vanish at size 1 and shift every later choice).
pub const PICK_RANGE: u64 = 15;

/// A reference to the value an earlier action put in a [`Pool`]: the number of the push
/// that created it (the first push is `v0`). The model and the system each keep a pool of
/// their own (the model's of model values, the system's of real handles); both push in the
/// same order, so one `Var` names the same value in both.
pub struct Var<T> {
    id: usize,
    of: PhantomData<fn() -> T>,
}

impl<T> Var<T> {
    /// The variable created by push number `id` (0 for the first).
    pub fn new(id: usize) -> Var<T> {
        Var {
            id,
            of: PhantomData,
        }
    }

    /// The number of the push that created it.
    pub fn id(self) -> usize {
        self.id
    }
}

impl<T> Clone for Var<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Var<T> {}
impl<T> PartialEq for Var<T> {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}
impl<T> Eq for Var<T> {}
impl<T> std::hash::Hash for Var<T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.id.hash(state)
    }
}
impl<T> fmt::Debug for Var<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}", self.id)
    }
}

/// Values created by actions, each under the [`Var`] its push returned. A value taken out
/// ([`Pool::take`], Hypothesis's `consumes`) is gone: [`Pool::pick`] never offers it again,
/// but later pushes keep counting, so every `Var` stays unique.
#[derive(Clone, PartialEq)]
pub struct Pool<T> {
    items: Vec<Option<T>>,
}

impl<T> Default for Pool<T> {
    fn default() -> Self {
        Pool { items: Vec::new() }
    }
}

impl<T: fmt::Debug> fmt::Debug for Pool<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(
                self.items
                    .iter()
                    .enumerate()
                    .filter_map(|(i, v)| v.as_ref().map(|v| (Var::<T>::new(i), v))),
            )
            .finish()
    }
}

impl<T> Pool<T> {
    /// An empty pool.
    pub fn new() -> Pool<T> {
        Pool::default()
    }

    /// Adds `value`; its variable is the number of pushes before it.
    pub fn push(&mut self, value: T) -> Var<T> {
        self.items.push(Some(value));
        Var::new(self.items.len() - 1)
    }

    /// The variable the next [`Pool::push`] will return (what a model says a creating
    /// action returns).
    pub fn next_var(&self) -> Var<T> {
        Var::new(self.items.len())
    }

    /// The value of `var`; `None` when it was taken or never pushed (a `Var` of another pool).
    pub fn get(&self, var: Var<T>) -> Option<&T> {
        self.items.get(var.id).and_then(Option::as_ref)
    }

    /// The value of `var`, to change in place; `None` as for [`Pool::get`].
    pub fn get_mut(&mut self, var: Var<T>) -> Option<&mut T> {
        self.items.get_mut(var.id).and_then(Option::as_mut)
    }

    /// Takes the value of `var` out; `None` when it was already taken or never pushed.
    pub fn take(&mut self, var: Var<T>) -> Option<T> {
        self.items.get_mut(var.id).and_then(Option::take)
    }

    /// Whether `var` names a value still in the pool.
    pub fn contains(&self, var: Var<T>) -> bool {
        self.get(var).is_some()
    }

    /// The variables of the values still in the pool, oldest first.
    pub fn live(&self) -> Vec<Var<T>> {
        (0..self.items.len())
            .filter(|&i| self.items[i].is_some())
            .map(Var::new)
            .collect()
    }

    /// How many values are still in the pool.
    pub fn len(&self) -> usize {
        self.items.iter().filter(|v| v.is_some()).count()
    }

    /// Whether no value is left (none pushed, or all taken).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<T: 'static> Pool<T> {
    /// A generator of one of the live variables, any of them: one choice in
    /// `0..=`[`PICK_RANGE`] (wider when more than 16 are live), modulo their number. Simplicity order: the oldest live value first. Running out: the oldest.
    /// Call it from [`super::StateMachine::actions`] on the model's pool, only when it is not
    /// empty.
    ///
    /// # Panics
    ///
    /// When the pool is empty (there is nothing to refer to: offer the action only when
    /// [`Pool::is_empty`] is false).
    pub fn pick(&self) -> Boxed<Var<T>> {
        let live = self.live();
        assert!(!live.is_empty(), "Pool::pick on an empty pool");
        let n = live.len() as u64;
        ints::<u64>(0..=PICK_RANGE.max(n - 1))
            .map(move |i| live[(i % n) as usize])
            .boxed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::Gen;
    use crate::tape::{RandomSource, Tape};

    #[test]
    fn vars_stay_unique_after_take() {
        let mut p = Pool::new();
        let a = p.push("a");
        let b = p.push("b");
        assert_eq!(p.take(a), Some("a"));
        assert_eq!(p.take(a), None);
        let c = p.push("c");
        assert_eq!((a.id(), b.id(), c.id()), (0, 1, 2));
        assert_eq!(p.live(), vec![b, c]);
        assert_eq!(format!("{p:?}"), r#"{v1: "b", v2: "c"}"#);
        assert_eq!(p.len(), 2);
    }

    #[test]
    fn pick_gives_only_live_vars() {
        let mut p = Pool::new();
        for i in 0..5 {
            p.push(i);
        }
        p.take(Var::new(2));
        let g = p.pick();
        for seed in 0..200 {
            let mut src = RandomSource::new(seed);
            let mut tape = Tape::new(&mut src, false);
            let v = g.generate(&mut tape).unwrap();
            assert!(p.contains(v), "{v:?}");
        }
    }
}
