//! Seeded random choices.

use super::{DrawContext, Hint, Rng, Source};

/// Draws each choice from a seeded [`Rng`], following the generator's [`Hint`]: coins with
/// their probability; integer-like choices with more than 256 options favour small indices
/// (8 draws in 32 below 256), every scale between (12 in 32 below a power of two from
/// 2^10 to 2^48, one power each, most between 2^10 and 2^24: an index of a moderate size,
/// where a uniform draw from a wide range is almost always near its top), the three largest (1 in 32: the
/// ends of an integer range, whose order ends `…, MAX, -MAX, MIN` for a signed type) and
/// the index drawn last over a range of the same size (1 in 32: a value equal to an
/// earlier one, as a duplicate key or two equal elements need, which uniform draws from a
/// wide range almost never give), the rest (10 in 32) uniform. Over one range that is 8/31
/// of the draws below 256 and 1/31 at the ends in the long run. An integer's index grows
/// with its magnitude (see [`crate::generators::ints`]), so a `u64` or an `i64` is below
/// 2^16 in magnitude about 42% of the time, below 2^32 about 55% (an `i64`: 58%). Float
/// indices and characters of wide classes are drawn the same way, so they too lean to the
/// low indices of their orders.
#[derive(Clone, Debug)]
pub struct RandomSource {
    rng: Rng,
    /// Spare random bits for coins and bias decisions, so most draws cost one RNG call.
    pool: u64,
    pool_bits: u32,
    /// The range (`max`) and index of the last integer-like draw with more than 256 options,
    /// in one of four slots by the range's bit width ([`slot`]: up to 16, 32, 48 and 64
    /// bits), so fields of two widths drawn in turn (a `u64` key and a `u32` value) each
    /// repeat their own; two ranges of one width share a slot, and a repeat is only of the
    /// same `max`.
    last: [(u64, u64); 4],
    /// Payload lengths explore their whole range half the time ([`RandomSource::exploring`]).
    explore: bool,
}

impl RandomSource {
    /// A source for `seed`: the same seed gives the same choices.
    #[inline]
    pub fn new(seed: u64) -> RandomSource {
        RandomSource {
            rng: Rng::new(seed),
            pool: 0,
            pool_bits: 0,
            last: [(0, 0); 4],
            explore: false,
        }
    }

    /// The same source, drawing payload lengths ([`Hint::Length`]) from their whole range
    /// half the time: log-uniform between the minimum and the maximum (a bit length, then a
    /// uniform length of that many bits), so long inputs are as common as short ones. What
    /// the coverage-guided engines use; `cargo test` keeps the geometric lengths of
    /// collections.
    pub fn exploring(mut self) -> RandomSource {
        self.explore = true;
        self
    }

    /// The RNG, for strategies that mix random draws with their own.
    pub fn rng(&mut self) -> &mut Rng {
        &mut self.rng
    }

    /// `k` (at most 32) random bits from the pool.
    #[inline(always)]
    fn bits(&mut self, k: u32) -> u64 {
        if self.pool_bits < k {
            self.pool = self.rng.next_u64();
            self.pool_bits = 64;
        }
        let v = self.pool & ((1 << k) - 1);
        self.pool >>= k;
        self.pool_bits -= k;
        v
    }

    /// The index for a choice with largest index `max` and this hint.
    #[inline(always)]
    pub fn pick(&mut self, max: u64, hint: Hint) -> u64 {
        match hint {
            // `u < ceil(p·2³²)` is `u < p·2³²` for an integer `u`: the coin `coin_threshold`
            // gives, without computing the ceiling (NaN and p <= 0: never; p >= 1: always).
            Hint::Coin(p) => ((self.bits(32) as f64) < p * 4_294_967_296.0) as u64,
            Hint::Int if max > 255 => self.int(max),
            Hint::Length { p_more, .. } => self.length(max, p_more),
            _ => self.rng.below_or_eq(max),
        }
    }

