//! The fast lane engine: the whole game in an 8-byte `Pod` state (the two cards and the
//! betting history); the outcome read from the history by one `match`.

use bytemuck::{Pod, Zeroable};

use super::*;
use crate::core::{Error, Game, LaneOutcome, LaneRng, Result};

/// One lane of Kuhn poker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Pod, Zeroable)]
#[repr(C)]
pub struct KuhnPokerState {
    /// Each seat's card (`0` jack, `1` queen, `2` king).
    pub(crate) cards: [u8; NUM_PLAYERS],
    /// The actions so far (`history[..len]`); the slots after them are zero.
    pub(crate) history: [u8; MAX_HISTORY],
    /// Number of actions so far.
    pub(crate) len: u8,
    /// Seat to act (`len % 2`; after the end, the seat after the last to act).
    pub(crate) to_act: u8,
    /// 0 running, 1 over.
    pub(crate) end: u8,
}

impl KuhnPokerState {
    /// Whether the game is over.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.end != 0
    }

    /// The card of `seat`.
    #[inline]
    pub fn card(&self, seat: usize) -> u8 {
        self.cards[seat]
    }

    /// The actions so far, in order.
    #[inline]
    pub fn history(&self) -> &[u8] {
        &self.history[..self.len as usize]
    }
}

/// Seat 0's result in chips once `history` ends the game with these `cards`, or `None` while
/// it goes on (or for a history no game reaches).
#[inline]
pub fn payoff(cards: [u8; NUM_PLAYERS], history: &[u8]) -> Option<i32> {
    let showdown = |stake: i32| if cards[0] > cards[1] { stake } else { -stake };
    match history {
        [0, 0] => Some(showdown(1)),
        [1, 0] => Some(1),
        [1, 1] | [0, 1, 1] => Some(showdown(2)),
        [0, 1, 0] => Some(-1),
        _ => None,
    }
}

/// Deals two different cards from `rng`: seat 0's, then seat 1's.
pub fn deal_cards(rng: &mut LaneRng) -> [u8; NUM_PLAYERS] {
    let first = rng.below(DECK_SIZE as u32) as u8;
    let second = (first + 1 + rng.below(DECK_SIZE as u32 - 1) as u8) % DECK_SIZE as u8;
    [first, second]
}

/// Checks that `order` is two different cards below 3 (seat 0's, then seat 1's).
pub fn check_order(order: &[u8]) -> Result<[u8; NUM_PLAYERS]> {
    Error::check_len("deal order", NUM_PLAYERS, order.len())?;
    if order.iter().any(|&c| c as usize >= DECK_SIZE) || order[0] == order[1] {
        return Err(Error::Invalid {
            what: "deal order",
            reason: format!("must be two different cards of 0..3, got {order:?}"),
        });
    }
    Ok([order[0], order[1]])
}

/// A new game with these (checked) cards.
pub fn deal(cards: [u8; NUM_PLAYERS]) -> KuhnPokerState {
    KuhnPokerState {
        cards,
        ..KuhnPokerState::zeroed()
    }
}

/// The most a seat can lose in a hand (ante and a called bet), what an illegal action costs
/// under `on_illegal = lose`.
pub const FORFEIT_CHIPS: f32 = 2.0;

impl Game for KuhnPoker {
    type State = KuhnPokerState;

    /// The forfeit rule (`on_illegal = lose`): the offender loses
    /// `FORFEIT_CHIPS`, the most a hand can lose (a called bet), to the other seat.
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

    fn reset(&self, rng: &mut LaneRng) -> KuhnPokerState {
        deal(deal_cards(rng))
    }

    /// `order`: seat 0's card, then seat 1's, two different cards of `0..3`.
    fn reset_from_order(&self, order: &[u8]) -> Result<KuhnPokerState> {
        Ok(deal(check_order(order)?))
    }

    fn current_player(&self, s: &KuhnPokerState) -> usize {
        s.to_act as usize
    }

    fn finished(&self, s: &KuhnPokerState) -> (bool, bool) {
        (s.end != 0, false)
    }

    fn check_state(&self, s: &KuhnPokerState) -> std::result::Result<(), String> {
        super::checks::check_state(s)
    }

    #[inline]
    fn legal_mask(&self, s: &KuhnPokerState, mask: &mut [u8]) {
        mask.fill((s.end == 0) as u8);
    }

    #[inline]
    fn step(
        &self,
        s: &mut KuhnPokerState,
        action: u32,
        _rng: &mut LaneRng,
        rewards: &mut [f32],
    ) -> LaneOutcome {
        if s.end != 0 || action >= N_ACTIONS as u32 {
            return LaneOutcome::ILLEGAL;
        }
        let len = s.len as usize;
        s.history[len] = action as u8;
        s.len += 1;
        s.to_act ^= 1;
        let over = payoff(s.cards, s.history());
        if let Some(v) = over {
            s.end = 1;
            rewards[0] = v as f32;
            rewards[1] = -v as f32;
        }
        LaneOutcome {
            applied: true,
            terminated: over.is_some(),
            truncated: false,
        }
    }

    #[inline]
    fn obs_format(&self) -> crate::core::ObsFormat {
        // Every value is a 0/1 flag.
        crate::core::ObsFormat::all_bytes(OBS_DIM)
    }

    fn observe(&self, s: &KuhnPokerState, player: usize, obs: &mut [f32]) {
        write_flags(s, player, obs, 1.0);
    }

    /// The same flags as bytes (every value is a flag: the compact row is all bytes).
    fn observe_u8(&self, s: &KuhnPokerState, player: usize, bytes: &mut [u8], _: &mut [f32]) -> bool {
        write_flags(s, player, bytes, 1);
        true
    }
}

/// The observation's flags in any value type: zero everywhere, `one` at the seat, the card
/// and each action of the history.
#[inline]
fn write_flags<T: Copy + Default>(s: &KuhnPokerState, player: usize, obs: &mut [T], one: T) {
    obs.fill(T::default());
    obs[player] = one;
    obs[OBS_CARD + s.cards[player] as usize] = one;
    for (i, &a) in s.history().iter().enumerate() {
        obs[OBS_HISTORY + 2 * i + a as usize] = one;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_is_8_bytes() {
        assert_eq!(std::mem::size_of::<KuhnPokerState>(), 8);
    }

    #[test]
    fn deals_cover_the_six_orders() {
        let mut seen = std::collections::BTreeSet::new();
        let mut rng = LaneRng::from_seed(1);
        for _ in 0..200 {
            let c = deal_cards(&mut rng);
            assert_ne!(c[0], c[1]);
            seen.insert(c);
        }
        assert_eq!(seen.len(), 6);
    }
}
