//! What the client hands out: requests to make, messages received, and events; and the
//! errors of its commands.

use core::fmt;

use crate::http::headers::{BearerParams, WwwAuthenticate};
use crate::time::Instant;
use crate::wire::RequestId;

use super::exchange::ExchangeId;
use super::request::HttpRequest;
use super::url::UrlError;

/// One step of the drain loop; see [`HttpClient::poll_output`](super::HttpClient::poll_output).
#[derive(Debug)]
pub enum Output<'c> {
    /// Make this HTTP request. Its parts are valid until the next call that takes
    /// `&mut` of the client; [`HttpClient::request`](super::HttpClient::request) gives
    /// them again while its response head has not come.
    Request(HttpRequest<'c>),
    /// The client needs nothing more from this exchange: stop sending it, stop reading
    /// its response, and close its connection unless the response had already ended.
    /// Parts of it passed in from now on are ignored.
    Abort(ExchangeId),
    /// A message from the server: hand it to the session (`Endpoint::handle_frame`),
    /// then call [`HttpClient::consume_message`](super::HttpClient::consume_message).
    /// Until then every poll hands out the same message again: a session whose
    /// receive buffer is full is drained first, and nothing is lost.
    Message(Received<'c>),
    /// Something happened.
    Event(Event<'c>),
    /// Nothing more to do until the next input. Call
    /// [`HttpClient::handle_timeout`](super::HttpClient::handle_timeout) at
    /// `next_timeout` if nothing arrives before it.
    Idle {
        /// The earliest deadline (a reconnection), if any.
        next_timeout: Option<Instant>,
    },
}

/// A message received on an exchange (a JSON body, or one event of a stream).
#[derive(Clone, Copy, Debug)]
pub struct Received<'c> {
    /// The exchange it came on.
    pub exchange: ExchangeId,
    /// The message's bytes: one JSON-RPC message (or a 2025-03-26 batch), not yet
    /// validated.
    pub bytes: &'c [u8],
}

/// The HTTP transport in use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Transport {
    /// Streamable HTTP (2025-03-26 and later).
    Streamable,
    /// HTTP+SSE (2024-11-05).
    Legacy,
}

/// Why an HTTP exchange failed below HTTP; the adapter's words, for reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Failure {
    /// The connection could not be made.
    Connect,
    /// The connection broke (reset, closed early, a malformed response).
    Broken,
    /// The adapter's own deadline passed.
    Timeout,
}

/// Why a session had to end on the client's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Expiry {
    /// A request that carried the session id got 404: the server ended the session (or
    /// restarted and forgot it).
    NotFound,
    /// The HTTP+SSE stream ended: that transport has no way to resume a session.
    StreamClosed,
}

/// Why a message will get no answer over HTTP (or, for notifications and responses,
/// was not delivered).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum LostReason {
    /// The server answered with this status.
    Status(u16),
    /// The connection failed before the response head.
    Transport(Failure),
    /// The response stream ended before the answer and could not be resumed: the server
    /// gave no event id to resume from, or refused the resumption.
    StreamEnded,
    /// The stream was reconnected [`Reconnect::max_attempts`](super::Reconnect::max_attempts)
    /// times in a row without anything new.
    ReconnectsExhausted,
    /// The JSON response did not fit the exchange's `capacity` bytes.
    TooLarge {
        /// The slot's size.
        capacity: usize,
    },
    /// The response was neither JSON nor an event stream, or a JSON body was empty.
    NoResponse,
    /// 401 or 403 again after the retries allowed, or the application gave up.
    Unauthorized {
        /// The last status.
        status: u16,
    },
    /// The HTTP+SSE fallback could not connect (see the misbehaviour or status reported
    /// with it).
    NoEndpoint,
}

impl fmt::Display for LostReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Status(s) => write!(f, "the server answered {s}"),
            Self::Transport(t) => write!(f, "the connection failed ({t:?})"),
            Self::StreamEnded => f.write_str("the response stream ended before the answer and could not be resumed"),
            Self::ReconnectsExhausted => f.write_str("the response stream could not be reconnected"),
            Self::TooLarge { capacity } => write!(f, "the response did not fit the {capacity}-byte exchange buffer"),
            Self::NoResponse => f.write_str("the server's reply held no message"),
            Self::Unauthorized { status } => write!(f, "not authorized ({status})"),
            Self::NoEndpoint => f.write_str("the HTTP+SSE server announced no usable endpoint"),
        }
    }
}

/// A rule the server broke. The client carries on as the event says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum HttpMisbehavior {
    /// A 2xx response that is neither `application/json` nor `text/event-stream`.
    UnexpectedContentType,
    /// An `Mcp-Session-Id` that is not 1 to 256 visible ASCII bytes: ignored, so the
    /// session runs without one.
    InvalidSessionId,
    /// 202 (no body) to a request: its answer can only come on another stream.
    AcceptedRequest,
    /// An event that did not fit the exchange's buffer was skipped.
    EventTooLarge {
        /// The slot's size.
        capacity: usize,
    },
    /// A stream ended inside an event, which was discarded.
    IncompleteEvent,
    /// The HTTP+SSE stream's first event was not `endpoint`.
    NoEndpointEvent,
    /// The `endpoint` event's URL could not be used.
    BadEndpoint(UrlError),
    /// The `endpoint` event named another origin: refused (a server must not send the
    /// client's messages elsewhere).
    CrossOriginEndpoint,
}