    /// A payload run's extra length in `0..=max`: geometric with `p_more` per element (by
    /// inversion, one RNG call), or when exploring, half the time log-uniform.
    #[inline(never)]
    fn length(&mut self, max: u64, p_more: f64) -> u64 {
        if self.explore && self.bits(1) == 1 {
            let bits = 64 - max.leading_zeros() as u64;
            let k = self.rng.below_or_eq(bits);
            let top = if k >= 64 { u64::MAX } else { (1u64 << k) - 1 };
            return self.rng.below_or_eq(top.min(max));
        }
        if p_more <= 0.0 {
            return 0;
        }
        if p_more >= 1.0 {
            return max;
        }
        // P(extra >= k) = p^k: extra = floor(ln(u) / ln(p)) for u uniform in (0, 1].
        let u = ((self.rng.next_u64() >> 11) as f64 + 1.0) / (1u64 << 53) as f64;
        let extra = (u.ln() / p_more.ln()).floor();
        if extra >= max as f64 {
            max
        } else {
            extra as u64
        }
    }

    /// Appends `len` random bytes (uniform, as `pick(255, _)` makes them) to `out`.
    #[inline]
    pub fn fill_bytes(&mut self, len: usize, out: &mut Vec<u8>) {
        out.reserve(len);
        let mut left = len;
        while left >= 8 {
            out.extend_from_slice(&self.rng.next_u64().to_le_bytes());
            left -= 8;
        }
        if left > 0 {
            out.extend_from_slice(&self.rng.next_u64().to_le_bytes()[..left]);
        }
    }

    /// A coin: 1 when 32 random bits fall below `threshold` (see [`coin_threshold`]).
    #[inline(always)]
    pub fn coin(&mut self, threshold: u64) -> u64 {
        (self.bits(32) < threshold) as u64
    }

    /// An integer-like index in `0..=max` (`max > 255`): uniform, except that 8 draws in 32
    /// keep only the low byte (an index below 256), 12 in 32 only the low bits of one of
    /// the scales of the type's docs, 1 in 32 is one of the three largest and 1 in 32
    /// repeats the last such index drawn over the same range (when there is one).
    /// The small and large cases reuse bits of the uniform draw and the choice between them
    /// is a select, not a branch: the bias is what finds edge-case bugs, and this keeps its
    /// cost to 5 pooled bits.
    #[inline(always)]
    pub fn int(&mut self, max: u64) -> u64 {
        let mut last = self.last[slot(max)];
        let v = self.int_after(max, &mut last);
        self.last[slot(max)] = last;
        v
    }

    /// [`RandomSource::int`] with the last draw over `max`'s range held by the caller (see
    /// [`RandomSource::last_int`]): a loop over one range keeps it in a register.
    #[inline(always)]
    pub(crate) fn int_after(&mut self, max: u64, last: &mut (u64, u64)) -> u64 {
        let r = self.rng.below_or_eq(max);
        let kind = self.bits(5);
        Self::repeat(last, Self::bias(r, kind, max), kind, max)
    }

    /// The biased index `v` (see [`RandomSource::bias`]), or for [`REPEAT`] the index drawn
    /// last over the same range; remembered in `last` as the last draw.
    #[inline(always)]
    pub(crate) fn repeat(last: &mut (u64, u64), v: u64, kind: u64, max: u64) -> u64 {
        let v = if kind == REPEAT && last.0 == max {
            last.1
        } else {
            v
        };
        *last = (max, v);
        v
    }

    /// `n` draws of [`RandomSource::int_after`] in turn over one range whose last draw was
    /// `prev`, each index handed to `each`; returns the last index (`prev` when `n` is 0).
    /// The same draws in the same order, with
    /// the pool kept in registers: the indices the pool's bits can serve are drawn without a
    /// refill check each, and a full-width range (`max == u64::MAX`, every `u64` and `i64`)
    /// without the rejection test.
    #[inline(always)]
    pub(crate) fn int_run_same(
        &mut self,
        n: usize,
        max: u64,
        prev: u64,
        each: impl FnMut(u64),
    ) -> u64 {
        if max == u64::MAX {
            self.int_run_with(n, max, prev, |rng| rng.next_u64(), each)
        } else {
            self.int_run_with(n, max, prev, |rng| rng.below_or_eq(max), each)
        }
    }

