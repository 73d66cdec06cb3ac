//! Ratings from finishing orders: the Plackett–Luce model (Bradley–Terry when every game has
//! two players), fitted by maximum likelihood with Newton's method, with 95% intervals from
//! the observed information.
//!
//! # The model
//!
//! Player `i` has a strength `θ_i` (natural log scale). A game's finishing order among the
//! players at its table is read best first, one *stage* per place: the players who finished
//! in that place (a group of tied players) are chosen from those not yet placed `R`, and the
//! stage contributes
//!
//! ```text
//! (1/|g|) Σ_{i∈g} θ_i − log Σ_{k∈R} exp θ_k
//! ```
//!
//! to the log-likelihood (a stage with a single player left contributes nothing). Without
//! ties this is the Plackett–Luce likelihood; with two players it is Bradley–Terry, a tie
//! counting half a win to each (as [`crate::core::stats::elo_ratings`] counts it). A tied
//! group is one choice shared equally among its members.
//!
//! A player who never lost (or never won) has no finite maximum; as
//! [`crate::core::stats::elo_ratings`] does, one drawn two-player game is added between
//! every two players who met, so that every rating linked to the anchor by games is finite.
//!
//! Ratings are reported on the Elo scale (400 points per factor 10 of odds:
//! `400 θ / ln 10`), the anchor at a given rating; the interval of a player is that of its
//! difference from the anchor (`± 1.96` standard errors from the inverse of the observed
//! information with the anchor's strength held fixed). It treats games as independent,
//! which for duplicate deals (whose games cancel each other's luck) overstates its width.

use std::collections::BTreeMap;

use crate::core::stats::Z95;
use crate::core::{Error, Result};

/// Elo points per unit of natural-log strength (`400 / ln 10`).
pub const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// The most players a [`Rankings`] may hold (the fit's matrices are dense).
pub const MAX_PLAYERS: usize = 1024;

/// Finishing orders of games among `n` players, counted: the data of a Plackett–Luce fit.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rankings {
    n: usize,
    /// Each distinct finishing order (groups best first, each group sorted) and its weight.
    orders: BTreeMap<Vec<Vec<u32>>, f64>,
    /// `met[i][j]` (`i < j`): players `i` and `j` sat at one table at least once.
    met: Vec<Vec<bool>>,
}

impl Rankings {
    /// No game yet among `n` players (`1..=MAX_PLAYERS`).
    pub fn new(n: usize) -> Result<Rankings> {
        Error::check_range("players", 1, MAX_PLAYERS, n)?;
        Ok(Rankings {
            n,
            orders: BTreeMap::new(),
            met: vec![vec![false; n]; n],
        })
    }

    /// The number of players.
    pub fn num_players(&self) -> usize {
        self.n
    }

    /// Adds a game whose finishing order is `groups` (best first; the players of a group
    /// tied), counted `weight` times. Errors (nothing added): a player out of range or
    /// named twice, an empty group, fewer than two players, a weight that is not finite and
    /// positive.
    pub fn add(&mut self, groups: &[Vec<usize>], weight: f64) -> Result<()> {
        let invalid = |reason: String| Error::Invalid {
            what: "ranking",
            reason,
        };
        if !(weight.is_finite() && weight > 0.0) {
            return Err(invalid(format!("weight {weight} is not a positive number")));
        }
        let mut seen = vec![false; self.n];
        let mut key: Vec<Vec<u32>> = Vec::with_capacity(groups.len());
        for g in groups {
            if g.is_empty() {
                return Err(invalid("an empty group".into()));
            }
            let mut group = Vec::with_capacity(g.len());
            for &p in g {
                if p >= self.n {
                    return Err(invalid(format!("player {p} of {}", self.n)));
                }
                if std::mem::replace(&mut seen[p], true) {
                    return Err(invalid(format!("player {p} is ranked twice")));
                }
                group.push(p as u32);
            }
            group.sort_unstable();
            key.push(group);
        }
        let players: Vec<usize> = (0..self.n).filter(|&p| seen[p]).collect();
        if players.len() < 2 {
            return Err(invalid(format!(
                "{} player(s); a game needs two",
                players.len()
            )));
        }
        for (k, &i) in players.iter().enumerate() {
            for &j in &players[k + 1..] {
                self.met[i][j] = true;
            }
        }
        *self.orders.entry(key).or_insert(0.0) += weight;
        Ok(())
    }