/// Something the application should know. Borrowed values point into the client's
/// storage and are valid until the next call that takes `&mut` of the client.
#[derive(Debug)]
#[non_exhaustive]
pub enum Event<'c> {
    /// The server answered `initialize`: the transport is settled, and the session id
    /// (if the server gave one) is sent on every request from now on.
    Connected {
        /// The transport in use.
        transport: Transport,
        /// The session id.
        session_id: Option<&'c str>,
    },
    /// The `initialize` POST got `status` (400, 404 or 405): trying HTTP+SSE on the same
    /// URL.
    FellBack {
        /// The status that caused it.
        status: u16,
    },
    /// The standalone `GET` stream is not available: the server answered `status`
    /// (405: it offers none), or `None`: it could not be reconnected. Server-initiated
    /// messages then come only on POST response streams.
    StandaloneUnavailable {
        /// The status, if one was the reason.
        status: Option<u16>,
    },
    /// A broken stream will be reconnected at `at`, as `exchange`.
    Reconnecting {
        /// The new exchange.
        exchange: ExchangeId,
        /// Attempts in a row so far, this one included.
        attempt: u8,
        /// When the request will be handed out.
        at: Instant,
    },
    /// 401 or 403: the server wants (other) credentials. Set a token with
    /// [`set_bearer_token`](super::HttpClient::set_bearer_token) (after an OAuth flow,
    /// for instance), then [`retry`](super::HttpClient::retry) the exchange, or
    /// [`give_up`](super::HttpClient::give_up) on it. Until then it waits.
    AuthRequired {
        /// The refused exchange.
        exchange: ExchangeId,
        /// 401 (no or bad token) or 403 (insufficient scope).
        status: u16,
        /// The first Bearer challenge's parameters (`resource_metadata`, `scope`,
        /// `error`, `error_description`), when the server sent one.
        bearer: Option<BearerParams<'c>>,
        /// The whole `WWW-Authenticate` value, when it could be read and kept.
        www_authenticate: Option<WwwAuthenticate<'c>>,
        /// Retries left for this exchange.
        retries_left: u8,
    },
    /// The session is gone: start a new one (a new `initialize`, which goes out without
    /// the old session id). Every exchange of the old session has been dropped; its
    /// requests will not be answered.
    SessionExpired {
        /// Why.
        reason: Expiry,
    },
    /// A message will not be answered (or was not delivered): fail the request in the
    /// session.
    Lost {
        /// The exchange that carried it.
        exchange: ExchangeId,
        /// The request's id, when it was a request.
        request: Option<&'c RequestId>,
        /// Why.
        reason: LostReason,
    },
    /// The server broke a rule; the client carried on.
    Misbehavior {
        /// Where.
        exchange: ExchangeId,
        /// What.
        what: HttpMisbehavior,
    },
    /// [`close`](super::HttpClient::close) is done (the `DELETE`, if any, answered or
    /// failed): nothing more will be sent.
    Closed,
}

/// Why [`send_message`](super::HttpClient::send_message) took nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum SendError {
    /// No exchange slot is free for it now (or the HTTP+SSE endpoint is not known yet):
    /// drain, feed an input, and try again.
    Busy,
    /// The message needs `needed` bytes and a slot has `capacity`.
    TooLarge {
        /// The message's length.
        needed: usize,
        /// The slot's size.
        capacity: usize,
    },
    /// Not one JSON-RPC message (or batch), or a request id longer than this build stores.
    NotAMessage,
    /// The session expired: only a new `initialize` may go now.
    SessionExpired,
    /// [`close`](super::HttpClient::close) was called.
    Closed,
}

impl fmt::Display for SendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Busy => f.write_str("no exchange is free; drain the client and try again"),
            Self::TooLarge { needed, capacity } => {
                write!(f, "message of {needed} bytes does not fit the {capacity}-byte exchange buffer")
            }
            Self::NotAMessage => f.write_str("not a JSON-RPC message"),
            Self::SessionExpired => f.write_str("the session expired; send a new initialize"),
            Self::Closed => f.write_str("the client is closed"),
        }
    }
}

impl core::error::Error for SendError {}

/// Why a token was refused; nothing changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum TokenError {
    /// Longer than the `capacity` set aside (see
    /// [`ClientConfig::token_capacity`](super::ClientConfig::token_capacity)).
    TooLong {
        /// The room there is.
        capacity: usize,
    },
    /// Empty, or a byte that is not visible ASCII (a header value must not carry a line
    /// break, and RFC 6750 tokens are visible ASCII).
    Invalid,
}

impl fmt::Display for TokenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooLong { capacity } => write!(f, "bearer token longer than the {capacity} bytes set aside"),
            Self::Invalid => f.write_str("bearer token empty or not visible ASCII"),
        }
    }
}

impl core::error::Error for TokenError {}

/// Why [`retry`](super::HttpClient::retry) or [`give_up`](super::HttpClient::give_up)
/// did nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum RetryError {
    /// The exchange is not waiting for credentials (it was never refused, is already
    /// retried, or was dropped with its session).
    NotWaiting,
}

impl fmt::Display for RetryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the exchange is not waiting for credentials")
    }
}

impl core::error::Error for RetryError {}
