//! The reference engine: 151 written for clarity with owned collections, following the
//! structure of `i151_engine` 0.2.4 (`legal_actions`, `apply_action` and its handlers,
//! `apply_round_scoring`, `start_round`), and [`diff_pair`] for `cardvec diff 151`.
//!
//! It shares only the configuration, the CPython shuffle (checked against CPython itself)
//! and the observation encoder with the fast engine; the rules are written again here.

use std::collections::VecDeque;

use super::fast::I151State;
use super::view::{encode_view, PlayerView, SeatView};
use super::*;
use crate::core::{Game, LaneOutcome, LaneRng, Playable, SingleLane};

/// The ranks, in the official order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rank {
    /// Ace: 11 points; only an ace or an eight may follow; the next draw takes two.
    Ace,
    /// King: 4 points.
    King,
    /// Queen: 3 points; skips the next seat.
    Queen,
    /// Jack: 2 points.
    Jack,
    /// Ten: 10 points.
    Ten,
    /// Nine: 9 points.
    Nine,
    /// Eight: 32 points; wild, then a suit is announced.
    Eight,
    /// Seven: 7 points.
    Seven,
}

const RANKS: [Rank; 8] = [
    Rank::Ace,
    Rank::King,
    Rank::Queen,
    Rank::Jack,
    Rank::Ten,
    Rank::Nine,
    Rank::Eight,
    Rank::Seven,
];

/// A card: a suit (0 spades, 1 hearts, 2 diamonds, 3 clubs) and a rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Card {
    /// The suit index.
    pub suit: u8,
    /// The rank.
    pub rank: Rank,
}

impl Card {
    /// The card with official deck index `id`.
    pub fn from_id(id: u8) -> Card {
        Card {
            suit: id / 8,
            rank: RANKS[(id % 8) as usize],
        }
    }

    /// The official deck index of the card.
    pub fn id(self) -> u8 {
        let rank = RANKS.iter().position(|&r| r == self.rank).expect("a rank") as u8;
        self.suit * 8 + rank
    }

    /// Points of the card in a hand.
    pub fn points(self) -> i32 {
        match self.rank {
            Rank::Eight => 32,
            Rank::Ace => 11,
            Rank::Ten => 10,
            Rank::Nine => 9,
            Rank::Seven => 7,
            Rank::King => 4,
            Rank::Queen => 3,
            Rank::Jack => 2,
        }
    }

    /// Official `Card.can_play_on`.
    fn can_play_on(self, other: Card) -> bool {
        if self.rank == Rank::Eight {
            return true;
        }
        if other.rank == Rank::Ace {
            return self.rank == Rank::Ace;
        }
        self.suit == other.suit || self.rank == other.rank
    }

    /// Official `Card.can_play_on_with_required_suit`.
    fn can_play_on_with_required_suit(self, top: Option<Card>, required: Option<u8>) -> bool {
        if self.rank == Rank::Eight {
            return true;
        }
        if let Some(suit) = required {
            return self.suit == suit;
        }
        match top {
            None => true,
            Some(top) if top.rank == Rank::Eight => false,
            Some(top) => self.can_play_on(top),
        }
    }
}

/// An action of the official engine (single-card plays only, as `legal_actions` offers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Play one card.
    Play(Card),
    /// Draw (two under an ace).
    Draw,
    /// Pass.
    Pass,
    /// Announce a suit after an eight.
    ChooseSuit(u8),
}

impl Action {
    /// The action id of the fixed encoding.
    pub fn id(self) -> u32 {
        match self {
            Action::Play(card) => card.id() as u32,
            Action::Draw => ACTION_DRAW,
            Action::Pass => ACTION_PASS,
            Action::ChooseSuit(s) => ACTION_CHOOSE_SUIT + s as u32,
        }
    }
}

