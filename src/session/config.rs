//! How an endpoint behaves: who it is, what it offers, and its timing.

use core::time::Duration;

use super::pending::PendingRequest;
use super::transmit::{Origin, OutputMode};
use crate::mcp::{CapabilitySet, ProtocolVersion, Role, VersionSet};
use crate::wire::{DEFAULT_MAX_DEPTH, RawJson};

/// The idle timeout for a request when the caller does not choose one: 60 seconds, as in
/// the TypeScript SDK (rmcp and the Python SDK have no default at all).
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

/// The absolute cap on a request's lifetime when the caller does not choose one: progress
/// notifications can keep a request alive past the idle timeout, but not past this.
pub const DEFAULT_MAX_REQUEST_TIME: Duration = Duration::from_secs(600);

/// How long a client waits for the answer to `initialize` by default.
pub const DEFAULT_INITIALIZE_TIMEOUT: Duration = Duration::from_secs(30);

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
/// `info` and `capabilities` are JSON objects sent verbatim in the `initialize` exchange
/// (`clientInfo`/`serverInfo` and `capabilities`); the endpoint reads its own capability
/// flags from `capabilities` to decide what it may send and what it will accept.
#[derive(Clone, Copy, Debug)]
pub struct Config<'a> {
    /// Client or server.
    pub role: Role,
    /// The protocol versions this side supports (by default every handshake version).
    pub versions: VersionSet,
    /// The `Implementation` object: at least `{"name": …, "version": …}`.
    pub info: RawJson<'a>,
    /// This side's capabilities object.
    pub capabilities: RawJson<'a>,
    /// Server only: the `instructions` string of the `initialize` result.
    pub instructions: Option<&'a str>,
    /// Idle timeout of requests sent without an explicit one.
    pub request_timeout: Duration,
    /// Absolute cap of requests sent without an explicit one.
    pub max_request_time: Duration,
    /// Client only: how long to wait for the `initialize` answer before giving up.
    pub initialize_timeout: Duration,
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
}

impl<'a> Config<'a> {
    /// A configuration with the defaults: every handshake version, empty capabilities,
    /// the default timeouts, no keepalive.
    pub fn new(role: Role, info: RawJson<'a>) -> Self {
        Self {
            role,
            versions: VersionSet::HANDSHAKE,
            info,
            capabilities: RawJson::EMPTY_OBJECT,
            instructions: None,
            request_timeout: DEFAULT_REQUEST_TIMEOUT,
            max_request_time: DEFAULT_MAX_REQUEST_TIME,
            initialize_timeout: DEFAULT_INITIALIZE_TIMEOUT,
            keepalive: None,
            max_depth: DEFAULT_MAX_DEPTH,
            overflow: Overflow::Hold,
            answer_within: None,
            output: OutputMode::Lines,
        }
    }

    /// Sets the capabilities object.
    pub fn capabilities(mut self, capabilities: RawJson<'a>) -> Self {
        self.capabilities = capabilities;
        self
    }

    /// Sets the supported versions.
    pub fn versions(mut self, versions: VersionSet) -> Self {
        self.versions = versions;
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

    /// This side's capability flags, as the peer will see them.
    pub(crate) fn own_capabilities(&self) -> CapabilitySet {
        match self.role {
            Role::Client => CapabilitySet::from_client_json(self.capabilities),
            Role::Server => CapabilitySet::from_server_json(self.capabilities),
        }
    }

    /// The handshake versions this side supports.
    pub(crate) fn handshake_versions(&self) -> VersionSet {
        self.versions.intersect(VersionSet::HANDSHAKE)
    }

    /// The newest supported handshake version.
    pub(crate) fn newest(&self) -> Option<ProtocolVersion> {
        self.handshake_versions().newest()
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

    /// Sends the request as part of handling the peer's `request`: on its channel.
    pub fn related_to(mut self, request: &PendingRequest) -> Self {
        self.related = request.origin();
        self
    }
}
