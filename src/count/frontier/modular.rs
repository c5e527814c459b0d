//! Counts of any size from residues: what a state's ways are summed modulo ([`Modulus`]), the
//! primes a count runs one pass each modulo ([`PrimeSet`]), an upper bound on the count that says
//! how many it needs ([`bound_bits`]), and the Chinese remainder theorem that recombines the
//! passes' residues into the exact count ([`Residues::value`]).
//!
//! A count keeps its states' ways in 64 bits (60 beside an 8-wide board's 68-bit state), so a
//! state's entry stays 16 bytes whatever the count. A first pass counts exactly in those bits; if a
//! sum passes them it goes on wrapping (its result is then the count modulo 2^64 or 2^60), and
//! further passes count modulo primes below 2^60 until the product of the moduli passes the bound.
//! Ways are only ever added (a transition carries its state's ways, a merge sums them), so a pass
//! modulo `p` is the exact count with every sum reduced: one compare and subtract.
//!
//! Sources: the Chinese remainder theorem in its incremental (Garner) form, Knuth, TAOCP vol. 2,
//! section 4.3.2; the bound is Bregman's theorem (1973, Minc's conjecture): the permanent of a 0-1
//! matrix with row sums `d_i` is at most `prod (d_i!)^(1/d_i)`, and every directed Hamiltonian cycle
//! of a graph is a permutation its adjacency matrix's permanent counts. A directed Hamiltonian path
//! is a cycle through one more vertex joined both ways to every square. Deterministic Miller-Rabin
//! for 64-bit numbers with the first twelve primes as bases (Jaeschke 1993, Sorenson and Webster
//! 2015).

use num_bigint::BigUint;

/// What ways are summed modulo: [`Modulus::EXACT`] (0) sums them in their type's bits and reports
/// a sum that wraps (the pass's result is then modulo 2^bits); otherwise a prime below 2^60, so
/// that the sum of two residues fits in 61 bits and is reduced by one subtraction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Modulus(pub(super) u64);

impl Modulus {
    pub(super) const EXACT: Modulus = Modulus(0);

    /// `a + b` modulo a prime (both below it).
    #[inline(always)]
    pub(super) fn add_prime(self, a: u64, b: u64) -> u64 {
        debug_assert!(self.0 > 0 && a < self.0 && b < self.0);
        let s = a + b;
        if s >= self.0 {
            s - self.0
        } else {
            s
        }
    }

    /// A tour total (a sum of residues, far below 2^128) reduced modulo the prime.
    pub(super) fn reduce(self, x: u128) -> u64 {
        (x % u128::from(self.0)) as u64
    }
}

/// The primes a count's passes run modulo: the largest primes below `2^bits`, from the largest
/// down, after skipping the first `skip` of them. Two sets with no prime in common give the same
/// count (tested); small `bits` make many passes of small primes, which tests the recombination
/// on boards of a few seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrimeSet {
    /// The primes are below `2^bits` (at most 60, at least 8).
    pub bits: u32,
    /// Primes passed over before the set's first.
    pub skip: usize,
}

impl Default for PrimeSet {
    fn default() -> Self {
        PrimeSet { bits: 60, skip: 0 }
    }
}

impl PrimeSet {
    /// The set's primes, from the largest down, as many as asked (every set has far more primes than
    /// any bound needs).
    pub(super) fn primes(self) -> impl Iterator<Item = u64> {
        let bits = self.bits.clamp(8, 60);
        (0..1u64 << bits)
            .rev()
            .filter(|&n| is_prime(n))
            .skip(self.skip)
    }
}

/// Whether `n` is prime: deterministic Miller-Rabin for every `u64`.
pub(super) fn is_prime(n: u64) -> bool {
    const BASES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
    if n < 2 {
        return false;
    }
    for p in BASES {
        if n % p == 0 {
            return n == p;
        }
    }
    let (mut d, mut s) = (n - 1, 0);
    while d % 2 == 0 {
        d /= 2;
        s += 1;
    }
    let m = u128::from(n);
    'bases: for a in BASES {
        let mut x = pow_mod(u128::from(a), u128::from(d), m);
        if x == 1 || x == m - 1 {
            continue;
        }
        for _ in 1..s {
            x = x * x % m;
            if x == m - 1 {
                continue 'bases;
            }
        }
        return false;
    }
    true
}

