//! A client and a server wired together through real byte framing, on a virtual clock.
//!
//! No threads, no sleeps: `drive` moves bytes between the two endpoints (in chunks of a
//! chosen size, to exercise framing) until neither has anything more to say, and
//! `advance` moves the clock and fires the timers. Events are recorded as owned values
//! so tests can assert on them after the fact.
#![allow(dead_code)]

use std::time::Duration;

use mcp_sansio::mcp::{Method, ProtocolVersion, Role};
use std::collections::HashMap;

use mcp_sansio::session::{
    Config, Endpoint, Era, Event, Misbehavior, Output, PendingRequest, Responded, RetryTicket, SendError,
};
use mcp_sansio::time::Instant;
use mcp_sansio::wire::RawJson;

/// An event with every borrowed part copied out.
#[derive(Clone, Debug, PartialEq)]
pub enum Ev {
    Negotiated { version: ProtocolVersion, peer: String },
    Ready { version: ProtocolVersion },
    Request { id: String, method: String, params: Option<String> },
    Notification { method: String, params: Option<String> },
    Response { id: String, method: Option<String>, result: String },
    Error { id: String, method: Option<String>, code: i32, message: String },
    Progress { id: String, progress: f64, total: Option<f64>, message: Option<String> },
    TimedOut { id: String },
    Failed { id: String, reason: String },
    Cancelled { id: String, reason: Option<String> },
    Expired { id: String },
    ResponseTooLong { id: String, len: usize },
    PeerUnresponsive,
    Misbehavior(String),
    Closed { reason: String },
    InputRequired { id: String, result: String },
    TaskCreated { id: String, task: String },
    ResultRejected { id: String, problem: String },
    Subscribed { id: String, granted: String },
    SubscriptionEnded { id: String, cancelled: bool },
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

pub fn own(ev: &Event<'_>) -> Ev {
    match ev {
        Event::Negotiated { version, peer } => Ev::Negotiated { version: *version, peer: text(peer.as_bytes()) },
        Event::Ready { version } => Ev::Ready { version: *version },
        Event::Request(r) => Ev::Request {
            id: text(r.id.as_token()),
            method: r.method.to_string(),
            params: r.params.map(|p| text(p.as_bytes())),
        },
        Event::Notification(n) => {
            Ev::Notification { method: n.method.to_string(), params: n.params.map(|p| text(p.as_bytes())) }
        }
        Event::Response { id, method, result } => Ev::Response {
            id: id.to_string(),
            method: method.map(|m| m.name().to_string()),
            result: text(result.as_bytes()),
        },
        Event::Error { id, method, error } => Ev::Error {
            id: id.to_string(),
            method: method.map(|m| m.name().to_string()),
            code: error.code.0,
            message: error.message.to_string(),
        },
        Event::Progress { id, progress, total, message } => Ev::Progress {
            id: id.to_string(),
            progress: progress.as_f64().expect("a finite progress value"),
            total: total.map(|t| t.as_f64().expect("a finite total")),
            message: message.map(|m| m.to_string()),
        },
        Event::TimedOut { id, .. } => Ev::TimedOut { id: id.to_string() },
        Event::Failed { id, reason, .. } => Ev::Failed { id: id.to_string(), reason: format!("{reason:?}") },
        Event::Cancelled { request, reason } => {
            Ev::Cancelled { id: text(request.id().as_token()), reason: reason.map(|r| r.to_string()) }
        }
        Event::Expired { request, .. } => Ev::Expired { id: text(request.id().as_token()) },
        Event::ResponseTooLong { id, len, .. } => Ev::ResponseTooLong { id: id.to_string(), len: *len },
        Event::PeerUnresponsive { .. } => Ev::PeerUnresponsive,
        Event::Misbehavior(m) => Ev::Misbehavior(misbehavior(m)),
        Event::Closed { reason } => Ev::Closed { reason: format!("{reason:?}") },
        Event::InputRequired { id, result, .. } => {
            Ev::InputRequired { id: id.to_string(), result: text(result.as_bytes()) }
        }
        Event::TaskCreated { id, task, .. } => Ev::TaskCreated { id: id.to_string(), task: text(task.as_bytes()) },
        Event::ResultRejected { id, problem, .. } => {
            Ev::ResultRejected { id: id.to_string(), problem: format!("{problem:?}") }
        }
        Event::Subscribed { id, granted } => Ev::Subscribed { id: id.to_string(), granted: text(granted.as_bytes()) },
        Event::SubscriptionEnded { id, cancelled } => {
            Ev::SubscriptionEnded { id: id.to_string(), cancelled: *cancelled }
        }
        other => panic!("unexpected event {other:?}"),
    }
}

/// A compact description: the variant and its key facts.
pub fn misbehavior(m: &Misbehavior<'_>) -> String {
    match m {
        Misbehavior::InvalidMessage { error, replied } => {
            format!("InvalidMessage({:?}, replied={replied})", error.rule)
        }
        Misbehavior::LineTooLong { len, replied: false } => format!("LineTooLong({len})"),
        Misbehavior::LineTooLong { len, replied: true } => format!("LineTooLong({len}, replied)"),
        Misbehavior::UnterminatedLine { len } => format!("UnterminatedLine({len})"),
        Misbehavior::UnknownResponse { id } => format!("UnknownResponse({})", text(id.as_token())),
        Misbehavior::LateResponse { id } => format!("LateResponse({})", text(id.as_token())),
        Misbehavior::UncorrelatedError { error } => format!("UncorrelatedError({})", error.code.0),
        Misbehavior::RequestRefused { id, method, code, reason } => {
            format!("RequestRefused({}, {method}, {}, {reason:?})", text(id.as_token()), code.0)
        }
        Misbehavior::NotificationIgnored { method, reason } => format!("NotificationIgnored({method}, {reason:?})"),
        Misbehavior::UnknownProgressToken { token } => format!("UnknownProgressToken({})", text(token.as_bytes())),
        Misbehavior::NonIncreasingProgress { id, progress } => format!("NonIncreasingProgress({id}, {progress})"),
        Misbehavior::InvalidNotificationParams { method } => format!("InvalidNotificationParams({method})"),
        other => format!("{other:?}"),
    }
}

pub const CLIENT_INFO: &[u8] = br#"{"name":"test-client","version":"1.0.0"}"#;
pub const SERVER_INFO: &[u8] = br#"{"name":"test-server","version":"2.0.0"}"#;
pub const CLIENT_CAPS: &[u8] = br#"{"roots":{"listChanged":true},"sampling":{}}"#;
pub const SERVER_CAPS: &[u8] =
    br#"{"tools":{"listChanged":true},"resources":{"subscribe":true},"prompts":{},"logging":{},"completions":{}}"#;

/// A client's `initialize` and `initialized`, as lines, for a lone server.
pub fn handshake_lines() -> Vec<u8> {
    concat!(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        "\n"
    )
    .as_bytes()
    .to_vec()
}

pub fn leak(n: usize) -> &'static mut [u8] {
    Box::leak(vec![0u8; n].into_boxed_slice())
}

