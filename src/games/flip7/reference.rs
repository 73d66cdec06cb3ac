//! The reference engine: game-room 0.1.0's `flip7_v0` written out with owned data (hands
//! as lists of card ids in the order they arrived, the scheduler as a `VecDeque` of
//! `(kind, seat, card)` triples, the discard pile as a list), for clarity and not for speed.
//! It is the second implementation the differential runner compares the fast engine with.
//!
//! The one free choice game-room leaves to its random generator is kept identical to the
//! fast engine: a recycled discard pile is sorted by card id, then shuffled by the lane's
//! stream (`LaneRng::shuffle`).

use std::collections::VecDeque;

use super::*;
use crate::core::{LaneOutcome, LaneRng, Playable, SingleLane};

/// One game of Flip 7 in plain data.
#[derive(Clone, Debug)]
pub struct Reference {
    /// The configuration.
    pub(crate) config: Flip7,
    /// The lane's random stream (serves reshuffles).
    pub(crate) rng: LaneRng,
    /// Banked totals.
    pub(crate) scores: Vec<u32>,
    /// Cards in front of each seat, in arrival order.
    pub(crate) hands: Vec<Vec<u8>>,
    /// Round status of each seat.
    pub(crate) status: Vec<u8>,
    /// Draw pile; the top is the last card.
    pub(crate) deck: Vec<u8>,
    /// Discard pile, in discard order.
    pub(crate) discard: Vec<u8>,
    /// Scheduled events `(kind, seat, card)`.
    pub(crate) tasks: VecDeque<(u8, u8, u8)>,
    /// Action cards drawn during the current Flip Three.
    pub(crate) deferred: Vec<u8>,
    /// The action card waiting for a target.
    pub(crate) pending_card: Option<u8>,
    /// Seat to act.
    pub(crate) agent_selection: usize,
    /// Dealer seat.
    pub(crate) dealer: usize,
    /// Round number (1-based).
    pub(crate) round_number: u32,
    /// The seat that flipped seven this round.
    pub(crate) flip7_player: Option<usize>,
    /// A draw found both piles empty this round.
    pub(crate) exhausted: bool,
    /// The game reached the target score.
    pub(crate) terminated: bool,
    /// The game hit `max_rounds`.
    pub(crate) truncated: bool,
    /// Points of each seat in the last completed round.
    pub(crate) round_scores: Vec<u32>,
    /// Winners once terminated.
    pub(crate) winners: Vec<usize>,
    /// Every shuffle so far, the opening one first: the order each produced.
    pub(crate) shuffle_log: Vec<Vec<u8>>,
}

impl Reference {
    /// A new game whose opening deck order is `order` (top last); `rng` serves reshuffles.
    pub fn new(config: Flip7, order: &[u8], rng: LaneRng) -> crate::core::Result<Self> {
        let order = check_order(order)?;
        let n = config.num_players();
        let mut game = Reference {
            config,
            rng,
            scores: vec![0; n],
            hands: vec![Vec::new(); n],
            status: vec![ACTIVE; n],
            deck: order.to_vec(),
            discard: Vec::new(),
            tasks: VecDeque::new(),
            deferred: Vec::new(),
            pending_card: None,
            agent_selection: 0,
            dealer: 0,
            round_number: 0,
            flip7_player: None,
            exhausted: false,
            terminated: false,
            truncated: false,
            round_scores: vec![0; n],
            winners: Vec::new(),
            shuffle_log: vec![order.to_vec()],
        };
        game.start_round();
        let mut rewards = vec![0.0; n];
        game.advance(&mut rewards);
        Ok(game)
    }

    /// A new game shuffled by `rng` (the same draws as `Flip7::reset`).
    pub fn shuffled(config: Flip7, mut rng: LaneRng) -> Self {
        let mut order = make_deck().to_vec();
        rng.shuffle(&mut order);
        Reference::new(config, &order, rng).expect("a shuffled deck is a valid order")
    }

    fn start_round(&mut self) {
        let n = self.config.num_players();
        self.round_number += 1;
        self.hands = vec![Vec::new(); n];
        self.status = vec![ACTIVE; n];
        self.flip7_player = None;
        self.exhausted = false;
        self.pending_card = None;
        self.deferred.clear();
        let first = (self.dealer + 1) % n;
        self.tasks = (0..n)
            .map(|i| (TASK_DEAL, ((first + i) % n) as u8, 0))
            .collect();
        self.tasks.push_back((TASK_TURN, first as u8, 0));
    }

