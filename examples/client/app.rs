//! The example client's script on the bare endpoint, which `examples/demo` runs to show
//! every line on the wire with what it means (`examples/client` itself runs the same
//! [`Plan`] on the toolkit's client: `script.rs`): a scripted session (handshake, ping,
//! every list walked to the end, tool calls, progress, cancellation, a timeout, a
//! malformed line) printed as a readable transcript, and scripted answers to the
//! server's own requests (sampling, elicitation, roots).
//!
//! The session is of either era: by default the client probes with `server/discover`
//! and speaks 2026-07-28 to a server that answers it, the handshake versions to one
//! that does not (`--era modern|legacy|auto`). In the stateless era there is no ping,
//! the server's requests come as `input_required` results (answered by the same script,
//! then the call is sent again), and change notifications come on a listen stream.
//!
//! The script advances in [`App::on_idle`], which has the endpoint: it sends the next
//! request when the previous one has been answered. Responses, progress and the
//! server's requests arrive as events in [`App::on_event`], which prints them and
//! answers the server's requests through their handles.

use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_sansio::adapters::stdio::{App, Mailbox};
use mcp_sansio::mcp::{
    Capability, ContentBlock, CreateMessageParams, CreateMessageResult, ElicitAction, ElicitParams, ElicitResult,
    ListRootsResult, MessageRole, Method, OneOrMany, Role, Root, StopReason, VersionSet,
};
use mcp_sansio::session::{
    Config, Endpoint, Event, IncomingRequest, Misbehavior, Page, PageWalker, RequestOptions, RetryTicket, State,
};
use mcp_sansio::time::Instant;
use mcp_sansio::wire::{ErrorCode, NO_PARAMS, RawJson, RequestId};

use crate::plan::{ElicitPolicy, Plan, ToolCall, clip, describe_result, fill_form};

/// Requests of ours in flight at once.
pub const OUT: usize = 8;
/// Requests of the server's in flight at once.
pub const IN: usize = 8;

/// The endpoint this client runs.
pub type ClientEndpoint<'a> = Endpoint<'a, OUT, IN>;

/// `clientInfo`.
pub const CLIENT_INFO: &str =
    concat!(r#"{"name":"mcp-sansio-example-client","version":""#, env!("CARGO_PKG_VERSION"), r#""}"#);

impl Plan {
    /// The capabilities object this client declares.
    pub fn capabilities(&self) -> String {
        let roots = if self.roots.is_empty() { "" } else { r#","roots":{"listChanged":false}"# };
        // Elicitation exists from 2025-06-18: not declared to a session that cannot have it.
        let elicitation = match self.version {
            Some(v) if v < mcp_sansio::ProtocolVersion::V2025_06_18 => "",
            _ => r#","elicitation":{}"#,
        };
        format!(r#"{{"sampling":{{}}{elicitation}{roots}}}"#)
    }

    /// The endpoint configuration; `capabilities` is [`Plan::capabilities`].
    pub fn config<'a>(&self, capabilities: &'a str) -> Config<'a> {
        let info = RawJson::parse(CLIENT_INFO.as_bytes()).expect("valid JSON");
        let config = Config::new(Role::Client, info)
            .capabilities(RawJson::parse(capabilities.as_bytes()).expect("valid JSON"))
            .request_timeouts(self.request_timeout, self.request_timeout * 10);
        match self.version {
            // One version named: its era is the session's (`era(Auto)` would add the
            // other era's versions back, and a dual-era server would take the probe).
            Some(v) => config.versions(VersionSet::only(v)),
            None => config.era(self.era),
        }
    }
}

// ---- the transcript ---------------------------------------------------------------

/// Prints complete lines passing in one direction.
struct LineTap {
    arrow: &'static str,
    partial: Vec<u8>,
}

impl LineTap {
    fn pass(&mut self, bytes: &[u8]) {
        self.partial.extend_from_slice(bytes);
        while let Some(end) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=end).collect();
            let text = String::from_utf8_lossy(&line[..end]);
            println!("      {} {}", self.arrow, clip(&text, 160));
        }
    }
}

/// A reader that prints each line read (what the server sent).
pub struct TapReader<R> {
    inner: R,
    tap: Option<LineTap>,
}

impl<R: Read> TapReader<R> {
    /// Wraps `inner`; prints when `show`.
    pub fn new(inner: R, show: bool) -> Self {
        TapReader { inner, tap: show.then(|| LineTap { arrow: "←", partial: Vec::new() }) }
    }
}

impl<R: Read> Read for TapReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if let Some(tap) = &mut self.tap {
            tap.pass(&buf[..n]);
        }
        Ok(n)
    }
}

/// The writer to the server, shared by the loop (frames) and the script (a deliberately
/// malformed line), optionally printing each line, and closable from either side.
pub struct SharedWriter(Arc<Mutex<Shared>>);

