//! One toolkit server, unchanged, as the adapters' shared `Handler`: over HTTP (many
//! sessions in one process, each with its own work in progress) and over stdio (step
//! jobs stepped by the loop). Real sockets and pipes; the tests meet the jobs on
//! channels and wait only with timeouts that fail the test.

#[allow(dead_code)]
#[path = "http_hostile/support.rs"]
mod support;

use std::io::{BufRead, BufReader, Write};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::task::Poll;
use std::time::Duration;

use mcp_sansio::adapters::http::server::{HttpServer, ServerOptions};
use mcp_sansio::adapters::stdio::StdioLoop;
use mcp_sansio::mcp::Implementation;
use mcp_sansio::session::{CloseReason, Endpoint};
use mcp_sansio::time::Instant;
use mcp_sansio::toolkit::NoArguments;
use mcp_sansio::toolkit::server::{Cancelled, Server, ServerBuilder, Step, StepContext, StepTool, Table, ToolFn};
use serde_json::{Value, json};
use support::{Raw, Session, Target, open_session, post, post_head};

mcp_sansio::schema! {
    #[derive(serde::Deserialize)]
    pub struct Say { text: String }

    #[derive(serde::Deserialize)]
    pub struct Tag { tag: String }

    #[derive(serde::Deserialize)]
    pub struct Count { to: u32 }
}

const PATIENCE: Duration = Duration::from_secs(20);

/// A server whose `hold` tool runs on a thread until its call is cancelled, telling the
/// test when it started and when it saw the cancellation.
fn holding_server(events: Sender<String>) -> ServerBuilder {
    let events = Mutex::new(events);
    ServerBuilder::new("app-test", "1.0.0")
        .tool("say", "Says it back", |Say { text }| format!("said {text}"))
        .blocking_tool("greet", "Asks the user's name", |job, _: Tag| -> Result<String, String> {
            let params = json!({"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}});
            let answer = job.elicit(&params).map_err(|e| e.to_string())?;
            let v: Value = serde_json::from_slice(answer.json().as_bytes()).unwrap();
            Ok(format!("Hello, {}", v["content"]["name"].as_str().unwrap_or("?")))
        })
        .logging()
        .blocking_tool("chatty", "Logs twice", |job, _: Tag| {
            job.log(mcp_sansio::mcp::LoggingLevel::Info, "routine");
            job.log(mcp_sansio::mcp::LoggingLevel::Error, "broken");
            "done"
        })
        .blocking_tool("hold", "Holds until cancelled", move |job, Tag { tag }| -> Result<String, Cancelled> {
            let events = events.lock().unwrap().clone();
            job.progress(1.0, None, Some("holding"));
            let _ = events.send(format!("{tag} started"));
            while job.sleep(Duration::from_secs(30)).is_ok() {}
            let _ = events.send(format!("{tag} cancelled"));
            Err(Cancelled)
        })
}

fn call(id: u64, name: &str, arguments: Value, progress: bool) -> String {
    let mut params = json!({ "name": name, "arguments": arguments });
    if progress {
        params["_meta"] = json!({ "progressToken": id });
    }
    json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params }).to_string()
}

fn cancel(id: u64) -> String {
    json!({ "jsonrpc": "2.0", "method": "notifications/cancelled", "params": { "requestId": id } }).to_string()
}

fn expect(events: &Receiver<String>, what: &str) {
    let got = events.recv_timeout(PATIENCE).unwrap_or_else(|_| panic!("never saw {what:?}"));
    assert_eq!(got, what);
}

fn delete(target: &Target, session: &Session) -> u16 {
    let mut raw = Raw::connect(target.addr);
    let head = format!(
        "DELETE {} HTTP/1.1\r\nHost: {}\r\nMcp-Session-Id: {}\r\nMCP-Protocol-Version: {}\r\nContent-Length: 0\r\n\r\n",
        target.path, target.addr, session.id, session.version
    );
    raw.send(head.as_bytes()).unwrap();
    raw.response().unwrap().status
}

