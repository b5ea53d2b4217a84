//! The client side of MCP's HTTP transports, sans-IO: Streamable HTTP (2025-03-26 on),
//! falling back to HTTP+SSE (2024-11-05) on the same URL.
//!
//! [`HttpClient`] sits between the session (an `Endpoint` in the client role, whose
//! every outgoing message it POSTs) and an HTTP stack it never touches: it hands out
//! the requests to make ([`HttpRequest`]: method, absolute URL, headers, body) and takes
//! back what came of them: the status and headers, body bytes in chunks of any size,
//! the end, or a transport failure. Out of those it hands the session each message the
//! server sent, one at a time, and reports what the application must act on. It does no
//! IO, reads no clock (reconnection deadlines come out of
//! [`poll_timeout`](HttpClient::poll_timeout)), allocates nothing, and holds everything
//! in one caller-provided buffer.
//!
//! ## What it does for the application
//!
//! | the transport asks | the client |
//! |---|---|
//! | every message is a POST with `Accept: application/json, text/event-stream` | [`send_message`](HttpClient::send_message) makes one per message, `Content-Type: application/json` |
//! | answers are JSON or an event stream | reads both; priming events (empty data) are skipped, their ids kept |
//! | notifications and responses get 202 | the exchange ends there |
//! | `Mcp-Session-Id` from the `initialize` response, then on every request | captured (checked: visible ASCII, at most 256 bytes), sent on POST, GET, DELETE; not on `initialize` |
//! | `MCP-Protocol-Version` after `initialize` | read from the `initialize` result, sent on every later request |
//! | the standalone `GET` stream | opened once `notifications/initialized` is accepted; 405 (or any refusal) means none |
//! | a broken stream resumes with `GET` + `Last-Event-ID` after `retry` ms | reconnects on a deadline, the server's `retry` or a x1.5 backoff; a bounded number of attempts in a row that bring nothing new ([`Reconnect`]) |
//! | 404 to a request that carried the session id: start over | [`Event::SessionExpired`]; only a new `initialize` (without the old id) may go then |
//! | `DELETE` when done | [`close`](HttpClient::close) sends it (405 is fine), then [`Event::Closed`] |
//! | fall back to HTTP+SSE when the `initialize` POST gets 400, 404 or 405 | `GET` the URL, wait for `endpoint`, resolve it (RFC 3986), refuse another origin, POST there, read everything from that stream |
//! | `Authorization: Bearer` on every request; 401/403 surface the challenge | [`set_bearer_token`](HttpClient::set_bearer_token); [`Event::AuthRequired`] with `resource_metadata`, `scope`, `error`, `error_description`; [`retry`](HttpClient::retry) (limited) or [`give_up`](HttpClient::give_up) |
//!
//! Messages the server sends are not validated here (the session does that); the
//! client reads just enough of them to know when a request's answer has come (its
//! stream is then let go rather than resumed) and what `initialize` settled.
//!
//! ## Exchanges and memory
//!
//! An exchange is one HTTP request and its response, named by an [`ExchangeId`] the
//! adapter passes back with every part of the response. A retry or a reconnection is a
//! new exchange with a new id, so parts of an abandoned one are ignored, whatever order
//! the adapter's tasks report in. `X` (a const generic, 4 by default) exchanges can run
//! at once; each owns an equal share of the storage buffer for its request body and
//! then its response (a JSON body whole, or an event stream's current event), so a slot
//! must fit the largest message either way ([`ClientConfig::storage_len`]). At most
//! `X - 1` slots hold long exchanges (streams, and requests whose answer may stream):
//! the last one is kept for the answers and notifications the application sends while
//! a request's stream is open, such as the answer to a `sampling/createMessage` that
//! arrived on it. Nothing is queued without bound: when no slot fits,
//! [`send_message`](HttpClient::send_message) says [`SendError::Busy`] and the session
//! keeps the message (`Endpoint::sent(0)`) until an exchange ends.
//!
//! ## Driving it
//!
//! With a session, [`Link`] does the moving between the two: it POSTs what the
//! `Endpoint` (client role, `OutputMode::Messages`) transmits, feeds it what the server
//! sends, and hands the caller the HTTP requests to make and both sides' events from one
//! poll (see its documentation for a whole session as a doctest). Underneath, and for an
//! adapter that wants the parts itself, the client's own loop keeps the same drain rule
//! as the session's: after each input (`handle_*`) or command,
//! call [`poll_output`](HttpClient::poll_output) until it returns [`Output::Idle`]:
//!
//! * [`Output::Request`]: start the request (copy what the HTTP stack needs: the parts
//!   are borrowed until the next call; [`HttpClient::request`] gives them again while
//!   the head is awaited);
//! * [`Output::Abort`]: drop that exchange's connection;
//! * [`Output::Message`]: give it to the session, then
//!   [`consume_message`](HttpClient::consume_message); if the session has no room, drain
//!   the session first (the same message comes again until consumed);
//! * [`Output::Event`]: act on it;
//! * [`Output::Idle`]: wait for the next response part or `next_timeout`, then
//!   [`handle_timeout`](HttpClient::handle_timeout).
//!
//! An adapter runs each exchange as a task of its HTTP stack (a thread per exchange
//! with `ureq`, a future with hyper or reqwest, a connection slot on a microcontroller)
//! and passes its parts back: [`handle_response`](HttpClient::handle_response) once
//! with the status and headers, [`handle_body`](HttpClient::handle_body) for each chunk
//! (it may take less than offered: feed the rest after a drain), then
//! [`handle_end`](HttpClient::handle_end) or [`handle_failure`](HttpClient::handle_failure).
//! Timeouts on connecting or on a response head are the adapter's; an open stream has
//! none (the server decides how long it lasts).
//!
//! Here the whole cycle on a virtual clock, with a scripted server standing in for the
//! network (and a `Vec` for the session): `initialize` answered as an event stream that
//! the server cuts after its priming event, resumed with `Last-Event-ID` after the
//! server's `retry`.
//!
//! ```
//! use mcp_sansio::Instant;
//! use mcp_sansio::http::client::{ClientConfig, Event, ExchangeKind, HttpClient, Output};
//!
//! let config = ClientConfig::new("http://127.0.0.1:3000/mcp").unwrap();
//! let mut storage = vec![0u8; config.storage_len(4, 4096)];
//! let mut client: HttpClient = HttpClient::new(config, &mut storage).unwrap();
//! client.set_bearer_token(Some("eyJhbGciOi")).unwrap();
//!
//! /// What the scripted server answers: status, headers, body.
//! fn serve(kind: ExchangeKind, headers: &[(&str, &str)]) -> (u16, Vec<(String, Vec<u8>)>, String) {
//!     let h = |n: &str, v: &str| (n.to_string(), v.as_bytes().to_vec());
//!     let header = |n: &str| headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(n)).map(|(_, v)| *v);
//!     assert_eq!(header("Authorization"), Some("Bearer eyJhbGciOi"));
//!     match (kind, header("Last-Event-ID")) {
//!         // The initialize POST: a stream with a priming event, then cut.
//!         (ExchangeKind::Post, _) => (200, vec![h("Content-Type", "text/event-stream"), h("Mcp-Session-Id", "9f2c")],
//!             "id: s1-0\nretry: 250\ndata: \n\n".into()),
//!         // Its resumption: the answer.
//!         (ExchangeKind::Resume, Some("s1-0")) => (200, vec![h("Content-Type", "text/event-stream")],
//!             "id: s1-1\ndata: {\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"serverInfo\":{\"name\":\"s\",\"version\":\"1\"}}}\n\n".into()),
//!         other => panic!("unexpected {other:?}"),
//!     }
//! }
//!
//! let init = br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#;
//! let mut now = Instant::ZERO;
//! client.send_message(now, init).unwrap();
//! let mut session_inbox: Vec<Vec<u8>> = Vec::new(); // stands in for Endpoint::handle_frame
//! let mut in_flight = Vec::new(); // the adapter's exchanges: (id, status, headers, body)
//! loop {
//!     // 1. Drain.
//!     let next_timeout = loop {
//!         match client.poll_output() {
//!             Output::Request(req) => {
//!                 let headers: Vec<(&str, &str)> = req.headers().to_vec();
//!                 in_flight.push((req.exchange, serve(req.kind, &headers)));
//!             }
//!             Output::Abort(exchange) => in_flight.retain(|(x, _)| *x != exchange),
//!             Output::Message(m) => {
//!                 session_inbox.push(m.bytes.to_vec());
//!                 client.consume_message();
//!             }
//!             Output::Event(Event::Connected { session_id, .. }) => assert_eq!(session_id, Some("9f2c")),
//!             Output::Event(Event::Reconnecting { attempt, at, .. }) => {
//!                 assert_eq!((attempt, at), (1, Instant::from_millis(250)));
//!             }
//!             Output::Event(other) => panic!("{other:?}"),
//!             Output::Idle { next_timeout } => break next_timeout,
//!         }
//!     };
//!     // 2. One input: the next response part, or the deadline.
//!     if let Some((exchange, (status, headers, body))) = in_flight.pop() {
//!         client.handle_response(now, exchange, status, headers.iter().map(|(n, v)| (n.as_str(), v.as_slice())));
//!         let mut rest = body.as_bytes();
//!         while !rest.is_empty() {
//!             let n = client.handle_body(now, exchange, rest);
//!             rest = &rest[n..];
//!             while let Output::Message(m) = client.poll_output() {
//!                 session_inbox.push(m.bytes.to_vec());
//!                 client.consume_message();
//!             }
//!         }
//!         client.handle_end(now, exchange);
//!     } else if let Some(at) = next_timeout {
//!         now = at; // a real loop sleeps until then, or until the network has something
//!         client.handle_timeout(now);
//!     } else {
//!         break;
//!     }
//! }
//! assert_eq!(session_inbox.len(), 1);
//! assert!(session_inbox[0].starts_with(br#"{"jsonrpc":"2.0","id":0,"result""#));
//! assert_eq!(client.session_id(), Some("9f2c"));
//! assert_eq!(client.protocol_version(), Some(mcp_sansio::ProtocolVersion::V2025_11_25));
//! ```
//!
//! ## Files
//!
//! | file | job |
//! |---|---|
//! | `state.rs` | [`HttpClient`]: state, commands, getters |
//! | `link.rs` | [`Link`]: an `Endpoint` and the client driven as one |
//! | `input.rs` | response heads, bodies, ends, failures, time |
//! | `drain.rs` | `poll_output`: what goes out next |
//! | `decide.rs` | what a response head means, reconnection delays (pure, table-tested) |
//! | `exchange.rs` | the slots, [`ExchangeId`], how a slot's storage is used |
//! | `outgoing.rs` | what a message is, as far as HTTP cares |
//! | `request.rs` | [`HttpRequest`] and its headers |
//! | `text.rs` | the session id, endpoint URL and token |
//! | `url.rs` | [`Url`]: absolute URLs, RFC 3986 resolution, same origin |
//! | `config.rs`, `event.rs` | settings; outputs, events and errors |

mod config;
mod decide;
mod drain;
mod event;
mod exchange;
mod input;
mod link;
mod outgoing;
mod request;
mod state;
mod text;
mod url;

pub use config::{
    ClientConfig, ConfigError, DEFAULT_ENDPOINT_URL_CAPACITY, DEFAULT_TOKEN_CAPACITY, MIN_SLOT, Reconnect,
    TransportMode,
};
pub use event::{
    Event, Expiry, Failure, HttpMisbehavior, LostReason, Output, Received, RetryError, SendError, TokenError, Transport,
};
pub use exchange::{ExchangeId, ExchangeKind, HttpMethod};
pub use link::{Link, Step};
pub use request::{HttpRequest, MAX_REQUEST_HEADERS};
pub use state::HttpClient;
pub use url::{Url, UrlError};
