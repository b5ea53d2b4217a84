//! What the endpoint does with each frame it receives.
//!
//! Every frame ends in exactly one of: an event for the application, an automatic reply
//! (a pong, an error for a request that cannot be served), or a deliberate silence (a
//! stray cancellation, a duplicate `initialized`). Each path is named after the rule of the
//! specification it implements, and builds its event right there, borrowing the frame.
//! Only a request needs one more step: its answering handle borrows the endpoint, so it
//! is attached once the frame is released (see [`Received::Request`]).

use core::ops::Range;

use super::core::{BatchCursor, Core};
use super::event::{CloseReason, Event, IncomingNotification, Misbehavior, RefuseReason};
use super::inbound::InEntry;
use super::lifecycle::Phase;
use super::outbound::Lookup;
use crate::mcp::{CapabilitySet, Method, ProtocolVersion, Role};
use crate::wire::{
    EnvelopeError, ErrorCode, ErrorId, ErrorObject, Frame, JsonKind, MAX_ID_LEN, Message, Notification, Number,
    NumberBuf, ParseOptions, RawJson, Request, RequestId, RequestIdRef, Shape,
};

/// What processing one frame produced for the application.
pub(crate) enum Received<'e> {
    /// An event, complete.
    Event(Event<'e>),
    /// A request, given the inbound slot `slot`; the endpoint attaches the handle that
    /// answers it.
    Request { slot: usize, id: RequestIdRef<'e>, method: Method<'e>, params: Option<RawJson<'e>> },
}

impl<'e> From<Event<'e>> for Received<'e> {
    fn from(event: Event<'e>) -> Self {
        Received::Event(event)
    }
}

impl<'e> From<Misbehavior<'e>> for Received<'e> {
    fn from(m: Misbehavior<'e>) -> Self {
        Received::Event(Event::Misbehavior(m))
    }
}

/// Where `part`, a sub-slice of `base`, starts in it.
fn offset_in(base: &[u8], part: &[u8]) -> usize {
    (part.as_ptr() as usize).wrapping_sub(base.as_ptr() as usize).min(base.len())
}