pub fn raw(text: &'static [u8]) -> RawJson<'static> {
    RawJson::parse(text).unwrap()
}

/// A handshake-era client (the era pinned: the tests of the handshake expect it to open
/// with `initialize`; the stateless era has tests of its own).
pub fn client_config() -> Config<'static> {
    Config::new(Role::Client, raw(CLIENT_INFO)).capabilities(raw(CLIENT_CAPS)).era(Era::Legacy)
}

pub fn server_config() -> Config<'static> {
    Config::new(Role::Server, raw(SERVER_INFO)).capabilities(raw(SERVER_CAPS))
}

pub type Ep = Endpoint<'static, 4, 4>;

/// An endpoint with 4 outgoing slots and `IN` inbound ones.
pub type EpIn<const IN: usize> = Endpoint<'static, 4, IN>;

/// One side plus what it has emitted.
pub struct Side<const IN: usize = 4> {
    pub ep: EpIn<IN>,
    pub events: Vec<Ev>,
    /// Every byte this side has transmitted, in order.
    pub sent: Vec<u8>,
    /// Bytes transmitted but not yet delivered to the other side.
    pub pipe: Vec<u8>,
    /// Whether the other side has been told of end of input.
    pub eof_delivered: bool,
    /// Deliver EOF to the other side once `pipe` is empty.
    pub eof_pending: bool,
    /// How much of `sent` `new_lines` has returned.
    pub seen: usize,
    /// The peer's requests delivered, by id token, the latest for each id: what an
    /// application keeps to answer later.
    pub pending: HashMap<String, PendingRequest>,
    /// The retry tickets of `input_required` results, by the id of the request answered.
    pub tickets: HashMap<String, RetryTicket>,
}

