//! The batch environment's compact-row fallback: a game that describes a compact format
//! (`Game::obs_format`) but has no direct encoder (`Game::observe_u8`) gets its `u8` rows by
//! observing into a scratch f32 row and converting it. Every registered game has a direct
//! encoder, so this test wraps Lost Cities without one and requires the same rows, step for
//! step, as Lost Cities' own encoder, and the f32 observation after conversion.

use cardvec::core::{EnvOptions, Game, LaneOutcome, LaneRng, ObsDtype, ObsFormat, VecEnv};
use cardvec::games::lost_cities::{LostCities, ObsLayout};

/// Lost Cities without its direct compact encoder.
#[derive(Clone)]
struct NoDirectEncoder(LostCities);

impl Game for NoDirectEncoder {
    type State = <LostCities as Game>::State;
    fn num_players(&self) -> usize {
        self.0.num_players()
    }
    fn num_actions(&self) -> usize {
        self.0.num_actions()
    }
    fn obs_dim(&self) -> usize {
        self.0.obs_dim()
    }
    fn reset(&self, rng: &mut LaneRng) -> Self::State {
        self.0.reset(rng)
    }
    fn reset_from_order(&self, order: &[u8]) -> cardvec::Result<Self::State> {
        self.0.reset_from_order(order)
    }
    fn current_player(&self, s: &Self::State) -> usize {
        self.0.current_player(s)
    }
    fn finished(&self, s: &Self::State) -> (bool, bool) {
        self.0.finished(s)
    }
    fn check_state(&self, s: &Self::State) -> Result<(), String> {
        self.0.check_state(s)
    }
    fn legal_mask(&self, s: &Self::State, mask: &mut [u8]) {
        self.0.legal_mask(s, mask)
    }
    fn step(&self, s: &mut Self::State, a: u32, rng: &mut LaneRng, r: &mut [f32]) -> LaneOutcome {
        self.0.step(s, a, rng, r)
    }
    fn observe(&self, s: &Self::State, player: usize, obs: &mut [f32]) {
        self.0.observe(s, player, obs)
    }
    fn obs_format(&self) -> ObsFormat {
        self.0.obs_format()
    }
}

fn env<G: Game>(game: G, dtype: ObsDtype) -> VecEnv<G> {
    let mut options = EnvOptions::new(37);
    options.seed = 9;
    options.num_threads = Some(2);
    options.chunk_size = 5;
    options.autoreset = true;
    options.obs_dtype = dtype;
    VecEnv::new(game, options).unwrap()
}

#[test]
fn the_conversion_fallback_writes_what_the_direct_encoder_writes() {
    for layout in [ObsLayout::CardMajor, ObsLayout::ChannelMajor] {
        let game = LostCities::new(layout);
        let mut direct = env(game, ObsDtype::U8);
        let mut fallback = env(NoDirectEncoder(game), ObsDtype::U8);
        let mut plain = env(game, ObsDtype::F32);
        let (n, a) = (direct.num_envs(), direct.game().num_actions());
        let format = direct.obs_format().clone();
        let (nb, nt, d) = (format.byte_dim(), format.tail_dim(), format.dim());
        let mut rng = LaneRng::from_seed(4);
        let mut row = vec![0f32; d];
        for step in 0..400 {
            assert_eq!(
                fallback.obs_u8(),
                direct.obs_u8(),
                "{layout:?} step {step}: bytes"
            );
            let bits = |x: &[f32]| x.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            assert_eq!(
                bits(fallback.obs_tail()),
                bits(direct.obs_tail()),
                "{layout:?} step {step}"
            );
            for i in 0..n {
                format.expand(
                    &fallback.obs_u8()[i * nb..(i + 1) * nb],
                    &fallback.obs_tail()[i * nt..(i + 1) * nt],
                    &mut row,
                );
                assert_eq!(
                    bits(&row),
                    bits(&plain.obs()[i * d..(i + 1) * d]),
                    "lane {i}"
                );
            }
            let actions: Vec<u32> = (0..n)
                .map(|i| {
                    let mask = &direct.legal_mask()[i * a..(i + 1) * a];
                    cardvec::core::policy::random_legal(mask, &mut rng)
                })
                .collect();
            direct.step(&actions).unwrap();
            fallback.step(&actions).unwrap();
            plain.step(&actions).unwrap();
        }
    }
}

/// A game without a forfeit rule (`Game::forfeit_rewards`, which this wrapper does not
/// forward) refuses `on_illegal = lose` when the environment is built, with an error that
/// says why and what to use instead; the other modes build.
#[test]
fn a_game_without_a_forfeit_rule_refuses_on_illegal_lose() {
    use cardvec::core::OnIllegal;
    let game = NoDirectEncoder(LostCities::new(ObsLayout::CardMajor));
    let options = |on_illegal| EnvOptions {
        on_illegal,
        ..EnvOptions::new(3)
    };
    let err = VecEnv::new(game.clone(), options(OnIllegal::Lose))
        .err()
        .expect("lose refused")
        .to_string();
    assert!(
        err.contains("on_illegal") && err.contains("forfeit") && err.contains("\"raise\""),
        "{err}"
    );
    for mode in [OnIllegal::Noop, OnIllegal::Raise] {
        assert!(VecEnv::new(game.clone(), options(mode)).is_ok());
    }
    // Lost Cities itself has one.
    assert!(VecEnv::new(game.0, options(OnIllegal::Lose)).is_ok());
}
