//! Framing: cutting a transport's byte stream into frames, one JSON-RPC message each.
//!
//! [`LineFramer`] does it for stdio (newline-delimited JSON). It is part of the
//! `no_std` core so that any byte stream (a UART, a socket, a pipe) can carry MCP.

mod line;

pub use line::{LineError, LineFramer};
