//! The client loop: one thread runs an [`Endpoint`] and an [`HttpClient`] (through a
//! [`Link`]) over real sockets; see the [module docs](super).

use std::io;
use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::Arc;
use std::time::Duration;

use mio::{Events, Poll, Token, Waker};

use super::conn::{Conn, Phase, Timeouts, Turn};
use super::h1::request::{self, Target};
use super::mailbox::{Mailbox, Shared};
use super::options::Options;
use crate::http::client::{
    Event as TransportEvent, ExchangeId, ExchangeKind, Expiry, Failure, HttpClient, HttpMethod, HttpRequest, Link,
    LostReason, SendError, Step,
};
use crate::http::headers::{BearerParams, Host, HostPort};
use crate::session::{CloseReason, Endpoint, Event, State};
use crate::time::{Clock, Instant};
use crate::wire::{Frame, Message, ParseOptions};

/// The token of the mailbox's waker; connections use their slot's index.
const WAKER: Token = Token(usize::MAX);

/// The application side of an [`HttpClientLoop`]: the session's events, the
/// transport's, and the moments to act.
pub trait App<const OUT: usize, const IN: usize> {
    /// Messages from other threads.
    type Message: Send + 'static;

    /// An event of the session: a response, progress, a request of the server's
    /// (answer it through its handle, here or later from
    /// [`on_message`](Self::on_message)), the end of the session.
    fn on_event(&mut self, event: Event<'_>, mailbox: &Mailbox<Self::Message>);

    /// A message from another thread, with the endpoint to act on.
    fn on_message(&mut self, endpoint: &mut Endpoint<'_, OUT, IN>, now: Instant, message: Self::Message) {
        let _ = (endpoint, now, message);
    }

    /// Called whenever the loop is about to wait: the place to send the next request.
    /// Returns a deadline of the application's own, if any.
    fn on_idle(&mut self, endpoint: &mut Endpoint<'_, OUT, IN>, now: Instant) -> Option<Instant> {
        let _ = (endpoint, now);
        None
    }

    /// Every event of the transport: connected, fell back to HTTP+SSE, reconnecting,
    /// the server's misbehaviour, and [`Lost`](TransportEvent::Lost): a request whose
    /// exchange failed for good (refused, unauthorized, a stream that could not be
    /// resumed). The session has cancelled such a request already, so no session event
    /// follows for it: fail it here. The loop acts on the rest itself (see
    /// [`credentials`](Self::credentials) and [`Outcome`]).
    fn on_transport(&mut self, event: &TransportEvent<'_>) {
        let _ = event;
    }

    /// The server answered 401 or 403 (`status`) with this Bearer challenge (if it sent
    /// one): a token to send from now on (after an OAuth flow, say), or `None` to give
    /// up on the exchange. The default gives up, so a server that wants credentials the
    /// application has not got ends the session at once instead of hanging.
    fn credentials(&mut self, status: u16, challenge: Option<&BearerParams<'_>>) -> Option<String> {
        let _ = (status, challenge);
        None
    }

    /// Headers of the application's own to add to a POST carrying `body` (one JSON-RPC
    /// message), after the ones the transport requires. This is where a client of
    /// 2026-07-28 puts the `Mcp-Param-{Name}` headers of a `tools/call`: only the
    /// application holds the tools' `inputSchema`s that say which arguments are
    /// mirrored (`x-mcp-header`; see [`check_param_annotations`], [`param_annotations`]
    /// and [`encode_param_value`]). Names must be RFC 9110 tokens and values visible
    /// ASCII (spaces and tabs allowed), or the exchange fails as a broken connection;
    /// do not repeat a header the transport writes. The default adds none.
    ///
    /// [`check_param_annotations`]: crate::http::headers::check_param_annotations
    /// [`param_annotations`]: crate::http::headers::param_annotations
    /// [`encode_param_value`]: crate::http::headers::encode_param_value
    fn request_headers(&mut self, body: &[u8], headers: &mut Vec<(String, String)>) {
        let _ = (body, headers);
    }

    /// A message of the session's could not go over HTTP (larger than an exchange's
    /// storage, say); a request among them was failed in the session.
    fn on_unsent(&mut self, error: SendError) {
        let _ = error;
    }
}

/// Why [`HttpClientLoop::run`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Outcome {
    /// The session ended (and the `DELETE` was answered, failed, or took longer than
    /// [`Options::close_linger`]).
    Closed(CloseReason),
    /// The server forgot the session (404) or the HTTP+SSE stream ended: make a new
    /// endpoint (its `initialize` starts a new session) and run again with the same
    /// [`HttpClient`].
    SessionExpired(Expiry),
    /// `initialize` could not be delivered or answered over HTTP: no connection, a
    /// refusal, credentials the application did not supply, no HTTP+SSE endpoint. The
    /// endpoint is still waiting for its answer; drop it.
    Unreachable(LostReason),
}

