//! What an endpoint reports: outputs, events, and the reasons a session ends.

use core::fmt;
use core::time::Duration;

use super::pending::PendingRequest;
use super::responder::Responder;
use super::transmit::Transmit;
use crate::mcp::{Method, ProtocolVersion};
use crate::time::Instant;
use crate::wire::{EnvelopeError, ErrorCode, ErrorObject, JsonStr, Number, RawJson, RequestId, RequestIdRef};

/// One step of the drain loop; see [`Endpoint::poll_output`](super::Endpoint::poll_output).
#[derive(Debug)]
pub enum Output<'e> {
    /// Bytes to write to the transport, in order: every frame queued (line mode) or one
    /// message with its origin (message mode); see [`OutputMode`](super::OutputMode).
    /// They count as written at the next call to `poll_output`, unless
    /// [`Endpoint::sent`](super::Endpoint::sent) says only part of them went out.
    Transmit(Transmit<'e>),
    /// Something happened.
    Event(Event<'e>),
    /// Nothing more to do until the next input. Call
    /// [`handle_timeout`](super::Endpoint::handle_timeout) at `next_timeout` if nothing
    /// arrives before it.
    Idle {
        /// The earliest deadline, if any.
        next_timeout: Option<Instant>,
    },
}

/// Something the application should know about. Borrowed values point into the
/// endpoint's receive buffer and are valid until the next call that takes `&mut` of the
/// endpoint.
#[derive(Debug)]
#[non_exhaustive]
pub enum Event<'e> {
    /// The `initialize` exchange chose `version`. `peer` is the peer's `initialize` params
    /// (for a server) or result (for a client), to read `clientInfo`/`serverInfo`,
    /// `capabilities` and `instructions` from. [`Ready`](Event::Ready) follows once the
    /// handshake is complete.
    Negotiated {
        /// The negotiated version.
        version: ProtocolVersion,
        /// The peer's side of the exchange, undecoded.
        peer: RawJson<'e>,
    },
    /// The handshake is complete: a client has sent `notifications/initialized`, a
    /// server has received it. Every method of `version` may now be used.
    Ready {
        /// The negotiated version.
        version: ProtocolVersion,
    },
    /// The peer sent a request. Answer it exactly once, through the handle or later
    /// with [`Endpoint::respond`](super::Endpoint::respond) and friends, given the
    /// handle's [`pending`](IncomingRequest::pending) value.
    Request(IncomingRequest<'e>),
    /// The peer sent a notification for the application.
    Notification(IncomingNotification<'e>),
    /// A request of ours succeeded. Decode `result` by `method`.
    Response {
        /// Our request's id.
        id: RequestId,
        /// Our request's method, `None` for a method this crate does not know.
        method: Option<Method<'static>>,
        /// The result object.
        result: RawJson<'e>,
    },
    /// A request of ours failed with an error response.
    Error {
        /// Our request's id.
        id: RequestId,
        /// Our request's method, `None` for a method this crate does not know.
        method: Option<Method<'static>>,
        /// The error.
        error: ErrorObject<'e>,
    },
    /// Progress on a request of ours that asked for it. Values strictly increase (compared
    /// exactly, as decimal numbers).
    Progress {
        /// Our request's id.
        id: RequestId,
        /// The progress so far (`.as_f64()` for arithmetic).
        progress: Number<'e>,
        /// The total, if known.
        total: Option<Number<'e>>,
        /// A human-readable message (2025-03-26 on).
        message: Option<JsonStr<'e>>,
    },
    /// A request of ours got no response in time; `notifications/cancelled` has been sent
    /// and a late response will be dropped (with a [`Misbehavior::LateResponse`]).
    TimedOut {
        /// Our request's id.
        id: RequestId,
        /// Our request's method.
        method: Option<Method<'static>>,
    },
    /// A request of ours can no longer be answered because the session is ending.
    Failed {
        /// Our request's id.
        id: RequestId,
        /// Our request's method.
        method: Option<Method<'static>>,
        /// Why.
        reason: CloseReason,
    },
    /// The peer cancelled one of its requests. Stop working on it: it is over, its slot
    /// is free, and an answer written anyway is not sent (`respond` returns
    /// [`Responded::Suppressed`](super::Responded::Suppressed)). A cancelled request
    /// that was still held, never delivered, is dropped without this event.
    Cancelled {
        /// The request, as [`IncomingRequest::pending`] named it (its id is
        /// `request.id()`).
        request: PendingRequest,
        /// The peer's reason, if given.
        reason: Option<JsonStr<'e>>,
    },
    /// The application did not answer one of the peer's requests within
    /// [`Config::answer_within`](super::Config::answer_within): the endpoint answered it
    /// with -32603 and it is over. Stop working on it; a late answer is suppressed.
    Expired {
        /// The request.
        request: PendingRequest,
        /// Its method, `None` for a method this crate does not know.
        method: Option<Method<'static>>,
    },
    /// The response to a request of ours was longer than the receive buffer, so it could
    /// not be read: the request is over. Configure a larger buffer, or ask for less.
    ResponseTooLong {
        /// Our request's id.
        id: RequestId,
        /// Our request's method.
        method: Option<Method<'static>>,
        /// The response's length in bytes.
        len: usize,
    },
    /// A keepalive ping went unanswered for the configured time.
    PeerUnresponsive {
        /// How long the ping has been waiting.
        waited: Duration,
    },
    /// The peer broke a rule. The endpoint has already done what the specification asks
    /// (an error reply where one is due, nothing where none is); the connection is still
    /// usable.
    Misbehavior(Misbehavior<'e>),
    /// The session is over: nothing more will be sent or received.
    Closed {
        /// Why.
        reason: CloseReason,
    },
}

/// A rule the peer broke, and what the endpoint did about it.
#[derive(Debug)]
#[non_exhaustive]
pub enum Misbehavior<'e> {
    /// A frame that is not a valid JSON-RPC message. `replied` says whether an error
    /// response (-32700 or -32600) was sent: it is for broken requests and for frames
    /// whose kind cannot be told, and never for broken notifications or responses.
    InvalidMessage {
        /// The broken rule and the id, if readable.
        error: EnvelopeError<'e>,
        /// Whether an error response was sent.
        replied: bool,
    },
    /// A line (or a frame) longer than the receive buffer was skipped. If its first
    /// bytes showed a request with an id, it was answered with -32600 naming the limit
    /// (`replied`); a response to a request of ours ends that request instead
    /// ([`Event::ResponseTooLong`]).
    LineTooLong {
        /// Its length in bytes.
        len: usize,
        /// Whether an error response was sent.
        replied: bool,
    },
    /// The input ended in the middle of a line, which was dropped.
    UnterminatedLine {
        /// Bytes of it received.
        len: usize,
    },
    /// A response to an id this endpoint never used.
    UnknownResponse {
        /// The id.
        id: RequestIdRef<'e>,
    },
    /// A response to a request that already ended (answered, timed out or cancelled);
    /// dropped.
    LateResponse {
        /// The id.
        id: RequestIdRef<'e>,
    },
    /// An error response with a `null` or missing id: the peer could not read one of our
    /// messages.
    UncorrelatedError {
        /// The error.
        error: ErrorObject<'e>,
    },
    /// A request was answered with an error by the endpoint itself.
    RequestRefused {
        /// The request's id.
        id: RequestIdRef<'e>,
        /// The request's method.
        method: Method<'e>,
        /// The error code sent.
        code: ErrorCode,
        /// Why.
        reason: RefuseReason,
    },
    /// A notification that is not allowed here was ignored.
    NotificationIgnored {
        /// Its method.
        method: Method<'e>,
        /// Why.
        reason: RefuseReason,
    },
    /// `notifications/progress` for a token that belongs to no request of ours in flight
    /// (or to one that did not ask for progress); dropped.
    UnknownProgressToken {
        /// The token.
        token: RawJson<'e>,
    },
    /// A progress value that did not increase; dropped.
    NonIncreasingProgress {
        /// Our request's id.
        id: RequestId,
        /// The value received.
        progress: Number<'e>,
    },
    /// The params of a notification this endpoint handles itself (`cancelled`,
    /// `progress`) were malformed; ignored.
    InvalidNotificationParams {
        /// The notification's method.
        method: Method<'e>,
    },
}

/// Why the endpoint refused a request or ignored a notification.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum RefuseReason {
    /// The handshake is not complete (only `ping` may pass before it).
    NotInitialized,
    /// A second `initialize`.
    AlreadyInitialized,
    /// `initialize` inside a batch.
    InitializeInBatch,
    /// `initialize` params without a usable `protocolVersion`.
    InvalidInitialize,
    /// The method does not exist in the negotiated version, or not in this direction.
    NotInVersion,
    /// The method belongs to a capability this side did not declare.
    CapabilityNotDeclared,
    /// The request's id is still in flight.
    DuplicateId,
    /// The request's id is longer than the endpoint can store.
    IdTooLong,
    /// Every inbound request slot is in use and the request could not be held (holding
    /// is off, or held requests fill their half of the receive buffer), or a held
    /// request had to make room for a frame being read.
    TooManyRequests,
}

impl RefuseReason {
    /// The error code and message sent for this reason.
    pub(crate) fn reply(self) -> (ErrorCode, &'static str) {
        match self {
            Self::NotInitialized => {
                (ErrorCode::INVALID_REQUEST, "Session not initialized: only ping is allowed before initialization")
            }
            Self::AlreadyInitialized => (ErrorCode::INVALID_REQUEST, "Session already initialized"),
            Self::InitializeInBatch => (ErrorCode::INVALID_REQUEST, "initialize must not be part of a batch"),
            Self::InvalidInitialize => (ErrorCode::INVALID_PARAMS, "initialize params need a protocolVersion string"),
            Self::NotInVersion => (ErrorCode::METHOD_NOT_FOUND, "Method not found: not in this protocol version"),
            Self::CapabilityNotDeclared => (ErrorCode::METHOD_NOT_FOUND, "Method not found: capability not declared"),
            Self::DuplicateId => (ErrorCode::INVALID_REQUEST, "Request id is already in use by a request in flight"),
            Self::IdTooLong => (ErrorCode::INVALID_REQUEST, "Request id is too long"),
            Self::TooManyRequests => (ErrorCode::INTERNAL_ERROR, "Too many requests in flight"),
        }
    }
}

/// Why a session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum CloseReason {
    /// The peer closed its side (end of input).
    PeerClosed,
    /// [`Endpoint::close`](super::Endpoint::close) was called.
    LocalClose,
    /// The server did not answer `initialize` in time.
    InitializeTimedOut,
    /// The server answered `initialize` with a version this client does not support.
    UnsupportedVersion,
    /// The server answered `initialize` with an error.
    InitializeRejected {
        /// The error code.
        code: ErrorCode,
    },
    /// The server answered `initialize` with a result this client cannot read.
    InvalidInitializeResult,
}

