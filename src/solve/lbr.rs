//! Local best response (LBR) for heads-up no-limit hold'em against any
//! [`HoldemPolicy`]: a lower bound on the policy's exploitability, in milli-big-blinds per
//! game with a 95% confidence interval (Lisý & Bowling, "Equilibrium Approximation Quality
//! of Current No-Limit Poker Bots", 2017; `docs/exploit.md`).
//!
//! # The algorithm
//!
//! Hand `i` of a run is dealt from its own stream ([`LaneRng::for_lane`]`(seed, i, 0)`:
//! results never depend on threads): the 52 cards shuffled, LBR's hole cards, the policy's,
//! the board; LBR sits on the button (the small blind) in even hands and in the big blind in
//! odd ones. LBR tracks the policy's range: every holding not blocked by LBR's cards starts
//! at weight 1, a holding is dropped when the board blocks it, and at each of the policy's
//! actions `a` every weight is multiplied by the policy's probability of `a` with that
//! holding (Bayes' rule), then normalized. The policy's action is drawn from its
//! probabilities at its real holding.
//!
//! At its own decision LBR values each candidate against the range, in chips relative to
//! folding: fold 0; check/call `WP · pot − (1 − WP) · to_call`; a bet or raise adding `b`
//! chips beyond the call `fp · pot + (1 − fp) · (WP · (pot + b) − (1 − WP) · (to_call + b))`,
//! where `pot` is every chip in the middle, `WP` LBR's share of the pot at showdown against
//! the range with the board rolled out (every runout when there are at most
//! [`LbrOptions::exact_limit`] of them, else [`LbrOptions::samples`] runouts drawn from the
//! hand's stream), and `fp` the range-weighted probability that the policy folds to the bet
//! (asked of the policy at the state after the bet). `b` counts only what the policy can
//! still call. LBR plays the best candidate (the first of equal values, in the order fold,
//! call, bets from small to large). Before the flop LBR only checks or calls unless
//! [`LbrOptions::preflop`] is [`PreflopMode::Act`], as in the paper.
//!
//! The result of a hand is LBR's net chips; the run reports their mean in mbb/g (1000 × big
//! blinds per hand) with a 95% interval, per position and by the last street reached.
//! [`Estimator::Expect`] measures each hand instead as the expectation of that net over the
//! policy's holdings and actions given LBR's cards and the board, and
//! [`LbrOptions::control`] subtracts a term of mean zero that follows LBR's all-in equity
//! ([`control`]): the same value, a smaller variance.

use rayon::prelude::*;
use serde::Serialize;

use crate::core::stats::Summary;
use crate::core::{CardSet64, Error, Game, LaneRng, Progress, Result};
use crate::games::holdem::policy::{holding_index, holdings, HoldemPolicy, HOLDINGS};
use crate::games::holdem::{NoLimitHoldem, NoLimitHoldemState, CHECK_CALL, EXACT_RAISE, FOLD};
use crate::poker::cards::FULL_DECK;
use crate::poker::eval::rank_of_set;

/// A bet or raise size LBR considers.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub enum LbrBet {
    /// A fraction of the pot after the call: raise to `max_bet + f · (pot + to_call)`
    /// (`1` is the pot-sized bet), at least the minimum raise.
    Pot(f64),
    /// All-in.
    AllIn,
}

impl LbrBet {
    /// Parses `pot`, `all-in`, or a fraction such as `0.5` or `50%`.
    pub fn parse(word: &str) -> Result<LbrBet> {
        let w = word.trim().to_ascii_lowercase();
        let bad = || Error::Invalid {
            what: "bet size",
            reason: format!(
                "{word:?}: a size is pot, all-in, a fraction of the pot in (0, 100] such as \
                 0.5, or a percentage such as 50%"
            ),
        };
        let f = match w.as_str() {
            "pot" => 1.0,
            "all-in" | "allin" | "a" => return Ok(LbrBet::AllIn),
            _ => match w.strip_suffix('%') {
                Some(p) => p.trim().parse::<f64>().map_err(|_| bad())? / 100.0,
                None => w.parse::<f64>().map_err(|_| bad())?,
            },
        };
        if !(f.is_finite() && f > 0.0 && f <= 100.0) {
            return Err(bad());
        }
        Ok(LbrBet::Pot(f))
    }

    /// Parses a comma-separated list (`pot,all-in`; empty: no bet, LBR only folds or
    /// calls).
    pub fn parse_list(text: &str) -> Result<Vec<LbrBet>> {
        if text.trim().is_empty() {
            return Ok(Vec::new());
        }
        text.split(',').map(LbrBet::parse).collect()
    }
}

/// What LBR does before the flop.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub enum PreflopMode {
    /// Checks or calls, whatever it faces (the paper's default).
    #[default]
    Call,
    /// Chooses as on later streets (fold, call, bets), with sampled runouts.
    Act,
}

