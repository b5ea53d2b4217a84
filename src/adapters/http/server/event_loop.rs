//! [`HttpServer`]: the loop. One thread waits on every socket (mio), reads request
//! heads and bodies, hands them to the core and the sessions, and writes what the
//! sessions' streams give, each connection as far as its client takes it.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::io::{self, Write as _};
use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use mio::{Events, Interest, Poll, Token, Waker};

use super::auth::{AuthRequest, is_metadata_path};
use super::conn::{Conn, Exchange, INPUT_LIMIT, KeptHeaders, OUTPUT_LOW, Phase, Req};
use super::h1::{
    BodyError, BodyFraming, Framing, HeadError, LAST_CHUNK, MAX_CHUNK, error_response, find_head_end, parse_head,
    response_head,
};
use super::hub::Hub;
use super::mailbox::{DEFAULT_MAILBOX, Queue};
use super::options::{ServerOptions, os_seed};
use super::session::{Life, Pool, fresh, grow_to};
use super::store::MapStore;
use crate::adapters::app::{
    Action, ActionPost, Applied, Context, ContextParts, Envelope, Handler, Letter, Post, Sender, SeqMap, SessionTag,
    apply,
};
use crate::framing::Prefix;
use crate::http::server::{
    AuthVerdict, BadRequest, BodyKind, HostPolicy, IdMinter, Lookup, MIN_RESPONSE_BUFFER, PostBody, PushError, Refusal,
    RequestHead, RequestKind, ServerConfig, SessionHandle, SessionId, SessionTable, StreamConfig, StreamOutput,
    check_modern_message, check_param_message, check_session_version, classify_body, classify_message,
    classify_recording, classify_with, empty_response, is_modern_message, modern_error_status, ok_head,
};
use crate::mcp::ProtocolVersion;
use crate::session::{Config, Event, Origin, OutputMode};
use crate::time::{Clock, Instant};
use crate::wire::{DEFAULT_MAX_DEPTH, MemberSpans};

/// Bytes a message takes in an endpoint's buffer beyond its own: its origin mark and
/// newline in the receive buffer, its tag in the transmit buffer, with room to spare.
const FRAME_OVERHEAD: usize = 64;

const LISTENER: Token = Token(0);
const WAKER: Token = Token(1);
const FIRST_CONN: usize = 2;

/// Mailbox letters taken per loop turn, so that sockets are served between batches.
const LETTERS_PER_TURN: usize = 256;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Timer {
    Conn(usize),
    Session(u32, u32),
    Table,
    App,
}

/// Ends a running [`HttpServer`] from any thread.
#[derive(Clone)]
pub struct Stopper {
    flag: Arc<AtomicBool>,
    waker: Arc<Waker>,
}

impl Stopper {
    /// Asks the server to stop: [`HttpServer::run`] returns soon after.
    pub fn stop(&self) {
        self.flag.store(true, Ordering::Release);
        let _ = self.waker.wake();
    }
}

/// The standard headers of a 2026-07-28 POST, kept from the head for the body's check.
const MODERN_HEADERS: [&str; 3] = ["mcp-protocol-version", "mcp-method", "mcp-name"];

/// Headers as `httparse` parsed them, for the core.
struct H1<'h, 'b>(&'h [httparse::Header<'b>]);

impl crate::http::server::Headers for H1<'_, '_> {
    fn value(&self, name: &str, nth: usize) -> Option<&[u8]> {
        self.0.iter().filter(|h| h.name.eq_ignore_ascii_case(name)).nth(nth).map(|h| h.value)
    }
}

/// Headers without `MCP-Protocol-Version`: a POST with no session id whose version the
/// transport does not serve is classified without it, and its body decides (a
/// 2026-07-28 request gets the endpoint's -32022 with the supported versions and its
/// id; anything else the transport's refusal).
struct WithoutVersion<'h, H>(&'h H);

/// A response as our encoder starts one, `{"jsonrpc":"2.0","id":ID,"result":` (`Some(true)`)
/// or `…,"error":` (`Some(false)`), told from those first bytes alone: [`Prefix::scan`]
/// walks every top-level member to be sure no `method` follows, and a result can be long.
/// `None` for any other start (a request, a notification, an id with an escape), which
/// [`Prefix::scan`] then decides. A result has no error status, and is not parsed whole
/// to find that out; an error is (see [`modern_error_status`]).
fn encoded_response(message: &[u8]) -> Option<bool> {
    let rest = message.strip_prefix(br#"{"jsonrpc":"2.0","id":"#)?;
    let id_len = if rest.first() == Some(&b'"') {
        let close = 1 + rest.get(1..)?.iter().position(|&c| c == b'"' || c == b'\\')?;
        (rest.get(close) == Some(&b'"')).then_some(close + 1)?
    } else {
        rest.iter().position(|c| !matches!(c, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))?
    };
    let after = rest.get(id_len..)?;
    if after.starts_with(br#","result":"#) {
        Some(true)
    } else if after.starts_with(br#","error":"#) {
        Some(false)
    } else {
        None
    }
}

impl<H: crate::http::server::Headers> crate::http::server::Headers for WithoutVersion<'_, H> {
    fn value(&self, name: &str, nth: usize) -> Option<&[u8]> {
        if name.eq_ignore_ascii_case("mcp-protocol-version") { None } else { self.0.value(name, nth) }
    }
}

/// The Streamable HTTP (`/mcp`) and legacy HTTP+SSE (`/sse`) server over TCP, for one
/// [`Handler`] serving every session (see the [module docs](super)).
///
/// Both eras at once: an `initialize` POST opens a handshake session (its id in
/// `Mcp-Session-Id`); a 2026-07-28 POST (no session id, the version in its `_meta` or
/// its `MCP-Protocol-Version`) has its standard headers checked against the body (400,
/// -32020) and is served on its own by a session that lives as long as its exchange: no
/// session id, no event ids, its refusals with their status (400; 404 for -32601), and
/// the client closing the stream cancels it (a listen stream ends so). The handler sees
/// each such POST as a session of its own ([`Handler::on_session_end`] when it ends).
///
/// `OUT` and `IN` size each session's endpoint: requests of ours in flight (sampling,
/// elicitation), and the client's requests worked on at once (more are held).
pub struct HttpServer<'a, H: Handler, const OUT: usize = 8, const IN: usize = 16> {
    poll: Poll,
    events: Events,
    listener: mio::net::TcpListener,
    addr: SocketAddr,
    waker: Arc<Waker>,
    queue: Arc<Queue<H::Message>>,
    sender: Sender<H::Message>,
    post: Arc<dyn ActionPost>,
    stop: Arc<AtomicBool>,
    clock: Clock,
    now: Instant,
    opts: ServerOptions<'a>,
    hub: Hub<'a, OUT, IN>,
    conns: Vec<Option<Conn>>,
    free_conns: Vec<usize>,
    live_conns: usize,
    accepting: bool,
    exchanges: SeqMap<u32, usize>,
    next_exchange: u32,
    dirty_conns: Vec<usize>,
    timers: BinaryHeap<Reverse<(Instant, Timer)>>,
    table_scheduled: Option<Instant>,
    app_deadline: Option<Instant>,
    actions: Vec<(SessionTag, Action)>,
    deferred: VecDeque<H::Message>,
    letters: VecDeque<Envelope<H::Message>>,
    scratch: Vec<u8>,
    /// Reads and stream output pass through here (zeroed once, not per read).
    io_scratch: Vec<u8>,
}