impl fmt::Display for CloseReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::PeerClosed => f.write_str("the peer closed the connection"),
            Self::LocalClose => f.write_str("closed locally"),
            Self::InitializeTimedOut => f.write_str("the server did not answer initialize in time"),
            Self::UnsupportedVersion => f.write_str("the server chose a protocol version this client does not support"),
            Self::InitializeRejected { code } => write!(f, "the server rejected initialize ({code})"),
            Self::InvalidInitializeResult => f.write_str("the server's initialize result is invalid"),
        }
    }
}

/// A request from the peer, with a handle to answer it while its params are still
/// borrowed. To answer later, keep [`pending`](Self::pending).
#[must_use = "a request must be answered: respond now or keep `pending()` to respond later"]
pub struct IncomingRequest<'e> {
    /// The request's id.
    pub id: RequestIdRef<'e>,
    /// The method.
    pub method: Method<'e>,
    /// The params object, if any.
    pub params: Option<RawJson<'e>>,
    pub(crate) responder: Responder<'e>,
}

impl fmt::Debug for IncomingRequest<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IncomingRequest")
            .field("id", &self.id)
            .field("method", &self.method)
            .field("params", &self.params)
            .finish()
    }
}

/// A notification from the peer.
#[derive(Debug, Clone, Copy)]
pub struct IncomingNotification<'e> {
    /// The method.
    pub method: Method<'e>,
    /// The params object, if any.
    pub params: Option<RawJson<'e>>,
}
