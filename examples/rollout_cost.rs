//! The cost of the rollouts inside the `pimc` search bot, for callgrind (an instruction
//! count, repeatable on a loaded machine, unlike a timing): one Lost Cities decision's
//! rollouts (the first 16 legal actions of a mid-game state x `--worlds` worlds dealt by the
//! game's determinization) played to the end by a playout bot, either as the lanes of one
//! batch environment on one worker (`batched`: `core::rollout::rollout_returns`) or one
//! state at a time through `Game::step` and `Bot::act` (`serial`:
//! `rollout_returns_serial`). Both return the same numbers (tests/search.rs); the example
//! prints the rollouts and the plies they played.
//!
//! ```text
//! cargo build --profile ci --example rollout_cost
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     target/ci/examples/rollout_cost batched safe-heuristic --worlds 40
//! ```
//!
//! Arguments: `MODE PLAYOUT [--worlds W]` (`MODE`: `batched` or `serial`; `PLAYOUT`: a Lost
//! Cities bot; default 40 worlds). The count includes dealing the worlds (the same in both
//! modes) and, for `batched`, building the environment.

use cardvec::core::rollout::{rollout_returns, rollout_returns_serial};
use cardvec::core::spec::GameSpec;

#[path = "../benches/common/rollout_case.rs"]
mod rollout_case;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: rollout_cost batched|serial PLAYOUT [--worlds W]";
    let mode = args.get(1).expect(usage).clone();
    let playout = args.get(2).expect(usage).clone();
    let worlds: u64 = match args.get(3).map(String::as_str) {
        Some("--worlds") => args.get(4).and_then(|w| w.parse().ok()).expect(usage),
        None => 40,
        Some(_) => panic!("{usage}"),
    };
    let (game, starts) = rollout_case::lost_cities_decision(worlds);
    let bot = game.bot(&playout).expect("a Lost Cities bot");
    let returns = match mode.as_str() {
        "batched" => rollout_returns(&game, &starts, &*bot, 3, Some(1)).unwrap(),
        "serial" => rollout_returns_serial(&game, &starts, &*bot, 3).unwrap(),
        _ => panic!("{usage}"),
    };
    let total: f32 = returns.iter().step_by(2).sum();
    println!("rollouts={} seat0_total={total}", starts.len());
}
