//! The differential runner: plays the same games on two independent implementations of a
//! game's rules (a reference engine and the fast lane engine) and compares them after every
//! step: legal masks, seat to act, rewards, end flags and every seat's observation.
//!
//! The policy is random over legal actions, with an occasional random (often illegal)
//! action to check that both engines reject the same actions without changing anything.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::game::{LaneOutcome, Playable};
use super::progress::Progress;
use super::rng::LaneRng;

/// Where and how two engines first disagreed in one game.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    /// The index of the game (with the run's seed, it reproduces the game).
    pub game: u64,
    /// Number of actions sent before the disagreement.
    pub step: u32,
    /// What differed.
    pub what: String,
}

/// Totals of a differential run.
#[derive(Clone, Debug, Default)]
pub struct DiffReport {
    /// Games played.
    pub games: u64,
    /// Actions sent (legal and illegal) over all games.
    pub actions: u64,
    /// Illegal actions both engines rejected.
    pub rejected: u64,
    /// The first mismatches found, by game index (at most 20 are kept).
    pub mismatches: Vec<Mismatch>,
    /// Number of games with a mismatch.
    pub failed_games: u64,
    /// Wall time of the run.
    pub elapsed: Duration,
}

/// Settings of a differential run.
#[derive(Clone, Debug)]
pub struct DiffConfig {
    /// How many games.
    pub games: u64,
    /// The index of the first game: the run plays games `first..first + games`, each dealt
    /// exactly as in a run from 0, so the runs of consecutive ranges (shards) add up to the
    /// run of their union: same actions, rejections and mismatches.
    pub first: u64,
    /// The run's seed: game `g` is dealt from stream `(seed, g, 0)`.
    pub seed: u64,
    /// One action in this many is drawn from all `u32` values near the action range
    /// (mostly illegal) instead of from the legal ones; 0 turns probing off.
    pub illegal_probe_every: u32,
}

/// The longest game the runner will play before calling it a mismatch (an engine that
/// never ends is a bug).
pub const MAX_GAME_ACTIONS: u32 = 1_000_000;

/// The random stream the policy of game `game` uses (distinct from the deal's stream).
pub fn policy_rng(seed: u64, game: u64) -> LaneRng {
    LaneRng::for_lane(seed ^ 0x5EED_D1FF, game, u64::MAX)
}

/// One action of a scripted game (for fuzzing): either the `k`-th legal action (modulo the
/// number of legal actions) or a raw `u32`, legal or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scripted {
    /// The `k`-th legal action, counting modulo the legal count.
    Legal(u32),
    /// This exact action value.
    Raw(u32),
}

/// Two engines stepped in lockstep, with the buffers their comparison needs.
pub struct Lockstep<A: Playable, B: Playable> {
    /// The first engine (usually the reference).
    pub a: A,
    /// The second engine (usually the fast lane).
    pub b: B,
    mask_a: Vec<u8>,
    mask_b: Vec<u8>,
    obs_a: Vec<f32>,
    obs_b: Vec<f32>,
    rew_a: Vec<f32>,
    rew_b: Vec<f32>,
    /// Actions sent so far.
    pub actions: u32,
    /// Actions both engines rejected.
    pub rejected: u32,
}

impl<A: Playable, B: Playable> Lockstep<A, B> {
    /// Pairs two engines fresh from their deal; fails if their shapes or the rewards of
    /// their deal ([`Playable::deal_rewards`], what [`Lockstep::rewards`] returns until the
    /// first [`Lockstep::apply`]) differ.
    pub fn new(a: A, b: B) -> Result<Self, String> {
        let (np, na, nd) = (a.num_players(), a.num_actions(), a.obs_dim());
        if (np, na, nd) != (b.num_players(), b.num_actions(), b.obs_dim()) {
            return Err("engines disagree on players/actions/obs_dim".into());
        }
        let (mut rew_a, mut rew_b) = (vec![0.0; np], vec![0.0; np]);
        a.deal_rewards(&mut rew_a);
        b.deal_rewards(&mut rew_b);
        if rew_a != rew_b {
            return Err(format!("rewards of the deal {rew_a:?} vs {rew_b:?}"));
        }
        Ok(Lockstep {
            a,
            b,
            mask_a: vec![0; na],
            mask_b: vec![0; na],
            obs_a: vec![0.0; nd],
            obs_b: vec![0.0; nd],
            rew_a,
            rew_b,
            actions: 0,
            rejected: 0,
        })
    }