/// The stream (gone once closed) and the optional printer.
type Shared = (Option<Box<dyn Write + Send>>, Option<LineTap>);

impl Clone for SharedWriter {
    fn clone(&self) -> Self {
        SharedWriter(Arc::clone(&self.0))
    }
}

impl SharedWriter {
    /// Wraps `inner`; prints when `show`.
    pub fn new(inner: impl Write + Send + 'static, show: bool) -> Self {
        let tap = show.then(|| LineTap { arrow: "→", partial: Vec::new() });
        SharedWriter(Arc::new(Mutex::new((Some(Box::new(inner)), tap))))
    }

    /// Closes the stream (the server sees the end of its input), whoever else holds it.
    pub fn close(&self) {
        if let Ok(mut inner) = self.0.lock() {
            inner.0 = None;
        }
    }
}

impl Write for SharedWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut guard = self.0.lock().map_err(|_| io::Error::other("poisoned"))?;
        let (inner, tap) = &mut *guard;
        let inner = inner.as_mut().ok_or_else(|| io::Error::from(io::ErrorKind::BrokenPipe))?;
        let n = inner.write(buf)?;
        if let Some(tap) = tap {
            tap.pass(&buf[..n]);
        }
        Ok(n)
    }

    /// Prints before writing, so that a line never shows after the answer to it.
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        let mut guard = self.0.lock().map_err(|_| io::Error::other("poisoned"))?;
        let (inner, tap) = &mut *guard;
        let inner = inner.as_mut().ok_or_else(|| io::Error::from(io::ErrorKind::BrokenPipe))?;
        if let Some(tap) = tap {
            tap.pass(buf);
        }
        inner.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        let mut guard = self.0.lock().map_err(|_| io::Error::other("poisoned"))?;
        match &mut guard.0 {
            Some(inner) => inner.flush(),
            None => Ok(()),
        }
    }
}

// ---- the script -------------------------------------------------------------------

/// The paginated lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum List {
    Tools,
    Resources,
    Templates,
    Prompts,
}

impl List {
    fn method(self) -> &'static str {
        match self {
            List::Tools => "tools/list",
            List::Resources => "resources/list",
            List::Templates => "resources/templates/list",
            List::Prompts => "prompts/list",
        }
    }
    fn field(self) -> &'static str {
        match self {
            List::Tools => "tools",
            List::Resources => "resources",
            List::Templates => "resourceTemplates",
            List::Prompts => "prompts",
        }
    }
    fn key(self) -> &'static str {
        match self {
            List::Tools | List::Prompts => "name",
            List::Resources => "uri",
            List::Templates => "uriTemplate",
        }
    }
    fn capability(self) -> Capability {
        match self {
            List::Tools => Capability::Tools,
            List::Resources | List::Templates => Capability::Resources,
            List::Prompts => Capability::Prompts,
        }
    }
}

#[derive(Clone, Debug)]
enum Step {
    Ping,
    Walk(List),
    Call(ToolCall),
    Progress(ToolCall),
    Cancel(ToolCall),
    Timeout(ToolCall, Duration),
    Malformed,
    Unknown(String),
    /// 2026-07-28: a listen stream, a tool that changes the tool list, the notification
    /// on the stream, then the stream cancelled.
    Listen,
    /// Watch the listen stream a while, then cancel it.
    EndListen(RequestId),
}

/// What the script waits for.
enum Waiting {
    /// Nothing: start the next step.
    Nothing,
    /// The answer to `id`.
    Answer { id: RequestId, step: Step, sent: std::time::Instant },
    /// The next page of `list`.
    NextPage(List),
    /// Cancel `id` at `at`.
    CancelAt { id: RequestId, at: Instant },
    /// Watch what arrives until `until`.
    Quiet { until: Instant },
    /// 2026-07-28: send `step` again after its `input_required` result, with these
    /// answers (JSON text of the `inputResponses` object).
    Retry { step: Step, ticket: RetryTicket, responses: String, state: Option<String> },
    /// 2026-07-28: the listen stream `id` is open; the acknowledgement is awaited.
    Subscribing { id: RequestId },
    /// 2026-07-28: watching the listen stream `id` until `until`, then cancelling it.
    Listening { id: RequestId, until: Instant },
}

/// The example client.
pub struct ClientApp {
    plan: Plan,
    steps: VecDeque<Step>,
    waiting: Waiting,
    walker: PageWalker<256>,
    walked: Vec<String>,
    /// The cancelled (or timed-out) request, whose stray messages are expected.
    abandoned: Option<RequestId>,
    /// Progress reports seen for the current call.
    progress_seen: u32,
    /// Whether the malformed line was sent and whether the server answered it.
    malformed: Option<bool>,
    writer: Option<SharedWriter>,
    ready: bool,
    /// Notifications that arrived on our listen stream.
    on_stream: u32,
    /// What went wrong, for the summary and the exit status.
    pub failures: Vec<String>,
    /// Whether the script has run to its end.
    pub finished: bool,
}

