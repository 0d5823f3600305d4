//! TCAS, the resolution-advisory program of the Siemens suite (SIR `tcas.c`), with its 41
//! faulty versions as planted bugs `v1`…`v41` (paper 003 §5.1, benchmarks §5).
//!
//! Ported from the SIR sources as mirrored in
//! `github.com/meysamkhazaee/seimens_benchmark` (commit 67dd09ff):
//! `tcas/source.alt/source.orig/tcas.c` (the correct version) and
//! `tcas/versions.alt/versions.orig/v1/tcas.c` … `v41/tcas.c` (the faulty versions; that
//! mirror adds `fprintf` coverage probes, which were ignored: each version's diff against the
//! original, probes stripped, is one to three lines). Spot-checked against the unprobed
//! copies in `github.com/houzss/Software-Fault-Location-By-SiemensSuite`
//! (`tcas/versions.alt/versions.orig/v20/tcas.c` and others).
//!
//! [`alt_sep_test`] is the C program with every version's mutation behind a test of the
//! version number, so each C function is written once ([`BUGS`] says what each changes).
//!
//! **Array bounds.** Two versions change the threshold array `Positive_RA_Alt_Thresh`:
//! - `v33` writes indices 1..=4 of the 4-element array. The write to index 4 is out of bounds;
//!   in C it lands on whatever global follows (and `main` then reads every input from `argv`
//!   after `initialize`), so it is modelled as lost: the array is `[0, 400, 500, 640]`
//!   (globals start at 0). The reads stay in bounds.
//! - `v38` declares the array with 3 elements. The write of index 3 in `initialize` is
//!   modelled as lost, and the read of index 3 in `ALIM` (`Alt_Layer_Value == 3` reaching an
//!   altitude check) as an **out-of-bounds read: the defined outcome
//!   [`Outcome::OutOfBounds`]**, which differs from every output of the original (a Rust
//!   index would panic there). Had the C memory past the array kept the 740 `initialize`
//!   wrote, `v38` would behave as the original.

use tapefuzz::prelude::*;
use tapefuzz::property::{Test, property};
use tapefuzz::tape::{Reject, Tape};

/// The program's 12 inputs, in the order of its command line (`argv[1..=12]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Inputs {
    /// `Cur_Vertical_Sep`.
    pub cur_vertical_sep: i32,
    /// `High_Confidence`.
    pub high_confidence: bool,
    /// `Two_of_Three_Reports_Valid`.
    pub two_of_three_reports_valid: bool,
    /// `Own_Tracked_Alt`.
    pub own_tracked_alt: i32,
    /// `Own_Tracked_Alt_Rate`.
    pub own_tracked_alt_rate: i32,
    /// `Other_Tracked_Alt`.
    pub other_tracked_alt: i32,
    /// `Alt_Layer_Value`, 0..=3 (an index into the threshold array).
    pub alt_layer_value: i32,
    /// `Up_Separation`.
    pub up_separation: i32,
    /// `Down_Separation`.
    pub down_separation: i32,
    /// `Other_RAC`: 0 `NO_INTENT`, 1 `DO_NOT_CLIMB`, 2 `DO_NOT_DESCEND`.
    pub other_rac: i32,
    /// `Other_Capability`: 1 `TCAS_TA`, 2 `OTHER`.
    pub other_capability: i32,
    /// `Climb_Inhibit`.
    pub climb_inhibit: bool,
}

/// What a version prints, or that it read outside the threshold array.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The advisory `alt_sep_test` returns: 0 `UNRESOLVED`, 1 `UPWARD_RA`, 2 `DOWNWARD_RA`
    /// (`v36` defines `DOWNWARD_RA` as 1).
    Advisory(i32),
    /// `ALIM` read `Positive_RA_Alt_Thresh[index]` outside the array (undefined in C).
    OutOfBounds {
        /// The index read.
        index: i32,
    },
}

