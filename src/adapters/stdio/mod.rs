//! The stdio transport: newline-delimited JSON over any `Read`/`Write` pair, this
//! process's stdin/stdout, or a child process's pipes.
//!
//! * [`StdioLoop`] runs an [`Endpoint`](crate::Endpoint) over a byte stream: a reader
//!   thread delivers input, worker threads deliver their results through a [`Mailbox`],
//!   and the loop sleeps until one of them or the endpoint's next deadline, never longer
//!   and never polling. Frames queued in one drain go out in one write.
//! * [`WorkerPool`] runs slow handlers off the loop, so a long tool call never delays a
//!   ping or a cancellation.
//! * [`ChildProcess`] spawns a server, passes its stderr through or captures it, and shuts
//!   it down as the specification says: close its stdin, wait, then SIGTERM, wait, then
//!   SIGKILL.

mod child;
mod event_loop;
mod workers;

pub use child::{ChildProcess, Exit, StderrMode};
pub use event_loop::{App, Mailbox, StdioLoop};
pub use workers::WorkerPool;
