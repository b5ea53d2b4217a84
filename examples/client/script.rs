//! The example client's script on the toolkit's [`BlockingClient`], over stdio or HTTP:
//! the opening (the `server/discover` probe, then the handshake for a server of that
//! era), a ping, an unknown method, every list walked to its end, the tool calls, one
//! with progress, one cancelled, one timed out, a 2026-07-28 listen stream, and the
//! server's requests (or a stateless server's `input_required` questions) answered by
//! [`Scripted`] hooks, printed as a readable transcript. The steps wait one after the
//! other; what comes meanwhile (progress, log messages, list changes, the server's
//! questions) is printed from the client's loop thread as it arrives.
//!
//! Over stdio, `--wire` prints every line each way and `--malformed` writes a broken
//! line between two messages, through the toolkit's wire mode
//! ([`StdioClientBuilder::tap_wire`](mcp_sansio::toolkit::client::StdioClientBuilder::tap_wire));
//! the server's answer to it, an error it cannot tie to a request, comes as a
//! misbehaviour. (`app.rs` runs the same plan on the bare endpoint for `examples/demo`.)

use std::io;
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use mcp_sansio::ProtocolVersion;
use mcp_sansio::adapters::stdio::{Exit, StderrMode};
use mcp_sansio::http::client::TransportMode;
use mcp_sansio::mcp::{
    ClientCapabilities, ContentBlock, CreateMessageParams, CreateMessageResult, ElicitAction, ElicitParams,
    ElicitResult, Implementation, ListChanged, ListRootsResult, MessageRole, OneOrMany, Root, StopReason, VersionSet,
};
use mcp_sansio::session::{IncomingNotification, Misbehavior};
use mcp_sansio::toolkit::client::{Answer, BlockingClient, ClientBuilder, ClientError, Closed, Hooks, Reply, Wire};
use mcp_sansio::toolkit::server::List;
use mcp_sansio::wire::{ErrorCode, RawJson};

use crate::plan::{CLIENT_NAME, ElicitPolicy, Plan, ToolCall, clip, describe_result, fill_form};

fn event(text: impl std::fmt::Display) {
    println!("   · {text}");
}

const OPENING: &str = "Opening: the probe, then the handshake if the server is of that era";

fn section(title: &str) {
    println!();
    println!("== {title}");
}

/// Runs `plan` against the server `command` starts, over stdio; `wire`: print every
/// line; `graces`: how long the server has to exit after its stdin closes, then after
/// SIGTERM.
pub fn over_stdio(command: &[String], plan: Plan, wire: bool, graces: [Duration; 2]) -> io::Result<bool> {
    println!("== Starting the server: {}", command.join(" "));
    let mut cmd = Command::new(&command[0]);
    cmd.args(&command[1..]);
    let mut builder = BlockingClient::builder(cmd).stderr(StderrMode::Inherit).shutdown_grace(graces[0], graces[1]);
    if wire || plan.malformed {
        let lines = Mutex::new([Vec::new(), Vec::new()]);
        builder = builder.tap_wire(move |way, bytes| {
            if wire {
                print_lines(&lines, way, bytes);
            }
        });
    }
    let seen = Seen::default();
    section(OPENING);
    let connected = configure(builder, &plan, &seen).spawn();
    Ok(run(connected, &plan, &seen, graces[0]))
}

/// Prints the complete lines among `bytes` (the rest waits for its end).
fn print_lines(partial: &Mutex<[Vec<u8>; 2]>, way: Wire, bytes: &[u8]) {
    let (i, arrow) = match way {
        Wire::Sent => (0, "→"),
        Wire::Received => (1, "←"),
    };
    let mut partial = partial.lock().unwrap_or_else(PoisonError::into_inner);
    let partial = &mut partial[i];
    partial.extend_from_slice(bytes);
    while let Some(end) = partial.iter().position(|&b| b == b'\n') {
        let line: Vec<u8> = partial.drain(..=end).collect();
        println!("      {arrow} {}", clip(&String::from_utf8_lossy(&line[..end]), 160));
    }
}

/// Runs `plan` against the server at `url`, over Streamable HTTP (falling back to
/// HTTP+SSE) or the transport `mode` names.
pub fn over_http(url: &str, mode: TransportMode, plan: Plan) -> io::Result<bool> {
    println!("== Connecting to {url} over HTTP ({mode:?})");
    let seen = Seen::default();
    section(OPENING);
    let connected = configure(BlockingClient::http(url).transport(mode), &plan, &seen).connect();
    Ok(run(connected, &plan, &seen, Duration::ZERO))
}

