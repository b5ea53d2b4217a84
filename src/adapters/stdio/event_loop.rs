//! The blocking stdio event loop.

use std::io::{self, Read, Write};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::Duration;

use crate::session::{CloseReason, Endpoint, Event, Output};
use crate::time::{Clock, Instant};

/// How much the reader thread reads at once.
const READ_CHUNK: usize = 64 * 1024;

/// How long a server keeps answering the requests it owes after its input ended, by
/// default, before it closes anyway.
pub const DEFAULT_LINGER: Duration = Duration::from_secs(2);

/// What wakes the loop.
enum Wake<M> {
    Input(Vec<u8>),
    Eof,
    Message(M),
}

/// Lets any thread (a worker, a timer, a UI) hand a message to the loop, which passes it
/// to [`App::on_message`] with the endpoint.
pub struct Mailbox<M>(Sender<Wake<M>>);

impl<M> Clone for Mailbox<M> {
    fn clone(&self) -> Self {
        Mailbox(self.0.clone())
    }
}

impl<M> Mailbox<M> {
    /// Delivers `message`; `false` if the loop has stopped.
    pub fn send(&self, message: M) -> bool {
        self.0.send(Wake::Message(message)).is_ok()
    }
}

/// The application side of a [`StdioLoop`].
pub trait App<const OUT: usize, const IN: usize> {
    /// Messages from other threads.
    type Message: Send + 'static;

    /// An event from the endpoint. A request can be answered right here through its
    /// handle, or handed to a worker (keep [`IncomingRequest::id_owned`](crate::session::IncomingRequest::id_owned))
    /// and answered later from [`on_message`](Self::on_message).
    fn on_event(&mut self, event: Event<'_>, mailbox: &Mailbox<Self::Message>);

    /// A message from another thread, with the endpoint to act on.
    fn on_message(&mut self, endpoint: &mut Endpoint<'_, OUT, IN>, now: Instant, message: Self::Message);

    /// Called whenever the loop is about to wait: the place to send commands (a client's
    /// next request, say). Returns a deadline of the application's own, if any.
    fn on_idle(&mut self, endpoint: &mut Endpoint<'_, OUT, IN>, now: Instant) -> Option<Instant> {
        let _ = (endpoint, now);
        None
    }
}

/// Runs an [`Endpoint`] over a byte stream; see the [module docs](super).
pub struct StdioLoop<M> {
    inbox: Receiver<Wake<M>>,
    mailbox: Sender<Wake<M>>,
    clock: Clock,
    linger: Duration,
}

impl<M: Send + 'static> StdioLoop<M> {
    /// A loop reading from `reader` on a thread of its own.
    pub fn new<R: Read + Send + 'static>(reader: R) -> io::Result<Self> {
        let (mailbox, inbox) = channel();
        let feed = mailbox.clone();
        std::thread::Builder::new().name("mcp-stdio-reader".into()).spawn(move || read_into(reader, feed))?;
        Ok(StdioLoop { inbox, mailbox, clock: Clock::new(), linger: DEFAULT_LINGER })
    }

    /// A loop reading this process's stdin.
    pub fn stdin() -> io::Result<Self> {
        Self::new(io::stdin())
    }

    /// How long to keep answering owed requests after the input ended (default 2 s).
    pub fn linger(mut self, linger: Duration) -> Self {
        self.linger = linger;
        self
    }

    /// A mailbox for other threads.
    pub fn mailbox(&self) -> Mailbox<M> {
        Mailbox(self.mailbox.clone())
    }

    /// The loop's clock (the endpoint must be created with times from it).
    pub fn clock(&self) -> Clock {
        self.clock
    }