impl<'a, H: Handler, const OUT: usize, const IN: usize> HttpServer<'a, H, OUT, IN> {
    /// Binds `addr` (port 0: any free port, see [`local_addr`](Self::local_addr)).
    /// Every session's endpoint is built from `session_config` (a server's; its output
    /// mode is set to messages).
    pub fn bind(addr: impl ToSocketAddrs, session_config: Config<'a>, opts: ServerOptions<'a>) -> io::Result<Self> {
        Self::with_listener(std::net::TcpListener::bind(addr)?, session_config, opts)
    }

    /// Serves on a listener bound already: one whose address the options must name
    /// (the URL of the protected resource metadata, say, when the port was chosen by
    /// the system), or one handed over by a service manager. Otherwise as
    /// [`bind`](Self::bind).
    pub fn with_listener(
        std_listener: std::net::TcpListener,
        session_config: Config<'a>,
        mut opts: ServerOptions<'a>,
    ) -> io::Result<Self> {
        std_listener.set_nonblocking(true)?;
        let addr = std_listener.local_addr()?;
        if !addr.ip().is_loopback() && opts.config.hosts == HostPolicy::Loopback {
            opts.config.hosts = HostPolicy::Any;
        }
        let poll = Poll::new()?;
        let mut listener = mio::net::TcpListener::from_std(std_listener);
        poll.registry().register(&mut listener, LISTENER, Interest::READABLE)?;
        let waker = Arc::new(Waker::new(poll.registry(), WAKER)?);
        let queue = Queue::new(Arc::clone(&waker), DEFAULT_MAILBOX);
        let post: Arc<dyn Post<H::Message>> = queue.clone();
        let sender = Sender::new(post);
        let seed = opts.seed.unwrap_or_else(os_seed);
        let config = session_config.output(OutputMode::Messages);
        let stream_config = StreamConfig {
            json_responses: opts.config.json_responses,
            keepalive: opts.config.keepalive,
            retry_ms: opts.config.retry_ms,
            close_after_priming: opts.config.close_after_priming,
            ..StreamConfig::default()
        };
        let store = opts.event_store.max(opts.tx_buffer + 64);
        let start = opts.initial_buffer.max(crate::session::MIN_RX_BUFFER);
        let pool = Pool::new((start, start, start), (opts.rx_buffer, opts.tx_buffer, store), opts.warm_sessions.max(8));
        let mut table =
            SessionTable::new(MapStore::new(opts.max_sessions.saturating_mul(2).max(2)), opts.config.idle_timeout);
        table.max_live = opts.max_sessions.max(1);
        let hub = Hub::new(table, pool, config, stream_config, IdMinter::new(seed), opts.session_key.clone());
        Ok(HttpServer {
            poll,
            events: Events::with_capacity(1024),
            listener,
            addr,
            waker: Arc::clone(&waker),
            queue,
            post: sender.actions(),
            sender,
            stop: Arc::new(AtomicBool::new(false)),
            clock: Clock::new(),
            now: Instant::ZERO,
            opts,
            hub,
            conns: Vec::new(),
            free_conns: Vec::new(),
            live_conns: 0,
            accepting: true,
            exchanges: SeqMap::default(),
            next_exchange: 1,
            dirty_conns: Vec::new(),
            timers: BinaryHeap::new(),
            table_scheduled: None,
            app_deadline: None,
            actions: Vec::new(),
            deferred: VecDeque::new(),
            letters: VecDeque::new(),
            scratch: vec![0; MIN_RESPONSE_BUFFER],
            io_scratch: vec![0; 64 * 1024],
        })
    }

    /// The address the server listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// A sender for other threads: messages reach [`Handler::on_message`].
    pub fn sender(&self) -> Sender<H::Message> {
        self.sender.clone()
    }

    /// A handle that stops the server from another thread.
    pub fn stopper(&self) -> Stopper {
        Stopper { flag: Arc::clone(&self.stop), waker: Arc::clone(&self.waker) }
    }

    /// Live sessions.
    pub fn sessions(&self) -> usize {
        self.hub.table.live()
    }

    /// Serves until [`Stopper::stop`]. Every session still live then ends
    /// ([`Handler::on_session_end`]).
    pub fn run(&mut self, handler: &mut H) -> io::Result<()> {
        self.queue.start();
        let result = self.serve(handler);
        self.queue.stop();
        self.now = self.clock.now();
        let mut cursor = None;
        let mut live = Vec::new();
        while let Some(h) = crate::http::server::SessionStore::next(self.hub.table.store(), cursor) {
            cursor = Some(h);
            live.push(h);
        }
        for h in live {
            self.hub.end(h, self.now);
        }
        self.report_ended(handler);
        result
    }

    fn serve(&mut self, handler: &mut H) -> io::Result<()> {
        loop {
            if self.stop.load(Ordering::Acquire) {
                return Ok(());
            }
            let timeout = self.next_deadline().map(|t| t.saturating_duration_since(self.clock.now()));
            let timeout = if self.letters.is_empty() { timeout } else { Some(Duration::ZERO) };
            match self.poll.poll(&mut self.events, timeout) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
            self.now = self.clock.now();
            let mut accept = false;
            for ev in self.events.iter() {
                match ev.token() {
                    LISTENER => accept = true,
                    WAKER => {}
                    Token(t) => {
                        let (readable, writable) = (
                            ev.is_readable() || ev.is_read_closed() || ev.is_error(),
                            ev.is_writable() || ev.is_write_closed(),
                        );
                        if let Some(Some(c)) = self.conns.get_mut(t - FIRST_CONN) {
                            c.read_closed |= ev.is_read_closed() || ev.is_error();
                            c.readable |= readable;
                            c.writable |= writable;
                            if !c.dirty {
                                c.dirty = true;
                                self.dirty_conns.push(t - FIRST_CONN);
                            }
                        }
                    }
                }
            }
            if accept || (!self.accepting && self.live_conns < self.opts.max_connections) {
                self.accept()?;
            }
            self.take_letters(handler);
            self.run_timers(handler);
            self.settle(handler);
            let app = self.with_hub_context(handler, None, |h, cx| h.on_idle(cx));
            if app != self.app_deadline {
                self.app_deadline = app;
                if let Some(t) = app {
                    self.timers.push(Reverse((t, Timer::App)));
                }
            }
            self.settle(handler);
        }
    }

    fn next_deadline(&mut self) -> Option<Instant> {
        self.timers.peek().map(|Reverse((t, _))| *t)
    }

    // ---- connections ------------------------------------------------------------

