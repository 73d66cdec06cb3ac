//! Small statistics for match reports: win rates with Wilson intervals, means with normal
//! confidence intervals.

/// A proportion with its 95% Wilson score interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Proportion {
    /// Successes / trials.
    pub rate: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval of `successes` out of `trials` (`trials > 0`).
pub fn wilson(successes: f64, trials: f64) -> Proportion {
    if trials <= 0.0 {
        return Proportion {
            rate: 0.0,
            low: 0.0,
            high: 1.0,
        };
    }
    let p = successes / trials;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / trials;
    let centre = (p + z2 / (2.0 * trials)) / denom;
    let half = Z95 * (p * (1.0 - p) / trials + z2 / (4.0 * trials * trials)).sqrt() / denom;
    Proportion {
        rate: p,
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    }
}

/// Running mean and variance (Welford).
#[derive(Clone, Copy, Debug, Default)]
pub struct Summary {
    n: u64,
    mean: f64,
    m2: f64,
}

impl Summary {
    /// Adds one value.
    pub fn push(&mut self, x: f64) {
        self.n += 1;
        let d = x - self.mean;
        self.mean += d / self.n as f64;
        self.m2 += d * (x - self.mean);
    }
    /// Merges another summary into this one.
    pub fn merge(&mut self, other: &Summary) {
        if other.n == 0 {
            return;
        }
        let n = self.n + other.n;
        let d = other.mean - self.mean;
        self.mean += d * other.n as f64 / n as f64;
        self.m2 += other.m2 + d * d * self.n as f64 * other.n as f64 / n as f64;
        self.n = n;
    }
    /// Number of values.
    pub fn count(&self) -> u64 {
        self.n
    }
    /// The mean.
    pub fn mean(&self) -> f64 {
        self.mean
    }
    /// The sample standard deviation.
    pub fn std_dev(&self) -> f64 {
        if self.n < 2 {
            0.0
        } else {
            (self.m2 / (self.n - 1) as f64).sqrt()
        }
    }
    /// Half-width of the 95% confidence interval of the mean.
    pub fn ci95(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            Z95 * self.std_dev() / (self.n as f64).sqrt()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_brackets_the_rate() {
        let p = wilson(95.0, 100.0);
        assert!(p.low < 0.95 && p.high > 0.95);
        assert!((p.low - 0.888).abs() < 0.01, "{p:?}");
    }

    #[test]
    fn summary_merge_equals_sequential() {
        let xs = [1.0, 4.0, 2.0, 8.0, 5.0, 7.0];
        let mut all = Summary::default();
        xs.iter().for_each(|&x| all.push(x));
        let (mut a, mut b) = (Summary::default(), Summary::default());
        xs[..2].iter().for_each(|&x| a.push(x));
        xs[2..].iter().for_each(|&x| b.push(x));
        a.merge(&b);
        assert!((a.mean() - all.mean()).abs() < 1e-12);
        assert!((a.std_dev() - all.std_dev()).abs() < 1e-12);
    }
}
