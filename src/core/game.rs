//! The lane contract: what a game supplies so the core can batch it ([`Game`]), and the
//! one-game interface ([`Playable`]) that the differential runner, bots and tools drive.

use super::error::Result;
use super::rng::LaneRng;

/// What happened to the action sent to a lane in one batch step (the `illegal` buffer).
///
/// Anything but [`ActionStatus::Applied`] means the action changed nothing and the lane's
/// rewards for this step are zero.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionStatus {
    /// The action was legal and was applied.
    Applied = 0,
    /// The action was illegal (out of range or masked out): a no-op.
    Illegal = 1,
    /// The lane had already finished and autoreset is off: a no-op.
    Finished = 2,
    /// The lane had finished and autoreset is on: it was reset and the action ignored.
    Reset = 3,
}

/// The result of applying one action to one lane.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LaneOutcome {
    /// Whether the action was legal and applied. When `false` nothing changed.
    pub applied: bool,
    /// The game reached a natural end.
    pub terminated: bool,
    /// The game was cut off (for example by a step limit).
    pub truncated: bool,
}

impl LaneOutcome {
    /// The outcome of an illegal action: nothing applied.
    pub const ILLEGAL: LaneOutcome = LaneOutcome {
        applied: false,
        terminated: false,
        truncated: false,
    };

    /// Whether the lane is finished after this step.
    pub fn done(&self) -> bool {
        self.terminated || self.truncated
    }
}

