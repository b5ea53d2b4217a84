//! How an endpoint behaves: who it is, what it offers, and its timing.

use core::time::Duration;

use super::pending::PendingRequest;
use super::transmit::{Origin, OutputMode};

use crate::mcp::{
    CacheScope, CapabilitySet, ClientCapabilities, Implementation, LoggingLevel, ProtocolVersion, Role,
    ServerCapabilities, VersionSet,
};
use crate::wire::{DEFAULT_MAX_DEPTH, EncodeError, JsonKind, JsonOut, RawJson};

/// The idle timeout for a request when the caller does not choose one: 60 seconds, as in
/// the TypeScript SDK (rmcp and the Python SDK have no default at all).
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

/// The absolute cap on a request's lifetime when the caller does not choose one: progress
/// notifications can keep a request alive past the idle timeout, but not past this.
pub const DEFAULT_MAX_REQUEST_TIME: Duration = Duration::from_secs(600);

/// The transmit-buffer room kept free for the replies the endpoint writes on its own,
/// by default: input is processed only while this much is free. See
/// [`Config::reply_reserve`].
pub const DEFAULT_REPLY_RESERVE: usize = 512;

/// How long a client waits for the answer to `initialize` by default.
pub const DEFAULT_INITIALIZE_TIMEOUT: Duration = Duration::from_secs(30);

/// How long a dual-era client waits for the answer to its `server/discover` probe before
/// it takes the silence for a handshake-era server and sends `initialize`.
///
/// Legacy servers on stdio answer an unknown method at once (-32601, or -32602 before
/// `initialize`); only a server that says nothing at all to it costs this wait.
pub const DEFAULT_DISCOVER_TIMEOUT: Duration = Duration::from_secs(5);

/// The versions that carry the version, capabilities and identity on every request
/// (2026-07-28): the stateless era.
pub(crate) const MODERN: VersionSet = VersionSet::since(ProtocolVersion::V2026_07_28);

/// Which protocol eras an endpoint speaks: read from (and set through) its
/// [`versions`](Config::versions).
///
/// * A **server** that speaks both decides per opening: `initialize` selects the
///   handshake rules for the connection (the stdio process, the HTTP session); a request
///   whose `params._meta` carries `io.modelcontextprotocol/protocolVersion` selects the
///   stateless rules. A server of one era answers the other era's opening with an error.
/// * A **client** that speaks both probes with `server/discover` (its newest modern
///   version in `_meta`) and falls back to `initialize` on anything but a discover result
///   or a recognised modern error (see [`Event::Negotiated`](super::Event::Negotiated)).
///   A client of one era goes straight to it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Era {
    /// Both eras (the default: every published version).
    #[default]
    Auto,
    /// Only the stateless versions (2026-07-28).
    Modern,
    /// Only the handshake versions (2024-11-05 to 2025-11-25).
    Legacy,
}

/// The caching hints a server puts on cacheable results (2026-07-28: `server/discover`,
/// the four lists and `resources/read`) when the application's result carries none.
///
/// The default is `ttlMs: 0` (re-fetch at will) and `cacheScope: "private"` (reuse only
/// in the same authorization context): nothing an application did not choose is shared
/// or kept. Results the application sets `ttlMs` / `cacheScope` on keep its values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct CacheHints {
    /// `ttlMs`: how long the result may be considered fresh, in milliseconds.
    pub ttl_ms: u64,
    /// `cacheScope`.
    pub scope: CacheScope,
}

impl Default for CacheHints {
    fn default() -> Self {
        Self { ttl_ms: 0, scope: CacheScope::Private }
    }
}

impl CacheHints {
    pub(crate) fn scope_str(&self) -> &'static str {
        match self.scope {
            CacheScope::Public => "public",
            CacheScope::Private => "private",
        }
    }
}

/// Keepalive pings: sent when nothing has been received for `idle`, failed when the
/// answer takes longer than `timeout`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Keepalive {
    /// Silence from the peer that triggers a ping.
    pub idle: Duration,
    /// How long the ping may take before the peer is reported unresponsive.
    pub timeout: Duration,
}

