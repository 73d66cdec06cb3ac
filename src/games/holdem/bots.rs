//! No-limit hold'em bots: `random`, `call-station` and `equity` (`equity-N` for `N` Monte
//! Carlo trials per decision), for `cardvec match holdem` and as baselines for training.
//!
//! Bots read only what their seat may know: their own hole cards, the board dealt so far,
//! the bets, stacks and pots, and who has folded (never another seat's hole cards or the
//! undealt board, both of which sit in the state).
//!
//! - **random**: uniform over the legal discrete actions (fold, check/call, each legal
//!   pot-fraction raise, all-in).
//! - **call-station**: checks or calls, never folds, never raises.
//! - **equity**: estimates its equity by Monte Carlo ([`equity_vs_random`]: its hole cards
//!   and the board against uniformly random hands of every opponent still in the hand, the
//!   board completed at random) and compares it with the pot odds
//!   `to_call / (pot + to_call)`: it folds when the equity is below the pot odds; raises
//!   when the equity is at least `1.3 / (opponents + 1)` (30% above a fair share) and it
//!   has raised fewer than twice on this street, choosing the legal pot-fraction raise
//!   closest to one pot (all-in when that is the only raise); otherwise it checks or calls.
//!   Its samples come from the bot's random stream, so a match is reproducible from its
//!   seed.

use super::fast::NoLimitHoldemState;
use super::{NoLimitHoldem, CHECK_CALL, DECK_SIZE, FOLD, RAISE_BASE};
use crate::core::{Bot, CardSet64, Error, LaneRng, RandomBot, Result};
use crate::poker::cards::FULL_DECK;
use crate::poker::eval::rank_of_set;

/// Names of the hold'em bots (`equity-N` takes any trial count `N` in `1..=1_000_000`).
pub const BOT_NAMES: &[&str] = &["random", "call-station", "equity", "equity-<N>"];

/// Monte Carlo trials per decision of the `equity` bot.
pub const EQUITY_TRIALS: u32 = 200;

/// Resolves a bot name: `random`, `call-station`, `equity` or `equity-N`.
pub fn by_name(name: &str) -> Result<Box<dyn Bot<NoLimitHoldem>>> {
    if let Some(n) = name.strip_prefix("equity-") {
        if let Ok(n) = n.parse::<u32>() {
            if (1..=1_000_000).contains(&n) {
                return Ok(Box::new(EquityBot::new(n)));
            }
        }
    }
    match name {
        "random" => Ok(Box::new(RandomBot)),
        "call-station" => Ok(Box::new(CallStation)),
        "equity" => Ok(Box::new(EquityBot::new(EQUITY_TRIALS))),
        _ => Err(Error::Unknown {
            what: "holdem bot",
            name: name.to_string(),
            expected: BOT_NAMES.join(", "),
        }),
    }
}

/// Checks or calls, whatever happens.
#[derive(Clone, Copy, Debug, Default)]
pub struct CallStation;

impl Bot<NoLimitHoldem> for CallStation {
    fn name(&self) -> &str {
        "call-station"
    }
    fn act(&self, _: &NoLimitHoldem, _: &NoLimitHoldemState, _: &[u8], _: &mut LaneRng) -> u32 {
        CHECK_CALL
    }
}

/// Acts on its Monte Carlo equity against random hands and the pot odds (see the module
/// documentation).
#[derive(Clone, Debug)]
pub struct EquityBot {
    trials: u32,
    name: String,
}

impl EquityBot {
    /// A bot drawing `trials` (at least 1) deals per decision.
    pub fn new(trials: u32) -> Self {
        let trials = trials.max(1);
        let name = if trials == EQUITY_TRIALS {
            "equity".to_string()
        } else {
            format!("equity-{trials}")
        };
        EquityBot { trials, name }
    }

    /// The equity at which the bot raises against `opponents` opponents.
    pub fn raise_threshold(opponents: usize) -> f64 {
        1.3 / (opponents as f64 + 1.0)
    }
}

/// The cards outside a hand and a board, dealt at random for an equity estimate.
pub(crate) struct UnseenDeck {
    deck: [u8; DECK_SIZE],
    len: usize,
}

