//! [`HttpClientBuilder`] (feature `http`): a [`BlockingClient`] for a server at a URL.
//!
//! The endpoint runs in the crate's [`HttpClientLoop`] on the client's thread, over the
//! sans-IO [`HttpClient`] core: Streamable HTTP, falling back to HTTP+SSE for a server
//! that answers the `initialize` POST the way an old one does (the core decides; see
//! [`crate::http::client`]). Both eras by default: the `server/discover` probe such a
//! server refuses (or leaves unanswered) makes the session send `initialize`, and that
//! refusal is the fallback's cue, so era detection finds the old transport too. Everything above the transport is the [`Session`] the stdio
//! client runs too, so calls, pages, progress, cancellation, timeouts and hooks behave
//! the same. A request the transport loses for good (a refusal, a stream that cannot be
//! resumed) fails with [`ClientError::Transport`](super::ClientError::Transport).

use std::io;
use std::string::{String, ToString};
use std::sync::mpsc::sync_channel;
use std::vec::Vec;

use super::blocking::{BlockingClient, Ep, IN, Msg, OUT, Outbox, RX, Session, Started, TX};
use super::builder::{ClientBuilder, Parts};
use super::hooks::Hooks;
use crate::adapters::http::client::{App, HttpClientLoop, Mailbox, Options, Outcome};
use crate::http::client::{ClientConfig, DEFAULT_TOKEN_CAPACITY, Event as TransportEvent, HttpClient, TransportMode};
use crate::http::headers::BearerParams;
use crate::session::{Endpoint, Era, Event, OutputMode};
use crate::time::Instant;

/// Exchanges the HTTP core runs at once: the standalone stream, requests' POSTs, and the
/// answers and notifications POSTed while they wait.
const EXCHANGES: usize = 8;
/// Bytes of the core's storage per exchange: the largest message one carries.
const EXCHANGE_BYTES: usize = 256 * 1024;

/// The session, and the application's credentials and headers, as the HTTP loop's
/// application.
struct OverHttp<H> {
    session: Session<H>,
    credentials: Option<Credentials>,
    headers: Option<RequestHeaders>,
}

impl<H: Hooks> App<OUT, IN> for OverHttp<H> {
    type Message = Msg;

    fn on_event(&mut self, event: Event<'_>, _: &Mailbox<Msg>) {
        self.session.on_event(event);
    }

    fn on_message(&mut self, ep: &mut Ep<'_>, now: Instant, msg: Msg) {
        self.session.on_message(ep, now, msg);
    }

    fn on_idle(&mut self, ep: &mut Ep<'_>, now: Instant) -> Option<Instant> {
        self.session.on_idle(ep, now)
    }

    fn on_transport(&mut self, event: &TransportEvent<'_>) {
        // The session has cancelled the request already, and says nothing more of it.
        if let TransportEvent::Lost { request: Some(id), reason, .. } = event {
            self.session.lost(id, reason.to_string());
        }
    }

    fn credentials(&mut self, status: u16, challenge: Option<&BearerParams<'_>>) -> Option<String> {
        self.credentials.as_mut().and_then(|get| get(status, challenge))
    }

