//! Writes Flip 7 games played by cardvec's fast engine as a binary trace on standard output,
//! for `python/tests/flip7_oracle_trace.py`, which replays them in game-room 0.1.0's
//! `flip7_v0` (feeding it cardvec's shuffles through a stub `np_random`) and compares
//! every step.
//!
//! ```sh
//! cargo run --release --example flip7_trace -- GAMES SEED [PLAYERS,...] > trace.bin
//! ```
//!
//! Game `g` uses the seat count `PLAYERS[g % len]` (default 3,4,6,10,18), the deck stream
//! `(SEED, g, 0)` and the policy stream `(SEED, g, 1)`; its policy hits with probability
//! 0.5, 0.8 or 0.95 (by `g / len % 3`) and picks targets uniformly. Every fourth game has a
//! round limit and every seventh a low target, so truncation and early ends are covered.
//!
//! Format (little-endian): per game `b"F7GM"`, players `u8`, target `u32`, max rounds `u32`
//! (0: none); then records: `1` shuffle (`u16` length, the order as bytes, bottom first),
//! `2` state after an action (`u32` action, `u32::MAX` for the initial state; seat to act
//! `u8`; flags `u8` (1 terminated, 2 truncated); rewards `f32 × N`; mask `u8 × (2 + N)`;
//! observation of the seat to act `f32 × (419 + 24 N)`; scores `u32 × N`; round scores
//! `u32 × N`; completed round `u32`; winners bit set `u32`); `3` end of game.

use std::io::{self, BufWriter, Write};

use cardvec::core::{Game, LaneRng};
use cardvec::games::flip7::{Flip7, Flip7State, HIT, STAY};

fn config(g: u64, players: &[usize]) -> Flip7 {
    let n = players[(g % players.len() as u64) as usize];
    let target = if g % 7 == 3 {
        30 + (g % 50) as u32
    } else {
        200
    };
    let max_rounds = (g % 4 == 1).then_some(1 + (g / 4 % 5) as u32);
    Flip7::new(n, target, max_rounds).expect("valid configuration")
}

fn policy(mask: &[u8], hit_prob: f64, rng: &mut LaneRng) -> u32 {
    if mask[HIT as usize] == 1 {
        if mask[STAY as usize] == 1 && rng.unit_f64() >= hit_prob {
            return STAY;
        }
        return HIT;
    }
    rng.pick_set(mask).expect("a live game has a legal action") as u32
}

fn record(
    out: &mut impl Write,
    game: &Flip7,
    s: &Flip7State,
    action: u32,
    rewards: &[f32],
) -> io::Result<()> {
    let n = game.players();
    let (term, trunc) = game.finished(s);
    out.write_all(&[2])?;
    out.write_all(&action.to_le_bytes())?;
    out.write_all(&[
        game.current_player(s) as u8,
        term as u8 | (trunc as u8) << 1,
    ])?;
    for r in rewards {
        out.write_all(&r.to_le_bytes())?;
    }
    let mut mask = vec![0u8; game.num_actions()];
    game.legal_mask(s, &mut mask);
    out.write_all(&mask)?;
    let mut obs = vec![0f32; game.obs_dim()];
    game.observe(s, game.current_player(s), &mut obs);
    for v in obs {
        out.write_all(&v.to_le_bytes())?;
    }
    for v in s.scores[..n].iter().chain(&s.round_scores[..n]) {
        out.write_all(&v.to_le_bytes())?;
    }
    out.write_all(&s.completed_round.to_le_bytes())?;
    let winners: u32 = game.winners(s).iter().map(|&p| 1u32 << p).sum();
    out.write_all(&winners.to_le_bytes())
}

fn shuffle_record(out: &mut impl Write, order: &[u8]) -> io::Result<()> {
    out.write_all(&[1])?;
    out.write_all(&(order.len() as u16).to_le_bytes())?;
    out.write_all(order)
}

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(100);
    let seed: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(0);
    let players: Vec<usize> = args
        .get(3)
        .map(|a| a.split(',').filter_map(|x| x.parse().ok()).collect())
        .unwrap_or_else(|| vec![3, 4, 6, 10, 18]);
    let mut out = BufWriter::with_capacity(1 << 20, io::stdout().lock());
    for g in 0..games {
        let game = config(g, &players);
        let n = game.players();
        let hit_prob = [0.5, 0.8, 0.95][(g / players.len() as u64 % 3) as usize];
        out.write_all(b"F7GM")?;
        out.write_all(&[n as u8])?;
        out.write_all(&game.target_score().to_le_bytes())?;
        out.write_all(&game.max_rounds().unwrap_or(0).to_le_bytes())?;
        let mut deal = LaneRng::for_lane(seed, g, 0);
        let mut rng = LaneRng::for_lane(seed, g, 1);
        let mut shuffles: Vec<Vec<u8>> = Vec::new();
        let mut s = game.reset_logged(&mut deal, &mut |o: &[u8]| shuffles.push(o.to_vec()));
        for o in shuffles.drain(..) {
            shuffle_record(&mut out, &o)?;
        }
        let mut rewards = vec![0f32; n];
        record(&mut out, &game, &s, u32::MAX, &rewards)?;
        let mut mask = vec![0u8; game.num_actions()];
        while !s.is_over() {
            game.legal_mask(&s, &mut mask);
            let action = policy(&mask, hit_prob, &mut rng);
            rewards.fill(0.0);
            let outcome = game.step_logged(
                &mut s,
                action,
                &mut deal,
                &mut rewards,
                &mut |o: &[u8]| shuffles.push(o.to_vec()),
            );
            assert!(outcome.applied);
            for o in shuffles.drain(..) {
                shuffle_record(&mut out, &o)?;
            }
            record(&mut out, &game, &s, action, &rewards)?;
        }
        out.write_all(&[3])?;
    }
    out.flush()
}
