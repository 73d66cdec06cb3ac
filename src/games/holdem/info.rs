//! The information states of a no-limit hand ([`InfoStates`]): what a seat knows is its
//! hole cards, the board dealt so far, the button, and every action of the hand in order
//! (seat, kind, amount in chips) with the table's action abstraction (the ids of the mask
//! and the exact raise-to ids), recovered by replaying the state's action history
//! ([`NoLimitHoldemState::history`]) from the deal. See `docs/holdem.md`.

use super::fast::{decode_history, NoLimitHoldemState, HISTORY_BYTES};
use super::{NoLimitHoldem, CHECK_CALL, FOLD, MAX_PLAYERS};
use crate::core::{Game, InfoStates, LaneRng};
use crate::poker::Card;

/// What an action did, as the information state shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum ActionKind {
    /// Fold.
    Fold = 0,
    /// Check.
    Check = 1,
    /// Call (`amount`: the chips put in, less than the bet to match when all-in).
    Call = 2,
    /// Bet or raise (`amount`: the raise-to, the seat's whole bet on the street).
    Raise = 3,
}

/// Number of [`ActionKind`]s.
pub const ACTION_KINDS: usize = 4;

/// One action of a hand, as the information state shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PastAction {
    /// The street: 0 preflop, 1 flop, 2 turn, 3 river.
    pub street: u8,
    /// The seat that acted.
    pub seat: u8,
    /// What it did.
    pub kind: ActionKind,
    /// Chips: put in by a call, the raise-to of a raise, 0 for a fold or a check.
    pub amount: u32,
}

impl PastAction {
    /// A placeholder (a fold of seat 0 preflop, 0 chips).
    const NONE: PastAction = PastAction {
        street: 0,
        seat: 0,
        kind: ActionKind::Fold,
        amount: 0,
    };
}

/// Actions of each street shown in the information-state tensor (the last ones of the
/// street when there were more).
pub const TENSOR_ACTIONS: usize = 6;

/// The byte that starts the overflow part of a key (then the 8 bytes of the hash).
pub const KEY_OVERFLOW: u8 = 0xFF;

impl NoLimitHoldem {
    /// The actions of the hand in `s`, in order, replayed from the deal (the recorded part
    /// when the history overflowed), and the hash of the actions that did not fit (`None`
    /// when none were lost).
    pub fn past_actions(&self, s: &NoLimitHoldemState) -> (Vec<PastAction>, Option<u64>) {
        let mut out = Vec::new();
        let lost = self.replay_actions(s, |a| out.push(a));
        (out, lost)
    }

    /// [`Self::past_actions`] without allocating: calls `f` with each action in order and
    /// returns the hash of the lost ones.
    fn replay_actions(&self, s: &NoLimitHoldemState, mut f: impl FnMut(PastAction)) -> Option<u64> {
        let (bytes, lost) = s.history();
        let n = s.num_players();
        let mut replay = self.deal(&s.hole_cards()[..n], s.full_board(), s.button());
        let mut rng = LaneRng::from_seed(0);
        let mut rewards = [0f32; MAX_PLAYERS];
        for a in decode_history(bytes) {
            let Some(legal) = self.legal(&replay) else {
                break;
            };
            let street = replay.street;
            let (kind, amount) = match a {
                FOLD => (ActionKind::Fold, 0),
                CHECK_CALL if legal.call_amount == 0 => (ActionKind::Check, 0),
                CHECK_CALL => (ActionKind::Call, legal.call_amount as u32),
                _ => {
                    let max_bet = replay.bets().iter().copied().max().unwrap_or(0);
                    let to = self.raise_target(a, &legal, max_bet as u64, replay.pot_total());
                    (ActionKind::Raise, to.unwrap_or(0) as u32)
                }
            };
            if !self.step(&mut replay, a, &mut rng, &mut rewards).applied {
                break;
            }
            f(PastAction {
                street,
                seat: legal.seat as u8,
                kind,
                amount,
            });
        }
        lost
    }

    /// Length of an information-state tensor: the observation, then
    /// `TENSOR_ACTIONS` actions per street of `num_players + 5` values each.
    pub fn info_state_dim(&self) -> usize {
        self.obs_dim() + 4 * TENSOR_ACTIONS * self.action_width()
    }

    /// Values per action in the tensor: seat one-hot (from the observer), kind one-hot,
    /// amount in big blinds.
    fn action_width(&self) -> usize {
        self.num_players() + ACTION_KINDS + 1
    }
}