impl UnseenDeck {
    /// The deck without `hole` and `board` (distinct cards).
    pub(crate) fn new(hole: [u8; 2], board: &[u8]) -> Self {
        let known = CardSet64::from_ids(hole.iter().chain(board).copied());
        let mut deck = [0u8; DECK_SIZE];
        let mut len = 0;
        for c in (FULL_DECK - known).iter() {
            deck[len] = c;
            len += 1;
        }
        Self { deck, len }
    }

    /// A fresh random deal of `need` unseen cards (at most the unseen count), drawn from
    /// `rng` by a partial Fisher-Yates shuffle of the deck as the last deal left it.
    pub(crate) fn deal(&mut self, need: usize, rng: &mut LaneRng) -> &[u8] {
        debug_assert!(need <= self.len);
        for i in 0..need {
            let j = i + rng.below((self.len - i) as u32) as usize;
            self.deck.swap(i, j);
        }
        &self.deck[..need]
    }
}

/// The share of the pot `hole` wins on average against `opponents` (1..=9) uniformly random
/// hands, with `board` (0 to 5 cards) completed at random, estimated from `trials` deals
/// drawn from `rng`. Card ids are `13 * suit + rank`; `hole` and `board` must be distinct
/// cards of the deck. Ties share: a deal where `k` hands tie for best counts `1 / k`.
pub fn equity_vs_random(
    hole: [u8; 2],
    board: &[u8],
    opponents: usize,
    trials: u32,
    rng: &mut LaneRng,
) -> f64 {
    debug_assert!((1..=9).contains(&opponents) && board.len() <= 5);
    let mut unseen = UnseenDeck::new(hole, board);
    let missing = 5 - board.len();
    let need = missing + 2 * opponents;
    let board_set = CardSet64::from_ids(board.iter().copied());
    let mut total = 0f64;
    for _ in 0..trials {
        let deck = unseen.deal(need, rng);
        let mut full_board = board_set;
        for &c in &deck[..missing] {
            full_board.insert(c);
        }
        let mine = rank_of_set(full_board | CardSet64::from_ids(hole));
        let mut ties = 1u32;
        let mut beaten = false;
        for o in 0..opponents {
            let k = missing + 2 * o;
            let theirs = rank_of_set(full_board | CardSet64::from_ids([deck[k], deck[k + 1]]));
            if theirs > mine {
                beaten = true;
                break;
            }
            ties += (theirs == mine) as u32;
        }
        if !beaten {
            total += 1.0 / ties as f64;
        }
    }
    total / trials as f64
}

