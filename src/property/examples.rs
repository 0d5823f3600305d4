//! Explicit examples: values of the user's own, checked before anything is generated.
//!
//! Like Hypothesis's `@example` (and what proptest users ask for in proptest#284): a value
//! that once failed, or an edge case a person wants covered on every run whatever the seed.
//! [`Property::example`](super::Property::example) stores the value type-erased (a property
//! is not generic over its value type); [`Property::run`](super::Property::run) checks each
//! against the generator's value type, runs them in the order given, and reports the first
//! that fails as the failure: **shrunk** when the generator can run backwards to it
//! ([`Property::shrink_value`](super::Property::shrink_value)'s path: the failure is reflected
//! into a tape, shrunk and saved like any other), else as given, **unshrunk**, with the
//! reason.

use super::outcome::{Fail, Outcome};
use super::panic::{Caught, catch};
use super::rejected::{clear_rejected, take_rejected};
use super::{Property, Report};
use crate::engine::{Described, Failure, Found};
use crate::generators::Gen;
use crate::tape::Recording;
use std::any::{Any, type_name};
use std::fmt::{self, Debug};
use std::sync::Arc;

/// How the message of a failing explicit example starts (also how a report is recognised as
/// one).
pub(crate) const EXAMPLE_FAILED: &str = "explicit example failed";

/// One explicit example: a way to make the value afresh for each run (a property may run many
/// times), its type's name for the mismatch message, and its Debug form.
#[derive(Clone)]
struct Example {
    make: Arc<dyn Fn() -> Box<dyn Any> + Send + Sync>,
    type_name: &'static str,
    debug: String,
}

/// The explicit examples of a property, in the order given.
#[derive(Clone, Default)]
pub(crate) struct Examples(Vec<Example>);

impl Debug for Examples {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The values' own Debug forms, unquoted.
        let mut list = f.debug_list();
        for e in &self.0 {
            list.entry(&format_args!("{}", e.debug));
        }
        list.finish()
    }
}

/// An explicit example that failed: which one, its value and the message.
pub(crate) struct ExampleFailure {
    /// 1-based, in the order given.
    index: usize,
    value: String,
    message: String,
}

impl Examples {
    /// Adds `value`.
    pub(crate) fn push<T: Clone + Debug + Send + Sync + 'static>(&mut self, value: T) {
        let debug = format!("{value:?}");
        self.0.push(Example {
            make: Arc::new(move || Box::new(value.clone())),
            type_name: type_name::<T>(),
            debug,
        });
    }

    /// Runs `prop` on each example in order and returns the first failure. An example that
    /// `assume!` (or [`super::reject`]) rejects is skipped, as a rejected generated value is.
    ///
    /// Panics (at the caller's `check`) when an example is not a `V`, naming both types.
    #[track_caller]
    pub(crate) fn run<V, R>(&self, name: &str, prop: &impl Fn(V) -> R) -> Option<ExampleFailure>
    where
        V: 'static,
        R: Outcome,
    {
        for (i, example) in self.0.iter().enumerate() {
            let Ok(value) = (example.make)().downcast::<V>() else {
                panic!(
                    "tapefuzz: explicit example #{} of property `{name}` ({}) is a `{}`, but \
                     the generator makes `{}` (an integer literal may need a suffix: `3u8`)",
                    i + 1,
                    example.debug,
                    example.type_name,
                    type_name::<V>(),
                );
            };
            clear_rejected();
            let outcome = catch(|| prop(*value).into_result());
            let message = match outcome {
                Ok(Ok(())) | Ok(Err(Fail::Rejected)) | Err(Caught::Rejected) => continue,
                // As in the test wrapper: an inner `assume!` rejected before the panic.
                Err(Caught::Panic(_)) if take_rejected() => continue,
                Ok(Err(Fail::Failed(m))) | Err(Caught::Panic(m)) => m,
            };
            return Some(ExampleFailure {
                index: i + 1,
                value: example.debug.clone(),
                message,
            });
        }
        None
    }
}

impl Examples {
    /// The value of example `index` (1-based) as a `V`, made afresh; `None` when it is not
    /// one.
    pub(crate) fn value<V: 'static>(&self, index: usize) -> Option<V> {
        let example = self.0.get(index.checked_sub(1)?)?;
        (example.make)().downcast::<V>().ok().map(|v| *v)
    }
}

impl ExampleFailure {
    /// Which example failed (1-based).
    pub(crate) fn index(&self) -> usize {
        self.index
    }