    /// Runs until the endpoint closes; returns why it closed. Frames are written with one
    /// `write_all` per drain and flushed before the loop waits.
    pub fn run<W: Write, A: App<OUT, IN, Message = M>, const OUT: usize, const IN: usize>(
        &mut self,
        endpoint: &mut Endpoint<'_, OUT, IN>,
        mut writer: W,
        app: &mut A,
    ) -> io::Result<CloseReason> {
        let mailbox = self.mailbox();
        let mut closed: Option<CloseReason> = None;
        let mut linger_until: Option<Instant> = None;
        let mut writable = true;
        loop {
            // 1. Drain, let the application act, and again, until nothing happens.
            let app_deadline = loop {
                drain(endpoint, &mut writer, &mut writable, app, &mailbox, &mut closed, self.clock)?;
                if closed.is_some() {
                    break None;
                }
                let deadline = app.on_idle(endpoint, self.clock.now());
                if !drain(endpoint, &mut writer, &mut writable, app, &mailbox, &mut closed, self.clock)? {
                    break deadline;
                }
            };
            if let Some(reason) = closed.or(endpoint.is_closed().then_some(CloseReason::LocalClose)) {
                return Ok(reason);
            }
            // 2. Wait for exactly one thing: input, a message, or the earliest deadline.
            let now = self.clock.now();
            let deadline = [endpoint.poll_timeout(), app_deadline, linger_until].into_iter().flatten().min();
            let wake = match deadline {
                Some(at) if at <= now => Err(RecvTimeoutError::Timeout),
                Some(at) => self.inbox.recv_timeout(at.saturating_duration_since(now)),
                None => self.inbox.recv().map_err(|_| RecvTimeoutError::Disconnected),
            };
            let now = self.clock.now();
            match wake {
                Ok(Wake::Input(bytes)) => {
                    let mut rest = &bytes[..];
                    while !rest.is_empty() {
                        let n = endpoint.handle_input(now, rest);
                        rest = &rest[n..];
                        if !rest.is_empty() {
                            // The receive buffer holds unprocessed messages: let them out.
                            drain(endpoint, &mut writer, &mut writable, app, &mailbox, &mut closed, self.clock)?;
                            if closed.is_some() {
                                break;
                            }
                        }
                    }
                }
                Ok(Wake::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    endpoint.handle_eof(now);
                    linger_until.get_or_insert(now + self.linger);
                }
                Ok(Wake::Message(message)) => app.on_message(endpoint, now, message),
                Err(RecvTimeoutError::Timeout) => {
                    endpoint.handle_timeout(now);
                    if linger_until.is_some_and(|t| now >= t) {
                        // The peer is gone and the requests still owed took too long.
                        endpoint.close(now);
                    }
                }
            }
        }
    }
}

/// Polls until idle: writes transmits, hands events to the application. Returns whether
/// anything happened.
fn drain<W: Write, A: App<OUT, IN>, const OUT: usize, const IN: usize>(
    endpoint: &mut Endpoint<'_, OUT, IN>,
    writer: &mut W,
    writable: &mut bool,
    app: &mut A,
    mailbox: &Mailbox<A::Message>,
    closed: &mut Option<CloseReason>,
    clock: Clock,
) -> io::Result<bool> {
    let mut wrote = false;
    let mut happened = false;
    let mut broken = false;
    loop {
        let output = endpoint.poll_output();
        happened |= !matches!(output, Output::Idle { .. });
        match output {
            Output::Transmit(bytes) => {
                if *writable {
                    match writer.write_all(&bytes) {
                        Ok(()) => wrote = true,
                        Err(e) if is_gone(&e) => broken = true,
                        Err(e) => return Err(e),
                    }
                }
            }
            Output::Event(event) => {
                if let Event::Closed { reason } = event {
                    *closed = Some(reason);
                }
                app.on_event(event, mailbox);
            }
            Output::Idle { .. } => break,
        }
    }
    if wrote {
        match writer.flush() {
            Ok(()) => {}
            Err(e) if is_gone(&e) => broken = true,
            Err(e) => return Err(e),
        }
    }
    if broken {
        // Nobody reads our output any more: end the session without writing again.
        *writable = false;
        endpoint.close(clock.now());
        drain(endpoint, writer, writable, app, mailbox, closed, clock)?;
    }
    Ok(happened)
}

fn is_gone(e: &io::Error) -> bool {
    matches!(e.kind(), io::ErrorKind::BrokenPipe | io::ErrorKind::ConnectionReset | io::ErrorKind::UnexpectedEof)
}

/// The reader thread: blocking reads, handed to the loop until end of input.
fn read_into<R: Read, M>(mut reader: R, feed: Sender<Wake<M>>) {
    let mut buf = vec![0u8; READ_CHUNK];
    loop {
        match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                if feed.send(Wake::Input(buf[..n].to_vec())).is_err() {
                    return;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
    }
    let _ = feed.send(Wake::Eof);
}