/// The 41 faulty versions: name and the mutation, one line each (the original's text first).
pub const BUGS: &[(&str, &str)] = &[
    (
        "v1",
        "Non_Crossing_Biased_Climb: `!(Down_Separation >= ALIM())` becomes `> ALIM()`",
    ),
    ("v2", "Inhibit_Biased_Climb adds MINSEP instead of NOZCROSS"),
    (
        "v3",
        "intent_not_known: `Two_of_Three_Reports_Valid && Other_RAC == NO_INTENT` uses `||`",
    ),
    (
        "v4",
        "Non_Crossing_Biased_Climb, not upward preferred: `… && (Cur_Vertical_Sep >= MINSEP) && (Up_Separation >= ALIM())` has `||` before the last",
    ),
    (
        "v5",
        "enabled: `&& (Cur_Vertical_Sep > MAXALTDIFF)` missing",
    ),
    ("v6", "Own_Below_Threat: `<` becomes `<=`"),
    ("v7", "Positive_RA_Alt_Thresh[1] = 550 instead of 500"),
    ("v8", "Positive_RA_Alt_Thresh[3] = 700 instead of 740"),
    (
        "v9",
        "Non_Crossing_Biased_Descend: upward_preferred uses `>=` instead of `>`",
    ),
    (
        "v10",
        "Own_Below_Threat and Own_Above_Threat: `<` becomes `<=`",
    ),
    (
        "v11",
        "v10, and alt_sep_test drops the `need_upward_RA && need_downward_RA` case (upward wins)",
    ),
    (
        "v12",
        "enabled: `High_Confidence && (rate <= OLEV) …` uses `||`",
    ),
    ("v13", "OLEV is 600+100"),
    ("v14", "MAXALTDIFF is 600+50"),
    (
        "v15",
        "MINSEP is 300+350, and enabled misses `&& (Cur_Vertical_Sep > MAXALTDIFF)`",
    ),
    ("v16", "Positive_RA_Alt_Thresh[0] = 400+1"),
    ("v17", "Positive_RA_Alt_Thresh[1] = 500+1"),
    ("v18", "Positive_RA_Alt_Thresh[2] = 640+50"),
    ("v19", "Positive_RA_Alt_Thresh[3] = 740+20"),
    (
        "v20",
        "Non_Crossing_Biased_Climb: upward_preferred uses `>=` instead of `>`",
    ),
    (
        "v21",
        "Non_Crossing_Biased_Climb: upward_preferred uses `Up_Separation + NOZCROSS` (Climb_Inhibit ignored)",
    ),
    (
        "v22",
        "Non_Crossing_Biased_Climb: upward_preferred uses `Up_Separation` (Climb_Inhibit ignored)",
    ),
    (
        "v23",
        "Non_Crossing_Biased_Descend: upward_preferred uses `Up_Separation + NOZCROSS`",
    ),
    (
        "v24",
        "Non_Crossing_Biased_Descend: upward_preferred uses `Up_Separation`",
    ),
    (
        "v25",
        "Non_Crossing_Biased_Descend: `Up_Separation >= ALIM()` becomes `>`",
    ),
    (
        "v26",
        "enabled: `&& (Own_Tracked_Alt_Rate <= OLEV)` missing",
    ),
    (
        "v27",
        "enabled: `&& (Cur_Vertical_Sep > MAXALTDIFF)` missing",
    ),
    (
        "v28",
        "Inhibit_Biased_Climb: `Climb_Inhibit ?` becomes `(Climb_Inhibit == 0) ?`",
    ),
    ("v29", "Inhibit_Biased_Climb returns Up_Separation"),
    (
        "v30",
        "Inhibit_Biased_Climb returns Up_Separation + NOZCROSS",
    ),
    (
        "v31",
        "Own_Below_Threat checks moved into Non_Crossing_Biased_Climb (`<=` in one branch, `<` in the other) and dropped from need_upward_RA",
    ),
    (
        "v32",
        "Own_Above_Threat checks moved into Non_Crossing_Biased_Descend (`<` in one branch, `<=` in the other) and dropped from need_downward_RA",
    ),
    (
        "v33",
        "initialize fills indices 1..=4 (400, 500, 640, 740) instead of 0..=3; index 4 is out of bounds",
    ),
    (
        "v34",
        "`enabled && ((tcas_equipped && intent_not_known) || !tcas_equipped)` loses its parentheses",
    ),
    (
        "v35",
        "Inhibit_Biased_Climb: the two arms of `Climb_Inhibit ? … : …` swapped",
    ),
    ("v36", "DOWNWARD_RA is 1 (the same as UPWARD_RA)"),
    ("v37", "ALIM returns Positive_RA_Alt_Thresh[0]"),
    (
        "v38",
        "Positive_RA_Alt_Thresh has 3 elements: ALIM reads index 3 out of bounds",
    ),
    (
        "v39",
        "Non_Crossing_Biased_Descend: `Up_Separation >= ALIM()` becomes `>` (as v25)",
    ),
    (
        "v40",
        "Non_Crossing_Biased_Climb drops `!(Own_Below_Threat()) ||`, and need_upward_RA drops `&& Own_Below_Threat()`",
    ),
    (
        "v41",
        "Non_Crossing_Biased_Climb, not upward preferred: `Own_Above_Threat() &&` missing",
    ),
];

