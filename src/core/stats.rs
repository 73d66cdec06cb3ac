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

/// Elo ratings from pairwise results (the Bradley–Terry maximum-likelihood fit, by
/// Zermelo's iteration): `wins[i][j]` is what player `i` scored against `j` (a tie counts
/// half to each). Ratings are on the Elo scale (400 per factor 10 of odds) with player
/// `anchor` at `anchor_rating`. A player who never lost (or never won) has no finite
/// maximum-likelihood rating; half a game is added to every pair that played, both ways,
/// so every rating stays finite.
pub fn elo_ratings(wins: &[Vec<f64>], anchor: usize, anchor_rating: f64) -> Vec<f64> {
    let n = wins.len();
    let games = |i: usize, j: usize| wins[i][j] + wins[j][i];
    let w = |i: usize, j: usize| {
        if games(i, j) > 0.0 {
            wins[i][j] + 0.5
        } else {
            0.0
        }
    };
    let mut p = vec![1.0f64; n];
    for _ in 0..10_000 {
        let mut next = p.clone();
        let mut delta = 0.0f64;
        for i in 0..n {
            let won: f64 = (0..n).filter(|&j| j != i).map(|j| w(i, j)).sum();
            let denom: f64 = (0..n)
                .filter(|&j| j != i && games(i, j) > 0.0)
                .map(|j| (w(i, j) + w(j, i)) / (p[i] + p[j]))
                .sum();
            if denom > 0.0 && won > 0.0 {
                next[i] = won / denom;
            }
        }
        // Normalize by the geometric mean to keep the numbers in range.
        let g = (next.iter().map(|x| x.ln()).sum::<f64>() / n.max(1) as f64).exp();
        for (i, x) in next.iter_mut().enumerate() {
            *x /= g;
            delta = delta.max((x.ln() - p[i].ln()).abs());
        }
        p = next;
        if delta < 1e-10 {
            break;
        }
    }
    let base = p.get(anchor).map_or(0.0, |x| x.log10());
    p.iter()
        .map(|x| anchor_rating + 400.0 * (x.log10() - base))
        .collect()
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

    #[test]
    fn elo_recovers_the_odds_of_a_known_pairing() {
        // 3 players: 0 beats 1 75% of the time, 1 beats 2 75%, 0 beats 2 90%.
        let wins = vec![
            vec![0.0, 750.0, 900.0],
            vec![250.0, 0.0, 750.0],
            vec![100.0, 250.0, 0.0],
        ];
        let elo = elo_ratings(&wins, 2, 1000.0);
        assert!((elo[2] - 1000.0).abs() < 1e-9);
        assert!(elo[0] > elo[1] && elo[1] > elo[2], "{elo:?}");
        // 75% is about 191 Elo points.
        assert!((elo[1] - elo[2] - 191.0).abs() < 40.0, "{elo:?}");
    }
}
