//! What an endpoint reports: outputs, events, and the reasons a session ends.

use core::fmt;
use core::time::Duration;

use super::pending::PendingRequest;
use super::responder::Responder;
use super::retry::RetryTicket;
use super::transmit::Transmit;
use crate::mcp::{Capability, Method, ProtocolVersion};
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
    ///
    /// A dual-era client learns the server's era here too: after its `server/discover`
    /// probe found a modern server, `version` is the stateless version it settled on
    /// (`version.has_handshake()` is `false`) and `peer` is the `DiscoverResult`. An
    /// application that caches the era (per server command, per HTTP origin) keeps
    /// `version` and pins the era next time ([`Config::era`](super::Config::era)).
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
    /// 2026-07-28: the server needs input before it can answer our request `id` (an
    /// `input_required` result; `result` is the whole `InputRequiredResult`). Fulfil its
    /// `inputRequests` (the same sampling, elicitation and roots answers as for a
    /// handshake-era server's requests), then send the request again with
    /// [`Endpoint::retry`](super::Endpoint::retry), giving `retry`, the original params,
    /// the answers and the `requestState` as received. The request `id` is over.
    InputRequired {
        /// Our request's id.
        id: RequestId,
        /// Our request's method.
        method: Option<Method<'static>>,
        /// The `InputRequiredResult` (`inputRequests`, `requestState`).
        result: RawJson<'e>,
        /// What the retry must match.
        retry: RetryTicket,
    },
    /// 2026-07-28 tasks extension: the server answered our `tools/call` with a task
    /// handle (`resultType: "task"`, a flat `CreateTaskResult`): poll it with `tasks/get`
    /// every `pollIntervalMs` until its status is terminal.
    TaskCreated {
        /// Our request's id.
        id: RequestId,
        /// Our request's method.
        method: Option<Method<'static>>,
        /// The task: `taskId`, `status`, `ttlMs`, `pollIntervalMs`, ….
        task: RawJson<'e>,
    },
    /// 2026-07-28: the server answered our request `id` with a result it may not give
    /// (see [`ResultProblem`]); the request is over. The specification makes such a
    /// result invalid, so nothing of it should be used.
    ResultRejected {
        /// Our request's id.
        id: RequestId,
        /// Our request's method.
        method: Option<Method<'static>>,
        /// What is wrong.
        problem: ResultProblem,
        /// The result as received.
        result: RawJson<'e>,
    },
    /// 2026-07-28: the server acknowledged our `subscriptions/listen` request `id`;
    /// `granted` is the filter it agreed to honour (a subset of what was asked).
    /// Notifications of the stream follow as [`Event::Notification`] with
    /// [`subscription`](IncomingNotification::subscription) set to `id`.
    Subscribed {
        /// The listen request's id: the subscription's id.
        id: RequestId,
        /// The granted `SubscriptionFilter`.
        granted: RawJson<'e>,
    },
    /// 2026-07-28: a listen stream of ours ended from the server's side: with its closing
    /// result (`cancelled: false`), or with the server's `notifications/cancelled`
    /// (`cancelled: true`; stdio). One that ends because the transport closes ends as
    /// [`Event::Failed`].
    SubscriptionEnded {
        /// The listen request's id.
        id: RequestId,
        /// Whether the server ended it with `notifications/cancelled`.
        cancelled: bool,
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
    /// A request from a 2026-07-28 server, which sends none (input requests travel in
    /// results); dropped unanswered, since a stateless client writes no responses.
    UnexpectedRequest {
        /// Its id.
        id: RequestIdRef<'e>,
        /// Its method.
        method: Method<'e>,
    },
    /// A notification tagged with a subscription id that is no listen stream of ours (or
    /// one not acknowledged yet), or a change notification outside any listen stream in
    /// the stateless era; dropped.
    UnknownSubscription {
        /// The notification's method.
        method: Method<'e>,
    },
}