/// Prints a section title and, in teaching mode, its explanation (each one once).
fn note(plan: &Plan, title: &str, teaching: &'static str) {
    static TAUGHT: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());
    println!();
    println!("== {title}");
    let first = match TAUGHT.lock() {
        Ok(mut taught) if !taught.contains(&teaching) => {
            taught.push(teaching);
            true
        }
        _ => false,
    };
    if plan.teach && first {
        for line in teaching.lines() {
            println!("   {line}");
        }
    }
}

const HANDSHAKE: &str = "A client of both eras first sends `server/discover` with its newest stateless\n\
     version (2026-07-28) in `_meta`. A modern server answers with its versions and\n\
     capabilities, and every request then carries its own `_meta`: no handshake. Any other\n\
     answer (an error, silence) means a handshake-era server: the client sends `initialize`\n\
     with the newest version it supports; the server answers with that version if it supports\n\
     it too (else its own newest), its capabilities and who it is; `notifications/initialized`\n\
     opens the session. Before that, only pings (and the server's log messages) may pass.";

fn event(text: impl std::fmt::Display) {
    println!("   · {text}");
}

impl ClientApp {
    /// A client that will run `plan`. `writer` is the loop's writer, for the malformed line.
    pub fn new(plan: Plan, writer: Option<SharedWriter>) -> Self {
        let mut steps = VecDeque::new();
        if plan.ping {
            steps.push_back(Step::Ping);
        }
        steps.extend(plan.unknown_method.clone().map(Step::Unknown));
        if plan.lists {
            steps.extend([List::Tools, List::Resources, List::Templates, List::Prompts].map(Step::Walk));
        }
        steps.extend(plan.calls.iter().cloned().map(Step::Call));
        steps.extend(plan.progress.clone().map(Step::Progress));
        steps.extend(plan.cancel.clone().map(Step::Cancel));
        steps.extend(plan.timeout.clone().map(|(c, d)| Step::Timeout(c, d)));
        if plan.listen {
            steps.push_back(Step::Listen);
        }
        if plan.malformed && writer.is_some() {
            steps.push_back(Step::Malformed);
            steps.push_back(Step::Ping);
        }
        // The endpoint queued `initialize` when it was created: it goes out first.
        note(&plan, "Opening: the probe, then the handshake if the server is of that era", HANDSHAKE);
        ClientApp {
            plan,
            steps,
            waiting: Waiting::Nothing,
            walker: PageWalker::new(1000),
            walked: Vec::new(),
            abandoned: None,
            progress_seen: 0,
            malformed: None,
            writer,
            ready: false,
            on_stream: 0,
            failures: Vec::new(),
            finished: false,
        }
    }

    fn fail(&mut self, what: String) {
        event(format_args!("FAILED: {what}"));
        self.failures.push(what);
    }

