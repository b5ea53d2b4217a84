//! The same tour as `demo`, without threads or a real clock: a client and a server
//! endpoint wired together in memory, on a virtual clock that only moves when told to,
//! printing every line on the wire and every event each side sees. Its output is the
//! same on every run: this is how an application on this crate tests timeouts and
//! progress deterministically.
//!
//!     cargo run --example tour

use std::time::Duration;

use mcp_sansio::mcp::{Method, Role};
use mcp_sansio::session::{
    Config, CursorCodec, Endpoint, Event, Misbehavior, Output, Page, PageWalker, PendingRequest, RequestOptions,
};
use mcp_sansio::time::Instant;
use mcp_sansio::wire::{ErrorCode, NO_PARAMS, RawJson};

const TOOLS: [&str; 5] = [
    r#"{"name":"echo","description":"Repeat the text","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}}}"#,
    r#"{"name":"count","description":"Count slowly, reporting progress","inputSchema":{"type":"object"}}"#,
    r#"{"name":"forever","description":"Never finishes","inputSchema":{"type":"object"}}"#,
    r#"{"name":"add","description":"Add two numbers","inputSchema":{"type":"object"}}"#,
    r#"{"name":"time","description":"Tell the time","inputSchema":{"type":"object"}}"#,
];
const PAGE_SIZE: usize = 2;

type Ep = Endpoint<'static, 8, 8>;

fn buffer(n: usize) -> &'static mut [u8] {
    Box::leak(vec![0u8; n].into_boxed_slice())
}

/// What the server application remembers between events.
struct ServerApp {
    cursors: CursorCodec,
    /// The `count` call in progress: its id and how far it got.
    counting: Option<(PendingRequest, u32)>,
}

impl ServerApp {
    fn on_request(&mut self, req: &mut mcp_sansio::session::IncomingRequest<'_>) {
        match req.method {
            Method::ToolsList => match self.cursors.position(req.params) {
                Ok(start) => {
                    let start = start as usize;
                    let end = (start + PAGE_SIZE).min(TOOLS.len());
                    let tools: Vec<RawJson<'_>> =
                        TOOLS[start..end].iter().map(|t| RawJson::parse(t.as_bytes()).unwrap()).collect();
                    let next = (end < TOOLS.len()).then(|| self.cursors.encode(end as u32));
                    #[derive(serde::Serialize)]
                    struct ListTools<'t> {
                        tools: &'t [RawJson<'t>],
                        #[serde(rename = "nextCursor", skip_serializing_if = "Option::is_none")]
                        next_cursor: Option<mcp_sansio::session::Cursor>,
                    }
                    req.respond(&ListTools { tools: &tools, next_cursor: next }).unwrap();
                }
                Err(e) => {
                    req.respond_error(e.code(), e.message()).unwrap();
                }
            },
            Method::ToolsCall => {
                let params = req.params.unwrap_or(RawJson::EMPTY_OBJECT);
                let name = params.get("name").and_then(|n| n.as_str());
                if name.is_some_and(|n| n.eq_str("echo")) {
                    let text = params.get("arguments").and_then(|a| a.get("text")).and_then(|t| t.as_str());
                    #[derive(serde::Serialize)]
                    struct Content<'t> {
                        r#type: &'static str,
                        text: mcp_sansio::wire::JsonStr<'t>,
                    }
                    #[derive(serde::Serialize)]
                    struct CallResult<'t> {
                        content: [Content<'t>; 1],
                    }
                    let text = text.unwrap_or(mcp_sansio::wire::JsonStr::from_plain("").unwrap());
                    req.respond(&CallResult { content: [Content { r#type: "text", text }] }).unwrap();
                } else if name.is_some_and(|n| n.eq_str("count")) || name.is_some_and(|n| n.eq_str("forever")) {
                    // Long-running: answered later, from the main loop.
                    self.counting = Some((req.pending(), 0));
                } else {
                    req.respond_error(ErrorCode::INVALID_PARAMS, "Unknown tool").unwrap();
                }
            }
            _ => {
                req.respond_error(ErrorCode::METHOD_NOT_FOUND, "Method not found").unwrap();
            }
        }
    }
}

struct Demo {
    client: Ep,
    server: Ep,
    app: ServerApp,
    now: Instant,
    c2s: Vec<u8>,
    s2c: Vec<u8>,
    walker: PageWalker<64>,
    last_client_result: Option<String>,
}

fn say(text: &str) {
    println!("\n== {text}");
}

fn show_line(arrow: &str, line: &[u8]) {
    let text = String::from_utf8_lossy(line);
    let shown = match text.char_indices().nth(150) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.into_owned(),
    };
    println!("   {arrow} {shown}");
}