/// Writers of typed values into a frame. They are taken as function pointers only where
/// a typed value is given, so programs that pass JSON never link the vocabulary's
/// serializers. (For any lifetime of the value, so that `Config` stays covariant.)
type WriteServer = for<'x> fn(&ServerCapabilities<'x>, &mut JsonOut<'_, '_>) -> Result<(), EncodeError>;
type WriteClient = for<'x> fn(&ClientCapabilities<'x>, &mut JsonOut<'_, '_>) -> Result<(), EncodeError>;
type WriteInfo = for<'x> fn(&Implementation<'x>, &mut JsonOut<'_, '_>) -> Result<(), EncodeError>;

fn write_server(caps: &ServerCapabilities<'_>, out: &mut JsonOut<'_, '_>) -> Result<(), EncodeError> {
    out.value(caps)
}

fn write_client(caps: &ClientCapabilities<'_>, out: &mut JsonOut<'_, '_>) -> Result<(), EncodeError> {
    out.value(caps)
}

fn write_info(info: &Implementation<'_>, out: &mut JsonOut<'_, '_>) -> Result<(), EncodeError> {
    out.value(info)
}

/// This side's `capabilities` in the `initialize` exchange: typed (a typo does not
/// compile, and the endpoint reads its own flags straight from the value) or a JSON
/// object, sent verbatim. Made with `From` (`.capabilities(...)` on [`Config`] takes
/// anything that converts): [`ServerCapabilities`], [`ClientCapabilities`], [`RawJson`].
#[derive(Clone, Copy, Debug)]
pub struct Capabilities<'a>(CapabilitiesRepr<'a>);

#[derive(Clone, Copy, Debug)]
enum CapabilitiesRepr<'a> {
    Json(RawJson<'a>),
    Server(ServerCapabilities<'a>, CapabilitySet, WriteServer),
    Client(ClientCapabilities<'a>, CapabilitySet, WriteClient),
}

impl<'a> From<RawJson<'a>> for Capabilities<'a> {
    fn from(json: RawJson<'a>) -> Self {
        Capabilities(CapabilitiesRepr::Json(json))
    }
}

impl<'a> From<ServerCapabilities<'a>> for Capabilities<'a> {
    fn from(caps: ServerCapabilities<'a>) -> Self {
        Capabilities(CapabilitiesRepr::Server(caps, caps.flags(), write_server))
    }
}

impl<'a> From<ClientCapabilities<'a>> for Capabilities<'a> {
    fn from(caps: ClientCapabilities<'a>) -> Self {
        Capabilities(CapabilitiesRepr::Client(caps, caps.flags(), write_client))
    }
}

impl<'a> Capabilities<'a> {
    /// The flags the session gates methods with, as a side of `role` declares them.
    pub fn flags(&self, role: Role) -> CapabilitySet {
        match (self.0, role) {
            (CapabilitiesRepr::Json(json), Role::Server) => CapabilitySet::from_server_json(json),
            (CapabilitiesRepr::Json(json), Role::Client) => CapabilitySet::from_client_json(json),
            (CapabilitiesRepr::Server(_, flags, _) | CapabilitiesRepr::Client(_, flags, _), _) => flags,
        }
    }

