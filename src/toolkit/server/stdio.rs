//! Running a [`Server`] over stdio (feature `stdio`), on the crate's [`StdioLoop`].
//!
//! This is the toolkit's binding to today's stdio adapter: the loop reads, the endpoint
//! answers what it answers itself, the server its handlers' requests, and jobs off the
//! loop wake it through its mailbox. What the server does not cover goes to a fallback
//! (by default: requests get -32601, the rest is dropped).

use std::io;

use super::server::Server;
use super::step::Step;
use crate::adapters::stdio::{App, Mailbox, Sink, StdioLoop};
use crate::session::{CloseReason, Endpoint, Event};
use crate::time::Instant;
use crate::wire::ErrorCode;

/// Requests of the server's own (to the client) in flight at once.
pub const STDIO_OUT: usize = 8;
/// Requests of the client's in flight at once (a long call holds one until it ends).
pub const STDIO_IN: usize = 64;
/// The receive buffer: the longest message accepted.
pub const STDIO_RX: usize = 1 << 20;
/// The transmit buffer: the longest answer.
pub const STDIO_TX: usize = 1 << 20;

struct Binding<'s, 't, S, J, const N: usize, F> {
    server: Server<'t, S, J, N>,
    state: &'s mut S,
    fallback: F,
}

impl<S, J: Step<S>, const N: usize, F> App<STDIO_OUT, STDIO_IN> for Binding<'_, '_, S, J, N, F>
where
    F: FnMut(&mut S, Event<'_>),
{
    type Message = ();

    fn on_event(&mut self, event: Event<'_>, _: &Mailbox<()>) {
        if let Some(event) = self.server.handle(self.state, event) {
            (self.fallback)(self.state, event);
        }
    }

    fn on_message(&mut self, endpoint: &mut Endpoint<'_, STDIO_OUT, STDIO_IN>, now: Instant, (): ()) {
        let _ = self.server.poll(self.state, endpoint, now);
    }

    fn on_idle(&mut self, endpoint: &mut Endpoint<'_, STDIO_OUT, STDIO_IN>, now: Instant) -> Option<Instant> {
        self.server.poll(self.state, endpoint, now)
    }
}

/// What the stdio binding does with the events the server gives back: requests are
/// answered "Method not found", everything else is dropped.
pub fn method_not_found<S>(_: &mut S, event: Event<'_>) {
    if let Event::Request(mut request) = event {
        let _ = request.respond_error(ErrorCode::METHOD_NOT_FOUND, "Method not found");
    }
}

impl<'t, S, J: Step<S>, const N: usize> Server<'t, S, J, N> {
    /// Serves this process's stdin and stdout until the client closes them (and what
    /// was owed has been answered); returns why the session ended.
    pub fn serve_stdio(self, state: &mut S) -> io::Result<CloseReason> {
        self.serve_stdio_with(state, method_not_found)
    }

    /// The same, giving the events the server does not handle to `fallback` (which must
    /// answer the requests among them).
    pub fn serve_stdio_with(
        mut self,
        state: &mut S,
        fallback: impl FnMut(&mut S, Event<'_>),
    ) -> io::Result<CloseReason> {
        let mut event_loop = StdioLoop::stdin()?;
        let mailbox = event_loop.mailbox();
        self.set_waker(move || {
            // A full mailbox already holds a wake-up.
            let _ = mailbox.try_send(());
        });
        let (mut rx, mut tx) = (vec![0u8; STDIO_RX], vec![0u8; STDIO_TX]);
        let info = self.info_json();
        let config = self.config_with_info(&info);
        let mut endpoint: Endpoint<'_, STDIO_OUT, STDIO_IN> =
            Endpoint::new(config, &mut rx, &mut tx, event_loop.clock().now()).map_err(io::Error::other)?;
        let mut binding = Binding { server: self, state, fallback };
        event_loop.run(&mut endpoint, Sink::stdout()?, &mut binding)
    }
}

impl super::ServerBuilder<()> {
    /// Builds the server and serves stdin and stdout with it (see
    /// [`Server::serve_stdio`]).
    pub fn serve_stdio(self) -> io::Result<CloseReason> {
        self.build().serve_stdio(&mut ())
    }
}
