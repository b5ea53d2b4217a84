//! # mcp-sansio
//!
//! The Model Context Protocol as a pure, sans-IO state machine: bytes and the current
//! time go in, events and outgoing frames come out. The core is `#![no_std]`, needs no
//! allocator, never reads a clock, spawns, blocks or does IO, and plugs into any event
//! loop.
//!
//! ## Layers
//!
//! * [`framing`]: byte streams into frames (newline-delimited JSON for stdio).
//! * [`wire`]: frames into JSON-RPC messages and back: strict validation, zero-copy
//!   spans, lazy typed decoding, and an encoder that never writes half a frame.
//! * [`mcp`]: the MCP vocabulary: versions, methods and where they are legal, capabilities.
//!
//! ## Panics and errors
//!
//! Nothing a peer sends can make this crate panic; the fuzz targets in `fuzz/` check
//! it. A peer's mistakes are reported as values describing the broken rule. `Err` is
//! reserved for the caller's own mistakes and for capacity limits, and says precisely
//! what was wrong ("buffer too small: frame needs 41 bytes, 16 free; nothing was
//! written").
#![cfg_attr(not(any(test, feature = "std")), no_std)]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;

pub mod framing;
pub mod mcp;
pub mod session;
pub mod time;
pub mod wire;

pub use mcp::{Method, ProtocolVersion, Role};
pub use session::{Config, Endpoint, Event, Output, RequestOptions};
pub use time::Instant;
