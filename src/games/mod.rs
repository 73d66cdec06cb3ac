//! The games. Each one is the rules of a single lane plus its reference engine, bots and
//! encoders; none knows threads or Python.

pub mod flip7;
pub mod holdem;
pub mod i151;
pub mod lost_cities;
