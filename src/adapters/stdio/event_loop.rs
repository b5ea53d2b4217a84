//! The stdio event loop: one thread reads, answers and writes; see the
//! [module docs](super).

use std::io::{self, Read};
use std::sync::Arc;
use std::time::Duration;

use super::input::{Input, READER_BUFFERS, spawn_reader};
use super::mailbox::Mailbox;
use super::output::{Out, Sink};
use super::shared::{Chunk, Shared};
use crate::session::{Buffer, CloseReason, Endpoint, Event, Output};
use crate::time::{Clock, Instant};

/// How long a server keeps answering the requests it owes after its input ended, by
/// default, before it closes anyway.
pub const DEFAULT_LINGER: Duration = Duration::from_secs(2);

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

    /// Whether the application takes another mailbox message now (`false` while what
    /// it has to send waits for room: the mailbox then fills and senders wait).
    fn accepting(&self) -> bool {
        true
    }
}

/// What the loop drives: an [`App`] over an endpoint with lent buffers ([`AsHost`]), or
/// [`serve`](StdioLoop::serve)'s driver over an endpoint with buffers of any storage
/// (one built for HTTP sessions as well, so that a binary serving both carries one copy
/// of the session code).
pub(super) trait Host<'a, const OUT: usize, const IN: usize, B: Buffer> {
    type Message: Send + 'static;
    fn on_event(&mut self, event: Event<'_>, mailbox: &Mailbox<Self::Message>);
    fn on_message(&mut self, endpoint: &mut Endpoint<'a, OUT, IN, B>, now: Instant, message: Self::Message);
    fn on_idle(&mut self, endpoint: &mut Endpoint<'a, OUT, IN, B>, now: Instant) -> Option<Instant>;
    fn accepting(&self) -> bool;
}

/// An [`App`] as the loop's [`Host`].
struct AsHost<'x, A>(&'x mut A);

impl<'a, A: App<OUT, IN>, const OUT: usize, const IN: usize> Host<'a, OUT, IN, &'a mut [u8]> for AsHost<'_, A> {
    type Message = A::Message;
    fn on_event(&mut self, event: Event<'_>, mailbox: &Mailbox<Self::Message>) {
        self.0.on_event(event, mailbox)
    }
    fn on_message(&mut self, endpoint: &mut Endpoint<'a, OUT, IN>, now: Instant, message: Self::Message) {
        self.0.on_message(endpoint, now, message)
    }
    fn on_idle(&mut self, endpoint: &mut Endpoint<'a, OUT, IN>, now: Instant) -> Option<Instant> {
        self.0.on_idle(endpoint, now)
    }
    fn accepting(&self) -> bool {
        self.0.accepting()
    }
}

/// Runs an [`Endpoint`] over a byte stream; see the [module docs](super).
pub struct StdioLoop<M> {
    shared: Arc<Shared<M>>,
    input: Input,
    clock: Clock,
    linger: Duration,
}

impl<M: Send + 'static> StdioLoop<M> {
    /// A loop reading from `reader` on a thread of its own, through two reused 64 KiB
    /// buffers (the thread reads only when one is free, so a peer that is not read from
    /// meets backpressure). For a descriptor on Unix, [`from_fd`](Self::from_fd) avoids
    /// the thread and the copy.
    pub fn new<R: Read + Send + 'static>(reader: R) -> io::Result<Self> {
        let shared = Shared::new(READER_BUFFERS)?;
        spawn_reader(reader, Arc::clone(&shared))?;
        Ok(Self::with(shared, Input::Thread))
    }

    /// A loop reading this process's stdin. On Unix the loop reads it itself, straight
    /// into the endpoint's receive buffer, when `poll` says it is readable (a pipe, a
    /// socket, a tty, a file, /dev/null); elsewhere, and for devices on macOS, where
    /// `poll` does not work on them, a reader thread does. Nothing else may read stdin
    /// meanwhile.
    pub fn stdin() -> io::Result<Self> {
        #[cfg(unix)]
        if let Some(input) = Input::stdin() {
            return Ok(Self::with(Shared::new(0)?, input));
        }
        Self::new(io::stdin())
    }

    /// A loop reading a descriptor itself (a pipe, a child's stdout, a socket), when
    /// `poll` says it is readable. It may stay blocking: one `read` after `poll` returns
    /// what is there. Nothing else may read it meanwhile.
    #[cfg(unix)]
    pub fn from_fd(fd: impl Into<std::os::fd::OwnedFd>) -> io::Result<Self> {
        Ok(Self::with(Shared::new(0)?, Input::Direct(std::fs::File::from(fd.into()))))
    }

    fn with(shared: Arc<Shared<M>>, input: Input) -> Self {
        StdioLoop { shared, input, clock: Clock::new(), linger: DEFAULT_LINGER }
    }

    /// How long to keep answering owed requests after the input ended (default 2 s).
    /// Output the peer has not taken when the session closes gets as long again.
    pub fn linger(mut self, linger: Duration) -> Self {
        self.linger = linger;
        self
    }

    /// How many messages the [`Mailbox`] holds before senders wait (default 64, at
    /// least 1).
    pub fn mailbox_capacity(self, capacity: usize) -> Self {
        self.shared.lock().capacity = capacity.max(1);
        self
    }

    /// The shared state, for [`serve`](Self::serve).
    pub(super) fn shared(&self) -> Arc<Shared<M>> {
        Arc::clone(&self.shared)
    }

    /// A mailbox for other threads.
    pub fn mailbox(&self) -> Mailbox<M> {
        Mailbox(Arc::clone(&self.shared))
    }

    /// The loop's clock (the endpoint must be created with times from it).
    pub fn clock(&self) -> Clock {
        self.clock
    }

    /// Runs until the endpoint closes; returns why it closed. `output` is where frames go:
    /// [`Sink::stdout`], a descriptor, or any `Write`. Frames queued in one drain go out
    /// in one write. When `run` returns, the mailbox stops: [`Mailbox::send`] returns
    /// `false` from then on.
    pub fn run<'w, A: App<OUT, IN, Message = M>, const OUT: usize, const IN: usize>(
        &mut self,
        endpoint: &mut Endpoint<'_, OUT, IN>,
        output: impl Into<Sink<'w>>,
        app: &mut A,
    ) -> io::Result<CloseReason> {
        self.run_host(endpoint, output.into(), &mut AsHost(app))
    }

    /// [`run`](Self::run), for any [`Host`].
    pub(super) fn run_host<'a, A: Host<'a, OUT, IN, B, Message = M>, B: Buffer, const OUT: usize, const IN: usize>(
        &mut self,
        endpoint: &mut Endpoint<'a, OUT, IN, B>,
        output: Sink<'_>,
        app: &mut A,
    ) -> io::Result<CloseReason> {
        let mut out = Out::new(output);
        self.shared.start();
        let result = self.drive(endpoint, &mut out, app);
        self.shared.stop();
        let reason = result?;
        out.finish(self.linger)?;
        Ok(reason)
    }

    fn drive<'a, A: Host<'a, OUT, IN, B, Message = M>, B: Buffer, const OUT: usize, const IN: usize>(
        &mut self,
        endpoint: &mut Endpoint<'a, OUT, IN, B>,
        out: &mut Out<'_>,
        app: &mut A,
    ) -> io::Result<CloseReason> {
        let mailbox = self.mailbox();
        let clock = self.clock;
        let mut closed: Option<CloseReason> = None;
        let mut linger_until: Option<Instant> = None;
        let mut app_deadline: Option<Instant> = None;
        let mut input_open = true;
        // The reader thread's chunk the endpoint is taking.
        let mut chunk: Option<Chunk> = None;
        loop {
            // 1. Drain, let the application act, and again, until nothing happens. While
            //    the output takes no more, draining stops, but the application still
            //    acts: what it sends waits in the endpoint's (bounded) transmit buffer.
            // One clock reading, after the events, serves the application, the work at
            // hand and the timeout; another one, after the wait, the input and timers.
            let mut now;
            loop {
                drain(endpoint, out, app, &mailbox, &mut closed, clock)?;
                now = clock.now();
                if closed.is_some() {
                    break;
                }
                app_deadline = app.on_idle(endpoint, now);
                if !drain(endpoint, out, app, &mailbox, &mut closed, clock)? || !out.accepting() {
                    break;
                }
            }
            if let Some(reason) = closed.or(endpoint.is_closed().then_some(CloseReason::LocalClose)) {
                return Ok(reason);
            }
            // 2. Work at hand: input from the reader thread, one mailbox message. Either
            //    makes the wait below a mere look at the descriptors.
            let mut busy = false;
            if input_open && matches!(self.input, Input::Thread) {
                match self.feed_chunks(endpoint, now, &mut chunk) {
                    Fed::Some => busy = true,
                    Fed::Nothing => {}
                    Fed::Ended => {
                        input_open = false;
                        endpoint.handle_eof(now);
                        linger_until.get_or_insert(now + self.linger);
                        busy = true;
                    }
                }
            }
            if out.accepting()
                && app.accepting()
                && let Some(message) = self.shared.take_message()
            {
                app.on_message(endpoint, now, message);
                busy = true;
            }
            // 3. Wait for input, room for output, a wake-up, or the earliest deadline.
            let deadline = [endpoint.poll_timeout(), app_deadline, linger_until].into_iter().flatten().min();
            let timeout = match deadline {
                _ if busy => Some(Duration::ZERO),
                Some(at) => Some(at.saturating_duration_since(now)),
                None => None,
            };
            #[cfg(unix)]
            let ready = {
                let read_fd = match &self.input {
                    Input::Direct(file) if input_open && !endpoint.input_buffer().is_empty() => {
                        Some(std::os::fd::AsFd::as_fd(file))
                    }
                    _ => None,
                };
                self.shared.wait(read_fd, out.pending_fd(), timeout)?
            };
            #[cfg(not(unix))]
            let ready = self.shared.wait(timeout)?;
            // 4. Act on everything that is ready.
            let now = clock.now();
            if ready.output {
                out.write_pending()?;
            }
            #[cfg(unix)]
            if ready.input
                && let Input::Direct(file) = &mut self.input
            {
                let buf = endpoint.input_buffer();
                let read = if buf.is_empty() { Ok(None) } else { file.read(buf).map(Some) };
                match read {
                    Ok(None) => {}
                    Ok(Some(0)) => {
                        input_open = false;
                        endpoint.handle_eof(now);
                        linger_until.get_or_insert(now + self.linger);
                    }
                    Ok(Some(n)) => endpoint.commit_input(now, n),
                    Err(e) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted) => {}
                    // An error ends the input as end of file does: nothing more can come.
                    Err(_) => {
                        input_open = false;
                        endpoint.handle_eof(now);
                        linger_until.get_or_insert(now + self.linger);
                    }
                }
            }
            if deadline.is_some_and(|at| now >= at) {
                endpoint.handle_timeout(now);
                if linger_until.is_some_and(|t| now >= t) {
                    // The peer is gone and the requests still owed took too long. What
                    // the peer has not read yet gets one more linger, in `finish`.
                    endpoint.close(now);
                    out.take_the_rest();
                    linger_until = None;
                }
            }
            if out.is_broken() && !endpoint.is_closed() {
                endpoint.close(now);
            }
        }
    }

    /// Feeds the reader thread's chunks to the endpoint as far as it takes them,
    /// handing each buffer back once it is all taken.
    fn feed_chunks<B: Buffer, const OUT: usize, const IN: usize>(
        &self,
        endpoint: &mut Endpoint<'_, OUT, IN, B>,
        now: Instant,
        chunk: &mut Option<Chunk>,
    ) -> Fed {
        let mut fed = Fed::Nothing;
        loop {
            let current = match chunk {
                Some(current) => current,
                None => {
                    let mut state = self.shared.lock();
                    match state.chunks.pop_front() {
                        Some(next) => chunk.insert(next),
                        None if state.input_ended => return Fed::Ended,
                        None => return fed,
                    }
                }
            };
            let n = endpoint.handle_input(now, &current.buf[current.taken..current.len]);
            current.taken += n;
            if n > 0 {
                fed = Fed::Some;
            }
            if current.taken < current.len {
                // The receive buffer holds unprocessed messages: drain first.
                return fed;
            }
            if let Some(done) = chunk.take() {
                let mut state = self.shared.lock();
                state.free.push(done.buf);
                self.shared.made_room(&state);
            }
        }
    }
}

