//! The cost of one batch step, for callgrind: steps a fixed batch a fixed number of times
//! (autoreset on, one thread, the random legal policy of `cardvec bench`) for one game and
//! one observation mode, and prints the live steps it made. Under callgrind started with
//! instrumentation off, it switches instrumentation on for each `VecEnv::step` call only
//! (a client request; instrumentation is global, so the pool's worker thread is counted
//! and the policy is not), so the instruction count over the live steps is the cost of a
//! live step, repeatable on a loaded machine (unlike a timing). `scripts/step_cost.py`
//! runs it and prints the quotient:
//!
//! ```text
//! cargo build --release --example step_cost
//! valgrind --tool=callgrind --instr-atstart=no \
//!     target/release/examples/step_cost lost-cities f32 -o obs_layout=channel-major
//! ```
//!
//! Arguments: `GAME MODE [--envs N] [--steps S] [--players P] [-o NAME=VALUE]...`, where `MODE` is `mask`
//! (step and legal mask only), `f32` or `u8` (with the observation rows of that dtype), or
//! `seats` (f32 rows of every seat, `obs_seats = all`).
//! Defaults: 512 lanes, 256 steps (long enough for the autoresets of every game).

use cardvec::core::policy::RandomDriver;
use cardvec::core::spec::{GameSpec, OptionValue, Options};
use cardvec::core::{ActionStatus, EnvOptions, ObsDtype, ObsSeats, Result, VecEnv};
use cardvec::registry::{self, Visitor};

struct StepCost {
    options: Options,
    mode: Option<ObsDtype>,
    seats: ObsSeats,
    envs: usize,
    steps: usize,
}

impl Visitor for StepCost {
    type Output = Result<u64>;
    fn visit<G: GameSpec>(&mut self) -> Result<u64> {
        let game = G::configure(&self.options)?;
        let mut options = EnvOptions::new(self.envs);
        options.num_threads = Some(1);
        options.autoreset = true;
        options.observe_on_step = self.mode.is_some();
        options.obs_dtype = self.mode.unwrap_or_default();
        options.obs_seats = self.seats;
        let mut env = VecEnv::new(game, options)?;
        let mut driver = RandomDriver::new(self.envs, 0)?;
        let mut live = 0;
        for _ in 0..self.steps {
            driver.choose(&env);
            callgrind::start_instrumentation();
            let stepped = env.step(driver.actions());
            callgrind::stop_instrumentation();
            stepped?;
            live += env
                .illegal()
                .iter()
                .filter(|&&s| s == ActionStatus::Applied as u8)
                .count() as u64;
        }
        Ok(live)
    }
}

fn main() -> Result<()> {
    let usage =
        "usage: step_cost GAME mask|f32|u8|seats [--envs N] [--steps S] [--players P] [-o NAME=VALUE]...";
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (game, mode) = match args.as_slice() {
        [game, mode, ..] => (game.clone(), mode.clone()),
        _ => panic!("{usage}"),
    };
    let (mode, seats) = match mode.as_str() {
        "mask" => (None, ObsSeats::Acting),
        "seats" => (Some(ObsDtype::F32), ObsSeats::All),
        dtype => (Some(ObsDtype::parse(dtype)?), ObsSeats::Acting),
    };
    let (mut envs, mut steps, mut pairs) = (512, 256, Vec::new());
    let mut rest = args[2..].iter();
    while let Some(flag) = rest.next() {
        let value = rest.next().unwrap_or_else(|| panic!("{usage}"));
        match flag.as_str() {
            "--envs" => envs = value.parse().expect("--envs takes a number"),
            "--steps" => steps = value.parse().expect("--steps takes a number"),
            "--players" => pairs.push((
                "num_players".to_string(),
                OptionValue::Int(value.parse().expect("--players takes a number")),
            )),
            "-o" => {
                let (k, v) = value.split_once('=').unwrap_or_else(|| panic!("{usage}"));
                pairs.push((k.to_string(), OptionValue::parse(v)));
            }
            _ => panic!("{usage}"),
        }
    }
    let options = registry::options(&game, pairs)?;
    let live = registry::visit(
        &game,
        &mut StepCost {
            options,
            mode,
            seats,
            envs,
            steps,
        },
    )??;
    println!("live_steps={live}");
    Ok(())
}

#[path = "step_cost/callgrind.rs"]
mod callgrind;
