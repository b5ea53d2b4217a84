//! Where the loop's output goes: a [`Sink`], and how it is written.

use std::io::{self, Write};
use std::time::Duration;

/// How much output the loop keeps, beyond the transmit just taken, when the writer does
/// not take it all: at most this plus one transmit (at most the endpoint's transmit
/// buffer) is held.
pub const PENDING_LIMIT: usize = 64 * 1024;

/// Where a [`StdioLoop`](super::StdioLoop) writes: this process's stdout, a descriptor,
/// or any `Write` (every `Write` converts into a `Sink`).
///
/// Two ways to write:
/// * **Non-blocking**, on Unix, for this process's stdout ([`Sink::stdout`]) or a
///   descriptor ([`Sink::from_fd`]) that is a pipe or a socket. Each transmit is written
///   straight from the endpoint's buffer; what the pipe does not take is copied into a
///   bounded queue and written when `poll` says the pipe has room. While the queue holds
///   [`PENDING_LIMIT`] bytes or more, the loop stops draining the endpoint and taking
///   mailbox messages (`on_idle` still runs: what it sends waits in the endpoint's
///   transmit buffer, or fails with `TxFull` when that is full): the endpoint's transmit
///   buffer then fills, it stops processing input, its receive buffer fills, and the loop
///   stops reading. A peer that does not read its replies meets backpressure, while the
///   loop itself keeps running: it keeps reading into free buffer space (so a peer
///   blocked writing a long message can finish it and go on to read, and an end of input
///   is seen), and timers still fire. If the session ends with output still held, the
///   loop waits up to its [`linger`](super::StdioLoop::linger) for the peer to take it,
///   then `run` fails with [`TimedOut`](std::io::ErrorKind::TimedOut).
/// * **Blocking**, for any other `Write` and for ttys and regular files: one
///   `write_all` per transmit, then `flush`.
///
/// `O_NONBLOCK` belongs to the open file description, which other processes holding the
/// same pipe share: the loop sets it only while [`run`](super::StdioLoop::run) runs,
/// restores the previous flags when it returns, and leaves it off when stderr is the same
/// pipe (`2>&1`), where std's `eprintln!` would panic on `EAGAIN`. Children the
/// application spawns should not inherit stdout (for MCP they must not write to it
/// anyway).
pub struct Sink<'w> {
    kind: Kind<'w>,
}

enum Kind<'w> {
    Stream(Box<dyn Write + 'w>),
    #[cfg(unix)]
    Fd(std::fs::File),
}

impl Sink<'static> {
    /// This process's stdout, written without std's line buffering: non-blocking while
    /// the loop runs when it is a pipe or a socket (see the [type docs](Sink)), blocking
    /// otherwise. Anything already printed through `std::io::stdout()` is flushed first.
    pub fn stdout() -> io::Result<Self> {
        io::stdout().flush()?;
        #[cfg(unix)]
        {
            use std::os::fd::AsFd;
            Ok(Sink::from_fd(io::stdout().as_fd().try_clone_to_owned()?))
        }
        #[cfg(not(unix))]
        {
            Ok(Sink::writer(io::stdout()))
        }
    }

    /// A descriptor: a pipe (a child's stdin), a socket, a tty, a file. Pipes and sockets
    /// are written non-blocking while the loop runs.
    #[cfg(unix)]
    pub fn from_fd(fd: impl Into<std::os::fd::OwnedFd>) -> Self {
        Sink { kind: Kind::Fd(std::fs::File::from(fd.into())) }
    }
}

impl<'w> Sink<'w> {
    /// Any writer, written blocking: one `write_all` per transmit, `flush` after each
    /// drain.
    pub fn writer(writer: impl Write + 'w) -> Self {
        Sink { kind: Kind::Stream(Box::new(writer)) }
    }
}

impl<'w, W: Write + 'w> From<W> for Sink<'w> {
    fn from(writer: W) -> Self {
        Sink::writer(writer)
    }
}