    /// The report of property `name` failing on this example as given, unshrunk because of
    /// `why`, not saved (the value is in the test's source already); `replay` is the
    /// property's command.
    pub(crate) fn report(self, name: &str, replay: Option<String>, why: &str) -> Report {
        let message = format!("{EXAMPLE_FAILED} (not shrunk: {why}): {}", self.message);
        let failure = Failure {
            found: Found::Example(self.index as u64),
            original: Recording::default(),
            shrunk: Recording::default(),
            shrink_calls: 0,
            shrink_budget_exhausted: false,
            bytes: Vec::new(),
            described: Described {
                value: Some(self.value.clone()),
                message: Some(message.clone()),
            },
            isolated: false,
            saved: None,
            save_error: None,
            flaky: false,
            timed_out: false,
        };
        Report {
            name: name.to_string(),
            replay,
            ..Report::failed(failure, "example")
        }
    }
}

impl Property {
    /// Adds an explicit example: `value` is checked before anything is generated, on every
    /// run, in the order examples are added (Hypothesis's `@example`); an example that
    /// `assume!` rejects is skipped. An example that fails is the run's failure, its message
    /// starting "explicit example failed":
    ///
    /// - when the generator can run backwards to the value ([`Gen::reflect`]: the built-in
    ///   generators, `#[derive(Generate)]` types, `map_with`…), the failure is **shrunk**
    ///   from it and saved as a regression like any found failure
    ///   ([`Property::shrink_value`]); the report says it started from explicit example #n
    ///   and shows the value as given;
    /// - else (a plain `map`, a value the generator cannot make, such as one outside its
    ///   range), it is reported **as given**, not shrunk and not saved (it is in your source
    ///   already), and the message says why it was not shrunk.
    ///
    /// The value is stored type-erased and checked against the generator's value type when
    /// the property runs: a mismatch panics naming both types. Write integer literals with a
    /// suffix (`3u8`), or use [`Property::example_of`], which takes the type from the
    /// generator. Examples must be `Clone` (a property may run many times), `Send` and `Sync`
    /// (a `Property` is).
    ///
    /// ```
    /// use tapefuzz::prelude::*;
    ///
    /// // The generator makes at most 10 elements: 20 is out of its reach, so the failing
    /// // example is reported as given.
    /// let r = Property::new("example_doc")
    ///     .no_corpus()
    ///     .example(vec![1u8, 2, 3])
    ///     .example(vec![7u8; 20])
    ///     .run(vecs(ints::<u8>(..), 0..=10), |v: Vec<u8>| v.len() <= 10);
    /// assert!(!r.passed());
    /// assert_eq!(r.value.as_deref(), Some(format!("{:?}", vec![7u8; 20]).as_str()));
    /// let message = r.message.unwrap();
    /// assert!(message.starts_with("explicit example failed (not shrunk: "), "{message}");
    ///
    /// // Within its reach, it is shrunk from the example.
    /// let r = Property::new("example_doc")
    ///     .no_corpus()
    ///     .example(vec![7u8; 6])
    ///     .run(vecs(ints::<u8>(..), 0..=10), |v: Vec<u8>| v.len() <= 4);
    /// assert_eq!(r.value.as_deref(), Some("[0, 0, 0, 0, 0]"));
    /// assert!(r.to_string().contains("explicit example: [7, 7, 7, 7, 7, 7]"));
    /// ```
    pub fn example<T: Clone + Debug + Send + Sync + 'static>(mut self, value: T) -> Property {
        self.examples.push(value);
        self
    }

    /// Adds each of `values` as an explicit example ([`Property::example`]), in order.
    ///
    /// ```
    /// use tapefuzz::prelude::*;
    ///
    /// Property::new("examples_doc")
    ///     .no_corpus()
    ///     .examples([(0u32, 0u32), (u32::MAX, 1)])
    ///     .check((ints::<u32>(..), ints::<u32>(..)), |(a, b): (u32, u32)| {
    ///         a.wrapping_add(b) == b.wrapping_add(a)
    ///     });
    /// ```
    pub fn examples<T, I>(mut self, values: I) -> Property
    where
        T: Clone + Debug + Send + Sync + 'static,
        I: IntoIterator<Item = T>,
    {
        for v in values {
            self.examples.push(v);
        }
        self
    }

    /// [`Property::example`] with the value's type taken from `generator` (which is only
    /// read for its type), so literals need no suffix: `.example_of(&g, (1, -2))`. What the
    /// `examples(...)` clause of [`property!`](crate::property!) uses.
    pub fn example_of<G>(self, generator: &G, value: G::Value) -> Property
    where
        G: Gen,
        G::Value: Clone + Debug + Send + Sync + 'static,
    {
        let _ = generator;
        self.example(value)
    }
}
