//! The IFC stack machine (benchmarks §2; paper 000 §V-C after Hriţcu et al., "Testing
//! noninterference, quickly"): a machine whose values carry a security level, and the
//! property that high inputs cannot influence the low part of memory (EENI).
//!
//! One generated [`Pair`] describes two low-indistinguishable initial states at once: every
//! high atom (a `Push` immediate or a memory cell) carries a value for each of the two runs.

use std::fmt;
use tapefuzz::prelude::*;
use tapefuzz::property::Test;
use tapefuzz::{generators::Boxed, property::property};

/// Memory cells of the machine.
pub const MEMORY: usize = 4;
/// Steps each run may take before it is cut off (and the test discarded).
pub const MAX_STEPS: usize = 50;
/// Utility added when both runs halt with a low pc.
pub const HALT_BONUS: usize = 10;
/// Immediates are drawn from 0..=VALUES.
pub const VALUES: i32 = 9;
/// Jump and call targets are drawn from 0..=TARGETS.
pub const TARGETS: i32 = 29;

/// A security level: `Low ⊑ High`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Public.
    Low,
    /// Secret.
    High,
}

impl Level {
    /// The least upper bound.
    pub fn join(self, other: Level) -> Level {
        self.max(other)
    }
}

/// A labelled integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Atom {
    /// The integer.
    pub value: i32,
    /// Its level.
    pub level: Level,
}

/// An atom of the two initial states at once: a low atom has one value, a high atom one value
/// per run (`values[0]` for the first, `values[1]` for the second).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Varied {
    /// The value in each run (equal when low).
    pub values: [i32; 2],
    /// The level (the same in both runs).
    pub level: Level,
}

impl Varied {
    /// The atom in run `side` (0 or 1).
    pub fn atom(self, side: usize) -> Atom {
        Atom {
            value: self.values[side],
            level: self.level,
        }
    }
}

impl fmt::Debug for Varied {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.level {
            Level::Low => write!(f, "{}@L", self.values[0]),
            Level::High => write!(f, "{}|{}@H", self.values[0], self.values[1]),
        }
    }
}

/// An instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Instr {
    /// Does nothing.
    Noop,
    /// Pushes an atom (varied between the runs when high).
    Push(Varied),
    /// Pops one value.
    Pop,
    /// `x :: s` → `mem[x] :: s`, labelled `mem[x] ⊔ x`.
    Load,
    /// `x :: v :: s` → `s`, `mem[x] := v` labelled `pc ⊔ x ⊔ v`, if `pc ⊔ x ⊑ mem[x]`.
    Store,
    /// `x :: y :: s` → `x + y :: s`, labelled `x ⊔ y`.
    Add,
    /// `x :: s` → `s`, jumps to `x`; the pc is raised to `pc ⊔ x`.
    Jump,
    /// `x :: a1..an :: s` → `a1..an :: ret :: s` and jumps to `x` (raising the pc's level);
    /// `returns` says whether the callee returns a value.
    Call {
        /// Arguments passed (values kept above the return frame).
        args: u8,
        /// Whether the matching `Return` hands back the top value.
        returns: bool,
    },
    /// Pops to the innermost return frame and restores its pc; if the frame says so, the
    /// top value is handed back, labelled with the callee's pc level joined in.
    Return,
    /// Stops the machine.
    Halt,
}

/// Two low-indistinguishable initial states: one program and one memory, with high atoms
/// varied between the runs.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Pair {
    /// The instructions (the same in both runs except high immediates).
    pub program: Vec<Instr>,
    /// The initial memory, [`MEMORY`] cells.
    pub memory: Vec<Varied>,
}

impl fmt::Debug for Pair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "memory {:?}, program {:?}", self.memory, self.program)
    }
}

/// Planted bugs of the machine (benchmarks §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bug {
    /// `Add` labels its result low instead of joining its operands' levels.
    Add,
    /// `Push` ignores the immediate's level (pushes it low).
    Push,
    /// `Load` ignores the address's level.
    Load,
    /// `Store` skips the no-sensitive-upgrade check.
    StoreNoCheck,
    /// `Store` does not join the address's level into the stored value.
    StoreNoTaint,
    /// Both store bugs.
    StoreBoth,
}

