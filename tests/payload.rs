//! Payload runs (every byte vector): the encoding is a length then the raw bytes, a length
//! past the input's end reads as the rest of the input, byte strings shrink to their
//! minimum, and version-1 tapes (a coin before each byte) and version-2 text (another
//! repair) still read as the values they were.

mod common;

use common::shrunk;
use tapefuzz::prelude::*;
use tapefuzz::tape::{BytesSource, LegacySource, Tape, encoding};

fn decode<G: Gen>(g: &G, bytes: &[u8]) -> G::Value {
    let mut src = BytesSource::new(bytes);
    g.generate(&mut Tape::new(&mut src, false)).unwrap()
}

#[test]
fn a_run_is_its_length_then_its_bytes() {
    let g = bytes(0..=4096);
    assert_eq!(decode(&g, &[0, 2, 7, 8, 9]), vec![7, 8]);
    assert_eq!(decode(&g, &[]), Vec::<u8>::new());
    // Past the end: the rest of the input, never padding.
    assert_eq!(decode(&g, &[0x10, 0x00, 1, 2, 3]), vec![1, 2, 3]);
    // A minimum is kept (zeros past the end).
    assert_eq!(decode(&bytes(4..=10), &[9, 1]), vec![1, 0, 0, 0]);
    // The same for every byte vector of every u8.
    assert_eq!(
        decode(&vecs(ints::<u8>(..), 0..=300), &[0, 3, 1, 2, 3, 4]),
        vec![1, 2, 3]
    );
    assert_eq!(decode(&any::<Vec<u8>>(), &[2, 5, 6]), vec![5, 6]);
    // A run in the middle: what follows reads after its bytes.
    let pair = (bytes(0..=10), ints::<u8>(..));
    assert_eq!(decode(&pair, &[2, 5, 6, 42]), (vec![5, 6], 42));
}

#[test]
fn encoding_keeps_a_runs_trailing_zeros() {
    // A run whose last bytes are zeros, at the end of the tape: trimming them would make the
    // decoder clip the run.
    let g = (ints::<u8>(..), bytes(0..=100));
    for value in [vec![0, 0, 0], vec![1, 0], vec![], vec![0]] {
        let mut src = tapefuzz::tape::ReplaySource::new(
            std::iter::once(3u64)
                .chain(std::iter::once(value.len() as u64))
                .chain(value.iter().map(|&b| u64::from(b)))
                .collect(),
            tapefuzz::tape::Fallback::Simplest,
        );
        let mut tape = Tape::recording(&mut src);
        let v = g.generate(&mut tape).unwrap();
        let rec = tape.finish();
        let bytes = encoding::encode(&rec.choices);
        assert_eq!(decode(&g, &bytes), v, "{bytes:?}");
        assert_eq!(v.1, value);
    }
}

#[test]
fn byte_strings_shrink_to_their_minimum() {
    let needle = shrunk(
        "payload::needle",
        bytes(0..=200).average(60.0),
        |v: Vec<u8>| {
            !v.windows(3).any(|w| w == b"ab\x01") && v.iter().filter(|&&b| b == b'a').count() < 3
        },
    );
    assert_eq!(needle, "[97, 97, 97]");
    let long = shrunk("payload::long", bytes(0..=200), |v: Vec<u8>| v.len() < 12);
    assert_eq!(long, "[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]");
    let sum = shrunk(
        "payload::sum",
        vecs(ints::<u8>(..), 0..=50).average(20.0),
        |v: Vec<u8>| v.iter().map(|&b| u32::from(b)).sum::<u32>() <= 300,
    );
    assert_eq!(sum, "[46, 255]");
}

#[test]
fn version_one_tapes_read_as_they_did() {
    // Version 1 drew a coin before each byte: [more, byte, more, byte, …, no more].
    let g = (bytes(0..=10), ints::<u16>(..));
    let v1 = [1, b'h', 1, b'i', 0, 0x01, 0x02];
    let mut src = LegacySource::new(&v1);
    let mut tape = Tape::recording(&mut src);
    let v = g.generate(&mut tape).unwrap();
    assert_eq!(v, (b"hi".to_vec(), 0x0102));
    // Its recording, encoded, is the version-2 tape of the same value.
    let v2 = encoding::encode(&tape.finish().choices);
    assert_eq!(v2, [2, b'h', b'i', 0x01, 0x02]);
    assert_eq!(decode(&g, &v2), v);
    // Minimum sizes were forced coins (no byte read), the maximum too.
    let g = bytes(2..=3);
    let mut src = LegacySource::new(&[7, 8, 1, 9, 5]);
    assert_eq!(
        g.generate(&mut Tape::new(&mut src, false)).unwrap(),
        vec![7, 8, 9]
    );
}

