//! The HTTP client core and a client `Endpoint` in message mode, driven as one by
//! `Link`, against a scripted server: the handshake, requests answered as JSON and as
//! streams, a server request answered on its own POST, backpressure both ways, lost
//! requests cancelled in the session, close, and a new session after expiry.

mod http_client_support;

use std::collections::VecDeque;

use http_client_support::{INITIALIZED, Req, URL, result, sse};
use mcp_sansio::Instant;
use mcp_sansio::http::client::{ClientConfig, Event as HttpEvent, ExchangeId, ExchangeKind, HttpClient, Link, Step};
use mcp_sansio::mcp::{Method, Role};
use mcp_sansio::session::{Config, Endpoint, Event, OutputMode, RequestOptions};
use mcp_sansio::wire::RawJson;

const INIT_RESULT: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"prompts":{}},"serverInfo":{"name":"s","version":"1"}}}"#;

type Client = Endpoint<'static, 4, 4>;

fn leak(n: usize) -> &'static mut [u8] {
    vec![0u8; n].leak()
}

fn endpoint(rx: usize) -> Client {
    let info = RawJson::parse(br#"{"name":"c","version":"1"}"#).unwrap();
    let caps = RawJson::parse(br#"{"sampling":{}}"#).unwrap();
    // These scripts are sessions of the handshake era (the probe of the stateless one is
    // tested in tests/http_modern.rs and session_modern_client.rs).
    let config = Config::new(Role::Client, info)
        .capabilities(caps)
        .output(OutputMode::Messages)
        .era(mcp_sansio::session::Era::Legacy);
    Endpoint::new(config, leak(rx), leak(4096), Instant::ZERO).unwrap()
}

struct Pair<const X: usize = 4> {
    ep: Client,
    http: HttpClient<'static, X>,
    link: Link,
    now: u64,
    requests: VecDeque<Req>,
    aborts: Vec<ExchangeId>,
    session: Vec<String>,
    transport: Vec<String>,
    unsent: Vec<String>,
    /// Answer server requests with this result.
    answer: Option<&'static str>,
}

impl<const X: usize> Pair<X> {
    fn new(rx: usize) -> Self {
        let config = ClientConfig::new(URL).unwrap();
        let http = HttpClient::new(config, leak(config.storage_len(X, 4096))).unwrap();
        Self {
            ep: endpoint(rx),
            http,
            link: Link::new(),
            now: 0,
            requests: VecDeque::new(),
            aborts: Vec::new(),
            session: Vec::new(),
            transport: Vec::new(),
            unsent: Vec::new(),
            answer: None,
        }
    }

    fn at(&self) -> Instant {
        Instant::from_millis(self.now)
    }

    fn drain(&mut self) {
        let now = self.at();
        for _ in 0..10_000 {
            match self.link.poll(now, &mut self.ep, &mut self.http) {
                Step::Request(r) => self.requests.push_back(Req {
                    exchange: r.exchange,
                    kind: r.kind,
                    method: r.method,
                    url: r.url.to_string(),
                    headers: r.headers().iter().map(|(n, v)| (n.to_string(), v.to_string())).collect(),
                    body: String::from_utf8(r.body.to_vec()).unwrap(),
                }),
                Step::Abort(x) => self.aborts.push(x),
                Step::Session(Event::Request(mut req)) => {
                    self.session.push(format!("request {} {}", req.id, req.method.name()));
                    if let Some(a) = self.answer {
                        req.respond(&RawJson::parse(a.as_bytes()).unwrap()).unwrap();
                    }
                }
                Step::Session(e) => self.session.push(format!("{e:?}")),
                Step::Transport(e) => self.transport.push(format!("{e:?}")),
                Step::Unsent(e) => self.unsent.push(format!("{e:?}")),
                Step::Idle { next_timeout } => {
                    if next_timeout == Some(now) {
                        // "Look again at once."
                        self.link.handle_timeout(now, &mut self.ep, &mut self.http);
                        continue;
                    }
                    return;
                }
            }
        }
        panic!("never idle");
    }

    fn take(&mut self) -> Req {
        self.requests.pop_front().expect("a request")
    }

    fn reply(&mut self, x: ExchangeId, status: u16, headers: &[(&str, &str)], body: &str) {
        let now = self.at();
        self.http.handle_response(now, x, status, headers.iter().map(|(n, v)| (*n, v.as_bytes())));
        self.drain();
        self.body(x, body);
        self.http.handle_end(now, x);
        self.drain();
    }

    fn body(&mut self, x: ExchangeId, body: &str) {
        let mut rest = body.as_bytes();
        while !rest.is_empty() {
            let n = self.http.handle_body(self.at(), x, rest);
            rest = &rest[n..];
            self.drain();
            assert!(n > 0 || rest.is_empty() || self.http.exchanges_in_use() > 0);
            if n == 0 {
                break;
            }
        }
    }

    fn handshake(&mut self) -> ExchangeId {
        self.drain();
        let init = self.take();
        assert!(init.body.contains(r#""method":"initialize""#));
        self.reply(init.exchange, 200, &[("Content-Type", "application/json"), ("Mcp-Session-Id", "s-1")], INIT_RESULT);
        let initialized = self.take();
        assert_eq!(initialized.body, INITIALIZED);
        assert_eq!(initialized.header("Mcp-Session-Id"), Some("s-1"));
        assert_eq!(initialized.header("MCP-Protocol-Version"), Some("2025-11-25"));
        self.reply(initialized.exchange, 202, &[], "");
        let get = self.take();
        assert_eq!(get.kind, ExchangeKind::Stream);
        assert!(self.session.iter().any(|e| e.starts_with("Ready")), "{:?}", self.session);
        self.session.clear();
        self.transport.clear();
        get.exchange
    }

    fn call(&mut self, method: &str) -> mcp_sansio::wire::RequestId {
        let id =
            self.ep.send_request(self.at(), method, Some(&RawJson::EMPTY_OBJECT), RequestOptions::default()).unwrap();
        self.drain();
        id
    }
}

#[test]
fn handshake_request_and_response() {
    let mut p = Pair::<4>::new(4096);
    let g = p.handshake();
    p.reply(g, 405, &[], "");
    assert_eq!(p.transport, ["StandaloneUnavailable { status: Some(405) }"]);
    let id = p.call("tools/list");
    let r = p.take();
    assert_eq!((r.kind, r.header("Mcp-Session-Id")), (ExchangeKind::Post, Some("s-1")));
    p.reply(r.exchange, 200, &[("Content-Type", "application/json")], &result(2));
    assert_eq!(id.to_string(), "2");
    assert_eq!(p.session.len(), 1);
    assert!(p.session[0].starts_with("Response { id: 2, method: Some(ToolsList)"), "{:?}", p.session);
}

#[test]
fn a_server_request_on_a_post_stream_is_answered_on_its_own_post() {
    let mut p = Pair::<4>::new(4096);
    p.answer = Some(r#"{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"}"#);
    p.handshake();
    p.call("tools/call");
    let t = p.take();
    p.http.handle_response(p.at(), t.exchange, 200, [("Content-Type", &b"text/event-stream"[..])]);
    p.drain();
    let sampling =
        r#"{"jsonrpc":"2.0","id":"srv-7","method":"sampling/createMessage","params":{"messages":[],"maxTokens":5}}"#;
    p.body(t.exchange, &format!("id: e0\ndata: \n\n{}", sse(Some("e1"), sampling)));
    assert_eq!(p.session, ["request \"srv-7\" sampling/createMessage"]);
    let answer = p.take();
    assert_eq!(answer.kind, ExchangeKind::Post);
    assert!(
        answer.body.starts_with(r#"{"jsonrpc":"2.0","id":"srv-7","result":{"role":"assistant""#),
        "{}",
        answer.body
    );
    p.reply(answer.exchange, 202, &[], "");
    p.body(t.exchange, &sse(Some("e2"), &result(2)));
    assert!(p.session[1].starts_with("Response { id: 2, method: Some(ToolsCall)"), "{:?}", p.session);
    assert!(p.aborts.contains(&t.exchange));
}

#[test]
fn a_refused_request_is_failed_in_the_session_without_a_cancellation() {
    let mut p = Pair::<4>::new(4096);
    p.handshake();
    let id = p.call("tools/list");
    let r = p.take();
    p.reply(r.exchange, 500, &[], "");
    assert_eq!(p.transport.len(), 1);
    assert!(p.transport[0].starts_with("Lost {"), "{:?}", p.transport);
    assert!(p.requests.is_empty(), "no cancellation for a request the server refused: {:?}", p.requests);
    assert_eq!(p.ep.requests_in_flight(), 0, "the session forgot {id}");
}

#[test]
fn a_request_whose_stream_broke_is_cancelled_on_the_wire_too() {
    let mut p = Pair::<4>::new(4096);
    p.handshake();
    p.call("tools/call");
    let r = p.take();
    p.http.handle_response(p.at(), r.exchange, 200, [("Content-Type", &b"text/event-stream"[..])]);
    p.drain();
    p.http.handle_end(p.at(), r.exchange);
    p.drain();
    assert!(p.transport[0].contains("StreamEnded"), "{:?}", p.transport);
    let c = p.take();
    assert!(
        c.body.contains(r#""method":"notifications/cancelled""#) && c.body.contains(r#""requestId":2"#),
        "{}",
        c.body
    );
    assert_eq!(p.ep.requests_in_flight(), 0);
}

#[test]
fn a_message_the_session_cannot_take_waits_in_the_client() {
    // A small receive buffer: the stream's messages arrive faster than the application answers.
    let mut p = Pair::<4>::new(1024);
    p.handshake();
    p.call("tools/call");
    let t = p.take();
    p.http.handle_response(p.at(), t.exchange, 200, [("Content-Type", &b"text/event-stream"[..])]);
    p.drain();
    let pad = "x".repeat(300);
    let mut body = String::new();
    for k in 0..6 {
        body.push_str(&sse(
            Some(&format!("e{k}")),
            &format!(
                r#"{{"jsonrpc":"2.0","method":"notifications/message","params":{{"level":"info","data":"{k}{pad}"}}}}"#
            ),
        ));
    }
    body.push_str(&sse(Some("e9"), &result(2)));
    p.body(t.exchange, &body);
    let logs = p.session.iter().filter(|e| e.contains("LogMessage")).count();
    assert_eq!(logs, 6, "{:?}", p.session);
    assert!(p.session.last().unwrap().starts_with("Response { id: 2"), "{:?}", p.session);
}

#[test]
fn a_message_with_no_exchange_free_waits_in_the_session() {
    let mut p = Pair::<2>::new(4096);
    p.drain();
    let init = p.take();
    p.reply(init.exchange, 200, &[("Content-Type", "application/json")], INIT_RESULT);
    let n = p.take();
    p.reply(n.exchange, 202, &[], "");
    // Two slots: the GET stream took the one that may hold a long exchange.
    let g = p.take();
    assert_eq!(g.kind, ExchangeKind::Stream);
    p.call("tools/list");
    p.call("prompts/list");
    assert!(p.requests.is_empty(), "both requests wait: {:?}", p.requests);
    p.reply(g.exchange, 405, &[], "");
    p.drain();
    let a = p.take();
    assert!(a.body.contains("tools/list"));
    assert!(p.requests.is_empty());
    p.reply(a.exchange, 200, &[("Content-Type", "application/json")], &result(2));
    let b = p.take();
    assert!(b.body.contains("prompts/list"));
    p.reply(b.exchange, 200, &[("Content-Type", "application/json")], &result(3));
    let responses = p.session.iter().filter(|e| e.starts_with("Response")).count();
    assert_eq!(responses, 2, "{:?}", p.session);
}

#[test]
fn closing_the_session_deletes_it() {
    let mut p = Pair::<4>::new(4096);
    p.handshake();
    p.ep.close(p.at());
    p.drain();
    assert!(p.session.iter().any(|e| e.starts_with("Closed")), "{:?}", p.session);
    let del = p.take();
    assert_eq!((del.kind, del.header("Mcp-Session-Id")), (ExchangeKind::Delete, Some("s-1")));
    p.reply(del.exchange, 200, &[], "");
    assert_eq!(p.transport, ["Closed"]);
}

#[test]
fn after_expiry_a_new_endpoint_starts_a_new_session() {
    let mut p = Pair::<4>::new(4096);
    p.handshake();
    p.call("tools/list");
    let r = p.take();
    p.reply(r.exchange, 404, &[], "");
    assert_eq!(p.transport, ["SessionExpired { reason: NotFound }"]);
    // The old endpoint's traffic goes nowhere.
    let _ = p.ep.send_request(p.at(), "ping", None::<&()>, RequestOptions::default());
    p.drain();
    assert!(p.requests.is_empty());
    p.ep = endpoint(4096);
    p.link = Link::new();
    p.drain();
    let init = p.take();
    assert!(init.body.contains(r#""method":"initialize""#));
    assert_eq!(init.header("Mcp-Session-Id"), None);
    p.reply(init.exchange, 200, &[("Content-Type", "application/json"), ("Mcp-Session-Id", "s-2")], INIT_RESULT);
    let n = p.take();
    assert_eq!(n.header("Mcp-Session-Id"), Some("s-2"));
    assert!(p.session.iter().any(|e| e.starts_with("Ready")));
    let _ = Method::Ping;
    let _ = HttpEvent::Closed;
}
