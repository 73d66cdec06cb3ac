//! [`DynEnv`]: a [`VecEnv`] of any registered game behind one object type, for callers that
//! pick the game at run time (the Python `cardvec.make`, tools that take a game id). One
//! virtual call per batch operation; the per-lane work is the game's own, inlined as always.

use std::any::Any;

use super::env::{EnvOptions, VecEnv};
use super::error::{Error, Result};
use super::obs::ObsFormat;
use super::spec::{GameInfo, GameSpec, Options};
use super::tree::InfoSeats;
use super::words::Outcome;

/// A batch environment of some registered game: everything [`VecEnv`] offers, without its
/// type parameter. Lane states cross this interface as bytes.
pub trait DynEnv: Send + Sync {
    /// The game's registry entry.
    fn info(&self) -> &'static GameInfo;
    /// The game's configuration, every option given.
    fn config(&self) -> Options;
    /// Whether every step's rewards sum to zero over the seats.
    fn zero_sum(&self) -> bool;
    /// Number of lanes.
    fn num_envs(&self) -> usize;
    /// Number of seats.
    fn num_players(&self) -> usize;
    /// Size of the action space.
    fn num_actions(&self) -> usize;
    /// Length of one observation row.
    fn obs_dim(&self) -> usize;
    /// The options the environment was built with (the seed is the last reset's).
    fn env_options(&self) -> &EnvOptions;
    /// See [`VecEnv::set_autoreset`].
    fn set_autoreset(&mut self, on: bool);
    /// See [`VecEnv::set_observe_on_step`].
    fn set_observe_on_step(&mut self, on: bool);
    /// See [`VecEnv::reset`].
    fn reset(&mut self, seed: u64);
    /// [`VecEnv::reset_seeds`]: a seed per lane.
    fn reset_seeds(&mut self, seeds: &[u64]) -> Result<()>;
    /// See [`VecEnv::step`].
    fn step(&mut self, actions: &[u32]) -> Result<()>;
    /// See [`VecEnv::observe`].
    fn observe(&mut self);
    /// See [`VecEnv::reset_lanes`].
    fn reset_lanes(&mut self, mask: &[bool]) -> Result<()>;
    /// See [`VecEnv::reset_lane_from_order`].
    fn reset_lane_from_order(&mut self, lane: usize, order: &[u8]) -> Result<()>;
    /// See [`VecEnv::gather`].
    fn gather(&mut self, sources: &[usize]) -> Result<()>;
    /// See [`VecEnv::observe_as`].
    fn observe_as(&self, lane: usize, player: usize, out: &mut [f32]) -> Result<()>;
    /// Observations `[N, obs_dim]` (empty unless the dtype is f32).
    fn obs(&self) -> &[f32];
    /// See [`VecEnv::legal_bits`].
    fn legal_bits(&self, out: &mut [u64]) -> Result<()>;
    /// See [`VecEnv::obs_u8`].
    fn obs_u8(&self) -> &[u8];
    /// See [`VecEnv::obs_tail`].
    fn obs_tail(&self) -> &[f32];
    /// See [`VecEnv::obs_format`].
    fn obs_format(&self) -> &ObsFormat;
    /// Legal masks `[N, num_actions]`.
    fn legal_mask(&self) -> &[u8];
    /// Rewards of the last step `[N, num_players]`.
    fn rewards(&self) -> &[f32];
    /// Natural end flags `[N]`.
    fn terminated(&self) -> &[bool];
    /// Cut-off flags `[N]`.
    fn truncated(&self) -> &[bool];
    /// Seat to act `[N]`.
    fn current_player(&self) -> &[i32];
    /// Action status codes of the last step `[N]`.
    fn illegal(&self) -> &[u8];
    /// Episode counters `[N]`.
    fn episodes(&self) -> &[u64];
    /// See [`VecEnv::info_state_dim`] (`None`: the game has no information states).
    fn info_state_dim(&self) -> Option<usize>;
    /// See [`VecEnv::write_info_states`].
    fn write_info_states(&self, seats: InfoSeats<'_>, out: &mut [f32]) -> Result<()>;
    /// See [`VecEnv::info_state_key`].
    fn info_state_key(&self, lane: usize, player: usize) -> Result<Vec<u8>>;
    /// See [`VecEnv::info_state_string`].
    fn info_state_string(&self, lane: usize, player: usize) -> Result<String>;
    /// Size in bytes of one lane state.
    fn state_len(&self) -> usize;
    /// See [`VecEnv::state_bytes`].
    fn state_bytes(&self, lane: usize) -> Result<&[u8]>;
    /// See [`VecEnv::set_state_bytes`].
    fn set_state_bytes(&mut self, lane: usize, bytes: &[u8]) -> Result<()>;
    /// See [`VecEnv::snapshot`].
    fn snapshot(&self) -> Vec<u8>;
    /// The name of `action` in lane `lane`'s state ([`crate::core::Words::action_name`]).
    fn action_name(&self, lane: usize, action: u32) -> Result<String>;
    /// What `seat` sees of lane `lane` ([`crate::core::Words::view`]; `reveal`: every card shown).
    fn view(&self, lane: usize, seat: usize, reveal: bool) -> Result<serde_json::Value>;
    /// [`Words::move_text`](crate::core::Words::move_text): `action` as played in lane
    /// `lane`, which was in the state `before` (its [`DynEnv::state_bytes`] taken before the
    /// step) and is now in the state it led to.
    fn move_text(&self, lane: usize, before: &[u8], action: u32) -> Result<String>;
    /// How lane `lane`'s game ended ([`crate::core::Words::outcome`]; `None` while it runs).
    fn outcome(&self, lane: usize) -> Result<Option<Outcome>>;
    /// Lane `lane`'s state as one line of text ([`crate::core::Words::state_text`]).
    fn state_text(&self, lane: usize) -> Result<String>;
    /// Sets lane `lane` from a state text ([`crate::core::Words::parse_state`], then as
    /// [`VecEnv::set_state`]); a bad text is an error that changes nothing.
    fn set_state_text(&mut self, lane: usize, text: &str) -> Result<()>;
    /// Lane `lane`'s state determinized for `seat` ([`crate::core::Determinize`]: the cards
    /// `seat` cannot see dealt afresh from a stream seeded by `seed`), as state bytes for
    /// [`DynEnv::set_state_bytes`]; the lane does not change. A game without the capability
    /// or a seat out of range is an error.
    fn determinize(&self, lane: usize, seat: usize, seed: u64) -> Result<Vec<u8>>;
    /// The environment itself, to downcast to its [`VecEnv`] type.
    fn as_any(&self) -> &dyn Any;
    /// The environment itself, mutably, to downcast to its [`VecEnv`] type.
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<G: GameSpec> DynEnv for VecEnv<G> {
    fn info(&self) -> &'static GameInfo {
        &G::INFO
    }
    fn config(&self) -> Options {
        self.game().options()
    }
    fn zero_sum(&self) -> bool {
        self.game().zero_sum()
    }
    fn num_envs(&self) -> usize {
        VecEnv::num_envs(self)
    }
    fn num_players(&self) -> usize {
        self.game().num_players()
    }
    fn num_actions(&self) -> usize {
        self.game().num_actions()
    }
    fn obs_dim(&self) -> usize {
        self.game().obs_dim()
    }
    fn env_options(&self) -> &EnvOptions {
        self.options()
    }
    fn set_autoreset(&mut self, on: bool) {
        VecEnv::set_autoreset(self, on)
    }
    fn set_observe_on_step(&mut self, on: bool) {
        VecEnv::set_observe_on_step(self, on)
    }
    fn reset_seeds(&mut self, seeds: &[u64]) -> Result<()> {
        VecEnv::reset_seeds(self, seeds)
    }
    fn reset(&mut self, seed: u64) {
        VecEnv::reset(self, seed)
    }
    fn step(&mut self, actions: &[u32]) -> Result<()> {
        VecEnv::step(self, actions)
    }
    fn observe(&mut self) {
        VecEnv::observe(self)
    }
    fn reset_lanes(&mut self, mask: &[bool]) -> Result<()> {
        VecEnv::reset_lanes(self, mask)
    }
    fn reset_lane_from_order(&mut self, lane: usize, order: &[u8]) -> Result<()> {
        VecEnv::reset_lane_from_order(self, lane, order)
    }
    fn gather(&mut self, sources: &[usize]) -> Result<()> {
        VecEnv::gather(self, sources)
    }
    fn observe_as(&self, lane: usize, player: usize, out: &mut [f32]) -> Result<()> {
        VecEnv::observe_as(self, lane, player, out)
    }
    fn obs(&self) -> &[f32] {
        VecEnv::obs(self)
    }
    fn obs_u8(&self) -> &[u8] {
        VecEnv::obs_u8(self)
    }
    fn legal_bits(&self, out: &mut [u64]) -> Result<()> {
        VecEnv::legal_bits(self, out)
    }
    fn obs_tail(&self) -> &[f32] {
        VecEnv::obs_tail(self)
    }
    fn obs_format(&self) -> &ObsFormat {
        VecEnv::obs_format(self)
    }
    fn legal_mask(&self) -> &[u8] {
        VecEnv::legal_mask(self)
    }
    fn rewards(&self) -> &[f32] {
        VecEnv::rewards(self)
    }
    fn terminated(&self) -> &[bool] {
        VecEnv::terminated(self)
    }
    fn truncated(&self) -> &[bool] {
        VecEnv::truncated(self)
    }
    fn current_player(&self) -> &[i32] {
        VecEnv::current_player(self)
    }
    fn illegal(&self) -> &[u8] {
        VecEnv::illegal(self)
    }
    fn episodes(&self) -> &[u64] {
        VecEnv::episodes(self)
    }
    fn info_state_dim(&self) -> Option<usize> {
        VecEnv::info_state_dim(self)
    }
    fn write_info_states(&self, seats: InfoSeats<'_>, out: &mut [f32]) -> Result<()> {
        VecEnv::write_info_states(self, seats, out)
    }
    fn info_state_key(&self, lane: usize, player: usize) -> Result<Vec<u8>> {
        VecEnv::info_state_key(self, lane, player)
    }
    fn info_state_string(&self, lane: usize, player: usize) -> Result<String> {
        VecEnv::info_state_string(self, lane, player)
    }
    fn state_len(&self) -> usize {
        std::mem::size_of::<G::State>()
    }
    fn state_bytes(&self, lane: usize) -> Result<&[u8]> {
        VecEnv::state_bytes(self, lane)
    }
    fn set_state_bytes(&mut self, lane: usize, bytes: &[u8]) -> Result<()> {
        VecEnv::set_state_bytes(self, lane, bytes)
    }
    fn snapshot(&self) -> Vec<u8> {
        VecEnv::snapshot(self)
    }
    fn action_name(&self, lane: usize, action: u32) -> Result<String> {
        Ok(self.game().action_name(self.state(lane)?, action))
    }
    fn move_text(&self, lane: usize, before: &[u8], action: u32) -> Result<String> {
        crate::core::error::Error::check_len(
            "state bytes",
            std::mem::size_of::<G::State>(),
            before.len(),
        )?;
        let before: G::State = bytemuck::pod_read_unaligned(before);
        Ok(self.game().move_text(&before, action, self.state(lane)?))
    }
    fn view(&self, lane: usize, seat: usize, reveal: bool) -> Result<serde_json::Value> {
        crate::core::error::Error::check_range(
            "seat",
            0,
            self.game().num_players() as i64 - 1,
            seat as i64,
        )?;
        Ok(self.game().view(self.state(lane)?, seat, reveal))
    }
    fn outcome(&self, lane: usize) -> Result<Option<Outcome>> {
        Ok(self.game().outcome(self.state(lane)?))
    }
    fn state_text(&self, lane: usize) -> Result<String> {
        Ok(self.game().state_text(self.state(lane)?))
    }
    fn set_state_text(&mut self, lane: usize, text: &str) -> Result<()> {
        self.state(lane)?;
        let state = self.game().parse_state(text)?;
        VecEnv::set_state(self, lane, state)
    }
    fn determinize(&self, lane: usize, seat: usize, seed: u64) -> Result<Vec<u8>> {
        let state = self.state(lane)?;
        let determinize = G::determinizer().ok_or_else(|| Error::Invalid {
            what: "game",
            reason: format!("{} has no determinization", G::INFO.id),
        })?;
        Error::check_range("seat", 0, self.game().num_players() - 1, seat)?;
        let mut rng = crate::core::LaneRng::from_seed(seed);
        let sample = determinize(self.game(), state, seat, &mut rng);
        Ok(bytemuck::bytes_of(&sample).to_vec())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}
