//! The toolkit's client: sans-IO against the toolkit's server and against a bare server
//! endpoint in memory (typed calls, page walks, runaway cursors, hooks answering the
//! server's requests), and the blocking `StdioClient` against the weather example over
//! real pipes (progress, cancellation, timeouts, lazy pages, shutdown).

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use mcp_sansio::adapters::stdio::{Exit, StderrMode};
use mcp_sansio::mcp::{
    ClientCapabilities, ContentBlock, CreateMessageParams, CreateMessageResult, ListChanged, ListRootsResult,
    MessageRole, OneOrMany, ProtocolVersion, Resource, Root, StopReason,
};
use mcp_sansio::session::{Config, Endpoint, Era, Event, Output, PaginationError, RequestOptions, State};
use mcp_sansio::time::Instant;
use mcp_sansio::toolkit::client::{
    Client, ClientError, ClientEvent, Closed, Hooks, Reply, StdioClient, Wire, result_text,
};
use mcp_sansio::toolkit::server::{List, ResourceList, Server, Table, ToolFn};
use mcp_sansio::wire::{JsonStr, RawJson};
use serde_json::{Value, json};

mcp_sansio::schema! {
    #[derive(serde::Deserialize, serde::Serialize)]
    pub struct Add { a: i32, b: i32 }
}

static ADD: ToolFn<Add, (), i64> = ToolFn::new("add", |_, Add { a, b }| i64::from(a) + i64::from(b));
const URIS: [&str; 12] =
    ["r://1", "r://2", "r://3", "r://4", "r://5", "r://6", "r://7", "r://8", "r://9", "r://10", "r://11", "r://12"];
static LIST: [Resource<'static>; 12] = {
    let mut l = [Resource::new("", "r"); 12];
    let mut i = 0;
    while i < 12 {
        l[i] = Resource::new(URIS[i], "r");
        i += 1;
    }
    l
};
static RESOURCES: ResourceList<(), &str> = ResourceList::new(&LIST, |_, _| "x");
static TABLE: Table<'static, ()> = Table::new().tools(&[&ADD]).resources(&[&RESOURCES]);

/// The client's hooks: roots and sampling, counted.
#[derive(Default)]
struct Desk {
    asked: Vec<String>,
}

/// What a hook was asked, with the input request's key if it was one.
fn under(asked: String, reply: &Reply<'_, '_>) -> String {
    match reply.input_key() {
        Some(key) => format!("{asked} under {key}"),
        None => asked,
    }
}

impl Hooks for Desk {
    fn capabilities(&self) -> ClientCapabilities<'static> {
        ClientCapabilities::new().roots(ListChanged::NO).sampling()
    }

    fn roots(&mut self, reply: Reply<'_, '_>) {
        self.asked.push(under("roots".into(), &reply));
        reply.respond(&ListRootsResult::new(&[Root::new("file:///desk", Some("desk"))]));
    }

    fn sampling(&mut self, params: CreateMessageParams<'_>, reply: Reply<'_, '_>) {
        self.asked.push(under(format!("sampling {}", params.max_tokens), &reply));
        let result = CreateMessageResult {
            role: MessageRole::Assistant,
            content: OneOrMany::One(ContentBlock::text("a poem")),
            model: JsonStr::from_text("model-x"),
            stop_reason: Some(StopReason::EndTurn),
            result_type: None,
            meta: None,
        };
        reply.respond(&result);
    }
}

type Ep = Endpoint<'static, 8, 8>;

fn leak(n: usize) -> &'static mut [u8] {
    Box::leak(vec![0u8; n].into_boxed_slice())
}

/// What the client saw, owned.
#[derive(Debug, PartialEq)]
enum Seen {
    Page { list: List, items: usize, last: bool },
    WalkFailed(PaginationError),
    Tool(String),
    Other(String),
}

/// A client with hooks against a server endpoint whose requests `server` answers.
struct Pair<F> {
    client: Client<Desk>,
    cep: Ep,
    sep: Ep,
    server: F,
    seen: Vec<Seen>,
}

