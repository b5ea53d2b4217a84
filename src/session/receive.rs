//! What the endpoint does with each frame it receives.
//!
//! Every frame ends in exactly one of: an event for the application, an automatic reply
//! (a pong, an error for a request that cannot be served), or a deliberate silence (a
//! stray cancellation, a duplicate `initialized`). Each path is named after the rule of the
//! specification it implements, and builds its event right there, borrowing the frame.
//! Only a request needs one more step: its answering handle borrows the endpoint, so it
//! is attached once the frame is released (see [`Received::Request`]).

use core::ops::Range;

use super::buffer::Buffer;
use super::config::Overflow;
use super::core::{BatchCursor, Core};
use super::event::{CloseReason, Event, IncomingNotification, Misbehavior, RefuseReason};
use super::held::Area;
use super::lifecycle::Phase;
use super::modern::{self, ModernCtx};
use super::outbound::Lookup;
use super::profile::Profile;
use super::replies::{AUTO_MESSAGE_MAX, Owed, push_number, unreadable_id};
use super::transmit::Origin;
use crate::framing::Prefix;
use crate::mcp::{CapabilitySet, Method, ProtocolVersion, Role};
use crate::wire::{
    EncodeError, EnvelopeError, ErrorCode, ErrorId, ErrorObject, Frame, JsonKind, MAX_ID_LEN, Message, MetaNote,
    Notification, Number, NumberBuf, ParseOptions, RawJson, Request, RequestId, RequestIdRef, Shape,
};

