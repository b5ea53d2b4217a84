//! The client core and the server core connected in memory, exchange by exchange, on a
//! virtual clock, with faults injected on the way.
//!
//! The client side is a client `Endpoint` (message mode) and an `HttpClient` driven by a
//! `Link`; the server side is assembled from the server core's pieces the way an adapter
//! would: `classify` for every head, `classify_body` for POSTs, a `SessionTable` of
//! sessions each holding a server `Endpoint` (message mode) and its `Streams`, the
//! endpoint's transmits pushed by origin, the streams' output read into the "network".
//! The network is a byte queue per exchange: the client takes what it takes, the rest
//! waits. Faults: drop a connection (both sides see it), restart the server (its
//! sessions are forgotten), refuse tokens, and any `ServerConfig` (no GET stream,
//! polling, a legacy-only server).
#![allow(dead_code)]

use std::collections::{BTreeMap, VecDeque};

use mcp_sansio::http::client::{ClientConfig, ExchangeId, ExchangeKind, Failure, HttpClient, HttpMethod, Link, Step};
use mcp_sansio::http::server::{
    AuthVerdict, BodyKind, Lookup, PostBody, Refusal, RequestHead, RequestKind, ServerConfig, SessionHandle,
    SessionStore, SessionTable, Slots, StreamConfig, StreamOutput, Streams, check_session_version, classify,
    classify_body, empty_response, ok_head,
};
use mcp_sansio::mcp::{Method, Role};
use mcp_sansio::session::{Config, Endpoint, Event, Origin, Output, OutputMode, PendingRequest, RequestOptions};
use mcp_sansio::wire::{Message, RawJson, RequestId};
use mcp_sansio::{Instant, ProtocolVersion};

pub const URL: &str = "http://localhost:3000/mcp";

fn leak(n: usize) -> &'static mut [u8] {
    vec![0u8; n].leak()
}

pub type ClientEndpoint = Endpoint<'static, 8, 8>;
type ServerEndpoint = Endpoint<'static, 8, 8>;