/// initialize (the client declaring `capabilities`) and initialized.
fn open_session_with(raw: &mut Raw, target: &Target, capabilities: Value) -> Session {
    let init = json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":capabilities,"clientInfo":{"name":"t","version":"1"}}});
    let r = post(raw, target, None, &init.to_string(), "").unwrap();
    let s = Session { id: r.header("mcp-session-id").unwrap().to_string(), version: "2025-11-25".into() };
    let done = post(raw, target, Some(&s), r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, "").unwrap();
    assert_eq!(done.status, 202);
    s
}

/// Every JSON-RPC message of a whole answer (JSON or SSE).
fn messages(r: &support::Resp) -> Vec<Value> {
    if let Ok(v) = serde_json::from_slice(&r.body) {
        return vec![v];
    }
    let text = r.text();
    text.split("\n\n")
        .filter_map(|event| {
            let data: String = event.lines().filter_map(|l| l.strip_prefix("data:")).map(str::trim).collect();
            serde_json::from_str(&data).ok()
        })
        .collect()
}

/// The next JSON-RPC message on an SSE answer (skipping priming events without data).
fn next_message(raw: &mut Raw) -> Value {
    let mut text = String::new();
    loop {
        let chunk = raw.next_chunk().unwrap().expect("the stream ended");
        text.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(end) = text.find("\n\n") {
            let event: String = text[..end].to_string();
            text.drain(..end + 2);
            let data: String = event.lines().filter_map(|l| l.strip_prefix("data:")).map(str::trim).collect();
            if let Ok(v) = serde_json::from_str::<Value>(&data) {
                return v;
            }
        }
    }
}

