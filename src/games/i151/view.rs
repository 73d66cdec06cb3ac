//! What one seat may see ([`PlayerView`], the official `PlayerView` in compact form) and
//! its observation encoding for learning agents ([`encode_view`]).
//!
//! A view holds the seat's own hand and public information only: the table, the sizes of
//! the bank and the played pile, every seat's hand size, score, exclusion and streak. It
//! never holds another seat's cards nor the order of the bank.

use super::fast::{I151State, FLAG_ACE_EFFECT, FLAG_CHOOSE_SUIT};
use super::*;
use crate::core::simd::{one_hot_f32, one_hot_u8};

/// Public information about one seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatView {
    /// Cards in hand.
    pub hand_size: u8,
    /// Total score.
    pub total_score: i16,
    /// Excluded (score at or above the target).
    pub is_excluded: bool,
    /// Consecutive round wins.
    pub consecutive_round_wins: u8,
}

/// Everything one seat may know at a moment of the match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayerView {
    /// The seat whose view this is.
    pub seat: u8,
    /// Number of seats.
    pub num_players: u8,
    /// Own hand (card set).
    pub hand: u32,
    /// Points of the own hand.
    pub hand_points: u16,
    /// The card plays must match, if any. It is public (it was played face up) and stays
    /// after a refill moved it into the bank, as in the engine's rules; the official view
    /// only shows the last three cards of the pile, which are gone after a refill.
    pub top_card: Option<u8>,
    /// The last three cards of the played pile, oldest first (`recent_len` of them).
    pub recent_cards: [u8; 3],
    /// How many of `recent_cards` are set.
    pub recent_len: u8,
    /// Every card in the played pile (all were played face up).
    pub played_pile: u32,
    /// Cards in the played pile.
    pub played_pile_size: u8,
    /// Cards in the bank.
    pub bank_size: u8,
    /// No top card and an empty pile.
    pub table_empty: bool,
    /// The suit imposed by an eight.
    pub required_suit: Option<u8>,
    /// The player to act must announce a suit.
    pub must_choose_suit: bool,
    /// An ace is active: a draw takes two cards and ends the turn.
    pub ace_effect_active: bool,
    /// Cards put down by the last action.
    pub last_play_count: u8,
    /// The seat to act.
    pub current_player: u8,
    /// The seat that acts after the current turn.
    pub next_player: u8,
    /// The player to act has drawn this turn.
    pub current_has_drawn: bool,
    /// The player to act is chaining same-rank plays.
    pub current_is_chaining: bool,
    /// Every seat's public information, by seat (`players` of them).
    pub seats: [SeatView; MAX_PLAYERS],
    /// The round number, from 1.
    pub round_number: u16,
    /// The dealer of the round.
    pub dealer: u8,
    /// The exclusion score.
    pub target_score: i16,
}

impl PlayerView {
    /// The view of `seat` in a fast-engine state.
    pub fn from_state(game: &I151, s: &I151State, seat: usize) -> PlayerView {
        let pile = s.played_pile();
        let recent = &pile[pile.len().saturating_sub(3)..];
        let mut recent_cards = [0u8; 3];
        recent_cards[..recent.len()].copy_from_slice(recent);
        let cp = s.to_act as usize;
        let mut seats = [SeatView::default(); MAX_PLAYERS];
        for (p, v) in seats.iter_mut().enumerate().take(s.num_players as usize) {
            *v = SeatView {
                hand_size: s.hands[p].count_ones() as u8,
                total_score: s.scores[p],
                is_excluded: s.is_excluded(p),
                consecutive_round_wins: s.consecutive[p],
            };
        }
        PlayerView {
            seat: seat as u8,
            num_players: s.num_players,
            hand: s.hands[seat],
            hand_points: hand_points(s.hands[seat]) as u16,
            top_card: s.top_card(),
            recent_cards,
            recent_len: recent.len() as u8,
            played_pile: s.pile_set,
            played_pile_size: s.pile_len,
            bank_size: s.bank_len() as u8,
            table_empty: s.top == NO_CARD && s.pile_len == 0,
            required_suit: s.required_suit(),
            must_choose_suit: s.flags & FLAG_CHOOSE_SUIT != 0,
            ace_effect_active: s.flags & FLAG_ACE_EFFECT != 0,
            last_play_count: s.last_play_count,
            current_player: s.to_act,
            next_player: s.next_player(),
            current_has_drawn: s.drawn >> cp & 1 != 0,
            current_is_chaining: s.chaining >> cp & 1 != 0,
            seats,
            round_number: s.round_number,
            dealer: s.dealer,
            target_score: game.target_score() as i16,
        }
    }
}

