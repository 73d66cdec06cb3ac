#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub mod arena;
pub mod core;
pub mod games;
pub mod poker;
pub mod registry;
