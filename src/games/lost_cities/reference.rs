//! The Lost Cities reference engine: the rules of `docs/lost-cities.md`, written for clarity
//! rather than speed.
//!
//! The state is kept in owned, obvious data: each hand is a sorted `Vec` of card ids, each
//! expedition and each discard pile a `Vec` in the order the cards were laid (the last card
//! is the top), the deck a `Vec` drawn from the front, and each player's public hand (the
//! cards they took from a discard pile) a `BTreeSet`. Every rule is a function named after
//! it, and the legal mask is found by trying all 96 actions one by one.
//!
//! This engine was written from the specification only, independently of the fast lane
//! engine (`fast.rs`); `cardvec diff lost-cities` plays both side by side and compares them
//! after every step (see [`diff_pair`]).

use std::collections::BTreeSet;

use super::{
    color_of, decode_action, is_handshake, rank_of, LostCities, ObsLayout, DECK_AFTER_DEAL, DECK_SIZE,
    HAND_SIZE, MAX_BOARD_SCORE, MAX_STEPS, NUM_PLAYERS, N_ACTIONS, N_CHANNELS, N_COLORS, OBS_DIM,
};
use crate::core::{Error, LaneOutcome, LaneRng, Playable, Result, SingleLane};

/// The number-rank sum an expedition must reach to break even.
const EXPEDITION_COST: i32 = 20;
/// Cards an expedition needs for the bonus.
const BONUS_LENGTH: usize = 8;
/// The bonus for a long expedition (not multiplied by handshakes).
const BONUS: i32 = 20;
/// Largest number rank (the `col_top` divisor).
const MAX_RANK: u32 = 10;
/// Handshakes per colour (the `col_hs` divisor).
const HANDSHAKES_PER_COLOR: u32 = 3;
/// Cards per colour (the `col_len` divisor).
const CARDS_PER_COLOR: u32 = 12;

/// Observation channel: the observer's hand.
const CH_MY_HAND: usize = 0;
/// Observation channel: the observer's expeditions.
const CH_MY_BOARD: usize = 1;
/// Observation channel: the opponent's expeditions.
const CH_OPP_BOARD: usize = 2;
/// Observation channel: the top card of a discard pile.
const CH_DISCARD_TOP: usize = 3;
/// Observation channel: a discard-pile card below the top.
const CH_DISCARD_BELOW: usize = 4;
/// Observation channel: an opponent hand card the observer saw them take from a pile.
const CH_OPP_PUBLIC_HAND: usize = 5;
/// Observation channel: anything else (the deck, the opponent's unseen hand cards).
const CH_UNKNOWN: usize = 6;
/// Index of the first scalar feature.
const SCALARS: usize = N_CHANNELS * DECK_SIZE;

/// Where a card is, as the whole table (not one player) knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// In a player's hand; `public` when the player took it from a discard pile.
    Hand { player: usize, public: bool },
    /// On a player's expedition.
    Expedition { player: usize },
    /// The top card of a discard pile.
    DiscardTop,
    /// A discard-pile card below the top.
    DiscardBelow,
    /// In the deck.
    Deck,
}

/// Whether `card` may be played on `expedition` (the cards already played there, of its
/// colour): a handshake only while the expedition holds no number (several handshakes may
/// follow each other), a number only above every number already there.
pub fn can_play_on_expedition(expedition: &[u8], card: u8) -> bool {
    let numbers_played = expedition.iter().filter(|&&c| !is_handshake(c));
    if is_handshake(card) {
        numbers_played.count() == 0
    } else {
        numbers_played
            .map(|&c| rank_of(c))
            .all(|r| r < rank_of(card))
    }
}

/// The score of one expedition (column): 0 when empty; otherwise
/// `(sum of number ranks − 20) × (1 + handshakes)`, plus a bonus of 20, not multiplied, when
/// it holds 8 or more cards.
pub fn column_score(column: &[u8]) -> i32 {
    if column.is_empty() {
        return 0;
    }
    let rank_sum: i32 = column.iter().map(|&c| rank_of(c) as i32).sum();
    let multiplier = 1 + column_handshakes(column) as i32;
    let bonus = if column.len() >= BONUS_LENGTH {
        BONUS
    } else {
        0
    };
    (rank_sum - EXPEDITION_COST) * multiplier + bonus
}

/// The highest number rank on an expedition, 0 when it holds no number (`col_top`).
pub fn column_top(column: &[u8]) -> u8 {
    column.iter().map(|&c| rank_of(c)).max().unwrap_or(0)
}