    /// The JSON object, if that is what was given.
    pub fn as_json(&self) -> Option<RawJson<'a>> {
        match self.0 {
            CapabilitiesRepr::Json(json) => Some(json),
            _ => None,
        }
    }

    /// Whether a side of `role` can declare these: typed ones of its own kind, or a JSON
    /// object.
    pub(crate) fn fits(&self, role: Role) -> bool {
        match self.0 {
            CapabilitiesRepr::Json(json) => json.kind() == JsonKind::Object,
            CapabilitiesRepr::Server(..) => role == Role::Server,
            CapabilitiesRepr::Client(..) => role == Role::Client,
        }
    }

    /// Writes the object into a frame.
    pub(crate) fn write(&self, out: &mut JsonOut<'_, '_>) -> Result<(), EncodeError> {
        match &self.0 {
            CapabilitiesRepr::Json(json) => {
                out.raw(json.as_bytes());
                Ok(())
            }
            CapabilitiesRepr::Server(caps, _, write) => write(caps, out),
            CapabilitiesRepr::Client(caps, _, write) => write(caps, out),
        }
    }

    /// Writes the object for `server/discover`: without the handshake era's `tasks`
    /// member (2026-07-28 moved tasks to the `io.modelcontextprotocol/tasks`
    /// extension, and a `tasks` member there would claim the old protocol).
    pub(crate) fn write_stateless(&self, out: &mut JsonOut<'_, '_>) -> Result<(), EncodeError> {
        match &self.0 {
            CapabilitiesRepr::Json(json) if json.contains_key("tasks") => {
                out.put(b"{");
                let mut first = true;
                for (name, value) in json.members().filter(|(n, _)| !n.eq_str("tasks")) {
                    if !core::mem::take(&mut first) {
                        out.put(b",");
                    }
                    out.put(b"\"");
                    out.put(name.raw());
                    out.put(b"\":");
                    out.raw(value.as_bytes());
                }
                out.put(b"}");
                Ok(())
            }
            CapabilitiesRepr::Server(caps, _, write) if caps.tasks.is_some() => {
                write(&ServerCapabilities { tasks: None, ..*caps }, out)
            }
            _ => self.write(out),
        }
    }

    /// Whether these capabilities declare the tasks extension (2026-07-28).
    pub(crate) fn declares_tasks(&self) -> bool {
        let extensions = match self.0 {
            CapabilitiesRepr::Json(json) => return super::modern::declares_tasks(json),
            CapabilitiesRepr::Server(caps, ..) => caps.extensions,
            CapabilitiesRepr::Client(caps, ..) => caps.extensions,
        };
        extensions.and_then(|e| e.get(super::modern::TASKS_EXTENSION)).is_some_and(|t| t.is_object())
    }
}

/// This side's `clientInfo` / `serverInfo`: a typed [`Implementation`] or a JSON object,
/// made with `From` (what [`Config::new`] takes).
#[derive(Clone, Copy, Debug)]
pub struct Info<'a>(InfoRepr<'a>);

#[derive(Clone, Copy, Debug)]
enum InfoRepr<'a> {
    /// The object, and whether it holds no line break (looked at once, here: every
    /// stateless result carries it, and a one-line object is copied as it is).
    Json(RawJson<'a>, bool),
    Typed(Implementation<'a>, WriteInfo),
}

impl<'a> From<RawJson<'a>> for Info<'a> {
    fn from(json: RawJson<'a>) -> Self {
        Info(InfoRepr::Json(json, !crate::wire::has_line_break(json.as_bytes())))
    }
}

impl<'a> From<Implementation<'a>> for Info<'a> {
    fn from(info: Implementation<'a>) -> Self {
        Info(InfoRepr::Typed(info, write_info))
    }
}

impl<'a> Info<'a> {
    /// The JSON object, if that is what was given.
    pub fn as_json(&self) -> Option<RawJson<'a>> {
        match self.0 {
            InfoRepr::Json(json, _) => Some(json),
            InfoRepr::Typed(..) => None,
        }
    }

    fn is_object(&self) -> bool {
        match self.0 {
            InfoRepr::Json(json, _) => json.kind() == JsonKind::Object,
            InfoRepr::Typed(..) => true,
        }
    }

    /// Writes the object into a frame.
    pub(crate) fn write(&self, out: &mut JsonOut<'_, '_>) -> Result<(), EncodeError> {
        match &self.0 {
            InfoRepr::Json(json, true) => {
                out.put(json.as_bytes());
                Ok(())
            }
            InfoRepr::Json(json, false) => {
                out.raw(json.as_bytes());
                Ok(())
            }
            InfoRepr::Typed(info, write) => write(info, out),
        }
    }
}

