//! Shrinking a value the user already has: the generator run backwards to the value's tape
//! ([`Gen::reflect`]), then the one confirm-shrink-save path every failure takes.

use super::panic::{Caught, catch};
use super::property::PropertySubject;
use super::{Outcome, Property, Report, Test, property};
use crate::engine::{self, Found};
use crate::generators::{Gen, NoInverse, Reflection};
use crate::tape::{Reject, Status, Tape};
use std::fmt::{self, Debug};

/// Why [`Property::shrink_value`] did not shrink a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShrinkValueError {
    /// The generator cannot make the value: no generator on the way has an inverse for it
    /// (a `map` without one, a value out of range, rejected by a filter…), as the
    /// [`NoInverse`] says, naming the generator.
    Unreachable(NoInverse),
    /// The choices found for the value replay to a value with another Debug form: an
    /// inverse given to [`map_with`](crate::generators::GenExt::map_with) that does not
    /// invert its function, or a `skip` / `default` field of a derived type that differs
    /// from what the generator puts there.
    Mismatch {
        /// The value given (Debug).
        given: String,
        /// The value the choices make (Debug).
        replayed: String,
    },
    /// The generator makes no value of the choices found: they need more choices than the
    /// tape's size budget (`max_choices`), or the generator rejects or panics.
    NotReplayed {
        /// The value given (Debug).
        given: String,
        /// What happened.
        why: String,
    },
    /// Nothing to shrink: the property passes on the value.
    Passes {
        /// The value given (Debug).
        value: String,
    },
    /// Nothing to shrink: the property rejects the value (`assume!`).
    Rejected {
        /// The value given (Debug).
        value: String,
    },
}

impl fmt::Display for ShrinkValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShrinkValueError::Unreachable(e) => {
                write!(
                    f,
                    "cannot shrink the value: the generator cannot make it: {e}"
                )
            }
            ShrinkValueError::Mismatch { given, replayed } => write!(
                f,
                "cannot shrink the value: the choices found for it make another value \
                 (does a `map_with` inverse invert its function?)\n  given:    {given}\n  \
                 replayed: {replayed}"
            ),
            ShrinkValueError::NotReplayed { given, why } => write!(
                f,
                "cannot shrink the value {given}: the generator makes no value of the choices \
                 found for it: {why}"
            ),
            ShrinkValueError::Passes { value } => {
                write!(f, "nothing to shrink: the property passes on it ({value})")
            }
            ShrinkValueError::Rejected { value } => write!(
                f,
                "nothing to shrink: the property rejects it with `assume!` ({value})"
            ),
        }
    }
}

impl std::error::Error for ShrinkValueError {}

impl ShrinkValueError {
    /// Why a failing explicit example was not shrunk, in a few words.
    pub(crate) fn reason(&self) -> String {
        match self {
            ShrinkValueError::Unreachable(e) => e.to_string(),
            ShrinkValueError::Mismatch { replayed, .. } => {
                format!("the choices found for it make another value, {replayed}")
            }
            ShrinkValueError::NotReplayed { why, .. } => {
                format!("the generator makes no value of the choices found for it: {why}")
            }
            ShrinkValueError::Passes { .. } => {
                "it passed when run again from its choices (flaky?)".into()
            }
            ShrinkValueError::Rejected { .. } => {
                "`assume!` rejected it when run again from its choices".into()
            }
        }
    }
}

impl Property {
    /// Shrinks a failing value you already have — from a bug report, a log, a failing
    /// explicit example — as if the property had found it: `generator` is run backwards to
    /// the choices that make `value` ([`Gen::reflect`]), the choices are replayed to check
    /// that they make the same value (the same `Debug` form: no `PartialEq` needed) and that
    /// `prop` fails on it, and then the failure takes the path of every failure: confirmed,
    /// shrunk, saved to the property's `regressions/` (when it has a corpus), reported.
    /// The report says it started from the given value.
    ///
    /// Errors ([`ShrinkValueError`], each `Display`s what to do): the generator cannot make
    /// the value (a [`NoInverse`] naming the generator: a plain `map` — use
    /// [`map_with`](crate::generators::GenExt::map_with) —, a value outside a range, a
    /// filter that rejects it…); the choices replay to another value; the property passes
    /// on the value ("nothing to shrink") or rejects it.
    ///
    /// A value whose `Debug` form depends on more than the value (the order of a
    /// `HashSet`) is accepted when the replayed value's form has the same characters and
    /// reflects to the same choices. Only the value is run: no explicit example, no saved
    /// tape, no search.
    ///
    /// ```
    /// use tapefuzz::prelude::*;
    ///
    /// #[derive(Generate, Debug, Clone)]
    /// struct Order {
    ///     items: Vec<u32>,
    ///     coupon: Option<u8>,
    /// }
    ///
    /// // The bug: a coupon and more than 2 items.
    /// let total_ok = |o: Order| !(o.coupon.is_some() && o.items.len() > 2);
    /// // The value from the bug report.
    /// let reported = Order { items: vec![120, 7, 99, 4000], coupon: Some(15) };
    /// let report = Property::new("shrink_value_doc")
    ///     .no_corpus()
    ///     .shrink_value(any::<Order>(), total_ok, reported)
    ///     .unwrap();
    /// assert_eq!(
    ///     report.value.as_deref(),
    ///     Some("Order { items: [0, 0, 0], coupon: Some(0) }")
    /// );
    ///
    /// // A value the property passes on: nothing to shrink.
    /// let fine = Order { items: vec![1], coupon: Some(1) };
    /// let e = Property::new("shrink_value_doc")
    ///     .no_corpus()
    ///     .shrink_value(any::<Order>(), total_ok, fine)
    ///     .unwrap_err();
    /// assert!(e.to_string().starts_with("nothing to shrink"));
    /// ```
    pub fn shrink_value<G, F, R>(
        &self,
        generator: G,
        prop: F,
        value: G::Value,
    ) -> Result<Report, ShrinkValueError>
    where
        G: Gen,
        G::Value: Debug,
        F: Fn(G::Value) -> R,
        R: Outcome,
    {
        let test = property(&generator, &prop);
        self.shrink_given(&generator, &test, &value, None)
    }

