//! Hold'em policies over every holding ([`HoldemPolicy`]): at a decision, the probability of
//! each discrete action (the ids of the mask: fold, check/call, the raise fractions,
//! all-in) for **every** pair of hole cards the seat to act could hold, as best-response
//! tools need (local best response, `crate::solve::lbr`, tracks the opponent's range by
//! Bayes over these probabilities).
//!
//! A policy reads what the seat to act may know with the holding substituted for its hole
//! cards: the board dealt so far, the bets, stacks, pots and the action history (never the
//! other seat's cards or the undealt board, both of which sit in the state).
//!
//! - `random`: uniform over the legal actions; `call-station`: checks or calls;
//!   `all-in`: all-in whenever raising is legal, else checks or calls;
//! - any [`Bot`] through [`BotPolicy`] (`equity`, `equity-N`): the bot's action at each
//!   holding, drawn from a stream keyed by the public history and the holding, so the
//!   policy is a fixed function of the information state (a pure strategy); the equity bot
//!   by [`EquityPolicy`], the same probabilities computed faster;
//! - [`PushFoldPolicy`]: a heads-up push/fold strategy (169 shove and 169 call
//!   probabilities), checking or calling off its tree.

use super::fast::NoLimitHoldemState;
use super::{bots, NoLimitHoldem, CHECK_CALL, FOLD};
use crate::core::{Bot, Error, Game, LaneRng, Result};
use crate::poker::preflop::{HandClass, CLASSES};
use crate::poker::Card;

/// Number of holdings (pairs of distinct cards), C(52, 2).
pub const HOLDINGS: usize = 1326;

/// Every holding `[a, b]` with card ids `a < b`, in order of `a` then `b`; the index of a
/// holding in this list is [`holding_index`].
pub fn holdings() -> &'static [[u8; 2]; HOLDINGS] {
    static ALL: std::sync::OnceLock<[[u8; 2]; HOLDINGS]> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        let mut out = [[0u8; 2]; HOLDINGS];
        let mut k = 0;
        for a in 0..52u8 {
            for b in a + 1..52 {
                out[k] = [a, b];
                k += 1;
            }
        }
        out
    })
}

/// The index of the holding of cards `a` and `b` (distinct ids below 52, in any order) in
/// [`holdings`].
pub fn holding_index(a: u8, b: u8) -> usize {
    let (lo, hi) = (a.min(b) as usize, a.max(b) as usize);
    debug_assert!(lo != hi && hi < 52);
    // Holdings before `lo`: sum over x < lo of (51 - x).
    lo * (103 - lo) / 2 + (hi - lo - 1)
}

/// `s` with `holding` in place of `seat`'s hole cards: the state a policy reads for that
/// holding (the other seat's hidden cards may then repeat a card of the holding; policies
/// must not read them).
pub fn with_holding(s: &NoLimitHoldemState, seat: usize, holding: [u8; 2]) -> NoLimitHoldemState {
    let mut view = *s;
    view.hole[seat] = holding;
    view
}

/// The states a policy reads for each of `holdings` at the live state `s`: `s` with the
/// holding in place of the hole cards of the seat to act ([`with_holding`]).
pub fn holding_views(s: &NoLimitHoldemState, holdings: &[[u8; 2]]) -> Vec<NoLimitHoldemState> {
    let seat = s.to_act as usize;
    holdings.iter().map(|&h| with_holding(s, seat, h)).collect()
}

/// A hold'em strategy that gives action probabilities for every holding of the seat to act.
pub trait HoldemPolicy: Sync {
    /// The policy's name, for reports.
    fn name(&self) -> &str;

    /// The actions the policy's probabilities are over at the live state `s`, in the order
    /// of each row of [`HoldemPolicy::probabilities`]. By default the discrete action ids of
    /// `game`, `0..num_actions` (fold, check/call, the raise fractions, all-in), illegal ones
    /// included (with probability zero). A policy with its own bet sizes (a solved spot's
    /// tree, `crate::solve::spot::SpotPolicy`) lists its actions instead: [`FOLD`],
    /// [`CHECK_CALL`], exact raise-tos (`EXACT_RAISE | chips`) or the all-in id, each legal
    /// at `s`. The list depends on the public state only (the same for every holding).
    fn actions(&self, game: &NoLimitHoldem, s: &NoLimitHoldemState) -> Result<Vec<u32>> {
        let _ = s;
        Ok((0..game.num_actions() as u32).collect())
    }

