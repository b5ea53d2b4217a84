//! The tasks extension (`io.modelcontextprotocol/tasks`, 2026-07-28) on the virtual
//! clock: the endpoint's gating both ways (-32601 when this server did not declare it,
//! -32021 with `requiredCapabilities` when the client did not), `resultType: "task"`
//! only for a declaring client, the client's [`TaskPoller`] (its timer, its reading of
//! each status), and the toolkit's [`TaskStore`] in-process: a task polled to its
//! result, cancellation (idempotent), TTL expiry, a full store's refusal, input asked
//! by a task and answered with `tasks/update`.

mod common;

use std::time::Duration;

use common::*;
use mcp_sansio::mcp::{ProtocolVersion, Role};
use mcp_sansio::session::{
    Config, Endpoint, Era, Event, Output, RequestOptions, SendError, State, TaskPoller, TaskUpdate,
};
use mcp_sansio::time::Instant;
use mcp_sansio::toolkit::server::{Cancelled, Job, Server, ServerBuilder, TaskStore, TaskSupport};
use mcp_sansio::wire::{ErrorCode, RawJson};

const TASKS_CAPS: &str = r#"{"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}"#;

/// A stateless request's `_meta`, with `caps` as the client's capabilities.
fn meta(caps: &str) -> String {
    format!(
        r#""_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{caps}}}"#
    )
}

fn line(id: u32, method: &str, params: &str, caps: &str) -> Vec<u8> {
    let sep = if params.is_empty() { "" } else { "," };
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{params}{sep}{}}}}}"#, meta(caps))
        .into_bytes()
}

fn with_newline(mut bytes: Vec<u8>) -> Vec<u8> {
    bytes.push(b'\n');
    bytes
}

fn tasks_server(caps: &'static str) -> Side {
    let config = Config::new(Role::Server, raw(SERVER_INFO)).capabilities(RawJson::parse(caps.as_bytes()).unwrap());
    Side::lone(config)
}