/// What processing one frame produced for the application.
pub(crate) enum Received<'e> {
    /// An event, complete.
    Event(Event<'e>),
    /// A request, given the inbound slot `slot`; the endpoint attaches the handle that
    /// answers it.
    Request { slot: usize, serial: u64, id: RequestIdRef<'e>, method: Method<'e>, params: Option<RawJson<'e>> },
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

impl<const OUT: usize, const IN: usize, B: Buffer, E: Profile> Core<'_, OUT, IN, B, E> {
    fn parse_options(&self, allow_batch: bool) -> ParseOptions {
        ParseOptions { max_depth: self.config.max_depth, allow_batch }
    }

    /// Handles the line at `range` of `buf`, returning what it produced. A batch starts
    /// `self.batch` (its elements come one by one, the line staying in the buffer). A
    /// request held for later is copied into `area`. If an automatic reply does not fit
    /// yet, `self.stall` is set and nothing else changed: the line is tried again later.
    pub fn receive_line<'e>(
        &mut self,
        buf: &'e [u8],
        range: Range<usize>,
        area: &mut Area<'_>,
    ) -> Option<Received<'e>> {
        let (origin, line) = match self.framed {
            true => super::transmit::untag(&buf[range]),
            false => (None, &buf[range]),
        };
        self.origin = origin;
        let batches = self.life.version().is_some_and(ProtocolVersion::allows_batches);
        let mut note = MetaNote::UNKNOWN;
        match Frame::parse_noting(line, &self.parse_options(batches), &mut note) {
            Err(e) => self.invalid_message(e),
            Ok(Frame::Single(msg)) => self.receive_message(msg, line, false, area, &note),
            Ok(Frame::Batch(batch)) => {
                let bytes = batch.as_bytes();
                let start = offset_in(buf, bytes);
                self.batch = Some(BatchCursor { next: start + 1, end: start + bytes.len(), origin });
                None
            }
        }
    }

    /// Handles the next element of the batch in progress; `None` when it is finished.
    // Cold paths (a batch, a held request) kept out of `poll_output`'s frame, which would
    // otherwise hold their temporaries beside the common path's (stack, not speed).
    #[inline(never)]
    pub fn receive_batch_element<'e>(
        &mut self,
        buf: &'e [u8],
        cursor: BatchCursor,
        area: &mut Area<'_>,
    ) -> Option<Option<Received<'e>>> {
        let (start, end) = crate::wire::batch_element(buf, cursor.next, cursor.end)?;
        self.batch = Some(BatchCursor { next: end, ..cursor });
        self.origin = cursor.origin;
        let element = &buf[start..end];
        let options = self.parse_options(false);
        let options = ParseOptions { max_depth: options.max_depth.saturating_sub(1), ..options };
        let received = match Message::parse_with(element, &options) {
            Ok(msg) => self.receive_message(msg, element, true, area, &MetaNote::UNKNOWN),
            Err(e) => self.invalid_message(e),
        };
        if self.stall.is_some() {
            // The element is tried again once its reply fits.
            self.batch = Some(cursor);
        }
        Some(received)
    }

    /// Settles an automatic reply to `id`: `true` if it was written (or replaced);
    /// otherwise the frame waits for room (`self.stall`).
    fn reply(&mut self, id: ErrorId<'_>, written: Result<Range<usize>, EncodeError>) -> bool {
        match self.owe(id, self.origin, written) {
            Owed::Sent => true,
            Owed::Later(needed) => {
                self.stall = Some(needed);
                false
            }
        }
    }

    /// A line longer than the buffer (`len` bytes; `prefix`: what its first bytes
    /// showed). A request whose id was seen is answered -32600 naming the limit; a
    /// response to a request of ours ends that request; otherwise the event says what
    /// was skipped.
    pub fn too_long(
        &mut self,
        len: usize,
        prefix: Option<Prefix>,
        origin: Option<Origin>,
        limit: usize,
    ) -> Option<Received<'static>> {
        self.origin = origin;
        let prefix = prefix.unwrap_or(Prefix::scan(b""));
        let token = prefix.id().filter(|t| {
            RawJson::parse(t)
                .is_ok_and(|v| v.kind() == JsonKind::String || v.as_i64().is_some() || v.as_u64().is_some())
        });
        let Some(token) = token else { return Some(Misbehavior::LineTooLong { len, replied: false }.into()) };
        if prefix.method && !prefix.answer {
            let id = RequestIdRef::from_validated(token);
            let mut message: heapless::String<AUTO_MESSAGE_MAX> = heapless::String::new();
            let _ = message.push_str("Invalid Request: message of ");
            push_number(&mut message, len);
            let _ = message.push_str(" bytes exceeds the ");
            push_number(&mut message, limit);
            let _ = message.push_str("-byte limit");
            let written = self.tx.to(self.origin).error(ErrorId::Id(id), ErrorCode::INVALID_REQUEST, &message);
            // Fits: the reply reserve is free whenever input is processed.
            let replied = self.owe(ErrorId::Id(id), self.origin, written) == Owed::Sent;
            return Some(Misbehavior::LineTooLong { len, replied }.into());
        }
        if prefix.answer && !prefix.method {
            let n = RequestIdRef::from_validated(token).as_u64();
            if self.life.init().is_some_and(|i| Some(i.id) == n) {
                self.shut_down(CloseReason::InvalidInitializeResult);
            } else if let Lookup::Live(i) = self.out.lookup(n)
                && let Some(entry) = self.out.take(i)
            {
                let id = RequestId::from_u64(entry.id);
                return Some(Event::ResponseTooLong { id, method: entry.method, len }.into());
            }
        }
        Some(Misbehavior::LineTooLong { len, replied: false }.into())
    }

    /// A frame that is not a valid message: reply where JSON-RPC calls for it.
    ///
    /// A server answers broken requests and unidentifiable frames (-32600 or -32700). A
    /// client answers only broken requests: a server that prints logs or other non-MCP
    /// lines on stdout must not be flooded with error replies (rmcp issue #938). Broken
    /// notifications and responses are never answered.
    fn invalid_message<'e>(&mut self, e: EnvelopeError<'e>) -> Option<Received<'e>> {
        let reply = match self.role() {
            Role::Server => e.should_reply(),
            Role::Client => e.shape == Shape::Request,
        };
        if reply {
            let id = match e.id {
                Some(id) => ErrorId::Id(id),
                None => unreadable_id(self.life.version()),
            };
            // Pieces pushed one by one: `write!` would pull in core::fmt (kilobytes on an MCU).
            let mut message: heapless::String<AUTO_MESSAGE_MAX> = heapless::String::new();
            let prefix = if e.code() == ErrorCode::PARSE_ERROR { "Parse error: " } else { "Invalid Request: " };
            let _ = message.push_str(prefix);
            let _ = message.push_str(e.rule.describe());
            let written = self.tx.to(self.origin).error(id, e.code(), &message);
            if !self.reply(id, written) {
                return None;
            }
        }
        Some(Misbehavior::InvalidMessage { error: e, replied: reply }.into())
    }

    fn receive_message<'e>(
        &mut self,
        msg: Message<'e>,
        raw: &'e [u8],
        in_batch: bool,
        area: &mut Area<'_>,
        note: &MetaNote,
    ) -> Option<Received<'e>> {
        match msg {
            Message::Request(r) => self.on_request(r, raw, in_batch, area, note),
            Message::Notification(n) => self.on_notification(n, area),
            Message::Response(r) => self.on_answer(Some(r.id), Ok(r.result)),
            Message::Error(e) => self.on_answer(e.id, Err(e.error)),
        }
    }

    // ---- requests -----------------------------------------------------------------

    /// Answers request `r` with the error for `reason` and reports it.
    fn refuse<'e>(&mut self, r: &Request<'e>, reason: RefuseReason) -> Option<Received<'e>> {
        let (code, message) = reason.reply_for::<E>();
        let written = self.tx.to(self.origin).error(ErrorId::Id(r.id), code, message);
        if !self.reply(ErrorId::Id(r.id), written) {
            return None;
        }
        Some(Misbehavior::RequestRefused { id: r.id, method: Method::parse(r.method), code, reason }.into())
    }

    fn on_request<'e>(
        &mut self,
        r: Request<'e>,
        raw: &'e [u8],
        in_batch: bool,
        area: &mut Area<'_>,
        note: &MetaNote,
    ) -> Option<Received<'e>> {
        let method = Method::parse(r.method);
        match (self.role(), self.life.phase()) {
            (Role::Server, Phase::Stateless) if E::STATELESS => {
                return self.on_stateless_request(r, method, raw, area, note);
            }
            // A dual-era server before the client's opening: a request with the stateless
            // `_meta` (or a method only that era has) is served statelessly.
            (Role::Server, Phase::AwaitingInitialize)
                if method != Method::Initialize
                    && !self.modern_versions().is_empty()
                    && (matches!(method, Method::ServerDiscover | Method::SubscriptionsListen)
                        || modern::has_envelope(r.params, note)) =>
            {
                return self.on_stateless_request(r, method, raw, area, note);
            }
            (Role::Server, Phase::Ready | Phase::AwaitingInitialized)
                if method != Method::Initialize && modern::has_envelope(r.params, note) =>
            {
                return self.refuse(&r, RefuseReason::StatelessOnHandshakeSession);
            }
            // A 2026-07-28 server sends no requests, and a stateless client writes no
            // responses: nothing is answered.
            (Role::Client, Phase::Stateless | Phase::Discovering(_)) if E::STATELESS => {
                return Some(Misbehavior::UnexpectedRequest { id: r.id, method }.into());
            }
            _ => {}
        }
        if method == Method::Ping {
            // Answered in every state, before and after the handshake.
            let written = self.tx.to(self.origin).result(r.id, &RawJson::EMPTY_OBJECT);
            self.reply(ErrorId::Id(r.id), written);
            return None;
        }
        if r.id.as_token().len() > MAX_ID_LEN {
            return self.refuse(&r, RefuseReason::IdTooLong);
        }
        if self.inb.find(r.id).is_some() || self.held.contains(area, r.id, None) {
            return self.refuse(&r, RefuseReason::DuplicateId);
        }
        if method == Method::Initialize && self.role() == Role::Server {
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
            _ if !self.config.handshake_versions().iter().any(|v| method.allowed(v, self.role().peer())) => {
                return self.refuse(&r, RefuseReason::NotInVersion);
            }
            _ => return self.refuse(&r, RefuseReason::NotInitialized),
        };
        if method.is_known() && !method.allowed(version, self.role().peer()) {
            return self.refuse(&r, RefuseReason::NotInVersion);
        }
        if let Some(cap) = method.required_capability(version, self.role())
            && !self.life.own_caps().contains(cap)
        {
            return self.refuse(&r, RefuseReason::CapabilityNotDeclared);
        }
        // Held requests go first: a later one never overtakes them.
        if self.held.count() > 0 || !self.inb.has_free_slot() {
            let held = self.config.overflow == Overflow::Hold
                && self.held.hold(area, raw, r.id.as_token(), self.origin.map(|o| o.0));
            return if held { None } else { self.refuse(&r, RefuseReason::TooManyRequests) };
        }
        self.admit(r, method)
    }

    /// Gives request `r` a slot and delivers it.
    fn admit<'e>(&mut self, r: Request<'e>, method: Method<'e>) -> Option<Received<'e>> {
        self.admit_with(r, method, None)
    }

    /// Gives request `r` a slot and delivers it, with what its stateless `_meta` said.
    /// A listen stream is long-lived: no `answer_within` deadline applies to it.
    pub(crate) fn admit_with<'e>(
        &mut self,
        r: Request<'e>,
        method: Method<'e>,
        modern: Option<(ModernCtx, Option<RawJson<'e>>)>,
    ) -> Option<Received<'e>> {
        // A stateless request's token was read with the rest of its `_meta`.
        let (modern, token) = match modern {
            Some((ctx, token)) => (Some(ctx), token),
            None => (None, r.params.and_then(|p| p.get("_meta")).and_then(|m| m.get("progressToken"))),
        };
        let token = token
            .filter(|t| t.kind() == JsonKind::String || t.as_i64().is_some() || t.as_u64().is_some())
            .map(|t| RequestIdRef::from_validated(t.as_bytes()));
        if r.id.as_token().len() > MAX_ID_LEN {
            return self.refuse(&r, RefuseReason::IdTooLong);
        }
        let listen = modern.is_some() && method == Method::SubscriptionsListen;
        let deadline = self.config.answer_within.filter(|_| !listen).map(|d| self.now + d);
        let modern = modern.map(|ctx| ModernCtx { listen: listen.then(Default::default), ..ctx });
        let Some((slot, serial)) =
            self.inb.table().admit(r.id, method.to_known(), token, deadline, self.origin, modern)
        else {
            return self.refuse(&r, RefuseReason::TooManyRequests);
        };
        Some(Received::Request { slot, serial, id: r.id, method, params: r.params })
    }

    /// The oldest held request, from `region` (the held part of the receive buffer),
    /// now that a slot is free.
    // Out of `poll_output`'s frame, as `receive_batch_element`.
    #[inline(never)]
    pub fn deliver_held<'e>(&mut self, region: &'e [u8]) -> Option<Received<'e>> {
        let held = self.held.deliver(region)?;
        self.origin = held.origin.map(Origin);
        let options = self.parse_options(false);
        match Message::parse_with(held.line, &options) {
            Ok(Message::Request(r)) => {
                let method = Method::parse(r.method);
                let ctx = if E::STATELESS { self.held_context(r.params) } else { None };
                self.admit_with(r, method, ctx)
            }
            // Not reachable: only valid requests are held.
            _ => None,
        }
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
        // Borrowed beside the transmit buffer, not copied out of `self`: the configuration
        // is 320 bytes on a Cortex-M, and the copy was the receive path's largest stack use.
        let (config, origin) = (&self.config, self.origin);
        let written = self.tx.to(origin).result_with(r.id, |out| config.write_initialize_result(version, out));
        if !self.reply(ErrorId::Id(r.id), written) {
            return None;
        }
        self.life.negotiated(version, peer_caps);
        Some(Event::Negotiated { version, peer }.into())
    }

    // ---- notifications ------------------------------------------------------------

    fn on_notification<'e>(&mut self, n: Notification<'e>, area: &mut Area<'_>) -> Option<Received<'e>> {
        let method = Method::parse(n.method);
        if self.role() == Role::Client && self.is_stateless() && method != Method::Progress {
            return self.on_modern_notification(n);
        }
        match method {
            Method::Cancelled => return self.on_cancelled(n.params, area),
            Method::Progress => return self.on_progress(method, n.params),
            Method::Initialized => {
                if self.role() == Role::Server && self.life.initialized() {
                    self.refresh_timers();
                    return self.life.version().map(|version| Event::Ready { version }.into());
                }
                // A duplicate or misdirected `initialized` changes nothing.
                return None;
            }
            _ => {}
        }
        let ignored = |reason| Some(Misbehavior::NotificationIgnored { method, reason }.into());
        let version = match self.life.phase() {
            Phase::Stateless => self.life.version(),
            _ => self.life.ready_version(),
        };
        match version {
            Some(version) => {
                if method.is_known() && !method.allowed(version, self.role().peer()) {
                    return ignored(RefuseReason::NotInVersion);
                }
            }
            // Before the handshake completes a server may already send log messages.
            _ if method == Method::LogMessage && self.role() == Role::Client => {}
            _ => return ignored(RefuseReason::NotInitialized),
        }
        Some(Event::Notification(IncomingNotification { method, params: n.params, subscription: None }).into())
    }

    /// The peer cancels one of its requests: it is over (no response is ever sent for
    /// it), its slot is free, and the application is told. A held request is dropped
    /// without a word, never delivered. Unknown or finished requests are ignored, as the
    /// specification asks (`initialize` never takes a slot, so it is among them).
    fn on_cancelled<'e>(&mut self, params: Option<RawJson<'e>>, area: &mut Area<'_>) -> Option<Received<'e>> {
        let params = params?;
        let id = params.get("requestId")?;
        if !(id.kind() == JsonKind::String || id.as_i64().is_some() || id.as_u64().is_some()) {
            return None;
        }
        let id = RequestIdRef::from_validated(id.as_bytes());
        // In the stateless era a request is named by its channel and its id.
        let stateless = self.is_stateless();
        let found = if stateless { self.inb.find_from(self.origin, id) } else { self.inb.find(id) };
        let Some(slot) = found else {
            self.held.cancel(area, id, stateless.then(|| self.origin.map(|o| o.0)));
            return None;
        };
        let request = self.inb.table().end(slot, false)?;
        let reason = params.get("reason").and_then(|r| r.as_str());
        Some(Event::Cancelled { request, reason }.into())
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
        if E::STATELESS
            && let Some(probe) = self.life.probe()
            && n == Some(probe.id)
        {
            return self.on_discover_answer(probe, outcome);
        }
        if E::CLIENT
            && let Some(init) = self.life.init()
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
                if E::STATELESS && entry.modern {
                    return self.on_modern_answer(entry, outcome);
                }
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
        let written = self.tx.to(self.origin).notification("notifications/initialized", crate::wire::NO_PARAMS);
        if !self.reply(ErrorId::Null, written) {
            return None;
        }
        self.life.accepted(version, peer_caps);
        self.refresh_timers();
        self.ready = true;
        Some(Event::Negotiated { version, peer: result }.into())
    }
}
