//! Long work off the loop: blocking handlers on threads and async handlers on smol, with
//! progress, cancellation, and the loop woken by the job. The jobs and the test meet on
//! channels, never on sleeps.

use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_sansio::session::{Endpoint, Event, Output};
use mcp_sansio::time::Instant;
use mcp_sansio::toolkit::client::ClientError;
use mcp_sansio::toolkit::server::{BuiltServer, Cancelled, Job, ServerBuilder};
use serde_json::{Value, json};

mcp_sansio::schema! {
    #[derive(serde::Deserialize)]
    pub struct Steps { steps: u32 }
}

type Ep = Endpoint<'static, 4, 8>;

struct Harness {
    ep: Ep,
    server: BuiltServer,
    out: Vec<Value>,
    /// The loop's wake-ups, as the waker sends them.
    woken: Receiver<()>,
}

const PATIENCE: Duration = Duration::from_secs(20);

impl Harness {
    fn new(builder: ServerBuilder) -> Self {
        Self::with_capabilities(builder, json!({}))
    }

    /// A session whose client declares `capabilities`.
    fn with_capabilities(builder: ServerBuilder, capabilities: Value) -> Self {
        let (wake, woken) = channel();
        let wake = Mutex::new(wake);
        let server = builder
            .waker(move || {
                let _ = wake.lock().unwrap().send(());
            })
            .build();
        let rx = Box::leak(vec![0u8; 8192].into_boxed_slice());
        let tx = Box::leak(vec![0u8; 8192].into_boxed_slice());
        let ep = Ep::new(server.config(), rx, tx, Instant::ZERO).unwrap();
        let mut h = Harness { ep, server, out: Vec::new(), woken };
        h.send(json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":capabilities,"clientInfo":{"name":"t","version":"1"}}}));
        h.send(json!({"jsonrpc":"2.0","method":"notifications/initialized"}));
        h.out.clear();
        h
    }

    fn drain(&mut self) {
        loop {
            let mut any = false;
            loop {
                match self.ep.poll_output() {
                    Output::Transmit(bytes) => {
                        any = true;
                        for line in bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
                            self.out.push(serde_json::from_slice(line).unwrap());
                        }
                    }
                    Output::Event(e) => {
                        any = true;
                        if let Some(Event::Request(mut r)) = self.server.handle(&mut (), e) {
                            let _ = r.respond_empty();
                        }
                    }
                    Output::Idle { .. } => break,
                }
            }
            let _ = self.server.poll(&mut (), &mut self.ep, Instant::ZERO);
            if !any && self.peek().is_none() {
                return;
            }
        }
    }

    /// Whether the endpoint has output (without losing it).
    fn peek(&mut self) -> Option<()> {
        match self.ep.poll_output() {
            Output::Transmit(bytes) => {
                for line in bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
                    self.out.push(serde_json::from_slice(line).unwrap());
                }
                Some(())
            }
            Output::Event(_) => panic!("unexpected event"),
            Output::Idle { .. } => None,
        }
    }

    fn send(&mut self, message: Value) {
        let mut line = serde_json::to_vec(&message).unwrap();
        line.push(b'\n');
        assert_eq!(self.ep.handle_input(Instant::ZERO, &line), line.len());
        self.drain();
    }

    /// Waits for the job to wake the loop, then runs the loop once.
    fn wait(&mut self) {
        self.woken.recv_timeout(PATIENCE).expect("the job never woke the loop");
        self.drain();
    }

    fn answer(&mut self, id: u64) -> Option<Value> {
        let at = self.out.iter().position(|m| m["id"] == id)?;
        Some(self.out.remove(at))
    }

    fn progress(&self) -> Vec<f64> {
        self.out
            .iter()
            .filter(|m| m["method"] == "notifications/progress")
            .map(|m| m["params"]["progress"].as_f64().unwrap())
            .collect()
    }
}