/// One seat: its hand and match record.
#[derive(Clone, Debug, Default)]
struct Player {
    hand: Vec<Card>,
    total_score: i32,
    is_excluded: bool,
    has_drawn_this_turn: bool,
    is_chaining: bool,
    consecutive_round_wins: u32,
}

/// A whole match, engine by engine as the official one stores it.
#[derive(Clone, Debug)]
pub struct Reference {
    game: I151,
    match_seed: MatchSeed,
    players: Vec<Player>,
    round_number: u32,
    dealer_index: usize,
    last_winner: Option<usize>,
    match_winner: Option<usize>,
    finished: bool,
    truncated: bool,
    current: usize,
    top_card: Option<Card>,
    required_suit: Option<u8>,
    choose_suit: bool,
    ace_effect_active: bool,
    skip_next_player: bool,
    bank: VecDeque<Card>,
    played_pile: Vec<Card>,
    last_play_count: u32,
    round_steps: u32,
}

impl Reference {
    /// A new match (official `create_match` with `seed = match_seed`).
    pub fn new(game: I151, match_seed: impl Into<MatchSeed>) -> Reference {
        let mut r = Reference {
            game,
            match_seed: match_seed.into(),
            players: vec![Player::default(); game.num_players()],
            round_number: 1,
            dealer_index: game.initial_dealer(),
            last_winner: None,
            match_winner: None,
            finished: false,
            truncated: false,
            current: 0,
            top_card: None,
            required_suit: None,
            choose_suit: false,
            ace_effect_active: false,
            skip_next_player: false,
            bank: VecDeque::new(),
            played_pile: Vec::new(),
            last_play_count: 0,
            round_steps: 0,
        };
        r.start_round();
        r
    }

    /// Official `start_round`: a fresh deck shuffled by `Random(seed + round)`, dealt
    /// round-robin from seat 0; excluded seats get no cards.
    fn start_round(&mut self) {
        let deck = I151::round_deck(self.match_seed, self.round_number);
        let n = self.players.len();
        let per = if n == 4 {
            7
        } else {
            self.game.cards_per_player()
        };
        let per = per.min(DECK_SIZE / n);
        let mut hands = vec![Vec::new(); n];
        for (i, &id) in deck.iter().take(per * n).enumerate() {
            hands[i % n].push(Card::from_id(id));
        }
        self.bank = deck[per * n..]
            .iter()
            .map(|&id| Card::from_id(id))
            .collect();
        for (player, hand) in self.players.iter_mut().zip(hands) {
            player.hand = if player.is_excluded { Vec::new() } else { hand };
            player.has_drawn_this_turn = false;
            player.is_chaining = false;
        }
        self.current = (self.dealer_index + 1) % n;
        while self.players[self.current].is_excluded {
            self.current = (self.current + 1) % n;
        }
        self.top_card = None;
        self.required_suit = None;
        self.choose_suit = false;
        self.ace_effect_active = false;
        self.skip_next_player = false;
        self.played_pile.clear();
        self.last_play_count = 0;
        self.round_steps = 0;
    }

    /// Official `legal_actions`.
    pub fn legal_actions(&self) -> Vec<Action> {
        if self.finished || self.truncated {
            return Vec::new();
        }
        let player = &self.players[self.current];
        let mut playable: Vec<Card> = player
            .hand
            .iter()
            .copied()
            .filter(|c| {
                (self.top_card.is_none() && self.required_suit.is_none())
                    || c.can_play_on_with_required_suit(self.top_card, self.required_suit)
            })
            .collect();
        if player.is_chaining {
            if let Some(top) = self.top_card {
                playable.retain(|c| c.rank == top.rank);
            }
        }
        let mut actions: Vec<Action> = playable.into_iter().map(Action::Play).collect();
        if self.choose_suit && self.top_card.is_some_and(|t| t.rank == Rank::Eight) {
            actions.extend((0..4).map(Action::ChooseSuit));
        }
        if self.top_card.is_some() && !self.choose_suit {
            if player.has_drawn_this_turn || player.is_chaining {
                actions.push(Action::Pass);
            } else {
                actions.push(Action::Draw);
            }
        }
        if self.top_card.is_none() && !self.choose_suit {
            if player.has_drawn_this_turn || player.is_chaining {
                actions.push(Action::Pass);
            } else if actions.is_empty() {
                actions.push(Action::Draw);
            }
        }
        actions
    }