/// Runs an MCP client session over HTTP; see the [module docs](super).
pub struct HttpClientLoop<M> {
    poll: Poll,
    events: Events,
    shared: Arc<Shared<M>>,
    clock: Clock,
    options: Options,
    /// One connection per exchange slot of the client core, kept alive between exchanges.
    conns: Vec<Option<Conn>>,
    /// Buffers of closed connections, for the next ones.
    spare: Vec<(Vec<u8>, Vec<u8>)>,
    /// Addresses by authority, resolved once.
    resolved: Vec<(String, Vec<SocketAddr>)>,
}

/// Holding the application while the standalone stream opens (see
/// [`Options::standalone_wait`]): once, after the handshake.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Gate {
    /// The stream has not started opening.
    Unseen,
    /// Holding until the stream answers, or `until`.
    Holding { until: Instant },
    /// Never again.
    Open,
}

impl Gate {
    /// Whether the application is held now.
    fn holds<const X: usize>(&mut self, http: &HttpClient<'_, X>, now: Instant, wait: Duration) -> bool {
        let opening = http.standalone_opening();
        *self = match *self {
            Gate::Unseen if opening && !wait.is_zero() => Gate::Holding { until: now + wait },
            Gate::Holding { until } if !opening || now >= until => Gate::Open,
            other => other,
        };
        matches!(self, Gate::Holding { .. })
    }
}

/// What one run carries between its steps.
struct RunState {
    link: Link,
    link_deadline: Option<Instant>,
    closed: Option<CloseReason>,
    outcome: Option<Outcome>,
    fatal: Option<io::Error>,
}

/// What a drained step asks of the loop once its borrows have ended.
enum Action {
    None,
    Start(ExchangeId, Result<Prepared, io::Error>),
    Abort(ExchangeId),
    Auth(ExchangeId, Option<String>),
    Expired(Expiry),
    Lost(LostReason),
}

/// A request written out, ready for a connection.
struct Prepared {
    authority: String,
    scheme_https: bool,
    bytes: Vec<u8>,
    head: Option<Duration>,
}

