//! 151's estimate of the win part-way through a match ([`WinEstimate`]): what lets
//! `pimc:horizon=H` stop its rollouts after `H` actions, valued from the hands and the
//! scores instead of a match played on to its end (docs/search.md, "Horizons").
//!
//! **Stages.** The stage of a state is `round_number * 2^20 + actions applied in the
//! round`: it grows by one with every action and jumps at a new deal, so `horizon=H` stops
//! a rollout after `H` actions or at the first state of the next round, whichever comes
//! first (a round has at most `u16::MAX` actions, far fewer than `2^20`).
//!
//! **The estimate** (two seats only; other seat counts have none), under a model measured
//! when the estimate is built, from [`SAMPLE_ROUNDS`] rounds of this configuration played
//! by `medium` in both seats from a fixed seed (so the same configuration always gets the
//! same model):
//!
//! - the chance that a seat wins the round being played: a logistic
//!   `σ(k_race · race + k_move · move)` of the hand-size race (the other seat's cards minus
//!   its own, an eight, always playable, counting a third of a card, as `minmax`'s leaf
//!   does) and of having the move (`+1` to act, `-1` not), `k_race` and `k_move` fitted by
//!   maximum likelihood on every state of the sampled rounds;
//! - the points the loser of the round adds: `α + β · (its hand's points now)`, fitted by
//!   least squares on the same states (the loser's score change at the round's end);
//! - the match from scores `(a, b)` at the start of a round: `V(a, b)`, the chance that
//!   the seat with `a` wins, by dynamic programming over the scores, each round won by
//!   either seat with chance 1/2 and the loser adding points drawn from the sampled
//!   distribution of a loser's points (a seat reaching the target is excluded and loses);
//!   the third consecutive win's 10 points off are ignored;
//! - a seat's share: `p · V(a, b + X_other) + (1 - p) · V(a + X_own, b)` (`p` its chance
//!   to win the round, `X` the loser's points above, `V` interpolated between scores).
//!
//! The estimate reads the state it is given (hands included): the search calls it only
//! on the worlds its determinization dealt and on the states its rollouts reached from
//! them, never on the real state, so it reads nothing the searching seat cannot see. It is
//! a cheap smooth estimate, not the game's exact value. Targets above [`MAX_TARGET`]
//! (and below 1) have no estimate (the table grows as the square of the target).

use super::bots::{Medium, ViewPolicy};
use super::fast::I151State;
use super::{hand_points, rank_set, I151, EIGHT};
use crate::core::{Game, LaneRng, WinEstimate};

/// Rounds played to measure the model.
pub const SAMPLE_ROUNDS: usize = 1500;
/// The largest target score with an estimate.
pub const MAX_TARGET: i32 = 1000;
/// Actions after which a sampled round is dropped (the round-step limit's default).
const SAMPLE_ROUND_STEPS: u16 = 500;
/// Seed of the measuring matches.
const SAMPLE_SEED: u64 = 0x3135_315f_6573_7469;
/// The stage's shift: actions within a round live in the low bits.
const ROUND_SHIFT: u32 = 20;

/// The estimate of one two-seat configuration (see the module documentation).
pub struct MatchModel {
    target: i64,
    /// `value[a * target + b]`: the chance that the seat with score `a` wins the match
    /// against the seat with `b`, from the start of a round (`a`, `b` in `0..target`).
    value: Vec<f64>,
    k_race: f64,
    k_move: f64,
    alpha: f64,
    beta: f64,
}

/// The hand-size race of `hand`: its cards, an eight counting a third.
fn distance(hand: u32) -> f64 {
    let eights = (hand & rank_set(EIGHT)).count_ones() as f64;
    hand.count_ones() as f64 - eights * (2.0 / 3.0)
}

/// One sampled state, from seat 0's side: the race, the move, each seat's hand points.
#[derive(Clone, Copy)]
struct Sample {
    race: f64,
    mover: f64,
    points: [f64; 2],
}

/// One sampled round: its states, the winner, the loser's added points.
struct Round {
    states: Vec<Sample>,
    winner: usize,
    added: f64,
}

