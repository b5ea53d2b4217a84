//! What the event-stream decoder and writer report when they cannot do their job.

use core::fmt;

/// An event the decoder could not deliver. The stream stays usable: decoding goes on
/// with the next event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum SseError {
    /// An event did not fit the buffer and was skipped, up to the blank line that ends
    /// it (or the end of the stream). Its `id` field, if any, still counts: a client that
    /// reconnects is not sent the same oversized event again.
    TooLarge {
        /// The buffer's size.
        capacity: usize,
    },
    /// The stream ended inside an event, which was discarded (as the specification
    /// says); a partial line, data, an event type or an id had arrived for it.
    Incomplete,
}

impl fmt::Display for SseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooLarge { capacity } => {
                write!(f, "an event did not fit the {capacity}-byte receive buffer and was skipped")
            }
            Self::Incomplete => f.write_str("the event stream ended inside an event, which was discarded"),
        }
    }
}

impl core::error::Error for SseError {}

/// Why the writer wrote nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum SseWriteError {
    /// The event needs `needed` bytes and only `available` are free.
    BufferTooSmall {
        /// Bytes the whole event needs, its blank line included.
        needed: usize,
        /// Bytes free in the buffer.
        available: usize,
    },
    /// The text for `field` holds a CR or LF, which would end its line early, or (for an
    /// `id`) a NUL, which makes receivers ignore the field.
    InvalidField {
        /// `"event"`, `"id"` or `"comment"`.
        field: &'static str,
    },
}

impl fmt::Display for SseWriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::BufferTooSmall { needed, available } => {
                write!(f, "buffer too small: event needs {needed} bytes, {available} free; nothing was written")
            }
            Self::InvalidField { field } => {
                write!(f, "the {field} text holds a line break (or an id a NUL); nothing was written")
            }
        }
    }
}

impl core::error::Error for SseWriteError {}