    /// Starts `step`; `false` if it was skipped.
    fn start(&mut self, step: Step, ep: &mut ClientEndpoint<'_>, now: Instant) -> bool {
        let options = RequestOptions::default();
        let stateless = ep.state() == State::Stateless;
        let sent = match &step {
            Step::Ping if stateless => {
                note(
                    &self.plan,
                    "Ping: not in 2026-07-28",
                    "The stateless era has no ping: every request stands alone.",
                );
                return false;
            }
            Step::Listen if !stateless => return false,
            Step::EndListen(id) => {
                self.waiting = Waiting::Listening { id: id.clone(), until: now + self.plan.quiet };
                return true;
            }
            Step::Listen => {
                note(
                    &self.plan,
                    "A listen stream: subscriptions/listen",
                    "In 2026-07-28 change notifications come on a listen stream: a long-lived request\n\
                     the server acknowledges with what it will send, then tags every notification\n\
                     with the stream's id. The client ends it with notifications/cancelled.",
                );
                let filter = RawJson::parse(br#"{"notifications":{"toolsListChanged":true}}"#).expect("valid JSON");
                match ep.send_request(now, "subscriptions/listen", Some(&filter), options) {
                    Ok(id) => {
                        event(format_args!("listen stream {id} opened"));
                        self.on_stream = 0;
                        self.waiting = Waiting::Subscribing { id };
                        return true;
                    }
                    Err(e) => Err(e),
                }
            }
            Step::Ping => {
                note(
                    &self.plan,
                    "Ping",
                    "Either side may ping the other at any time; the answer is an empty result.\n\
                     The endpoint answers pings by itself: the application never sees them.",
                );
                ep.send_request(now, "ping", NO_PARAMS, options)
            }
            Step::Walk(list) => {
                if !ep.peer_capabilities().contains(list.capability()) {
                    note(&self.plan, &format!("{}: not offered by this server", list.method()), "");
                    return false;
                }
                note(
                    &self.plan,
                    &format!("Pagination: {} to the last page", list.method()),
                    "A list comes in pages. Each page but the last carries `nextCursor`, an opaque token\n\
                     the client sends back as `cursor` to get the next one. This server signs its\n\
                     cursors, so a forged or stale one is refused with -32602.",
                );
                self.walker = PageWalker::new(1000);
                self.walked.clear();
                return self.next_page(*list, ep, now);
            }
            Step::Call(call) => {
                note(&self.plan, &format!("tools/call {} {}", call.name, call.args), call_note(&call.name));
                self.call(call, ep, now, options)
            }
            Step::Progress(call) => {
                note(
                    &self.plan,
                    &format!("Progress: tools/call {} {} with a progress token", call.name, call.args),
                    "The request carries `_meta.progressToken`; the server reports\n\
                     `notifications/progress` with increasing values until it answers. Each report\n\
                     also restarts the request's idle timeout.",
                );
                self.progress_seen = 0;
                self.call(call, ep, now, RequestOptions::with_progress())
            }
            Step::Cancel(call) => {
                note(
                    &self.plan,
                    &format!(
                        "Cancellation: tools/call {} {}, cancelled after {} ms",
                        call.name,
                        call.args,
                        self.plan.cancel_after.as_millis()
                    ),
                    "The client sends `notifications/cancelled` with the request's id. The server stops\n\
                     the work and never answers it; a response already on its way is dropped.",
                );
                self.progress_seen = 0;
                match self.call(call, ep, now, RequestOptions::with_progress()) {
                    Ok(id) => {
                        self.waiting = Waiting::CancelAt { id, at: now + self.plan.cancel_after };
                        return true;
                    }
                    Err(e) => Err(e),
                }
            }
            Step::Timeout(call, after) => {
                note(
                    &self.plan,
                    &format!(
                        "A timeout: tools/call {} {} with {} ms to answer",
                        call.name,
                        call.args,
                        after.as_millis()
                    ),
                    "When the answer takes too long, the endpoint gives up: it sends\n\
                     `notifications/cancelled` itself and reports the timeout.",
                );
                self.call(call, ep, now, RequestOptions::default().timeout(*after))
            }
            Step::Unknown(method) => {
                note(
                    &self.plan,
                    &format!("An unknown method: {method}"),
                    "A request for a method the server does not have is answered with the JSON-RPC\n\
                     error -32601 (Method not found); the session goes on.",
                );
                ep.send_request(now, method, NO_PARAMS, options)
            }
            Step::Malformed => {
                note(
                    &self.plan,
                    "A malformed line",
                    "A line that is not JSON cannot be answered by id: JSON-RPC asks for a -32700 parse\n\
                     error with a null id (from 2025-11-25 on, with no id at all). The session goes on.",
                );
                let line = b"{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"tools/list\",\"params\":{\n";
                if let Some(w) = &mut self.writer
                    && let Err(e) = w.write_all(line).and_then(|()| w.flush())
                {
                    self.fail(format!("could not write the malformed line: {e}"));
                }
                self.malformed = Some(false);
                self.waiting = Waiting::Quiet { until: now + self.plan.quiet };
                return true;
            }
        };
        match sent {
            Ok(id) => {
                self.waiting = Waiting::Answer { id, step, sent: std::time::Instant::now() };
                true
            }
            Err(e) => {
                self.fail(format!("could not send {step:?}: {e}"));
                false
            }
        }
    }

    fn call(
        &mut self,
        call: &ToolCall,
        ep: &mut ClientEndpoint<'_>,
        now: Instant,
        options: RequestOptions,
    ) -> Result<RequestId, mcp_sansio::session::SendError> {
        #[derive(serde::Serialize)]
        struct Params<'p> {
            name: &'p str,
            arguments: RawJson<'p>,
        }
        let arguments = RawJson::parse(call.args.as_bytes()).unwrap_or(RawJson::EMPTY_OBJECT);
        ep.send_request(now, "tools/call", Some(&Params { name: &call.name, arguments }), options)
    }

    fn next_page(&mut self, list: List, ep: &mut ClientEndpoint<'_>, now: Instant) -> bool {
        let params = self.walker.params();
        match ep.send_request(now, list.method(), Some(&params), RequestOptions::default()) {
            Ok(id) => {
                self.waiting = Waiting::Answer { id, step: Step::Walk(list), sent: std::time::Instant::now() };
                true
            }
            Err(e) => {
                self.fail(format!("could not send {}: {e}", list.method()));
                false
            }
        }
    }

