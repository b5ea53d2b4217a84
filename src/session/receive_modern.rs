//! What the endpoint does with each frame in the stateless era (2026-07-28), both roles.
//!
//! Server: a stateless request is checked in the order that lets a client learn the
//! most from the refusal: the era's methods (-32601 for `ping`, `logging/setLevel`,
//! `resources/(un)subscribe` and the like; `initialize` gets its own answer), then the
//! `_meta` (-32602 naming a missing field, -32022 with the supported versions), then this
//! server's capabilities (-32601), then the client's (-32021: the tasks extension for
//! `tasks/*`). `server/discover` is answered here, from the configuration. Everything
//! else reaches the application with the request's `_meta` read
//! ([`IncomingRequest::modern`](super::IncomingRequest::modern)). A refused request does
//! not decide the connection's era; the first accepted one does.
//!
//! Client: the `server/discover` probe's answer decides the era (a discover result with a
//! mutual version, or a -32022 naming one, is modern; anything else is legacy and
//! `initialize` follows), and in the stateless era every answer is read by its
//! `resultType`, and listen streams are told apart by their subscription id.

use core::ops::Range;

use serde::Serialize;
use serde::ser::{SerializeMap, SerializeSeq, Serializer};

use super::buffer::Buffer;
use super::core::Core;
use super::decorate::{input_request_needs, takes_input};
use super::event::{CloseReason, Event, IncomingNotification, Misbehavior, RefuseReason, ResultProblem};
use super::held::Area;
use super::lifecycle::{DiscoverProbe, Phase};
use super::modern::{Fault, ModernCtx, is_tasks_method, read_envelope};
use super::outbound::OutEntry;
use super::profile::Profile;
use super::receive::Received;
use super::replies::Owed;
use super::retry::RetryTicket;
use super::timers::Timer;
use crate::mcp::{CapabilitySet, Method, ProtocolVersion, ResultType, Role, VersionSet, meta_keys};
use crate::wire::{
    EncodeError, ErrorCode, ErrorId, ErrorObject, JsonKind, MAX_ID_LEN, MetaNote, Notification, RawJson, Request,
    RequestId, RequestIdRef,
};

/// `data` of -32022: the versions this server speaks statelessly, and what was asked.
struct VersionsData<'a> {
    supported: VersionSet,
    requested: Option<RawJson<'a>>,
}

struct VersionList(VersionSet);

impl Serialize for VersionList {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(None)?;
        for v in self.0.iter() {
            seq.serialize_element(v.as_str())?;
        }
        seq.end()
    }
}

impl Serialize for VersionsData<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("supported", &VersionList(self.supported))?;
        if let Some(r) = &self.requested {
            map.serialize_entry("requested", r)?;
        }
        map.end()
    }
}