    /// The points `player` would score if the round ended now.
    pub fn round_score(&self, player: usize) -> u32 {
        if self.status[player] == BUSTED {
            return 0;
        }
        let hand = &self.hands[player];
        let mut total: u32 = hand
            .iter()
            .filter(|&&c| is_number(c))
            .map(|&c| c as u32)
            .sum();
        if hand.contains(&TIMES_2) {
            total *= 2;
        }
        total += hand
            .iter()
            .filter(|&&c| (PLUS_2..=PLUS_10).contains(&c))
            .map(|&c| plus_value(c))
            .sum::<u32>();
        if self.flip7_player == Some(player) {
            total += FLIP7_BONUS;
        }
        total
    }

    fn draw(&mut self, player: usize, forced: bool) {
        if self.deck.is_empty() {
            self.deck = std::mem::take(&mut self.discard);
            self.deck.sort_unstable();
            self.rng.shuffle(&mut self.deck);
            self.shuffle_log.push(self.deck.clone());
        }
        let Some(card) = self.deck.pop() else {
            self.exhausted = true;
            return;
        };
        if is_number(card) {
            if self.hands[player].contains(&card) {
                if let Some(i) = self.hands[player].iter().position(|&c| c == SECOND_CHANCE) {
                    self.hands[player].remove(i);
                    self.discard.extend([SECOND_CHANCE, card]);
                    return;
                }
                self.status[player] = BUSTED;
            }
            self.hands[player].push(card);
            let numbers = self.hands[player].iter().filter(|&&c| is_number(c)).count();
            if self.status[player] != BUSTED && numbers == FLIP7_CARDS as usize {
                self.flip7_player = Some(player);
            }
        } else if is_modifier(card) {
            self.hands[player].push(card);
        } else if card == SECOND_CHANCE {
            if !self.hands[player].contains(&card) {
                self.hands[player].push(card);
            } else if !self.targets(player, card).is_empty() {
                self.ask_target(player, card);
            } else {
                self.discard.push(card);
            }
        } else if forced {
            self.deferred.push(card);
        } else {
            self.ask_target(player, card);
        }
    }

    /// The seats that may receive `card` drawn by `player`.
    pub fn targets(&self, player: usize, card: u8) -> Vec<usize> {
        (0..self.config.num_players())
            .filter(|&i| {
                self.status[i] == ACTIVE
                    && (card != SECOND_CHANCE
                        || (i != player && !self.hands[i].contains(&SECOND_CHANCE)))
            })
            .collect()
    }

    fn ask_target(&mut self, player: usize, card: u8) {
        self.pending_card = Some(card);
        self.agent_selection = player;
    }

    fn advance(&mut self, rewards: &mut [f32]) {
        let n = self.config.num_players();
        loop {
            let round_over =
                self.flip7_player.is_some() || !self.status.contains(&ACTIVE) || self.exhausted;
            if round_over && self.finish_round(rewards) {
                return;
            }
            if self.pending_card.is_some() {
                return;
            }
            let (kind, seat, card) = self.tasks.pop_front().expect("a round always has a turn");
            let player = seat as usize;
            match kind {
                TASK_TURN => {
                    self.tasks
                        .push_back((TASK_TURN, ((player + 1) % n) as u8, 0));
                    if self.status[player] == ACTIVE {
                        self.agent_selection = player;
                        return;
                    }
                }
                TASK_DEAL | TASK_FORCED_DRAW => {
                    if self.status[player] == ACTIVE {
                        self.draw(player, kind == TASK_FORCED_DRAW);
                    }
                }
                TASK_END_THREE => {
                    let deferred = std::mem::take(&mut self.deferred);
                    if self.status[player] == BUSTED {
                        self.hands[player].extend(deferred);
                    } else {
                        for &action_card in deferred.iter().rev() {
                            self.tasks.push_front((TASK_RESOLVE, seat, action_card));
                        }
                    }
                }
                TASK_RESOLVE => {
                    if self.status[player] == BUSTED {
                        self.hands[player].push(card);
                    } else {
                        self.ask_target(player, card);
                    }
                }
                _ => unreachable!("unknown event kind {kind}"),
            }
        }
    }

