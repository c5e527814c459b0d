//! Exact probabilities without fractions in the hot loop. Every probability the tree walk adds up is
//! a sum of products of a final's odds, `draws / out_of` with `out_of` at most 8 (`random`: 1 of
//! the `k` tied moves, `gfg`: so many of the 8 positions of its cycle) or a count of the 40,320
//! orderings (`shuffle`), so its denominator has no prime factor but 2, 3, 5 and 7. A value is kept
//! as an integer numerator over a [`Scale`], `2^a 3^b 5^c 7^d`; adding two values brings both to
//! the larger scale of each prime, which only multiplies: no gcd, no division, and on small boards
//! numerators that fit in a `u128` ([`Numer`]). A walk whose numerators outgrow it runs again with
//! [`BigUint`] (num-bigint). The fractions are reduced once, at the end ([`Scale::fraction`]).

use num_bigint::BigUint;
use num_rational::BigRational;
use num_traits::{One, Zero};

/// The primes a denominator may hold: those of 1..8 (and of 8! = 40,320).
pub const PRIMES: [u64; 4] = [2, 3, 5, 7];

/// A denominator `2^a 3^b 5^c 7^d`, as its exponents.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Scale(pub [u16; 4]);

impl Scale {
    /// The scale whose denominator is `n`, which must have no prime factor but 2, 3, 5, 7 (every
    /// `out_of` of a final, and 40,320); `None` otherwise.
    pub fn of(mut n: u64) -> Option<Scale> {
        if n == 0 {
            return None;
        }
        let mut e = [0u16; 4];
        for (slot, p) in e.iter_mut().zip(PRIMES) {
            while n % p == 0 {
                n /= p;
                *slot += 1;
            }
        }
        (n == 1).then_some(Scale(e))
    }

    /// The product of two denominators.
    #[inline]
    pub fn times(self, o: Scale) -> Scale {
        Scale(std::array::from_fn(|i| self.0[i] + o.0[i]))
    }

    /// The least common multiple of two denominators.
    #[inline]
    pub fn lcm(self, o: Scale) -> Scale {
        Scale(std::array::from_fn(|i| self.0[i].max(o.0[i])))
    }

    /// `self / o`, for `o` dividing `self`.
    #[inline]
    pub fn over(self, o: Scale) -> Scale {
        Scale(std::array::from_fn(|i| self.0[i] - o.0[i]))
    }

    /// The denominator itself.
    pub fn denominator(self) -> BigUint {
        PRIMES
            .iter()
            .zip(self.0)
            .fold(BigUint::one(), |d, (&p, e)| {
                d * BigUint::from(p).pow(e as u32)
            })
    }

    /// `numerator / self` as a reduced fraction.
    pub fn fraction(self, numerator: BigUint) -> BigRational {
        BigRational::new(numerator.into(), self.denominator().into())
    }
}

/// A numerator that no longer fits: the walk runs again with [`BigUint`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overflow;

/// An exact non-negative integer numerator: `u128`, checked, or [`BigUint`], which never
/// overflows.
pub trait Numer: Clone + Default + Send + Sync + 'static {
    /// The integer `n`.
    fn from_u64(n: u64) -> Self;
    /// Whether it is 0.
    fn is_zero(&self) -> bool;
    /// `self += o`.
    fn add(&mut self, o: &Self) -> Result<(), Overflow>;
    /// `self *= k`.
    fn mul(&mut self, k: u64) -> Result<(), Overflow>;
    /// `self *= by`'s denominator: the same value at a scale `by` times larger.
    fn rescale(&mut self, by: Scale) -> Result<(), Overflow>;
    /// The value as a [`BigUint`].
    fn to_big(&self) -> BigUint;
}

impl Numer for u128 {
    #[inline]
    fn from_u64(n: u64) -> Self {
        n as u128
    }
    #[inline]
    fn is_zero(&self) -> bool {
        *self == 0
    }
    #[inline]
    fn add(&mut self, o: &Self) -> Result<(), Overflow> {
        *self = self.checked_add(*o).ok_or(Overflow)?;
        Ok(())
    }
    #[inline]
    fn mul(&mut self, k: u64) -> Result<(), Overflow> {
        *self = self.checked_mul(k as u128).ok_or(Overflow)?;
        Ok(())
    }
    #[inline]
    fn rescale(&mut self, by: Scale) -> Result<(), Overflow> {
        for (&p, e) in PRIMES.iter().zip(by.0) {
            if e > 0 {
                let f = (p as u128).checked_pow(e as u32).ok_or(Overflow)?;
                *self = self.checked_mul(f).ok_or(Overflow)?;
            }
        }
        Ok(())
    }
    fn to_big(&self) -> BigUint {
        BigUint::from(*self)
    }
}

impl Numer for BigUint {
    fn from_u64(n: u64) -> Self {
        BigUint::from(n)
    }
    fn is_zero(&self) -> bool {
        Zero::is_zero(self)
    }
    fn add(&mut self, o: &Self) -> Result<(), Overflow> {
        *self += o;
        Ok(())
    }
    fn mul(&mut self, k: u64) -> Result<(), Overflow> {
        *self *= k;
        Ok(())
    }
    fn rescale(&mut self, by: Scale) -> Result<(), Overflow> {
        if by != Scale::default() && !Zero::is_zero(self) {
            *self *= by.denominator();
        }
        Ok(())
    }
    fn to_big(&self) -> BigUint {
        self.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scales_factor_the_odds_denominators() {
        for n in 1..=8 {
            assert_eq!(Scale::of(n).unwrap().denominator(), BigUint::from(n));
        }
        assert_eq!(Scale::of(40_320), Some(Scale([7, 2, 1, 1])));
        assert_eq!(Scale::of(11), None);
        assert_eq!(Scale::of(0), None);
        let (a, b) = (Scale::of(12).unwrap(), Scale::of(18).unwrap());
        assert_eq!(a.lcm(b).denominator(), BigUint::from(36u32));
        assert_eq!(a.times(b).over(b), a);
        assert_eq!(
            Scale::of(12).unwrap().fraction(BigUint::from(3u32)),
            BigRational::new(1.into(), 4.into())
        );
    }

    #[test]
    fn u128_overflows_where_biguint_goes_on() {
        let mut small = u128::MAX / 2;
        assert_eq!(small.mul(3), Err(Overflow));
        let mut x = 5u128;
        x.rescale(Scale([3, 1, 0, 0])).unwrap();
        assert_eq!(x, 120);
        let mut big = BigUint::from(u128::MAX);
        big.mul(3).unwrap();
        assert_eq!(big, BigUint::from(u128::MAX) * 3u32);
        let mut y = 1u128;
        assert_eq!(y.rescale(Scale([200, 0, 0, 0])), Err(Overflow));
    }
}
