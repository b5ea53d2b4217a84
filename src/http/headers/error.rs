//! Why a header value was refused, or could not be written.

use core::fmt;

/// A header value that does not say what its header must say. The server answers these
/// with the status its rules give (400, 403, 406, 415); the client reports them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum HeaderError {
    /// The value breaks the header's grammar; `at` is the byte offset, in the value as
    /// given, where reading stopped.
    Syntax {
        /// Offset of the first byte that does not fit.
        at: usize,
    },
    /// The value is longer than the `max` bytes this crate accepts for the header.
    TooLong {
        /// The limit.
        max: usize,
    },
    /// `MCP-Protocol-Version` names no published version.
    UnknownVersion,
    /// An `=?base64?…?=` value whose base64 is not canonical (standard alphabet, padded,
    /// no stray bits), or whose bytes are not UTF-8.
    BadEncoding,
    /// The caller's scratch buffer cannot hold the decoded value.
    BufferTooSmall {
        /// Bytes the decoded value needs.
        needed: usize,
        /// Bytes the scratch buffer has.
        capacity: usize,
    },
}

impl fmt::Display for HeaderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Syntax { at } => write!(f, "malformed header value at byte {at}"),
            Self::TooLong { max } => write!(f, "header value longer than {max} bytes"),
            Self::UnknownVersion => f.write_str("unknown or unsupported MCP protocol version"),
            Self::BadEncoding => f.write_str("malformed =?base64?...?= header value"),
            Self::BufferTooSmall { needed, capacity } => {
                write!(f, "scratch buffer too small to decode header value: need {needed} bytes, have {capacity}")
            }
        }
    }
}

impl core::error::Error for HeaderError {}

/// Why a header value was not written. In every case nothing was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum HeaderWriteError {
    /// The value needs `needed` bytes and the buffer has `available`.
    BufferTooSmall {
        /// Bytes the value needs.
        needed: usize,
        /// Bytes the buffer has.
        available: usize,
    },
    /// `what` cannot be written: a name that is not a token, or text a quoted string
    /// cannot carry (CR, LF and other control characters but HTAB).
    Invalid {
        /// Which part: `"scheme"`, `"parameter name"` or `"parameter value"`.
        what: &'static str,
    },
}

impl fmt::Display for HeaderWriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::BufferTooSmall { needed, available } => {
                write!(f, "buffer too small: header value needs {needed} bytes, {available} free; nothing was written")
            }
            Self::Invalid { what } => write!(f, "the {what} cannot be written in a header; nothing was written"),
        }
    }
}

impl core::error::Error for HeaderWriteError {}
