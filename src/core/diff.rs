//! The differential runner: plays the same games on two independent implementations of a
//! game's rules (a reference engine and the fast lane engine) and compares them after every
//! step: legal masks, seat to act, rewards, end flags and every seat's observation.
//!
//! The policy is random over legal actions, with an occasional random (often illegal)
//! action to check that both engines reject the same actions without changing anything.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use super::game::Playable;
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
    /// The run's seed: game `g` is dealt from stream `(seed, g, 0)`.
    pub seed: u64,
    /// Show a progress bar on standard error.
    pub progress: bool,
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

/// Plays one game on both engines and compares them at every step. Returns the number of
/// actions sent and of actions rejected, or the first mismatch.
pub fn compare_game<A: Playable, B: Playable>(
    game: u64,
    a: &mut A,
    b: &mut B,
    policy: &mut LaneRng,
    illegal_probe_every: u32,
) -> Result<(u32, u32), Mismatch> {
    let fail = |step: u32, what: String| Mismatch { game, step, what };
    let (np, na, nd) = (a.num_players(), a.num_actions(), a.obs_dim());
    if (np, na, nd) != (b.num_players(), b.num_actions(), b.obs_dim()) {
        return Err(fail(0, "engines disagree on players/actions/obs_dim".into()));
    }
    let (mut mask_a, mut mask_b) = (vec![0u8; na], vec![0u8; na]);
    let (mut obs_a, mut obs_b) = (vec![0f32; nd], vec![0f32; nd]);
    let (mut rew_a, mut rew_b) = (vec![0f32; np], vec![0f32; np]);
    let mut rejected = 0;
    let mut step = 0u32;
    loop {
        compare_views(a, b, &mut mask_a, &mut mask_b, &mut obs_a, &mut obs_b)
            .map_err(|w| fail(step, w))?;
        let done = a.finished().0 || a.finished().1;
        let probe = illegal_probe_every > 0 && policy.below(illegal_probe_every) == 0;
        let action = if done || probe {
            let span = na as u32 + 4;
            match policy.below(8) {
                0 => u32::MAX - policy.below(4),
                _ => policy.below(span),
            }
        } else {
            match policy.pick_set(&mask_a) {
                Some(i) => i as u32,
                None => return Err(fail(step, "no legal action in a live game".into())),
            }
        };
        rew_a.fill(0.0);
        rew_b.fill(0.0);
        let out_a = a.step(action, &mut rew_a);
        let out_b = b.step(action, &mut rew_b);
        step += 1;
        if out_a != out_b {
            return Err(fail(
                step,
                format!("action {action}: outcome {out_a:?} vs {out_b:?}"),
            ));
        }
        if rew_a != rew_b {
            return Err(fail(
                step,
                format!("action {action}: rewards {rew_a:?} vs {rew_b:?}"),
            ));
        }
        if !out_a.applied {
            rejected += 1;
            if rew_a.iter().any(|&r| r != 0.0) {
                return Err(fail(step, "a rejected action paid a reward".into()));
            }
            if (mask_a.get(action as usize).copied().unwrap_or(0)) != 0 {
                return Err(fail(step, format!("masked-legal action {action} rejected")));
            }
        } else if mask_a.get(action as usize).copied().unwrap_or(0) == 0 {
            return Err(fail(step, format!("masked-illegal action {action} applied")));
        }
        if done {
            if out_a.applied {
                return Err(fail(step, "a finished game accepted an action".into()));
            }
            return Ok((step, rejected));
        }
        if step >= MAX_GAME_ACTIONS {
            return Err(fail(step, "game did not end".into()));
        }
    }
}

/// Compares everything two engines show between steps.
fn compare_views<A: Playable, B: Playable>(
    a: &A,
    b: &B,
    mask_a: &mut [u8],
    mask_b: &mut [u8],
    obs_a: &mut [f32],
    obs_b: &mut [f32],
) -> Result<(), String> {
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
    a.legal_mask(mask_a);
    b.legal_mask(mask_b);
    if mask_a != mask_b {
        let first = mask_a.iter().zip(mask_b.iter()).position(|(x, y)| x != y);
        return Err(format!("legal mask differs first at action {first:?}"));
    }
    for player in 0..a.num_players() {
        a.observe(player, obs_a);
        b.observe(player, obs_b);
        if let Some(i) = (0..obs_a.len()).find(|&i| obs_a[i].to_bits() != obs_b[i].to_bits()) {
            return Err(format!(
                "observation of seat {player} differs at index {i}: {} vs {}",
                obs_a[i], obs_b[i]
            ));
        }
    }
    Ok(())
}

/// Runs `config.games` games in parallel (on the current rayon pool). `make(g, rng)` builds
/// both engines for game `g` from the deal stream `rng` (the same deal for both).
pub fn run<A, B, F>(config: &DiffConfig, make: F) -> DiffReport
where
    A: Playable,
    B: Playable,
    F: Fn(u64, &mut LaneRng) -> (A, B) + Sync,
{
    let start = Instant::now();
    let bar = if config.progress {
        let bar = ProgressBar::new(config.games);
        bar.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:40}] {pos}/{len} games ({per_sec}, eta {eta})",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let mismatches = Mutex::new(Vec::new());
    const BLOCK: u64 = 1024;
    let blocks = config.games.div_ceil(BLOCK);
    let (actions, rejected, failed) = (0..blocks)
        .into_par_iter()
        .map(|block| {
            let (mut actions, mut rejected, mut failed) = (0u64, 0u64, 0u64);
            let end = ((block + 1) * BLOCK).min(config.games);
            for g in block * BLOCK..end {
                let mut deal = LaneRng::for_lane(config.seed, g, 0);
                let (mut a, mut b) = make(g, &mut deal);
                let mut policy = policy_rng(config.seed, g);
                match compare_game(g, &mut a, &mut b, &mut policy, config.illegal_probe_every) {
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
            bar.inc(end - block * BLOCK);
            (actions, rejected, failed)
        })
        .reduce(|| (0, 0, 0), |x, y| (x.0 + y.0, x.1 + y.1, x.2 + y.2));
    bar.finish_and_clear();
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
