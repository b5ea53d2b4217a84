//! Framing: cutting a transport's byte stream into frames, one JSON-RPC message each.
//!
//! [`LineFramer`] does it for stdio (newline-delimited JSON), and [`sse`] for the HTTP
//! transports' `text/event-stream` bodies. Both are part of the `no_std` core so that any
//! byte stream (a UART, a socket, a pipe, an HTTP body) can carry MCP.
//!
//! The line framer:
//!
//! * every chunking of the same stream gives the same lines and errors (chunk boundaries
//!   may split a UTF-8 sequence, a CRLF or the BOM);
//! * a trailing CR is stripped (CRLF line ends), and lines that are empty or hold only
//!   whitespace are skipped;
//! * a UTF-8 byte order mark at the very start of the stream is skipped;
//! * a line that does not fit the buffer (its newline included) is reported once, with its
//!   full length, when its newline arrives, and skipped; the lines after it are intact;
//! * end of input in the middle of a line is reported.
//!
//! Memory stays bounded by the buffer whatever the input, so a peer that never sends a
//! newline cannot exhaust it.

mod line;
mod prefix;
pub mod sse;

pub(crate) use line::LineState;
pub use line::{LineError, LineFramer};
pub(crate) use prefix::Prefix;