    fn request_headers(&mut self, body: &[u8], headers: &mut Vec<(String, String)>) {
        if let Some(add) = self.headers.as_mut() {
            add(body, headers);
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

/// Called on the client's loop thread when the server answers 401 or 403: the status
/// and its Bearer challenge, if any; the token to send from then on, or `None` to give
/// up (see [`HttpClientBuilder::credentials`]).
type Credentials = Box<dyn FnMut(u16, Option<&BearerParams<'_>>) -> Option<String> + Send>;
/// Adds headers to a POST carrying a message (see [`HttpClientBuilder::request_headers`]).
type RequestHeaders = Box<dyn FnMut(&[u8], &mut Vec<(String, String)>) + Send>;

/// What a [`BlockingClient`] over HTTP connects to: the URL, the adapter's options,
/// and how it authorizes and decorates its requests.
pub struct HttpTarget {
    url: String,
    options: Options,
    mode: TransportMode,
    bearer: Option<String>,
    credentials: Option<Credentials>,
    headers: Option<RequestHeaders>,
}

/// How a [`BlockingClient`] connects to a server over HTTP: the shared settings of
/// [`ClientBuilder`] (hooks, info, versions, era, timeout) and the methods below.
pub type HttpClientBuilder<H = ()> = ClientBuilder<HttpTarget, H>;

impl ClientBuilder<HttpTarget> {
    /// A client for the server at `url`.
    pub fn new(url: &str) -> Self {
        ClientBuilder::with_target(HttpTarget {
            url: url.into(),
            options: Options::new(),
            mode: TransportMode::Auto,
            bearer: None,
            credentials: None,
            headers: None,
        })
    }
}

impl<H: Hooks + Send + 'static> ClientBuilder<HttpTarget, H> {
    /// The HTTP adapter's settings (connect and head timeouts, buffer sizes).
    pub fn options(mut self, options: Options) -> Self {
        self.target.options = options;
        self
    }

    /// Which HTTP transport: Streamable HTTP falling back to HTTP+SSE (the default),
    /// Streamable HTTP only, or HTTP+SSE only (see [`TransportMode`]; HTTP+SSE carries
    /// the handshake era only, so the client speaks that era over it).
    pub fn transport(mut self, mode: TransportMode) -> Self {
        self.target.mode = mode;
        self
    }

    /// Sends `Authorization: Bearer <token>` on every request (a token got
    /// beforehand). A server that refuses it asks [`credentials`](Self::credentials)
    /// for another, or, without them, ends the connection attempt with an error.
    pub fn bearer_token(mut self, token: &str) -> Self {
        self.target.bearer = Some(token.into());
        self
    }

    /// Where a token comes from when the server answers 401, or 403 with a Bearer
    /// challenge (`insufficient_scope`, say): `get` is given the status and the
    /// challenge (its `resource_metadata`, `scope`, `error`) and returns the token to
    /// send from then on, after an OAuth flow perhaps, or `None` to give up on the
    /// request (the connection attempt fails, or the call with
    /// [`ClientError::Transport`](super::ClientError::Transport)). The request is sent
    /// again with the token; the adapter's retries per request are bounded
    /// ([`ClientConfig`]'s `max_auth_retries`). It runs on the client's loop thread,
    /// which waits meanwhile: nothing else can go before the token anyway.
    pub fn credentials(
        mut self,
        get: impl FnMut(u16, Option<&BearerParams<'_>>) -> Option<String> + Send + 'static,
    ) -> Self {
        self.target.credentials = Some(Box::new(get));
        self
    }

    /// Headers of the application's own for each POST: `add` is given the body (one
    /// JSON-RPC message) and pushes `(name, value)` pairs after the ones the transport
    /// writes. This is where a 2026-07-28 client mirrors a `tools/call`'s arguments as
    /// `Mcp-Param-{Name}` headers (only the application holds the listed tools'
    /// `inputSchema`s; see [`App::request_headers`] for the rules a header must keep).
    pub fn request_headers(mut self, add: impl FnMut(&[u8], &mut Vec<(String, String)>) + Send + 'static) -> Self {
        self.target.headers = Some(Box::new(add));
        self
    }

    /// Connects and completes the handshake. An `InvalidInput` error for a URL or a token
    /// the core refuses; the server's refusal or no connection is an error too.
    pub fn connect(self) -> io::Result<BlockingClient> {
        let Parts { target, client, config, listeners } = self.into_parts();
        let HttpTarget { url, options, mode, bearer, credentials, headers } = target;
        let event_loop: HttpClientLoop<Msg> = HttpClientLoop::new(options)?;
        let mailbox = event_loop.mailbox();
        let mut config = config.output(OutputMode::Messages);
        if mode == TransportMode::Legacy {
            // HTTP+SSE carries the handshake era only (it has no `server/discover`).
            config = config.era(Era::Legacy);
        }
        let (ready, is_ready) = sync_channel(1);
        let thread = std::thread::Builder::new().name("mcp-client".into()).spawn(move || {
            let mut event_loop = event_loop;
            let (mut rx, mut tx) = (vec![0u8; RX], vec![0u8; TX]);
            let mut ep: Ep<'_> =
                Endpoint::new(config, &mut rx, &mut tx, event_loop.clock().now()).map_err(io::Error::other)?;
            let mut session = OverHttp { session: Session::new(client, ready, listeners), credentials, headers };
            // Room for the token, however long.
            let room = bearer.as_ref().map_or(DEFAULT_TOKEN_CAPACITY, |t| t.len().max(DEFAULT_TOKEN_CAPACITY));
            let http_config = ClientConfig::new(&url).map_err(invalid)?.token_capacity(room).mode(mode);
            let mut storage = vec![0u8; http_config.storage_len(EXCHANGES, EXCHANGE_BYTES)];
            let mut http: HttpClient<'_, EXCHANGES> =
                HttpClient::new(http_config, &mut storage).map_err(|e| io::Error::other(format!("{e:?}")))?;
            if let Some(token) = &bearer {
                http.set_bearer_token(Some(token)).map_err(invalid)?;
            }
            let ended = event_loop.run(&mut ep, &mut http, &mut session);
            let session = &mut session.session;
            match ended {
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
            #[cfg(feature = "stdio")]
            raw: None,
            ready: is_ready,
        })
    }
}

/// A mistake in what the caller gave (the URL, the token), as an `InvalidInput` error.
fn invalid(e: impl core::fmt::Debug) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, format!("{e:?}"))
}
