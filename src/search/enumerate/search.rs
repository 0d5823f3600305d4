//! The search of [`Enumerate`]: iterative deepening over sizes on the tree of tapes run, one
//! tree per constructor pattern when patterns are on.

use super::patterns::pattern_rows;
use super::{Branch, Enumerate, PrefixSource, Tree};
use crate::engine::{Finish, Observation, Proposal, Replay, Search, Start, Stat};
use crate::tape::{Kind, Rng, Status};
use std::time::{Duration, Instant};

/// One enumeration: a tree of tapes, and the pattern it forces (none: plain).
#[derive(Debug)]
struct Lane {
    tree: Tree,
    pattern: Option<Vec<u64>>,
    /// Nothing more to run: the space up to the size bound is done, or the tree is full.
    done: bool,
    /// The whole space ran (no tape was larger than the size reached).
    complete: bool,
    /// The tree reached its node limit.
    full: bool,
    /// Largest size every tape of which has run.
    finished: Option<u64>,
    /// Random tapes with the pattern forced, not enumerated ([`super::PatternConfig::random`]).
    random: bool,
}

impl Lane {
    fn new(nodes: usize, pattern: Option<Vec<u64>>) -> Lane {
        Lane {
            tree: Tree::new(nodes),
            pattern,
            done: false,
            complete: false,
            full: false,
            finished: None,
            random: false,
        }
    }

    /// The next prefix of this lane, deepening the size as sizes complete.
    fn next(&mut self, max_size: Option<u64>) -> Option<Vec<u64>> {
        if self.done {
            return None;
        }
        if self.random {
            return Some(Vec::new());
        }
        loop {
            match self.tree.next_tape() {
                super::Next::Tape(p) => return Some(p),
                super::Next::Done { cut } => {
                    let size = self.tree.size();
                    self.finished = Some(size);
                    if !cut {
                        self.complete = true;
                        self.done = true;
                        return None;
                    }
                    if max_size.is_some_and(|m| size >= m) {
                        self.done = true;
                        return None;
                    }
                    self.tree.restart(size + 1);
                }
                super::Next::Full => {
                    self.full = true;
                    self.done = true;
                    return None;
                }
            }
        }
    }
}

/// One pattern configuration's turn-taking: its lanes, the one enumerating now and the time
/// it has had.
#[derive(Debug)]
struct Turns {
    lanes: Vec<usize>,
    at: usize,
    spent: Duration,
    budget: Duration,
    done: bool,
}

/// The search of [`Enumerate`].
#[derive(Debug)]
pub struct EnumerateSearch {
    settings: Enumerate,
    seed: u64,
    lanes: Vec<Lane>,
    configs: Vec<Turns>,
    /// Patterns are asked for and the constructors are not known yet: the first test case
    /// (the simplest tape) finds them.
    probing: bool,
    turn: usize,
    /// Lane and configuration of the test case proposed last.
    current: (usize, Option<usize>),
    prefix: Vec<u64>,
    source: PrefixSource,
    started: Option<Instant>,
    ran: u64,
    /// Why patterns are off although asked for, if they are.
    no_patterns: Option<&'static str>,
    /// Nodes in every lane's tree (patterns share [`Enumerate::nodes`]).
    total_nodes: usize,
}

impl EnumerateSearch {
    /// A search with these settings.
    pub fn new(settings: Enumerate) -> EnumerateSearch {
        EnumerateSearch {
            probing: !settings.patterns.is_empty(),
            lanes: vec![Lane::new(settings.nodes, None)],
            settings,
            seed: 0,
            configs: Vec::new(),
            turn: 0,
            current: (0, None),
            prefix: Vec::new(),
            source: PrefixSource::default(),
            started: None,
            ran: 0,
            no_patterns: None,
            total_nodes: 0,
        }
    }

    /// Builds the pattern lanes once the simplest tape showed the constructors: `v` is the
    /// number of variants of the first constructor choice.
    fn plan(&mut self, v: u64) {
        // Each pattern may use the whole budget; the search stops when all of them together
        // hold it.
        let per_lane = self.settings.nodes;
        for (k, c) in self.settings.patterns.iter().enumerate() {
            let rows = pattern_rows(v, c.fineness, c.strength, self.seed ^ k as u64);
            let mut lanes = Vec::new();
            for row in rows {
                lanes.push(self.lanes.len());
                let mut lane = Lane::new(per_lane, Some(row));
                lane.random = c.random;
                self.lanes.push(lane);
            }
            self.configs.push(Turns {
                lanes,
                at: 0,
                spent: Duration::ZERO,
                budget: c.budget.mul_f64(self.settings.budget_scale),
                done: false,
            });
        }
    }

    /// The next (lane, configuration, prefix) with patterns on.
    fn next_with_patterns(&mut self) -> Option<(usize, Option<usize>, Vec<u64>)> {
        let n = self.configs.len();
        for _ in 0..n {
            let c = self.turn % n;
            self.turn += 1;
            let max_size = self.settings.max_size;
            let turns = &mut self.configs[c];
            if turns.done {
                continue;
            }
            if turns.spent >= turns.budget {
                turns.at = (turns.at + 1) % turns.lanes.len();
                turns.spent = Duration::ZERO;
            }
            for _ in 0..turns.lanes.len() {
                let lane = turns.lanes[turns.at];
                if let Some(p) = self.lanes[lane].next(max_size) {
                    return Some((lane, Some(c), p));
                }
                turns.at = (turns.at + 1) % turns.lanes.len();
                turns.spent = Duration::ZERO;
            }
            turns.done = true;
        }
        None
    }