/// What happens to a request of the peer's that arrives while every inbound slot is
/// taken.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Overflow {
    /// Hold it in the receive buffer and deliver it when a slot frees, oldest first. Held
    /// requests use at most half of the receive buffer; past that, or when a frame being
    /// read needs their room, requests are refused as with [`Refuse`](Self::Refuse).
    #[default]
    Hold,
    /// Answer it at once with -32603 "Too many requests in flight".
    Refuse,
}

/// The configuration of an [`Endpoint`](super::Endpoint).
///
/// `info` and `capabilities` are what this side says in the `initialize` exchange
/// (`clientInfo`/`serverInfo` and `capabilities`), typed or as JSON objects; the
/// endpoint reads its own capability flags from `capabilities` to decide what it may
/// send and what it will accept.
///
/// ```
/// use mcp_sansio::mcp::{Implementation, ListChanged, Role, ServerCapabilities};
/// use mcp_sansio::session::Config;
/// let config = Config::new(Role::Server, Implementation::new("weather", "1.0.0"))
///     .capabilities(ServerCapabilities::new().tools(ListChanged::YES).logging());
/// assert!(config.own_flags().contains(mcp_sansio::mcp::Capability::Logging));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Config<'a> {
    /// Client or server.
    pub role: Role,
    /// The protocol versions this side supports (by default every published version:
    /// both eras, see [`Era`]).
    pub versions: VersionSet,
    /// Who this side is (`clientInfo` / `serverInfo`).
    pub info: Info<'a>,
    /// What this side supports.
    pub capabilities: Capabilities<'a>,
    /// Server only: the `instructions` string of the `initialize` result.
    pub instructions: Option<&'a str>,
    /// Idle timeout of requests sent without an explicit one.
    pub request_timeout: Duration,
    /// Absolute cap of requests sent without an explicit one.
    pub max_request_time: Duration,
    /// Client only: how long to wait for the `initialize` answer before giving up.
    pub initialize_timeout: Duration,
    /// Dual-era client only: how long to wait for the `server/discover` probe's answer
    /// before falling back to `initialize`.
    pub discover_timeout: Duration,
    /// Server only: the caching hints of cacheable 2026-07-28 results that carry none.
    pub cache: CacheHints,
    /// Optional keepalive pings.
    pub keepalive: Option<Keepalive>,
    /// Nesting cap for incoming JSON.
    pub max_depth: u16,
    /// What to do with the peer's requests beyond the inbound slots.
    pub overflow: Overflow,
    /// How long the application may take to answer one of the peer's requests; past it
    /// the endpoint answers -32603 itself and reports [`Event::Expired`](super::Event::Expired).
    /// `None` (the default): no limit. Held requests start the clock when delivered.
    pub answer_within: Option<Duration>,
    /// How sent frames are handed out: all at once, newline-terminated (the default), or
    /// one message at a time with its origin.
    pub output: OutputMode,
    /// Transmit-buffer room kept free for the replies the endpoint writes on its own
    /// (pongs, refusals, errors): input is processed only while this much is free, and
    /// every such reply fits it. At least the longest of those replies (about 200 bytes,
    /// 9 more in message mode; [`Endpoint::new`](super::Endpoint::new) says exactly if it
    /// is too small); more lets more frames be processed between two drains.
    pub reply_reserve: usize,
}

impl<'a> Config<'a> {
    /// A configuration with the defaults: every published version (both eras), empty
    /// capabilities, the default timeouts, no keepalive.
    pub fn new(role: Role, info: impl Into<Info<'a>>) -> Self {
        Self {
            role,
            versions: VersionSet::ALL,
            info: info.into(),
            capabilities: Capabilities(CapabilitiesRepr::Json(RawJson::EMPTY_OBJECT)),
            instructions: None,
            request_timeout: DEFAULT_REQUEST_TIMEOUT,
            max_request_time: DEFAULT_MAX_REQUEST_TIME,
            initialize_timeout: DEFAULT_INITIALIZE_TIMEOUT,
            discover_timeout: DEFAULT_DISCOVER_TIMEOUT,
            cache: CacheHints { ttl_ms: 0, scope: CacheScope::Private },
            keepalive: None,
            max_depth: DEFAULT_MAX_DEPTH,
            overflow: Overflow::Hold,
            answer_within: None,
            output: OutputMode::Lines,
            reply_reserve: DEFAULT_REPLY_RESERVE,
        }
    }