impl MatchModel {
    /// The model of `game`'s configuration, or `None` if it has other than two seats or a
    /// target outside `1..=`[`MAX_TARGET`].
    pub fn new(game: &I151) -> Option<MatchModel> {
        let target = game.target_score();
        if game.num_players() != 2 || !(1..=MAX_TARGET).contains(&target) {
            return None;
        }
        let rounds = sample_rounds(game, SAMPLE_ROUNDS);
        // The loser's points: their distribution (for the match table) and their fit on
        // the loser's hand points at every state of the round.
        let mut dist = vec![0f64; target as usize + 1];
        let (mut n, mut sx, mut sy, mut sxx, mut sxy) = (0f64, 0f64, 0f64, 0f64, 0f64);
        for r in &rounds {
            let x = (r.added.max(1.0) as usize).min(target as usize);
            dist[x] += 1.0 / rounds.len() as f64;
            let loser = 1 - r.winner;
            for s in &r.states {
                let p = s.points[loser];
                n += 1.0;
                sx += p;
                sy += r.added;
                sxx += p * p;
                sxy += p * r.added;
            }
        }
        let var = sxx - sx * sx / n;
        let beta = if var > 1e-9 {
            (sxy - sx * sy / n) / var
        } else {
            0.0
        };
        let alpha = (sy - beta * sx) / n;
        let (k_race, k_move) = fit_logistic(&rounds);
        Some(MatchModel {
            target: target as i64,
            value: match_table(target as usize, &dist),
            k_race,
            k_move,
            alpha,
            beta,
        })
    }

    /// The chance that the seat with score `a` wins against `b` from a round's start
    /// (`a >= target`: 0, the seat is out; else `b >= target`: 1).
    fn at(&self, a: i64, b: i64) -> f64 {
        if a >= self.target {
            0.0
        } else if b >= self.target {
            1.0
        } else {
            let t = self.target as usize;
            self.value[a.max(0) as usize * t + b.max(0) as usize]
        }
    }

    /// [`MatchModel::at`] with `b` a real number: linear between the scores around it.
    fn at_b(&self, a: i64, b: f64) -> f64 {
        let lo = b.floor();
        let f = b - lo;
        (1.0 - f) * self.at(a, lo as i64) + f * self.at(a, lo as i64 + 1)
    }

    /// [`MatchModel::at`] with `a` a real number.
    fn at_a(&self, a: f64, b: i64) -> f64 {
        let lo = a.floor();
        let f = a - lo;
        (1.0 - f) * self.at(lo as i64, b) + f * self.at(lo as i64 + 1, b)
    }

    /// Seat 0's estimated share of the win from the live `state`.
    fn seat0(&self, state: &I151State) -> f64 {
        let sample = sample(state);
        let z = self.k_race * sample.race + self.k_move * sample.mover;
        let p = 1.0 / (1.0 + (-z).exp());
        let added = |points: f64| (self.alpha + self.beta * points).max(1.0);
        let (a, b) = (state.scores[0] as i64, state.scores[1] as i64);
        let win = self.at_b(a, b as f64 + added(sample.points[1]));
        let lose = self.at_a(a as f64 + added(sample.points[0]), b);
        p * win + (1.0 - p) * lose
    }
}

impl WinEstimate<I151> for MatchModel {
    fn stage(&self, _game: &I151, state: &I151State) -> u64 {
        (state.round_number as u64) << ROUND_SHIFT | state.round_steps as u64
    }

    fn estimate(&self, _game: &I151, state: &I151State, out: &mut [f64]) {
        let v = if state.is_over() {
            match state.winner {
                0 => 1.0,
                1 => 0.0,
                _ => 0.5,
            }
        } else {
            self.seat0(state)
        };
        out[0] = v;
        out[1] = 1.0 - v;
    }
}

/// Seat 0's side of a live two-seat state.
fn sample(s: &I151State) -> Sample {
    Sample {
        race: distance(s.hands[1]) - distance(s.hands[0]),
        mover: if s.to_act == 0 { 1.0 } else { -1.0 },
        points: [hand_points(s.hands[0]) as f64, hand_points(s.hands[1]) as f64],
    }
}

/// `count` rounds of `game` played by `medium` in both seats, matches after matches from
/// a fixed seed; a round cut off by the step limit is dropped.
fn sample_rounds(game: &I151, count: usize) -> Vec<Round> {
    let mut rng = LaneRng::from_seed(SAMPLE_SEED);
    let mut rounds = Vec::with_capacity(count);
    let mut guard = 0usize;
    while rounds.len() < count && guard < 50 * count {
        let mut s = game.reset(&mut rng);
        let mut states = Vec::new();
        while !s.is_over() && rounds.len() < count {
            guard += 1;
            if s.round_steps >= SAMPLE_ROUND_STEPS {
                break;
            }
            states.push(sample(&s));
            let view = game.view(&s, s.to_act as usize);
            let action = Medium.choose(game, &view, game.legal_bits(&s), &mut rng);
            let before = s.scores;
            match game.act(&mut s, action) {
                Ok(Some(w)) => {
                    game.finish_round(&mut s, w);
                    let loser = 1 - w as usize;
                    rounds.push(Round {
                        states: std::mem::take(&mut states),
                        winner: w as usize,
                        added: (s.scores[loser] as f64 - before[loser] as f64).max(0.0),
                    });
                }
                Ok(None) => {}
                Err(()) => break,
            }
        }
    }
    rounds
}

