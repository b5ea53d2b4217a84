//! An MCP server inside axum: Streamable HTTP at `/mcp` with two tools (`echo`, `add`),
//! on mcp-sansio's sans-IO HTTP server core (`http::server`) and a session `Endpoint`.
//!
//!     cargo run --release -- [ADDR] [--sse]      (ADDR: 127.0.0.1:3000 by default)
//!
//! axum owns the sockets, HTTP/1.1 and the tasks; the core decides every answer. Each
//! request goes through the same four steps (see README.md):
//! 1. `classify` the head (route, Host, Origin, Accept, Content-Type, session and
//!    version headers): a refusal is a complete response;
//! 2. read the body, `classify_body` it, find or open the session;
//! 3. open the exchange's stream (`Streams::open_post` gives the `Origin` the body is fed
//!    to the endpoint with; `open_get` for GET), then `pump`: every message the endpoint
//!    emits goes to `Streams::push` by its origin, and `Streams::poll` says which
//!    exchange gets its head and which has bytes to read;
//! 4. the response body is a stream that pulls `Streams::read` whenever hyper can
//!    send more (backpressure reaches the session), and waits on a `Notify` otherwise.
//!
//! Everything sits behind one `std::sync::Mutex`, never held across an `.await`.

// A refusal is returned as the response itself; boxing it would only add noise here.
#![allow(clippy::result_large_err)]

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use mcp_sansio::ProtocolVersion;
use mcp_sansio::http::server::{
    AuthVerdict, BadRequest, BodyKind, IdMinter, JsonResponses, Lookup, MIN_RESPONSE_BUFFER, PostBody, Refusal,
    RequestHead, RequestKind, ServerConfig, SessionHandle, SessionStore, SessionTable, Slots, StreamConfig,
    StreamOutput, Streams, classify, classify_body, empty_response, ok_head,
};
use mcp_sansio::mcp::{Method, Role};
use mcp_sansio::session::{Config, Endpoint, Event, IncomingRequest, Origin, Output, OutputMode, SendError};
use mcp_sansio::time::Clock;
use mcp_sansio::wire::{ErrorCode, RawJson};
use serde::Serialize;
use tokio::sync::{Notify, oneshot};

/// One MCP session: its endpoint (in message mode: one message per transmit, with the
/// `Origin` it belongs to) and its SSE side, both over buffers it owns.
struct Session {
    endpoint: Endpoint<'static, 8, 8, Vec<u8>>,
    streams: Streams<Vec<u8>, 8, 4>,
}

/// A response waiting for the core: its head (JSON of some length, or SSE), then bytes.
struct Waiter {
    session: SessionHandle,
    head: Option<oneshot::Sender<BodyKind>>,
    readable: Arc<Notify>,
}

/// Everything the core keeps, behind the mutex.
struct Core {
    table: SessionTable<Session, Slots<Session, 32>>,
    minter: IdMinter,
    streams: StreamConfig,
    clock: Clock,
    next_exchange: u32,
    waiters: HashMap<u32, Waiter>,
}

struct App {
    config: ServerConfig<'static>,
    core: Mutex<Core>,
}