/// What the loop thread counts for the script: progress reports of the current call,
/// notifications on listen streams, whether the server answered a line it could not
/// read.
#[derive(Clone, Default)]
struct Seen {
    progress: Arc<AtomicU32>,
    on_stream: Arc<AtomicU32>,
    unreadable: Arc<AtomicBool>,
}

/// The settings `plan` asks for, whatever the transport.
fn configure<T>(builder: ClientBuilder<T>, plan: &Plan, seen: &Seen) -> ClientBuilder<T, Scripted> {
    let on_stream = Arc::clone(&seen.on_stream);
    let unreadable = Arc::clone(&seen.unreadable);
    let builder = builder
        .info(Implementation::new(CLIENT_NAME, env!("CARGO_PKG_VERSION")))
        .timeout(plan.request_timeout)
        .hooks(Scripted { elicit: plan.elicit, roots: plan.roots.clone(), version: plan.version })
        .notifications(move |n| heard(n, &on_stream))
        .misbehavior(move |m| broke(m, &unreadable));
    match plan.version {
        // One version named: its era is the session's.
        Some(v) => builder.versions(VersionSet::only(v)),
        None => builder.era(plan.era),
    }
}

/// A notification of the server's, printed.
fn heard(n: &IncomingNotification<'_>, on_stream: &AtomicU32) {
    let params = n.params.map(|p| clip(p.as_text(), 120)).unwrap_or_default();
    match n.subscription {
        Some(id) => {
            on_stream.fetch_add(1, Ordering::Relaxed);
            event(format_args!("notification {} on listen stream {id}: {params}", n.method.name()));
        }
        None => event(format_args!("notification {}: {params}", n.method.name())),
    }
}

/// A rule the server broke, printed (the session has dealt with it).
fn broke(m: &Misbehavior<'_>, unreadable: &AtomicBool) {
    match m {
        Misbehavior::UncorrelatedError { error } => {
            unreadable.store(true, Ordering::Relaxed);
            event(format_args!(
                "the server could not read one of our lines: error {} {:?}, without an id: it could not tell which",
                error.code.0,
                error.message.to_string()
            ));
        }
        Misbehavior::LateResponse { id } => {
            event(format_args!("a response to {id} crossed our cancellation; the endpoint dropped it"))
        }
        Misbehavior::UnknownProgressToken { token } => {
            event(format_args!("progress for {token}, which we no longer wait for; the endpoint dropped it"))
        }
        other => event(format_args!("the server broke a rule: {other:?}")),
    }
}

/// The script, the shutdown and the summary; whether every step behaved.
fn run(connected: io::Result<BlockingClient>, plan: &Plan, seen: &Seen, grace: Duration) -> bool {
    let mut script = Script { plan, seen, failures: Vec::new() };
    let client = match connected {
        Ok(client) => client,
        Err(e) => {
            println!("   · the session ended before the script did: {e}");
            return script.verdict(false);
        }
    };
    script.opening(&client);
    script.steps(&client);
    section("Shutdown");
    match client.close() {
        Ok(Closed::Exited(Exit::Exited(status))) => {
            event(format_args!("the server exited by itself after its stdin closed: {status}"))
        }
        Ok(Closed::Exited(Exit::Terminated(status))) => event(format_args!(
            "the server did not exit within {} ms of its stdin closing; SIGTERM ended it: {status}",
            grace.as_millis()
        )),
        Ok(Closed::Exited(Exit::Killed(status))) => {
            event(format_args!("the server ignored SIGTERM too; SIGKILL ended it: {status}"))
        }
        Ok(_) => event("session closed"),
        Err(e) => script.fail(format!("closing: {e}")),
    }
    script.verdict(true)
}

struct Script<'p> {
    plan: &'p Plan,
    seen: &'p Seen,
    failures: Vec<String>,
}