    /// The finishing order of one game from the seats' scores (higher is better, equal
    /// scores tie): `players[s]` sat at seat `s` and scored `scores[s]`. Added with weight 1.
    pub fn add_scores(&mut self, players: &[usize], scores: &[f32]) -> Result<()> {
        self.add(&order_by_score(players, scores)?, 1.0)
    }

    /// The total weight of the games added.
    pub fn games(&self) -> f64 {
        self.orders.values().sum()
    }

    /// The stages of the fit: every order's and the prior's, with their weights.
    fn stages(&self) -> Vec<Stage> {
        let mut stages = Vec::new();
        let mut push_order = |order: &[Vec<u32>], weight: f64| {
            let mut remaining: Vec<u32> = order.iter().flatten().copied().collect();
            for g in order {
                if remaining.len() < 2 {
                    break;
                }
                stages.push(Stage {
                    chosen: g.clone(),
                    from: remaining.clone(),
                    weight,
                });
                remaining.retain(|p| !g.contains(p));
            }
        };
        for (order, &w) in &self.orders {
            push_order(order, w);
        }
        for i in 0..self.n {
            for j in i + 1..self.n {
                if self.met[i][j] {
                    push_order(&[vec![i as u32, j as u32]], 1.0);
                }
            }
        }
        stages
    }
}

/// The finishing order (groups best first) of a game in which `players[s]` scored
/// `scores[s]`: higher first, equal scores tied. Errors: lengths that differ, a score that
/// is not a number.
pub fn order_by_score(players: &[usize], scores: &[f32]) -> Result<Vec<Vec<usize>>> {
    if players.len() != scores.len() {
        return Err(Error::Length {
            what: "scores",
            expected: players.len(),
            got: scores.len(),
        });
    }
    if let Some(x) = scores.iter().find(|x| x.is_nan()) {
        return Err(Error::Invalid {
            what: "ranking",
            reason: format!("score {x} is not a number"),
        });
    }
    let mut seats: Vec<usize> = (0..players.len()).collect();
    seats.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut last = None;
    for s in seats {
        if last == Some(scores[s]) {
            groups.last_mut().expect("a group is open").push(players[s]);
        } else {
            groups.push(vec![players[s]]);
            last = Some(scores[s]);
        }
    }
    Ok(groups)
}

/// One stage: `chosen` (a tied group) chosen from `from`, counted `weight` times.
struct Stage {
    chosen: Vec<u32>,
    from: Vec<u32>,
    weight: f64,
}

/// The log-likelihood of `theta` over `stages`.
fn log_likelihood(stages: &[Stage], theta: &[f64]) -> f64 {
    stages
        .iter()
        .map(|s| {
            let top: f64 =
                s.chosen.iter().map(|&i| theta[i as usize]).sum::<f64>() / s.chosen.len() as f64;
            s.weight * (top - log_sum_exp(s.from.iter().map(|&k| theta[k as usize])))
        })
        .sum()
}

fn log_sum_exp(xs: impl Iterator<Item = f64> + Clone) -> f64 {
    let m = xs.clone().fold(f64::NEG_INFINITY, f64::max);
    m + xs.map(|x| (x - m).exp()).sum::<f64>().ln()
}

/// The gradient and the negated Hessian (the observed information) of the log-likelihood.
fn derivatives(stages: &[Stage], theta: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let n = theta.len();
    let mut grad = vec![0.0; n];
    let mut info = vec![vec![0.0; n]; n];
    let mut pi = Vec::new();
    for s in stages {
        let share = s.weight / s.chosen.len() as f64;
        for &i in &s.chosen {
            grad[i as usize] += share;
        }
        let m = s
            .from
            .iter()
            .map(|&k| theta[k as usize])
            .fold(f64::NEG_INFINITY, f64::max);
        pi.clear();
        pi.extend(s.from.iter().map(|&k| (theta[k as usize] - m).exp()));
        let total: f64 = pi.iter().sum();
        for p in pi.iter_mut() {
            *p /= total;
        }
        for (a, &i) in s.from.iter().enumerate() {
            let i = i as usize;
            grad[i] -= s.weight * pi[a];
            info[i][i] += s.weight * pi[a];
            for (b, &j) in s.from.iter().enumerate() {
                info[i][j as usize] -= s.weight * pi[a] * pi[b];
            }
        }
    }
    (grad, info)
}

