//! [`Handler`]: what the application implements; [`SessionTag`]: which session.

use core::fmt;

use super::context::Context;
use crate::session::Event;
use crate::time::Instant;

/// Names one session of a server for as long as the process runs (tags are never
/// reused). Over stdio there is one session, [`SessionTag::STDIO`]; over HTTP each
/// `Mcp-Session-Id` (and each legacy SSE stream) gets its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SessionTag(pub(crate) u64);

impl SessionTag {
    /// The one session of a stdio loop.
    pub const STDIO: SessionTag = SessionTag(0);

    /// The tag as a number (to key maps or logs).
    pub const fn get(self) -> u64 {
        self.0
    }
}

impl fmt::Display for SessionTag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "session {}", self.0)
    }
}

/// The application, driven alike by every adapter (see the [module docs](super)).
///
/// Every callback runs on the adapter's loop thread and must not block: slow work goes
/// to a worker with a [`Ticket`](super::Ticket).
pub trait Handler {
    /// The application's own messages, from other threads ([`Sender`](super::Sender))
    /// or from itself ([`Context::defer`]).
    type Message: Send + 'static;

    /// An event of the session [`cx.session()`](Context::session). A request is
    /// answered here with [`Context::reply`] (in place), or kept with
    /// [`Context::ticket`] and answered later. What the handler sends is queued by the
    /// context and written right after it returns.
    fn on_event(&mut self, cx: &mut Context<'_, Self::Message>, event: Event<'_>);

    /// A message of the application's, with the endpoints free: the place to send
    /// requests of ours ([`Context::send_request`]).
    fn on_message(&mut self, cx: &mut Context<'_, Self::Message>, message: Self::Message) {
        let _ = (cx, message);
    }

    /// Called whenever the loop is about to wait; returns a deadline of the
    /// application's own, if any (the loop calls again by then). Over stdio the
    /// context's session is the one session; over HTTP it is `None`.
    fn on_idle(&mut self, cx: &mut Context<'_, Self::Message>) -> Option<Instant> {
        let _ = cx;
        None
    }

    /// The session ended (the client went away or deleted it, it expired, the loop
    /// stopped): per-session state can go. Called once per session. Tickets of its
    /// requests were cancelled.
    fn on_session_end(&mut self, session: SessionTag) {
        let _ = session;
    }
}
