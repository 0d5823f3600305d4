//! Payload runs (byte vectors): a length choice, then one choice per byte. Deleting bytes
//! means lowering the length with them, which no span deletion does (the bytes are not
//! spans of their own), so these passes edit both together (and move length from one run to
//! another).

use super::super::Shrinker;
use super::super::search::{find_integer, find_integer_between, find_integer_hinted};
use crate::tape::{Choice, Kind, Span};

/// `base` with `n` bytes deleted from the run whose length choice is at `at`, starting at
/// byte position `from` (a choice index), and the length lowered by `n`.
pub(super) fn cut(base: &[Choice], at: usize, from: usize, n: usize) -> Vec<Choice> {
    splice(base, at, from, n, &[])
}

/// `base` with the `n` bytes of the run at `at` from byte position `from` on replaced by the
/// bytes `with` (at most `n` of them, made like the byte they replace), and the run's
/// length lowered by what it lost.
pub(super) fn splice(
    base: &[Choice],
    at: usize,
    from: usize,
    n: usize,
    with: &[u8],
) -> Vec<Choice> {
    debug_assert!(with.len() <= n, "a splice never lengthens the run");
    let mut v = Vec::with_capacity(base.len() - n + with.len());
    v.extend_from_slice(&base[..at]);
    let mut len = base[at];
    len.index -= (n - with.len()) as u64;
    v.push(len);
    v.extend_from_slice(&base[at + 1..from]);
    if let Some(&template) = with.first().and(base.get(from)) {
        v.extend(with.iter().map(|&b| Choice {
            index: u64::from(b),
            ..template
        }));
    }
    v.extend_from_slice(&base[from + n..]);
    v
}

/// Deletes bytes from every payload run: first edits equal runs together
/// ([`Shrinker::shrink_twin_runs`]), then tries every byte at 0, then the longest tail that
/// can go (probed from both ends, [`find_integer_between`]), then from each position blocks
/// of 1, 2, 3, 4, then doubling bytes ([`find_integer`]), as
/// [`super::delete::delete_spans`] deletes list elements.
pub(in crate::shrink) fn delete_run_bytes(s: &mut Shrinker<'_>) {
    let mut k = 0;
    while k < s.spans().len() && !s.stopped() {
        let span = s.spans()[k];
        k += 1;
        if span.label.kind() != Kind::Payload || span.end <= span.start + 1 {
            continue;
        }
        let at = span.start;
        if s.choices()[at].forced || s.choices()[at].index == 0 {
            continue;
        }
        // Equal runs first, edited together (as Hypothesis minimizes duplicated choices
        // before single ones): two strings that must stay equal survive no edit of one.
        while !s.stopped() && s.shrink_twin_runs(at) {}
        let Some(span) = s.payload_at(at) else {
            continue;
        };
        if s.choices()[at].index == 0 {
            continue;
        }
        // Every byte at its simplest, the length kept: one call that, when the failure
        // needs only the run's length or repeated bytes, leaves the deletions below nothing
        // to tell apart (as Hypothesis's collection shrinker tries all-simplest first).
        let (first, end) = (at + 1, span.end);
        if s.choices()[first..end]
            .iter()
            .any(|c| c.index != 0 && !c.forced)
        {
            let mut zeroed = s.choices().to_vec();
            for c in &mut zeroed[first..end] {
                if !c.forced {
                    c.index = 0;
                }
            }
            s.consider(&zeroed);
        }
        // The tail: the most bytes that can go from the end.
        let base = s.choices().to_vec();
        let Some(end) = (s.spans().iter())
            .find(|t| t.start == at && t.label.kind() == Kind::Payload)
            .map(|t| t.end)
        else {
            continue;
        };
        // Searched from both ends: a failure needs a few bytes of a long run (the most go),
        // or its last bytes (few go).
        let most = (base[at].index as usize).min(end - first);
        find_integer_between(most as u64, |n| {
            s.consider(&cut(&base, at, end - n as usize, n as usize))
        });
        // Blocks from each position, front to back; the run shrinks under us, so its end
        // is read again after each success.
        let mut pos = at + 1;
        loop {
            if s.stopped() {
                return;
            }
            let base = s.choices().to_vec();
            let Some(span) = s
                .spans()
                .iter()
                .find(|t| t.start == at && t.label.kind() == Kind::Payload)
                .copied()
            else {
                break;
            };
            if pos >= span.end || base[at].index == 0 {
                break;
            }
            let room = (span.end - pos).min(base[at].index as usize);
            let gone = find_integer(|n| {
                let n = n as usize;
                n <= room && s.consider(&cut(&base, at, pos, n))
            });
            if gone == 0 {
                pos += 1;
            }
        }
    }
}

