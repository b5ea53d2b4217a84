//! The example server's application logic: what it answers, and how slow work,
//! server→client requests and notifications reach the endpoint.
//!
//! An event borrows the endpoint (its params point into the receive buffer), so an
//! event handler can answer *that* request through its handle but cannot call the
//! endpoint otherwise. Everything else is a [`Command`]:
//!
//! * handlers queue commands in an outbox, which [`App::on_idle`] runs with the endpoint
//!   right after the events are drained (a `notifications/tools/list_changed`, a
//!   `sampling/createMessage` on behalf of a tool call, a late answer);
//! * worker threads send commands through the [`Mailbox`] (progress, log messages, their
//!   result), which [`App::on_message`] runs.
//!
//! Nothing here blocks the loop: slow tools run on the [`WorkerPool`], a tool that needs
//! the client (sampling, elicitation) sends its request and answers the tool call when
//! the client's response arrives ([`Event::Response`] carries our request's id).

use std::collections::{BTreeSet, VecDeque};
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use mcp_sansio::adapters::stdio::{App, Mailbox, WorkerPool};
use mcp_sansio::mcp::{
    CallToolParams, CallToolResult, CompleteParams, CompleteResult, Completion, CompletionReference, ContentBlock,
    CreateMessageParams, CreateMessageResult, ElicitAction, ElicitFormParams, ElicitParams, ElicitResult, EmptyResult,
    GetPromptParams, GetPromptResult, Items, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    ListToolsResult, LogData, LoggingLevel, LoggingMessageParams, MessageRole, Method, OneOrMany, PromptMessage,
    ReadResourceParams, ReadResourceResult, ResourceContents, ResourceUriParams, Role, SamplingMessage, SetLevelParams,
    Tool,
};
use mcp_sansio::session::{
    Config, CursorCodec, CursorError, Endpoint, Event, IncomingRequest, RequestOptions, SendError,
};
use mcp_sansio::time::Instant;
use mcp_sansio::wire::{ErrorCode, JsonStr, RawJson, RequestId, RequestIdRef};
use serde::Serialize;

use super::fixtures as fx;

/// Requests of ours (sampling, elicitation) that can be in flight at once.
pub const OUT: usize = 32;
/// Requests of the client's that can be in flight at once (slow tool calls hold one each).
pub const IN: usize = 64;

/// The endpoint this server runs.
pub type ServerEndpoint<'a> = Endpoint<'a, OUT, IN>;

/// How long a tool waits for the client's answer to a sampling or elicitation request.
pub const ASK_TIMEOUT: Duration = Duration::from_secs(60);

/// `serverInfo`.
pub const SERVER_INFO: &str =
    concat!(r#"{"name":"mcp-sansio-example-server","version":""#, env!("CARGO_PKG_VERSION"), r#""}"#);

/// The capabilities this server declares: everything it implements.
pub const CAPABILITIES: &str = r#"{"tools":{"listChanged":true},"resources":{"subscribe":true,"listChanged":true},"prompts":{"listChanged":true},"logging":{},"completions":{}}"#;

/// The endpoint configuration.
pub fn config() -> Config<'static> {
    Config::new(Role::Server, RawJson::parse(SERVER_INFO.as_bytes()).expect("valid JSON"))
        .capabilities(RawJson::parse(CAPABILITIES.as_bytes()).expect("valid JSON"))
        .instructions(
            "The MCP conformance fixtures (test_*), plus test_long_running (progress, cancellation), \
             toggle_extra_tool (list changes) and update_watched_resource (subscriptions).",
        )
}

/// What the server can be told on its command line.
#[derive(Clone, Debug)]
pub struct Options {
    /// Items per page of every list.
    pub page_size: usize,
    /// The key pagination cursors are signed with.
    pub cursor_key: [u8; 16],
    /// Worker threads for slow tools.
    pub workers: usize,
    /// Change `test://watched-resource` by itself at this interval.
    pub watch_interval: Option<Duration>,
    /// Describe every event on stderr.
    pub verbose: bool,
    /// The size of the endpoint's transmit buffer (an answer larger than this fails).
    pub tx_capacity: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            page_size: 1000,
            cursor_key: random_key(),
            workers: 4,
            watch_interval: None,
            verbose: false,
            tx_capacity: 256 * 1024,
        }
    }
}

/// A key drawn from the process's random hashing seed.
pub fn random_key() -> [u8; 16] {
    use std::hash::{BuildHasher, RandomState};
    let state = RandomState::new();
    let mut key = [0u8; 16];
    key[..8].copy_from_slice(&state.hash_one(1u8).to_le_bytes());
    key[8..].copy_from_slice(&state.hash_one(2u8).to_le_bytes());
    key
}

