//! The reference engine (being written).