/// The rules of one game, written for a single lane.
///
/// A value of this type is the game's configuration (player count, options); the state of
/// one lane is the small `Copy` type [`Game::State`]. Every method is pure apart from the
/// state and the lane's random stream, so the core may run lanes on any thread in any
/// chunking and get the same results.
pub trait Game: Clone + Send + Sync + 'static {
    /// The complete state of one lane, fixed-size and copied with `memcpy`: plain bytes
    /// (`Pod`), so that a lane can be saved and restored as bytes. Not every byte pattern is
    /// a valid state: [`Game::check_state`] says which are.
    type State: bytemuck::Pod + Send + Sync + std::fmt::Debug + PartialEq;

    /// Number of seats.
    fn num_players(&self) -> usize;
    /// Size of the discrete action space.
    fn num_actions(&self) -> usize;
    /// Length of one observation row.
    fn obs_dim(&self) -> usize;

    /// A new game, dealt from `rng`.
    fn reset(&self, rng: &mut LaneRng) -> Self::State;
    /// [`Game::reset`] written over `state`, the same draws from `rng` and the same state (the
    /// conformance checks compare them). The batch calls it for every lane it resets; the
    /// default returns a new state and copies it, and a game with a large state writes the
    /// lane in place instead (one write of the state, no copy through the stack).
    #[inline]
    fn reset_into(&self, rng: &mut LaneRng, state: &mut Self::State) {
        *state = self.reset(rng);
    }
    /// A new game with every hidden card set explicitly (the game documents the format).
    fn reset_from_order(&self, order: &[u8]) -> Result<Self::State>;

    /// The seat to act (after the end: whatever the game documents).
    fn current_player(&self, state: &Self::State) -> usize;
    /// Whether the game is over: `(terminated, truncated)`.
    fn finished(&self, state: &Self::State) -> (bool, bool);
    /// Checks that `state` is a state of this configuration that every method may be called
    /// on without panicking and whose steps keep it valid: what
    /// [`crate::core::VecEnv::set_state`] requires of a state set from outside. Every state
    /// the engine reaches passes.
    fn check_state(&self, state: &Self::State) -> std::result::Result<(), String>;
    /// Writes the legal mask (`1` legal, `0` not) into `mask` (`num_actions` long). All zero
    /// once the game is over.
    fn legal_mask(&self, state: &Self::State, mask: &mut [u8]);
    /// Applies `action` for the current player. An illegal action (any `u32`) or an action on
    /// a finished game changes nothing and returns [`LaneOutcome::ILLEGAL`]. `rewards`
    /// (`num_players` long, zeroed by the caller) receives each seat's reward for the step.
    fn step(
        &self,
        state: &mut Self::State,
        action: u32,
        rng: &mut LaneRng,
        rewards: &mut [f32],
    ) -> LaneOutcome;
    /// Writes the observation of `state` as seen by `player` into `obs` (`obs_dim` long).
    fn observe(&self, state: &Self::State, player: usize, obs: &mut [f32]);
    /// The rewards of a game that is over as dealt: for a game whose [`Game::reset`] or
    /// [`Game::reset_from_order`] can return a finished state (a hold'em hand in which
    /// nobody has a decision is played out at the deal), writes each seat's reward for that
    /// whole game into `rewards` (`num_players` long, zeroed by the caller). The batch
    /// environment shows them with the deal: after construction, `reset`, `reset_lanes`,
    /// an autoreset and `reset_lane_from_order` (a lane dealt live shows zeros).
    ///
    /// Called only on a state fresh from a reset, before any step. The default writes
    /// nothing: no game of the default kind ends at its deal.
    #[inline]
    fn deal_rewards(&self, state: &Self::State, rewards: &mut [f32]) {
        let _ = (state, rewards);
    }
    /// The forfeit rule, what [`OnIllegal::Lose`](super::env::OnIllegal::Lose) applies
    /// when seat `offender` sends an illegal action in `state` (a live state): writes every
    /// seat's reward for the forfeit into `rewards` (`num_players` long, zeroed by the
    /// caller), the offender taking the game's worst result as its documentation states it
    /// (zero-sum where the game's rewards are), and returns `true`; the batch environment
    /// then ends the lane (`terminated`). Returns `false`, having written nothing, for a game
    /// without a forfeit rule (the same answer for every state): such a game refuses
    /// `on_illegal = lose` when an environment is built. The default has none.
    #[inline]
    fn forfeit_rewards(&self, state: &Self::State, offender: usize, rewards: &mut [f32]) -> bool {
        let _ = (state, offender, rewards);
        false
    }
    /// Whether `action`, an id outside `0..num_actions`, names an action that
    /// [`Game::step`] may accept although no mask entry covers it (hold'em's exact raise-to
    /// ids). The default: none.
    #[inline]
    fn is_extended_action(&self, action: u32) -> bool {
        let _ = action;
        false
    }
    /// Incremental [`Game::observe`]: `obs` holds this lane's observation (as seen by any
    /// player) of the state as it was before the last applied [`Game::step`] on `state`;
    /// brings it up to date for `player`, writing only what that step changed, so that `obs`
    /// afterwards equals what `observe(state, player, obs)` writes. Returns `false`, having
    /// written nothing, if the game does not support it (the caller then calls `observe`).
    ///
    /// The caller guarantees the precondition: it uses this only right after a step that
    /// was applied to a lane whose row was in sync before the step (never after a reset or
    /// a state set from outside). The default supports nothing.
    #[inline]
    fn observe_update(&self, state: &Self::State, player: usize, obs: &mut [f32]) -> bool {
        let _ = (state, player, obs);
        false
    }
    /// Incremental [`Game::observe`] of every seat (the batch option
    /// [`ObsSeats::All`](super::env::ObsSeats::All)): `rows` holds `num_players` rows of
    /// `obs_dim` values, row `s` the observation of `before` as seen by seat `s`, and
    /// `state` is `before` after one applied [`Game::step`]; brings every row up to date,
    /// writing only what that step changed in each seat's view, so that row `s` afterwards
    /// equals what `observe(state, s, row)` writes. Returns `false`, having written
    /// nothing, if the game does not support it (the caller then observes every seat).
    /// The caller guarantees the precondition, as for [`Game::observe_update`]. The default
    /// supports nothing.
    #[inline]
    fn observe_seats_update(
        &self,
        before: &Self::State,
        state: &Self::State,
        rows: &mut [f32],
    ) -> bool {
        let _ = (before, state, rows);
        false
    }
    /// The exact mapping of this configuration's f32 observation onto the compact `u8`
    /// format ([`super::obs`]): which values are bytes `q / div` and which stay f32. Called
    /// once when a batch environment is built. The default keeps every value as f32 (exact,
    /// saves nothing); a game describes its one-hot blocks and small counts here.
    fn obs_format(&self) -> super::obs::ObsFormat {
        super::obs::ObsFormat::all_f32(self.obs_dim())
    }
    /// The compact observation of `state` as seen by `player`, written directly: `bytes`
    /// (`byte_dim` long) and `tail` (`tail_dim` long) of [`Game::obs_format`], equal to what
    /// [`super::obs::ObsFormat::compress`] makes of [`Game::observe`]'s row. Returns `false`,
    /// having written nothing, if the game has no direct encoder (the caller then observes
    /// into a scratch f32 row and compresses it). The default has none.
    #[inline]
    fn observe_u8(
        &self,
        state: &Self::State,
        player: usize,
        bytes: &mut [u8],
        tail: &mut [f32],
    ) -> bool {
        let _ = (state, player, bytes, tail);
        false
    }
    /// A cache hint, called for a lane before its step in an observed batch step whose rows
    /// are in sync: asks for the lines of `obs` (this lane's row) that the step's
    /// [`Game::observe_update`] will probably write. Changes nothing. The default asks for
    /// the whole row, right for a game that observes in full.
    #[inline]
    fn prefetch_observe_update(&self, state: &Self::State, obs: &[f32]) {
        let _ = state;
        super::simd::prefetch(obs);
    }
}

