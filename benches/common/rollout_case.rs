//! The rollouts of one Lost Cities decision, the case that `benches/rollouts.rs` times and
//! `examples/rollout_cost.rs` counts under callgrind (both include this file, so they
//! measure the same rollouts): a mid-game state (20 random plies from seed 11), its first
//! 16 legal actions, each started in `worlds` worlds dealt by the game's determinization
//! for the seat to act (world `w` from stream `(5, w, 0)`).

use cardvec::core::policy::random_legal;
use cardvec::core::spec::GameSpec;
use cardvec::core::{Game, LaneRng};
use cardvec::games::lost_cities::{LostCities, N_ACTIONS};

/// The game and its `(state, first action)` rollout starts: actions in order, `worlds`
/// starts each.
pub fn lost_cities_decision(worlds: u64) -> (LostCities, Vec<(<LostCities as Game>::State, u32)>) {
    let game = LostCities::default();
    let mut rng = LaneRng::from_seed(11);
    let mut state = game.reset(&mut rng);
    let mut mask = [0u8; N_ACTIONS];
    let mut rewards = [0f32; 2];
    for _ in 0..20 {
        game.legal_mask(&state, &mut mask);
        game.step(
            &mut state,
            random_legal(&mask, &mut rng),
            &mut rng,
            &mut rewards,
        );
    }
    game.legal_mask(&state, &mut mask);
    let legal: Vec<u32> = (0..N_ACTIONS as u32)
        .filter(|&a| mask[a as usize] != 0)
        .take(16)
        .collect();
    let det = LostCities::determinizer().expect("Lost Cities has a determinization");
    let seat = game.current_player(&state);
    let starts = legal
        .iter()
        .flat_map(|&a| {
            (0..worlds).map(move |w| (det(&game, &state, seat, &mut LaneRng::for_lane(5, w, 0)), a))
        })
        .collect();
    (game, starts)
}
