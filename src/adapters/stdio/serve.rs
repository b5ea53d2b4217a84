//! [`StdioLoop::serve`]: a [`Handler`] on the stdio loop, through the loop's own
//! [`App`] interface.

use std::collections::VecDeque;
use std::io;
use std::sync::Arc;

use super::event_loop::{Host, StdioLoop};
use super::output::Sink;
use crate::adapters::app::{
    Action, ActionPost, Applied, Context, ContextParts, Envelope, Handler, Letter, Outbox, Post, RequestError, Sender,
    SessionTag, Sessions, Tickets, apply,
};
use crate::mcp::{CapabilitySet, ProtocolVersion};
use crate::session::{Buffer, CloseReason, Endpoint, Event, RequestOptions};
use crate::time::{Clock, Instant};
use crate::wire::{RawJson, RequestId};

impl<M: Send + 'static> StdioLoop<Envelope<M>> {
    /// Runs a [`Handler`] on the endpoint until it closes; returns why it closed. The
    /// handler's one session is [`SessionTag::STDIO`]. See [`run`](Self::run) for
    /// `output`; the [module docs](crate::adapters::app) for what the handler gets.
    ///
    /// The endpoint's buffers may be of any storage: lent slices, or ones it owns (the
    /// `Box<[u8]>` of the HTTP adapter's sessions, so that a binary serving both
    /// transports carries the session code once).
    pub fn serve<'w, 'a, H: Handler<Message = M>, B: Buffer, const OUT: usize, const IN: usize>(
        &mut self,
        endpoint: &mut Endpoint<'a, OUT, IN, B>,
        output: impl Into<Sink<'w>>,
        handler: &mut H,
    ) -> io::Result<CloseReason> {
        let post: Arc<dyn Post<M>> = self.shared();
        let sender = Sender::new(post);
        let mut driver = Driver {
            post: sender.actions(),
            sender,
            handler,
            actions: Vec::new(),
            deferred: VecDeque::new(),
            outbox: Outbox::default(),
            tickets: Tickets::default(),
            clock: self.clock(),
            ended: false,
        };
        let result = self.run_host(endpoint, output.into(), &mut driver);
        driver.end();
        result
    }
}

/// The [`App`] that runs a [`Handler`].
struct Driver<'h, H: Handler> {
    handler: &'h mut H,
    sender: Sender<H::Message>,
    post: Arc<dyn ActionPost>,
    actions: Vec<(SessionTag, Action)>,
    deferred: VecDeque<H::Message>,
    outbox: Outbox,
    tickets: Tickets,
    clock: Clock,
    ended: bool,
}

/// The one endpoint, as a context reaches it.
struct One<'e, 'a, const OUT: usize, const IN: usize, B: Buffer>(&'e mut Endpoint<'a, OUT, IN, B>);

impl<const OUT: usize, const IN: usize, B: Buffer> Sessions for One<'_, '_, OUT, IN, B> {
    fn send_request(
        &mut self,
        session: SessionTag,
        now: Instant,
        method: &str,
        params: Option<RawJson<'_>>,
        options: RequestOptions,
    ) -> Result<RequestId, RequestError> {
        if session != SessionTag::STDIO {
            return Err(RequestError::NoSession);
        }
        Ok(self.0.send_request(now, method, params.as_ref(), options)?)
    }

    fn cancel(
        &mut self,
        session: SessionTag,
        now: Instant,
        id: &RequestId,
        reason: Option<&str>,
    ) -> Result<(), RequestError> {
        if session != SessionTag::STDIO {
            return Err(RequestError::NoSession);
        }
        Ok(self.0.cancel(now, id, reason)?)
    }

    fn protocol_version(&self, session: SessionTag) -> Option<ProtocolVersion> {
        (session == SessionTag::STDIO).then(|| self.0.protocol_version()).flatten()
    }

    fn peer_capabilities(&self, session: SessionTag) -> Option<CapabilitySet> {
        (session == SessionTag::STDIO).then(|| self.0.peer_capabilities())
    }
}

