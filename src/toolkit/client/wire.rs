//! (`stdio`) The wire mode of a [`BlockingClient`] over stdio
//! ([`StdioClientBuilder::tap_wire`](super::StdioClientBuilder::tap_wire)): every byte
//! written to the server and read from it shown to a tap, and bytes of the
//! application's own written into the server's stdin
//! ([`BlockingClient::write_raw`]): what a tool that shows the protocol, or tests a
//! server's handling of broken input, needs, and what a client that only calls tools
//! does without.
//!
//! The price: in this mode the loop reads the server's stdout through a reader thread
//! and writes its stdin with blocking writes (the stdio adapter's generic
//! [`StdioLoop::new`](crate::adapters::stdio::StdioLoop::new) and
//! [`Sink::writer`](crate::adapters::stdio::Sink::writer)), rather than polling the
//! pipes; a server that stops reading then holds up the loop, not only its own queue.

use std::io::{self, Read, Write};
use std::process::ChildStdin;
use std::sync::{Arc, Mutex, PoisonError};

use super::answer::ClientError;
use super::blocking::BlockingClient;

/// Which way bytes went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wire {
    /// Written to the server's stdin (shown before they are written, so a request is
    /// never shown after its answer).
    Sent,
    /// Read from the server's stdout.
    Received,
}

/// The tap: shown every chunk, on the thread that moved it.
pub(super) type Tap = Arc<dyn Fn(Wire, &[u8]) + Send + Sync>;

/// The server's stdin, shared by the loop and [`BlockingClient::write_raw`]; `None`
/// once closed.
pub(super) type SharedStdin = Arc<Mutex<Option<ChildStdin>>>;

/// The server's stdout, shown to the tap as it is read.
pub(super) struct TapReader<R> {
    pub inner: R,
    pub tap: Tap,
}

impl<R: Read> Read for TapReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        (self.tap)(Wire::Received, &buf[..n]);
        Ok(n)
    }
}

/// The loop's side of the shared stdin.
pub(super) struct TapWriter {
    pub stdin: SharedStdin,
    pub tap: Tap,
}

impl Write for TapWriter {
    /// Writes the whole of `buf` (the pipe blocks), so that the tap can be shown it
    /// before it is written: shown after, a request could appear behind its answer,
    /// which the reader thread shows as soon as it arrives.
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.write_all(buf).map(|()| buf.len())
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        let mut stdin = self.stdin.lock().unwrap_or_else(PoisonError::into_inner);
        let stdin = stdin.as_mut().ok_or_else(|| io::Error::from(io::ErrorKind::BrokenPipe))?;
        (self.tap)(Wire::Sent, buf);
        stdin.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.stdin.lock().unwrap_or_else(PoisonError::into_inner).as_mut() {
            Some(stdin) => stdin.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for TapWriter {
    /// The loop is done with the server: its stdin closes (the first step of the
    /// shutdown), whoever else holds the handle.
    fn drop(&mut self) {
        self.stdin.lock().unwrap_or_else(PoisonError::into_inner).take();
    }
}

impl BlockingClient {
    /// Writes `bytes` into the server's stdin as they are, between two of the
    /// session's messages (never inside one): a malformed line, to see what the server
    /// makes of it (its answer, if it can tie none to a request, comes to
    /// [`ClientBuilder::misbehavior`](super::ClientBuilder::misbehavior)). Only in the
    /// wire mode ([`StdioClientBuilder::tap_wire`](super::StdioClientBuilder::tap_wire));
    /// otherwise, and once the server's stdin is closed,
    /// [`ClientError::Closed`].
    pub fn write_raw(&self, bytes: &[u8]) -> Result<(), ClientError> {
        let Some((stdin, tap)) = &self.raw else { return Err(ClientError::Closed(None)) };
        let mut stdin = stdin.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(pipe) = stdin.as_mut() else { return Err(ClientError::Closed(None)) };
        tap(Wire::Sent, bytes);
        pipe.write_all(bytes).and_then(|()| pipe.flush()).map_err(|e| ClientError::Transport(e.to_string()))
    }
}
