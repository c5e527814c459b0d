//! The Wilson score interval for a proportion (E. B. Wilson, "Probable inference, the law of
//! succession, and statistical inference", JASA 22 (1927) 209-212; recommended over the normal
//! interval by Brown, Cai & DasGupta, "Interval estimation for a binomial proportion", Statistical
//! Science 16 (2001) 101-133): the proportions `p` whose normal test does not reject `k` successes in
//! `n` trials, `|k/n - p| <= z sqrt(p (1 - p) / n)`. Unlike `k/n +- z sqrt(...)` it stays inside
//! [0, 1] and is not empty at 0 or `n` successes. Every sampled rate ktour prints carries one.

/// The normal quantile of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson interval `(low, high)` for `k` successes in `n` trials at normal quantile `z`;
/// `(0, 1)` when `n` is 0 (nothing is known).
pub fn wilson(k: u64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (k, n) = (k.min(n) as f64, n as f64);
    let p = k / n;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // at 0 or n successes the end is exactly 0 or 1 (rounding would leave it a hair off)
    let low = if k == 0.0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let high = if k == n {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (low, high)
}

/// [`wilson`] at 95%.
pub fn wilson95(k: u64, n: u64) -> (f64, f64) {
    wilson(k, n, Z95)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The slow twin: the interval by its definition, the `p` in [0, 1] where the normal test
    /// accepts, found by bisection on each side of `k/n`.
    fn by_definition(k: u64, n: u64, z: f64) -> (f64, f64) {
        let phat = k as f64 / n as f64;
        let accepts = |p: f64| (phat - p).abs() <= z * (p * (1.0 - p) / n as f64).sqrt();
        let edge = |mut inside: f64, mut outside: f64| {
            for _ in 0..200 {
                let mid = (inside + outside) / 2.0;
                if accepts(mid) {
                    inside = mid;
                } else {
                    outside = mid;
                }
            }
            inside
        };
        let low = if k == 0 { 0.0 } else { edge(phat, 0.0) };
        let high = if k == n { 1.0 } else { edge(phat, 1.0) };
        (low, high)
    }

    #[test]
    fn the_formula_is_the_definition() {
        for (k, n) in [
            (0, 1),
            (1, 1),
            (0, 10),
            (3, 10),
            (10, 10),
            (99, 100),
            (67, 100),
            (5000, 10_000),
        ] {
            let (lo, hi) = wilson95(k, n);
            let (slo, shi) = by_definition(k, n, Z95);
            assert!(
                (lo - slo).abs() < 1e-9 && (hi - shi).abs() < 1e-9,
                "{k}/{n}: {lo} {hi} vs {slo} {shi}"
            );
            assert!(lo <= k as f64 / n as f64 && k as f64 / n as f64 <= hi);
        }
    }

    #[test]
    fn known_values() {
        // Brown, Cai & DasGupta's example and the textbook 0-of-n case: 0 of 10 gives (0, 0.2775)
        let (lo, hi) = wilson95(0, 10);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.277_532).abs() < 1e-5, "{hi}");
        // 99 of 100 (Ganzfried's 99% at n = 8, if it were 100 trials): (0.9455, 0.9982)
        let (lo, hi) = wilson95(99, 100);
        assert!(
            (lo - 0.945_5).abs() < 1e-4 && (hi - 0.998_2).abs() < 1e-4,
            "{lo} {hi}"
        );
        assert_eq!(wilson95(0, 0), (0.0, 1.0));
    }
}