/// What is wrong with a 2026-07-28 result ([`Event::ResultRejected`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum ResultProblem {
    /// `input_required` on a method other than `tools/call`, `prompts/get` and
    /// `resources/read`, or with neither `inputRequests` nor `requestState`.
    InputRequiredNotAllowed,
    /// An input request for a capability this client did not declare.
    UndeclaredCapability(Capability),
    /// `inputRequests` that are not `elicitation/create`, `sampling/createMessage` and
    /// `roots/list` requests, or a `requestState` that is not a string.
    InvalidInputRequests,
    /// `task` on a method other than `tools/call`, or to a client that did not declare
    /// the tasks extension.
    TaskNotAllowed,
    /// A `resultType` this client does not know (or one that is not a string).
    UnknownResultType,
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
    /// A request carrying the 2026-07-28 `_meta` on a connection that opened with
    /// `initialize`.
    StatelessOnHandshakeSession,
    /// Every inbound request slot is in use and the request could not be held (holding
    /// is off, or held requests fill their half of the receive buffer), or a held
    /// request had to make room for a frame being read.
    TooManyRequests,
    // The stateless era's own reasons come last: a handshake-only endpoint's reply
    // table (`handshake_reply`) then covers only the variants above.
    /// 2026-07-28: `_meta` lacks `io.modelcontextprotocol/protocolVersion`.
    MissingProtocolVersion,
    /// 2026-07-28: `_meta` lacks `io.modelcontextprotocol/clientCapabilities`.
    MissingClientCapabilities,
    /// 2026-07-28: `_meta.io.modelcontextprotocol/logLevel` is not a log level.
    InvalidLogLevel,
    /// 2026-07-28: a protocol version this server does not speak (-32022, with the
    /// supported versions).
    UnsupportedVersion,
    /// `initialize` on a connection that is in the stateless era (-32022 naming its
    /// versions), or to a server that speaks only that era (-32601).
    InitializeWhenStateless,
    /// 2026-07-28: the method needs a capability the client did not declare for the
    /// request (-32021, with `requiredCapabilities`): the tasks extension for `tasks/*`.
    MissingClientCapability,
}

impl RefuseReason {
    /// The error code and message sent for this reason.
    pub(crate) fn reply(self) -> (ErrorCode, &'static str) {
        self.handshake_reply().unwrap_or_else(|| self.stateless_reply())
    }

    /// [`reply`](Self::reply) on an endpoint of profile `E`. Without the stateless era
    /// only the reasons of [`handshake_reply`](Self::handshake_reply) come up, and the
    /// stateless era's messages are not linked (about 500 bytes of flash).
    pub(crate) fn reply_for<E: super::profile::Profile>(self) -> (ErrorCode, &'static str) {
        match self.handshake_reply() {
            Some(reply) => reply,
            None if E::STATELESS => self.stateless_reply(),
            // Not reached: these reasons come only from the stateless era's checks.
            None => (ErrorCode::INVALID_REQUEST, "Request refused"),
        }
    }

    /// The reasons a handshake-era session refuses a request for.
    fn handshake_reply(self) -> Option<(ErrorCode, &'static str)> {
        Some(match self {
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
            Self::StatelessOnHandshakeSession => (
                ErrorCode::INVALID_REQUEST,
                "This session opened with initialize: 2026-07-28 requests are not accepted on it",
            ),
            _ => return None,
        })
    }

