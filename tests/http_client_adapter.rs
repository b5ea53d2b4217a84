//! The HTTP client adapter (`adapters::http::client`) over real loopback sockets,
//! against small scripted HTTP/1.1 servers written here: connections kept alive and
//! reused, chunked bodies, a stream the server cuts and its resumption with
//! `Last-Event-ID`, a 404 that ends the session and a new one started, and a server
//! that floods an event stream while the application is slow (the flood stops at the
//! socket: what the server could write is bounded by the kernel's buffers, not by a
//! queue in the adapter).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use mcp_sansio::adapters::http::client::{App, HttpClientLoop, Mailbox, Options, Outcome};
use mcp_sansio::http::client::{ClientConfig, Expiry, HttpClient};
use mcp_sansio::session::{Config, Endpoint, Event, OutputMode};
use mcp_sansio::wire::{NO_PARAMS, RawJson, RequestId};
use mcp_sansio::{Instant, RequestOptions, Role};

// ---- a scripted HTTP/1.1 server -------------------------------------------------

/// A request as the server read it, and which connection (in accept order) carried it.
#[derive(Clone, Debug)]
struct Req {
    conn: usize,
    method: String,
    headers: Vec<(String, String)>,
    body: String,
}

impl Req {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
    fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or(serde_json::Value::Null)
    }
    fn rpc_method(&self) -> String {
        self.json()["method"].as_str().unwrap_or("").to_string()
    }
    fn id(&self) -> serde_json::Value {
        self.json()["id"].clone()
    }
}

/// What the handler did with the connection after answering.
enum After {
    KeepAlive,
    Close,
}

type Handler = dyn Fn(&Req, &mut TcpStream) -> After + Send + Sync;

struct Server {
    url: String,
    requests: Arc<Mutex<Vec<Req>>>,
    connections: Arc<AtomicUsize>,
}

impl Server {
    fn start(handler: impl Fn(&Req, &mut TcpStream) -> After + Send + Sync + 'static) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/mcp", listener.local_addr().unwrap());
        let requests = Arc::new(Mutex::new(Vec::new()));
        let connections = Arc::new(AtomicUsize::new(0));
        let handler: Arc<Handler> = Arc::new(handler);
        let (reqs, conns) = (Arc::clone(&requests), Arc::clone(&connections));
        thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { return };
                let conn = conns.fetch_add(1, Ordering::SeqCst);
                let (handler, reqs) = (Arc::clone(&handler), Arc::clone(&reqs));
                thread::spawn(move || serve(conn, stream, &*handler, &reqs));
            }
        });
        Server { url, requests, connections }
    }

    fn requests(&self) -> Vec<Req> {
        self.requests.lock().unwrap().clone()
    }
}

fn serve(conn: usize, stream: TcpStream, handler: &Handler, reqs: &Mutex<Vec<Req>>) {
    let mut write = stream.try_clone().unwrap();
    let mut read = BufReader::new(stream);
    loop {
        let mut line = String::new();
        if read.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let method = line.split(' ').next().unwrap_or("").to_string();
        let mut headers = Vec::new();
        loop {
            let mut h = String::new();
            if read.read_line(&mut h).unwrap_or(0) == 0 {
                return;
            }
            let h = h.trim_end();
            if h.is_empty() {
                break;
            }
            let (n, v) = h.split_once(':').unwrap();
            headers.push((n.trim().to_string(), v.trim().to_string()));
        }
        let len: usize = headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
            .map_or(0, |(_, v)| v.parse().unwrap());
        let mut body = vec![0; len];
        if read.read_exact(&mut body).is_err() {
            return;
        }
        let req = Req { conn, method, headers, body: String::from_utf8(body).unwrap() };
        reqs.lock().unwrap().push(req.clone());
        if let After::Close = handler(&req, &mut write) {
            let _ = write.shutdown(std::net::Shutdown::Both);
            return;
        }
    }
}

fn json_response(w: &mut TcpStream, session: Option<&str>, body: &str) {
    let session = session.map(|s| format!("Mcp-Session-Id: {s}\r\n")).unwrap_or_default();
    let _ = write!(
        w,
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n{session}Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
}

fn status(w: &mut TcpStream, code: u16) {
    let _ = write!(w, "HTTP/1.1 {code} X\r\nContent-Length: 0\r\n\r\n");
}

fn result(id: &serde_json::Value, result: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{result}}}"#)
}

const INIT_RESULT: &str =
    r#"{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"scripted","version":"1"}}"#;

