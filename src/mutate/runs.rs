//! Payload runs edited as the byte strings they are.

use crate::tape::{Choice, Kind, Recording, Rng};

/// One payload run of a recording: where its length choice is, its bytes, and the bounds of
/// its length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// Position of the length choice; the bytes follow it.
    pub at: usize,
    /// The run's bytes.
    pub bytes: Vec<u8>,
    /// Fewest bytes the run may have.
    pub min: usize,
    /// Most bytes the run may have.
    pub max: usize,
}

/// The payload runs of `rec` ([`crate::tape::Tape::draw_payload`]), in tape order.
pub fn runs(rec: &Recording) -> Vec<Run> {
    rec.spans
        .iter()
        .filter(|s| s.label.kind() == Kind::Payload && s.end > s.start)
        .filter_map(|s| {
            let len = rec.choices[s.start];
            let bytes: Vec<u8> = rec.choices[s.start + 1..s.end]
                .iter()
                .map(|c| c.index as u8)
                .collect();
            let min = bytes.len().checked_sub(len.index as usize)?;
            let max = min.saturating_add(usize::try_from(len.max).unwrap_or(usize::MAX));
            Some(Run {
                at: s.start,
                bytes,
                min,
                max,
            })
        })
        .collect()
}

/// `rec`'s choices with the run at `run.at` holding `bytes` instead (clamped to the run's
/// bounds: cut at its maximum, zero-padded to its minimum), the length choice set to match.
pub fn with_run_bytes(rec: &Recording, run: &Run, bytes: &[u8]) -> Vec<Choice> {
    let mut bytes = bytes[..bytes.len().min(run.max)].to_vec();
    if bytes.len() < run.min {
        bytes.resize(run.min, 0);
    }
    let end = run.at + 1 + run.bytes.len();
    let mut out = Vec::with_capacity(rec.choices.len() + bytes.len());
    out.extend_from_slice(&rec.choices[..run.at]);
    let mut len = rec.choices[run.at];
    len.index = (bytes.len() - run.min) as u64;
    out.push(len);
    let point = rec.choices.get(run.at + 1).map_or(len.point, |c| c.point);
    out.extend(bytes.iter().map(|&b| Choice {
        point,
        max: 255,
        index: u64::from(b),
        forced: false,
        in_run: true,
    }));
    out.extend_from_slice(&rec.choices[end..]);
    out
}

/// A mutant of `rec` that edits one of its payload runs (picked at random) with
/// `mutate_bytes`, which gets the run's bytes and its maximum length and edits them in
/// place (libFuzzer's byte mutator, or [`mutate_bytes`]). `None` when `rec` has no run.
pub fn edit_run(
    rec: &Recording,
    rng: &mut Rng,
    mutate: &mut dyn FnMut(&mut Vec<u8>, usize),
) -> Option<Vec<Choice>> {
    let all = runs(rec);
    if all.is_empty() {
        return None;
    }
    let run = &all[rng.below_or_eq(all.len() as u64 - 1) as usize];
    let mut bytes = run.bytes.clone();
    mutate(&mut bytes, run.max);
    Some(with_run_bytes(rec, run, &bytes))
}