/// `a^e mod m`, for `m <= 2^64` (so that products of residues fit in a `u128`).
fn pow_mod(mut a: u128, mut e: u128, m: u128) -> u128 {
    let mut r = 1 % m;
    a %= m;
    while e > 0 {
        if e & 1 == 1 {
            r = r * a % m;
        }
        a = a * a % m;
        e >>= 1;
    }
    r
}

/// The inverse of `a` modulo `m` (`gcd(a, m) = 1`): by the extended Euclidean algorithm for
/// `m <= 2^64`; modulo a power of two up to 2^127 (a widened exact pass's), by Newton's iteration.
fn inverse(a: u128, m: u128) -> u128 {
    if m.is_power_of_two() && m > 1 << 64 {
        // a * x = 1 modulo 2^b doubles b each step: right to 3 bits at x = a (a odd), 2^128 after 6
        let mut x = a;
        for _ in 0..6 {
            x = x.wrapping_mul(2u128.wrapping_sub(a.wrapping_mul(x)));
        }
        return x & (m - 1);
    }
    let (mut r0, mut r1) = (m as i128, (a % m) as i128);
    let (mut t0, mut t1) = (0i128, 1i128);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (t0, t1) = (t1, t0 - q * t1);
    }
    debug_assert_eq!(r0, 1, "{a} is invertible modulo {m}");
    t0.rem_euclid(m as i128) as u128
}

/// Residues of one number modulo pairwise coprime moduli (each at most 2^128: a power of two from
/// an exact pass, or a prime), recombined by the Chinese remainder theorem.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Residues {
    /// `(modulus, residue)` pairs.
    pub pairs: Vec<(u128, u128)>,
}

impl Residues {
    /// The product of the moduli, in bits (`log2`).
    pub fn bits(&self) -> f64 {
        self.pairs.iter().map(|&(m, _)| (m as f64).log2()).sum()
    }

    /// The least non-negative number with these residues (Garner's incremental form: `x` modulo
    /// the moduli so far, lifted by each next one).
    pub fn value(&self) -> BigUint {
        let mut x = BigUint::from(0u32);
        let mut product = BigUint::from(1u32);
        for &(m, r) in &self.pairs {
            let big_m = BigUint::from(m);
            let x_mod = u128::try_from(&x % &big_m).expect("below the modulus");
            let p_mod = u128::try_from(&product % &big_m).expect("below the modulus");
            // t = (r - x) / product, modulo m
            let diff = (r % m + m - x_mod) % m;
            let t = mul_mod(diff, inverse(p_mod, m), m);
            x += &product * BigUint::from(t);
            product *= big_m;
        }
        x
    }
}

/// Whether `value` can be a count whose bound is `bound` bits ([`bound_bits`]): residues that
/// recombine past it disagree (a pass miscounted, or a checkpoint was damaged).
pub(super) fn within_bound(value: &BigUint, bound: f64) -> bool {
    value.bits() as f64 <= bound.ceil()
}

/// The board length whose count stands at `index` of a run's values: a run over every length
/// (`--cols 1..=N`) keeps one value a length, `1..=rows`; any other run only its board's.
pub(super) fn length_at(index: usize, every_length: bool, rows: u32) -> u32 {
    if every_length {
        index as u32 + 1
    } else {
        rows
    }
}

/// `a * b mod m` for `a, b < m <= 2^128`: by doubling where the product passes a `u128`.
fn mul_mod(a: u128, b: u128, m: u128) -> u128 {
    if let Some(p) = a.checked_mul(b) {
        return p % m;
    }
    let (mut a, mut b, mut r) = (a % m, b, 0u128);
    while b > 0 {
        if b & 1 == 1 {
            r = add_mod(r, a, m);
        }
        a = add_mod(a, a, m);
        b >>= 1;
    }
    r
}

fn add_mod(a: u128, b: u128, m: u128) -> u128 {
    let (s, carry) = a.overflowing_add(b);
    if carry || s >= m {
        s.wrapping_sub(m)
    } else {
        s
    }
}