impl Shrinker<'_> {
    /// The payload run whose length choice is at `at`, if there is one.
    pub(super) fn payload_at(&self, at: usize) -> Option<Span> {
        let spans = self.spans();
        let from = spans.partition_point(|t| t.start < at);
        (spans[from..].iter())
            .take_while(|t| t.start == at)
            .find(|t| t.label.kind() == Kind::Payload)
            .copied()
    }

    /// The run at `at` and every other run with its label and the same choices, disjoint
    /// from it, in tape order (just the run when it has no twin).
    pub(super) fn twin_runs(&self, at: usize) -> Vec<Span> {
        let Some(run) = self.payload_at(at) else {
            return Vec::new();
        };
        let choices = self.choices();
        let same = |t: &Span| {
            t.label == run.label
                && t.len() == run.len()
                && t.end <= choices.len()
                && (t.end <= run.start || t.start >= run.end)
                && choices[t.start..t.end]
                    .iter()
                    .zip(&choices[run.start..run.end])
                    .all(|(a, b)| a.index == b.index)
        };
        let mut runs = vec![run];
        for t in self.spans() {
            if same(t) && runs.iter().all(|r| t.end <= r.start || t.start >= r.end) {
                runs.push(*t);
            }
        }
        runs.sort_by_key(|r| r.start);
        runs
    }

    /// One edit of the run at `at` together with its twins ([`Shrinker::twin_runs`]): every
    /// byte at its simplest in all of them, else the same bytes deleted from all. True when
    /// one was accepted; false at once for a run without twins, or with one before it.
    fn shrink_twin_runs(&mut self, at: usize) -> bool {
        let runs = self.twin_runs(at);
        // A twin before the run had its turn already (its edits move this run).
        if runs.len() < 2
            || runs[0].start != at
            || runs.iter().any(|r| self.choices()[r.start].forced)
        {
            return false;
        }
        let mut zeroed = self.choices().to_vec();
        let mut changed = false;
        for r in &runs {
            for c in &mut zeroed[r.start + 1..r.end] {
                if !c.forced && c.index != 0 {
                    c.index = 0;
                    changed = true;
                }
            }
        }
        (changed && self.consider(&zeroed)) || self.cut_runs_together(&runs)
    }

    /// Deletes the same bytes from every one of `runs` (equal payload runs, in tape order):
    /// the longest tail that can go, then blocks from each position. Two strings that must
    /// stay equal survive no deletion from one alone. True when a deletion was accepted.
    pub(super) fn cut_runs_together(&mut self, runs: &[Span]) -> bool {
        let at = runs[0].start;
        let bytes = runs[0].len() - 1;
        let most = (self.choices()[at].index as usize).min(bytes);
        if most == 0 || runs.iter().any(|r| self.choices()[r.start].forced) {
            return false;
        }
        let base = self.choices().to_vec();
        // `n` bytes from byte `from` on deleted in every run, later runs first so that the
        // earlier ones' positions stay put.
        let cut_all = |from: usize, n: usize| {
            let mut v = base.clone();
            for r in runs.iter().rev() {
                v = cut(&v, r.start, r.start + 1 + from, n);
            }
            v
        };
        if find_integer_between(most as u64, |n| {
            self.consider(&cut_all(bytes - n as usize, n as usize))
        }) > 0
        {
            return true;
        }
        for from in 0..bytes {
            if self.stopped() {
                return false;
            }
            let room = (bytes - from).min(most);
            if find_integer(|n| {
                let n = n as usize;
                n <= room && self.consider(&cut_all(from, n))
            }) > 0
            {
                return true;
            }
        }
        false
    }
}

/// How many later runs with its label [`move_run_length`] tries to move a run's length into.
const LENGTH_PARTNERS: usize = 2;

/// `base` with the run whose length choice is at `a` (its bytes up to `a_end`) `d` bytes
/// shorter at its end, and the later run at `b` (bytes up to `b_end`) `d` bytes longer, the
/// new bytes at its end at their simplest (made like `template`, a byte of a run).
fn moved_length(
    base: &[Choice],
    (a, a_end): (usize, usize),
    (b, b_end): (usize, usize),
    d: usize,
    template: Choice,
) -> Vec<Choice> {
    let mut v = Vec::with_capacity(base.len());
    v.extend_from_slice(&base[..a_end - d]);
    v[a].index -= d as u64;
    v.extend_from_slice(&base[a_end..b_end]);
    let at_b = b - d;
    v[at_b].index += d as u64;
    v.extend(std::iter::repeat_n(
        Choice {
            index: 0,
            ..template
        },
        d,
    ));
    v.extend_from_slice(&base[b_end..]);
    v
}