/// A sink while the loop runs: the writes, the queue of what was not taken yet, and the
/// descriptor flags to restore.
pub(super) struct Out<'w> {
    kind: Kind<'w>,
    /// The flags the descriptor had before the loop made it non-blocking.
    #[cfg(unix)]
    restore: Option<rustix::fs::OFlags>,
    nonblocking: bool,
    /// Output not written yet, from `head` on.
    pending: Vec<u8>,
    head: usize,
    /// A stream was written since its last flush.
    unflushed: bool,
    /// Nobody reads the output any more: everything is discarded.
    broken: bool,
    /// The session is being abandoned: everything left is taken, to be written (or
    /// not) by [`finish`](Self::finish).
    closing: bool,
}

impl<'w> Out<'w> {
    pub fn new(sink: Sink<'w>) -> Self {
        #[cfg(unix)]
        let restore = match &sink.kind {
            Kind::Fd(file) => make_nonblocking(file),
            Kind::Stream(_) => None,
        };
        Out {
            kind: sink.kind,
            #[cfg(unix)]
            restore,
            #[cfg(unix)]
            nonblocking: restore.is_some(),
            #[cfg(not(unix))]
            nonblocking: false,
            pending: Vec::new(),
            head: 0,
            unflushed: false,
            broken: false,
            closing: false,
        }
    }

    fn pending_len(&self) -> usize {
        self.pending.len() - self.head
    }

    /// Whether the loop may produce more output (drain the endpoint, take a message).
    pub fn accepting(&self) -> bool {
        self.closing || self.pending_len() < PENDING_LIMIT
    }

    /// The session is being closed without its peer: take everything the endpoint
    /// still has (at most its transmit buffer), for [`finish`](Self::finish).
    pub fn take_the_rest(&mut self) {
        self.closing = true;
    }

    /// Whether output waits for the descriptor to take it.
    pub fn is_pending(&self) -> bool {
        self.pending_len() > 0
    }

    /// Nobody reads the output any more.
    pub fn is_broken(&self) -> bool {
        self.broken
    }