#[test]
fn a_blocking_tool_runs_on_a_thread_reports_progress_and_answers() {
    let (go, gate) = channel::<()>();
    let gate = Arc::new(Mutex::new(gate));
    let builder = ServerBuilder::new("t", "1").blocking_tool("steps", "", move |job: Job, Steps { steps }| {
        let gate = gate.lock().unwrap();
        for i in 1..=steps {
            gate.recv().unwrap();
            job.progress(f64::from(i), Some(f64::from(steps)), Some("step"));
        }
        format!("{steps} steps, on {:?}", std::thread::current().name())
    });
    let mut h = Harness::new(builder);
    h.send(json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"steps","arguments":{"steps":2},"_meta":{"progressToken":"p"}}}));
    assert!(h.answer(1).is_none(), "answered later, off the loop");
    go.send(()).unwrap();
    h.wait();
    assert_eq!(h.progress(), [1.0]);
    go.send(()).unwrap();
    // Progress 2 and the result may come with one wake-up or two.
    while h.answer(1).map(|a| h.out.push(a)).is_none() {
        h.wait();
    }
    assert_eq!(h.progress(), [1.0, 2.0]);
    let answer = h.answer(1).unwrap();
    assert_eq!(answer["result"]["content"][0]["text"], "2 steps, on Some(\"mcp-tool\")");
}

#[test]
fn a_cancelled_blocking_tool_wakes_from_its_sleep_and_nothing_is_sent() {
    let (started, has_started) = channel::<()>();
    let (ended, has_ended) = channel::<Result<(), Cancelled>>();
    let (started, ended) = (Mutex::new(started), Mutex::new(ended));
    let builder = ServerBuilder::new("t", "1").blocking_tool("wait", "", move |job: Job, _: Steps| {
        started.lock().unwrap().send(()).unwrap();
        let slept = job.sleep(Duration::from_secs(3600));
        ended.lock().unwrap().send(slept).unwrap();
        "woke up"
    });
    let mut h = Harness::new(builder);
    h.send(json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wait","arguments":{"steps":1}}}));
    has_started.recv_timeout(PATIENCE).unwrap();
    h.send(json!({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}));
    assert_eq!(has_ended.recv_timeout(PATIENCE).unwrap(), Err(Cancelled), "the sleep ends at the cancellation");
    h.drain();
    assert!(h.answer(1).is_none());
}

#[test]
fn a_panicking_handler_has_its_request_abandoned() {
    let builder = ServerBuilder::new("t", "1").blocking_tool("boom", "", |_: Job, Steps { steps }| -> u32 {
        assert!(steps > 100, "not enough steps");
        steps
    });
    let mut h = Harness::new(builder);
    h.send(json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"boom","arguments":{"steps":1}}}));
    h.wait();
    assert_eq!(h.answer(1).unwrap()["error"], json!({"code":-32603,"message":"Request abandoned"}));
}

/// Tells a channel when it is dropped (when the toolkit drops a cancelled future).
struct DropFlag(Sender<()>);

impl Drop for DropFlag {
    fn drop(&mut self) {
        let _ = self.0.send(());
    }
}

#[test]
fn an_async_tool_runs_on_smol_and_its_future_is_dropped_when_cancelled() {
    let (value_tx, value_rx) = smol::channel::unbounded::<u32>();
    let (dropped_tx, dropped) = channel::<()>();
    let dropped_tx = Mutex::new(dropped_tx);
    let builder = ServerBuilder::new("t", "1").executor(|future| smol::spawn(future).detach()).async_tool(
        "add",
        "",
        move |job: Job, Steps { steps }| {
            let values = value_rx.clone();
            let flag = DropFlag(dropped_tx.lock().unwrap().clone());
            async move {
                let _flag = flag;
                let mut sum = 0;
                for i in 0..steps {
                    sum += values.recv().await.unwrap();
                    job.progress(f64::from(i + 1), None, None);
                }
                sum
            }
        },
    );
    let mut h = Harness::new(builder);
    h.send(json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"steps":2}}}));
    smol::block_on(value_tx.send(20)).unwrap();
    smol::block_on(value_tx.send(22)).unwrap();
    while h.answer(1).map(|a| h.out.push(a)).is_none() {
        h.wait();
    }
    assert_eq!(h.answer(1).unwrap()["result"]["content"][0]["text"], "42");
    dropped.recv_timeout(PATIENCE).expect("a finished future is dropped");

    // A call that waits forever: cancelled, its future is dropped unfinished.
    h.send(json!({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"steps":5}}}));
    smol::block_on(value_tx.send(1)).unwrap();
    h.send(json!({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}));
    dropped.recv_timeout(PATIENCE).expect("the cancelled future was dropped");
    h.drain();
    assert!(h.answer(2).is_none());
}