/// Something for the endpoint to do outside an event handler.
#[derive(Debug)]
pub enum Command {
    /// Answer the client's request `id` with `result` (JSON text of an object).
    Respond { id: RequestId, result: Vec<u8> },
    /// Answer the client's request `id` with an error.
    Fail { id: RequestId, code: ErrorCode, message: String, data: Option<Vec<u8>> },
    /// Report progress on the client's request `id`.
    Progress { id: RequestId, progress: f64, total: Option<f64>, message: Option<String> },
    /// `notifications/message`, if `level` passes the level the client set.
    Log { level: LoggingLevel, logger: Option<&'static str>, text: String },
    /// Any other notification.
    Notify { method: &'static str, params: Option<Vec<u8>> },
    /// Ask the client something on behalf of the tool call `call`.
    Ask { call: RequestId, ask: Ask, params: Vec<u8> },
    /// Withdraw a request of ours.
    Cancel { out: RequestId },
}

/// Which server→client request a tool waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// `sampling/createMessage` (`test_sampling`).
    Sampling,
    /// `elicitation/create`; the tool's answer starts with `prefix`.
    Elicitation { prefix: &'static str },
}

impl Ask {
    fn method(self) -> &'static str {
        match self {
            Ask::Sampling => "sampling/createMessage",
            Ask::Elicitation { .. } => "elicitation/create",
        }
    }

    fn failure(self) -> &'static str {
        match self {
            Ask::Sampling => "Sampling not supported or error",
            Ask::Elicitation { .. } => "Elicitation not supported or error",
        }
    }

    /// The tool's answer for the client's result.
    fn summary(self, result: RawJson<'_>) -> Result<String, String> {
        match self {
            Ask::Sampling => {
                let r: CreateMessageResult<'_> = result.decode().map_err(|e| format!("invalid result: {e}"))?;
                let text = r.content.iter().find_map(|b| b.ok()?.as_text());
                Ok(format!("LLM response: {}", text.map_or("No response".into(), |t| t.to_string())))
            }
            Ask::Elicitation { prefix } => {
                let r: ElicitResult<'_> = result.decode().map_err(|e| format!("invalid result: {e}"))?;
                let action = match r.action {
                    ElicitAction::Accept => "accept",
                    ElicitAction::Decline => "decline",
                    ElicitAction::Cancel => "cancel",
                };
                let content = r.content.map_or("{}".into(), |c| fx::compact(c.as_bytes()));
                Ok(format!("{prefix}: action={action}, content={content}"))
            }
        }
    }
}

/// A server→client request in flight for a tool call.
struct PendingAsk {
    out: RequestId,
    call: RequestId,
    ask: Ask,
}

/// The lists, each with cursors of its own.
#[derive(Clone, Copy)]
enum List {
    Tools = 1,
    Resources = 2,
    Templates = 3,
    Prompts = 4,
}

/// Work for a worker thread.
enum Job {
    /// `test_tool_with_logging`: three log messages 50 ms apart.
    Logging,
    /// `test_tool_with_progress`: progress 0, 50, 100 of 100, 50 ms apart; answers the token.
    Progress { token: String },
    /// `test_long_running`.
    Long { steps: u64, step_ms: u64 },
}

/// Sleeps `d` unless `cancel` is set first; `false` if it was.
fn pause(cancel: &AtomicBool, d: Duration) -> bool {
    let until = std::time::Instant::now() + d;
    loop {
        if cancel.load(Ordering::Relaxed) {
            return false;
        }
        let left = until.saturating_duration_since(std::time::Instant::now());
        if left.is_zero() {
            return true;
        }
        std::thread::sleep(left.min(Duration::from_millis(5)));
    }
}

impl Job {
    fn run(self, id: RequestId, progress: bool, cancel: &AtomicBool, mailbox: &Mailbox<Command>) {
        let step = |n: f64, total: f64, message: String| {
            if progress {
                let id = id.clone();
                mailbox.send(Command::Progress { id, progress: n, total: Some(total), message: Some(message) });
            }
        };
        let text = match self {
            Job::Logging => {
                for (i, line) in fx::LOG_LINES.iter().enumerate() {
                    if i > 0 && !pause(cancel, Duration::from_millis(50)) {
                        break;
                    }
                    mailbox.send(Command::Log { level: LoggingLevel::Info, logger: None, text: (*line).into() });
                }
                fx::LOGGING_DONE.to_string()
            }
            Job::Progress { token } => {
                for (i, n) in [0.0, 50.0, 100.0].into_iter().enumerate() {
                    if i > 0 && !pause(cancel, Duration::from_millis(50)) {
                        break;
                    }
                    step(n, 100.0, format!("Completed step {n} of 100"));
                }
                token
            }
            Job::Long { steps, step_ms } => {
                let mut done = 0;
                while done < steps && pause(cancel, Duration::from_millis(step_ms)) {
                    done += 1;
                    step(done as f64, steps as f64, format!("step {done} of {steps}"));
                }
                if done < steps {
                    format!("cancelled after {done} of {steps} steps")
                } else {
                    format!("finished {steps} steps of {step_ms} ms")
                }
            }
        };
        // Sent even when cancelled: answering frees the request's slot, and the endpoint
        // suppresses the answer to a cancelled request.
        mailbox.send(Command::Respond { id, result: json(&CallToolResult::text(&text)) });
    }
}

