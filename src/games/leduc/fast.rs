//! The fast lane engine: the whole hand in a 20-byte `Pod` state (cards, betting counters,
//! chips put in, the betting history of both rounds).

use bytemuck::{Pod, Zeroable};

use super::*;
use crate::core::{Error, Game, LaneOutcome, LaneRng, Result};

/// One lane of Leduc hold'em.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Pod, Zeroable)]
#[repr(C)]
pub struct LeducHoldemState {
    /// Each seat's private card.
    pub(crate) cards: [u8; NUM_PLAYERS],
    /// The public card (dealt at the start, shown from the second round on).
    pub(crate) public: u8,
    /// The betting round: 0 or 1.
    pub(crate) round: u8,
    /// Seat to act (after the end: the seat whose action ended the hand).
    pub(crate) to_act: u8,
    /// 0 running, 1 over.
    pub(crate) end: u8,
    /// Raises in this round.
    pub(crate) raises: u8,
    /// Calls (and checks) in this round since its last raise.
    pub(crate) calls: u8,
    /// The chips each seat has put in the pot (ante included).
    pub(crate) contributed: [u8; NUM_PLAYERS],
    /// Actions in each round.
    pub(crate) len: [u8; N_ROUNDS],
    /// The actions of each round (`history[r][..len[r]]`); the slots after them are zero.
    pub(crate) history: [[u8; MAX_ROUND_ACTIONS]; N_ROUNDS],
}

impl LeducHoldemState {
    /// Whether the hand is over.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.end != 0
    }

    /// The private card of `seat`.
    #[inline]
    pub fn card(&self, seat: usize) -> u8 {
        self.cards[seat]
    }

    /// The public card once shown (from the second round on), else `None` (also in a
    /// game tree's state before the public card's chance node dealt it).
    #[inline]
    pub fn public_card(&self) -> Option<u8> {
        (self.round == 1 && (self.public as usize) < DECK_SIZE).then_some(self.public)
    }

    /// The betting round: 0 or 1.
    #[inline]
    pub fn round(&self) -> usize {
        self.round as usize
    }

    /// The chips `seat` has put in the pot.
    #[inline]
    pub fn contributed(&self, seat: usize) -> u8 {
        self.contributed[seat]
    }

    /// The actions of round `round`, in order.
    #[inline]
    pub fn round_history(&self, round: usize) -> &[u8] {
        &self.history[round][..self.len[round] as usize]
    }

    /// Whether the seat to act faces a bet (so may fold).
    #[inline]
    pub fn facing_bet(&self) -> bool {
        let p = self.to_act as usize;
        self.contributed[p] < self.contributed[p ^ 1]
    }
}

/// Deals three different cards from `rng`: seat 0's, seat 1's, the public card.
pub fn deal_cards(rng: &mut LaneRng) -> [u8; 3] {
    let mut deck: [u8; DECK_SIZE] = std::array::from_fn(|i| i as u8);
    for i in 0..3 {
        let j = i + rng.below((DECK_SIZE - i) as u32) as usize;
        deck.swap(i, j);
    }
    [deck[0], deck[1], deck[2]]
}

/// Checks that `order` is three different cards of `0..6` (seat 0's, seat 1's, public).
pub fn check_order(order: &[u8]) -> Result<[u8; 3]> {
    Error::check_len("deal order", 3, order.len())?;
    let distinct = order[0] != order[1] && order[0] != order[2] && order[1] != order[2];
    if order.iter().any(|&c| c as usize >= DECK_SIZE) || !distinct {
        return Err(Error::Invalid {
            what: "deal order",
            reason: format!("must be three different cards of 0..6, got {order:?}"),
        });
    }
    Ok([order[0], order[1], order[2]])
}

/// A new hand with these (checked) cards: seat 0's, seat 1's, the public card.
pub fn deal(cards: [u8; 3]) -> LeducHoldemState {
    LeducHoldemState {
        cards: [cards[0], cards[1]],
        public: cards[2],
        contributed: [ANTE; NUM_PLAYERS],
        ..LeducHoldemState::zeroed()
    }
}

/// The showdown strength of a private card against the public card: a pair beats every
/// unpaired card, otherwise the rank decides.
#[inline]
pub fn strength(card: u8, public: u8) -> u8 {
    let paired = (rank_of(card) == rank_of(public)) as u8;
    paired * 4 + rank_of(card)
}

/// The most a seat can lose in a hand (1 + 2·2 + 2·4 = 13: the ante and two raises in each
/// round, called), what an illegal action costs under `on_illegal = lose`.
pub const FORFEIT_CHIPS: f32 = 13.0;

impl Game for LeducHoldem {
    type State = LeducHoldemState;

    /// The forfeit rule (`on_illegal = lose`): the offender loses
    /// `FORFEIT_CHIPS`, the most a hand can lose, to the other seat.
    #[inline]
    fn forfeit_rewards(&self, _: &Self::State, offender: usize, rewards: &mut [f32]) -> bool {
        rewards[offender] = -FORFEIT_CHIPS;
        rewards[1 - offender] = FORFEIT_CHIPS;
        true
    }