impl<H: Handler> Driver<'_, H> {
    /// Moves what the last callback sent into the outbox (only the one session exists).
    fn collect(&mut self) {
        for (session, action) in self.actions.drain(..) {
            if session == SessionTag::STDIO {
                self.outbox.push(action);
            }
        }
    }

    /// Sends what waits, in order, until the transmit buffer is full.
    fn flush<B: Buffer, const OUT: usize, const IN: usize>(
        &mut self,
        endpoint: &mut Endpoint<'_, OUT, IN, B>,
        now: Instant,
    ) {
        while let Some(action) = self.outbox.front() {
            match apply(endpoint, now, action) {
                Applied::Retry => return,
                Applied::Done => {
                    if let Some(request) = action.answers() {
                        self.tickets.answered(request);
                    }
                }
                Applied::Adapter => {
                    if matches!(action, Action::End) {
                        endpoint.close(now);
                    }
                }
            }
            self.outbox.pop();
        }
    }

    /// Runs a callback with the endpoint free.
    fn with_endpoint<B: Buffer, const OUT: usize, const IN: usize>(
        &mut self,
        endpoint: &mut Endpoint<'_, OUT, IN, B>,
        now: Instant,
        f: impl FnOnce(&mut H, &mut Context<'_, H::Message>),
    ) {
        let mut one = One(endpoint);
        let mut cx = Context::new(ContextParts {
            now,
            session: Some(SessionTag::STDIO),
            actions: &mut self.actions,
            deferred: &mut self.deferred,
            tickets: Some(&mut self.tickets),
            queued: !self.outbox.is_empty(),
            grows: false,
            sessions: Some(&mut one),
            sender: &self.sender,
            post: &self.post,
        });
        f(self.handler, &mut cx);
        self.collect();
        self.flush(endpoint, now);
    }

    /// Runs the deferred messages.
    fn run_deferred<B: Buffer, const OUT: usize, const IN: usize>(
        &mut self,
        endpoint: &mut Endpoint<'_, OUT, IN, B>,
        now: Instant,
    ) {
        while let Some(message) = self.deferred.pop_front() {
            self.with_endpoint(endpoint, now, |h, cx| h.on_message(cx, message));
        }
    }

    fn end(&mut self) {
        self.tickets.cancel_all();
        if !std::mem::replace(&mut self.ended, true) {
            self.handler.on_session_end(SessionTag::STDIO);
        }
    }
}

impl<'a, H: Handler, B: Buffer, const OUT: usize, const IN: usize> Host<'a, OUT, IN, B> for Driver<'_, H> {
    type Message = Envelope<H::Message>;

    fn on_event(&mut self, event: Event<'_>, _mailbox: &super::Mailbox<Self::Message>) {
        let closed = matches!(event, Event::Closed { .. });
        match &event {
            Event::Cancelled { request, .. } | Event::Expired { request, .. } => self.tickets.cancel(request),
            Event::Closed { .. } => self.tickets.cancel_all(),
            _ => {}
        }
        let mut cx = Context::new(ContextParts {
            now: self.clock.now(),
            session: Some(SessionTag::STDIO),
            actions: &mut self.actions,
            deferred: &mut self.deferred,
            tickets: Some(&mut self.tickets),
            queued: !self.outbox.is_empty(),
            grows: false,
            sessions: None,
            sender: &self.sender,
            post: &self.post,
        });
        self.handler.on_event(&mut cx, event);
        self.collect();
        if closed {
            self.end();
        }
    }

    fn on_message(&mut self, endpoint: &mut Endpoint<'a, OUT, IN, B>, now: Instant, message: Self::Message) {
        match message.0 {
            Letter::App(m) => self.with_endpoint(endpoint, now, |h, cx| h.on_message(cx, m)),
            Letter::Act(session, action) => {
                if session == SessionTag::STDIO {
                    self.outbox.push(action);
                }
            }
        }
        self.flush(endpoint, now);
        self.run_deferred(endpoint, now);
    }

    fn on_idle(&mut self, endpoint: &mut Endpoint<'a, OUT, IN, B>, now: Instant) -> Option<Instant> {
        self.flush(endpoint, now);
        self.run_deferred(endpoint, now);
        let mut deadline = None;
        self.with_endpoint(endpoint, now, |h, cx| deadline = h.on_idle(cx));
        self.run_deferred(endpoint, now);
        deadline
    }

    fn accepting(&self) -> bool {
        !self.outbox.is_full()
    }
}
