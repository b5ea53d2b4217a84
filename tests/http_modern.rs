//! The 2026-07-28 rules over Streamable HTTP (issue 10), against a real
//! `examples/server --http` process: POSTs with no session id served statelessly beside
//! a handshake session of the same process, the standard headers checked against the
//! body (400 with -32020), refusals with their status (400 for -32602 about `_meta`,
//! -32021, -32022; 404 for -32601), no session ids and no event ids, and a listen stream
//! that carries the change notifications other POSTs cause until the client closes it.
//! And the HTTP client core (`Link`, an auto-era client `Endpoint`) against the same
//! server: the probe finds 2026-07-28, every POST carries the standard headers and no
//! session id, an `input_required` round is answered and retried.

// (Shared with http_hostile, which uses more of it.)
#[allow(dead_code)]
#[path = "http_hostile/support.rs"]
mod support;

use std::time::Duration;

use serde_json::Value;
use support::{Resp, Server, open_session, ping, post};

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"http-modern","version":"1"}}"#;

fn request(id: u32, method: &str, params: &str) -> String {
    let sep = if params.is_empty() { "" } else { "," };
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{params}{sep}{META}}}}}"#)
}

/// The standard headers of a modern POST for `method` (and `Mcp-Name` when given).
fn headers(method: &str, name: Option<&str>) -> String {
    let mut h = format!("MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: {method}\r\n");
    if let Some(n) = name {
        h.push_str(&format!("Mcp-Name: {n}\r\n"));
    }
    h
}

fn modern(server: &Server, body: &str, extra: &str) -> Resp {
    let mut raw = server.connect();
    post(&mut raw, server, None, body, extra).expect("an answer")
}

fn code(r: &Resp) -> Option<i64> {
    r.json().and_then(|v| v["error"]["code"].as_i64())
}

#[test]
fn stateless_posts_are_served_beside_a_handshake_session() {
    let server = Server::start();
    // A handshake session first, kept open across the stateless requests.
    let mut legacy = server.connect();
    let session = open_session(&mut legacy, &server).expect("initialize");

    let r = modern(&server, &request(1, "server/discover", ""), &headers("server/discover", None));
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.header("mcp-session-id"), None, "no session ids in 2026-07-28");
    let v = r.json().unwrap();
    assert!(v["result"]["supportedVersions"].as_array().unwrap().iter().any(|s| s == "2026-07-28"), "{v}");
    assert_eq!(v["result"]["resultType"], "complete");

    let call = request(2, "tools/call", r#""name":"test_simple_text","arguments":{}"#);
    let r = modern(&server, &call, &headers("tools/call", Some("test_simple_text")));
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.header("mcp-session-id"), None);
    assert!(!r.text().contains("id: ") && !r.text().contains("retry: "), "no event ids, no priming: {}", r.text());
    let v = r.json().unwrap();
    assert_eq!(v["id"], 2);
    assert_eq!(v["result"]["resultType"], "complete");
    assert_eq!(v["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "mcp-sansio-example-server");

    // The same id from another "client": every POST is on its own.
    let r = modern(&server, &call, &headers("tools/call", Some("test_simple_text")));
    assert_eq!(r.json().unwrap()["id"], 2);

    // The handshake session is still served, by its id.
    let r = ping(&mut legacy, &server, &session, 9).unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json().unwrap()["result"], Value::Object(Default::default()));
}