impl PreflopMode {
    /// `call` or `act`.
    pub fn parse(word: &str) -> Result<PreflopMode> {
        match word {
            "call" => Ok(PreflopMode::Call),
            "act" => Ok(PreflopMode::Act),
            _ => Err(Error::Unknown {
                what: "preflop mode",
                name: word.to_string(),
                expected: "call, act".into(),
            }),
        }
    }
}

/// How the result of a hand is measured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub enum Estimator {
    /// LBR's net chips in the hand as played: the policy's cards and actions drawn (the
    /// paper's).
    #[default]
    Sample,
    /// The expectation of LBR's net chips over the policy's holdings and actions given LBR's
    /// cards and the board: every holding weighted, every action of positive probability
    /// followed as a weighted branch, and an all-in before the river run out over every
    /// runout when there are at most [`LbrOptions::exact_limit`] of them. The same LBR
    /// strategy, an unbiased estimate of the same value, with a smaller variance
    /// (`docs/exploit.md`).
    Expect,
}

impl Estimator {
    /// `sample` or `expect`.
    pub fn parse(word: &str) -> Result<Estimator> {
        match word {
            "sample" => Ok(Estimator::Sample),
            "expect" => Ok(Estimator::Expect),
            _ => Err(Error::Unknown {
                what: "estimator",
                name: word.to_string(),
                expected: "sample, expect".into(),
            }),
        }
    }
}

/// The options of an LBR run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LbrOptions {
    /// Hands to play (1..=[`MAX_HANDS`]).
    pub hands: u64,
    /// The seed of the hands' streams.
    pub seed: u64,
    /// The bet sizes LBR considers (at most 8; none: fold or call only). Default pot and
    /// all-in (the paper's).
    pub bets: Vec<LbrBet>,
    /// Before the flop: only call (default) or act.
    pub preflop: PreflopMode,
    /// Whether LBR may limp (call the big blind as the small blind) when it acts before the
    /// flop (default true; false with all-in as the only bet is the push/fold game).
    pub limp: bool,
    /// Runouts enumerated when there are at most this many (default 1,081: every flop,
    /// turn and river decision is exact); otherwise sampled.
    pub exact_limit: u64,
    /// Runouts drawn when they are not enumerated (1..=1,000,000; default 500).
    pub samples: u32,
    /// How a hand's result is measured (default [`Estimator::Sample`]).
    pub estimator: Estimator,
    /// Whether each hand's result is corrected by the all-in control variate (a term of
    /// mean zero, `lbr_control`; default false).
    pub control: bool,
    /// Start every hand at a spot's root instead of the deal ([`SpotStart`], `lbr_spot`;
    /// default none): the ranges, board, pot and stacks are the spot's, LBR's bets at each
    /// of its decisions are the policy's own there ([`HoldemPolicy::actions`]: with a
    /// solved spot's policy, the spot's tree, so LBR stays in the tree), `bets`, `preflop`
    /// and `limp` are not used, and `control` must be false. Not serialized (the report's
    /// `spot` part says it).
    #[serde(skip)]
    pub spot: Option<std::sync::Arc<SpotStart>>,
}

impl Default for LbrOptions {
    fn default() -> LbrOptions {
        LbrOptions {
            hands: 1000,
            seed: 0,
            bets: vec![LbrBet::Pot(1.0), LbrBet::AllIn],
            preflop: PreflopMode::Call,
            limp: true,
            exact_limit: 1081,
            samples: 500,
            estimator: Estimator::Sample,
            control: false,
            spot: None,
        }
    }
}

/// Most hands of a run.
pub const MAX_HANDS: u64 = 1_000_000_000;

impl LbrOptions {
    /// Checks the options (see each field).
    pub fn check(&self) -> Result<()> {
        Error::check_range("hands", 1, MAX_HANDS, self.hands)?;
        Error::check_range("bets", 0, 8, self.bets.len() as u64)?;
        for (i, b) in self.bets.iter().enumerate() {
            if let LbrBet::Pot(f) = b {
                if !(f.is_finite() && *f > 0.0 && *f <= 100.0) {
                    return Err(Error::Invalid {
                        what: "bet size",
                        reason: format!("a pot fraction must be in (0, 100], got {f}"),
                    });
                }
            }
            if self.bets[..i].contains(b) {
                return Err(Error::Invalid {
                    what: "bets",
                    reason: format!("{b:?} is given twice"),
                });
            }
        }
        Error::check_range("exact_limit", 0, 10_000_000, self.exact_limit)?;
        Error::check_range("samples", 1, 1_000_000, self.samples as u64)?;
        if self.control && self.spot.is_some() {
            return Err(Error::Invalid {
                what: "control",
                reason: "the all-in control variate is for hands from the deal (uniform \
                         ranges), not from a spot's root"
                    .into(),
            });
        }
        Ok(())
    }
}