/// A byte-string mutation of libFuzzer's kinds, for engines without libFuzzer: flip a bit,
/// set a byte (often to an interesting value), insert or erase a block, duplicate a block,
/// insert a run of one repeated byte, add a small number to an integer of 1–8 bytes (either
/// byte order), change a decimal number written in the bytes (one more or less, half, twice,
/// or another of at most twice its digits), or copy in one of `words` (comparison operands,
/// magic strings) over or between the bytes. Keeps `bytes` within `max` bytes.
pub fn mutate_bytes(bytes: &mut Vec<u8>, max: usize, words: &[Vec<u8>], rng: &mut Rng) {
    const INTERESTING: [u8; 8] = [0, 1, 0x7f, 0x80, 0xff, b'0', b'a', b' '];
    let n = bytes.len();
    let at = |rng: &mut Rng, n: usize| rng.below_or_eq(n as u64) as usize;
    match rng.below_or_eq(10) {
        0 if n > 0 => {
            let i = at(rng, n - 1);
            bytes[i] ^= 1 << rng.below_or_eq(7);
        }
        1 if n > 0 => {
            let i = at(rng, n - 1);
            bytes[i] = if rng.next_u64() & 1 == 0 {
                INTERESTING[rng.below_or_eq(7) as usize]
            } else {
                rng.below_or_eq(255) as u8
            };
        }
        2 if n > 0 => {
            let i = at(rng, n - 1);
            let k = 1 + at(rng, (n - i).min(16) - 1);
            bytes.drain(i..i + k);
        }
        3 | 4 if !words.is_empty() => {
            let w = &words[rng.below_or_eq(words.len() as u64 - 1) as usize];
            let i = at(rng, n);
            if rng.next_u64() & 1 == 0 {
                // Over the bytes at `i` (growing the run where it ends).
                let end = (i + w.len()).max(n);
                bytes.resize(end, 0);
                bytes[i..i + w.len()].copy_from_slice(w);
            } else {
                put(bytes, i, w, max);
            }
        }
        5 if n > 0 => {
            let i = at(rng, n - 1);
            let k = 1 + at(rng, (n - i).min(32) - 1);
            let block = bytes[i..i + k].to_vec();
            let j = at(rng, n);
            put(bytes, j, &block, max);
        }
        6 => {
            // libFuzzer's InsertRepeatedBytes: 3 to 128 of one byte (0, 0xff or any).
            let k = 3 + at(rng, 125);
            let b = match rng.below_or_eq(3) {
                0 => 0,
                1 => 0xff,
                _ => rng.below_or_eq(255) as u8,
            };
            let i = at(rng, n);
            put(bytes, i, &vec![b; k], max);
        }
        7 if n > 0 => change_binary_integer(bytes, rng),
        8 if n > 0 => {
            if !change_ascii_integer(bytes, max, rng) {
                change_binary_integer(bytes, rng);
            }
        }
        _ => {
            let i = at(rng, n);
            let k = 1 + at(rng, 7);
            let fill: Vec<u8> = (0..k).map(|_| rng.below_or_eq(255) as u8).collect();
            put(bytes, i, &fill, max);
        }
    }
    bytes.truncate(max);
}

/// Puts `new` into `bytes` at `i` (at most its length): inserted, as much of it as fits
/// within `max` bytes (libFuzzer's insertions likewise shrink to the room left); with no
/// room at all, written over the bytes from `i` on (as libFuzzer's CopyPart does at
/// `MaxSize`), so that an insertion into a run at its size limit does not push the run's
/// own last bytes out.
fn put(bytes: &mut Vec<u8>, i: usize, new: &[u8], max: usize) {
    let room = max.saturating_sub(bytes.len());
    if room > 0 {
        let k = new.len().min(room);
        bytes.splice(i..i, new[..k].iter().copied());
        return;
    }
    let end = (i + new.len()).min(max.max(bytes.len()));
    if end > bytes.len() {
        bytes.resize(end, 0);
    }
    bytes[i..end].copy_from_slice(&new[..end - i]);
}

/// libFuzzer's ChangeBinaryInteger: an integer of 1, 2, 4 or 8 bytes at a random place, in
/// either byte order, plus or minus up to 10 (or negated, one time in four). `bytes` is not
/// empty; a width longer than it is cut to fit.
fn change_binary_integer(bytes: &mut [u8], rng: &mut Rng) {
    let width = (1usize << rng.below_or_eq(3)).min(bytes.len());
    let i = rng.below_or_eq((bytes.len() - width) as u64) as usize;
    let mut word = [0u8; 8];
    word[..width].copy_from_slice(&bytes[i..i + width]);
    let big = rng.next_u64() & 1 == 0;
    if big {
        word[..width].reverse();
    }
    let v = u64::from_le_bytes(word);
    let v = if rng.below_or_eq(3) == 0 {
        v.wrapping_neg()
    } else {
        let delta = 1 + rng.below_or_eq(9);
        if rng.next_u64() & 1 == 0 {
            v.wrapping_add(delta)
        } else {
            v.wrapping_sub(delta)
        }
    };
    let mut out = v.to_le_bytes();
    if big {
        out[..width].reverse();
    }
    bytes[i..i + width].copy_from_slice(&out[..width]);
}

