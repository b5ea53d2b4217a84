//! The session layer: one side of an MCP connection as a sans-IO state machine.
//!
//! An [`Endpoint`] is fed bytes, end of input and the current time, and told what to
//! send; it hands back bytes to write, events, and the next deadline. It implements the
//! lifecycle and version negotiation, request/response correlation, timeouts,
//! cancellation, progress, ping and keepalive, for both roles, in fixed memory.
//!
//! | file | job |
//! |---|---|
//! | `endpoint.rs` | the public machine: inputs, the drain (`poll_output`), getters |
//! | `core.rs` | the state apart from the received bytes: the sub-machines and what ties them |
//! | `lifecycle.rs` | one state enum: handshake, ready, closing with its reason, closed |
//! | `receive.rs` | what each received frame means and what is done about it |
//! | `commands.rs` | what the application sends, checked against version and capabilities |
//! | `outbound.rs`, `inbound.rs` | the fixed tables of requests in flight each way |
//! | `held.rs` | the peer's requests beyond the slots, held in the receive buffer |
//! | `pending.rs` | naming a request for later: serials, and what became of ended ones |
//! | `responder.rs` | answering one of the peer's requests |
//! | `replies.rs` | owed replies that do not fit: the one rule |
//! | `transmit.rs` | what goes out and on which channel: `Transmit`, `Origin`, the output modes |
//! | `timers.rs` | the timer table, request timeouts, the initialize timeout, keepalive |
//! | `event.rs` | what the endpoint reports |
//! | `config.rs`, `caller_errors.rs` | how it is set up; the caller's mistakes and limits |
//! | `buffer.rs` | where the two buffers live: lent, or owned |
//! | `snapshot.rs` | an idle server session in 22 bytes, and back |
//! | `cursors.rs` | opaque cursors for servers, a page walker for clients |
//! | `profile.rs` | what an endpoint type is built for: every era, or the handshake era only |
//!
//! ## Choices where the specification leaves room
//!
//! * Requests other than `ping` before the handshake completes get -32600 ("Session not
//!   initialized"); so does a second `initialize`.
//! * A request whose id is still in flight (delivered or held) gets -32600.
//! * Requests beyond the `IN` slots are held in the receive buffer and delivered oldest
//!   first as slots free; what arrives behind them (responses, cancellations, pings,
//!   notifications) is processed at once, so a server waiting on a sampling answer
//!   always reads it. Held requests use at most half the buffer; past that, or when a
//!   frame being read needs their room (the newest go first), a request gets -32603
//!   ("Too many requests in flight"). [`Overflow::Refuse`] refuses at once instead.
//! * Every request gets one answer or a documented refusal. An owed reply that does
//!   not fit the transmit buffer waits for room; one that never can is replaced by
//!   -32603 naming both sizes (`"id": null` if the id itself is what does not fit).
//!   A line longer than the receive buffer whose first bytes show a request's id gets
//!   -32600 naming the limit; one showing a response to a request of ours ends that
//!   request ([`Event::ResponseTooLong`]).
//! * Unparseable input gets -32700 from a server, as JSON-RPC says, but nothing from a
//!   client: a server that prints logs on stdout must not be flooded with error replies
//!   (rmcp issue #938). Broken responses and notifications are never answered.
//! * Error replies for an unreadable id use `"id": null` up to 2025-06-18 and omit the
//!   id from 2025-11-25, whose schema makes it optional.
//! * Under 2025-03-26 a batch's requests are answered one line each rather than as one
//!   array (JSON-RPC's SHOULD); peers correlate by id either way, and answers to batch
//!   members can then be sent as each one is ready.
//! * Requests time out after 60 s of silence by default, progress restarting the clock,
//!   and after 600 s whatever happens. The peer's requests have no deadline unless
//!   [`Config::answer_within`] sets one: then the endpoint answers -32603 itself and
//!   reports [`Event::Expired`].
//! * A request the peer cancels is over at once: its slot is free and its id may be used
//!   again. Answers are matched by the [`PendingRequest`]'s serial, never by the id, so
//!   a late answer to the old request cannot reach a new one; it writes nothing
//!   ([`Responded::Suppressed`]). A second answer to a request the application already
//!   answered is [`SendError::AlreadyAnswered`] (for the 64 latest requests).
//! * After the peer's input ends, the endpoint still answers what it owes (held requests
//!   included) and then reports [`Event::Closed`]. What the application never answers
//!   keeps the session open until [`Endpoint::abandon`], the `answer_within` deadline,
//!   or the transport's own limit (the stdio adapter's linger closes it).

//! ## The stateless version
//!
//! 2026-07-28 has no handshake, no `ping`, and per-request `_meta`: a phase of its own
//! beside the handshake ones (`lifecycle.rs`), its frames read in `receive_modern.rs`
//! (the checks of `modern.rs`), its results completed by `decorate.rs`, its listen
//! streams kept by `listen.rs`. An endpoint built [`Handshake`] (see `profile.rs`)
//! links none of it.

mod buffer;
mod caller_errors;
mod commands;
mod config;
mod core;
mod cursors;
mod decorate;
mod endpoint;
mod envelope;
mod event;
mod held;
mod inbound;
mod lifecycle;
mod listen;
mod modern;
mod outbound;
mod pending;
mod profile;
mod receive;
mod receive_modern;
#[cfg(feature = "std")]
pub(crate) use receive_modern::TASKS_REQUIRED;
mod replies;
mod request_state;
mod reset;
mod resize;
mod responder;
mod retry;
mod sip;
mod snapshot;
mod task_poller;
mod timers;
mod transmit;

pub use buffer::Buffer;
pub use caller_errors::{ConfigError, Responded, SendError};
pub use config::{
    CacheHints, Capabilities, Config, DEFAULT_DISCOVER_TIMEOUT, DEFAULT_INITIALIZE_TIMEOUT, DEFAULT_MAX_REQUEST_TIME,
    DEFAULT_REPLY_RESERVE, DEFAULT_REQUEST_TIMEOUT, Era, Info, Keepalive, Overflow, RequestOptions,
};
pub use cursors::{CURSOR_LEN, Cursor, CursorCodec, CursorError, Page, PageParams, PageWalker, PaginationError};
#[cfg(feature = "http")]
pub(crate) use endpoint::Reserves;
pub use endpoint::{Endpoint, MIN_RX_BUFFER, State};
pub use event::{
    CloseReason, Event, IncomingNotification, IncomingRequest, Misbehavior, Output, RefuseReason, ResultProblem,
};
pub use modern::{ModernRequest, TASKS_EXTENSION};
pub use pending::PendingRequest;
pub use profile::{Full, Handshake, HandshakeServer, Profile};
pub use request_state::{StateBinding, StateError, StateSealer};
pub use retry::RetryTicket;
pub use snapshot::{Snapshot, SnapshotError};
pub use task_poller::{DEFAULT_POLL_INTERVAL, DEFAULT_TASK_ID_LEN, TaskHandleError, TaskPoller, TaskUpdate};
pub use transmit::{Origin, OutputMode, Transmit};