/// Moves length from a payload run to a later run with the same label (two strings or byte
/// vectors whose total length must stay large): the earlier run's last bytes go, and as
/// many bytes at their simplest are added at the end of the later one, so that the earlier
/// run, which comes first in the order of tapes, gets shorter (`("aaaa", "aaaaaaaaa")` with
/// a total of 13 to keep: `("aaa", "aaaaaaaaaa")`). No single edit does it: the earlier run
/// alone shorter loses the failure, the later alone longer is a longer tape. The amount is
/// searched from 1 up (1 to 4, then all the earlier run's extra length, then doubling); a
/// text run's length counts bytes, so the later run's room is in bytes too, and bytes past
/// the characters it may hold are cut by its generator (that candidate then only shortens
/// the earlier run, which the deletion passes tried). A last resort: a call per pair of
/// runs where nothing moves.
pub(in crate::shrink) fn move_run_length(s: &mut Shrinker<'_>) {
    let mut k = 0;
    while k < s.spans().len() && !s.stopped() {
        let run = s.spans()[k];
        k += 1;
        let a = run.start;
        if run.label.kind() != Kind::Payload
            || run.end <= a + 1
            || !s.free(a)
            || s.choices()[a].index == 0
        {
            continue;
        }
        let partners: Vec<Span> = (s.spans()[k..].iter())
            .filter(|t| t.label == run.label && t.start >= run.end && s.free(t.start))
            .take(LENGTH_PARTNERS)
            .copied()
            .collect();
        for other in partners {
            let base = s.choices().to_vec();
            let (b, b_end) = (other.start, other.end);
            let (la, lb) = (base[a].index, base[b].index);
            let room = base[b].max - lb;
            // At most the earlier run's own extra length, and its bytes.
            let most = la.min(room).min((run.end - a - 1) as u64);
            if most == 0 {
                continue;
            }
            let template = base[run.end - 1];
            let try_d = |d: u64| {
                d <= most && {
                    let v = moved_length(&base, (a, run.end), (b, b_end), d as usize, template);
                    s.consider(&v)
                }
            };
            if find_integer_hinted(most, room.min(most), try_d) > 0 {
                // The spans moved: on with the next span; the shrinker comes back to this
                // run (and its other partner) in its next round.
                break;
            }
        }
    }
}

/// How far apart (in bytes) the two bytes [`delete_run_pairs`] deletes together may be.
const BYTE_PAIR_REACH: usize = 3;

/// Deletes two bytes of a payload run together (the length two lower) where neither can go
/// alone: the brackets of `(x)`, a quote and its closing quote. Not side by side (a block
/// of two, which `delete_run_bytes` tries) but two or three apart ([`BYTE_PAIR_REACH`]), as
/// `delete_pairs` deletes two sibling spans; a byte of a character of several bytes is left
/// to `shrink_run_chars`. A last resort: at most two calls per byte, once the cheaper
/// passes are stuck.
pub(in crate::shrink) fn delete_run_pairs(s: &mut Shrinker<'_>) {
    let mut k = 0;
    while k < s.spans().len() && !s.stopped() {
        let span = s.spans()[k];
        k += 1;
        // (The length, then at least three bytes: a pair two apart.)
        if span.label.kind() != Kind::Payload || span.end < span.start + 4 {
            continue;
        }
        let at = span.start;
        let mut p = at + 1;
        // The run shrinks under us: its span is read again after each success.
        'bytes: while let Some(run) = s.payload_at(at) {
            if s.stopped() || p + 1 >= run.end || s.choices()[at].index < 2 {
                break;
            }
            if s.free(p) {
                // (Two bytes side by side are a block `delete_run_bytes` tried.)
                for q in p + 2..(p + 1 + BYTE_PAIR_REACH).min(run.end) {
                    if !s.free(q) {
                        continue;
                    }
                    let mut v = s.choices().to_vec();
                    v.remove(q);
                    v.remove(p);
                    v[at].index -= 2;
                    if s.consider(&v) {
                        continue 'bytes;
                    }
                }
            }
            p += 1;
        }
    }
}
