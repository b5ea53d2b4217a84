//! Answers kept after their frame is gone (`alloc`), and why a call failed.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::Deserialize;

use crate::mcp::CallToolResult;
use crate::session::{CloseReason, PaginationError, SendError};
use crate::wire::{DecodeError, ErrorCode, RawJson};

/// A result, owned: its JSON text, decoded on demand into borrowed vocabulary types or
/// the application's own.
#[derive(Clone, PartialEq, Eq)]
pub struct Answer {
    json: Vec<u8>,
}

impl Answer {
    /// A copy of `result`.
    pub fn new(result: RawJson<'_>) -> Self {
        Answer { json: result.as_bytes().to_vec() }
    }

    /// The result.
    pub fn json(&self) -> RawJson<'_> {
        RawJson::from_validated(&self.json)
    }

    /// The result decoded into `T` (borrowing from it).
    pub fn decode<'a, T: Deserialize<'a>>(&'a self) -> Result<T, DecodeError> {
        self.json().decode()
    }

    /// For a tool result: whether the tool failed (`isError`).
    pub fn is_error(&self) -> bool {
        self.json().get("isError").and_then(|v| v.as_bool()) == Some(true)
    }

    /// For a tool result: its text blocks, one per line.
    pub fn text(&self) -> String {
        let mut text = String::new();
        if let Ok(result) = self.decode::<CallToolResult<'_>>() {
            for (i, t) in super::result_text(&result).enumerate() {
                if i > 0 {
                    text.push('\n');
                }
                text.extend(t.chars());
            }
        }
        text
    }

    /// For a tool result: its `structuredContent`, decoded into `T`.
    pub fn structured<'a, T: Deserialize<'a>>(&'a self) -> Option<Result<T, DecodeError>> {
        Some(self.json().get("structuredContent")?.decode())
    }
}

impl fmt::Debug for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Answer({})", self.json())
    }
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.json(), f)
    }
}

/// Why a request got no result.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ClientError {
    /// The endpoint refused to send it (see [`SendError`]).
    Send(SendError),
    /// The server answered with an error.
    Error {
        /// Its code.
        code: ErrorCode,
        /// Its message.
        message: String,
        /// Its `data`, if any.
        data: Option<Answer>,
    },
    /// No answer in time (the request was cancelled).
    TimedOut,
    /// The request was cancelled by this side.
    Cancelled,
    /// The session ended before the answer.
    Closed(Option<CloseReason>),
    /// A list walk stopped (see [`PaginationError`]).
    Walk(PaginationError),
    /// The answer could not be read.
    Decode(DecodeError),
    /// The transport could not deliver the request or bring its answer (an HTTP
    /// refusal, a connection that failed, a stream that could not be resumed): why.
    Transport(String),
    /// A stateless server (2026-07-28) answered `input_required` again and again: the
    /// call was given up after as many rounds as the client follows.
    TooManyRounds,
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Send(e) => write!(f, "not sent: {e}"),
            Self::Error { code, message, .. } => write!(f, "the server answered {code}: {message}"),
            Self::TimedOut => f.write_str("no answer in time"),
            Self::Cancelled => f.write_str("cancelled"),
            Self::Closed(Some(reason)) => write!(f, "the session ended: {reason}"),
            Self::Closed(None) => f.write_str("the session ended"),
            Self::Walk(e) => write!(f, "the list walk stopped: {e}"),
            Self::Decode(e) => write!(f, "the answer could not be read: {e}"),
            Self::Transport(why) => write!(f, "the transport lost the request: {why}"),
            Self::TooManyRounds => f.write_str("the server asked for input round after round: given up"),
        }
    }
}

impl core::error::Error for ClientError {}

impl From<SendError> for ClientError {
    fn from(e: SendError) -> Self {
        ClientError::Send(e)
    }
}

impl From<DecodeError> for ClientError {
    fn from(e: DecodeError) -> Self {
        ClientError::Decode(e)
    }
}