impl InfoStates for NoLimitHoldem {
    fn info_state_dim(&self) -> usize {
        NoLimitHoldem::info_state_dim(self)
    }

    /// The seat, the button, the seat's two hole cards, the number of board cards dealt and
    /// their ids, then 7 bytes per action in order: street, seat, kind (`ActionKind`),
    /// amount (`u32`, little-endian); when the history overflowed, `KEY_OVERFLOW` and the
    /// hash of the rest (`u64`, little-endian).
    fn info_state_key(&self, s: &NoLimitHoldemState, player: usize, key: &mut Vec<u8>) {
        let board = s.board();
        key.extend_from_slice(&[player as u8, s.button() as u8]);
        key.extend_from_slice(&s.hole_cards()[player]);
        key.push(board.len() as u8);
        key.extend_from_slice(board);
        let lost = self.replay_actions(s, |a| {
            key.extend_from_slice(&[a.street, a.seat, a.kind as u8]);
            key.extend_from_slice(&a.amount.to_le_bytes());
        });
        if let Some(hash) = lost {
            key.push(KEY_OVERFLOW);
            key.extend_from_slice(&hash.to_le_bytes());
        }
    }

    /// The observation (`obs_dim`), then for each street `TENSOR_ACTIONS` slots of
    /// `num_players + 5` values holding the street's last actions in order (unused slots
    /// zero): the acting seat one-hot counted from the observer (slot `i` is seat
    /// `(player + i) % num_players`, as the observation lists seats), the kind one-hot
    /// (fold, check, call, raise), the amount in big blinds (a call's chips, a raise's
    /// raise-to).
    fn info_state_tensor(&self, s: &NoLimitHoldemState, player: usize, out: &mut [f32]) {
        let (d, n, w) = (self.obs_dim(), self.num_players(), self.action_width());
        self.observe(s, player, &mut out[..d]);
        let rest = &mut out[d..];
        rest.fill(0.0);
        // At most one action per history byte: the whole hand fits on the stack.
        let mut actions = [PastAction::NONE; HISTORY_BYTES];
        let mut count = 0;
        let mut per_street = [0usize; 4];
        self.replay_actions(s, |a| {
            actions[count] = a;
            count += 1;
            per_street[a.street as usize & 3] += 1;
        });
        let bb = self.table.big_blind as f32;
        let mut seen = [0usize; 4];
        for a in &actions[..count] {
            let street = a.street as usize & 3;
            let skip = per_street[street].saturating_sub(TENSOR_ACTIONS);
            let i = seen[street];
            seen[street] += 1;
            if i < skip {
                continue;
            }
            let slot = &mut rest[(street * TENSOR_ACTIONS + i - skip) * w..][..w];
            slot[(a.seat as usize + n - player) % n] = 1.0;
            slot[n + a.kind as usize] = 1.0;
            slot[n + ACTION_KINDS] = a.amount as f32 / bb;
        }
    }