#[test]
fn one_toolkit_server_serves_http_sessions_each_with_its_own_work() {
    let (tx, events) = channel();
    let (bound, listening) = channel();
    // A builder's server holds its closures as they are (not `Send`): it is made on the
    // loop's thread.
    let loop_thread = std::thread::spawn(move || {
        let server = holding_server(tx).build();
        let config = server.config();
        let mut handler = server.handler(());
        let mut http: HttpServer<'static, _> =
            HttpServer::bind("127.0.0.1:0", config, ServerOptions::default()).expect("bind");
        bound.send((http.local_addr(), http.stopper())).unwrap();
        http.run(&mut handler).unwrap();
        handler.busy_sessions()
    });
    let (addr, stopper) = listening.recv_timeout(PATIENCE).expect("the server never listened");
    let target = Target { addr, path: "/mcp".into() };

    let mut a_conn = Raw::connect(target.addr);
    let a = open_session(&mut a_conn, &target).expect("session a");
    let mut b_conn = Raw::connect(target.addr);
    let b = open_session(&mut b_conn, &target).expect("session b");
    assert_ne!(a.id, b.id);

    // The declarations are shared: both sessions list the same tools.
    for (raw, s) in [(&mut a_conn, &a), (&mut b_conn, &b)] {
        let r = post(raw, &target, Some(s), r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#, "").unwrap();
        let names: Vec<_> =
            r.json().unwrap()["result"]["tools"].as_array().unwrap().iter().map(|t| t["name"].clone()).collect();
        assert_eq!(names, [json!("say"), json!("greet"), json!("chatty"), json!("hold")], "{s:?}");
    }

    // Session a holds a call on a thread; its response stream stays open (the head and
    // the progress event are there, the answer is not).
    let mut held = Raw::connect(target.addr);
    let body = call(7, "hold", json!({ "tag": "a" }), true);
    held.send(format!("{}{body}", post_head(&target, Some(&a), body.len(), "")).as_bytes()).unwrap();
    let head = held.response().unwrap();
    assert_eq!(head.status, 200);
    assert!(head.streaming, "a held call is answered on an SSE stream");
    expect(&events, "a started");

    // Meanwhile session b is served, and its typed call answered.
    let r = post(&mut b_conn, &target, Some(&b), &call(7, "say", json!({ "text": "hi" }), false), "").unwrap();
    assert_eq!(r.json().unwrap()["result"]["content"][0]["text"], "said hi");
    // A request id of a's means nothing in b: cancelling "7" in b stops nothing.
    let r = post(&mut b_conn, &target, Some(&b), &cancel(7), "").unwrap();
    assert_eq!(r.status, 202);
    assert!(events.recv_timeout(Duration::from_millis(300)).is_err(), "b's cancellation reached a's job");

    // a's cancellation stops a's job.
    let r = post(&mut a_conn, &target, Some(&a), &cancel(7), "").unwrap();
    assert_eq!(r.status, 202);
    expect(&events, "a cancelled");

    // A job of b's is stopped when b's session ends.
    let mut held_b = Raw::connect(target.addr);
    let body = call(8, "hold", json!({ "tag": "b" }), false);
    held_b.send(format!("{}{body}", post_head(&target, Some(&b), body.len(), "")).as_bytes()).unwrap();
    expect(&events, "b started");
    assert_eq!(delete(&target, &b), 200);
    expect(&events, "b cancelled");

    // a still works after all that.
    let r = post(&mut a_conn, &target, Some(&a), &call(9, "say", json!({ "text": "again" }), false), "").unwrap();
    assert_eq!(r.json().unwrap()["result"]["content"][0]["text"], "said again");
    // An argument error over HTTP is the same tool error as over stdio.
    let r = post(&mut a_conn, &target, Some(&a), &call(10, "say", json!({ "text": 3 }), false), "").unwrap();
    let result = &r.json().unwrap()["result"];
    assert_eq!(result["isError"], true);
    assert!(result["content"][0]["text"].as_str().unwrap().contains("`text`"), "{result}");

    // A handler's question to the client goes on the call's response stream, and the
    // client's answer (POSTed) reaches the handler.
    let mut c_conn = Raw::connect(target.addr);
    let c = open_session_with(&mut c_conn, &target, json!({ "elicitation": {} }));
    let mut held = Raw::connect(target.addr);
    let body = call(11, "greet", json!({ "tag": "c" }), false);
    held.send(format!("{}{body}", post_head(&target, Some(&c), body.len(), "")).as_bytes()).unwrap();
    assert!(held.response().unwrap().streaming);
    let asked = next_message(&mut held);
    assert_eq!(asked["method"], "elicitation/create", "{asked}");
    let reply = json!({"jsonrpc":"2.0","id":asked["id"],"result":{"action":"accept","content":{"name":"Ada"}}});
    assert_eq!(post(&mut c_conn, &target, Some(&c), &reply.to_string(), "").unwrap().status, 202);
    let answer = next_message(&mut held);
    assert_eq!(answer["id"], 11);
    assert_eq!(answer["result"]["content"][0]["text"], "Hello, Ada", "{answer}");

    // Each session has its own logging level: c asks for errors only, a set none.
    let r = post(
        &mut c_conn,
        &target,
        Some(&c),
        r#"{"jsonrpc":"2.0","id":12,"method":"logging/setLevel","params":{"level":"error"}}"#,
        "",
    )
    .unwrap();
    assert_eq!(r.json().unwrap()["result"], json!({}));
    for (raw, s, expected) in [(&mut c_conn, &c, vec!["broken"]), (&mut a_conn, &a, vec!["routine", "broken"])] {
        let r = post(raw, &target, Some(s), &call(13, "chatty", json!({ "tag": "x" }), false), "").unwrap();
        let all = messages(&r);
        let logs: Vec<_> = all
            .iter()
            .filter(|m| m["method"] == "notifications/message")
            .map(|m| m["params"]["data"].clone())
            .collect();
        assert_eq!(logs, expected, "{all:?}");
        assert_eq!(all.last().unwrap()["result"]["content"][0]["text"], "done");
    }

    stopper.stop();
    let busy = loop_thread.join().unwrap();
    assert_eq!(busy, 0, "work in progress outlived its sessions");
}

/// A step job: counts to `to`, one step per 20 ms of the loop's clock.
enum Counting {
    Count { at: u32, to: u32, next: Option<Instant> },
}

#[derive(Default)]
struct Stats {
    cancelled_at: Vec<u32>,
}

impl Step<Arc<Mutex<Stats>>> for Counting {
    type Output<'a> = String;

    fn step(&mut self, _: &mut Arc<Mutex<Stats>>, cx: &mut impl StepContext) -> Poll<String> {
        let Counting::Count { at, to, next } = self;
        if let Some(t) = *next
            && cx.now() < t
        {
            cx.wake_at(t);
            return Poll::Pending;
        }
        if *at == *to {
            return Poll::Ready(format!("counted to {to}"));
        }
        *at += 1;
        cx.progress(*at, Some(*to), None);
        let t = Instant::from_millis(cx.now().as_millis() + 20);
        *next = Some(t);
        cx.wake_at(t);
        Poll::Pending
    }

    fn cancelled(&mut self, stats: &mut Arc<Mutex<Stats>>) {
        let Counting::Count { at, .. } = self;
        stats.lock().unwrap().cancelled_at.push(*at);
    }
}

type State = Arc<Mutex<Stats>>;
static COUNT: StepTool<Count, State, Counting> =
    StepTool::new("count", |_, Count { to }| Counting::Count { at: 0, to, next: None });
static SAY: ToolFn<Say, State, String> = ToolFn::new("say", |_, Say { text }| format!("said {text}"));
static TABLE: Table<'static, State, Counting> = Table::new().tools(&[&SAY, &COUNT]);

#[test]
fn the_same_handler_runs_step_jobs_over_stdio_with_progress_and_cancellation() {
    let stats = State::default();
    let (server_in, mut to_server) = std::io::pipe().unwrap();
    let (from_server, server_out) = std::io::pipe().unwrap();
    let state = Arc::clone(&stats);
    let loop_thread = std::thread::spawn(move || {
        let server: Server<'static, State, Counting, 2> =
            Server::new(TABLE).info(Implementation::new("app-stdio", "1.0.0"));
        let config = server.config();
        let mut handler = server.handler(state);
        let mut ev_loop = StdioLoop::new(server_in).unwrap();
        let (mut rx, mut tx) = (vec![0u8; 16 * 1024], vec![0u8; 16 * 1024]);
        let mut ep: Endpoint<'_, 4, 8> = Endpoint::new(config, &mut rx, &mut tx, ev_loop.clock().now()).unwrap();
        let reason = ev_loop.serve(&mut ep, server_out, &mut handler).unwrap();
        (reason, handler.busy_sessions())
    });
    let mut lines = BufReader::new(from_server).lines();
    let mut send = move |v: String| writeln!(to_server, "{v}").unwrap();
    let mut next = move || -> Value {
        let line = lines.next().unwrap().unwrap();
        if std::env::var_os("TK_DEBUG").is_some() {
            eprintln!("<- {line}");
        }
        serde_json::from_str(&line).unwrap()
    };

    send(json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}).to_string());
    assert_eq!(next()["result"]["capabilities"]["tools"], json!({}));
    send(json!({"jsonrpc":"2.0","method":"notifications/initialized"}).to_string());

    // A job runs to its end with progress 1, 2, 3, then its answer.
    send(call(1, "count", json!({ "to": 3 }), true));
    let mut progress = Vec::new();
    let answer = loop {
        let m = next();
        if m["method"] == "notifications/progress" {
            progress.push(m["params"]["progress"].as_f64().unwrap());
        } else {
            break m;
        }
    };
    assert_eq!(progress, [1.0, 2.0, 3.0]);
    assert_eq!(answer["id"], 1);
    assert_eq!(answer["result"]["content"][0]["text"], "counted to 3");

    // A long one is cancelled after its first progress; its hook runs, no answer comes,
    // and the server answers on.
    send(call(2, "count", json!({ "to": 1000 }), true));
    let m = next();
    assert_eq!(m["method"], "notifications/progress");
    send(cancel(2));
    send(call(3, "say", json!({ "text": "after" }), false));
    let answer = loop {
        let m = next();
        assert_ne!(m["id"], 2, "a cancelled job was answered: {m}");
        if m["method"] != "notifications/progress" {
            break m;
        }
    };
    assert_eq!(answer["id"], 3);
    assert_eq!(answer["result"]["content"][0]["text"], "said after");
    let cancelled = stats.lock().unwrap().cancelled_at.clone();
    assert_eq!(cancelled.len(), 1, "{cancelled:?}");
    assert!(cancelled[0] >= 1 && cancelled[0] < 1000, "{cancelled:?}");

    // A job still running when input ends is owed an answer: the loop steps it to its
    // end before it stops.
    send(call(4, "count", json!({ "to": 5 }), false));
    drop(send);
    let answer = next();
    assert_eq!(answer["id"], 4);
    assert_eq!(answer["result"]["content"][0]["text"], "counted to 5");
    let (reason, busy) = loop_thread.join().unwrap();
    assert_eq!(reason, CloseReason::PeerClosed);
    assert_eq!(busy, 0);
    assert_eq!(stats.lock().unwrap().cancelled_at.len(), 1);
}

