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