    fn active_count(&self) -> usize {
        self.players.iter().filter(|p| !p.is_excluded).count()
    }

    /// Official `_next_player`.
    fn next_player(&mut self, drawn: bool) {
        let n = self.players.len();
        let player = &mut self.players[self.current];
        player.has_drawn_this_turn = drawn;
        player.is_chaining = false;
        self.choose_suit = false;
        let mut next = (self.current + 1) % n;
        while self.players[next].is_excluded {
            next = (next + 1) % n;
        }
        if self.skip_next_player {
            next = (next + 1) % n;
            while self.players[next].is_excluded {
                next = (next + 1) % n;
            }
            self.skip_next_player = false;
        }
        self.current = next;
    }

    /// Official `_draw_with_refill`, with the played pile emptied by a refill in every case
    /// (0.2.4 forgets it in the 2-player Queen draw).
    fn draw_with_refill(&mut self, count: usize) -> Vec<Card> {
        if self.bank.len() < count && !self.played_pile.is_empty() {
            self.bank.extend(self.played_pile.drain(..));
        }
        let mut drawn = Vec::new();
        for _ in 0..count {
            match self.bank.pop_front() {
                Some(card) => drawn.push(card),
                None => break,
            }
        }
        drawn
    }

    /// Official `_handle_play` for one card; returns the round winner if the round ended.
    fn handle_play(&mut self, card: Card) -> Option<usize> {
        let idx = self.current;
        let previous_top = self.top_card;
        let player = &mut self.players[idx];
        let pos = player
            .hand
            .iter()
            .position(|&c| c == card)
            .expect("legal card");
        player.hand.remove(pos);
        self.played_pile.push(card);
        let same_rank_remaining = player.hand.iter().any(|c| c.rank == card.rank);
        let chaining = (previous_top.is_some_and(|t| t.rank == card.rank)
            || card.rank == Rank::Eight)
            && same_rank_remaining;
        player.has_drawn_this_turn = false;
        player.is_chaining = chaining;
        let hand_empty = player.hand.is_empty();
        self.top_card = Some(card);
        self.last_play_count = 1;
        self.ace_effect_active = false;
        self.required_suit = None;
        self.choose_suit = false;
        match card.rank {
            Rank::Eight => self.choose_suit = true,
            Rank::Ace => self.ace_effect_active = true,
            Rank::Queen => self.skip_next_player = true,
            _ => {}
        }
        if hand_empty {
            if self.active_count() == 2 && card.rank == Rank::Queen {
                let drawn = self.draw_with_refill(1);
                let player = &mut self.players[idx];
                player.hand.extend(drawn);
                player.has_drawn_this_turn = true;
                player.is_chaining = false;
                self.next_player(true);
                return None;
            }
            return Some(idx);
        }
        if !chaining && !self.choose_suit {
            self.next_player(false);
        }
        None
    }

    /// Official `_handle_draw`.
    fn handle_draw(&mut self) {
        let count = if self.ace_effect_active { 2 } else { 1 };
        let drawn = self.draw_with_refill(count);
        self.players[self.current].hand.extend(drawn);
        self.last_play_count = 0;
        if self.ace_effect_active {
            self.ace_effect_active = false;
            self.next_player(false);
            return;
        }
        self.players[self.current].has_drawn_this_turn = true;
        if self.bank.is_empty() && self.played_pile.is_empty() {
            self.top_card = None;
            self.required_suit = None;
        }
    }