    fn accept(&mut self) -> io::Result<()> {
        loop {
            if self.live_conns >= self.opts.max_connections {
                self.accepting = false;
                return Ok(());
            }
            self.accepting = true;
            match self.listener.accept() {
                Ok((mut socket, _)) => {
                    let _ = socket.set_nodelay(true);
                    let index = match self.free_conns.pop() {
                        Some(i) => i,
                        None => {
                            self.conns.push(None);
                            self.conns.len() - 1
                        }
                    };
                    let token = Token(index + FIRST_CONN);
                    if self
                        .poll
                        .registry()
                        .register(&mut socket, token, Interest::READABLE | Interest::WRITABLE)
                        .is_err()
                    {
                        self.free_conns.push(index);
                        continue;
                    }
                    let mut conn = Conn::new(socket, self.now);
                    conn.readable = true;
                    conn.writable = true;
                    self.conns[index] = Some(conn);
                    self.live_conns += 1;
                    self.dirty_conns.push(index);
                    self.schedule_conn(index);
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(()),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                // Out of descriptors, or a connection reset before it was taken: try
                // again at the next readiness event.
                Err(_) => return Ok(()),
            }
        }
    }

    fn conn(&mut self, i: usize) -> Option<&mut Conn> {
        self.conns.get_mut(i).and_then(Option::as_mut)
    }

    /// Like `mark_conn`, but the connection is written before every other one waiting:
    /// a POST's 202 goes out before the stream messages it caused, so a client that
    /// reads its answer on the stream and closes has had the POST's own answer first.
    fn mark_conn_first(&mut self, i: usize) {
        let Some(c) = self.conn(i) else { return };
        c.dirty = true;
        self.dirty_conns.retain(|&d| d != i);
        self.dirty_conns.insert(0, i);
    }

    fn mark_conn(&mut self, i: usize) {
        if let Some(c) = self.conn(i)
            && !c.dirty
        {
            c.dirty = true;
            self.dirty_conns.push(i);
        }
    }

    fn conn_deadline(&self, c: &Conn) -> Option<Instant> {
        let o = &self.opts;
        let mut d = match &c.phase {
            Phase::Head => Some(match c.head_started {
                Some(t) => t + o.header_timeout,
                None => c.last_active + o.idle_connection,
            }),
            Phase::Body { .. } => Some(c.last_active + o.header_timeout),
            _ => None,
        };
        if let Some(t) = c.stalled_since {
            let w = t + o.write_timeout;
            d = Some(d.map_or(w, |d| d.min(w)));
        }
        d
    }

    fn schedule_conn(&mut self, i: usize) {
        let Some(Some(c)) = self.conns.get(i) else { return };
        let Some(d) = self.conn_deadline(c) else { return };
        let scheduled = c.scheduled;
        if scheduled.is_none_or(|s| d < s) {
            self.timers.push(Reverse((d, Timer::Conn(i))));
            if let Some(c) = self.conn(i) {
                c.scheduled = Some(d);
            }
        }
    }

    fn close_conn(&mut self, i: usize) {
        let Some(mut c) = self.conns.get_mut(i).and_then(Option::take) else { return };
        let _ = self.poll.registry().deregister(&mut c.socket);
        self.live_conns -= 1;
        self.free_conns.push(i);
        if let Phase::Exchange(x) = c.phase {
            self.drop_exchange(x, true);
        }
    }

    /// The exchange ended (`closed`: its connection went away first).
    fn drop_exchange(&mut self, x: Exchange, closed: bool) {
        self.exchanges.remove(&x.id);
        let now = self.now;
        if closed && let Some(a) = self.hub.awake_mut(x.session) {
            a.streams.connection_closed(x.id);
        }
        self.hub.table.unpin(now, x.session);
        if x.legacy {
            // A legacy session is its stream.
            self.hub.end(x.session, now);
        } else {
            self.hub.mark(x.session);
        }
        self.schedule_table();
    }

    /// Serves a connection as far as it goes now.
    fn service(&mut self, i: usize, handler: &mut H) {
        for _ in 0..64 {
            let now = self.now;
            let Some(c) = self.conn(i) else { return };
            c.dirty = false;
            // What the streams have goes behind what waits, so that a head and its body
            // (or several events) leave in one write: every write wakes the client.
            let pull = matches!(c.phase, Phase::Exchange(x) if x.head_sent) && c.pending() < OUTPUT_LOW;
            if pull {
                self.pull(i);
            }
            let Some(c) = self.conn(i) else { return };
            // Then output: it frees room, and says whether more may be taken.
            c.write_some(now);
            if c.dead {
                return self.close_conn(i);
            }
            let limit = match c.phase {
                Phase::Head => self.opts.max_head.max(INPUT_LIMIT),
                _ => INPUT_LIMIT,
            };
            let Some(c) = self.conns.get_mut(i).and_then(Option::as_mut) else { return };
            c.read_some(&mut self.io_scratch, limit, now);
            let progressed = self.advance(i, handler);
            let Some(c) = self.conn(i) else { return };
            let pull = matches!(c.phase, Phase::Exchange(x) if x.head_sent) && c.pending() < OUTPUT_LOW;
            let pulled = pull && self.pull(i);
            let Some(c) = self.conn(i) else { return };
            c.write_some(now);
            if c.dead {
                return self.close_conn(i);
            }
            if c.pending() == 0 && (matches!(c.phase, Phase::Closing) || (c.eof && matches!(c.phase, Phase::Head))) {
                return self.close_conn(i);
            }
            if c.eof
                && matches!(c.phase, Phase::Exchange(_) | Phase::Body { .. } | Phase::Feeding)
                && c.input().is_empty()
            {
                // The client went away mid-request: nothing more can be sent to it.
                return self.close_conn(i);
            }
            if !progressed && !pulled {
                break;
            }
        }
        self.schedule_conn(i);
    }

    /// Moves the connection's request along: a head, a body, the next request.
    /// Returns whether something happened.
    fn advance(&mut self, i: usize, handler: &mut H) -> bool {
        let mut any = false;
        let (now, max_head) = (self.now, self.opts.max_head);
        loop {
            let Some(c) = self.conns.get_mut(i).and_then(Option::as_mut) else { return any };
            let input_empty = c.input().is_empty();
            match &mut c.phase {
                Phase::Head => {
                    if c.input().is_empty() {
                        return any;
                    }
                    c.head_started.get_or_insert(now);
                    let Some(end) = find_head_end(c.input(), c.searched) else {
                        c.searched = c.input().len();
                        if c.input().len() > max_head {
                            self.fail_conn(i, HeadError::TooLarge.status(), HeadError::TooLarge.message());
                        }
                        return any;
                    };
                    if end > max_head {
                        self.fail_conn(i, HeadError::TooLarge.status(), HeadError::TooLarge.message());
                        return true;
                    }
                    any = true;
                    let input = std::mem::take(&mut c.rbuf);
                    let start = c.rstart;
                    c.rstart = 0;
                    c.searched = 0;
                    self.on_head(i, &input[start..start + end], handler);
                    if let Some(c) = self.conn(i) {
                        let mut input = input;
                        input.drain(..start + end);
                        // What came after the head is the body or the next request.
                        let later = std::mem::take(&mut c.rbuf);
                        input.extend_from_slice(&later);
                        c.rbuf = input;
                    }
                }
                Phase::Body { reader, body, .. } => {
                    if input_empty && !reader.done() {
                        return any;
                    }
                    let start = c.rstart;
                    let used = reader.feed(&c.rbuf[start..], body);
                    match used {
                        Ok(n) => {
                            c.consume(n);
                            any |= n > 0;
                        }
                        Err(BodyError::TooLarge) => {
                            let _ = self.refuse(i, Refusal::BodyTooLarge, None, true);
                            return true;
                        }
                        Err(BodyError::Malformed) => {
                            self.fail_conn(i, 400, "Bad Request: malformed chunked body");
                            return true;
                        }
                    }
                    let Some(c) = self.conn(i) else { return true };
                    let Phase::Body { reader, .. } = &c.phase else { return true };
                    if !reader.done() {
                        return any;
                    }
                    let Phase::Body { req, body, .. } = std::mem::replace(&mut c.phase, Phase::Answered) else {
                        return true;
                    };
                    any = true;
                    self.on_body(i, req, body, handler);
                }
                Phase::Answered => {
                    if c.pending() > 0 {
                        return any;
                    }
                    if c.close_after {
                        c.phase = Phase::Closing;
                        return true;
                    }
                    c.phase = Phase::Head;
                    c.head_started = None;
                    any = true;
                }
                Phase::Feeding | Phase::Exchange(_) | Phase::Closing => return any,
            }
        }
    }

    /// Answers a connection whose request cannot be served (broken HTTP) and closes it.
    fn fail_conn(&mut self, i: usize, status: u16, message: &str) {
        if let Some(c) = self.conn(i) {
            error_response(&mut c.wbuf, status, message, true);
            c.phase = Phase::Closing;
            c.rbuf.clear();
            c.rstart = 0;
        }
    }

    /// Writes a refusal; `close`: the connection ends after it.
    fn refuse(&mut self, i: usize, refusal: Refusal<'_>, version: Option<ProtocolVersion>, close: bool) -> bool {
        let close = close || refusal.closes_connection();
        let Ok(resp) = refusal.write(&self.opts.config, version, &mut self.scratch) else { return false };
        let (status, fields, body) = (resp.status, resp.field_lines().to_vec(), resp.body.to_vec());
        let Some(c) = self.conn(i) else { return false };
        let close = close || c.close_after;
        response_head(&mut c.wbuf, status, &fields, BodyFraming::Length(body.len()), close);
        c.wbuf.extend_from_slice(&body);
        c.close_after |= close;
        c.phase = if close { Phase::Closing } else { Phase::Answered };
        true
    }

    /// A response with no body (202, the 200 of a DELETE).
    fn empty(&mut self, i: usize, status: u16) {
        let Some(c) = self.conns.get_mut(i).and_then(Option::as_mut) else { return };
        let close = c.close_after;
        if let Ok(r) = empty_response(status, &mut self.scratch) {
            response_head(&mut c.wbuf, r.status, r.field_lines(), BodyFraming::Length(0), close);
        }
        c.phase = Phase::Answered;
    }

    // ---- requests -----------------------------------------------------------------

    fn on_head(&mut self, i: usize, bytes: &[u8], handler: &mut H) {
        let mut headers = vec![httparse::EMPTY_HEADER; self.opts.max_headers];
        let config = self.opts.config;
        let (authorizer, document) = (self.opts.authorize.as_ref(), self.opts.metadata_document);
        let decided = parse_head(bytes, &mut headers, |req, parsed| {
            let headers = H1(req.headers);
            let head = RequestHead::new(req.method.unwrap_or(""), req.path.unwrap_or(""), &headers);
            // A body, if any, is not read when the head is answered: the connection
            // then ends after the answer.
            let body = req.method == Some("POST") || parsed.framing == Framing::Chunked;
            if let Some(document) = document
                && is_metadata_path(head.path(), config.auth.resource_metadata, config.mcp_path)
            {
                return Err((metadata_response(head.method, document), body, parsed));
            }
            let verdict = |kind| match authorizer {
                None => AuthVerdict::Allow,
                Some(a) => a.check(&AuthRequest {
                    kind,
                    method: head.method,
                    target: head.target,
                    token: head.bearer_token().and_then(|t| std::str::from_utf8(t).ok()),
                    session_id: session_named(&head, kind),
                    headers: &headers,
                }),
            };
            let without = WithoutVersion(&headers);
            let mut classified = classify_with(&config, &head, verdict);
            let mut version_refused = None;
            if let Err(Refusal::BadRequest(
                b @ (BadRequest::UnknownProtocolVersion | BadRequest::UnsupportedProtocolVersion),
            )) = classified
                && req.method == Some("POST")
                && crate::http::server::Headers::value(&headers, "mcp-session-id", 0).is_none()
            {
                let head = RequestHead::new(req.method.unwrap_or(""), req.path.unwrap_or(""), &without);
                classified = classify_with(&config, &head, verdict);
                version_refused = Some(b);
            }
            match classified {
                Err(refusal) => Err((format_refusal(&config, &refusal), refusal.closes_connection() || body, parsed)),
                Ok(c) => Ok((
                    Req {
                        kind: c.kind,
                        session_id: c.session_id.and_then(SessionId::parse),
                        version: c.protocol_version,
                        last_event_id: c.last_event_id.map(str::to_string),
                        keep_alive: parsed.keep_alive,
                        http10: parsed.http10,
                        version_refused,
                        modern_headers: {
                            let mut kept = KeptHeaders::default();
                            let modern = req.headers.iter().filter(|h| {
                                MODERN_HEADERS.iter().any(|m| h.name.eq_ignore_ascii_case(m))
                                    || h.name.get(..10).is_some_and(|p| p.eq_ignore_ascii_case("mcp-param-"))
                            });
                            modern.for_each(|h| kept.push(h.name, h.value));
                            kept
                        },
                    },
                    c.content_length,
                    parsed,
                )),
            }
        });
        let max_body = self.opts.config.max_body;
        let Some(c) = self.conns.get_mut(i).and_then(Option::as_mut) else { return };
        c.head_started = None;
        match decided {
            Err(e) => self.fail_conn(i, e.status(), e.message()),
            Ok(Err((bytes, close_now, parsed))) => {
                // A refusal at the head: a body, if any, is not read, so the connection
                // ends after the answer when one may follow.
                let close = close_now || !parsed.keep_alive;
                c.wbuf.extend_from_slice(&patch_close(bytes, close));
                c.close_after |= close;
                c.phase = if close { Phase::Closing } else { Phase::Answered };
            }
            Ok(Ok((req, length, parsed))) => {
                c.close_after |= !req.keep_alive;
                match req.kind {
                    RequestKind::Post | RequestKind::LegacyPost => {
                        if parsed.expect_continue {
                            c.wbuf.extend_from_slice(b"HTTP/1.1 100 Continue\r\n\r\n");
                        }
                        let reader = Conn::body_reader(parsed.framing, length, max_body);
                        c.phase = Phase::Body { req, reader, body: Vec::new() };
                    }
                    _ => {
                        if parsed.framing == Framing::Chunked || length.is_some_and(|n| n > 0) {
                            self.fail_conn(i, 400, "Bad Request: a body on a request that takes none");
                            return;
                        }
                        self.on_request(i, req, Vec::new(), handler);
                    }
                }
            }
        }
    }

    fn on_body(&mut self, i: usize, req: Req, body: Vec<u8>, handler: &mut H) {
        self.on_request(i, req, body, handler);
    }

    /// Looks a session up for a request that names one: live (woken), or the refusal.
    fn find_session(&mut self, id: Option<&SessionId>) -> Result<SessionHandle, Refusal<'static>> {
        let Some(id) = id else { return Err(Refusal::BadRequest(crate::http::server::BadRequest::MissingSessionId)) };
        let h = match self.hub.table.lookup(id.as_str()) {
            Lookup::Live(h) => h,
            Lookup::Ended => return Err(Refusal::SessionNotFound),
            Lookup::Unknown => {
                let wall = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_millis() as u64);
                self.hub.rebuild(self.now, id.as_str(), wall).ok_or(Refusal::SessionNotFound)?
            }
        };
        if !self.hub.wake(h, self.now) {
            return Err(Refusal::SessionNotFound);
        }
        Ok(h)
    }

    fn on_request(&mut self, i: usize, req: Req, body: Vec<u8>, handler: &mut H) {
        let now = self.now;
        match req.kind {
            RequestKind::Post => {
                let session = match req.session_id {
                    None => None,
                    Some(ref id) => match self.find_session(Some(id)) {
                        Ok(h) => Some(h),
                        Err(r) => {
                            self.refuse(i, r, req.version, false);
                            return;
                        }
                    },
                };
                let version = session.and_then(|h| self.hub.table.get(h).and_then(|s| s.version));
                if let (Some(v), Some(_)) = (version, session)
                    && let Err(b) = self.version_rule(req.version, v)
                {
                    self.refuse(i, Refusal::BadRequest(b), Some(v), false);
                    return;
                }
                let batches = version == Some(ProtocolVersion::V2025_03_26);
                // Parsed once here for every check before the endpoint's.
                // A 2026-07-28 request (by its header) has its params' members recorded
                // as it is parsed, for the header checks.
                let mut spans = MemberSpans::<16>::new();
                let classified = if req.version.is_some_and(|v| !v.has_handshake()) {
                    classify_recording(&body, batches, DEFAULT_MAX_DEPTH, &mut spans)
                } else {
                    classify_message(&body, batches, DEFAULT_MAX_DEPTH)
                };
                let (kind, message) = match classified {
                    Ok(k) => k,
                    Err(b) => {
                        self.refuse(i, Refusal::BadRequest(b), version, false);
                        return;
                    }
                };
                let h = match (session, kind) {
                    (Some(h), _) => h,
                    // The era first: an `initialize` with 2026-07-28 headers or `_meta` is
                    // a method this era does not have (404), not a handshake.
                    (None, _) if is_modern_message(req.version, || message) => {
                        let headers = &req.modern_headers;
                        let message = message.as_ref();
                        let checked = check_modern_message(headers, message, Some(&spans))
                            .and_then(|()| check_param_message(headers, message, self.opts.param_headers));
                        if let Err(b) = checked {
                            self.refuse(i, Refusal::BadRequest(b), Some(ProtocolVersion::V2026_07_28), false);
                            return;
                        }
                        match self.open_stateless(now) {
                            Ok(h) => h,
                            Err(()) => {
                                self.refuse(i, Refusal::Busy, Some(ProtocolVersion::V2026_07_28), false);
                                return;
                            }
                        }
                    }
                    (None, _) if req.version_refused.is_some() => {
                        // (Not an `if let` guard: the crate's MSRV, 1.88, predates them.)
                        if let Some(b) = req.version_refused {
                            self.refuse(i, Refusal::BadRequest(b), None, false);
                        }
                        return;
                    }
                    (None, PostBody::Initialize { .. }) => match self.open_streamable(now, &body) {
                        Ok(h) => h,
                        Err(()) => {
                            self.refuse(i, Refusal::Busy, None, false);
                            return;
                        }
                    },
                    (None, _) => {
                        self.refuse(
                            i,
                            Refusal::BadRequest(crate::http::server::BadRequest::MissingSessionId),
                            None,
                            false,
                        );
                        return;
                    }
                };
                let requests = match kind {
                    PostBody::Initialize { .. } => 1,
                    PostBody::Requests { count } => count,
                    PostBody::NoRequests => 0,
                };
                let stateless = self.hub.table.get(h).is_some_and(|s| s.stateless);
                if requests == 0 {
                    // Notifications and responses: 202 once the session took them.
                    self.feed(i, h, None, body, true);
                    return;
                }
                let exchange = self.new_exchange();
                let Some(a) = self.hub.awake_mut(h) else { return };
                match a.streams.open_post(now, exchange, requests) {
                    Ok(origin) => {
                        // A stateless POST's session is its exchange, as a legacy one's
                        // is its stream.
                        self.start_exchange(i, h, exchange, &req, stateless);
                        self.feed(i, h, Some(origin), body, false);
                    }
                    Err(_) => {
                        self.refuse(i, Refusal::Busy, version, false);
                    }
                }
            }
            RequestKind::LegacyPost => {
                let h = match self.find_session(req.session_id.as_ref()) {
                    Ok(h) if self.hub.table.get(h).is_some_and(|s| s.legacy) => h,
                    _ => {
                        self.refuse(i, Refusal::SessionNotFound, None, false);
                        return;
                    }
                };
                if let Err(b) = classify_body(&body, false, DEFAULT_MAX_DEPTH) {
                    self.refuse(i, Refusal::BadRequest(b), Some(ProtocolVersion::V2024_11_05), false);
                    return;
                }
                self.feed(i, h, None, body, true);
            }
            RequestKind::Get => {
                let h = match self.find_session(req.session_id.as_ref()) {
                    Ok(h) => h,
                    Err(r) => {
                        self.refuse(i, r, req.version, false);
                        return;
                    }
                };
                let version = self.hub.table.get(h).and_then(|s| s.version);
                if let Some(v) = version
                    && let Err(b) = self.version_rule(req.version, v)
                {
                    self.refuse(i, Refusal::BadRequest(b), Some(v), false);
                    return;
                }
                let exchange = self.new_exchange();
                let Some(a) = self.hub.awake_mut(h) else { return };
                match a.streams.open_get(now, exchange, req.last_event_id.as_deref()) {
                    Ok(_) => self.start_exchange(i, h, exchange, &req, false),
                    Err(_) => {
                        self.refuse(i, Refusal::Busy, version, false);
                    }
                }
                self.hub.mark(h);
            }
            RequestKind::Delete => {
                let h = match self.find_session(req.session_id.as_ref()) {
                    Ok(h) => h,
                    Err(r) => {
                        self.refuse(i, r, req.version, false);
                        return;
                    }
                };
                let version = self.hub.table.get(h).and_then(|s| s.version);
                if let Some(v) = version
                    && let Err(b) = self.version_rule(req.version, v)
                {
                    self.refuse(i, Refusal::BadRequest(b), Some(v), false);
                    return;
                }
                self.end_session(h);
                self.empty(i, 200);
                self.report_ended(handler);
            }
            RequestKind::LegacyGet => {
                let path = self.opts.config.legacy_post_path;
                let h = match self.hub.open(now, true, path, None, false) {
                    Ok(h) => h,
                    Err(()) => {
                        self.refuse(i, Refusal::Busy, None, false);
                        return;
                    }
                };
                let exchange = self.new_exchange();
                let Some(a) = self.hub.awake_mut(h) else { return };
                match a.streams.open_get(now, exchange, None) {
                    Ok(_) => self.start_exchange(i, h, exchange, &req, true),
                    Err(_) => {
                        self.refuse(i, Refusal::Busy, None, false);
                    }
                }
                self.hub.mark(h);
            }
        }
    }

    /// The `MCP-Protocol-Version` rule for a session's request (see
    /// [`ServerOptions::strict_protocol_version`]).
    fn version_rule(
        &self,
        header: Option<ProtocolVersion>,
        negotiated: ProtocolVersion,
    ) -> Result<(), crate::http::server::BadRequest> {
        if self.opts.strict_protocol_version { check_session_version(header, negotiated).map(drop) } else { Ok(()) }
    }

    /// A Streamable HTTP session for an `initialize` body (with a signed id if the
    /// server signs them).
    fn open_streamable(&mut self, now: Instant, body: &[u8]) -> Result<SessionHandle, ()> {
        let signed = self.hub.signed_id(body);
        self.hub.open(now, false, "", signed, false)
    }

    /// A session for one 2026-07-28 POST: its endpoint serves the request statelessly
    /// (the `_meta` decides), and it ends with the exchange.
    fn open_stateless(&mut self, now: Instant) -> Result<SessionHandle, ()> {
        let h = self.hub.open(now, false, "", None, true)?;
        if let Some(s) = self.hub.table.get_mut(h)
            && let Life::Awake(a) = &mut s.life
        {
            a.streams.set_version(ProtocolVersion::V2026_07_28);
            a.streams.prefer_json();
        }
        Ok(h)
    }

    fn new_exchange(&mut self) -> u32 {
        let x = self.next_exchange;
        self.next_exchange = self.next_exchange.wrapping_add(1).max(1);
        x
    }

    fn start_exchange(&mut self, i: usize, h: SessionHandle, exchange: u32, req: &Req, legacy: bool) {
        let now = self.now;
        self.hub.table.pin(now, h);
        self.exchanges.insert(exchange, i);
        if let Some(c) = self.conn(i) {
            let keep_alive = req.keep_alive && !req.http10 && !c.close_after;
            c.phase = Phase::Exchange(Exchange {
                id: exchange,
                session: h,
                head_sent: false,
                chunked: !req.http10,
                keep_alive,
                legacy,
            });
        }
    }

    /// Hands a body to the session's endpoint (`origin`: the POST stream it opened);
    /// `accept`: answer 202 once it is taken.
    fn feed(&mut self, i: usize, h: SessionHandle, origin: Option<u32>, body: Vec<u8>, accept: bool) {
        let exchange = if accept {
            let x = self.new_exchange();
            self.exchanges.insert(x, i);
            if let Some(c) = self.conn(i) {
                c.phase = Phase::Feeding;
            }
            x
        } else {
            0
        };
        if let Some(a) = self.hub.awake_mut(h) {
            a.feeds.push_back(super::session::Feed { exchange, origin, body, accept });
        }
        self.hub.mark(h);
    }

    fn end_session(&mut self, h: SessionHandle) {
        // Its connections end with it.
        let exchanges: Vec<(u32, usize)> = self
            .exchanges
            .iter()
            .filter(|(_, ci)| {
                matches!(self.conns.get(**ci), Some(Some(c)) if matches!(c.phase, Phase::Exchange(x) if x.session == h))
            })
            .map(|(x, ci)| (*x, *ci))
            .collect();
        for (x, ci) in exchanges {
            self.exchanges.remove(&x);
            self.hub.table.unpin(self.now, h);
            if let Some(c) = self.conn(ci) {
                if let Phase::Exchange(e) = c.phase
                    && e.head_sent
                    && e.chunked
                {
                    c.wbuf.extend_from_slice(LAST_CHUNK);
                    c.phase = Phase::Answered;
                } else {
                    c.phase = Phase::Closing;
                }
                self.mark_conn(ci);
            }
        }
        self.hub.end(h, self.now);
    }

    // ---- the sessions ---------------------------------------------------------------

    /// Runs everything that is due, until nothing is.
    fn settle(&mut self, handler: &mut H) {
        for _ in 0..1000 {
            if self.hub.dirty.is_empty() && self.dirty_conns.is_empty() && self.deferred.is_empty() {
                break;
            }
            while let Some(h) = self.hub.dirty.pop() {
                if let Some(s) = self.hub.table.get_mut(h) {
                    s.dirty = false;
                }
                self.pump(h, handler);
            }
            while let Some(m) = self.deferred.pop_front() {
                let session = None;
                self.with_hub_context(handler, session, |h, cx| h.on_message(cx, m));
            }
            let conns = std::mem::take(&mut self.dirty_conns);
            for i in conns {
                self.service(i, handler);
            }
            self.report_ended(handler);
        }
    }

    fn report_ended(&mut self, handler: &mut H) {
        while let Some(tag) = self.hub.ended.pop() {
            handler.on_session_end(tag);
        }
    }

    /// Routes what a callback sent.
    fn route_actions(&mut self) {
        let now = self.now;
        for (tag, action) in std::mem::take(&mut self.actions) {
            let Some(&h) = self.hub.tags.get(&tag) else { continue };
            if !self.hub.wake(h, now) {
                continue;
            }
            if let Some(a) = self.hub.awake_mut(h) {
                a.outbox.push(action);
            }
            self.hub.mark(h);
        }
    }

    /// A callback with the endpoints free.
    fn with_hub_context<R>(
        &mut self,
        handler: &mut H,
        session: Option<SessionTag>,
        f: impl FnOnce(&mut H, &mut Context<'_, H::Message>) -> R,
    ) -> R {
        let mut cx = Context::new(ContextParts {
            now: self.now,
            session,
            actions: &mut self.actions,
            deferred: &mut self.deferred,
            tickets: None,
            queued: false,
            grows: false,
            sessions: Some(&mut self.hub),
            sender: &self.sender,
            post: &self.post,
        });
        let r = f(handler, &mut cx);
        self.route_actions();
        r
    }

    /// Drains a session: bodies into its endpoint, what it sends into its streams,
    /// its events to the handler, its streams' output to the connections.
    fn pump(&mut self, h: SessionHandle, handler: &mut H) {
        let now = self.now;
        let (rx_max, tx_max, store_max) = self.hub.pool.max;
        let Some(session) = self.hub.table.get_mut(h) else { return };
        let tag = session.tag;
        let stateless = session.stateless;
        let Life::Awake(a) = &mut session.life else { return };
        let mut accepted: Vec<u32> = Vec::new();
        let mut end = false;
        let mut close_streams: Vec<u32> = Vec::new();
        let mut version = session.version;
        let mut caps = None;
        'drain: for _ in 0..10_000 {
            let mut progress = false;
            // Bodies waiting for room.
            while let Some(f) = a.feeds.front() {
                // A body longer than the receive buffer: the buffer grows first (once
                // it holds nothing), up to its bound, past which the endpoint answers
                // -32600.
                let (needed, cap) = (f.body.len() + FRAME_OVERHEAD, a.endpoint.receive_capacity());
                if needed > cap
                    && let Some(n) = grow_to(cap, needed, rx_max)
                    && a.endpoint.replace_receive_buffer(fresh(n)).is_err()
                {
                    break;
                }
                let taken = a.endpoint.handle_frame_from(now, f.origin.map(Origin), &f.body);
                if !taken {
                    break;
                }
                progress = true;
                if let Some(f) = a.feeds.pop_front()
                    && f.accept
                {
                    accepted.push(f.exchange);
                }
            }
            // What the application sent, in order.
            while let Some(action) = a.outbox.front() {
                // An answer longer than the transmit buffer: it grows first, up to its
                // bound (past which the endpoint sends -32603 instead).
                let (needed, cap) = (action.size() + FRAME_OVERHEAD, a.endpoint.transmit_capacity());
                if needed > cap
                    && let Some(n) = grow_to(cap, needed, tx_max)
                {
                    let _ = a.endpoint.replace_transmit_buffer(fresh(n));
                }
                match apply(&mut a.endpoint, now, action) {
                    Applied::Retry => break,
                    Applied::Done => {
                        if let Some(r) = action.answers() {
                            a.tickets.answered(r);
                        }
                    }
                    Applied::Adapter => match action {
                        Action::CloseStream { request } => {
                            if let Some(o) = request.origin() {
                                close_streams.push(o.0);
                            }
                        }
                        _ => end = true,
                    },
                }
                progress = true;
                a.outbox.pop();
            }
            if a.stalled {
                break;
            }
            // (Read before the event borrows the endpoint.)
            let grows = a.endpoint.transmit_capacity() < tx_max;
            match a.endpoint.poll_output() {
                crate::session::Output::Transmit(t) => {
                    let origin = t.origin.map(|o| o.0);
                    // (A response `encoded_response` cannot read is taken for an error:
                    // `modern_error_status` finds no status in a result.)
                    let (response, result) = match encoded_response(t.bytes()) {
                        Some(result) => (true, result),
                        None => {
                            let prefix = Prefix::scan(t.bytes());
                            (prefix.answer && !prefix.method, false)
                        }
                    };
                    if response && stateless && a.status.is_none() && !result {
                        a.status = modern_error_status(t.bytes());
                    }
                    // A store that would have to drop unsent messages (a slow client, no
                    // GET open) or is too small for this one grows first, up to its bound;
                    // past that, the streams' policy (drop for streams no connection
                    // carries, else backpressure) holds.
                    let cap = a.streams.store_capacity();
                    if !a.streams.fits(t.len())
                        && let Some(n) = grow_to(cap, t.len() + 64, store_max)
                    {
                        let _ = a.streams.replace_store(fresh(n));
                    }
                    let pushed = a.streams.push(now, origin, t.bytes(), response);
                    if let Err(PushError::Backpressure) = pushed {
                        a.endpoint.sent(0);
                        a.stalled = true;
                        break 'drain;
                    }
                }
                crate::session::Output::Event(event) => {
                    match &event {
                        Event::Cancelled { request, .. } | Event::Expired { request, .. } => a.tickets.cancel(request),
                        Event::Closed { .. } => {
                            a.tickets.cancel_all();
                            end = true;
                        }
                        Event::Negotiated { version: v, .. } => {
                            version = Some(*v);
                            a.streams.set_version(*v);
                        }
                        Event::Ready { .. } => caps = Some(()),
                        _ => {}
                    }
                    let mut cx = Context::new(ContextParts {
                        now,
                        session: Some(tag),
                        actions: &mut self.actions,
                        deferred: &mut self.deferred,
                        tickets: Some(&mut a.tickets),
                        queued: !a.outbox.is_empty(),
                        grows,
                        sessions: None,
                        sender: &self.sender,
                        post: &self.post,
                    });
                    handler.on_event(&mut cx, event);
                    // Own actions go in order behind what waits; others are routed after.
                    let mut i = 0;
                    while i < self.actions.len() {
                        if self.actions[i].0 == tag {
                            let (_, action) = self.actions.remove(i);
                            a.outbox.push(action);
                        } else {
                            i += 1;
                        }
                    }
                }
                crate::session::Output::Idle { .. } => {
                    // Nothing more unless a body or an action went in on this turn
                    // (then what it produced is drained on the next).
                    if !progress {
                        break;
                    }
                }
            }
        }
        if caps.is_some() {
            session_caps(&mut self.hub, h);
        }
        if let Some(s) = self.hub.table.get_mut(h) {
            s.version = version;
        }
        for o in close_streams {
            if let Some(a) = self.hub.awake_mut(h) {
                a.streams.disconnect(o);
            }
        }
        for x in accepted {
            if let Some(ci) = self.exchanges.remove(&x) {
                self.empty(ci, 202);
                self.mark_conn_first(ci);
            }
        }
        self.drain_streams(h);
        self.route_actions();
        if end {
            self.end_session(h);
            return;
        }
        self.consider_sleep(h);
        self.schedule_session(h);
    }

    /// What a session's streams have for the connections: heads, bytes, ends.
    fn drain_streams(&mut self, h: SessionHandle) {
        let id = self.hub.table.id(h);
        // No session id on a legacy stream's or a stateless POST's responses.
        let legacy = self.hub.table.get(h).is_some_and(|s| s.legacy || s.stateless);
        loop {
            let Some(a) = self.hub.awake_mut(h) else { return };
            let Some(out) = a.streams.poll() else { return };
            match out {
                StreamOutput::Head { exchange, kind } => {
                    let Some(&ci) = self.exchanges.get(&exchange) else { continue };
                    let sid = if legacy { None } else { id.as_ref().map(SessionId::as_str) };
                    let refused = self.hub.awake_mut(h).and_then(|a| a.status);
                    let Ok(r) = ok_head(kind, sid, &mut self.scratch) else { continue };
                    let (mut status, fields) = (r.status, r.field_lines().to_vec());
                    if let (Some(s), BodyKind::Json { .. }) = (refused, kind) {
                        status = s;
                    }
                    let Some(c) = self.conns.get_mut(ci).and_then(Option::as_mut) else { continue };
                    let Phase::Exchange(x) = &mut c.phase else { continue };
                    let framing = match kind {
                        BodyKind::Json { len } => {
                            x.chunked = false;
                            BodyFraming::Length(len)
                        }
                        BodyKind::Sse if x.chunked => BodyFraming::Chunked,
                        BodyKind::Sse => BodyFraming::UntilClose,
                    };
                    let close = !x.keep_alive || matches!(framing, BodyFraming::UntilClose);
                    x.head_sent = true;
                    response_head(&mut c.wbuf, status, &fields, framing, close);
                    c.close_after |= close;
                    self.mark_conn(ci);
                }
                StreamOutput::Readable { exchange } | StreamOutput::Replaced { exchange } => {
                    let replaced = matches!(out, StreamOutput::Replaced { .. });
                    let Some(&ci) = self.exchanges.get(&exchange) else { continue };
                    if replaced {
                        self.finish_exchange(ci, exchange);
                    }
                    self.mark_conn(ci);
                }
                StreamOutput::Dropped { .. } => {}
            }
        }
    }

    /// Ends a response carried by the streams (complete, or replaced by a newer GET).
    fn finish_exchange(&mut self, ci: usize, exchange: u32) {
        let Some(c) = self.conn(ci) else { return };
        let Phase::Exchange(x) = c.phase else { return };
        if x.id != exchange {
            return;
        }
        if x.head_sent && x.chunked {
            c.wbuf.extend_from_slice(LAST_CHUNK);
        } else {
            // No way to end the body but closing.
            c.close_after = true;
        }
        c.phase = Phase::Answered;
        self.drop_exchange(x, false);
    }

    /// Takes bytes from the session's streams for a connection; returns whether any came.
    fn pull(&mut self, ci: usize) -> bool {
        let now = self.now;
        let Some(Some(c)) = self.conns.get_mut(ci) else { return false };
        let Phase::Exchange(x) = c.phase else { return false };
        let Some(a) = self.hub.table.get_mut(x.session).and_then(|s| s.awake()) else {
            return false;
        };
        let mut any = false;
        let mut ended = false;
        let scratch = &mut self.io_scratch;
        while c.pending() < OUTPUT_LOW {
            let room = (OUTPUT_LOW * 2 - c.pending()).min(scratch.len()).min(MAX_CHUNK);
            let read = a.streams.read(now, x.id, &mut scratch[..room]);
            if read.n > 0 {
                if x.chunked {
                    let _ = write!(c.wbuf, "{:x}\r\n", read.n);
                    c.wbuf.extend_from_slice(&scratch[..read.n]);
                    c.wbuf.extend_from_slice(b"\r\n");
                } else {
                    c.wbuf.extend_from_slice(&scratch[..read.n]);
                }
            }
            any |= read.n > 0;
            if read.end {
                ended = true;
                break;
            }
            if read.n == 0 {
                break;
            }
        }
        if any && a.stalled {
            a.stalled = false;
            self.hub.mark(x.session);
        }
        if ended {
            // A JSON body has its length; a stream to an HTTP/1.0 client ends with the
            // connection (its head said so).
            if x.chunked {
                c.wbuf.extend_from_slice(LAST_CHUNK);
            }
            c.phase = Phase::Answered;
            self.drop_exchange(x, false);
            self.mark_conn(ci);
        }
        any || ended
    }

    fn consider_sleep(&mut self, h: SessionHandle) {
        let now = self.now;
        let warm = self.opts.warm_sessions;
        let warm_time = self.opts.warm_time;
        let awake = self.hub.awake;
        let Some(s) = self.hub.table.get_mut(h) else { return };
        let Life::Awake(a) = &s.life else { return };
        let idle = !s.legacy
            && !s.stateless
            && a.streams.is_idle()
            && a.outbox.is_empty()
            && a.feeds.is_empty()
            && a.endpoint.snapshot().is_ok();
        if !idle {
            s.sleep_at = None;
            return;
        }
        if awake > warm || s.sleep_at.is_some_and(|t| t <= now) {
            self.hub.sleep(h);
        } else if s.sleep_at.is_none() {
            s.sleep_at = Some(now + warm_time);
        }
    }

    fn schedule_session(&mut self, h: SessionHandle) {
        let Some(s) = self.hub.table.get_mut(h) else { return };
        let Some(d) = s.deadline() else { return };
        if s.scheduled.is_none_or(|t| d < t) {
            s.scheduled = Some(d);
            self.timers.push(Reverse((d, Timer::Session(h.index, h.generation))));
        }
        self.schedule_table();
    }

    fn schedule_table(&mut self) {
        let Some(d) = self.hub.table.next_deadline() else { return };
        if self.table_scheduled.is_none_or(|t| d < t) {
            self.table_scheduled = Some(d);
            self.timers.push(Reverse((d, Timer::Table)));
        }
    }

    // ---- time and the mailbox --------------------------------------------------------

    fn run_timers(&mut self, handler: &mut H) {
        let now = self.now;
        while let Some(Reverse((t, timer))) = self.timers.peek().copied() {
            if t > now {
                break;
            }
            self.timers.pop();
            match timer {
                Timer::Conn(i) => {
                    let Some(c) = self.conn(i) else { continue };
                    if c.scheduled != Some(t) {
                        continue;
                    }
                    c.scheduled = None;
                    let deadline = self.conns[i].as_ref().and_then(|c| self.conn_deadline(c));
                    if deadline.is_some_and(|d| d <= now) {
                        self.timed_out(i);
                    } else {
                        self.schedule_conn(i);
                    }
                }
                Timer::Session(index, generation) => {
                    let h = SessionHandle { index, generation };
                    let Some(s) = self.hub.table.get_mut(h) else { continue };
                    if s.scheduled != Some(t) {
                        continue;
                    }
                    s.scheduled = None;
                    if let Life::Awake(a) = &mut s.life {
                        a.endpoint.handle_timeout(now);
                        a.streams.handle_timeout(now);
                    }
                    self.hub.mark(h);
                }
                Timer::Table => {
                    if self.table_scheduled != Some(t) {
                        continue;
                    }
                    self.table_scheduled = None;
                    while let Some((_, s)) = self.hub.table.expire(now) {
                        self.hub.finish(s);
                    }
                    self.schedule_table();
                    self.report_ended(handler);
                }
                Timer::App => {
                    if self.app_deadline == Some(t) {
                        self.app_deadline = None;
                    }
                }
            }
        }
    }

    /// A connection's time is up: a head or body that took too long, a client that
    /// took nothing, a kept-alive connection left unused.
    fn timed_out(&mut self, i: usize) {
        let (now, write_timeout) = (self.now, self.opts.write_timeout);
        let Some(c) = self.conns.get_mut(i).and_then(Option::as_mut) else { return };
        if c.stalled_since.is_some_and(|t| t + write_timeout <= now) {
            return self.close_conn(i);
        }
        match c.phase {
            Phase::Head if c.head_started.is_some() => {
                error_response(&mut c.wbuf, 408, "Request Timeout: the request head took too long", true);
                c.phase = Phase::Closing;
                c.rbuf.clear();
                c.rstart = 0;
                c.write_some(now);
                self.close_conn(i);
            }
            Phase::Body { .. } => {
                error_response(&mut c.wbuf, 408, "Request Timeout: the request body took too long", true);
                c.write_some(now);
                self.close_conn(i);
            }
            _ => self.close_conn(i),
        }
    }

    fn take_letters(&mut self, handler: &mut H) {
        // While a session's queue is over its bound, nothing more is taken (workers
        // wait on the full mailbox) until it drains.
        let full = self.hub.awake > 0 && self.any_outbox_full();
        if !full {
            self.queue.take(LETTERS_PER_TURN, &mut self.letters);
        }
        while let Some(letter) = self.letters.pop_front() {
            match letter.0 {
                Letter::App(m) => self.with_hub_context(handler, None, |h, cx| h.on_message(cx, m)),
                Letter::Act(tag, action) => {
                    self.actions.push((tag, action));
                    self.route_actions();
                }
            }
        }
    }

    fn any_outbox_full(&self) -> bool {
        self.hub
            .dirty
            .iter()
            .any(|h| self.hub.table.get(*h).is_some_and(|s| matches!(&s.life, Life::Awake(a) if a.outbox.is_full())))
    }
}

