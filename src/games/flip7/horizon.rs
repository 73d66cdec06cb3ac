//! Flip 7's estimate of the win from the standings ([`WinEstimate`]): what lets
//! `pimc:horizon=H` stop its rollouts at the end of a round.
//!
//! The stage is the number of rounds completed. The estimate reads the banked totals only
//! (public), under a model of independent rounds:
//!
//! - each seat's round score is drawn independently from one distribution `D`, measured
//!   when the estimate is built: [`SAMPLE_ROUNDS`] rounds of this configuration played by
//!   `expected-value` in every seat from a fixed seed (so the same configuration always
//!   gets the same `D`);
//! - from `D`, by dynamic programming over the points still missing, `P(T_d > r)`: the
//!   chance that a seat `d` points short of the target has not reached it after `r` more
//!   rounds (`r` up to where every such chance is below 1e-9, at most [`MAX_ROUNDS`]);
//! - seat `i` wins if it reaches the target in a round `r` before every other seat; a seat
//!   `j` reaching it in the same round is beaten with chance `q_ij`, a logistic
//!   approximation of the normal `Φ((s_i - s_j) / (σ √2))` (`s`: banked totals, `σ`: the
//!   standard deviation of `D`); the shares are normalized to sum to 1;
//! - with `max_rounds`, a game that runs out of rounds first is won by the seats leading
//!   now (split evenly).
//!
//! The model ignores the cards of the round just begun and the seats' interaction (Freeze,
//! Flip Three); it is a cheap smooth estimate, not the game's exact value. Targets above
//! [`MAX_TARGET`] have no estimate (the table grows with the target).

use super::bots::ExpectedValue;
use super::fast::Flip7State;
use super::Flip7;
use crate::core::{Bot, Game, LaneRng, WinEstimate};

/// Rounds played to measure the round-score distribution.
pub const SAMPLE_ROUNDS: usize = 4000;
/// Most rounds ahead the table looks.
pub const MAX_ROUNDS: usize = 400;
/// The largest target score with an estimate.
pub const MAX_TARGET: u32 = 2000;
/// Seed of the measuring games.
const SAMPLE_SEED: u64 = 0x666c_6970_375f_6573;

/// The estimate of one configuration (see the module documentation).
pub struct RoundModel {
    /// `survive[r * width + d]`: the chance that a seat `d` points short (`1..=target`) has
    /// not reached the target after `r` more rounds (`r` in `0..=rounds`).
    survive: Vec<f64>,
    width: usize,
    rounds: usize,
    /// The standard deviation of a round's score.
    sigma: f64,
}

impl RoundModel {
    /// The model of `game`'s configuration, or `None` if its target is above
    /// [`MAX_TARGET`].
    pub fn new(game: &Flip7) -> Option<RoundModel> {
        let target = game.target_score();
        if target > MAX_TARGET {
            return None;
        }
        let scores = sample_round_scores(game, SAMPLE_ROUNDS);
        let top = *scores.iter().max().unwrap_or(&0) as usize;
        let mut dist = vec![0f64; top + 1];
        for &x in &scores {
            dist[x as usize] += 1.0 / scores.len() as f64;
        }
        let mean: f64 = scores.iter().map(|&x| x as f64).sum::<f64>() / scores.len() as f64;
        let var: f64 = scores
            .iter()
            .map(|&x| (x as f64 - mean).powi(2))
            .sum::<f64>()
            / scores.len() as f64;
        let width = target as usize + 1;
        let support: Vec<(usize, f64)> = dist
            .iter()
            .enumerate()
            .filter(|&(_, &p)| p > 0.0)
            .map(|(x, &p)| (x, p))
            .collect();
        let mut survive = vec![1f64; width];
        survive[0] = 0.0;
        let mut rounds = 0;
        while rounds < MAX_ROUNDS {
            let last = &survive[rounds * width..(rounds + 1) * width];
            if last.iter().all(|&s| s < 1e-9) {
                break;
            }
            let mut next = vec![0f64; width];
            for (d, n) in next.iter_mut().enumerate().skip(1) {
                *n = support
                    .iter()
                    .filter(|&&(x, _)| x < d)
                    .map(|&(x, p)| p * last[d - x])
                    .sum();
            }
            survive.extend_from_slice(&next);
            rounds += 1;
        }
        Some(RoundModel {
            survive,
            width,
            rounds,
            sigma: var.sqrt().max(1.0),
        })
    }

    /// The chance that a seat `d` points short has not reached the target after `r` rounds.
    fn survives(&self, d: usize, r: usize) -> f64 {
        self.survive[r.min(self.rounds) * self.width + d.min(self.width - 1)]
    }

