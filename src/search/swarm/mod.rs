//! The `swarm` strategy (swarm testing, Groce et al. 2012, as Hypothesis does for its state
//! machines): each test case turns a random subset of every union's options off, so an
//! action sequence is made of a few kinds of action only. A bug that needs many of one
//! action and none of another (two adds and no put between them, a long run of inserts)
//! is then far likelier than when every step picks among all actions. Otherwise random:
//! one seed per test case; the tapes are recorded (the configuration is part of the source,
//! so a seed alone would not replay them on a plain random source).
//!
//! ```
//! use tapefuzz::prelude::*;
//!
//! // Twelve pushes in a row, no pop among them: rare for random, common for a swarm.
//! #[derive(Clone, Debug)]
//! enum Op { Push, Pop, Peek }
//! let ops = vecs(one_of![just(Op::Push), just(Op::Pop), just(Op::Peek)], 0..=40).average(20.0);
//! let report = Property::new("doc::swarm")
//!     .no_corpus()
//!     .seed(1)
//!     .tests(20_000)
//!     .strategy_named("swarm")
//!     .unwrap()
//!     .run(ops, |ops: Vec<Op>| {
//!         let mut depth = 0i32;
//!         for op in &ops {
//!             match op {
//!                 Op::Push => depth += 1,
//!                 Op::Pop => depth = (depth - 1).max(0),
//!                 Op::Peek => {}
//!             }
//!             ensure!(depth < 12, "overflow");
//!         }
//!         Ok(())
//!     });
//! assert!(!report.passed());
//! ```

mod source;

pub use source::{MAX_OPTIONS, SwarmSource};

use crate::engine::{Proposal, Replay, Search, Start, Strategy};
use crate::env::{ConfigError, Env};
use crate::tape::Rng;
use std::sync::Arc;

/// The `swarm` strategy (no settings).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Swarm;

impl Strategy for Swarm {
    fn name(&self) -> &'static str {
        "swarm"
    }
    fn search(&self) -> Box<dyn Search> {
        Box::new(SwarmSearch {
            seed: 0,
            next: 0,
            source: SwarmSource::new(0),
        })
    }
}

/// The search of [`Swarm`].
#[derive(Debug)]
pub struct SwarmSearch {
    seed: u64,
    next: u64,
    source: SwarmSource,
}

impl Search for SwarmSearch {
    fn name(&self) -> &'static str {
        "swarm"
    }

    fn start(&mut self, start: &Start) {
        self.seed = start.seed;
        self.next = 0;
    }

    fn propose(&mut self) -> Option<Proposal<'_>> {
        let seed = Rng::derive(self.seed, self.next);
        self.next += 1;
        self.source = SwarmSource::new(seed);
        Some(Proposal::new(&mut self.source).recorded())
    }

    fn replay(&self) -> Option<Replay> {
        None
    }
}

/// The registry's entry.
pub(crate) fn from_env(_env: &Env) -> Result<Arc<dyn Strategy>, ConfigError> {
    Ok(Arc::new(Swarm))
}
