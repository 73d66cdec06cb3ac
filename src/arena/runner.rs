//! The i151 arena's match runner, as the official `runner/match_runner.py` (0.2.4) runs a
//! match, and its JSON replay, in the exact shape of the official `game/recorder.py`.
//!
//! Two seats: `p0` the challenger, `p1` the opponent. Each decision the runner builds the
//! seat's view and the legal actions in the official order ([`Decision`]) and asks the
//! seat's [`ArenaBot`]; a bot that fails (an error), answers too late (after the decision
//! time limit) or answers an action that is not legal forfeits. A round that reaches the
//! per-round step limit forfeits the seat to act, as does a match that exceeds the match
//! time limit. The forfeiting seat adds only its hand's points to its score; the other
//! seat wins. Every match is recorded ([`Replay`]).
//!
//! The module holds no thread, and its time comes from the caller ([`Clock`]): on the wall
//! clock the decision time is measured around the call (the official runner's fallback when
//! it cannot use `SIGALRM`), and a Python bot is pre-empted by its own adapter
//! (`python/cardvec/arena.py`); on a fixed clock every decision takes a set time, so a test's
//! result does not depend on how loaded the machine is.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::core::{Error, LaneRng, Result};
use crate::games::i151::bots::ViewPolicy;
use crate::games::i151::fast::{FLAG_ACE_EFFECT, FLAG_CHOOSE_SUIT};
use crate::games::i151::*;

/// The match settings (official `MatchConfig`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchConfig {
    /// The match seed (round `r` is dealt by `random.Random(seed + r)`).
    pub seed: i64,
    /// Exclusion score (151).
    pub target_score: i64,
    /// Cards dealt to each seat (8).
    pub cards_per_player: u32,
    /// Time limit of one decision, in milliseconds (official default 1000); must be > 0.
    pub decision_timeout_ms: u64,
    /// Time limit of the whole match, in milliseconds (600,000).
    pub match_timeout_ms: u64,
    /// Actions after which a round forfeits the seat to act (500).
    pub max_steps_per_round: u32,
    /// With `max_steps_per_round`, the limit of actions in the match (200 × 500).
    pub max_rounds: u32,
    /// The seat dealing round 1 (0: `p1` starts).
    pub initial_dealer: u32,
}

impl MatchConfig {
    /// The official defaults with `seed`.
    pub fn new(seed: i64) -> MatchConfig {
        MatchConfig {
            seed,
            target_score: 151,
            cards_per_player: 8,
            decision_timeout_ms: 1000,
            match_timeout_ms: 600_000,
            max_steps_per_round: 500,
            max_rounds: 200,
            initial_dealer: 0,
        }
    }

    /// Checks every setting; the game configuration of the match.
    pub fn game(&self) -> Result<I151> {
        Error::check_range(
            "decision time limit (ms)",
            1,
            3_600_000,
            self.decision_timeout_ms,
        )?;
        Error::check_range("match time limit (ms)", 1, i64::MAX, self.match_timeout_ms)?;
        Error::check_range(
            "max steps per round",
            1,
            1_000_000,
            self.max_steps_per_round,
        )?;
        Error::check_range("max rounds", 1, 1_000_000, self.max_rounds)?;
        Ok(I151::new(2)?
            .with_cards_per_player(self.cards_per_player as usize)?
            .with_target_score(self.target_score)?
            .with_initial_dealer(self.initial_dealer as usize)?
            .with_max_round_steps(0))
    }
}

/// The clock a match is timed with (decisions and the whole match), chosen by the caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// The real wall clock: a decision takes as long as its bot computes, the match as long
    /// as it runs. For real runs (the CLI, Python), where the official time limits apply.
    Wall,
    /// A deterministic clock: each decision of seat `s` takes exactly `per_decision[s]`,
    /// whatever its bot computes, and nothing else takes time. For tests: a loaded machine
    /// cannot make a bot time out, and a slow bot is one whose decisions are set to take
    /// longer than the limit.
    Fixed {
        /// The time each decision of seat 0 (`p0`) and of seat 1 (`p1`) takes.
        per_decision: [Duration; 2],
    },
}