/// An upper bound, in bits, on the undirected tours of a `rows x cols` board (Bregman's theorem on
/// the knight graph: see the module documentation): `sum log2(d!)/d` over the squares' degrees
/// `d` for closed tours; for open tours the same with `d + 1` and the hub's `log2(n!)/n`. Every
/// count of the board is below `2^bound_bits`; a margin of two bits covers the rounding of `f64`.
pub fn bound_bits(rows: u32, cols: u32, closed: bool) -> f64 {
    let (r, c) = (i64::from(rows), i64::from(cols));
    let log2_factorial = |d: i64| (2..=d).map(|k| (k as f64).log2()).sum::<f64>();
    let factor = |d: i64| {
        if d == 0 {
            0.0
        } else {
            log2_factorial(d) / d as f64
        }
    };
    let moves = [
        (1, 2),
        (2, 1),
        (-1, 2),
        (-2, 1),
        (1, -2),
        (2, -1),
        (-1, -2),
        (-2, -1),
    ];
    let mut bits = 2.0;
    for i in 0..r {
        for j in 0..c {
            let d = moves
                .iter()
                .filter(|(a, b)| (0..r).contains(&(i + a)) && (0..c).contains(&(j + b)))
                .count() as i64;
            bits += factor(if closed { d } else { d + 1 });
        }
    }
    if !closed {
        bits += factor(r * c);
    }
    bits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primes_are_found_and_told_apart() {
        let small: Vec<u64> = (0..60).filter(|&n| is_prime(n)).collect();
        assert_eq!(
            small,
            [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59]
        );
        // 2^61 - 1 is prime, 2^60 - 93 the largest prime below 2^60; Carmichael numbers and a
        // strong pseudoprime to bases 2, 3, 5, 7 are not
        assert!(is_prime((1 << 61) - 1));
        assert!(is_prime((1 << 60) - 93));
        for n in [561, 1105, 3_215_031_751, (1 << 60) - 1, u64::MAX] {
            assert!(!is_prime(n), "{n}");
        }
        let set: Vec<u64> = PrimeSet::default().primes().take(2).collect();
        assert_eq!(set[0], (1 << 60) - 93);
        assert!(set[1] < set[0] && is_prime(set[1]));
        let skipped: Vec<u64> = PrimeSet { bits: 60, skip: 1 }.primes().take(1).collect();
        assert_eq!(skipped[0], set[1]);
    }

    #[test]
    fn residues_recombine_to_their_number() {
        let n = BigUint::parse_bytes(b"123456789012345678901234567890123456789012345678901", 10)
            .unwrap();
        let moduli: Vec<u128> = [1u128 << 64, 1 << 60]
            .into_iter()
            .take(1)
            .chain(PrimeSet::default().primes().take(3).map(u128::from))
            .collect();
        let residues = Residues {
            pairs: moduli
                .iter()
                .map(|&m| (m, u128::try_from(&n % BigUint::from(m)).unwrap()))
                .collect(),
        };
        assert!(residues.bits() > 200.0);
        assert_eq!(residues.value(), n);
        // a number below one modulus is its residue
        let one = Residues {
            pairs: vec![(1 << 60, 12345)],
        };
        assert_eq!(one.value(), BigUint::from(12345u32));
        assert_eq!(inverse(3, 1 << 64), 0xAAAA_AAAA_AAAA_AAAB);
        assert_eq!(mul_mod(u128::MAX - 1, u128::MAX - 1, u128::MAX), 1);
        // a widened exact pass's modulus, 2^127, first or last among primes (its inverses by
        // Newton's iteration, each checked by its product)
        let big = (BigUint::from(1u32) << 200u32) + BigUint::from(987_654_321u64);
        let primes: Vec<u128> = PrimeSet::default()
            .primes()
            .take(2)
            .map(u128::from)
            .collect();
        for order in [
            [1u128 << 127, primes[0], primes[1]],
            [primes[0], primes[1], 1 << 127],
        ] {
            let pairs = order
                .iter()
                .map(|&m| (m, u128::try_from(&big % BigUint::from(m)).unwrap()))
                .collect();
            assert_eq!(Residues { pairs }.value(), big);
        }
        for a in [3u128, primes[0], primes[0] * primes[1], (1 << 127) - 1] {
            assert_eq!(mul_mod(a, inverse(a, 1 << 127), 1 << 127), 1, "{a}");
        }
    }

    #[test]
    fn the_bound_passes_known_counts() {
        // 8x8 closed: 13,267,364,410,532 cycles (A001230); 6x6 open 3,318,960 undirected paths
        // (A165134 / 2); 3 x 4 open 8
        assert!(bound_bits(8, 8, true) > 13_267_364_410_532f64.log2());
        assert!(bound_bits(6, 6, false) > 3_318_960f64.log2());
        assert!(bound_bits(3, 4, false) > 3.0);
        // and is far below the 3 bits a square of 8^n
        assert!(bound_bits(8, 8, true) < 2.0 * 64.0);
    }
}