/// JSON text of a value built from the vocabulary types.
fn json<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
    serde_json::to_vec(value).expect("vocabulary values serialize")
}

fn string_arg(args: RawJson<'_>, name: &str) -> Option<String> {
    args.get(name).and_then(|v| v.as_str()).map(|s| s.to_string())
}

/// `{"uri": …}`: the `data` of a resource-not-found error (SEP-2164).
#[derive(Serialize)]
struct UriData<'a> {
    uri: JsonStr<'a>,
}

/// What a template resource contains.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TemplateData<'a> {
    id: &'a str,
    template_test: bool,
    data: String,
}

/// The `{id}` of `test://template/{id}/data`.
fn template_id(uri: &str) -> Option<&str> {
    let id = uri.strip_prefix(fx::TEMPLATE_PREFIX)?.strip_suffix(fx::TEMPLATE_SUFFIX)?;
    (!id.is_empty() && !id.contains('/')).then_some(id)
}

/// The example server.
pub struct ServerApp {
    opts: Options,
    pool: WorkerPool,
    tools: Vec<Tool<'static>>,
    extra_tool: Tool<'static>,
    outbox: VecDeque<Command>,
    /// Worker jobs in progress and their cancellation flags.
    jobs: Vec<(RequestId, Arc<AtomicBool>)>,
    asks: Vec<PendingAsk>,
    log_level: Option<LoggingLevel>,
    subscriptions: BTreeSet<String>,
    extra_enabled: bool,
    tools_epoch: u32,
    watched: String,
    revision: u32,
    next_tick: Option<Instant>,
    ready: bool,
}

impl ServerApp {
    /// A server with `opts`.
    pub fn new(opts: Options) -> std::io::Result<Self> {
        Ok(ServerApp {
            pool: WorkerPool::new(opts.workers)?,
            opts,
            tools: fx::TOOLS.iter().map(fx::tool).collect(),
            extra_tool: fx::tool(&fx::EXTRA_TOOL),
            outbox: VecDeque::new(),
            jobs: Vec::new(),
            asks: Vec::new(),
            log_level: None,
            subscriptions: BTreeSet::new(),
            extra_enabled: false,
            tools_epoch: 0,
            watched: fx::WATCHED_TEXT.into(),
            revision: 0,
            next_tick: None,
            ready: false,
        })
    }

    /// Tells every worker job to stop (the session is over).
    pub fn stop_jobs(&mut self) {
        for (_, flag) in &self.jobs {
            flag.store(true, Ordering::Relaxed);
        }
    }

    fn note(&self, what: fmt::Arguments<'_>) {
        if self.opts.verbose {
            eprintln!("[server] {what}");
        }
    }

    // ---- answering ------------------------------------------------------------------

    /// Answers through the request's handle; if the transmit buffer is full of earlier
    /// answers (a burst of requests in one read), queues the answer for `on_idle`.
    fn reply<R: Serialize + ?Sized>(&mut self, req: &mut IncomingRequest<'_>, result: &R) {
        match req.respond(result) {
            Ok(_) => {}
            Err(SendError::TxFull { .. }) => {
                self.outbox.push_back(Command::Respond { id: req.id_owned(), result: json(result) })
            }
            Err(e) => self.note(format_args!("could not answer {}: {e}", req.id)),
        }
    }

