//! # mcp-sansio
//!
//! The Model Context Protocol as a pure, sans-IO state machine: bytes and the current
//! time go in, events and outgoing frames come out. The core is `#![no_std]`, needs no
//! allocator, never reads a clock, spawns, blocks or does IO, and plugs into any event
//! loop: blocking threads, smol, tokio, an embedded executor, a test on a virtual clock.
//!
//! ## Layers
//!
//! * [`framing`]: byte streams into frames (newline-delimited JSON for stdio,
//!   Server-Sent Events for HTTP).
//! * [`http`]: the sans-IO HTTP layer: header grammars for the HTTP transports, and the
//!   Streamable HTTP and legacy HTTP+SSE server core.
//! * [`wire`]: frames into JSON-RPC messages and back: strict validation, zero-copy
//!   spans, lazy typed decoding, and an encoder that never writes half a frame.
//! * [`mcp`]: the MCP vocabulary: versions, methods and where they are legal, capabilities.
//! * [`session`]: the [`Endpoint`] state machine for either role.
//!
//! ## The drain rule
//!
//! An [`Endpoint`] changes only when it is given an input (`handle_*`) or a command
//! (`send_*`, `respond*`, `abandon`, `cancel`, `close`). **After each one, call
//! [`poll_output`](Endpoint::poll_output) until it returns [`Output::Idle`]**: it hands
//! out, in order, bytes to write ([`Output::Transmit`]: everything queued in one write,
//! or in [message mode](session::OutputMode) one message at a time with the
//! [`Origin`](session::Origin) of the request it belongs to), [`Event`]s, and finally
//! the next deadline. Then wait for exactly one thing, more input or that deadline, and
//! feed it in. Time is an input too: pass the current [`Instant`] with every call;
//! [`handle_timeout`](Endpoint::handle_timeout) may be called early or repeatedly without
//! harm. A transport that writes only part of a transmit says so with
//! [`sent`](Endpoint::sent); the rest comes first at the next poll.
//!
//! A request is answered through its handle while the event is at hand, or later (from
//! a worker, say) through [`Endpoint::respond`] with the [`PendingRequest`](session::PendingRequest)
//! the handle gave; either way exactly once, and an answer to a request that is over
//! (cancelled by the peer, say) writes nothing.
//!
//! A complete server loop, here over an in-memory "stdin" cut into arbitrary chunks
//! (with real stdio, read into the chunk and wait with the deadline as the timeout):
//!
//! ```
//! use mcp_sansio::mcp::{Implementation, ListChanged, ServerCapabilities};
//! use mcp_sansio::session::PendingRequest;
//! use mcp_sansio::wire::{ErrorCode, JsonStr, RawJson};
//! use mcp_sansio::{Config, Endpoint, Event, Instant, Method, Output, Role};
//!
//! #[derive(serde::Deserialize)]
//! struct EchoArgs<'a> {
//!     #[serde(borrow)]
//!     text: JsonStr<'a>,
//! }
//! #[derive(serde::Serialize)]
//! struct Text<'a> {
//!     r#type: &'static str,
//!     text: JsonStr<'a>,
//! }
//! #[derive(serde::Serialize)]
//! struct CallResult<'a> {
//!     content: [Text<'a>; 1],
//! }
//! fn tool_name(params: Option<RawJson<'_>>) -> Option<JsonStr<'_>> {
//!     params?.get("name")?.as_str()
//! }
//! // Checked when the program is built: invalid JSON here would not compile.
//! static TOOLS: RawJson<'static> = RawJson::from_static(
//!     r#"{"tools":[{"name":"echo","inputSchema":{"type":"object"}},{"name":"slow","inputSchema":{"type":"object"}}]}"#,
//! );
//!
//! let config = Config::new(Role::Server, Implementation::new("echo-server", "1.0.0"))
//!     .capabilities(ServerCapabilities::new().tools(ListChanged::NO));
//! let (mut rx, mut tx) = ([0u8; 4096], [0u8; 4096]);
//! let mut server: Endpoint = Endpoint::new(config, &mut rx, &mut tx, Instant::ZERO).unwrap();
//!
//! let stdin: &[u8] = concat!(
//!     r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","#,
//!     r#""capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#, "\n",
//!     r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, "\n",
//!     r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{}}}"#, "\n",
//!     r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"h\u00e9\ud83d\ude00"}}}"#, "\n",
//!     r#"{"jsonrpc":"2.0","id":4,"method":"resources/list"}"#, "\n",
//!     r#"{"jsonrpc":"2.0","id":5,"method":"tools/list"}"#, "\n",
//! ).as_bytes();
//! let mut chunks = stdin.chunks(13);
//! let mut pending: &[u8] = &[];
//! let mut stdout = Vec::new();
//! let mut slow: Option<PendingRequest> = None;
//! let mut now = Instant::ZERO;
//!
//! loop {
//!     // 1. Drain until idle.
//!     let _next_timeout = loop {
//!         match server.poll_output() {
//!             Output::Transmit(bytes) => stdout.extend_from_slice(&bytes),
//!             Output::Event(Event::Request(mut req)) => match req.method {
//!                 Method::ToolsList => {
//!                     req.respond(&TOOLS).unwrap();
//!                 }
//!                 Method::ToolsCall if tool_name(req.params).is_some_and(|n| n == "slow") => {
//!                     // Answered later, once the event is gone: keep its name.
//!                     slow = Some(req.pending());
//!                 }
//!                 Method::ToolsCall => {
//!                     // Answer while the params are still borrowed from the input.
//!                     let args: EchoArgs = req.params.unwrap().get("arguments").unwrap().decode().unwrap();
//!                     let result = CallResult { content: [Text { r#type: "text", text: args.text }] };
//!                     req.respond(&result).unwrap();
//!                 }
//!                 _ => {
//!                     req.respond_error(ErrorCode::METHOD_NOT_FOUND, "Method not found").unwrap();
//!                 }
//!             },
//!             Output::Event(_) => {}
//!             Output::Idle { next_timeout } => break next_timeout,
//!         }
//!     };
//!     if server.is_closed() {
//!         break;
//!     }
//!     // 2. Feed exactly one input: more bytes, a worker's answer, or the end of input.
//!     //    (A real loop waits for them with `_next_timeout` as its timeout and calls
//!     //    handle_timeout.)
//!     now = Instant::from_millis(now.as_millis() + 1);
//!     if pending.is_empty() {
//!         match chunks.next() {
//!             Some(chunk) => pending = chunk,
//!             None => {
//!                 if let Some(request) = slow.take() {
//!                     let done = CallResult { content: [Text { r#type: "text", text: JsonStr::from_text("done") }] };
//!                     server.respond(&request, &done).unwrap();
//!                 } else {
//!                     server.handle_eof(now);
//!                 }
//!                 continue;
//!             }
//!         }
//!     }
//!     let taken = server.handle_input(now, pending);
//!     pending = &pending[taken..];
//! }
//!
//! let out = String::from_utf8(stdout).unwrap();
//! let lines: Vec<&str> = out.lines().collect();
//! assert!(lines[0].starts_with(r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18""#));
//! assert_eq!(lines[1], r#"{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"hé😀"}]}}"#);
//! // resources/list: the server did not declare resources, so the endpoint answered.
//! assert_eq!(lines[2], r#"{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"Method not found: capability not declared"}}"#);
//! assert!(lines[3].starts_with(r#"{"jsonrpc":"2.0","id":5,"result":{"tools":[{"name":"echo""#));
//! // The slow call, answered last, and only then the session closed.
//! assert_eq!(lines[4], r#"{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"done"}]}}"#);
//! ```
//!
//! ## Panics and errors
//!
//! Nothing a peer sends can make this crate panic; the fuzz targets in `fuzz/` check
//! it. A peer's mistakes are events ([`session::Misbehavior`]) describing the broken rule,
//! after the endpoint has sent whatever reply the specification asks for; the connection
//! stays usable. `Err` is reserved for the caller's own mistakes and for capacity
//! limits, and says precisely what was wrong ("buffer too small: frame needs 41 bytes,
//! 16 free; nothing was written").
#![cfg_attr(not(any(test, feature = "std")), no_std)]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;

#[cfg(feature = "std")]
pub mod adapters;
pub mod framing;
pub mod http;
pub mod mcp;
pub mod session;
pub mod time;
pub mod toolkit;
pub mod wire;

pub use mcp::{Method, ProtocolVersion, Role};
pub use session::{Config, Endpoint, Event, Output, RequestOptions};
pub use time::Instant;

/// The README's Rust examples, compiled and run as doctests so it stays in step with the
/// API (`tests/readme.rs` checks its layout table and feature list against the crate).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
