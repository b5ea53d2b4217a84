//! The session layer: one side of an MCP connection as a sans-IO state machine.
//!
//! An [`Endpoint`] is fed bytes, end of input and the current time, and told what to
//! send; it hands back bytes to write, events, and the next deadline. It implements the
//! lifecycle and version negotiation, request/response correlation, timeouts,
//! cancellation, progress, ping and keepalive, for both roles, in fixed memory.
//!
//! | file | job |
//! |---|---|
//! | `endpoint.rs` | the state, inputs, the drain (`poll_output`), getters |
//! | `dispatch.rs` | what each received frame means and what is done about it |
//! | `commands.rs` | what the application sends, checked against version and capabilities |
//! | `outbound.rs`, `inbound.rs` | the fixed tables of requests in flight each way |
//! | `timers.rs` | request timeouts, the initialize timeout, keepalive |
//! | `plan.rs` | turning a processed frame into a borrowed event |
//! | `pagination.rs` | opaque cursors for servers, a page walker for clients |

mod commands;
mod config;
mod dispatch;
mod endpoint;
mod errors;
mod event;
mod inbound;
mod outbound;
mod pagination;
mod plan;
mod timers;

pub use config::{
    Config, DEFAULT_INITIALIZE_TIMEOUT, DEFAULT_MAX_REQUEST_TIME, DEFAULT_REQUEST_TIMEOUT, Keepalive, RequestOptions,
};
pub use endpoint::{Endpoint, MIN_RX_BUFFER, State};
pub use errors::{ConfigError, Responded, SendError};
pub use event::{CloseReason, Event, IncomingNotification, IncomingRequest, Misbehavior, Output, RefuseReason};
pub use pagination::{CURSOR_LEN, Cursor, CursorCodec, CursorError, Page, PageParams, PageWalker, PaginationError};
