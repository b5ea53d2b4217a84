//! How the client connects: the URL, which transport, and the bounds on every retry.

use core::fmt;
use core::time::Duration;

use super::url::{Url, UrlError};
use crate::http::headers::SESSION_ID_MAX_LEN;

/// Which HTTP transport to speak.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum TransportMode {
    /// Streamable HTTP, falling back to HTTP+SSE (2024-11-05) when the `initialize` POST
    /// gets 400, 404 or 405, as the specification's backwards-compatibility section
    /// says. The default.
    Auto,
    /// Streamable HTTP only: a refused `initialize` is reported, never retried as HTTP+SSE.
    Streamable,
    /// HTTP+SSE only: `GET` the URL for the `endpoint` event at once.
    Legacy,
}

/// How a broken event stream is reconnected.
///
/// The wait before an attempt is the server's `retry` when it sent one (2025-11-25
/// servers do: the client MUST wait that long), else `initial`; each further attempt in
/// a row waits half as long again (x1.5, the TypeScript SDK's factor), up to `max` (or
/// the server's `retry`, if that is longer). An attempt that brings something new (a
/// message, or an event id not seen before) starts the count again; `max_attempts`
/// attempts in a row that bring nothing end the stream for good. That bound is what
/// keeps a server that answers every `GET` with an empty 200 from holding the client in
/// a reconnect loop forever (rmcp issue #958).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Reconnect {
    /// Wait before the first attempt when the server gave no `retry`.
    pub initial: Duration,
    /// The longest wait the backoff grows to.
    pub max: Duration,
    /// Attempts in a row that bring nothing new before the stream is given up.
    pub max_attempts: u8,
    /// The longest wait a server's `retry` is honoured up to. A server's `retry` longer
    /// than `max` is still honoured (it is the server's floor), but a broken or hostile
    /// one (`retry: 4294967295`, 49 days) must not park a stream and its request for weeks.
    pub longest_server_retry: Duration,
}

impl Reconnect {
    /// 1 s, growing to 30 s, 5 attempts; a server's `retry` honoured up to 10 minutes.
    pub const DEFAULT: Reconnect = Reconnect {
        initial: Duration::from_secs(1),
        max: Duration::from_secs(30),
        max_attempts: 5,
        longest_server_retry: Duration::from_secs(600),
    };

    /// Never reconnect: a broken stream is reported at once.
    pub const NEVER: Reconnect = Reconnect {
        initial: Duration::ZERO,
        max: Duration::ZERO,
        max_attempts: 0,
        longest_server_retry: Duration::ZERO,
    };
}

impl Default for Reconnect {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// The bytes of the storage buffer kept for the `endpoint` URL of an HTTP+SSE server by
/// default (the SDKs' are under 100).
pub const DEFAULT_ENDPOINT_URL_CAPACITY: usize = 512;

/// The bytes kept for the bearer token by default: a signed JWT with a few scopes.
pub const DEFAULT_TOKEN_CAPACITY: usize = 2048;

/// The smallest part of the storage buffer an exchange may get: it holds one outgoing
/// message, then one incoming message or event.
pub const MIN_SLOT: usize = 256;

/// The client's settings. Build with [`ClientConfig::new`] and the setters.
#[derive(Clone, Copy, Debug)]
pub struct ClientConfig<'a> {
    pub(crate) url: Url<'a>,
    pub(crate) mode: TransportMode,
    pub(crate) standalone_stream: bool,
    pub(crate) reconnect: Reconnect,
    pub(crate) max_auth_retries: u8,
    pub(crate) delete_on_close: bool,
    pub(crate) endpoint_url_capacity: usize,
    pub(crate) token_capacity: usize,
}

impl<'a> ClientConfig<'a> {
    /// Settings for the MCP endpoint at `url` (absolute, `http` or `https`), with the
    /// defaults: [`TransportMode::Auto`], the standalone `GET` stream opened after the
    /// handshake, [`Reconnect::DEFAULT`], 2 retries after a 401/403, `DELETE` on close.
    pub fn new(url: &'a str) -> Result<Self, UrlError> {
        Ok(Self {
            url: Url::parse(url)?,
            mode: TransportMode::Auto,
            standalone_stream: true,
            reconnect: Reconnect::DEFAULT,
            max_auth_retries: 2,
            delete_on_close: true,
            endpoint_url_capacity: DEFAULT_ENDPOINT_URL_CAPACITY,
            token_capacity: DEFAULT_TOKEN_CAPACITY,
        })
    }

    /// Which transport to speak.
    pub fn mode(mut self, mode: TransportMode) -> Self {
        self.mode = mode;
        self
    }

    /// Whether to open the standalone `GET` stream (server-initiated messages) after the
    /// handshake. Off, the server can only reach the client on POST response streams.
    pub fn standalone_stream(mut self, open: bool) -> Self {
        self.standalone_stream = open;
        self
    }

    /// How broken streams are reconnected.
    pub fn reconnect(mut self, reconnect: Reconnect) -> Self {
        self.reconnect = reconnect;
        self
    }

    /// How many times one exchange may be retried after a 401 or 403 (each retry after
    /// the application has had the chance to supply a new token). The conformance suite
    /// expects at most 3 authorization attempts in all; the default 2 retries keep to it.
    pub fn max_auth_retries(mut self, n: u8) -> Self {
        self.max_auth_retries = n;
        self
    }

    /// Whether [`close`](super::HttpClient::close) sends `DELETE` to end the session on
    /// the server (when there is a session id). On by default, as the specification
    /// asks (SHOULD).
    pub fn delete_on_close(mut self, delete: bool) -> Self {
        self.delete_on_close = delete;
        self
    }

    /// Bytes of storage kept for the HTTP+SSE `endpoint` URL (0 with
    /// [`TransportMode::Streamable`] saves them).
    pub fn endpoint_url_capacity(mut self, bytes: usize) -> Self {
        self.endpoint_url_capacity = bytes;
        self
    }

    /// Bytes of storage kept for the bearer token (0 when the server needs none).
    pub fn token_capacity(mut self, bytes: usize) -> Self {
        self.token_capacity = bytes;
        self
    }

    /// The MCP endpoint.
    pub fn url(&self) -> Url<'a> {
        self.url
    }

    /// The part of the storage buffer the client keeps for text (the session id, the
    /// endpoint URL and the `Bearer` header value); the rest is split between the
    /// exchanges.
    pub const fn text_len(&self) -> usize {
        SESSION_ID_MAX_LEN + self.endpoint_url_capacity + self.token_capacity + BEARER_PREFIX.len()
    }

    /// The storage buffer that gives each of `exchanges` exchanges `slot` bytes.
    pub const fn storage_len(&self, exchanges: usize, slot: usize) -> usize {
        self.text_len() + exchanges * slot
    }
}

/// What the `Authorization` value starts with.
pub(crate) const BEARER_PREFIX: &str = "Bearer ";

/// Why the client could not be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum ConfigError {
    /// Fewer than two exchanges: one must stay free for answers and notifications while
    /// a request's stream is open, or the client could deadlock on a server that asks
    /// something while it works.
    TooFewExchanges,
    /// The storage buffer is too small: each exchange needs [`MIN_SLOT`] bytes beside
    /// [`ClientConfig::text_len`].
    StorageTooSmall {
        /// Bytes needed.
        needed: usize,
    },
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooFewExchanges => f.write_str("the HTTP client needs at least two exchange slots"),
            Self::StorageTooSmall { needed } => write!(f, "storage buffer too small: need {needed} bytes"),
        }
    }
}

impl core::error::Error for ConfigError {}