    /// `seat 0 (button 1) AsKd | board 2c3d4h | preflop: s1 call 1, s0 raise 6, s1 call 4 |
    /// flop: s0 check`: the seat, the button, its hole cards, the board dealt, then each
    /// street's actions (`sN fold`, `sN check`, `sN call C`, `sN raise T`; chips); `| ...
    /// overflow HASH` when the history overflowed.
    fn info_state_string(&self, s: &NoLimitHoldemState, player: usize) -> String {
        let cards = |ids: &[u8]| -> String {
            if ids.is_empty() {
                return "-".into();
            }
            ids.iter()
                .filter_map(|&c| Card::from_id(c))
                .map(|c| c.to_string())
                .collect()
        };
        let mut text = format!(
            "seat {player} (button {}) {} | board {}",
            s.button(),
            cards(&s.hole_cards()[player]),
            cards(s.board())
        );
        let (actions, lost) = self.past_actions(s);
        let names = ["preflop", "flop", "turn", "river"];
        for (street, name) in names.iter().enumerate() {
            let on: Vec<String> = actions
                .iter()
                .filter(|a| a.street as usize == street)
                .map(|a| match a.kind {
                    ActionKind::Fold => format!("s{} fold", a.seat),
                    ActionKind::Check => format!("s{} check", a.seat),
                    ActionKind::Call => format!("s{} call {}", a.seat, a.amount),
                    ActionKind::Raise => format!("s{} raise {}", a.seat, a.amount),
                })
                .collect();
            if !on.is_empty() {
                text += &format!(" | {name}: {}", on.join(", "));
            }
        }
        if let Some(hash) = lost {
            text += &format!(" | ... overflow {hash:016x}");
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::testing::refuse_edit;
    use crate::games::holdem::{TableConfig, EXACT_RAISE, RAISE_BASE};

    /// Heads-up, blinds 1/2, `stack` chips each, button seat 0; the deal `order`.
    fn table(stack: u64) -> NoLimitHoldem {
        NoLimitHoldem::new(2, TableConfig::new(1, 2, 0).unwrap(), stack)
            .unwrap()
            .with_button(Some(0))
            .unwrap()
    }

    const ORDER: [u8; 9] = [12, 25, 0, 14, 3, 17, 30, 44, 8];

    fn play(game: &NoLimitHoldem, actions: &[u32]) -> NoLimitHoldemState {
        let mut s = game.reset_from_order(&ORDER).unwrap();
        let mut rewards = [0f32; 2];
        let mut rng = LaneRng::from_seed(0);
        for &a in actions {
            assert!(game.step(&mut s, a, &mut rng, &mut rewards).applied, "{a:#x}");
            assert_eq!(game.check_state(&s), Ok(()));
        }
        s
    }

    fn key(game: &NoLimitHoldem, s: &NoLimitHoldemState, player: usize) -> Vec<u8> {
        let mut key = Vec::new();
        game.info_state_key(s, player, &mut key);
        key
    }

    #[test]
    fn two_betting_sequences_to_the_same_pot_have_different_keys() {
        let game = table(200);
        // The button (small blind) raises to 4, the big blind calls; or the button limps,
        // the big blind raises to 4, the button calls: 8 chips in the pot either way.
        let a = play(&game, &[EXACT_RAISE | 4, CHECK_CALL]);
        let b = play(&game, &[CHECK_CALL, EXACT_RAISE | 4, CHECK_CALL]);
        assert_eq!((a.street, b.street), (1, 1));
        assert_eq!((a.pot_total(), a.stacks()), (b.pot_total(), b.stacks()));
        for seat in 0..2 {
            assert_ne!(key(&game, &a, seat), key(&game, &b, seat));
            assert_ne!(
                game.info_state_string(&a, seat),
                game.info_state_string(&b, seat)
            );
        }
        assert_eq!(
            game.info_state_string(&b, 1),
            "seat 1 (button 0) 2c3d | board 5c6d6h | preflop: s0 call 1, s1 raise 4, s0 call 2"
        );
    }

    #[test]
    fn both_seats_share_the_public_part_of_the_key() {
        let game = table(200);
        let s = play(&game, &[CHECK_CALL, CHECK_CALL, RAISE_BASE + 1, CHECK_CALL]);
        let (k0, k1) = (key(&game, &s, 0), key(&game, &s, 1));
        assert_eq!(k0.len(), k1.len());
        // Byte 0 is the seat, bytes 2 and 3 its hole cards; the rest is public.
        let differ: Vec<usize> = (0..k0.len()).filter(|&i| k0[i] != k1[i]).collect();
        assert_eq!(differ, [0, 2, 3]);
        assert_eq!(&k0[2..4], &ORDER[0..2]);
        assert_eq!(&k1[2..4], &ORDER[2..4]);
        // Seat, button, 2 hole cards, 4 board cards (the turn), 4 actions of 7 bytes.
        assert_eq!(k0.len(), 4 + 1 + 4 + 4 * 7);
    }

    #[test]
    fn the_key_holds_what_an_action_did_not_its_id() {
        let game = table(200);
        // Limp, check; then the pot-sized bet (fraction 1 of 4 chips) and the same bet as
        // an exact raise-to.
        let by_fraction = play(&game, &[CHECK_CALL, CHECK_CALL, RAISE_BASE + 1]);
        let exact = play(&game, &[CHECK_CALL, CHECK_CALL, EXACT_RAISE | 4]);
        assert_ne!(by_fraction, exact);
        assert_eq!(key(&game, &by_fraction, 0), key(&game, &exact, 0));
        let (actions, lost) = game.past_actions(&exact);
        assert_eq!(lost, None);
        assert_eq!(
            actions.last(),
            Some(&PastAction {
                street: 1,
                seat: 1,
                kind: ActionKind::Raise,
                amount: 4
            })
        );
    }

    #[test]
    fn the_tensor_is_the_observation_then_the_last_actions_of_each_street() {
        let game = table(200);
        let s = play(&game, &[CHECK_CALL, CHECK_CALL, EXACT_RAISE | 4, CHECK_CALL]);
        let (d, n) = (game.obs_dim(), 2);
        let mut tensor = vec![0f32; game.info_state_dim()];
        let mut obs = vec![0f32; d];
        game.info_state_tensor(&s, 1, &mut tensor);
        game.observe(&s, 1, &mut obs);
        assert_eq!(&tensor[..d], &obs[..]);
        let w = n + ACTION_KINDS + 1;
        let slot = |street: usize, i: usize| &tensor[d + (street * TENSOR_ACTIONS + i) * w..][..w];
        // Preflop: seat 0 (one seat after the observer) calls 1 chip, seat 1 checks.
        assert_eq!(slot(0, 0), [0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.5]);
        assert_eq!(slot(0, 1), [1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]);
        assert!(slot(0, 2).iter().all(|&x| x == 0.0));
        // Flop: seat 1 bets 4 (2 big blinds), seat 0 calls 4.
        assert_eq!(slot(1, 0), [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 2.0]);
        assert_eq!(slot(1, 1), [0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 2.0]);
        assert!(tensor[d + 2 * TENSOR_ACTIONS * w..].iter().all(|&x| x == 0.0));
    }

    /// Min-raises back and forth, as exact raise-tos (4 history bytes each).
    fn raise_war(game: &NoLimitHoldem, raises: usize, last: u32) -> NoLimitHoldemState {
        let mut actions: Vec<u32> = (0..raises as u32).map(|k| EXACT_RAISE | (4 + 2 * k)).collect();
        actions.push(last);
        play(game, &actions)
    }

    #[test]
    fn the_tensor_shows_the_last_actions_of_a_long_street() {
        let game = table(10_000);
        // Raises to 4, 6, ..., 22 (10), then a call: 11 preflop actions, the last 6 shown.
        let s = raise_war(&game, 10, CHECK_CALL);
        let (d, w) = (game.obs_dim(), 2 + ACTION_KINDS + 1);
        let mut tensor = vec![0f32; game.info_state_dim()];
        game.info_state_tensor(&s, 0, &mut tensor);
        let slot = |i: usize| &tensor[d + i * w..][..w];
        // The 6th action from the end: seat 1's raise to 14 (7 big blinds).
        assert_eq!(slot(0), [0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 7.0]);
        assert_eq!(slot(4), [0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 11.0]);
        // The call of seat 0: 22 - 20 chips.
        assert_eq!(slot(5), [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0]);
    }

    #[test]
    fn an_overflowed_history_keeps_distinct_keys_through_its_hash() {
        let game = table(10_000);
        // Exact raise-tos take 4 history bytes each.
        let fit = HISTORY_BYTES / 4;
        let short = raise_war(&game, fit - 1, CHECK_CALL);
        assert_eq!(short.history().1, None);
        let a = raise_war(&game, fit + 10, CHECK_CALL);
        let b = raise_war(&game, fit + 10, EXACT_RAISE | (4 + 2 * (fit as u32 + 10) + 10));
        let c = raise_war(&game, fit + 11, CHECK_CALL);
        for s in [&a, &b, &c] {
            assert!(s.history().1.is_some());
            assert_eq!(s.history().0.len(), 4 * fit);
            assert_eq!(game.past_actions(s).0, game.past_actions(&a).0);
            assert!(game.info_state_string(s, 0).contains("overflow"));
        }
        let keys = [key(&game, &a, 0), key(&game, &b, 0), key(&game, &c, 0)];
        assert!(keys[0] != keys[1] && keys[1] != keys[2] && keys[0] != keys[2]);
        assert_eq!(keys[0].len(), 8 + fit * 7 + 9);
    }

    #[test]
    fn check_state_covers_the_history() {
        let game = NoLimitHoldem::standard(3).unwrap();
        refuse_edit(game, "a history byte without its action", |s| {
            s.history[s.hist_len as usize] = 1;
            s.hist_len += 1
        });
        refuse_edit(game, "a stale history byte", |s| {
            s.history[HISTORY_BYTES - 1] = 1
        });
        refuse_edit(game, "an overflow hash", |s| s.hist_hash = [1, 0]);
        refuse_edit(game, "a length beyond the buffer", |s| {
            s.hist_len = HISTORY_BYTES as u16 + 1
        });
        refuse_edit(game, "a truncated exact raise", |s| {
            s.history[0] = 0xC0;
            s.hist_len = 1
        });
        refuse_edit(game, "an action the replay refuses", |s| {
            s.history[0] = 9;
            s.hist_len = 1
        });
    }
}
