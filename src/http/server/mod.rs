//! The Streamable HTTP (2025-03-26, 2025-06-18, 2025-11-25) and legacy HTTP+SSE
//! (2024-11-05) server core: request parts in, response parts and body bytes out, no
//! IO, no allocation, no clock, no randomness of its own.
//!
//! It speaks HTTP semantics, not HTTP/1.1 bytes, so a socket loop over `httparse`, a
//! hyper or axum service, or a microcontroller's TCP stack drives it alike.
//!
//! | piece | job |
//! |---|---|
//! | [`classify`], [`classify_with`] | the request head: route, `Host`, `Origin`, method, auth verdict, `Accept`, `Content-Type`, `Content-Length` cap, session and version headers; the order is in its docs |
//! | [`check_session_version`] | `MCP-Protocol-Version` against the session's negotiated version |
//! | [`is_modern_post`], [`check_modern_headers`] | a 2026-07-28 POST (no session): its `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` against the body (400, -32020) |
//! | [`classify_body`] | one message (a batch only under 2025-03-26); 202 for notifications and responses; -32700 / -32600 |
//! | [`Refusal`] | every refusal's status, fields and id-less JSON-RPC error body |
//! | [`ok_head`], [`empty_response`] | the 200 (JSON or SSE, with `Cache-Control: no-cache` and `X-Accel-Buffering: no`), 202 and DELETE heads |
//! | [`IdMinter`], [`SessionKey`] | session ids from a seeded PRF; signed ids that carry version and client capabilities across restarts |
//! | [`SessionTable`] | live sessions over a pluggable [`SessionStore`] ([`Slots`] for embedded), cap (503), idle expiry (30 min) |
//! | [`Streams`] | one session's SSE side: routing by origin, JSON or SSE, event ids, replay, priming, polling, keep-alive, the GET queue, legacy `endpoint` |
//!
//! ## Driving it
//!
//! For each request: classify the head (refusals are complete responses: send, and
//! close the connection for a 413); read at most `max_body` bytes of a POST; classify
//! the body; find or open the session; open the exchange's stream
//! ([`Streams::open_post`] returns the `Origin` to feed the body to the session's
//! endpoint with, [`Streams::open_get`] resumes with `Last-Event-ID`); then, in one
//! loop for everything: hand each message the endpoint emits to [`Streams::push`] with
//! its origin, drain [`Streams::poll`] (heads to send, exchanges to read from,
//! replaced GETs to end), [`Streams::read`] into the socket while it takes bytes, and
//! sleep until [`Streams::poll_timeout`] / [`SessionTable::next_deadline`] or the next
//! socket event, then [`Streams::handle_timeout`] and [`SessionTable::expire`]. A
//! client that goes away is [`Streams::connection_closed`]: nothing else ends.
//!
//! The whole cycle, on a virtual clock, with the application's answer standing in for
//! the session endpoint:
//!
//! ```
//! use mcp_sansio::http::server::*;
//! use mcp_sansio::{Instant, ProtocolVersion};
//!
//! let config = ServerConfig::new();
//! let mut minter = IdMinter::new([0x5a; 16]); // 128 bits from the OS's CSPRNG
//! let mut table: SessionTable<Streams<Vec<u8>>, Slots<Streams<Vec<u8>>, 16>> =
//!     SessionTable::new(Slots::new(), config.idle_timeout);
//! let stream_config = StreamConfig { keepalive: config.keepalive, ..StreamConfig::default() };
//! let mut out = [0u8; MIN_RESPONSE_BUFFER];
//! let now = Instant::ZERO;
//!
//! // 1. POST initialize: head, body, a new session, its stream.
//! let headers = [
//!     ("Host", "localhost:3000"),
//!     ("Accept", "application/json, text/event-stream"),
//!     ("Content-Type", "application/json"),
//! ];
//! let body = br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#;
//! let head = RequestHead::new("POST", "/mcp", &headers[..]);
//! let req = classify(&config, &head, AuthVerdict::Allow).unwrap();
//! assert!(matches!(classify_body(body, false, 64), Ok(PostBody::Initialize { .. })));
//! assert_eq!(req.session_id, None);
//! let id = minter.random_id();
//! let streams = Streams::new(vec![0; 8192], stream_config, u32::from_le_bytes(minter.next_bits()[..4].try_into().unwrap()), None);
//! let session = match table.open(now, id, streams) {
//!     Ok(h) => h,
//!     Err(_) => { Refusal::Busy.write(&config, None, &mut out).unwrap(); return; }
//! };
//! let exchange = 1; // the adapter's name for this request/response
//! let s = table.get_mut(session).unwrap();
//! let origin = s.open_post(now, exchange, 1).unwrap();
//! // ... the session endpoint is fed `body` with `origin`, and answers; its answer
//! // comes back tagged with that origin:
//! s.set_version(ProtocolVersion::V2025_11_25);
//! s.push(now, Some(origin), br#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}"#, true).unwrap();
//!
//! // 2. The drain: heads, then bytes.
//! let mut sent = Vec::new();
//! while let Some(output) = s.poll() {
//!     match output {
//!         StreamOutput::Head { exchange, kind } => {
//!             let head = ok_head(kind, Some(id.as_str()), &mut out).unwrap();
//!             assert_eq!((exchange, head.header("content-type")), (1, Some("application/json")));
//!             assert_eq!(head.header("mcp-session-id"), Some(id.as_str()));
//!         }
//!         StreamOutput::Readable { exchange } => loop {
//!             let mut buf = [0u8; 64]; // whatever the socket takes now
//!             let read = s.read(now, exchange, &mut buf);
//!             sent.extend_from_slice(&buf[..read.n]);
//!             if read.end || read.n == 0 { break; }
//!         },
//!         StreamOutput::Replaced { .. } | StreamOutput::Dropped { .. } => {}
//!     }
//! }
//! assert!(sent.starts_with(br#"{"jsonrpc":"2.0","id":1,"result""#));
//!
//! // 3. A GET with the session id opens the standalone stream; the version rule holds.
//! let get = [("Host", "localhost:3000"), ("Accept", "text/event-stream"),
//!            ("Mcp-Session-Id", id.as_str()), ("MCP-Protocol-Version", "2025-11-25")];
//! let req = classify(&config, &RequestHead::new("GET", "/mcp", &get[..]), AuthVerdict::Allow).unwrap();
//! let Lookup::Live(session) = table.lookup(req.session_id.unwrap()) else { unreachable!() };
//! check_session_version(req.protocol_version, ProtocolVersion::V2025_11_25).unwrap();
//! table.pin(now, session);
//! let s = table.get_mut(session).unwrap();
//! s.open_get(now, 2, req.last_event_id).unwrap();
//! s.push(now, None, br#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#, false).unwrap();
//! let mut get_bytes = Vec::new();
//! while let Some(output) = s.poll() {
//!     if let StreamOutput::Readable { exchange } = output {
//!         let mut buf = [0u8; 512];
//!         let read = s.read(now, exchange, &mut buf);
//!         get_bytes.extend_from_slice(&buf[..read.n]);
//!     }
//! }
//! let text = String::from_utf8(get_bytes).unwrap();
//! assert!(text.starts_with("id: ") && text.contains("retry: 1000\ndata: \n\n")); // priming
//! assert!(text.ends_with("data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n"));
//!
//! // 4. Time: keep-alives on the open stream, expiry of idle sessions.
//! let later = Instant::from_millis(15_000);
//! assert_eq!(s.poll_timeout(), Some(later));
//! s.handle_timeout(later);
//! assert_eq!(s.poll(), Some(StreamOutput::Readable { exchange: 2 }));
//! let mut buf = [0u8; 64];
//! let read = s.read(later, 2, &mut buf);
//! assert_eq!(&buf[..read.n], b": keep-alive\n\n");
//! // The client drops the GET: the session stays, and expires 30 minutes later.
//! assert!(s.connection_closed(2));
//! table.unpin(later, session);
//! assert!(table.expire(Instant::from_secs(15 + 30 * 60 - 1)).is_none());
//! assert_eq!(table.expire(Instant::from_secs(15 + 30 * 60)).map(|(id, _)| id), Some(id));
//! assert_eq!(table.lookup(id.as_str()), Lookup::Ended); // 404 from now on
//! ```
//!
//! ## Integration with the session endpoint
//!
//! A host owns an `Endpoint` in message mode per session (each `Transmit` one message
//! with its `Origin`), feeds POST bodies with `handle_frame_from(now, origin, body)` and
//! pushes every transmit to [`Streams::push`] by its origin. `examples/axum` does this
//! inside axum in a few hundred lines (its README walks through it); the std adapter
//! (`adapters::http::server`) adds snapshots of idle sessions, signed ids, buffers that
//! grow, and worker threads.