    #[inline(always)]
    fn int_run_with(
        &mut self,
        n: usize,
        max: u64,
        mut prev: u64,
        uniform: impl Fn(&mut Rng) -> u64,
        mut each: impl FnMut(u64),
    ) -> u64 {
        let mut rng = self.rng.clone();
        let (mut pool, mut bits) = (self.pool, self.pool_bits);
        let mut left = n;
        let mut step = |r: u64, kind: u64, prev: &mut u64| {
            let v = Self::bias(r, kind, max);
            let v = if kind == REPEAT { *prev } else { v };
            *prev = v;
            each(v);
        };
        while left > 0 {
            // The draws the pool serves as it stands: 5 bits each.
            let here = ((bits / 5) as usize).min(left);
            for _ in 0..here {
                let r = uniform(&mut rng);
                let kind = pool & 31;
                pool >>= 5;
                step(r, kind, &mut prev);
            }
            bits -= 5 * here as u32;
            left -= here;
            if left == 0 {
                break;
            }
            // The next draw finds the pool short: its uniform value first, then a fresh word.
            let r = uniform(&mut rng);
            let word = rng.next_u64();
            step(r, word & 31, &mut prev);
            pool = word >> 5;
            bits = 59;
            left -= 1;
        }
        self.rng = rng;
        self.pool = pool;
        self.pool_bits = bits;
        prev
    }

    /// The last integer-like draw over `max`'s slot (range and index), for a loop over one
    /// range that keeps it in registers.
    #[inline(always)]
    pub(crate) fn last_int(&self, max: u64) -> (u64, u64) {
        self.last[slot(max)]
    }

    /// Sets the last integer-like draw of `max`'s slot (see [`RandomSource::last_int`]).
    #[inline(always)]
    pub(crate) fn set_last_int(&mut self, max: u64, last: (u64, u64)) {
        self.last[slot(max)] = last;
    }

    /// The biased integer index from a uniform `r` in `0..=max` and 5 random bits `kind`:
    /// kind 0 takes one of the three largest (the largest half the time), kinds 1..=8 keep
    /// the low byte of `r`, kinds 10..=21 its low [`SCALES`] bits, the rest keep `r`
    /// ([`REPEAT`] is applied after, by [`RandomSource::repeat`]).
    #[inline(always)]
    pub(crate) fn bias(r: u64, kind: u64, max: u64) -> u64 {
        const KEEP: [u64; 32] = {
            let mut t = [u64::MAX; 32];
            let mut k = 1;
            while k <= 8 {
                t[k] = 0xff;
                k += 1;
            }
            let mut j = 0;
            while j < SCALES.len() {
                t[10 + j] = (1u64 << SCALES[j]) - 1;
                j += 1;
            }
            t
        };
        let end = max - (((r & 3) * 3) >> 2);
        let v = r & KEEP[(kind & 31) as usize];
        if kind == 0 { end } else { v }
    }

    /// Random bits left in the pool.
    #[inline(always)]
    pub(crate) fn pool_bits(&self) -> u32 {
        self.pool_bits
    }

    /// Sets the pool to the low `bits` bits of `pool` (the rest must be zero).
    #[inline(always)]
    pub(crate) fn set_pool(&mut self, pool: u64, bits: u32) {
        self.pool = pool;
        self.pool_bits = bits;
    }
}

/// Where the last draw over the range `max` (above 255) is kept: by its bit width, 9 to 16
/// bits in slot 0, up to 32 in 1, up to 48 in 2, up to 64 in 3.
#[inline(always)]
fn slot(max: u64) -> usize {
    ((63 - (max | 1).leading_zeros()) >> 4) as usize
}

/// The bias kind (of 32) that repeats the last integer-like index drawn over the same range.
pub(crate) const REPEAT: u64 = 9;