    /// Writes, for each holding `h` of `holdings` (pairs of distinct card ids, none on the
    /// board), the probability of each action of [`HoldemPolicy::actions`] at `s` (by
    /// default each discrete action id `a` of `game`, `0..num_actions`) at
    /// `out[h * k + a]` (`k` the length of that list): zero on illegal actions, each row
    /// summing to one. `s` is a live state of `game`; the seat to act is the one whose
    /// holdings are given, and the policy must not read its hole cards (the holding stands
    /// for them) nor anything hidden.
    fn probabilities(
        &self,
        game: &NoLimitHoldem,
        s: &NoLimitHoldemState,
        holdings: &[[u8; 2]],
        out: &mut [f64],
    ) -> Result<()>;
}

/// Checks the arguments of [`HoldemPolicy::probabilities`]: a live state and `out` of the
/// right length. Returns the legal mask.
pub fn check_call(
    game: &NoLimitHoldem,
    s: &NoLimitHoldemState,
    holdings: &[[u8; 2]],
    out: &[f64],
) -> Result<Vec<u8>> {
    if s.is_over() {
        return Err(Error::Invalid {
            what: "state",
            reason: "the hand is over: nobody is to act".into(),
        });
    }
    Error::check_len("out", holdings.len() * game.num_actions(), out.len())?;
    let mut mask = vec![0u8; game.num_actions()];
    game.legal_mask(s, &mut mask);
    Ok(mask)
}

/// Uniform over the legal discrete actions (the `random` bot).
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomPolicy;

/// Checks or calls (the `call-station` bot).
#[derive(Clone, Copy, Debug, Default)]
pub struct CallStationPolicy;

/// All-in whenever raising is legal, else checks or calls.
#[derive(Clone, Copy, Debug, Default)]
pub struct AllInPolicy;

/// The same action distribution at every holding.
fn fill_same(out: &mut [f64], row: &[f64]) {
    for chunk in out.chunks_exact_mut(row.len()) {
        chunk.copy_from_slice(row);
    }
}

impl HoldemPolicy for RandomPolicy {
    fn name(&self) -> &str {
        "random"
    }
    fn probabilities(
        &self,
        game: &NoLimitHoldem,
        s: &NoLimitHoldemState,
        holdings: &[[u8; 2]],
        out: &mut [f64],
    ) -> Result<()> {
        let mask = check_call(game, s, holdings, out)?;
        let legal = mask.iter().filter(|&&m| m != 0).count() as f64;
        let row: Vec<f64> = mask.iter().map(|&m| (m != 0) as u8 as f64 / legal).collect();
        fill_same(out, &row);
        Ok(())
    }
}

impl HoldemPolicy for CallStationPolicy {
    fn name(&self) -> &str {
        "call-station"
    }
    fn probabilities(
        &self,
        game: &NoLimitHoldem,
        s: &NoLimitHoldemState,
        holdings: &[[u8; 2]],
        out: &mut [f64],
    ) -> Result<()> {
        check_call(game, s, holdings, out)?;
        let mut row = vec![0.0; game.num_actions()];
        row[CHECK_CALL as usize] = 1.0;
        fill_same(out, &row);
        Ok(())
    }
}

impl HoldemPolicy for AllInPolicy {
    fn name(&self) -> &str {
        "all-in"
    }
    fn probabilities(
        &self,
        game: &NoLimitHoldem,
        s: &NoLimitHoldemState,
        holdings: &[[u8; 2]],
        out: &mut [f64],
    ) -> Result<()> {
        let mask = check_call(game, s, holdings, out)?;
        let mut row = vec![0.0; game.num_actions()];
        let all_in = game.all_in_action() as usize;
        if mask[all_in] != 0 {
            row[all_in] = 1.0;
        } else {
            row[CHECK_CALL as usize] = 1.0;
        }
        fill_same(out, &row);
        Ok(())
    }
}

/// A [`Bot`] as a policy: at each holding, the bot's action with probability 1, drawn from
/// a stream keyed by the public part of the state (button, board, action history) and the
/// holding, so the same information state always gets the same action (a pure strategy;
/// for a bot that samples, one draw of it). The bot sees the state with the holding in
/// place of the seat's hole cards.
pub struct BotPolicy {
    bot: Box<dyn Bot<NoLimitHoldem>>,
    name: String,
}

impl BotPolicy {
    /// The policy of `bot`.
    pub fn new(bot: Box<dyn Bot<NoLimitHoldem>>) -> BotPolicy {
        let name = bot.name().to_string();
        BotPolicy { bot, name }
    }
}

/// FNV-1a 64 of the public part of `s` (button, board dealt, action history).
fn public_hash(s: &NoLimitHoldemState) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |b: u8| h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
    eat(s.button);
    eat(s.dealt);
    for &c in s.board() {
        eat(c);
    }
    let (bytes, overflow) = s.history();
    for &b in bytes {
        eat(b);
    }
    for b in overflow.unwrap_or(0).to_le_bytes() {
        eat(b);
    }
    h
}

