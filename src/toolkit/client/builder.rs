//! [`ClientBuilder`]: what a [`BlockingClient`](super::BlockingClient) is set up with,
//! whichever the transport: hooks, `clientInfo`, versions, era, request timeout. The
//! transport's own settings are its `T` ([`StdioTarget`](super::StdioTarget): the
//! command and its stderr; [`HttpTarget`](super::HttpTarget): the URL, the adapter's
//! options, credentials and headers), set by the methods of
//! [`StdioClientBuilder`](super::StdioClientBuilder) and
//! [`HttpClientBuilder`](super::HttpClientBuilder), so each setting is written once.

use std::time::Duration;

use super::blocking::Listeners;
use super::client::Client;
use super::hooks::Hooks;
use crate::mcp::{Implementation, VersionSet};
use crate::session::{Config, Era, IncomingNotification, Misbehavior};

/// How a [`BlockingClient`](super::BlockingClient) connects: the settings every
/// transport shares, and the transport's own (`T`). Made by
/// [`BlockingClient::builder`](super::BlockingClient::builder) (stdio) or
/// [`BlockingClient::http`](super::BlockingClient::http).
#[must_use = "a builder does nothing until it spawns or connects"]
pub struct ClientBuilder<T, H = ()> {
    pub(super) target: T,
    hooks: H,
    info: Implementation<'static>,
    versions: Option<VersionSet>,
    era: Era,
    timeout: Option<Duration>,
    listeners: Listeners,
}

/// What [`ClientBuilder::into_parts`] hands the transport.
pub(super) struct Parts<T, H> {
    pub target: T,
    pub client: Client<H>,
    pub config: Config<'static>,
    pub listeners: Listeners,
}

impl<T> ClientBuilder<T> {
    /// A client for `target`, with no hooks, both eras and the default timeout.
    pub(super) fn with_target(target: T) -> Self {
        ClientBuilder {
            target,
            hooks: (),
            info: Implementation::new("mcp-sansio-client", env!("CARGO_PKG_VERSION")),
            versions: None,
            era: Era::Auto,
            timeout: None,
            listeners: Listeners::default(),
        }
    }
}

impl<T, H: Hooks + Send + 'static> ClientBuilder<T, H> {
    /// Answers the server's requests (sampling, elicitation, roots) with `hooks`.
    pub fn hooks<G: Hooks + Send + 'static>(self, hooks: G) -> ClientBuilder<T, G> {
        let ClientBuilder { target, info, versions, era, timeout, listeners, .. } = self;
        ClientBuilder { target, hooks, info, versions, era, timeout, listeners }
    }

    /// Who the client is (`clientInfo`).
    pub fn info(mut self, info: Implementation<'static>) -> Self {
        self.info = info;
        self
    }

    /// Offers only these protocol versions (their eras are the ones spoken:
    /// `VersionSet::only(v)` stays in `v`'s era, whatever [`era`](Self::era) says).
    pub fn versions(mut self, versions: VersionSet) -> Self {
        self.versions = Some(versions);
        self
    }

    /// Which era to speak: both by default (the server is asked `server/discover`
    /// first and one of the handshake era falls back to `initialize`; over HTTP a
    /// server of the HTTP+SSE transport is found that way too). The hooks answer the
    /// server's questions in either (its requests, or the `input_required` results of
    /// a stateless server, answered and sent again).
    pub fn era(mut self, era: Era) -> Self {
        self.era = era;
        self
    }

    /// How long a request may go without an answer (or progress) before it times out
    /// (60 s by default).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// Hears the server's notifications (log messages, list and resource changes,
    /// anything but a call's progress, which goes to the call's own callback): `on`
    /// runs on the client's loop thread, so it should be quick. A 2026-07-28
    /// notification that came on a listen stream says so in its `subscription`.
    pub fn notifications(mut self, on: impl FnMut(&IncomingNotification<'_>) + Send + 'static) -> Self {
        self.listeners.notification = Some(Box::new(on));
        self
    }

    /// Hears the rules the server broke ([`Misbehavior`]: a frame that is not
    /// JSON-RPC, an error answer without an id (the server could not read one of
    /// ours), an answer to a request already cancelled or timed out, progress for none
    /// of ours, ...): the session has dealt with each already (dropped, answered,
    /// refused); this is for a log. Runs on the client's loop thread.
    pub fn misbehavior(mut self, on: impl FnMut(&Misbehavior<'_>) + Send + 'static) -> Self {
        self.listeners.misbehavior = Some(Box::new(on));
        self
    }

    /// The transport's settings, the client with its hooks, the endpoint's
    /// configuration made of the rest, and the listeners.
    pub(super) fn into_parts(self) -> Parts<T, H> {
        let client = Client::new(self.hooks);
        let mut config = client.config(self.info).era(self.era);
        if let Some(versions) = self.versions {
            config = config.versions(versions);
        }
        if let Some(timeout) = self.timeout {
            config = config.request_timeouts(timeout, timeout.max(config.max_request_time));
        }
        Parts { target: self.target, client, config, listeners: self.listeners }
    }
}