/// The Cholesky factor `L` (lower, `L Lᵀ = a`) of a symmetric matrix, or `None` if it is
/// not positive definite.
fn cholesky(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let scale = (0..n)
        .map(|i| a[i][i].abs())
        .fold(0.0, f64::max)
        .max(1e-300);
    let mut l = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..=i {
            let s: f64 = a[i][j] - (0..j).map(|k| l[i][k] * l[j][k]).sum::<f64>();
            if i == j {
                if s <= 1e-12 * scale {
                    return None;
                }
                l[i][i] = s.sqrt();
            } else {
                l[i][j] = s / l[j][j];
            }
        }
    }
    Some(l)
}

/// Solves `L Lᵀ x = b`.
fn cholesky_solve(l: &[Vec<f64>], b: &[f64]) -> Vec<f64> {
    let n = l.len();
    let mut y = vec![0.0; n];
    for i in 0..n {
        y[i] = (b[i] - (0..i).map(|k| l[i][k] * y[k]).sum::<f64>()) / l[i][i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        x[i] = (y[i] - (i + 1..n).map(|k| l[k][i] * x[k]).sum::<f64>()) / l[i][i];
    }
    x
}

/// A Plackett–Luce fit.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The anchor player (its strength is 0).
    pub anchor: usize,
    /// Each player's strength `θ` (natural log scale), the anchor's 0.
    pub theta: Vec<f64>,
    /// The standard error of each `θ_i − θ_anchor` (0 for the anchor).
    pub std_err: Vec<f64>,
    /// The maximum log-likelihood (with the prior's games).
    pub log_likelihood: f64,
    /// Newton iterations taken.
    pub iterations: u32,
}

/// A rating on the Elo scale with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Rating {
    /// The rating.
    pub rating: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

impl Fit {
    /// The ratings on the Elo scale, the anchor at `anchor_rating`, with 95% intervals of
    /// each difference from the anchor.
    pub fn elo(&self, anchor_rating: f64) -> Vec<Rating> {
        self.theta
            .iter()
            .zip(&self.std_err)
            .map(|(&t, &se)| {
                let rating = anchor_rating + ELO_PER_NAT * t;
                let half = Z95 * ELO_PER_NAT * se;
                Rating {
                    rating,
                    low: rating - half,
                    high: rating + half,
                }
            })
            .collect()
    }
}