impl<M: Send + 'static> HttpClientLoop<M> {
    /// A loop with `options`.
    pub fn new(options: Options) -> io::Result<Self> {
        let poll = Poll::new()?;
        let waker = Waker::new(poll.registry(), WAKER)?;
        Ok(Self {
            poll,
            events: Events::with_capacity(64),
            shared: Arc::new(Shared::new(waker, options.mailbox_capacity)),
            clock: Clock::new(),
            options,
            conns: Vec::new(),
            spare: Vec::new(),
            resolved: Vec::new(),
        })
    }

    /// A mailbox for other threads (messages are taken while [`run`](Self::run) runs).
    pub fn mailbox(&self) -> Mailbox<M> {
        Mailbox(Arc::clone(&self.shared))
    }

    /// The loop's clock: create the endpoint with its time.
    pub fn clock(&self) -> Clock {
        self.clock
    }

    /// Runs the session until it ends, expires, or cannot reach the server; see
    /// [`Outcome`]. `endpoint` is a client endpoint in message mode
    /// (`OutputMode::Messages`) created with [`clock`](Self::clock)'s time; `http` the
    /// client core for the server's URL. `Err` for an IO error of the loop itself (the
    /// poll), or a URL this adapter cannot serve (`https`: see the module docs);
    /// connection failures are the transport's events, not errors.
    pub fn run<A, const OUT: usize, const IN: usize, const X: usize>(
        &mut self,
        endpoint: &mut Endpoint<'_, OUT, IN>,
        http: &mut HttpClient<'_, X>,
        app: &mut A,
    ) -> io::Result<Outcome>
    where
        A: App<OUT, IN, Message = M>,
    {
        if self.conns.len() != X {
            self.drop_all();
            self.conns.resize_with(X, || None);
        }
        self.shared.start();
        let mut st = RunState { link: Link::new(), link_deadline: None, closed: None, outcome: None, fatal: None };
        let result = self.drive(&mut st, endpoint, http, app);
        self.shared.stop();
        result
    }

    fn drive<A, const OUT: usize, const IN: usize, const X: usize>(
        &mut self,
        st: &mut RunState,
        endpoint: &mut Endpoint<'_, OUT, IN>,
        http: &mut HttpClient<'_, X>,
        app: &mut A,
    ) -> io::Result<Outcome>
    where
        A: App<OUT, IN, Message = M>,
    {
        let mailbox = self.mailbox();
        let mut app_deadline: Option<Instant> = None;
        let mut linger: Option<Instant> = None;
        let mut gate = Gate::Unseen;
        let wait = self.options.standalone_wait;
        loop {
            // 1. Everything as far as it goes: connections fed to the core, the core
            //    drained, the application's next steps, until nothing moves.
            let now = self.clock.now();
            loop {
                let mut moved = self.pump(now, st, endpoint, http, app, &mailbox);
                if st.outcome.is_some() || st.fatal.is_some() {
                    break;
                }
                if gate.holds(http, now, wait) {
                    break;
                }
                app_deadline = app.on_idle(endpoint, now);
                moved |= self.drain(now, st, endpoint, http, app, &mailbox);
                if !moved {
                    break;
                }
            }
            if let Some(e) = st.fatal.take() {
                return Err(e);
            }
            if let Some(outcome) = st.outcome.take() {
                return Ok(outcome);
            }
            // 2. The end: the session closed, and its DELETE is done (or took too long).
            if endpoint.is_closed() {
                let reason = st.closed.unwrap_or(CloseReason::LocalClose);
                let until = *linger.get_or_insert(now + self.options.close_linger);
                if http.is_closed() || now >= until {
                    return Ok(Outcome::Closed(reason));
                }
            }
            // 3. A message from another thread, one per turn (not while the application
            //    is held for the standalone stream).
            let held = gate.holds(http, now, wait);
            if self.shared.pending() && !held {
                if let Some(message) = self.shared.take() {
                    app.on_message(endpoint, now, message);
                }
                continue;
            }
            // 4. Wait for the sockets, the mailbox, or the earliest deadline.
            let conn_deadline = self.conns.iter().flatten().filter_map(|c| c.deadline).min();
            let gate_deadline = match gate {
                Gate::Holding { until } => Some(until),
                _ => None,
            };
            let closing = linger.filter(|_| endpoint.is_closed());
            let deadline =
                [st.link_deadline, app_deadline, conn_deadline, closing, gate_deadline].into_iter().flatten().min();
            let timeout = deadline.map(|at| at.saturating_duration_since(now));
            match self.poll.poll(&mut self.events, timeout) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
            for event in self.events.iter() {
                let Some(Some(conn)) = self.conns.get_mut(event.token().0) else { continue };
                conn.ready(
                    event.is_readable() || event.is_read_closed() || event.is_error(),
                    event.is_writable() || event.is_write_closed() || event.is_error(),
                );
            }
            // 5. Deadlines.
            let now = self.clock.now();
            for i in 0..self.conns.len() {
                let Some(conn) = self.conns[i].as_mut() else { continue };
                let turn = conn.expire(now, http, self.poll.registry());
                self.after(i, turn, now, st, endpoint, http, app, &mailbox);
            }
            if st.link_deadline.is_some_and(|at| at <= now) {
                st.link.handle_timeout(now, endpoint, http);
            }
        }
    }

    /// Steps every connection until none moves, draining after each input to the core.
    /// Returns whether anything happened.
    #[allow(clippy::too_many_arguments)]
    fn pump<A, const OUT: usize, const IN: usize, const X: usize>(
        &mut self,
        now: Instant,
        st: &mut RunState,
        endpoint: &mut Endpoint<'_, OUT, IN>,
        http: &mut HttpClient<'_, X>,
        app: &mut A,
        mailbox: &Mailbox<M>,
    ) -> bool
    where
        A: App<OUT, IN, Message = M>,
    {
        let mut happened = self.drain(now, st, endpoint, http, app, mailbox);
        loop {
            let mut progress = false;
            for i in 0..self.conns.len() {
                loop {
                    if st.outcome.is_some() || st.fatal.is_some() {
                        return true;
                    }
                    let Some(conn) = self.conns[i].as_mut() else { break };
                    let turn = conn.step(now, http, self.poll.registry());
                    if turn == Turn::Wait {
                        break;
                    }
                    progress = true;
                    self.after(i, turn, now, st, endpoint, http, app, mailbox);
                }
            }
            if !progress {
                return happened;
            }
            happened = true;
        }
    }

    /// Acts on what a connection's step did: drops it, drains the core.
    #[allow(clippy::too_many_arguments)]
    fn after<A, const OUT: usize, const IN: usize, const X: usize>(
        &mut self,
        i: usize,
        turn: Turn,
        now: Instant,
        st: &mut RunState,
        endpoint: &mut Endpoint<'_, OUT, IN>,
        http: &mut HttpClient<'_, X>,
        app: &mut A,
        mailbox: &Mailbox<M>,
    ) where
        A: App<OUT, IN, Message = M>,
    {
        match turn {
            Turn::Wait | Turn::Moved => {}
            Turn::Fed => {
                self.drain(now, st, endpoint, http, app, mailbox);
            }
            Turn::Drop { fed } => {
                self.close(i);
                if fed {
                    self.drain(now, st, endpoint, http, app, mailbox);
                }
            }
        }
    }

    /// Polls the link until it is idle, acting on every step. Returns whether anything
    /// happened.
    fn drain<A, const OUT: usize, const IN: usize, const X: usize>(
        &mut self,
        now: Instant,
        st: &mut RunState,
        endpoint: &mut Endpoint<'_, OUT, IN>,
        http: &mut HttpClient<'_, X>,
        app: &mut A,
        mailbox: &Mailbox<M>,
    ) -> bool
    where
        A: App<OUT, IN, Message = M>,
    {
        let mut happened = false;
        while st.outcome.is_none() && st.fatal.is_none() {
            // Whether `initialize` was already out before this step: a lost
            // `server/discover` probe (a handshake-era server refusing a POST without a
            // session) makes the session fall back to `initialize` in the same step, and
            // that is no reason to give up.
            let initializing = endpoint.state() == State::AwaitingInitializeResult;
            let action = match st.link.poll(now, endpoint, http) {
                Step::Idle { next_timeout } => {
                    st.link_deadline = next_timeout;
                    return happened;
                }
                Step::Request(req) => {
                    let mut extra = Vec::new();
                    if req.method == HttpMethod::Post {
                        app.request_headers(req.body, &mut extra);
                    }
                    Action::Start(req.exchange, self.prepare(&req, &extra))
                }
                Step::Abort(exchange) => Action::Abort(exchange),
                Step::Session(event) => {
                    if let Event::Closed { reason } = event {
                        st.closed = Some(reason);
                    }
                    app.on_event(event, mailbox);
                    Action::None
                }
                Step::Transport(event) => {
                    app.on_transport(&event);
                    match event {
                        TransportEvent::AuthRequired { exchange, status, bearer, .. } => {
                            Action::Auth(exchange, app.credentials(status, bearer.as_ref()))
                        }
                        TransportEvent::SessionExpired { reason } => Action::Expired(reason),
                        TransportEvent::Lost { request: Some(_), reason, .. } => Action::Lost(reason),
                        _ => Action::None,
                    }
                }
                Step::Unsent(error) => {
                    app.on_unsent(error);
                    Action::None
                }
            };
            happened = true;
            match action {
                Action::None => {}
                Action::Start(exchange, Ok(prepared)) => self.start(now, exchange, prepared, http, st),
                Action::Start(exchange, Err(e)) => failed_start(now, exchange, e, Failure::Broken, http, st),
                Action::Abort(exchange) => {
                    let slot = exchange.slot();
                    if let Some(Some(conn)) = self.conns.get(slot)
                        && conn.exchange == exchange
                        && conn.phase != Phase::Idle
                    {
                        self.close(slot);
                    }
                }
                Action::Auth(exchange, token) => {
                    let set = token.as_deref().is_some_and(|t| http.set_bearer_token(Some(t)).is_ok());
                    if !set || http.retry(exchange).is_err() {
                        let _ = http.give_up(exchange);
                    }
                }
                Action::Expired(reason) => st.outcome = Some(Outcome::SessionExpired(reason)),
                Action::Lost(reason) => {
                    // Without `initialize` there is no session to wait for.
                    if initializing && endpoint.state() == State::AwaitingInitializeResult {
                        st.outcome = Some(Outcome::Unreachable(reason));
                    }
                }
            }
        }
        true
    }

    /// Writes a request out for its connection.
    fn prepare(&self, req: &HttpRequest<'_>, extra: &[(String, String)]) -> io::Result<Prepared> {
        let target = Target::of(req.url).map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "bad URL"))?;
        let scheme_https = target.scheme.eq_ignore_ascii_case("https");
        if scheme_https {
            return Err(io::Error::new(
                io::ErrorKind::Unsupported,
                "https URLs are not supported by this adapter (plain HTTP/1.1 only; put a TLS-terminating proxy in front)",
            ));
        }
        let mut bytes = Vec::with_capacity(512 + req.body.len());
        request::write(&mut bytes, req, extra)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "bad header"))?;
        let head = match req.kind {
            ExchangeKind::Post if is_request(req.body) => self.options.request_head_timeout,
            _ => Some(self.options.head_timeout),
        };
        Ok(Prepared { authority: target.authority.to_string(), scheme_https, bytes, head })
    }

    /// Puts a request on its slot's connection: the one kept alive, or a new one.
    fn start<const X: usize>(
        &mut self,
        now: Instant,
        exchange: ExchangeId,
        p: Prepared,
        http: &mut HttpClient<'_, X>,
        st: &mut RunState,
    ) {
        let slot = exchange.slot();
        let timeouts = Timeouts { connect: self.options.connect_timeout, head: p.head };
        if let Some(Some(conn)) = self.conns.get_mut(slot)
            && conn.can_carry(&p.authority)
        {
            conn.reuse(exchange, p.bytes, timeouts, now);
            return;
        }
        self.close(slot);
        let addrs = match self.resolve(&p.authority, p.scheme_https) {
            Ok(addrs) => addrs,
            Err(e) => return failed_start(now, exchange, e, Failure::Connect, http, st),
        };
        let (_, buf) = self.spare.pop().unwrap_or_default();
        let buf = if buf.len() == self.options.read_buffer { buf } else { vec![0; self.options.read_buffer] };
        let registry = self.poll.registry();
        match Conn::open(registry, Token(slot), addrs, p.authority, exchange, p.bytes, buf, timeouts, now) {
            Ok(conn) => self.conns[slot] = Some(conn),
            Err(e) => failed_start(now, exchange, e, Failure::Connect, http, st),
        }
    }

    /// The addresses of `authority` (`host[:port]`), resolved once and kept: every URL
    /// a session uses has the same origin (the core refuses an HTTP+SSE endpoint on
    /// another). A name is resolved by the system's resolver, blocking the loop the
    /// first time only.
    fn resolve(&mut self, authority: &str, https: bool) -> io::Result<Vec<SocketAddr>> {
        if let Some((_, addrs)) = self.resolved.iter().find(|(a, _)| a.eq_ignore_ascii_case(authority)) {
            return Ok(addrs.clone());
        }
        let hp = HostPort::parse(authority.as_bytes())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "bad authority"))?;
        let port = hp.port.unwrap_or(if https { 443 } else { 80 });
        let addrs: Vec<SocketAddr> = match hp.host {
            Host::Ipv4(ip) => vec![SocketAddr::from((ip, port))],
            Host::Ipv6(ip) => vec![SocketAddr::from((ip, port))],
            Host::Name(name) => (name, port).to_socket_addrs()?.collect(),
        };
        if addrs.is_empty() {
            return Err(io::Error::new(io::ErrorKind::NotFound, "the host resolved to no address"));
        }
        self.resolved.push((authority.to_string(), addrs.clone()));
        Ok(addrs)
    }

    /// Drops slot `i`'s connection, keeping its buffers for the next one.
    fn close(&mut self, i: usize) {
        if let Some(conn) = self.conns.get_mut(i).and_then(Option::take) {
            let buffers = conn.into_buffers(self.poll.registry());
            if self.spare.len() < 4 {
                self.spare.push(buffers);
            }
        }
    }

    fn drop_all(&mut self) {
        for i in 0..self.conns.len() {
            self.close(i);
        }
    }
}