mod body;
mod classify;
mod config;
mod log;
mod mac;
mod modern;
mod refusal;
mod request;
mod response;
mod session_id;
mod streams;
mod table;

pub use body::{PostBody, classify_body};
#[cfg(feature = "http")]
pub(crate) use body::{classify_message, classify_recording};
pub use classify::{Classified, RequestKind, check_session_version, classify, classify_with};
pub use config::{
    AuthChallenge, DEFAULT_IDLE_TIMEOUT, DEFAULT_KEEPALIVE, DEFAULT_MAX_BODY, DEFAULT_RETRY_MS, HostPolicy,
    JsonResponses, OriginPolicy, ServerConfig,
};
pub use modern::{
    HeaderMismatch, MAX_DECODED_HEADER, ParamHeader, check_modern_headers, check_param_headers, is_modern_post,
    modern_error_status, request_meta,
};
#[cfg(feature = "http")]
pub(crate) use modern::{check_modern_message, check_param_message, is_modern_message};
pub use refusal::{AuthVerdict, BadRequest, Refusal, SESSION_NOT_FOUND, TRANSPORT_ERROR};
pub use request::{Headers, RequestHead};
pub use response::{BufferTooSmall, MIN_RESPONSE_BUFFER, Response, empty_response, ok_head, reason};
pub use session_id::{IdMinter, MAX_SESSION_ID_LEN, SIGNED_ID_LEN, SessionId, SessionKey, SessionTicket};
pub use streams::{BodyKind, GET_STREAM, OpenError, PushError, ReadOutcome, StreamConfig, StreamOutput, Streams};
pub use table::{Entry, Lookup, SessionHandle, SessionStore, SessionTable, Slots};