impl HoldemPolicy for BotPolicy {
    fn name(&self) -> &str {
        &self.name
    }
    fn probabilities(
        &self,
        game: &NoLimitHoldem,
        s: &NoLimitHoldemState,
        holdings: &[[u8; 2]],
        out: &mut [f64],
    ) -> Result<()> {
        let mask = check_call(game, s, holdings, out)?;
        let key = public_hash(s);
        let n = game.num_actions();
        out.fill(0.0);
        for (k, (&h, view)) in holdings.iter().zip(holding_views(s, holdings)).enumerate() {
            let mut rng = LaneRng::for_lane(key, holding_index(h[0], h[1]) as u64, 0);
            let a = self.bot.act(game, &view, &mask, &mut rng) as usize;
            // A bot plays legal actions; anything else counts as a check or call.
            let a = if a < n && mask[a] != 0 { a } else { CHECK_CALL as usize };
            out[k * n + a] = 1.0;
        }
        Ok(())
    }
}

/// A heads-up push/fold strategy as a hold'em policy: the small blind (the button) at its
/// first decision shoves (all-in) with probability `push[class]` and otherwise folds; the
/// big blind facing an all-in calls with probability `call[class]` and otherwise folds.
/// Anywhere else (off the push/fold tree: after a limp or a smaller raise, after the
/// flop) it checks or calls.
#[derive(Clone, Debug)]
pub struct PushFoldPolicy {
    push: Vec<f64>,
    call: Vec<f64>,
    name: String,
}

impl PushFoldPolicy {
    /// The policy of `push` and `call`, 169 probabilities each in hand-class index order
    /// ([`crate::poker::preflop`]), each in `[0, 1]`.
    pub fn new(push: &[f64], call: &[f64], name: &str) -> Result<PushFoldPolicy> {
        for (what, s) in [("push", push), ("call", call)] {
            Error::check_len(what, CLASSES, s.len())?;
            if let Some(x) = s.iter().find(|x| !(x.is_finite() && (0.0..=1.0).contains(*x))) {
                return Err(Error::Invalid {
                    what,
                    reason: format!("probabilities must be in [0, 1], got {x}"),
                });
            }
        }
        Ok(PushFoldPolicy {
            push: push.to_vec(),
            call: call.to_vec(),
            name: name.to_string(),
        })
    }
}

impl HoldemPolicy for PushFoldPolicy {
    fn name(&self) -> &str {
        &self.name
    }
    fn probabilities(
        &self,
        game: &NoLimitHoldem,
        s: &NoLimitHoldemState,
        holdings: &[[u8; 2]],
        out: &mut [f64],
    ) -> Result<()> {
        let mask = check_call(game, s, holdings, out)?;
        let n = game.num_actions();
        let all_in = game.all_in_action() as usize;
        let legal = game.legal(s).expect("a live state has a seat to act");
        let preflop = s.street == 0;
        let (past, _) = game.past_actions(s);
        // The small blind's first decision (nothing acted yet), or the big blind facing an
        // all-in (by the all-in id or an exact raise-to) as the only action so far.
        let opening = preflop && past.is_empty() && mask[all_in] != 0 && legal.fold;
        let shover = 1 - legal.seat;
        let facing_shove = preflop
            && past.len() == 1
            && past[0].kind == super::info::ActionKind::Raise
            && s.stacks()[shover] == 0
            && legal.fold;
        out.fill(0.0);
        for (k, h) in holdings.iter().enumerate() {
            let row = &mut out[k * n..(k + 1) * n];
            let class = || {
                let (a, b) = (Card::from_id(h[0]), Card::from_id(h[1]));
                match (a, b) {
                    (Some(a), Some(b)) => Ok(HandClass::of_hole(a, b).index()),
                    _ => Err(Error::Invalid {
                        what: "holding",
                        reason: format!("{h:?} are not two card ids"),
                    }),
                }
            };
            if opening {
                let p = self.push[class()?];
                row[all_in] = p;
                row[FOLD as usize] = 1.0 - p;
            } else if facing_shove {
                let p = self.call[class()?];
                row[CHECK_CALL as usize] = p;
                row[FOLD as usize] = 1.0 - p;
            } else {
                row[CHECK_CALL as usize] = 1.0;
            }
        }
        Ok(())
    }
}

#[path = "policy_equity.rs"]
mod equity;
pub use equity::EquityPolicy;

/// Names of the built-in policies ([`policy_by_name`]).
pub const POLICY_NAMES: &[&str] = &["random", "call-station", "all-in", "equity", "equity-<N>"];

