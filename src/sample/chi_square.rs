//! Pearson's chi-square test of uniformity, for the sampler's tests and studies: the statistic of
//! counts that should all be equal, and its p-value, the regularized upper incomplete gamma
//! function `Q(df / 2, x / 2)`. `Q` is computed by its power series below `a + 1` and by its
//! continued fraction (modified Lentz) above, with `ln Gamma` by Lanczos' approximation (g = 7,
//! nine coefficients); it is cross-checked in the tests against closed forms (integer `a`:
//! the Poisson tail; `a = 1`, `a = 1/2`), against table values, and at large `df` against the
//! Wilson-Hilferty normal approximation.
//!
//! Source: K. Pearson (1900); W. H. Press et al., *Numerical Recipes*, 3rd ed. (2007), section
//! 6.2 (`gser`, `gcf`) and 6.1 (Lanczos); C. Lanczos, SIAM J. Numer. Anal. B 1 (1964);
//! E. B. Wilson and M. M. Hilferty, PNAS 17 (1931).

/// A chi-square test: the statistic, its degrees of freedom and the p-value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChiSquare {
    /// Pearson's statistic, `sum (observed - expected)^2 / expected`.
    pub statistic: f64,
    /// Degrees of freedom: cells less one.
    pub df: f64,
    /// The probability of a statistic at least this large under uniformity.
    pub p: f64,
}

/// The test that `counts` (one per cell, at least two cells) come from a uniform distribution over
/// the cells.
pub fn uniformity(counts: &[u64]) -> ChiSquare {
    let total: u64 = counts.iter().sum();
    let expected = total as f64 / counts.len() as f64;
    let statistic = counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum();
    let df = (counts.len() - 1) as f64;
    ChiSquare {
        statistic,
        df,
        p: chi_square_p(statistic, df),
    }
}

/// `P(X >= x)` for `X` chi-square with `df` degrees of freedom.
pub fn chi_square_p(x: f64, df: f64) -> f64 {
    gamma_q(df / 2.0, x / 2.0)
}

/// The regularized upper incomplete gamma function `Q(a, x) = Gamma(a, x) / Gamma(a)`, `a > 0`.
pub fn gamma_q(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    if x < a + 1.0 {
        1.0 - series(a, x)
    } else {
        fraction(a, x)
    }
}

/// `e^-x x^a / Gamma(a)`, the factor both expansions share, in logarithms.
fn prefactor(a: f64, x: f64) -> f64 {
    (-x + a * x.ln() - ln_gamma(a)).exp()
}

/// `P(a, x)` by its series, for `x < a + 1`.
fn series(a: f64, x: f64) -> f64 {
    let (mut ap, mut term) = (a, 1.0 / a);
    let mut sum = term;
    for _ in 0..1_000_000 {
        ap += 1.0;
        term *= x / ap;
        sum += term;
        if term.abs() < sum.abs() * 1e-16 {
            break;
        }
    }
    sum * prefactor(a, x)
}

/// `Q(a, x)` by its continued fraction (modified Lentz), for `x >= a + 1`.
fn fraction(a: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let mut b = x + 1.0 - a;
    let mut c = 1.0 / TINY;
    let mut d = 1.0 / b;
    let mut h = d;
    for i in 1..1_000_000 {
        let an = -(i as f64) * (i as f64 - a);
        b += 2.0;
        d = an * d + b;
        if d.abs() < TINY {
            d = TINY;
        }
        c = b + an / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        let delta = d * c;
        h *= delta;
        if (delta - 1.0).abs() < 1e-16 {
            break;
        }
    }
    prefactor(a, x) * h
}

/// `ln Gamma(x)` for `x > 0`, by Lanczos' approximation (g = 7, n = 9), with the reflection
/// formula below 1/2; relative error about 1e-15.
pub fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let t = x + G + 0.5;
    let sum = C[1..]
        .iter()
        .enumerate()
        .fold(C[0], |s, (i, c)| s + c / (x + i as f64 + 1.0));
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `erfc` by Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7), for the checks only.
    fn erfc(x: f64) -> f64 {
        let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
        let poly = t
            * (0.254_829_592
                + t * (-0.284_496_736
                    + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
        let e = poly * (-x * x).exp();
        if x >= 0.0 {
            e
        } else {
            2.0 - e
        }
    }

    #[test]
    fn ln_gamma_matches_factorials() {
        let mut factorial = 1.0f64;
        for n in 1..60u32 {
            assert!((ln_gamma(n as f64) - factorial.ln()).abs() < 1e-12 * factorial.ln().max(1.0));
            factorial *= n as f64;
        }
        // Gamma(1/2) = sqrt(pi)
        assert!((ln_gamma(0.5) - std::f64::consts::PI.sqrt().ln()).abs() < 1e-14);
    }

    /// For integer `a`, `Q(a, x)` is the Poisson tail `e^-x sum_{k < a} x^k / k!`; `Q(1/2, x) =
    /// erfc(sqrt x)`; both expansions are reached.
    #[test]
    fn q_matches_closed_forms() {
        for a in 1..40u32 {
            for x in [0.1f64, 0.5, 1.0, 3.0, 7.5, 20.0, 35.0, 60.0] {
                let (mut term, mut tail) = ((-x).exp(), 0.0);
                for k in 0..a {
                    tail += term;
                    term *= x / (k + 1) as f64;
                }
                let q = gamma_q(a as f64, x);
                assert!(
                    (q - tail).abs() < 1e-12 + 1e-10 * tail,
                    "a={a} x={x}: {q} {tail}"
                );
            }
        }
        for x in [0.01, 0.3, 1.0, 2.5, 6.0] {
            assert!((gamma_q(0.5, x) - erfc(x.sqrt())).abs() < 3e-7, "{x}");
        }
    }

    /// Table values (the 5% and 0.1% points of chi-square) and the Wilson-Hilferty approximation
    /// at the degrees of freedom of the sampler's tests.
    #[test]
    fn p_values_match_tables_and_the_normal_approximation() {
        for (x, df, p) in [
            (3.841_458_8, 1.0, 0.05),
            (18.307_038, 10.0, 0.05),
            (124.342_11, 100.0, 0.05),
            (29.588_298, 10.0, 0.001),
        ] {
            assert!((chi_square_p(x, df) - p).abs() < 1e-6, "{x} {df}");
        }
        for df in [1727.0f64, 9861.0] {
            for z in [-2.0, -0.5, 0.0, 1.0, 3.0, 5.0] {
                let v = 2.0 / (9.0 * df);
                let x = df * (1.0 - v + z * v.sqrt()).powi(3);
                let normal = 0.5 * erfc(z / std::f64::consts::SQRT_2);
                let p = chi_square_p(x, df);
                assert!(
                    (p - normal).abs() < 2e-3 * normal.max(1e-3),
                    "{df} {z}: {p} {normal}"
                );
            }
        }
        let even = uniformity(&[10, 10, 10, 10]);
        assert_eq!((even.statistic, even.df, even.p), (0.0, 3.0, 1.0));
        assert!(uniformity(&[40, 0, 0, 0]).p < 1e-10);
    }
}
