//! How the HTTP server core behaves: where it listens, what it lets in, its limits and
//! its timing. Every choice has a safe default; the defaults are the documented ones.

use core::time::Duration;

use crate::mcp::VersionSet;

/// How long a session may stay without any request or open stream before it is ended:
/// 30 minutes (abandoned sessions must be reclaimed; the Python SDK's lack of an idle
/// timeout let 25 initialize POSTs keep 25 sessions forever).
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(30 * 60);

/// Silence after which an open SSE stream gets a `:` comment: 15 s, the TypeScript SDK
/// v2's default, well under nginx's 60 s and Cursor's ~300 s idle cuts.
pub const DEFAULT_KEEPALIVE: Duration = Duration::from_secs(15);

/// The largest POST body read: 4 MiB, the TypeScript SDK's limit.
pub const DEFAULT_MAX_BODY: usize = 4 * 1024 * 1024;

/// The reconnection time sent with priming events to 2025-11-25 clients: 1 s.
pub const DEFAULT_RETRY_MS: u32 = 1000;

/// Which `Origin` values are let in. Requests without `Origin` (every non-browser
/// client) are always let in; a present one not allowed gets 403, whatever the
/// protocol version (2025-11-25 states the rule; it protects older clients as much).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OriginPolicy<'a> {
    /// Origins equal (scheme, host and port, after defaults) to one in `list`, and, when
    /// `loopback` is set, any origin whose host is this machine.
    Allowed {
        /// Allowed origins, such as `"https://app.example"`. Entries that do not parse
        /// as origins match nothing.
        list: &'a [&'a str],
        /// Whether loopback origins (`http://localhost:6274`, `http://127.0.0.1:…`) are
        /// allowed too: local tools such as the MCP Inspector run there.
        loopback: bool,
    },
    /// Any origin (for servers that do their own checks in front of the core).
    Any,
}

impl Default for OriginPolicy<'_> {
    /// Loopback origins only.
    fn default() -> Self {
        OriginPolicy::Allowed { list: &[], loopback: true }
    }
}

/// Which `Host` values are let in: the DNS rebinding check. A page served from
/// `rebind.attacker.example`, whose name the attacker points at 127.0.0.1, reaches a
/// local server with that name in `Host`; a server bound to loopback that accepts only
/// loopback hosts cannot be reached that way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostPolicy<'a> {
    /// `localhost` (and names under it), 127.0.0.0/8, `::1`; any port. The default: the
    /// adapter switches to another policy when it binds a non-loopback address.
    Loopback,
    /// Loopback hosts and the host names in the list (compared ignoring case, any port).
    Allowed(&'a [&'a str]),
    /// Any host.
    Any,
}

/// Whether a POST whose request is answered before anything else is sent for it gets
/// a plain `application/json` response.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsonResponses {
    /// Plain JSON when the first message for the POST is its response, SSE otherwise
    /// (the default: cheapest for clients and proxies).
    WhenPossible,
    /// Always an SSE stream (resumable, and the priming event comes at once).
    Never,
}

/// What a 401 or 403 challenge tells the client (RFC 9728, RFC 6750).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AuthChallenge<'a> {
    /// The URL of the protected resource metadata document (`resource_metadata`).
    pub resource_metadata: Option<&'a str>,
    /// The scopes a token needs (`scope`).
    pub scope: Option<&'a str>,
}

/// The configuration of the HTTP server core.
#[derive(Clone, Copy, Debug)]
pub struct ServerConfig<'a> {
    /// The Streamable HTTP endpoint's path: `/mcp`.
    pub mcp_path: &'a str,
    /// The legacy HTTP+SSE transport's GET path (`/sse`), or `None` to serve only
    /// Streamable HTTP.
    pub legacy_sse_path: Option<&'a str>,
    /// The legacy transport's POST path, named in its `endpoint` event: `/messages`.
    pub legacy_post_path: &'a str,
    /// The `Origin` check.
    pub origins: OriginPolicy<'a>,
    /// The `Host` check.
    pub hosts: HostPolicy<'a>,
    /// The protocol versions served (every version, both eras, by default: a POST of the
    /// stateless era carries no session id and is served on its own).
    pub versions: VersionSet,
    /// The largest POST body accepted, in bytes; longer ones get 413.
    pub max_body: usize,
    /// Whether GET opens a standalone SSE stream (405 otherwise).
    pub get_stream: bool,
    /// Whether DELETE ends a session (405 otherwise).
    pub delete: bool,
    /// Plain JSON responses where possible, or always SSE.
    pub json_responses: JsonResponses,
    /// Idle sessions are ended after this long; see [`DEFAULT_IDLE_TIMEOUT`].
    pub idle_timeout: Duration,
    /// `:` keep-alive comments on open SSE streams after this much silence;
    /// `Duration::ZERO` turns them off.
    pub keepalive: Duration,
    /// The `retry` (ms) sent with the priming event of 2025-11-25 streams.
    pub retry_ms: u32,
    /// Close each 2025-11-25 SSE connection right after its priming event (polling,
    /// SEP-1699): the client reconnects with GET and `Last-Event-ID` after `retry_ms`
    /// and gets what was sent meanwhile. Needs a replay store large enough to hold it.
    pub close_after_priming: bool,
    /// The `Retry-After` (seconds) of a 503 when no session can be added.
    pub retry_after_secs: u32,
    /// What 401/403 challenges say.
    pub auth: AuthChallenge<'a>,
}

impl Default for ServerConfig<'_> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'a> ServerConfig<'a> {
    /// The defaults: `/mcp`, legacy transport at `/sse` and `/messages`, loopback hosts
    /// and origins only, every handshake version, 4 MiB bodies, GET streams and DELETE
    /// on, plain JSON where possible, 30 min idle expiry, 15 s keep-alive, 1 s retry.
    pub const fn new() -> Self {
        Self {
            mcp_path: "/mcp",
            legacy_sse_path: Some("/sse"),
            legacy_post_path: "/messages",
            origins: OriginPolicy::Allowed { list: &[], loopback: true },
            hosts: HostPolicy::Loopback,
            versions: VersionSet::ALL,
            max_body: DEFAULT_MAX_BODY,
            get_stream: true,
            delete: true,
            json_responses: JsonResponses::WhenPossible,
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
            keepalive: DEFAULT_KEEPALIVE,
            retry_ms: DEFAULT_RETRY_MS,
            close_after_priming: false,
            retry_after_secs: 5,
            auth: AuthChallenge { resource_metadata: None, scope: None },
        }
    }
}