/// A built-in policy by name: `random`, `call-station`, `all-in`, `equity` and `equity-N`
/// ([`EquityPolicy`]: the bot's probabilities, faster), or any other hold'em bot through
/// [`BotPolicy`].
pub fn policy_by_name(name: &str) -> Result<Box<dyn HoldemPolicy>> {
    match name {
        "random" => Ok(Box::new(RandomPolicy)),
        "call-station" => Ok(Box::new(CallStationPolicy)),
        "all-in" => Ok(Box::new(AllInPolicy)),
        _ => match bots::by_name(name) {
            // The equity bot by its fast path (the same probabilities, `EquityPolicy`).
            Ok(_) if name == "equity" => Ok(Box::new(EquityPolicy::new(bots::EQUITY_TRIALS))),
            Ok(bot) => match name.strip_prefix("equity-").map(str::parse::<u32>) {
                Some(Ok(trials)) => Ok(Box::new(EquityPolicy::new(trials))),
                _ => Ok(Box::new(BotPolicy::new(bot))),
            },
            Err(_) => Err(Error::Unknown {
                what: "holdem policy",
                name: name.to_string(),
                expected: POLICY_NAMES.join(", "),
            }),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::holdem::TableConfig;

    fn game() -> NoLimitHoldem {
        NoLimitHoldem::new(2, TableConfig::new(1, 2, 0).unwrap(), 200)
            .unwrap()
            .with_button(Some(0))
            .unwrap()
    }

    #[test]
    fn holding_indices_follow_the_list() {
        for (k, h) in holdings().iter().enumerate() {
            assert_eq!(holding_index(h[0], h[1]), k);
            assert_eq!(holding_index(h[1], h[0]), k);
        }
    }

    #[test]
    fn every_policy_gives_distributions_on_legal_actions() {
        let g = game();
        let s = g.deal(&[[0, 1], [2, 3]], [4, 5, 6, 7, 8], 0);
        let mut mask = vec![0u8; g.num_actions()];
        g.legal_mask(&s, &mut mask);
        let hs: Vec<[u8; 2]> = holdings().iter().copied().filter(|h| h[0] > 8).collect();
        for name in ["random", "call-station", "all-in", "equity-20"] {
            let p = policy_by_name(name).unwrap();
            let mut out = vec![0.0; hs.len() * g.num_actions()];
            p.probabilities(&g, &s, &hs, &mut out).unwrap();
            for row in out.chunks(g.num_actions()) {
                assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-12, "{name}");
                for (a, &x) in row.iter().enumerate() {
                    assert!(x >= 0.0 && (x == 0.0 || mask[a] != 0), "{name} {a}");
                }
            }
            // A wrong length is an error.
            assert!(p.probabilities(&g, &s, &hs, &mut out[1..]).is_err());
        }
        assert!(policy_by_name("nit").is_err());
    }

    #[test]
    fn the_equity_policy_depends_on_the_holding_and_is_repeatable() {
        let g = game();
        let s = g.deal(&[[0, 1], [2, 3]], [4, 5, 6, 7, 8], 0);
        let p = policy_by_name("equity-50").unwrap();
        let hs: Vec<[u8; 2]> = holdings().iter().copied().filter(|h| h[0] > 8).collect();
        let mut a = vec![0.0; hs.len() * g.num_actions()];
        let mut b = a.clone();
        p.probabilities(&g, &s, &hs, &mut a).unwrap();
        p.probabilities(&g, &s, &hs, &mut b).unwrap();
        assert_eq!(a, b);
        let raises = a.chunks(g.num_actions()).filter(|r| r[3] == 1.0).count();
        let folds = a.chunks(g.num_actions()).filter(|r| r[0] == 1.0).count();
        assert!(raises > 0 && folds > 0, "{raises} {folds}");
    }

    #[test]
    fn push_fold_policy_shoves_and_calls_by_class() {
        let g = game();
        let mut push = vec![0.0; CLASSES];
        push[0] = 1.0; // AA
        let call = vec![0.25; CLASSES];
        let p = PushFoldPolicy::new(&push, &call, "test").unwrap();
        let s = g.deal(&[[0, 1], [2, 3]], [4, 5, 6, 7, 8], 0);
        let aces = [12u8, 25u8];
        let deuces = [13u8, 26u8];
        let mut out = vec![0.0; 2 * g.num_actions()];
        p.probabilities(&g, &s, &[aces, deuces], &mut out).unwrap();
        let n = g.num_actions();
        assert_eq!(out[g.all_in_action() as usize], 1.0);
        assert_eq!(out[n + FOLD as usize], 1.0);
        let mut t = s;
        let mut r = [0f32; 2];
        assert!(g.step(&mut t, g.all_in_action(), &mut LaneRng::from_seed(0), &mut r).applied);
        p.probabilities(&g, &t, &[aces, deuces], &mut out).unwrap();
        assert_eq!((out[CHECK_CALL as usize], out[FOLD as usize]), (0.25, 0.75));
        assert!(PushFoldPolicy::new(&push[1..], &call, "x").is_err());
        assert!(PushFoldPolicy::new(&call, &[2.0; CLASSES], "x").is_err());
    }
}
