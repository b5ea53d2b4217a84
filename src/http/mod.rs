//! The sans-IO HTTP layer for MCP's two HTTP transports (Streamable HTTP, and the
//! 2024-11-05 HTTP+SSE transport).
//!
//! Like the rest of the core it does no IO: request and response parts go in as bytes
//! and what to send comes out, so it runs over any HTTP stack, from a socket loop with
//! `httparse` to a hyper or axum service, and on a microcontroller. The event-stream
//! framing it relies on is [`crate::framing::sse`].
//!
//! * [`headers`]: the grammars and validators of the header values the transports read
//!   and write (`Accept`, `Content-Type`, `WWW-Authenticate`, the MCP headers, `Origin`
//!   and `Host`, and the 2026-07-28 base64 sentinel).
//! * [`server`]: the server core for Streamable HTTP and the legacy HTTP+SSE transport:
//!   request classification, refusals, session ids and the session table, and each
//!   session's SSE streams.
//! * [`client`]: the client core: outgoing messages into HTTP requests, responses into
//!   incoming messages, with the session id, resumption, the legacy fallback and auth.

pub mod client;
pub mod headers;
pub mod server;
