//! The drain: `poll_output` first decides what to hand out next, mutating freely
//! (`prepare`), then builds it from shared borrows (`emit`), so that what it hands out
//! can borrow the client's storage.

use super::event::{Event, HttpMisbehavior, LostReason, Output, Received};
use super::exchange::{BodyMode, Ending, ExchangeId, ExchangeKind, Stage, id_hash};
use super::outgoing::{OutKind, inspect};
use super::state::{HttpClient, Legacy, Pending, Phase, Queued, Standalone};
use super::url::Url;
use crate::framing::sse::SseError;
use crate::http::headers::WwwAuthenticate;

/// What the next poll hands out.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Next {
    Message,
    Abort(ExchangeId),
    Queued(Queued),
    Auth(usize),
    Lost { slot: usize, exchange: ExchangeId, reason: LostReason },
    Request(usize),
    Idle,
}

/// What one event of a stream is, for the transport.
enum StreamEvent {
    /// A JSON-RPC message: hand it out.
    Message,
    /// HTTP+SSE's `endpoint`, with its URL.
    Endpoint,
    /// Nothing for the session (a priming event, another type, or a comment block).
    Skip,
    /// A message event on an HTTP+SSE stream before `endpoint`.
    BeforeEndpoint,
}

impl<const X: usize> HttpClient<'_, X> {
    /// The next thing to do: a request to make, an exchange to abort, a message for the
    /// session, an event, or nothing until the next input. Call it until it returns
    /// [`Output::Idle`] after every input and command.
    pub fn poll_output(&mut self) -> Output<'_> {
        let next = self.prepare();
        self.emit(next)
    }

    /// Decides what to hand out next, without borrowing (so that a caller holding
    /// another `&mut` can loop over it).
    pub(crate) fn prepare(&mut self) -> Next {
        loop {
            if self.message.is_some() {
                return Next::Message;
            }
            if let Some(slot) = self.slots.iter_mut().find(|s| s.abort.is_some())
                && let Some(id) = slot.abort.take()
            {
                return Next::Abort(id);
            }
            if let Some(event) = self.events.pop_front() {
                return Next::Queued(event);
            }
            for (i, slot) in self.slots.iter_mut().enumerate() {
                match slot.stage {
                    Stage::AuthPending { status, challenge } => {
                        slot.stage = Stage::AuthBlocked { status, challenge };
                        return Next::Auth(i);
                    }
                    Stage::Lost(reason) => {
                        let exchange = slot.id;
                        slot.clear();
                        return Next::Lost { slot: i, exchange, reason };
                    }
                    _ => {}
                }
            }
            self.start_wanted();
            if let Some(i) = self.slots.iter().position(|s| matches!(s.stage, Stage::Queued)) {
                let slot = &mut self.slots[i];
                slot.stage = Stage::Sent;
                slot.live = true;
                // A connection counts as fruitful only for what it brings itself.
                slot.fruitful = false;
                slot.refused = None;
                slot.carried_session = slot.kind != ExchangeKind::LegacyPost
                    && slot.kind != ExchangeKind::LegacyStream
                    && !(slot.kind == ExchangeKind::Post && slot.out == OutKind::Initialize)
                    && self.text.session_id().is_some();
                return Next::Request(i);
            }
            if self.read_bodies() {
                continue;
            }
            return Next::Idle;
        }
    }

    /// Opens what waits for a slot: the `DELETE`, the HTTP+SSE stream, the standalone
    /// stream.
    fn start_wanted(&mut self) {
        if self.delete_wanted {
            if let Some(i) = self.allocate(false) {
                self.delete_wanted = false;
                let slot = &mut self.slots[i];
                slot.kind = ExchangeKind::Delete;
                slot.out = OutKind::Notification;
                slot.body_len = 0;
                slot.stage = Stage::Queued;
                slot.next_id();
            }
            return;
        }
        if self.phase != Phase::Open {
            return;
        }
        if self.legacy == Legacy::Wanted
            && let Some(i) = self.allocate(true)
        {
            let slot = &mut self.slots[i];
            slot.kind = ExchangeKind::LegacyStream;
            slot.out = OutKind::Notification;
            slot.body_len = 0;
            slot.stage = Stage::Queued;
            slot.next_id();
            self.legacy = Legacy::Connecting(i);
        }
        if self.standalone == Standalone::Wanted
            && !self.legacy_known
            && let Some(i) = self.allocate(true)
        {
            let slot = &mut self.slots[i];
            slot.kind = ExchangeKind::Stream;
            slot.out = OutKind::Notification;
            slot.body_len = 0;
            slot.stage = Stage::Queued;
            slot.next_id();
            self.standalone = Standalone::Active;
        }
    }

    /// Moves response bodies on: one stream event, or one ended body. `true` when
    /// something changed (the caller looks again).
    fn read_bodies(&mut self) -> bool {
        for i in 0..X {
            let Stage::Reading { mode, ended } = self.slots[i].stage else { continue };
            match mode {
                BodyMode::Sse if self.stream_step(i, ended) => {
                    return true;
                }
                BodyMode::Json { len } if ended.is_some() => {
                    self.json_ended(i, len, ended);
                    return true;
                }
                BodyMode::Discard if ended.is_some() => {
                    if self.slots[i].kind == ExchangeKind::Delete {
                        self.closed(i);
                    } else {
                        self.slots[i].clear();
                    }
                    return true;
                }
                _ => {}
            }
        }
        false
    }

    fn json_ended(&mut self, i: usize, len: usize, ended: Option<Ending>) {
        let slot = &mut self.slots[i];
        let request = slot.out.expects_response();
        match ended {
            Some(Ending::Failed(f)) if request => slot.stage = Stage::Lost(LostReason::Transport(f)),
            Some(Ending::Complete) if len > 0 => {
                let kind = slot.kind;
                let exchange = slot.id;
                let incoming = inspect(&slot.store.raw_ref()[..len]);
                if let Some(status) = slot.refused
                    && request
                    && incoming.answers.is_none()
                {
                    // A refusal that names no request (a server that could not read it,
                    // or one of the handshake era refusing a request without a session):
                    // the request is lost, as with a bare status.
                    slot.stage = Stage::Lost(LostReason::Status(status));
                    return;
                }
                self.on_incoming(kind, incoming);
                self.message = Some(Pending { slot: i, exchange, json: Some(len) });
            }
            _ if request => slot.stage = Stage::Lost(LostReason::NoResponse),
            _ => slot.clear(),
        }
    }

    /// One step of a stream: the next event, or its end. `true` when something changed.
    fn stream_step(&mut self, i: usize, ended: Option<Ending>) -> bool {
        let in_legacy = matches!(self.legacy, Legacy::Connecting(s) if s == i);
        let slot = &mut self.slots[i];
        let exchange = slot.id;
        let Some(decoder) = slot.store.sse() else { return false };
        if ended.is_some() && !decoder.is_closed() {
            decoder.close();
        }
        let mark = slot.id_mark;
        let step = match decoder.next_event() {
            None => None,
            Some(Err(e)) => Some(Err(e)),
            Some(Ok(event)) => {
                let news = id_hash(event.last_event_id()) != mark;
                let kind = if in_legacy {
                    match (event.event_type(), event.data().is_empty()) {
                        (b"endpoint", false) => StreamEvent::Endpoint,
                        (b"message", false) => StreamEvent::BeforeEndpoint,
                        _ => StreamEvent::Skip,
                    }
                } else if event.message().is_some() {
                    StreamEvent::Message
                } else {
                    StreamEvent::Skip
                };
                Some(Ok((kind, news)))
            }
        };
        match step {
            None if ended.is_some() => {
                self.stream_ended(i);
                true
            }
            None => false,
            Some(Err(e)) => {
                let what = match e {
                    SseError::TooLarge { capacity } => HttpMisbehavior::EventTooLarge { capacity },
                    _ => HttpMisbehavior::IncompleteEvent,
                };
                self.queue(Queued::Misbehavior { exchange, what });
                true
            }
            Some(Ok((kind, news))) => {
                if news {
                    self.slots[i].fruitful = true;
                }
                match kind {
                    StreamEvent::Skip => {}
                    StreamEvent::Message => {
                        self.slots[i].fruitful = true;
                        let slot_kind = self.slots[i].kind;
                        let incoming = match self.slots[i].store.sse_ref().and_then(|d| d.current()) {
                            Some(event) => inspect(event.data()),
                            None => Default::default(),
                        };
                        self.on_incoming(slot_kind, incoming);
                        self.message = Some(Pending { slot: i, exchange, json: None });
                    }
                    StreamEvent::Endpoint => self.on_endpoint(i),
                    StreamEvent::BeforeEndpoint => {
                        self.queue(Queued::Misbehavior { exchange, what: HttpMisbehavior::NoEndpointEvent });
                        self.legacy_failed(LostReason::NoEndpoint);
                    }
                }
                true
            }
        }
    }

    /// What an incoming message means for the exchanges: the request it answers no longer
    /// needs its stream resumed, and an answer to `initialize` settles the session.
    fn on_incoming(&mut self, kind: ExchangeKind, incoming: super::outgoing::Incoming) {
        let Some(id) = incoming.answers else { return };
        for slot in &mut self.slots {
            if !matches!(slot.stage, Stage::Free) && slot.out.expects_response() && slot.request.as_ref() == Some(&id) {
                slot.answered = true;
            }
        }
        if self.init.as_ref() == Some(&id) {
            self.on_initialize_answer(kind, incoming.success, incoming.version);
        }
    }

    /// HTTP+SSE's `endpoint`: resolve it against the URL, keep it to the same origin,
    /// then send the held `initialize` there.
    fn on_endpoint(&mut self, i: usize) {
        let exchange = self.slots[i].id;
        let base = self.config.url;
        let resolved = match self.slots[i].store.sse_ref().and_then(|d| d.current()) {
            Some(event) => match core::str::from_utf8(event.data()) {
                Ok(reference) => self.text.set_endpoint_url(&base, reference),
                Err(_) => Err(super::url::UrlError::Syntax { at: 0 }),
            },
            None => return,
        };
        let what = match resolved {
            Err(e) => Some(HttpMisbehavior::BadEndpoint(e)),
            Ok(()) => match self.text.endpoint_url().map(Url::parse) {
                Some(Ok(url)) if url.same_origin(&base) => None,
                _ => Some(HttpMisbehavior::CrossOriginEndpoint),
            },
        };
        if let Some(what) = what {
            self.queue(Queued::Misbehavior { exchange, what });
            self.legacy_failed(LostReason::NoEndpoint);
            return;
        }
        self.legacy = Legacy::Ready(i);
        for slot in &mut self.slots {
            if matches!(slot.stage, Stage::Held) {
                slot.stage = Stage::Queued;
                slot.next_id();
            }
        }
    }

    /// A stream's body ended and its events are all out.
    fn stream_ended(&mut self, i: usize) {
        let slot = &self.slots[i];
        match slot.kind {
            ExchangeKind::LegacyStream => self.legacy_stream_ended(i),
            ExchangeKind::Post | ExchangeKind::Resume if slot.answered || !slot.out.expects_response() => {
                self.slots[i].clear();
            }
            _ => self.reconnect(i),
        }
    }

    /// Builds what `prepare` decided.
    pub(crate) fn emit(&self, next: Next) -> Output<'_> {
        match next {
            Next::Message => self.emit_message(),
            Next::Abort(id) => Output::Abort(id),
            Next::Queued(q) => Output::Event(self.queued_event(q)),
            Next::Auth(i) => {
                let slot = &self.slots[i];
                let Stage::AuthBlocked { status, challenge } = slot.stage else { return self.idle() };
                let body = slot.body_len;
                let www = slot
                    .store
                    .raw_ref()
                    .get(body..body + challenge)
                    .filter(|v| !v.is_empty())
                    .and_then(|v| WwwAuthenticate::parse(v).ok());
                Output::Event(Event::AuthRequired {
                    exchange: slot.id,
                    status,
                    bearer: www.and_then(|w| w.bearer()),
                    www_authenticate: www,
                    retries_left: self.config.max_auth_retries.saturating_sub(slot.auth_tries),
                })
            }
            Next::Lost { slot, exchange, reason } => {
                let s = &self.slots[slot];
                let request = if s.out.expects_response() { s.request.as_ref() } else { None };
                Output::Event(Event::Lost { exchange, request, reason })
            }
            Next::Request(i) => Output::Request(self.build_request(i)),
            Next::Idle => self.idle(),
        }
    }

    fn idle(&self) -> Output<'_> {
        Output::Idle { next_timeout: self.poll_timeout() }
    }

    /// The message handed out and not yet consumed.
    pub(crate) fn pending_message(&self) -> Option<&[u8]> {
        let p = self.message?;
        let slot = &self.slots[p.slot];
        match p.json {
            Some(len) => slot.store.raw_ref().get(..len),
            None => slot.store.sse_ref().and_then(|d| d.current()).map(|e| e.data()),
        }
    }

    fn emit_message(&self) -> Output<'_> {
        match self.message {
            Some(p) => Output::Message(Received { exchange: p.exchange, bytes: self.pending_message().unwrap_or(&[]) }),
            None => self.idle(),
        }
    }

    fn queued_event(&self, q: Queued) -> Event<'_> {
        match q {
            Queued::Connected => Event::Connected {
                transport: self.transport.unwrap_or(super::event::Transport::Streamable),
                session_id: self.text.session_id(),
            },
            Queued::FellBack(status) => Event::FellBack { status },
            Queued::StandaloneUnavailable(status) => Event::StandaloneUnavailable { status },
            Queued::Reconnecting { exchange, attempt, at } => Event::Reconnecting { exchange, attempt, at },
            Queued::Misbehavior { exchange, what } => Event::Misbehavior { exchange, what },
            Queued::SessionExpired(reason) => Event::SessionExpired { reason },
            Queued::Closed => Event::Closed,
        }
    }
}
