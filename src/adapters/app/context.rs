//! [`Context`]: what a [`Handler`](super::Handler) callback can do.

use std::borrow::Cow;
use std::collections::VecDeque;
use std::fmt;
use std::sync::Arc;

use serde::Serialize;

use super::action::Action;
use super::handler::SessionTag;
use super::sender::{ActionPost, Sender};
use super::ticket::{Ticket, Tickets};
use crate::mcp::{CapabilitySet, ProtocolVersion};
use crate::session::{IncomingRequest, RequestOptions, SendError};
use crate::time::Instant;
use crate::wire::{ErrorCode, RawJson, RequestId};

/// Why [`Context::send_request`] or [`Context::cancel`] did nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RequestError {
    /// Called from [`Handler::on_event`](super::Handler::on_event), while the event
    /// borrows the endpoint: [`defer`](Context::defer) a message and send from
    /// [`on_message`](super::Handler::on_message).
    InEvent,
    /// No such session (it ended).
    NoSession,
    /// The endpoint refused it.
    Send(SendError),
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InEvent => f.write_str("requests cannot be sent while an event borrows the endpoint: defer it"),
            Self::NoSession => f.write_str("the session has ended"),
            Self::Send(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for RequestError {}

impl From<SendError> for RequestError {
    fn from(e: SendError) -> Self {
        RequestError::Send(e)
    }
}

/// The endpoints, as a context outside an event reaches them (each adapter implements
/// it over its own sessions).
pub(crate) trait Sessions {
    fn send_request(
        &mut self,
        session: SessionTag,
        now: Instant,
        method: &str,
        params: Option<RawJson<'_>>,
        options: RequestOptions,
    ) -> Result<RequestId, RequestError>;
    fn cancel(
        &mut self,
        session: SessionTag,
        now: Instant,
        id: &RequestId,
        reason: Option<&str>,
    ) -> Result<(), RequestError>;
    fn protocol_version(&self, session: SessionTag) -> Option<ProtocolVersion>;
    fn peer_capabilities(&self, session: SessionTag) -> Option<CapabilitySet>;
    /// Whether `session` has messages waiting for room in its queue.
    fn backlogged(&self, session: SessionTag) -> bool {
        let _ = session;
        false
    }
}

/// What an adapter lends a context for one callback.
pub(crate) struct ContextParts<'c, M> {
    pub now: Instant,
    pub session: Option<SessionTag>,
    /// What the callback sends, in order, for the adapter to carry out after it.
    pub actions: &'c mut Vec<(SessionTag, Action)>,
    /// Messages for `on_message` after the callback.
    pub deferred: &'c mut VecDeque<M>,
    /// The current session's tickets.
    pub tickets: Option<&'c mut Tickets>,
    /// Whether the current session has actions waiting already (then answers queue
    /// behind them, to keep their order).
    pub queued: bool,
    /// The session's transmit buffer can grow: an answer too long for it now is queued
    /// (it goes once the adapter grew the buffer), never replaced by -32603 on the spot.
    pub grows: bool,
    /// The endpoints, outside an event.
    pub sessions: Option<&'c mut dyn Sessions>,
    pub sender: &'c Sender<M>,
    pub post: &'c Arc<dyn ActionPost>,
}

/// What a [`Handler`](super::Handler) callback can do: answer, notify, keep requests
/// for later ([`ticket`](Self::ticket)), send requests of ours, reach other threads.
///
/// What it sends goes out right after the callback returns, in the order it was sent;
/// when the endpoint's transmit buffer is full it waits in the session's queue and goes
/// as soon as there is room. Answers and notifications to a session that ended are
/// dropped (there is nobody to send them to).
pub struct Context<'c, M> {
    parts: ContextParts<'c, M>,
}

fn json<T: Serialize + ?Sized>(value: &T) -> Option<Vec<u8>> {
    crate::wire::to_vec(value).ok()
}

impl<'c, M> Context<'c, M> {
    pub(crate) fn new(parts: ContextParts<'c, M>) -> Self {
        Context { parts }
    }

    /// The current time, as the adapter's clock tells it.
    pub fn now(&self) -> Instant {
        self.parts.now
    }

    /// The session this callback is about (`None` in an HTTP server's `on_idle` and
    /// for messages not about a session).
    pub fn session(&self) -> Option<SessionTag> {
        self.parts.session
    }

    /// Whether the current session already has something waiting to be sent.
    /// Whether answers to `session` must queue behind what waits already.
    pub(crate) fn queued(&self, session: SessionTag) -> bool {
        self.parts.queued || self.parts.actions.iter().any(|(s, _)| *s == session)
    }

    /// Whether the adapter grows the transmit buffer for an answer longer than it.
    #[cfg(feature = "alloc")]
    pub(crate) fn grows(&self) -> bool {
        self.parts.grows
    }

