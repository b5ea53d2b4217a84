//! How other threads reach a [`Handler`](super::Handler): a bounded mailbox that both
//! adapters implement, carrying the application's messages and the tickets' actions.

use std::fmt;
use std::sync::Arc;

use super::action::Action;
use super::handler::SessionTag;

/// What travels through an adapter's mailbox: a message of the application's, or
/// something a [`Ticket`](super::Ticket) asks the adapter to send. Opaque: it appears
/// only in the adapters' type parameters (`StdioLoop<Envelope<M>>`).
pub struct Envelope<M>(pub(crate) Letter<M>);

pub(crate) enum Letter<M> {
    App(M),
    Act(SessionTag, Action),
}

impl<M> fmt::Debug for Envelope<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Letter::App(_) => f.write_str("Envelope(message)"),
            Letter::Act(s, a) => write!(f, "Envelope({s}, {a:?})"),
        }
    }
}

/// Why [`Sender::try_send`] (or a mailbox's `try_send`) did not deliver a message; the
/// message comes back.
pub enum MailboxError<M> {
    /// The mailbox holds as many messages as it may.
    Full(M),
    /// The loop has stopped: nobody will take the message.
    Stopped(M),
}

impl<M> MailboxError<M> {
    /// The message that was not delivered.
    pub fn into_inner(self) -> M {
        match self {
            MailboxError::Full(m) | MailboxError::Stopped(m) => m,
        }
    }
}

impl<M> fmt::Debug for MailboxError<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MailboxError::Full(_) => f.write_str("Full(..)"),
            MailboxError::Stopped(_) => f.write_str("Stopped(..)"),
        }
    }
}

impl<M> fmt::Display for MailboxError<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MailboxError::Full(_) => "the mailbox is full",
            MailboxError::Stopped(_) => "the loop has stopped",
        })
    }
}

impl<M> std::error::Error for MailboxError<M> {}

/// An adapter's mailbox, as the application interface sees it. With `wait`, a full
/// mailbox makes the sender wait, except on the loop's own thread, where it refuses at
/// once.
pub(crate) trait Post<M>: Send + Sync {
    /// Delivers a message of the application's.
    fn post_app(&self, message: M, wait: bool) -> Result<(), MailboxError<M>>;
    /// Delivers a ticket's action, waiting while the mailbox is full; `false` if it
    /// could not be delivered.
    fn post_act(&self, session: SessionTag, action: Action) -> bool;
}

/// Hands messages to the [`Handler`](super::Handler) from any thread: they arrive in
/// [`on_message`](super::Handler::on_message). Cheap to clone.
///
/// The mailbox is bounded (64 messages by default). [`send`](Self::send) waits while it
/// is full, except on the loop's own thread, where it refuses (the loop cannot wait for
/// itself; use [`Context::defer`](super::Context::defer) there); [`try_send`](Self::try_send)
/// never waits.
pub struct Sender<M> {
    post: Arc<dyn Post<M>>,
}

impl<M> Clone for Sender<M> {
    fn clone(&self) -> Self {
        Sender { post: Arc::clone(&self.post) }
    }
}

impl<M: Send + 'static> Sender<M> {
    pub(crate) fn new(post: Arc<dyn Post<M>>) -> Self {
        Sender { post }
    }

    /// Delivers `message`, waiting while the mailbox is full; `false` (the message
    /// dropped) if the loop has stopped, or on the loop's thread with a full mailbox.
    pub fn send(&self, message: M) -> bool {
        self.post.post_app(message, true).is_ok()
    }

    /// Delivers `message` if there is room now.
    pub fn try_send(&self, message: M) -> Result<(), MailboxError<M>> {
        self.post.post_app(message, false)
    }

    /// The sink tickets post their actions to.
    pub(crate) fn actions(&self) -> Arc<dyn ActionPost> {
        Arc::new(ActionsVia(Arc::clone(&self.post)))
    }
}

/// Where a [`Ticket`](super::Ticket) sends its actions: the mailbox, whatever the
/// application's message type.
pub(crate) trait ActionPost: Send + Sync {
    fn post_action(&self, session: SessionTag, action: Action) -> bool;
}

struct ActionsVia<M>(Arc<dyn Post<M>>);

impl<M> ActionPost for ActionsVia<M> {
    fn post_action(&self, session: SessionTag, action: Action) -> bool {
        self.0.post_act(session, action)
    }
}