/// Checks that `game` is a heads-up table LBR can play.
pub fn check_game(game: &NoLimitHoldem) -> Result<()> {
    if game.num_players() != 2 {
        return Err(Error::Invalid {
            what: "game",
            reason: format!(
                "local best response plays heads-up: num_players must be 2, got {}",
                game.num_players()
            ),
        });
    }
    Ok(())
}

/// The policy's range as LBR tracks it: a weight per holding ([`holdings`] order),
/// normalized to sum 1.
#[derive(Clone, Debug, PartialEq)]
pub struct OpponentRange {
    weights: Vec<f64>,
}

impl OpponentRange {
    /// Uniform over the holdings not blocked by `dead` (LBR's cards and the board).
    pub fn uniform(dead: CardSet64) -> OpponentRange {
        let mut r = OpponentRange {
            weights: vec![1.0; HOLDINGS],
        };
        r.block(dead);
        r
    }

    /// The weights, one per holding of [`holdings`], summing to 1.
    pub fn weights(&self) -> &[f64] {
        &self.weights
    }

    /// Drops the holdings that hold a card of `dead` (new board cards).
    pub fn block(&mut self, dead: CardSet64) {
        for (w, h) in self.weights.iter_mut().zip(holdings()) {
            if dead.contains(h[0]) || dead.contains(h[1]) {
                *w = 0.0;
            }
        }
        self.normalize();
    }

    pub(crate) fn normalize(&mut self) {
        let sum: f64 = self.weights.iter().sum();
        if sum > 0.0 {
            for w in &mut self.weights {
                *w /= sum;
            }
        }
    }

    /// The holdings of nonzero weight, as indices into [`holdings`].
    pub fn live(&self) -> Vec<usize> {
        (0..HOLDINGS).filter(|&h| self.weights[h] > 0.0).collect()
    }

    /// The policy's actions at `s` ([`HoldemPolicy::actions`]) and its probabilities of
    /// each at the live holdings (`live`), row by row (a row per holding, a column per
    /// action of the list).
    pub(crate) fn policy_rows(
        game: &NoLimitHoldem,
        s: &NoLimitHoldemState,
        policy: &dyn HoldemPolicy,
        live: &[usize],
    ) -> Result<(Vec<u32>, Vec<f64>)> {
        let acts = policy.actions(game, s)?;
        if acts.is_empty() {
            return Err(Error::Invalid {
                what: "policy",
                reason: format!("{} lists no action at a live state", policy.name()),
            });
        }
        let hs: Vec<[u8; 2]> = live.iter().map(|&h| holdings()[h]).collect();
        let mut out = vec![0.0; hs.len() * acts.len()];
        policy.probabilities(game, s, &hs, &mut out)?;
        check_rows(&out, acts.len(), policy.name())?;
        Ok((acts, out))
    }

    /// Bayes' rule for the policy's `action` at `s` (the policy to act): each weight times
    /// the policy's probability of `action` with that holding, normalized. An action that
    /// no holding of the range plays, or that is not among the policy's actions
    /// ([`HoldemPolicy::actions`]), is an error (and changes nothing).
    pub fn observe(
        &mut self,
        game: &NoLimitHoldem,
        s: &NoLimitHoldemState,
        policy: &dyn HoldemPolicy,
        action: u32,
    ) -> Result<()> {
        let live = self.live();
        let (acts, rows) = Self::policy_rows(game, s, policy, &live)?;
        let Some(a) = acts.iter().position(|&x| x == action) else {
            return Err(Error::Invalid {
                what: "action",
                reason: format!(
                    "{action:#x} is not among the actions of {} here ({acts:?})",
                    policy.name()
                ),
            });
        };
        self.observe_rows(&live, &rows, acts.len(), a)
    }

    /// Bayes' rule for the action in column `a` of `rows` (`n` columns).
    fn observe_rows(&mut self, live: &[usize], rows: &[f64], n: usize, a: usize) -> Result<()> {
        Error::check_range("action", 0, n as u64 - 1, a as u64)?;
        let mut next = self.weights.clone();
        for (k, &h) in live.iter().enumerate() {
            next[h] *= rows[k * n + a];
        }
        if next.iter().sum::<f64>() <= 0.0 {
            return Err(Error::Invalid {
                what: "action",
                reason: format!("no holding of the range plays action {a} of the policy's list"),
            });
        }
        self.weights = next;
        self.normalize();
        Ok(())
    }
}