    /// The plain lane's exhaustion, as the sentence the run prints.
    fn note(&self) -> Option<String> {
        let lane = &self.lanes[0];
        if !self.configs.is_empty() || self.probing {
            return None;
        }
        if lane.complete {
            Some(format!(
                "enumerate: the whole space ran ({} test cases, every tape up to size {}): no counterexample exists",
                self.ran,
                lane.finished.unwrap_or(0)
            ))
        } else if lane.full {
            Some(format!(
                "enumerate: stopped at the tree's limit of {} nodes (TAPEFUZZ_ENUMERATE_NODES); {}",
                self.settings.nodes,
                match lane.finished {
                    Some(n) => format!("no counterexample of size ≤ {n} exists"),
                    None => "not even size 0 is complete".into(),
                }
            ))
        } else if lane.done {
            lane.finished.map(|n| {
                format!(
                    "enumerate: no counterexample of size ≤ {n} exists (every tape of size ≤ {n} ran: {} test cases)",
                    self.ran
                )
            })
        } else {
            None
        }
    }
}

impl Search for EnumerateSearch {
    fn name(&self) -> &'static str {
        if self.settings.patterns.is_empty() {
            "enumerate"
        } else {
            "patterns"
        }
    }

    fn start(&mut self, start: &Start) {
        self.seed = start.seed;
    }

    fn propose(&mut self) -> Option<Proposal<'_>> {
        let (lane, config, prefix) = if self.probing {
            (0, None, Vec::new())
        } else if self.configs.is_empty() {
            let p = self.lanes[0].next(self.settings.max_size)?;
            (0, None, p)
        } else if self.total_nodes >= self.settings.nodes {
            self.no_patterns =
                Some("the trees of the patterns hold TAPEFUZZ_ENUMERATE_NODES nodes");
            return None;
        } else {
            self.next_with_patterns()?
        };
        self.current = (lane, config);
        let pattern = self.lanes[lane].pattern.as_deref();
        self.source = if self.lanes[lane].random {
            PrefixSource::random(Rng::derive(self.seed, self.ran), pattern)
        } else {
            PrefixSource::new(prefix.clone(), pattern)
        };
        self.prefix = prefix;
        self.started = config.map(|_| Instant::now());
        Some(Proposal::new(&mut self.source).recorded())
    }

    fn observe(&mut self, outcome: &Observation<'_>) -> crate::engine::Verdict {
        self.ran += 1;
        let (lane, config) = self.current;
        if let (Some(c), Some(t)) = (config, self.started.take()) {
            self.configs[c].spent += t.elapsed();
        }
        let Some(rec) = outcome.recording else {
            return crate::engine::Verdict::Continue;
        };
        // The run ends where it was rejected, when a rejection came before its last choice:
        // everything after it on this prefix is rejected the same way.
        let end = match (outcome.status, rec.rejected_at) {
            (Status::Invalid, Some(p)) => p.min(rec.choices.len()),
            _ => rec.choices.len(),
        };
        let fixed = self.source.fixed();
        let mut steps = Vec::with_capacity(end);
        let mut draw = 0;
        for c in &rec.choices[..end] {
            if c.forced {
                continue;
            }
            steps.push(Branch {
                max: c.max,
                index: c.index,
                fixed: fixed.contains(&draw),
            });
            draw += 1;
        }
        if self.probing {
            self.probing = false;
            let first = rec
                .choices
                .iter()
                .zip(&rec.labels)
                .find(|(c, l)| !c.forced && l.kind() == Kind::Union);
            match first {
                Some((c, _)) if c.max < 1 << 16 => self.plan(c.max + 1),
                Some(_) => self.no_patterns = Some("its first constructor choice is too wide"),
                None => self.no_patterns = Some("the simplest tape draws no constructor choice"),
            }
            if self.configs.is_empty() {
                self.lanes[0].tree.insert(&steps, outcome.status);
            }
            return crate::engine::Verdict::Continue;
        }
        if self.lanes[lane].random {
            return crate::engine::Verdict::Continue;
        }
        let tree = &mut self.lanes[lane].tree;
        let before = tree.len();
        tree.insert(&steps, outcome.status);
        self.total_nodes += tree.len() - before;
        if !tree.has(&self.prefix) {
            tree.skip();
        }
        crate::engine::Verdict::Continue
    }

    fn replay(&self) -> Option<Replay> {
        None
    }

    fn progress(&self) -> String {
        if self.configs.is_empty() {
            format!(
                "size {}, {} nodes",
                self.lanes[0].tree.size(),
                self.lanes[0].tree.len()
            )
        } else {
            let done = self.lanes.iter().filter(|l| l.done).count();
            format!(
                "{} patterns ({} done)",
                self.lanes.len().saturating_sub(1),
                done
            )
        }
    }

    fn finish(&mut self) -> Finish {
        let mut stats = Vec::new();
        if let Some(n) = self.lanes[0].finished
            && self.configs.is_empty()
        {
            stats.push(Stat {
                name: "exhausted_size",
                value: n,
            });
        }
        stats.push(Stat {
            name: "nodes",
            value: self.lanes.iter().map(|l| l.tree.len() as u64).sum(),
        });
        if !self.configs.is_empty() {
            stats.push(Stat {
                name: "patterns",
                value: self.lanes.len() as u64 - 1,
            });
        }
        let mut note = self.note();
        if let Some(why) = self.no_patterns {
            note = Some(if self.configs.is_empty() {
                format!("patterns: no constructor patterns ({why}); plain enumeration ran")
            } else {
                format!("patterns: stopped ({why})")
            });
        }
        Finish {
            keep: Vec::new(),
            keep_bests: false,
            stats,
            note,
        }
    }
}
