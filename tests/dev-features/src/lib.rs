//! Empty: this crate exists for its dependency's features (see its Cargo.toml).
