//! [`HttpClientBuilder`] (feature `http`): a [`BlockingClient`] for a server at a URL.
//!
//! The endpoint runs in the crate's [`HttpClientLoop`] on the client's thread, over the
//! sans-IO [`HttpClient`] core: Streamable HTTP, falling back to HTTP+SSE for a server
//! that answers the `initialize` POST the way an old one does (the core decides; see
//! [`crate::http::client`]). Everything above the transport is the [`Session`] the stdio
//! client runs too, so calls, pages, progress, cancellation, timeouts and hooks behave
//! the same. A request the transport loses for good (a refusal, a stream that cannot be
//! resumed) fails with [`ClientError::Transport`](super::ClientError::Transport).

use std::io;
use std::string::{String, ToString};
use std::sync::mpsc::sync_channel;
use std::time::Duration;

use super::blocking::{BlockingClient, Ep, IN, Msg, OUT, Outbox, RX, Session, Started, TX};
use super::client::Client;
use super::hooks::Hooks;
use crate::adapters::http::client::{App, HttpClientLoop, Mailbox, Options, Outcome};
use crate::http::client::{ClientConfig, DEFAULT_TOKEN_CAPACITY, Event as TransportEvent, HttpClient};
use crate::mcp::{Implementation, VersionSet};
use crate::session::{Endpoint, Event, OutputMode};
use crate::time::Instant;

/// Exchanges the HTTP core runs at once: the standalone stream, requests' POSTs, and the
/// answers and notifications POSTed while they wait.
const EXCHANGES: usize = 8;
/// Bytes of the core's storage per exchange: the largest message one carries.
const EXCHANGE_BYTES: usize = 256 * 1024;

impl<H: Hooks> App<OUT, IN> for Session<H> {
    type Message = Msg;

    fn on_event(&mut self, event: Event<'_>, _: &Mailbox<Msg>) {
        Session::on_event(self, event);
    }

    fn on_message(&mut self, ep: &mut Ep<'_>, now: Instant, msg: Msg) {
        Session::on_message(self, ep, now, msg);
    }

    fn on_idle(&mut self, ep: &mut Ep<'_>, now: Instant) -> Option<Instant> {
        Session::on_idle(self, ep, now)
    }

    fn on_transport(&mut self, event: &TransportEvent<'_>) {
        // The session has cancelled the request already, and says nothing more of it.
        if let TransportEvent::Lost { request: Some(id), reason, .. } = event {
            self.lost(id, reason.to_string());
        }
    }
}

impl BlockingClient {
    /// Connects to the MCP server at `url` (`http://host[:port]/path`) and completes the
    /// handshake.
    pub fn connect(url: &str) -> io::Result<Self> {
        HttpClientBuilder::new(url).connect()
    }

    /// How to connect with hooks, another version set, another timeout, the adapter's
    /// options.
    pub fn http(url: &str) -> HttpClientBuilder {
        HttpClientBuilder::new(url)
    }
}

/// How a [`BlockingClient`] connects to a server over HTTP.
pub struct HttpClientBuilder<H = ()> {
    url: String,
    hooks: H,
    info: Implementation<'static>,
    versions: Option<VersionSet>,
    era: crate::session::Era,
    timeout: Option<Duration>,
    options: Options,
    bearer: Option<String>,
}

impl HttpClientBuilder {
    /// A client for the server at `url`.
    pub fn new(url: &str) -> Self {
        HttpClientBuilder {
            url: url.into(),
            hooks: (),
            info: Implementation::new("mcp-sansio-client", env!("CARGO_PKG_VERSION")),
            versions: None,
            // The handshake era unless asked: the HTTP client adapter falls back to
            // HTTP+SSE when `initialize` is refused (400, 404, 405), not when
            // `server/discover` is, so a stateless first try would lose the servers
            // of that transport.
            era: crate::session::Era::Legacy,
            timeout: None,
            options: Options::new(),
            bearer: None,
        }
    }
}

