//! [`ServerOptions`]: the adapter's limits and timing, around the core's
//! [`ServerConfig`].

use std::time::Duration;

use super::auth::Authorizer;
use crate::http::server::{ServerConfig, SessionKey};

/// How long a request head may take from its first byte to its blank line: 10 s.
/// A client that trickles a header byte at a time is closed then, however slowly it
/// goes (the limit is on the whole head, not on the silence between bytes).
pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a kept-alive connection may stay without a request: 60 s.
pub const DEFAULT_IDLE_CONNECTION: Duration = Duration::from_secs(60);

/// How long a client may take nothing of a response it is owed before its connection
/// is closed: 30 s. What that connection's stream held stays for a resume.
pub const DEFAULT_WRITE_TIMEOUT: Duration = Duration::from_secs(30);

/// The adapter's options. Every limit has a default; the core's own options (paths,
/// `Origin` and `Host` checks, body cap, idle session expiry, keep-alive comments,
/// JSON or SSE answers) are in [`config`](Self::config).
#[derive(Clone, Debug)]
pub struct ServerOptions<'a> {
    /// The core's configuration. With the default [`HostPolicy::Loopback`](crate::http::server::HostPolicy),
    /// a server bound to an address that is not loopback accepts any `Host` (the DNS
    /// rebinding check protects servers on this machine only).
    pub config: ServerConfig<'a>,
    /// The longest request head, in bytes (431 beyond): 16 KiB.
    pub max_head: usize,
    /// The most header fields in a request (431 beyond): 64.
    pub max_headers: usize,
    /// See [`DEFAULT_HEADER_TIMEOUT`].
    pub header_timeout: Duration,
    /// See [`DEFAULT_IDLE_CONNECTION`].
    pub idle_connection: Duration,
    /// See [`DEFAULT_WRITE_TIMEOUT`].
    pub write_timeout: Duration,
    /// The most connections at once; more wait in the listen backlog: 4096.
    pub max_connections: usize,
    /// The most live sessions; a new one beyond gets 503 with `Retry-After`: 16384.
    pub max_sessions: usize,
    /// The size each awake session's receive and transmit buffers and event store
    /// start at (each at most its bound below): 16 KiB. A buffer doubles, up to its
    /// bound, when a message needs it (and the store when a slow client leaves it full),
    /// so that sessions with small messages stay small: memory follows the messages
    /// seen, not the longest one allowed.
    pub initial_buffer: usize,
    /// Each awake session's receive buffer at most: the longest message it reads whole
    /// (longer ones are answered with -32600 naming the limit): 256 KiB.
    pub rx_buffer: usize,
    /// Each awake session's transmit buffer at most: the longest message it writes (a longer
    /// answer is replaced by -32603): 128 KiB.
    pub tx_buffer: usize,
    /// Each awake session's store of sent and unsent SSE events (for resumption) at
    /// most, at least `tx_buffer`: 128 KiB.
    pub event_store: usize,
    /// Idle sessions kept awake (their endpoint and buffers built) for speed; the rest
    /// of the idle sessions are kept as 22-byte snapshots: 32.
    pub warm_sessions: usize,
    /// How long an idle session stays awake before it is put away: 5 s.
    pub warm_time: Duration,
    /// Signed session ids ([`SessionKey`]): a restarted server, or another replica
    /// with the same key, rebuilds a session from its id. `None`: random ids.
    pub session_key: Option<SessionKey>,
    /// 128 bits for session ids and event ids; `None` draws them from the OS.
    pub seed: Option<[u8; 16]>,
    /// Whether `MCP-Protocol-Version` must name the session's negotiated version (and be
    /// present from 2025-06-18), as [`check_session_version`](crate::http::server::check_session_version)
    /// decides: 400 otherwise. Off by default: the header is only required to name a
    /// version this server serves (400 otherwise), as the TypeScript SDK's server
    /// checks, because clients differ (the official conformance suite itself sends
    /// `2025-03-26` on requests of a 2025-11-25 session), and a session knows its version
    /// anyway.
    pub strict_protocol_version: bool,
    /// The tool arguments that travel in `Mcp-Param-*` headers too (the properties the
    /// tools' `inputSchema`s mark `x-mcp-header`): a 2026-07-28 `tools/call` whose
    /// headers disagree with them is refused with 400 and -32020
    /// ([`check_param_headers`](crate::http::server::check_param_headers)). Empty by
    /// default.
    pub param_headers: &'a [crate::http::server::ParamHeader<'a>],
    /// The application's token check, asked about every request to the MCP endpoint
    /// and the legacy paths (see [`Authorizer`]); its refusals are 401 or 403 with a
    /// `WWW-Authenticate: Bearer` challenge built from
    /// [`config.auth`](crate::http::server::ServerConfig::auth). `None`: every request
    /// is let in.
    pub authorize: Option<Authorizer<'a>>,
    /// The protected resource metadata document (RFC 9728, JSON: `resource`,
    /// `authorization_servers`, `scopes_supported`, …), served to `GET` at the path of
    /// [`config.auth.resource_metadata`](crate::http::server::AuthChallenge::resource_metadata)
    /// (the URL the challenges name) and at the well-known paths clients try without
    /// it: `/.well-known/oauth-protected-resource` followed by the MCP path, and the bare
    /// `/.well-known/oauth-protected-resource`. `None`: not served (404), for servers
    /// that publish it elsewhere.
    pub metadata_document: Option<&'a str>,
}

impl Default for ServerOptions<'_> {
    fn default() -> Self {
        ServerOptions {
            config: ServerConfig::new(),
            max_head: 16 * 1024,
            max_headers: 64,
            header_timeout: DEFAULT_HEADER_TIMEOUT,
            idle_connection: DEFAULT_IDLE_CONNECTION,
            write_timeout: DEFAULT_WRITE_TIMEOUT,
            max_connections: 4096,
            max_sessions: 16 * 1024,
            initial_buffer: 16 * 1024,
            rx_buffer: 256 * 1024,
            tx_buffer: 128 * 1024,
            event_store: 128 * 1024,
            warm_sessions: 32,
            warm_time: Duration::from_secs(5),
            session_key: None,
            seed: None,
            strict_protocol_version: false,
            param_headers: &[],
            authorize: None,
            metadata_document: None,
        }
    }
}

/// 128 bits from the OS: /dev/urandom where there is one, else the randomly keyed
/// hasher std seeds from the OS.
pub(crate) fn os_seed() -> [u8; 16] {
    let mut seed = [0u8; 16];
    if let Ok(mut f) = std::fs::File::open("/dev/urandom")
        && std::io::Read::read_exact(&mut f, &mut seed).is_ok()
    {
        return seed;
    }
    use std::hash::{BuildHasher, RandomState};
    let state = RandomState::new();
    seed[..8].copy_from_slice(&state.hash_one(1u8).to_le_bytes());
    seed[8..].copy_from_slice(&state.hash_one(2u8).to_le_bytes());
    seed
}