/// A variant of libFuzzer's ChangeASCIIInteger: the decimal number (a run of ASCII digits) at
/// or after a random place (or, when there is none after it, the first one) becomes one
/// more, one less, half, twice, or another number of up to twice its digits. Unlike
/// libFuzzer's, the number may get longer (a count or size written in text often has to
/// grow by several digits), as far as `max` bytes allow; past that it keeps its width (the
/// new value's last digits, as libFuzzer writes it). `false` when there is no digit at all.
fn change_ascii_integer(bytes: &mut Vec<u8>, max: usize, rng: &mut Rng) -> bool {
    let from = rng.below_or_eq(bytes.len() as u64 - 1) as usize;
    let Some(start) = (from..bytes.len())
        .chain(0..from)
        .find(|&i| bytes[i].is_ascii_digit())
    else {
        return false;
    };
    // The number's first digit.
    let start = (0..start)
        .rev()
        .take_while(|&i| bytes[i].is_ascii_digit())
        .last()
        .unwrap_or(start);
    let end = (start..bytes.len())
        .find(|&i| !bytes[i].is_ascii_digit())
        .unwrap_or(bytes.len());
    let digits = end - start;
    let v = bytes[start..end].iter().fold(0u64, |v, &d| {
        v.saturating_mul(10).saturating_add(u64::from(d - b'0'))
    });
    let new = match rng.below_or_eq(4) {
        0 => v.saturating_add(1),
        1 => v.saturating_sub(1),
        2 => v / 2,
        3 => v.saturating_mul(2),
        _ => {
            // Another number of up to twice as many digits (libFuzzer: below v * v).
            let most = 10u64.saturating_pow((2 * digits).min(19) as u32);
            rng.below_or_eq(most - 1)
        }
    };
    let mut text = new.to_string().into_bytes();
    if bytes.len() - digits + text.len() > max {
        let keep = text.len().min(digits);
        text = std::iter::repeat_n(b'0', digits - keep)
            .chain(text[text.len() - keep..].iter().copied())
            .collect();
    }
    bytes.splice(start..end, text);
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::{Gen, bytes, ints};
    use crate::tape::{BytesSource, ReplaySource, Tape, encoding};

    fn record(data: &[u8]) -> Recording {
        let g = (ints::<u8>(..), bytes(2..=10), ints::<u8>(..));
        let mut src = BytesSource::new(data);
        let mut t = Tape::recording(&mut src);
        g.generate(&mut t).unwrap();
        t.finish()
    }

    #[test]
    fn runs_are_found_with_their_bounds_and_rewritten() {
        let rec = record(&[7, 1, 5, 6, 8, 9]);
        let all = runs(&rec);
        assert_eq!(
            all,
            [Run {
                at: 1,
                bytes: vec![5, 6, 8],
                min: 2,
                max: 10
            }]
        );
        let g = (ints::<u8>(..), bytes(2..=10), ints::<u8>(..));
        let value = |choices: &[Choice]| {
            let mut src = ReplaySource::of(choices);
            g.generate(&mut Tape::new(&mut src, false)).unwrap()
        };
        let edited = with_run_bytes(&rec, &all[0], b"GIF89a");
        assert_eq!(value(&edited), (7, b"GIF89a".to_vec(), 9));
        // Clamped to the bounds, and what follows the run keeps its value.
        assert_eq!(
            value(&with_run_bytes(&rec, &all[0], &[1])),
            (7, vec![1, 0], 9)
        );
        assert_eq!(
            value(&with_run_bytes(&rec, &all[0], &[3; 20])).1,
            vec![3; 10]
        );
        // The encoding of an edit decodes to it.
        let bytes = encoding::encode(&edited);
        let mut src = BytesSource::new(&bytes);
        assert_eq!(
            g.generate(&mut Tape::new(&mut src, false)).unwrap(),
            (7, b"GIF89a".to_vec(), 9)
        );
    }

    #[test]
    fn byte_mutations_stay_within_the_maximum() {
        let mut rng = Rng::new(3);
        let words = vec![b"MAGIC".to_vec()];
        let mut seen_word = false;
        for _ in 0..2000 {
            let mut b = vec![1, 2, 3, 4];
            mutate_bytes(&mut b, 6, &words, &mut rng);
            assert!(b.len() <= 6);
            seen_word |= b.windows(5).any(|w| w == b"MAGIC");
        }
        assert!(seen_word);
    }

    #[test]
    fn insertions_at_the_size_limit_keep_the_tail() {
        let mut b = b"abcdef".to_vec();
        put(&mut b, 2, b"XY", 8);
        assert_eq!(b, b"abXYcdef");
        // At the limit: written over, the run's length kept.
        put(&mut b, 1, b"12", 8);
        assert_eq!(b, b"a12Ycdef");
        // Some room: as much as fits is inserted.
        let mut b = b"abc".to_vec();
        put(&mut b, 1, b"XYZ", 5);
        assert_eq!(b, b"aXYbc");
        let mut rng = Rng::new(1);
        for _ in 0..2000 {
            let mut b = b"0123456789".to_vec();
            mutate_bytes(&mut b, 10, &[b"WORD".to_vec()], &mut rng);
            assert!(b.len() <= 10);
        }
    }

    #[test]
    fn decimal_numbers_change_as_numbers() {
        let mut rng = Rng::new(5);
        assert!(!change_ascii_integer(
            &mut b"no digits".to_vec(),
            64,
            &mut rng
        ));
        let (mut bigger, mut smaller) = (false, false);
        for _ in 0..500 {
            let mut b = b"age=12;x".to_vec();
            assert!(change_ascii_integer(&mut b, 64, &mut rng));
            let text = String::from_utf8(b).unwrap();
            let n: u64 = text["age=".len()..text.len() - ";x".len()].parse().unwrap();
            assert!(text.starts_with("age=") && text.ends_with(";x"), "{text}");
            assert!(n < 10_000, "{n}");
            bigger |= n == 24 || n == 13;
            smaller |= n == 6 || n == 11;
        }
        assert!(bigger && smaller);
        // Doubling saturates instead of overflowing.
        let mut b = b"99999999999999999999999".to_vec();
        for _ in 0..50 {
            change_ascii_integer(&mut b, 64, &mut rng);
        }
        assert!(b.iter().all(u8::is_ascii_digit));
        // At the size limit the number keeps its width and the bytes after it stay.
        for _ in 0..200 {
            let mut b = b"n=99;x".to_vec();
            change_ascii_integer(&mut b, 6, &mut rng);
            assert_eq!(b.len(), 6);
            assert!(b.starts_with(b"n=") && b.ends_with(b";x"), "{b:?}");
        }
    }

    #[test]
    fn binary_integers_move_by_a_little_in_either_byte_order() {
        let mut rng = Rng::new(9);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..2000 {
            let mut b = vec![0u8, 0, 0, 0];
            change_binary_integer(&mut b, &mut rng);
            seen.insert(b);
        }
        // +1 as a one-byte, big-endian and little-endian integer; -1 over all four bytes.
        for want in [[1u8, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0], [0xff; 4]] {
            assert!(seen.contains(want.as_slice()), "{want:?}");
        }
        let mut one = vec![7u8];
        change_binary_integer(&mut one, &mut rng);
        assert_eq!(one.len(), 1);
    }
}
