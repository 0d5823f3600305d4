//! Stateful testing: action sequences against a model, shrunk to the minimal failing trace
//! with preconditions kept.

use std::collections::BTreeMap;
use tapefuzz::generators::Boxed;
use tapefuzz::prelude::*;
use tapefuzz::stateful::{StateMachine, commands, stateful};
use tapefuzz::tape::{Fallback, RandomSource, ReplaySource, Tape};

mod common;
use common::kv::Kv;

#[test]
fn a_failing_sequence_shrinks_to_its_minimal_trace() {
    let report = Property::new("stateful::kv")
        .no_corpus()
        .seed(1)
        .tests(20_000)
        .run_test(&stateful(Kv, 0..=40));
    let value = report.value.clone().expect("the bug is found");
    // Put, delete, get of the same key: the shortest trace that shows the ghost, with the
    // simplest arguments.
    assert_eq!(value, "1. Put(0, 0)\n2. Delete(0)\n3. Get(0)", "\n{report}");
    let message = report.message.unwrap_or_default();
    assert!(message.starts_with("step 3 (Get(0))"), "{message}");
}

#[test]
fn sequences_keep_their_preconditions_on_any_tape() {
    let g = commands(Kv, 0..=40);
    for seed in 0..500 {
        let mut src = RandomSource::new(seed);
        let mut tape = Tape::recording(&mut src);
        let steps = g.generate(&mut tape).expect("a sequence");
        let rec = tape.finish();
        let mut model = BTreeMap::new();
        for op in &steps.0 {
            assert!(Kv.precondition(&model, op), "{op:?} in {model:?}");
            Kv.next_state(&mut model, op);
        }
        // Any edit of the tape (here: every other index zeroed) still gives a sequence whose
        // preconditions hold: the model is re-run as it is drawn.
        let edited: Vec<u64> = rec
            .indices()
            .iter()
            .enumerate()
            .map(|(i, &x)| if i % 2 == 0 { 0 } else { x })
            .collect();
        let mut replay = ReplaySource::new(edited, Fallback::Simplest);
        let mut tape = Tape::new(&mut replay, false);
        if let Ok(steps) = g.generate(&mut tape) {
            let mut model = BTreeMap::new();
            for op in &steps.0 {
                assert!(Kv.precondition(&model, op), "{op:?} in {model:?}");
                Kv.next_state(&mut model, op);
            }
        }
    }
}

/// The generators of the stateful runner pass the public conformance suite.
#[test]
fn stateful_generators_pass_the_conformance_suite() {
    use tapefuzz::conformance::check_generator;
    use tapefuzz::stateful::{monkey, parallel_commands};
    check_generator("commands", &commands(Kv, 0..=40), 100);
    check_generator(
        "parallel_commands",
        &parallel_commands(Kv, 0..=5, 2, 0..=5),
        100,
    );
    let m = monkey(
        BTreeMap::<u8, u32>::new,
        |_: &BTreeMap<u8, u32>| (ints::<u8>(0..=3), ints::<u32>(0..=9)).boxed(),
        |s: &mut BTreeMap<u8, u32>, &(k, v): &(u8, u32)| {
            s.insert(k, v);
            ensure!(s.values().sum::<u32>() < 25, "sum too large");
            Ok(())
        },
    )
    .budget(30);
    check_generator("monkey", &m, 100);
}

mod counter {
    //! A counter shared between threads whose increment reads and writes under two locks.
    use std::sync::Mutex;
    use tapefuzz::generators::Boxed;
    use tapefuzz::prelude::*;
    use tapefuzz::stateful::{ConcurrentMachine, StateMachine, run_against_model};

    #[derive(Default)]
    pub struct Counter(Mutex<u32>);

    #[derive(Clone, Debug, PartialEq)]
    pub enum Op {
        Incr,
        Read,
    }

    pub struct Machine;

    impl StateMachine for Machine {
        type State = u32;
        type Sut = Counter;
        type Action = Op;
        fn initial(&self) -> u32 {
            0
        }
        fn reset(&self) -> Counter {
            Counter::default()
        }
        fn actions(&self, _: &u32) -> Boxed<Op> {
            one_of![just(Op::Incr), just(Op::Read)].boxed()
        }
        fn next_state(&self, s: &mut u32, op: &Op) {
            if *op == Op::Incr {
                *s += 1;
            }
        }
        fn run(&self, sut: &mut Counter, s: &u32, op: &Op) -> Result<(), Fail> {
            run_against_model(self, sut, s, op)
        }
    }

    impl ConcurrentMachine for Machine {
        type Output = u32;
        fn call(&self, sut: &Counter, op: &Op) -> u32 {
            match op {
                Op::Incr => {
                    let v = *sut.0.lock().unwrap();
                    std::thread::yield_now();
                    *sut.0.lock().unwrap() = v + 1;
                    v + 1
                }
                Op::Read => *sut.0.lock().unwrap(),
            }
        }
        fn expected(&self, s: &u32, op: &Op) -> u32 {
            match op {
                Op::Incr => s + 1,
                Op::Read => *s,
            }
        }
    }
}

