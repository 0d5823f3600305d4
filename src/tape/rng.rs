//! The seeded random number generator behind random sources.

/// A reproducible RNG: wyrand (the generator of the `fastrand` crate), a 64-bit Weyl counter
/// folded through a 128-bit multiply. The same seed gives the same stream on every platform
/// and build. Chosen for the hot path: one register of state and a one-cycle dependency
/// chain, so draws overlap; its output passes BigCrush and PractRand, which is more than
/// test-case generation needs.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// An RNG for `seed`.
    #[inline]
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// 64 random bits.
    #[inline(always)]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0xa076_1d64_78bd_642f);
        let t = u128::from(self.0) * u128::from(self.0 ^ 0xe703_7ed1_a0b4_28db);
        (t as u64) ^ (t >> 64) as u64
    }

    /// Uniform in `0..=max` (Lemire's multiply-shift with rejection; no modulo bias).
    #[inline(always)]
    pub fn below_or_eq(&mut self, max: u64) -> u64 {
        if max == u64::MAX {
            return self.next_u64();
        }
        let n = max + 1;
        let mut m = (self.next_u64() as u128) * (n as u128);
        if (m as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = (self.next_u64() as u128) * (n as u128);
            }
        }
        (m >> 64) as u64
    }

    /// True with probability `p`.
    #[inline]
    pub fn chance(&mut self, p: f64) -> bool {
        ((self.next_u64() >> 11) as f64) < p * (1u64 << 53) as f64
    }

    /// Fills `buf` with random bytes.
    pub fn fill(&mut self, buf: &mut [u8]) {
        let mut chunks = buf.chunks_exact_mut(8);
        for chunk in &mut chunks {
            chunk.copy_from_slice(&self.next_u64().to_le_bytes());
        }
        let rest = chunks.into_remainder();
        if !rest.is_empty() {
            let n = rest.len();
            rest.copy_from_slice(&self.next_u64().to_le_bytes()[..n]);
        }
    }
}

impl Rng {
    /// The seed of test `i` of a run with seed `seed` (SplitMix64's finaliser: independent
    /// per-test seeds from one run seed).
    #[inline]
    pub fn derive(seed: u64, i: u64) -> u64 {
        let mut z = seed.wrapping_add(i.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}