impl Clock {
    /// A deterministic clock on which no time passes.
    pub const FREE: Clock = Clock::Fixed {
        per_decision: [Duration::ZERO; 2],
    };

    /// A deterministic clock on which every decision takes `cost`.
    pub const fn fixed(cost: Duration) -> Clock {
        Clock::Fixed {
            per_decision: [cost; 2],
        }
    }
}

/// The time of one match on its [`Clock`].
struct MatchTimer {
    clock: Clock,
    started: Instant,
    /// Time passed on a fixed clock.
    passed: Duration,
}

impl MatchTimer {
    fn start(clock: Clock) -> MatchTimer {
        MatchTimer {
            clock,
            started: Instant::now(),
            passed: Duration::ZERO,
        }
    }

    /// Time since the match started.
    fn elapsed(&self) -> Duration {
        match self.clock {
            Clock::Wall => self.started.elapsed(),
            Clock::Fixed { .. } => self.passed,
        }
    }

    /// Runs seat `seat`'s decision `decide`; returns its answer and the time it took.
    fn decision<T>(&mut self, seat: usize, decide: impl FnOnce() -> T) -> (T, Duration) {
        match self.clock {
            Clock::Wall => {
                let asked = Instant::now();
                let answer = decide();
                (answer, asked.elapsed())
            }
            Clock::Fixed { per_decision } => {
                let answer = decide();
                self.passed += per_decision[seat];
                (answer, per_decision[seat])
            }
        }
    }
}

/// Why a match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// Played to the end.
    Normal,
    /// A bot failed or answered an illegal action.
    Forfeit,
    /// A bot answered after the decision time limit, or the match time ran out.
    Timeout,
    /// The per-round (or per-match) step limit was reached.
    MaxSteps,
}

impl EndReason {
    /// The official spelling: `normal`, `forfeit`, `timeout`, `max_steps`.
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Normal => "normal",
            EndReason::Forfeit => "forfeit",
            EndReason::Timeout => "timeout",
            EndReason::MaxSteps => "max_steps",
        }
    }
}

/// How a bot failed to decide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotFailure {
    /// It was stopped at the time limit.
    Timeout,
    /// It raised an error.
    Error(String),
    /// Not the bot's failure: the match itself must stop now (the user pressed Ctrl-C while
    /// the bot decided, or the caller cancelled the match). Nobody forfeits; [`play_match`]
    /// returns [`Error::Cancelled`] and no result.
    Interrupted,
}

/// A seat of the match: id (`p0`, `p1`), display name, and the id other seats see in their
/// view (`student:challenger` for the challenger, the opponent id for the opponent).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatInfo {
    /// `p0` or `p1`.
    pub player_id: String,
    /// Display name.
    pub name: String,
    /// The id shown to the other seat.
    pub spec_id: String,
}

/// Everything a bot is given at a decision: the official `PlayerView` in compact form plus
/// what the official view adds (the hand in the engine's order, the step index, the seats'
/// ids and names), the legal actions in the official order, and the time left.
#[derive(Clone, Debug)]
pub struct Decision<'a> {
    /// The seat's view.
    pub view: &'a PlayerView,
    /// The seat's hand in the official order (deal order until the seat first plays or
    /// draws in the round, then sorted by suit name and the engine's rank order).
    pub hand: &'a [u8],
    /// The legal actions in the official `legal_actions` order.
    pub legal: &'a [u32],
    /// The same as bits `0..38`.
    pub legal_bits: u64,
    /// Actions of the match so far, this one included (official `step_index`).
    pub step_index: u64,
    /// Time the bot may take, in milliseconds.
    pub time_left_ms: u64,
    /// The two seats.
    pub seats: &'a [SeatInfo; 2],
}