/// `(k_race, k_move)` of the round-win logistic, by Newton's method on the log-likelihood
/// of every sampled state (both seats' sides, so no intercept).
fn fit_logistic(rounds: &[Round]) -> (f64, f64) {
    let mut k = [0f64; 2];
    for _ in 0..30 {
        let (mut g, mut h) = ([0f64; 2], [[0f64; 2]; 2]);
        for r in rounds {
            let y0 = (r.winner == 0) as u8 as f64;
            for s in &r.states {
                for (x, y) in [
                    ([s.race, s.mover], y0),
                    ([-s.race, -s.mover], 1.0 - y0),
                ] {
                    let p = 1.0 / (1.0 + (-(k[0] * x[0] + k[1] * x[1])).exp());
                    let w = p * (1.0 - p);
                    for i in 0..2 {
                        g[i] += (y - p) * x[i];
                        for j in 0..2 {
                            h[i][j] += w * x[i] * x[j];
                        }
                    }
                }
            }
        }
        let det = h[0][0] * h[1][1] - h[0][1] * h[1][0];
        if det.abs() < 1e-12 {
            break;
        }
        let step = [
            (h[1][1] * g[0] - h[0][1] * g[1]) / det,
            (h[0][0] * g[1] - h[1][0] * g[0]) / det,
        ];
        k[0] += step[0];
        k[1] += step[1];
        if step[0].abs() + step[1].abs() < 1e-10 {
            break;
        }
    }
    (k[0], k[1])
}