/// A step job that never ends by itself: a progress notification of 1 KiB at every step,
/// stepped at every poll.
struct Spin(u64);

const KIB: &str = concat!(
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
);

impl Step<()> for Spin {
    type Output<'a> = String;

    fn step(&mut self, _: &mut (), cx: &mut impl StepContext) -> Poll<String> {
        self.0 += 1;
        cx.progress(self.0, None, Some(KIB));
        Poll::Pending
    }
}

static SPIN: StepTool<NoArguments, (), Spin> = StepTool::new("spin", |_, NoArguments {}| Spin(0));
static SPIN_TABLE: Table<'static, (), Spin> = Table::new().tools(&[&SPIN]);

/// The resident memory of this process, in KiB.
fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
#[cfg(target_os = "linux")]
fn progress_of_a_session_that_reads_nothing_waits_instead_of_piling_up() {
    let (bound, listening) = channel();
    let loop_thread = std::thread::spawn(move || {
        let server: Server<'static, (), Spin, 1> = Server::new(SPIN_TABLE);
        let config = server.config();
        let mut handler = server.handler(());
        let mut http: HttpServer<'static, _> =
            HttpServer::bind("127.0.0.1:0", config, ServerOptions::default()).expect("bind");
        bound.send((http.local_addr(), http.stopper())).unwrap();
        http.run(&mut handler).unwrap();
    });
    let (addr, stopper) = listening.recv_timeout(PATIENCE).expect("the server never listened");
    let target = Target { addr, path: "/mcp".into() };
    let mut conn = Raw::connect(target.addr);
    let s = open_session(&mut conn, &target).expect("session");
    let before = rss_kib();
    // The call's stream is never read: the job's progress has nowhere to go.
    let mut held = Raw::connect(target.addr);
    let body = call(5, "spin", json!({}), true);
    held.send(format!("{}{body}", post_head(&target, Some(&s), body.len(), "")).as_bytes()).unwrap();
    std::thread::sleep(Duration::from_secs(2));
    let grown = rss_kib().saturating_sub(before);
    // What the socket, the stream's store, the endpoint and the session's queue hold is
    // bounded (a few MiB); the job stepped hundreds of thousands of times meanwhile.
    assert!(grown < 32 * 1024, "the server grew by {grown} KiB for a client that reads nothing");
    assert_eq!(delete(&target, &s), 200);
    stopper.stop();
    loop_thread.join().unwrap();
}