/// The number of handshakes on an expedition (`col_hs`).
pub fn column_handshakes(column: &[u8]) -> usize {
    column.iter().filter(|&&c| is_handshake(c)).count()
}

/// The score of one player's board: the sum of its five column scores.
pub fn board_score_of(expeditions: &[Vec<u8>]) -> i32 {
    expeditions.iter().map(|column| column_score(column)).sum()
}

/// Checks that `order` is a permutation of `0..60` (every card exactly once).
pub fn check_deck_order(order: &[u8]) -> Result<()> {
    Error::check_len("deck order", DECK_SIZE, order.len())?;
    let mut seen = [false; DECK_SIZE];
    for &card in order {
        if card as usize >= DECK_SIZE {
            return Err(Error::Invalid {
                what: "deck order",
                reason: format!("card id {card} is not below {DECK_SIZE}"),
            });
        }
        if seen[card as usize] {
            return Err(Error::Invalid {
                what: "deck order",
                reason: format!("card id {card} appears twice"),
            });
        }
        seen[card as usize] = true;
    }
    Ok(())
}

/// One round of classic two-player Lost Cities, held in plain owned data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    /// Each player's hand, sorted by card id (the action's `hand_slot` indexes it).
    hands: Vec<Vec<u8>>,
    /// `expeditions[player][colour]`: the cards played there, in the order played.
    expeditions: Vec<Vec<Vec<u8>>>,
    /// `discard_piles[colour]`: bottom first, the last card is the top.
    discard_piles: Vec<Vec<u8>>,
    /// The undealt cards; the next draw takes `deck[0]`.
    deck: Vec<u8>,
    /// Each player's hand cards taken from a discard pile (seen by the opponent).
    public_hands: Vec<BTreeSet<u8>>,
    /// Plies applied so far.
    steps: u32,
    /// The seat to act.
    to_act: usize,
    /// The last deck card was drawn.
    terminated: bool,
    /// The ply limit was reached first.
    truncated: bool,
    /// Where the observation puts each card's channels.
    layout: ObsLayout,
}

impl Reference {
    /// Deals a game from an explicit order (decision 1): `order[0..8]` to player 0,
    /// `order[8..16]` to player 1, and the deck is drawn from `order[16]` onward. Player 0
    /// moves first. An error if `order` is not a permutation of `0..60`.
    pub fn from_order(order: &[u8]) -> Result<Reference> {
        check_deck_order(order)?;
        let deal_hand = |cards: &[u8]| {
            let mut hand = cards.to_vec();
            hand.sort_unstable();
            hand
        };
        Ok(Reference {
            hands: vec![
                deal_hand(&order[..HAND_SIZE]),
                deal_hand(&order[HAND_SIZE..2 * HAND_SIZE]),
            ],
            expeditions: vec![vec![Vec::new(); N_COLORS]; NUM_PLAYERS],
            discard_piles: vec![Vec::new(); N_COLORS],
            deck: order[2 * HAND_SIZE..].to_vec(),
            public_hands: vec![BTreeSet::new(); NUM_PLAYERS],
            steps: 0,
            to_act: 0,
            terminated: false,
            truncated: false,
            layout: ObsLayout::default(),
        })
    }

    /// Sets the observation layout (the default: [`ObsLayout::CardMajor`]).
    pub fn set_layout(&mut self, layout: ObsLayout) {
        self.layout = layout;
    }

    /// A player's hand, sorted by card id.
    pub fn hand(&self, player: usize) -> &[u8] {
        &self.hands[player]
    }

    /// The cards on a player's expedition of one colour, in the order played.
    pub fn expedition(&self, player: usize, color: usize) -> &[u8] {
        &self.expeditions[player][color]
    }

    /// The discard pile of one colour, bottom first (the last card is the top).
    pub fn discard_pile(&self, color: usize) -> &[u8] {
        &self.discard_piles[color]
    }

    /// The cards still in the deck, next draw first.
    pub fn deck(&self) -> &[u8] {
        &self.deck
    }

    /// The cards of a player's hand that they took from a discard pile.
    pub fn public_hand(&self, player: usize) -> &BTreeSet<u8> {
        &self.public_hands[player]
    }

    /// Plies applied so far.
    pub fn steps(&self) -> u32 {
        self.steps
    }

    /// The seat to act (after the end, the seat after the one that ended the game).
    pub fn to_act(&self) -> usize {
        self.to_act
    }

    /// Whether the round is over (naturally or by the ply limit).
    pub fn is_over(&self) -> bool {
        self.terminated || self.truncated
    }

