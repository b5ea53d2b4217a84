//! The toolkit's blocking client over HTTP, against the toolkit's own server on the HTTP
//! server adapter in this process: typed calls, lazy pages, progress, cancellation the
//! server sees, timeouts, a sampling hook answered on the call's stream, the legacy
//! HTTP+SSE fallback, a bearer token, and servers gone or not there. The server's tools
//! and the test meet on channels, never on sleeps.
#![cfg(feature = "http")]

use std::net::SocketAddr;
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;
use std::time::Duration;

use mcp_sansio::adapters::http::server::{Authorizer, HttpServer, ServerOptions, Stopper};
use mcp_sansio::http::client::TransportMode;
use mcp_sansio::http::server::AuthVerdict;
use mcp_sansio::mcp::{ClientCapabilities, ContentBlock, CreateMessageParams, CreateMessageResult, MessageRole};
use mcp_sansio::mcp::{LoggingLevel, OneOrMany, ProtocolVersion, StopReason};
use mcp_sansio::session::Era;
use mcp_sansio::toolkit::client::{BlockingClient, ClientError, Closed, Hooks, Reply};
use mcp_sansio::toolkit::server::{Cancelled, Job, ServerBuilder};
use mcp_sansio::wire::JsonStr;
use serde_json::{Value, json};

mcp_sansio::schema! {
    #[derive(serde::Deserialize, serde::Serialize)]
    pub struct Add { a: i32, b: i32 }
}

mcp_sansio::schema! {
    #[derive(serde::Deserialize, serde::Serialize)]
    pub struct Steps { steps: u32 }
}

const PATIENCE: Duration = Duration::from_secs(20);
const RESOURCES: usize = 7;

/// Our HTTP server on a port of its own, and what its tools tell the test.
struct Running {
    addr: SocketAddr,
    stopper: Stopper,
    thread: Option<JoinHandle<()>>,
    /// A `wait` call has started.
    started: Receiver<()>,
    /// How a `wait` call's sleep ended: `Err(Cancelled)` when the client cancelled it.
    ended: Receiver<Result<(), Cancelled>>,
    /// Lets a `steps` call go on to its next step (the server sends only the latest
    /// progress of a job, so each is waited for).
    go: Sender<()>,
    /// An `ask_then_wait` call had its answer and sleeps.
    asked: Receiver<()>,
    /// How its sleep ended.
    asked_ended: Receiver<Result<(), Cancelled>>,
}

