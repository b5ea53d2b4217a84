//! What the endpoint does with each frame it receives.
//!
//! Every frame ends in exactly one of: an event for the application, an automatic reply
//! (a pong, an error for a request that cannot be served), or a deliberate silence (a
//! stray cancellation, a duplicate `initialized`). Each path is named after the rule of the
//! specification it implements.

use core::ops::Range;

use super::endpoint::{BatchCursor, Core, State};
use super::event::{CloseReason, RefuseReason};
use super::inbound::InEntry;
use super::outbound::Lookup;
use super::plan::{ErrorAt, Plan, Span, StrAt};
use crate::mcp::{CapabilitySet, Method, ProtocolVersion, Role};
use crate::wire::{
    EnvelopeError, ErrorCode, ErrorId, ErrorObject, Frame, JsonKind, MAX_ID_LEN, Message, Notification, Number,
    NumberBuf, ParseOptions, RawJson, Request, RequestIdRef, Shape,
};

impl<const OUT: usize, const IN: usize> Core<'_, OUT, IN> {
    fn parse_options(&self, allow_batch: bool) -> ParseOptions {
        ParseOptions { max_depth: self.config.max_depth, allow_batch }
    }

    /// Handles one line. Returns the plan and whether the line must stay in the buffer
    /// (a batch, processed element by element).
    pub fn dispatch_line(&mut self, buf: &[u8], range: Range<usize>) -> (Option<Plan>, bool) {
        let line = &buf[range];
        let batches = self.version.is_some_and(ProtocolVersion::allows_batches);
        match Frame::parse(line, &self.parse_options(batches)) {
            Err(e) => (Some(self.invalid_message(buf, e)), false),
            Ok(Frame::Single(msg)) => (self.dispatch_message(buf, msg, false), false),
            Ok(Frame::Batch(batch)) => {
                let span = Span::of(buf, batch.as_bytes());
                self.batch = Some(BatchCursor { next: span.start + 1, end: span.end });
                (None, true)
            }
        }
    }

    /// Handles the next element of the batch in progress; `None` when it is finished.
    pub fn batch_step(&mut self, buf: &[u8], cursor: BatchCursor) -> Option<Option<Plan>> {
        let (start, end) = crate::wire::batch_element(buf, cursor.next, cursor.end)?;
        self.batch = Some(BatchCursor { next: end, ..cursor });
        let element = &buf[start..end];
        let options = self.parse_options(false);
        let options = ParseOptions { max_depth: options.max_depth.saturating_sub(1), ..options };
        Some(match Message::parse_with(element, &options) {
            Ok(msg) => self.dispatch_message(buf, msg, true),
            Err(e) => Some(self.invalid_message(buf, e)),
        })
    }

    /// A frame that is not a valid message: reply where JSON-RPC calls for it.
    ///
    /// A server answers broken requests and unidentifiable frames (-32600 or -32700). A
    /// client answers only broken requests: a server that prints logs or other non-MCP
    /// lines on stdout must not be flooded with error replies (rmcp issue #938). Broken
    /// notifications and responses are never answered.
    fn invalid_message(&mut self, buf: &[u8], e: EnvelopeError<'_>) -> Plan {
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
        Plan::InvalidMessage { rule: e.rule, id: e.id.map(|i| Span::of(buf, i.as_token())), shape: e.shape, replied }
    }

    /// How an error reply names a request id that could not be read: JSON-RPC's `null`,
    /// or (from 2025-11-25, whose schema makes the id optional) no id at all.
    fn unreadable_id(&self) -> ErrorId<'static> {
        if self.version.is_some_and(ProtocolVersion::error_id_optional) { ErrorId::Omitted } else { ErrorId::Null }
    }

    /// Records what became of a message the endpoint owes: one that did not fit is
    /// reported as [`Event::ReplyDropped`](super::Event::ReplyDropped). `false` if it was
    /// not written.
    fn owed(&mut self, written: Result<core::ops::Range<usize>, crate::wire::EncodeError>) -> bool {
        match written {
            Ok(_) => true,
            Err(crate::wire::EncodeError::BufferTooSmall { needed, .. }) => {
                self.dropped_reply = Some(needed);
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

    fn dispatch_message(&mut self, buf: &[u8], msg: Message<'_>, in_batch: bool) -> Option<Plan> {
        match msg {
            Message::Request(r) => self.on_request(buf, r, in_batch),
            Message::Notification(n) => self.on_notification(buf, n),
            Message::Response(r) => self.on_answer(buf, Some(r.id), Ok(r.result)),
            Message::Error(e) => self.on_answer(buf, e.id, Err(e.error)),
        }
    }

    // ---- requests -----------------------------------------------------------------

    fn on_request(&mut self, buf: &[u8], r: Request<'_>, in_batch: bool) -> Option<Plan> {
        let method = Method::parse(r.method);
        if method == Method::Ping {
            // Answered in every state, before and after the handshake.
            self.auto_result(r.id, &RawJson::EMPTY_OBJECT);
            return None;
        }
        let refuse = |core: &mut Self, reason: RefuseReason| {
            let (code, message) = reason.reply();
            core.auto_error(ErrorId::Id(r.id), code, message);
            Some(Plan::Refused { id: Span::of(buf, r.id.as_token()), method: StrAt::of(buf, r.method), code, reason })
        };
        if r.id.as_token().len() > MAX_ID_LEN {
            return refuse(self, RefuseReason::IdTooLong);
        }
        if self.inb.find(r.id).is_some() {
            return refuse(self, RefuseReason::DuplicateId);
        }
        if method == Method::Initialize && self.config.role == Role::Server {
            return match () {
                _ if in_batch => refuse(self, RefuseReason::InitializeInBatch),
                _ if self.state != State::AwaitingInitialize => refuse(self, RefuseReason::AlreadyInitialized),
                _ => self.on_initialize(buf, r),
            };
        }
        let version = match (self.state, self.version) {
            (State::Ready, Some(v)) => v,
            // A method none of our versions has is unknown, handshake or not: -32601 lets a
            // dual-era client probing with `server/discover` fall back to `initialize`.
            _ if !self.config.handshake_versions().iter().any(|v| method.allowed(v, self.config.role.peer())) => {
                return refuse(self, RefuseReason::NotInVersion);
            }
            _ => return refuse(self, RefuseReason::NotInitialized),
        };
        if method.is_known() && !method.allowed(version, self.config.role.peer()) {
            return refuse(self, RefuseReason::NotInVersion);
        }
        if let Some(cap) = method.required_capability(version, self.config.role)
            && !self.own_caps.contains(cap)
        {
            return refuse(self, RefuseReason::CapabilityNotDeclared);
        }
        let Some(slot) = self.inb.free_slot() else {
            return refuse(self, RefuseReason::TooManyRequests);
        };
        let token = r
            .params
            .and_then(|p| p.get("_meta"))
            .and_then(|m| m.get("progressToken"))
            .filter(|t| t.kind() == JsonKind::String || t.as_i64().is_some() || t.as_u64().is_some())
            .and_then(|t| RequestIdRef::from_validated(t.as_bytes()).to_owned().ok());
        let Ok(id) = r.id.to_owned() else { return refuse(self, RefuseReason::IdTooLong) };
        self.inb.slots[slot] =
            Some(InEntry { id, method: method.to_known(), cancelled: false, token, last_progress: None });
        Some(Plan::Request {
            slot,
            id: Span::of(buf, r.id.as_token()),
            method: StrAt::of(buf, r.method),
            params: r.params.map(|p| Span::of(buf, p.as_bytes())),
        })
    }

    fn auto_result(&mut self, id: RequestIdRef<'_>, result: &RawJson<'_>) {
        let written = self.tx.result(id, result);
        self.owed(written);
    }

    /// Server: version negotiation. The client's version if this server supports it,
    /// otherwise this server's newest; the client decides whether it can live with that.
    fn on_initialize(&mut self, buf: &[u8], r: Request<'_>) -> Option<Plan> {
        let requested = r.params.and_then(|p| p.get("protocolVersion")).and_then(|v| v.as_str());
        let Some(requested) = requested else {
            let (code, message) = RefuseReason::InvalidInitialize.reply();
            self.auto_error(ErrorId::Id(r.id), code, message);
            return Some(Plan::Refused {
                id: Span::of(buf, r.id.as_token()),
                method: StrAt::of(buf, r.method),
                code,
                reason: RefuseReason::InvalidInitialize,
            });
        };
        let supported = self.config.handshake_versions();
        let newest = supported.newest()?;
        let version = ProtocolVersion::from_json(requested).filter(|v| supported.contains(*v)).unwrap_or(newest);
        let peer = r.params.unwrap_or(RawJson::EMPTY_OBJECT);
        self.peer_caps = peer.get("capabilities").map_or(CapabilitySet::EMPTY, CapabilitySet::from_client_json);
        let written = self.tx.result(r.id, &self.initialize_result(version));
        self.owed(written);
        self.version = Some(version);
        self.state = State::AwaitingInitialized;
        Some(Plan::Negotiated { version, peer: Span::of(buf, peer.as_bytes()) })
    }

    // ---- notifications ------------------------------------------------------------

    fn on_notification(&mut self, buf: &[u8], n: Notification<'_>) -> Option<Plan> {
        let method = Method::parse(n.method);
        let at = StrAt::of(buf, n.method);
        match method {
            Method::Cancelled => return self.on_cancelled(buf, n.params),
            Method::Progress => return self.on_progress(buf, at, n.params),
            Method::Initialized => {
                if self.config.role == Role::Server && self.state == State::AwaitingInitialized {
                    self.state = State::Ready;
                    return self.version.map(|version| Plan::Ready { version });
                }
                // A duplicate or misdirected `initialized` changes nothing.
                return None;
            }
            _ => {}
        }
        let ignored = |reason| Some(Plan::NotificationIgnored { method: at, reason });
        match (self.state, self.version) {
            (State::Ready, Some(version)) => {
                if method.is_known() && !method.allowed(version, self.config.role.peer()) {
                    return ignored(RefuseReason::NotInVersion);
                }
            }
            // Before the handshake completes a server may already send log messages.
            _ if method == Method::LogMessage && self.config.role == Role::Client => {}
            _ => return ignored(RefuseReason::NotInitialized),
        }
        Some(Plan::Notification { method: at, params: n.params.map(|p| Span::of(buf, p.as_bytes())) })
    }

    /// The peer cancels one of its requests: remember it so that no response is sent,
    /// and tell the application. Unknown, finished or uncancellable (`initialize`)
    /// requests are ignored, as the specification asks.
    fn on_cancelled(&mut self, buf: &[u8], params: Option<RawJson<'_>>) -> Option<Plan> {
        let params = params?;
        let id = params.get("requestId")?;
        if !(id.kind() == JsonKind::String || id.as_i64().is_some() || id.as_u64().is_some()) {
            return None;
        }
        let slot = self.inb.find(RequestIdRef::from_validated(id.as_bytes()))?;
        let entry = self.inb.slots[slot].as_mut()?;
        if entry.cancelled || entry.method == Some(Method::Initialize) {
            return None;
        }
        entry.cancelled = true;
        let reason = params.get("reason").and_then(|r| r.as_str()).map(|r| StrAt::of(buf, r));
        Some(Plan::Cancelled { id: Span::of(buf, id.as_bytes()), reason })
    }

    /// Progress for one of our requests: only for a live request that asked for it, and
    /// only when the value increases. It restarts the idle timeout when asked to; the
    /// absolute cap stays.
    fn on_progress(&mut self, buf: &[u8], method: StrAt, params: Option<RawJson<'_>>) -> Option<Plan> {
        let invalid = Some(Plan::InvalidNotificationParams { method });
        let Some(params) = params else { return invalid };
        let Some(token) = params.get("progressToken") else { return invalid };
        let Some(progress) = params.get("progress").and_then(Number::from_json) else { return invalid };
        let total = match params.get("total") {
            None => None,
            Some(t) => match Number::from_json(t) {
                Some(t) => Some(Span::of(buf, t.as_bytes())),
                None => return invalid,
            },
        };
        let message = params.get("message").and_then(|m| m.as_str()).map(|m| StrAt::of(buf, m));
        let slot = match token.as_u64().map(|id| self.out.lookup(Some(id))) {
            Some(Lookup::Live(i)) if self.out.slots[i].is_some_and(|e| e.progress) => i,
            _ => return Some(Plan::UnknownProgressToken(Span::of(buf, token.as_bytes()))),
        };
        // Kept as text and compared exactly: no float parsing, no rounding.
        let Some(value) = NumberBuf::of(progress) else { return invalid };
        let now = self.now;
        let entry = self.out.slots[slot].as_mut()?;
        let at = Span::of(buf, progress.as_bytes());
        if entry.last_progress.is_some_and(|last| progress <= last.get()) {
            return Some(Plan::NonIncreasingProgress { id: entry.id, progress: at });
        }
        entry.last_progress = Some(value);
        if entry.reset_on_progress {
            entry.idle_deadline = now + entry.idle;
        }
        Some(Plan::Progress { id: entry.id, progress: at, total, message })
    }

    // ---- responses ----------------------------------------------------------------

    /// A response or error response. Decoded by what it answers, never by its shape.
    fn on_answer(
        &mut self,
        buf: &[u8],
        id: Option<RequestIdRef<'_>>,
        outcome: Result<RawJson<'_>, ErrorObject<'_>>,
    ) -> Option<Plan> {
        let Some(id) = id else {
            // Only error responses may lack an id: the peer could not read a message.
            return match outcome {
                Err(error) => Some(Plan::UncorrelatedError(ErrorAt::of(buf, &error))),
                Ok(_) => None,
            };
        };
        let n = id.as_u64();
        if let Some(init) = self.init
            && n == Some(init.id)
        {
            return self.on_initialize_answer(buf, init.id, outcome);
        }
        if let Some(ping) = self.ping
            && n == Some(ping.id)
        {
            self.ping = None;
            return None;
        }
        let span = Span::of(buf, id.as_token());
        match self.out.lookup(n) {
            Lookup::Unknown => Some(Plan::UnknownResponse(span)),
            Lookup::Ended => Some(Plan::LateResponse(span)),
            Lookup::Live(i) => {
                let entry = self.out.slots[i].take()?;
                Some(match outcome {
                    Ok(result) => {
                        Plan::Response { id: entry.id, method: entry.method, result: Span::of(buf, result.as_bytes()) }
                    }
                    Err(error) => Plan::Error { id: entry.id, method: entry.method, error: ErrorAt::of(buf, &error) },
                })
            }
        }
    }

    /// Client: the server's answer to `initialize`. Accept only a version this client
    /// supports; on -32602 with `data.supported`, retry with the newest version both
    /// sides support; otherwise the session ends with the reason.
    fn on_initialize_answer(
        &mut self,
        buf: &[u8],
        id: u64,
        outcome: Result<RawJson<'_>, ErrorObject<'_>>,
    ) -> Option<Plan> {
        let supported = self.config.handshake_versions();
        let result = match outcome {
            Ok(result) => result,
            Err(error) => {
                let retry = (error.code == ErrorCode::INVALID_PARAMS)
                    .then(|| error.data?.get("supported"))
                    .flatten()
                    .and_then(|list| {
                        list.elements()
                            .filter_map(|v| v.as_str().and_then(ProtocolVersion::from_json))
                            .filter(|v| supported.contains(*v))
                            // Offering the refused version again would only be refused again.
                            .filter(|v| self.init.is_none_or(|i| i.offered != *v))
                            .max()
                    });
                if let (Some(version), Some(init)) = (retry, self.init)
                    && init.retries > 0
                {
                    self.init = Some(super::endpoint::InitRequest { retries: init.retries - 1, ..init });
                    if self.send_initialize(version).is_ok() {
                        return None;
                    }
                }
                self.shut_down(CloseReason::InitializeRejected { code: error.code });
                return Some(Plan::Error { id, method: Some(Method::Initialize), error: ErrorAt::of(buf, &error) });
            }
        };
        self.init = None;
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
        self.version = Some(version);
        self.peer_caps = result.get("capabilities").map_or(CapabilitySet::EMPTY, CapabilitySet::from_server_json);
        let written = self.tx.notification("notifications/initialized", crate::wire::NO_PARAMS);
        self.owed(written);
        self.state = State::Ready;
        self.ready_pending = true;
        Some(Plan::Negotiated { version, peer: Span::of(buf, result.as_bytes()) })
    }
}