/// Offsets of the observation row.
pub mod layout {
    /// Own hand, one-hot over card ids (32).
    pub const HAND: usize = 0;
    /// Top card, one-hot (32; all zero without one).
    pub const TOP: usize = 32;
    /// Cards of the played pile (32).
    pub const PILE: usize = 64;
    /// Imposed suit, one-hot (4).
    pub const REQUIRED_SUIT: usize = 96;
    /// Flags (6): must choose suit, ace effect, player to act is chaining, has drawn,
    /// table empty, it is this seat's turn.
    pub const FLAGS: usize = 100;
    /// Scalars (3): bank size / 32, pile size / 32, last play count.
    pub const SCALARS: usize = 106;
    /// Per seat, relative to the observer (seat `(observer + k) % num_players` at slot `k`),
    /// 4 slots of 8: present, hand size / 32, score / target, excluded, streak / 3, to act,
    /// acts next, dealer.
    pub const SEATS: usize = 109;
    /// Values per seat slot.
    pub const SEAT_WIDTH: usize = 8;
    /// Hand points / 100 (1).
    pub const HAND_POINTS: usize = 141;
}

/// The 106 one-hot and flag values at the front of `seat`'s observation as two bit sets:
/// hand and top card (values `0..64`), then the pile, the imposed suit and the six flags
/// (values `64..106`), for the f32 and the compact encoders alike.
#[inline(always)]
fn flag_blocks(s: &I151State, seat: usize) -> [u64; 2] {
    use layout::*;
    let cp = s.to_act as usize;
    let top_bit = if s.top != NO_CARD { 1u64 << s.top } else { 0 };
    let suit_bit = if s.required_suit != NO_SUIT {
        1u64 << s.required_suit
    } else {
        0
    };
    let flags = (s.flags & FLAG_CHOOSE_SUIT != 0) as u64
        | ((s.flags & FLAG_ACE_EFFECT != 0) as u64) << 1
        | ((s.chaining >> cp & 1) as u64) << 2
        | ((s.drawn >> cp & 1) as u64) << 3
        | ((s.top == NO_CARD && s.pile_len == 0) as u64) << 4
        | ((cp == seat) as u64) << 5;
    [
        s.hands[seat] as u64 | top_bit << TOP,
        s.pile_set as u64 | suit_bit << (REQUIRED_SUIT - PILE) | flags << (FLAGS - PILE),
    ]
}

/// Writes the observation of `seat` in a fast-engine state into `obs` (`OBS_DIM` long),
/// straight from the state: bit for bit what `encode_view(&PlayerView::from_state(..))`
/// writes (the reference engine encodes through its view; `cardvec diff 151` compares the
/// two), without building the view. The 106 one-hot and flag values at the front are two
/// SIMD one-hot writes: hand and top card (`0..64`), then the pile, the imposed suit and
/// the six flags (`64..106`).
#[inline]
pub fn encode_state(game: &I151, s: &I151State, seat: usize, obs: &mut [f32]) {
    use layout::*;
    let obs = &mut obs[..OBS_DIM];
    let cp = s.to_act as usize;
    let hand = s.hands[seat];
    let [front, back] = flag_blocks(s, seat);
    one_hot_f32(front, &mut obs[HAND..PILE]);
    one_hot_f32(back, &mut obs[PILE..SCALARS]);
    obs[SCALARS] = s.bank_len() as u8 as f32 / 32.0;
    obs[SCALARS + 1] = s.pile_len as f32 / 32.0;
    obs[SCALARS + 2] = s.last_play_count as f32;
    let n = s.num_players as usize;
    let next = s.next_player() as usize;
    // A target of 0 (the match ends after round 1) is shown as 1: no division by zero.
    let target = game.target_score().max(1) as i16 as f32;
    // `(seat + k) % n` with one division: `base + k < 2 n`.
    let base = seat % n;
    for k in 0..MAX_PLAYERS {
        let row = &mut obs[SEATS + k * SEAT_WIDTH..SEATS + (k + 1) * SEAT_WIDTH];
        if k >= n {
            row.fill(0.0);
            continue;
        }
        let p = if base + k >= n {
            base + k - n
        } else {
            base + k
        };
        row[0] = 1.0;
        row[1] = s.hands[p].count_ones() as u8 as f32 / 32.0;
        row[2] = s.scores[p] as f32 / target;
        row[3] = (s.excluded >> p & 1) as f32;
        row[4] = s.consecutive[p] as f32 / 3.0;
        row[5] = (cp == p) as u8 as f32;
        row[6] = (next == p) as u8 as f32;
        row[7] = (s.dealer as usize == p) as u8 as f32;
    }
    obs[HAND_POINTS] = hand_points(hand) as u16 as f32 / 100.0;
}