#[test]
fn missing_or_different_headers_get_400_with_header_mismatch() {
    let server = Server::start();
    let call = request(1, "tools/call", r#""name":"test_simple_text","arguments":{}"#);
    let cases = [
        ("Mcp-Method: tools/call\r\nMcp-Name: test_simple_text\r\n".to_string(), "MCP-Protocol-Version missing"),
        ("MCP-Protocol-Version: 2026-07-28\r\nMcp-Name: test_simple_text\r\n".to_string(), "Mcp-Method missing"),
        (headers("tools/list", Some("test_simple_text")), "Mcp-Method different"),
        (headers("tools/call", None), "Mcp-Name missing"),
        (headers("tools/call", Some("test_image_content")), "Mcp-Name different"),
    ];
    for (extra, what) in cases {
        let r = modern(&server, &call, &extra);
        assert_eq!((r.status, code(&r)), (400, Some(-32020)), "{what}: {}", r.text());
    }
    // Optional whitespace and the base64 sentinel are read as the value.
    let r = modern(&server, &call, &headers("tools/call", Some("  test_simple_text ")));
    assert_eq!(r.status, 200, "{}", r.text());
    let r = modern(&server, &call, &headers("tools/call", Some("=?base64?dGVzdF9zaW1wbGVfdGV4dA==?=")));
    assert_eq!(r.status, 200, "{}", r.text());

    // An argument marked x-mcp-header travels in its Mcp-Param header too.
    let call = request(2, "tools/call", r#""name":"test_header_param","arguments":{"region":"Zürich"}"#);
    let h = headers("tools/call", Some("test_header_param"));
    let r = modern(&server, &call, &format!("{h}Mcp-Param-Region: =?base64?WsO8cmljaA==?=\r\n"));
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r.text().contains("Region: Zürich"), "{}", r.text());
    for bad in ["", "Mcp-Param-Region: Zurich\r\n", "Mcp-Param-Region: =?base64?WsO8cmljaA?=\r\n"] {
        let r = modern(&server, &call, &format!("{h}{bad}"));
        assert_eq!((r.status, code(&r)), (400, Some(-32020)), "{bad:?}: {}", r.text());
    }
}

#[test]
fn refusals_carry_their_status() {
    let server = Server::start();
    let no_caps = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
    let r = modern(&server, no_caps, &headers("tools/list", None));
    assert_eq!((r.status, code(&r)), (400, Some(-32602)), "{}", r.text());

    let unknown = request(2, "nope/nothing", "");
    let r = modern(&server, &unknown, &headers("nope/nothing", None));
    assert_eq!((r.status, code(&r)), (404, Some(-32601)), "{}", r.text());
    // Methods of the handshake era are unknown in this one.
    let r = modern(&server, &request(3, "ping", ""), &headers("ping", None));
    assert_eq!((r.status, code(&r)), (404, Some(-32601)), "{}", r.text());

    let future = request(4, "tools/list", "").replace("2026-07-28", "2099-01-01");
    let r = modern(&server, &future, &headers("tools/list", None).replace("2026-07-28", "2099-01-01"));
    // A version nobody published, in the header and in `_meta`: the endpoint's -32022,
    // with the versions served, the one requested and the request's id.
    assert_eq!((r.status, code(&r)), (400, Some(-32022)), "{}", r.text());
    let v = r.json().unwrap();
    assert_eq!((v["id"].as_i64(), v["error"]["data"]["requested"].as_str()), (Some(4), Some("2099-01-01")));
    // `initialize` is not a method of this era.
    let init = request(6, "initialize", "");
    let r = modern(&server, &init, &headers("initialize", None));
    assert_eq!((r.status, code(&r)), (404, Some(-32601)), "{}", r.text());

    // An application error is an ordinary answer.
    let call = request(5, "tools/call", r#""name":"no_such_tool","arguments":{}"#);
    let r = modern(&server, &call, &headers("tools/call", Some("no_such_tool")));
    assert_eq!((r.status, code(&r)), (200, Some(-32602)), "{}", r.text());
}

#[test]
fn a_listen_stream_carries_notifications_until_the_client_closes_it() {
    let server = Server::start();
    let listen = request(7, "subscriptions/listen", r#""notifications":{"toolsListChanged":true}"#);
    let mut raw = server.connect();
    raw.send(
        format!("{}{listen}", support::post_head(&server, None, listen.len(), &headers("subscriptions/listen", None)))
            .as_bytes(),
    )
    .unwrap();
    raw.stream.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let head = raw.response().unwrap();
    assert_eq!(head.status, 200);
    assert!(head.streaming, "a listen stream is an SSE stream");
    assert_eq!(head.header("mcp-session-id"), None);

    let call = request(8, "tools/call", r#""name":"toggle_extra_tool","arguments":{}"#);
    let r = modern(&server, &call, &headers("tools/call", Some("toggle_extra_tool")));
    assert_eq!(r.status, 200, "{}", r.text());

    // The acknowledgement first, then the change, both tagged with the stream's id.
    // (What came with the head, if anything, first.)
    let mut seen = String::from_utf8_lossy(&raw.take_buffered()).into_owned();
    let mut buf = [0u8; 4096];
    while !seen.contains("notifications/tools/list_changed") {
        use std::io::Read;
        let n = raw.stream.read(&mut buf).expect("the stream stays open");
        assert!(n > 0, "the stream ended early: {seen}");
        seen.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    let ack = seen.find("notifications/subscriptions/acknowledged").expect("acknowledged");
    assert!(ack < seen.find("notifications/tools/list_changed").unwrap(), "{seen}");
    assert_eq!(seen.matches(r#""io.modelcontextprotocol/subscriptionId":7"#).count(), 2, "{seen}");
    assert!(!seen.contains("id: ") && !seen.contains("retry: "), "no event ids, no priming: {seen}");
    // Closing the stream ends it (the server's cancellation); the server goes on.
    drop(raw);
    let r = modern(&server, &call, &headers("tools/call", Some("toggle_extra_tool")));
    assert_eq!(r.status, 200, "{}", r.text());
}

/// A stateless POST's session is reset and reused for the next once it ended: nothing
/// of one reaches the next. A listen stream closed, a slow call abandoned while it
/// runs, a call that changes the tool list: then the same id again, answered each time
/// as by a new server, with its own answer only.
#[test]
fn nothing_of_one_stateless_post_reaches_the_next() {
    let server = Server::start();
    let listen = request(1, "subscriptions/listen", r#""notifications":{"toolsListChanged":true}"#);
    let mut raw = server.connect();
    let head = support::post_head(&server, None, listen.len(), &headers("subscriptions/listen", None));
    raw.send(format!("{head}{listen}").as_bytes()).unwrap();
    raw.stream.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    assert_eq!(raw.response().unwrap().status, 200);
    drop(raw);
    let slow = request(1, "tools/call", r#""name":"test_tool_with_progress","arguments":{}"#);
    let mut raw = server.connect();
    let head = support::post_head(&server, None, slow.len(), &headers("tools/call", Some("test_tool_with_progress")));
    raw.send(format!("{head}{slow}").as_bytes()).unwrap();
    std::thread::sleep(Duration::from_millis(20));
    drop(raw);
    let toggle = request(1, "tools/call", r#""name":"toggle_extra_tool","arguments":{}"#);
    let call = request(1, "tools/call", r#""name":"test_simple_text","arguments":{}"#);
    for round in 0..6 {
        if round == 3 {
            // The abandoned call is over by now.
            std::thread::sleep(Duration::from_millis(200));
        }
        let r = modern(&server, &toggle, &headers("tools/call", Some("toggle_extra_tool")));
        assert_eq!(r.status, 200, "{}", r.text());
        let r = modern(&server, &call, &headers("tools/call", Some("test_simple_text")));
        assert_eq!((r.status, r.header("content-type")), (200, Some("application/json")), "{}", r.text());
        let v = r.json().unwrap();
        assert_eq!(v["id"], 1, "{v}");
        assert_eq!(v["result"]["resultType"], "complete", "{v}");
        assert!(v["result"]["content"][0]["text"].is_string(), "{v}");
    }
}

// ---- the client core over real HTTP ----------------------------------------------

mod client {
    use std::io::{Read, Write};
    use std::net::TcpStream;

    use mcp_sansio::http::client::{ClientConfig, ExchangeId, HttpClient, HttpMethod, Link, Step};
    use mcp_sansio::session::{Config, Endpoint, Event, OutputMode, RequestOptions, RetryTicket};
    use mcp_sansio::wire::{RawJson, RequestId};
    use mcp_sansio::{Instant, ProtocolVersion, Role};

    /// Header names and values.
    pub type Fields = Vec<(String, String)>;

    /// A request the link asked for, copied out of it.
    pub struct Asked {
        pub exchange: ExchangeId,
        pub method: HttpMethod,
        pub headers: Vec<(String, String)>,
        pub body: Vec<u8>,
    }

    /// What the session told us.
    #[derive(Default)]
    pub struct Seen {
        pub version: Option<ProtocolVersion>,
        pub responses: Vec<RequestId>,
        pub input_required: Vec<(RequestId, RetryTicket)>,
        pub errors: Vec<(RequestId, i32)>,
        pub asked: Vec<(HttpMethod, Fields, String)>,
    }

    /// One HTTP/1.1 exchange on a connection of its own: (status, headers, body), the
    /// body de-chunked.
    fn perform(addr: std::net::SocketAddr, path: &str, a: &Asked) -> (u16, Vec<(String, String)>, Vec<u8>) {
        let mut s = TcpStream::connect(addr).unwrap();
        let method = match a.method {
            HttpMethod::Post => "POST",
            HttpMethod::Get => "GET",
            HttpMethod::Delete => "DELETE",
        };
        let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
        for (n, v) in &a.headers {
            head.push_str(&format!("{n}: {v}\r\n"));
        }
        head.push_str(&format!("Content-Length: {}\r\n\r\n", a.body.len()));
        s.write_all(head.as_bytes()).unwrap();
        s.write_all(&a.body).unwrap();
        let mut all = Vec::new();
        s.read_to_end(&mut all).unwrap();
        let end = all.windows(4).position(|w| w == b"\r\n\r\n").expect("a response head");
        let text = String::from_utf8_lossy(&all[..end]).into_owned();
        let mut lines = text.split("\r\n");
        let status: u16 = lines.next().unwrap().split(' ').nth(1).unwrap().parse().unwrap();
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':').map(|(n, v)| (n.trim().to_string(), v.trim().to_string())))
            .collect();
        let mut body = all[end + 4..].to_vec();
        if headers.iter().any(|(n, v)| n.eq_ignore_ascii_case("transfer-encoding") && v == "chunked") {
            let mut out = Vec::new();
            let mut rest = &body[..];
            while let Some(i) = rest.windows(2).position(|w| w == b"\r\n") {
                let n = usize::from_str_radix(std::str::from_utf8(&rest[..i]).unwrap().trim(), 16).unwrap();
                if n == 0 {
                    break;
                }
                out.extend_from_slice(&rest[i + 2..i + 2 + n]);
                rest = &rest[i + 2 + n + 2..];
            }
            body = out;
        }
        (status, headers, body)
    }

    /// A client session (auto era) against `addr`, running `script` whenever the link is
    /// idle with nothing in flight, until it returns false.
    pub fn run(
        addr: std::net::SocketAddr,
        path: &str,
        mut script: impl FnMut(Instant, &mut Endpoint<'_>, &mut Seen) -> bool,
    ) -> Seen {
        let info = RawJson::parse(br#"{"name":"http-modern-client","version":"1"}"#).unwrap();
        let caps = RawJson::parse(br#"{"sampling":{},"elicitation":{}}"#).unwrap();
        let config = Config::new(Role::Client, info).capabilities(caps).output(OutputMode::Messages);
        let (mut rx, mut tx) = (vec![0u8; 65536], vec![0u8; 65536]);
        let start = std::time::Instant::now();
        let now = || Instant::from_millis(start.elapsed().as_millis() as u64);
        let mut endpoint: Endpoint<'_> = Endpoint::new(config, &mut rx, &mut tx, now()).unwrap();
        let url = format!("http://{addr}{path}");
        let http_config = ClientConfig::new(&url).unwrap().standalone_stream(false);
        let mut storage = vec![0u8; http_config.storage_len(4, 65536)];
        let mut http: HttpClient<'_> = HttpClient::new(http_config, &mut storage).unwrap();
        let mut link = Link::new();
        let mut seen = Seen::default();
        let mut queue: Vec<Asked> = Vec::new();
        for _ in 0..200 {
            loop {
                match link.poll(now(), &mut endpoint, &mut http) {
                    Step::Request(r) => {
                        let headers: Vec<(String, String)> =
                            r.headers().iter().map(|(n, v)| (n.to_string(), v.to_string())).collect();
                        let body = r.body.to_vec();
                        seen.asked.push((r.method, headers.clone(), String::from_utf8_lossy(&body).into_owned()));
                        queue.push(Asked { exchange: r.exchange, method: r.method, headers, body });
                    }
                    Step::Abort(x) => queue.retain(|a| a.exchange != x),
                    Step::Session(Event::Negotiated { version, .. }) => seen.version = Some(version),
                    Step::Session(Event::Response { id, .. }) => seen.responses.push(id),
                    Step::Session(Event::Error { id, error, .. }) => seen.errors.push((id, error.code.0)),
                    Step::Session(Event::InputRequired { id, retry, .. }) => seen.input_required.push((id, retry)),
                    Step::Session(_) | Step::Transport(_) => {}
                    Step::Unsent(e) => panic!("{e}"),
                    Step::Idle { .. } => break,
                }
            }
            if let Some(a) = (!queue.is_empty()).then(|| queue.remove(0)) {
                let (status, headers, body) = perform(addr, path, &a);
                let t = now();
                http.handle_response(t, a.exchange, status, headers.iter().map(|(n, v)| (n.as_str(), v.as_bytes())));
                let mut rest = &body[..];
                while !rest.is_empty() {
                    let n = http.handle_body(t, a.exchange, rest);
                    assert!(n > 0, "the client takes the body");
                    rest = &rest[n..];
                }
                http.handle_end(t, a.exchange);
                continue;
            }
            if !script(now(), &mut endpoint, &mut seen) {
                return seen;
            }
        }
        panic!("the script did not end");
    }

    pub fn opts() -> RequestOptions {
        RequestOptions::default()
    }
}

#[test]
fn our_http_client_core_speaks_2026_07_28_with_our_server() {
    let server = Server::start();
    let mut step = 0;
    let seen = client::run(server.addr, &server.path, |now, ep, seen| {
        step += 1;
        match step {
            1 => {
                assert_eq!(seen.version, Some(mcp_sansio::ProtocolVersion::V2026_07_28), "the probe found the era");
                let p = mcp_sansio::wire::RawJson::parse(br#"{"name":"test_simple_text","arguments":{}}"#).unwrap();
                ep.send_request(now, "tools/call", Some(&p), client::opts()).unwrap();
                true
            }
            2 => {
                let p = mcp_sansio::wire::RawJson::parse(
                    br#"{"name":"test_input_required_result_elicitation","arguments":{}}"#,
                )
                .unwrap();
                ep.send_request(now, "tools/call", Some(&p), client::opts()).unwrap();
                true
            }
            3 => {
                let (_, ticket) = seen.input_required.first().expect("input required").clone();
                let p = mcp_sansio::wire::RawJson::parse(
                    br#"{"name":"test_input_required_result_elicitation","arguments":{}}"#,
                )
                .unwrap();
                let answers =
                    mcp_sansio::wire::RawJson::parse(br#"{"user_name":{"action":"accept","content":{"name":"Ada"}}}"#)
                        .unwrap();
                ep.retry(now, &ticket, Some(&p), &answers, None, client::opts()).unwrap();
                true
            }
            _ => false,
        }
    });
    assert!(seen.errors.is_empty(), "errors: {:?}", seen.errors);
    // (The probe's answer is the endpoint's own: Negotiated, not a Response.)
    assert_eq!(seen.responses.len(), 2, "the call and the retry");
    assert_eq!(seen.input_required.len(), 1);
    // Every POST of the era: its standard headers, no session id, no initialize.
    for (method, headers, body) in &seen.asked {
        assert!(matches!(method, mcp_sansio::http::client::HttpMethod::Post), "{body}");
        let h = |name: &str| headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str());
        assert_eq!(h("mcp-protocol-version"), Some("2026-07-28"), "{body}");
        assert!(h("mcp-method").is_some_and(|m| body.contains(&format!(r#""method":"{m}""#))), "{body}");
        assert_eq!(h("mcp-session-id"), None, "{body}");
        assert!(!body.contains("initialize"), "{body}");
    }
    assert!(seen.asked.iter().any(|(_, h, _)| h.iter().any(|(n, v)| n == "Mcp-Name" && v == "test_simple_text")));
}
