//! The `equity` bot as a policy over every holding, fast: [`EquityPolicy`] gives the same
//! probabilities as [`super::BotPolicy`] of [`EquityBot`] (each holding draws its Monte
//! Carlo deals from the same stream, the same cards in the same order) with less work:
//!
//! - the decision (fold, check/call or the raise) is a function of the count of wins, so a
//!   holding's deals stop as soon as the rest of them cannot change it (and none are drawn
//!   when only one action is possible);
//! - on the turn and the river the hand ranks are shared by every holding: one table of the
//!   rank of each holding with the board (and each river card, on the turn) per call, where
//!   the bot evaluates two seven-card hands per deal.
//!
//! Heads-up only (one opponent in the hand); anything else goes through the bot itself.

use super::super::fast::NoLimitHoldemState;
use super::super::{bots::{EquityBot, UnseenDeck}, NoLimitHoldem, CHECK_CALL, DECK_SIZE, FOLD, RAISE_BASE};
use super::{check_call, holding_index, public_hash, BotPolicy, HoldemPolicy, HOLDINGS};
use crate::core::{CardSet64, LaneRng, Result};
use crate::poker::cards::FULL_DECK;
use crate::poker::eval::rank_of_set;

/// The `equity` bot (`equity-N`: `N` deals per decision) as a policy: its action at each
/// holding, as [`super::BotPolicy`] draws it, computed faster (see the module documentation).
pub struct EquityPolicy {
    trials: u32,
    bot: BotPolicy,
}

impl EquityPolicy {
    /// The policy of the `equity` bot with `trials` deals per decision (at least 1).
    pub fn new(trials: u32) -> EquityPolicy {
        let bot = EquityBot::new(trials);
        EquityPolicy {
            trials: trials.max(1),
            bot: BotPolicy::new(Box::new(bot)),
        }
    }
}

/// The bot's action as a function of its count of wins in half points `t2` (a tie counts
/// one half; its equity is `t2 / 2 / trials`): fold below `fold_below`, the raise from
/// `raise_from` on, check or call between. Each action's counts form an interval, in the
/// order fold, check/call, raise (a fold region may reach past `raise_from`).
struct Decision {
    fold_below: u32,
    raise_from: u32,
    raise: u32,
}

impl Decision {
    fn action(&self, t2: u32) -> u32 {
        if t2 < self.fold_below {
            FOLD
        } else if t2 >= self.raise_from {
            self.raise
        } else {
            CHECK_CALL
        }
    }
}

/// The first `t` in `0..=n` where `pred` holds (`n + 1` if none), `pred` monotone (false
/// then true).
fn first(n: u32, pred: impl Fn(u32) -> bool) -> u32 {
    let (mut lo, mut hi) = (0, n + 1);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if pred(mid) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo
}

/// The ranks of hands the deals need, shared by every holding.
enum Ranks {
    /// Preflop and flop: each hand evaluated as the bot does.
    Direct,
    /// The river: the rank of each holding (by [`holding_index`]) with the board.
    River(Vec<u16>),
    /// The turn: the rank of each holding with the board and river card `c` at
    /// `c * HOLDINGS + holding`.
    Turn(Vec<u16>),
}

impl Ranks {
    fn new(board: &[u8]) -> Ranks {
        let set = CardSet64::from_ids(board.iter().copied());
        let table = |with: CardSet64, out: &mut [u16]| {
            for (k, h) in super::holdings().iter().enumerate() {
                let hole = CardSet64::from_ids(*h);
                if (hole & with).is_empty() {
                    out[k] = rank_of_set(with | hole).0;
                }
            }
        };
        match board.len() {
            5 => {
                let mut out = vec![0; HOLDINGS];
                table(set, &mut out);
                Ranks::River(out)
            }
            4 => {
                let mut out = vec![0; DECK_SIZE * HOLDINGS];
                for c in (FULL_DECK - set).iter() {
                    let row = c as usize * HOLDINGS;
                    table(
                        set | CardSet64::from_ids([c]),
                        &mut out[row..row + HOLDINGS],
                    );
                }
                Ranks::Turn(out)
            }
            _ => Ranks::Direct,
        }
    }
}