fn session_caps<const OUT: usize, const IN: usize>(hub: &mut Hub<'_, OUT, IN>, h: SessionHandle) {
    if let Some(s) = hub.table.get_mut(h)
        && let Life::Awake(a) = &s.life
    {
        s.caps = a.endpoint.peer_capabilities();
    }
}

/// A refusal as bytes on the wire (its connection framing patched in later).
fn format_refusal(config: &ServerConfig<'_>, refusal: &Refusal<'_>) -> Vec<u8> {
    let mut buf = vec![0u8; MIN_RESPONSE_BUFFER];
    let mut out = Vec::new();
    if let Ok(r) = refusal.write(config, None, &mut buf) {
        response_head(&mut out, r.status, r.field_lines(), BodyFraming::Length(r.body.len()), false);
        out.extend_from_slice(r.body);
    }
    out
}

/// The session a request names, as sent (for the token check, before it is validated).
fn session_named<'r>(head: &RequestHead<'r, H1<'_, 'r>>, kind: RequestKind) -> Option<&'r str> {
    let raw = match kind {
        RequestKind::LegacyPost => {
            let query = head.query()?;
            return query.split('&').find_map(|pair| match pair.split_once('=') {
                Some(("sessionId" | "session_id", v)) => Some(v),
                _ => None,
            });
        }
        RequestKind::LegacyGet => return None,
        _ => head.headers.0.iter().find(|h| h.name.eq_ignore_ascii_case("mcp-session-id"))?.value,
    };
    std::str::from_utf8(raw).ok()
}

