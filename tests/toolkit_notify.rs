//! What a toolkit server tells its clients of its own accord, through the
//! `ServerHandler` over stdio: resource updates to the sessions subscribed (and only
//! those), list changes with their cursors gone stale, tools that come and go
//! (`Offered`), 2026-07-28 listen streams, and the application's own timers beside the
//! server's work. Real pipes; the tests wait only with timeouts that fail them.

use std::io::{BufRead, BufReader, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use mcp_sansio::adapters::app::Context;
use mcp_sansio::adapters::stdio::StdioLoop;
use mcp_sansio::session::{CloseReason, Endpoint, ModernRequest};
use mcp_sansio::time::Instant;
use mcp_sansio::toolkit::NoArguments;
use mcp_sansio::toolkit::server::{Condition, List, Notifier, Offered, Server, ServerBuilder, ToolFn};
use serde_json::{Value, json};

mcp_sansio::schema! {
    #[derive(serde::Deserialize)]
    pub struct Uri { uri: String }
}

const PATIENCE: Duration = Duration::from_secs(20);

/// A client talking to a server over pipes, with the server's lines on a channel.
struct Client {
    to_server: Option<std::io::PipeWriter>,
    lines: Receiver<Value>,
    server: Option<std::thread::JoinHandle<CloseReason>>,
}

impl Client {
    /// Runs `serve` (which builds the handler and serves the endpoint) on a thread.
    fn start(serve: impl FnOnce(std::io::PipeReader, std::io::PipeWriter) -> CloseReason + Send + 'static) -> Self {
        let (server_in, to_server) = std::io::pipe().unwrap();
        let (from_server, server_out) = std::io::pipe().unwrap();
        let server = std::thread::spawn(move || serve(server_in, server_out));
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(from_server).lines() {
                let Ok(line) = line else { return };
                if std::env::var_os("TK_DEBUG").is_some() {
                    eprintln!("<- {line}");
                }
                if tx.send(serde_json::from_str(&line).unwrap()).is_err() {
                    return;
                }
            }
        });
        Client { to_server: Some(to_server), lines, server: Some(server) }
    }

    fn send(&mut self, v: Value) {
        writeln!(self.to_server.as_mut().unwrap(), "{v}").unwrap();
    }

    fn next(&self) -> Value {
        self.lines.recv_timeout(PATIENCE).expect("the server said nothing")
    }

    fn request(&mut self, id: u64, method: &str, params: Value) -> Value {
        self.send(json!({"jsonrpc":"2.0","id":id,"method":method,"params":params}));
        let answer = self.next();
        assert_eq!(answer["id"], id, "{answer}");
        answer
    }

    /// What the server sends until the answer to `ping` `id` (nothing unasked may hide
    /// behind it: the server writes in order).
    fn until_pong(&mut self, id: u64) -> Vec<Value> {
        self.send(json!({"jsonrpc":"2.0","id":id,"method":"ping"}));
        let mut before = Vec::new();
        loop {
            let m = self.next();
            if m["id"] == id && m.get("method").is_none() {
                return before;
            }
            before.push(m);
        }
    }

    fn initialize(&mut self) -> Value {
        let init = json!({"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}});
        let answer = self.request(0, "initialize", init);
        self.send(json!({"jsonrpc":"2.0","method":"notifications/initialized"}));
        answer
    }

    fn finish(mut self) -> CloseReason {
        drop(self.to_server.take());
        self.server.take().unwrap().join().unwrap()
    }
}

fn serve_stdio<H>(
    handler: &mut H,
    config: mcp_sansio::session::Config<'_>,
    input: std::io::PipeReader,
    output: std::io::PipeWriter,
) -> CloseReason
where
    H: mcp_sansio::adapters::app::Handler<Message = ()>,
{
    let mut ev_loop = StdioLoop::new(input).unwrap();
    let (mut rx, mut tx) = (vec![0u8; 16 * 1024], vec![0u8; 16 * 1024]);
    let mut ep: Endpoint<'_, 4, 8> = Endpoint::new(config, &mut rx, &mut tx, ev_loop.clock().now()).unwrap();
    ev_loop.serve(&mut ep, output, handler).unwrap()
}

fn text(answer: &Value) -> &str {
    answer["result"]["content"][0]["text"].as_str().unwrap_or_else(|| panic!("no text: {answer}"))
}

#[test]
fn a_resource_update_reaches_the_sessions_subscribed_to_it_and_stops_at_unsubscribe() {
    let mut c = Client::start(|input, output| {
        let notifier = Notifier::new();
        let told = notifier.clone();
        let server = ServerBuilder::new("notify-test", "1.0.0")
            .subscriptions()
            .resource("test://watched", "watched", || "now")
            .resource("test://other", "other", || "other")
            .tool("touch", "Updates a resource", move |Uri { uri }| {
                told.resource_updated(&uri);
                format!("touched {uri} for {}", told.subscribers(&uri))
            })
            .build();
        let config = server.config();
        let mut handler = server.handler(()).with_notifier(notifier);
        serve_stdio(&mut handler, config, input, output)
    });
    let init = c.initialize();
    assert_eq!(init["result"]["capabilities"]["resources"]["subscribe"], true, "{init}");

    let touch = |c: &mut Client, id: u64, uri: &str| {
        let answer = c.request(id, "tools/call", json!({"name":"touch","arguments":{"uri":uri}}));
        text(&answer).to_string()
    };
    // Nothing is sent for a resource nobody subscribed to.
    assert_eq!(touch(&mut c, 1, "test://watched"), "touched test://watched for 0");
    assert_eq!(c.until_pong(2), Vec::<Value>::new());

    let subscribed = c.request(3, "resources/subscribe", json!({"uri":"test://watched"}));
    assert_eq!(subscribed["result"], json!({}));
    assert_eq!(touch(&mut c, 4, "test://other"), "touched test://other for 0");
    assert_eq!(c.until_pong(5), Vec::<Value>::new(), "an update of another resource came");
    assert_eq!(touch(&mut c, 6, "test://watched"), "touched test://watched for 1");
    let told = c.until_pong(7);
    assert_eq!(
        told,
        vec![json!({"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"test://watched"}})]
    );

    let refused = c.request(8, "resources/subscribe", json!({"url":"test://watched"}));
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    let unsubscribed = c.request(9, "resources/unsubscribe", json!({"uri":"test://watched"}));
    assert_eq!(unsubscribed["result"], json!({}));
    assert_eq!(touch(&mut c, 10, "test://watched"), "touched test://watched for 0");
    assert_eq!(c.until_pong(11), Vec::<Value>::new(), "an update came after unsubscribing");
    assert_eq!(c.finish(), CloseReason::PeerClosed);
}

#[test]
fn a_server_without_subscriptions_leaves_subscribe_to_the_fallback() {
    let mut c = Client::start(|input, output| {
        let server = ServerBuilder::new("notify-test", "1.0.0").resource("test://a", "a", || "a").build();
        let config = server.config();
        serve_stdio(&mut server.handler(()), config, input, output)
    });
    let init = c.initialize();
    assert_eq!(init["result"]["capabilities"]["resources"].get("subscribe"), None, "{init}");
    let answer = c.request(1, "resources/subscribe", json!({"uri":"test://a"}));
    assert_eq!(answer["error"]["code"], -32601, "{answer}");
    c.finish();
}

static EXTRA_ON: AtomicBool = AtomicBool::new(false);

fn extra_on(_: Option<ModernRequest>) -> bool {
    EXTRA_ON.load(Ordering::Relaxed)
}

#[test]
fn a_tool_that_comes_and_goes_is_listed_and_callable_only_while_offered_and_its_change_announced() {
    let mut c = Client::start(|input, output| {
        let notifier = Notifier::new();
        let told = notifier.clone();
        let server = ServerBuilder::new("notify-test", "1.0.0")
            .page_size(1)
            .announce_changes(List::Tools)
            .tool("toggle", "Toggles extra", move |NoArguments {}| {
                let on = !EXTRA_ON.fetch_xor(true, Ordering::Relaxed);
                told.list_changed(List::Tools);
                if on { "extra is on" } else { "extra is off" }
            })
            .tool_handler(EXTRA_HANDLE)
            .tool("plain", "Always there", |NoArguments {}| "plain")
            .build();
        let config = server.config();
        let mut handler = server.handler(()).with_notifier(notifier);
        serve_stdio(&mut handler, config, input, output)
    });
    let init = c.initialize();
    assert_eq!(init["result"]["capabilities"]["tools"]["listChanged"], true, "{init}");

    // Page size 1: `toggle`, then `plain` (`extra`, declared between them, is left out).
    let first = c.request(1, "tools/list", json!({}));
    assert_eq!(
        first["result"]["tools"],
        json!([{"name":"toggle","description":"Toggles extra","inputSchema":{"type":"object"}}]),
        "{first}"
    );
    let cursor = first["result"]["nextCursor"].as_str().expect("a second page").to_string();
    let second = c.request(2, "tools/list", json!({"cursor": cursor}));
    assert_eq!(second["result"]["tools"][0]["name"], "plain", "{second}");
    assert_eq!(second["result"].get("nextCursor"), None, "{second}");
    let unknown = c.request(3, "tools/call", json!({"name":"extra","arguments":{}}));
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");

    let on = c.request(4, "tools/call", json!({"name":"toggle","arguments":{}}));
    assert_eq!(text(&on), "extra is on");
    let told = c.until_pong(5);
    assert_eq!(told, vec![json!({"jsonrpc":"2.0","method":"notifications/tools/list_changed"})]);
    // The cursor issued before the change is stale now.
    let stale = c.request(6, "tools/list", json!({"cursor": cursor}));
    assert_eq!(stale["error"]["code"], -32602, "{stale}");
    let first = c.request(7, "tools/list", json!({}));
    let cursor = first["result"]["nextCursor"].as_str().unwrap().to_string();
    let second = c.request(8, "tools/list", json!({"cursor": cursor}));
    assert_eq!(second["result"]["tools"][0]["name"], "extra", "{second}");
    assert!(second["result"]["nextCursor"].is_string(), "plain is on a third page now: {second}");
    let called = c.request(9, "tools/call", json!({"name":"extra","arguments":{}}));
    assert_eq!(text(&called), "extra was called");
    c.finish();
}

/// A tool offered while `EXTRA_ON` is set (a `const`: the builder owns its handlers).
const EXTRA_HANDLE: Offered<ToolFn<NoArguments, (), &str>, Condition> =
    Offered::new(ToolFn::new("extra", |_, NoArguments {}| "extra was called"), extra_on);

const MODERN_META: &str =
    r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

#[test]
fn a_listen_stream_is_acknowledged_and_takes_the_updates_it_asked_for() {
    let mut c = Client::start(|input, output| {
        let notifier = Notifier::new();
        let told = notifier.clone();
        let server = ServerBuilder::new("notify-test", "1.0.0")
            .subscriptions()
            .resource("test://watched", "watched", || "now")
            .tool("touch", "Updates a resource", move |Uri { uri }| {
                told.resource_updated(&uri);
                format!("touched {uri}")
            })
            .build();
        let config = server.config();
        let mut handler = server.handler(()).with_notifier(notifier);
        serve_stdio(&mut handler, config, input, output)
    });
    let meta: Value = serde_json::from_str(MODERN_META).unwrap();
    c.send(json!({"jsonrpc":"2.0","id":1,"method":"subscriptions/listen",
        "params":{"notifications":{"resourceSubscriptions":["test://watched"]},"_meta":meta}}));
    let ack = c.next();
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged", "{ack}");
    assert_eq!(ack["params"]["notifications"]["resourceSubscriptions"], json!(["test://watched"]), "{ack}");
    let call = |c: &mut Client, id: u64, uri: &str| {
        c.send(json!({"jsonrpc":"2.0","id":id,"method":"tools/call",
            "params":{"name":"touch","arguments":{"uri":uri},"_meta":meta}}));
    };
    call(&mut c, 2, "test://watched");
    let mut got = vec![c.next(), c.next()];
    got.sort_by_key(|m| m.get("id").is_some());
    assert_eq!(got[0]["method"], "notifications/resources/updated", "{got:?}");
    assert_eq!(got[0]["params"]["uri"], "test://watched", "{got:?}");
    assert_eq!(got[1]["id"], 2, "{got:?}");
    // A URI the stream did not ask for is not sent to it.
    call(&mut c, 3, "test://other");
    let answer = c.next();
    assert_eq!(answer["id"], 3, "{answer}");
    c.send(json!({"jsonrpc":"2.0","id":4,"method":"ping","params":{"_meta":meta}}));
    let pong = c.next();
    assert_eq!(pong["id"], 4, "an unasked notification came: {pong}");
    c.finish();
}

#[test]
fn the_applications_timer_runs_beside_the_server_and_wakes_the_loop_when_due() {
    let fired = Arc::new(AtomicU32::new(0));
    let seen = Arc::clone(&fired);
    let mut c = Client::start(move |input, output| {
        let notifier = Notifier::new();
        let server: Server<'static, (Arc<AtomicU32>, Option<Instant>, Notifier)> =
            ServerBuilder::with_state("notify-test", "1.0.0")
                .subscriptions()
                .resource("test://clock", "clock", || "tick")
                .build();
        let config = server.config();
        let state = (seen, None, notifier.clone());
        // Every 20 ms the clock resource changes.
        let tick = |(fired, next, notifier): &mut (Arc<AtomicU32>, Option<Instant>, Notifier),
                    cx: &mut Context<'_, ()>| {
            let now = cx.now();
            let due = *next.get_or_insert(now + Duration::from_millis(20));
            if now >= due {
                fired.fetch_add(1, Ordering::Relaxed);
                notifier.resource_updated("test://clock");
                *next = Some(now + Duration::from_millis(20));
            }
            *next
        };
        let mut handler = server.handler(state).with_notifier(notifier).idle(tick);
        serve_stdio(&mut handler, config, input, output)
    });
    c.initialize();
    c.request(1, "resources/subscribe", json!({"uri":"test://clock"}));
    // With no request of the client's, the timer alone wakes the loop, more than once.
    for _ in 0..3 {
        let m = c.next();
        assert_eq!(m["method"], "notifications/resources/updated", "{m}");
        assert_eq!(m["params"]["uri"], "test://clock", "{m}");
    }
    assert!(fired.load(Ordering::Relaxed) >= 3);
    c.finish();
}

#[test]
fn a_cancelled_calls_question_to_the_client_is_withdrawn() {
    let mut c = Client::start(|input, output| {
        let server = ServerBuilder::new("notify-test", "1.0.0")
            .blocking_tool("ask", "Asks the user", |job, NoArguments {}| {
                let params = json!({"message":"Name?","requestedSchema":{"type":"object","properties":{}}});
                job.elicit(&params).map(|_| "answered").map_err(|e| e.to_string())
            })
            .build();
        let config = server.config();
        serve_stdio(&mut server.handler(()), config, input, output)
    });
    let init = json!({"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"t","version":"1"}});
    c.request(0, "initialize", init);
    c.send(json!({"jsonrpc":"2.0","method":"notifications/initialized"}));
    c.send(json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask","arguments":{}}}));
    let question = c.next();
    assert_eq!(question["method"], "elicitation/create", "{question}");
    c.send(json!({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}));
    let withdrawn = c.next();
    assert_eq!(withdrawn["method"], "notifications/cancelled", "{withdrawn}");
    assert_eq!(withdrawn["params"]["requestId"], question["id"], "{withdrawn}");
    // A late answer changes nothing: the cancelled call is never answered.
    c.send(json!({"jsonrpc":"2.0","id":question["id"],"result":{"action":"cancel"}}));
    let after = c.until_pong(2);
    assert!(after.iter().all(|m| m["id"] != 1), "{after:?}");
    c.finish();
}

#[test]
fn the_applications_own_messages_reach_its_idle_hook_when_the_notifier_wakes_the_loop() {
    type Mail = (std::sync::mpsc::Receiver<String>, std::sync::mpsc::Sender<()>);
    let (to_app, from_thread) = std::sync::mpsc::sync_channel::<String>(4);
    let (hook_ran, ran) = channel::<()>();
    let notifier = Notifier::new();
    let waker = notifier.clone();
    let mut c = Client::start(move |input, output| {
        let server: Server<'static, Mail> = ServerBuilder::with_state("notify-test", "1.0.0").logging().build();
        let config = server.config();
        // The hook says it ran, then sends what came on the application's channel as
        // log messages.
        let drain = |(from, ran): &mut Mail, cx: &mut Context<'_, ()>| {
            let _ = ran.send(());
            for text in from.try_iter() {
                let params = json!({"level":"info","data":text});
                cx.notify(mcp_sansio::adapters::app::SessionTag::STDIO, "notifications/message", Some(&params));
            }
            None
        };
        let mut handler = server.handler((from_thread, hook_ran)).with_notifier(notifier).idle(drain);
        serve_stdio(&mut handler, config, input, output)
    });
    c.initialize();
    c.until_pong(1);
    // The loop has gone idle after the ping (its hook ran and asked for no timer).
    ran.recv_timeout(PATIENCE).unwrap();
    while ran.recv_timeout(Duration::from_millis(100)).is_ok() {}
    // Another thread: no request of the client's follows, only the wake.
    std::thread::spawn(move || {
        to_app.send("from a thread".into()).unwrap();
        waker.wake();
    })
    .join()
    .unwrap();
    let m = c.next();
    assert_eq!(m["method"], "notifications/message", "{m}");
    assert_eq!(m["params"]["data"], "from a thread", "{m}");
    c.finish();
}

#[test]
fn a_session_holds_at_most_max_subscriptions() {
    use mcp_sansio::toolkit::server::MAX_SUBSCRIPTIONS;
    let mut c = Client::start(|input, output| {
        let server =
            ServerBuilder::new("notify-test", "1.0.0").subscriptions().resource("test://a", "a", || "a").build();
        let config = server.config();
        serve_stdio(&mut server.handler(()), config, input, output)
    });
    c.initialize();
    for i in 0..MAX_SUBSCRIPTIONS as u64 {
        c.send(
            json!({"jsonrpc":"2.0","id":i + 1,"method":"resources/subscribe","params":{"uri":format!("test://{i}")}}),
        );
    }
    for i in 0..MAX_SUBSCRIPTIONS as u64 {
        let answer = c.next();
        assert_eq!((answer["id"].as_u64(), &answer["result"]), (Some(i + 1), &json!({})), "{answer}");
    }
    let refused = c.request(5000, "resources/subscribe", json!({"uri":"test://one-too-many"}));
    assert_eq!(refused["error"]["code"], -32603, "{refused}");
    // One already held is no new one; after an unsubscribe there is room again.
    let again = c.request(5001, "resources/subscribe", json!({"uri":"test://0"}));
    assert_eq!(again["result"], json!({}), "{again}");
    c.request(5002, "resources/unsubscribe", json!({"uri":"test://0"}));
    let room = c.request(5003, "resources/subscribe", json!({"uri":"test://one-too-many"}));
    assert_eq!(room["result"], json!({}), "{room}");
    c.finish();
}
