//! [`Link`]: one MCP client session over HTTP, an [`Endpoint`] (client role, message
//! mode) and an [`HttpClient`] driven as one.
//!
//! The link moves what goes between the two and hands the rest to the caller: every
//! message the endpoint transmits becomes a POST, every message the server sends is fed
//! to the endpoint, and the caller gets the HTTP requests to make, the session's events
//! and the transport's, interleaved, from one [`poll`](Link::poll). It owns neither
//! side (both stay the caller's, to command and to rebuild): after
//! [`Event::SessionExpired`] the caller makes a new endpoint (which sends a new
//! `initialize`) and a new `Link` for it, and keeps the same [`HttpClient`].
//!
//! What it does besides moving messages:
//! * a message the endpoint cannot take now (its receive buffer is full) stays with the
//!   client and is fed again after the endpoint has been drained;
//! * a message no exchange can take now waits in the endpoint (`Endpoint::sent(0)`)
//!   until one is free: backpressure, never a queue;
//! * a request the transport reports [`Lost`](Event::Lost) is cancelled in the session
//!   (`Endpoint::cancel`), so it does not wait for its timeout; the cancellation goes to
//!   the server only when the server may have seen the request (a broken stream, say),
//!   not when it refused it (a status, no credentials);
//! * when the session closes, the client closes too (its `DELETE`).

//!
//! A whole client session on a virtual clock, with a scripted server standing in for
//! the network (a real adapter hands each request to its HTTP stack and feeds back what
//! comes): the probe, the handshake, then a tool call answered as an event stream.
//!
//! ```
//! use mcp_sansio::http::client::{ClientConfig, ExchangeId, HttpClient, Link, Step};
//! use mcp_sansio::session::{Config, Endpoint, Event, OutputMode, RequestOptions};
//! use mcp_sansio::wire::RawJson;
//! use mcp_sansio::{Instant, Role};
//!
//! let info = RawJson::parse(br#"{"name":"example-client","version":"1.0.0"}"#).unwrap();
//! let config = Config::new(Role::Client, info).output(OutputMode::Messages);
//! let (mut rx, mut tx) = ([0u8; 4096], [0u8; 4096]);
//! let mut endpoint: Endpoint = Endpoint::new(config, &mut rx, &mut tx, Instant::ZERO).unwrap();
//! let http_config = ClientConfig::new("http://127.0.0.1:3000/mcp").unwrap().standalone_stream(false);
//! let mut storage = vec![0u8; http_config.storage_len(4, 4096)];
//! let mut http: HttpClient = HttpClient::new(http_config, &mut storage).unwrap();
//! let mut link = Link::new();
//!
//! // The scripted server, of the handshake era: (status, content type, body) for each
//! // POST, by method. The client's first POST is its 2026-07-28 probe
//! // (`server/discover`), which such a server refuses for want of a session: the client
//! // falls back to `initialize`.
//! fn serve(body: &str) -> (u16, &'static str, String) {
//!     if body.contains(r#""method":"server/discover""#) {
//!         (400, "application/json", r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: Mcp-Session-Id header is required"}}"#.into())
//!     } else if body.contains(r#""method":"initialize""#) {
//!         (200, "application/json", r#"{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}"#.into())
//!     } else if body.contains(r#""method":"tools/call""#) {
//!         (200, "text/event-stream", "id: 7-1-0\nretry: 1000\ndata: \n\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"content\":[]}}\n\n".into())
//!     } else {
//!         (202, "", String::new())
//!     }
//! }
//!
//! /// The drain: every step, until idle.
//! fn drain(
//!     link: &mut Link,
//!     endpoint: &mut Endpoint<'_>,
//!     http: &mut HttpClient<'_>,
//!     network: &mut Vec<(ExchangeId, (u16, &'static str, String))>,
//!     answered: &mut bool,
//! ) {
//!     let now = Instant::ZERO; // a real loop passes its clock's time
//!     loop {
//!         match link.poll(now, endpoint, http) {
//!             Step::Request(req) => {
//!                 let body = String::from_utf8(req.body.to_vec()).unwrap();
//!                 network.push((req.exchange, serve(&body)));
//!             }
//!             Step::Abort(x) => network.retain(|(e, _)| *e != x),
//!             Step::Session(Event::Ready { .. }) => {
//!                 let params = RawJson::parse(br#"{"name":"echo","arguments":{}}"#).unwrap();
//!                 endpoint.send_request(now, "tools/call", Some(&params), RequestOptions::default()).unwrap();
//!             }
//!             Step::Session(Event::Response { .. }) => *answered = true,
//!             Step::Session(_) | Step::Transport(_) => {}
//!             Step::Unsent(e) => panic!("{e}"),
//!             Step::Idle { .. } => return,
//!         }
//!     }
//! }
//!
//! let now = Instant::ZERO;
//! let mut network = Vec::new();
//! let mut answered = false;
//! drain(&mut link, &mut endpoint, &mut http, &mut network, &mut answered);
//! // Then one input at a time (a real loop waits for the network or `next_timeout`).
//! while let Some((x, (status, content_type, body))) = network.pop() {
//!     let headers = [("Content-Type", content_type.as_bytes()), ("Mcp-Session-Id", &b"4f1c"[..])];
//!     http.handle_response(now, x, status, headers.iter().copied().filter(|(_, v)| !v.is_empty()));
//!     drain(&mut link, &mut endpoint, &mut http, &mut network, &mut answered);
//!     let mut rest = body.as_bytes();
//!     while !rest.is_empty() {
//!         let n = http.handle_body(now, x, rest);
//!         rest = &rest[n..];
//!         drain(&mut link, &mut endpoint, &mut http, &mut network, &mut answered);
//!     }
//!     http.handle_end(now, x);
//!     drain(&mut link, &mut endpoint, &mut http, &mut network, &mut answered);
//! }
//! assert!(answered);
//! assert_eq!(http.session_id(), Some("4f1c"));
//! ```