/// The parts every scripted server shares: `initialize` (with `session` as the id),
/// 202 for notifications, 405 for the standalone `GET`, 200 for `DELETE`. Returns
/// `None` for the requests the test answers itself.
fn common(req: &Req, w: &mut TcpStream, session: &str) -> Option<After> {
    match req.method.as_str() {
        "GET" if req.header("last-event-id").is_none() => status(w, 405),
        "DELETE" => status(w, 200),
        "POST" if req.rpc_method() == "initialize" => json_response(w, Some(session), &result(&req.id(), INIT_RESULT)),
        "POST" if req.json().get("id").is_none() => status(w, 202),
        _ => return None,
    }
    Some(After::KeepAlive)
}

// ---- the application: a script of requests, one at a time ----------------------

/// Sends `script`'s requests one after another once the session is ready, records what
/// came back, then closes. `stall` makes the first notification block the loop until
/// the receiver says so (a slow application).
struct Script {
    script: Vec<(&'static str, Option<String>)>,
    next: usize,
    ready: bool,
    waiting: Option<RequestId>,
    results: Vec<String>,
    errors: Vec<String>,
    notifications: usize,
    stall: Option<mpsc::Receiver<()>>,
}

impl Script {
    fn new(script: Vec<(&'static str, Option<String>)>) -> Self {
        Script {
            script,
            next: 0,
            ready: false,
            waiting: None,
            results: Vec::new(),
            errors: Vec::new(),
            notifications: 0,
            stall: None,
        }
    }
}

impl App<8, 8> for Script {
    type Message = ();

    fn on_event(&mut self, event: Event<'_>, _: &Mailbox<()>) {
        match event {
            Event::Ready { .. } => self.ready = true,
            Event::Response { id, result, .. } if Some(&id) == self.waiting.as_ref() => {
                self.results.push(result.as_text().to_string());
                self.waiting = None;
            }
            Event::Error { id, error, .. } if Some(&id) == self.waiting.as_ref() => {
                self.errors.push(format!("{error:?}"));
                self.waiting = None;
            }
            Event::Notification(_) => {
                self.notifications += 1;
                if let Some(rx) = self.stall.take() {
                    rx.recv_timeout(Duration::from_secs(60)).expect("the flooding server never blocked");
                }
            }
            _ => {}
        }
    }

