//! Direct constructions that reach the best known sizes exactly where they apply: Bush's
//! orthogonal arrays over a finite field, and the binary arrays of Katona and
//! Kleitman–Spencer.

use super::{CoveringArray, Spec};

/// A finite field GF(p^m) for small orders: elements are `0..q`, read as polynomials over
/// GF(p) of degree < m (base-p digits), reduced modulo an irreducible polynomial.
#[derive(Clone, Debug)]
pub struct Field {
    q: u32,
    add: Vec<u32>,
    mul: Vec<u32>,
}

/// The prime `p` and exponent `m` with `p^m = q`, if `q` is a prime power.
fn prime_power(q: u32) -> Option<(u32, u32)> {
    if q < 2 {
        return None;
    }
    let p = (2..=q).find(|d| q.is_multiple_of(*d))?;
    let mut m = 0;
    let mut r = q;
    while r.is_multiple_of(p) {
        r /= p;
        m += 1;
    }
    (r == 1).then_some((p, m))
}

/// A monic irreducible polynomial of degree `m` over GF(p), as its low `m` coefficients
/// (`x^m = -(c0 + c1 x + …)`), found by trying every one: a polynomial of degree 2 or 3 is
/// irreducible when it has no root; for larger degrees, when no monic polynomial of degree
/// ≤ m/2 divides it.
fn irreducible(p: u32, m: u32) -> Vec<u32> {
    let q = p.pow(m);
    'candidates: for code in 0..q {
        let low: Vec<u32> = (0..m).map(|i| code / p.pow(i) % p).collect();
        if low[0] == 0 {
            continue;
        }
        // Divisibility by every monic polynomial of degree d, 1 ≤ d ≤ m / 2.
        for d in 1..=m / 2 {
            for dcode in 0..p.pow(d) {
                let div: Vec<u32> = (0..d).map(|i| dcode / p.pow(i) % p).chain([1]).collect();
                let mut rem: Vec<u32> = low.iter().copied().chain([1]).collect();
                for top in (d as usize..rem.len()).rev() {
                    let f = rem[top];
                    if f == 0 {
                        continue;
                    }
                    for (i, &c) in div.iter().enumerate() {
                        let at = top - d as usize + i;
                        rem[at] = (rem[at] + p - f * c % p) % p;
                    }
                }
                if rem[..d as usize].iter().all(|&c| c == 0) {
                    continue 'candidates;
                }
            }
        }
        return low;
    }
    unreachable!("an irreducible polynomial of every degree exists")
}

impl Field {
    /// GF(q), or `None` when `q` is not a prime power (or above 256).
    pub fn new(q: u32) -> Option<Field> {
        if q > 256 {
            return None;
        }
        let (p, m) = prime_power(q)?;
        let low = irreducible(p, m);
        let digits = |x: u32| -> Vec<u32> { (0..m).map(|i| x / p.pow(i) % p).collect() };
        let number = |d: &[u32]| -> u32 { d.iter().rev().fold(0, |acc, &c| acc * p + c) };
        let n = q as usize;
        let mut add = vec![0; n * n];
        let mut mul = vec![0; n * n];
        for a in 0..q {
            for b in 0..q {
                let (da, db) = (digits(a), digits(b));
                let sum: Vec<u32> = da.iter().zip(&db).map(|(x, y)| (x + y) % p).collect();
                add[(a * q + b) as usize] = number(&sum);
                let mut prod = vec![0u32; (2 * m) as usize];
                for (i, x) in da.iter().enumerate() {
                    for (j, y) in db.iter().enumerate() {
                        prod[i + j] = (prod[i + j] + x * y) % p;
                    }
                }
                // Reduce: x^m = -(low).
                for top in (m as usize..prod.len()).rev() {
                    let f = prod[top];
                    if f == 0 {
                        continue;
                    }
                    prod[top] = 0;
                    for (i, &c) in low.iter().enumerate() {
                        let at = top - m as usize + i;
                        prod[at] = (prod[at] + p - f * c % p) % p;
                    }
                }
                mul[(a * q + b) as usize] = number(&prod[..m as usize]);
            }
        }
        Some(Field { q, add, mul })
    }