#[test]
fn a_job_that_closes_its_stream_is_answered_on_the_stream_the_client_resumes() {
    let (go, wait) = channel::<()>();
    let wait = Mutex::new(wait);
    let (bound, listening) = channel();
    let loop_thread = std::thread::spawn(move || {
        let server = ServerBuilder::new("app-test", "1.0.0")
            .blocking_tool("patient", "Frees the connection, then answers", move |job, Tag { tag }| {
                job.close_stream();
                let _ = wait.lock().unwrap().recv_timeout(PATIENCE);
                format!("{tag} done")
            })
            .build();
        let config = server.config();
        let mut handler = server.handler(());
        let mut http: HttpServer<'static, _> =
            HttpServer::bind("127.0.0.1:0", config, ServerOptions::default()).expect("bind");
        bound.send((http.local_addr(), http.stopper())).unwrap();
        http.run(&mut handler).unwrap();
    });
    let (addr, stopper) = listening.recv_timeout(PATIENCE).expect("the server never listened");
    let target = Target { addr, path: "/mcp".into() };
    let mut conn = Raw::connect(target.addr);
    let s = open_session(&mut conn, &target).expect("session");

    // The call's stream: its priming event, then the response ends without the answer.
    let mut held = Raw::connect(target.addr);
    let body = call(7, "patient", json!({ "tag": "p" }), false);
    held.send(format!("{}{body}", post_head(&target, Some(&s), body.len(), "")).as_bytes()).unwrap();
    let head = held.response().unwrap();
    assert!(head.status == 200 && head.streaming, "{}", head.status);
    let priming = held.stream_until("\n\n").unwrap();
    let event_id = priming.lines().find_map(|l| l.strip_prefix("id:")).map(str::trim).expect("a priming id");
    // The response ends there (its last chunk), with no answer in it.
    let mut rest = String::new();
    while let Some(chunk) = held.next_chunk().unwrap() {
        rest.push_str(&String::from_utf8_lossy(&chunk));
    }
    assert!(!rest.contains("\"id\":7"), "the answer came on the closed stream: {rest}");

    // The client resumes the stream; the answer comes there once the job is done.
    let mut resumed = Raw::connect(target.addr);
    let get = format!(
        "GET /mcp HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\nMcp-Session-Id: {}\r\nMCP-Protocol-Version: {}\r\nLast-Event-ID: {event_id}\r\n\r\n",
        s.id, s.version
    );
    resumed.send(get.as_bytes()).unwrap();
    let head = resumed.response().unwrap();
    assert_eq!(head.status, 200);
    go.send(()).unwrap();
    let answer = next_message(&mut resumed);
    assert_eq!(answer["id"], 7, "{answer}");
    assert_eq!(answer["result"]["content"][0]["text"], "p done");
    stopper.stop();
    loop_thread.join().unwrap();
}