const NO_INTENT: i32 = 0;
const TCAS_TA: i32 = 1;
const NOZCROSS: i32 = 100;
const UNRESOLVED: i32 = 0;
const UPWARD_RA: i32 = 1;

/// One run of version `v` (0 the original) on one input: the C globals and functions.
struct Tcas<'a> {
    i: &'a Inputs,
    v: u8,
    thresh: Vec<i32>,
}

// The C expressions are kept as written, unsimplified, so each diff reads as the original's.
#[allow(clippy::nonminimal_bool)]
impl Tcas<'_> {
    fn olev(&self) -> i32 {
        if self.v == 13 { 600 + 100 } else { 600 }
    }

    fn maxaltdiff(&self) -> i32 {
        if self.v == 14 { 600 + 50 } else { 600 }
    }

    fn minsep(&self) -> i32 {
        if self.v == 15 { 300 + 350 } else { 300 }
    }

    fn downward_ra(&self) -> i32 {
        if self.v == 36 { 1 } else { 2 }
    }

    /// `initialize()`: the threshold array (see the module's note on `v33` and `v38`).
    fn initialize(v: u8) -> Vec<i32> {
        let mut t = vec![400, 500, 640, 740];
        match v {
            7 => t[1] = 550,
            8 => t[3] = 700,
            16 => t[0] = 400 + 1,
            17 => t[1] = 500 + 1,
            18 => t[2] = 640 + 50,
            19 => t[3] = 740 + 20,
            33 => t = vec![0, 400, 500, 640],
            38 => t.truncate(3),
            _ => {}
        }
        t
    }

    #[allow(non_snake_case)]
    fn ALIM(&self) -> Result<i32, Outcome> {
        let index = if self.v == 37 {
            0
        } else {
            self.i.alt_layer_value
        };
        usize::try_from(index)
            .ok()
            .and_then(|k| self.thresh.get(k).copied())
            .ok_or(Outcome::OutOfBounds { index })
    }

    #[allow(non_snake_case)]
    fn Inhibit_Biased_Climb(&self) -> i32 {
        let i = self.i;
        match self.v {
            2 => {
                if i.climb_inhibit {
                    i.up_separation + self.minsep()
                } else {
                    i.up_separation
                }
            }
            28 => {
                if !i.climb_inhibit {
                    i.up_separation + NOZCROSS
                } else {
                    i.up_separation
                }
            }
            29 => i.up_separation,
            30 => i.up_separation + NOZCROSS,
            35 => {
                if i.climb_inhibit {
                    i.up_separation
                } else {
                    i.up_separation + NOZCROSS
                }
            }
            _ => {
                if i.climb_inhibit {
                    i.up_separation + NOZCROSS
                } else {
                    i.up_separation
                }
            }
        }
    }

    #[allow(non_snake_case)]
    fn Non_Crossing_Biased_Climb(&self) -> Result<bool, Outcome> {
        let i = self.i;
        let upward_preferred = match self.v {
            20 => self.Inhibit_Biased_Climb() >= i.down_separation,
            21 => (i.up_separation + NOZCROSS) > i.down_separation,
            22 => i.up_separation > i.down_separation,
            _ => self.Inhibit_Biased_Climb() > i.down_separation,
        };
        let mut result;
        if upward_preferred {
            result = match self.v {
                1 => {
                    !self.Own_Below_Threat()
                        || (self.Own_Below_Threat() && !(i.down_separation > self.ALIM()?))
                }
                40 => self.Own_Below_Threat() && !(i.down_separation >= self.ALIM()?),
                _ => {
                    !self.Own_Below_Threat()
                        || (self.Own_Below_Threat() && !(i.down_separation >= self.ALIM()?))
                }
            };
            if self.v == 31 {
                result = result && (i.own_tracked_alt <= i.other_tracked_alt);
            }
        } else {
            result = match self.v {
                4 => {
                    self.Own_Above_Threat() && (i.cur_vertical_sep >= self.minsep())
                        || (i.up_separation >= self.ALIM()?)
                }
                41 => (i.cur_vertical_sep >= self.minsep()) && (i.up_separation >= self.ALIM()?),
                _ => {
                    self.Own_Above_Threat()
                        && (i.cur_vertical_sep >= self.minsep())
                        && (i.up_separation >= self.ALIM()?)
                }
            };
            if self.v == 31 {
                result = result && (i.own_tracked_alt < i.other_tracked_alt);
            }
        }
        Ok(result)
    }

    #[allow(non_snake_case)]
    fn Non_Crossing_Biased_Descend(&self) -> Result<bool, Outcome> {
        let i = self.i;
        let upward_preferred = match self.v {
            9 => self.Inhibit_Biased_Climb() >= i.down_separation,
            23 => (i.up_separation + NOZCROSS) > i.down_separation,
            24 => i.up_separation > i.down_separation,
            _ => self.Inhibit_Biased_Climb() > i.down_separation,
        };
        let mut result;
        if upward_preferred {
            result = self.Own_Below_Threat()
                && (i.cur_vertical_sep >= self.minsep())
                && (i.down_separation >= self.ALIM()?);
            if self.v == 32 {
                result = result && (i.other_tracked_alt < i.own_tracked_alt);
            }
        } else {
            result = if matches!(self.v, 25 | 39) {
                !self.Own_Above_Threat()
                    || (self.Own_Above_Threat() && (i.up_separation > self.ALIM()?))
            } else {
                !self.Own_Above_Threat()
                    || (self.Own_Above_Threat() && (i.up_separation >= self.ALIM()?))
            };
            if self.v == 32 {
                result = result && (i.other_tracked_alt <= i.own_tracked_alt);
            }
        }
        Ok(result)
    }

    #[allow(non_snake_case)]
    fn Own_Below_Threat(&self) -> bool {
        if matches!(self.v, 6 | 10 | 11) {
            self.i.own_tracked_alt <= self.i.other_tracked_alt
        } else {
            self.i.own_tracked_alt < self.i.other_tracked_alt
        }
    }

    #[allow(non_snake_case)]
    fn Own_Above_Threat(&self) -> bool {
        if matches!(self.v, 10 | 11) {
            self.i.other_tracked_alt <= self.i.own_tracked_alt
        } else {
            self.i.other_tracked_alt < self.i.own_tracked_alt
        }
    }

    fn alt_sep_test(&self) -> Result<i32, Outcome> {
        let i = self.i;
        let enabled = match self.v {
            5 | 15 | 27 => i.high_confidence && (i.own_tracked_alt_rate <= self.olev()),
            12 => {
                i.high_confidence
                    || (i.own_tracked_alt_rate <= self.olev())
                        && (i.cur_vertical_sep > self.maxaltdiff())
            }
            26 => i.high_confidence && (i.cur_vertical_sep > self.maxaltdiff()),
            _ => {
                i.high_confidence
                    && (i.own_tracked_alt_rate <= self.olev())
                    && (i.cur_vertical_sep > self.maxaltdiff())
            }
        };
        let tcas_equipped = i.other_capability == TCAS_TA;
        let intent_not_known = if self.v == 3 {
            i.two_of_three_reports_valid || i.other_rac == NO_INTENT
        } else {
            i.two_of_three_reports_valid && i.other_rac == NO_INTENT
        };

        let mut alt_sep = UNRESOLVED;
        let go = if self.v == 34 {
            enabled && tcas_equipped && intent_not_known || !tcas_equipped
        } else {
            enabled && ((tcas_equipped && intent_not_known) || !tcas_equipped)
        };
        if go {
            let need_upward_ra = if matches!(self.v, 31 | 40) {
                self.Non_Crossing_Biased_Climb()?
            } else {
                self.Non_Crossing_Biased_Climb()? && self.Own_Below_Threat()
            };
            let need_downward_ra = if self.v == 32 {
                self.Non_Crossing_Biased_Descend()?
            } else {
                self.Non_Crossing_Biased_Descend()? && self.Own_Above_Threat()
            };
            alt_sep = if self.v == 11 {
                if need_upward_ra {
                    UPWARD_RA
                } else if need_downward_ra {
                    self.downward_ra()
                } else {
                    UNRESOLVED
                }
            } else if need_upward_ra && need_downward_ra {
                // unreachable in the original: requires Own_Below_Threat and
                // Own_Above_Threat both true
                UNRESOLVED
            } else if need_upward_ra {
                UPWARD_RA
            } else if need_downward_ra {
                self.downward_ra()
            } else {
                UNRESOLVED
            };
        }
        Ok(alt_sep)
    }
}

