//! Server-Sent Events: the `text/event-stream` framing of both MCP HTTP transports.
//!
//! [`SseDecoder`] turns a response body, delivered in chunks of any size, into events,
//! following the WHATWG HTML standard's "interpreting an event stream" to the letter:
//!
//! * one UTF-8 BOM at the very start of the stream is dropped (it may be split across
//!   chunks), a BOM anywhere else is data;
//! * lines end with CRLF, LF or a lone CR, and a CR at the end of one chunk with the LF at
//!   the start of the next is one line end;
//! * lines starting with `:` are comments (keep-alives) and are ignored; any other line is
//!   a field `name: value` (one leading space of the value dropped; no colon means an
//!   empty value), with case-sensitive names;
//! * `data` values are joined with `\n`; `event` sets the type (`message` when absent);
//!   `id` sets the last event id unless its value holds a NUL, an empty value resets it,
//!   and it persists from event to event; `retry` sets the reconnection time when its
//!   value is ASCII digits; other fields are ignored;
//! * a blank line dispatches the event; an event without data dispatches nothing but its
//!   id still becomes the last event id; an event with empty data (`data:` alone, the
//!   priming event MCP 2025-11-25 servers send) is dispatched with empty data, and
//!   [`SseEvent::message`] says it carries no message;
//! * at the end of the stream, an incomplete event is discarded (and reported).
//!
//! Every chunking of the same stream gives the same events, errors, last event id and
//! reconnection time; the fuzz target `sse` and the property tests in `tests/sse.rs`
//! check this against a plain model of the rules above.
//!
//! Memory is the caller's buffer and nothing else. Lines are interpreted as they
//! complete, so the buffer holds one event's fields and one partial line, never the
//! text of a whole event: comments, `retry` lines and unknown fields take no room, so a
//! stream that sends nothing but keep-alives runs forever in a small buffer. An event
//! that does not fit is skipped up to its blank line and reported as
//! [`SseError::TooLarge`], and the events after it are intact: a peer cannot exhaust
//! memory or wedge the stream.
//!
//! Values are bytes: the standard decodes the stream as UTF-8 (invalid sequences become
//! U+FFFD) before parsing, which only ever changes bytes inside values, so parsing the
//! bytes gives the same structure, and the JSON layer validates the data anyway.
//!
//! [`SseWriter`] writes the events a server sends (messages, the priming event, `retry`,
//! comments) into the caller's buffer, whole or not at all, like
//! [`FrameWriter`](crate::wire::FrameWriter).
//!
//! ## Where nom is used
//!
//! The grammar of one complete line (blank, comment, or field with its optional colon
//! and space) and of a `retry` value is written with nom (`field.rs`). Cutting the byte
//! stream into lines is hand-written: it is incremental (a line, or a CRLF, may be split
//! across any number of chunks), it must decide when the buffer is full whether the line
//! being received can still fit, and it moves each value into its place in the buffer as
//! the line completes; nom's streaming parsers report "incomplete" but cannot resume or
//! manage the caller's buffer, so they would add a layer without removing any of this.

mod decoder;
mod encoder;
mod error;
mod field;

pub use decoder::{SseDecoder, SseEvent};
pub use encoder::SseWriter;
pub use error::{SseError, SseWriteError};
