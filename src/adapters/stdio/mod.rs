//! The stdio transport: newline-delimited JSON over any `Read`/`Write` pair, this
//! process's stdin/stdout, or a child process's pipes.
//!
//! * [`StdioLoop`] runs an [`Endpoint`](crate::Endpoint) over a byte stream. On Unix one
//!   thread does everything: it waits in `poll(2)` on stdin, on stdout when output is
//!   pending, and on a wake-up pipe that the [`Mailbox`] writes, with the endpoint's next
//!   deadline as the timeout; reads go straight into the endpoint's receive buffer
//!   ([`Endpoint::input_buffer`](crate::Endpoint::input_buffer)), replies are written
//!   straight from its transmit buffer. A request is read, answered and written by one
//!   thread with no hand-off. Frames queued in one drain go out in one write.
//! * [`StdioLoop::serve`] runs a [`Handler`](crate::adapters::app::Handler), the
//!   application interface the HTTP server drives too: handlers answer through a
//!   context, keep slow requests as tickets for workers (with a cancellation signal),
//!   and never see a full transmit buffer (the adapter queues and retries). The
//!   [`app` module](crate::adapters::app) has a complete server with a worker.
//!   [`StdioLoop::run`] is the lower-level way, for an [`App`] that drives the endpoint
//!   itself (a client following a script, say).
//! * [`WorkerPool`] runs slow handlers off the loop, so a long tool call never delays a
//!   ping or a cancellation.
//! * [`ChildProcess`] spawns a server, passes its stderr through or captures it, and shuts
//!   it down as the specification says: close its stdin, wait, then SIGTERM, wait, then
//!   SIGKILL, and always reaps it.
//!
//! # Bounded memory
//!
//! Every queue is bounded, so a peer that writes without reading meets backpressure in
//! the pipe: the loop reads only while the endpoint has room for input, the endpoint
//! processes input only while its transmit buffer has room, and the loop takes more from
//! the transmit buffer only while stdout takes it (see [`Sink`] for what is held when it
//! does not, at most [`PENDING_LIMIT`] plus one transmit). The [`Mailbox`] holds 64
//! messages by default, the [`WorkerPool`] 256 jobs, and a reader thread (for a `Read`
//! that is not a descriptor) two 64 KiB buffers. What the loop holds beyond the
//! endpoint's own buffers is a few hundred KiB at most, whatever the peer sends.
//!
//! # Why `poll(2)` through rustix
//!
//! The loop waits on two or three descriptors, so `poll(2)` costs nothing over `epoll` or
//! `kqueue`, needs no registration calls, and works on every kind of descriptor stdin can
//! be: `epoll` refuses regular files (`EPERM`) and macOS's `kqueue` refuses ttys, which
//! is why `mio` and `polling` need fallbacks exactly where stdio needs them most. rustix
//! offers `poll`, `fcntl` (for `O_NONBLOCK`), `fstat` and `kill` as safe functions, so
//! the crate keeps `#![forbid(unsafe_code)]` (`polling` 3 makes registration `unsafe`;
//! `mio` would need its `os-ext` feature and still a fallback for files), and on Linux
//! it makes the system calls directly, without libc. The wake-up is a pipe from std
//! (`std::io::pipe`), written at most once per wait. Where there is no `poll` (not
//! Unix), a reader thread delivers input and the loop waits on a condition variable;
//! output is then written blocking.

mod child;
mod event_loop;
mod input;
mod mailbox;
mod output;
mod serve;
mod shared;

pub use crate::adapters::app::MailboxError;
pub use crate::adapters::app::{DEFAULT_QUEUE, WorkerPool};
pub use child::{ChildProcess, Exit, StderrMode};
pub use event_loop::{App, DEFAULT_LINGER, StdioLoop};
pub use mailbox::Mailbox;
pub use output::{PENDING_LIMIT, Sink};
pub use shared::DEFAULT_MAILBOX_CAPACITY;