/// Version `version`'s output on `inputs` (0 the original, 1..=41 the faulty versions).
/// Panics on another version number.
pub fn alt_sep_test(inputs: &Inputs, version: u8) -> Outcome {
    assert!(version <= 41, "TCAS has versions 0..=41, not {version}");
    let t = Tcas {
        i: inputs,
        v: version,
        thresh: Tcas::initialize(version),
    };
    match t.alt_sep_test() {
        Ok(a) => Outcome::Advisory(a),
        Err(e) => e,
    }
}

/// The 12 inputs, each drawn once, in command-line order, as leading finite choices: the
/// booleans with [`bools`], `Alt_Layer_Value` in 0..=3, `Other_RAC` in 0..=2,
/// `Other_Capability` in 1..=2 and the six integers in 0..=1000 (paper 003, Table 4's
/// black-box scenario). Simplest: every integer at its range's start, every boolean false.
#[derive(Clone, Copy, Debug, Default)]
pub struct InputsGen;

impl Gen for InputsGen {
    type Value = Inputs;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<Inputs, Reject> {
        let int = ints::<i32>(0..=1000);
        Ok(Inputs {
            cur_vertical_sep: int.generate(tape)?,
            high_confidence: bools().generate(tape)?,
            two_of_three_reports_valid: bools().generate(tape)?,
            own_tracked_alt: int.generate(tape)?,
            own_tracked_alt_rate: int.generate(tape)?,
            other_tracked_alt: int.generate(tape)?,
            alt_layer_value: ints::<i32>(0..=3).generate(tape)?,
            up_separation: int.generate(tape)?,
            down_separation: int.generate(tape)?,
            other_rac: ints::<i32>(0..=2).generate(tape)?,
            other_capability: ints::<i32>(1..=2).generate(tape)?,
            climb_inhibit: bools().generate(tape)?,
        })
    }
}

/// The version a bug name selects: `v1`…`v41` give 1..=41, `None` the original (0).
/// Panics on another name (the registry checks names first).
pub fn version(bug: Option<&str>) -> u8 {
    match bug {
        None => 0,
        Some(b) => b
            .strip_prefix('v')
            .and_then(|n| n.parse::<u8>().ok())
            .filter(|n| (1..=41).contains(n))
            .unwrap_or_else(|| panic!("not a TCAS version: {b}")),
    }
}

/// The property: the version's output equals the original's (the mutant is killed when
/// they differ).
pub fn check(inputs: &Inputs, version: u8) -> Result<(), Fail> {
    let expected = alt_sep_test(inputs, 0);
    let got = alt_sep_test(inputs, version);
    ensure_eq!(got, expected);
    Ok(())
}

/// The target's test: [`InputsGen`] and [`check`] for the version `bug` names.
pub fn test(bug: Option<&str>) -> Box<dyn Test> {
    let v = version(bug);
    Box::new(property(InputsGen, move |i: Inputs| check(&i, v)))
}