    /// The two raw board scores, as the boards stand.
    pub fn board_score(&self) -> [i32; 2] {
        [
            board_score_of(&self.expeditions[0]),
            board_score_of(&self.expeditions[1]),
        ]
    }

    /// The zero-sum score: seat `s` gets `board_score[s] − board_score[1 − s]` (decision 5).
    pub fn score(&self) -> [i32; 2] {
        let [a, b] = self.board_score();
        [a - b, b - a]
    }

    /// Whether the current player may take `action` now (any `u32`).
    pub fn is_legal(&self, action: u32) -> bool {
        if self.is_over() || action as usize >= N_ACTIONS {
            return false;
        }
        let (hand_slot, discard, draw_source) = decode_action(action);
        let Some(&card) = self.hands[self.to_act].get(hand_slot as usize) else {
            return false;
        };
        let color = color_of(card) as usize;
        let placement_legal =
            discard || can_play_on_expedition(&self.expeditions[self.to_act][color], card);
        placement_legal && self.can_draw_from(draw_source, card, discard)
    }

    /// Whether the current player may draw from `draw_source` (0 deck, `1 + c` pile of
    /// colour `c`) after placing `card` (discarding it if `discard`): the deck while it has
    /// cards; a pile when it is non-empty after the placement and is not the pile the card
    /// was just discarded to.
    fn can_draw_from(&self, draw_source: u32, card: u8, discard: bool) -> bool {
        if draw_source == 0 {
            return !self.deck.is_empty();
        }
        let pile_color = draw_source as usize - 1;
        let just_discarded_here = discard && color_of(card) as usize == pile_color;
        !just_discarded_here && !self.discard_piles[pile_color].is_empty()
    }

    /// Every legal action, ascending (all 96 are tried).
    pub fn legal_actions(&self) -> Vec<u32> {
        (0..N_ACTIONS as u32)
            .filter(|&a| self.is_legal(a))
            .collect()
    }

    /// Applies `action` for the current player; see [`Playable::step`].
    fn apply(&mut self, action: u32, rewards: &mut [f32]) -> LaneOutcome {
        if !self.is_legal(action) {
            return LaneOutcome::ILLEGAL;
        }
        let player = self.to_act;
        let (hand_slot, discard, draw_source) = decode_action(action);

        // Place: the card leaves the hand (and the public hand, if it was there).
        let card = self.hands[player].remove(hand_slot as usize);
        self.public_hands[player].remove(&card);
        let color = color_of(card) as usize;
        if discard {
            self.discard_piles[color].push(card);
        } else {
            self.expeditions[player][color].push(card);
        }

        // Draw: from the front of the deck, or the top of a pile (that card becomes public).
        let drawn = if draw_source == 0 {
            self.deck.remove(0)
        } else {
            let pile_card = self.discard_piles[draw_source as usize - 1]
                .pop()
                .expect("a legal draw is from a non-empty pile");
            self.public_hands[player].insert(pile_card);
            pile_card
        };
        let position = self.hands[player].partition_point(|&c| c < drawn);
        self.hands[player].insert(position, drawn);

        // The ply counts; the round ends when the deck is empty, or else at the ply limit.
        self.steps += 1;
        if self.deck.is_empty() {
            self.terminated = true;
        } else if self.steps >= MAX_STEPS as u32 {
            self.truncated = true;
        }
        self.to_act = 1 - player;

        if self.is_over() {
            let score = self.score();
            for (reward, s) in rewards.iter_mut().zip(score) {
                *reward = s as f32;
            }
        }
        LaneOutcome {
            applied: true,
            terminated: self.terminated,
            truncated: self.truncated,
        }
    }

    /// Where `card` is.
    fn place_of(&self, card: u8) -> Place {
        for player in 0..NUM_PLAYERS {
            if self.hands[player].contains(&card) {
                let public = self.public_hands[player].contains(&card);
                return Place::Hand { player, public };
            }
            if self.expeditions[player].iter().any(|e| e.contains(&card)) {
                return Place::Expedition { player };
            }
        }
        for pile in &self.discard_piles {
            if pile.last() == Some(&card) {
                return Place::DiscardTop;
            }
            if pile.contains(&card) {
                return Place::DiscardBelow;
            }
        }
        Place::Deck
    }

    /// The observation channel of `card` as seen by `player`.
    fn channel_of(&self, card: u8, player: usize) -> usize {
        match self.place_of(card) {
            Place::Hand { player: owner, .. } if owner == player => CH_MY_HAND,
            Place::Hand { public: true, .. } => CH_OPP_PUBLIC_HAND,
            Place::Hand { public: false, .. } => CH_UNKNOWN,
            Place::Expedition { player: owner } if owner == player => CH_MY_BOARD,
            Place::Expedition { .. } => CH_OPP_BOARD,
            Place::DiscardTop => CH_DISCARD_TOP,
            Place::DiscardBelow => CH_DISCARD_BELOW,
            Place::Deck => CH_UNKNOWN,
        }
    }