    /// Sets this side's capabilities: typed ([`ServerCapabilities`],
    /// [`ClientCapabilities`]) or a JSON object.
    pub fn capabilities(mut self, capabilities: impl Into<Capabilities<'a>>) -> Self {
        self.capabilities = capabilities.into();
        self
    }

    /// Sets the supported versions.
    pub fn versions(mut self, versions: VersionSet) -> Self {
        self.versions = versions;
        self
    }

    /// Keeps the supported versions of one era, or of both (see [`Era`]): the versions
    /// already chosen that belong to it, or all of its versions if none does.
    pub fn era(mut self, era: Era) -> Self {
        let keep = |set: VersionSet, of: VersionSet| match set.intersect(of) {
            kept if kept.is_empty() => of,
            kept => kept,
        };
        self.versions = match era {
            Era::Modern => keep(self.versions, MODERN),
            Era::Legacy => keep(self.versions, VersionSet::HANDSHAKE),
            Era::Auto => keep(self.versions, MODERN).with(keep(self.versions, VersionSet::HANDSHAKE)),
        };
        self
    }

    /// The eras the supported versions span.
    pub fn eras(&self) -> Era {
        match (self.modern_versions().is_empty(), self.handshake_versions().is_empty()) {
            (false, false) => Era::Auto,
            (false, true) => Era::Modern,
            _ => Era::Legacy,
        }
    }

    /// Sets the caching hints of cacheable results that carry none (server).
    pub fn cache_hints(mut self, ttl_ms: u64, scope: CacheScope) -> Self {
        self.cache = CacheHints { ttl_ms, scope };
        self
    }

    /// Sets how long a dual-era client waits for its `server/discover` probe.
    pub fn discover_timeout(mut self, timeout: Duration) -> Self {
        self.discover_timeout = timeout;
        self
    }

    /// Sets the server's instructions.
    pub fn instructions(mut self, instructions: &'a str) -> Self {
        self.instructions = Some(instructions);
        self
    }

    /// Sets the default request timeouts.
    pub fn request_timeouts(mut self, idle: Duration, max: Duration) -> Self {
        self.request_timeout = idle;
        self.max_request_time = max;
        self
    }

    /// Enables keepalive pings.
    pub fn keepalive(mut self, keepalive: Keepalive) -> Self {
        self.keepalive = Some(keepalive);
        self
    }

    /// Sets how sent frames are handed out (see [`OutputMode`]).
    pub fn output(mut self, output: OutputMode) -> Self {
        self.output = output;
        self
    }

    /// Sets the reply reserve: smaller for a small part's transmit buffer (see
    /// [`reply_reserve`](Self::reply_reserve)).
    pub fn reply_reserve(mut self, bytes: usize) -> Self {
        self.reply_reserve = bytes;
        self
    }

    /// Sets what happens to the peer's requests beyond the inbound slots.
    pub fn overflow(mut self, overflow: Overflow) -> Self {
        self.overflow = overflow;
        self
    }

    /// Sets how long the application may take to answer a request of the peer's.
    pub fn answer_within(mut self, limit: Duration) -> Self {
        self.answer_within = Some(limit);
        self
    }

    /// Writes the `initialize` result this server sends for `version`.
    pub(crate) fn write_initialize_result(
        &self,
        version: ProtocolVersion,
        out: &mut JsonOut<'_, '_>,
    ) -> Result<(), EncodeError> {
        out.put(b"{\"protocolVersion\":");
        out.string(version.as_str());
        out.put(b",\"capabilities\":");
        self.capabilities.write(out)?;
        out.put(b",\"serverInfo\":");
        self.info.write(out)?;
        if let Some(instructions) = self.instructions {
            out.put(b",\"instructions\":");
            out.string(instructions);
        }
        out.put(b"}");
        Ok(())
    }