    /// The reasons only the stateless era's checks give.
    fn stateless_reply(self) -> (ErrorCode, &'static str) {
        match self {
            Self::MissingProtocolVersion => {
                (ErrorCode::INVALID_PARAMS, "Missing required _meta field io.modelcontextprotocol/protocolVersion")
            }
            Self::MissingClientCapabilities => {
                (ErrorCode::INVALID_PARAMS, "Missing required _meta field io.modelcontextprotocol/clientCapabilities")
            }
            Self::InvalidLogLevel => {
                (ErrorCode::INVALID_PARAMS, "Invalid _meta field io.modelcontextprotocol/logLevel")
            }
            Self::UnsupportedVersion => (ErrorCode::UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version"),
            Self::InitializeWhenStateless => (
                ErrorCode::UNSUPPORTED_PROTOCOL_VERSION,
                "This connection speaks the 2026-07-28 protocol: initialize is not accepted",
            ),
            Self::MissingClientCapability => {
                (ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY, "Missing required client capability")
            }
            // The handshake's reasons (see `reply`).
            _ => (ErrorCode::INVALID_REQUEST, "Request refused"),
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
    /// A client that speaks only the stateless era found a server that speaks only the
    /// handshake versions (its `server/discover` probe got another error, an answer with
    /// no mutual version, or no answer).
    HandshakeOnlyServer,
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
            Self::HandshakeOnlyServer => f.write_str("the server speaks only the initialize handshake versions"),
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
    /// 2026-07-28: the listen stream of ours it came on (its
    /// `_meta.io.modelcontextprotocol/subscriptionId`, checked to be one).
    pub subscription: Option<RequestIdRef<'e>>,
}

#[cfg(test)]
mod tests {
    use super::RefuseReason::{self, *};
    use crate::session::profile::{Full, Handshake, HandshakeServer, Profile};

    const ALL: [RefuseReason; 16] = [
        NotInitialized,
        AlreadyInitialized,
        InitializeInBatch,
        InvalidInitialize,
        NotInVersion,
        CapabilityNotDeclared,
        DuplicateId,
        IdTooLong,
        MissingProtocolVersion,
        MissingClientCapabilities,
        InvalidLogLevel,
        UnsupportedVersion,
        InitializeWhenStateless,
        StatelessOnHandshakeSession,
        MissingClientCapability,
        TooManyRequests,
    ];

    /// The reasons the handshake-era checks give (src/session/receive.rs, core.rs).
    const HANDSHAKE: [RefuseReason; 10] = [
        NotInitialized,
        AlreadyInitialized,
        InitializeInBatch,
        InvalidInitialize,
        NotInVersion,
        CapabilityNotDeclared,
        DuplicateId,
        IdTooLong,
        StatelessOnHandshakeSession,
        TooManyRequests,
    ];

    /// Does not compile when a reason is added and `ALL` not told.
    #[allow(dead_code)]
    fn all_is_every_reason(r: RefuseReason) -> usize {
        match r {
            NotInitialized
            | AlreadyInitialized
            | InitializeInBatch
            | InvalidInitialize
            | NotInVersion
            | CapabilityNotDeclared
            | DuplicateId
            | IdTooLong
            | MissingProtocolVersion
            | MissingClientCapabilities
            | InvalidLogLevel
            | UnsupportedVersion
            | InitializeWhenStateless
            | StatelessOnHandshakeSession
            | MissingClientCapability
            | TooManyRequests => ALL.len(),
        }
    }

    #[test]
    fn every_reason_has_its_own_reply_in_one_of_the_two_tables() {
        for r in ALL {
            let handshake = r.handshake_reply();
            assert_eq!(handshake.is_some(), HANDSHAKE.contains(&r), "{r:?}");
            assert_eq!(r.reply(), handshake.unwrap_or_else(|| r.stateless_reply()), "{r:?}");
            // Its own message, not a table's fallback.
            assert_ne!(r.reply().1, "Request refused", "{r:?}");
        }
    }

    #[test]
    fn a_profile_replies_as_reply_does_for_every_reason_it_can_give() {
        fn check<E: Profile>(reasons: &[RefuseReason]) {
            for &r in reasons {
                assert_eq!(r.reply_for::<E>(), r.reply(), "{r:?}");
            }
        }
        check::<Full>(&ALL);
        check::<Handshake>(&HANDSHAKE);
        check::<HandshakeServer>(&HANDSHAKE);
    }
}