impl<const OUT: usize, const IN: usize> Core<'_, OUT, IN> {
    fn parse_options(&self, allow_batch: bool) -> ParseOptions {
        ParseOptions { max_depth: self.config.max_depth, allow_batch }
    }

    /// Handles the line at `range` of `buf`. Returns what it produced and whether the
    /// line must stay in the buffer (a batch, processed element by element).
    pub fn receive_line<'e>(&mut self, buf: &'e [u8], range: Range<usize>) -> (Option<Received<'e>>, bool) {
        let line = &buf[range];
        let batches = self.life.version().is_some_and(ProtocolVersion::allows_batches);
        match Frame::parse(line, &self.parse_options(batches)) {
            Err(e) => (Some(self.invalid_message(e)), false),
            Ok(Frame::Single(msg)) => (self.receive_message(msg, false), false),
            Ok(Frame::Batch(batch)) => {
                let bytes = batch.as_bytes();
                let start = offset_in(buf, bytes);
                self.batch = Some(BatchCursor { next: start + 1, end: start + bytes.len() });
                (None, true)
            }
        }
    }

    /// Handles the next element of the batch in progress; `None` when it is finished.
    pub fn receive_batch_element<'e>(&mut self, buf: &'e [u8], cursor: BatchCursor) -> Option<Option<Received<'e>>> {
        let (start, end) = crate::wire::batch_element(buf, cursor.next, cursor.end)?;
        self.batch = Some(BatchCursor { next: end, ..cursor });
        let element = &buf[start..end];
        let options = self.parse_options(false);
        let options = ParseOptions { max_depth: options.max_depth.saturating_sub(1), ..options };
        Some(match Message::parse_with(element, &options) {
            Ok(msg) => self.receive_message(msg, true),
            Err(e) => Some(self.invalid_message(e)),
        })
    }

    /// A frame that is not a valid message: reply where JSON-RPC calls for it.
    ///
    /// A server answers broken requests and unidentifiable frames (-32600 or -32700). A
    /// client answers only broken requests: a server that prints logs or other non-MCP
    /// lines on stdout must not be flooded with error replies (rmcp issue #938). Broken
    /// notifications and responses are never answered.
    fn invalid_message<'e>(&mut self, e: EnvelopeError<'e>) -> Received<'e> {
        let reply = match self.config.role {
            Role::Server => e.should_reply(),
            Role::Client => e.shape == Shape::Request,
        };
        let replied = reply && {
            let id = match e.id {
                Some(id) => ErrorId::Id(id),
                None => self.unreadable_id(),
            };
            // Pieces pushed one by one: `write!` would pull in core::fmt (kilobytes on an MCU).
            let mut message: heapless::String<96> = heapless::String::new();
            let prefix = if e.code() == ErrorCode::PARSE_ERROR { "Parse error: " } else { "Invalid Request: " };
            let _ = message.push_str(prefix);
            let _ = message.push_str(e.rule.describe());
            self.auto_error(id, e.code(), &message)
        };
        Misbehavior::InvalidMessage { error: e, replied }.into()
    }

    /// How an error reply names a request id that could not be read: JSON-RPC's `null`,
    /// or (from 2025-11-25, whose schema makes the id optional) no id at all.
    fn unreadable_id(&self) -> ErrorId<'static> {
        if self.life.version().is_some_and(ProtocolVersion::error_id_optional) {
            ErrorId::Omitted
        } else {
            ErrorId::Null
        }
    }

    /// Records what became of a message the endpoint owes: one that did not fit is
    /// reported as [`Event::ReplyDropped`]. `false` if it was not written.
    fn owed(&mut self, written: Result<Range<usize>, crate::wire::EncodeError>) -> bool {
        match written {
            Ok(_) => true,
            Err(crate::wire::EncodeError::BufferTooSmall { needed, .. }) => {
                self.queued.dropped_reply = Some(needed);
                false
            }
            Err(_) => false,
        }
    }

    /// Writes an error reply the endpoint owes; `false` if it could not be written.
    fn auto_error(&mut self, id: ErrorId<'_>, code: ErrorCode, message: &str) -> bool {
        let written = self.tx.error(id, code, message);
        self.owed(written)
    }

    fn auto_result(&mut self, id: RequestIdRef<'_>, result: &RawJson<'_>) {
        let written = self.tx.result(id, result);
        self.owed(written);
    }

    fn receive_message<'e>(&mut self, msg: Message<'e>, in_batch: bool) -> Option<Received<'e>> {
        match msg {
            Message::Request(r) => self.on_request(r, in_batch),
            Message::Notification(n) => self.on_notification(n),
            Message::Response(r) => self.on_answer(Some(r.id), Ok(r.result)),
            Message::Error(e) => self.on_answer(e.id, Err(e.error)),
        }
    }

    // ---- requests -----------------------------------------------------------------

    /// Answers request `r` with the error for `reason` and reports it.
    fn refuse<'e>(&mut self, r: &Request<'e>, reason: RefuseReason) -> Option<Received<'e>> {
        let (code, message) = reason.reply();
        self.auto_error(ErrorId::Id(r.id), code, message);
        Some(Misbehavior::RequestRefused { id: r.id, method: Method::parse(r.method), code, reason }.into())
    }

    fn on_request<'e>(&mut self, r: Request<'e>, in_batch: bool) -> Option<Received<'e>> {
        let method = Method::parse(r.method);
        if method == Method::Ping {
            // Answered in every state, before and after the handshake.
            self.auto_result(r.id, &RawJson::EMPTY_OBJECT);
            return None;
        }
        if r.id.as_token().len() > MAX_ID_LEN {
            return self.refuse(&r, RefuseReason::IdTooLong);
        }
        if self.inb.find(r.id).is_some() {
            return self.refuse(&r, RefuseReason::DuplicateId);
        }
        if method == Method::Initialize && self.config.role == Role::Server {
            return match () {
                _ if in_batch => self.refuse(&r, RefuseReason::InitializeInBatch),
                _ if !matches!(self.life.phase(), Phase::AwaitingInitialize) => {
                    self.refuse(&r, RefuseReason::AlreadyInitialized)
                }
                _ => self.on_initialize(r),
            };
        }
        let version = match self.life.ready_version() {
            Some(v) => v,
            // A method none of our versions has is unknown, handshake or not: -32601 lets a
            // dual-era client probing with `server/discover` fall back to `initialize`.
            _ if !self.config.handshake_versions().iter().any(|v| method.allowed(v, self.config.role.peer())) => {
                return self.refuse(&r, RefuseReason::NotInVersion);
            }
            _ => return self.refuse(&r, RefuseReason::NotInitialized),
        };
        if method.is_known() && !method.allowed(version, self.config.role.peer()) {
            return self.refuse(&r, RefuseReason::NotInVersion);
        }
        if let Some(cap) = method.required_capability(version, self.config.role)
            && !self.life.own_caps().contains(cap)
        {
            return self.refuse(&r, RefuseReason::CapabilityNotDeclared);
        }
        let Some(slot) = self.inb.free_slot() else {
            return self.refuse(&r, RefuseReason::TooManyRequests);
        };
        let token = r
            .params
            .and_then(|p| p.get("_meta"))
            .and_then(|m| m.get("progressToken"))
            .filter(|t| t.kind() == JsonKind::String || t.as_i64().is_some() || t.as_u64().is_some())
            .and_then(|t| RequestIdRef::from_validated(t.as_bytes()).to_owned().ok());
        let Ok(id) = r.id.to_owned() else { return self.refuse(&r, RefuseReason::IdTooLong) };
        self.inb.insert(slot, InEntry { id, cancelled: false, token, last_progress: None });
        Some(Received::Request { slot, id: r.id, method, params: r.params })
    }

    /// Server: version negotiation. The client's version if this server supports it,
    /// otherwise this server's newest; the client decides whether it can live with that.
    fn on_initialize<'e>(&mut self, r: Request<'e>) -> Option<Received<'e>> {
        let requested = r.params.and_then(|p| p.get("protocolVersion")).and_then(|v| v.as_str());
        if requested.is_none() {
            return self.refuse(&r, RefuseReason::InvalidInitialize);
        }
        let requested = requested?;
        let supported = self.config.handshake_versions();
        let newest = supported.newest()?;
        let version = ProtocolVersion::from_json(requested).filter(|v| supported.contains(*v)).unwrap_or(newest);
        let peer = r.params.unwrap_or(RawJson::EMPTY_OBJECT);
        let peer_caps = peer.get("capabilities").map_or(CapabilitySet::EMPTY, CapabilitySet::from_client_json);
        let written = self.tx.result(r.id, &self.initialize_result(version));
        self.owed(written);
        self.life.negotiated(version, peer_caps);
        Some(Event::Negotiated { version, peer }.into())
    }

    // ---- notifications ------------------------------------------------------------

    fn on_notification<'e>(&mut self, n: Notification<'e>) -> Option<Received<'e>> {
        let method = Method::parse(n.method);
        match method {
            Method::Cancelled => return self.on_cancelled(n.params),
            Method::Progress => return self.on_progress(method, n.params),
            Method::Initialized => {
                if self.config.role == Role::Server && self.life.initialized() {
                    self.refresh_timers();
                    return self.life.version().map(|version| Event::Ready { version }.into());
                }
                // A duplicate or misdirected `initialized` changes nothing.
                return None;
            }
            _ => {}
        }
        let ignored = |reason| Some(Misbehavior::NotificationIgnored { method, reason }.into());
        match self.life.ready_version() {
            Some(version) => {
                if method.is_known() && !method.allowed(version, self.config.role.peer()) {
                    return ignored(RefuseReason::NotInVersion);
                }
            }
            // Before the handshake completes a server may already send log messages.
            _ if method == Method::LogMessage && self.config.role == Role::Client => {}
            _ => return ignored(RefuseReason::NotInitialized),
        }
        Some(Event::Notification(IncomingNotification { method, params: n.params }).into())
    }

    /// The peer cancels one of its requests: remember it so that no response is sent,
    /// and tell the application. Unknown, finished or uncancellable (`initialize`)
    /// requests are ignored, as the specification asks.
    fn on_cancelled<'e>(&mut self, params: Option<RawJson<'e>>) -> Option<Received<'e>> {
        let params = params?;
        let id = params.get("requestId")?;
        if !(id.kind() == JsonKind::String || id.as_i64().is_some() || id.as_u64().is_some()) {
            return None;
        }
        let id = RequestIdRef::from_validated(id.as_bytes());
        if !self.inb.cancel(id) {
            return None;
        }
        let reason = params.get("reason").and_then(|r| r.as_str());
        Some(Event::Cancelled { id, reason }.into())
    }

    /// Progress for one of our requests: only for a live request that asked for it, and
    /// only when the value increases. It restarts the idle timeout when asked to; the
    /// absolute cap stays.
    fn on_progress<'e>(&mut self, method: Method<'e>, params: Option<RawJson<'e>>) -> Option<Received<'e>> {
        let invalid = Some(Misbehavior::InvalidNotificationParams { method }.into());
        let Some(params) = params else { return invalid };
        let Some(token) = params.get("progressToken") else { return invalid };
        let Some(progress) = params.get("progress").and_then(Number::from_json) else { return invalid };
        let total = match params.get("total") {
            None => None,
            Some(t) => match Number::from_json(t) {
                Some(t) => Some(t),
                None => return invalid,
            },
        };
        let message = params.get("message").and_then(|m| m.as_str());
        let slot = match token.as_u64().map(|id| self.out.lookup(Some(id))) {
            Some(Lookup::Live(i)) if self.out.live(i).is_some_and(|e| e.progress) => i,
            _ => return Some(Misbehavior::UnknownProgressToken { token }.into()),
        };
        // Kept as text and compared exactly: no float parsing, no rounding.
        let Some(value) = NumberBuf::of(progress) else { return invalid };
        let entry = self.out.live(slot)?;
        let id = RequestId::from_u64(entry.id);
        if entry.last_progress().is_some_and(|last| progress <= last.get()) {
            return Some(Misbehavior::NonIncreasingProgress { id, progress }.into());
        }
        self.out.progressed(slot, value, self.now);
        Some(Event::Progress { id, progress, total, message }.into())
    }

    // ---- responses ----------------------------------------------------------------

    /// A response or error response. Decoded by what it answers, never by its shape.
    fn on_answer<'e>(
        &mut self,
        id: Option<RequestIdRef<'e>>,
        outcome: Result<RawJson<'e>, ErrorObject<'e>>,
    ) -> Option<Received<'e>> {
        let Some(id) = id else {
            // Only error responses may lack an id: the peer could not read a message.
            return match outcome {
                Err(error) => Some(Misbehavior::UncorrelatedError { error }.into()),
                Ok(_) => None,
            };
        };
        let n = id.as_u64();
        if let Some(init) = self.life.init()
            && n == Some(init.id)
        {
            return self.on_initialize_answer(init.id, outcome);
        }
        if let Some(ping) = self.timers.ping
            && n == Some(ping.id)
        {
            self.timers.ping = None;
            self.refresh_timers();
            return None;
        }
        match self.out.lookup(n) {
            Lookup::Unknown => Some(Misbehavior::UnknownResponse { id }.into()),
            Lookup::Ended => Some(Misbehavior::LateResponse { id }.into()),
            Lookup::Live(i) => {
                let entry = self.out.take(i)?;
                let (id, method) = (RequestId::from_u64(entry.id), entry.method);
                Some(match outcome {
                    Ok(result) => Event::Response { id, method, result }.into(),
                    Err(error) => Event::Error { id, method, error }.into(),
                })
            }
        }
    }

    /// Client: the server's answer to `initialize`. Accept only a version this client
    /// supports; on -32602 with `data.supported`, retry with the newest version both
    /// sides support; otherwise the session ends with the reason.
    fn on_initialize_answer<'e>(
        &mut self,
        id: u64,
        outcome: Result<RawJson<'e>, ErrorObject<'e>>,
    ) -> Option<Received<'e>> {
        let supported = self.config.handshake_versions();
        let result = match outcome {
            Ok(result) => result,
            Err(error) => {
                let init = self.life.init();
                let retry = (error.code == ErrorCode::INVALID_PARAMS)
                    .then(|| error.data?.get("supported"))
                    .flatten()
                    .and_then(|list| {
                        list.elements()
                            .filter_map(|v| v.as_str().and_then(ProtocolVersion::from_json))
                            .filter(|v| supported.contains(*v))
                            // Offering the refused version again would only be refused again.
                            .filter(|v| init.is_none_or(|i| i.offered != *v))
                            .max()
                    });
                if let (Some(version), Some(init)) = (retry, init)
                    && init.retries > 0
                {
                    self.life.spend_retry();
                    if self.send_initialize(version).is_ok() {
                        return None;
                    }
                }
                self.shut_down(CloseReason::InitializeRejected { code: error.code });
                let id = RequestId::from_u64(id);
                return Some(Event::Error { id, method: Some(Method::Initialize), error }.into());
            }
        };
        let version = result.get("protocolVersion").and_then(|v| v.as_str()).map(ProtocolVersion::from_json);
        let version = match version {
            None => {
                self.shut_down(CloseReason::InvalidInitializeResult);
                return None;
            }
            Some(Some(v)) if supported.contains(v) => v,
            Some(_) => {
                self.shut_down(CloseReason::UnsupportedVersion);
                return None;
            }
        };
        let peer_caps = result.get("capabilities").map_or(CapabilitySet::EMPTY, CapabilitySet::from_server_json);
        let written = self.tx.notification("notifications/initialized", crate::wire::NO_PARAMS);
        self.owed(written);
        self.life.accepted(version, peer_caps);
        self.refresh_timers();
        self.queued.ready = true;
        Some(Event::Negotiated { version, peer: result }.into())
    }
}
