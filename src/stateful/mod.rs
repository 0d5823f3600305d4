//! Stateful (model-based) testing: a sequence of actions run against a system under test and,
//! in lockstep, against a model that says what the system should do (proptest-state-machine's
//! and Hypothesis's rule-based state machines, on the tape).
//!
//! A [`StateMachine`] gives the model's initial state, a fresh system (the reset), the
//! actions that make sense in a state (a generator per state, so preconditions hold by
//! construction, plus an optional [`StateMachine::precondition`]), how an action changes the
//! model, and how to run it on the system, checking the postcondition against the model.
//! [`commands`] generates action sequences by running the model while it draws them: each
//! action is one element of a list on the tape (a "one more?" coin, then the action's
//! choices, in one span), so shrinking deletes actions and simplifies their arguments, and
//! the sequence is drawn again from the shrunk tape with the model re-run, so every shrunk
//! sequence still meets its preconditions. [`stateful`] is the property, checked in a
//! `#[test]` by [`check_test`](crate::serve::check_test) (or
//! [`Property::check_test`](crate::property::Property::check_test)); its failure names the
//! step that failed and lists the minimal trace, one action a line.
//!
//! | what | where | for |
//! |---|---|---|
//! | [`StateMachine`], [`commands`], [`stateful`], [`run_commands`] | `machine.rs`, `commands.rs` | sequential model-based testing |
//! | [`Pool`], [`Var`] | `pool.rs` | values earlier actions created (a handle, a snapshot), referred to by later ones (Hypothesis's bundles) |
//! | [`ConcurrentMachine`], [`concurrent`], [`parallel_commands`], [`run_parallel`] | `concurrent.rs`, `linearizable.rs` | a prefix, then several threads at once, checked for linearizability against the model |
//! | [`monkey`], [`Monkey`], [`Episode`] | `monkey.rs` | no model: drive a reactive system with the actions it offers until it fails, then shrink the episode (Synthia's Monkey) |
//!
//! Every strategy drives these sequences (`random`, `swarm`, `rl`, `sa`, `greybox`, libFuzzer):
//! they are generators on the tape like any other. Draw every action's choices in the same
//! order (which action, then its arguments, used or not) and references from a fixed range
//! ([`Pool::pick`]): shrinking then deletes an action without changing what the later ones
//! mean.
//!
//! ```
//! use tapefuzz::prelude::*;
//! use tapefuzz::generators::Boxed;
//! use tapefuzz::stateful::{StateMachine, stateful};
//!
//! /// A counter that forgets its tenth increment (the bug).
//! struct Counter(u32);
//! impl Counter {
//!     fn add(&mut self) {
//!         self.0 += if self.0 == 9 { 0 } else { 1 };
//!     }
//! }
//!
//! #[derive(Clone, Debug)]
//! enum Action {
//!     Add,
//!     Reset,
//! }
//!
//! struct Model;
//! impl StateMachine for Model {
//!     type State = u32;
//!     type Sut = Counter;
//!     type Action = Action;
//!     fn initial(&self) -> u32 {
//!         0
//!     }
//!     fn reset(&self) -> Counter {
//!         Counter(0)
//!     }
//!     fn actions(&self, _state: &u32) -> Boxed<Action> {
//!         weighted(vec![(4, just(Action::Add).boxed()), (1, just(Action::Reset).boxed())]).boxed()
//!     }
//!     fn next_state(&self, state: &mut u32, action: &Action) {
//!         match action {
//!             Action::Add => *state += 1,
//!             Action::Reset => *state = 0,
//!         }
//!     }
//!     fn run(&self, sut: &mut Counter, _state: &u32, action: &Action) -> Result<(), Fail> {
//!         match action {
//!             Action::Add => sut.add(),
//!             Action::Reset => sut.0 = 0,
//!         }
//!         Ok(())
//!     }
//!     fn check(&self, sut: &Counter, state: &u32) -> Result<(), Fail> {
//!         ensure_eq!(sut.0, *state);
//!         Ok(())
//!     }
//! }
//!
//! // In a `#[test]`, `tapefuzz::serve::check_test(&stateful(Model, 0..=30))` fails the test
//! // with the minimal trace; here the report is read instead.
//! let report = Property::new("doc::counter")
//!     .no_corpus()
//!     .seed(3)
//!     .tests(10_000)
//!     .run_test(&stateful(Model, 0..=30));
//! // The minimal trace: ten increments.
//! assert_eq!(report.value.as_deref().map(|v| v.matches("Add").count()), Some(10));
//! ```

mod commands;
mod concurrent;
mod linearizable;
mod machine;
mod monkey;
mod pool;

pub use commands::{Commands, Steps, commands, run_commands, stateful};
pub use concurrent::{
    ConcurrentMachine, DEFAULT_REPEATS, Parallel, ParallelCommands, SHRINK_ATTEMPTS, concurrent,
    parallel_commands, run_against_model, run_parallel,
};
pub use machine::StateMachine;
pub use monkey::{DEFAULT_BUDGET, Episode, Monkey, monkey};
pub use pool::{PICK_RANGE, Pool, Var};