/// The maximum-likelihood Plackett–Luce strengths of `rankings` (see the module
/// documentation), player `anchor` at 0. Errors: an anchor out of range, a player not
/// linked to the anchor by games (its strength is not determined), no convergence.
pub fn fit_plackett_luce(rankings: &Rankings, anchor: usize) -> Result<Fit> {
    let n = rankings.n;
    Error::check_range("anchor", 0, n - 1, anchor)?;
    let stages = rankings.stages();
    let free: Vec<usize> = (0..n).filter(|&i| i != anchor).collect();
    let mut theta = vec![0.0; n];
    let unlinked = || Error::Invalid {
        what: "ratings",
        reason: "some players are not linked to the anchor by games".into(),
    };
    let reduce = |info: &[Vec<f64>]| -> Vec<Vec<f64>> {
        free.iter()
            .map(|&i| free.iter().map(|&j| info[i][j]).collect())
            .collect()
    };
    let mut ll = log_likelihood(&stages, &theta);
    let mut iterations = 0;
    loop {
        let (grad, info) = derivatives(&stages, &theta);
        let l = cholesky(&reduce(&info)).ok_or_else(unlinked)?;
        let g: Vec<f64> = free.iter().map(|&i| grad[i]).collect();
        let step = cholesky_solve(&l, &g);
        let slope: f64 = g.iter().zip(&step).map(|(a, b)| a * b).sum();
        let biggest = step.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        // Converged: the Newton step, or the Newton decrement `gᵀ H⁻¹ g` (the gain the step
        // promises, twice over), is below what the log-likelihood's rounding resolves.
        if biggest < 1e-10 || slope <= 1e-18 * (1.0 + ll.abs()) {
            let var_diag: Vec<f64> = (0..free.len())
                .map(|k| {
                    let mut e = vec![0.0; free.len()];
                    e[k] = 1.0;
                    cholesky_solve(&l, &e)[k]
                })
                .collect();
            let mut std_err = vec![0.0; n];
            for (k, &i) in free.iter().enumerate() {
                std_err[i] = var_diag[k].max(0.0).sqrt();
            }
            return Ok(Fit {
                anchor,
                theta,
                std_err,
                log_likelihood: ll,
                iterations,
            });
        }
        iterations += 1;
        if iterations > 500 {
            return Err(Error::Invalid {
                what: "ratings",
                reason: "the fit did not converge in 500 Newton steps".into(),
            });
        }
        // Backtracking line search (the log-likelihood is concave).
        let mut t = 1.0;
        loop {
            let mut next = theta.clone();
            for (k, &i) in free.iter().enumerate() {
                next[i] += t * step[k];
            }
            let next_ll = log_likelihood(&stages, &next);
            if next_ll >= ll + 1e-4 * t * slope || t < 1e-12 {
                theta = next;
                ll = next_ll.max(ll);
                break;
            }
            t *= 0.5;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::stats::elo_ratings;

    /// Two players, `a` wins, `b` wins and `t` ties: the closed form of the Bradley–Terry
    /// fit with the prior's drawn game is `θ_b − θ_a = ln((s_b) / (s_a))` with
    /// `s = wins + (ties + 1) / 2`, and the standard error `1 / sqrt(n p (1 − p))` with
    /// `n = a + b + t + 1`, `p = s_b / n`.
    #[test]
    fn two_players_match_the_closed_form() {
        for (a_wins, b_wins, ties) in [(30u32, 70u32, 0u32), (5, 0, 0), (12, 20, 8), (0, 0, 3)] {
            let mut r = Rankings::new(2).unwrap();
            for _ in 0..a_wins {
                r.add_scores(&[0, 1], &[1.0, 0.0]).unwrap();
            }
            for _ in 0..b_wins {
                r.add_scores(&[1, 0], &[2.0, -1.0]).unwrap();
            }
            for _ in 0..ties {
                r.add_scores(&[0, 1], &[0.5, 0.5]).unwrap();
            }
            let fit = fit_plackett_luce(&r, 0).unwrap();
            let sa = a_wins as f64 + (ties as f64 + 1.0) / 2.0;
            let sb = b_wins as f64 + (ties as f64 + 1.0) / 2.0;
            let n = sa + sb;
            let p = sb / n;
            assert!((fit.theta[1] - (sb / sa).ln()).abs() < 1e-9, "{fit:?}");
            assert_eq!(fit.theta[0], 0.0);
            let se = 1.0 / (n * p * (1.0 - p)).sqrt();
            assert!((fit.std_err[1] - se).abs() < 1e-9, "{fit:?} vs {se}");
            let elo = fit.elo(1000.0);
            assert!((elo[1].rating - 1000.0 - 400.0 * (sb / sa).log10()).abs() < 1e-6);
            assert!((elo[1].high - elo[1].rating - Z95 * ELO_PER_NAT * se).abs() < 1e-6);
        }
    }

    /// Many two-player games: the fit is the Bradley–Terry fit that Zermelo's iteration
    /// (`core::stats::elo_ratings`) finds on the same scores.
    #[test]
    fn two_seat_games_agree_with_zermelo_iteration() {
        // 4 players, every pair with its own record (ties included).
        let record = [
            ((0, 1), 10, 20, 2),
            ((0, 2), 3, 25, 0),
            ((1, 2), 14, 15, 1),
            ((1, 3), 8, 30, 4),
            ((2, 3), 18, 18, 0),
        ];
        let mut r = Rankings::new(4).unwrap();
        let mut wins = vec![vec![0.0; 4]; 4];
        for ((i, j), wi, wj, t) in record {
            for _ in 0..wi {
                r.add(&[vec![i], vec![j]], 1.0).unwrap();
            }
            r.add(&[vec![j], vec![i]], wj as f64).unwrap();
            if t > 0 {
                r.add(&[vec![i, j]], t as f64).unwrap();
            }
            wins[i][j] += wi as f64 + t as f64 / 2.0;
            wins[j][i] += wj as f64 + t as f64 / 2.0;
        }
        let fit = fit_plackett_luce(&r, 0).unwrap();
        let zermelo = elo_ratings(&wins, 0, 1000.0);
        for (e, z) in fit.elo(1000.0).iter().zip(&zermelo) {
            assert!(
                (e.rating - z).abs() < 1e-4,
                "{:?} vs {zermelo:?}",
                fit.elo(1000.0)
            );
        }
    }

    /// The probability of a finishing order, written out (independent of the fit's stage
    /// code): the product over places of the chosen players' strength (geometric mean for a
    /// tie) over the total strength of those left.
    fn brute_log_likelihood(orders: &[(Vec<Vec<usize>>, f64)], theta: &[f64]) -> f64 {
        let w: Vec<f64> = theta.iter().map(|t| t.exp()).collect();
        let mut ll = 0.0;
        for (order, weight) in orders {
            let mut left: f64 = order.iter().flatten().map(|&i| w[i]).sum();
            let mut placed = 0;
            let total = order.iter().flatten().count();
            for g in order {
                if total - placed < 2 {
                    break;
                }
                let geo: f64 = g.iter().map(|&i| w[i]).product::<f64>();
                ll += weight * (geo.powf(1.0 / g.len() as f64) / left).ln();
                left -= g.iter().map(|&i| w[i]).sum::<f64>();
                placed += g.len();
            }
        }
        ll
    }

    /// Three players in three-seat games with ties, and a fourth who meets two of them
    /// only: the fit is where a brute-force search of the likelihood (a grid, refined
    /// around its best point) finds its maximum, and the log-likelihood agrees.
    #[test]
    fn multi_seat_fit_maximizes_the_likelihood_by_brute_force() {
        let orders: Vec<(Vec<Vec<usize>>, f64)> = vec![
            (vec![vec![0], vec![1], vec![2]], 5.0),
            (vec![vec![1], vec![0], vec![2]], 3.0),
            (vec![vec![2], vec![1], vec![0]], 1.0),
            (vec![vec![0, 1], vec![2]], 2.0),
            (vec![vec![2], vec![0, 1]], 1.0),
            (vec![vec![1], vec![3], vec![2]], 4.0),
            (vec![vec![3], vec![2], vec![1]], 2.0),
        ];
        let mut r = Rankings::new(4).unwrap();
        for (o, w) in &orders {
            r.add(o, *w).unwrap();
        }
        // The prior: one drawn game between every two players who met.
        let mut with_prior = orders.clone();
        for (i, j) in [(0, 1), (0, 2), (1, 2), (1, 3), (2, 3)] {
            with_prior.push((vec![vec![i, j]], 1.0));
        }
        let fit = fit_plackett_luce(&r, 0).unwrap();
        let mut best = vec![0.0; 4];
        let mut best_ll = f64::NEG_INFINITY;
        let mut centre = [0.0; 3];
        let mut width = 4.0;
        for _ in 0..12 {
            let steps = 10;
            for a in 0..=steps {
                for b in 0..=steps {
                    for c in 0..=steps {
                        let at =
                            |k: i32, m: usize| centre[m] + width * (k as f64 / steps as f64 - 0.5);
                        let theta = [0.0, at(a, 0), at(b, 1), at(c, 2)];
                        let ll = brute_log_likelihood(&with_prior, &theta);
                        if ll > best_ll {
                            best_ll = ll;
                            best = theta.to_vec();
                        }
                    }
                }
            }
            centre = [best[1], best[2], best[3]];
            width /= 3.0;
        }
        for (f, b) in fit.theta.iter().zip(&best) {
            assert!(
                (f - b).abs() < 1e-3,
                "fit {:?} vs brute force {best:?}",
                fit.theta
            );
        }
        assert!((fit.log_likelihood - best_ll).abs() < 1e-6);
        assert!((brute_log_likelihood(&with_prior, &fit.theta) - fit.log_likelihood).abs() < 1e-9);
        assert!(fit.std_err[1..].iter().all(|&s| s > 0.0 && s.is_finite()));
    }

    #[test]
    fn bad_rankings_and_unlinked_players_are_errors() {
        let mut r = Rankings::new(3).unwrap();
        assert!(r.add(&[vec![0], vec![3]], 1.0).is_err());
        assert!(r.add(&[vec![0], vec![0]], 1.0).is_err());
        assert!(r.add(&[vec![0]], 1.0).is_err());
        assert!(r.add(&[vec![0], vec![]], 1.0).is_err());
        assert!(r.add(&[vec![0], vec![1]], 0.0).is_err());
        assert!(r.add(&[vec![0], vec![1]], f64::NAN).is_err());
        assert_eq!(r.games(), 0.0);
        assert!(Rankings::new(0).is_err());
        assert!(order_by_score(&[0, 1], &[1.0]).is_err());
        assert!(order_by_score(&[0, 1], &[1.0, f32::NAN]).is_err());
        // Player 2 never played: its strength is not determined.
        r.add(&[vec![0], vec![1]], 1.0).unwrap();
        let err = fit_plackett_luce(&r, 0).unwrap_err();
        assert!(err.to_string().contains("not linked"), "{err}");
        assert!(fit_plackett_luce(&r, 3).is_err());
    }

    #[test]
    fn scores_rank_higher_first_with_ties_grouped() {
        let o = order_by_score(&[7, 3, 5, 1], &[2.0, 5.0, 2.0, -1.0]).unwrap();
        assert_eq!(o, vec![vec![3], vec![7, 5], vec![1]]);
    }
}