/// A player program in the arena.
pub trait ArenaBot {
    /// The action to play (an id `0..38`), or why there is none.
    fn decide(
        &mut self,
        game: &I151,
        decision: &Decision<'_>,
    ) -> std::result::Result<u32, BotFailure>;
}

/// A catalog bot in the arena: a [`ViewPolicy`] with its own random stream.
pub struct PolicyBot {
    policy: Box<dyn ViewPolicy>,
    rng: LaneRng,
}

impl PolicyBot {
    /// `policy` drawing from `rng`.
    pub fn new(policy: Box<dyn ViewPolicy>, rng: LaneRng) -> PolicyBot {
        PolicyBot { policy, rng }
    }
}

impl ArenaBot for PolicyBot {
    fn decide(&mut self, game: &I151, d: &Decision<'_>) -> std::result::Result<u32, BotFailure> {
        Ok(self
            .policy
            .choose(game, d.view, d.legal_bits, &mut self.rng))
    }
}

/// A replay (official `ReplayLog.to_dict()`), serialized by [`Replay::to_json`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Replay {
    /// Format version (1).
    pub version: u32,
    /// The match seed.
    pub seed: i64,
    /// `target_score` and `cards_per_player`.
    pub config: ReplayConfig,
    /// The two seats.
    pub players: Vec<ReplayPlayer>,
    /// The rounds played (a round with no recorded step is left out, as officially).
    pub rounds: Vec<ReplayRound>,
    /// The outcome.
    pub result: ReplayResult,
}

/// The replay's `config`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplayConfig {
    /// Exclusion score.
    pub target_score: i64,
    /// Cards dealt per seat.
    pub cards_per_player: u32,
}

/// One seat in the replay.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplayPlayer {
    /// `p0` or `p1`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// `challenger` or `opponent`.
    pub role: String,
    /// The opponent's catalog id (opponent only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opponent_id: Option<String>,
}

/// One round.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplayRound {
    /// From 1.
    pub round_number: u32,
    /// The round winner (`null` for a round cut short by a forfeit).
    pub winner_id: Option<String>,
    /// The actions, each with the public snapshot after it.
    pub steps: Vec<ReplayStep>,
}

/// One action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplayStep {
    /// The match step index (from 1).
    pub index: u64,
    /// The seat that acted.
    pub player_id: String,
    /// The action.
    pub action: ReplayAction,
    /// The table after the action.
    pub snapshot: Snapshot,
}

/// An action as the official recorder writes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplayAction {
    /// `PLAY_CARD`, `DRAW_CARD`, `PASS_TURN`, `CHOOSE_SUIT` (`PLAY_MULTIPLE_CARDS` is never
    /// legal in 0.2.4).
    #[serde(rename = "type")]
    pub kind: String,
    /// The card played (`"7H"`).
    pub card: Option<String>,
    /// Several cards (never in 0.2.4).
    pub cards: Option<Vec<String>>,
    /// The announced suit (`"S"`, `"H"`, `"D"`, `"C"`).
    pub chosen_suit: Option<String>,
}

/// The table part of a snapshot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSnapshot {
    /// The last three cards of the played pile, oldest first.
    pub recent_cards: Vec<String>,
    /// The cards put down by the last action.
    pub last_play_cards: Vec<String>,
    /// No top card and an empty pile.
    pub table_empty: bool,
    /// The suit imposed by an eight.
    pub required_suit: Option<String>,
    /// The seat to act must announce a suit.
    pub must_choose_suit: bool,
    /// An ace is active.
    pub ace_effect_active: bool,
    /// Cards in the bank.
    pub bank_size: u32,
    /// Cards in the played pile.
    pub played_pile_size: u32,
    /// Cards put down by the last action.
    pub last_play_count: u32,
}