    fn fail(&mut self, req: &mut IncomingRequest<'_>, code: ErrorCode, message: &str) {
        self.fail_with(req, code, message, None::<&RawJson<'_>>)
    }

    fn fail_with<D: Serialize>(
        &mut self,
        req: &mut IncomingRequest<'_>,
        code: ErrorCode,
        message: &str,
        data: Option<&D>,
    ) {
        let sent = match data {
            Some(d) => req.respond_error_with_data(code, message, d),
            None => req.respond_error(code, message),
        };
        match sent {
            Ok(_) => {}
            Err(SendError::TxFull { .. }) => self.outbox.push_back(Command::Fail {
                id: req.id_owned(),
                code,
                message: message.into(),
                data: data.map(|d| json(d)),
            }),
            Err(e) => self.note(format_args!("could not answer {}: {e}", req.id)),
        }
    }

    fn on_request(&mut self, req: &mut IncomingRequest<'_>, mailbox: &Mailbox<Command>) {
        let params = req.params;
        match req.method {
            Method::ToolsList => {
                let tools = self.tool_list();
                match self.page(&tools, List::Tools, params) {
                    Ok((page, next)) => {
                        let next_cursor = next.as_ref().map(|c| JsonStr::from_text(c.as_str()));
                        self.reply(req, &ListToolsResult { next_cursor, ..ListToolsResult::new(page) })
                    }
                    Err(e) => self.fail(req, e.code(), e.message()),
                }
            }
            Method::ToolsCall => self.call_tool(req, mailbox),
            Method::ResourcesList => match self.page(&fx::RESOURCES, List::Resources, params) {
                Ok((page, next)) => {
                    let next_cursor = next.as_ref().map(|c| JsonStr::from_text(c.as_str()));
                    self.reply(req, &ListResourcesResult { next_cursor, ..ListResourcesResult::new(page) })
                }
                Err(e) => self.fail(req, e.code(), e.message()),
            },
            Method::ResourcesTemplatesList => match self.page(&fx::TEMPLATES, List::Templates, params) {
                Ok((page, next)) => {
                    let next_cursor = next.as_ref().map(|c| JsonStr::from_text(c.as_str()));
                    let result = ListResourceTemplatesResult { next_cursor, ..ListResourceTemplatesResult::new(page) };
                    self.reply(req, &result)
                }
                Err(e) => self.fail(req, e.code(), e.message()),
            },
            Method::PromptsList => match self.page(&fx::PROMPTS, List::Prompts, params) {
                Ok((page, next)) => {
                    let next_cursor = next.as_ref().map(|c| JsonStr::from_text(c.as_str()));
                    self.reply(req, &ListPromptsResult { next_cursor, ..ListPromptsResult::new(page) })
                }
                Err(e) => self.fail(req, e.code(), e.message()),
            },
            Method::ResourcesRead => self.read_resource(req),
            Method::ResourcesSubscribe | Method::ResourcesUnsubscribe => {
                let Some(p) = params.and_then(|p| p.decode::<ResourceUriParams<'_>>().ok()) else {
                    return self.fail(req, ErrorCode::INVALID_PARAMS, "Invalid params: a uri is required");
                };
                let uri = p.uri.to_string();
                let subscribe = req.method == Method::ResourcesSubscribe;
                let text = if subscribe {
                    self.subscriptions.insert(uri.clone());
                    format!("Subscribed to resource: {uri}")
                } else {
                    self.subscriptions.remove(&uri);
                    format!("Unsubscribed from resource: {uri}")
                };
                self.reply(req, &EmptyResult::EMPTY);
                self.outbox.push_back(Command::Log { level: LoggingLevel::Info, logger: Some(fx::LOGGER), text });
            }
            Method::PromptsGet => self.get_prompt(req),
            Method::CompletionComplete => self.complete(req),
            Method::LoggingSetLevel => match params.and_then(|p| p.decode::<SetLevelParams<'_>>().ok()) {
                Some(p) => {
                    self.log_level = Some(p.level);
                    self.reply(req, &EmptyResult::EMPTY);
                    let text = format!("Log level set to: {}", p.level.as_str());
                    self.outbox.push_back(Command::Log { level: LoggingLevel::Info, logger: Some(fx::LOGGER), text });
                }
                None => self.fail(req, ErrorCode::INVALID_PARAMS, "Invalid params: level must be a logging level"),
            },
            other => {
                let message = format!("Method not found: {}", other.name());
                self.fail(req, ErrorCode::METHOD_NOT_FOUND, &message)
            }
        }
    }

    // ---- pagination -----------------------------------------------------------------

    /// The cursor codec of `list`: a key of its own (a cursor of one list is no good for
    /// another) and, for tools, an epoch that moves when the list changes.
    fn codec(&self, list: List) -> CursorCodec {
        let mut key = self.opts.cursor_key;
        key[15] ^= list as u8;
        let epoch = if let List::Tools = list { self.tools_epoch } else { 0 };
        CursorCodec::new(key).with_epoch(epoch)
    }

    /// The page a list request asks for, and the cursor of the next one.
    fn page<'t, T>(
        &self,
        items: &'t [T],
        list: List,
        params: Option<RawJson<'_>>,
    ) -> Result<(&'t [T], Option<mcp_sansio::session::Cursor>), CursorError> {
        let codec = self.codec(list);
        let start = codec.position(params)? as usize;
        if start > items.len() {
            return Err(CursorError::Invalid);
        }
        let end = start.saturating_add(self.opts.page_size.max(1)).min(items.len());
        let next = (end < items.len()).then(|| codec.encode(end as u32));
        Ok((&items[start..end], next))
    }

