//! The statistics of a sample of importance weights: the estimate, its 95% intervals, and the
//! diagnostics of a heavy tail.
//!
//! - The estimate is the mean of the weights, unbiased for any sample size.
//! - The interval is the normal one of the central limit theorem, `mean +- 1.96 s / sqrt(K)`. The
//!   weights of long walks are heavy-tailed (their log has a variance that grows with the board;
//!   M. Bousquet-Melou's and Knuth's remarks on random probes), so `s` is often too small when the
//!   tail has not been sampled: the interval's actual coverage is measured, per board and proposal,
//!   in `results/estimates/README.md`. A batch-means interval (32 batches, Student's t with 31
//!   degrees of freedom) is given beside it; with independent walks it differs only by chance and
//!   by t's wider quantile, and a large gap between the two is itself a warning.
//! - The diagnostics: the effective sample size `(sum w)^2 / sum w^2` (A. Kong, J. S. Liu & W. H.
//!   Wong, JASA 89 (1994) 278-288), the share of the sum carried by the largest 1% of the walks and
//!   by the largest one, the share of walks that found a tour, and the standard deviation of the
//!   log of the non-zero weights: for log-normal weights of log-variance `v` the mean settles only
//!   once `K` is well past `exp(v)` (the sample size needed, printed beside it).
//!
//! Weights are given as natural logs (they pass 10^308 on large boards); everything here is
//! computed on the weights divided by the largest, so nothing overflows.

use serde::Serialize;

/// The normal quantile of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Batches of the batch-means interval.
pub const BATCHES: usize = 32;

/// Student's t quantile for a two-sided 95% interval with `BATCHES - 1` = 31 degrees of freedom.
const T95_31: f64 = 2.039_513_446;

/// What a sample of weights says.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Walks.
    pub samples: u64,
    /// Walks that found a tour (non-zero weight).
    pub hits: u64,
    /// The estimate: the mean weight (may be infinite past 10^308: see `log10_estimate`).
    pub estimate: f64,
    /// Its decimal log (`-inf` when no walk found a tour).
    pub log10_estimate: f64,
    /// The standard error over the estimate.
    pub relative_se: f64,
    /// The normal 95% interval: `estimate x (1 -+ 1.96 relative_se)`, the lower end at least 0.
    pub low: f64,
    /// Its upper end.
    pub high: f64,
    /// The batch-means 95% interval's half-width over the estimate (`None` below 64 walks).
    pub batch_relative_half_width: Option<f64>,
    /// Effective sample size, `(sum w)^2 / sum w^2`.
    pub ess: f64,
    /// Share of the sum carried by the largest 1% of the walks (at least one walk).
    pub top1_share: f64,
    /// Share of the sum carried by the largest walk.
    pub max_share: f64,
    /// Standard deviation of the natural log of the non-zero weights.
    pub ln_sd: f64,
}

impl Summary {
    /// The summary of the weights whose natural logs are `ln_weights`.
    pub fn of(ln_weights: &[f64]) -> Summary {
        let samples = ln_weights.len();
        let hits: Vec<f64> = ln_weights
            .iter()
            .copied()
            .filter(|l| l.is_finite())
            .collect();
        let scale = hits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if hits.is_empty() || samples == 0 {
            return Summary::empty(samples as u64, hits.len() as u64);
        }
        let x: Vec<f64> = ln_weights.iter().map(|&l| (l - scale).exp()).collect();
        let k = samples as f64;
        let sum: f64 = x.iter().sum();
        let sum_sq: f64 = x.iter().map(|v| v * v).sum();
        let mean = sum / k;
        let var = if samples > 1 {
            ((sum_sq - sum * mean) / (k - 1.0)).max(0.0)
        } else {
            0.0
        };
        let relative_se = (var / k).sqrt() / mean;
        let log10_estimate = (scale + mean.ln()) / std::f64::consts::LN_10;
        let estimate = 10f64.powf(log10_estimate);
        let ln_mean = hits.iter().sum::<f64>() / hits.len() as f64;
        let ln_var = hits.iter().map(|l| (l - ln_mean).powi(2)).sum::<f64>()
            / (hits.len().max(2) - 1) as f64;
        Summary {
            samples: samples as u64,
            hits: hits.len() as u64,
            estimate,
            log10_estimate,
            relative_se,
            low: estimate * (1.0 - Z95 * relative_se).max(0.0),
            high: estimate * (1.0 + Z95 * relative_se),
            batch_relative_half_width: batch_half_width(&x, mean),
            ess: sum * sum / sum_sq,
            top1_share: top_share(&x, sum),
            max_share: 1.0 / sum, // the largest scaled weight is 1
            ln_sd: ln_var.sqrt(),
        }
    }