impl<M> Drop for HttpClientLoop<M> {
    fn drop(&mut self) {
        self.shared.stop();
    }
}

/// An exchange that could not start (`e`): an error the loop cannot go on after (an
/// `https` URL this adapter cannot serve, memory it could not get) ends the run; any
/// other fails only the exchange, as `failure`, and the core decides what follows
/// (a reconnection, a lost request).
fn failed_start<const X: usize>(
    now: Instant,
    exchange: ExchangeId,
    e: io::Error,
    failure: Failure,
    http: &mut HttpClient<'_, X>,
    st: &mut RunState,
) {
    if matches!(e.kind(), io::ErrorKind::Unsupported | io::ErrorKind::OutOfMemory) {
        st.fatal = Some(e);
    } else {
        http.handle_failure(now, exchange, failure);
    }
}

/// Whether a POST body holds a request (whose answer may take as long as the work).
fn is_request(body: &[u8]) -> bool {
    let options = ParseOptions { allow_batch: true, ..ParseOptions::default() };
    match Frame::parse(body, &options) {
        Ok(Frame::Single(m)) => matches!(m, Message::Request(_)),
        Ok(Frame::Batch(batch)) => batch.iter().any(|m| matches!(m, Ok(Message::Request(_)))),
        Err(_) => false,
    }
}
