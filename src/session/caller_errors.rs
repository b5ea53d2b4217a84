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
    /// No request with that id is in flight (it was answered, cancelled, or never seen).
    UnknownRequest,
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
            Self::UnknownRequest => f.write_str("no request with that id is in flight"),
            Self::NotCancellable => f.write_str("initialize cannot be cancelled"),
            Self::NoProgressToken => f.write_str("the request did not ask for progress"),
            Self::ProgressNotIncreasing => f.write_str("progress must increase from the last value sent"),
            Self::InvalidProgress => f.write_str("progress and total must be finite numbers"),
            Self::Encode(e) => write!(f, "{e}"),
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

/// What became of a response.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Responded {
    /// It was queued for sending.
    Sent,
    /// The peer had cancelled the request, so nothing was sent (the specification asks
    /// that a cancelled request is never answered).
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
    /// The receive buffer is too small to hold a useful message.
    RxTooSmall {
        /// The minimum size.
        needed: usize,
    },
    /// `info` or `capabilities` is not a JSON object.
    NotAnObject,
    /// No supported protocol version uses the `initialize` handshake.
    NoHandshakeVersion,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TxTooSmall { needed } => write!(f, "transmit buffer too small: need at least {needed} bytes"),
            Self::RxTooSmall { needed } => write!(f, "receive buffer too small: need at least {needed} bytes"),
            Self::NotAnObject => f.write_str("info and capabilities must be JSON objects"),
            Self::NoHandshakeVersion => f.write_str("no supported protocol version uses the initialize handshake"),
        }
    }
}

impl core::error::Error for ConfigError {}