    fn num_players(&self) -> usize {
        NUM_PLAYERS
    }
    fn num_actions(&self) -> usize {
        N_ACTIONS
    }
    fn obs_dim(&self) -> usize {
        OBS_DIM
    }

    fn reset(&self, rng: &mut LaneRng) -> LeducHoldemState {
        deal(deal_cards(rng))
    }

    /// `order`: seat 0's card, seat 1's card, the public card; three different cards of
    /// `0..6`.
    fn reset_from_order(&self, order: &[u8]) -> Result<LeducHoldemState> {
        Ok(deal(check_order(order)?))
    }

    fn current_player(&self, s: &LeducHoldemState) -> usize {
        s.to_act as usize
    }

    fn finished(&self, s: &LeducHoldemState) -> (bool, bool) {
        (s.end != 0, false)
    }

    fn check_state(&self, s: &LeducHoldemState) -> std::result::Result<(), String> {
        super::checks::check_state(s)
    }

    #[inline]
    fn legal_mask(&self, s: &LeducHoldemState, mask: &mut [u8]) {
        let live = (s.end == 0) as u8;
        mask[FOLD as usize] = live & s.facing_bet() as u8;
        mask[CALL as usize] = live;
        mask[RAISE as usize] = live & (s.raises < MAX_RAISES) as u8;
    }

    #[inline]
    fn step(
        &self,
        s: &mut LeducHoldemState,
        action: u32,
        _rng: &mut LaneRng,
        rewards: &mut [f32],
    ) -> LaneOutcome {
        if s.end != 0 {
            return LaneOutcome::ILLEGAL;
        }
        let p = s.to_act as usize;
        let o = p ^ 1;
        let r = s.round as usize;
        let stake = s.contributed[o].max(s.contributed[p]);
        match action {
            FOLD if s.contributed[p] < stake => {
                s.end = 1;
                rewards[o] = s.contributed[p] as f32;
                rewards[p] = -(s.contributed[p] as f32);
            }
            CALL => {
                s.contributed[p] = stake;
                s.calls += 1;
                let closed = if s.raises == 0 {
                    s.calls == 2
                } else {
                    s.calls == 1
                };
                if !closed {
                    s.to_act = o as u8;
                } else if r == 1 {
                    s.end = 1;
                    let (a, b) = (
                        strength(s.cards[0], s.public),
                        strength(s.cards[1], s.public),
                    );
                    let won = s.contributed[0] as f32;
                    let v = if a > b {
                        won
                    } else if a < b {
                        -won
                    } else {
                        0.0
                    };
                    rewards[0] = v;
                    // `0.0 - v`, not `-v`: a split pays +0.0 to both, never -0.0.
                    rewards[1] = 0.0 - v;
                } else {
                    s.round = 1;
                    s.raises = 0;
                    s.calls = 0;
                    s.to_act = 0;
                }
            }
            RAISE if s.raises < MAX_RAISES => {
                s.contributed[p] = stake + RAISE_AMOUNTS[r];
                s.raises += 1;
                s.calls = 0;
                s.to_act = o as u8;
            }
            _ => return LaneOutcome::ILLEGAL,
        }
        let slot = s.len[r] as usize;
        s.history[r][slot] = action as u8;
        s.len[r] += 1;
        LaneOutcome {
            applied: true,
            terminated: s.end != 0,
            truncated: false,
        }
    }

    #[inline]
    fn obs_format(&self) -> crate::core::ObsFormat {
        // Every value is a 0/1 flag.
        crate::core::ObsFormat::all_bytes(OBS_DIM)
    }

    fn observe(&self, s: &LeducHoldemState, player: usize, obs: &mut [f32]) {
        write_flags(s, player, obs, 1.0);
    }

    /// The same flags as bytes (every value is a flag: the compact row is all bytes).
    fn observe_u8(&self, s: &LeducHoldemState, player: usize, bytes: &mut [u8], _: &mut [f32]) -> bool {
        write_flags(s, player, bytes, 1);
        true
    }
}

/// The observation's flags in any value type: zero everywhere, `one` at the seat, the
/// private card, the public card once dealt and each call or raise of both rounds.
#[inline]
fn write_flags<T: Copy + Default>(s: &LeducHoldemState, player: usize, obs: &mut [T], one: T) {
    obs.fill(T::default());
    obs[player] = one;
    obs[OBS_PRIVATE + s.cards[player] as usize] = one;
    if s.round == 1 {
        obs[OBS_PUBLIC + s.public as usize] = one;
    }
    for r in 0..N_ROUNDS {
        let base = OBS_BETTING + r * 2 * MAX_ROUND_ACTIONS;
        for (i, &a) in s.round_history(r).iter().enumerate() {
            if a != FOLD as u8 {
                obs[base + 2 * i + a as usize - 1] = one;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_is_20_bytes() {
        assert_eq!(std::mem::size_of::<LeducHoldemState>(), 20);
    }

    #[test]
    fn deals_are_three_different_cards() {
        let mut rng = LaneRng::from_seed(3);
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..2000 {
            let d = deal_cards(&mut rng);
            assert!(check_order(&d).is_ok());
            seen.insert(d);
        }
        assert_eq!(seen.len(), 120);
    }
}
