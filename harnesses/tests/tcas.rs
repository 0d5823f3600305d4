//! TCAS (`harnesses::tcas`): the original passes, every faulty version v1..v41 differs from
//! it on a witness input (found by a random search of 2,000,000 inputs over the generator's
//! domain, the first differing one kept), and random generation finds the easy ones.

use harnesses::tcas::{self, Inputs, Outcome, alt_sep_test};
use harnesses::{find, tcas::BUGS};
use tapefuzz::prelude::*;

/// A witness per version: `[Cur_Vertical_Sep, High_Confidence, Two_of_Three_Reports_Valid,
/// Own_Tracked_Alt, Own_Tracked_Alt_Rate, Other_Tracked_Alt, Alt_Layer_Value, Up_Separation,
/// Down_Separation, Other_RAC, Other_Capability, Climb_Inhibit]` (booleans as 0/1).
const WITNESSES: [(u8, [i32; 12]); 41] = [
    (1, [770, 1, 0, 317, 339, 834, 3, 911, 740, 0, 2, 0]),
    (2, [704, 1, 1, 747, 472, 44, 1, 624, 847, 1, 2, 1]),
    (3, [996, 1, 0, 600, 48, 951, 1, 606, 469, 0, 1, 0]),
    (4, [705, 1, 0, 542, 452, 732, 3, 852, 906, 2, 2, 0]),
    (5, [533, 1, 0, 638, 544, 755, 3, 532, 175, 0, 2, 1]),
    (6, [844, 1, 0, 157, 39, 157, 1, 183, 228, 2, 2, 1]),
    (7, [632, 1, 1, 321, 210, 264, 1, 547, 907, 0, 2, 0]),
    (8, [768, 1, 1, 779, 163, 441, 3, 707, 863, 0, 2, 0]),
    (9, [999, 1, 1, 687, 62, 429, 0, 684, 684, 0, 1, 0]),
    (10, [844, 1, 0, 157, 39, 157, 1, 183, 228, 2, 2, 1]),
    (11, [844, 1, 0, 157, 39, 157, 1, 183, 228, 2, 2, 1]),
    (12, [447, 1, 1, 340, 678, 920, 0, 425, 19, 0, 1, 0]),
    (13, [846, 1, 0, 341, 623, 994, 3, 607, 369, 1, 2, 1]),
    (14, [625, 1, 1, 116, 45, 181, 0, 881, 89, 2, 2, 0]),
    (15, [533, 1, 0, 638, 544, 755, 3, 532, 175, 0, 2, 1]),
    (16, [692, 1, 1, 114, 541, 750, 0, 410, 400, 0, 1, 0]),
    (17, [884, 1, 0, 835, 327, 652, 1, 500, 623, 1, 2, 1]),
    (18, [869, 1, 0, 907, 305, 391, 2, 670, 777, 2, 2, 0]),
    (19, [921, 1, 0, 774, 534, 692, 3, 744, 951, 1, 2, 0]),
    (20, [843, 1, 1, 518, 313, 947, 3, 452, 552, 0, 1, 1]),
    (21, [658, 1, 1, 216, 77, 644, 2, 423, 428, 0, 2, 0]),
    (22, [755, 1, 0, 262, 495, 352, 3, 262, 296, 1, 2, 1]),
    (23, [878, 1, 0, 587, 276, 496, 0, 608, 631, 1, 2, 0]),
    (24, [949, 1, 0, 211, 65, 24, 2, 886, 902, 2, 2, 1]),
    (25, [884, 1, 0, 835, 327, 652, 1, 500, 623, 1, 2, 1]),
    (26, [846, 1, 0, 341, 623, 994, 3, 607, 369, 1, 2, 1]),
    (27, [533, 1, 0, 638, 544, 755, 3, 532, 175, 0, 2, 1]),
    (28, [658, 1, 1, 216, 77, 644, 2, 423, 428, 0, 2, 0]),
    (29, [949, 1, 0, 211, 65, 24, 2, 886, 902, 2, 2, 1]),
    (30, [658, 1, 1, 216, 77, 644, 2, 423, 428, 0, 2, 0]),
    (31, [844, 1, 0, 157, 39, 157, 1, 183, 228, 2, 2, 1]),
    (32, [847, 1, 0, 469, 500, 469, 0, 703, 844, 0, 2, 1]),
    (33, [870, 1, 1, 54, 383, 315, 0, 834, 190, 2, 2, 0]),
    (34, [675, 0, 0, 125, 897, 445, 3, 859, 647, 0, 2, 0]),
    (35, [658, 1, 1, 216, 77, 644, 2, 423, 428, 0, 2, 0]),
    (36, [704, 1, 1, 747, 472, 44, 1, 624, 847, 1, 2, 1]),
    (37, [925, 1, 1, 446, 193, 951, 3, 679, 439, 0, 2, 1]),
    (38, [841, 1, 0, 293, 595, 26, 3, 99, 887, 1, 2, 1]),
    (39, [884, 1, 0, 835, 327, 652, 1, 500, 623, 1, 2, 1]),
    (40, [704, 1, 1, 747, 472, 44, 1, 624, 847, 1, 2, 1]),
    (41, [705, 1, 0, 542, 452, 732, 3, 852, 906, 2, 2, 0]),
];