#[test]
fn a_result_longer_than_the_transmit_buffer_goes_out_once_the_adapter_grows_it() {
    let (bound, listening) = channel();
    let loop_thread = std::thread::spawn(move || {
        let server = ServerBuilder::new("app-test", "1.0.0")
            .tool("long", "Says a lot", |Count { to }| "x".repeat(to as usize))
            .build();
        let config = server.config();
        let mut handler = server.handler(());
        // A session's buffers start at 16 KiB and grow up to `tx_buffer` (128 KiB).
        let mut http: HttpServer<'static, _> =
            HttpServer::bind("127.0.0.1:0", config, ServerOptions::default()).expect("bind");
        bound.send((http.local_addr(), http.stopper())).unwrap();
        http.run(&mut handler).unwrap();
    });
    let (addr, stopper) = listening.recv_timeout(PATIENCE).expect("the server never listened");
    let target = Target { addr, path: "/mcp".into() };
    let mut conn = Raw::connect(target.addr);
    let s = open_session(&mut conn, &target).expect("session");
    for (id, size) in [(2u64, 40_000u32), (3, 5)] {
        let r = post(&mut conn, &target, Some(&s), &call(id, "long", json!({ "to": size }), false), "").unwrap();
        let answer = messages(&r).pop().unwrap_or_default();
        let text = answer["result"]["content"][0]["text"].as_str().unwrap_or_default();
        assert_eq!(text.len(), size as usize, "{size}: {}", r.text().chars().take(300).collect::<String>());
    }
    stopper.stop();
    loop_thread.join().unwrap();
}