impl Running {
    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stopper.stop();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn serve() -> Running {
    serve_with(ServerOptions::default())
}

fn serve_with(options: ServerOptions<'static>) -> Running {
    let (started_tx, started) = channel();
    let (ended_tx, ended) = channel();
    let (addr_tx, addr_rx) = channel();
    let (go, gone) = channel::<()>();
    let (asked_tx, asked) = channel();
    let (asked_ended_tx, asked_ended) = channel();
    let thread = std::thread::spawn(move || {
        let (started_tx, ended_tx, gone) = (Mutex::new(started_tx), Mutex::new(ended_tx), Mutex::new(gone));
        let (asked_tx, asked_ended_tx) = (Mutex::new(asked_tx), Mutex::new(asked_ended_tx));
        let mut builder = ServerBuilder::new("http-test", "1")
            .page_size(2)
            .logging()
            .blocking_tool("chatty", "Logs, then answers.", |job: Job, Steps { steps }| {
                for i in 0..steps {
                    job.log(LoggingLevel::Info, &format!("line {i}"));
                }
                "said"
            })
            .tool("add", "Adds.", |Add { a, b }| i64::from(a) + i64::from(b))
            .blocking_tool("steps", "Counts, with progress.", move |job: Job, Steps { steps }| {
                for i in 1..=steps {
                    job.progress(f64::from(i), Some(f64::from(steps)), Some("step"));
                    let _ = gone.lock().unwrap().recv_timeout(PATIENCE);
                }
                format!("{steps} steps")
            })
            .blocking_tool("wait", "Sleeps until cancelled.", move |job: Job, _: Steps| {
                let _ = started_tx.lock().unwrap().send(());
                let slept = job.sleep(Duration::from_secs(60));
                let _ = ended_tx.lock().unwrap().send(slept);
                "woke"
            })
            .blocking_tool("ask_then_wait", "Asks, then sleeps until cancelled.", move |job: Job, _: Steps| {
                let params = json!({
                    "messages": [{"role": "user", "content": {"type": "text", "text": "go on?"}}],
                    "maxTokens": 1,
                });
                if job.sample(&params).is_err() {
                    return "no answer";
                }
                let _ = asked_tx.lock().unwrap().send(());
                let slept = job.sleep(Duration::from_secs(60));
                let _ = asked_ended_tx.lock().unwrap().send(slept);
                "woke"
            })
            .blocking_tool("ask_many", "Asks the client's model `steps` times.", |job: Job, Steps { steps }| {
                let params = json!({
                    "messages": [{"role": "user", "content": {"type": "text", "text": "again?"}}],
                    "maxTokens": 1,
                });
                for i in 0..steps {
                    if let Err(e) = job.sample(&params) {
                        return format!("no answer {i}: {e}");
                    }
                }
                format!("{steps} answers")
            })
            .blocking_tool("ask", "Asks the client's model.", |job: Job, Steps { steps }| {
                let params = json!({
                    "messages": [{"role": "user", "content": {"type": "text", "text": "a poem?"}}],
                    "maxTokens": steps,
                });
                match job.sample(&params) {
                    Ok(answer) => answer.to_string(),
                    Err(e) => format!("no answer: {e}"),
                }
            });
        for i in 1..=RESOURCES {
            builder = builder.resource(&format!("r://{i}"), "r", || "x");
        }
        let server = builder.build();
        let mut http: HttpServer<'_, _> = HttpServer::bind("127.0.0.1:0", server.config(), options).unwrap();
        addr_tx.send((http.local_addr(), http.stopper())).unwrap();
        let mut handler = server.handler(());
        http.run(&mut handler).unwrap();
    });
    let (addr, stopper) = addr_rx.recv_timeout(PATIENCE).unwrap();
    Running { addr, stopper, thread: Some(thread), started, ended, go, asked, asked_ended }
}

/// The client's hooks: sampling answered, the requests counted.
#[derive(Default)]
struct Model {
    asked: std::sync::Arc<Mutex<Vec<u64>>>,
}

impl Hooks for Model {
    fn capabilities(&self) -> ClientCapabilities<'static> {
        ClientCapabilities::new().sampling()
    }

    fn sampling(&mut self, params: CreateMessageParams<'_>, reply: Reply<'_, '_>) {
        self.asked.lock().unwrap().push(params.max_tokens);
        reply.respond(&CreateMessageResult {
            role: MessageRole::Assistant,
            content: OneOrMany::One(ContentBlock::text("a poem")),
            model: JsonStr::from_text("model-x"),
            stop_reason: Some(StopReason::EndTurn),
            result_type: None,
            meta: None,
        });
    }
}