impl<const IN: usize> Side<IN> {
    pub fn new(ep: EpIn<IN>) -> Self {
        Side {
            ep,
            events: Vec::new(),
            sent: Vec::new(),
            pipe: Vec::new(),
            eof_delivered: false,
            eof_pending: false,
            seen: 0,
            pending: HashMap::new(),
            tickets: HashMap::new(),
        }
    }

    /// Records an event: its owned form, and a request's [`PendingRequest`].
    pub fn record(
        events: &mut Vec<Ev>,
        pending: &mut HashMap<String, PendingRequest>,
        tickets: &mut HashMap<String, RetryTicket>,
        ev: &Event<'_>,
    ) {
        match ev {
            Event::Request(r) => {
                pending.insert(text(r.id.as_token()), r.pending());
            }
            Event::InputRequired { id, retry, .. } => {
                tickets.insert(id.to_string(), *retry);
            }
            _ => {}
        }
        events.push(own(ev));
    }

    /// The pending request the peer's request `id` was delivered with.
    pub fn pending_for(&self, id: &mcp_sansio::wire::RequestId) -> PendingRequest {
        match self.pending.get(&text(id.as_token())) {
            Some(p) => p.clone(),
            None => panic!("no request {id} was delivered"),
        }
    }

    /// Drains outputs; returns whether anything happened.
    pub fn drain(&mut self) -> bool {
        let mut any = false;
        loop {
            match self.ep.poll_output() {
                Output::Transmit(bytes) => {
                    assert!(!bytes.is_empty());
                    self.sent.extend_from_slice(&bytes);
                    self.pipe.extend_from_slice(&bytes);
                }
                Output::Event(ev) => Self::record(&mut self.events, &mut self.pending, &mut self.tickets, &ev),
                Output::Idle { .. } => return any,
            }
            any = true;
        }
    }

    /// The lines sent since the last call (or since the start), as strings.
    pub fn new_lines(&mut self) -> Vec<String> {
        let text = text(&self.sent[self.seen..]);
        self.seen = self.sent.len();
        text.lines().map(str::to_owned).collect()
    }

    /// Feeds bytes as if the peer had sent them, draining as needed.
    pub fn feed(&mut self, now: Instant, bytes: &[u8]) {
        let mut rest = bytes;
        while !rest.is_empty() {
            let n = self.ep.handle_input(now, rest);
            rest = &rest[n..];
            self.drain();
        }
        self.drain();
    }

    /// Answers the peer's request `id` with `result`.
    pub fn respond<R: serde::Serialize + ?Sized>(
        &mut self,
        id: &mcp_sansio::wire::RequestId,
        result: &R,
    ) -> Result<Responded, SendError> {
        let pending = self.pending_for(id);
        self.ep.respond(&pending, result)
    }

    /// Answers the peer's request `id` with an error.
    pub fn respond_error(
        &mut self,
        id: &mcp_sansio::wire::RequestId,
        code: mcp_sansio::wire::ErrorCode,
        message: &str,
    ) -> Result<Responded, SendError> {
        let pending = self.pending_for(id);
        self.ep.respond_error(&pending, code, message)
    }

    /// Reports progress on the peer's request `id`.
    pub fn send_progress(
        &mut self,
        id: &mcp_sansio::wire::RequestId,
        progress: f64,
        total: Option<f64>,
        message: Option<&str>,
    ) -> Result<Responded, SendError> {
        let pending = self.pending_for(id);
        self.ep.send_progress(&pending, progress, total, message)
    }

    /// Takes the recorded events.
    pub fn take(&mut self) -> Vec<Ev> {
        std::mem::take(&mut self.events)
    }

    /// The lines this side sent, as strings.
    pub fn sent_lines(&self) -> Vec<String> {
        text(&self.sent).lines().map(str::to_owned).collect()
    }
}

impl Side {
    /// A side with no peer: tests play the peer by feeding lines.
    pub fn lone(config: Config<'static>) -> Self {
        Self::lone_with(config, 64 * 1024, 64 * 1024)
    }

    /// A lone side with buffers of the given sizes.
    pub fn lone_with(config: Config<'static>, rx: usize, tx: usize) -> Self {
        let mut side = Side::new(Ep::new(config, leak(rx), leak(tx), Instant::ZERO).unwrap());
        side.drain();
        side
    }
}

pub struct Pair {
    pub client: Side<4>,
    pub server: Side<4>,
    pub now: Instant,
    /// Bytes are delivered in chunks of this size (1 = byte by byte).
    pub chunk: usize,
}