#[test]
fn the_tasks_methods_need_the_extension_on_both_sides() {
    // This server did not declare it: the methods do not exist here.
    let mut s = tasks_server(r#"{"tools":{}}"#);
    s.feed(Instant::ZERO, &with_newline(line(1, "tasks/get", r#""taskId":"t""#, TASKS_CAPS)));
    let lines = s.new_lines();
    assert!(lines[0].contains(r#""code":-32601"#), "{lines:?}");

    // It did; the client did not, for each of the three methods: -32021 naming it.
    let mut s = tasks_server(r#"{"tools":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}"#);
    for (i, (method, params)) in [
        ("tasks/get", r#""taskId":"t""#),
        ("tasks/update", r#""taskId":"t","inputResponses":{}"#),
        ("tasks/cancel", r#""taskId":"t""#),
    ]
    .into_iter()
    .enumerate()
    {
        s.feed(Instant::ZERO, &with_newline(line(i as u32 + 1, method, params, r#"{"elicitation":{}}"#)));
        let lines = s.new_lines();
        assert_eq!(
            lines,
            vec![format!(
                r#"{{"jsonrpc":"2.0","id":{},"error":{{"code":-32021,"message":"Missing required client capability","data":{{"requiredCapabilities":{{"extensions":{{"io.modelcontextprotocol/tasks":{{}}}}}}}}}}}}"#,
                i + 1
            )],
            "{method}"
        );
    }
    assert!(s.take().iter().all(|e| matches!(e, Ev::Misbehavior(_))), "refusals are reported, nothing delivered");

    // Both declared: the request reaches the application.
    s.feed(Instant::ZERO, &with_newline(line(9, "tasks/get", r#""taskId":"t""#, TASKS_CAPS)));
    let events = s.take();
    assert!(matches!(&events[..], [Ev::Request { method, .. }] if method == "tasks/get"), "{events:?}");
}

#[test]
fn a_task_result_goes_only_to_a_client_that_declared_the_extension() {
    let mut s = tasks_server(r#"{"tools":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}"#);
    let call = |id, caps| with_newline(line(id, "tools/call", r#""name":"slow","arguments":{}"#, caps));
    s.feed(Instant::ZERO, &call(1, r#"{}"#));
    s.feed(Instant::ZERO, &call(2, TASKS_CAPS));
    s.take();
    let handle = RawJson::from_static(
        r#"{"resultType":"task","taskId":"t1","status":"working","createdAt":"2026-01-01T00:00:00Z","lastUpdatedAt":"2026-01-01T00:00:00Z","ttlMs":1000}"#,
    );
    let id1 = mcp_sansio::wire::RequestId::from_u64(1);
    assert_eq!(s.respond(&id1, &handle), Err(SendError::ResultTypeNotAllowed));
    s.drain();
    assert!(s.new_lines().is_empty(), "nothing written");
    let id2 = mcp_sansio::wire::RequestId::from_u64(2);
    assert!(s.respond(&id2, &handle).is_ok());
    s.drain();
    let lines = s.new_lines();
    assert!(
        lines[0].starts_with(r#"{"jsonrpc":"2.0","id":2,"result":{"_meta":{"io.modelcontextprotocol/serverInfo""#),
        "{lines:?}"
    );
    assert!(lines[0].contains(r#"},"resultType":"task","taskId":"t1","status":"working""#), "{lines:?}");
    assert!(lines[0].contains(r#""io.modelcontextprotocol/serverInfo""#));
}

// ---- the client's poller, on a lone client ---------------------------------------------

/// A stateless client whose server declared tools and the extension.
fn modern_client() -> Side {
    let config = Config::new(Role::Client, raw(CLIENT_INFO))
        .capabilities(RawJson::parse(TASKS_CAPS.as_bytes()).unwrap())
        .era(Era::Modern);
    let mut c = Side::lone(config);
    let probe = c.new_lines();
    assert!(probe[0].contains("server/discover"), "{probe:?}");
    c.feed(
        Instant::ZERO,
        br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{},"extensions":{"io.modelcontextprotocol/tasks":{}}},"ttlMs":0,"cacheScope":"private"}}
"#,
    );
    assert_eq!(c.ep.state(), State::Stateless);
    assert_eq!(c.ep.protocol_version(), Some(ProtocolVersion::V2026_07_28));
    c.take();
    c
}

/// Feeds `bytes` to the client, giving every event to `poller`: its updates, described.
fn feed_poller(c: &mut Side, poller: &mut TaskPoller, now: Instant, bytes: &[u8]) -> Vec<String> {
    let mut updates = Vec::new();
    let mut rest = bytes;
    loop {
        let n = c.ep.handle_input(now, rest);
        rest = &rest[n..];
        loop {
            match c.ep.poll_output() {
                Output::Transmit(b) => c.sent.extend_from_slice(&b),
                Output::Event(e) => match poller.handle_event(&e, now) {
                    Some(u) => updates.push(describe(&u)),
                    None => c.events.push(own(&e)),
                },
                Output::Idle { .. } => break,
            }
        }
        if rest.is_empty() {
            return updates;
        }
    }
}

fn text(json: RawJson<'_>) -> String {
    String::from_utf8_lossy(json.as_bytes()).into_owned()
}

fn describe(u: &TaskUpdate<'_>) -> String {
    match u {
        TaskUpdate::Working { .. } => "working".into(),
        TaskUpdate::InputRequired { requests, fresh, .. } => {
            format!("input_required fresh={fresh} {}", text(*requests))
        }
        TaskUpdate::Completed { result } => format!("completed {}", text(*result)),
        TaskUpdate::Failed { error } => format!("failed {}", text(*error)),
        TaskUpdate::Cancelled => "cancelled".into(),
        TaskUpdate::Gone { error } => format!("gone {}", error.code.0),
        TaskUpdate::Invalid { result } => format!("invalid {}", text(*result)),
        TaskUpdate::Unanswered => "unanswered".into(),
        other => format!("{other:?}"),
    }
}

fn drain(c: &mut Side) {
    c.drain();
}

#[test]
fn the_poller_follows_the_servers_interval_on_the_virtual_clock() {
    let mut c = modern_client();
    let t0 = Instant::ZERO;
    c.ep.send_request(t0, "tools/call", Some(&RawJson::from_static(r#"{"name":"slow"}"#)), RequestOptions::default())
        .unwrap();
    drain(&mut c);
    c.new_lines();
    c.feed(
        t0,
        br#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"task","taskId":"t\/1","status":"working","createdAt":"a","lastUpdatedAt":"a","ttlMs":60000,"pollIntervalMs":250}}
"#,
    );
    let events = c.take();
    let [Ev::TaskCreated { task, .. }] = &events[..] else { panic!("{events:?}") };
    let mut poller: TaskPoller = TaskPoller::new(RawJson::parse(task.as_bytes()).unwrap(), t0).unwrap();
    assert_eq!(poller.task_id().as_bytes(), br#""t\/1""#, "the id kept as the server wrote it");
    assert_eq!(poller.poll_timeout(), Some(t0 + Duration::from_millis(250)));

    // Spurious and early timeouts send nothing.
    assert_eq!(poller.handle_timeout(&mut c.ep, t0 + Duration::from_millis(249)), Ok(None));
    drain(&mut c);
    assert!(c.new_lines().is_empty());
    let t1 = t0 + Duration::from_millis(250);
    assert!(poller.handle_timeout(&mut c.ep, t1).unwrap().is_some());
    assert_eq!(poller.poll_timeout(), None, "one poll in flight at a time");
    drain(&mut c);
    let lines = c.new_lines();
    assert_eq!(lines.len(), 1);
    assert!(lines[0].starts_with(r#"{"jsonrpc":"2.0","id":3,"method":"tasks/get","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28""#), "{lines:?}");
    assert!(lines[0].ends_with(r#"},"taskId":"t\/1"}}"#), "{lines:?}");

    // Working, with a new interval: the next poll follows it.
    let updates = feed_poller(
        &mut c,
        &mut poller,
        t1,
        br#"{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","taskId":"t\/1","status":"working","createdAt":"a","lastUpdatedAt":"b","ttlMs":60000,"pollIntervalMs":1000}}
"#,
    );
    assert_eq!(updates, vec!["working"]);
    assert_eq!(poller.poll_timeout(), Some(t1 + Duration::from_secs(1)));

    // input_required: surfaced fresh once, then not again for the same keys.
    let asking = br#"{"jsonrpc":"2.0","id":ID,"result":{"resultType":"complete","taskId":"t\/1","status":"input_required","createdAt":"a","lastUpdatedAt":"b","ttlMs":60000,"inputRequests":{"q0":{"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object"}}}}}}
"#;
    let mut now = t1;
    for (id, fresh) in [(4, true), (5, false)] {
        now = poller.poll_timeout().unwrap();
        poller.handle_timeout(&mut c.ep, now).unwrap();
        drain(&mut c);
        let reply = String::from_utf8_lossy(asking).replace("ID", &id.to_string());
        let updates = feed_poller(&mut c, &mut poller, now, reply.as_bytes());
        assert_eq!(updates.len(), 1);
        assert!(updates[0].starts_with(&format!("input_required fresh={fresh} ")), "{updates:?}");
    }
    c.new_lines();
    poller.answer(&mut c.ep, now, &RawJson::from_static(r#"{"q0":{"action":"accept","content":{}}}"#)).unwrap();
    drain(&mut c);
    let lines = c.new_lines();
    assert!(lines[0].contains(r#""method":"tasks/update","params":{"_meta":"#), "{lines:?}");
    assert!(
        lines[0].ends_with(r#"},"taskId":"t\/1","inputResponses":{"q0":{"action":"accept","content":{}}}}}"#),
        "{lines:?}"
    );
    // The update's ack is the application's (not a poll's answer).
    let updates = feed_poller(
        &mut c,
        &mut poller,
        now,
        b"{\"jsonrpc\":\"2.0\",\"id\":6,\"result\":{\"resultType\":\"complete\"}}\n",
    );
    assert!(updates.is_empty());
    assert!(matches!(&c.take()[..], [Ev::Response { id, .. }] if id == "6"));

    // Completed: the result inlined, polling over.
    now = poller.poll_timeout().unwrap();
    poller.handle_timeout(&mut c.ep, now).unwrap();
    drain(&mut c);
    let updates = feed_poller(
        &mut c,
        &mut poller,
        now,
        br#"{"jsonrpc":"2.0","id":7,"result":{"resultType":"complete","taskId":"t\/1","status":"completed","createdAt":"a","lastUpdatedAt":"c","ttlMs":60000,"result":{"content":[{"type":"text","text":"done"}]}}}
"#,
    );
    assert_eq!(updates, vec![r#"completed {"content":[{"type":"text","text":"done"}]}"#]);
    assert!(poller.is_done() && poller.poll_timeout().is_none());
}

#[test]
fn the_poller_stops_on_an_unknown_task_and_refuses_a_wrong_answer() {
    let mut c = modern_client();
    let handle = RawJson::from_static(
        r#"{"resultType":"task","taskId":"x","status":"working","createdAt":"a","lastUpdatedAt":"a","ttlMs":null}"#,
    );
    let mut poller: TaskPoller = TaskPoller::new(handle, Instant::ZERO).unwrap();
    let due = poller.poll_timeout().unwrap();
    assert_eq!(due, Instant::ZERO + mcp_sansio::session::DEFAULT_POLL_INTERVAL, "no pollIntervalMs: the default");
    poller.handle_timeout(&mut c.ep, due).unwrap();
    drain(&mut c);
    // Another task's status is not this one's.
    let updates = feed_poller(
        &mut c,
        &mut poller,
        due,
        br#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","taskId":"y","status":"completed","createdAt":"a","lastUpdatedAt":"a","ttlMs":null,"result":{}}}
"#,
    );
    assert!(updates[0].starts_with("invalid "), "{updates:?}");
    assert!(poller.is_done());

    let mut poller: TaskPoller = TaskPoller::new(handle, due).unwrap();
    let due = poller.poll_timeout().unwrap();
    poller.handle_timeout(&mut c.ep, due).unwrap();
    drain(&mut c);
    let updates = feed_poller(
        &mut c,
        &mut poller,
        due,
        b"{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32602,\"message\":\"Failed to retrieve task: Task not found\"}}\n",
    );
    assert_eq!(updates, vec!["gone -32602"]);
    assert!(poller.is_done());
    let long = format!(r#"{{"taskId":"{}","status":"working"}}"#, "a".repeat(200));
    assert_eq!(
        TaskPoller::<128>::new(RawJson::parse(long.as_bytes()).unwrap(), due).unwrap_err(),
        mcp_sansio::session::TaskHandleError::IdTooLong { needed: 202 }
    );
}

// ---- the toolkit's store, in-process with the poller ------------------------------------

mcp_sansio::schema! {
    #[derive(serde::Deserialize)]
    pub struct Seconds {
        /// How long
        seconds: u32,
    }
}

type Ep = Endpoint<'static, 4, 4>;

/// A stateless client and a toolkit server, wired in memory, on the virtual clock.
struct Duo {
    client: Ep,
    server: Ep,
    app: Server<'static, ()>,
    now: Instant,
    to_server: Vec<u8>,
    to_client: Vec<u8>,
    events: Vec<Ev>,
    lines: Vec<u8>,
    /// The latest `input_required` task a poll brought.
    asking: Option<String>,
}

impl Duo {
    fn new(app: Server<'static, ()>, client_caps: &'static str) -> Self {
        let config = app.config();
        let server = Ep::new(config, leak(64 * 1024), leak(64 * 1024), Instant::ZERO).unwrap();
        let cc = Config::new(Role::Client, raw(CLIENT_INFO))
            .capabilities(RawJson::parse(client_caps.as_bytes()).unwrap())
            .era(Era::Modern);
        let client = Ep::new(cc, leak(64 * 1024), leak(64 * 1024), Instant::ZERO).unwrap();
        let mut duo = Duo {
            client,
            server,
            app,
            now: Instant::ZERO,
            to_server: Vec::new(),
            to_client: Vec::new(),
            events: Vec::new(),
            lines: Vec::new(),
            asking: None,
        };
        duo.drive(None);
        assert_eq!(duo.client.state(), State::Stateless);
        duo.events.clear();
        duo
    }

    /// Moves bytes until both sides are quiet; the client's events go to `poller` first.
    fn drive(&mut self, mut poller: Option<&mut TaskPoller>) -> Vec<String> {
        let mut updates = Vec::new();
        for _ in 0..1000 {
            let mut any = false;
            loop {
                match self.client.poll_output() {
                    Output::Transmit(b) => {
                        self.to_server.extend_from_slice(&b);
                        any = true;
                    }
                    Output::Event(e) => {
                        any = true;
                        match poller.as_deref_mut().and_then(|p| p.handle_event(&e, self.now)) {
                            Some(u) => {
                                if let TaskUpdate::InputRequired { task, .. } = u {
                                    self.asking = Some(text(task));
                                }
                                updates.push(describe(&u));
                            }
                            None => self.events.push(own(&e)),
                        }
                    }
                    Output::Idle { .. } => break,
                }
            }
            let _ = self.app.poll(&mut (), &mut self.server, self.now);
            loop {
                match self.server.poll_output() {
                    Output::Transmit(b) => {
                        self.to_client.extend_from_slice(&b);
                        self.lines.extend_from_slice(&b);
                        any = true;
                    }
                    Output::Event(e) => {
                        any = true;
                        if let Some(Event::Request(mut r)) = self.app.handle(&mut (), e) {
                            let _ = r.respond_error(ErrorCode::METHOD_NOT_FOUND, "Method not found");
                        }
                    }
                    Output::Idle { .. } => break,
                }
            }
            while !self.to_server.is_empty() {
                let n = self.server.handle_input(self.now, &self.to_server);
                self.to_server.drain(..n);
                any = true;
                if n == 0 {
                    break;
                }
            }
            while !self.to_client.is_empty() {
                let n = self.client.handle_input(self.now, &self.to_client);
                self.to_client.drain(..n);
                any = true;
                if n == 0 {
                    break;
                }
            }
            if !any {
                return updates;
            }
        }
        panic!("did not settle");
    }

    fn call(&mut self, tool: &str, arguments: &str) -> Ev {
        let text = format!(r#"{{"name":"{tool}","arguments":{arguments}}}"#);
        let params = RawJson::parse(text.as_bytes()).unwrap();
        self.client.send_request(self.now, "tools/call", Some(&params), RequestOptions::default()).unwrap();
        self.drive(None);
        assert_eq!(self.events.len(), 1, "{:?}", self.events);
        self.events.remove(0)
    }

    fn request(&mut self, method: &str, params: &str) -> Ev {
        let params = RawJson::parse(params.as_bytes()).unwrap();
        self.client.send_request(self.now, method, Some(&params), RequestOptions::default()).unwrap();
        self.drive(None);
        assert_eq!(self.events.len(), 1, "{:?}", self.events);
        self.events.remove(0)
    }

    /// Polls with `poller` until it reports something.
    fn poll(&mut self, poller: &mut TaskPoller) -> String {
        let due = poller.poll_timeout().expect("a poll is due");
        self.now = self.now.max(due);
        poller.handle_timeout(&mut self.client, self.now).unwrap();
        let mut updates = self.drive(Some(poller));
        assert_eq!(updates.len(), 1, "{updates:?}");
        updates.remove(0)
    }
}

fn task_of(ev: &Ev) -> String {
    match ev {
        Ev::TaskCreated { task, .. } => task.clone(),
        other => panic!("not a task: {other:?}"),
    }
}

/// Waits (for a job on a thread) until `store` says task `id` is `status`.
fn wait_for(store: &TaskStore, id: &str, status: mcp_sansio::mcp::TaskStatus) {
    for _ in 0..2000 {
        if store.status(id) == Some(status) {
            return;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    panic!("task {id} never became {status:?} (is {:?})", store.status(id));
}

fn id_of(task: &str) -> String {
    RawJson::parse(task.as_bytes()).unwrap().get("taskId").unwrap().as_str().unwrap().to_string()
}

fn inline_server(store: TaskStore) -> Server<'static, ()> {
    ServerBuilder::new("tasks", "1.0.0")
        .spawner(|run| run())
        .task_store(store)
        .blocking_task_tool("quick", "Answers at once", TaskSupport::Optional, |_: Job, Seconds { seconds }| {
            format!("slept {seconds}")
        })
        .blocking_task_tool("must", "Only as a task", TaskSupport::Required, |_: Job, Seconds { seconds }| {
            format!("must {seconds}")
        })
        .build()
}

#[test]
fn a_task_is_created_at_once_and_polled_to_its_result() {
    let store = TaskStore::new(4).poll_interval(Duration::from_millis(100)).wall_clock_at_zero(0);
    let mut duo = Duo::new(inline_server(store.clone()), TASKS_CAPS);
    let created = duo.call("quick", r#"{"seconds":1}"#);
    let task = task_of(&created);
    assert!(task.contains(r#""status":"working""#) && task.contains(r#""pollIntervalMs":100"#), "{task}");
    assert!(task.contains(r#""createdAt":"1970-01-01T00:00:00.000Z""#) && task.contains(r#""ttlMs":300000"#));
    let lines = String::from_utf8_lossy(&duo.lines).into_owned();
    assert!(lines.contains(r#""execution":{"taskSupport":"optional"}"#) || !lines.contains("tools/list"));
    let mut poller: TaskPoller = TaskPoller::new(RawJson::parse(task.as_bytes()).unwrap(), duo.now).unwrap();
    assert_eq!(poller.poll_timeout(), Some(duo.now + Duration::from_millis(100)));
    let done = duo.poll(&mut poller);
    assert!(done.starts_with(r#"completed {"content":[{"type":"text","text":"slept 1"}]"#), "{done}");
    assert!(!done.contains("related-task"));
    assert!(poller.is_done());

    // Cancelling a task that ended is acknowledged all the same, and changes nothing.
    let id = id_of(&task);
    for _ in 0..2 {
        let ack = duo.request("tasks/cancel", &format!(r#"{{"taskId":"{id}"}}"#));
        assert!(
            matches!(&ack, Ev::Response { result, .. } if result.starts_with(r#"{"resultType":"complete""#) && !result.contains("taskId")),
            "{ack:?}"
        );
    }
    assert_eq!(store.status(&id), Some(mcp_sansio::mcp::TaskStatus::Completed));
    let unknown = duo.request("tasks/get", r#"{"taskId":"nope"}"#);
    assert!(matches!(unknown, Ev::Error { code: -32602, .. }), "{unknown:?}");
}

/// Without a spawner, a task's job runs on a thread of its own named `mcp-task` (for a
/// blocking and an async task tool alike, with no executor either).
#[test]
fn a_task_without_a_spawner_runs_on_a_thread_named_mcp_task() {
    for tool in ["blocking", "async"] {
        let store = TaskStore::new(4).poll_interval(Duration::from_millis(100));
        let server = ServerBuilder::new("tasks", "1.0.0")
            .task_store(store.clone())
            .blocking_task_tool("blocking", "Where it runs", TaskSupport::Required, |_: Job, _: Seconds| {
                format!("on {:?}", std::thread::current().name())
            })
            .async_task_tool("async", "Where it runs", TaskSupport::Required, |_: Job, _: Seconds| async move {
                format!("on {:?}", std::thread::current().name())
            })
            .build();
        let mut duo = Duo::new(server, TASKS_CAPS);
        let task = task_of(&duo.call(tool, r#"{"seconds":1}"#));
        let id = id_of(&task);
        // The job runs on its own thread: wait (boundedly) for the store to hold its end.
        let start = std::time::Instant::now();
        while store.status(&id) == Some(mcp_sansio::mcp::TaskStatus::Working) {
            assert!(start.elapsed() < Duration::from_secs(20), "the {tool} task never ended");
            std::thread::yield_now();
        }
        let mut poller: TaskPoller = TaskPoller::new(RawJson::parse(task.as_bytes()).unwrap(), duo.now).unwrap();
        let done = duo.poll(&mut poller);
        assert!(
            done.starts_with(r#"completed {"content":[{"type":"text","text":"on Some(\"mcp-task\")"}]"#),
            "{tool}: {done}"
        );
    }
}

#[test]
fn a_client_without_the_extension_gets_the_answer_or_minus_32021() {
    let store = TaskStore::new(4);
    let mut duo = Duo::new(inline_server(store.clone()), r#"{"elicitation":{}}"#);
    let sync = duo.call("quick", r#"{"seconds":2}"#);
    assert!(
        matches!(&sync, Ev::Response { result, .. } if result.contains("slept 2") && result.contains(r#""resultType":"complete""#)),
        "{sync:?}"
    );
    let refused = duo.call("must", r#"{"seconds":2}"#);
    assert!(matches!(&refused, Ev::Error { code: -32021, .. }), "{refused:?}");
    let lines = String::from_utf8_lossy(&duo.lines).into_owned();
    assert!(
        lines.contains(r#""data":{"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}"#),
        "{lines}"
    );
    assert!(store.is_empty(), "no task made");
}

#[test]
fn tasks_expire_after_their_ttl_and_a_full_store_refuses_as_documented() {
    // While `park` is set the spawner drops what it is given: the task stays `working`.
    let park = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let parked = std::sync::Arc::clone(&park);
    let store = TaskStore::new(1).ttl(Duration::from_secs(10));
    let server = ServerBuilder::new("tasks", "1.0.0")
        .spawner(move |run| {
            if !parked.load(std::sync::atomic::Ordering::Relaxed) {
                run();
            }
        })
        .task_store(store.clone())
        .blocking_task_tool("quick", "Answers at once", TaskSupport::Optional, |_: Job, Seconds { seconds }| {
            format!("slept {seconds}")
        })
        .blocking_task_tool("must", "Only as a task", TaskSupport::Required, |_: Job, Seconds { seconds }| {
            format!("must {seconds}")
        })
        .build();
    let mut duo = Duo::new(server, TASKS_CAPS);
    let id = id_of(&task_of(&duo.call("quick", r#"{"seconds":1}"#)));
    park.store(false, std::sync::atomic::Ordering::Relaxed);

    // Full of unfinished tasks: an optional tool runs synchronously, a required one is
    // refused (-32603).
    let sync = duo.call("quick", r#"{"seconds":3}"#);
    assert!(matches!(&sync, Ev::Response { result, .. } if result.contains("slept 3")), "{sync:?}");
    let refused = duo.call("must", r#"{"seconds":3}"#);
    assert!(
        matches!(&refused, Ev::Error { code: -32603, message, .. } if message.contains("too many tasks")),
        "{refused:?}"
    );

    // Still there just before its TTL; gone at it, which frees the room.
    duo.now = Instant::ZERO + Duration::from_millis(9_999);
    assert!(matches!(duo.request("tasks/get", &format!(r#"{{"taskId":"{id}"}}"#)), Ev::Response { .. }));
    duo.now = Instant::ZERO + Duration::from_secs(10);
    let gone = duo.request("tasks/get", &format!(r#"{{"taskId":"{id}"}}"#));
    assert!(matches!(gone, Ev::Error { code: -32602, .. }), "{gone:?}");
    assert!(store.is_empty());
    let first = id_of(&task_of(&duo.call("must", r#"{"seconds":4}"#)));
    assert_eq!(store.status(&first), Some(mcp_sansio::mcp::TaskStatus::Completed));

    // Full of a finished task (kept for its TTL): it makes room, nothing is refused.
    let second = id_of(&task_of(&duo.call("must", r#"{"seconds":5}"#)));
    assert_eq!(store.status(&first), None);
    assert_eq!(store.status(&second), Some(mcp_sansio::mcp::TaskStatus::Completed));
    assert_eq!(store.len(), 1);
}

#[test]
fn a_running_task_is_cancelled_and_asked_input_through_the_store() {
    let store = TaskStore::new(4);
    let app = ServerBuilder::new("tasks", "1.0.0")
        .task_store(store.clone())
        .blocking_task_tool("wait", "Waits to be cancelled", TaskSupport::Optional, |job: Job, Seconds { seconds }| {
            job.sleep(Duration::from_secs(u64::from(seconds))).map(|()| "woke")
        })
        .blocking_task_tool("ask", "Asks a question", TaskSupport::Optional, |job: Job, _: Seconds| {
            let answer = job.elicit(&serde_json::json!({"message": "Sure?", "requestedSchema": {"type": "object"}}));
            match answer {
                Ok(a) => format!("answered {}", String::from_utf8_lossy(a.json().as_bytes())),
                Err(e) => format!("not answered: {e}"),
            }
        })
        .build();
    let mut duo = Duo::new(app, TASKS_CAPS);
    let _: Option<Cancelled> = None;

    // Cancelled while it sleeps: `cancelled` at once, whatever the job does after.
    let id = id_of(&task_of(&duo.call("wait", r#"{"seconds":3600}"#)));
    assert_eq!(store.status(&id), Some(mcp_sansio::mcp::TaskStatus::Working));
    let ack = duo.request("tasks/cancel", &format!(r#"{{"taskId":"{id}"}}"#));
    assert!(matches!(&ack, Ev::Response { result, .. } if !result.contains("status")), "{ack:?}");
    let get = duo.request("tasks/get", &format!(r#"{{"taskId":"{id}"}}"#));
    assert!(
        matches!(&get, Ev::Response { result, .. } if result.contains(r#""status":"cancelled""#) && !result.contains(r#""result""#)),
        "{get:?}"
    );

    // Input: the job's question is the task's input request until tasks/update answers.
    let id = id_of(&task_of(&duo.call("ask", r#"{"seconds":0}"#)));
    wait_for(&store, &id, mcp_sansio::mcp::TaskStatus::InputRequired);
    let get = duo.request("tasks/get", &format!(r#"{{"taskId":"{id}"}}"#));
    assert!(
        matches!(&get, Ev::Response { result, .. } if result.contains(r#""inputRequests":{"q0":{"method":"elicitation/create","params":{"message":"Sure?""#)),
        "{get:?}"
    );
    // An unknown key is ignored (acknowledged, the task still waits).
    let ack =
        duo.request("tasks/update", &format!(r#"{{"taskId":"{id}","inputResponses":{{"zz":{{"action":"accept"}}}}}}"#));
    assert!(matches!(ack, Ev::Response { .. }));
    assert_eq!(store.status(&id), Some(mcp_sansio::mcp::TaskStatus::InputRequired));
    let bad = duo.request("tasks/update", &format!(r#"{{"taskId":"{id}","inputResponses":[]}}"#));
    assert!(matches!(bad, Ev::Error { code: -32602, .. }), "{bad:?}");
    // An answer of the wrong shape for its question: -32602, and the task still waits.
    let bad = duo.request("tasks/update", &format!(r#"{{"taskId":"{id}","inputResponses":{{"q0":{{"roots":[]}}}}}}"#));
    assert!(matches!(bad, Ev::Error { code: -32602, .. }), "{bad:?}");
    assert_eq!(store.status(&id), Some(mcp_sansio::mcp::TaskStatus::InputRequired));
    duo.request(
        "tasks/update",
        &format!(r#"{{"taskId":"{id}","inputResponses":{{"q0":{{"action":"accept","content":{{}}}}}}}}"#),
    );
    wait_for(&store, &id, mcp_sansio::mcp::TaskStatus::Completed);
    let get = duo.request("tasks/get", &format!(r#"{{"taskId":"{id}"}}"#));
    assert!(
        matches!(&get, Ev::Response { result, .. } if result.contains(r#"answered {\"action\":\"accept\",\"content\":{}}"#)),
        "{get:?}"
    );
}

/// A user who confirms whatever is asked.
struct Yes;

impl mcp_sansio::toolkit::client::Hooks for Yes {
    fn elicitation(&mut self, _: mcp_sansio::mcp::ElicitParams<'_>, reply: mcp_sansio::toolkit::client::Reply<'_, '_>) {
        reply.respond(&RawJson::from_static(r#"{"action":"accept","content":{"confirm":true}}"#));
    }
}

#[test]
fn a_tasks_questions_are_answered_through_the_clients_hooks() {
    let store = TaskStore::new(4).poll_interval(Duration::from_millis(50));
    let app = ServerBuilder::new("tasks", "1.0.0")
        .task_store(store.clone())
        .blocking_task_tool("two", "Asks two questions at once", TaskSupport::Optional, |job: Job, _: Seconds| {
            let ask = serde_json::json!({"message": "Sure?", "requestedSchema": {"type": "object"}});
            let answers = job.ask_all(&[
                (mcp_sansio::toolkit::server::Input::Elicitation, ask.clone()),
                (mcp_sansio::toolkit::server::Input::Elicitation, ask),
            ]);
            let accepted = answers
                .iter()
                .filter(|a| {
                    a.as_ref()
                        .is_ok_and(|a| a.json().get("action").and_then(|v| v.as_str()).is_some_and(|v| v == "accept"))
                })
                .count();
            format!("{accepted} accepted")
        })
        .build();
    let mut duo = Duo::new(app, TASKS_CAPS);
    let task = task_of(&duo.call("two", r#"{"seconds":0}"#));
    let id = id_of(&task);
    let mut poller: TaskPoller = TaskPoller::new(RawJson::parse(task.as_bytes()).unwrap(), duo.now).unwrap();
    wait_for(&store, &id, mcp_sansio::mcp::TaskStatus::InputRequired);
    let update = duo.poll(&mut poller);
    assert!(
        update.starts_with("input_required fresh=true ") && update.contains(r#""q0""#) && update.contains(r#""q1""#),
        "{update}"
    );
    let asking = duo.asking.take().unwrap();
    let mut client: mcp_sansio::toolkit::client::Client<Yes> = mcp_sansio::toolkit::client::Client::new(Yes);
    let (responses, state) = client.fulfil(RawJson::parse(asking.as_bytes()).unwrap()).unwrap();
    assert_eq!(state, None);
    assert_eq!(
        String::from_utf8_lossy(&responses),
        r#"{"q0":{"action":"accept","content":{"confirm":true}},"q1":{"action":"accept","content":{"confirm":true}}}"#
    );
    poller.answer(&mut duo.client, duo.now, &RawJson::parse(&responses).unwrap()).unwrap();
    duo.drive(Some(&mut poller));
    wait_for(&store, &id, mcp_sansio::mcp::TaskStatus::Completed);
    let done = duo.poll(&mut poller);
    assert!(done.starts_with(r#"completed {"content":[{"type":"text","text":"2 accepted"}]"#), "{done}");
}

/// Sets its flag when dropped.
struct Dropped(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl Drop for Dropped {
    fn drop(&mut self) {
        self.0.store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

#[test]
fn an_async_task_completes_and_a_cancelled_one_is_dropped() {
    let store = TaskStore::new(4);
    let dropped = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = std::sync::Arc::clone(&dropped);
    let app = ServerBuilder::new("tasks", "1.0.0")
        .task_store(store.clone())
        .async_task_tool("quick", "Answers", TaskSupport::Optional, |_: Job, Seconds { seconds }| async move {
            format!("async {seconds}")
        })
        .async_task_tool("forever", "Waits for ever", TaskSupport::Required, move |_: Job, _: Seconds| {
            // Never ends by itself: the toolkit drops it when the task is cancelled.
            let guard = Dropped(std::sync::Arc::clone(&flag));
            async move {
                let _guard = guard;
                std::future::pending::<()>().await;
                "never"
            }
        })
        .build();
    let mut duo = Duo::new(app, TASKS_CAPS);
    let id = id_of(&task_of(&duo.call("quick", r#"{"seconds":7}"#)));
    wait_for(&store, &id, mcp_sansio::mcp::TaskStatus::Completed);
    let get = duo.request("tasks/get", &format!(r#"{{"taskId":"{id}"}}"#));
    assert!(matches!(&get, Ev::Response { result, .. } if result.contains("async 7")), "{get:?}");

    let id = id_of(&task_of(&duo.call("forever", r#"{"seconds":0}"#)));
    assert!(!dropped.load(std::sync::atomic::Ordering::SeqCst));
    duo.request("tasks/cancel", &format!(r#"{{"taskId":"{id}"}}"#));
    assert_eq!(store.status(&id), Some(mcp_sansio::mcp::TaskStatus::Cancelled));
    for _ in 0..2000 {
        if dropped.load(std::sync::atomic::Ordering::SeqCst) {
            return;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    panic!("the cancelled task's future was not dropped");
}

#[test]
fn a_handshake_session_gets_no_tasks() {
    let store = TaskStore::new(4);
    let mut app = inline_server(store.clone());
    let mut ep = Ep::new(app.config(), leak(64 * 1024), leak(64 * 1024), Instant::ZERO).unwrap();
    let input = concat!(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"tasks":{}},"clientInfo":{"name":"c","version":"1"}}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"quick","arguments":{"seconds":5}}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"must","arguments":{"seconds":5}}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":4,"method":"tasks/get","params":{"taskId":"t"}}"#,
        "\n",
    );
    let mut rest = input.as_bytes();
    let mut out = Vec::new();
    while !rest.is_empty() {
        let n = ep.handle_input(Instant::ZERO, rest);
        rest = &rest[n..];
        loop {
            let _ = app.poll(&mut (), &mut ep, Instant::ZERO);
            match ep.poll_output() {
                Output::Transmit(b) => out.extend_from_slice(&b),
                Output::Event(e) => {
                    if let Some(Event::Request(mut r)) = app.handle(&mut (), e) {
                        let _ = r.respond_error(ErrorCode::METHOD_NOT_FOUND, "Method not found");
                    }
                }
                Output::Idle { .. } => break,
            }
        }
    }
    let out = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(
        lines[1].starts_with(r#"{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"slept 5"}]"#),
        "an optional tool runs: {}",
        lines[1]
    );
    assert!(lines[2].contains(r#""id":3,"error":{"code":-32021"#), "a required one cannot: {}", lines[2]);
    assert!(
        lines[3].contains(r#""id":4,"error":{"code":-32601"#),
        "the 2025-11-25 tasks/get: this server declares no such tasks (the store leaves it alone too): {}",
        lines[3]
    );
    assert!(store.is_empty());
}

#[test]
fn a_job_waiting_for_answers_is_released_when_its_task_expires() {
    let store = TaskStore::new(4).ttl(Duration::from_secs(1));
    let released = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = std::sync::Arc::clone(&released);
    let app = ServerBuilder::new("tasks", "1.0.0")
        .task_store(store.clone())
        .blocking_task_tool("ask", "Asks", TaskSupport::Optional, move |job: Job, _: Seconds| {
            let answer = job.elicit(&serde_json::json!({"message": "?", "requestedSchema": {"type": "object"}}));
            flag.store(answer.is_err(), std::sync::atomic::Ordering::SeqCst);
            "over"
        })
        .build();
    let mut duo = Duo::new(app, TASKS_CAPS);
    let id = id_of(&task_of(&duo.call("ask", r#"{"seconds":0}"#)));
    wait_for(&store, &id, mcp_sansio::mcp::TaskStatus::InputRequired);
    duo.now = duo.now + Duration::from_secs(1);
    let gone = duo.request("tasks/get", &format!(r#"{{"taskId":"{id}"}}"#));
    assert!(matches!(gone, Ev::Error { code: -32602, .. }), "{gone:?}");
    for _ in 0..2000 {
        if released.load(std::sync::atomic::Ordering::SeqCst) {
            return;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    panic!("the job still waits for the answers of a task that expired");
}

#[test]
fn a_task_nobody_asks_about_expires_at_its_ttl_from_the_loops_poll() {
    let store = TaskStore::new(4).ttl(Duration::from_secs(1));
    let released = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = std::sync::Arc::clone(&released);
    let app = ServerBuilder::new("tasks", "1.0.0")
        .task_store(store.clone())
        .blocking_task_tool("ask", "Asks", TaskSupport::Optional, move |job: Job, _: Seconds| {
            let answer = job.elicit(&serde_json::json!({"message": "?", "requestedSchema": {"type": "object"}}));
            flag.store(answer.is_err(), std::sync::atomic::Ordering::SeqCst);
            "over"
        })
        .build();
    let mut duo = Duo::new(app, TASKS_CAPS);
    let created = duo.now;
    let id = id_of(&task_of(&duo.call("ask", r#"{"seconds":0}"#)));
    wait_for(&store, &id, mcp_sansio::mcp::TaskStatus::InputRequired);
    // The loop is told to come back when the task expires...
    let due = duo.app.poll(&mut (), &mut duo.server, duo.now);
    assert_eq!(due, Some(created + Duration::from_secs(1)));
    // ...and its poll then ends the task, releasing the job, with no request coming.
    duo.now = created + Duration::from_secs(1);
    let due = duo.app.poll(&mut (), &mut duo.server, duo.now);
    assert_eq!(due, None);
    assert!(store.is_empty());
    for _ in 0..2000 {
        if released.load(std::sync::atomic::Ordering::SeqCst) {
            return;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    panic!("the job still waits for the answers of a task that expired");
}

#[test]
fn a_task_made_before_the_servers_first_poll_is_dated_when_its_request_came() {
    let store = TaskStore::new(4).wall_clock_at_zero(0);
    let mut duo = Duo::new(inline_server(store.clone()), TASKS_CAPS);
    let mut app = inline_server(store.clone());
    duo.now = Instant::ZERO + Duration::from_secs(5);
    let params = RawJson::parse(br#"{"name":"quick","arguments":{"seconds":1}}"#).unwrap();
    duo.client.send_request(duo.now, "tools/call", Some(&params), RequestOptions::default()).unwrap();
    while let Output::Transmit(b) = duo.client.poll_output() {
        duo.to_server.extend_from_slice(&b);
    }
    let n = duo.server.handle_input(duo.now, &duo.to_server);
    duo.to_server.drain(..n);
    // This server (`app`) never polled: the request's own time dates the task.
    loop {
        match duo.server.poll_output() {
            Output::Event(e) => assert!(app.handle(&mut (), e).is_none()),
            Output::Transmit(b) => duo.lines.extend_from_slice(&b),
            Output::Idle { .. } => break,
        }
    }
    let lines = String::from_utf8_lossy(&duo.lines).into_owned();
    assert!(lines.contains(r#""createdAt":"1970-01-01T00:00:05.000Z""#), "{lines}");
}

#[test]
fn a_refused_poll_is_due_again_an_interval_later() {
    // A client whose era is not settled cannot send: the poll waits an interval.
    let mut c = Side::lone(Config::new(Role::Client, raw(CLIENT_INFO)).era(Era::Modern));
    let handle = RawJson::from_static(r#"{"taskId":"x","status":"working","pollIntervalMs":40}"#);
    let mut poller: TaskPoller = TaskPoller::new(handle, Instant::ZERO).unwrap();
    let due = poller.poll_timeout().unwrap();
    assert_eq!(poller.handle_timeout(&mut c.ep, due), Err(SendError::NotReady));
    assert_eq!(poller.poll_timeout(), Some(due + Duration::from_millis(40)), "not left in the past");
}