/// The compact (`u8`) observation of `seat` (see `I151::obs_format`): what
/// [`encode_state`] writes, with the one-hot blocks, flags, sizes, counts and seat flags as
/// bytes (sizes as numerators over 32, streaks over 3) and each seat's score over the target
/// and the hand's points over 100 in `tail`.
#[inline]
pub fn encode_state_u8(game: &I151, s: &I151State, seat: usize, bytes: &mut [u8], tail: &mut [f32]) {
    use layout::*;
    let cp = s.to_act as usize;
    let hand = s.hands[seat];
    let [front, back] = flag_blocks(s, seat);
    one_hot_u8(front as u128, &mut bytes[HAND..PILE]);
    one_hot_u8(back as u128, &mut bytes[PILE..SCALARS]);
    bytes[SCALARS] = s.bank_len() as u8;
    bytes[SCALARS + 1] = s.pile_len;
    bytes[SCALARS + 2] = s.last_play_count;
    let n = s.num_players as usize;
    let next = s.next_player() as usize;
    let target = game.target_score().max(1) as i16 as f32;
    let base = seat % n;
    const W: usize = SEAT_WIDTH - 1;
    for k in 0..MAX_PLAYERS {
        let row = &mut bytes[SEATS + k * W..SEATS + (k + 1) * W];
        if k >= n {
            row.fill(0);
            tail[k] = 0.0;
            continue;
        }
        let p = if base + k >= n { base + k - n } else { base + k };
        row.copy_from_slice(&[
            1,
            s.hands[p].count_ones() as u8,
            s.excluded >> p & 1,
            s.consecutive[p],
            (cp == p) as u8,
            (next == p) as u8,
            (s.dealer as usize == p) as u8,
        ]);
        tail[k] = s.scores[p] as f32 / target;
    }
    tail[MAX_PLAYERS] = hand_points(hand) as u16 as f32 / 100.0;
}

/// Writes the observation of `view` into `obs` (`OBS_DIM` long).
pub fn encode_view(view: &PlayerView, obs: &mut [f32]) {
    use layout::*;
    let obs = &mut obs[..OBS_DIM];
    one_hot_f32(view.hand as u64, &mut obs[HAND..HAND + 32]);
    one_hot_f32(
        view.top_card.map_or(0, |c| 1u64 << c),
        &mut obs[TOP..TOP + 32],
    );
    one_hot_f32(view.played_pile as u64, &mut obs[PILE..PILE + 32]);
    one_hot_f32(
        view.required_suit.map_or(0, |s| 1u64 << s),
        &mut obs[REQUIRED_SUIT..REQUIRED_SUIT + 4],
    );
    let flags = [
        view.must_choose_suit,
        view.ace_effect_active,
        view.current_is_chaining,
        view.current_has_drawn,
        view.table_empty,
        view.current_player == view.seat,
    ];
    for (o, f) in obs[FLAGS..FLAGS + 6].iter_mut().zip(flags) {
        *o = f as u8 as f32;
    }
    obs[SCALARS] = view.bank_size as f32 / 32.0;
    obs[SCALARS + 1] = view.played_pile_size as f32 / 32.0;
    obs[SCALARS + 2] = view.last_play_count as f32;
    let n = view.num_players as usize;
    for k in 0..MAX_PLAYERS {
        let row = &mut obs[SEATS + k * SEAT_WIDTH..SEATS + (k + 1) * SEAT_WIDTH];
        if k >= n {
            row.fill(0.0);
            continue;
        }
        let seat = (view.seat as usize + k) % n;
        let v = view.seats[seat];
        row[0] = 1.0;
        row[1] = v.hand_size as f32 / 32.0;
        row[2] = v.total_score as f32 / view.target_score.max(1) as f32;
        row[3] = v.is_excluded as u8 as f32;
        row[4] = v.consecutive_round_wins as f32 / 3.0;
        row[5] = (view.current_player as usize == seat) as u8 as f32;
        row[6] = (view.next_player as usize == seat) as u8 as f32;
        row[7] = (view.dealer as usize == seat) as u8 as f32;
    }
    obs[HAND_POINTS] = view.hand_points as f32 / 100.0;
}
