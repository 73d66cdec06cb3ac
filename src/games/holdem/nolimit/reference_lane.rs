//! The reference engine ([`NlHand`]) as a [`Playable`] lane under the batch game's action
//! abstraction and observation, and [`diff_pair`] for `cardvec diff holdem`.

use super::lane::{encode, NoLimitHoldem, ObsInputs, CHECK_CALL, FOLD};
use super::{Action, Chips, NlHand, Street, TableConfig};
use crate::core::{LaneOutcome, LaneRng, Playable, SingleLane};
use crate::games::holdem::cards::Card;

/// A reference hand played through the discrete actions of a [`NoLimitHoldem`].
#[derive(Clone, Debug)]
pub struct ReferenceLane {
    /// The batch game (abstraction, observation).
    pub game: NoLimitHoldem,
    /// The hand.
    pub hand: NlHand,
    raises_street: Vec<u16>,
    raises_total: Vec<u16>,
    street_raises: [u16; 4],
}

impl ReferenceLane {
    /// Deals like [`Game::reset`] of the fast engine: the button (when random) from `rng`,
    /// then a shuffle of the 52 card ids.
    pub fn dealt(game: NoLimitHoldem, rng: &mut LaneRng) -> Self {
        let n = game.seats();
        let button = match game.button() {
            Some(b) => b,
            None => rng.below(n as u32) as usize,
        };
        let mut deck: Vec<u8> = (0..52).collect();
        rng.shuffle(&mut deck);
        let card = |i: usize| Card::from_id(deck[i]).expect("id < 52");
        let hole: Vec<[Card; 2]> = (0..n).map(|s| [card(2 * s), card(2 * s + 1)]).collect();
        let board = [0, 1, 2, 3, 4].map(|k| card(2 * n + k));
        let hand = NlHand::new(game.table(), &game.stacks(), button, &hole, board)
            .expect("a validated game deals a valid hand");
        ReferenceLane {
            game,
            hand,
            raises_street: vec![0; n],
            raises_total: vec![0; n],
            street_raises: [0; 4],
        }
    }

    fn max_bet(&self) -> Chips {
        self.hand.bets().iter().copied().max().unwrap_or(0)
    }
}

impl Playable for ReferenceLane {
    fn num_players(&self) -> usize {
        self.game.seats()
    }
    fn num_actions(&self) -> usize {
        self.game.action_count()
    }
    fn obs_dim(&self) -> usize {
        self.game.observation_len()
    }
    fn current_player(&self) -> usize {
        self.hand.to_act().unwrap_or(0)
    }
    fn finished(&self) -> (bool, bool) {
        (self.hand.is_over(), false)
    }
    fn legal_mask(&self, mask: &mut [u8]) {
        match self.hand.legal() {
            Some(l) => self
                .game
                .mask_of(&l, self.max_bet(), self.hand.pot_total(), mask),
            None => mask.fill(0),
        }
    }
    fn step(&mut self, action: u32, rewards: &mut [f32]) -> LaneOutcome {
        let Some(legal) = self.hand.legal() else {
            return LaneOutcome::ILLEGAL;
        };
        let act = match action {
            FOLD if legal.fold => Action::Fold,
            FOLD => return LaneOutcome::ILLEGAL,
            CHECK_CALL if legal.check => Action::Check,
            CHECK_CALL => Action::Call,
            _ => match self
                .game
                .raise_target(action, &legal, self.max_bet(), self.hand.pot_total())
            {
                Some(to) => Action::RaiseTo(to),
                None => return LaneOutcome::ILLEGAL,
            },
        };
        let street = self.hand.street();
        if self.hand.apply(act).is_err() {
            return LaneOutcome::ILLEGAL;
        }
        if let Action::RaiseTo(_) = act {
            self.raises_street[legal.seat] += 1;
            self.raises_total[legal.seat] += 1;
            self.street_raises[street as usize] += 1;
        }
        // "Raises this street" restart whenever a new street is dealt (a board run out after
        // the last action counts), and keep the last street's values when the hand ends on it.
        let live = self.hand.folded().iter().filter(|&&f| !f).count();
        let new_street = match self.hand.street() {
            Street::Over => live > 1 && street != Street::River,
            s => s != street,
        };
        if new_street {
            self.raises_street.fill(0);
        }
        if self.hand.is_over() {
            let bb = self.game.table().big_blind as f32;
            for (r, x) in rewards.iter_mut().zip(self.hand.net()) {
                *r = x as f32 / bb;
            }
        }
        LaneOutcome {
            applied: true,
            terminated: self.hand.is_over(),
            truncated: false,
        }
    }
    fn observe(&self, player: usize, obs: &mut [f32]) {
        let h = &self.hand;
        let hole: Vec<[u8; 2]> = h
            .hole_cards()
            .iter()
            .map(|c| [c[0].id(), c[1].id()])
            .collect();
        let board: Vec<u8> = h.board().iter().map(|c| c.id()).collect();
        let inputs = ObsInputs {
            n: h.num_seats(),
            button: h.button(),
            to_act: h.to_act(),
            street: h.street() as usize,
            hole: &hole,
            board: &board,
            stacks: h.stacks(),
            bets: h.bets(),
            committed: h.committed(),
            folded: h.folded(),
            raises_street: &self.raises_street,
            raises_total: &self.raises_total,
            street_raises: self.street_raises,
            legal: h.legal(),
        };
        encode(&self.game, &inputs, player, obs);
    }
}