    fn tool_list(&self) -> Vec<Tool<'static>> {
        let mut tools = self.tools.clone();
        if self.extra_enabled {
            tools.push(self.extra_tool);
        }
        tools
    }

    // ---- tools ----------------------------------------------------------------------

    fn call_tool(&mut self, req: &mut IncomingRequest<'_>, mailbox: &Mailbox<Command>) {
        let Some(call) = req.params.and_then(|p| p.decode::<CallToolParams<'_>>().ok()) else {
            return self.fail(req, ErrorCode::INVALID_PARAMS, "Invalid params: tools/call needs a tool name");
        };
        let args = call.arguments.unwrap_or(RawJson::EMPTY_OBJECT);
        let name = call.name.to_string();
        match name.as_str() {
            "test_simple_text" => self.reply(req, &CallToolResult::text(fx::SIMPLE_TEXT)),
            "test_image_content" => {
                self.reply(req, &CallToolResult::one(ContentBlock::image(fx::TEST_IMAGE_BASE64, "image/png")))
            }
            "test_audio_content" => {
                self.reply(req, &CallToolResult::one(ContentBlock::audio(fx::TEST_AUDIO_BASE64, "audio/wav")))
            }
            "test_embedded_resource" => {
                let resource =
                    ResourceContents::text("test://embedded-resource", Some("text/plain"), fx::EMBEDDED_TEXT);
                self.reply(req, &CallToolResult::one(ContentBlock::resource(resource)))
            }
            "test_multiple_content_types" => {
                let blocks = [
                    ContentBlock::text("Multiple content types test:"),
                    ContentBlock::image(fx::TEST_IMAGE_BASE64, "image/png"),
                    ContentBlock::resource(ResourceContents::text(
                        "test://mixed-content-resource",
                        Some("application/json"),
                        r#"{"test":"data","value":123}"#,
                    )),
                ];
                self.reply(req, &CallToolResult::new(&blocks))
            }
            "test_error_handling" => self.reply(req, &CallToolResult::error(fx::ERROR_TEXT)),
            "test_tool_with_logging" => self.spawn(req, mailbox, Job::Logging),
            "test_tool_with_progress" => {
                // The answer is the progress token, as the fixture's text (0 without one).
                let token = params_meta_token(req.params).unwrap_or_else(|| "0".into());
                self.spawn(req, mailbox, Job::Progress { token })
            }
            "test_long_running" => {
                let steps = args.get("steps").and_then(|s| s.as_u64()).unwrap_or(10).clamp(1, 1000);
                let step_ms = args.get("stepMs").and_then(|s| s.as_u64()).unwrap_or(100).min(10_000);
                self.spawn(req, mailbox, Job::Long { steps, step_ms })
            }
            "test_sampling" => {
                let Some(prompt) = string_arg(args, "prompt") else {
                    return self.reply(req, &CallToolResult::error("Invalid arguments: prompt (a string) is required"));
                };
                let messages = [SamplingMessage {
                    role: MessageRole::User,
                    content: OneOrMany::One(ContentBlock::text(&prompt)),
                    meta: None,
                }];
                let params = json(&CreateMessageParams::new(&messages, 100));
                self.outbox.push_back(Command::Ask { call: req.id_owned(), ask: Ask::Sampling, params });
            }
            "test_elicitation" => {
                let Some(message) = string_arg(args, "message") else {
                    return self
                        .reply(req, &CallToolResult::error("Invalid arguments: message (a string) is required"));
                };
                self.elicit(req, &message, fx::ELICITATION_SCHEMA, "User response");
            }
            "test_elicitation_sep1034_defaults" => self.elicit(
                req,
                "Please review and update the form fields with defaults",
                fx::DEFAULTS_SCHEMA,
                "Elicitation completed",
            ),
            "test_elicitation_sep1330_enums" => self.elicit(
                req,
                "Please select options from the enum fields",
                fx::ENUMS_SCHEMA,
                "Elicitation completed",
            ),
            "json_schema_2020_12_tool" => {
                let text = format!("JSON Schema 2020-12 tool called with: {}", fx::compact(args.as_bytes()));
                self.reply(req, &CallToolResult::text(&text))
            }
            "echo" => match string_arg(args, "message") {
                Some(message) => self.reply(req, &CallToolResult::text(&format!("Echo: {message}"))),
                None => self.reply(req, &CallToolResult::error("Invalid arguments: message (a string) is required")),
            },
            "toggle_extra_tool" => {
                self.extra_enabled = !self.extra_enabled;
                // The list changed: cursors issued for the old one are now stale.
                self.tools_epoch += 1;
                self.outbox.push_back(Command::Notify { method: "notifications/tools/list_changed", params: None });
                let text =
                    if self.extra_enabled { "extra_tool is now listed" } else { "extra_tool is no longer listed" };
                self.reply(req, &CallToolResult::text(text))
            }
            "extra_tool" if self.extra_enabled => self.reply(req, &CallToolResult::text("extra_tool was called")),
            "update_watched_resource" => {
                let notified = self.update_watched(string_arg(args, "text"));
                let text = format!(
                    "{} is now at revision {}; {notified} subscriber(s) notified",
                    fx::WATCHED_URI,
                    self.revision
                );
                self.reply(req, &CallToolResult::text(&text))
            }
            _ => {
                let message = format!("Unknown tool: {name}");
                self.fail(req, ErrorCode::INVALID_PARAMS, &message)
            }
        }
    }

    fn elicit(&mut self, req: &IncomingRequest<'_>, message: &str, schema: &'static str, prefix: &'static str) {
        let params = ElicitParams::Form(ElicitFormParams {
            mode: None,
            message: JsonStr::from_text(message),
            requested_schema: RawJson::parse(schema.as_bytes()).expect("fixture schemas are valid JSON"),
            task: None,
            meta: None,
        });
        let ask = Ask::Elicitation { prefix };
        self.outbox.push_back(Command::Ask { call: req.id_owned(), ask, params: json(&params) });
    }

    /// Runs `job` on a worker; it answers through the mailbox.
    fn spawn(&mut self, req: &IncomingRequest<'_>, mailbox: &Mailbox<Command>, job: Job) {
        let id = req.id_owned();
        let progress = req.wants_progress();
        let cancel = Arc::new(AtomicBool::new(false));
        self.jobs.push((id.clone(), Arc::clone(&cancel)));
        let mailbox = mailbox.clone();
        self.pool.execute(move || job.run(id, progress, &cancel, &mailbox));
    }

    /// Changes the watched resource; returns how many subscribers were notified.
    fn update_watched(&mut self, text: Option<String>) -> usize {
        self.revision += 1;
        self.watched = text.unwrap_or_else(|| format!("{} (revision {})", fx::WATCHED_TEXT, self.revision));
        if !self.subscriptions.contains(fx::WATCHED_URI) {
            return 0;
        }
        let params = json(&ResourceUriParams::new(fx::WATCHED_URI));
        self.outbox.push_back(Command::Notify { method: "notifications/resources/updated", params: Some(params) });
        1
    }

    // ---- resources, prompts, completion ---------------------------------------------

    fn read_resource(&mut self, req: &mut IncomingRequest<'_>) {
        let Some(p) = req.params.and_then(|p| p.decode::<ReadResourceParams<'_>>().ok()) else {
            return self.fail(req, ErrorCode::INVALID_PARAMS, "Invalid params: a uri is required");
        };
        let uri = p.uri.to_string();
        let template_text = template_id(&uri).map(|id| {
            let data = TemplateData { id, template_test: true, data: format!("Data for ID: {id}") };
            serde_json::to_string(&data).expect("serializes")
        });
        let contents = match (uri.as_str(), &template_text) {
            ("test://static-text", _) => {
                ResourceContents::text("test://static-text", Some("text/plain"), fx::STATIC_TEXT)
            }
            ("test://static-binary", _) => {
                ResourceContents::blob("test://static-binary", Some("image/png"), fx::TEST_IMAGE_BASE64)
            }
            (fx::WATCHED_URI, _) => ResourceContents::text(fx::WATCHED_URI, Some("text/plain"), &self.watched),
            (_, Some(text)) => ResourceContents::text(&uri, Some("application/json"), text),
            _ => {
                // SEP-2164: -32602 with the URI in `data`.
                let data = UriData { uri: p.uri };
                return self.fail_with(req, ErrorCode::INVALID_PARAMS, "Resource not found", Some(&data));
            }
        };
        let contents = [contents];
        let result = json(&ReadResourceResult::new(&contents));
        // (Serialized first: `contents` borrows `self.watched`, and `reply` needs `&mut self`.)
        self.reply(req, &RawJson::parse(&result).expect("valid JSON"));
    }

    fn get_prompt(&mut self, req: &mut IncomingRequest<'_>) {
        let Some(p) = req.params.and_then(|p| p.decode::<GetPromptParams<'_>>().ok()) else {
            return self.fail(req, ErrorCode::INVALID_PARAMS, "Invalid params: a prompt name is required");
        };
        let arg = |name: &str| p.arguments.and_then(|a| a.get(name)).and_then(Result::ok).map(|s| s.to_string());
        let user = |content| PromptMessage { role: MessageRole::User, content };
        let name = p.name.to_string();
        let missing = |req: &mut IncomingRequest<'_>, this: &mut Self, what: &str| {
            let message = format!("Invalid arguments for prompt {name}: {what} is required");
            this.fail(req, ErrorCode::INVALID_PARAMS, &message)
        };
        match name.as_str() {
            "test_simple_prompt" => {
                let messages = [user(ContentBlock::text("This is a simple prompt for testing."))];
                self.reply(req, &GetPromptResult::new(&messages))
            }
            "test_prompt_with_arguments" => {
                let (Some(arg1), Some(arg2)) = (arg("arg1"), arg("arg2")) else {
                    return missing(req, self, "arg1 and arg2");
                };
                let text = format!("Prompt with arguments: arg1='{arg1}', arg2='{arg2}'");
                let messages = [user(ContentBlock::text(&text))];
                self.reply(req, &GetPromptResult::new(&messages))
            }
            "test_prompt_with_embedded_resource" => {
                let Some(uri) = arg("resourceUri") else { return missing(req, self, "resourceUri") };
                let resource =
                    ResourceContents::text(&uri, Some("text/plain"), "Embedded resource content for testing.");
                let messages = [
                    user(ContentBlock::resource(resource)),
                    user(ContentBlock::text("Please process the embedded resource above.")),
                ];
                self.reply(req, &GetPromptResult::new(&messages))
            }
            "test_prompt_with_image" => {
                let messages = [
                    user(ContentBlock::image(fx::TEST_IMAGE_BASE64, "image/png")),
                    user(ContentBlock::text("Please analyze the image above.")),
                ];
                self.reply(req, &GetPromptResult::new(&messages))
            }
            _ => {
                let message = format!("Prompt not found: {name}");
                self.fail(req, ErrorCode::INVALID_PARAMS, &message)
            }
        }
    }

    fn complete(&mut self, req: &mut IncomingRequest<'_>) {
        let Some(p) = req.params.and_then(|p| p.decode::<CompleteParams<'_>>().ok()) else {
            return self.fail(req, ErrorCode::INVALID_PARAMS, "Invalid params: ref and argument are required");
        };
        let argument = p.argument.name;
        let candidates: &[&'static str] = match p.reference {
            CompletionReference::Prompt(r)
                if r.name == "test_prompt_with_arguments" && (argument == "arg1" || argument == "arg2") =>
            {
                &fx::ARGUMENT_WORDS
            }
            CompletionReference::Resource(r) if r.uri == "test://template/{id}/data" && argument == "id" => {
                &fx::TEMPLATE_IDS
            }
            _ => &[],
        };
        let typed = p.argument.value.to_string();
        let values: Vec<JsonStr<'static>> =
            candidates.iter().filter(|c| c.starts_with(&typed)).map(|c| JsonStr::from_text(c)).collect();
        let completion =
            Completion { values: Items::from_slice(&values), total: Some(values.len() as u64), has_more: Some(false) };
        self.reply(req, &CompleteResult { completion, ..CompleteResult::new(&[]) })
    }

    // ---- answers from the client ----------------------------------------------------

    /// A request of ours ended: answer the tool call that was waiting for it.
    fn answered(&mut self, id: &RequestId, outcome: Result<RawJson<'_>, String>) {
        let Some(i) = self.asks.iter().position(|a| a.out == *id) else { return };
        let PendingAsk { call, ask, .. } = self.asks.remove(i);
        let result = match outcome.and_then(|r| ask.summary(r)) {
            Ok(text) => json(&CallToolResult::text(&text)),
            Err(why) => json(&CallToolResult::error(&format!("{}: {why}", ask.failure()))),
        };
        self.outbox.push_back(Command::Respond { id: call, result });
    }

    /// The client cancelled one of its requests: stop the work for it.
    fn cancelled(&mut self, id: RequestIdRef<'_>) {
        for (job, flag) in &self.jobs {
            if *job == id {
                flag.store(true, Ordering::Relaxed);
            }
        }
        // A tool call waiting for the client: withdraw our request too, and answer the
        // call (the endpoint suppresses the answer; this frees its slot).
        let mut i = 0;
        while i < self.asks.len() {
            if self.asks[i].call == id {
                let ask = self.asks.remove(i);
                self.outbox.push_back(Command::Cancel { out: ask.out });
                self.outbox.push_back(Command::Respond { id: ask.call, result: b"{}".to_vec() });
            } else {
                i += 1;
            }
        }
        for cmd in self.outbox.iter_mut() {
            if let Command::Ask { call, .. } = cmd
                && *call == id
            {
                *cmd = Command::Respond { id: call.clone(), result: b"{}".to_vec() };
            }
        }
    }

    // ---- running commands -----------------------------------------------------------

    /// Runs queued commands in order until the transmit buffer is full.
    fn flush(&mut self, ep: &mut ServerEndpoint<'_>, now: Instant) {
        // Requests waiting for a free slot of ours keep their place; the rest go on.
        let mut waiting = Vec::new();
        while let Some(cmd) = self.outbox.pop_front() {
            match self.execute(ep, now, &cmd) {
                Ok(()) => {}
                Err(SendError::TxFull { needed, .. }) if needed <= self.opts.tx_capacity => {
                    // Written once the loop has sent what is queued; on_idle comes again.
                    self.outbox.push_front(cmd);
                    break;
                }
                Err(SendError::TooManyInFlight { .. }) => waiting.push(cmd),
                Err(e) => self.give_up(ep, cmd, e),
            }
        }
        for cmd in waiting.into_iter().rev() {
            self.outbox.push_front(cmd);
        }
    }

    fn execute(&mut self, ep: &mut ServerEndpoint<'_>, now: Instant, cmd: &Command) -> Result<(), SendError> {
        let outcome = match cmd {
            // A request that is no longer live (cancelled, expired) needs no answer.
            Command::Respond { id, result } => match ep.find_pending(id.as_ref()) {
                Some(request) => ep.respond(&request, &RawJson::parse(result).expect("valid JSON")).map(drop),
                None => Ok(()),
            },
            Command::Fail { id, code, message, data } => match (ep.find_pending(id.as_ref()), data) {
                (Some(request), Some(data)) => {
                    let data = RawJson::parse(data).expect("valid JSON");
                    ep.respond_error_with_data(&request, *code, message, &data).map(drop)
                }
                (Some(request), None) => ep.respond_error(&request, *code, message).map(drop),
                (None, _) => Ok(()),
            },
            Command::Progress { id, progress, total, message } => match ep.find_pending(id.as_ref()) {
                Some(request) => ep.send_progress(&request, *progress, *total, message.as_deref()).map(drop),
                None => Ok(()),
            },
            Command::Log { level, logger, text } => {
                if self.log_level.is_some_and(|min| *level < min) {
                    return Ok(());
                }
                let params = LoggingMessageParams {
                    level: *level,
                    logger: logger.map(JsonStr::from_text),
                    data: LogData::Text(JsonStr::from_text(text)),
                    meta: None,
                };
                ep.send_notification(now, "notifications/message", Some(&params))
            }
            Command::Notify { method, params } => match params {
                Some(p) => ep.send_notification(now, method, Some(&RawJson::parse(p).expect("valid JSON"))),
                None => ep.send_notification(now, method, None::<&RawJson<'_>>),
            },
            Command::Ask { call, ask, params } => {
                let params = RawJson::parse(params).expect("valid JSON");
                let options = RequestOptions::default().timeout(ASK_TIMEOUT);
                ep.send_request(now, ask.method(), Some(&params), options).map(|out| {
                    self.asks.push(PendingAsk { out, call: call.clone(), ask: *ask });
                })
            }
            Command::Cancel { out } => ep.cancel(now, out, Some("the tool call was cancelled")),
        };
        outcome?;
        if let Command::Respond { id, .. } | Command::Fail { id, .. } = cmd {
            self.jobs.retain(|(job, _)| job != id);
        }
        Ok(())
    }

    /// A command that cannot be carried out.
    fn give_up(&mut self, ep: &mut ServerEndpoint<'_>, cmd: Command, e: SendError) {
        match cmd {
            Command::Ask { call, ask, .. } => {
                // No capability, wrong version, closing: the tool says so.
                let text = format!("{}: {e}", ask.failure());
                self.outbox.push_back(Command::Respond { id: call, result: json(&CallToolResult::error(&text)) });
            }
            Command::Respond { id, .. } | Command::Fail { id, .. } => {
                self.jobs.retain(|(job, _)| *job != id);
                if let SendError::TxFull { needed, .. } = e {
                    let message =
                        format!("Internal error: the answer ({needed} bytes) is larger than the transmit buffer");
                    if let Some(request) = ep.find_pending(id.as_ref()) {
                        let _ = ep.respond_error(&request, ErrorCode::INTERNAL_ERROR, &message);
                    }
                } else {
                    // Cancelled, answered already, or the session is over.
                    self.note(format_args!("answer to {id} dropped: {e}"));
                }
            }
            other => self.note(format_args!("{other:?} dropped: {e}")),
        }
    }
}

