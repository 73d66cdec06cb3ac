//! The observation encoder shared by the fast lane engine ([`super::fast`]) and the
//! reference lane ([`super::reference`]).
//!
//! ## Observation (`obs_dim = 118 + 9 * num_players`), as seen by seat `p`
//!
//! Chip amounts are in big blinds. Seats are listed relative to the observer: row `i` is
//! seat `(p + i) % num_players`, so row 0 is always the observer.
//!
//! | offset | length | content |
//! | --- | --- | --- |
//! | 0 | 52 | own hole cards, one-hot by card id `13 * suit + rank` |
//! | 52 | 52 | board cards dealt so far, one-hot |
//! | 104 | 5 | street one-hot: preflop, flop, turn, river, hand over |
//! | 109 | 9 per seat | stack, bet this street, chips in the pots from earlier streets, folded, all-in, is the button, is to act, raises this street, raises this hand |
//! | 109 + 9n | 4 | pot (all chips in the middle), to call, min raise-to, max raise-to (the last three for the seat to act; 0 when raising is closed or the hand is over) |
//! | 113 + 9n | 4 | raises (bets included) on the preflop, flop, turn, river |
//! | 117 + 9n | 1 | the observer's position: seats between the button and the observer, the small blind (left of the button) being 0 (heads-up the button is 1) |

use super::{Legal, NoLimitHoldem};

/// What the observation encoder reads, in integers, from either engine.
pub struct ObsInputs<'a> {
    /// Number of players.
    pub num_players: usize,
    /// Button seat.
    pub button: usize,
    /// Seat to act, if the hand is live.
    pub to_act: Option<usize>,
    /// 0..=3 the street, 4 the hand is over.
    pub street: usize,
    /// Hole card ids per seat.
    pub hole: &'a [[u8; 2]],
    /// Board card ids dealt so far.
    pub board: &'a [u8],
    /// Chips behind per seat (every amount on a table is at most
    /// [`super::MAX_TABLE_CHIPS`], so `u32` holds it exactly).
    pub stacks: &'a [u32],
    /// Bets per seat.
    pub bets: &'a [u32],
    /// Chips in the pots per seat.
    pub committed: &'a [u32],
    /// Folded seats, bit `s` for seat `s`.
    pub folded: u32,
    /// Raises this street per seat.
    pub raises_street: &'a [u16],
    /// Raises this hand per seat.
    pub raises_total: &'a [u16],
    /// Raises per street.
    pub street_raises: [u16; 4],
    /// The legal options of the seat to act.
    pub legal: Option<Legal>,
}

impl ObsInputs<'_> {
    /// Every chip in the middle: the pots and the bets of this street.
    #[inline(always)]
    fn pot(&self) -> u32 {
        self.committed.iter().sum::<u32>() + self.bets.iter().sum::<u32>()
    }
}

/// Writes the observation of seat `p` (see the module documentation) into `obs`. Inline:
/// it is the body of the step loop's observation write, and a codegen-unit split must not
/// leave it behind a call (it once did, for `encode_u8`: +10% instructions per step).
#[inline]
pub fn encode(game: &NoLimitHoldem, x: &ObsInputs<'_>, p: usize, obs: &mut [f32]) {
    let n = x.num_players;
    let g = 109 + 9 * n;
    debug_assert_eq!(obs.len(), g + 9, "the row is exactly obs_dim long");
    let (flags, rest) = obs.split_at_mut(109);
    // Every value past the flags is written below, so only the flags are cleared.
    flags.fill(0.0);
    let bb = game.table.big_blind as f32;
    let chips = |c: u32| c as f32 / bb;
    card_flags(x, p, flags, 1.0);
    let to_act = x.to_act.unwrap_or(usize::MAX);
    // Seat `s` runs from `p` round the table (row `i` is seat `(p + i) % n`), without a
    // division per seat.
    let mut s = p;
    for row in rest[..9 * n].chunks_exact_mut(9) {
        row[0] = chips(x.stacks[s]);
        row[1] = chips(x.bets[s]);
        row[2] = chips(x.committed[s]);
        let folded = x.folded >> s & 1 != 0;
        row[3] = folded as u8 as f32;
        row[4] = (!folded && x.stacks[s] == 0) as u8 as f32;
        row[5] = (s == x.button) as u8 as f32;
        row[6] = (s == to_act) as u8 as f32;
        row[7] = x.raises_street[s] as f32;
        row[8] = x.raises_total[s] as f32;
        s += 1;
        if s == n {
            s = 0;
        }
    }
    obs[g] = chips(x.pot());
    match x.legal {
        Some(l) => {
            obs[g + 1] = chips(l.call_amount as u32);
            obs[g + 2] = chips(l.min_raise_to as u32);
            obs[g + 3] = chips(l.max_raise_to as u32);
        }
        None => obs[g + 1..g + 4].fill(0.0),
    }
    for k in 0..4 {
        obs[g + 4 + k] = x.street_raises[k] as f32;
    }
    obs[g + 8] = ((p + 2 * n - x.button - 1) % n) as f32;
}

/// The compact (`u8`) observation of seat `p` (see `NoLimitHoldem::obs_format`): what
/// [`encode`] writes, with the cards, the street, each seat's four flags and the position
/// as bytes, and every chip amount and raise count, in row order, in `tail`. Inline, as
/// [`encode`].
#[inline]
pub fn encode_u8(game: &NoLimitHoldem, x: &ObsInputs<'_>, p: usize, bytes: &mut [u8], tail: &mut [f32]) {
    let bb = game.table.big_blind as f32;
    let chips = |c: u32| c as f32 / bb;
    bytes[..109].fill(0);
    card_flags(x, p, &mut bytes[..109], 1);
    let n = x.num_players;
    for i in 0..n {
        let s = (p + i) % n;
        let folded = x.folded >> s & 1 != 0;
        bytes[109 + 4 * i..113 + 4 * i].copy_from_slice(&[
            folded as u8,
            (!folded && x.stacks[s] == 0) as u8,
            (s == x.button) as u8,
            (x.to_act == Some(s)) as u8,
        ]);
        tail[5 * i..5 * i + 5].copy_from_slice(&[
            chips(x.stacks[s]),
            chips(x.bets[s]),
            chips(x.committed[s]),
            x.raises_street[s] as f32,
            x.raises_total[s] as f32,
        ]);
    }
    let g = 5 * n;
    tail[g] = chips(x.pot());
    match x.legal {
        Some(l) => {
            tail[g + 1] = chips(l.call_amount as u32);
            tail[g + 2] = chips(l.min_raise_to as u32);
            tail[g + 3] = chips(l.max_raise_to as u32);
        }
        None => tail[g + 1..g + 4].fill(0.0),
    }
    for k in 0..4 {
        tail[g + 4 + k] = x.street_raises[k] as f32;
    }
    bytes[109 + 4 * n] = ((p + 2 * n - x.button - 1) % n) as u8;
}

/// Sets to `one` the flags of the first 109 values (zeroed by the caller): seat `p`'s hole
/// cards, the board and the street; for the f32 and the compact encoders alike.
#[inline(always)]
fn card_flags<T: Copy>(x: &ObsInputs<'_>, p: usize, out: &mut [T], one: T) {
    for &c in &x.hole[p] {
        out[c as usize] = one;
    }
    for &c in x.board {
        out[52 + c as usize] = one;
    }
    out[104 + x.street.min(4)] = one;
}
