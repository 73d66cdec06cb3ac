//! bots
