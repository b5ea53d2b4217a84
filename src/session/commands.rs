//! Commands: what the application asks the endpoint to send.
//!
//! Every command checks what the negotiated version and both sides' capabilities allow
//! before writing anything, and either queues one complete message or changes nothing.

use serde::Serialize;

use super::buffer::Buffer;
use super::caller_errors::{Responded, SendError};
use super::config::RequestOptions;
use super::endpoint::Endpoint;
use super::envelope::{Envelope, RetryParts};
use super::event::CloseReason;
use super::lifecycle::Phase;
use super::modern::is_tasks_method;
use super::outbound::OutEntry;
use super::pending::PendingRequest;
use super::profile::Profile;
use super::responder::Responder;
use super::retry::{KeyDigest, RetryTicket, digest_text};
use super::transmit::Origin;
use crate::mcp::{Method, Role};
use crate::time::Instant;
use crate::wire::{ErrorCode, ProgressValue, RawJson, RequestId, RequestIdRef};

impl<'a, const OUT: usize, const IN: usize, B: Buffer, E: Profile> Endpoint<'a, OUT, IN, B, E> {
    /// Commands are refused once the session is ending: closing, closed, or the peer's
    /// input over.
    fn check_open(&self) -> Result<(), SendError> {
        if !self.core.life.reads_input() || self.core.rx.is_closed() {
            return Err(SendError::Closed);
        }
        Ok(())
    }