impl Bug {
    /// Every bug with its name, in a fixed order.
    pub const ALL: [(&'static str, Bug); 6] = [
        ("add", Bug::Add),
        ("push", Bug::Push),
        ("load", Bug::Load),
        ("store_no_check", Bug::StoreNoCheck),
        ("store_no_taint", Bug::StoreNoTaint),
        ("store_both", Bug::StoreBoth),
    ];

    /// The bug called `name`.
    pub fn named(name: &str) -> Option<Bug> {
        Bug::ALL.iter().find(|(n, _)| *n == name).map(|&(_, b)| b)
    }
}

/// An entry of the machine's stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Entry {
    Value(Atom),
    Frame { pc: Atom, returns: bool },
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// A `Halt` was executed; the pc's level at that point.
    Halted(Level),
    /// No rule applied (bad operands, address or pc).
    Stuck,
    /// [`MAX_STEPS`] were taken.
    OutOfSteps,
}

/// The result of one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// How it ended.
    pub end: End,
    /// Instructions executed (a `Halt` counts).
    pub steps: usize,
    /// Distinct instructions (program positions) executed.
    pub reached: usize,
    /// The final memory.
    pub memory: Vec<Atom>,
}

struct Machine<'a> {
    program: &'a [Instr],
    side: usize,
    bug: Option<Bug>,
    pc: Atom,
    stack: Vec<Entry>,
    memory: Vec<Atom>,
}

impl Machine<'_> {
    fn pop(&mut self) -> Option<Atom> {
        match self.stack.last() {
            Some(&Entry::Value(a)) => {
                self.stack.pop();
                Some(a)
            }
            _ => None,
        }
    }

    fn address(&self, a: Atom) -> Option<usize> {
        usize::try_from(a.value)
            .ok()
            .filter(|&i| i < self.memory.len())
    }

    /// One step; `None` when stuck, `Some(true)` on halt.
    fn step(&mut self) -> Option<bool> {
        let bug = self.bug;
        let here = usize::try_from(self.pc.value).ok()?;
        let instr = *self.program.get(here)?;
        let next = Atom {
            value: self.pc.value + 1,
            level: self.pc.level,
        };
        match instr {
            Instr::Noop => self.pc = next,
            Instr::Push(v) => {
                let mut a = v.atom(self.side);
                if bug == Some(Bug::Push) {
                    a.level = Level::Low;
                }
                self.stack.push(Entry::Value(a));
                self.pc = next;
            }
            Instr::Pop => {
                self.pop()?;
                self.pc = next;
            }
            Instr::Load => {
                let x = self.pop()?;
                let cell = self.memory[self.address(x)?];
                let level = if bug == Some(Bug::Load) {
                    cell.level
                } else {
                    cell.level.join(x.level)
                };
                self.stack.push(Entry::Value(Atom {
                    value: cell.value,
                    level,
                }));
                self.pc = next;
            }
            Instr::Store => {
                let x = self.pop()?;
                let v = self.pop()?;
                let i = self.address(x)?;
                let check = !matches!(bug, Some(Bug::StoreNoCheck | Bug::StoreBoth));
                if check && self.pc.level.join(x.level) > self.memory[i].level {
                    return None;
                }
                let taint = !matches!(bug, Some(Bug::StoreNoTaint | Bug::StoreBoth));
                let mut level = self.pc.level.join(v.level);
                if taint {
                    level = level.join(x.level);
                }
                self.memory[i] = Atom {
                    value: v.value,
                    level,
                };
                self.pc = next;
            }
            Instr::Add => {
                let x = self.pop()?;
                let y = self.pop()?;
                let level = if bug == Some(Bug::Add) {
                    Level::Low
                } else {
                    x.level.join(y.level)
                };
                self.stack.push(Entry::Value(Atom {
                    value: x.value.wrapping_add(y.value),
                    level,
                }));
                self.pc = next;
            }
            Instr::Jump => {
                let x = self.pop()?;
                self.pc = Atom {
                    value: x.value,
                    level: self.pc.level.join(x.level),
                };
            }
            Instr::Call { args, returns } => {
                let x = self.pop()?;
                let n = args as usize;
                let split = self.stack.len().checked_sub(n)?;
                if self.stack[split..]
                    .iter()
                    .any(|e| !matches!(e, Entry::Value(_)))
                {
                    return None;
                }
                self.stack.insert(split, Entry::Frame { pc: next, returns });
                self.pc = Atom {
                    value: x.value,
                    level: self.pc.level.join(x.level),
                };
            }
            Instr::Return => {
                let k = self
                    .stack
                    .iter()
                    .rposition(|e| matches!(e, Entry::Frame { .. }))?;
                let Entry::Frame { pc, returns } = self.stack[k] else {
                    unreachable!("rposition found a frame")
                };
                let result = if returns { Some(self.pop()?) } else { None };
                self.stack.truncate(k);
                if let Some(v) = result {
                    self.stack.push(Entry::Value(Atom {
                        value: v.value,
                        level: v.level.join(self.pc.level),
                    }));
                }
                self.pc = pc;
            }
            Instr::Halt => return Some(true),
        }
        Some(false)
    }
}