    fn push(&mut self, session: SessionTag, action: Action) {
        self.parts.actions.push((session, action));
    }

    /// Sends `action` to `session`, in order behind what it sent before (for the
    /// crate's own bindings, which keep requests by their
    /// [`PendingRequest`](crate::session::PendingRequest) rather than as tickets).
    pub(crate) fn act(&mut self, session: SessionTag, action: Action) {
        self.push(session, action);
    }

    /// Whether `session` had messages waiting for room when the callback began: what
    /// can wait (progress) then should, so that a peer that reads nothing does not make
    /// the queue grow.
    pub(crate) fn backlogged(&self, session: SessionTag) -> bool {
        if self.parts.session == Some(session) && self.parts.queued {
            return true;
        }
        self.parts.sessions.as_deref().is_some_and(|s| s.backlogged(session))
    }

    /// Keeps `req` to be answered later, from this thread or a worker's (see
    /// [`Ticket`]). Its cancellation signal is set when the peer cancels it, when it
    /// expires, or when the session ends.
    pub fn ticket(&mut self, req: &IncomingRequest<'_>) -> Ticket {
        let session = self.parts.session.unwrap_or(SessionTag::STDIO);
        let ticket = Ticket::new(session, req.pending(), Arc::clone(self.parts.post));
        if let Some(t) = self.parts.tickets.as_deref_mut() {
            t.insert(&ticket);
        }
        ticket
    }

    /// Answers `req` now: written in place into the transmit buffer when it has room
    /// (no copy), queued otherwise (also when it is longer than a transmit buffer the
    /// adapter can still grow: the HTTP server's). Refusals by the endpoint are final
    /// and need no action (the request is over, or the reply can never fit and the
    /// endpoint sent -32603 itself); they are returned for logging.
    pub fn reply<R: Serialize + ?Sized>(&mut self, req: &mut IncomingRequest<'_>, result: &R) -> Option<SendError> {
        let session = self.parts.session.unwrap_or(SessionTag::STDIO);
        if !self.queued(session) {
            let sent = if self.parts.grows { req.try_respond(result) } else { req.respond(result) };
            match sent {
                Err(SendError::TxFull { .. }) => {}
                Ok(_) => return None,
                Err(e) => return Some(e),
            }
        }
        match json(result) {
            Some(result) => self.push(session, Action::Respond { request: req.pending(), result }),
            None => self.push(session, Action::Abandon { request: req.pending() }),
        }
        None
    }