/// The bit widths that bias kinds 10..=21 cut a uniform index to, one kind each: magnitudes
/// spread over every scale from about a thousand to 2^48, most densely between 2^10 and
/// 2^24 (the sizes, counts, offsets and limits a program compares with). A uniform draw
/// from a wide range is almost always near its top (a `u64` of 19 digits), so without these
/// a value such as 5,000 or 70,000 would come up about never: bugs at a moderate threshold
/// were found only by chance, and a failure started shrinking from a 19-digit number where a
/// few digits would do (Hypothesis's integers spread their magnitudes the same way). The
/// uniform draws that stay (10 in 32) keep overflows and values near a type's ends common.
const SCALES: [u32; 12] = [10, 12, 14, 16, 17, 18, 20, 22, 24, 32, 40, 48];

/// The 32-bit threshold below which a coin with probability `p` comes up 1: exactly
/// `ceil(p · 2³²)`, clamped to `0..=2³²`.
#[inline(always)]
pub fn coin_threshold(p: f64) -> u64 {
    let t = p * 4_294_967_296.0;
    if t >= 4_294_967_296.0 {
        1 << 32
    } else if t > 0.0 {
        // `ceil` without the libm call (no SSE4.1 in the baseline target).
        let floor = t as u64;
        floor + ((floor as f64) < t) as u64
    } else {
        0
    }
}

