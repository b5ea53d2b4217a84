//! The caller's own mistakes and capacity limits, each with a precise reason.

use core::fmt;

use crate::mcp::Capability;
use crate::wire::{EncodeError, SerializeError};

/// Why a command (`send_*`, `respond*`, `cancel`) was refused. Nothing was sent and the
/// endpoint's state is unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum SendError {
    /// The transmit buffer cannot hold the message now: drain
    /// [`poll_output`](super::Endpoint::poll_output) (which hands out the queued bytes)
    /// and try again. If `needed` exceeds the whole buffer, it never will fit.
    TxFull {
        /// Bytes the message needs.
        needed: usize,
        /// Bytes free now.
        available: usize,
    },
    /// Every outgoing-request slot is in use (backpressure): wait for a response.
    TooManyInFlight {
        /// The number of slots.
        limit: usize,
    },
    /// The handshake is not complete; only `ping` (and, from a server, log
    /// notifications) may be sent before it.
    NotReady,
    /// The session is closing or closed.
    Closed,
    /// The method does not exist in the negotiated version or direction, or the endpoint
    /// sends it itself (`initialize`, `notifications/initialized`,
    /// `notifications/cancelled`, `notifications/progress`: use `cancel` and
    /// `send_progress`).
    MethodNotAllowed,
    /// The capability this method needs was not declared: by the peer for requests, by
    /// this side for notifications such as `list_changed`.
    CapabilityNotDeclared(Capability),
    /// No such request: this endpoint never delivered it (or, for [`cancel`], no
    /// request of ours with that id is in flight).
    ///
    /// [`cancel`]: super::Endpoint::cancel
    UnknownRequest,
    /// The application already answered this request (told apart from a request that
    /// ended otherwise, which is [`Responded::Suppressed`], for the 64 latest requests).
    AlreadyAnswered,
    /// The answer can never fit the transmit buffer. The endpoint answered the request
    /// with -32603 naming both sizes instead, and the request is over.
    ReplyTooLarge {
        /// Bytes the answer needed.
        needed: usize,
        /// The transmit buffer's size.
        capacity: usize,
    },
    /// `initialize` cannot be cancelled.
    NotCancellable,
    /// The request did not ask for progress notifications.
    NoProgressToken,
    /// Progress must strictly increase.
    ProgressNotIncreasing,
    /// Progress values (and totals) must be finite numbers.
    InvalidProgress,
    /// The params or result could not be encoded.
    Encode(EncodeError),
    /// 2026-07-28: the result's `resultType` is not one this method may return here:
    /// `input_required` outside `tools/call`, `prompts/get` and `resources/read` (or with
    /// neither `inputRequests` nor `requestState`), `task` outside `tools/call` or to a
    /// client that did not declare the tasks extension, or a value this crate does not
    /// know.
    ResultTypeNotAllowed,
    /// 2026-07-28: an entry of `inputRequests` is not an `elicitation/create`,
    /// `sampling/createMessage` or `roots/list` request.
    InvalidInputRequest,
    /// 2026-07-28: a log message for a request that did not ask for one at this level
    /// (its `io.modelcontextprotocol/logLevel` was absent or higher).
    LogLevelNotRequested,
    /// 2026-07-28: a notification on a `subscriptions/listen` stream that was not
    /// acknowledged yet, or that its granted filter does not cover; or a listen operation
    /// on a request that is not a listen stream.
    NotSubscribed,
    /// A retry that does not match the `input_required` result it answers: a
    /// `requestState` that is not the one received (or one where none was), or
    /// `inputResponses` whose keys are not the `inputRequests` keys.
    RetryMismatch,
}

impl fmt::Display for SendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TxFull { needed, available } => write!(
                f,
                "transmit buffer full: message needs {needed} bytes, {available} free; drain poll_output and retry"
            ),
            Self::TooManyInFlight { limit } => write!(f, "all {limit} outgoing request slots are in use"),
            Self::NotReady => f.write_str("the initialize handshake is not complete"),
            Self::Closed => f.write_str("the session is closed"),
            Self::MethodNotAllowed => f.write_str("method not available in the negotiated version or direction"),
            Self::CapabilityNotDeclared(c) => write!(f, "capability `{}` was not declared", c.path()),
            Self::UnknownRequest => f.write_str("no such request on this endpoint"),
            Self::AlreadyAnswered => f.write_str("the request was already answered"),
            Self::ReplyTooLarge { needed, capacity } => write!(
                f,
                "reply of {needed} bytes can never fit the {capacity}-byte transmit buffer; -32603 was sent instead"
            ),
            Self::NotCancellable => f.write_str("initialize cannot be cancelled"),
            Self::NoProgressToken => f.write_str("the request did not ask for progress"),
            Self::ProgressNotIncreasing => f.write_str("progress must increase from the last value sent"),
            Self::InvalidProgress => f.write_str("progress and total must be finite numbers"),
            Self::Encode(e) => write!(f, "{e}"),
            Self::ResultTypeNotAllowed => f.write_str("this resultType may not answer this request"),
            Self::InvalidInputRequest => {
                f.write_str("inputRequests entries must be elicitation/create, sampling/createMessage or roots/list")
            }
            Self::LogLevelNotRequested => f.write_str("the request did not ask for log messages at this level"),
            Self::NotSubscribed => f.write_str("not an acknowledged listen stream, or outside its granted filter"),
            Self::RetryMismatch => f.write_str("the retry does not match the input_required result it answers"),
        }
    }
}