/// Checks a policy's rows: finite, non-negative, each summing to 1 (within 1e-6).
fn check_rows(out: &[f64], n: usize, name: &str) -> Result<()> {
    for row in out.chunks_exact(n) {
        let sum: f64 = row.iter().sum();
        if row.iter().any(|x| !(x.is_finite() && *x >= 0.0)) || (sum - 1.0).abs() > 1e-6 {
            return Err(Error::Invalid {
                what: "policy",
                reason: format!(
                    "{name} gave {row:?}: probabilities must be finite, non-negative and sum \
                     to 1"
                ),
            });
        }
    }
    Ok(())
}

/// LBR's share of the pot at showdown with `hole` on `board` against the range (see the
/// module documentation): every runout when there are at most `exact_limit`, else
/// `samples` drawn from `rng`.
pub fn win_probability(
    hole: [u8; 2],
    board: &[u8],
    range: &OpponentRange,
    exact_limit: u64,
    samples: u32,
    rng: &mut LaneRng,
) -> f64 {
    let live: Vec<(u64, f64)> = range
        .live()
        .into_iter()
        .map(|h| {
            let [a, b] = holdings()[h];
            ((1u64 << a) | (1u64 << b), range.weights[h])
        })
        .collect();
    let known = CardSet64::from_ids(hole.iter().chain(board).copied());
    let deck: Vec<u8> = (FULL_DECK - known).iter().collect();
    let missing = 5 - board.len();
    let count = binomial(deck.len() as u64, missing as u64);
    let board_set = CardSet64::from_ids(board.iter().copied());
    let hole_set = CardSet64::from_ids(hole);
    let (mut num, mut den) = (0.0, 0.0);
    let mut score = |runout: u64| {
        let full = CardSet64(board_set.0 | runout);
        let mine = rank_of_set(CardSet64(full.0 | hole_set.0));
        for &(set, w) in &live {
            if set & runout != 0 {
                continue;
            }
            let theirs = rank_of_set(CardSet64(full.0 | set));
            den += w;
            if mine > theirs {
                num += w;
            } else if mine == theirs {
                num += 0.5 * w;
            }
        }
    };
    if count <= exact_limit {
        for_each_subset(&deck, missing, 0, 0, &mut score);
    } else {
        let mut d = deck.clone();
        for _ in 0..samples {
            let mut runout = 0u64;
            for i in 0..missing {
                let j = i + rng.below((d.len() - i) as u32) as usize;
                d.swap(i, j);
                runout |= 1u64 << d[i];
            }
            score(runout);
        }
    }
    if den > 0.0 {
        num / den
    } else {
        0.5
    }
}

pub(crate) fn binomial(n: u64, k: u64) -> u64 {
    (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1))
}

/// Calls `f` with every `k`-card subset of `deck[from..]` added to `acc`, in order.
pub(crate) fn for_each_subset(
    deck: &[u8],
    k: usize,
    from: usize,
    acc: u64,
    f: &mut impl FnMut(u64),
) {
    if k == 0 {
        f(acc);
        return;
    }
    for i in from..=deck.len() - k {
        for_each_subset(deck, k - 1, i + 1, acc | 1u64 << deck[i], f);
    }
}

/// One candidate of an LBR decision and its value in chips relative to folding.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Candidate {
    /// The action id: [`FOLD`], [`CHECK_CALL`], an exact raise-to (`EXACT_RAISE | chips`)
    /// or the all-in id.
    pub action: u32,
    /// Its value (see the module documentation).
    pub value: f64,
}