impl<H: Hooks + Send + 'static> HttpClientBuilder<H> {
    /// Answers the server's requests (sampling, elicitation, roots) with `hooks`.
    pub fn hooks<G: Hooks + Send + 'static>(self, hooks: G) -> HttpClientBuilder<G> {
        let HttpClientBuilder { url, info, versions, era, timeout, options, bearer, .. } = self;
        HttpClientBuilder { url, hooks, info, versions, era, timeout, options, bearer }
    }

    /// Who the client is (`clientInfo`).
    pub fn info(mut self, info: Implementation<'static>) -> Self {
        self.info = info;
        self
    }

    /// Offers only these protocol versions.
    pub fn versions(mut self, versions: VersionSet) -> Self {
        self.versions = Some(versions);
        self
    }

    /// Which era to speak: the handshake one by default (a server of the HTTP+SSE
    /// transport is found only by an `initialize` it refuses); `Era::Auto` asks
    /// `server/discover` first and falls back to `initialize` over Streamable HTTP.
    /// The hooks answer the server's questions in either (its requests, or the
    /// `input_required` results of a stateless server, answered and sent again).
    pub fn era(mut self, era: crate::session::Era) -> Self {
        self.era = era;
        self
    }

    /// How long a request may go without an answer (or progress) before it times out
    /// (60 s by default).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// The HTTP adapter's settings (connect and head timeouts, buffer sizes).
    pub fn options(mut self, options: Options) -> Self {
        self.options = options;
        self
    }

    /// Sends `Authorization: Bearer <token>` on every request (a token got beforehand:
    /// there is no OAuth flow here, and a server that refuses the token ends the
    /// connection attempt with an error).
    pub fn bearer_token(mut self, token: &str) -> Self {
        self.bearer = Some(token.into());
        self
    }

    /// Connects and completes the handshake. An `InvalidInput` error for a URL or a token
    /// the core refuses; the server's refusal or no connection is an error too.
    pub fn connect(self) -> io::Result<BlockingClient> {
        let event_loop: HttpClientLoop<Msg> = HttpClientLoop::new(self.options)?;
        let mailbox = event_loop.mailbox();
        let client = Client::new(self.hooks);
        let mut config = client.config(self.info).output(OutputMode::Messages).era(self.era);
        if let Some(versions) = self.versions {
            config = config.versions(versions);
        }
        if let Some(timeout) = self.timeout {
            config = config.request_timeouts(timeout, timeout.max(config.max_request_time));
        }
        let (url, bearer) = (self.url, self.bearer);
        let (ready, is_ready) = sync_channel(1);
        let thread = std::thread::Builder::new().name("mcp-client".into()).spawn(move || {
            let mut event_loop = event_loop;
            let (mut rx, mut tx) = (vec![0u8; RX], vec![0u8; TX]);
            let mut ep: Ep<'_> =
                Endpoint::new(config, &mut rx, &mut tx, event_loop.clock().now()).map_err(io::Error::other)?;
            let mut session = Session::new(client, ready);
            // Room for the token, however long.
            let room = bearer.as_ref().map_or(DEFAULT_TOKEN_CAPACITY, |t| t.len().max(DEFAULT_TOKEN_CAPACITY));
            let http_config = ClientConfig::new(&url).map_err(invalid)?.token_capacity(room);
            let mut storage = vec![0u8; http_config.storage_len(EXCHANGES, EXCHANGE_BYTES)];
            let mut http: HttpClient<'_, EXCHANGES> =
                HttpClient::new(http_config, &mut storage).map_err(|e| io::Error::other(format!("{e:?}")))?;
            if let Some(token) = &bearer {
                http.set_bearer_token(Some(token)).map_err(invalid)?;
            }
            match event_loop.run(&mut ep, &mut http, &mut session) {
                Ok(Outcome::Closed(_)) => session.end(None),
                Ok(Outcome::SessionExpired(expiry)) => session.end(Some(format!("the session expired: {expiry:?}"))),
                Ok(Outcome::Unreachable(reason)) => session.end(Some(reason.to_string())),
                Err(e) => {
                    session.end(Some(e.to_string()));
                    return Err(e);
                }
            }
            Ok(())
        })?;
        BlockingClient::start(Started {
            outbox: Outbox::Http(mailbox),
            thread,
            #[cfg(feature = "stdio")]
            child: None,
            ready: is_ready,
        })
    }
}

/// A mistake in what the caller gave (the URL, the token), as an `InvalidInput` error.
fn invalid(e: impl core::fmt::Debug) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, format!("{e:?}"))
}