    /// Whether the game is over (according to the first engine).
    pub fn done(&self) -> bool {
        let (t, u) = self.a.finished();
        t || u
    }

    /// The legal mask both engines agreed on at the last [`Lockstep::compare`].
    pub fn mask(&self) -> &[u8] {
        &self.mask_a
    }

    /// Compares everything the engines show between steps: end flags, seat to act, legal
    /// masks and every seat's observation (bit for bit).
    pub fn compare(&mut self) -> Result<(), String> {
        let (a, b) = (&self.a, &self.b);
        if a.finished() != b.finished() {
            return Err(format!("finished {:?} vs {:?}", a.finished(), b.finished()));
        }
        if a.current_player() != b.current_player() {
            return Err(format!(
                "current player {} vs {}",
                a.current_player(),
                b.current_player()
            ));
        }
        a.legal_mask(&mut self.mask_a);
        b.legal_mask(&mut self.mask_b);
        if self.mask_a != self.mask_b {
            let first = (self.mask_a.iter())
                .zip(self.mask_b.iter())
                .position(|(x, y)| x != y);
            return Err(format!("legal mask differs first at action {first:?}"));
        }
        for player in 0..a.num_players() {
            a.observe(player, &mut self.obs_a);
            b.observe(player, &mut self.obs_b);
            let (oa, ob) = (&self.obs_a, &self.obs_b);
            if let Some(i) = (0..oa.len()).find(|&i| oa[i].to_bits() != ob[i].to_bits()) {
                return Err(format!(
                    "observation of seat {player} differs at index {i}: {} vs {}",
                    oa[i], ob[i]
                ));
            }
        }
        Ok(())
    }

    /// Sends `action` to both engines (after [`Lockstep::compare`]) and compares what they
    /// return: the outcome, every seat's reward, and agreement with the legal mask.
    pub fn apply(&mut self, action: u32) -> Result<LaneOutcome, String> {
        let was_done = self.done();
        self.rew_a.fill(0.0);
        self.rew_b.fill(0.0);
        let out_a = self.a.step(action, &mut self.rew_a);
        let out_b = self.b.step(action, &mut self.rew_b);
        self.actions += 1;
        if out_a != out_b {
            return Err(format!("action {action}: outcome {out_a:?} vs {out_b:?}"));
        }
        if self.rew_a != self.rew_b {
            return Err(format!(
                "action {action}: rewards {:?} vs {:?}",
                self.rew_a, self.rew_b
            ));
        }
        let masked = self.mask_a.get(action as usize).copied().unwrap_or(0) != 0;
        let extended = action as usize >= self.mask_a.len() && self.a.is_extended_action(action);
        if out_a.applied != masked && !extended {
            return Err(format!(
                "action {action}: mask says {masked} but the engines applied={}",
                out_a.applied
            ));
        }
        if was_done && out_a.applied {
            return Err("a finished game accepted an action".into());
        }
        if !out_a.applied {
            self.rejected += 1;
            if self.rew_a.iter().any(|&r| r != 0.0) {
                return Err("a rejected action paid a reward".into());
            }
        }
        Ok(out_a)
    }

    /// Every seat's reward from the last [`Lockstep::apply`] (both engines agreed on it);
    /// before the first, the rewards of the deal.
    pub fn rewards(&self) -> &[f32] {
        &self.rew_a
    }

    /// Resolves a scripted action against the current (compared) mask.
    pub fn resolve(&self, action: Scripted) -> u32 {
        match action {
            Scripted::Raw(a) => a,
            Scripted::Legal(k) => {
                let legal: Vec<u32> = (0..self.mask_a.len() as u32)
                    .filter(|&i| self.mask_a[i as usize] != 0)
                    .collect();
                if legal.is_empty() {
                    k
                } else {
                    legal[k as usize % legal.len()]
                }
            }
        }
    }
}

