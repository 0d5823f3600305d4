//! The simplicity order of floats past the small integers: a bijection between codes and bit
//! patterns that puts short fractions first (after Hypothesis's float encoding).
//!
//! A code's lowest bit is the sign (positive first); the rest is an exponent rank, then the
//! mantissa's bits rearranged. Exponent ranks: values in `[0.5, 1)` first, then `[1, 2)`,
//! `[2, 4)`, … up to the largest, then `[0.25, 0.5)`, `[0.125, 0.25)`, … down to the
//! subnormals, and last the exponent of infinities and NaNs. Within one exponent, the
//! mantissa's fraction bits are reversed and placed above its integer bits, so every integer
//! of the binade comes first (ascending), then every value with one fraction bit (`.5`), then
//! `.25` and `.75`, and so on: `10.5` before `10.25`, both after every integer from 8 to 15.

/// The widths of a float type's fields.
#[derive(Clone, Copy, Debug)]
pub(super) struct Layout {
    /// Mantissa bits (52 for `f64`, 23 for `f32`).
    mantissa: u32,
    /// Exponent bits (11, 8).
    exponent: u32,
}

/// `f64`'s fields.
pub(super) const F64: Layout = Layout {
    mantissa: 52,
    exponent: 11,
};
/// `f32`'s fields.
pub(super) const F32: Layout = Layout {
    mantissa: 23,
    exponent: 8,
};

impl Layout {
    fn bias(self) -> i64 {
        (1 << (self.exponent - 1)) - 1
    }
    fn max_biased(self) -> u64 {
        (1 << self.exponent) - 1
    }
    /// Integer bits of the mantissa at biased exponent `b`.
    fn int_bits(self, b: u64) -> u32 {
        (b as i64 - self.bias()).clamp(0, self.mantissa as i64) as u32
    }
    /// The exponent rank of biased exponent `b` (see the module docs).
    fn rank(self, b: u64) -> u64 {
        let e = b as i64 - self.bias();
        if b == self.max_biased() {
            b
        } else if e == -1 {
            0
        } else if e >= 0 {
            e as u64 + 1
        } else {
            // e = −2 → bias + 2 (right after the largest finite exponent's rank, bias + 1).
            (self.bias() - e) as u64
        }
    }
    /// The biased exponent of rank `r`.
    fn biased(self, r: u64) -> u64 {
        let bias = self.bias() as u64;
        if r == self.max_biased() {
            r
        } else if r == 0 {
            bias - 1
        } else if r <= bias + 1 {
            bias + r - 1
        } else {
            // r = bias − e, e = bias − r, biased = e + bias = 2·bias − r.
            2 * bias - r
        }
    }
}

/// The low `n` bits of `x`, reversed.
fn reverse(x: u64, n: u32) -> u64 {
    if n == 0 {
        0
    } else {
        x.reverse_bits() >> (64 - n)
    }
}

/// The bit pattern of code `j` (the sign in its lowest bit).
pub(super) fn bits_of_code(j: u64, l: Layout) -> u64 {
    let m = l.mantissa;
    let sign = j & 1;
    let rest = j >> 1;
    let b = l.biased((rest >> m) & l.max_biased());
    let mc = rest & ((1 << m) - 1);
    let ni = l.int_bits(b);
    let nf = m - ni;
    let int_part = mc & ((1u64 << ni) - 1);
    let frac = reverse(mc >> ni, nf);
    let mantissa = (int_part << nf) | frac;
    (sign << (m + l.exponent)) | (b << m) | mantissa
}

/// The code of bit pattern `bits` (the inverse of [`bits_of_code`]).
pub(super) fn code_of_bits(bits: u64, l: Layout) -> u64 {
    let m = l.mantissa;
    let sign = (bits >> (m + l.exponent)) & 1;
    let b = (bits >> m) & l.max_biased();
    let mantissa = bits & ((1 << m) - 1);
    let ni = l.int_bits(b);
    let nf = m - ni;
    let int_part = mantissa >> nf;
    let frac = mantissa & ((1u64 << nf) - 1);
    let mc = (reverse(frac, nf) << ni) | int_part;
    (((l.rank(b) << m) | mc) << 1) | sign
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(j: u64) -> f64 {
        f64::from_bits(bits_of_code(j, F64))
    }

    #[test]
    fn short_fractions_and_positive_values_first() {
        assert_eq!(f(0), 0.5);
        assert_eq!(f(1), -0.5);
        assert_eq!(f(2), 0.75);
        // [1, 2): 1.0, then 1.5, then 1.25, 1.75.
        let one = code_of_bits(1f64.to_bits(), F64);
        assert_eq!(
            [f(one), f(one + 2), f(one + 4), f(one + 6)],
            [1.0, 1.5, 1.25, 1.75]
        );
        // [8, 16): the integers, then the halves.
        let eight = code_of_bits(8f64.to_bits(), F64);
        let seq: Vec<f64> = (0..10).map(|k| f(eight + 2 * k)).collect();
        assert_eq!(
            seq,
            [8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 8.5, 9.5]
        );
        // Larger binades after smaller ones, tiny values after every large one.
        assert!(code_of_bits(1e300f64.to_bits(), F64) < code_of_bits(0.3f64.to_bits(), F64));
        assert!(f64::from_bits(bits_of_code(u64::MAX, F64)).is_nan());
    }

    #[test]
    fn codes_and_bit_patterns_are_a_bijection() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            assert_eq!(code_of_bits(bits_of_code(x, F64), F64), x);
            assert_eq!(bits_of_code(code_of_bits(x, F64), F64), x);
            let y = x & 0xffff_ffff;
            assert_eq!(code_of_bits(bits_of_code(y, F32), F32), y);
            assert_eq!(bits_of_code(code_of_bits(y, F32), F32), y);
        }
        for v in [
            0.0f64,
            -0.0,
            1.0,
            f64::MIN_POSITIVE,
            5e-324,
            f64::MAX,
            f64::MIN,
        ] {
            assert_eq!(
                bits_of_code(code_of_bits(v.to_bits(), F64), F64),
                v.to_bits()
            );
        }
    }
}