/// A lost update: the concurrent mode finds it and shrinks it to one increment a thread;
/// the sequential mode, on the same machine, never fails.
#[test]
fn the_concurrent_mode_finds_a_lost_update_the_sequential_one_cannot() {
    use tapefuzz::stateful::concurrent;
    let report = Property::new("stateful::lost_update")
        .no_corpus()
        .seed(1)
        .tests(2_000)
        .run_test(&concurrent(counter::Machine, 0..=3, 2, 0..=3));
    assert_eq!(
        report.value.as_deref(),
        Some("prefix:\nthread 1:\n1. Incr\nthread 2:\n1. Incr"),
        "{report}"
    );
    assert!(
        report
            .message
            .as_deref()
            .is_some_and(|m| m.starts_with("no order of the threads' actions")),
        "{report}"
    );
    let report = Property::new("stateful::lost_update_sequential")
        .no_corpus()
        .seed(1)
        .tests(5_000)
        .run_test(&stateful(counter::Machine, 0..=20));
    assert!(report.passed(), "{report}");
}

/// Linearizability accepts what some order explains: a correct counter passes.
#[test]
fn a_linearizable_history_passes() {
    use tapefuzz::stateful::{Parallel, run_parallel};
    // Two reads beside an increment may see 0 or 1: both are explained.
    let case = Parallel {
        prefix: vec![counter::Op::Incr],
        threads: vec![
            vec![counter::Op::Read, counter::Op::Read],
            vec![counter::Op::Incr],
        ],
    };
    struct Atomic;
    impl tapefuzz::stateful::StateMachine for Atomic {
        type State = u32;
        type Sut = std::sync::atomic::AtomicU32;
        type Action = counter::Op;
        fn initial(&self) -> u32 {
            0
        }
        fn reset(&self) -> Self::Sut {
            Default::default()
        }
        fn actions(&self, s: &u32) -> Boxed<counter::Op> {
            counter::Machine.actions(s)
        }
        fn next_state(&self, s: &mut u32, op: &counter::Op) {
            counter::Machine.next_state(s, op)
        }
        fn run(&self, sut: &mut Self::Sut, s: &u32, op: &counter::Op) -> Result<(), Fail> {
            tapefuzz::stateful::run_against_model(self, sut, s, op)
        }
    }
    impl tapefuzz::stateful::ConcurrentMachine for Atomic {
        type Output = u32;
        fn call(&self, sut: &Self::Sut, op: &counter::Op) -> u32 {
            use std::sync::atomic::Ordering::SeqCst;
            match op {
                counter::Op::Incr => sut.fetch_add(1, SeqCst) + 1,
                counter::Op::Read => sut.load(SeqCst),
            }
        }
        fn expected(&self, s: &u32, op: &counter::Op) -> u32 {
            counter::Machine.expected(s, op)
        }
    }
    assert!(run_parallel(&Atomic, &case, 200).is_ok());
    let dbg = format!("{case:?}");
    assert_eq!(
        dbg,
        "prefix:\n1. Incr\nthread 1:\n1. Read\n2. Read\nthread 2:\n1. Incr"
    );
}

/// A monkey: episodes from a fresh system each (reset), a panic is a failure with its input
/// kept, and the failing episode shrinks to its shortest action sequence.
#[test]
fn a_monkey_finds_and_shrinks_a_failing_episode() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use tapefuzz::stateful::monkey;
    let resets = Arc::new(AtomicUsize::new(0));
    let r = resets.clone();
    // A vending machine: coins in, a vend gives back change; vending with exactly 3 coins
    // panics (the bug). Only enabled buttons are offered: vend only with a coin in.
    let m = monkey(
        move || {
            r.fetch_add(1, Ordering::SeqCst);
            0u32
        },
        |coins: &u32| {
            if *coins == 0 {
                just("coin").boxed()
            } else {
                one_of![just("coin"), just("vend")].boxed()
            }
        },
        |coins: &mut u32, a: &&str| {
            match *a {
                "coin" => *coins += 1,
                _ => {
                    assert_ne!(*coins, 3, "vend with 3 coins");
                    *coins = 0;
                }
            }
            Ok(())
        },
    )
    .budget(40);
    let report = Property::new("stateful::monkey")
        .no_corpus()
        .seed(2)
        .tests(10_000)
        .run_test(&m.test());
    assert_eq!(
        report.value.as_deref(),
        Some("1. \"coin\"\n2. \"coin\"\n3. \"coin\"\n4. \"vend\""),
        "{report}"
    );
    assert!(
        report
            .message
            .as_deref()
            .is_some_and(|m| m.contains("step 4") && m.contains("vend with 3 coins")),
        "{report}"
    );
    assert!(resets.load(Ordering::SeqCst) > 1);
}

/// `assume!` in a monkey's action makes the episode invalid, not a failure.
#[test]
fn assume_in_a_monkey_action_rejects_the_episode() {
    use tapefuzz::stateful::monkey;
    let m = monkey(
        || 0u32,
        |_: &u32| ints::<u32>(0..=9).boxed(),
        |_: &mut u32, x: &u32| {
            assume!(*x != 7);
            Ok(())
        },
    )
    .budget(10);
    let report = Property::new("stateful::monkey_assume")
        .no_corpus()
        .seed(3)
        .tests(500)
        .run_test(&m.test());
    assert!(report.passed(), "{report}");
    assert!(report.invalid > 0 && report.valid > 0, "{report}");
}