impl Source for RandomSource {
    #[inline]
    fn draw(&mut self, ctx: &DrawContext<'_>) -> u64 {
        self.pick(ctx.max, ctx.hint)
    }
    fn as_random(&mut self) -> Option<&mut RandomSource> {
        Some(self)
    }
    fn is_random(&self) -> bool {
        true
    }
    fn fill_run(&mut self, len: usize, out: &mut Vec<u8>) -> bool {
        self.fill_bytes(len, out);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The batched run draws exactly what `int_after` draws one at a time, and leaves the
    /// pool and the generator where they would be: every pool level from 0 to 64 bits, full
    /// and narrow ranges.
    #[test]
    fn an_int_run_is_its_draws_one_at_a_time() {
        for max in [u64::MAX, 1000, (1 << 40) + 7] {
            for level in 0..=64u32 {
                for n in [0, 1, 2, 11, 12, 13, 50] {
                    let mut a = RandomSource::new(u64::from(level) * 31 + n as u64);
                    let word = a.rng.next_u64();
                    a.set_pool(word.checked_shr(64 - level).unwrap_or(0), level);
                    let mut b = a.clone();
                    let mut last = (max, 17);
                    let one_by_one: Vec<u64> =
                        (0..n).map(|_| a.int_after(max, &mut last)).collect();
                    let mut run = Vec::new();
                    let prev = b.int_run_same(n, max, 17, |v| run.push(v));
                    assert_eq!(run, one_by_one, "max {max}, level {level}, n {n}");
                    assert_eq!(prev, last.1);
                    assert_eq!((a.pool, a.pool_bits), (b.pool, b.pool_bits));
                    assert_eq!(a.rng.next_u64(), b.rng.next_u64());
                }
            }
        }
    }

    #[test]
    fn coin_threshold_is_the_ceiling() {
        let mut rng = Rng::new(9);
        let mut ps = vec![0.0, 1.0, 0.5, 1e-12, 1.0 - 1e-12, -1.0, 2.0, 50.0 / 51.0];
        ps.extend((0..10_000).map(|_| rng.next_u64() as f64 / u64::MAX as f64));
        for p in ps {
            let want = (p * 4_294_967_296.0).ceil().clamp(0.0, 4_294_967_296.0) as u64;
            assert_eq!(coin_threshold(p), want, "p = {p}");
        }
    }

    #[test]
    fn a_coin_is_its_threshold() {
        let mut ps = vec![
            0.0,
            1.0,
            0.5,
            1e-12,
            1.0 - 1e-12,
            -1.0,
            2.0,
            50.0 / 51.0,
            f64::NAN,
        ];
        let mut rng = Rng::new(3);
        ps.extend((0..2_000).map(|_| rng.next_u64() as f64 / u64::MAX as f64));
        for (k, p) in ps.into_iter().enumerate() {
            let (mut a, mut b) = (RandomSource::new(k as u64), RandomSource::new(k as u64));
            for _ in 0..64 {
                assert_eq!(
                    a.pick(1, Hint::Coin(p)),
                    b.coin(coin_threshold(p)),
                    "p = {p}"
                );
            }
        }
        // At the edges of the threshold itself.
        for t in [0u64, 1, 2, 1 << 31, (1 << 32) - 1, 1 << 32] {
            let p = t as f64 / 4_294_967_296.0;
            for u in [t.saturating_sub(1), t, t + 1] {
                if u < (1 << 32) {
                    assert_eq!((u as f64) < p * 4_294_967_296.0, u < coin_threshold(p));
                }
            }
        }
    }

    #[test]
    fn integer_bias_frequencies() {
        // 8 in 32 below 256, 12 in 32 below one of the scales, 1 in 32 among the three
        // largest, 1 in 32 the last again, the rest uniform: in the long run a share of
        // the 31 kinds that are not a repeat.
        let below = |bits: u32| {
            let kinds = 8.0 * if bits >= 8 { 1.0 } else { 0.0 }
                + (SCALES.iter())
                    .map(|&s| 2f64.powi(bits.min(s) as i32 - s as i32))
                    .sum::<f64>()
                + 10.0 * 2f64.powi(bits as i32 - 64);
            kinds / 31.0
        };
        let mut src = RandomSource::new(4);
        let max = u64::MAX;
        let n = 320_000;
        let (mut small, mut short, mut half, mut end) = (0, 0, 0, 0);
        for _ in 0..n {
            let v = src.int(max);
            small += (v < 256) as u32;
            short += (v < 1 << 16) as u32;
            half += (v < 1 << 32) as u32;
            end += (v >= max - 2) as u32;
        }
        let near = |x: u32, want: f64| (x as f64 / n as f64 - want).abs() < 0.005;
        assert!(near(small, below(8)), "small {small}");
        assert!(near(short, below(16)), "short {short}: {}", below(16));
        assert!(near(half, below(32)), "half {half}: {}", below(32));
        assert!(near(end, 1.0 / 31.0), "end {end}");
    }

    #[test]
    fn one_integer_draw_in_32_repeats_the_last_over_its_range() {
        let n = 320_000;
        // Over one range: equal to the draw before 1 in 32 times (chance collisions of the
        // small kinds add about 0.1%).
        let mut src = RandomSource::new(5);
        let mut last = src.int(1 << 40);
        let mut same = 0;
        for _ in 0..n {
            let v = src.int(1 << 40);
            same += (v == last) as u32;
            last = v;
        }
        let share = same as f64 / n as f64;
        assert!((share - 1.0 / 32.0).abs() < 0.004, "repeats {share}");
        // The common widths each have a slot of their own.
        let widths = [u16::MAX as u64, u32::MAX as u64, (1 << 48) - 1, u64::MAX];
        for (i, &a) in widths.iter().enumerate() {
            assert_eq!(slot(a), i);
            assert_eq!(slot(a / 2 + 1), i, "{a}");
        }
        assert_eq!(slot(256), 0);
        // Two ranges drawn in turn (a `u32` value and a `u64` key): each repeats its own
        // last draw 1 time in 32, and the other's about never.
        let mut src = RandomSource::new(5);
        let (mut last_narrow, mut last_wide) = (src.int(u32::MAX as u64), src.int(u64::MAX));
        let (mut same_narrow, mut same_wide, mut crossed) = (0, 0, 0);
        for _ in 0..n {
            let (narrow, wide) = (src.int(u32::MAX as u64), src.int(u64::MAX));
            same_narrow += (narrow == last_narrow) as u32;
            same_wide += (wide == last_wide) as u32;
            crossed += (wide == last_narrow && wide >= 256) as u32;
            (last_narrow, last_wide) = (narrow, wide);
        }
        for same in [same_narrow, same_wide] {
            let share = same as f64 / n as f64;
            assert!((share - 1.0 / 32.0).abs() < 0.004, "repeats {share}");
        }
        assert!(crossed < 10, "{crossed} draws repeat the other range's");
    }
}
