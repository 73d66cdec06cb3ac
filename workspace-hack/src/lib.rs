//! No code: this crate's manifest asks for the union of the dependency features of the
//! workspace's builds (see its Cargo.toml).