use crate::session::{Endpoint, Event as SessionEvent, Output as SessionOutput};
use crate::time::Instant;
use crate::wire::RequestId;

use super::drain::Next;
use super::event::{Event, Failure, LostReason, Output, SendError};
use super::exchange::{ExchangeId, ExchangeKind};
use super::outgoing::{OutKind, classify};
use super::request::HttpRequest;
use super::state::{HttpClient, Queued};

/// One step of the link's drain; see [`Link::poll`].
#[derive(Debug)]
pub enum Step<'s> {
    /// Make this HTTP request (as [`Output::Request`]).
    Request(HttpRequest<'s>),
    /// Drop this exchange's connection (as [`Output::Abort`]).
    Abort(ExchangeId),
    /// The session has something for the application: a request to answer, a response,
    /// progress, the end of the session, ....
    Session(SessionEvent<'s>),
    /// The transport has something for the application: [`Event::AuthRequired`] (set a
    /// token, then [`HttpClient::retry`]), [`Event::SessionExpired`] (make a new endpoint
    /// and link), [`Event::Lost`] (the request was cancelled in the session already),
    /// and the rest.
    Transport(Event<'s>),
    /// The session wrote a message that cannot go over HTTP (it is larger than an
    /// exchange's storage, or not a message): it was dropped, and a request among
    /// them cancelled in the session.
    Unsent(SendError),
    /// Nothing to do until the next HTTP input, a command, or `next_timeout` (then call
    /// [`Link::handle_timeout`] and poll again). `next_timeout` may be the current time:
    /// the link stopped after a message it had to drop (the old session's, after
    /// expiry or close) and looks again at once, as any loop that honours the deadline
    /// does.
    Idle {
        /// The earliest deadline of the two sides.
        next_timeout: Option<Instant>,
    },
}

/// Drives an [`Endpoint`] and an [`HttpClient`] together. Small and `Copy`-free state
/// only: what is owed between two polls.
///
/// The drain rule holds for the pair: after every HTTP input (the client's `handle_*`),
/// every command to either side, and [`handle_timeout`](Link::handle_timeout), call
/// [`poll`](Link::poll) until it returns [`Step::Idle`].
#[derive(Debug, Default)]
pub struct Link {
    /// The endpoint's last transmit did not go: tell it so before its next poll.
    unsent: bool,
    /// The endpoint waits for room for a message of this kind: it is not polled until
    /// the client would take it.
    blocked: Option<OutKind>,
    /// A request to cancel in the session at the next poll, and whether the
    /// cancellation may go to the server.
    cancel: Option<(RequestId, bool)>,
    /// A cancellation the endpoint writes that must not go out: the server refused the
    /// request it names.
    suppress: Option<RequestId>,
}

impl Link {
    /// A link with nothing owed.
    pub fn new() -> Self {
        Self::default()
    }

    /// Time has passed, for both sides.
    pub fn handle_timeout<const OUT: usize, const IN: usize, const X: usize>(
        &mut self,
        now: Instant,
        endpoint: &mut Endpoint<'_, OUT, IN>,
        http: &mut HttpClient<'_, X>,
    ) {
        endpoint.handle_timeout(now);
        http.handle_timeout(now);
    }

    /// The next thing for the caller. Borrowed values are valid until the next call
    /// that takes `&mut` of either side.
    pub fn poll<'s, const OUT: usize, const IN: usize, const X: usize>(
        &mut self,
        now: Instant,
        endpoint: &'s mut Endpoint<'_, OUT, IN>,
        http: &'s mut HttpClient<'_, X>,
    ) -> Step<'s> {
        if self.unsent {
            self.unsent = false;
            endpoint.sent(0);
        }
        if let Some((id, tell)) = self.cancel.take() {
            if !tell {
                self.suppress = Some(id.clone());
            }
            let _ = endpoint.cancel(now, &id, Some("the HTTP exchange carrying it failed"));
        }
        if let Some(kind) = self.blocked
            && http.place(kind, 0).is_ok()
        {
            self.blocked = None;
        }
        // The HTTP side first, as far as it goes without the caller.
        loop {
            let next = http.prepare();
            match next {
                Next::Message => {
                    let fed = http.pending_message().is_none_or(|bytes| endpoint.handle_frame(now, bytes));
                    if !fed {
                        // The endpoint's buffer is full: drain it first, then feed again.
                        break;
                    }
                    http.consume_message();
                }
                Next::Idle => break,
                Next::Lost { slot, reason, .. } => {
                    if let Some(id) = http.lost_request(slot) {
                        let _ = endpoint.cancel(now, &id, Some("the HTTP exchange carrying it failed"));
                        if !server_may_have_seen(reason) {
                            self.suppress = Some(id);
                        }
                    }
                    return step(http.emit(next));
                }
                Next::Queued(Queued::SessionExpired(_)) => {
                    self.blocked = None;
                    return step(http.emit(next));
                }
                _ => return step(http.emit(next)),
            }
        }
        // Then one output of the endpoint. Its deadline is read first: the transmit
        // borrows it. (A deadline it sets while handing out a transmit comes from a
        // timer that was due, so the one read here is never later than the next.)
        let deadline = endpoint.poll_timeout();
        match endpoint.poll_output() {
            SessionOutput::Transmit(t) => {
                let message = t.bytes();
                let idle =
                    |http: &HttpClient<'_, X>| Step::Idle { next_timeout: earliest(deadline, http.poll_timeout()) };
                if self.blocked.is_some() {
                    // Still no room for it: it waits in the endpoint.
                    self.unsent = true;
                    return idle(http);
                }
                let out = classify(message);
                if let (Some(o), Some(s)) = (&out, &self.suppress)
                    && o.kind == OutKind::Cancelled
                    && o.cancels.as_ref() == Some(s)
                {
                    // Counts as written: the server never took the request.
                    self.suppress = None;
                    return Step::Idle { next_timeout: Some(now) };
                }
                match http.send_message(now, message) {
                    Ok(_) => {
                        let next = http.prepare();
                        step(http.emit(next))
                    }
                    Err(SendError::Busy) => {
                        self.unsent = true;
                        self.blocked = out.map(|o| o.kind);
                        idle(http)
                    }
                    // The old session's traffic after it expired, or after close: dropped
                    // (it counts as written); look again at once for what follows it.
                    Err(SendError::SessionExpired | SendError::Closed) => Step::Idle { next_timeout: Some(now) },
                    Err(e) => {
                        if let Some(id) = out.and_then(|o| o.id) {
                            self.cancel = Some((id, false));
                        }
                        Step::Unsent(e)
                    }
                }
            }
            SessionOutput::Event(e) => {
                if matches!(e, SessionEvent::Closed { .. }) {
                    http.close(now);
                }
                Step::Session(e)
            }
            // The client has nothing either, or a message the endpoint cannot take until
            // the application answers what it holds.
            SessionOutput::Idle { next_timeout } => {
                Step::Idle { next_timeout: earliest(next_timeout, http.poll_timeout()) }
            }
        }
    }
}