impl Demo {
    fn new() -> Self {
        let client = Config::new(Role::Client, RawJson::parse(br#"{"name":"demo-client","version":"0.1.0"}"#).unwrap())
            .capabilities(RawJson::parse(br#"{"roots":{"listChanged":true}}"#).unwrap())
            // The tour walks through the handshake era; `examples/demo` shows both.
            .era(mcp_sansio::session::Era::Legacy);
        let server = Config::new(Role::Server, RawJson::parse(br#"{"name":"demo-server","version":"0.1.0"}"#).unwrap())
            .capabilities(RawJson::parse(br#"{"tools":{"listChanged":true},"logging":{}}"#).unwrap())
            .instructions("Try the echo tool.");
        let now = Instant::ZERO;
        Demo {
            client: Ep::new(client, buffer(16 * 1024), buffer(16 * 1024), now).unwrap(),
            server: Ep::new(server, buffer(16 * 1024), buffer(16 * 1024), now).unwrap(),
            app: ServerApp { cursors: CursorCodec::new(*b"demo-secret-key!"), counting: None },
            now,
            c2s: Vec::new(),
            s2c: Vec::new(),
            walker: PageWalker::new(100),
            last_client_result: None,
        }
    }

    /// Drains both endpoints and moves bytes until everything is quiet.
    fn run(&mut self) {
        loop {
            let mut busy = false;
            loop {
                match self.client.poll_output() {
                    Output::Transmit(bytes) => {
                        for line in bytes.split_inclusive(|&b| b == b'\n') {
                            show_line("client → server", line.strip_suffix(b"\n").unwrap_or(line));
                        }
                        self.c2s.extend_from_slice(&bytes);
                    }
                    Output::Event(ev) => {
                        describe("client", &ev);
                        if let Event::Response { result, .. } = &ev {
                            self.last_client_result = Some(result.as_text().to_owned());
                        }
                    }
                    Output::Idle { .. } => break,
                }
                busy = true;
            }
            loop {
                match self.server.poll_output() {
                    Output::Transmit(bytes) => {
                        for line in bytes.split_inclusive(|&b| b == b'\n') {
                            show_line("server → client", line.strip_suffix(b"\n").unwrap_or(line));
                        }
                        self.s2c.extend_from_slice(&bytes);
                    }
                    Output::Event(mut ev) => {
                        describe("server", &ev);
                        if let Event::Request(req) = &mut ev {
                            self.app.on_request(req);
                        }
                    }
                    Output::Idle { .. } => break,
                }
                busy = true;
            }
            // Deliver in awkward chunks: framing does not care where reads end.
            for (from, to) in [(&mut self.c2s, &mut self.server), (&mut self.s2c, &mut self.client)] {
                while !from.is_empty() {
                    let n = to.handle_input(self.now, &from[..from.len().min(37)]);
                    from.drain(..n);
                    busy = true;
                    if n == 0 {
                        break;
                    }
                }
            }
            if !busy {
                return;
            }
        }
    }

    fn advance(&mut self, d: Duration) {
        self.now = self.now + d;
        println!("   … {} later (virtual clock: {:?})", humanize(d), self.now);
        self.client.handle_timeout(self.now);
        self.server.handle_timeout(self.now);
        self.run();
    }
}

fn humanize(d: Duration) -> String {
    if d.as_secs() >= 1 { format!("{} s", d.as_secs()) } else { format!("{} ms", d.as_millis()) }
}

fn describe(side: &str, ev: &Event<'_>) {
    let text = match ev {
        Event::Negotiated { version, .. } => format!("negotiated protocol version {version}"),
        Event::Ready { version } => format!("ready ({version}): the handshake is complete"),
        Event::Request(r) => format!("request {} `{}`", r.id, r.method),
        Event::Notification(n) => format!("notification `{}`", n.method),
        Event::Response { id, method, .. } => {
            format!("response to {id} ({})", method.map_or("?".into(), |m| m.name().to_string()))
        }
        Event::Error { id, error, .. } => format!("error response to {id}: {} {}", error.code, error.message),
        Event::Progress { id, progress, total, message } => format!(
            "progress on {id}: {progress}/{} {}",
            total.map_or("?".into(), |t| t.to_string()),
            message.map(|m| m.to_string()).unwrap_or_default()
        ),
        Event::TimedOut { id, .. } => format!("request {id} timed out; the endpoint sent notifications/cancelled"),
        Event::Failed { id, reason, .. } => format!("request {id} failed: {reason}"),
        Event::Cancelled { request: id, reason } => format!(
            "the peer cancelled request {id} ({}); its answer will be suppressed",
            reason.map(|r| r.to_string()).unwrap_or_default()
        ),
        Event::Misbehavior(Misbehavior::InvalidMessage { error, replied }) => {
            format!("invalid message: {error}; {}", if *replied { "answered with an error" } else { "not answered" })
        }
        Event::Misbehavior(Misbehavior::LateResponse { id }) => format!("late response to {id}, dropped"),
        Event::Misbehavior(m) => format!("peer misbehaved: {m:?}"),
        Event::Closed { reason } => format!("closed: {reason}"),
        other => format!("{other:?}"),
    };
    println!("   [{side}] {text}");
}

fn main() {
    let mut demo = Demo::new();

    say(
        "1. Handshake: the client offers its newest version; the server answers with the same one, which both support.",
    );
    demo.run();

    say("2. Ping: answered by the endpoint itself, in any state; the application never sees it.");
    demo.client.send_request(demo.now, "ping", NO_PARAMS, RequestOptions::default()).unwrap();
    demo.run();

    say(
        "3. Pagination: tools/list, two tools per page, following nextCursor (an opaque, tamper-evident cursor) to the end.",
    );
    loop {
        let params = demo.walker.params();
        demo.client.send_request(demo.now, "tools/list", Some(&params), RequestOptions::default()).unwrap();
        demo.run();
        let result = demo.last_client_result.take().expect("a page");
        match demo.walker.next_page(RawJson::parse(result.as_bytes()).unwrap()) {
            Ok(Page::More) => continue,
            Ok(Page::Done) => break,
            Err(e) => panic!("{e}"),
        }
    }
    println!("   walked {} pages", demo.walker.pages());
    println!("   A forged cursor is refused with -32602:");
    demo.client
        .send_request(
            demo.now,
            "tools/list",
            Some(&RawJson::parse(br#"{"cursor":"00000004000000001234567890abcdef"}"#).unwrap()),
            RequestOptions::default(),
        )
        .unwrap();
    demo.run();

    say(
        "4. A tool call with a progress token: the server reports progress, each report restarts the client's idle timeout.",
    );
    let args = RawJson::parse(br#"{"name":"count","arguments":{}}"#).unwrap();
    demo.client.send_request(demo.now, "tools/call", Some(&args), RequestOptions::with_progress()).unwrap();
    demo.run();
    let (id, _) = demo.app.counting.take().unwrap();
    for step in 1..=3 {
        demo.advance(Duration::from_secs(1));
        demo.server.send_progress(&id, step as f64, Some(3.0), Some("counting")).unwrap();
        demo.run();
    }
    demo.server.respond(&id, &RawJson::parse(br#"{"content":[{"type":"text","text":"3"}]}"#).unwrap()).unwrap();
    demo.run();

    say("5. Cancellation: the client gives up on a long call; the server is told and never answers it.");
    let args = RawJson::parse(br#"{"name":"forever","arguments":{}}"#).unwrap();
    let long = demo.client.send_request(demo.now, "tools/call", Some(&args), RequestOptions::default()).unwrap();
    demo.run();
    demo.client.cancel(demo.now, &long, Some("the user pressed stop")).unwrap();
    demo.run();
    let (id, _) = demo.app.counting.take().unwrap();
    let outcome = demo.server.respond(&id, &RawJson::EMPTY_OBJECT).unwrap();
    println!("   the server's handler finished anyway; respond() says {outcome:?}: nothing was sent");
    demo.run();

    say("6. A timeout: the server never answers, so after 5 s the client cancels and reports it.");
    let args = RawJson::parse(br#"{"name":"forever","arguments":{}}"#).unwrap();
    let options = RequestOptions::default().timeout(Duration::from_secs(5));
    demo.client.send_request(demo.now, "tools/call", Some(&args), options).unwrap();
    demo.run();
    demo.advance(Duration::from_secs(5));
    println!("   The server's handler finishes later; the request was cancelled, so its answer is never sent:");
    let (id, _) = demo.app.counting.take().unwrap();
    let _ = demo.server.respond(&id, &RawJson::EMPTY_OBJECT);
    demo.run();

    say(
        "7. Bad input: a line that is not JSON, and JSON that is not a valid request. The server answers both as JSON-RPC says and carries on.",
    );
    for line in [
        &b"{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\"\n"[..],
        b"{\"jsonrpc\":\"1.0\",\"id\":10,\"method\":\"tools/list\"}\n",
    ] {
        show_line("client → server (injected)", line.strip_suffix(b"\n").unwrap());
        let taken = demo.server.handle_input(demo.now, line);
        assert_eq!(taken, line.len(), "the buffer has room");
        demo.run();
    }
    let echo = RawJson::parse(br#"{"name":"echo","arguments":{"text":"still here \ud83d\ude00"}}"#).unwrap();
    demo.client.send_request(demo.now, "tools/call", Some(&echo), RequestOptions::default()).unwrap();
    demo.run();

    say("8. Shutdown: the client closes its side; the server sees end of input, flushes what it owes, and closes.");
    demo.client.close(demo.now);
    demo.run();
    demo.server.handle_eof(demo.now);
    demo.run();
    assert!(demo.client.is_closed() && demo.server.is_closed());
}
