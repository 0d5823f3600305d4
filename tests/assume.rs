//! `assume!` returns from the property (no unwinding) in every closure form, and `reject()`
//! still unwinds from helpers.

use tapefuzz::prelude::*;
use tapefuzz::property::{Fail, reject};

fn prop(name: &str) -> Property {
    Property::new(name).no_corpus().seed(7).tests(400)
}

#[test]
fn unit_closure() {
    let r = prop("assume_unit").run(ints::<u8>(..), |x: u8| {
        assume!(x.is_multiple_of(2));
        assert!(x.is_multiple_of(2));
    });
    assert!(r.passed(), "{r}");
    assert!(r.invalid > 50 && r.valid > 50, "{:?}", r);
}

#[test]
fn bool_closure() {
    let r = prop("assume_bool").run(ints::<u8>(..), |x: u8| {
        assume!(x > 100);
        x > 100
    });
    assert!(r.passed(), "{r}");
    assert!(r.invalid > 50 && r.valid > 50, "{:?}", r);
}

#[test]
fn fail_result_closure() {
    let r = prop("assume_fail").run(ints::<u8>(..), |x: u8| -> Result<(), Fail> {
        assume!(x < 100);
        ensure!(x < 100);
        Ok(())
    });
    assert!(r.passed(), "{r}");
    assert!(r.invalid > 50 && r.valid > 50, "{:?}", r);
}

#[test]
fn other_error_type_closure() {
    let r = prop("assume_string").run(ints::<u8>(..), |x: u8| -> Result<(), String> {
        assume!(x != 0 && x < 128);
        if x >= 128 {
            Err(format!("{x}"))
        } else {
            Ok(())
        }
    });
    assert!(r.passed(), "{r}");
    assert!(r.invalid > 50 && r.valid > 50, "{:?}", r);
}

#[test]
fn a_failure_after_assume_still_fails_and_shrinks() {
    let r = prop("assume_then_fail").run(ints::<u8>(..), |x: u8| {
        assume!(x.is_multiple_of(2));
        x < 10
    });
    assert!(!r.passed());
    assert_eq!(r.value.as_deref(), Some("10"));
}

#[test]
fn assume_in_an_inner_closure_rejects_the_test_case() {
    // `return` leaves the inner closure only, but the rejection belongs to the test case.
    let r = prop("assume_inner").run(vecs(ints::<u8>(..), 1..=5), |v: Vec<u8>| {
        v.iter().for_each(|x| assume!(*x < 128));
        assert!(v.iter().all(|x| *x < 128));
    });
    assert!(r.passed(), "{r}");
    assert!(r.invalid > 0, "{:?}", r);
}

fn helper_rejecting_odd(x: u8) -> u8 {
    if !x.is_multiple_of(2) {
        reject();
    }
    x / 2
}

#[test]
fn reject_unwinds_from_a_helper() {
    let r = prop("reject_helper").run(ints::<u8>(..), |x: u8| helper_rejecting_odd(x) * 2 == x);
    assert!(r.passed(), "{r}");
    assert!(r.invalid > 50, "{:?}", r);
}

#[test]
fn a_stale_flag_does_not_reject_the_next_test_case() {
    // An `assume!` outside any property raises the flag; the next property clears it.
    fn outside() {
        assume!(false);
    }
    outside();
    let r = Property::new("stale")
        .no_corpus()
        .tests(1)
        .run(just(1u8), |x: u8| x == 1);
    assert_eq!(r.valid, 1, "{:?}", r);
}

tapefuzz::property! {
    fn macro_unit(x in ints::<u16>(..)) {
        assume!(x > 5);
        assert!(x > 5);
    }
    fn macro_bool(x in ints::<u16>(..), y in ints::<u16>(..)) {
        assume!(x != y);
        x != y
    }
    fn macro_result(x in ints::<u16>(..)) {
        assume!(x > 5);
        ensure!(x > 5);
        Ok(())
    }
}

#[test]
fn with_statistics_on_assume_rejects_the_same_way() {
    // The statistics path of a test case (timings, notes) concludes as the plain one does.
    let noted = |p: Property| {
        let mut config = p.config_ref().clone();
        config.stats = true;
        p.config(config)
    };
    let r = noted(prop("assume_inner_stats")).run(vecs(ints::<u8>(..), 1..=5), |v: Vec<u8>| {
        v.iter().for_each(|x| assume!(*x < 128));
        assert!(v.iter().all(|x| *x < 128));
    });
    assert!(r.passed(), "{r}");
    assert!(r.invalid > 0, "{:?}", r);
    let plain = prop("assume_inner_plain").run(vecs(ints::<u8>(..), 1..=5), |v: Vec<u8>| {
        v.iter().for_each(|x| assume!(*x < 128));
        assert!(v.iter().all(|x| *x < 128));
    });
    assert_eq!((r.valid, r.invalid), (plain.valid, plain.invalid));
}