/// The bot's action at `hole` (disjoint from `board`): [`EquityBot`]'s deals
/// ([`super::super::bots::equity_vs_random`] against one opponent) drawn from `rng`, stopped
/// when the rest cannot change the decision.
fn act(hole: [u8; 2], board: &[u8], trials: u32, d: &Decision, ranks: &Ranks, rng: &mut LaneRng) -> u32 {
    let full = 2 * trials;
    if d.action(0) == d.action(full) {
        return d.action(0);
    }
    let mut unseen = UnseenDeck::new(hole, board);
    let missing = 5 - board.len();
    let need = missing + 2;
    let board_set = CardSet64::from_ids(board.iter().copied());
    let me = holding_index(hole[0], hole[1]);
    let mut t2 = 0u32;
    for done in 1..=trials {
        let deck = unseen.deal(need, rng);
        let them = [deck[missing], deck[missing + 1]];
        let (mine, theirs) = match ranks {
            Ranks::River(r) => (r[me], r[holding_index(them[0], them[1])]),
            Ranks::Turn(r) => {
                let row = deck[0] as usize * HOLDINGS;
                (r[row + me], r[row + holding_index(them[0], them[1])])
            }
            Ranks::Direct => {
                let mut full_board = board_set;
                for &c in &deck[..missing] {
                    full_board.insert(c);
                }
                (
                    rank_of_set(full_board | CardSet64::from_ids(hole)).0,
                    rank_of_set(full_board | CardSet64::from_ids(them)).0,
                )
            }
        };
        t2 += match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => 2,
            std::cmp::Ordering::Equal => 1,
            std::cmp::Ordering::Less => 0,
        };
        let rest = 2 * (trials - done);
        if d.action(t2) == d.action(t2 + rest) {
            break;
        }
    }
    d.action(t2)
}

impl HoldemPolicy for EquityPolicy {
    fn name(&self) -> &str {
        self.bot.name()
    }