/// The state after one action. Recorded for the post-match viewer: like the official
/// recorder it lists every hand (`hands`, `hand_points`); bots never see a snapshot, only
/// their own view during play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Snapshot {
    /// The match step index.
    pub step_index: u64,
    /// The seat to act after the action.
    pub current_player_id: String,
    /// The table.
    pub table: TableSnapshot,
    /// Hand sizes by seat.
    pub hands_size: BTreeMap<String, u32>,
    /// Hands by seat, in the engine's order.
    pub hands: BTreeMap<String, Vec<String>>,
    /// Hand points by seat.
    pub hand_points: BTreeMap<String, u32>,
    /// Total scores by seat (before this round's scoring).
    pub scores: BTreeMap<String, i64>,
    /// The opponent's catalog id.
    pub opponent_id: String,
}

/// The replay's `result`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplayResult {
    /// The match winner.
    pub winner_id: Option<String>,
    /// Final scores by seat.
    pub final_scores: BTreeMap<String, i64>,
    /// `normal`, `forfeit`, `timeout` or `max_steps`.
    pub reason: String,
    /// The seat that forfeited (forfeits only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forfeited_player_id: Option<String>,
}

impl Replay {
    /// The JSON text (compact, UTF-8, like `ReplayLog.to_json()`).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a replay always serializes")
    }

    /// The JSON text, indented by two spaces.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).expect("a replay always serializes")
    }

    /// Parses a replay; any malformed or incomplete text is an [`Error::Invalid`] that says
    /// where.
    pub fn from_json(text: &str) -> Result<Replay> {
        let replay: Replay = serde_json::from_str(text).map_err(|e| Error::Invalid {
            what: "151 replay",
            reason: e.to_string(),
        })?;
        if replay.version != 1 {
            return Err(Error::Invalid {
                what: "151 replay",
                reason: format!("version {} (only version 1 is known)", replay.version),
            });
        }
        if replay.players.len() != 2 {
            return Err(Error::Invalid {
                what: "151 replay",
                reason: format!(
                    "{} {} (2 expected)",
                    replay.players.len(),
                    if replay.players.len() == 1 {
                        "player"
                    } else {
                        "players"
                    }
                ),
            });
        }
        Ok(replay)
    }
}

/// The outcome of a match (official `MatchResult`).
#[derive(Clone, Debug, PartialEq)]
pub struct MatchResult {
    /// The winning seat (0 or 1), if any.
    pub winner: Option<usize>,
    /// Why the match ended.
    pub reason: EndReason,
    /// The seat that forfeited.
    pub forfeited: Option<usize>,
    /// What the forfeiting bot did wrong (forfeits only).
    pub detail: Option<String>,
    /// Final scores.
    pub final_scores: [i64; 2],
    /// The last round number.
    pub rounds_played: u32,
    /// Actions asked for (official `steps_played`).
    pub steps_played: u64,
    /// The replay.
    pub replay: Replay,
}

/// Official card sort key (`sort_hand`): suit by name (clubs, diamonds, hearts, spades),
/// then rank in the engine's order T 9 7 K J Q A 8.
fn sort_key(card: u8) -> (u8, u8) {
    const SUIT_BY_NAME: [u8; 4] = [3, 2, 1, 0];
    const RANK_ORDER: [u8; 8] = [6, 3, 5, 4, 0, 1, 7, 2];
    (
        SUIT_BY_NAME[suit_of(card) as usize],
        RANK_ORDER[rank_of(card) as usize],
    )
}

const SUIT_CODES: [&str; 4] = ["S", "H", "D", "C"];

/// Hands in the official order: the deal order until a seat plays or draws, then sorted.
struct HandOrder {
    deal: [Vec<u8>; 2],
    sorted: [bool; 2],
}

impl HandOrder {
    fn new(game: &I151, seed: i64, round: u32) -> HandOrder {
        let deck = I151::round_deck(seed, round);
        let dealt = 2 * game.cards_dealt();
        let mut deal = [Vec::new(), Vec::new()];
        for (i, &c) in deck[..dealt].iter().enumerate() {
            deal[i % 2].push(c);
        }
        HandOrder {
            deal,
            sorted: [false; 2],
        }
    }

