//! The games, and the table of games. Each game is the rules of a single lane plus its
//! reference engine, bots and encoders, in its own folder with the same files as every other
//! game (see `docs/architecture.md`); none knows threads, clocks or Python.
//!
//! The table below is the registry (`crate::registry`): one line per game, `folder::Type`
//! where `Type` is the game's configuration and implements `GameSpec`. It declares the
//! game's module too, so adding a game is its folder plus one line here.

crate::registry::register_games! {
    lost_cities::LostCities,
    flip7::Flip7,
    i151::I151,
    holdem::NoLimitHoldem,
    kuhn::KuhnPoker,
    leduc::LeducHoldem,
}