/// One game driven step by step: the shape the differential runner, bots and tools share.
/// Implemented by every reference engine and, through [`SingleLane`], by every fast engine.
pub trait Playable {
    /// Number of seats.
    fn num_players(&self) -> usize;
    /// Size of the discrete action space.
    fn num_actions(&self) -> usize;
    /// Length of one observation row.
    fn obs_dim(&self) -> usize;
    /// The seat to act.
    fn current_player(&self) -> usize;
    /// `(terminated, truncated)`.
    fn finished(&self) -> (bool, bool);
    /// Writes the legal mask.
    fn legal_mask(&self, mask: &mut [u8]);
    /// Applies an action; `rewards` must be zeroed by the caller.
    fn step(&mut self, action: u32, rewards: &mut [f32]) -> LaneOutcome;
    /// Writes the observation as seen by `player`.
    fn observe(&self, player: usize, obs: &mut [f32]);
    /// See [`Game::is_extended_action`].
    fn is_extended_action(&self, action: u32) -> bool {
        let _ = action;
        false
    }
    /// The rewards of a game that is over as dealt, as [`Game::deal_rewards`]: meaningful
    /// only before the first step; `rewards` must be zeroed by the caller. The default
    /// writes nothing.
    fn deal_rewards(&self, rewards: &mut [f32]) {
        let _ = rewards;
    }
}

/// A fast-engine lane packaged as a [`Playable`]: the game, one state, one random stream.
#[derive(Clone, Debug)]
pub struct SingleLane<G: Game> {
    /// The game's configuration.
    pub game: G,
    /// The lane's state.
    pub state: G::State,
    /// The lane's random stream.
    pub rng: LaneRng,
}

impl<G: Game> SingleLane<G> {
    /// A lane dealt from `rng`.
    pub fn new(game: G, mut rng: LaneRng) -> Self {
        let state = game.reset(&mut rng);
        SingleLane { game, state, rng }
    }

    /// A lane dealt from an explicit order; `rng` serves later randomness, if the game has any.
    pub fn from_order(game: G, order: &[u8], rng: LaneRng) -> Result<Self> {
        let state = game.reset_from_order(order)?;
        Ok(SingleLane { game, state, rng })
    }
}

impl<G: Game> Playable for SingleLane<G> {
    fn num_players(&self) -> usize {
        self.game.num_players()
    }
    fn num_actions(&self) -> usize {
        self.game.num_actions()
    }
    fn obs_dim(&self) -> usize {
        self.game.obs_dim()
    }
    fn current_player(&self) -> usize {
        self.game.current_player(&self.state)
    }
    fn finished(&self) -> (bool, bool) {
        self.game.finished(&self.state)
    }
    fn legal_mask(&self, mask: &mut [u8]) {
        self.game.legal_mask(&self.state, mask)
    }
    fn step(&mut self, action: u32, rewards: &mut [f32]) -> LaneOutcome {
        self.game
            .step(&mut self.state, action, &mut self.rng, rewards)
    }
    fn observe(&self, player: usize, obs: &mut [f32]) {
        self.game.observe(&self.state, player, obs)
    }
    fn is_extended_action(&self, action: u32) -> bool {
        self.game.is_extended_action(action)
    }
    fn deal_rewards(&self, rewards: &mut [f32]) {
        self.game.deal_rewards(&self.state, rewards)
    }
}

/// A borrowed engine plays like the engine itself (so comparisons can borrow).
impl<P: Playable + ?Sized> Playable for &mut P {
    fn num_players(&self) -> usize {
        (**self).num_players()
    }
    fn num_actions(&self) -> usize {
        (**self).num_actions()
    }
    fn obs_dim(&self) -> usize {
        (**self).obs_dim()
    }
    fn current_player(&self) -> usize {
        (**self).current_player()
    }
    fn finished(&self) -> (bool, bool) {
        (**self).finished()
    }
    fn legal_mask(&self, mask: &mut [u8]) {
        (**self).legal_mask(mask)
    }
    fn step(&mut self, action: u32, rewards: &mut [f32]) -> LaneOutcome {
        (**self).step(action, rewards)
    }
    fn observe(&self, player: usize, obs: &mut [f32]) {
        (**self).observe(player, obs)
    }
    fn is_extended_action(&self, action: u32) -> bool {
        (**self).is_extended_action(action)
    }
    fn deal_rewards(&self, rewards: &mut [f32]) {
        (**self).deal_rewards(rewards)
    }
}