impl core::error::Error for SendError {}

impl From<EncodeError> for SendError {
    fn from(e: EncodeError) -> Self {
        match e {
            EncodeError::BufferTooSmall { needed, available } => SendError::TxFull { needed, available },
            other => SendError::Encode(other),
        }
    }
}

impl From<SerializeError> for SendError {
    fn from(e: SerializeError) -> Self {
        SendError::Encode(EncodeError::Serialize(e))
    }
}

/// What became of an answer (or of progress) for one of the peer's requests.
///
/// The rule for an answer to a request that is no longer live, the same through the
/// [`IncomingRequest`](super::IncomingRequest) handle and through
/// [`Endpoint::respond`](super::Endpoint::respond) with a
/// [`PendingRequest`](super::PendingRequest):
///
/// * the application already answered it, and it is among the 64 latest requests the
///   endpoint delivered: [`SendError::AlreadyAnswered`];
/// * it ended otherwise (cancelled by the peer, expired, abandoned, answered by the
///   endpoint because the reply could never fit), or it is older than that: nothing is
///   written, `Ok(Responded::Suppressed)`;
/// * this endpoint never delivered it: [`SendError::UnknownRequest`];
/// * the session was shut down locally: [`SendError::Closed`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Responded {
    /// It was queued for sending.
    Sent,
    /// The request was already over, so nothing was written: the peer cancelled it (the
    /// specification asks that a cancelled request is never answered), it expired, it
    /// was abandoned, or the endpoint answered it itself. Not an error: a worker that
    /// finishes late has nothing to fix.
    Suppressed,
}

/// Why an endpoint could not be created.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum ConfigError {
    /// The transmit buffer is smaller than the endpoint needs for its own messages.
    TxTooSmall {
        /// The minimum size.
        needed: usize,
    },
    /// The reply reserve is smaller than the longest reply the endpoint writes on its
    /// own.
    ReserveTooSmall {
        /// The minimum.
        needed: usize,
    },
    /// The receive buffer is too small to hold a useful message.
    RxTooSmall {
        /// The minimum size.
        needed: usize,
    },
    /// `info` or `capabilities` is not a JSON object, or the typed capabilities are the
    /// other role's (`ServerCapabilities` for a client, say).
    NotAnObject,
    /// No supported protocol version uses the `initialize` handshake (a snapshot resumes
    /// a handshake session).
    NoHandshakeVersion,
    /// The configuration supports no protocol version at all.
    NoVersion,
    /// The configuration is a client's, for an endpoint that can only be a server: one
    /// resumed from a snapshot, or one whose type is built for servers only
    /// ([`HandshakeServer`](super::HandshakeServer)).
    NotAServer,
    /// The snapshot's version is not one the configuration supports.
    UnsupportedVersion,
    /// `info`, `capabilities` or `instructions` could not be encoded (a typed value
    /// whose `Serialize` failed, say).
    Encode(EncodeError),
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TxTooSmall { needed } => write!(f, "transmit buffer too small: need at least {needed} bytes"),
            Self::RxTooSmall { needed } => write!(f, "receive buffer too small: need at least {needed} bytes"),
            Self::ReserveTooSmall { needed } => write!(f, "reply reserve too small: need at least {needed} bytes"),
            Self::NotAnObject => {
                f.write_str("info and capabilities must be JSON objects, and capabilities this role's")
            }
            Self::NoHandshakeVersion => f.write_str("no supported protocol version uses the initialize handshake"),
            Self::NoVersion => f.write_str("no protocol version is supported"),
            Self::NotAServer => f.write_str("only a server endpoint can be resumed or built server-only"),
            Self::UnsupportedVersion => f.write_str("the snapshot's protocol version is not supported"),
            Self::Encode(e) => write!(f, "the initialize exchange cannot be encoded: {e}"),
        }
    }
}

impl core::error::Error for ConfigError {}