    fn hand(&self, seat: usize, set: u32) -> Vec<u8> {
        if self.sorted[seat] {
            let mut cards: Vec<u8> = (0..DECK_SIZE as u8)
                .filter(|&c| set >> c & 1 != 0)
                .collect();
            cards.sort_by_key(|&c| sort_key(c));
            cards
        } else {
            self.deal[seat]
                .iter()
                .copied()
                .filter(|&c| set >> c & 1 != 0)
                .collect()
        }
    }
}

fn replay_action(a: u32) -> ReplayAction {
    let (kind, card, suit) = match a {
        0..32 => ("PLAY_CARD", Some(card_code(a as u8)), None),
        ACTION_DRAW => ("DRAW_CARD", None, None),
        ACTION_PASS => ("PASS_TURN", None, None),
        _ => (
            "CHOOSE_SUIT",
            None,
            Some(SUIT_CODES[(a - ACTION_CHOOSE_SUIT) as usize & 3].to_string()),
        ),
    };
    ReplayAction {
        kind: kind.into(),
        card,
        cards: None,
        chosen_suit: suit,
    }
}

fn pid(seat: usize) -> String {
    format!("p{seat}")
}

fn codes(cards: &[u8]) -> Vec<String> {
    cards.iter().map(|&c| card_code(c)).collect()
}

fn snapshot(s: &I151State, order: &HandOrder, step: u64, opponent_id: &str) -> Snapshot {
    let pile = s.played_pile();
    let recent = &pile[pile.len().saturating_sub(3)..];
    let last = s.last_play_count as usize;
    let last_play = if last == 0 || pile.is_empty() {
        &pile[..0]
    } else {
        &pile[pile.len().saturating_sub(last)..]
    };
    let mut hands_size = BTreeMap::new();
    let mut hands = BTreeMap::new();
    let mut points = BTreeMap::new();
    let mut scores = BTreeMap::new();
    for p in 0..2 {
        hands_size.insert(pid(p), s.hands[p].count_ones());
        hands.insert(pid(p), codes(&order.hand(p, s.hands[p])));
        points.insert(pid(p), hand_points(s.hands[p]));
        scores.insert(pid(p), s.scores[p] as i64);
    }
    Snapshot {
        step_index: step,
        current_player_id: pid(s.to_act as usize),
        table: TableSnapshot {
            recent_cards: codes(recent),
            last_play_cards: codes(last_play),
            table_empty: s.top == NO_CARD && s.pile_len == 0,
            required_suit: s
                .required_suit()
                .map(|x| SUIT_CODES[x as usize & 3].to_string()),
            must_choose_suit: s.flags & FLAG_CHOOSE_SUIT != 0,
            ace_effect_active: s.flags & FLAG_ACE_EFFECT != 0,
            bank_size: s.bank_len() as u32,
            played_pile_size: s.pile_len as u32,
            last_play_count: s.last_play_count as u32,
        },
        hands_size,
        hands,
        hand_points: points,
        scores,
        opponent_id: opponent_id.to_string(),
    }
}

/// The legal actions of `s` in the official order: playable cards in hand order, the four
/// suit announcements (S H D C), then pass or draw.
fn legal_in_order(bits: u64, hand: &[u8]) -> Vec<u32> {
    let mut out: Vec<u32> = hand
        .iter()
        .map(|&c| c as u32)
        .filter(|&c| bits >> c & 1 != 0)
        .collect();
    for a in ACTION_CHOOSE_SUIT..ACTION_CHOOSE_SUIT + 4 {
        if bits >> a & 1 != 0 {
            out.push(a);
        }
    }
    for a in [ACTION_PASS, ACTION_DRAW] {
        if bits >> a & 1 != 0 {
            out.push(a);
        }
    }
    out
}

/// Builds the replay as the official `MatchRecorder` does.
struct Recorder {
    rounds: Vec<ReplayRound>,
    current: Option<ReplayRound>,
}

impl Recorder {
    fn start_round(&mut self, round_number: u32) {
        if let Some(r) = self.current.take() {
            if !r.steps.is_empty() {
                self.rounds.push(r);
            }
        }
        self.current = Some(ReplayRound {
            round_number,
            winner_id: None,
            steps: Vec::new(),
        });
    }