    fn finish_round(&mut self, rewards: &mut [f32]) -> bool {
        let n = self.config.num_players();
        let round_scores: Vec<u32> = (0..n).map(|i| self.round_score(i)).collect();
        for (score, points) in self.scores.iter_mut().zip(&round_scores) {
            *score += points;
        }
        for hand in &self.hands {
            self.discard.extend(hand);
        }
        self.discard.append(&mut self.deferred);
        for &(kind, _, card) in &self.tasks {
            if kind == TASK_RESOLVE {
                self.discard.push(card);
            }
        }
        if let Some(card) = self.pending_card.take() {
            self.discard.push(card);
        }
        self.tasks.clear();
        let best = self.scores.iter().copied().max().unwrap_or(0);
        let finished = best >= self.config.target_score();
        let truncated = !finished
            && self
                .config
                .max_rounds()
                .is_some_and(|m| self.round_number >= m);
        if finished {
            self.winners = (0..n).filter(|&i| self.scores[i] == best).collect();
        }
        for i in 0..n {
            rewards[i] += round_scores[i] as f32;
        }
        self.round_scores = round_scores;
        self.terminated = finished;
        self.truncated = truncated;
        if finished || truncated {
            self.hands = vec![Vec::new(); n];
            self.agent_selection = 0;
            return true;
        }
        self.dealer = (self.dealer + 1) % n;
        self.start_round();
        false
    }

    fn mask_vec(&self) -> Vec<u8> {
        let mut mask = vec![0u8; TARGET_OFFSET as usize + self.config.num_players()];
        if self.terminated || self.truncated {
            return mask;
        }
        let player = self.agent_selection;
        match self.pending_card {
            None => {
                mask[HIT as usize] = 1;
                mask[STAY as usize] = !self.hands[player].is_empty() as u8;
            }
            Some(card) => {
                for target in self.targets(player, card) {
                    mask[TARGET_OFFSET as usize + target] = 1;
                }
            }
        }
        mask
    }

    /// The observation of `observer` as `flip7_v0` builds it (in `f64`).
    pub fn observation(&self, observer: usize) -> Vec<f64> {
        let mut out: Vec<f64> = vec![
            observer as f64,
            self.agent_selection as f64,
            self.dealer as f64,
            self.round_number as f64,
            self.deck.len() as f64,
            self.config.target_score() as f64,
            self.config.max_rounds().unwrap_or(0) as f64,
            self.pending_card.is_some() as u8 as f64,
            self.pending_card.unwrap_or(0) as f64,
            self.flip7_player.map_or(0.0, |p| p as f64 + 1.0),
        ];
        let counts = |cards: &[u8]| {
            let mut counts = [0.0; CARD_IDS];
            for &c in cards {
                counts[c as usize] += 1.0;
            }
            counts
        };
        for (i, hand) in self.hands.iter().enumerate() {
            out.push(self.scores[i] as f64);
            out.push(self.status[i] as f64);
            out.extend(counts(hand));
        }
        out.extend(counts(&self.discard));
        let mut queue = vec![0.0; 3 * OBS_TASK_SLOTS];
        for (i, &(kind, seat, card)) in self.tasks.iter().enumerate() {
            queue[3 * i] = kind as f64;
            queue[3 * i + 1] = seat as f64;
            queue[3 * i + 2] = card as f64;
        }
        out.extend(queue);
        let mut deferred: Vec<f64> = self.deferred.iter().map(|&c| c as f64 + 1.0).collect();
        deferred.resize(OBS_DEFERRED_SLOTS, 0.0);
        out.extend(deferred);
        out
    }

    /// Applies an action; an illegal one changes nothing and returns `false`.
    pub fn apply(&mut self, action: u32, rewards: &mut [f32]) -> bool {
        let mask = self.mask_vec();
        if mask.get(action as usize).copied().unwrap_or(0) == 0 {
            return false;
        }
        let player = self.agent_selection;
        if let Some(card) = self.pending_card.take() {
            let target = (action - TARGET_OFFSET) as usize;
            self.hands[target].push(card);
            if card == FREEZE {
                self.status[target] = FROZEN;
            } else if card == FLIP_THREE {
                self.tasks.push_front((TASK_END_THREE, target as u8, 0));
                for _ in 0..3 {
                    self.tasks.push_front((TASK_FORCED_DRAW, target as u8, 0));
                }
            }
        } else if action == STAY {
            self.status[player] = STAYED;
        } else {
            self.draw(player, false);
        }
        self.advance(rewards);
        true
    }
}