/// LBR's decision at `s` (LBR to act, the policy's range `range`): the candidates with
/// their values, in the order fold, call, bets from small to large; LBR plays the first of
/// the largest value. `wp` is LBR's share at showdown against the range
/// ([`win_probability`]).
pub fn lbr_candidates(
    game: &NoLimitHoldem,
    s: &NoLimitHoldemState,
    range: &OpponentRange,
    policy: &dyn HoldemPolicy,
    options: &LbrOptions,
    wp: f64,
) -> Result<Vec<Candidate>> {
    let legal = game.legal(s).ok_or(Error::Invalid {
        what: "state",
        reason: "the hand is over: nobody is to act".into(),
    })?;
    let me = legal.seat;
    let opp = 1 - me;
    let pot = s.pot_total() as f64;
    let max_bet = s.bets().iter().copied().max().unwrap_or(0) as u64;
    let to_call = legal.call_amount as f64;
    let mut out = Vec::new();
    if legal.fold {
        out.push(Candidate {
            action: FOLD,
            value: 0.0,
        });
    }
    let opening_sb = s.street() == crate::games::holdem::Street::Preflop
        && s.history().0.is_empty()
        && me == s.button();
    if options.limp || !opening_sb {
        out.push(Candidate {
            action: CHECK_CALL,
            value: wp * pot - (1.0 - wp) * to_call,
        });
    }
    if !legal.raise {
        return Ok(out);
    }
    let mut targets: Vec<u64> = if options.spot.is_some() {
        // From a spot's root: the bets and raises of the policy's own list at this node (the
        // spot's tree), so that LBR stays in the tree.
        policy
            .actions(game, s)?
            .into_iter()
            .filter(|&a| a != FOLD && a != CHECK_CALL)
            .filter_map(|a| game.raise_target(a, &legal, max_bet, s.pot_total()))
            .collect()
    } else {
        options
            .bets
            .iter()
            .map(|b| match *b {
                LbrBet::AllIn => legal.max_raise_to,
                LbrBet::Pot(f) => {
                    let to = max_bet + (f * (pot + to_call)).floor() as u64;
                    to.clamp(legal.min_raise_to, legal.max_raise_to)
                }
            })
            .collect()
    };
    targets.sort_unstable();
    targets.dedup();
    let opp_cover = (s.bets()[opp] + s.stacks()[opp]) as u64;
    let live = range.live();
    for to in targets {
        // All-in by its id, as the bots play it; other sizes as exact raise-tos.
        let action = if to == legal.max_raise_to {
            game.all_in_action()
        } else {
            EXACT_RAISE | to as u32
        };
        let mut next = *s;
        let mut rewards = [0f32; 2];
        let outcome = game.step(&mut next, action, &mut LaneRng::from_seed(0), &mut rewards);
        if !outcome.applied {
            continue;
        }
        let fp = if !next.is_over() && game.legal(&next).is_some_and(|l| l.seat == opp && l.fold) {
            let (acts, rows) = OpponentRange::policy_rows(game, &next, policy, &live)?;
            let n = acts.len();
            match acts.iter().position(|&a| a == FOLD) {
                Some(f) => live
                    .iter()
                    .enumerate()
                    .map(|(k, &h)| range.weights[h] * rows[k * n + f])
                    .sum::<f64>(),
                None => 0.0,
            }
        } else {
            0.0
        };
        let b = (to.min(opp_cover).max(max_bet) - max_bet) as f64;
        let value = fp * pot + (1.0 - fp) * (wp * (pot + b) - (1.0 - wp) * (to_call + b));
        out.push(Candidate { action, value });
    }
    Ok(out)
}

/// The first candidate of the largest value.
pub(crate) fn best(candidates: &[Candidate]) -> u32 {
    let mut pick = candidates[0];
    for c in &candidates[1..] {
        if c.value > pick.value {
            pick = *c;
        }
    }
    pick.action
}

/// One hand of an LBR run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LbrHand {
    /// LBR's seat: 0 the button (small blind), 1 the big blind.
    pub seat: u8,
    /// LBR's result in chips: its net in the hand ([`Estimator::Sample`]) or its
    /// expectation over the policy's holdings and actions ([`Estimator::Expect`]).
    pub value: f64,
    /// The last street reached: 0 preflop, 1 flop, 2 turn, 3 river (with
    /// [`Estimator::Expect`], the deepest street of any branch).
    pub street: u8,
    /// The parts of `value` from the branches ending on each street (preflop, flop, turn,
    /// river with the showdowns): with [`Estimator::Sample`], all of it on `street`.
    pub streets: [f64; 4],
    /// The probability that the hand went to showdown (0 or 1 with [`Estimator::Sample`]).
    pub showdown: f64,
    /// The control variate's correction included in `value` (not in `streets`; 0 without
    /// [`LbrOptions::control`]).
    pub correction: f64,
}

/// Plays hand `index` of a run (see the module documentation), measured as
/// [`LbrOptions::estimator`] says.
pub fn play_hand(
    game: &NoLimitHoldem,
    policy: &dyn HoldemPolicy,
    options: &LbrOptions,
    index: u64,
) -> Result<LbrHand> {
    let mut hand = match (&options.spot, options.estimator) {
        (None, Estimator::Sample) => sample_hand(game, policy, options, index)?,
        (None, Estimator::Expect) => expect::expect_hand(game, policy, options, index)?,
        (Some(start), Estimator::Sample) => spot::sample_hand(game, policy, options, start, index)?,
        (Some(start), Estimator::Expect) => spot::expect_hand(game, policy, options, start, index)?,
    };
    if options.control {
        // The deal's LBR cards and flop, as both estimators deal them.
        let mut rng = LaneRng::for_lane(options.seed, index, 0);
        let mut deck: Vec<u8> = (0..52).collect();
        rng.shuffle(&mut deck);
        let stack = game.stacks().into_iter().min().unwrap_or(0) as f64;
        let bb = game.table().big_blind as f64;
        let board = [deck[4], deck[5], deck[6], deck[7], deck[8]];
        hand.correction = control::allin_correction([deck[0], deck[1]], board, stack, bb);
        hand.value += hand.correction;
    }
    Ok(hand)
}