impl Pair {
    pub fn new() -> Self {
        Self::with(client_config(), server_config())
    }

    pub fn with(client: Config<'static>, server: Config<'static>) -> Self {
        Self::with_buffers(client, server, [64 * 1024; 4])
    }

    /// A pair with chosen buffer sizes: client rx, client tx, server rx, server tx.
    pub fn with_buffers(client: Config<'static>, server: Config<'static>, sizes: [usize; 4]) -> Self {
        let now = Instant::ZERO;
        let client = Ep::new(client, leak(sizes[0]), leak(sizes[1]), now).unwrap();
        let server = Ep::new(server, leak(sizes[2]), leak(sizes[3]), now).unwrap();
        Pair { client: Side::new(client), server: Side::new(server), now, chunk: 7 }
    }

    /// A pair that has completed the handshake with these configurations, with the
    /// handshake events and lines cleared.
    pub fn ready_with(client: Config<'static>, server: Config<'static>) -> Self {
        let mut p = Self::with(client, server);
        p.finish_handshake();
        p
    }

    fn finish_handshake(&mut self) {
        self.drive();
        assert!(matches!(self.client.events.last(), Some(Ev::Ready { .. })), "{:?}", self.client.events);
        assert!(matches!(self.server.events.last(), Some(Ev::Ready { .. })), "{:?}", self.server.events);
        self.client.take();
        self.server.take();
        self.client.new_lines();
        self.server.new_lines();
    }

    /// A pair that has completed the handshake, with the handshake events cleared.
    pub fn ready() -> Self {
        let mut p = Self::new();
        p.finish_handshake();
        p
    }

    fn deliver(from: &mut Side, to: &mut Side, chunk: usize, now: Instant) -> bool {
        let mut any = false;
        while !from.pipe.is_empty() {
            let n = chunk.min(from.pipe.len());
            let taken = to.ep.handle_input(now, &from.pipe[..n]);
            from.pipe.drain(..taken);
            any |= taken > 0;
            to.drain();
            if taken == 0 {
                // The receiver's buffer is full of unprocessed lines: drain made room.
                continue;
            }
        }
        if from.eof_pending && !from.eof_delivered {
            from.eof_delivered = true;
            to.ep.handle_eof(now);
            any = true;
        }
        any
    }

    /// Exchanges bytes until both sides are quiet.
    pub fn drive(&mut self) {
        for _ in 0..10_000 {
            let mut any = self.client.drain() | self.server.drain();
            any |= Self::deliver(&mut self.client, &mut self.server, self.chunk, self.now);
            any |= Self::deliver(&mut self.server, &mut self.client, self.chunk, self.now);
            if !any {
                return;
            }
        }
        panic!("drive did not settle");
    }

    /// Moves the clock forward, fires both sides' timers, and exchanges bytes.
    pub fn advance(&mut self, d: Duration) {
        self.now = self.now + d;
        self.client.ep.handle_timeout(self.now);
        self.server.ep.handle_timeout(self.now);
        self.drive();
    }

    /// The test speaks for the client: `bytes` go to the server, and what the server says
    /// in return is recorded in its `sent` but not delivered to the real client.
    pub fn play_client(&mut self, bytes: &[u8]) {
        self.drive();
        self.server.feed(self.now, bytes);
        self.server.pipe.clear();
    }

    /// The test speaks for the server (see [`play_client`](Self::play_client)).
    pub fn play_server(&mut self, bytes: &[u8]) {
        self.drive();
        self.client.feed(self.now, bytes);
        self.client.pipe.clear();
    }

    /// Feeds raw bytes to the server as if the client had sent them.
    pub fn inject_to_server(&mut self, bytes: &[u8]) {
        let mut rest = bytes;
        while !rest.is_empty() {
            let n = self.server.ep.handle_input(self.now, rest);
            rest = &rest[n..];
            self.server.drain();
        }
        self.drive();
    }

    /// Feeds raw bytes to the client as if the server had sent them.
    pub fn inject_to_client(&mut self, bytes: &[u8]) {
        let mut rest = bytes;
        while !rest.is_empty() {
            let n = self.client.ep.handle_input(self.now, rest);
            rest = &rest[n..];
            self.client.drain();
        }
        self.drive();
    }
}

pub fn method_name(m: Method<'_>) -> String {
    m.to_string()
}