/// The protected resource metadata document (RFC 9728) for a GET; 405 otherwise. Any
/// origin may read it (browser-based clients fetch it across origins): it is public.
fn metadata_response(method: &str, document: &str) -> Vec<u8> {
    let mut out = Vec::new();
    if method == "GET" {
        let fields =
            b"Content-Type: application/json\r\nCache-Control: max-age=3600\r\nAccess-Control-Allow-Origin: *\r\n";
        response_head(&mut out, 200, fields, BodyFraming::Length(document.len()), false);
        out.extend_from_slice(document.as_bytes());
    } else {
        error_response(&mut out, 405, "Method Not Allowed", false);
        if let Some(at) = out.windows(2).position(|w| w == b"\r\n") {
            out.splice(at + 2..at + 2, b"Allow: GET\r\n".iter().copied());
        }
    }
    out
}

/// Adds `Connection: close` to a formatted response when the connection ends after it.
fn patch_close(mut bytes: Vec<u8>, close: bool) -> Vec<u8> {
    if close && let Some(at) = bytes.windows(4).position(|w| w == b"\r\n\r\n") {
        bytes.splice(at + 2..at + 2, b"Connection: close\r\n".iter().copied());
    }
    bytes
}

impl<H: Handler, const OUT: usize, const IN: usize> Drop for HttpServer<'_, H, OUT, IN> {
    fn drop(&mut self) {
        self.queue.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::{Prefix, encoded_response};

    #[test]
    fn encoded_responses_are_told_from_their_start_as_the_full_scan_tells_them() {
        let cases: [(&[u8], Option<bool>); 9] = [
            (br#"{"jsonrpc":"2.0","id":7,"result":{"content":[]}}"#, Some(true)),
            (br#"{"jsonrpc":"2.0","id":"a-1","error":{"code":-32601,"message":"m"}}"#, Some(false)),
            (br#"{"jsonrpc":"2.0","id":-3,"result":{}}"#, Some(true)),
            // Not as the encoder writes a response: the full scan decides.
            (br#"{"jsonrpc":"2.0","id":"a\"b","result":{}}"#, None),
            (br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, None),
            (br#"{"jsonrpc":"2.0","method":"notifications/progress","params":{}}"#, None),
            (br#"{"jsonrpc":"2.0","id":1"#, None),
            (br#"{"jsonrpc":"2.0","id":"#, None),
            (br#"{"id":1,"result":{}}"#, None),
        ];
        for (message, want) in cases {
            assert_eq!(encoded_response(message), want, "{}", String::from_utf8_lossy(message));
            if let Some(result) = want {
                let p = Prefix::scan(message);
                assert!(p.answer && !p.method);
                let parsed = crate::wire::Message::parse(message).ok();
                assert_eq!(result, matches!(parsed, Some(crate::wire::Message::Response(_))));
            }
        }
    }
}