fn sample_hand(
    game: &NoLimitHoldem,
    policy: &dyn HoldemPolicy,
    options: &LbrOptions,
    index: u64,
) -> Result<LbrHand> {
    let mut rng = LaneRng::for_lane(options.seed, index, 0);
    let mut deck: Vec<u8> = (0..52).collect();
    rng.shuffle(&mut deck);
    let seat = (index % 2) as usize;
    let mut hole = [[0u8; 2]; 2];
    hole[seat] = [deck[0], deck[1]];
    hole[1 - seat] = [deck[2], deck[3]];
    let board = [deck[4], deck[5], deck[6], deck[7], deck[8]];
    let s = game.deal(&hole, board, 0);
    let range = OpponentRange::uniform(CardSet64::from_ids(hole[seat]));
    play_sampled(game, policy, options, index, seat, hole, s, range, rng)
}

/// Plays a hand from the live state `s` (LBR in `seat`, the cards `hole`), the policy's
/// range `range` as LBR tracks it, the policy's actions and LBR's sampled runouts drawn
/// from `rng`: [`Estimator::Sample`] from the deal or from a spot's root.
#[allow(clippy::too_many_arguments)]
pub(crate) fn play_sampled(
    game: &NoLimitHoldem,
    policy: &dyn HoldemPolicy,
    options: &LbrOptions,
    index: u64,
    seat: usize,
    hole: [[u8; 2]; 2],
    mut s: NoLimitHoldemState,
    mut range: OpponentRange,
    mut rng: LaneRng,
) -> Result<LbrHand> {
    let mut seen = 0usize;
    let mut street = 0u8;
    let mut rewards = [0f32; 2];
    while let Some(legal) = game.legal(&s) {
        if s.board().len() > seen {
            range.block(CardSet64::from_ids(s.board().iter().copied()));
            seen = s.board().len();
        }
        street = street.max(s.street);
        let action = if legal.seat == seat {
            if s.street == 0 && options.preflop == PreflopMode::Call {
                CHECK_CALL
            } else {
                let wp = win_probability(
                    hole[seat],
                    s.board(),
                    &range,
                    options.exact_limit,
                    options.samples,
                    &mut rng,
                );
                best(&lbr_candidates(game, &s, &range, policy, options, wp)?)
            }
        } else {
            let live = range.live();
            let (acts, rows) = OpponentRange::policy_rows(game, &s, policy, &live)?;
            let n = acts.len();
            let me = holding_index(hole[1 - seat][0], hole[1 - seat][1]);
            let k = live
                .iter()
                .position(|&h| h == me)
                .expect("the policy's holding stays in its range");
            let row = &rows[k * n..(k + 1) * n];
            let u = rng.unit_f64();
            let mut acc = 0.0;
            let mut a = (0..n).rfind(|&a| row[a] > 0.0).unwrap_or(0);
            for (i, &p) in row.iter().enumerate() {
                acc += p;
                if p > 0.0 && u < acc {
                    a = i;
                    break;
                }
            }
            range.observe_rows(&live, &rows, n, a)?;
            acts[a]
        };
        let out = game.step(&mut s, action, &mut LaneRng::from_seed(0), &mut rewards);
        if !out.applied {
            return Err(Error::Invalid {
                what: "action",
                reason: format!("{action:#x} was refused in hand {index}"),
            });
        }
    }
    let showdown = !(s.is_folded(0) || s.is_folded(1));
    let street = if showdown {
        s.street.min(3).max(street)
    } else {
        street
    };
    let value = s.net()[seat] as f64;
    let mut streets = [0.0; 4];
    streets[street as usize] = value;
    Ok(LbrHand {
        seat: seat as u8,
        value,
        street,
        streets,
        showdown: showdown as u8 as f64,
        correction: 0.0,
    })
}

/// A part of an LBR run (a position or a street).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LbrPart {
    /// Hands in the part.
    pub hands: u64,
    /// LBR's mean result over them, mbb per game.
    pub mbb: f64,
    /// The half-width of the 95% interval of `mbb`.
    pub ci95: f64,
    /// What the part adds to the run's mean (its sum over every hand of the run), mbb/g.
    pub share: f64,
}

