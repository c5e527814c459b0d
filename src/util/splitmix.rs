//! SplitMix64 (G. L. Steele, D. Lea & C. H. Flood, "Fast splittable pseudorandom number
//! generators", OOPSLA 2014; the constants of S. Vigna's `splitmix64.c`, Stafford's "Mix13"
//! finalizer): a 64-bit state advanced by the golden-ratio increment and passed through a
//! bijective mixer. ktour uses it to derive seeds (a run's seed from its coordinates, an attempt's
//! seed from its run's), never as the walks' PRNG, so the seeds written in `runs.csv` depend on
//! these constants: changing them replays no existing run.

/// The increment of SplitMix64's state: 2^64 divided by the golden ratio, made odd.
pub const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function: a bijection of `u64` that spreads every input bit over the word.
#[inline]
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The SplitMix64 generator: `next` advances the state by [`GOLDEN_GAMMA`] and mixes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator whose state is `seed`.
    pub const fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next output.
    #[inline]
    #[allow(clippy::should_implement_trait)] // an infinite stream: `Iterator` would add nothing
    pub fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN_GAMMA);
        mix64(self.state)
    }
}

/// The first output of a SplitMix64 seeded `seed`: one step, as a hash of `seed`.
#[inline]
pub const fn splitmix64(seed: u64) -> u64 {
    mix64(seed.wrapping_add(GOLDEN_GAMMA))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first outputs of the reference `splitmix64.c` (Vigna), computed apart from this code by a
    /// few lines of Python with arbitrary-precision integers masked to 64 bits.
    #[test]
    fn outputs_are_the_reference_ones() {
        let mut g = SplitMix64::new(0);
        let got: Vec<u64> = (0..3).map(|_| g.next()).collect();
        assert_eq!(
            got,
            [
                0xE220_A839_7B1D_CDAF,
                0x6E78_9E6A_A1B9_65F4,
                0x06C4_5D18_8009_454F
            ]
        );
        let mut g = SplitMix64::new(1_234_567);
        let got: Vec<u64> = (0..3).map(|_| g.next()).collect();
        assert_eq!(
            got,
            [
                0x599E_D017_FB08_FC85,
                0x2C73_F084_5854_0FA5,
                0x883E_BCE5_A3F2_7C77
            ]
        );
        assert_eq!(splitmix64(1_234_567), 0x599E_D017_FB08_FC85);
    }

    /// The mixer is a bijection: its two xor-shift-multiply rounds each invert.
    #[test]
    fn mix_inverts() {
        fn unshift(y: u64, s: u32) -> u64 {
            let mut x = y;
            for _ in 0..64 / s {
                x = y ^ (x >> s);
            }
            x
        }
        // the multiplicative inverses of the two odd constants, mod 2^64
        fn inverse(a: u64) -> u64 {
            let mut x = a;
            for _ in 0..6 {
                x = x.wrapping_mul(2u64.wrapping_sub(a.wrapping_mul(x)));
            }
            x
        }
        let unmix = |z: u64| {
            let z = unshift(z, 31).wrapping_mul(inverse(0x94D0_49BB_1331_11EB));
            let z = unshift(z, 27).wrapping_mul(inverse(0xBF58_476D_1CE4_E5B9));
            unshift(z, 30)
        };
        for x in [0, 1, 42, u64::MAX, GOLDEN_GAMMA, 0x0123_4567_89AB_CDEF] {
            assert_eq!(unmix(mix64(x)), x, "{x:#x}");
        }
    }
}