#[test]
fn async_tools_run_without_an_executor_too() {
    let builder =
        ServerBuilder::new("t", "1").async_tool("double", "", |_: Job, Steps { steps }| async move { steps * 2 });
    let mut h = Harness::new(builder);
    h.send(json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"double","arguments":{"steps":21}}}));
    while h.answer(1).map(|a| h.out.push(a)).is_none() {
        h.wait();
    }
    assert_eq!(h.answer(1).unwrap()["result"]["content"][0]["text"], "42");
}

/// Without an executor, an async tool's future is blocked on by a thread of its own,
/// named like a blocking tool's (the thread start is shared by both kinds since the
/// job threads are started by one non-generic function).
#[test]
fn an_async_tool_without_an_executor_runs_on_a_thread_named_mcp_tool() {
    let builder = ServerBuilder::new("t", "1")
        .async_tool("where", "", |_: Job, _: Steps| async move { format!("on {:?}", std::thread::current().name()) });
    let mut h = Harness::new(builder);
    h.send(json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"where","arguments":{"steps":1}}}));
    while h.answer(1).map(|a| h.out.push(a)).is_none() {
        h.wait();
    }
    assert_eq!(h.answer(1).unwrap()["result"]["content"][0]["text"], "on Some(\"mcp-tool\")");
}

/// A tool that asks the user for a name (elicitation) and greets it; a client error is
/// the tool's error.
fn asking() -> ServerBuilder {
    ServerBuilder::new("t", "1").blocking_tool("greet", "", |job: Job, _: Steps| -> Result<String, String> {
        let params =
            json!({"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}});
        match job.elicit(&params) {
            Ok(answer) => {
                let v: Value = serde_json::from_slice(answer.json().as_bytes()).unwrap();
                Ok(format!("Hello, {}", v["content"]["name"].as_str().unwrap_or("?")))
            }
            Err(ClientError::Cancelled) => Err("cancelled".into()),
            Err(e) => Err(format!("no name: {e}")),
        }
    })
}

impl Harness {
    /// The server's request of `method`, once the job's question woke the loop.
    fn request_of(&mut self, method: &str) -> Value {
        loop {
            if let Some(at) = self.out.iter().position(|m| m["method"] == method) {
                return self.out.remove(at);
            }
            self.wait();
        }
    }
}

#[test]
fn a_blocking_tool_asks_the_client_and_gets_its_answer() {
    let mut h = Harness::with_capabilities(asking(), json!({"elicitation":{}}));
    h.send(json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"greet","arguments":{"steps":1}}}));
    let asked = h.request_of("elicitation/create");
    assert_eq!(asked["params"]["message"], "Your name?");
    assert!(h.answer(1).is_none(), "the call waits for the answer");
    h.send(json!({"jsonrpc":"2.0","id":asked["id"],"result":{"action":"accept","content":{"name":"Ada"}}}));
    while h.answer(1).map(|a| h.out.push(a)).is_none() {
        h.wait();
    }
    assert_eq!(h.answer(1).unwrap()["result"]["content"][0]["text"], "Hello, Ada");

    // The client's error answer is the handler's to handle.
    h.send(json!({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"greet","arguments":{"steps":1}}}));
    let asked = h.request_of("elicitation/create");
    h.send(json!({"jsonrpc":"2.0","id":asked["id"],"error":{"code":-32600,"message":"user declined to be asked"}}));
    while h.answer(2).map(|a| h.out.push(a)).is_none() {
        h.wait();
    }
    let answer = h.answer(2).unwrap();
    assert_eq!(answer["result"]["isError"], true);
    assert!(answer["result"]["content"][0]["text"].as_str().unwrap().contains("user declined"), "{answer}");
}

