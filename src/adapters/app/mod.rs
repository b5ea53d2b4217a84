//! The application interface both transport adapters drive: one [`Handler`] runs
//! unchanged over stdio ([`StdioLoop::serve`](super::stdio::StdioLoop::serve)) and over
//! HTTP ([`HttpServer`](super::http::server::HttpServer)).
//!
//! * A [`Handler`] gets every event of every session with a [`Context`]: what it needs
//!   to act on the endpoints. An event borrows its endpoint (its params point into the
//!   receive buffer), so what the handler sends from `on_event` is queued by the
//!   context and written right after the event returns; a request can still be
//!   answered in place, without a copy, with [`Context::reply`].
//! * A request that takes time is kept as a [`Ticket`]: cloneable, `Send`, for a worker
//!   thread ([`WorkerPool`]). Through it the worker reports progress, sends log
//!   messages about the request, and answers; and it carries the **cancellation
//!   signal**: [`Ticket::is_cancelled`] becomes true (and [`Ticket::sleep`] returns
//!   early) when the peer cancels the request, when it expires
//!   ([`Config::answer_within`](crate::session::Config::answer_within)), and, over HTTP,
//!   when its session ends. No table of flags to keep. A ticket dropped without an
//!   answer (a worker that panicked) abandons the request: the client gets -32603
//!   instead of waiting forever.
//! * **A full transmit buffer is the adapter's problem.** What the handler sends waits,
//!   in order, in a per-session queue when the endpoint cannot take it yet, and is
//!   written as soon as it can. The queue is bounded: while one holds more than
//!   [`OUTBOX_LIMIT`] bytes, the adapter takes no more from the mailbox, so workers
//!   sending more wait (backpressure reaches them), and over HTTP a reader that takes
//!   nothing for the adapter's write timeout is disconnected, which empties the queue.
//! * Messages of the application's own ([`Handler::Message`]) reach it in
//!   [`Handler::on_message`], from other threads through a [`Sender`] (bounded: 64 by
//!   default, senders wait while it is full) or from the handler itself with
//!   [`Context::defer`], which is how something that needs the endpoint at once
//!   (sending a request of ours and keeping its id) follows an event.
//!
//! # One application, many sessions
//!
//! An HTTP server has one handler for all its sessions: state shared by every client
//! (tool tables, caches) lives in it once, and per-session state is keyed by the
//! [`SessionTag`] the context gives ([`Context::session`]); [`Handler::on_session_end`]
//! says when a session's state can go. Over stdio there is one session, whose tag is
//! [`SessionTag::STDIO`]. This is the simplest shape for servers whose tools are the
//! same for every client, and per-session objects are a map away.
//!
//! # Deadlock freedom
//!
//! The loop thread never waits for a worker or for the mailbox: a [`Sender::send`] or
//! a ticket's answer from the loop thread itself is refused rather than waiting when
//! the mailbox is full (use the context there), and [`WorkerPool::try_execute`]
//! hands a job back instead of waiting. Workers wait only for room in the mailbox,
//! which the loop empties as long as the endpoints take output; the endpoints keep
//! reading the peer's responses, cancellations and pings behind held requests (see the
//! session docs), so a server waiting on a client's answer always reads it.
//!
//! # A complete server with a worker
//!
//! ```no_run
//! use std::time::Duration;
//! use mcp_sansio::adapters::app::{Context, Handler, Ticket, WorkerPool};
//! use mcp_sansio::adapters::stdio::{Sink, StdioLoop};
//! use mcp_sansio::mcp::{CallToolResult, Implementation, ListChanged, Method, Role, ServerCapabilities};
//! use mcp_sansio::session::{Config, Endpoint, Event};
//! use mcp_sansio::wire::{ErrorCode, RawJson};
//!
//! struct Slow {
//!     pool: WorkerPool,
//! }
//!
//! impl Handler for Slow {
//!     type Message = ();
//!
//!     fn on_event(&mut self, cx: &mut Context<'_, ()>, event: Event<'_>) {
//!         let Event::Request(mut req) = event else { return };
//!         match req.method {
//!             // Slow work: a worker thread gets the ticket and answers through it.
//!             Method::ToolsCall => {
//!                 let ticket: Ticket = cx.ticket(&req);
//!                 self.pool.execute(move || {
//!                     for step in 1..=10u32 {
//!                         // Returns false as soon as the client cancels.
//!                         if !ticket.sleep(Duration::from_millis(100)) {
//!                             return; // dropping a cancelled ticket sends nothing
//!                         }
//!                         ticket.progress(f64::from(step), Some(10.0), None);
//!                     }
//!                     ticket.respond(&CallToolResult::text("done"));
//!                 });
//!             }
//!             Method::ToolsList => {
//!                 cx.reply(&mut req, &RawJson::from_static(r#"{"tools":[{"name":"slow","inputSchema":{"type":"object"}}]}"#));
//!             }
//!             _ => {
//!                 cx.reply_error(&mut req, ErrorCode::METHOD_NOT_FOUND, "Method not found");
//!             }
//!         }
//!     }
//! }
//!
//! fn main() -> std::io::Result<()> {
//!     let config = Config::new(Role::Server, Implementation::new("slow", "1.0.0"))
//!         .capabilities(ServerCapabilities::new().tools(ListChanged::NO));
//!     let mut event_loop = StdioLoop::stdin()?;
//!     let (mut rx, mut tx) = (vec![0u8; 64 * 1024], vec![0u8; 64 * 1024]);
//!     let mut endpoint: Endpoint<'_, 8, 32> =
//!         Endpoint::new(config, &mut rx, &mut tx, event_loop.clock().now()).expect("valid configuration");
//!     let mut handler = Slow { pool: WorkerPool::new(4)? };
//!     event_loop.serve(&mut endpoint, Sink::stdout()?, &mut handler)?;
//!     Ok(())
//! }
//! ```

mod action;
mod context;
mod handler;
mod sender;
mod sequential;
mod ticket;
mod workers;

pub use context::{Context, RequestError};
pub use handler::{Handler, SessionTag};
pub use sender::{Envelope, MailboxError, Sender};
pub use ticket::Ticket;
pub use workers::{DEFAULT_QUEUE, WorkerPool};

pub(crate) use action::{Action, Applied, OUTBOX_LIMIT_BYTES, Outbox, apply};
pub(crate) use context::{ContextParts, Sessions};
pub(crate) use sender::{ActionPost, Letter, Post};
pub(crate) use sequential::{SeqMap, SeqSet};
pub(crate) use ticket::Tickets;

/// The most bytes a session's queue of owed messages holds before the adapter stops
/// taking more from the mailbox (see the module docs).
pub const OUTBOX_LIMIT: usize = OUTBOX_LIMIT_BYTES;
