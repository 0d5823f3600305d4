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
//! sequence still meets its preconditions. [`stateful`] is the property; its failure names
//! the step that failed and lists the minimal trace, one action a line.
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
    ConcurrentMachine, DEFAULT_REPEATS, Parallel, ParallelCommands, concurrent, parallel_commands,
    run_against_model, run_parallel,
};
pub use machine::StateMachine;
pub use monkey::{DEFAULT_BUDGET, Episode, Monkey, monkey};
pub use pool::{PICK_RANGE, Pool, Var};