#[test]
fn typed_calls_and_lazy_pages_over_streamable_http() {
    let server = serve();
    let legacy = BlockingClient::http(&server.url("/mcp")).era(Era::Legacy).connect().unwrap();
    let init = legacy.initialize_result();
    assert_eq!(init.json().get("serverInfo").unwrap().get("name").unwrap().as_str().unwrap(), "http-test");
    assert_eq!(legacy.call_tool("add", &Add { a: 1, b: 2 }).unwrap().text(), "3");
    legacy.close().unwrap();

    // Both eras asked for: the stateless one, which the toolkit's server speaks too.
    let client = BlockingClient::http(&server.url("/mcp")).era(Era::Auto).connect().unwrap();
    assert_eq!(client.protocol_version(), ProtocolVersion::V2026_07_28);

    let sum = client.call_tool("add", &Add { a: 2, b: 40 }).unwrap();
    assert!(!sum.is_error());
    assert_eq!(sum.text(), "42");
    let wrong = client.call_tool("add", &json!({"a": "two", "b": 40})).unwrap();
    assert!(wrong.is_error() && wrong.text().contains('a'), "{wrong}");

    // Each page is asked for when it is taken: a call goes between two of them.
    let mut pages = client.resources();
    let first = pages.next().unwrap().unwrap();
    assert_eq!(first.json().get("resources").unwrap().elements().count(), 2);
    assert_eq!(client.call_tool("add", &Add { a: 1, b: 1 }).unwrap().text(), "2");
    let rest: Vec<usize> = pages.map(|p| p.unwrap().json().get("resources").unwrap().elements().count()).collect();
    assert_eq!(rest, [2, 2, 1]);
    let uris: Vec<Value> = client
        .resources()
        .flat_map(|p| {
            let page: Value = serde_json::from_str(&p.unwrap().to_string()).unwrap();
            page["resources"].as_array().unwrap().iter().map(|r| r["uri"].clone()).collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(uris.len(), RESOURCES);
    assert_eq!(uris[RESOURCES - 1], "r://7");

    assert!(matches!(client.close().unwrap(), Closed::Disconnected));
}

#[test]
fn progress_cancellation_and_timeouts_over_http() {
    let server = serve();
    let client = BlockingClient::http(&server.url("/mcp")).timeout(Duration::from_secs(30)).connect().unwrap();

    let progress = std::sync::Arc::new(Mutex::new(Vec::new()));
    let seen = std::sync::Arc::clone(&progress);
    let go = server.go.clone();
    let done = client
        .call("steps", &Steps { steps: 3 })
        .progress(move |p, total, message| {
            seen.lock().unwrap().push((p, total, message.map(String::from)));
            let _ = go.send(());
        })
        .send()
        .unwrap();
    assert_eq!(done.text(), "3 steps");
    let step = Some("step".to_string());
    assert_eq!(
        *progress.lock().unwrap(),
        [(1.0, Some(3.0), step.clone()), (2.0, Some(3.0), step.clone()), (3.0, Some(3.0), step)]
    );

    // Cancelled while it runs: the call fails at once, and the tool's sleep ends.
    let call = client.call("wait", &Steps { steps: 1 }).start().unwrap();
    server.started.recv_timeout(PATIENCE).unwrap();
    assert!(call.try_wait().is_none());
    assert_eq!(call.cancel().unwrap_err(), ClientError::Cancelled);
    assert_eq!(server.ended.recv_timeout(PATIENCE).unwrap(), Err(Cancelled), "the server saw the cancel");
    assert_eq!(client.call_tool("add", &Add { a: 1, b: 2 }).unwrap().text(), "3");

    // No answer in time: the call fails, and the server is told to stop too.
    let slow = client.call("wait", &Steps { steps: 1 }).timeout(Duration::from_millis(300));
    assert_eq!(slow.send().unwrap_err(), ClientError::TimedOut);
    server.started.recv_timeout(PATIENCE).unwrap();
    assert_eq!(server.ended.recv_timeout(PATIENCE).unwrap(), Err(Cancelled), "the timeout cancelled it");
    assert_eq!(client.call_tool("add", &Add { a: 2, b: 2 }).unwrap().text(), "4");
    client.close().unwrap();
}

#[test]
fn a_sampling_hook_answers_the_server_over_http() {
    // A request of the server's own in a handshake session, an input_required round in
    // a stateless one: the same tool and the same hook.
    let server = serve();
    for (era, version) in [(Era::Legacy, ProtocolVersion::V2025_11_25), (Era::Auto, ProtocolVersion::V2026_07_28)] {
        let model = Model::default();
        let asked = std::sync::Arc::clone(&model.asked);
        let client = BlockingClient::http(&server.url("/mcp")).era(era).hooks(model).connect().unwrap();
        assert_eq!(client.protocol_version(), version);
        let answer = client.call_tool("ask", &Steps { steps: 7 }).unwrap();
        assert!(!answer.is_error(), "{era:?}: {answer}");
        assert!(answer.text().contains("a poem") && answer.text().contains("model-x"), "{era:?}: {answer}");
        assert_eq!(*asked.lock().unwrap(), [7], "{era:?}");
        client.close().unwrap();
    }
}

#[test]
fn a_call_sent_again_after_input_required_is_cancelled_by_its_first_id() {
    let server = serve();
    let client = BlockingClient::http(&server.url("/mcp")).era(Era::Auto).hooks(Model::default()).connect().unwrap();
    assert_eq!(client.protocol_version(), ProtocolVersion::V2026_07_28);
    // The first round asks; the retry (another id) runs until it is cancelled.
    let call = client.call("ask_then_wait", &Steps { steps: 1 }).start().unwrap();
    server.asked.recv_timeout(PATIENCE).unwrap();
    assert!(call.try_wait().is_none());
    assert_eq!(call.cancel().unwrap_err(), ClientError::Cancelled);
    assert_eq!(server.asked_ended.recv_timeout(PATIENCE).unwrap(), Err(Cancelled), "the server saw the cancel");
    client.close().unwrap();
}

#[test]
fn a_server_asking_round_after_round_is_followed_only_so_far() {
    let server = serve();
    let model = Model::default();
    let asked = std::sync::Arc::clone(&model.asked);
    let client = BlockingClient::http(&server.url("/mcp")).era(Era::Auto).hooks(model).connect().unwrap();
    // Each round the job is run again and asks one more question.
    assert_eq!(client.call_tool("ask_many", &Steps { steps: 5 }).unwrap().text(), "5 answers");
    assert_eq!(asked.lock().unwrap().len(), 5);
    let endless = client.call_tool("ask_many", &Steps { steps: 100 }).unwrap_err();
    assert_eq!(endless, ClientError::TooManyRounds);
    assert_eq!(asked.lock().unwrap().len(), 5 + BlockingClient::MAX_ROUNDS);
    client.close().unwrap();
}

#[test]
fn the_legacy_http_sse_transport_is_fallen_back_to() {
    let server = serve();
    let client = BlockingClient::connect(&server.url("/sse")).unwrap();
    assert_eq!(client.call_tool("add", &Add { a: 20, b: 22 }).unwrap().text(), "42");
    let pages: Vec<usize> =
        client.resources().map(|p| p.unwrap().json().get("resources").unwrap().elements().count()).collect();
    assert_eq!(pages, [2, 2, 2, 1]);
    client.close().unwrap();
}

#[test]
fn era_detection_falls_back_to_http_sse_when_server_discover_is_refused() {
    // The HTTP+SSE endpoint refuses the `server/discover` POST as it refuses an
    // `initialize` one: both eras asked for, the client still finds the old transport.
    let server = serve();
    let client = BlockingClient::http(&server.url("/sse")).era(Era::Auto).connect().unwrap();
    assert!(client.protocol_version().has_handshake(), "{:?}", client.protocol_version());
    assert_eq!(client.call_tool("add", &Add { a: 20, b: 22 }).unwrap().text(), "42");
    client.close().unwrap();
}

#[test]
fn both_eras_are_asked_for_by_default_over_http() {
    let server = serve();
    let client = BlockingClient::connect(&server.url("/mcp")).unwrap();
    assert_eq!(client.protocol_version(), ProtocolVersion::V2026_07_28);
    client.close().unwrap();
    // The old transport is still found by default, through the refused probe.
    let client = BlockingClient::connect(&server.url("/sse")).unwrap();
    assert!(client.protocol_version().has_handshake(), "{:?}", client.protocol_version());
    client.close().unwrap();
}

#[test]
fn the_transport_can_be_forced() {
    let server = serve();
    let sse = BlockingClient::http(&server.url("/sse")).transport(TransportMode::Legacy).connect().unwrap();
    assert_eq!(sse.call_tool("add", &Add { a: 2, b: 3 }).unwrap().text(), "5");
    sse.close().unwrap();
    let streamable_only = BlockingClient::http(&server.url("/sse")).transport(TransportMode::Streamable).connect();
    assert!(streamable_only.is_err(), "no fallback when Streamable HTTP is forced");
}

#[test]
fn a_challenge_is_answered_by_the_credentials_callback() {
    let server =
        serve_with(ServerOptions { authorize: Some(Authorizer::bearer("s3cret")), ..ServerOptions::default() });
    let asked = std::sync::Arc::new(Mutex::new(Vec::new()));
    let seen = asked.clone();
    let client = BlockingClient::http(&server.url("/mcp"))
        .credentials(move |status, challenge| {
            seen.lock().unwrap().push((status, challenge.is_some()));
            Some("s3cret".into())
        })
        .connect()
        .unwrap();
    assert_eq!(client.call_tool("add", &Add { a: 3, b: 4 }).unwrap().text(), "7");
    client.close().unwrap();
    assert_eq!(*asked.lock().unwrap(), [(401, true)], "asked once, then the token is kept");
    // A callback that gives up ends the attempt, as no callback does.
    let refused = BlockingClient::http(&server.url("/mcp")).credentials(|_, _| None).connect();
    assert!(refused.is_err());
}

#[test]
fn request_headers_of_the_application_go_on_every_post() {
    let heard = std::sync::Arc::new(Mutex::new(Vec::<(String, Option<String>)>::new()));
    let log = heard.clone();
    let authorize = Authorizer::new(move |request| {
        if request.method == "POST" {
            let value = request.header("x-app-method").map(|v| String::from_utf8_lossy(v).into_owned());
            log.lock().unwrap().push((request.method.to_string(), value));
        }
        AuthVerdict::Allow
    });
    let server = serve_with(ServerOptions { authorize: Some(authorize), ..ServerOptions::default() });
    let client = BlockingClient::http(&server.url("/mcp"))
        .request_headers(|body, headers| {
            let message: Value = serde_json::from_slice(body).unwrap();
            if let Some(method) = message["method"].as_str() {
                headers.push(("X-App-Method".into(), method.into()));
            }
        })
        .connect()
        .unwrap();
    assert_eq!(client.call_tool("add", &Add { a: 1, b: 1 }).unwrap().text(), "2");
    client.close().unwrap();
    let heard = heard.lock().unwrap();
    let methods: Vec<&str> = heard.iter().filter_map(|(_, v)| v.as_deref()).collect();
    assert_eq!(methods, ["server/discover", "tools/call"], "{heard:?}");
}

#[test]
fn the_servers_notifications_are_heard() {
    let server = serve();
    for era in [Era::Legacy, Era::Auto] {
        let heard = std::sync::Arc::new(Mutex::new(Vec::new()));
        let log = heard.clone();
        let client = BlockingClient::http(&server.url("/mcp"))
            .era(era)
            .notifications(move |n| {
                let data = n.params.and_then(|p| p.get("data")).map(|d| d.as_text().to_string());
                log.lock().unwrap().push((n.method.name().to_string(), data));
            })
            .connect()
            .unwrap();
        // 2026-07-28: only a call that asks gets log messages.
        let quiet = client.call_tool("chatty", &Steps { steps: 2 }).unwrap();
        assert_eq!(quiet.text(), "said");
        if era == Era::Auto {
            assert!(heard.lock().unwrap().is_empty(), "{:?}", heard.lock().unwrap());
            let asked = client.call("chatty", &Steps { steps: 2 }).log_level(LoggingLevel::Info).send().unwrap();
            assert_eq!(asked.text(), "said");
        }
        client.close().unwrap();
        let heard = heard.lock().unwrap();
        let logs: Vec<_> = heard.iter().filter(|(m, _)| m == "notifications/message").collect();
        assert_eq!(logs.len(), 2, "{era:?}: {heard:?}");
        assert_eq!(logs[0].1.as_deref(), Some(r#""line 0""#), "{era:?}");
    }
}

#[test]
fn a_server_that_is_not_there_is_an_error() {
    // A port just freed: nothing listens on it.
    let addr = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    assert!(BlockingClient::connect(&format!("http://{addr}/mcp")).is_err());
    let bad = BlockingClient::connect("not a url").unwrap_err();
    assert_eq!(bad.kind(), std::io::ErrorKind::InvalidInput);
    // An exchange the adapter cannot start at all ends the run, before any connection.
    let tls = BlockingClient::connect("https://127.0.0.1:9/mcp").unwrap_err();
    assert!(tls.to_string().contains("https URLs are not supported"), "{tls}");
}

#[test]
fn a_server_gone_mid_session_fails_calls_instead_of_hanging() {
    let server = serve();
    let client = BlockingClient::http(&server.url("/mcp")).timeout(Duration::from_secs(30)).connect().unwrap();
    assert_eq!(client.call_tool("add", &Add { a: 1, b: 1 }).unwrap().text(), "2");
    drop(server);
    let err = client.call_tool("add", &Add { a: 1, b: 2 }).unwrap_err();
    assert!(matches!(err, ClientError::Transport(_) | ClientError::Closed(_)), "{err}");
    client.close().unwrap();
}

#[test]
fn a_bearer_token_is_sent_and_a_server_that_wants_one_refuses_the_client_without() {
    let server =
        serve_with(ServerOptions { authorize: Some(Authorizer::bearer("s3cret")), ..ServerOptions::default() });
    assert!(BlockingClient::connect(&server.url("/mcp")).is_err(), "no token: refused");
    assert!(BlockingClient::http(&server.url("/mcp")).bearer_token("wrong").connect().is_err());
    let client = BlockingClient::http(&server.url("/mcp")).bearer_token("s3cret").connect().unwrap();
    assert_eq!(client.call_tool("add", &Add { a: 3, b: 4 }).unwrap().text(), "7");
    client.close().unwrap();
    let bad = BlockingClient::http(&server.url("/mcp")).bearer_token("two\nlines").connect().unwrap_err();
    assert_eq!(bad.kind(), std::io::ErrorKind::InvalidInput);
}