    /// Official `apply_round_scoring`, then `start_round` unless the match is over.
    fn score_round(&mut self, winner: usize, rewards: &mut [f32]) {
        let target = self.game.target_score();
        let before: Vec<i32> = self.players.iter().map(|p| p.total_score).collect();
        for (i, player) in self.players.iter_mut().enumerate() {
            if i == winner {
                continue;
            }
            player.total_score += player.hand.iter().map(|c| c.points()).sum::<i32>();
            player.is_excluded = player.is_excluded || player.total_score >= target;
            player.consecutive_round_wins = 0;
        }
        let w = &mut self.players[winner];
        if self.last_winner == Some(winner) {
            w.consecutive_round_wins += 1;
            if w.consecutive_round_wins == 3 {
                w.total_score -= 10;
                w.consecutive_round_wins = 0;
            }
        } else {
            w.consecutive_round_wins = 1;
        }
        self.last_winner = Some(winner);
        let n = self.players.len();
        if self.game.reward() == RewardMode::RoundPoints {
            for i in 0..n {
                rewards[i] = -((self.players[i].total_score - before[i]) as f32);
            }
        }
        let active: Vec<usize> = (0..n).filter(|&i| !self.players[i].is_excluded).collect();
        if active.len() <= 1 {
            self.finished = true;
            self.match_winner = active.first().copied();
            if self.game.reward() == RewardMode::MatchOutcome {
                for (i, r) in rewards.iter_mut().enumerate().take(n) {
                    *r = if Some(i) == self.match_winner {
                        1.0
                    } else {
                        -1.0 / (n as f32 - 1.0)
                    };
                }
            }
            return;
        }
        self.dealer_index = (self.dealer_index + 1) % n;
        while self.players[self.dealer_index].is_excluded {
            self.dealer_index = (self.dealer_index + 1) % n;
        }
        self.round_number += 1;
        self.start_round();
    }

    /// The view of `seat`.
    pub fn view(&self, seat: usize) -> PlayerView {
        let n = self.players.len();
        let set = |cards: &[Card]| cards.iter().fold(0u32, |s, c| s | 1 << c.id());
        let pile = &self.played_pile;
        let recent = &pile[pile.len().saturating_sub(3)..];
        let mut recent_cards = [0u8; 3];
        for (slot, card) in recent_cards.iter_mut().zip(recent) {
            *slot = card.id();
        }
        let mut seats = [SeatView::default(); MAX_PLAYERS];
        for (v, p) in seats.iter_mut().zip(&self.players) {
            *v = SeatView {
                hand_size: p.hand.len() as u8,
                total_score: p.total_score as i16,
                is_excluded: p.is_excluded,
                consecutive_round_wins: p.consecutive_round_wins as u8,
            };
        }
        let mut next = (self.current + 1) % n;
        while self.players[next].is_excluded {
            next = (next + 1) % n;
        }
        if self.skip_next_player {
            next = (next + 1) % n;
            while self.players[next].is_excluded {
                next = (next + 1) % n;
            }
        }
        let me = &self.players[seat];
        let current = &self.players[self.current];
        PlayerView {
            seat: seat as u8,
            num_players: n as u8,
            hand: set(&me.hand),
            hand_points: me.hand.iter().map(|c| c.points()).sum::<i32>() as u16,
            top_card: self.top_card.map(Card::id),
            recent_cards,
            recent_len: recent.len() as u8,
            played_pile: set(pile),
            played_pile_size: pile.len() as u8,
            bank_size: self.bank.len() as u8,
            table_empty: self.top_card.is_none() && pile.is_empty(),
            required_suit: self.required_suit,
            must_choose_suit: self.choose_suit,
            ace_effect_active: self.ace_effect_active,
            last_play_count: self.last_play_count as u8,
            current_player: self.current as u8,
            next_player: next as u8,
            current_has_drawn: current.has_drawn_this_turn,
            current_is_chaining: current.is_chaining,
            seats,
            round_number: self.round_number as u16,
            dealer: self.dealer_index as u8,
            target_score: self.game.target_score() as i16,
        }
    }

