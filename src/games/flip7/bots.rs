//! Flip 7 bots (placeholder, filled in below).