    /// Sends a request and returns its id. The response arrives as
    /// [`Event::Response`](super::Event::Response) or [`Event::Error`](super::Event::Error)
    /// (carrying the method, to decode the result by), unless the request times out
    /// ([`Event::TimedOut`](super::Event::TimedOut)) or is cancelled first.
    ///
    /// Refused locally, with nothing sent, when the method does not exist in the
    /// negotiated version or direction, when the peer did not declare the capability it
    /// needs (`sampling/createMessage` to a client without `sampling`, say), before the
    /// handshake (except `ping`), or when all `OUT` slots are busy.
    pub fn send_request<P: Serialize + ?Sized>(
        &mut self,
        now: Instant,
        method: &str,
        params: Option<&P>,
        options: RequestOptions,
    ) -> Result<RequestId, SendError> {
        let core = &mut self.core;
        core.advance(now);
        self.check_open()?;
        let core = &mut self.core;
        let known = Method::from_known_name(method);
        if known == Some(Method::Initialize) {
            return Err(SendError::MethodNotAllowed);
        }
        match (core.life.phase(), core.role()) {
            (Phase::Stateless, Role::Client) if E::STATELESS => {
                return self.send_modern(method, params, options, None::<(&RetryTicket, &RawJson<'_>, Option<&str>)>);
            }
            // A 2026-07-28 server sends no requests: input travels in results.
            (Phase::Stateless, Role::Server) if E::STATELESS => return Err(SendError::MethodNotAllowed),
            _ => {}
        }
        match core.life.ready_version() {
            Some(version) => {
                if let Some(m) = known {
                    if !m.allowed(version, core.role()) || m.kind() != Some(crate::mcp::MethodKind::Request) {
                        return Err(SendError::MethodNotAllowed);
                    }
                    if let Some(cap) = m.required_capability(version, core.role().peer())
                        && !core.life.peer_caps().contains(cap)
                    {
                        return Err(SendError::CapabilityNotDeclared(cap));
                    }
                }
            }
            _ if known == Some(Method::Ping) && core.life.probe().is_none() => {}
            _ => return Err(SendError::NotReady),
        }
        let Some(slot) = core.out.free_slot() else { return Err(SendError::TooManyInFlight { limit: OUT }) };
        let id_number = core.out.peek_id();
        let id = RequestId::from_u64(id_number);
        let mut tx = core.tx.to(options.related);
        if options.progress {
            tx.request_with_progress_token(id.as_ref(), method, params, id.as_ref())?;
        } else {
            tx.request(id.as_ref(), method, params)?;
        }
        core.out.allocate_id();
        let idle = options.timeout.unwrap_or(core.config.request_timeout);
        let max = options.max_time.unwrap_or(core.config.max_request_time);
        let mut entry = OutEntry::new(id_number, known, core.now, idle, max);
        entry.progress = options.progress;
        entry.reset_on_progress = options.progress && options.reset_timeout_on_progress;
        entry.origin = options.related;
        core.out.insert(slot, entry);
        Ok(id)
    }

    /// A request in the stateless era (client): the method must exist in it, the
    /// server must have declared what it needs, and the request goes out with its
    /// `_meta` (see [`envelope`](super::envelope)). A listen stream has no timeout unless
    /// `options` sets one. A retry is checked against its ticket once written, and taken
    /// back if it does not match.
    fn send_modern<P: Serialize + ?Sized, R: Serialize + ?Sized>(
        &mut self,
        method: &str,
        params: Option<&P>,
        options: RequestOptions,
        retry: Option<(&RetryTicket, &R, Option<&str>)>,
    ) -> Result<RequestId, SendError> {
        let core = &mut self.core;
        let Some(version) = core.life.version() else { return Err(SendError::NotReady) };
        let known = Method::from_known_name(method);
        if !is_tasks_method(method.as_bytes())
            && let Some(m) = known
        {
            if !m.allowed(version, Role::Client) || m.kind() != Some(crate::mcp::MethodKind::Request) {
                return Err(SendError::MethodNotAllowed);
            }
            if let Some(cap) = m.required_capability(version, Role::Server)
                && !core.life.peer_caps().contains(cap)
            {
                return Err(SendError::CapabilityNotDeclared(cap));
            }
        }
        if let Some((ticket, _, state)) = &retry
            && ticket.state != state.map(digest_text)
        {
            return Err(SendError::RetryMismatch);
        }
        let Some(slot) = core.out.free_slot() else { return Err(SendError::TooManyInFlight { limit: OUT }) };
        let id_number = core.out.peek_id();
        let id = RequestId::from_u64(id_number);
        let progress = options.progress.then(|| id.as_ref());
        let parts = retry.as_ref().map(|(_, responses, state)| RetryParts { responses: *responses, state: *state });
        let (caps, info) = (&core.config.capabilities, &core.config.info);
        let mut envelope =
            Envelope::new(version, caps, info, core.identity_len, known, progress, options.log_level, parts);
        let before = core.tx.queued();
        let range = core.tx.to(options.related).request_amended(id.as_ref(), method, params, &mut envelope)?;
        let target = envelope.target;
        if let Some((ticket, _, _)) = retry {
            let frame = RawJson::parse(core.tx.frame(range)).ok();
            let keys =
                frame.and_then(|f| f.get("params")).and_then(|p| p.get("inputResponses")).and_then(KeyDigest::of);
            if ticket.target != target || keys != Some(ticket.keys) || ticket.method != known {
                core.tx.truncate(before);
                return Err(SendError::RetryMismatch);
            }
        }
        core.out.allocate_id();
        let listen = known == Some(Method::SubscriptionsListen);
        let never = core::time::Duration::MAX;
        let idle = options.timeout.unwrap_or(if listen { never } else { core.config.request_timeout });
        let max = options.max_time.unwrap_or(if listen { never } else { core.config.max_request_time });
        let mut entry = OutEntry::new(id_number, known, core.now, idle, max);
        entry.progress = options.progress;
        entry.reset_on_progress = options.progress && options.reset_timeout_on_progress;
        entry.origin = options.related;
        entry.modern = true;
        entry.listen = listen;
        entry.target = target;
        core.out.insert(slot, entry);
        Ok(id)
    }

    /// 2026-07-28: sends a request again after an `input_required` result
    /// ([`Event::InputRequired`](super::Event::InputRequired)), with a new id: the same
    /// method (`ticket`'s) and `params` as the original (the endpoint keeps no copy),
    /// `input_responses` answering every one of its `inputRequests` by key (an object:
    /// `{"key": <ElicitResult | CreateMessageResult | ListRootsResult>}`), and
    /// `request_state` exactly as received (`None` if there was none). Refused with
    /// [`SendError::RetryMismatch`], nothing sent, when the retry does not match the
    /// result: another tool, prompt or resource, other keys, another state.
    pub fn retry<P: Serialize + ?Sized, R: Serialize + ?Sized>(
        &mut self,
        now: Instant,
        ticket: &RetryTicket,
        params: Option<&P>,
        input_responses: &R,
        request_state: Option<&str>,
        options: RequestOptions,
    ) -> Result<RequestId, SendError> {
        self.core.advance(now);
        self.check_open()?;
        if !(self.core.is_stateless() && self.core.role() == Role::Client) {
            return Err(SendError::NotReady);
        }
        let method = ticket.method.map(|m| m.name()).ok_or(SendError::RetryMismatch)?;
        self.send_modern(method, params, options, Some((ticket, input_responses, request_state)))
    }

    /// Sends a notification.
    ///
    /// The endpoint sends `notifications/initialized`, `notifications/cancelled` and
    /// `notifications/progress` itself (see [`cancel`](Self::cancel) and
    /// [`send_progress`](Self::send_progress)). A `list_changed` or `resources/updated`
    /// notification needs this side's matching capability; before the handshake only a
    /// server's log messages may be sent.
    pub fn send_notification<P: Serialize + ?Sized>(
        &mut self,
        now: Instant,
        method: &str,
        params: Option<&P>,
    ) -> Result<(), SendError> {
        self.notify(now, None, method, params)
    }

    /// Sends a notification as part of handling the peer's `request` (a log message
    /// about it, say): on its channel, [`Transmit::origin`](super::Transmit::origin).
    /// The same rules as [`send_notification`](Self::send_notification).
    ///
    /// For a stateless request (2026-07-28) the endpoint also enforces the era's rules: a
    /// log message only if the request asked for its level
    /// ([`SendError::LogLevelNotRequested`]); on a listen stream, only after its
    /// acknowledgement and within its granted filter, tagged with its subscription id
    /// ([`SendError::NotSubscribed`]); nothing for a request that is over.
    pub fn send_related_notification<P: Serialize + ?Sized>(
        &mut self,
        now: Instant,
        request: &PendingRequest,
        method: &str,
        params: Option<&P>,
    ) -> Result<(), SendError> {
        if self.core.is_stateless() && self.core.role() == Role::Server {
            self.core.advance(now);
            self.check_open()?;
            if matches!(Method::from_known_name(method), Some(Method::Cancelled | Method::Progress)) {
                return Err(SendError::MethodNotAllowed);
            }
            self.responder(request).notify(method, params)?;
            return Ok(());
        }
        self.notify(now, request.origin(), method, params)
    }

    /// 2026-07-28: acknowledges the listen stream `request` (a `subscriptions/listen`
    /// request) with the part of `granted` this server can honour (what its capabilities
    /// declare): `notifications/subscriptions/acknowledged`, the stream's first message.
    /// `granted` should be a subset of what the client asked for;
    /// [`IncomingRequest::acknowledge`](super::IncomingRequest::acknowledge) grants all of
    /// it that the server can. Notifications follow with
    /// [`send_notification`](Self::send_notification) (to every stream granted them) or
    /// [`send_related_notification`](Self::send_related_notification) (to this one); the
    /// graceful end is [`respond`](Self::respond) with an empty result.
    pub fn acknowledge(
        &mut self,
        now: Instant,
        request: &PendingRequest,
        granted: &crate::mcp::SubscriptionFilter<'_>,
    ) -> Result<Responded, SendError> {
        self.core.advance(now);
        self.check_open()?;
        if !E::STATELESS {
            return self.responder(request).not_a_stream();
        }
        self.responder(request).acknowledge(granted, None)
    }

    /// [`acknowledge`](Self::acknowledge) with the tasks extension's part of the
    /// filter: `notifications/tasks` for these task ids (granted when this server and
    /// the request both declared the extension).
    pub fn acknowledge_with_tasks(
        &mut self,
        now: Instant,
        request: &PendingRequest,
        granted: &crate::mcp::SubscriptionFilter<'_>,
        task_ids: crate::mcp::Items<'_, crate::wire::JsonStr<'_>>,
    ) -> Result<Responded, SendError> {
        self.core.advance(now);
        self.check_open()?;
        if !E::STATELESS {
            return self.responder(request).not_a_stream();
        }
        self.responder(request).acknowledge(granted, Some(task_ids))
    }

    fn notify<P: Serialize + ?Sized>(
        &mut self,
        now: Instant,
        origin: Option<Origin>,
        method: &str,
        params: Option<&P>,
    ) -> Result<(), SendError> {
        self.core.advance(now);
        self.check_open()?;
        let core = &mut self.core;
        let known = Method::from_known_name(method);
        if matches!(known, Some(Method::Initialized | Method::Cancelled | Method::Progress)) {
            return Err(SendError::MethodNotAllowed);
        }
        match (core.life.phase(), core.role()) {
            // A stateless server's change notifications go to the listen streams granted
            // them; nothing else goes out unrelated to a request.
            (Phase::Stateless, Role::Server) if E::STATELESS => {
                if let Some(cap) = known.and_then(|m| m.sender_capability())
                    && !core.life.own_caps().contains(cap)
                {
                    return Err(SendError::CapabilityNotDeclared(cap));
                }
                return core.broadcast(method, params);
            }
            (Phase::Stateless, Role::Client) if E::STATELESS => {
                if let (Some(m), Some(version)) = (known, core.life.version())
                    && !m.allowed(version, Role::Client)
                {
                    return Err(SendError::MethodNotAllowed);
                }
                core.tx.to(origin).notification(method, params)?;
                return Ok(());
            }
            _ => {}
        }
        match core.life.ready_version() {
            Some(version) => {
                if let Some(m) = known
                    && (!m.allowed(version, core.role()) || m.kind() != Some(crate::mcp::MethodKind::Notification))
                {
                    return Err(SendError::MethodNotAllowed);
                }
            }
            _ if known == Some(Method::LogMessage) && core.role() == crate::mcp::Role::Server => {}
            _ => return Err(SendError::NotReady),
        }
        if let Some(cap) = known.and_then(|m| m.sender_capability())
            && !core.life.own_caps().contains(cap)
        {
            return Err(SendError::CapabilityNotDeclared(cap));
        }
        core.tx.to(origin).notification(method, params)?;
        Ok(())
    }

    fn responder(&mut self, request: &PendingRequest) -> Responder<'_> {
        let slot = self.core.inb.find_serial(request.serial());
        self.core.responder(slot, request.serial())
    }

    /// The live request of the peer's with this wire id, for code that kept only the
    /// id. Ids are unique only among requests in flight, so prefer keeping the
    /// [`PendingRequest`] the request was delivered with.
    pub fn find_pending(&self, id: RequestIdRef<'_>) -> Option<PendingRequest> {
        self.core.inb.pending(id)
    }

    /// Answers the peer's `request` with `result` (which must serialize to a JSON
    /// object). An answer to a request that is already over writes nothing and returns
    /// [`Responded::Suppressed`]; see [`Responded`] and [`SendError`] for the rest of
    /// the rule (a second answer, a reply that can never fit).
    pub fn respond<R: Serialize + ?Sized>(
        &mut self,
        request: &PendingRequest,
        result: &R,
    ) -> Result<Responded, SendError> {
        self.responder(request).respond(result)
    }

    /// Answers the peer's `request` with an error.
    pub fn respond_error(
        &mut self,
        request: &PendingRequest,
        code: ErrorCode,
        message: &str,
    ) -> Result<Responded, SendError> {
        self.responder(request).respond_error(code, message, None::<&RawJson<'_>>)
    }

    /// Answers the peer's `request` with an error carrying `data`.
    pub fn respond_error_with_data<D: Serialize + ?Sized>(
        &mut self,
        request: &PendingRequest,
        code: ErrorCode,
        message: &str,
        data: &D,
    ) -> Result<Responded, SendError> {
        self.responder(request).respond_error(code, message, Some(data))
    }

    /// Gives up on the peer's `request` (a worker failed, the work cannot be done): the
    /// endpoint answers -32603 "Request abandoned" and the request is over, so a later
    /// answer is suppressed. A request that is already over is left alone
    /// ([`Responded::Suppressed`]).
    pub fn abandon(&mut self, request: &PendingRequest) -> Result<Responded, SendError> {
        self.responder(request).abandon()
    }

    /// Reports progress on the peer's `request`, which must have asked for it. Values
    /// must strictly increase. Progress for a request that is over writes nothing
    /// ([`Responded::Suppressed`]). Integers and floats are both accepted; integers
    /// cost no floating-point code.
    pub fn send_progress<N: ProgressValue>(
        &mut self,
        request: &PendingRequest,
        progress: N,
        total: Option<N>,
        message: Option<&str>,
    ) -> Result<Responded, SendError> {
        self.responder(request).progress(progress, total, message)
    }

    /// Cancels a request of ours: sends `notifications/cancelled` and forgets the
    /// request, so a response that crosses the cancellation is dropped (as a
    /// [`Misbehavior::LateResponse`](super::Misbehavior::LateResponse) event). No other
    /// event follows for it. `initialize` cannot be cancelled.
    pub fn cancel(&mut self, now: Instant, id: &RequestId, reason: Option<&str>) -> Result<(), SendError> {
        self.core.advance(now);
        self.check_open()?;
        let core = &mut self.core;
        let number = id.as_ref().as_u64();
        if core.life.init().is_some_and(|i| Some(i.id) == number) {
            return Err(SendError::NotCancellable);
        }
        if E::STATELESS && core.life.probe().is_some_and(|p| Some(p.id) == number) {
            // The `server/discover` probe can be lost by the transport (the HTTP link
            // cancels what its exchange lost: a handshake-era server refusing a POST
            // without a session): no answer will come, so the server is of that era, as
            // when the probe times out. Nothing goes to the server.
            core.timers.set(super::timers::Timer::Initialize, None);
            core.probe_timed_out();
            return Ok(());
        }
        let number = number.filter(|&n| core.out.is_live(n)).ok_or(SendError::UnknownRequest)?;
        #[derive(Serialize)]
        struct Params<'r> {
            #[serde(rename = "requestId")]
            request_id: RequestIdRef<'r>,
            #[serde(skip_serializing_if = "Option::is_none")]
            reason: Option<&'r str>,
        }
        let origin = core.out.origin_of(number);
        core.tx
            .to(origin)
            .notification("notifications/cancelled", Some(&Params { request_id: id.as_ref(), reason }))?;
        core.out.forget(number);
        Ok(())
    }

    /// Ends the session from this side. Requests of ours in flight fail
    /// ([`Event::Failed`](super::Event::Failed)), requests of the peer are abandoned,
    /// no more input is processed; queued messages are still handed out, then
    /// [`Event::Closed`](super::Event::Closed).
    pub fn close(&mut self, now: Instant) {
        self.core.advance(now);
        if !self.core.life.is_closed() {
            self.core.shut_down(CloseReason::LocalClose);
        }
    }
}