/// `data` of -32021 for the tasks methods: the extension is what is missing (also what
/// the toolkit refuses a tool that runs only as a task with).
pub(crate) const TASKS_REQUIRED: RawJson<'static> =
    RawJson::from_validated(br#"{"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}"#);

impl<const OUT: usize, const IN: usize, B: Buffer, E: Profile> Core<'_, OUT, IN, B, E> {
    // ---- server ----------------------------------------------------------------------

    /// Answers request `r` with `code` and `message` (and `data`) for `reason`, and
    /// reports it.
    fn refuse_with<'e, D: Serialize + ?Sized>(
        &mut self,
        r: &Request<'e>,
        reason: RefuseReason,
        code: ErrorCode,
        message: &str,
        data: Option<&D>,
    ) -> Option<Received<'e>> {
        let written = self.tx.to(self.origin).error_with_data(ErrorId::Id(r.id), code, message, data);
        if !self.settle(ErrorId::Id(r.id), written) {
            return None;
        }
        Some(Misbehavior::RequestRefused { id: r.id, method: Method::parse(r.method), code, reason }.into())
    }

    fn refuse_plain<'e>(&mut self, r: &Request<'e>, reason: RefuseReason) -> Option<Received<'e>> {
        let (code, message) = reason.reply();
        self.refuse_with(r, reason, code, message, None::<&()>)
    }

    /// Settles an automatic reply (see `Core::reply`).
    fn settle(&mut self, id: ErrorId<'_>, written: Result<Range<usize>, EncodeError>) -> bool {
        match self.owe(id, self.origin, written) {
            Owed::Sent => true,
            Owed::Later(needed) => {
                self.stall = Some(needed);
                false
            }
        }
    }

    /// The versions this server speaks statelessly, as -32022 lists them.
    fn unsupported<'e>(
        &mut self,
        r: &Request<'e>,
        reason: RefuseReason,
        requested: Option<RawJson<'e>>,
    ) -> Option<Received<'e>> {
        let data = VersionsData { supported: self.config.modern_versions(), requested };
        let (code, message) = reason.reply();
        self.refuse_with(r, reason, code, message, Some(&data))
    }

    /// A stateless request (or one that should be: a method of that era only), on a
    /// server. See the module docs for the order of the checks.
    pub(crate) fn on_stateless_request<'e>(
        &mut self,
        r: Request<'e>,
        method: Method<'e>,
        raw: &'e [u8],
        area: &mut Area<'_>,
        note: &MetaNote,
    ) -> Option<Received<'e>> {
        if r.id.as_token().len() > MAX_ID_LEN {
            return self.refuse_plain(&r, RefuseReason::IdTooLong);
        }
        let tasks_method = is_tasks_method(method.name().as_bytes());
        if method == Method::Initialize {
            let requested = r.params.and_then(|p| p.get("protocolVersion")).filter(|v| v.kind() == JsonKind::String);
            if self.config.handshake_versions().is_empty() {
                // A server of this era only: initialize is not one of its methods. The
                // data names what it speaks, for a handshake-era client to show.
                let data = VersionsData { supported: self.config.modern_versions(), requested };
                return self.refuse_with(
                    &r,
                    RefuseReason::InitializeWhenStateless,
                    ErrorCode::METHOD_NOT_FOUND,
                    "Method not found: initialize (this server speaks only 2026-07-28)",
                    Some(&data),
                );
            }
            return self.unsupported(&r, RefuseReason::InitializeWhenStateless, requested);
        }
        let modern = ProtocolVersion::V2026_07_28;
        if tasks_method {
            if !self.own_tasks {
                return self.refuse_plain(&r, RefuseReason::NotInVersion);
            }
        } else if method.is_known() && !method.allowed(modern, Role::Client) {
            return self.refuse_plain(&r, RefuseReason::NotInVersion);
        }
        let (ctx, token) = match read_envelope(r.params, self.config.modern_versions(), note) {
            Ok(read) => read,
            Err(Fault::MissingVersion) => return self.refuse_plain(&r, RefuseReason::MissingProtocolVersion),
            Err(Fault::MissingCapabilities) => return self.refuse_plain(&r, RefuseReason::MissingClientCapabilities),
            Err(Fault::BadLogLevel) => return self.refuse_plain(&r, RefuseReason::InvalidLogLevel),
            Err(Fault::Unsupported(v)) => return self.unsupported(&r, RefuseReason::UnsupportedVersion, Some(v)),
        };
        if !tasks_method
            && let Some(cap) = method.required_capability(ctx.version, Role::Server)
            && !self.life.own_caps().contains(cap)
        {
            return self.refuse_plain(&r, RefuseReason::CapabilityNotDeclared);
        }
        if tasks_method && !ctx.tasks {
            let (code, message) = RefuseReason::MissingClientCapability.reply();
            return self.refuse_with(&r, RefuseReason::MissingClientCapability, code, message, Some(&TASKS_REQUIRED));
        }
        if self.inb.find_from(self.origin, r.id).is_some() || self.held.contains(area, r.id, Some(self.origin_tag())) {
            return self.refuse_plain(&r, RefuseReason::DuplicateId);
        }
        if method == Method::ServerDiscover {
            if !self.answer_discover(&r) {
                return None;
            }
            self.enter_stateless();
            return None;
        }
        self.enter_stateless();
        if self.held.count() > 0 || !self.inb.has_free_slot() {
            let held = self.config.overflow == super::config::Overflow::Hold
                && self.held.hold(area, raw, r.id.as_token(), self.origin.map(|o| o.0));
            return if held { None } else { self.refuse_plain(&r, RefuseReason::TooManyRequests) };
        }
        self.admit_with(r, method, Some((ctx, token)))
    }

    /// The origin of the frame being processed, as held entries store it.
    fn origin_tag(&self) -> Option<u32> {
        self.origin.map(|o| o.0)
    }

    /// The first accepted stateless request decides the connection's era.
    fn enter_stateless(&mut self) {
        if matches!(self.life.phase(), Phase::AwaitingInitialize)
            && let Some(newest) = self.config.modern_versions().newest()
        {
            self.life.go_stateless(newest, CapabilitySet::EMPTY);
            self.refresh_timers();
        }
    }

    /// `server/discover`, answered from the configuration. `false` if the answer waits
    /// for room.
    fn answer_discover(&mut self, r: &Request<'_>) -> bool {
        // Borrowed beside the transmit buffer, not copied out of `self` (320 bytes on thumb).
        let (config, origin) = (&self.config, self.origin);
        let written = self.tx.to(origin).result_with(r.id, |out| config.write_discover_result(out));
        self.settle(ErrorId::Id(r.id), written)
    }

    /// A held stateless request's `_meta`, read again as it is delivered (it passed the
    /// checks when it was held).
    pub(crate) fn held_context<'e>(&self, params: Option<RawJson<'e>>) -> Option<(ModernCtx, Option<RawJson<'e>>)> {
        if !self.life.is_stateless() || self.config.role != Role::Server {
            return None;
        }
        read_envelope(params, self.config.modern_versions(), &MetaNote::UNKNOWN).ok()
    }

    // ---- client ----------------------------------------------------------------------

    /// Queues the `server/discover` probe offering `version` (dual-era client).
    pub fn send_discover(&mut self, version: ProtocolVersion, retried: bool) -> Result<(), super::SendError> {
        let (capabilities, info) = (self.config.capabilities, self.config.info);
        let id = self.out.peek_id();
        self.tx.to(None).request_with(RequestId::from_u64(id).as_ref(), "server/discover", |out| {
            out.put(b"{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":");
            out.string(version.as_str());
            out.put(b",\"io.modelcontextprotocol/clientCapabilities\":");
            capabilities.write(out)?;
            out.put(b",\"io.modelcontextprotocol/clientInfo\":");
            info.write(out)?;
            out.put(b"}}");
            Ok(())
        })?;
        self.out.allocate_id();
        self.life.discovering(id, version, retried);
        self.timers.set(Timer::Initialize, Some(self.now + self.config.discover_timeout));
        Ok(())
    }

    /// The probe found no modern server: `initialize` if this client speaks a handshake
    /// version, else the end.
    pub(crate) fn fall_back(&mut self) {
        match self.config.newest() {
            Some(newest) if self.send_initialize(newest).is_ok() => {}
            Some(_) => self.shut_down(CloseReason::InvalidInitializeResult),
            None => self.shut_down(CloseReason::HandshakeOnlyServer),
        }
    }

    /// The newest stateless version this client speaks among `list` (strings).
    fn mutual_modern(&self, list: Option<RawJson<'_>>) -> Option<ProtocolVersion> {
        let ours = self.config.modern_versions();
        list?
            .elements()
            .filter_map(|v| v.as_str().and_then(ProtocolVersion::from_json))
            .filter(|v| ours.contains(*v))
            .max()
    }

    /// The answer to the probe decides the era. A discover result naming a mutual version
    /// is modern; so is a -32022 naming one (probed once more with it) or another modern
    /// error. Anything else, whatever its code, is a handshake-era server.
    pub(crate) fn on_discover_answer<'e>(
        &mut self,
        probe: DiscoverProbe,
        outcome: Result<RawJson<'e>, ErrorObject<'e>>,
    ) -> Option<Received<'e>> {
        match outcome {
            Ok(result) => {
                let version = self.mutual_modern(result.get("supportedVersions"));
                let caps = result.get("capabilities").filter(RawJson::is_object);
                let (Some(version), Some(caps)) = (version, caps) else {
                    self.fall_back();
                    return None;
                };
                self.life.go_stateless(version, CapabilitySet::from_server_json(caps));
                self.refresh_timers();
                self.ready = true;
                Some(Event::Negotiated { version, peer: result }.into())
            }
            Err(error) if error.code == ErrorCode::UNSUPPORTED_PROTOCOL_VERSION => {
                let supported = error.data.and_then(|d| d.get("supported"));
                // Once more with the newest mutual version, even the one offered (a
                // server may refuse what it lists, once); a second refusal falls back.
                match self.mutual_modern(supported) {
                    Some(v) if !probe.retried => {
                        if self.send_discover(v, true).is_err() {
                            self.fall_back();
                        }
                    }
                    _ => self.fall_back(),
                }
                None
            }
            Err(error)
                if error.code == ErrorCode::HEADER_MISMATCH
                    || error.code == ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY =>
            {
                // A modern server (no other kind sends these), if a strange answer to a
                // probe: stay modern at the version offered, its capabilities unknown
                // (so not gated).
                self.life.go_stateless(probe.offered, CapabilitySet::from_bits(u32::MAX));
                self.refresh_timers();
                self.ready = true;
                Some(Event::Negotiated { version: probe.offered, peer: RawJson::EMPTY_OBJECT }.into())
            }
            Err(_) => {
                self.fall_back();
                None
            }
        }
    }

    /// The probe went unanswered: a handshake-era server that says nothing to an unknown
    /// method.
    pub(crate) fn probe_timed_out(&mut self) {
        self.fall_back();
    }

    /// The answer to a request of ours sent in the stateless era, read by `resultType`.
    /// A -32022 also switches the version the endpoint uses to the newest mutual one, so
    /// that sending the request again works.
    pub(crate) fn on_modern_answer<'e>(
        &mut self,
        entry: OutEntry,
        outcome: Result<RawJson<'e>, ErrorObject<'e>>,
    ) -> Option<Received<'e>> {
        let (id, method) = (RequestId::from_u64(entry.id), entry.method);
        let result = match outcome {
            Err(error) => {
                if error.code == ErrorCode::UNSUPPORTED_PROTOCOL_VERSION
                    && let Some(v) = self.mutual_modern(error.data.and_then(|d| d.get("supported")))
                {
                    self.life.switch_version(v);
                }
                return Some(Event::Error { id, method, error }.into());
            }
            Ok(result) => result,
        };
        let rejected =
            |problem| Some(Event::ResultRejected { id: RequestId::from_u64(entry.id), method, problem, result }.into());
        // A server that completes results as this crate's does writes `resultType` first:
        // read by its bytes, as `ResultType::of` would (the first member named so is the
        // one read, and that string cannot go on past its quote), without the walk.
        let kind = match result.as_bytes().starts_with(br#"{"resultType":"complete""#) {
            true => Some(ResultType::Complete),
            false => ResultType::of(result),
        };
        match kind {
            Some(ResultType::Complete) if entry.listen => {
                Some(Event::SubscriptionEnded { id, cancelled: false }.into())
            }
            Some(ResultType::Complete) => Some(Event::Response { id, method, result }.into()),
            Some(ResultType::InputRequired) => {
                if !takes_input(method) {
                    return rejected(ResultProblem::InputRequiredNotAllowed);
                }
                let requests = result.get("inputRequests");
                if requests.is_none() && result.get("requestState").is_none() {
                    return rejected(ResultProblem::InputRequiredNotAllowed);
                }
                if let Some(requests) = requests {
                    if !requests.is_object() {
                        return rejected(ResultProblem::InvalidInputRequests);
                    }
                    for (_, request) in requests.members() {
                        match input_request_needs(request) {
                            Err(_) => return rejected(ResultProblem::InvalidInputRequests),
                            Ok(cap) if !self.life.own_caps().contains(cap) => {
                                return rejected(ResultProblem::UndeclaredCapability(cap));
                            }
                            Ok(_) => {}
                        }
                    }
                }
                let Some(retry) = RetryTicket::for_result(method, entry.target, result) else {
                    return rejected(ResultProblem::InvalidInputRequests);
                };
                Some(Event::InputRequired { id, method, result, retry }.into())
            }
            Some(ResultType::Other(kind)) if kind.eq_str("task") => {
                if method != Some(Method::ToolsCall) || !self.own_tasks {
                    return rejected(ResultProblem::TaskNotAllowed);
                }
                Some(Event::TaskCreated { id, method, task: result }.into())
            }
            _ => rejected(ResultProblem::UnknownResultType),
        }
    }

    /// A notification to a stateless client. Progress and log messages relate to a
    /// request; change notifications come only on a listen stream of ours and carry its
    /// id, which is checked; the server's `notifications/cancelled` ends such a stream.
    pub(crate) fn on_modern_notification<'e>(&mut self, n: Notification<'e>) -> Option<Received<'e>> {
        let method = Method::parse(n.method);
        let tag = n
            .params
            .and_then(|p| p.get("_meta"))
            .and_then(|m| m.get(meta_keys::SUBSCRIPTION_ID))
            .map(|v| RequestIdRef::from_validated(v.as_bytes()));
        let subscription = tag.map(|t| t.as_u64());
        match method {
            Method::Cancelled => {
                let id = n.params.and_then(|p| p.get("requestId")).and_then(|v| v.as_u64());
                let slot = self.out.live_listen(id)?;
                let entry = self.out.take(slot)?;
                return Some(Event::SubscriptionEnded { id: RequestId::from_u64(entry.id), cancelled: true }.into());
            }
            Method::SubscriptionsAcknowledged => {
                let slot = subscription.and_then(|id| self.out.live_listen(id));
                let Some(slot) = slot else { return Some(Misbehavior::UnknownSubscription { method }.into()) };
                let entry = self.out.acknowledge(slot)?;
                let granted = n.params.and_then(|p| p.get("notifications")).unwrap_or(RawJson::EMPTY_OBJECT);
                return Some(Event::Subscribed { id: RequestId::from_u64(entry), granted }.into());
            }
            _ => {}
        }
        match subscription {
            None if matches!(
                method,
                Method::ToolsListChanged
                    | Method::PromptsListChanged
                    | Method::ResourcesListChanged
                    | Method::ResourcesUpdated
            ) =>
            {
                return Some(Misbehavior::UnknownSubscription { method }.into());
            }
            None => {}
            Some(id) => match self.out.live_listen(id) {
                Some(slot) if self.out.is_acknowledged(slot) => {}
                _ => return Some(Misbehavior::UnknownSubscription { method }.into()),
            },
        }
        Some(Event::Notification(IncomingNotification { method, params: n.params, subscription: tag }).into())
    }
}