impl<F: FnMut(Event<'_>)> Pair<F> {
    fn new(server_config: Config<'static>, server: F) -> Self {
        let client = Client::new(Desk::default());
        let config = client.config(RawJson::parse(br#"{"name":"c","version":"1"}"#).unwrap());
        let cep = Ep::new(config, leak(8192), leak(8192), Instant::ZERO).unwrap();
        let sep = Ep::new(server_config, leak(8192), leak(8192), Instant::ZERO).unwrap();
        let mut pair = Pair { client, cep, sep, server, seen: Vec::new() };
        pair.settle();
        assert_eq!(pair.cep.state(), State::Ready);
        pair.seen.clear();
        pair
    }

    fn settle(&mut self) {
        for _ in 0..100 {
            let mut moved = false;
            let mut to_server = Vec::new();
            loop {
                match self.cep.poll_output() {
                    Output::Transmit(b) => to_server.extend_from_slice(&b),
                    Output::Event(e) => match self.client.handle(e) {
                        Some(ClientEvent::Page { list, result, last }) => {
                            let items = result.get(list.field()).unwrap().elements().count();
                            self.seen.push(Seen::Page { list, items, last })
                        }
                        Some(ClientEvent::WalkFailed { error, .. }) => self.seen.push(Seen::WalkFailed(error)),
                        Some(ClientEvent::ToolResult { result, .. }) => {
                            let text: String = result_text(&result.unwrap()).map(|t| t.to_string()).collect();
                            self.seen.push(Seen::Tool(text))
                        }
                        Some(ClientEvent::Other(Event::Negotiated { .. } | Event::Ready { .. })) | None => {}
                        Some(other) => self.seen.push(Seen::Other(format!("{other:?}"))),
                    },
                    Output::Idle { .. } => break,
                }
            }
            self.client.poll(&mut self.cep, Instant::ZERO).unwrap();
            while let Output::Transmit(b) = self.cep.poll_output() {
                to_server.extend_from_slice(&b);
            }
            if !to_server.is_empty() {
                moved = true;
                assert_eq!(self.sep.handle_input(Instant::ZERO, &to_server), to_server.len());
            }
            let mut to_client = Vec::new();
            loop {
                match self.sep.poll_output() {
                    Output::Transmit(b) => to_client.extend_from_slice(&b),
                    Output::Event(e) => (self.server)(e),
                    Output::Idle { .. } => break,
                }
            }
            if !to_client.is_empty() {
                moved = true;
                assert_eq!(self.cep.handle_input(Instant::ZERO, &to_client), to_client.len());
            }
            if !moved {
                return;
            }
        }
        panic!("did not settle");
    }
}

#[test]
fn typed_calls_and_lazy_walks_against_the_toolkit_server() {
    let mut server = Server::<()>::new(TABLE).page_size(5);
    let config = server.config();
    let mut pair = Pair::new(config, move |e| {
        assert!(server.handle(&mut (), e).is_none_or(|e| !matches!(e, Event::Request(_))));
    });
    pair.client
        .call_tool(&mut pair.cep, Instant::ZERO, "add", &Add { a: 40, b: 2 }, RequestOptions::default())
        .unwrap();
    pair.settle();
    assert_eq!(pair.seen, [Seen::Tool("42".into())]);
    pair.seen.clear();
    // The walk goes page by page: each next page is asked for at the next poll.
    pair.client.walk(&mut pair.cep, Instant::ZERO, List::Resources, RequestOptions::default()).unwrap();
    assert!(pair.client.walking(List::Resources));
    pair.settle();
    assert_eq!(
        pair.seen,
        [
            Seen::Page { list: List::Resources, items: 5, last: false },
            Seen::Page { list: List::Resources, items: 5, last: false },
            Seen::Page { list: List::Resources, items: 2, last: true },
        ]
    );
    assert!(!pair.client.walking(List::Resources));
}

#[test]
fn a_walk_stops_when_the_servers_cursors_go_round() {
    let config = Config::new(mcp_sansio::mcp::Role::Server, RawJson::parse(br#"{"name":"s","version":"1"}"#).unwrap())
        .capabilities(RawJson::parse(br#"{"tools":{}}"#).unwrap());
    // A broken server: page "a" points to "b", "b" back to "a".
    let mut pair = Pair::new(config, |e| {
        if let Event::Request(mut r) = e {
            let next = match r.params.and_then(|p| p.get("cursor")).and_then(|c| c.as_str()) {
                Some(c) if c == "a" => "b",
                _ => "a",
            };
            let page = format!(r#"{{"tools":[],"nextCursor":"{next}"}}"#);
            r.respond(&RawJson::parse(page.as_bytes()).unwrap()).unwrap();
        }
    });
    pair.client.walk(&mut pair.cep, Instant::ZERO, List::Tools, RequestOptions::default()).unwrap();
    pair.settle();
    assert_eq!(pair.seen.last(), Some(&Seen::WalkFailed(PaginationError::RepeatedCursor)));
    assert!(pair.seen.len() <= 5, "{:?}", pair.seen);
    assert!(!pair.client.walking(List::Tools));
}

#[test]
fn hooks_answer_the_servers_requests() {
    let config = Config::new(mcp_sansio::mcp::Role::Server, RawJson::parse(br#"{"name":"s","version":"1"}"#).unwrap());
    let answers = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&answers);
    let mut pair = Pair::new(config, move |e| {
        if let Event::Response { result, .. } = e {
            seen.lock().unwrap().push(result.as_text().to_string());
        }
    });
    pair.sep.send_request(Instant::ZERO, "roots/list", None::<&RawJson<'_>>, RequestOptions::default()).unwrap();
    let sample =
        RawJson::parse(br#"{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":7}"#)
            .unwrap();
    pair.sep.send_request(Instant::ZERO, "sampling/createMessage", Some(&sample), RequestOptions::default()).unwrap();
    pair.settle();
    assert_eq!(pair.client.hooks().asked, ["roots", "sampling 7"]);
    let answers = answers.lock().unwrap();
    assert_eq!(answers[0], r#"{"roots":[{"uri":"file:///desk","name":"desk"}]}"#);
    let sampled: Value = serde_json::from_str(&answers[1]).unwrap();
    assert_eq!((sampled["model"].clone(), sampled["content"]["text"].clone()), (json!("model-x"), json!("a poem")));
}

// ---- the blocking client over real pipes ------------------------------------------------

fn weather() -> &'static PathBuf {
    static EXE: OnceLock<PathBuf> = OnceLock::new();
    EXE.get_or_init(|| example("weather"))
}

/// Builds the example `name` (with `stdio`): its executable.
fn example(name: &str) -> PathBuf {
    let out = Command::new(env!("CARGO"))
        .args(["build", "--example", name, "--features", "stdio", "--message-format=json"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stderr(Stdio::inherit())
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "building the {name} example failed");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == name)
        .find_map(|m| Some(PathBuf::from(m["executable"].as_str()?)))
        .unwrap_or_else(|| panic!("cargo built the {name} example"))
}

/// Hooks that answer an elicitation with a name, and count the questions.
#[derive(Default)]
struct Ada {
    asked: Arc<Mutex<Vec<String>>>,
}

impl Hooks for Ada {
    fn capabilities(&self) -> ClientCapabilities<'static> {
        ClientCapabilities::new().elicitation()
    }

    fn elicitation(&mut self, params: mcp_sansio::mcp::ElicitParams<'_>, reply: Reply<'_, '_>) {
        self.asked.lock().unwrap().push(format!("{params:?}"));
        reply.respond(&json!({"action": "accept", "content": {"name": "Ada"}}));
    }
}

#[test]
fn a_tool_that_asks_the_user_works_in_both_eras_over_stdio() {
    let ask = example("ask");
    for (era, version) in [(Era::Legacy, ProtocolVersion::V2025_11_25), (Era::Auto, ProtocolVersion::V2026_07_28)] {
        let hooks = Ada::default();
        let asked = Arc::clone(&hooks.asked);
        let client = StdioClient::builder(Command::new(&ask)).era(era).hooks(hooks).stderr(StderrMode::Discard);
        let client = client.spawn().unwrap();
        assert_eq!(client.protocol_version(), version);
        let answer = client.call_tool("greet", &json!({"greeting": "Hello"})).unwrap();
        assert!(!answer.is_error(), "{era:?}: {answer}");
        assert_eq!(answer.text(), "Hello, Ada!", "{era:?}");
        let asked = asked.lock().unwrap();
        assert_eq!(asked.len(), 1, "{era:?}: asked once: {asked:?}");
        assert!(asked[0].contains("What is your name?"), "{asked:?}");
        drop(asked);
        assert!(matches!(client.close().unwrap(), Closed::Exited(Exit::Exited(status)) if status.success()));
    }
}

#[derive(serde::Serialize)]
struct Forecast<'a> {
    city: &'a str,
    days: u8,
}

#[derive(serde::Serialize)]
struct SlowSum {
    numbers: Vec<f64>,
    delay_ms: u64,
}

#[test]
fn the_blocking_client_calls_walks_and_shuts_the_server_down() {
    // A handshake session: the initialize result names the server.
    let legacy = StdioClient::builder(Command::new(weather())).era(Era::Legacy).stderr(StderrMode::Discard);
    let legacy = legacy.spawn().unwrap();
    assert_eq!(legacy.protocol_version(), ProtocolVersion::V2025_11_25);
    let init = legacy.initialize_result();
    assert_eq!(init.json().get("serverInfo").unwrap().get("name").unwrap().as_str().unwrap(), "weather");
    assert_eq!(
        legacy.call_tool("get_forecast", &Forecast { city: "Oslo", days: 1 }).unwrap().text().lines().count(),
        1
    );
    legacy.close().unwrap();

    // By default the stateless era, which the toolkit's server speaks too: the server's
    // side is its `server/discover` result.
    let client = StdioClient::builder(Command::new(weather())).stderr(StderrMode::Discard).spawn().unwrap();
    assert_eq!(client.protocol_version(), ProtocolVersion::V2026_07_28);
    assert!(client.initialize_result().json().get("capabilities").unwrap().get("tools").is_some());

    let tools: Vec<Value> = client.tools().map(|p| serde_json::from_str(&p.unwrap().to_string()).unwrap()).collect();
    assert_eq!(tools.len(), 1, "one page");
    assert_eq!(tools[0]["tools"][0]["name"], "get_forecast");

    let answer = client.call_tool("get_forecast", &Forecast { city: "Oslo", days: 2 }).unwrap();
    assert!(!answer.is_error());
    assert_eq!(answer.text().lines().count(), 2);
    let refused = client.call_tool("get_forecast", &json!({"city": "Oslo", "days": 9})).unwrap();
    assert!(refused.is_error() && refused.text().contains("`days` must be an integer from 1 to 7"), "{refused}");
    let unknown = client.call_tool("no_such_tool", &json!({})).unwrap_err();
    assert!(matches!(unknown, ClientError::Error { code, .. } if code.0 == -32602), "{unknown}");

    // Pages are asked for as they are taken.
    let mut pages = client.resources();
    let first = pages.next().unwrap().unwrap();
    assert_eq!(first.json().get("resources").unwrap().elements().count(), 10);
    let rest: Vec<usize> = pages.map(|p| p.unwrap().json().get("resources").unwrap().elements().count()).collect();
    assert_eq!(rest, [10, 5]);
    let read = client.read_resource("weather://stations/3").unwrap();
    assert!(read.json().get("contents").unwrap().as_text().contains("Station 3"));
    let prompt = client.get_prompt("forecast_request", &json!({"city": "Bergen"})).unwrap();
    assert!(prompt.json().as_text().contains("Bergen"));

    assert!(matches!(client.close().unwrap(), Closed::Exited(Exit::Exited(status)) if status.success()));
}

#[test]
fn progress_cancellation_and_timeouts() {
    let client = StdioClient::builder(Command::new(weather())).stderr(StderrMode::Discard).spawn().unwrap();
    let progress = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&progress);
    let sum = client
        .call("slow_sum", &SlowSum { numbers: vec![1.0, 2.0, 3.0], delay_ms: 10 })
        .progress(move |p, total, _| seen.lock().unwrap().push((p, total)))
        .send()
        .unwrap();
    assert_eq!(sum.text(), "6");
    assert_eq!(*progress.lock().unwrap(), [(1.0, Some(3.0)), (2.0, Some(3.0)), (3.0, Some(3.0))]);

    // Cancelled while it runs: the call fails at once, the server goes on answering.
    let call = client.call("slow_sum", &SlowSum { numbers: vec![1.0; 100], delay_ms: 100 }).start().unwrap();
    assert!(call.try_wait().is_none());
    assert_eq!(call.cancel().unwrap_err(), ClientError::Cancelled);
    assert!(!client.call_tool("get_forecast", &Forecast { city: "Oslo", days: 1 }).unwrap().is_error());

    // No answer in time.
    let slow =
        client.call("slow_sum", &SlowSum { numbers: vec![1.0], delay_ms: 5000 }).timeout(Duration::from_millis(200));
    assert_eq!(slow.send().unwrap_err(), ClientError::TimedOut);
    drop(client);
}

#[test]
fn a_server_that_fails_to_start_is_an_error() {
    let err = StdioClient::spawn(Command::new("/nonexistent/mcp-server")).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::NotFound);
    let mut exits = Command::new("sh");
    exits.args(["-c", "exit 3"]);
    assert!(StdioClient::builder(exits).stderr(StderrMode::Discard).spawn().is_err());
}

#[test]
fn result_text_reads_text_blocks() {
    let r: mcp_sansio::mcp::CallToolResult<'_> =
        RawJson::parse(br#"{"content":[{"type":"text","text":"a"},{"type":"image","data":"x","mimeType":"image/png"},{"type":"text","text":"b"}]}"#)
            .unwrap()
            .decode()
            .unwrap();
    assert_eq!(result_text(&r).collect::<Vec<JsonStr<'_>>>(), ["a", "b"]);
}

#[test]
fn hooks_fulfil_the_input_requests_of_an_input_required_result() {
    // A stateless server's questions (2026-07-28) go to the same hooks; their answers
    // make the retry's inputResponses, and the state is echoed as it came.
    let mut client = Client::<Desk>::new(Desk::default());
    let result = RawJson::parse(
        br#"{"resultType":"input_required","requestState":"s.1","inputRequests":{
            "q0":{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":9}},
            "q\"1":{"method":"roots/list"}}}"#,
    )
    .unwrap();
    let (responses, state) = client.fulfil(result).unwrap();
    assert_eq!(client.hooks().asked, ["sampling 9 under q0", "roots under q\"1"]);
    assert_eq!(state.as_deref(), Some("s.1"));
    let responses: Value = serde_json::from_slice(&responses).unwrap();
    assert_eq!(responses["q0"]["content"]["text"], "a poem");
    assert_eq!(responses["q\"1"]["roots"][0]["uri"], "file:///desk");

    // A question no hook answers fails the call instead of being sent unanswered.
    let elicit = RawJson::parse(
        br#"{"resultType":"input_required","inputRequests":{"q0":{"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object","properties":{}}}}}}"#,
    )
    .unwrap();
    let refused = client.fulfil(elicit).unwrap_err();
    assert!(matches!(refused, ClientError::Error { code, .. } if code.0 == -32601), "{refused}");
}

#[test]
fn a_listen_stream_carries_the_servers_change_notifications() {
    // examples/server offers listen streams in 2026-07-28 (the toolkit's server does not yet).
    let (heard, hear) = std::sync::mpsc::channel();
    let client = StdioClient::builder(Command::new(example("server")))
        .stderr(StderrMode::Discard)
        .notifications(move |n| {
            let _ = heard.send((n.method.name().to_string(), n.subscription.map(|s| s.to_string())));
        })
        .spawn()
        .unwrap();
    assert_eq!(client.protocol_version(), ProtocolVersion::V2026_07_28);
    let stream = client.listen(&json!({"notifications": {"toolsListChanged": true}})).unwrap();
    assert_eq!(stream.granted().json().get("toolsListChanged").map(|g| g.as_text()), Some("true"));
    client.call_tool("toggle_extra_tool", &json!({})).unwrap();
    let (method, subscription) = hear.recv_timeout(Duration::from_secs(20)).unwrap();
    assert_eq!(method, "notifications/tools/list_changed");
    assert_eq!(subscription, Some(stream.id().to_string()));
    stream.end();
    // Ended: a change now reaches no stream of ours.
    client.call_tool("toggle_extra_tool", &json!({})).unwrap();
    assert!(client.call_tool("toggle_extra_tool", &json!({})).is_ok());
    assert!(hear.try_recv().is_err(), "a notification after the stream ended");
    client.close().unwrap();
}

#[test]
fn a_server_that_ignores_its_closed_stdin_and_sigterm_is_killed_after_the_graces_set() {
    // The server exits with its stdin; the shell then becomes a `sleep` that ignores SIGTERM.
    let mut stubborn = Command::new("sh");
    stubborn.args(["-c", r#"trap '' TERM; "$1"; exec sleep 30"#, "sh"]).arg(example("server"));
    let client = StdioClient::builder(stubborn)
        .stderr(StderrMode::Discard)
        .shutdown_grace(Duration::from_millis(100), Duration::from_millis(100))
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    let closed = client.close().unwrap();
    assert!(matches!(closed, Closed::Exited(Exit::Killed(_))), "{closed:?}");
    // Well within the two seconds of the default first grace alone.
    assert!(started.elapsed() < Duration::from_millis(1500), "{:?}", started.elapsed());
}

#[test]
fn the_rules_a_server_breaks_are_heard() {
    // A scripted server: the handshake, then an error answer it cannot tie to a request.
    let script = r#"read -r line
id=$(printf '%s' "$line" | sed 's/.*"id":\([0-9]*\).*/\1/')
printf '%s%s%s\n' '{"jsonrpc":"2.0","id":' "$id" ',"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"sh","version":"1"}}}'
read -r line
printf '%s\n' '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}'
cat > /dev/null"#;
    let mut sh = Command::new("sh");
    sh.args(["-c", script]);
    let (heard, hear) = std::sync::mpsc::channel();
    let client = StdioClient::builder(sh)
        .era(Era::Legacy)
        .misbehavior(move |m| {
            let _ = heard.send(format!("{m:?}"));
        })
        .spawn()
        .unwrap();
    let what = hear.recv_timeout(Duration::from_secs(20)).unwrap();
    assert!(what.starts_with("UncorrelatedError") && what.contains("-32700"), "{what}");
    client.close().unwrap();
}

#[test]
fn the_wire_mode_shows_every_byte_and_writes_the_applications_own() {
    let wire = Arc::new(Mutex::new((Vec::new(), Vec::new())));
    let tapped = Arc::clone(&wire);
    let (heard, hear) = std::sync::mpsc::channel();
    let client = StdioClient::builder(Command::new(example("server")))
        .stderr(StderrMode::Discard)
        .era(Era::Legacy)
        .tap_wire(move |way, bytes| {
            let mut wire = tapped.lock().unwrap();
            match way {
                Wire::Sent => wire.0.extend_from_slice(bytes),
                Wire::Received => wire.1.extend_from_slice(bytes),
            }
        })
        .misbehavior(move |m| {
            let _ = heard.send(format!("{m:?}"));
        })
        .spawn()
        .unwrap();
    client.write_raw(b"{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"tools/list\",\"params\":{\n").unwrap();
    let what = hear.recv_timeout(Duration::from_secs(20)).unwrap();
    assert!(what.contains("-32700"), "{what}");
    assert_eq!(
        client.call_tool("test_simple_text", &json!({})).unwrap().text(),
        "This is a simple text response for testing."
    );
    client.close().unwrap();
    let (sent, received) = &*wire.lock().unwrap();
    let (sent, received) = (String::from_utf8_lossy(sent), String::from_utf8_lossy(received));
    assert!(sent.contains(r#""method":"initialize""#) && sent.contains("\"id\":99,"), "{sent}");
    assert!(received.contains("-32700") && received.contains("simple text response"), "{received}");

    // Without the wire mode there is no raw access.
    let plain = StdioClient::builder(Command::new(example("server"))).stderr(StderrMode::Discard).spawn().unwrap();
    assert_eq!(plain.write_raw(b"x\n"), Err(ClientError::Closed(None)));
    plain.close().unwrap();
}