impl App {
    fn lock(&self) -> MutexGuard<'_, Core> {
        self.core.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The session endpoint's configuration: who we are and that we have tools.
fn session_config() -> Config<'static> {
    let info = RawJson::parse(br#"{"name":"axum-example","version":"0.1.0"}"#).unwrap();
    Config::new(Role::Server, info)
        .capabilities(RawJson::parse(br#"{"tools":{}}"#).unwrap())
        .output(OutputMode::Messages)
}

impl Core {
    /// A new session for an `initialize` POST; `None` when the table is full (503).
    fn open(&mut self) -> Option<SessionHandle> {
        let now = self.clock.now();
        let endpoint = Endpoint::with_buffers(session_config(), vec![0; 64 * 1024], vec![0; 64 * 1024], now).ok()?;
        let epoch = u32::from_le_bytes(self.minter.next_bits()[..4].try_into().unwrap());
        // The store is a little larger than the transmit buffer: any message fits it.
        let streams = Streams::new(vec![0; 80 * 1024], self.streams, epoch, None);
        let id = self.minter.random_id();
        self.table.open(now, id, Session { endpoint, streams }).ok()
    }

    /// A response to wait for: its exchange number, its head, its wake-ups. The session
    /// is pinned (never expires) while the response is open.
    fn exchange(&mut self, h: SessionHandle) -> (u32, oneshot::Receiver<BodyKind>, Arc<Notify>) {
        self.next_exchange += 1;
        let (tx, rx) = oneshot::channel();
        let readable = Arc::new(Notify::new());
        self.waiters.insert(self.next_exchange, Waiter { session: h, head: Some(tx), readable: readable.clone() });
        self.table.pin(self.clock.now(), h);
        (self.next_exchange, rx, readable)
    }

    /// The exchange is over (its response ended, or was never sent).
    fn forget(&mut self, id: u32, h: SessionHandle) {
        let now = self.clock.now();
        self.waiters.remove(&id);
        if let Some(s) = self.table.get_mut(h) {
            s.streams.connection_closed(id);
        }
        self.table.unpin(now, h);
    }

    /// Drains a session: its endpoint's messages into its streams (answering requests on
    /// the way), then the streams' outputs to the waiting responses.
    fn pump(&mut self, h: SessionHandle) {
        let now = self.clock.now();
        let Some(s) = self.table.get_mut(h) else { return };
        loop {
            match s.endpoint.poll_output() {
                Output::Transmit(t) => {
                    let msg = RawJson::parse(&t).ok();
                    let is_response = msg.is_some_and(|m| m.contains_key("id") && !m.contains_key("method"));
                    if s.streams.push(now, t.origin.map(|o| o.0), &t, is_response).is_err() {
                        // A client reads slowly: this message is handed out again once
                        // it has read (the next pump, from its body stream).
                        s.endpoint.sent(0);
                        break;
                    }
                }
                Output::Event(Event::Negotiated { version, .. }) => s.streams.set_version(version),
                Output::Event(Event::Request(mut req)) => answer(&mut req),
                Output::Event(_) => {}
                Output::Idle { .. } => break,
            }
        }
        while let Some(out) = s.streams.poll() {
            match out {
                StreamOutput::Head { exchange, kind } => {
                    if let Some(head) = self.waiters.get_mut(&exchange).and_then(|w| w.head.take()) {
                        let _ = head.send(kind);
                    }
                }
                // A replaced GET learns it is over from its next read.
                StreamOutput::Readable { exchange } | StreamOutput::Replaced { exchange } => {
                    if let Some(w) = self.waiters.get(&exchange) {
                        w.readable.notify_one();
                    }
                }
                StreamOutput::Dropped { .. } => {}
            }
        }
    }

    /// Once a second: keep-alive comments, the endpoints' own deadlines, idle expiry.
    /// (A server that sleeps until `poll_timeout` / `next_deadline` does less work.)
    fn tick(&mut self) {
        let now = self.clock.now();
        while self.table.expire(now).is_some() {}
        let mut cursor = None;
        while let Some(h) = self.table.store().next(cursor) {
            cursor = Some(h);
            if let Some(s) = self.table.get_mut(h) {
                s.streams.handle_timeout(now);
                s.endpoint.handle_timeout(now);
            }
            self.pump(h);
        }
    }
}

/// The application: `tools/list` and `tools/call` for `echo` and `add`.
fn answer(req: &mut IncomingRequest<'_>) {
    #[derive(Serialize)]
    struct Text<'a> {
        r#type: &'static str,
        text: &'a str,
    }
    #[derive(Serialize)]
    struct ToolResult<'a> {
        content: [Text<'a>; 1],
    }
    const TOOLS: &[u8] = br#"{"tools":[
        {"name":"echo","description":"Echoes a message","inputSchema":{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}},
        {"name":"add","description":"Adds two integers","inputSchema":{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"required":["a","b"]}}]}"#;
    let args = req.params.and_then(|p| p.get("arguments"));
    let arg = |name: &str| args.and_then(|a| a.get(name));
    let text = match req.method {
        Method::ToolsList => {
            let _ = req.respond(&RawJson::parse(TOOLS).unwrap());
            return;
        }
        Method::ToolsCall => match req.params.and_then(|p| p.get("name")).and_then(|n| n.as_str()) {
            Some(n) if n == *"echo" => {
                arg("message").and_then(|m| m.as_str()).map(|m| format!("Echo: {}", m.chars().collect::<String>()))
            }
            Some(n) if n == *"add" => match (arg("a").and_then(|a| a.as_i64()), arg("b").and_then(|b| b.as_i64())) {
                (Some(a), Some(b)) => Some(a.saturating_add(b).to_string()),
                _ => None,
            },
            _ => None,
        },
        _ => {
            let _ = req.respond_error(ErrorCode::METHOD_NOT_FOUND, "Method not found");
            return;
        }
    };
    let sent = match text {
        Some(text) => req.respond(&ToolResult { content: [Text { r#type: "text", text: &text }] }),
        None => req.respond_error(ErrorCode::INVALID_PARAMS, "Unknown tool or bad arguments"),
    };
    if let Err(SendError::TxFull { .. }) = sent {
        // The transmit buffer is full of messages a slow client has not read. An error
        // always fits (the endpoint keeps room for one); the crate's own server queues
        // the answer instead.
        let _ = req.respond_error(ErrorCode::INTERNAL_ERROR, "Busy: retry");
    }
}

/// A core response (head fields, and a body) as axum's.
fn response(head: mcp_sansio::http::server::Response<'_>, body: Body) -> Response {
    let mut r = Response::builder().status(head.status);
    for (name, value) in head.headers() {
        r = r.header(name, value);
    }
    r.body(body).unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response())
}

/// A refusal: status, fields and (for most) an id-less JSON-RPC error body.
fn refuse(app: &App, refusal: Refusal<'_>, version: Option<ProtocolVersion>) -> Response {
    let mut out = [0u8; MIN_RESPONSE_BUFFER];
    match refusal.write(&app.config, version, &mut out) {
        Ok(head) => response(head, Body::from(head.body.to_vec())),
        Err(_) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
}

/// Ends a response's exchange when its body is done or its client went away: the
/// stream itself goes on (a client may resume it with `Last-Event-ID`).
struct Exchange {
    app: Arc<App>,
    session: SessionHandle,
    id: u32,
}

impl Drop for Exchange {
    fn drop(&mut self) {
        self.app.lock().forget(self.id, self.session);
    }
}

/// Waits for the head the core decides, then streams what `Streams::read` gives.
async fn respond(app: Arc<App>, session: SessionHandle, (id, head, readable): Waiting) -> Response {
    let exchange = Exchange { app, session, id };
    let Ok(kind) = head.await else { return StatusCode::NOT_FOUND.into_response() };
    let session_id = exchange.app.lock().table.id(session);
    let mut out = [0u8; MIN_RESPONSE_BUFFER];
    let Ok(head) = ok_head(kind, session_id.as_ref().map(|id| id.as_str()), &mut out) else {
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    };
    let body = futures_util::stream::unfold(Some(exchange), move |state| {
        let readable = readable.clone();
        async move {
            let exchange = state?;
            loop {
                let (bytes, end) = {
                    let mut core = exchange.app.lock();
                    let now = core.clock.now();
                    let mut buf = vec![0; 16 * 1024];
                    let s = core.table.get_mut(exchange.session)?;
                    let read = s.streams.read(now, exchange.id, &mut buf);
                    buf.truncate(read.n);
                    // What was read made room: messages held back may go now.
                    core.pump(exchange.session);
                    (buf, read.end)
                };
                if !bytes.is_empty() {
                    return Some((Ok::<_, Infallible>(Bytes::from(bytes)), (!end).then_some(exchange)));
                }
                if end {
                    return None;
                }
                readable.notified().await;
            }
        }
    });
    response(head, Body::from_stream(body))
}

/// Every request to `/mcp`.
async fn mcp(State(app): State<Arc<App>>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    // 1. The head.
    let headers: Vec<(&str, &[u8])> = parts.headers.iter().map(|(n, v)| (n.as_str(), v.as_bytes())).collect();
    let target = parts.uri.path_and_query().map_or("/", |p| p.as_str());
    let head = RequestHead::new(parts.method.as_str(), target, &headers[..]);
    let c = match classify(&app.config, &head, AuthVerdict::Allow) {
        Ok(c) => c,
        Err(refusal) => return refuse(&app, refusal, None),
    };
    // The session the request names: live, or 404 (unknown, ended, expired).
    let named = {
        let core = app.lock();
        c.session_id.map(|id| match core.table.lookup(id) {
            Lookup::Live(h) => Ok(h),
            _ => Err(()),
        })
    };
    let named = match named {
        Some(Err(())) => return refuse(&app, Refusal::SessionNotFound, None),
        Some(Ok(h)) => Some(h),
        None => None,
    };
    match c.kind {
        RequestKind::Post => {
            // 2. The body (its Content-Length was checked against the cap already).
            let Ok(body) = axum::body::to_bytes(body, app.config.max_body).await else {
                return refuse(&app, Refusal::BodyTooLarge, None);
            };
            match post(&app, named, &body) {
                Err(refused) => refused,
                Ok(Some((h, exchange))) => respond(app.clone(), h, exchange).await,
                Ok(None) => {
                    let mut out = [0u8; MIN_RESPONSE_BUFFER];
                    empty_response(202, &mut out)
                        .map_or(StatusCode::ACCEPTED.into_response(), |r| response(r, Body::empty()))
                }
            }
        }
        RequestKind::Get => match get(&app, named, c.last_event_id) {
            Err(refused) => refused,
            Ok((h, exchange)) => respond(app.clone(), h, exchange).await,
        },
        RequestKind::Delete => {
            let Some(h) = named else {
                return refuse(&app, Refusal::BadRequest(BadRequest::MissingSessionId), None);
            };
            let mut core = app.lock();
            let now = core.clock.now();
            // Its open responses end: before their head (404), or at their next read.
            core.table.end(now, h);
            for w in core.waiters.values_mut().filter(|w| w.session == h) {
                w.head = None;
                w.readable.notify_one();
            }
            let mut out = [0u8; MIN_RESPONSE_BUFFER];
            empty_response(200, &mut out).map_or(StatusCode::OK.into_response(), |r| response(r, Body::empty()))
        }
        // This example serves no legacy HTTP+SSE (legacy_sse_path is None).
        RequestKind::LegacyGet | RequestKind::LegacyPost => StatusCode::NOT_FOUND.into_response(),
    }
}

type Waiting = (u32, oneshot::Receiver<BodyKind>, Arc<Notify>);

/// 2 and 3 for a POST: the session, the endpoint fed; the response to wait for, if the
/// body held requests (`None`: 202).
fn post(app: &App, named: Option<SessionHandle>, body: &[u8]) -> Result<Option<(SessionHandle, Waiting)>, Response> {
    let mut core = app.lock();
    let version = named.and_then(|h| core.table.get(h)).and_then(|s| s.endpoint.protocol_version());
    let kind = match classify_body(body, version == Some(ProtocolVersion::V2025_03_26), 64) {
        Ok(kind) => kind,
        Err(bad) => return Err(refuse(app, Refusal::BadRequest(bad), version)),
    };
    let h = match (named, kind) {
        (Some(h), _) => h,
        (None, PostBody::Initialize { .. }) => core.open().ok_or_else(|| refuse(app, Refusal::Busy, None))?,
        (None, _) => return Err(refuse(app, Refusal::BadRequest(BadRequest::MissingSessionId), None)),
    };
    let requests = match kind {
        PostBody::Initialize { .. } => 1,
        PostBody::Requests { count } => count,
        PostBody::NoRequests => 0,
    };
    let now = core.clock.now();
    // Notifications and responses are only fed; requests get a stream of their own,
    // whose number is the origin their messages come back with.
    let (origin, waiting) = if requests == 0 {
        (None, None)
    } else {
        let exchange = core.exchange(h);
        match core.table.get_mut(h).map(|s| s.streams.open_post(now, exchange.0, requests)) {
            Some(Ok(origin)) => (Some(Origin(origin)), Some((h, exchange))),
            _ => {
                core.forget(exchange.0, h);
                return Err(refuse(app, Refusal::Busy, version));
            }
        }
    };
    if let Some(s) = core.table.get_mut(h) {
        // Taken whole: the endpoint's receive buffer is drained at every pump.
        let _ = s.endpoint.handle_frame_from(now, origin, body);
    }
    core.pump(h);
    Ok(waiting)
}

/// 3 for a GET: the standalone stream, or (with `Last-Event-ID`) the stream that id
/// names, replayed from there.
fn get(
    app: &App,
    named: Option<SessionHandle>,
    last_event_id: Option<&str>,
) -> Result<(SessionHandle, Waiting), Response> {
    let h = named.ok_or_else(|| refuse(app, Refusal::BadRequest(BadRequest::MissingSessionId), None))?;
    let mut core = app.lock();
    let now = core.clock.now();
    let exchange = core.exchange(h);
    if core.table.get_mut(h).is_none_or(|s| s.streams.open_get(now, exchange.0, last_event_id).is_err()) {
        core.forget(exchange.0, h);
        return Err(refuse(app, Refusal::Busy, None));
    }
    core.pump(h);
    Ok((h, exchange))
}

/// 128 bits for session ids and event ids, from the OS.
fn seed() -> [u8; 16] {
    let mut seed = [0u8; 16];
    let mut f = std::fs::File::open("/dev/urandom").expect("/dev/urandom");
    std::io::Read::read_exact(&mut f, &mut seed).expect("16 random bytes");
    seed
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let (mut addr, mut sse) = ("127.0.0.1:3000".to_string(), false);
    for a in args.by_ref() {
        if a == "--sse" { sse = true } else { addr = a }
    }
    let config = ServerConfig {
        legacy_sse_path: None,
        // --sse: every POST answered with an SSE stream; otherwise plain JSON when the
        // answer is all there is.
        json_responses: if sse { JsonResponses::Never } else { JsonResponses::WhenPossible },
        ..ServerConfig::new()
    };
    let streams = StreamConfig {
        json_responses: config.json_responses,
        keepalive: config.keepalive,
        retry_ms: config.retry_ms,
        ..StreamConfig::default()
    };
    let core = Core {
        table: SessionTable::new(Slots::new(), config.idle_timeout),
        minter: IdMinter::new(seed()),
        streams,
        clock: Clock::new(),
        next_exchange: 0,
        waiters: HashMap::new(),
    };
    let app = Arc::new(App { config, core: Mutex::new(core) });
    let ticker = app.clone();
    tokio::spawn(async move {
        let mut every = tokio::time::interval(Duration::from_secs(1));
        loop {
            every.tick().await;
            ticker.lock().tick();
        }
    });
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    eprintln!("listening on http://{}/mcp", listener.local_addr()?);
    axum::serve(listener, axum::Router::new().route("/mcp", any(mcp)).with_state(app)).await
}