    fn end_round(&mut self, winner: Option<String>) {
        if let Some(mut r) = self.current.take() {
            r.winner_id = winner;
            self.rounds.push(r);
        }
    }

    fn finish(mut self) -> Vec<ReplayRound> {
        if let Some(r) = self.current.take() {
            if !r.steps.is_empty() {
                self.rounds.push(r);
            }
        }
        self.rounds
    }
}

/// Plays one match between `bots[0]` (seat `p0`, the challenger, called `names[0]`) and
/// `bots[1]` (seat `p1`, the opponent `opponent_id`, called `names[1]`), as the official
/// `play_bots_match` does, timed on `clock`. Errors on a bad configuration (a time limit
/// of 0, ...), and [`Error::Cancelled`] when a bot answers [`BotFailure::Interrupted`].
pub fn play_match(
    config: &MatchConfig,
    clock: Clock,
    bots: [&mut dyn ArenaBot; 2],
    names: [&str; 2],
    opponent_id: &str,
) -> Result<MatchResult> {
    let game = config.game()?;
    let seats = [
        SeatInfo {
            player_id: pid(0),
            name: names[0].to_string(),
            spec_id: "student:challenger".into(),
        },
        SeatInfo {
            player_id: pid(1),
            name: names[1].to_string(),
            spec_id: opponent_id.to_string(),
        },
    ];
    let mut s = game.reset_with_match_seed(config.seed);
    let mut order = HandOrder::new(&game, config.seed, 1);
    let mut rec = Recorder {
        rounds: Vec::new(),
        current: None,
    };
    rec.start_round(1);
    let (mut steps, mut round_steps) = (0u64, 0u64);
    let mut timer = MatchTimer::start(clock);
    let match_limit = Duration::from_millis(config.match_timeout_ms);
    let decision_limit = Duration::from_millis(config.decision_timeout_ms);
    let mut pending_winner: Option<u8> = None;
    // The result and replay of a match that ends now: `forfeited` names the seat that
    // forfeited and why.
    let conclude = |s: &I151State,
                    rec: Recorder,
                    winner: Option<usize>,
                    reason: EndReason,
                    forfeited: Option<(usize, String)>,
                    steps: u64|
     -> MatchResult {
        let final_scores = [s.scores[0] as i64, s.scores[1] as i64];
        let replay = build_replay(
            config,
            &seats,
            opponent_id,
            rec.finish(),
            winner,
            final_scores,
            reason,
            forfeited.as_ref().map(|f| f.0),
        );
        MatchResult {
            winner,
            reason,
            forfeited: forfeited.as_ref().map(|f| f.0),
            detail: forfeited.map(|f| f.1),
            final_scores,
            rounds_played: s.round_number as u32,
            steps_played: steps,
            replay,
        }
    };
    // The forfeiting seat adds only its hand's points; the other seat wins.
    let forfeit = |s: &mut I151State,
                   rec: Recorder,
                   seat: usize,
                   reason: EndReason,
                   detail: String,
                   steps: u64|
     -> MatchResult {
        s.scores[seat] = s.scores[seat].saturating_add(hand_points(s.hands[seat]) as i16);
        conclude(s, rec, Some(1 - seat), reason, Some((seat, detail)), steps)
    };
    loop {
        if timer.elapsed() >= match_limit {
            let seat = s.to_act as usize;
            return Ok(forfeit(
                &mut s,
                rec,
                seat,
                EndReason::Timeout,
                "match time limit".into(),
                steps,
            ));
        }
        if let Some(w) = pending_winner.take() {
            rec.end_round(Some(pid(w as usize)));
            game.finish_round(&mut s, w);
            round_steps = 0;
            if s.is_over() {
                break;
            }
            order = HandOrder::new(&game, config.seed, s.round_number as u32);
            rec.start_round(s.round_number as u32);
            continue;
        }
        round_steps += 1;
        steps += 1;
        let seat = s.to_act as usize;
        let limit = config.max_steps_per_round as u64;
        if round_steps > limit || steps > config.max_rounds as u64 * limit {
            return Ok(forfeit(
                &mut s,
                rec,
                seat,
                EndReason::MaxSteps,
                "step limit".into(),
                steps,
            ));
        }
        let view = game.view(&s, seat);
        let hand = order.hand(seat, s.hands[seat]);
        let bits = game.legal_bits(&s);
        let legal = legal_in_order(bits, &hand);
        let decision = Decision {
            view: &view,
            hand: &hand,
            legal: &legal,
            legal_bits: bits,
            step_index: steps,
            time_left_ms: config.decision_timeout_ms,
            seats: &seats,
        };
        let (answer, took) = timer.decision(seat, || bots[seat].decide(&game, &decision));
        let action = match answer {
            Err(BotFailure::Timeout) => {
                return Ok(forfeit(
                    &mut s,
                    rec,
                    seat,
                    EndReason::Timeout,
                    "decision timed out".into(),
                    steps,
                ))
            }
            Err(BotFailure::Error(e)) => {
                return Ok(forfeit(&mut s, rec, seat, EndReason::Forfeit, e, steps))
            }
            Err(BotFailure::Interrupted) => return Err(Error::Cancelled { what: "151 match" }),
            Ok(_) if took > decision_limit => {
                let detail = format!("decision took {} ms", took.as_millis());
                return Ok(forfeit(
                    &mut s,
                    rec,
                    seat,
                    EndReason::Timeout,
                    detail,
                    steps,
                ));
            }
            Ok(a) => a,
        };
        let winner = match game.act(&mut s, action) {
            Ok(w) => w,
            Err(()) => {
                let detail = format!("illegal action {action} ({})", action_name(action));
                return Ok(forfeit(
                    &mut s,
                    rec,
                    seat,
                    EndReason::Forfeit,
                    detail,
                    steps,
                ));
            }
        };
        if action <= ACTION_DRAW {
            order.sorted[seat] = true;
        }
        let snap = snapshot(&s, &order, steps, opponent_id);
        if let Some(r) = rec.current.as_mut() {
            r.steps.push(ReplayStep {
                index: steps,
                player_id: pid(seat),
                action: replay_action(action),
                snapshot: snap,
            });
        }
        pending_winner = winner;
    }
    let winner = (s.winner != NO_SEAT).then_some(s.winner as usize);
    Ok(conclude(&s, rec, winner, EndReason::Normal, None, steps))
}

