//! HTTP transports over TCP (feature `http`): [`server::HttpServer`] serves Streamable
//! HTTP and the legacy HTTP+SSE transport on the sans-IO core in
//! [`crate::http::server`], for a [`Handler`](crate::adapters::app::Handler);
//! [`client::HttpClientLoop`] runs an MCP client session over either, on the sans-IO
//! core in [`crate::http::client`] (its own documentation says how it is built: one
//! thread on mio, its own HTTP/1.1 with httparse for response heads).
//!
//! # How the server is built
//!
//! One thread serves every connection and every session, on a readiness loop: it reads
//! request heads and bodies as they arrive, gives them to the core (classification,
//! refusals, sessions, streams) and to the sessions' endpoints, and writes what the
//! streams give back, each connection only as far as its client takes it. Nothing
//! blocks it: slow handlers run on workers and answer through the mailbox, an open SSE
//! stream is just a connection that is written when there is something to write, and a
//! POST answered later leaves the loop free meanwhile.
//!
//! * **mio** waits on the sockets: epoll on Linux, kqueue on the BSDs and macOS, IOCP
//!   on Windows, each a system call per wait however many connections there are, and
//!   all through safe calls, so the crate keeps `#![forbid(unsafe_code)]`. The stdio
//!   adapter's `poll(2)` would scan every connection on every wake (fine for three
//!   descriptors, not for thousands); rustix's epoll is Linux only, and its kqueue
//!   `kevent` is `unsafe`. mio is the readiness layer under tokio, well kept, and small
//!   (its `net` and `os-poll` features only); it is edge-triggered, so each connection
//!   remembers whether its socket is readable and writable and reads or writes until it
//!   is told `WouldBlock`.
//! * **httparse** reads request heads: strict (HTTP/1.0 and 1.1 only, no space before
//!   a colon, no control bytes in values), fast, no allocation, and the parser most
//!   Rust HTTP servers (hyper) use. This module adds the limits (head size and field
//!   count: 431), the framing rules that stop request smuggling (`Transfer-Encoding`
//!   with `Content-Length`: 400; codings other than chunked: 501), bodies (a declared
//!   length over the cap is refused before a byte is read; a chunked body is capped as
//!   it is read), keep-alive, `Expect: 100-continue`, and chunked framing for SSE.
//!
//! # Bounded everywhere
//!
//! * Each connection holds at most 64 KiB of input it has not used (it stops reading
//!   otherwise: the client's writes block) plus the body being read (at most the cap,
//!   4 MiB by default), and takes at most about 64 KiB from a session's streams before
//!   its client has read what it was given (a client that reads nothing for 30 s is
//!   disconnected; its stream keeps what it had for a resume).
//! * An awake session's buffers (receive, transmit, event store) start at
//!   [`ServerOptions::initial_buffer`](server::ServerOptions::initial_buffer) (16 KiB)
//!   and double, each up to its bound, only when a message needs it (or a slow client
//!   leaves the store full): memory follows the messages seen, not the longest allowed.
//! * A session's streams store at most their bound ([`ServerOptions::event_store`](server::ServerOptions::event_store));
//!   when a connected client does not read, the session stops draining its endpoint,
//!   whose transmit buffer then fills, and what the application sends waits in the
//!   session's queue, which stops the mailbox once it holds 1 MiB.
//! * Sessions are capped ([`ServerOptions::max_sessions`](server::ServerOptions::max_sessions), 503 beyond) and expire when
//!   idle (30 minutes by default). An idle session is put away as a 22-byte snapshot
//!   of its endpoint (a few hundred bytes with its id and table entry); only the
//!   [`ServerOptions::warm_sessions`](server::ServerOptions::warm_sessions) most recently used stay awake with their
//!   buffers. A session put away keeps no replay store: a `Last-Event-ID` from before
//!   names nothing and the GET opens the standalone stream.
//! * Connections are capped ([`ServerOptions::max_connections`](server::ServerOptions::max_connections)); beyond, the rest wait
//!   in the kernel's listen backlog. Heads must complete within 10 s of their first
//!   byte, kept-alive connections without a request close after 60 s.
//!
//! # Authorization
//!
//! The application validates the bearer token of every request (POST, GET, DELETE, the
//! legacy GET and POST) with an [`Authorizer`](server::Authorizer) in
//! [`ServerOptions::authorize`](server::ServerOptions::authorize); a refusal is a 401
//! (or 403 `insufficient_scope`) whose `WWW-Authenticate: Bearer` challenge names the
//! protected resource metadata URL and scope of
//! [`ServerConfig::auth`](crate::http::server::ServerConfig::auth), and the server can
//! serve that metadata document (RFC 9728) itself
//! ([`ServerOptions::metadata_document`](server::ServerOptions::metadata_document)).
//! Without an authorizer every request is let in. The OAuth authorization server (the
//! token endpoint, the login page) is not the MCP server's job and is not here.
//!
//! # Not done here
//!
//! TLS: put a TLS-terminating proxy in front. HTTP/2: not spoken (examples/axum_server.rs
//! shows the core inside a stack that speaks it).

pub mod client;
pub mod server;