    fn probabilities(
        &self,
        game: &NoLimitHoldem,
        s: &NoLimitHoldemState,
        holdings: &[[u8; 2]],
        out: &mut [f64],
    ) -> Result<()> {
        let mask = check_call(game, s, holdings, out)?;
        let Some(legal) = game.legal(s) else {
            return self.bot.probabilities(game, s, holdings, out);
        };
        let me = legal.seat;
        let opponents = (0..game.num_players())
            .filter(|&o| o != me && s.folded >> o & 1 == 0)
            .count();
        let board = s.board();
        let blocked = CardSet64::from_ids(board.iter().copied());
        let fits = |h: &[u8; 2]| h[0] != h[1] && (CardSet64::from_ids(*h) & blocked).is_empty();
        if opponents != 1 || !holdings.iter().all(fits) {
            return self.bot.probabilities(game, s, holdings, out);
        }
        // The bot's decision, as `EquityBot::act` makes it from its equity.
        let trials = self.trials;
        let equity = |t2: u32| (t2 as f64 * 0.5) / trials as f64;
        let to_call = legal.call_amount as f64;
        let pot_odds = to_call / (s.pot_total() as f64 + to_call);
        let threshold = EquityBot::raise_threshold(1);
        let raise = game
            .raise_fractions_permille()
            .iter()
            .enumerate()
            .filter(|&(k, _)| mask[RAISE_BASE as usize + k] != 0)
            .min_by_key(|&(_, &f)| f.abs_diff(1000))
            .map(|(k, _)| RAISE_BASE + k as u32)
            .unwrap_or(game.all_in_action());
        let full = 2 * trials;
        let decision = Decision {
            fold_below: if legal.fold {
                first(full, |t2| equity(t2) >= pot_odds)
            } else {
                0
            },
            raise_from: if legal.raise && s.raises_street[me] < 2 {
                first(full, |t2| equity(t2) >= threshold)
            } else {
                full + 1
            },
            raise,
        };
        let ranks = Ranks::new(board);
        let key = public_hash(s);
        let n = game.num_actions();
        out.fill(0.0);
        for (k, &h) in holdings.iter().enumerate() {
            let mut rng = LaneRng::for_lane(key, holding_index(h[0], h[1]) as u64, 0);
            let a = act(h, board, trials, &decision, &ranks, &mut rng) as usize;
            let a = if a < n && mask[a] != 0 { a } else { CHECK_CALL as usize };
            out[k * n + a] = 1.0;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;
    use crate::games::holdem::TableConfig;

    fn game(players: usize) -> NoLimitHoldem {
        NoLimitHoldem::new(players, TableConfig::new(1, 2, 0).unwrap(), 200).unwrap()
    }

    /// Plays `hands` random hands of `g` (random legal actions) and compares, at every
    /// decision, the fast policy with the bot's over every holding the board leaves; returns
    /// how often each of fold, check/call and a raise was played.
    fn compare(g: &NoLimitHoldem, trials: u32, hands: u64, seed: u64) -> [usize; 3] {
        let fast = EquityPolicy::new(trials);
        let slow = BotPolicy::new(Box::new(EquityBot::new(trials)));
        assert_eq!(fast.name(), slow.name());
        let n = g.num_actions();
        let mut seen = [0; 3];
        for hand in 0..hands {
            let mut rng = LaneRng::for_lane(seed, hand, 0);
            let mut s = g.reset(&mut rng);
            let mut mask = vec![0u8; n];
            while !s.is_over() {
                let board = CardSet64::from_ids(s.board().iter().copied());
                let hs: Vec<[u8; 2]> = super::super::holdings()
                    .iter()
                    .copied()
                    .filter(|h| (CardSet64::from_ids(*h) & board).is_empty())
                    .collect();
                let mut a = vec![0.0; hs.len() * n];
                let mut b = a.clone();
                fast.probabilities(g, &s, &hs, &mut a).unwrap();
                slow.probabilities(g, &s, &hs, &mut b).unwrap();
                assert_eq!(a, b, "hand {hand}, board {:?}", s.board());
                for row in a.chunks(n) {
                    let k = row.iter().position(|&p| p == 1.0).unwrap();
                    seen[(k as u32).min(2) as usize] += 1;
                }
                g.legal_mask(&s, &mut mask);
                let action = rng.pick_set(&mask).unwrap() as u32;
                let mut rewards = vec![0f32; g.num_players()];
                assert!(g.step(&mut s, action, &mut rng, &mut rewards).applied);
            }
        }
        seen
    }

    #[test]
    fn the_fast_equity_policy_gives_the_bots_probabilities_on_every_street() {
        let g = game(2);
        let mut seen = [0; 3];
        for (trials, hands) in [(200, 6), (7, 30), (1, 10)] {
            let s = compare(&g, trials, hands, 11);
            for k in 0..3 {
                seen[k] += s[k];
            }
        }
        // Folds, calls and raises all occur, so the equality is not between two constants.
        assert!(seen.iter().all(|&c| c > 100), "{seen:?}");
    }

    #[test]
    fn three_handed_the_fast_equity_policy_is_the_bot() {
        let seen = compare(&game(3), 20, 4, 5);
        assert!(seen.iter().sum::<usize>() > 0);
    }

    #[test]
    fn the_decision_counts_split_as_the_bot_decides() {
        let d = Decision {
            fold_below: 3,
            raise_from: 7,
            raise: RAISE_BASE,
        };
        let actions: Vec<u32> = (0..9).map(|t| d.action(t)).collect();
        assert_eq!(actions[..3], [FOLD; 3]);
        assert_eq!(actions[3..7], [CHECK_CALL; 4]);
        assert_eq!(actions[7..], [RAISE_BASE; 2]);
        assert_eq!(first(10, |t| t >= 4), 4);
        assert_eq!(first(10, |_| false), 11);
        assert_eq!(first(10, |_| true), 0);
    }
}