/// `V(a, b)` for scores in `0..target` (row-major, `a` first): each round won by either
/// seat with chance 1/2, the loser adding `x` points with chance `dist[x]` (`x >= 1`).
fn match_table(target: usize, dist: &[f64]) -> Vec<f64> {
    let support: Vec<(usize, f64)> = dist
        .iter()
        .enumerate()
        .filter(|&(x, &p)| x >= 1 && p > 0.0)
        .map(|(x, &p)| (x, p))
        .collect();
    let mut v = vec![0.5f64; target * target];
    for a in (0..target).rev() {
        for b in (0..target).rev() {
            let (mut win, mut lose) = (0.0, 0.0);
            for &(x, p) in &support {
                win += p * if b + x >= target {
                    1.0
                } else {
                    v[a * target + b + x]
                };
                lose += p * if a + x >= target {
                    0.0
                } else {
                    v[(a + x) * target + b]
                };
            }
            v[a * target + b] = 0.5 * (win + lose);
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::spec::GameSpec;
    use crate::core::LaneOutcome;

    /// Every state of `matches` two-seat matches played by `random` from seeded deals
    /// (the states the search reaches: round starts, mid-round, the final state).
    fn played_states(game: &I151, matches: u64) -> Vec<I151State> {
        let random = game.bot("random").unwrap();
        let mut mask = vec![0u8; game.num_actions()];
        let mut out = Vec::new();
        for m in 0..matches {
            let mut rng = LaneRng::for_lane(77, m, 0);
            let mut s = game.reset(&mut rng);
            out.push(s);
            while !game.finished(&s).0 && !game.finished(&s).1 {
                game.legal_mask(&s, &mut mask);
                let action = random.act(game, &s, &mask, &mut rng);
                let mut rewards = [0f32; 2];
                let outcome = game.step(&mut s, action, &mut rng, &mut rewards);
                assert_ne!(outcome, LaneOutcome::ILLEGAL);
                out.push(s);
            }
        }
        out
    }

    /// The shares are in `0..=1`, sum to 1 and are finite at every state of whole matches,
    /// the last (a finished match: its winner's) included.
    #[test]
    fn the_shares_are_in_0_1_and_sum_to_1() {
        let game = I151::new(2).unwrap();
        let m = MatchModel::new(&game).expect("two seats have an estimate");
        let states = played_states(&game, 6);
        assert!(states.len() > 200, "{} states", states.len());
        let mut out = [f64::NAN; 2];
        for (i, s) in states.iter().enumerate() {
            m.estimate(&game, s, &mut out);
            assert!(
                out.iter().all(|v| (0.0..=1.0).contains(v)),
                "state {i}: {out:?}"
            );
            assert!((out[0] + out[1] - 1.0).abs() < 1e-12, "state {i}: {out:?}");
        }
        let mut ended = 0;
        for s in states.iter().filter(|s| s.winner().is_some()) {
            m.estimate(&game, s, &mut out);
            assert_eq!(out[s.winner().unwrap()], 1.0);
            ended += 1;
        }
        assert!(ended > 0, "no match was played to its end");
    }

    /// The shares favour the seat with fewer points and the seat with fewer cards, and a
    /// mirrored match table is even.
    #[test]
    fn the_estimate_favours_the_seat_ahead() {
        let game = I151::new(2).unwrap();
        let m = MatchModel::new(&game).unwrap();
        assert!(m.k_race > 0.0, "fewer cards must help: {}", m.k_race);
        assert!(m.beta > 0.0 && m.alpha.is_finite());
        assert!((m.at(40, 40) - 0.5).abs() < 1e-9);
        assert!(m.at(0, 140) > 0.9 && m.at(140, 0) < 0.1);
        assert!((m.at(30, 90) + m.at(90, 30) - 1.0).abs() < 1e-9);
        let mut s = game.reset(&mut LaneRng::from_seed(1));
        let mut out = [0f64; 2];
        m.estimate(&game, &s, &mut out);
        let even = out[0];
        s.scores[1] = 100;
        m.estimate(&game, &s, &mut out);
        assert!(out[0] > even, "{} <= {even}", out[0]);
        s.scores[1] = 0;
        let card = s.hands[0].trailing_zeros();
        s.hands[0] &= !(1 << card);
        m.estimate(&game, &s, &mut out);
        assert!(out[0] > even, "one card fewer: {} <= {even}", out[0]);
    }

    /// Two builds give the same model, and a state's estimate depends on that state only:
    /// the same bits whichever build estimates it and whatever it estimated before.
    #[test]
    fn the_estimate_is_deterministic_and_reads_only_its_state() {
        let game = I151::new(2).unwrap();
        let m = MatchModel::new(&game).unwrap();
        let again = MatchModel::new(&game).unwrap();
        assert_eq!(again.value, m.value);
        assert_eq!(
            (again.k_race, again.k_move, again.alpha, again.beta),
            (m.k_race, m.k_move, m.alpha, m.beta)
        );
        let states = played_states(&game, 2);
        let first: Vec<[f64; 2]> = states
            .iter()
            .map(|s| {
                let mut out = [0f64; 2];
                m.estimate(&game, s, &mut out);
                out
            })
            .collect();
        for (i, s) in states.iter().enumerate().rev() {
            let mut out = [0f64; 2];
            again.estimate(&game, s, &mut out);
            assert_eq!(out.map(f64::to_bits), first[i].map(f64::to_bits), "state {i}");
        }
        // A different configuration (target) is a different model.
        let short = I151::new(2).unwrap().with_target_score(60).unwrap();
        let other = MatchModel::new(&short).unwrap();
        assert_ne!(other.value.len(), m.value.len());
    }

    /// Stages grow by one per action within a round and jump past any horizon at a deal,
    /// and never go down.
    #[test]
    fn stages_count_actions_and_jump_at_a_deal() {
        let game = I151::new(2).unwrap();
        let m = MatchModel::new(&game).unwrap();
        let states = played_states(&game, 3);
        assert_eq!(m.stage(&game, &states[0]), 1 << ROUND_SHIFT);
        let mut deals = 0;
        for pair in states.windows(2) {
            let (before, after) = (m.stage(&game, &pair[0]), m.stage(&game, &pair[1]));
            if pair[1].round_number == pair[0].round_number {
                assert_eq!(after, before + 1);
            } else if pair[1].round_number == pair[0].round_number + 1 {
                deals += 1;
                assert_eq!(after, (pair[1].round_number as u64) << ROUND_SHIFT);
                // More than any horizon (`pimc` takes at most 2^16).
                assert!(after - before > 1 << 16, "{before} -> {after}");
            } else {
                // A new match (stages restart with it).
                assert_eq!(after, 1 << ROUND_SHIFT);
            }
        }
        assert!(deals > 3, "{deals} deals");
    }

    /// Other seat counts and targets out of range have no estimate.
    #[test]
    fn only_two_seats_have_an_estimate() {
        assert!(MatchModel::new(&I151::new(3).unwrap()).is_none());
        assert!(MatchModel::new(&I151::new(4).unwrap()).is_none());
        let big = I151::new(2).unwrap().with_target_score(5000).unwrap();
        assert!(MatchModel::new(&big).is_none());
    }
}