    /// Each seat's hand, as card ids in hand order.
    pub fn hands(&self) -> Vec<Vec<u8>> {
        let ids = |h: &Vec<Card>| h.iter().map(|c| c.id()).collect();
        self.players.iter().map(|p| ids(&p.hand)).collect()
    }

    /// The bank, front first, as card ids.
    pub fn bank(&self) -> Vec<u8> {
        self.bank.iter().map(|c| c.id()).collect()
    }

    /// The played pile, oldest first, as card ids.
    pub fn played_pile(&self) -> Vec<u8> {
        self.played_pile.iter().map(|c| c.id()).collect()
    }

    /// Total scores.
    pub fn scores(&self) -> Vec<i32> {
        self.players.iter().map(|p| p.total_score).collect()
    }

    /// The match winner, once over.
    pub fn winner(&self) -> Option<usize> {
        self.match_winner
    }
}

impl Playable for Reference {
    fn num_players(&self) -> usize {
        self.players.len()
    }
    fn num_actions(&self) -> usize {
        N_ACTIONS
    }
    fn obs_dim(&self) -> usize {
        OBS_DIM
    }
    fn current_player(&self) -> usize {
        self.current
    }
    fn finished(&self) -> (bool, bool) {
        (self.finished, self.truncated)
    }
    fn legal_mask(&self, mask: &mut [u8]) {
        mask.fill(0);
        for action in self.legal_actions() {
            mask[action.id() as usize] = 1;
        }
    }
    fn step(&mut self, action: u32, rewards: &mut [f32]) -> LaneOutcome {
        let Some(chosen) = self.legal_actions().into_iter().find(|a| a.id() == action) else {
            return LaneOutcome::ILLEGAL;
        };
        let winner = match chosen {
            Action::Play(card) => self.handle_play(card),
            Action::Draw => {
                self.handle_draw();
                None
            }
            Action::Pass => {
                self.next_player(false);
                None
            }
            Action::ChooseSuit(suit) => {
                self.players[self.current].is_chaining = false;
                self.required_suit = Some(suit);
                self.choose_suit = false;
                self.next_player(false);
                None
            }
        };
        self.round_steps += 1;
        if let Some(w) = winner {
            self.score_round(w, rewards);
        } else {
            let limit = self.game.max_round_steps() as u32;
            if limit != 0 && self.round_steps >= limit {
                self.truncated = true;
            }
        }
        LaneOutcome {
            applied: true,
            terminated: self.finished,
            truncated: self.truncated,
        }
    }
    fn observe(&self, player: usize, obs: &mut [f32]) {
        encode_view(&self.view(player), obs);
    }
}

/// The configuration game `g` of a differential run uses: 2, 3 or 4 seats in turn, both
/// reward modes, every first dealer.
pub fn diff_config(g: u64) -> I151 {
    let players = 2 + (g % 3) as usize;
    let reward = if (g / 3) % 2 == 0 {
        RewardMode::RoundPoints
    } else {
        RewardMode::MatchOutcome
    };
    I151::new(players)
        .and_then(|game| game.with_initial_dealer(((g / 6) % players as u64) as usize))
        .expect("valid configuration")
        .with_reward(reward)
}

/// The two engines for game `g` of `cardvec diff 151`: the reference and a fast lane, in
/// the match whose seed is drawn from `deal` (as [`Game::reset`] draws it).
pub fn diff_pair(g: u64, deal: &mut LaneRng) -> (Reference, SingleLane<I151>) {
    pair_for(diff_config(g), deal)
}

/// The two engines for a given configuration, in the match whose seed `deal` draws.
pub fn pair_for(game: I151, deal: &mut LaneRng) -> (Reference, SingleLane<I151>) {
    let state: I151State = game.reset(deal);
    let reference = Reference::new(game, state.match_seed);
    let lane = SingleLane {
        game,
        state,
        rng: deal.clone(),
    };
    (reference, lane)
}