/// The result of an LBR run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LbrReport {
    /// The policy's name.
    pub policy: String,
    /// Hands played (fewer than asked when stopped).
    pub hands: u64,
    /// LBR's mean result, mbb per game: the lower bound on the exploitability.
    pub mbb: f64,
    /// The half-width of its 95% interval.
    pub ci95: f64,
    /// LBR on the button (small blind), then in the big blind.
    pub positions: [LbrPart; 2],
    /// By the last street reached: preflop, flop, turn, river (showdowns included). With
    /// [`Estimator::Expect`] each part is over every hand, the part of its value from the
    /// branches ending on that street (`mbb` is then `share`).
    pub streets: [LbrPart; 4],
    /// The control variate's correction (every hand; zero without [`LbrOptions::control`]):
    /// its share and the streets' add up to `mbb`.
    pub correction: LbrPart,
    /// Hands that went to showdown (with [`Estimator::Expect`], their expected number,
    /// rounded).
    pub showdowns: u64,
    /// Whether the run was stopped before all its hands ([`Progress::should_stop`]).
    pub stopped: bool,
    /// From a spot's root ([`LbrOptions::spot`]): LBR's value per spot player in chips
    /// beside the exact best response (`mbb` is then in thousandths of a chip: the spot's
    /// table has a big blind of 1). `None` from the deal.
    pub spot: Option<LbrSpotReport>,
    /// The options of the run.
    pub options: LbrOptions,
}

impl LbrReport {
    /// The report as one line of JSON (the fields above; `options.bets` as `{"Pot": f}` or
    /// `"AllIn"`).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a report serializes")
    }
}

/// Hands per block: the run stops between blocks when asked.
const BLOCK: u64 = 64;

/// Runs LBR against `policy` on `game` (heads-up) over `options.hands` hands, in parallel
/// on the current rayon pool (the results do not depend on it), reporting each hand to
/// `progress`. A stop request ends the run after the block of hands under way, reporting
/// the hands played (`stopped`).
pub fn lbr(
    game: &NoLimitHoldem,
    policy: &dyn HoldemPolicy,
    options: &LbrOptions,
    progress: &dyn Progress,
) -> Result<LbrReport> {
    check_game(game)?;
    options.check()?;
    if let Some(start) = &options.spot {
        start.check_game(game)?;
    }
    progress.start(options.hands, "hands");
    let mut hands = Vec::with_capacity(options.hands as usize);
    let mut stopped = false;
    let mut start = 0;
    while start < options.hands {
        if progress.should_stop() {
            stopped = true;
            break;
        }
        let end = (start + BLOCK).min(options.hands);
        let block: Result<Vec<LbrHand>> = (start..end)
            .into_par_iter()
            .map(|i| {
                let h = play_hand(game, policy, options, i);
                progress.advance(1);
                h
            })
            .collect();
        match block {
            Ok(b) => hands.extend(b),
            Err(e) => {
                progress.finish();
                return Err(e);
            }
        }
        start = end;
    }
    progress.finish();
    Ok(report(game, policy.name(), &hands, options, stopped))
}

/// The report of `hands` (in hand order).
pub fn report(
    game: &NoLimitHoldem,
    policy: &str,
    hands: &[LbrHand],
    options: &LbrOptions,
    stopped: bool,
) -> LbrReport {
    let scale = 1000.0 / game.table().big_blind as f64;
    let mut all = Summary::default();
    let mut positions = [Summary::default(); 2];
    let mut streets = [Summary::default(); 4];
    let mut correction = Summary::default();
    for h in hands {
        let x = h.value * scale;
        correction.push(h.correction * scale);
        all.push(x);
        positions[h.seat as usize].push(x);
        match options.estimator {
            Estimator::Sample => streets[h.street as usize].push(x - h.correction * scale),
            Estimator::Expect => {
                for (part, v) in streets.iter_mut().zip(h.streets) {
                    part.push(v * scale);
                }
            }
        }
    }
    let n = all.count().max(1) as f64;
    let part = |s: &Summary| LbrPart {
        hands: s.count(),
        mbb: s.mean(),
        ci95: s.ci95(),
        share: s.mean() * s.count() as f64 / n,
    };
    LbrReport {
        policy: policy.to_string(),
        hands: all.count(),
        mbb: all.mean(),
        ci95: all.ci95(),
        positions: positions.each_ref().map(part),
        streets: streets.each_ref().map(part),
        correction: part(&correction),
        showdowns: hands.iter().map(|h| h.showdown).sum::<f64>().round() as u64,
        stopped,
        spot: options.spot.as_ref().map(|s| spot::spot_report(s, hands)),
        options: options.clone(),
    }
}

/// The push/fold equilibrium of `game`'s depth as a policy, with its exact exploitability
/// in mbb per game: `game` must be heads-up with equal stacks, no ante and a small blind of
/// half the big blind (the push/fold game, `crate::solve::pushfold`). The equilibrium is
/// solved to `target` big blinds per hand of exploitability.
pub fn pushfold_policy(
    game: &NoLimitHoldem,
    target: f64,
) -> Result<(crate::games::holdem::policy::PushFoldPolicy, f64)> {
    use crate::solve::pushfold::{solve_pushfold, PushFoldOptions};
    check_game(game)?;
    let t = game.table();
    let stacks = game.stacks();
    if t.ante != 0 || 2 * t.small_blind != t.big_blind || stacks[0] != stacks[1] {
        return Err(Error::Invalid {
            what: "game",
            reason: "the push/fold policy needs equal stacks, no ante and a small blind of half \
                     the big blind"
                .into(),
        });
    }
    let depth = stacks[0] as f64 / t.big_blind as f64;
    let options = PushFoldOptions {
        target,
        ..PushFoldOptions::default()
    };
    let s = solve_pushfold(depth, &options)?;
    let name = format!("pushfold-{depth}");
    let policy = crate::games::holdem::policy::PushFoldPolicy::new(&s.push, &s.call, &name)?;
    Ok((policy, s.exploitability * 1000.0))
}