    /// `a + b`.
    pub fn add(&self, a: u32, b: u32) -> u32 {
        self.add[(a * self.q + b) as usize]
    }

    /// `a · b`.
    pub fn mul(&self, a: u32, b: u32) -> u32 {
        self.mul[(a * self.q + b) as usize]
    }
}

/// Bush's orthogonal array OA(q^t, q + 1, q, t) for a prime power `q ≥ t`, cut to `k`
/// columns: a row per polynomial `f` of degree < t over GF(q), a column per field element
/// `x` (cell `f(x)`) and one more for `f`'s leading coefficient. `None` when it does not
/// apply (`q` not a prime power, `t > q`, or `k > q + 1`).
pub fn bush(q: u32, k: usize, t: usize) -> Option<CoveringArray> {
    let field = Field::new(q)?;
    if t == 0 || t as u32 > q || k > q as usize + 1 {
        return None;
    }
    let rows = (0..(q as u64).pow(t as u32)).map(|code| {
        let coef: Vec<u32> = (0..t)
            .map(|i| (code / (q as u64).pow(i as u32) % q as u64) as u32)
            .collect();
        let mut row: Vec<u32> = (0..q.min(k as u32))
            .map(|x| {
                // Horner, highest coefficient first.
                coef.iter()
                    .rev()
                    .fold(0, |acc, &c| field.add(field.mul(acc, x), c))
            })
            .collect();
        if k == q as usize + 1 {
            row.push(coef[t - 1]);
        }
        row
    });
    Some(CoveringArray::from_rows(k, rows))
}

/// The smallest binary strength-2 array with `k` columns (Katona; Kleitman–Spencer): `N`
/// rows where `C(N − 1, ⌈N/2⌉)` ≥ k; the columns are distinct `N`-bit words of weight
/// `⌈N/2⌉` with a 0 in the first row (any two such words cover 00 in row 0, 11 because their
/// ones overlap, and 01, 10 because they differ with equal weights).
pub fn binary_pairs(k: usize) -> CoveringArray {
    let choose = |n: u64, r: u64| -> u64 { (0..r).fold(1u64, |acc, i| acc * (n - i) / (i + 1)) };
    let mut n = 4u64;
    while choose(n - 1, n.div_ceil(2)) < k as u64 {
        n += 1;
    }
    let w = n.div_ceil(2) as u32;
    let words: Vec<u64> = (0u64..1 << (n - 1))
        .filter(|x| x.count_ones() == w)
        .take(k)
        .collect();
    let rows = (0..n).map(|r| {
        words
            .iter()
            .map(|&word| {
                if r == 0 {
                    0
                } else {
                    (word >> (r - 1) & 1) as u32
                }
            })
            .collect()
    });
    CoveringArray::from_rows(k, rows)
}

/// Bush's array over the smallest prime power `q ≥ v` that has `k` columns and strength `t`,
/// with every symbol `≥ v` replaced by one below it (fusion: each `v`-tuple is a `q`-tuple
/// of the same values, so it is still covered): CA(q^t; t, k, v). For 10^10 at strength 2,
/// GF(11) gives 121 rows.
pub fn fused_bush(v: u32, k: usize, t: usize) -> Option<CoveringArray> {
    let q =
        (v..=256).find(|&q| prime_power(q).is_some() && k <= q as usize + 1 && t as u32 <= q)?;
    let a = bush(q, k, t)?;
    if q == v {
        return Some(a);
    }
    let rows = a
        .rows()
        .map(|r| r.iter().map(|&x| if x < v { x } else { x % v }).collect());
    Some(CoveringArray::from_rows(k, rows))
}