impl Playable for Reference {
    fn num_players(&self) -> usize {
        self.config.num_players()
    }
    fn num_actions(&self) -> usize {
        TARGET_OFFSET as usize + self.config.num_players()
    }
    fn obs_dim(&self) -> usize {
        self.config.obs_dim()
    }
    fn current_player(&self) -> usize {
        self.agent_selection
    }
    fn finished(&self) -> (bool, bool) {
        (self.terminated, self.truncated)
    }
    fn legal_mask(&self, mask: &mut [u8]) {
        mask.copy_from_slice(&self.mask_vec());
    }
    fn step(&mut self, action: u32, rewards: &mut [f32]) -> LaneOutcome {
        if !self.apply(action, rewards) {
            return LaneOutcome::ILLEGAL;
        }
        LaneOutcome {
            applied: true,
            terminated: self.terminated,
            truncated: self.truncated,
        }
    }
    fn observe(&self, player: usize, obs: &mut [f32]) {
        for (o, v) in obs.iter_mut().zip(self.observation(player)) {
            *o = v as f32;
        }
    }
}

/// The configuration game `g` of a differential run uses: every player count (1, the solo
/// game, and 3..=18) in turn, mostly the default target of 200, sometimes a low target
/// (many games, few rounds) or a round limit (truncation).
pub fn diff_config(g: u64) -> Flip7 {
    let players = match g % 17 {
        16 => SOLO_PLAYERS,
        k => 3 + k as usize,
    };
    let (target, max_rounds) = match (g / 17) % 8 {
        0 => (40, None),
        1 => (200, Some(1 + (g / 136 % 4) as u32)),
        2 => (1, None),
        _ => (200, None),
    };
    Flip7::new(players, target, max_rounds).expect("valid differential configuration")
}

/// The (reference, fast) pair for game `g` of `cardvec diff flip7`: both engines get the
/// deck shuffled from `rng` and a copy of what follows in that stream for reshuffles.
pub fn diff_pair(g: u64, rng: &mut LaneRng) -> (Reference, SingleLane<Flip7>) {
    let config = diff_config(g);
    let reference = Reference::shuffled(config, rng.clone());
    let fast = SingleLane::new(config, rng.clone());
    (reference, fast)
}

/// Checks that a reference game and a fast lane agree on everything hidden as well as
/// shown: draw pile order, hands (as counts), scores, winners and round scores.
pub fn compare_hidden(r: &Reference, f: &SingleLane<Flip7>) -> Result<(), String> {
    let s = &f.state;
    let n = r.config.num_players();
    if r.deck.as_slice() != s.draw_pile() {
        return Err("draw piles differ".into());
    }
    for p in 0..n {
        let mut counts = [0u8; CARD_IDS];
        for &c in &r.hands[p] {
            counts[c as usize] += 1;
        }
        if counts != s.hands[p] {
            return Err(format!("hand of seat {p} differs"));
        }
    }
    if r.scores[..] != s.scores[..n] || r.round_scores[..] != s.round_scores[..n] {
        return Err("scores differ".into());
    }
    if r.winners != f.game.winners(s) {
        return Err(format!(
            "winners {:?} vs {:?}",
            r.winners,
            f.game.winners(s)
        ));
    }
    Ok(())
}

#[cfg(test)]
mod solo_tests {
    use super::*;
    use crate::core::diff::compare_game;

    /// The solo game (one seat): the reference engine and the fast lane agree step for step
    /// (random legal play with illegal probes, the hidden state compared too) on the
    /// differential configurations that have one seat, and the generic fuzz check (both
    /// engines, the state invariants) passes on fuzz inputs that pick one seat.
    #[test]
    fn the_solo_game_agrees_across_engines() {
        let mut games = 0;
        for g in (16..16 + 17 * 40).step_by(17) {
            let config = diff_config(g);
            assert_eq!(config.num_players(), SOLO_PLAYERS);
            let mut rng = LaneRng::for_lane(11, g, 0);
            let (r, f) = diff_pair(g, &mut rng);
            let mut policy = LaneRng::for_lane(12, g, 0);
            compare_game(g, r.clone(), f.clone(), &mut policy, 7)
                .unwrap_or_else(|m| panic!("game {g}: {m:?}"));
            compare_hidden(&r, &f).unwrap();
            games += 1;
        }
        assert_eq!(games, 40);
        for seed in 0..40u8 {
            let mut data = vec![16, seed.wrapping_mul(37)];
            data.extend((0..400).map(|i| (i as u8).wrapping_mul(seed | 1).wrapping_add(seed)));
            crate::registry::fuzz_check("flip7", &data).unwrap();
        }
    }
}