    /// The descriptor to wait on for room, while output is pending.
    #[cfg(unix)]
    pub fn pending_fd(&self) -> Option<std::os::fd::BorrowedFd<'_>> {
        use std::os::fd::AsFd;
        match &self.kind {
            Kind::Fd(file) if self.is_pending() => Some(file.as_fd()),
            _ => None,
        }
    }

    /// Writes one transmit, or queues what the descriptor does not take now.
    pub fn send(&mut self, bytes: &[u8]) -> io::Result<()> {
        if self.broken {
            return Ok(());
        }
        if !self.nonblocking {
            let written = match &mut self.kind {
                Kind::Stream(writer) => writer.write_all(bytes),
                #[cfg(unix)]
                Kind::Fd(file) => file.write_all(bytes),
            };
            self.unflushed = true;
            return self.outcome(written.map(|()| bytes.len()), bytes.len()).map(drop);
        }
        if self.is_pending() {
            // Order matters: behind what is already waiting.
            self.queue(bytes);
            return Ok(());
        }
        let written = self.write_some(bytes)?;
        if written < bytes.len() && !self.broken {
            self.queue(&bytes[written..]);
        }
        Ok(())
    }

    /// Writes what is pending, as far as the descriptor takes it.
    pub fn write_pending(&mut self) -> io::Result<()> {
        if !self.is_pending() || self.broken {
            return Ok(());
        }
        let rest = std::mem::take(&mut self.pending);
        let result = self.write_some(&rest[self.head..]);
        self.pending = rest;
        self.head += result?;
        if self.broken || self.head == self.pending.len() {
            self.pending.clear();
            self.head = 0;
        }
        Ok(())
    }

    /// Flushes a blocking writer after a drain.
    pub fn flush(&mut self) -> io::Result<()> {
        if !self.unflushed || self.broken {
            return Ok(());
        }
        self.unflushed = false;
        let flushed = match &mut self.kind {
            Kind::Stream(writer) => writer.flush(),
            #[cfg(unix)]
            Kind::Fd(_) => Ok(()),
        };
        self.outcome(flushed.map(|()| 0), 0).map(drop)
    }

    /// Before the loop returns: writes what is pending, waiting for room up to `limit`
    /// in all (a peer that stopped reading must not keep the process forever).
    pub fn finish(&mut self, limit: Duration) -> io::Result<()> {
        let until = std::time::Instant::now() + limit;
        while self.is_pending() && !self.broken {
            let left = until.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!("{} bytes of output not taken by the reader", self.pending_len()),
                ));
            }
            #[cfg(unix)]
            if let Some(fd) = self.pending_fd() {
                wait_writable(fd, left)?;
            }
            self.write_pending()?;
        }
        self.flush()
    }

    /// One or more non-blocking writes of `bytes`: how many were taken before the
    /// descriptor was full.
    fn write_some(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let mut done = 0;
        while done < bytes.len() {
            let result = match &mut self.kind {
                Kind::Stream(writer) => writer.write(&bytes[done..]),
                #[cfg(unix)]
                Kind::Fd(file) => file.write(&bytes[done..]),
            };
            match result {
                Ok(0) => return self.outcome(Err(io::ErrorKind::WriteZero.into()), done),
                Ok(n) => done += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) => return self.outcome(Err(e), done),
            }
        }
        Ok(done)
    }

    /// A write's result: a reader that is gone makes the sink broken (everything is
    /// discarded from then on, and the loop closes the session); other errors are the
    /// caller's.
    fn outcome(&mut self, result: io::Result<usize>, taken: usize) -> io::Result<usize> {
        match result {
            Err(e) if is_gone(&e) => {
                self.broken = true;
                self.pending.clear();
                self.head = 0;
                Ok(taken)
            }
            other => other,
        }
    }

    fn queue(&mut self, bytes: &[u8]) {
        if self.head > 0 {
            self.pending.drain(..self.head);
            self.head = 0;
        }
        self.pending.extend_from_slice(bytes);
    }
}

impl Drop for Out<'_> {
    fn drop(&mut self) {
        #[cfg(unix)]
        if let (Kind::Fd(file), Some(flags)) = (&self.kind, self.restore) {
            let _ = rustix::fs::fcntl_setfl(file, flags);
        }
    }
}

fn is_gone(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::BrokenPipe
            | io::ErrorKind::ConnectionReset
            | io::ErrorKind::UnexpectedEof
            | io::ErrorKind::WriteZero
    )
}

/// Makes `file` non-blocking if it is a pipe or a socket that stderr does not share;
/// returns the flags to restore.
#[cfg(unix)]
fn make_nonblocking(file: &std::fs::File) -> Option<rustix::fs::OFlags> {
    use rustix::fs::{FileType, OFlags, fcntl_getfl, fcntl_setfl, fstat};
    let stat = fstat(file).ok()?;
    let kind = FileType::from_raw_mode(stat.st_mode);
    if kind != FileType::Fifo && kind != FileType::Socket {
        return None;
    }
    if let Ok(err) = fstat(io::stderr())
        && (err.st_dev, err.st_ino) == (stat.st_dev, stat.st_ino)
    {
        return None;
    }
    let flags = fcntl_getfl(file).ok()?;
    fcntl_setfl(file, flags | OFlags::NONBLOCK).ok()?;
    Some(flags)
}

/// Waits until `fd` can take more, or `limit` passes.
#[cfg(unix)]
fn wait_writable(fd: std::os::fd::BorrowedFd<'_>, limit: Duration) -> io::Result<()> {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    let timeout =
        Timespec { tv_sec: limit.as_secs().min(i64::MAX as u64) as i64, tv_nsec: limit.subsec_nanos().into() };
    match poll(&mut [PollFd::from_borrowed_fd(fd, PollFlags::OUT)], Some(&timeout)) {
        Ok(_) | Err(rustix::io::Errno::INTR) => Ok(()),
        Err(e) => Err(e.into()),
    }
}