/// The doubling of Chateauneuf and Kreher for strength 3: from `A` = CA(N3; 3, h, v) and
/// `B` = CA(N2; 2, h, v) over `h = ⌈k/2⌉` columns, the rows `[a | a]` for each row of `A` and
/// `[b | b + i]` (every cell shifted by `i` modulo `v`) for each row of `B` and each
/// `i` in `1..v` make CA(N3 + (v − 1)·N2; 3, 2h, v), cut to `k` columns. Three columns in
/// one half are covered by `A`; two in one half and one in the other, by `A` when they are
/// three distinct columns of `A`, else (a column with its own copy) by the shifts.
/// 4^10 from Bush's OA(64, 5, 4, 3) and OA(16, 5, 4, 2): 112 rows.
pub fn doubled3(v: u32, k: usize) -> Option<CoveringArray> {
    let h = k.div_ceil(2);
    if h < 3 {
        return None;
    }
    let a = bush(v, h, 3)?;
    let pairs = Spec::uniform(v, h, 2);
    let b = match direct(&pairs) {
        Some(d) => d,
        None => super::ipog(&pairs, 0),
    };
    let mut rows: Vec<Vec<u32>> = a
        .rows()
        .map(|r| r.iter().chain(r.iter()).copied().take(k).collect())
        .collect();
    for i in 1..v {
        for r in b.rows() {
            rows.push(
                r.iter()
                    .copied()
                    .chain(r.iter().map(|&x| (x + i) % v))
                    .take(k)
                    .collect(),
            );
        }
    }
    Some(CoveringArray::from_rows(k, rows))
}

/// The smallest direct construction for `spec`, if one applies: uniform values, no
/// sub-relation stronger than the main one, no constraint.
pub fn direct(spec: &Spec) -> Option<CoveringArray> {
    let values = spec.values();
    let v = *values.first()?;
    if values.iter().any(|&x| x != v) || !spec.is_plain() {
        return None;
    }
    let k = values.len();
    let t = spec.main_strength();
    if v == 2 && t == 2 && k >= 2 {
        return Some(binary_pairs(k));
    }
    let candidates = [
        fused_bush(v, k, t),
        if t == 3 { doubled3(v, k) } else { None },
    ];
    candidates
        .into_iter()
        .flatten()
        .min_by_key(CoveringArray::len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_fields() {
        for q in [2, 3, 4, 5, 7, 8, 9, 11, 16, 25, 27] {
            let f = Field::new(q).unwrap();
            for a in 1..q {
                // Every non-zero element has an inverse, and a + (-a) = 0 for some -a.
                assert!(
                    (1..q).any(|b| f.mul(a, b) == 1),
                    "GF({q}): {a} has no inverse"
                );
                assert!((0..q).any(|b| f.add(a, b) == 0));
            }
        }
        assert!(Field::new(6).is_none());
        assert!(Field::new(10).is_none());
    }

    #[test]
    fn constructions_cover() {
        for (v, k, t, n) in [
            (3, 4, 2, 9),
            (4, 5, 2, 16),
            (5, 6, 2, 25),
            (3, 4, 3, 27),
            (4, 5, 3, 64),
            (7, 8, 2, 49),
        ] {
            let a = bush(v, k, t).unwrap();
            assert_eq!(a.len(), n);
            assert_eq!(a.missing(&Spec::uniform(v, k, t)), 0, "{v}^{k} t={t}");
        }
        for (k, n) in [(5, 6), (10, 6), (11, 7), (15, 7), (16, 8), (35, 8)] {
            let a = binary_pairs(k);
            assert_eq!(a.len(), n, "2^{k}");
            assert_eq!(a.missing(&Spec::uniform(2, k, 2)), 0, "2^{k}");
        }
        let doubled = doubled3(4, 10).unwrap();
        assert_eq!(doubled.len(), 112);
        assert_eq!(doubled.missing(&Spec::uniform(4, 10, 3)), 0);
        let fused = fused_bush(10, 10, 2).unwrap();
        assert_eq!(fused.len(), 121);
        assert_eq!(fused.missing(&Spec::uniform(10, 10, 2)), 0);
        assert!(bush(6, 4, 2).is_none());
        assert!(bush(3, 5, 2).is_none());
    }
}
