//! Explicit examples: checked first, shrunk from when the generator reflects them (else
//! reported as given), type-checked at run time.

use std::cell::RefCell;
use tapefuzz::prelude::*;

#[test]
fn examples_run_first_and_in_order() {
    let seen = RefCell::new(Vec::new());
    let r = Property::new("examples_order")
        .no_corpus()
        .tests(3)
        .example(200u8)
        .examples([201u8, 202])
        .run(ints::<u8>(0..=10), |x: u8| seen.borrow_mut().push(x));
    assert!(r.passed(), "{r}");
    let seen = seen.into_inner();
    assert_eq!(&seen[..3], &[200, 201, 202]);
    assert_eq!(seen.len(), 6);
}

#[test]
fn a_failing_example_is_the_failure_shrunk_from_it() {
    let r = Property::new("examples_fail")
        .no_corpus()
        .example(vec![5u32, 6, 7, 1000])
        .run(vecs(ints::<u32>(..), 0..=10), |v: Vec<u32>| {
            v.iter().all(|&x| x < 1000)
        });
    assert!(!r.passed());
    assert_eq!(r.value.as_deref(), Some("[1000]"));
    let m = r.message.unwrap();
    assert!(m.starts_with("explicit example failed"), "{m}");
    // Nothing generated.
    assert_eq!(r.tests, 0);
}

#[test]
fn a_failing_example_the_generator_cannot_make_is_the_failure_unshrunk() {
    let calls = RefCell::new(0);
    let r = Property::new("examples_fail_as_given")
        .no_corpus()
        .example(vec![5u32, 6, 7, 1000])
        .run(vecs(ints::<u32>(0..=999), 0..=10), |v: Vec<u32>| {
            *calls.borrow_mut() += 1;
            v.iter().all(|&x| x < 1000)
        });
    assert!(!r.passed());
    assert_eq!(r.value.as_deref(), Some("[5, 6, 7, 1000]"));
    let m = r.message.unwrap();
    assert!(
        m.starts_with("explicit example failed (not shrunk: no inverse through `Ints<u32>`"),
        "{m}"
    );
    // Nothing generated, nothing shrunk.
    assert_eq!(*calls.borrow(), 1);
    assert_eq!(r.tests, 0);
}

#[test]
fn the_check_panic_says_explicit_example() {
    let r = std::panic::catch_unwind(|| {
        Property::new("examples_panic")
            .no_corpus()
            .example((3u8, true))
            .check((ints::<u8>(..), bools()), |(x, b): (u8, bool)| {
                assert!(!(x == 3 && b), "three and true");
            });
    });
    let payload = r.unwrap_err();
    let msg = payload.downcast_ref::<String>().unwrap();
    assert!(msg.contains("failed on explicit example #1"), "{msg}");
    // Already minimal, but shrunk from.
    assert!(msg.contains("shrunk from it"), "{msg}");
    assert!(msg.contains("(3, true)"), "{msg}");
    assert!(msg.contains("three and true"), "{msg}");
}

#[test]
fn a_rejected_example_is_skipped() {
    let r = Property::new("examples_rejected")
        .no_corpus()
        .tests(10)
        .example(7u8)
        .run(ints::<u8>(0..=5), |x: u8| {
            assume!(x != 7);
            x <= 5
        });
    assert!(r.passed(), "{r}");
}

#[test]
#[should_panic(expected = "is a `i32`, but the generator makes `u8`")]
fn a_type_mismatch_panics_naming_both_types() {
    Property::new("examples_mismatch")
        .no_corpus()
        .example(3)
        .check(ints::<u8>(..), |_: u8| ());
}

#[test]
fn example_of_takes_the_type_from_the_generator() {
    let g = (ints::<u8>(..), ints::<i64>(..));
    let r = Property::new("examples_of")
        .no_corpus()
        .tests(1)
        .example_of(&g, (1, -2))
        .run(g, |(a, b): (u8, i64)| !(a == 1 && b == -2));
    assert_eq!(r.value.as_deref(), Some("(1, -2)"));
}

#[test]
fn a_property_with_examples_is_still_clone_and_send() {
    fn assert_send_sync<T: Send + Sync + Clone>(_: &T) {}
    let p = Property::new("examples_send").example(String::from("x"));
    assert_send_sync(&p);
    assert!(format!("{p:?}").contains("\"x\""));
}

tapefuzz::property! {
    fn macro_examples_pass(x in ints::<u8>(..)) examples(0, 255) {
        assert!(x as u16 <= 255);
    }
    fn macro_examples_tuple(a in ints::<i8>(..), b in bools()) examples((-1, true), (127, false)) {
        let _ = (a, b);
    }
    // The front page's examples (its doctest compiles the macro, not the `#[test]` bodies).
    fn reverse_twice_is_identity(v in vecs(ints::<i32>(..), 0..=20)) {
        let mut w = v.clone();
        w.reverse();
        w.reverse();
        assert_eq!(v, w);
    }
    fn division_round_trips(a in ints::<i64>(..), b in ints::<i64>(..)) examples((7, 2)) {
        assume!(b != 0 && !(a == i64::MIN && b == -1));
        ensure_eq!((a / b) * b + a % b, a);
        Ok(())
    }
    #[should_panic(expected = "explicit example failed")]
    fn macro_example_fails(x in ints::<u8>(0..=10)) examples(11) {
        assert!(x <= 10);
    }
}