/// `params._meta.progressToken` as text: a string's content or a number's digits.
fn params_meta_token(params: Option<RawJson<'_>>) -> Option<String> {
    let token = params?.get("_meta")?.get("progressToken")?;
    match token.as_str() {
        Some(s) => Some(s.to_string()),
        None => Some(token.as_text().to_string()),
    }
}

impl App<OUT, IN> for ServerApp {
    type Message = Command;

    fn on_event(&mut self, event: Event<'_>, mailbox: &Mailbox<Command>) {
        match event {
            Event::Negotiated { version, peer } => {
                let client = peer.get("clientInfo").map_or("?", |c| c.as_text());
                self.note(format_args!("negotiated {version} with {client}"));
            }
            Event::Ready { .. } => self.ready = true,
            Event::Request(mut req) => {
                self.note(format_args!("request {} {}", req.id, req.method));
                self.on_request(&mut req, mailbox)
            }
            Event::Response { id, result, .. } => self.answered(&id, Ok(result)),
            Event::Error { id, error, .. } => {
                let why = format!("{} ({})", error.message, error.code.0);
                self.answered(&id, Err(why))
            }
            Event::TimedOut { id, .. } => self.answered(&id, Err("the client did not answer in time".into())),
            Event::Failed { id, reason, .. } => self.answered(&id, Err(reason.to_string())),
            Event::Cancelled { request, .. } => {
                self.note(format_args!("the client cancelled {request}"));
                self.cancelled(request.id())
            }
            Event::Closed { reason } => {
                self.note(format_args!("closed: {reason}"));
                self.stop_jobs();
            }
            other => self.note(format_args!("{other:?}")),
        }
    }

    fn on_message(&mut self, endpoint: &mut ServerEndpoint<'_>, now: Instant, message: Command) {
        self.outbox.push_back(message);
        self.flush(endpoint, now);
    }

    fn on_idle(&mut self, endpoint: &mut ServerEndpoint<'_>, now: Instant) -> Option<Instant> {
        if let Some(interval) = self.opts.watch_interval
            && self.ready
        {
            let tick = *self.next_tick.get_or_insert(now + interval);
            if now >= tick {
                self.update_watched(None);
                self.next_tick = Some(now + interval);
            }
        }
        self.flush(endpoint, now);
        self.next_tick
    }
}
