//! The forfeit rule of each game (`Game::forfeit_rewards`, what `on_illegal = lose` pays),
//! against the values docs/architecture.md ("Illegal actions") documents; the conformance
//! suite (`illegal_only`) checks the batch behaviour around it for every game.

use cardvec::core::policy::random_legal;
use cardvec::core::{EnvOptions, Game, LaneRng, OnIllegal, VecEnv};
use cardvec::games::flip7::Flip7;
use cardvec::games::holdem::{NoLimitHoldem, TableConfig};
use cardvec::games::i151::{RewardMode, I151};
use cardvec::games::kuhn::KuhnPoker;
use cardvec::games::leduc::LeducHoldem;
use cardvec::games::lost_cities::LostCities;

/// The forfeit rewards of `offender` in the deal of stream `seed`.
fn forfeit<G: Game>(game: &G, seed: u64, offender: usize) -> Vec<f32> {
    let state = game.reset(&mut LaneRng::from_seed(seed));
    let mut r = vec![0.0; game.num_players()];
    assert!(game.forfeit_rewards(&state, offender, &mut r));
    r
}

#[test]
fn two_seat_games_pay_the_largest_margin() {
    for off in 0..2 {
        let mut want = [0.0f32; 2];
        want[off] = -830.0;
        want[1 - off] = 830.0;
        assert_eq!(forfeit(&LostCities::default(), 1, off), want);
        want[off] = -2.0;
        want[1 - off] = 2.0;
        assert_eq!(forfeit(&KuhnPoker, 1, off), want);
        want[off] = -13.0;
        want[1 - off] = 13.0;
        assert_eq!(forfeit(&LeducHoldem, 1, off), want);
    }
}

#[test]
fn holdem_offender_loses_its_stack_to_the_others_shares() {
    let game = NoLimitHoldem::new(3, TableConfig::new(1, 2, 0).unwrap(), 100).unwrap();
    assert_eq!(forfeit(&game, 2, 1), [25.0, -50.0, 25.0]);
}

#[test]
fn i151_offender_loses_the_match() {
    let game = I151::new(3).unwrap().with_reward(RewardMode::MatchOutcome);
    assert_eq!(forfeit(&game, 3, 2), [0.5, 0.5, -1.0]);
    let game = I151::new(2).unwrap();
    let target = game.target_score() as f32;
    // A fresh match: every score 0, so the offender's rises by the whole target.
    assert_eq!(forfeit(&game, 3, 0), [-target, 0.0]);
}

#[test]
fn flip7_offender_gives_back_its_banked_total() {
    // Play random legal games until a round has banked points, then forfeit.
    let game = Flip7::new(3, 200, None).unwrap();
    let options = EnvOptions {
        on_illegal: OnIllegal::Lose,
        ..EnvOptions::new(8)
    };
    let mut env = VecEnv::new(game, options).unwrap();
    let mut rng = LaneRng::from_seed(5);
    let a = game.num_actions();
    let mut checked = 0;
    for _ in 0..200 {
        let acts: Vec<u32> = env
            .legal_mask()
            .chunks(a)
            .map(|m| random_legal(m, &mut rng))
            .collect();
        env.step(&acts).unwrap();
        for (i, s) in env.states().iter().enumerate() {
            let off = env.current_player()[i] as usize;
            let banked = s.scores()[off];
            if env.terminated()[i] || banked == 0 {
                continue;
            }
            let mut r = vec![0.0; 3];
            assert!(game.forfeit_rewards(s, off, &mut r));
            let mut want = vec![0.0; 3];
            want[off] = -(banked as f32);
            assert_eq!(r, want);
            checked += 1;
        }
    }
    assert!(checked > 0, "some seat had banked points");
}