#[allow(clippy::too_many_arguments)]
fn build_replay(
    config: &MatchConfig,
    seats: &[SeatInfo; 2],
    opponent_id: &str,
    rounds: Vec<ReplayRound>,
    winner: Option<usize>,
    final_scores: [i64; 2],
    reason: EndReason,
    forfeited: Option<usize>,
) -> Replay {
    Replay {
        version: 1,
        seed: config.seed,
        config: ReplayConfig {
            target_score: config.target_score,
            cards_per_player: config.cards_per_player,
        },
        players: vec![
            ReplayPlayer {
                id: pid(0),
                name: seats[0].name.clone(),
                role: "challenger".into(),
                opponent_id: None,
            },
            ReplayPlayer {
                id: pid(1),
                name: seats[1].name.clone(),
                role: "opponent".into(),
                opponent_id: Some(opponent_id.to_string()),
            },
        ],
        rounds,
        result: ReplayResult {
            winner_id: winner.map(pid),
            final_scores: (0..2).map(|p| (pid(p), final_scores[p])).collect(),
            reason: reason.as_str().into(),
            forfeited_player_id: forfeited.map(pid),
        },
    }
}

/// The match seed of match `g` of a series seeded `seed` (63 bits from stream
/// `(seed, g, 0)`, a non-negative `i64`).
pub fn series_match_seed(seed: u64, g: u64) -> i64 {
    (LaneRng::for_lane(seed, g, 0).next_u64() >> 1) as i64
}