/// Whether the server may have started on a request lost this way, so that telling it
/// to stop makes sense.
fn server_may_have_seen(reason: LostReason) -> bool {
    !matches!(
        reason,
        LostReason::Status(_)
            | LostReason::Unauthorized { .. }
            | LostReason::NoEndpoint
            | LostReason::Transport(Failure::Connect)
    )
}

fn earliest(a: Option<Instant>, b: Option<Instant>) -> Option<Instant> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

fn step(output: Output<'_>) -> Step<'_> {
    match output {
        Output::Request(r) => Step::Request(r),
        Output::Abort(x) => Step::Abort(x),
        Output::Event(e) => Step::Transport(e),
        // Messages go to the endpoint before anything is handed out.
        Output::Message(_) => Step::Idle { next_timeout: None },
        Output::Idle { next_timeout } => Step::Idle { next_timeout },
    }
}

impl<const X: usize> HttpClient<'_, X> {
    /// The request id of a slot whose loss is being reported.
    pub(crate) fn lost_request(&self, slot: usize) -> Option<RequestId> {
        let s = self.slots.get(slot)?;
        let carries = matches!(s.kind, ExchangeKind::Post | ExchangeKind::LegacyPost | ExchangeKind::Resume);
        if carries && s.out.expects_response() { s.request.clone() } else { None }
    }
}