    /// A response to the request the script waits for.
    fn answered(&mut self, step: Step, result: Result<RawJson<'_>, String>, elapsed: Duration) {
        self.waiting = Waiting::Nothing;
        let result = match (result, &step) {
            (Err(error), Step::Call(call)) if call.expect_error => {
                return event(format_args!("{} was refused, as expected: {error}", call.name));
            }
            (Ok(_), Step::Call(call)) if call.expect_error => {
                return self.fail(format!("{} was expected to fail", call.name));
            }
            (Err(error), Step::Unknown(method)) if error.starts_with("-32601 ") => {
                return event(format_args!("{method} was refused with {error}, as expected"));
            }
            (Err(error), Step::Unknown(method)) => {
                return self.fail(format!("{method} was refused with {error}, not -32601"));
            }
            (Ok(r), Step::Unknown(method)) => {
                return self
                    .fail(format!("{method} was answered with a result: {}", String::from_utf8_lossy(r.as_bytes())));
            }
            (Ok(r), _) => r,
            (Err(error), _) => {
                return self.fail(format!("{step:?} was answered with an error: {error}"));
            }
        };
        match step {
            Step::Ping => event(format_args!("pong after {} µs", elapsed.as_micros())),
            Step::Walk(list) => {
                let names: Vec<String> = result
                    .get(list.field())
                    .map(|a| a.elements().filter_map(|e| e.get(list.key())?.as_str().map(|s| s.to_string())).collect())
                    .unwrap_or_default();
                event(format_args!("page {}: {}", self.walker.pages() + 1, names.join(", ")));
                self.walked.extend(names);
                match self.walker.next_page(result) {
                    Ok(Page::More) => {
                        let cursor = self.walker.cursor().unwrap_or_default();
                        event(format_args!("nextCursor {cursor}: ask for the next page"));
                        self.waiting = Waiting::NextPage(list);
                    }
                    Ok(Page::Done) => event(format_args!(
                        "no nextCursor: that was the last page ({} items in {} page(s))",
                        self.walked.len(),
                        self.walker.pages()
                    )),
                    Err(e) => self.fail(format!("{}: {e}", list.method())),
                }
            }
            Step::Call(call) => event(format_args!("{} answered: {}", call.name, describe_result(result))),
            Step::Progress(call) => {
                event(format_args!("{} answered: {}", call.name, describe_result(result)));
                if self.progress_seen == 0 {
                    self.fail(format!("{} reported no progress", call.name));
                }
            }
            Step::Cancel(call) => event(format_args!("{} finished before we cancelled it", call.name)),
            Step::Timeout(call, _) => {
                self.fail(format!("{} answered before its timeout: {}", call.name, describe_result(result)))
            }
            Step::Malformed | Step::Unknown(_) | Step::Listen | Step::EndListen(_) => {}
        }
    }

    /// 2026-07-28: the server needs input before it answers `step`: the same script as
    /// for a handshake-era server's requests answers each input request, and the call
    /// is sent again (on the next idle turn, which has the endpoint).
    fn input_required(&mut self, step: Step, result: RawJson<'_>, ticket: RetryTicket) {
        let requests = result.get("inputRequests");
        let mut responses = String::from("{");
        for (i, (key, request)) in requests.into_iter().flat_map(|r| r.members()).enumerate() {
            let method = request.get("method").and_then(|m| m.as_str()).map(|m| m.to_string()).unwrap_or_default();
            let params = request.get("params");
            event(format_args!("input required under {key}: {method}"));
            let answer = match self.answer_input(&method, params) {
                Ok(answer) => answer,
                Err(why) => return self.fail(format!("cannot answer the input request {key}: {why}")),
            };
            if i > 0 {
                responses.push(',');
            }
            responses.push_str(&serde_json::to_string(&key.to_string()).unwrap_or_default());
            responses.push(':');
            responses.push_str(&answer);
        }
        responses.push('}');
        let state = result.get("requestState").and_then(|s| s.as_str()).map(|s| s.to_string());
        event(format_args!(
            "retrying with a new id, the answers{}",
            if state.is_some() { " and the requestState as received" } else { "" }
        ));
        self.waiting = Waiting::Retry { step, ticket, responses, state };
    }

    /// The server's request: answered by the scripted policy.
    fn serve(&mut self, req: &mut IncomingRequest<'_>) {
        let method = req.method.name().to_string();
        match self.answer_input(&method, req.params) {
            Ok(answer) => {
                let _ = req.respond(&RawJson::parse(answer.as_bytes()).expect("valid JSON"));
            }
            Err(_) => {
                event(format_args!("the server sent {method}, which this client does not serve"));
                let _ = req.respond_error(ErrorCode::METHOD_NOT_FOUND, "Method not found");
            }
        }
    }