    fn on_idle(&mut self, ep: &mut Endpoint<'_, 8, 8>, now: Instant) -> Option<Instant> {
        if !self.ready || self.waiting.is_some() {
            return None;
        }
        if let Some((method, params)) = self.script.get(self.next) {
            self.next += 1;
            let id = match params {
                Some(p) => {
                    let raw = RawJson::parse(p.as_bytes()).unwrap();
                    ep.send_request(now, method, Some(&raw), RequestOptions::default()).unwrap()
                }
                None => ep.send_request(now, method, NO_PARAMS, RequestOptions::default()).unwrap(),
            };
            self.waiting = Some(id);
        } else if ep.requests_in_flight() == 0 && !ep.is_closed() {
            ep.close(now);
        }
        None
    }
}

/// One session of `app` against `url` on `event_loop` and `http`.
fn session(event_loop: &mut HttpClientLoop<()>, http: &mut HttpClient<'_, 4>, app: &mut Script) -> Outcome {
    let info = RawJson::parse(br#"{"name":"adapter-test","version":"1"}"#).unwrap();
    // The scripted servers are of the handshake era.
    let config = Config::new(Role::Client, info).output(OutputMode::Messages).era(mcp_sansio::session::Era::Legacy);
    let (mut rx, mut tx) = (vec![0u8; 64 * 1024], vec![0u8; 64 * 1024]);
    let mut endpoint: Endpoint<'_> = Endpoint::new(config, &mut rx, &mut tx, event_loop.clock().now()).unwrap();
    event_loop.run(&mut endpoint, http, app).unwrap()
}

/// A whole run: one session against `url`.
fn run(url: &str, app: &mut Script) -> Outcome {
    let mut event_loop: HttpClientLoop<()> = HttpClientLoop::new(Options::new()).unwrap();
    let config = ClientConfig::new(url).unwrap();
    let mut storage = vec![0u8; config.storage_len(4, 64 * 1024)];
    let mut http: HttpClient<'_, 4> = HttpClient::new(config, &mut storage).unwrap();
    session(&mut event_loop, &mut http, app)
}

fn pings(n: usize) -> Vec<(&'static str, Option<String>)> {
    (0..n).map(|_| ("ping", None)).collect()
}

// ---- the tests --------------------------------------------------------------------

#[test]
fn exchanges_reuse_kept_alive_connections() {
    let server = Server::start(|req, w| {
        common(req, w, "s-1").unwrap_or_else(|| {
            json_response(w, None, &result(&req.id(), "{}"));
            After::KeepAlive
        })
    });
    let mut app = Script::new(pings(10));
    assert!(matches!(run(&server.url, &mut app), Outcome::Closed(_)));
    assert_eq!(app.results, vec!["{}"; 10]);
    let reqs = server.requests();
    let posts = reqs.iter().filter(|r| r.method == "POST").count();
    assert_eq!(posts, 12, "initialize, initialized, ten pings: {reqs:?}");
    let conns = server.connections.load(Ordering::SeqCst);
    // One connection per exchange slot at most (4), however many exchanges.
    assert!(conns <= 4, "{conns} connections for {} requests", reqs.len());
    let most = (0..conns).map(|c| reqs.iter().filter(|r| r.conn == c).count()).max().unwrap();
    assert!(most >= 5, "no connection carried many exchanges: {reqs:?}");
    // Every request after initialize carried the session and the version.
    for r in reqs.iter().filter(|r| r.rpc_method() != "initialize") {
        assert_eq!(r.header("mcp-session-id"), Some("s-1"), "{r:?}");
        assert_eq!(r.header("mcp-protocol-version"), Some("2025-11-25"), "{r:?}");
    }
    assert_eq!(reqs.last().unwrap().method, "DELETE");
}

#[test]
fn a_connection_the_server_closes_after_answering_is_replaced() {
    let server = Server::start(|req, w| {
        common(req, w, "s-1");
        if req.method == "POST" && req.rpc_method() == "ping" {
            json_response(w, None, &result(&req.id(), "{}"));
        }
        After::Close
    });
    let mut app = Script::new(pings(3));
    assert!(matches!(run(&server.url, &mut app), Outcome::Closed(_)));
    assert_eq!(app.results, vec!["{}"; 3]);
    let reqs = server.requests();
    assert_eq!(server.connections.load(Ordering::SeqCst), reqs.len(), "one connection per request: {reqs:?}");
}

#[test]
fn chunked_bodies_in_small_pieces_with_extensions_and_trailers() {
    let server = Server::start(|req, w| {
        if let Some(after) = common(req, w, "s-1") {
            return after;
        }
        let body = result(&req.id(), r#"{"tools":[{"name":"a","inputSchema":{"type":"object"}}]}"#);
        let mut out =
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".to_string();
        for (i, piece) in body.as_bytes().chunks(3).enumerate() {
            let ext = if i % 2 == 0 { ";ext=\"x\"" } else { "" };
            out.push_str(&format!("{:x}{ext}\r\n{}\r\n", piece.len(), std::str::from_utf8(piece).unwrap()));
        }
        out.push_str("0\r\nX-Trailer: yes\r\n\r\n");
        // Byte by byte, so that every boundary falls inside a read.
        for b in out.as_bytes() {
            let _ = w.write_all(&[*b]);
            let _ = w.flush();
        }
        After::KeepAlive
    });
    let mut app = Script::new(vec![("tools/list", None), ("tools/list", None)]);
    assert!(matches!(run(&server.url, &mut app), Outcome::Closed(_)));
    assert_eq!(app.results.len(), 2, "{:?}", app.errors);
    assert!(app.results[0].contains(r#""name":"a""#), "{}", app.results[0]);
    // A chunked body ends the response cleanly: the connection carried the next one.
    let reqs = server.requests();
    let lists: Vec<&Req> = reqs.iter().filter(|r| r.rpc_method() == "tools/list").collect();
    assert_eq!(lists[0].conn, lists[1].conn, "{reqs:?}");
}

#[test]
fn a_stream_cut_mid_call_is_resumed_with_last_event_id() {
    let call_id = Arc::new(Mutex::new(serde_json::Value::Null));
    let server = Server::start(move |req, w| {
        if let Some(after) = common(req, w, "s-1") {
            return after;
        }
        let sse = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n\r\n";
        if req.method == "POST" {
            // The priming event, a log notification, then the connection drops.
            *call_id.lock().unwrap() = req.id();
            let note =
                r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"working"}}"#;
            let _ = write!(w, "{sse}id: call-0\nretry: 50\ndata: \n\nid: call-1\ndata: {note}\n\n");
            return After::Close;
        }
        // The resumption: the answer, after the last event the client saw.
        if req.header("last-event-id") == Some("call-1") {
            let answer = result(&call_id.lock().unwrap(), r#"{"content":[{"type":"text","text":"done"}]}"#);
            let _ = write!(w, "{sse}id: call-2\ndata: {answer}\n\n");
        } else {
            status(w, 400);
        }
        After::Close
    });
    let mut app = Script::new(vec![("tools/call", Some(r#"{"name":"slow","arguments":{}}"#.to_string()))]);
    assert!(matches!(run(&server.url, &mut app), Outcome::Closed(_)));
    assert_eq!(app.results, [r#"{"content":[{"type":"text","text":"done"}]}"#], "{:?}", app.errors);
    assert_eq!(app.notifications, 1);
    let reqs = server.requests();
    let resume: Vec<&Req> = reqs.iter().filter(|r| r.header("last-event-id").is_some()).collect();
    assert_eq!(resume.len(), 1, "{reqs:?}");
    assert_eq!(resume[0].method, "GET");
    assert_eq!(resume[0].header("last-event-id"), Some("call-1"));
    assert_eq!(resume[0].header("mcp-session-id"), Some("s-1"));
    assert!(resume[0].header("accept").unwrap().contains("text/event-stream"));
}

#[test]
fn a_404_for_the_session_ends_the_run_and_a_new_session_starts() {
    let first = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&first);
    let server = Server::start(move |req, w| {
        let session = if seen.load(Ordering::SeqCst) == 0 { "s-1" } else { "s-2" };
        if req.rpc_method() == "initialize" {
            // The next initialize is a new session.
            let n = seen.fetch_add(1, Ordering::SeqCst);
            let id = if n == 0 { "s-1" } else { "s-2" };
            json_response(w, Some(id), &result(&req.id(), INIT_RESULT));
            return After::KeepAlive;
        }
        if let Some(after) = common(req, w, session) {
            return after;
        }
        if req.header("mcp-session-id") == Some("s-1") {
            status(w, 404); // the server restarted and forgot s-1
        } else {
            json_response(w, None, &result(&req.id(), "{}"));
        }
        After::KeepAlive
    });
    let mut event_loop: HttpClientLoop<()> = HttpClientLoop::new(Options::new()).unwrap();
    let config = ClientConfig::new(&server.url).unwrap();
    let mut storage = vec![0u8; config.storage_len(4, 64 * 1024)];
    let mut http: HttpClient<'_, 4> = HttpClient::new(config, &mut storage).unwrap();
    let mut app = Script::new(pings(1));
    assert_eq!(session(&mut event_loop, &mut http, &mut app), Outcome::SessionExpired(Expiry::NotFound));
    assert!(app.results.is_empty());
    // A new endpoint on the same HttpClient: its initialize starts a new session.
    let mut app = Script::new(pings(1));
    assert!(matches!(session(&mut event_loop, &mut http, &mut app), Outcome::Closed(_)));
    assert_eq!(app.results, ["{}"]);
    let reqs = server.requests();
    let inits: Vec<&Req> = reqs.iter().filter(|r| r.rpc_method() == "initialize").collect();
    assert_eq!(inits.len(), 2, "{reqs:?}");
    assert_eq!(inits[1].header("mcp-session-id"), None, "the new initialize carries no old session id");
    let pings: Vec<&Req> = reqs.iter().filter(|r| r.rpc_method() == "ping").collect();
    assert_eq!(pings.iter().map(|r| r.header("mcp-session-id")).collect::<Vec<_>>(), [Some("s-1"), Some("s-2")]);
}

/// The flood: a tools/call answered with an endless stream of 4 KiB log notifications.
/// The application blocks on the first one; the server writes until the socket stops
/// taking bytes, says how far it got, then ends the stream with the answer.
#[test]
fn a_flooding_stream_is_held_at_the_socket_while_the_application_is_slow() {
    const FLOOD_LIMIT: usize = 512 << 20;
    let (blocked_tx, blocked_rx) = mpsc::channel::<()>();
    let written = Arc::new(AtomicUsize::new(0));
    let at_block = Arc::clone(&written);
    let blocked_tx = Mutex::new(Some(blocked_tx));
    let server = Server::start(move |req, w| {
        if let Some(after) = common(req, w, "s-1") {
            return after;
        }
        let _ = write!(w, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n");
        let filler = "x".repeat(4000);
        let event = format!(
            "data: {{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{{\"level\":\"info\",\"data\":\"{filler}\"}}}}\n\n"
        );
        w.set_write_timeout(Some(Duration::from_millis(500))).unwrap();
        let mut total = 0;
        let mut pending = event.as_bytes();
        // Until the socket stops taking bytes (a write times out), or the limit: never
        // held back, which fails the test below.
        while let Ok(n) = w.write(pending) {
            total += n;
            pending = &pending[n..];
            if pending.is_empty() {
                pending = event.as_bytes();
            }
            if total > FLOOD_LIMIT {
                break;
            }
        }
        at_block.store(total, Ordering::SeqCst);
        if let Some(tx) = blocked_tx.lock().unwrap().take() {
            let _ = tx.send(());
        }
        w.set_write_timeout(None).unwrap();
        let _ = w.write_all(pending);
        let answer = result(&req.id(), r#"{"content":[]}"#);
        let _ = write!(w, "data: {answer}\n\n");
        After::Close
    });
    let mut app = Script::new(vec![("tools/call", Some(r#"{"name":"flood","arguments":{}}"#.to_string()))]);
    app.stall = Some(blocked_rx);
    assert!(matches!(run(&server.url, &mut app), Outcome::Closed(_)));
    let at_block = written.load(Ordering::SeqCst);
    assert!(at_block < FLOOD_LIMIT, "the server wrote {at_block} bytes without being held back");
    // What the kernel may buffer (the receiver's window and the sender's buffer at
    // their largest), plus the adapter's read buffer (16 KiB) and the session's slot:
    // nothing between the socket and the session grew with the flood.
    let bound = kernel_buffers() + (1 << 20);
    assert!(at_block < bound, "the server wrote {at_block} bytes before the socket pushed back (bound {bound})");
    assert_eq!(app.results, [r#"{"content":[]}"#], "{:?}", app.errors);
    // Every event the server wrote reached the application, none was dropped.
    let event_len = 4000 + 91;
    assert!(app.notifications >= at_block / event_len, "{} notifications for {at_block} bytes", app.notifications);
}

/// The most a loopback TCP connection buffers between the two ends: the largest
/// receive and send buffers (Linux's `tcp_rmem` and `tcp_wmem` maxima), or 64 MiB
/// where they cannot be read.
fn kernel_buffers() -> usize {
    let max = |name: &str| -> Option<usize> {
        let text = std::fs::read_to_string(format!("/proc/sys/net/ipv4/{name}")).ok()?;
        text.split_whitespace().nth(2)?.parse().ok()
    };
    match (max("tcp_rmem"), max("tcp_wmem")) {
        (Some(r), Some(w)) => r + w,
        _ => 64 << 20,
    }
}

#[test]
fn a_handshake_era_server_refusing_the_probe_gets_the_handshake() {
    // The 2025 SDKs' servers answer a POST without a session that is not `initialize`
    // with 400: the transport loses the `server/discover` probe, the session falls back
    // to `initialize` in the same step, and the run must go on with it, not end as
    // unreachable.
    let server = Server::start(|req, w| {
        if req.method == "POST" && req.rpc_method() == "server/discover" {
            let body = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: Server not initialized"}}"#;
            let _ = write!(
                w,
                "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            );
            return After::KeepAlive;
        }
        common(req, w, "s-1").unwrap_or_else(|| {
            json_response(w, None, &result(&req.id(), "{}"));
            After::KeepAlive
        })
    });
    let mut event_loop: HttpClientLoop<()> = HttpClientLoop::new(Options::new()).unwrap();
    let config = ClientConfig::new(&server.url).unwrap();
    let mut storage = vec![0u8; config.storage_len(4, 64 * 1024)];
    let mut http: HttpClient<'_, 4> = HttpClient::new(config, &mut storage).unwrap();
    let info = RawJson::parse(br#"{"name":"adapter-test","version":"1"}"#).unwrap();
    let config = Config::new(Role::Client, info).output(OutputMode::Messages);
    let (mut rx, mut tx) = (vec![0u8; 64 * 1024], vec![0u8; 64 * 1024]);
    let mut endpoint: Endpoint<'_> = Endpoint::new(config, &mut rx, &mut tx, event_loop.clock().now()).unwrap();
    let mut app = Script::new(pings(1));
    let outcome = event_loop.run(&mut endpoint, &mut http, &mut app).unwrap();
    assert!(matches!(outcome, Outcome::Closed(_)), "{outcome:?}");
    assert_eq!(app.results, vec!["{}"]);
    let methods: Vec<String> =
        server.requests().iter().filter(|r| r.method == "POST").map(|r| r.rpc_method()).collect();
    assert_eq!(methods[..2], ["server/discover", "initialize"]);
}