    /// [`Property::shrink_value`] of `value` with `test` (the property over `generator`):
    /// `example` numbers an explicit example, for the report.
    pub(crate) fn shrink_given<G>(
        &self,
        generator: &G,
        test: &dyn Test,
        value: &G::Value,
        example: Option<u64>,
    ) -> Result<Report, ShrinkValueError>
    where
        G: Gen + ?Sized,
        G::Value: Debug,
    {
        let given = format!("{value:?}");
        let reflection = Reflection::of(generator, value).map_err(ShrinkValueError::Unreachable)?;
        let max_choices = self.config_ref().max_choices;
        // The choices make the value again?
        let replayed = {
            let mut src = reflection.source();
            let mut tape = Tape::new(&mut src, false).with_max_choices(max_choices);
            match catch(|| generator.generate(&mut tape)) {
                Ok(Ok(v)) => v,
                Ok(Err(Reject::Overrun)) => {
                    return Err(ShrinkValueError::NotReplayed {
                        given,
                        why: format!(
                            "they are {} choices, past the tape's size budget of {max_choices} \
                             (`max_choices`)",
                            reflection.len()
                        ),
                    });
                }
                Ok(Err(Reject::Invalid)) | Err(Caught::Rejected) => {
                    return Err(ShrinkValueError::NotReplayed {
                        given,
                        why: "the generator rejects them (a filter or `assume!`)".into(),
                    });
                }
                Err(Caught::Panic(m)) => {
                    return Err(ShrinkValueError::NotReplayed {
                        given,
                        why: format!("the generator panics: {m}"),
                    });
                }
            }
        };
        let shown = format!("{replayed:?}");
        if shown != given && !same_up_to_order(generator, &given, &shown, &replayed, &reflection) {
            return Err(ShrinkValueError::Mismatch {
                given,
                replayed: shown,
            });
        }
        // The property fails on it?
        let mut src = reflection.source();
        let mut tape = Tape::recording(&mut src).with_max_choices(max_choices);
        match test.explain(&mut tape).status {
            Status::Interesting => {}
            Status::Valid => return Err(ShrinkValueError::Passes { value: given }),
            Status::Invalid => return Err(ShrinkValueError::Rejected { value: given }),
            Status::Overrun => {
                return Err(ShrinkValueError::NotReplayed {
                    given,
                    why: "the tape overran its size budget".into(),
                });
            }
        }
        let original = tape.finish();
        let mut corpus = self.open_corpus();
        let mut subject = PropertySubject::new(self, test);
        let config = self.config_ref();
        if let Some(c) = corpus.as_mut() {
            engine::migrate_corpus(c, &mut subject, max_choices, &*config.reporter);
        }
        let found = Found::Given {
            example,
            value: given,
        };
        let failure = engine::settle(&mut subject, found, original, config, corpus.as_mut());
        let strategy = if example.is_some() {
            "example"
        } else {
            "shrink_value"
        };
        let mut run = Report::failed(failure, strategy);
        if let Some(e) = run.failure.as_ref().and_then(|f| f.save_error.clone()) {
            run.save_errors.push(e);
        }
        Ok(self.report(run))
    }
}

/// Whether `given` and `shown`, two Debug forms that differ, are one value printed in two
/// orders (a `HashSet`'s order depends on its hasher): the same characters, and `replayed`
/// (shown as `shown`) reflects to the choices of the value given.
fn same_up_to_order<G: Gen + ?Sized>(
    generator: &G,
    given: &str,
    shown: &str,
    replayed: &G::Value,
    reflection: &Reflection,
) -> bool {
    let sorted = |s: &str| {
        let mut c: Vec<char> = s.chars().collect();
        c.sort_unstable();
        c
    };
    sorted(given) == sorted(shown)
        && Reflection::of(generator, replayed)
            .is_ok_and(|again| again.indices() == reflection.indices())
}