/// Runs side `side` (0 or 1) of `pair` for at most [`MAX_STEPS`] steps from pc 0 (low) with
/// an empty stack.
pub fn run(pair: &Pair, side: usize, bug: Option<Bug>) -> Run {
    let mut m = Machine {
        program: &pair.program,
        side,
        bug,
        pc: Atom {
            value: 0,
            level: Level::Low,
        },
        stack: Vec::new(),
        memory: pair.memory.iter().map(|v| v.atom(side)).collect(),
    };
    let mut steps = 0;
    let mut seen = vec![false; pair.program.len()];
    let end = loop {
        if steps == MAX_STEPS {
            break End::OutOfSteps;
        }
        if let Some(s) = usize::try_from(m.pc.value)
            .ok()
            .and_then(|i| seen.get_mut(i))
        {
            *s = true;
        }
        match m.step() {
            None => break End::Stuck,
            Some(halted) => {
                steps += 1;
                if halted {
                    break End::Halted(m.pc.level);
                }
            }
        }
    };
    Run {
        end,
        steps,
        reached: seen.iter().filter(|&&s| s).count(),
        memory: m.memory,
    }
}

/// Low-indistinguishability of atoms: the same level, and the same value when low.
pub fn indistinguishable(a: Atom, b: Atom) -> bool {
    a.level == b.level && (a.level == Level::High || a.value == b.value)
}

fn varied(values: std::ops::RangeInclusive<i32>) -> impl Gen<Value = Varied> + Clone {
    let low = ints::<i32>(values.clone()).map(|v| Varied {
        values: [v, v],
        level: Level::Low,
    });
    let high = (ints::<i32>(values.clone()), ints::<i32>(values)).map(|(a, b)| Varied {
        values: [a, b],
        level: Level::High,
    });
    weighted(vec![(2, low.boxed()), (1, high.boxed())])
}

fn lone(i: Instr) -> Boxed<Vec<Instr>> {
    just(vec![i]).boxed()
}

/// The SEQUENCE generator of Hriţcu et al. (the paper's random baseline): a list of
/// instruction groups drawn with weights, pushes most often, and groups that make sense
/// together (push an address then load; push a value and an address then store; push a
/// target then jump or call). Then [`MEMORY`] cells, each low or high. Simplest: an empty
/// program and a memory of `0@L`. Running out: the groups drawn so far and low zero cells.
pub fn generator() -> impl Gen<Value = Pair> {
    let any = varied(0..=VALUES);
    let address = varied(0..=MEMORY as i32 - 1);
    let target = varied(0..=TARGETS);
    let call = (ints::<u8>(0..=2), bools()).map(|(args, returns)| Instr::Call { args, returns });
    let group = weighted(vec![
        (1, lone(Instr::Noop)),
        (6, any.clone().map(|v| vec![Instr::Push(v)]).boxed()),
        (1, lone(Instr::Pop)),
        (2, lone(Instr::Add)),
        (1, lone(Instr::Load)),
        (1, lone(Instr::Store)),
        (1, lone(Instr::Jump)),
        (1, call.clone().map(|c| vec![c]).boxed()),
        (2, lone(Instr::Return)),
        (2, lone(Instr::Halt)),
        (
            2,
            address
                .clone()
                .map(|a| vec![Instr::Push(a), Instr::Load])
                .boxed(),
        ),
        (
            2,
            (any, address)
                .map(|(v, a)| vec![Instr::Push(v), Instr::Push(a), Instr::Store])
                .boxed(),
        ),
        (
            1,
            target
                .clone()
                .map(|t| vec![Instr::Push(t), Instr::Jump])
                .boxed(),
        ),
        (
            1,
            (target, call).map(|(t, c)| vec![Instr::Push(t), c]).boxed(),
        ),
    ]);
    let program = vecs(group, 0..=20).map(|groups: Vec<Vec<Instr>>| groups.concat());
    let memory = vecs(varied(0..=VALUES), MEMORY..=MEMORY);
    (program, memory).map(|(program, memory)| Pair { program, memory })
}

