//! The user-facing API from a `#[test]`: the `property!` macro, `check`, `ensure!`.

use tapefuzz::prelude::*;

tapefuzz::property! {
    /// Reversing twice is the identity.
    fn reverse_twice(v in vecs(ints::<i32>(..), 0..=20)) {
        let mut w = v.clone();
        w.reverse();
        w.reverse();
        assert_eq!(v, w);
    }

    fn two_arguments(a in ints::<u8>(..), s in strings(CharClass::ascii(), 0..=5)) {
        assert!(s.len() <= 5 + a as usize);
    }
}

#[test]
fn check_uses_the_test_name() {
    check(bools(), |_b: bool| {});
}

#[test]
fn ensure_messages_reach_the_report() {
    let r = Property::new("ensure")
        .no_corpus()
        .seed(1)
        .run(ints::<u16>(..), |x: u16| {
            ensure!(x < 300, "x = {x} is too big");
            Ok(())
        });
    assert_eq!(r.value.as_deref(), Some("300"));
    assert_eq!(r.message.as_deref(), Some("x = 300 is too big"));
    let text = r.to_string();
    assert!(text.contains("minimal failing value: 300"), "{text}");
    assert!(text.contains("seed: 1"), "{text}");
}

#[test]
#[should_panic(expected = "minimal failing value: 7")]
fn check_panics_with_the_report() {
    Property::new("panics")
        .no_corpus()
        .seed(2)
        .check(ints::<u8>(..), |x: u8| x < 7);
}

#[test]
fn slow_test_cases_fail_and_shrink_under_a_timeout() {
    let r = Property::new("slow")
        .no_corpus()
        .seed(5)
        .tests(2000)
        .timeout(std::time::Duration::from_millis(20))
        .run(ints::<u16>(..), |x: u16| {
            if x > 100 {
                std::thread::sleep(std::time::Duration::from_millis(40));
            }
        });
    assert_eq!(r.value.as_deref(), Some("101"));
    assert!(r.message.unwrap().starts_with("timed out"));
}