fn inputs(a: [i32; 12]) -> Inputs {
    Inputs {
        cur_vertical_sep: a[0],
        high_confidence: a[1] != 0,
        two_of_three_reports_valid: a[2] != 0,
        own_tracked_alt: a[3],
        own_tracked_alt_rate: a[4],
        other_tracked_alt: a[5],
        alt_layer_value: a[6],
        up_separation: a[7],
        down_separation: a[8],
        other_rac: a[9],
        other_capability: a[10],
        climb_inhibit: a[11] != 0,
    }
}

#[test]
fn the_original_passes_a_random_run() {
    let target = find("tcas").unwrap();
    let test = target.test(None).unwrap();
    let r = Property::new("tcas")
        .no_corpus()
        .seed(7)
        .tests(3000)
        .run_test(test.as_ref());
    assert!(r.passed(), "\n{r}");
    assert_eq!(r.total_valid(), 3000);
}

#[test]
fn every_version_is_killed_by_its_witness() {
    assert_eq!(BUGS.len(), 41);
    for (k, (v, w)) in WITNESSES.iter().enumerate() {
        assert_eq!(*v as usize, k + 1);
        assert_eq!(BUGS[k].0, format!("v{v}"));
        let i = inputs(*w);
        let (orig, got) = (alt_sep_test(&i, 0), alt_sep_test(&i, *v));
        assert_ne!(orig, got, "v{v} agrees with the original on {i:?}");
        assert!(tcas::check(&i, *v).is_err());
        assert!(tcas::check(&i, 0).is_ok());
    }
}

#[test]
fn out_of_bounds_read_of_v38() {
    // Alt_Layer_Value 3 reaching ALIM: the 3-element array is read at index 3.
    let i = inputs(WITNESSES[37].1);
    assert_eq!(i.alt_layer_value, 3);
    assert_eq!(alt_sep_test(&i, 38), Outcome::OutOfBounds { index: 3 });
    // v33's array is [0, 400, 500, 640]: layer 0 has threshold 0, read in bounds.
    assert!(matches!(
        alt_sep_test(&inputs(WITNESSES[32].1), 33),
        Outcome::Advisory(_)
    ));
}

#[test]
fn equivalent_versions_agree_with_each_other() {
    // Mutants equal to one another (not to the original) on every input in this grid and on
    // 300,000 random inputs: v5 = v15 = v27 (MINSEP only guards conjuncts that the threat
    // tests already falsify), v25 = v39, v28 = v35, v4 = v41 (enabled implies
    // Cur_Vertical_Sep > 600 >= MINSEP).
    let pairs = [(5, 15), (5, 27), (25, 39), (28, 35), (4, 41)];
    let ints = [
        0, 299, 300, 400, 401, 500, 501, 600, 601, 640, 700, 740, 1000,
    ];
    for (n, &(a, b)) in pairs.iter().enumerate() {
        for (k, &x) in ints.iter().enumerate() {
            for &y in &ints {
                for layer in 0..4 {
                    for ci in [false, true] {
                        let i = Inputs {
                            cur_vertical_sep: ints[(k + n) % ints.len()],
                            high_confidence: true,
                            two_of_three_reports_valid: true,
                            own_tracked_alt: x,
                            own_tracked_alt_rate: y,
                            other_tracked_alt: y,
                            alt_layer_value: layer,
                            up_separation: x,
                            down_separation: y,
                            other_rac: 0,
                            other_capability: 1,
                            climb_inhibit: ci,
                        };
                        assert_eq!(alt_sep_test(&i, a), alt_sep_test(&i, b), "v{a} v{b} {i:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn random_generation_kills_the_frequent_mutants() {
    // One differing input in 9 (v34), 14 (v12) and 37 (v5) random inputs.
    let target = find("tcas").unwrap();
    for bug in ["v34", "v12", "v5"] {
        let test = target.test(Some(bug)).unwrap();
        let r = Property::new("tcas")
            .no_corpus()
            .seed(3)
            .tests(2000)
            .run_test(test.as_ref());
        assert!(r.failure.is_some(), "{bug} not found in 2000 tests");
    }
}

#[test]
fn the_generator_draws_twelve_leading_choices() {
    use tapefuzz::tape::{RandomSource, Tape};
    let mut src = RandomSource::new(1);
    let mut tape = Tape::recording(&mut src);
    tcas::InputsGen.generate(&mut tape).unwrap();
    let rec = tape.finish();
    assert_eq!(rec.indices().len(), 12);
}