    /// Writes the observation of `player` (see the table in `docs/lost-cities.md`).
    fn write_observation(&self, player: usize, obs: &mut [f32]) {
        assert!(player < NUM_PLAYERS, "player {player} out of range");
        assert_eq!(obs.len(), OBS_DIM, "observation buffer length");
        let opponent = 1 - player;
        obs.fill(0.0);
        for card in 0..DECK_SIZE as u8 {
            obs[self.layout.index(card as usize, self.channel_of(card, player))] = 1.0;
        }

        let ratio = |value: u32, divisor: u32| value as f32 / divisor as f32;
        let mut scalars = Vec::with_capacity(OBS_DIM - SCALARS);
        scalars.push(ratio(self.deck.len() as u32, DECK_AFTER_DEAL as u32));
        let opponent_unseen = self.hands[opponent].len() - self.public_hands[opponent].len();
        scalars.push(ratio(opponent_unseen as u32, HAND_SIZE as u32));
        scalars.push(ratio(self.steps, MAX_STEPS as u32));
        for seat in [player, opponent] {
            let columns = &self.expeditions[seat];
            for column in columns {
                scalars.push(ratio(column_top(column) as u32, MAX_RANK));
            }
            for column in columns {
                scalars.push(ratio(
                    column_handshakes(column) as u32,
                    HANDSHAKES_PER_COLOR,
                ));
            }
            for column in columns {
                scalars.push(ratio(column.len() as u32, CARDS_PER_COLOR));
            }
        }
        let board = self.board_score();
        let difference = board[player] - board[opponent];
        scalars.push(difference as f32 / MAX_BOARD_SCORE as f32);
        obs[SCALARS..].copy_from_slice(&scalars);
    }
}

impl Playable for Reference {
    fn num_players(&self) -> usize {
        NUM_PLAYERS
    }
    fn num_actions(&self) -> usize {
        N_ACTIONS
    }
    fn obs_dim(&self) -> usize {
        OBS_DIM
    }
    fn current_player(&self) -> usize {
        self.to_act
    }
    fn finished(&self) -> (bool, bool) {
        (self.terminated, self.truncated)
    }
    fn legal_mask(&self, mask: &mut [u8]) {
        for (action, m) in mask.iter_mut().enumerate().take(N_ACTIONS) {
            *m = self.is_legal(action as u32) as u8;
        }
    }
    fn step(&mut self, action: u32, rewards: &mut [f32]) -> LaneOutcome {
        self.apply(action, rewards)
    }
    fn observe(&self, player: usize, obs: &mut [f32]) {
        self.write_observation(player, obs)
    }
}

/// The two engines of one differential game, dealt alike the way the fast engine's `reset`
/// deals (decision 4): `0..60` ascending, shuffled with [`LaneRng::shuffle`] from `deal`,
/// then dealt by order to both. The fast lane keeps a clone of `deal` (advanced past the
/// shuffle) as its stream. Even games observe card-major, odd games channel-major.
pub fn diff_pair(game: u64, deal: &mut LaneRng) -> (Reference, SingleLane<LostCities>) {
    let mut order: Vec<u8> = (0..DECK_SIZE as u8).collect();
    deal.shuffle(&mut order);
    let mut reference = Reference::from_order(&order).expect("a shuffle of 0..60 is valid");
    let layout = if game % 2 == 0 {
        ObsLayout::CardMajor
    } else {
        ObsLayout::ChannelMajor
    };
    reference.set_layout(layout);
    let fast = SingleLane::from_order(LostCities::new(layout), &order, deal.clone())
        .expect("a shuffle of 0..60 is valid");
    (reference, fast)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(codes: &str) -> Vec<u8> {
        codes
            .split_whitespace()
            .map(|c| super::super::parse_card_code(c).unwrap())
            .collect()
    }

    #[test]
    fn column_score_follows_the_formula() {
        assert_eq!(column_score(&[]), 0);
        assert_eq!(column_score(&cards("B10")), -10);
        assert_eq!(column_score(&cards("BH1 BH2 BH3")), -80);
        let full: Vec<u8> = (0..12).map(|s| 3 * 12 + s).collect();
        assert_eq!(
            column_score(&full),
            780 / 5,
            "the largest column: (54 - 20) * 4 + 20"
        );
    }
}