/// The configuration of differential game `g`: 2, 3, 6 or 10 seats in turn, random blinds,
/// ante, stacks (many short), button and raise fractions, from a stream of its own.
pub fn diff_game(g: u64) -> NoLimitHoldem {
    let mut rng = LaneRng::for_lane(0xD1FF_401D, g, 1);
    let seats = [2, 3, 6, 10][(g % 4) as usize];
    let bb: Chips = [2, 2, 3, 10, 25, 100][rng.below(6) as usize];
    let sb: Chips = (bb / 2).max(1);
    let ante: Chips = if rng.below(3) == 0 {
        1 + rng.below(bb as u32) as Chips
    } else {
        0
    };
    let stacks: Vec<Chips> = (0..seats)
        .map(|_| {
            ante + bb
                + match rng.below(6) {
                    0 => 1 + rng.below(2 * bb as u32) as Chips,
                    1 | 2 => 1 + rng.below((12 * bb) as u32) as Chips,
                    _ => 1 + rng.below((200 * bb) as u32) as Chips,
                }
        })
        .collect();
    let fractions: &[f64] = match rng.below(3) {
        0 => &[0.5, 1.0, 2.0],
        1 => &[0.33, 0.75, 1.5, 3.0],
        _ => &[1.0],
    };
    let table = TableConfig::new(sb, bb, ante).expect("valid blinds");
    NoLimitHoldem::new(seats, table, ante + bb + 1)
        .and_then(|g| g.with_stacks(&stacks))
        .and_then(|g| g.with_raise_fractions(fractions))
        .and_then(|g| g.with_button(if rng.below(4) == 0 { Some(0) } else { None }))
        .expect("valid differential configuration")
}

/// Both engines of differential game `g`, dealt from the same stream.
pub fn diff_pair(g: u64, rng: &mut LaneRng) -> (ReferenceLane, SingleLane<NoLimitHoldem>) {
    let game = diff_game(g);
    let reference = ReferenceLane::dealt(game, &mut rng.clone());
    let fast = SingleLane::new(game, rng.clone());
    (reference, fast)
}

/// Checks that a reference lane and a fast lane hold the same hidden and public state:
/// stacks, bets, pots, folds and cards.
pub fn compare_hidden(r: &ReferenceLane, f: &SingleLane<NoLimitHoldem>) -> Result<(), String> {
    let (h, s) = (&r.hand, &f.state);
    let n = h.num_seats();
    for seat in 0..n {
        if h.stacks()[seat] != s.stacks[seat] as Chips
            || h.bets()[seat] != s.bets[seat] as Chips
            || h.committed()[seat] != s.committed[seat] as Chips
            || h.folded()[seat] != (s.folded >> seat & 1 != 0)
            || h.hole_cards()[seat].map(|c| c.id()) != s.hole[seat]
        {
            return Err(format!("seat {seat} differs"));
        }
    }
    if h.full_board().map(|c| c.id()) != s.board || f.game.legal(s) != h.legal() {
        return Err("board or legal options differ".into());
    }
    Ok(())
}