impl<M> Drop for StdioLoop<M> {
    fn drop(&mut self) {
        self.shared.stop();
    }
}

/// What [`StdioLoop::feed_chunks`] did.
enum Fed {
    Nothing,
    Some,
    Ended,
}

/// Polls until idle (or until the output takes no more): writes transmits, hands events
/// to the application. Returns whether anything happened.
fn drain<'a, A: Host<'a, OUT, IN, B>, B: Buffer, const OUT: usize, const IN: usize>(
    endpoint: &mut Endpoint<'a, OUT, IN, B>,
    out: &mut Out<'_>,
    app: &mut A,
    mailbox: &Mailbox<A::Message>,
    closed: &mut Option<CloseReason>,
    clock: Clock,
) -> io::Result<bool> {
    let mut happened = false;
    loop {
        let was_broken = out.is_broken();
        let mut polling = out.accepting();
        while polling {
            let output = endpoint.poll_output();
            happened |= !matches!(output, Output::Idle { .. });
            match output {
                Output::Transmit(bytes) => {
                    out.send(&bytes)?;
                    // Polled again whatever the output can take: only that tells the
                    // endpoint the bytes are gone, and frees its transmit buffer for the
                    // application (the next output cannot be this transmit's bytes).
                    continue;
                }
                Output::Event(event) => {
                    if let Event::Closed { reason } = event {
                        *closed = Some(reason);
                    }
                    app.on_event(event, mailbox);
                    polling = out.accepting();
                }
                Output::Idle { .. } => break,
            }
        }
        out.flush()?;
        if out.is_broken() && !was_broken {
            // Nobody reads our output any more: end the session without writing again.
            endpoint.close(clock.now());
            continue;
        }
        return Ok(happened);
    }
}