    /// Writes the `server/discover` result: the stateless versions, the capabilities, the
    /// instructions, the caching hints and `serverInfo`, complete as 2026-07-28 asks.
    pub(crate) fn write_discover_result(&self, out: &mut JsonOut<'_, '_>) -> Result<(), EncodeError> {
        out.put(b"{\"resultType\":\"complete\",\"supportedVersions\":[");
        for (i, v) in self.modern_versions().iter().enumerate() {
            if i > 0 {
                out.put(b",");
            }
            out.string(v.as_str());
        }
        out.put(b"],\"capabilities\":");
        self.capabilities.write_stateless(out)?;
        if let Some(instructions) = self.instructions {
            out.put(b",\"instructions\":");
            out.string(instructions);
        }
        out.put(b",\"ttlMs\":");
        out.u64(self.cache.ttl_ms);
        out.put(b",\"cacheScope\":");
        out.string(self.cache.scope_str());
        out.put(b",\"_meta\":{\"io.modelcontextprotocol/serverInfo\":");
        self.info.write(out)?;
        out.put(b"}}");
        Ok(())
    }

    /// This side's capability flags, as the peer will see them.
    pub fn own_flags(&self) -> CapabilitySet {
        self.capabilities.flags(self.role)
    }

    /// Whether `info` and `capabilities` can be sent by a side of this role.
    pub(crate) fn check_identity(&self) -> bool {
        self.info.is_object() && self.capabilities.fits(self.role)
    }

    /// The handshake versions this side supports.
    pub(crate) fn handshake_versions(&self) -> VersionSet {
        self.versions.intersect(VersionSet::HANDSHAKE)
    }

    /// The newest supported handshake version.
    pub(crate) fn newest(&self) -> Option<ProtocolVersion> {
        self.handshake_versions().newest()
    }

    /// The stateless versions this side supports.
    pub(crate) fn modern_versions(&self) -> VersionSet {
        self.versions.intersect(MODERN)
    }
}

/// Options for one outgoing request.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct RequestOptions {
    /// Idle timeout; `None` uses the configured default.
    pub timeout: Option<Duration>,
    /// Absolute cap; `None` uses the configured default. Nothing extends it.
    pub max_time: Option<Duration>,
    /// Ask the peer for progress notifications (adds `_meta.progressToken`, the request's
    /// own id, to the params).
    pub progress: bool,
    /// Whether each progress notification restarts the idle timeout (only meaningful
    /// with `progress`).
    pub reset_timeout_on_progress: bool,
    /// The channel of the peer's request this one is sent for (a `sampling/createMessage`
    /// while handling a `tools/call`, say): the request, and its cancellation if it times
    /// out, come out with that origin. Set with [`related_to`](Self::related_to).
    pub related: Option<Origin>,
    /// 2026-07-28: the lowest log level the server may send for this request
    /// (`io.modelcontextprotocol/logLevel`); `None`, the default: no log messages.
    pub log_level: Option<LoggingLevel>,
}

impl RequestOptions {
    /// Default options with progress reporting on, restarting the idle timeout on each
    /// progress notification.
    pub fn with_progress() -> Self {
        Self { progress: true, reset_timeout_on_progress: true, ..Self::default() }
    }

    /// Sets the idle timeout.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// Sets the absolute cap.
    pub fn max_time(mut self, max: Duration) -> Self {
        self.max_time = Some(max);
        self
    }

    /// Asks the server for log messages at `level` and above (2026-07-28).
    pub fn with_log_level(mut self, level: LoggingLevel) -> Self {
        self.log_level = Some(level);
        self
    }

    /// Sends the request as part of handling the peer's `request`: on its channel.
    pub fn related_to(mut self, request: &PendingRequest) -> Self {
        self.related = request.origin();
        self
    }
}
