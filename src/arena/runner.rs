//! The i151 arena's match runner, as the official `runner/match_runner.py` (0.2.4) runs a
//! match, and its JSON replay, in the exact shape of the official `game/recorder.py`.
//!
//! Two seats: `p0` the challenger, `p1` the opponent. Each decision the runner builds the
//! seat's view and the legal actions in the official order ([`Decision`]) and asks the
//! seat's [`ArenaBot`]; a bot that fails (an error), answers too late (after the decision
//! time limit) or answers an action that is not legal forfeits. A round that reaches the
//! per-round step limit forfeits the seat to act, as does a match that exceeds the match
//! time limit. The forfeiting seat adds only its hand's points to its score; the other
//! seat wins. Every match is recorded ([`Replay`], in [`super::replay`]).
//!
//! The module holds no thread, and its time comes from the caller ([`Clock`]): on the wall
//! clock the decision time is measured around the call (the official runner's fallback when
//! it cannot use `SIGALRM`), and a Python bot is pre-empted by its own adapter
//! (`python/cardvec/arena.py`); on a fixed clock every decision takes a set time, so a test's
//! result does not depend on how loaded the machine is.

use std::time::{Duration, Instant};

use super::replay::{
    build_replay, pid, replay_action, snapshot, HandOrder, Recorder, Replay, ReplayStep,
};
use crate::core::{Error, LaneRng, Result};
use crate::games::i151::bots::ViewPolicy;
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
            order.sort(seat);
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

/// The match seed of match `g` of a series seeded `seed` (63 bits from stream
/// `(seed, g, 0)`, a non-negative `i64`).
pub fn series_match_seed(seed: u64, g: u64) -> i64 {
    (LaneRng::for_lane(seed, g, 0).next_u64() >> 1) as i64
}

/// Plays match `g` of a series between two opponents (catalog ids or `policy:<path>`,
/// [`super::catalog::resolve_in`]) on `clock`: the seats alternate (`a`
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
    let game = cfg.game()?;
    let mut bot0 = PolicyBot::new(
        super::catalog::resolve_in(&game, first)?,
        LaneRng::for_lane(seed, g, 1),
    );
    let mut bot1 = PolicyBot::new(
        super::catalog::resolve_in(&game, second)?,
        LaneRng::for_lane(seed, g, 2),
    );
    let name0 = super::catalog::display_name(first)?;
    let name1 = super::catalog::display_name(second)?;
    let r = play_match(
        &cfg,
        clock,
        [&mut bot0, &mut bot1],
        [&name0, &name1],
        second,
    )?;
    Ok((r, a_first))
}