#[test]
fn a_question_the_client_cannot_take_is_an_error_for_the_handler_and_cancellation_ends_the_wait() {
    // No elicitation capability: the question is refused without being sent.
    let mut h = Harness::new(asking());
    h.send(json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"greet","arguments":{"steps":1}}}));
    while h.answer(1).map(|a| h.out.push(a)).is_none() {
        h.wait();
    }
    let answer = h.answer(1).unwrap();
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    assert!(!h.out.iter().any(|m| m["method"] == "elicitation/create"), "{:?}", h.out);

    // Cancelled while it waits for the answer: the wait ends, nothing is answered, and
    // the late answer is dropped.
    let mut h = Harness::with_capabilities(asking(), json!({"elicitation":{}}));
    h.send(json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"greet","arguments":{"steps":1}}}));
    let asked = h.request_of("elicitation/create");
    h.send(json!({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}));
    h.send(json!({"jsonrpc":"2.0","id":asked["id"],"result":{"action":"accept","content":{"name":"Late"}}}));
    let _ = h.woken.recv_timeout(Duration::from_millis(300));
    h.drain();
    assert!(h.answer(1).is_none(), "a cancelled call was answered: {:?}", h.out);
}

#[test]
fn a_blocking_tool_logs_about_its_call_at_the_level_the_client_set() {
    use mcp_sansio::mcp::LoggingLevel;
    let builder = ServerBuilder::new("t", "1").logging().blocking_tool("chatty", "", |job: Job, _: Steps| {
        job.log(LoggingLevel::Info, "routine");
        job.log(LoggingLevel::Error, "something broke");
        "done"
    });
    let mut h = Harness::new(builder);
    // The toolkit answers logging/setLevel itself and keeps the level.
    h.send(json!({"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"warning"}}));
    assert_eq!(h.answer(1).unwrap()["result"], json!({}));
    h.send(json!({"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"loud"}}));
    assert_eq!(h.answer(2).unwrap()["error"]["code"], -32602);

    h.send(json!({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"chatty","arguments":{"steps":1}}}));
    while !h.out.iter().any(|m| m["id"] == 3) {
        h.wait();
    }
    let logs: Vec<&Value> = h.out.iter().filter(|m| m["method"] == "notifications/message").collect();
    assert_eq!(logs.len(), 1, "only what passes the level is sent: {:?}", h.out);
    assert_eq!(logs[0]["params"], json!({"level":"error","data":"something broke"}));
    let log_at = h.out.iter().position(|m| m["method"] == "notifications/message").unwrap();
    let answer_at = h.out.iter().position(|m| m["id"] == 3).unwrap();
    assert!(log_at < answer_at, "the log comes before the answer: {:?}", h.out);
}

// ---- the same handlers in stateless calls (2026-07-28): input_required rounds ----------

/// The `_meta` a stateless call carries, with the client's `capabilities`.
fn modern_meta(capabilities: Value) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    })
}

/// A stateless `tools/call` of `name` with `arguments`, and `extra` params (a retry's
/// `inputResponses` and `requestState`).
fn modern_call(id: u64, name: &str, arguments: Value, extra: Value) -> Value {
    let mut params = json!({"name": name, "arguments": arguments, "_meta": modern_meta(json!({"elicitation":{}}))});
    for (k, v) in extra.as_object().unwrap() {
        params[k] = v.clone();
    }
    json!({"jsonrpc":"2.0","id":id,"method":"tools/call","params":params})
}

impl Harness {
    /// A session that sees only stateless calls (no initialize).
    fn stateless(builder: ServerBuilder) -> Self {
        Self::stateless_with_key(builder, *b"toolkit test key")
    }

    /// The same, sealing states with `key`.
    fn stateless_with_key(builder: ServerBuilder, key: [u8; 16]) -> Self {
        let (wake, woken) = channel();
        let wake = Mutex::new(wake);
        let server = builder
            .state_key(key)
            .waker(move || {
                let _ = wake.lock().unwrap().send(());
            })
            .build();
        let rx = Box::leak(vec![0u8; 8192].into_boxed_slice());
        let tx = Box::leak(vec![0u8; 8192].into_boxed_slice());
        let ep = Ep::new(server.config(), rx, tx, Instant::ZERO).unwrap();
        Harness { ep, server, out: Vec::new(), woken }
    }

    /// The answer to `id`, once the job gave it.
    fn answer_of(&mut self, id: u64) -> Value {
        loop {
            if let Some(answer) = self.answer(id) {
                return answer;
            }
            self.wait();
        }
    }
}

/// A tool that asks two questions, the second after the first is answered, and counts
/// how often it ran.
fn two_questions(runs: Arc<Mutex<u32>>) -> ServerBuilder {
    ServerBuilder::new("t", "1").blocking_tool("pair", "", move |job: Job, _: Steps| -> Result<String, String> {
        *runs.lock().unwrap() += 1;
        let ask = |what: &str| {
            let params =
                json!({"message":what,"requestedSchema":{"type":"object","properties":{"v":{"type":"string"}}}});
            let answer = job.elicit(&params).map_err(|e| e.to_string())?;
            let v: Value = serde_json::from_slice(answer.json().as_bytes()).unwrap();
            Ok::<String, String>(v["content"]["v"].as_str().unwrap_or("?").to_string())
        };
        let first = ask("First?")?;
        let second = ask(&format!("Second, after {first}?"))?;
        Ok(format!("{first} then {second}"))
    })
}

#[test]
fn a_stateless_call_asks_with_input_required_and_the_retry_gets_the_answer() {
    let mut h = Harness::stateless(asking());
    h.send(modern_call(1, "greet", json!({"steps":1}), json!({})));
    let round = h.answer_of(1)["result"].clone();
    assert_eq!(round["resultType"], "input_required", "{round}");
    assert_eq!(round["inputRequests"]["q0"]["method"], "elicitation/create");
    assert_eq!(round["inputRequests"]["q0"]["params"]["message"], "Your name?");
    let state = round["requestState"].as_str().unwrap().to_string();
    assert!(!h.out.iter().any(|m| m["method"] == "elicitation/create"), "no request of the server's own: {:?}", h.out);

    let answers = json!({"q0":{"action":"accept","content":{"name":"Ada"}}});
    h.send(modern_call(2, "greet", json!({"steps":1}), json!({"inputResponses":answers,"requestState":state})));
    let done = h.answer_of(2);
    assert_eq!(done["result"]["content"][0]["text"], "Hello, Ada", "{done}");
    assert!(done["result"].get("resultType").is_none_or(|t| t == "complete"), "{done}");

    // A retry without the answer is asked again.
    h.send(modern_call(3, "greet", json!({"steps":1}), json!({"requestState":state})));
    assert_eq!(h.answer_of(3)["result"]["resultType"], "input_required");
}

#[test]
fn a_job_asking_twice_takes_two_rounds_and_runs_again_from_the_start_each_time() {
    let runs = Arc::new(Mutex::new(0));
    let mut h = Harness::stateless(two_questions(Arc::clone(&runs)));
    let args = json!({"steps":2});
    h.send(modern_call(1, "pair", args.clone(), json!({})));
    let first = h.answer_of(1)["result"].clone();
    assert_eq!(first["inputRequests"]["q0"]["params"]["message"], "First?", "{first}");

    let a0 = json!({"q0":{"action":"accept","content":{"v":"red"}}});
    h.send(modern_call(2, "pair", args.clone(), json!({"inputResponses":a0,"requestState":first["requestState"]})));
    let second = h.answer_of(2)["result"].clone();
    assert_eq!(second["resultType"], "input_required", "{second}");
    assert!(second["inputRequests"].get("q0").is_none(), "the first question is not asked again: {second}");
    assert_eq!(second["inputRequests"]["q1"]["params"]["message"], "Second, after red?");

    // The retry answers only the question of its round; the first answer comes back
    // from the state.
    let a1 = json!({"q1":{"action":"accept","content":{"v":"blue"}}});
    h.send(modern_call(3, "pair", args.clone(), json!({"inputResponses":a1,"requestState":second["requestState"]})));
    let done = h.answer_of(3);
    assert_eq!(done["result"]["content"][0]["text"], "red then blue", "{done}");
    assert_eq!(*runs.lock().unwrap(), 3, "one run per round");

    // A round's state with the answers of another round: the key it does not carry is
    // asked again, never taken from the retry.
    let stale = json!({"q0":{"action":"accept","content":{"v":"green"}},"q1":{"action":"accept","content":{"v":"x"}}});
    h.send(modern_call(4, "pair", args, json!({"inputResponses":stale,"requestState":second["requestState"]})));
    assert_eq!(h.answer_of(4)["result"]["content"][0]["text"], "red then x");
}

#[test]
fn a_tampered_or_misplaced_request_state_is_refused() {
    let mut h = Harness::stateless(asking());
    h.send(modern_call(1, "greet", json!({"steps":1}), json!({})));
    let state = h.answer_of(1)["result"]["requestState"].as_str().unwrap().to_string();
    let answers = json!({"q0":{"action":"accept","content":{"name":"Eve"}}});

    // One character changed.
    let mut tampered = state.clone().into_bytes();
    tampered[0] = if tampered[0] == b'e' { b'f' } else { b'e' };
    let tampered = String::from_utf8(tampered).unwrap();
    // The same state on a call with other arguments, or on a state sealed by another key.
    let other_key = {
        let mut k = Harness::stateless_with_key(asking(), *b"another key, 16b");
        k.send(modern_call(1, "greet", json!({"steps":1}), json!({})));
        k.answer_of(1)["result"]["requestState"].as_str().unwrap().to_string()
    };
    let cases = [
        (2, json!({"steps":1}), tampered),
        (3, json!({"steps":2}), state.clone()),
        (4, json!({"steps":1}), other_key),
        (5, json!({"steps":1}), "not a state".to_string()),
    ];
    for (id, args, state) in cases {
        h.send(modern_call(id, "greet", args, json!({"inputResponses":answers,"requestState":state})));
        let refused = h.answer(id).unwrap_or_else(|| panic!("{id} refused at once: {:?}", h.out));
        assert_eq!(refused["error"]["code"], -32602, "{refused}");
    }
    // `inputResponses` that is not an object is refused too.
    h.send(modern_call(6, "greet", json!({"steps":1}), json!({"inputResponses":[1],"requestState":state})));
    let refused = h.answer(6).unwrap_or_else(|| panic!("{:?}", h.out));
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
}

#[test]
fn a_stateless_client_without_the_capability_is_not_asked() {
    let mut h = Harness::stateless(asking());
    let mut call = modern_call(1, "greet", json!({"steps":1}), json!({}));
    call["params"]["_meta"] = modern_meta(json!({}));
    h.send(call);
    let answer = h.answer_of(1);
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    assert!(answer["result"]["content"][0]["text"].as_str().unwrap().contains("elicitation"), "{answer}");
}

#[test]
fn a_request_state_is_good_for_ten_minutes() {
    let mut h = Harness::stateless(asking());
    h.send(modern_call(1, "greet", json!({"steps":1}), json!({})));
    let state = h.answer_of(1)["result"]["requestState"].as_str().unwrap().to_string();
    let answers = json!({"q0":{"action":"accept","content":{"name":"Late"}}});
    // The server's clock is what its loop last polled with.
    let _ = h.server.poll(&mut (), &mut h.ep, Instant::from_secs(601));
    h.send(modern_call(2, "greet", json!({"steps":1}), json!({"inputResponses":answers,"requestState":state})));
    let refused = h.answer(2).unwrap_or_else(|| panic!("{:?}", h.out));
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert!(refused["error"]["message"].as_str().unwrap().contains("Expired"), "{refused}");
}