    fn empty(samples: u64, hits: u64) -> Summary {
        Summary {
            samples,
            hits,
            estimate: 0.0,
            log10_estimate: f64::NEG_INFINITY,
            relative_se: f64::NAN,
            low: 0.0,
            high: 0.0,
            batch_relative_half_width: None,
            ess: 0.0,
            top1_share: f64::NAN,
            max_share: f64::NAN,
            ln_sd: f64::NAN,
        }
    }

    /// The normal interval's half-width over the estimate.
    pub fn relative_half_width(&self) -> f64 {
        Z95 * self.relative_se
    }

    /// Whether the normal interval holds `value`.
    pub fn covers(&self, value: f64) -> bool {
        self.low <= value && value <= self.high
    }

    /// Whether the batch-means interval holds `value`.
    pub fn batch_covers(&self, value: f64) -> Option<bool> {
        self.batch_relative_half_width
            .map(|h| (value / self.estimate - 1.0).abs() <= h)
    }
}

/// The batch-means interval's half-width over the mean: the `x` cut into [`BATCHES`] consecutive
/// batches of equal size (the remainder dropped from the batches, not from the mean).
fn batch_half_width(x: &[f64], mean: f64) -> Option<f64> {
    let size = x.len() / BATCHES;
    if size < 2 {
        return None;
    }
    let means: Vec<f64> = x
        .chunks_exact(size)
        .take(BATCHES)
        .map(|b| b.iter().sum::<f64>() / size as f64)
        .collect();
    let m = means.iter().sum::<f64>() / BATCHES as f64;
    let var = means.iter().map(|b| (b - m).powi(2)).sum::<f64>() / (BATCHES - 1) as f64;
    Some(T95_31 * (var / BATCHES as f64).sqrt() / mean)
}

/// The share of `sum` carried by the largest 1% of `x` (at least one value).
fn top_share(x: &[f64], sum: f64) -> f64 {
    let top = x.len().div_ceil(100);
    let mut sorted = x.to_vec();
    let at = sorted.len() - top;
    sorted.select_nth_unstable_by(at, |a, b| a.total_cmp(b));
    sorted[at..].iter().sum::<f64>() / sum
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ln(values: &[f64]) -> Vec<f64> {
        values.iter().map(|v| v.ln()).collect()
    }

    #[test]
    fn mean_interval_and_diagnostics_of_a_small_sample() {
        // weights 0, 2, 4, 6 (mean 3, sample variance 20/3)
        let s = Summary::of(&ln(&[0.0, 2.0, 4.0, 6.0]));
        assert_eq!((s.samples, s.hits), (4, 3));
        assert!((s.estimate - 3.0).abs() < 1e-12);
        let se = (20.0f64 / 3.0 / 4.0).sqrt();
        assert!((s.relative_se - se / 3.0).abs() < 1e-12);
        assert!((s.high - (3.0 + Z95 * se)).abs() < 1e-9);
        assert!((s.low - (3.0 - Z95 * se)).abs() < 1e-9);
        let spread = Summary::of(&ln(&[0.0, 0.0, 0.0, 8.0])); // 2 - 1.96 x 2 < 0
        assert_eq!(spread.low, 0.0);
        assert!((s.ess - 144.0 / 56.0).abs() < 1e-12);
        assert!((s.top1_share - 0.5).abs() < 1e-12); // the largest of 4 walks: 6 of 12
        assert!((s.max_share - 0.5).abs() < 1e-12);
        assert!(s.covers(3.5) && !s.covers(6.0));
        assert_eq!(s.batch_relative_half_width, None);
    }

    #[test]
    fn huge_weights_do_not_overflow() {
        let s = Summary::of(&[1000.0, 1000.0 + 2f64.ln()]);
        assert!((s.log10_estimate - (1000.0 + 1.5f64.ln()) / std::f64::consts::LN_10).abs() < 1e-9);
        assert!(s.relative_se.is_finite());
    }

    #[test]
    fn no_tour_found_is_an_estimate_of_zero() {
        let s = Summary::of(&[f64::NEG_INFINITY; 10]);
        assert_eq!((s.estimate, s.hits, s.low, s.high), (0.0, 0, 0.0, 0.0));
    }

    #[test]
    fn batch_means_of_equal_batches_have_no_spread() {
        let x: Vec<f64> = (0..64).map(|i| ((i % 2) as f64 + 1.0).ln()).collect();
        let s = Summary::of(&x);
        assert_eq!(s.batch_relative_half_width, Some(0.0));
        assert_eq!(s.batch_covers(1.5), Some(true));
    }
}