    /// The scripted answer to a server's request, as JSON text: what a handshake-era
    /// server's request and a 2026-07-28 input request get alike.
    fn answer_input(&mut self, method: &str, params: Option<RawJson<'_>>) -> Result<String, String> {
        match Method::from_known_name(method) {
            Some(Method::SamplingCreateMessage) => {
                let prompt = params
                    .and_then(|p| p.decode::<CreateMessageParams<'_>>().ok())
                    .and_then(|p| {
                        p.messages
                            .iter()
                            .filter_map(Result::ok)
                            .find_map(|m| m.content.iter().find_map(|b| b.ok()?.as_text()))
                    })
                    .map(|t| t.to_string())
                    .unwrap_or_default();
                event(format_args!("the server asks our model (sampling/createMessage): {prompt:?}"));
                let text = format!("A scripted answer to: {prompt}");
                let result = CreateMessageResult {
                    role: MessageRole::Assistant,
                    content: OneOrMany::One(ContentBlock::text(&text)),
                    model: "scripted-model".into(),
                    stop_reason: Some(StopReason::EndTurn),
                    result_type: None,
                    meta: None,
                };
                serde_json::to_string(&result).map_err(|e| e.to_string())
            }
            Some(Method::ElicitationCreate) => {
                let params = params.and_then(|p| p.decode::<ElicitParams<'_>>().ok());
                let (message, content) = match params {
                    Some(ElicitParams::Form(form)) => (form.message.to_string(), fill_form(form.requested_schema)),
                    Some(ElicitParams::Url(url)) => (format!("{} ({})", url.message, url.url), None),
                    None => (String::new(), None),
                };
                let action = match (self.plan.elicit, &content) {
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
                serde_json::to_string(&ElicitResult { action, content, result_type: None, meta: None })
                    .map_err(|e| e.to_string())
            }
            Some(Method::RootsList) => {
                event("the server asks for our roots (roots/list)");
                let roots: Vec<Root<'_>> = self.plan.roots.iter().map(|r| Root::new(r, None)).collect();
                serde_json::to_string(&ListRootsResult::new(&roots)).map_err(|e| e.to_string())
            }
            _ => Err(format!("{method} is not served")),
        }
    }
}

/// What a call step demonstrates, for the demo.
fn call_note(name: &str) -> &'static str {
    match name {
        "test_sampling" => {
            "The tool needs a model: while the call is open, the server sends its own request,\n\
             `sampling/createMessage`, to the client, and answers the call once the client has\n\
             answered it. Requests flow both ways on one connection."
        }
        "test_elicitation" => {
            "The tool asks the user for input with `elicitation/create` and a small form schema.\n\
             This client fills the form by a script."
        }
        "test_tool_with_logging" => {
            "Log messages arrive as `notifications/message` while the call runs\n\
             (at the level set with `logging/setLevel`, if any)."
        }
        "no_such_tool" => {
            "A tool the server does not have is a protocol error, not a tool error: JSON-RPC's\n\
             -32602 (invalid params). A tool that runs and fails answers a result with `isError`."
        }
        _ => "A tool call: the result is a list of content blocks (text, image, audio, resources).",
    }
}

/// The script's reactions to the session's events.
impl ClientApp {
    /// An event of the session.
    pub fn on_session_event(&mut self, ev: Event<'_>) {
        match ev {
            Event::Negotiated { version, peer } => {
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
            Event::Ready { .. } => self.ready = true,
            Event::Request(mut req) => self.serve(&mut req),
            Event::Notification(n) => {
                let params = n.params.map(|p| clip(p.as_text(), 120)).unwrap_or_default();
                match n.subscription {
                    Some(id) => {
                        self.on_stream += 1;
                        event(format_args!("notification {} on listen stream {id}: {params}", n.method));
                    }
                    None => event(format_args!("notification {}: {params}", n.method)),
                }
            }
            Event::Subscribed { id, granted } => {
                event(format_args!("listen stream {id} acknowledged; granted {granted}"));
                if matches!(&self.waiting, Waiting::Subscribing { id: want } if *want == id) {
                    // Change the tool list (and back): the notifications come on the stream.
                    let toggle = || Step::Call(ToolCall::parse("toggle_extra_tool").expect("valid"));
                    self.steps.push_front(Step::EndListen(id));
                    self.steps.push_front(toggle());
                    self.steps.push_front(toggle());
                    self.waiting = Waiting::Nothing;
                }
            }
            Event::SubscriptionEnded { id, cancelled } => {
                let how = if cancelled { "the server cancelled it" } else { "its closing result" };
                event(format_args!("listen stream {id} ended by the server: {how}"));
            }
            Event::InputRequired { id, result, retry, .. } => {
                if let Waiting::Answer { id: want, .. } = &self.waiting
                    && *want == id
                    && let Waiting::Answer { step, .. } = std::mem::replace(&mut self.waiting, Waiting::Nothing)
                {
                    self.input_required(step, result, retry);
                } else {
                    event(format_args!("input required for request {id}, which the script no longer waits for"));
                }
            }
            Event::TaskCreated { id, task, .. } => {
                event(format_args!("request {id} became a task: {}", clip(task.as_text(), 120)));
            }
            Event::ResultRejected { id, problem, .. } => {
                self.fail(format!("the result of request {id} is invalid: {problem:?}"));
                if matches!(&self.waiting, Waiting::Answer { id: want, .. } if *want == id) {
                    self.waiting = Waiting::Nothing;
                }
            }
            Event::Progress { id, progress, total, message } => {
                self.progress_seen += 1;
                let total = total.map_or(String::new(), |t| format!(" of {t}"));
                let message = message.map_or(String::new(), |m| format!(" ({m})"));
                event(format_args!("progress on request {id}: {progress}{total}{message}"));
            }
            Event::Response { id, result, .. } => {
                if let Waiting::Answer { id: want, .. } | Waiting::CancelAt { id: want, .. } = &self.waiting
                    && *want == id
                {
                    match std::mem::replace(&mut self.waiting, Waiting::Nothing) {
                        Waiting::Answer { step, sent, .. } => self.answered(step, Ok(result), sent.elapsed()),
                        _ => event(format_args!("request {id} was answered before the cancellation")),
                    }
                } else {
                    event(format_args!("an answer to request {id}, which the script no longer waits for"));
                }
            }
            Event::Error { id, error, .. } => {
                let text = format!("{} {}", error.code.0, error.message);
                if matches!(&self.waiting, Waiting::Subscribing { id: want } if *want == id) {
                    // A stateless server need not offer listen streams: -32601 skips the
                    // step; any other refusal fails it. Either way the script goes on.
                    self.waiting = Waiting::Nothing;
                    if error.code == ErrorCode::METHOD_NOT_FOUND {
                        event(format_args!("listen stream {id} refused: the server offers none ({text})"));
                    } else {
                        self.fail(format!("listen stream {id} refused: {text}"));
                    }
                } else if let Waiting::Answer { id: want, .. } = &self.waiting
                    && *want == id
                    && let Waiting::Answer { step, sent, .. } = std::mem::replace(&mut self.waiting, Waiting::Nothing)
                {
                    self.answered(step, Err(text), sent.elapsed());
                } else {
                    event(format_args!("error answer to request {id}: {text}"));
                }
            }
            Event::TimedOut { id, .. } => {
                let expected =
                    matches!(&self.waiting, Waiting::Answer { id: want, step: Step::Timeout(..), .. } if *want == id);
                event(format_args!("request {id} timed out: the endpoint gives up on it and tells the server"));
                if let Waiting::Answer { id: want, .. } = &self.waiting
                    && *want == id
                {
                    if !expected {
                        self.fail(format!("request {id} timed out"));
                    }
                    self.abandoned = Some(id);
                    // Watch the stray messages: progress or an answer already on its way.
                    self.waiting = Waiting::Quiet { until: Instant::ZERO };
                }
            }
            Event::Failed { id, reason, .. } => {
                event(format_args!("request {id} failed: {reason}"));
                if matches!(&self.waiting, Waiting::Answer { id: want, .. } | Waiting::Subscribing { id: want } if *want == id)
                {
                    self.waiting = Waiting::Nothing;
                    self.fail(format!("request {id} failed: {reason}"));
                }
            }
            Event::Misbehavior(Misbehavior::UncorrelatedError { error }) => {
                if self.malformed == Some(false) {
                    self.malformed = Some(true);
                }
                event(format_args!(
                    "the server could not read one of our lines: error {} {:?}, without an id: it could not tell which",
                    error.code.0,
                    error.message.to_string()
                ));
            }
            Event::Misbehavior(Misbehavior::LateResponse { id }) => {
                event(format_args!("a response to {id} crossed our cancellation; the endpoint dropped it"))
            }
            Event::Misbehavior(Misbehavior::UnknownProgressToken { token }) => {
                event(format_args!("progress for {token}, which we no longer wait for; the endpoint dropped it"))
            }
            Event::Misbehavior(m) => event(format_args!("the server broke a rule: {m:?}")),
            Event::Closed { reason } => event(format_args!("session closed: {reason}")),
            other => event(format_args!("{other:?}")),
        }
    }

    /// Whether the script ran to its end with every step behaving (`ended`: how the
    /// session ended), with the summary printed.
    pub fn verdict(&self, ended: &str) -> bool {
        let mut ok = self.finished && self.failures.is_empty();
        if !self.finished {
            println!("   · the session ended before the script did: {ended}");
            ok = false;
        }
        println!();
        if self.failures.is_empty() {
            println!("== Summary: every step behaved");
        } else {
            println!("== Summary: {} step(s) failed", self.failures.len());
            for f in &self.failures {
                println!("   - {f}");
            }
        }
        ok
    }

    /// The script's next step, when the loop is about to wait; returns when to look again.
    pub fn advance(&mut self, ep: &mut ClientEndpoint<'_>, now: Instant) -> Option<Instant> {
        if !self.ready || self.finished {
            return None;
        }
        loop {
            match &self.waiting {
                Waiting::Answer { .. } | Waiting::Subscribing { .. } => return None,
                Waiting::Retry { .. } => {
                    let Waiting::Retry { step, ticket, responses, state } =
                        std::mem::replace(&mut self.waiting, Waiting::Nothing)
                    else {
                        continue;
                    };
                    let call = match &step {
                        Step::Call(c) | Step::Progress(c) | Step::Cancel(c) | Step::Timeout(c, _) => c.clone(),
                        _ => continue,
                    };
                    #[derive(serde::Serialize)]
                    struct Params<'p> {
                        name: &'p str,
                        arguments: RawJson<'p>,
                    }
                    let arguments = RawJson::parse(call.args.as_bytes()).unwrap_or(RawJson::EMPTY_OBJECT);
                    let params = Params { name: &call.name, arguments };
                    let responses = RawJson::parse(responses.as_bytes()).unwrap_or(RawJson::EMPTY_OBJECT);
                    match ep.retry(now, &ticket, Some(&params), &responses, state.as_deref(), RequestOptions::default())
                    {
                        Ok(id) => self.waiting = Waiting::Answer { id, step, sent: std::time::Instant::now() },
                        Err(e) => self.fail(format!("could not retry {}: {e}", call.name)),
                    }
                }
                Waiting::Listening { id, until } => {
                    if now < *until {
                        return Some(*until);
                    }
                    let id = id.clone();
                    if self.on_stream == 0 {
                        self.fail(format!("no notification arrived on listen stream {id}"));
                    }
                    match ep.cancel(now, &id, Some("done listening")) {
                        Ok(()) => {
                            event(format_args!("{} notification(s) on stream {id}; cancelling it", self.on_stream))
                        }
                        Err(e) => self.fail(format!("could not cancel listen stream {id}: {e}")),
                    }
                    self.waiting = Waiting::Nothing;
                }
                Waiting::NextPage(list) => {
                    let list = *list;
                    self.waiting = Waiting::Nothing;
                    self.next_page(list, ep, now);
                }
                Waiting::CancelAt { id, at } => {
                    if now < *at {
                        return Some(*at);
                    }
                    let id = id.clone();
                    match ep.cancel(now, &id, Some("the user pressed stop")) {
                        Ok(()) => event(format_args!(
                            "cancelling request {id} after {} progress report(s); no answer will come",
                            self.progress_seen
                        )),
                        Err(e) => self.fail(format!("could not cancel {id}: {e}")),
                    }
                    self.abandoned = Some(id);
                    self.waiting = Waiting::Quiet { until: now + self.plan.quiet };
                }
                Waiting::Quiet { until } => {
                    // (Set to ZERO from an event handler, which has no clock: start it now.)
                    if *until == Instant::ZERO {
                        self.waiting = Waiting::Quiet { until: now + self.plan.quiet };
                        continue;
                    }
                    if now < *until {
                        return Some(*until);
                    }
                    if self.malformed == Some(false) {
                        event("the server did not answer the malformed line (JSON-RPC asks for a -32700 error)");
                    }
                    self.malformed = None;
                    if let Some(id) = self.abandoned.take() {
                        event(format_args!(
                            "{} ms later: nothing more about request {id}",
                            self.plan.quiet.as_millis()
                        ));
                    }
                    self.waiting = Waiting::Nothing;
                }
                Waiting::Nothing => match self.steps.pop_front() {
                    Some(step) => {
                        self.start(step, ep, now);
                    }
                    None => {
                        self.finished = true;
                        note(
                            &self.plan,
                            "Shutdown",
                            "The client closes the connection: on stdio it closes the server's stdin. The\n\
                             server answers what it still owes, then exits by itself.",
                        );
                        ep.close(now);
                        return None;
                    }
                },
            }
        }
    }
}

impl App<OUT, IN> for ClientApp {
    type Message = ();

    fn on_event(&mut self, ev: Event<'_>, _mailbox: &Mailbox<()>) {
        self.on_session_event(ev);
    }

    fn on_message(&mut self, _endpoint: &mut ClientEndpoint<'_>, _now: Instant, _message: ()) {}

    fn on_idle(&mut self, ep: &mut ClientEndpoint<'_>, now: Instant) -> Option<Instant> {
        self.advance(ep, now)
    }
}