    /// Answers `req` now with an error (see [`reply`](Self::reply)).
    pub fn reply_error(&mut self, req: &mut IncomingRequest<'_>, code: ErrorCode, message: &str) -> Option<SendError> {
        self.reply_error_data(req, code, message, None::<&RawJson<'_>>)
    }

    /// Answers `req` now with an error carrying `data` (see [`reply`](Self::reply): an
    /// error longer than a transmit buffer the adapter can still grow is queued too, so
    /// a long `data` is sent whole, not replaced by -32603).
    pub fn reply_error_data<D: Serialize + ?Sized>(
        &mut self,
        req: &mut IncomingRequest<'_>,
        code: ErrorCode,
        message: &str,
        data: Option<&D>,
    ) -> Option<SendError> {
        let session = self.parts.session.unwrap_or(SessionTag::STDIO);
        if !self.queued(session) {
            let sent = match data {
                _ if self.parts.grows => req.try_respond_error(code, message, data),
                Some(d) => req.respond_error_with_data(code, message, d),
                None => req.respond_error(code, message),
            };
            match sent {
                Err(SendError::TxFull { .. }) => {}
                Ok(_) => return None,
                Err(e) => return Some(e),
            }
        }
        let data = data.and_then(json);
        self.push(session, Action::Fail { request: req.pending(), code, message: message.into(), data });
        None
    }

    fn answer(&mut self, ticket: &Ticket, action: Action) {
        ticket.mark_answered();
        if let Some(t) = self.parts.tickets.as_deref_mut()
            && self.parts.session == Some(ticket.session())
        {
            t.answered(ticket.request());
        }
        self.push(ticket.session(), action);
    }

    /// Answers a kept request with `result`.
    pub fn respond<R: Serialize + ?Sized>(&mut self, ticket: &Ticket, result: &R) {
        let request = ticket.request().clone();
        match json(result) {
            Some(result) => self.answer(ticket, Action::Respond { request, result }),
            None => self.answer(ticket, Action::Abandon { request }),
        }
    }

    /// Answers a kept request with an error.
    pub fn respond_error(&mut self, ticket: &Ticket, code: ErrorCode, message: &str) {
        let request = ticket.request().clone();
        self.answer(ticket, Action::Fail { request, code, message: message.into(), data: None });
    }

    /// Answers a kept request with an error carrying `data`.
    pub fn respond_error_with_data<D: Serialize + ?Sized>(
        &mut self,
        ticket: &Ticket,
        code: ErrorCode,
        message: &str,
        data: &D,
    ) {
        let request = ticket.request().clone();
        self.answer(ticket, Action::Fail { request, code, message: message.into(), data: json(data) });
    }

    /// Gives up on a kept request: the endpoint answers -32603 "Request abandoned".
    pub fn abandon(&mut self, ticket: &Ticket) {
        let request = ticket.request().clone();
        self.answer(ticket, Action::Abandon { request });
    }

    /// Reports progress on a kept request (if it asked for it).
    pub fn progress(&mut self, ticket: &Ticket, progress: f64, total: Option<f64>, message: Option<&str>) {
        let request = ticket.request().clone();
        let message = message.map(str::to_string);
        self.push(ticket.session(), Action::Progress { request, progress, total, message });
    }

    /// Sends a notification about a kept request (over HTTP: on its response stream).
    pub fn notify_related<P: Serialize + ?Sized>(&mut self, ticket: &Ticket, method: &str, params: Option<&P>) {
        let related = Some(ticket.request().clone());
        let method = Cow::Owned(method.to_string());
        self.push(ticket.session(), Action::Notify { related, method, params: params.and_then(json) });
    }

    /// Sends a notification to `session`, about nothing in particular (over HTTP: on
    /// its GET stream, kept within a bound while none is open).
    pub fn notify<P: Serialize + ?Sized>(&mut self, session: SessionTag, method: &str, params: Option<&P>) {
        let method = Cow::Owned(method.to_string());
        self.push(session, Action::Notify { related: None, method, params: params.and_then(json) });
    }

    /// Over HTTP, closes the connection carrying the kept request's response stream
    /// once its priming event (and what is there) is out, keeping the stream: the
    /// client reconnects with `GET` and `Last-Event-ID` and gets the rest (SEP-1699
    /// polling, 2025-11-25 clients only). Nothing over stdio.
    pub fn close_stream(&mut self, ticket: &Ticket) {
        self.push(ticket.session(), Action::CloseStream { request: ticket.request().clone() });
    }

    /// Ends `session` (over stdio: closes the endpoint).
    pub fn end_session(&mut self, session: SessionTag) {
        self.push(session, Action::End);
    }

    /// Sends a request of ours to `session` and returns its id (the answer arrives as
    /// an event of that session). Not from `on_event` ([`RequestError::InEvent`]):
    /// [`defer`](Self::defer) a message and send it from `on_message`.
    pub fn send_request<P: Serialize + ?Sized>(
        &mut self,
        session: SessionTag,
        method: &str,
        params: Option<&P>,
        options: RequestOptions,
    ) -> Result<RequestId, RequestError> {
        let now = self.parts.now;
        let sessions = self.parts.sessions.as_deref_mut().ok_or(RequestError::InEvent)?;
        let bytes = match params {
            Some(p) => Some(json(p).ok_or(RequestError::Send(SendError::Encode(
                crate::wire::EncodeError::Serialize(crate::wire::SerializeError::Custom),
            )))?),
            None => None,
        };
        let raw = bytes.as_deref().map(|b| RawJson::parse(b).unwrap_or(RawJson::EMPTY_OBJECT));
        sessions.send_request(session, now, method, raw, options)
    }

    /// Cancels a request of ours (see [`Endpoint::cancel`](crate::session::Endpoint::cancel)).
    pub fn cancel(&mut self, session: SessionTag, id: &RequestId, reason: Option<&str>) -> Result<(), RequestError> {
        let now = self.parts.now;
        let sessions = self.parts.sessions.as_deref_mut().ok_or(RequestError::InEvent)?;
        sessions.cancel(session, now, id, reason)
    }

    /// The version `session` negotiated (`None` in `on_event`, or once it ended).
    pub fn protocol_version(&self, session: SessionTag) -> Option<ProtocolVersion> {
        self.parts.sessions.as_deref().and_then(|s| s.protocol_version(session))
    }

    /// The capabilities `session`'s client declared (`None` in `on_event`, or once it
    /// ended).
    pub fn peer_capabilities(&self, session: SessionTag) -> Option<CapabilitySet> {
        self.parts.sessions.as_deref().and_then(|s| s.peer_capabilities(session))
    }

    /// Delivers `message` to [`on_message`](super::Handler::on_message) right after
    /// this callback, with the endpoints free.
    pub fn defer(&mut self, message: M) {
        self.parts.deferred.push_back(message);
    }

    /// A sender for other threads.
    pub fn sender(&self) -> Sender<M> {
        self.parts.sender.clone()
    }
}