impl Script<'_> {
    fn fail(&mut self, what: String) {
        event(format_args!("FAILED: {what}"));
        self.failures.push(what);
    }

    fn verdict(&self, finished: bool) -> bool {
        println!();
        if self.failures.is_empty() {
            println!("== Summary: every step behaved");
        } else {
            println!("== Summary: {} step(s) failed", self.failures.len());
            for f in &self.failures {
                println!("   - {f}");
            }
        }
        finished && self.failures.is_empty()
    }

    fn opening(&mut self, client: &BlockingClient) {
        let peer = client.initialize_result().json();
        let version = client.protocol_version();
        // Handshake era: `serverInfo`; stateless: `_meta.io.modelcontextprotocol/serverInfo`.
        let info = peer
            .get("serverInfo")
            .or_else(|| peer.get("_meta")?.get("io.modelcontextprotocol/serverInfo"))
            .map_or("?".into(), |i| i.as_text().to_string());
        if version.has_handshake() {
            event(format_args!("negotiated protocol version {version} with {info}"));
        } else {
            event(format_args!(
                "server/discover found a 2026-07-28 server: protocol version {version} with {info}, no handshake"
            ));
        }
        if let Some(caps) = peer.get("capabilities") {
            event(format_args!("server capabilities: {caps}"));
        }
        if let Some(text) = peer.get("instructions").and_then(|i| i.as_str()) {
            event(format_args!("instructions: {}", clip(&text.to_string(), 120)));
        }
    }

    fn steps(&mut self, client: &BlockingClient) {
        let plan = self.plan;
        let stateless = !client.protocol_version().has_handshake();
        if plan.ping {
            self.ping(client, stateless);
        }
        if let Some(method) = &plan.unknown_method {
            self.unknown(client, method);
        }
        if plan.lists {
            for list in [List::Tools, List::Resources, List::Templates, List::Prompts] {
                self.walk(client, list);
            }
        }
        for call in &plan.calls {
            section(&format!("tools/call {} {}", call.name, call.args));
            self.call(client, call);
        }
        if let Some(call) = &plan.progress {
            self.progress(client, call);
        }
        if let Some(call) = &plan.cancel {
            self.cancel(client, call);
        }
        if let Some((call, after)) = &plan.timeout {
            self.timeout(client, call, *after);
        }
        if plan.listen && stateless {
            self.listen(client);
        }
        if plan.malformed {
            self.malformed(client);
            self.ping(client, stateless);
        }
    }

    fn malformed(&mut self, client: &BlockingClient) {
        section("A malformed line");
        self.seen.unreadable.store(false, Ordering::Relaxed);
        let line = b"{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"tools/list\",\"params\":{\n";
        if let Err(e) = client.write_raw(line) {
            return self.fail(format!("could not write the malformed line: {e}"));
        }
        std::thread::sleep(self.plan.quiet);
        if !self.seen.unreadable.load(Ordering::Relaxed) {
            event("the server did not answer the malformed line (JSON-RPC asks for a -32700 error)");
        }
    }

    fn ping(&mut self, client: &BlockingClient, stateless: bool) {
        if stateless {
            return section("Ping: not in 2026-07-28");
        }
        section("Ping");
        let sent = Instant::now();
        match client.request("ping", &RawJson::EMPTY_OBJECT) {
            Ok(_) => event(format_args!("pong after {} µs", sent.elapsed().as_micros())),
            Err(e) => self.fail(format!("ping: {e}")),
        }
    }

    fn unknown(&mut self, client: &BlockingClient, method: &str) {
        section(&format!("An unknown method: {method}"));
        match client.request(method, &RawJson::EMPTY_OBJECT) {
            Err(ClientError::Error { code, message, .. }) if code == ErrorCode::METHOD_NOT_FOUND => {
                event(format_args!("{method} was refused with {} {message}, as expected", code.0))
            }
            Err(e) => self.fail(format!("{method} was refused with {e}, not -32601")),
            Ok(answer) => self.fail(format!("{method} was answered with a result: {answer}")),
        }
    }

    fn walk(&mut self, client: &BlockingClient, list: List) {
        let capability = match list {
            List::Tools => "tools",
            List::Resources | List::Templates => "resources",
            List::Prompts => "prompts",
        };
        if client.initialize_result().json().get("capabilities").and_then(|c| c.get(capability)).is_none() {
            return section(&format!("{}: not offered by this server", list.method()));
        }
        section(&format!("Pagination: {} to the last page", list.method()));
        let key = match list {
            List::Tools | List::Prompts => "name",
            List::Resources => "uri",
            List::Templates => "uriTemplate",
        };
        let (mut items, mut pages) = (0, 0);
        for page in client.list(list) {
            let page = match page {
                Ok(page) => page,
                Err(e) => return self.fail(format!("{}: {e}", list.method())),
            };
            pages += 1;
            let names: Vec<String> = page
                .json()
                .get(list.field())
                .map(|a| a.elements().filter_map(|e| e.get(key)?.as_str().map(|s| s.to_string())).collect())
                .unwrap_or_default();
            event(format_args!("page {pages}: {}", names.join(", ")));
            items += names.len();
            if let Some(cursor) = page.json().get("nextCursor").and_then(|c| c.as_str()) {
                event(format_args!("nextCursor {cursor}: ask for the next page"));
            }
        }
        event(format_args!("no nextCursor: that was the last page ({items} items in {pages} page(s))"));
    }

    /// A call's arguments as JSON (checked when the command line was read).
    fn arguments(call: &ToolCall) -> RawJson<'_> {
        RawJson::parse(call.args.as_bytes()).unwrap_or(RawJson::EMPTY_OBJECT)
    }

    fn call(&mut self, client: &BlockingClient, call: &ToolCall) {
        let answer = client.call_tool(&call.name, &Self::arguments(call));
        self.answered(call, answer);
    }

    fn answered(&mut self, call: &ToolCall, answer: Result<Answer, ClientError>) {
        match answer {
            Err(e) if call.expect_error => event(format_args!("{} was refused, as expected: {e}", call.name)),
            Ok(_) if call.expect_error => self.fail(format!("{} was expected to fail", call.name)),
            Ok(answer) => event(format_args!("{} answered: {}", call.name, describe_result(answer.json()))),
            Err(e) => self.fail(format!("{} was answered with an error: {e}", call.name)),
        }
    }

    /// A progress callback that prints each report and counts it.
    fn on_progress(&self) -> impl FnMut(f64, Option<f64>, Option<&str>) + Send + 'static {
        let seen = Arc::clone(&self.seen.progress);
        seen.store(0, Ordering::Relaxed);
        move |progress, total, message| {
            seen.fetch_add(1, Ordering::Relaxed);
            let total = total.map_or(String::new(), |t| format!(" of {t}"));
            let message = message.map_or(String::new(), |m| format!(" ({m})"));
            event(format_args!("progress on request: {progress}{total}{message}"));
        }
    }

    fn progress(&mut self, client: &BlockingClient, call: &ToolCall) {
        section(&format!("Progress: tools/call {} {} with a progress token", call.name, call.args));
        let answer = client.call(&call.name, &Self::arguments(call)).progress(self.on_progress()).send();
        let ok = answer.is_ok();
        self.answered(call, answer);
        if ok && self.seen.progress.load(Ordering::Relaxed) == 0 {
            self.fail(format!("{} reported no progress", call.name));
        }
    }

    fn cancel(&mut self, client: &BlockingClient, call: &ToolCall) {
        let after = self.plan.cancel_after;
        section(&format!(
            "Cancellation: tools/call {} {}, cancelled after {} ms",
            call.name,
            call.args,
            after.as_millis()
        ));
        let pending = match client.call(&call.name, &Self::arguments(call)).progress(self.on_progress()).start() {
            Ok(pending) => pending,
            Err(e) => return self.fail(format!("could not send {}: {e}", call.name)),
        };
        let id = pending.id().clone();
        std::thread::sleep(after);
        let reports = self.seen.progress.load(Ordering::Relaxed);
        event(format_args!("cancelling request {id} after {reports} progress report(s); no answer will come"));
        match pending.cancel() {
            Err(ClientError::Cancelled) => self.quiet(&id),
            Ok(_) => event(format_args!("{} finished before we cancelled it", call.name)),
            Err(e) => self.fail(format!("could not cancel {id}: {e}")),
        }
    }

    fn timeout(&mut self, client: &BlockingClient, call: &ToolCall, after: Duration) {
        section(&format!("A timeout: tools/call {} {} with {} ms to answer", call.name, call.args, after.as_millis()));
        let pending = match client.call(&call.name, &Self::arguments(call)).timeout(after).start() {
            Ok(pending) => pending,
            Err(e) => return self.fail(format!("could not send {}: {e}", call.name)),
        };
        let id = pending.id().clone();
        match pending.wait() {
            Err(ClientError::TimedOut) => {
                event(format_args!("request {id} timed out: the endpoint gives up on it and tells the server"));
                self.quiet(&id);
            }
            Ok(answer) => {
                self.fail(format!("{} answered before its timeout: {}", call.name, describe_result(answer.json())))
            }
            Err(e) => self.fail(format!("{}: {e}", call.name)),
        }
    }

    /// Lets the stray messages of an abandoned request come (the client drops them).
    fn quiet(&self, id: &impl std::fmt::Display) {
        std::thread::sleep(self.plan.quiet);
        event(format_args!("{} ms later: nothing more about request {id}", self.plan.quiet.as_millis()));
    }

    fn listen(&mut self, client: &BlockingClient) {
        section("A listen stream: subscriptions/listen");
        self.seen.on_stream.store(0, Ordering::Relaxed);
        let filter = RawJson::parse(br#"{"notifications":{"toolsListChanged":true}}"#).expect("valid JSON");
        let stream = match client.listen(&filter) {
            Ok(stream) => stream,
            // A stateless server need not offer listen streams: -32601 skips the step.
            Err(ClientError::Error { code, message, .. }) if code == ErrorCode::METHOD_NOT_FOUND => {
                return event(format_args!("listen stream refused: the server offers none ({} {message})", code.0));
            }
            Err(e) => return self.fail(format!("listen stream refused: {e}")),
        };
        let id = stream.id().clone();
        event(format_args!("listen stream {id} acknowledged; granted {}", stream.granted()));
        // Change the tool list (and back): the notifications come on the stream.
        let toggle = ToolCall::parse("toggle_extra_tool").expect("valid");
        self.call(client, &toggle);
        self.call(client, &toggle);
        std::thread::sleep(self.plan.quiet);
        let heard = self.seen.on_stream.load(Ordering::Relaxed);
        if heard == 0 {
            self.fail(format!("no notification arrived on listen stream {id}"));
        }
        event(format_args!("{heard} notification(s) on stream {id}; cancelling it"));
        stream.end();
    }
}

