//! The adapter's settings: timeouts and buffer sizes. The protocol's own settings (the
//! URL, reconnection, the standalone stream) are the core's [`ClientConfig`](crate::http::client::ClientConfig).

use std::time::Duration;

/// Settings of an [`HttpClientLoop`](super::HttpClientLoop). Build with
/// [`Options::new`] (the defaults) and the setters.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub(crate) connect_timeout: Duration,
    pub(crate) head_timeout: Duration,
    pub(crate) request_head_timeout: Option<Duration>,
    pub(crate) read_buffer: usize,
    pub(crate) close_linger: Duration,
    pub(crate) mailbox_capacity: usize,
    pub(crate) standalone_wait: Duration,
}

impl Options {
    /// Connect within 10 s, a response head within 30 s (none for a request's answer),
    /// 16 KiB read buffers, 2 s for the `DELETE` at close, 64 mailbox messages, at most
    /// 2 s holding the application for the standalone stream.
    pub const fn new() -> Self {
        Self {
            connect_timeout: Duration::from_secs(10),
            head_timeout: Duration::from_secs(30),
            request_head_timeout: None,
            read_buffer: 16 * 1024,
            close_linger: Duration::from_secs(2),
            mailbox_capacity: 64,
            standalone_wait: Duration::from_secs(2),
        }
    }

    /// How long a TCP connection may take to open (each address the host resolves to
    /// gets this long). Past it the exchange fails as a connection failure.
    pub const fn connect_timeout(mut self, t: Duration) -> Self {
        self.connect_timeout = t;
        self
    }

    /// How long after its request was written a response head may take, for the
    /// exchanges a server answers at once: notifications and responses POSTed (202),
    /// `GET` streams (the head comes before any event), the HTTP+SSE POSTs, `DELETE`.
    /// Past it the exchange fails as [`Failure::Timeout`](crate::http::client::Failure::Timeout).
    pub const fn head_timeout(mut self, t: Duration) -> Self {
        self.head_timeout = t;
        self
    }

    /// The same for a POSTed request. None by default: a server that answers with JSON
    /// sends the head only with the result, which may take as long as the tool runs;
    /// the session's own request timeout (`Config::request_timeouts`) bounds that wait
    /// and cancels the request, which aborts the exchange.
    pub const fn request_head_timeout(mut self, t: Option<Duration>) -> Self {
        self.request_head_timeout = t;
        self
    }

    /// Bytes each connection reads at most ahead of what the client core has taken (at
    /// least 1024). A response head must fit in it.
    pub const fn read_buffer(mut self, bytes: usize) -> Self {
        self.read_buffer = if bytes < 1024 { 1024 } else { bytes };
        self
    }

    /// How long [`run`](super::HttpClientLoop::run) waits, once the session has closed,
    /// for the `DELETE` that ends it on the server.
    pub const fn close_linger(mut self, t: Duration) -> Self {
        self.close_linger = t;
        self
    }

    /// How many messages the [`Mailbox`](super::Mailbox) holds before senders wait (at
    /// least 1).
    pub const fn mailbox_capacity(mut self, n: usize) -> Self {
        self.mailbox_capacity = if n == 0 { 1 } else { n };
        self
    }
}

impl Options {
    /// How long the application is held, once the handshake is done, while the
    /// standalone `GET` stream is being opened ([`HttpClient::standalone_opening`](crate::http::client::HttpClient::standalone_opening)):
    /// [`App::on_idle`](super::App::on_idle) and [`App::on_message`](super::App::on_message)
    /// are not called meanwhile, so the first requests go out once the server can reach
    /// the client. Servers that drop what they have for a stream nobody has opened (the
    /// TypeScript SDK does, for a request a tool sends without relating it to the call)
    /// would otherwise lose a `sampling/createMessage` or `elicitation/create` sent while
    /// the `GET` is on its way. Zero turns the wait off.
    pub const fn standalone_wait(mut self, t: Duration) -> Self {
        self.standalone_wait = t;
        self
    }
}

impl Default for Options {
    fn default() -> Self {
        Self::new()
    }
}