impl Bot<NoLimitHoldem> for EquityBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn act(
        &self,
        game: &NoLimitHoldem,
        s: &NoLimitHoldemState,
        mask: &[u8],
        rng: &mut LaneRng,
    ) -> u32 {
        let Some(legal) = game.legal(s) else {
            return CHECK_CALL;
        };
        let me = legal.seat;
        let n = game.num_players();
        let opponents = (0..n)
            .filter(|&o| o != me && s.folded >> o & 1 == 0)
            .count();
        if opponents == 0 {
            return CHECK_CALL;
        }
        let board = &s.board[..s.dealt as usize];
        let equity = equity_vs_random(s.hole[me], board, opponents, self.trials, rng);
        let to_call = legal.call_amount as f64;
        let pot_odds = to_call / (s.pot_total() as f64 + to_call);
        if legal.fold && equity < pot_odds {
            return FOLD;
        }
        if legal.raise && equity >= Self::raise_threshold(opponents) && s.raises_street[me] < 2 {
            let pot_sized = game
                .raise_fractions_permille()
                .iter()
                .enumerate()
                .filter(|&(k, _)| mask[RAISE_BASE as usize + k] != 0)
                .min_by_key(|&(_, &f)| f.abs_diff(1000))
                .map(|(k, _)| RAISE_BASE + k as u32);
            return pot_sized.unwrap_or(game.all_in_action());
        }
        CHECK_CALL
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::matches::{free_for_all, play_rotated};
    use crate::core::Game;
    use crate::games::holdem::TableConfig;
    use crate::poker::equity::{equity, EquityOptions, Method};
    use crate::poker::parse_cards;
    use crate::poker::range::{HoleCards, Range};

    fn ids(text: &str) -> Vec<u8> {
        parse_cards(text).unwrap().iter().map(|c| c.id()).collect()
    }

    fn exact(hole: &str, board: &str, opponents: usize) -> f64 {
        let h = parse_cards(hole).unwrap();
        let mut ranges = vec![Range::single(HoleCards::new(h[0], h[1]).unwrap())];
        ranges.extend((0..opponents).map(|_| Range::all()));
        let options = EquityOptions {
            board: parse_cards(board).unwrap(),
            method: Method::Exact,
            ..EquityOptions::default()
        };
        equity(&ranges, &options).unwrap().players[0].equity
    }

    #[test]
    fn monte_carlo_equity_agrees_with_exact_enumeration() {
        // Boards of three cards or more keep the enumeration short; the preflop case is
        // checked against published values below.
        let mut rng = LaneRng::from_seed(1);
        for (hole, board) in [
            ("Ks Qs", "Js Ts 2d"),
            ("7c 2d", "Ah 7s 3c"),
            ("8h 8d", "Ac Kd 8s 2c"),
            ("5c 4c", "Ah Kh Qd 3s 9c"),
        ] {
            let h = ids(hole);
            let mc = equity_vs_random([h[0], h[1]], &ids(board), 1, 20_000, &mut rng);
            let ex = exact(hole, board, 1);
            // 20,000 trials: standard error below 0.0036.
            assert!((mc - ex).abs() < 0.015, "{hole} {board}: {mc} vs {ex}");
        }
    }

    #[test]
    fn monte_carlo_equity_against_many_opponents_shrinks() {
        let mut rng = LaneRng::from_seed(2);
        let aces = ids("As Ad");
        let e1 = equity_vs_random([aces[0], aces[1]], &[], 1, 5000, &mut rng);
        let e5 = equity_vs_random([aces[0], aces[1]], &[], 5, 5000, &mut rng);
        let e9 = equity_vs_random([aces[0], aces[1]], &[], 9, 5000, &mut rng);
        // Known values: about 0.85, 0.49 and 0.31.
        assert!((e1 - 0.852).abs() < 0.02, "{e1}");
        assert!((e5 - 0.49).abs() < 0.03, "{e5}");
        assert!((e9 - 0.31).abs() < 0.03, "{e9}");
    }

    #[test]
    fn registry_knows_every_bot_and_rejects_others() {
        assert_eq!(by_name("random").unwrap().name(), "random");
        assert_eq!(by_name("call-station").unwrap().name(), "call-station");
        assert_eq!(by_name("equity").unwrap().name(), "equity");
        assert_eq!(by_name("equity-50").unwrap().name(), "equity-50");
        for bad in ["equity-0", "equity-x", "nit", ""] {
            assert!(by_name(bad).is_err(), "{bad}");
        }
    }

    /// Heads-up with the button on seat 0: `hole0` for seat 0, `hole1` for seat 1.
    fn heads_up(hole0: &str, hole1: &str, board: &str) -> (NoLimitHoldem, NoLimitHoldemState) {
        let game = NoLimitHoldem::new(2, TableConfig::new(1, 2, 0).unwrap(), 200)
            .unwrap()
            .with_button(Some(0))
            .unwrap();
        let order = ids(&format!("{hole0} {hole1} {board}"));
        let state = game.reset_from_order(&order).unwrap();
        (game, state)
    }

    fn act(
        bot: &dyn Bot<NoLimitHoldem>,
        game: &NoLimitHoldem,
        s: &NoLimitHoldemState,
        seed: u64,
    ) -> u32 {
        let mut mask = vec![0u8; game.num_actions()];
        game.legal_mask(s, &mut mask);
        let a = bot.act(game, s, &mask, &mut LaneRng::from_seed(seed));
        assert!(mask.get(a as usize).is_some_and(|&m| m != 0), "illegal {a}");
        a
    }

    fn step(game: &NoLimitHoldem, s: &mut NoLimitHoldemState, action: u32) {
        let mut rewards = [0f32; 2];
        let out = game.step(s, action, &mut LaneRng::from_seed(0), &mut rewards);
        assert!(out.applied);
    }

    #[test]
    fn equity_bot_folds_a_weak_hand_to_an_all_in() {
        let (game, mut s) = heads_up("Ac Kd", "7h 2s", "9c 9d 4h Js 3c");
        step(&game, &mut s, game.all_in_action());
        // Seat 1 must call 198 into 400: pot odds 0.495, 72o has about 0.32 against a
        // random hand (the bot does not know the button's cards).
        assert_eq!(act(&EquityBot::new(EQUITY_TRIALS), &game, &s, 3), FOLD);
    }

    #[test]
    fn equity_bot_calls_an_all_in_with_aces() {
        let (game, mut s) = heads_up("7h 2s", "As Ad", "9c 9d 4h Js 3c");
        step(&game, &mut s, game.all_in_action());
        // Nobody is left to raise against: the bot calls.
        assert_eq!(
            act(&EquityBot::new(EQUITY_TRIALS), &game, &s, 3),
            CHECK_CALL
        );
    }

    #[test]
    fn equity_bot_raises_about_a_pot_with_a_strong_hand() {
        let (game, s) = heads_up("Kc Kd", "7h 2s", "9c 9d 4h Js 3c");
        // Fractions 1/2, 1, 2 pots: the pot-sized raise is id RAISE_BASE + 1.
        assert_eq!(
            act(&EquityBot::new(EQUITY_TRIALS), &game, &s, 4),
            RAISE_BASE + 1
        );
    }

    #[test]
    fn equity_bot_checks_a_weak_hand_when_checking_is_free() {
        let (game, mut s) = heads_up("7h 2s", "8c 3d", "Ac Kd Qh Js 9c");
        step(&game, &mut s, CHECK_CALL); // the button completes
        let a = act(&EquityBot::new(EQUITY_TRIALS), &game, &s, 5); // the big blind's option
        assert_eq!(a, CHECK_CALL);
    }

    #[test]
    fn equity_bot_is_deterministic_given_its_stream() {
        let game = NoLimitHoldem::standard(6).unwrap();
        let bot = EquityBot::new(50);
        let mut deal = LaneRng::from_seed(11);
        let mut mask = vec![0u8; game.num_actions()];
        for _ in 0..50 {
            let s = game.reset(&mut deal);
            game.legal_mask(&s, &mut mask);
            let a = bot.act(&game, &s, &mask, &mut LaneRng::from_seed(9));
            let b = bot.act(&game, &s, &mask, &mut LaneRng::from_seed(9));
            assert_eq!(a, b);
        }
    }

    #[test]
    fn every_bot_plays_only_legal_actions_at_every_table_size() {
        let owned: Vec<_> = ["random", "call-station", "equity-20"]
            .iter()
            .map(|n| by_name(n).unwrap())
            .collect();
        let bots: Vec<&dyn Bot<NoLimitHoldem>> = owned.iter().map(|b| b.as_ref()).collect();
        for seats in 2..=10 {
            let game = NoLimitHoldem::standard(seats).unwrap();
            for g in 0..60 {
                // play_rotated asserts that every action applies.
                let (rewards, plies) = play_rotated(&game, &bots, seats as u64, g);
                assert!(plies > 0);
                let sum: f32 = rewards.iter().sum();
                assert!(sum.abs() < 1e-3, "{rewards:?}");
            }
        }
    }

    #[test]
    fn equity_bot_wins_chips_from_random_and_call_station_heads_up() {
        let game = NoLimitHoldem::standard(2).unwrap();
        let equity = EquityBot::new(100);
        for other in ["random", "call-station"] {
            let other = by_name(other).unwrap();
            let bots: [&dyn Bot<NoLimitHoldem>; 2] = [&equity, other.as_ref()];
            let r = free_for_all(&game, &bots, 4000, 5, None);
            let won = &r.standings[0].reward;
            // Big blinds per hand, well above zero (hundreds of bb/100 in long matches).
            assert!(
                won.mean() - won.ci95() > 0.0,
                "equity vs {}: {} ± {}",
                other.name(),
                won.mean(),
                won.ci95()
            );
        }
    }
}