    /// Each seat's share of the win with banked totals `scores` and at most `left` more
    /// rounds (`None`: no limit), into `out`.
    pub fn shares(&self, target: u32, scores: &[u32], left: Option<u32>, out: &mut [f64]) {
        let n = scores.len();
        let short: Vec<usize> = scores
            .iter()
            .map(|&s| target.saturating_sub(s).max(1) as usize)
            .collect();
        let horizon = left.map_or(self.rounds, |l| (l as usize).min(self.rounds));
        let beats = |i: usize, j: usize| {
            let z = (scores[i] as f64 - scores[j] as f64) / (self.sigma * std::f64::consts::SQRT_2);
            1.0 / (1.0 + (-1.702 * z).exp())
        };
        for (i, o) in out.iter_mut().enumerate().take(n) {
            let mut win = 0.0;
            for r in 1..=horizon {
                let reach = self.survives(short[i], r - 1) - self.survives(short[i], r);
                if reach <= 0.0 {
                    continue;
                }
                let mut others = 1.0;
                for j in (0..n).filter(|&j| j != i) {
                    let later = self.survives(short[j], r);
                    let same = self.survives(short[j], r - 1) - later;
                    others *= later + same * beats(i, j);
                }
                win += reach * others;
            }
            *o = win;
        }
        if let Some(l) = left {
            // Nobody reaches the target before the rounds run out: the leaders now win.
            let none: f64 = short
                .iter()
                .map(|&d| self.survives(d, l as usize))
                .product();
            let best = scores.iter().copied().max().unwrap_or(0);
            let k = scores.iter().filter(|&&s| s == best).count() as f64;
            for (o, &s) in out.iter_mut().zip(scores) {
                if s == best {
                    *o += none / k;
                }
            }
        }
        let total: f64 = out[..n].iter().sum();
        for o in &mut out[..n] {
            *o = if total > 0.0 { *o / total } else { 1.0 / n as f64 };
        }
    }
}

/// Each seat's score in each of the first `rounds` rounds completed by games of `game`
/// played by `expected-value` in every seat from [`SAMPLE_SEED`] (the games are played
/// until enough rounds are seen).
fn sample_round_scores(game: &Flip7, rounds: usize) -> Vec<u32> {
    let n = game.num_players();
    let bot = ExpectedValue;
    let mut out = Vec::with_capacity(rounds * n);
    let mut mask = vec![0u8; game.num_actions()];
    let mut rewards = vec![0f32; n];
    let mut seen = 0;
    for g in 0.. {
        let mut rng = LaneRng::for_lane(SAMPLE_SEED, g, 0);
        let mut s = game.reset(&mut rng);
        let mut done = s.completed_round();
        while !s.is_over() && seen < rounds {
            game.legal_mask(&s, &mut mask);
            let a = bot.act(game, &s, &mask, &mut rng);
            game.step(&mut s, a, &mut rng, &mut rewards);
            if s.completed_round() != done {
                done = s.completed_round();
                out.extend_from_slice(&s.round_scores()[..n]);
                seen += 1;
            }
        }
        if seen >= rounds {
            break;
        }
    }
    out
}

impl WinEstimate<Flip7> for RoundModel {
    fn stage(&self, _game: &Flip7, state: &Flip7State) -> u64 {
        state.completed_round() as u64
    }

    fn estimate(&self, game: &Flip7, state: &Flip7State, out: &mut [f64]) {
        let n = game.num_players();
        let left = game
            .max_rounds()
            .map(|m| m.saturating_sub(state.completed_round()));
        self.shares(game.target_score(), &state.scores()[..n], left, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_sum_to_one_and_favour_the_leader() {
        let game = Flip7::with_players(3).unwrap();
        let model = RoundModel::new(&game).unwrap();
        let mut out = [0f64; 3];
        model.shares(200, &[0, 0, 0], None, &mut out);
        assert!((out.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!(out.iter().all(|&p| (p - 1.0 / 3.0).abs() < 1e-9), "{out:?}");
        model.shares(200, &[150, 100, 50], None, &mut out);
        assert!((out.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!(out[0] > out[1] && out[1] > out[2], "{out:?}");
        assert!(out[0] > 0.5 && out[2] < 0.1, "{out:?}");
        // One round left: nearly only the leader or a big round wins.
        model.shares(200, &[150, 100, 50], Some(0), &mut out);
        assert_eq!(out, [1.0, 0.0, 0.0]);
        // The same standings, the same estimate (a table, no randomness).
        let again = RoundModel::new(&game).unwrap();
        let mut twice = [0f64; 3];
        again.shares(200, &[150, 100, 50], None, &mut twice);
        model.shares(200, &[150, 100, 50], None, &mut out);
        assert_eq!(out, twice);
    }

    #[test]
    fn large_targets_have_no_estimate() {
        assert!(RoundModel::new(&Flip7::new(3, MAX_TARGET + 1, None).unwrap()).is_none());
        assert!(RoundModel::new(&Flip7::new(8, 60, None).unwrap()).is_some());
    }
}