/// The options that make LBR a best response in the push/fold game: all-in as the only
/// bet, acting before the flop, no limp.
pub fn pushfold_options(hands: u64, seed: u64, samples: u32) -> LbrOptions {
    LbrOptions {
        hands,
        seed,
        bets: vec![LbrBet::AllIn],
        preflop: PreflopMode::Act,
        limp: false,
        samples,
        ..LbrOptions::default()
    }
}

/// A sampling policy file (`policy:<path>,sample=1`) as a policy: the softmax of its
/// logits over the legal actions at each holding, the probabilities the bot draws from
/// (a greedy policy file is its argmax, through [`crate::games::holdem::policy::BotPolicy`]).
pub struct PolicyFilePolicy(crate::agents::policy_file::PolicyBot<NoLimitHoldem>);

impl HoldemPolicy for PolicyFilePolicy {
    fn name(&self) -> &str {
        use crate::core::Bot;
        self.0.name()
    }
    fn probabilities(
        &self,
        game: &NoLimitHoldem,
        s: &NoLimitHoldemState,
        holdings: &[[u8; 2]],
        out: &mut [f64],
    ) -> Result<()> {
        use crate::games::holdem::policy::{check_call, holding_views};
        let mask = check_call(game, s, holdings, out)?;
        let views = holding_views(s, holdings);
        let refs: Vec<&NoLimitHoldemState> = views.iter().collect();
        let masks: Vec<&[u8]> = vec![&mask; views.len()];
        let probs = self.0.probabilities(game, &refs, &masks);
        let n = game.num_actions();
        for (row, p) in out.chunks_exact_mut(n).zip(probs.chunks_exact(n)) {
            let total: f64 = p.iter().map(|&x| x as f64).sum();
            for (o, &x) in row.iter_mut().zip(p) {
                *o = x as f64 / total;
            }
        }
        Ok(())
    }
}

/// Names [`policy_by_name`] takes besides the bots of the game.
pub const POLICY_NAMES: &[&str] = &[
    "random",
    "call-station",
    "all-in",
    "equity",
    "equity-<N>",
    "pushfold",
    "policy:<path>",
    "policy:<path>,sample=1",
];

/// A policy by name for `game`: `random`, `call-station`, `all-in`, `pushfold` (the
/// push/fold equilibrium at the game's depth, [`pushfold_policy`]), or any bot of the game
/// (`equity`, `equity-N`, a greedy policy file `policy:<path>`) through
/// [`crate::games::holdem::policy::BotPolicy`], or a sampling policy file
/// (`policy:<path>,sample=1`) through [`PolicyFilePolicy`].
pub fn policy_by_name(game: &NoLimitHoldem, name: &str) -> Result<Box<dyn HoldemPolicy>> {
    use crate::games::holdem::policy::{self, BotPolicy};
    if name == "pushfold" {
        return Ok(Box::new(pushfold_policy(game, 1e-3)?.0));
    }
    if let Ok(p) = policy::policy_by_name(name) {
        return Ok(p);
    }
    if name.starts_with("policy:") {
        use crate::core::Bot;
        let bot = crate::agents::policy_file::PolicyBot::parse(game, name)?;
        if bot.name().ends_with(",sample=1") {
            return Ok(Box::new(PolicyFilePolicy(bot)));
        }
        return Ok(Box::new(BotPolicy::new(Box::new(bot))));
    }
    match crate::agents::bot(game, name) {
        Ok(bot) => Ok(Box::new(BotPolicy::new(bot))),
        Err(Error::Unknown { .. }) => Err(Error::Unknown {
            what: "holdem policy",
            name: name.to_string(),
            expected: POLICY_NAMES.join(", "),
        }),
        Err(e) => Err(e),
    }
}

#[path = "lbr_control.rs"]
pub mod control;
#[path = "lbr_expect.rs"]
mod expect;
#[path = "lbr_spot.rs"]
pub mod spot;
pub use spot::{LbrSpotReport, SpotExact, SpotPart, SpotStart};

#[cfg(test)]
#[path = "lbr_spot_tests.rs"]
mod spot_tests;
#[cfg(test)]
#[path = "lbr_tests.rs"]
mod tests;