#[test]
fn random_lengths_keep_the_collection_distribution() {
    // The mean length of a random `bytes(0..=100)` is about 5, as for any collection.
    let g = bytes(0..=100);
    let mut total = 0usize;
    let n = 20_000;
    for seed in 0..n {
        let mut src = tapefuzz::tape::RandomSource::new(seed);
        total += g.generate(&mut Tape::new(&mut src, false)).unwrap().len();
    }
    let mean = total as f64 / n as f64;
    assert!((4.6..5.4).contains(&mean), "mean {mean}");
    // Exploring (the coverage-guided engines): long inputs are common (half the lengths
    // log-uniform: 1 in 20 at least 50 bytes long, where a geometric length with mean 5 is
    // that long about once in 10,000).
    let mut long = 0;
    for seed in 0..n {
        let mut src = tapefuzz::tape::RandomSource::new(seed).exploring();
        long += (g.generate(&mut Tape::new(&mut src, false)).unwrap().len() >= 50) as u32;
    }
    assert!(long > n as u32 / 40, "{long} of {n} at least 50 bytes long");
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("tapefuzz-payload-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A property's store folder `name` under `root`, as an older build left it: `corpus/` and
/// `regressions/`, and a `FORMAT` saying `format`.
fn old_store(root: &std::path::Path, name: &str, format: &str) -> std::path::PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(dir.join("corpus")).unwrap();
    std::fs::create_dir_all(dir.join("regressions")).unwrap();
    std::fs::write(dir.join("FORMAT"), format).unwrap();
    dir
}

#[test]
fn a_corpus_of_the_old_encoding_replays_as_before_and_is_migrated() {
    use std::collections::BTreeSet;
    use tapefuzz::corpus::{Corpus, Folder, sha1_name};
    let root = temp_dir("migrate");
    let dir = old_store(
        &root,
        "old",
        "tapefuzz corpus 2\ncorpus/<sha1>           raw tape bytes (libFuzzer's format and naming)\nregressions/<sha1>.txt  one text file per shrunk failure, replayed first\n",
    );
    // Version-1 tapes of (bytes, u8): a coin before each byte, then the integer.
    let old = [
        (vec![1, b'o', 1, b'k', 0, 9], (b"ok".to_vec(), 9u8)),
        (vec![0, 200], (vec![], 200)),
        (vec![1, 0, 1, 0, 1, 0], (vec![0, 0, 0], 0)),
    ];
    for (tape, _) in &old {
        std::fs::write(dir.join("corpus").join(sha1_name(tape)), tape).unwrap();
    }
    // A regression of the first version: the value it failed on was [1, 2, 3].
    std::fs::write(
        dir.join("regressions/old.txt"),
        "tapefuzz regression 1\nproperty: old\nvalue: ([1, 2, 3], 0)\ntape: 01010102010300\n",
    )
    .unwrap();
    let g = (bytes(0..=10), ints::<u8>(..));
    let seen = std::sync::Mutex::new(Vec::new());
    let report = Property::new("old")
        .corpora(&root)
        .tests(0)
        .run(g.clone(), |v: (Vec<u8>, u8)| {
            seen.lock().unwrap().push(v.clone());
            v.0 != [1, 2, 3]
        });
    // The regression fails first, on the value it was saved with, and is not taken for the
    // tape of another generator (its structure is the old layout's, its value the same).
    assert!(!report.passed());
    assert_eq!(seen.lock().unwrap()[0], (vec![1, 2, 3], 0));
    assert!(
        !report
            .warnings
            .iter()
            .any(|w| w.contains("another generator")),
        "{:?}",
        report.warnings
    );
    // The corpus is in the new encoding now: same values, new tapes, new marker.
    let fmt = std::fs::read_to_string(dir.join("FORMAT")).unwrap();
    assert!(fmt.starts_with("tapefuzz corpus 4"), "{fmt}");
    let mut corpus = Corpus::open(&dir);
    let values: BTreeSet<(Vec<u8>, u8)> = corpus
        .load(Folder::Corpus)
        .iter()
        .map(|e| decode(&g, &e.bytes))
        .collect();
    let want: BTreeSet<(Vec<u8>, u8)> = old.iter().map(|(_, v)| v.clone()).collect();
    assert_eq!(values, want);
    // Running again replays them as they are.
    let seen = std::sync::Mutex::new(BTreeSet::new());
    let again = Property::new("old")
        .corpora(&root)
        .tests(0)
        .run(g, |v: (Vec<u8>, u8)| {
            seen.lock().unwrap().insert(v.clone());
            v.0 != [1, 2, 3]
        });
    assert!(!again.passed());
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn text_is_a_run_of_its_utf8_bytes() {
    let g = strings(CharClass::any(), 0..=50);
    assert_eq!(decode(&g, b"\x03_ZN"), "_ZN");
    // Random text is the class's characters as before, and its tape is their UTF-8.
    for seed in 0..200 {
        let mut src = tapefuzz::tape::RandomSource::new(seed);
        let mut tape = Tape::recording(&mut src);
        let s = g.generate(&mut tape).unwrap();
        let bytes = encoding::encode(&tape.finish().choices);
        assert_eq!(bytes.get(1..).unwrap_or_default(), s.as_bytes());
        assert_eq!(decode(&g, &bytes), s);
        let mut fast = tapefuzz::tape::RandomSource::new(seed);
        assert_eq!(g.generate(&mut Tape::new(&mut fast, false)).unwrap(), s);
    }
    // A class other than `any` repairs what is outside it into it, within the bounds.
    let digits = strings(CharClass::digits(), 2..=3);
    // Length 2 + 1; 'x' (120) is '0', 'y' (121) is '1'.
    assert_eq!(decode(&digits, &[1, b'9', b'x', b'y']), "901");
    // Between two of the class's characters: the next one up.
    let an = strings(CharClass::alphanumeric(), 2..=2);
    assert_eq!(decode(&an, &[0, b':', b'`']), "Aa");
    assert_eq!(decode(&digits, &[]), "00");
}

#[test]
fn text_shrinks_and_old_text_tapes_read_as_they_did() {
    let s = shrunk(
        "payload::text",
        strings(CharClass::any(), 0..=40).average(20.0),
        |s: String| s.chars().filter(|c| c.is_ascii_lowercase()).count() < 3,
    );
    assert_eq!(s, "\"aaa\"");
    // Version 1: a coin before each character, then its index in the class ('a' is 10 in
    // `alphanumeric`, 'b' is 11).
    let g = (strings(CharClass::alphanumeric(), 0..=5), ints::<u8>(..));
    let mut src = LegacySource::new(&[1, 10, 1, 11, 0, 7]);
    let mut tape = Tape::recording(&mut src);
    let v = g.generate(&mut tape).unwrap();
    assert_eq!(v, ("ab".to_string(), 7));
    let v2 = encoding::encode(&tape.finish().choices);
    assert_eq!(decode(&g, &v2), v);
    // Version 2: today's layout, but a byte outside the class was the class's character at
    // its code point modulo the class's size (':' is 58: 'W' in `alphanumeric`'s order);
    // today ':' reads as 'A', the next character up.
    let tape = [2, b'a', b':', 7];
    assert_eq!(decode(&g, &tape), ("aA".to_string(), 7));
    let mut src = LegacySource::of_version(&tape, 2).unwrap();
    let mut rec = Tape::recording(&mut src);
    let v = g.generate(&mut rec).unwrap();
    assert_eq!(v, ("aW".to_string(), 7));
    let v3 = encoding::encode(&rec.finish().choices);
    assert_eq!(v3, [2, b'a', b'W', 7]);
    assert_eq!(decode(&g, &v3), v);
    // Byte vectors and the rest of the tape read as they did.
    let g = (
        bytes(0..=5),
        strings(CharClass::alphanumeric(), 1..=3),
        ints::<u16>(..),
    );
    let tape = [2, b':', 0xff, 0, b'[', 0x01, 0x02];
    let mut src = LegacySource::of_version(&tape, 2).unwrap();
    let v = g.generate(&mut Tape::new(&mut src, false)).unwrap();
    assert_eq!(v, (vec![b':', 0xff], "t".to_string(), 0x0102));
    assert_eq!(
        decode(&g, &tape),
        (vec![b':', 0xff], "a".to_string(), 0x0102)
    );
    assert!(LegacySource::of_version(&tape, 3).is_none());
    // Only what reads otherwise today is rewritten: a stray byte (Latin-1 '©') and valid
    // text keep their bytes, so a tape that fit a size budget still fits it.
    let g = strings(CharClass::any(), 0..=3);
    let tape = [0x03, 0xA9, 0x01, 0xC8];
    let mut src = LegacySource::of_version(&tape, 2).unwrap();
    let mut rec = Tape::recording(&mut src).with_max_choices(4);
    assert_eq!(g.generate(&mut rec).unwrap(), "\u{A9}\u{1}\u{C8}");
    assert_eq!(encoding::encode(&rec.finish().choices), tape);
    let g = strings(CharClass::alphanumeric(), 0..=4);
    let tape = [0x04, 0xE9, b':', b'7', b'['];
    let mut src = LegacySource::of_version(&tape, 2).unwrap();
    let mut rec = Tape::recording(&mut src).with_max_choices(5);
    // 'é' (233) is above the class: read as before; ':' and '[' are rewritten.
    assert_eq!(g.generate(&mut rec).unwrap(), "LW7t");
    assert_eq!(
        encoding::encode(&rec.finish().choices),
        [0x04, 0xE9, b'W', b'7', b't']
    );
}

#[test]
fn a_store_of_encoding_2_replays_its_text_as_saved_and_is_migrated() {
    use tapefuzz::corpus::{Corpus, Folder, sha1_name};
    let root = temp_dir("migrate-v2");
    let dir = old_store(&root, "v2", "tapefuzz corpus 3\n");
    // Encoding 2: ':' read as 'W' (see above), '[' (91) as 't'; today as 'A' and 'a'.
    let entry = [2u8, b'[', b'0'];
    std::fs::write(dir.join("corpus").join(sha1_name(&entry)), entry).unwrap();
    std::fs::write(
        dir.join("regressions/old.txt"),
        "tapefuzz regression 2\nproperty: v2\nvalue: \"W\"\ntape: 013a\n",
    )
    .unwrap();
    let g = strings(CharClass::alphanumeric(), 0..=5);
    let seen = std::sync::Mutex::new(Vec::new());
    let report = Property::new("v2")
        .corpora(&root)
        .tests(0)
        .run(g.clone(), |s: String| {
            seen.lock().unwrap().push(s.clone());
            s != "W"
        });
    assert!(!report.passed(), "the old regression fails as saved");
    let seen = seen.into_inner().unwrap();
    assert_eq!(seen.first().map(String::as_str), Some("W"), "{seen:?}");
    let fmt = std::fs::read_to_string(dir.join("FORMAT")).unwrap();
    assert!(fmt.starts_with("tapefuzz corpus 4"), "{fmt}");
    let mut corpus = Corpus::open(&dir);
    let values: Vec<String> = corpus
        .load(Folder::Corpus)
        .iter()
        .map(|e| decode(&g, &e.bytes))
        .collect();
    assert_eq!(values, ["t0"]);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_raw_bytes_property_is_mutated_as_bytes() {
    use tapefuzz::fuzz::{SingleRun, crossover, mutate, single_run};
    use tapefuzz::property::property;
    // Each test binary thread has its own layout cache: a thread per property.
    let raw = std::thread::spawn(|| {
        let test = property(bytes(0..=4096), |_v: Vec<u8>| true);
        let layout = single_run(&test);
        // Mutations that append a byte: the header follows the payload's new length.
        let mut data = vec![0u8; 64];
        data[..5].copy_from_slice(&[0, 3, b'a', b'b', b'c']);
        let mut grown = 0;
        for seed in 0..40 {
            let mut d = data.clone();
            let mut append = |b: &mut [u8], size: usize, max: usize| {
                if size < max {
                    b[size] = b'!';
                    size + 1
                } else {
                    size
                }
            };
            let n = mutate(&test, &mut d, 5, 64, seed, &mut append);
            if n == 6 && d[..6] == [0, 4, b'a', b'b', b'c', b'!'] {
                grown += 1;
            }
        }
        // Crossover is declined: libFuzzer's own, among its byte mutations, does it.
        let mut out = [0u8; 32];
        let n = crossover(&test, &[0, 2, 1, 2], &[0, 2, 7, 8], &mut out, 5);
        (layout, grown, n)
    })
    .join()
    .unwrap();
    assert_eq!(
        raw.0,
        Some(SingleRun {
            header: 2,
            min: 0,
            max: 4096
        })
    );
    assert_eq!(raw.1, 40, "a mutation did not go through the payload path");
    assert_eq!(raw.2, 0);
    let mixed = std::thread::spawn(|| {
        let test = property((ints::<u8>(..), bytes(0..=10)), |_v: (u8, Vec<u8>)| true);
        single_run(&test)
    })
    .join()
    .unwrap();
    assert_eq!(mixed, None);
}

#[test]
fn a_run_cap_cuts_runs_and_keeps_the_choices_after_them() {
    use tapefuzz::tape::{Fallback, ReplaySource};
    let g = (bytes(0..=100), ints::<u8>(..), bytes(2..=100));
    // Run of 10 bytes, then 7, then a run of 2 + 5 bytes.
    let mut indices: Vec<u64> = vec![10];
    indices.extend(1..=10);
    indices.push(7);
    indices.push(5);
    indices.extend(20..27);
    let run = |cap: u64| {
        let mut src = ReplaySource::new(indices.clone(), Fallback::Simplest).with_run_cap(cap);
        g.generate(&mut Tape::recording(&mut src)).unwrap()
    };
    assert_eq!(run(3), (vec![1, 2, 3], 7, vec![20, 21, 22, 23, 24]));
    assert_eq!(
        run(u64::MAX),
        (
            (1..=10).collect::<Vec<u8>>(),
            7,
            (20..27).collect::<Vec<u8>>()
        )
    );
    assert_eq!(run(0), (vec![], 7, vec![20, 21]));
}