/// The property (EENI): run both sides; if both halt with a low pc, their final memories
/// are low-indistinguishable cell by cell. Otherwise the test passes vacuously (it is not
/// rejected, so that simulated annealing can climb through such inputs). The utility is the
/// number of steps the two runs executed.
pub fn check(pair: &Pair, bug: Option<Bug>) -> Result<(), Fail> {
    let a = run(pair, 0, bug);
    let b = run(pair, 1, bug);
    let halted = a.end == End::Halted(Level::Low) && b.end == End::Halted(Level::Low);
    target((a.reached + b.reached + if halted { HALT_BONUS } else { 0 }) as f64);
    if halted {
        for (i, (x, y)) in a.memory.iter().zip(&b.memory).enumerate() {
            ensure!(
                indistinguishable(*x, *y),
                "cell {i} distinguishes the runs: {x:?} vs {y:?}"
            );
        }
    }
    Ok(())
}

/// The target's test.
pub fn test(bug: Option<&str>) -> Box<dyn Test> {
    let bug = bug.and_then(Bug::named);
    Box::new(property(generator(), move |pair: Pair| check(&pair, bug)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn low(v: i32) -> Varied {
        Varied {
            values: [v, v],
            level: Level::Low,
        }
    }

    fn high(a: i32, b: i32) -> Varied {
        Varied {
            values: [a, b],
            level: Level::High,
        }
    }

    fn pair(program: Vec<Instr>) -> Pair {
        Pair {
            program,
            memory: vec![low(0); MEMORY],
        }
    }

    #[test]
    fn push_bug_leaks_a_high_immediate() {
        use Instr::*;
        let p = pair(vec![Push(high(1, 2)), Push(low(0)), Store, Halt]);
        assert!(check(&p, None).is_ok());
        assert!(check(&p, Some(Bug::Push)).is_err());
    }

    #[test]
    fn add_bug_leaks_through_a_sum() {
        use Instr::*;
        let p = pair(vec![
            Push(high(1, 2)),
            Push(low(3)),
            Add,
            Push(low(1)),
            Store,
            Halt,
        ]);
        assert!(check(&p, None).is_ok());
        assert!(check(&p, Some(Bug::Add)).is_err());
        assert_eq!(run(&p, 0, None).steps, 6);
    }

    /// `body` at 3, called from a low pc (`Push 3, Call, Halt`): returning halts at 2.
    fn called(body: Vec<Instr>) -> Pair {
        let call = Instr::Call {
            args: 0,
            returns: false,
        };
        pair(
            [Instr::Push(low(3)), call, Instr::Halt]
                .into_iter()
                .chain(body)
                .collect(),
        )
    }

    #[test]
    fn return_restores_the_low_pc_after_a_high_jump() {
        use Instr::*;
        // At 3 jump to a high target 5 or 6, each returning.
        let p = called(vec![Push(high(5, 6)), Jump, Return, Return]);
        let r = run(&p, 0, None);
        assert_eq!(r.end, End::Halted(Level::Low));
        assert_eq!(r.steps, 6);
    }

    #[test]
    fn store_check_stops_a_high_pc_writing_low_memory() {
        use Instr::*;
        let p = called(vec![
            Push(high(5, 9)),
            Jump,
            Push(low(7)),
            Push(low(0)),
            Store,
            Return,
            Return,
        ]);
        assert_eq!(run(&p, 0, None).end, End::Stuck);
        assert!(check(&p, None).is_ok());
        // Without the check, run 0 writes cell 0 (then labelled high) and run 1 does not.
        assert!(check(&p, Some(Bug::StoreNoCheck)).is_err());
    }
}