/// Plays match `g` of a series between two catalog ids on `clock`: the seats alternate (`a`
/// is the challenger `p0` in even matches), each bot draws from its own stream `(seed, g, 1
/// + seat)`. Returns the result and whether `a` was seat 0.
pub fn play_series_match(
    config: &MatchConfig,
    clock: Clock,
    a: &str,
    b: &str,
    seed: u64,
    g: u64,
) -> Result<(MatchResult, bool)> {
    let a_first = g % 2 == 0;
    let (first, second) = if a_first { (a, b) } else { (b, a) };
    let mut cfg = *config;
    cfg.seed = series_match_seed(seed, g);
    let mut bot0 = PolicyBot::new(
        super::catalog::resolve(first)?,
        LaneRng::for_lane(seed, g, 1),
    );
    let mut bot1 = PolicyBot::new(
        super::catalog::resolve(second)?,
        LaneRng::for_lane(seed, g, 2),
    );
    let name0 = super::catalog::get_spec(first)?.name;
    let name1 = super::catalog::get_spec(second)?.name;
    let r = play_match(&cfg, clock, [&mut bot0, &mut bot1], [name0, name1], second)?;
    Ok((r, a_first))
}

/// Prints a replay readably: one line per action, round results and the outcome.
pub fn format_replay(r: &Replay) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let name = |id: &str| {
        r.players
            .iter()
            .find(|p| p.id == id)
            .map_or(id.to_string(), |p| format!("{} ({id})", p.name))
    };
    let _ = writeln!(
        out,
        "151 replay v{}: seed {}, target {}, {} cards each",
        r.version, r.seed, r.config.target_score, r.config.cards_per_player
    );
    for p in &r.players {
        let _ = writeln!(
            out,
            "  {} {} [{}]{}",
            p.id,
            p.name,
            p.role,
            p.opponent_id
                .as_ref()
                .map_or(String::new(), |o| format!(" {o}"))
        );
    }
    for round in &r.rounds {
        let _ = writeln!(
            out,
            "round {} ({} actions)",
            round.round_number,
            round.steps.len()
        );
        for st in &round.steps {
            let a = &st.action;
            let what = match a.kind.as_str() {
                "PLAY_CARD" => format!("plays {}", a.card.as_deref().unwrap_or("?")),
                "DRAW_CARD" => "draws".to_string(),
                "PASS_TURN" => "passes".to_string(),
                "CHOOSE_SUIT" => format!("announces {}", a.chosen_suit.as_deref().unwrap_or("?")),
                other => other.to_string(),
            };
            let t = &st.snapshot.table;
            let hands: Vec<String> = st
                .snapshot
                .hands
                .iter()
                .map(|(p, h)| format!("{p}:[{}]", h.join(" ")))
                .collect();
            let _ = writeln!(
                out,
                "  #{:<4} {} {:<14} table [{}]{}{}{} bank {} pile {}  {}",
                st.index,
                st.player_id,
                what,
                t.recent_cards.join(" "),
                t.required_suit
                    .as_ref()
                    .map_or(String::new(), |s| format!(" suit {s}")),
                if t.ace_effect_active { " ace!" } else { "" },
                if t.must_choose_suit {
                    " choose-suit"
                } else {
                    ""
                },
                t.bank_size,
                t.played_pile_size,
                hands.join(" ")
            );
        }
        if let Some(w) = &round.winner_id {
            let _ = writeln!(out, "  round won by {}", name(w));
        }
    }
    let res = &r.result;
    let scores: Vec<String> = res
        .final_scores
        .iter()
        .map(|(p, s)| format!("{p}={s}"))
        .collect();
    let _ = writeln!(
        out,
        "result: {} ({}{}); final scores {}",
        res.winner_id
            .as_deref()
            .map_or("no winner".to_string(), name),
        res.reason,
        res.forfeited_player_id
            .as_ref()
            .map_or(String::new(), |f| format!(", forfeited by {f}")),
        scores.join(" ")
    );
    out
}