/// Says so when a question is one of a stateless server's `input_required` results
/// (answered, then the call sent again by the toolkit).
fn input_required(reply: &Reply<'_, '_>, method: &str) {
    if let Some(key) = reply.input_key() {
        event(format_args!("input required under {key}: {method}"));
    }
}

/// The server's requests (or a stateless server's input requests), answered by the
/// plan: sampling with a scripted message, elicitation by `--elicit`, roots by `--root`.
struct Scripted {
    elicit: ElicitPolicy,
    roots: Vec<String>,
    version: Option<ProtocolVersion>,
}

impl Hooks for Scripted {
    fn capabilities(&self) -> ClientCapabilities<'static> {
        let mut caps = ClientCapabilities::new().sampling();
        // Elicitation exists from 2025-06-18: not declared to a session that cannot have it.
        if self.version.is_none_or(|v| v >= ProtocolVersion::V2025_06_18) {
            caps = caps.elicitation();
        }
        if !self.roots.is_empty() {
            caps = caps.roots(ListChanged::NO);
        }
        caps
    }

    fn sampling(&mut self, params: CreateMessageParams<'_>, reply: Reply<'_, '_>) {
        input_required(&reply, "sampling/createMessage");
        let prompt = params
            .messages
            .iter()
            .filter_map(Result::ok)
            .find_map(|m| m.content.iter().find_map(|b| b.ok()?.as_text()))
            .map(|t| t.to_string())
            .unwrap_or_default();
        event(format_args!("the server asks our model (sampling/createMessage): {prompt:?}"));
        let text = format!("A scripted answer to: {prompt}");
        reply.respond(&CreateMessageResult {
            role: MessageRole::Assistant,
            content: OneOrMany::One(ContentBlock::text(&text)),
            model: "scripted-model".into(),
            stop_reason: Some(StopReason::EndTurn),
            result_type: None,
            meta: None,
        });
    }

    fn elicitation(&mut self, params: ElicitParams<'_>, reply: Reply<'_, '_>) {
        input_required(&reply, "elicitation/create");
        let (message, content) = match params {
            ElicitParams::Form(form) => (form.message.to_string(), fill_form(form.requested_schema)),
            ElicitParams::Url(url) => (format!("{} ({})", url.message, url.url), None),
        };
        let action = match (self.elicit, &content) {
            (ElicitPolicy::Accept, Some(_)) => ElicitAction::Accept,
            (ElicitPolicy::Cancel, _) => ElicitAction::Cancel,
            _ => ElicitAction::Decline,
        };
        let content = content.filter(|_| action == ElicitAction::Accept);
        event(format_args!(
            "the server asks the user (elicitation/create): {message:?}; we answer {action:?} {}",
            content.as_deref().unwrap_or("")
        ));
        let content = content.as_deref().and_then(|c| RawJson::parse(c.as_bytes()).ok());
        reply.respond(&ElicitResult { action, content, result_type: None, meta: None });
    }

    fn roots(&mut self, reply: Reply<'_, '_>) {
        input_required(&reply, "roots/list");
        event("the server asks for our roots (roots/list)");
        let roots: Vec<Root<'_>> = self.roots.iter().map(|r| Root::new(r, None)).collect();
        reply.respond(&ListRootsResult::new(&roots));
    }
}
