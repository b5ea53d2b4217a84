//! The HTTP client adapter: an MCP client session over Streamable HTTP (falling back to
//! HTTP+SSE) on real sockets, driving the sans-IO [`HttpClient`](crate::http::client::HttpClient)
//! and a client [`Endpoint`](crate::Endpoint) through their [`Link`](crate::http::client::Link).
//!
//! ```no_run
//! use mcp_sansio::adapters::http::client::{App, HttpClientLoop, Mailbox, Options, Outcome};
//! use mcp_sansio::http::client::{ClientConfig, HttpClient};
//! use mcp_sansio::session::{Config, Endpoint, Event, OutputMode};
//! use mcp_sansio::wire::{NO_PARAMS, RawJson};
//! use mcp_sansio::{Instant, RequestOptions, Role};
//!
//! /// Pings once the session is ready, then closes it.
//! struct PingOnce { ready: bool, sent: bool }
//!
//! impl App<8, 8> for PingOnce {
//!     type Message = ();
//!     fn on_event(&mut self, event: Event<'_>, _: &Mailbox<()>) {
//!         match event {
//!             Event::Ready { .. } => self.ready = true,
//!             Event::Response { .. } => println!("pong"),
//!             _ => {}
//!         }
//!     }
//!     fn on_idle(&mut self, ep: &mut Endpoint<'_, 8, 8>, now: Instant) -> Option<Instant> {
//!         if self.ready && !self.sent {
//!             self.sent = true;
//!             ep.send_request(now, "ping", NO_PARAMS, RequestOptions::default()).unwrap();
//!         } else if self.sent && ep.requests_in_flight() == 0 {
//!             ep.close(now);
//!         }
//!         None
//!     }
//! }
//!
//! let mut event_loop: HttpClientLoop<()> = HttpClientLoop::new(Options::new())?;
//! let info = RawJson::parse(br#"{"name":"ping-once","version":"1.0.0"}"#).unwrap();
//! let config = Config::new(Role::Client, info).output(OutputMode::Messages);
//! let (mut rx, mut tx) = (vec![0u8; 64 * 1024], vec![0u8; 64 * 1024]);
//! let mut endpoint: Endpoint<'_> = Endpoint::new(config, &mut rx, &mut tx, event_loop.clock().now()).unwrap();
//! let http_config = ClientConfig::new("http://127.0.0.1:3000/mcp").unwrap();
//! let mut storage = vec![0u8; http_config.storage_len(4, 64 * 1024)];
//! let mut http: HttpClient<'_, 4> = HttpClient::new(http_config, &mut storage).unwrap();
//! match event_loop.run(&mut endpoint, &mut http, &mut PingOnce { ready: false, sent: false })? {
//!     Outcome::Closed(reason) => println!("closed: {reason}"),
//!     other => println!("{other:?}"),
//! }
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! # How it is built, and why
//!
//! One thread does everything, on a readiness loop like the stdio adapter's: it waits
//! in [mio](https://docs.rs/mio) on the connections and on the [`Mailbox`]'s waker,
//! with the earliest deadline (the core's reconnections, the session's timeouts, the
//! application's, the connections' own) as the timeout, and speaks HTTP/1.1 itself,
//! with [httparse](https://docs.rs/httparse) reading response heads. Each exchange slot
//! of the core has its own connection, kept alive between the slot's exchanges, so the
//! exchanges the core runs at once run at once here: the standalone `GET` stream stays
//! open throughout, a `tools/call` POST's event stream stays open while the answer to a
//! `sampling/createMessage` that arrived on it is POSTed on another connection.
//!
//! The alternative was ureq (blocking, a thread per exchange reading its body). The
//! core already does everything above the bytes (it is the sans-IO half), so what an
//! HTTP crate would add is little and what it would cost is where the requirements are:
//! * **Abort.** The core drops streams it no longer wants (a cancelled request's, a
//!   resumed one's, everything at close or when the session expires). A socket in this
//!   loop is closed on the spot; a ureq thread blocked reading an event stream cannot be
//!   interrupted, and would hold its connection (and the server's stream) until the
//!   server wrote again.
//! * **Backpressure.** A connection reads only into its buffer
//!   ([`Options::read_buffer`], 16 KiB), and only what the core has taken is dropped
//!   from it: when the session does not take more (the application has not answered
//!   what it holds), nothing more is read, the kernel's window fills and the server's
//!   writes block. No chunk is ever queued between a reader thread and the loop.
//! * **Timeouts as deadlines.** Connecting ([`Options::connect_timeout`]) and waiting
//!   for a response head ([`Options::head_timeout`]) are deadlines in the same wait as
//!   the core's, not socket options; an open stream has none (the server decides how
//!   long it lasts; a request's answer is bounded by the session's request timeout,
//!   which cancels it and so aborts the exchange).
//! * **No threads, no tokio**, a few KiB per connection, and two small, well-kept
//!   dependencies the server adapter uses too.
//!
//! What it speaks: HTTP/1.1 (and 1.0 responses), `Host` from the URL, `Content-Length`
//! on every POST, bodies framed by `Content-Length`, `chunked` (extensions and trailers
//! skipped) or the end of the connection; interim 1xx heads skipped; keep-alive unless
//! the response says `Connection: close` (or frames by the end of the connection, or
//! has both `Content-Length` and `Transfer-Encoding`); a request that found its kept-alive
//! connection closed by the server before any byte of the answer is sent again once on
//! a new connection. A host name is resolved once per run with the system resolver
//! (blocking the loop that once; every URL of a session has the same origin), and each
//! of its addresses is tried in turn.
//!
//! What it does not: **`https`** (TLS): an `https` URL makes [`HttpClientLoop::run`]
//! return an `Unsupported` error; put a TLS-terminating proxy in front, or drive the
//! core from a TLS-capable stack (its parts are plain values: see
//! [`crate::http::client`]). HTTP/2, proxies, redirects (a 3xx is a refusal, as the
//! core treats it), compressed bodies (none are asked for).
//!
//! # Bounded memory
//!
//! Per connection: its read buffer and the request being written (at most one message,
//! which the core bounds by its slot size); at most one connection per slot, and four
//! spare buffers. The mailbox holds [`Options::mailbox_capacity`] messages and takes
//! them only while an exchange is free. Everything else lives in the core's
//! caller-provided storage and the endpoint's buffers.
//!
//! # Files
//!
//! | file | job |
//! |---|---|
//! | `event_loop.rs` | [`HttpClientLoop`], [`App`], [`Outcome`]: the loop, the drain, requests onto connections |
//! | `conn.rs` | one connection: connect, write, read the head and the body as far as the core takes it |
//! | `h1/` | HTTP/1.1 as pure functions: request heads, response heads (httparse), body framing |
//! | `mailbox.rs` | [`Mailbox`]: messages from other threads |
//! | `options.rs` | [`Options`]: timeouts and sizes |

mod conn;
mod event_loop;
mod h1;
mod mailbox;
mod options;

pub use event_loop::{App, HttpClientLoop, Outcome};
pub use mailbox::{Mailbox, MailboxError};
pub use options::Options;