pub fn client_endpoint(versions: Option<mcp_sansio::mcp::VersionSet>) -> ClientEndpoint {
    let info = RawJson::parse(br#"{"name":"pair-client","version":"1"}"#).unwrap();
    let caps = RawJson::parse(br#"{"sampling":{}}"#).unwrap();
    // The server side of the pair is the handshake era's (sessions from initialize).
    let mut config = Config::new(Role::Client, info)
        .capabilities(caps)
        .output(OutputMode::Messages)
        .era(mcp_sansio::session::Era::Legacy);
    if let Some(v) = versions {
        config = config.versions(v);
    }
    Endpoint::new(config, leak(16384), leak(16384), Instant::ZERO).unwrap()
}

fn server_endpoint(now: Instant) -> ServerEndpoint {
    let info = RawJson::parse(br#"{"name":"pair-server","version":"1"}"#).unwrap();
    let caps = RawJson::parse(br#"{"tools":{}}"#).unwrap();
    let config = Config::new(Role::Server, info).capabilities(caps).output(OutputMode::Messages);
    Endpoint::new(config, leak(16384), leak(16384), now).unwrap()
}

/// One server session: its endpoint, its streams, what its app is waiting on.
pub struct ServerSession {
    ep: ServerEndpoint,
    streams: Streams<Vec<u8>>,
    id: String,
    version: Option<ProtocolVersion>,
    /// A transmit the streams could not take yet.
    held: bool,
    /// `tools/call sample`: the call waiting for the client's sampling answer.
    sampling: Vec<(RequestId, PendingRequest)>,
}

/// What the server's app did, for the tests to look at.
#[derive(Default)]
pub struct ServerLog {
    pub requests: Vec<String>,
    pub statuses: Vec<(HttpMethod, u16)>,
    pub deleted: usize,
}

/// The server: its configuration, its sessions, and which exchange belongs to which.
pub struct Server {
    pub config: ServerConfig<'static>,
    table: SessionTable<ServerSession, Slots<ServerSession, 8>>,
    minted: u64,
    /// Exchanges carried by a session's streams.
    conns: BTreeMap<u32, SessionHandle>,
    /// The token it wants (`None`: no authorization).
    pub token: Option<&'static str>,
    pub log: ServerLog,
}

/// A request the client made: its kind, method and headers.
pub type Made = (ExchangeKind, HttpMethod, Vec<(String, String)>);

/// A response part on its way to the client.
enum Part {
    Head(u16, Vec<(String, Vec<u8>)>),
    Body(Vec<u8>),
    End,
    Fail,
}

pub struct Pair {
    pub now: u64,
    pub ep: ClientEndpoint,
    pub http: HttpClient<'static, 4>,
    pub link: Link,
    pub server: Server,
    /// Per exchange, what the server sent and the client has not taken yet.
    net: BTreeMap<u32, (ExchangeId, VecDeque<Part>)>,
    /// What the client's application saw.
    pub session_events: Vec<String>,
    pub transport_events: Vec<String>,
    /// Exchanges refused for credentials.
    pub auth: Vec<ExchangeId>,
    /// Every request the client made: (kind, method, headers).
    pub requests: Vec<Made>,
    pub responses: Vec<(String, String)>,
    /// Drop the connection of the next POST response stream after this many bytes.
    pub cut_next_stream_after: Option<usize>,
}

impl Server {
    pub fn new(config: ServerConfig<'static>) -> Self {
        Self {
            config,
            table: SessionTable::new(Slots::new(), config.idle_timeout),
            minted: 0,
            conns: BTreeMap::new(),
            token: None,
            log: ServerLog::default(),
        }
    }

    /// Forgets every session, as a restarted process would.
    pub fn restart(&mut self) {
        let config = self.config;
        let token = self.token;
        let minted = self.minted;
        *self = Server::new(config);
        self.token = token;
        self.minted = minted + 1000;
    }

    fn stream_config(&self) -> StreamConfig {
        StreamConfig {
            json_responses: self.config.json_responses,
            keepalive: self.config.keepalive,
            retry_ms: self.config.retry_ms,
            close_after_priming: self.config.close_after_priming,
            ..StreamConfig::default()
        }
    }

    fn new_id(&mut self) -> String {
        self.minted += 1;
        format!("sess-{:08x}", self.minted * 0x9e37_79b9)
    }
}

fn respond_now(out: &mut VecDeque<Part>, status: u16, headers: Vec<(String, Vec<u8>)>, body: &[u8]) {
    out.push_back(Part::Head(status, headers));
    if !body.is_empty() {
        out.push_back(Part::Body(body.to_vec()));
    }
    out.push_back(Part::End);
}

fn response_parts(r: &mcp_sansio::http::server::Response<'_>) -> Vec<(String, Vec<u8>)> {
    r.headers().map(|(n, v)| (n.to_string(), v.as_bytes().to_vec())).collect()
}

impl Pair {
    pub fn new(config: ServerConfig<'static>) -> Self {
        Self::with(config, ClientConfig::new(URL).unwrap(), None)
    }

    pub fn with(
        server: ServerConfig<'static>,
        client: ClientConfig<'static>,
        versions: Option<mcp_sansio::mcp::VersionSet>,
    ) -> Self {
        let http = HttpClient::new(client, leak(client.storage_len(4, 16384))).unwrap();
        Self {
            now: 0,
            ep: client_endpoint(versions),
            http,
            link: Link::new(),
            server: Server::new(server),
            net: BTreeMap::new(),
            session_events: Vec::new(),
            transport_events: Vec::new(),
            auth: Vec::new(),
            requests: Vec::new(),
            responses: Vec::new(),
            cut_next_stream_after: None,
        }
    }

    pub fn at(&self) -> Instant {
        Instant::from_millis(self.now)
    }

    /// Runs both sides until neither has anything to do at this instant.
    pub fn settle(&mut self) {
        for _ in 0..100_000 {
            let mut progress = self.client_step();
            progress |= self.server_step();
            progress |= self.deliver();
            if !progress {
                return;
            }
        }
        panic!("the pair never settles");
    }

    /// Moves the clock to the next deadline of either side (at most `limit`), firing timers.
    pub fn advance(&mut self, limit: u64) -> bool {
        let client = self.http.poll_timeout().into_iter().chain(self.ep.poll_timeout()).min();
        let server = self.server_deadline();
        let Some(next) = client.into_iter().chain(server).min() else { return false };
        if next.as_millis() > limit {
            return false;
        }
        self.now = self.now.max(next.as_millis());
        let now = self.at();
        self.link.handle_timeout(now, &mut self.ep, &mut self.http);
        for h in self.handles() {
            if let Some(s) = self.server.table.get_mut(h) {
                s.ep.handle_timeout(now);
                s.streams.handle_timeout(now);
            }
        }
        self.settle();
        true
    }

    /// Runs until `until` ms, deadline by deadline.
    pub fn run_until(&mut self, until: u64) {
        self.settle();
        while self.advance(until) {}
        self.now = self.now.max(until);
    }

    fn server_deadline(&self) -> Option<Instant> {
        let mut best: Option<Instant> = None;
        let mut h = None;
        while let Some(next) = SessionStore::next(self.server.table.store(), h) {
            h = Some(next);
            if let Some(s) = self.server.table.get(next) {
                for t in [s.ep.poll_timeout(), s.streams.poll_timeout()].into_iter().flatten() {
                    best = Some(best.map_or(t, |b| b.min(t)));
                }
            }
        }
        best
    }

    fn handles(&self) -> Vec<SessionHandle> {
        let mut v = Vec::new();
        let mut h = None;
        while let Some(next) = SessionStore::next(self.server.table.store(), h) {
            h = Some(next);
            v.push(next);
        }
        v
    }

    /// Drains the client; requests go to the server.
    fn client_step(&mut self) -> bool {
        let now = self.at();
        let mut progress = false;
        for _ in 0..10_000 {
            match self.link.poll(now, &mut self.ep, &mut self.http) {
                Step::Request(r) => {
                    progress = true;
                    let headers: Vec<(String, String)> =
                        r.headers().iter().map(|(n, v)| (n.to_string(), v.to_string())).collect();
                    self.requests.push((r.kind, r.method, headers.clone()));
                    let (x, method, url, body) = (r.exchange, r.method, r.url.to_string(), r.body.to_vec());
                    self.server_request(now, x, method, &url, &headers, &body);
                }
                Step::Abort(x) => {
                    progress = true;
                    self.net.remove(&x.as_u32());
                    self.server_connection_closed(x.as_u32());
                }
                Step::Session(Event::Request(mut req)) => {
                    progress = true;
                    self.session_events.push(format!("request {}", req.method.name()));
                    let _ = req.respond(
                        &RawJson::parse(
                            br#"{"role":"assistant","content":{"type":"text","text":"sampled"},"model":"m"}"#,
                        )
                        .unwrap(),
                    );
                }
                Step::Session(Event::Response { id, method, result }) => {
                    progress = true;
                    self.responses.push((
                        format!("{id}:{}", method.map_or("?", |m| m.name())),
                        String::from_utf8_lossy(result.as_bytes()).into_owned(),
                    ));
                }
                Step::Session(e) => {
                    progress = true;
                    self.session_events.push(format!("{e:?}"));
                }
                Step::Transport(e) => {
                    progress = true;
                    if let mcp_sansio::http::client::Event::AuthRequired { exchange, .. } = e {
                        self.auth.push(exchange);
                    }
                    self.transport_events.push(format!("{e:?}"));
                }
                Step::Unsent(e) => panic!("unsent: {e:?}"),
                Step::Idle { next_timeout } => {
                    if next_timeout == Some(now) {
                        self.link.handle_timeout(now, &mut self.ep, &mut self.http);
                        continue;
                    }
                    break;
                }
            }
        }
        progress
    }

    fn server_connection_closed(&mut self, x: u32) {
        if let Some(h) = self.server.conns.remove(&x)
            && let Some(s) = self.server.table.get_mut(h)
        {
            s.streams.connection_closed(x);
        }
    }

    /// Drops a connection on both sides: the server sees it closed, the client sees it fail.
    pub fn drop_connection(&mut self, x: ExchangeId) {
        self.net.remove(&x.as_u32());
        self.server_connection_closed(x.as_u32());
        self.http.handle_failure(self.at(), x, Failure::Broken);
        self.settle();
    }

    /// The open exchanges of a kind, oldest first (by the client's request log).
    pub fn open_exchanges(&self) -> Vec<ExchangeId> {
        self.net.values().map(|(x, _)| *x).collect()
    }

    fn server_request(
        &mut self,
        now: Instant,
        x: ExchangeId,
        method: HttpMethod,
        url: &str,
        headers: &[(String, String)],
        body: &[u8],
    ) {
        let key = x.as_u32();
        let mut out = VecDeque::new();
        let target = url.strip_prefix("http://localhost:3000").unwrap_or(url).to_string();
        let mut h: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
        h.push(("Host", "localhost:3000"));
        let content_length = body.len().to_string();
        if method == HttpMethod::Post {
            h.push(("Content-Length", &content_length));
        }
        let head = RequestHead::new(method.as_str(), &target, &h[..]);
        let verdict = match (self.server.token, head.bearer_token()) {
            (None, _) => AuthVerdict::Allow,
            (Some(want), Some(got)) if got == want.as_bytes() => AuthVerdict::Allow,
            (Some(_), Some(_)) => AuthVerdict::Unauthorized { error: Some("invalid_token"), description: None },
            (Some(_), None) => AuthVerdict::Unauthorized { error: None, description: None },
        };
        let config = self.server.config;
        let mut buf = vec![0u8; 4096];
        let refuse = |r: Refusal<'_>, version, out: &mut VecDeque<Part>, buf: &mut [u8]| {
            let resp = r.write(&config, version, buf).unwrap();
            let parts = response_parts(&resp);
            respond_now(out, resp.status, parts, resp.body);
        };
        let c = match classify(&config, &head, verdict) {
            Ok(c) => c,
            Err(r) => {
                self.server.log.statuses.push((method, r.status()));
                refuse(r, None, &mut out, &mut buf);
                self.net.insert(key, (x, out));
                return;
            }
        };
        let lookup = |server: &Server, id: Option<&str>| match id.map(|id| server.table.lookup(id)) {
            Some(Lookup::Live(h)) => Some(h),
            _ => None,
        };
        match c.kind {
            RequestKind::Post | RequestKind::LegacyPost => {
                let parsed = match classify_body(body, false, 64) {
                    Ok(b) => b,
                    Err(bad) => {
                        refuse(Refusal::BadRequest(bad), None, &mut out, &mut buf);
                        self.net.insert(key, (x, out));
                        return;
                    }
                };
                let handle = match (parsed, c.kind) {
                    (PostBody::Initialize { .. }, RequestKind::Post) if c.session_id.is_none() => {
                        let id = self.server.new_id();
                        let streams = Streams::new(vec![0; 65536], self.server.stream_config(), 0x5eed, None);
                        let session = ServerSession {
                            ep: server_endpoint(now),
                            streams,
                            id: id.clone(),
                            version: None,
                            held: false,
                            sampling: Vec::new(),
                        };
                        let sid = mcp_sansio::http::server::SessionId::parse(&id).unwrap();
                        match self.server.table.open(now, sid, session) {
                            Ok(h) => h,
                            Err(_) => panic!("table full"),
                        }
                    }
                    _ => match lookup(&self.server, c.session_id) {
                        Some(h) => h,
                        None => {
                            let r = if c.session_id.is_some() {
                                Refusal::SessionNotFound
                            } else {
                                Refusal::BadRequest(mcp_sansio::http::server::BadRequest::MissingSessionId)
                            };
                            self.server.log.statuses.push((method, r.status()));
                            refuse(r, None, &mut out, &mut buf);
                            self.net.insert(key, (x, out));
                            return;
                        }
                    },
                };
                let s = self.server.table.get_mut(handle).unwrap();
                if c.kind == RequestKind::Post
                    && !matches!(parsed, PostBody::Initialize { .. })
                    && let Some(v) = s.version
                    && let Err(bad) = check_session_version(c.protocol_version, v)
                {
                    refuse(Refusal::BadRequest(bad), Some(v), &mut out, &mut buf);
                    self.net.insert(key, (x, out));
                    return;
                }
                match (parsed, c.kind) {
                    (PostBody::Initialize { .. } | PostBody::Requests { .. }, RequestKind::Post) => {
                        let count = match parsed {
                            PostBody::Requests { count } => count,
                            _ => 1,
                        };
                        let origin = s.streams.open_post(now, key, count).unwrap();
                        assert!(s.ep.handle_frame_from(now, Some(Origin(origin)), body));
                        self.server.conns.insert(key, handle);
                        self.net.insert(key, (x, out));
                    }
                    _ => {
                        // Notifications and responses (and every legacy POST): 202.
                        assert!(s.ep.handle_frame(now, body));
                        let resp = empty_response(202, &mut buf).unwrap();
                        let parts = response_parts(&resp);
                        respond_now(&mut out, 202, parts, b"");
                        self.net.insert(key, (x, out));
                    }
                }
            }
            RequestKind::Get => match lookup(&self.server, c.session_id) {
                Some(h) => {
                    let s = self.server.table.get_mut(h).unwrap();
                    s.streams.open_get(now, key, c.last_event_id).unwrap();
                    self.server.conns.insert(key, h);
                    self.net.insert(key, (x, out));
                }
                None => {
                    refuse(Refusal::SessionNotFound, None, &mut out, &mut buf);
                    self.net.insert(key, (x, out));
                }
            },
            RequestKind::Delete => {
                if let Some(h) = lookup(&self.server, c.session_id) {
                    self.server.table.end(now, h);
                    self.server.log.deleted += 1;
                }
                let resp = empty_response(200, &mut buf).unwrap();
                let parts = response_parts(&resp);
                respond_now(&mut out, 200, parts, b"");
                self.net.insert(key, (x, out));
            }
            RequestKind::LegacyGet => {
                let id = self.server.new_id();
                let post_url = format!("{}?sessionId={id}", config.legacy_post_path);
                let streams = Streams::legacy(vec![0; 65536], self.server.stream_config(), &post_url).unwrap();
                let session = ServerSession {
                    ep: server_endpoint(now),
                    streams,
                    id: id.clone(),
                    version: Some(ProtocolVersion::V2024_11_05),
                    held: false,
                    sampling: Vec::new(),
                };
                let sid = mcp_sansio::http::server::SessionId::parse(&id).unwrap();
                let h = self.server.table.open(now, sid, session).ok().unwrap();
                let s = self.server.table.get_mut(h).unwrap();
                s.streams.open_get(now, key, None).unwrap();
                self.server.conns.insert(key, h);
                self.net.insert(key, (x, out));
            }
        }
    }

    /// Runs every server session: its endpoint's events and transmits, its streams'
    /// heads and bytes.
    fn server_step(&mut self) -> bool {
        let now = self.at();
        let mut progress = false;
        for h in self.handles() {
            let Some(s) = self.server.table.get_mut(h) else { continue };
            // The endpoint: app events, transmits into the streams.
            loop {
                if s.held {
                    s.ep.sent(0);
                    s.held = false;
                }
                match s.ep.poll_output() {
                    Output::Transmit(t) => {
                        let bytes = t.bytes().to_vec();
                        let origin = t.origin.map(|o| o.0);
                        let is_response =
                            matches!(Message::parse(&bytes), Ok(Message::Response(_) | Message::Error(_)));
                        match s.streams.push(now, origin, &bytes, is_response) {
                            Ok(()) => progress = true,
                            Err(_) => {
                                s.held = true;
                                break;
                            }
                        }
                    }
                    Output::Event(Event::Negotiated { version, .. }) => {
                        progress = true;
                        s.version = Some(version);
                        s.streams.set_version(version);
                    }
                    Output::Event(Event::Request(mut req)) => {
                        progress = true;
                        let name = req
                            .params
                            .and_then(|p| p.get("name"))
                            .and_then(|n| n.as_str())
                            .map(|n| n.to_string())
                            .unwrap_or_default();
                        self.server.log.requests.push(format!("{} {name}", req.method.name()));
                        match (req.method, name.as_str()) {
                            (Method::ToolsList, _) => {
                                let _ = req.respond(
                                    &RawJson::parse(br#"{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}"#)
                                        .unwrap(),
                                );
                            }
                            (Method::ToolsCall, "progress") => {
                                let pending = req.pending();
                                drop(req);
                                let _ = s.ep.send_progress(&pending, 1u32, Some(2), Some("half"));
                                let _ = s.ep.send_progress(&pending, 2u32, Some(2), None);
                                let _ = s.ep.respond(
                                    &pending,
                                    &RawJson::parse(br#"{"content":[{"type":"text","text":"done"}]}"#).unwrap(),
                                );
                            }
                            (Method::ToolsCall, "sample") => {
                                let pending = req.pending();
                                drop(req);
                                let params = RawJson::parse(br#"{"messages":[],"maxTokens":5}"#).unwrap();
                                let id =
                                    s.ep.send_request(
                                        now,
                                        "sampling/createMessage",
                                        Some(&params),
                                        RequestOptions::default().related_to(&pending),
                                    )
                                    .unwrap();
                                s.sampling.push((id, pending));
                            }
                            (Method::ToolsCall, "slow") => {
                                // Answered later by `finish_slow`; the client gets the
                                // stream's head and priming event at once.
                                let pending = req.pending();
                                drop(req);
                                if let Some(o) = pending.origin() {
                                    s.streams.start_sse(o.0);
                                }
                                s.sampling.push((RequestId::from_u64(u64::MAX), pending));
                            }
                            (Method::ToolsCall, _) => {
                                let _ = req.respond(
                                    &RawJson::parse(br#"{"content":[{"type":"text","text":"echo"}]}"#).unwrap(),
                                );
                            }
                            _ => {
                                let _ = req
                                    .respond_error(mcp_sansio::wire::ErrorCode::METHOD_NOT_FOUND, "Method not found");
                            }
                        }
                    }
                    Output::Event(Event::Response { id, .. }) => {
                        progress = true;
                        if let Some(k) = s.sampling.iter().position(|(i, _)| *i == id) {
                            let (_, pending) = s.sampling.remove(k);
                            let _ = s.ep.respond(
                                &pending,
                                &RawJson::parse(br#"{"content":[{"type":"text","text":"sampled"}]}"#).unwrap(),
                            );
                        }
                    }
                    Output::Event(_) => progress = true,
                    Output::Idle { .. } => break,
                }
            }
            // The streams: heads and bytes onto the network.
            let session_id = s.id.clone();
            while let Some(o) = s.streams.poll() {
                progress = true;
                match o {
                    StreamOutput::Head { exchange, kind } => {
                        let mut buf = [0u8; 1024];
                        let head = ok_head(kind, Some(&session_id), &mut buf).unwrap();
                        let parts = response_parts(&head);
                        if let Some((_, q)) = self.net.get_mut(&exchange) {
                            q.push_back(Part::Head(200, parts));
                        }
                        let _ = matches!(kind, BodyKind::Sse);
                    }
                    StreamOutput::Readable { exchange } => loop {
                        let mut buf = [0u8; 512];
                        let r = s.streams.read(now, exchange, &mut buf);
                        if let Some((_, q)) = self.net.get_mut(&exchange) {
                            if r.n > 0 {
                                q.push_back(Part::Body(buf[..r.n].to_vec()));
                            }
                            if r.end {
                                q.push_back(Part::End);
                            }
                        }
                        if r.end || r.n == 0 {
                            if r.end {
                                self.server.conns.remove(&exchange);
                            }
                            break;
                        }
                    },
                    StreamOutput::Replaced { exchange } => {
                        if let Some((_, q)) = self.net.get_mut(&exchange) {
                            q.push_back(Part::End);
                        }
                        self.server.conns.remove(&exchange);
                    }
                    StreamOutput::Dropped { .. } => {}
                }
            }
        }
        progress
    }

    /// Answers the `slow` tool calls waiting on the server.
    pub fn finish_slow(&mut self) {
        for h in self.handles() {
            let Some(s) = self.server.table.get_mut(h) else { continue };
            let waiting: Vec<_> = s.sampling.drain(..).collect();
            for (id, pending) in waiting {
                if id == RequestId::from_u64(u64::MAX) {
                    let _ = s.ep.respond(
                        &pending,
                        &RawJson::parse(br#"{"content":[{"type":"text","text":"slow done"}]}"#).unwrap(),
                    );
                } else {
                    s.sampling.push((id, pending));
                }
            }
        }
        self.settle();
    }

    /// Hands the client what the network holds, as far as it takes.
    fn deliver(&mut self) -> bool {
        let now = self.at();
        let mut progress = false;
        let keys: Vec<u32> = self.net.keys().copied().collect();
        for key in keys {
            while let Some((x, part)) = self.net.get_mut(&key).and_then(|(x, q)| Some((*x, q.pop_front()?))) {
                progress = true;
                match part {
                    Part::Head(status, headers) => {
                        self.server.log.statuses.push((HttpMethod::Get, status));
                        self.http.handle_response(
                            now,
                            x,
                            status,
                            headers.iter().map(|(n, v)| (n.as_str(), v.as_slice())),
                        );
                    }
                    Part::Body(mut bytes) => {
                        if let Some(limit) = self.cut_next_stream_after.take() {
                            // The connection breaks after `limit` more bytes.
                            bytes.truncate(limit);
                            let n = self.http.handle_body(now, x, &bytes);
                            assert_eq!(n, bytes.len());
                            self.net.remove(&key);
                            self.server_connection_closed(key);
                            self.http.handle_failure(now, x, Failure::Broken);
                            break;
                        }
                        let n = self.http.handle_body(now, x, &bytes);
                        if n < bytes.len() {
                            bytes.drain(..n);
                            if let Some((_, q)) = self.net.get_mut(&key) {
                                q.push_front(Part::Body(bytes));
                            }
                            break;
                        }
                    }
                    Part::End => {
                        self.net.remove(&key);
                        self.server.conns.remove(&key);
                        self.http.handle_end(now, x);
                        break;
                    }
                    Part::Fail => {
                        self.net.remove(&key);
                        self.http.handle_failure(now, x, Failure::Broken);
                        break;
                    }
                }
            }
            // Let the client react before the next exchange's parts.
            self.client_step();
        }
        progress
    }

    /// Sends a request through the client's session and runs the pair until it settles.
    pub fn call(&mut self, method: &str, params: &str) -> RequestId {
        self.call_with(method, params, RequestOptions::default())
    }

    pub fn call_with(&mut self, method: &str, params: &str, options: RequestOptions) -> RequestId {
        let params = RawJson::parse(params.as_bytes()).unwrap();
        let id = self.ep.send_request(self.at(), method, Some(&params), options).unwrap();
        self.settle();
        id
    }

    /// The requests the client made of `kind`.
    pub fn made(&self, kind: ExchangeKind) -> Vec<&Vec<(String, String)>> {
        self.requests.iter().filter(|(k, _, _)| *k == kind).map(|(_, _, h)| h).collect()
    }

    pub fn response_texts(&self) -> Vec<String> {
        self.responses.iter().map(|(k, v)| format!("{k} {v}")).collect()
    }

    pub fn ready(&self) -> bool {
        self.session_events.iter().any(|e| e.starts_with("Ready"))
    }
}

pub fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
}