/// Plays a scripted game on both engines, comparing after every step and calling `check`
/// (game invariants) on the pair after every step. Stops at the end of the script.
pub fn compare_script<A, B, I, C>(a: A, b: B, script: I, check: C) -> Result<Lockstep<A, B>, String>
where
    A: Playable,
    B: Playable,
    I: IntoIterator<Item = Scripted>,
    C: Fn(&A, &B) -> Result<(), String>,
{
    let mut pair = Lockstep::new(a, b)?;
    pair.compare()?;
    check(&pair.a, &pair.b)?;
    for (i, s) in script.into_iter().enumerate() {
        let action = pair.resolve(s);
        pair.apply(action)
            .map_err(|e| format!("script step {i}: {e}"))?;
        pair.compare()
            .map_err(|e| format!("after script step {i}: {e}"))?;
        check(&pair.a, &pair.b).map_err(|e| format!("after script step {i}: {e}"))?;
    }
    Ok(pair)
}

/// Plays one game on both engines under the random legal policy (with illegal probes) and
/// compares them at every step. Returns the number of actions sent and of actions
/// rejected, or the first mismatch.
pub fn compare_game<A: Playable, B: Playable>(
    game: u64,
    a: A,
    b: B,
    policy: &mut LaneRng,
    illegal_probe_every: u32,
) -> Result<(u32, u32), Mismatch> {
    let mut pair = Lockstep::new(a, b).map_err(|what| Mismatch {
        game,
        step: 0,
        what,
    })?;
    let fail = |step: u32, what: String| Mismatch { game, step, what };
    loop {
        pair.compare().map_err(|w| fail(pair.actions, w))?;
        let done = pair.done();
        let probe = illegal_probe_every > 0 && policy.below(illegal_probe_every) == 0;
        let action = if done || probe {
            match policy.below(8) {
                0 => u32::MAX - policy.below(4),
                _ => policy.below(pair.mask().len() as u32 + 4),
            }
        } else {
            match policy.pick_set(pair.mask()) {
                Some(i) => i as u32,
                None => return Err(fail(pair.actions, "no legal action in a live game".into())),
            }
        };
        pair.apply(action).map_err(|w| fail(pair.actions, w))?;
        if done {
            return Ok((pair.actions, pair.rejected));
        }
        if pair.actions >= MAX_GAME_ACTIONS {
            return Err(fail(pair.actions, "game did not end".into()));
        }
    }
}

/// Runs games `config.first..config.first + config.games` in parallel (on the current rayon
/// pool). `make(g, rng)` builds
/// both engines for game `g` from the deal stream `rng` (the same deal for both). `progress`
/// is told of every finished block of games.
pub fn run<A, B, F>(config: &DiffConfig, progress: &dyn Progress, make: F) -> DiffReport
where
    A: Playable,
    B: Playable,
    F: Fn(u64, &mut LaneRng) -> (A, B) + Sync,
{
    let start = Instant::now();
    assert!(
        config.first.checked_add(config.games).is_some(),
        "game indices past u64::MAX"
    );
    progress.start(config.games, "games");
    let mismatches = Mutex::new(Vec::new());
    const BLOCK: u64 = 1024;
    let blocks = config.games.div_ceil(BLOCK);
    let (actions, rejected, failed) = (0..blocks)
        .into_par_iter()
        .map(|block| {
            let (mut actions, mut rejected, mut failed) = (0u64, 0u64, 0u64);
            let end = ((block + 1) * BLOCK).min(config.games);
            for g in config.first + block * BLOCK..config.first + end {
                let mut deal = LaneRng::for_lane(config.seed, g, 0);
                let (a, b) = make(g, &mut deal);
                let mut policy = policy_rng(config.seed, g);
                match compare_game(g, a, b, &mut policy, config.illegal_probe_every) {
                    Ok((n, r)) => {
                        actions += n as u64;
                        rejected += r as u64;
                    }
                    Err(m) => {
                        failed += 1;
                        let mut list = mismatches.lock().unwrap_or_else(|e| e.into_inner());
                        list.push(m);
                    }
                }
            }
            progress.advance(end - block * BLOCK);
            (actions, rejected, failed)
        })
        .reduce(|| (0, 0, 0), |x, y| (x.0 + y.0, x.1 + y.1, x.2 + y.2));
    progress.finish();
    let mut mismatches = mismatches.into_inner().unwrap_or_else(|e| e.into_inner());
    mismatches.sort_by_key(|m| m.game);
    mismatches.truncate(20);
    DiffReport {
        games: config.games,
        actions,
        rejected,
        mismatches,
        failed_games: failed,
        elapsed: start.elapsed(),
    }
}
