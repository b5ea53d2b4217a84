//! The example server's application logic, as a [`Handler`]: the same code serves
//! stdio ([`StdioLoop::serve`](mcp_sansio::adapters::stdio::StdioLoop::serve)) and HTTP
//! ([`HttpServer`](mcp_sansio::adapters::http::server::HttpServer)).
//!
//! * Fast requests are answered in the event itself ([`Context::reply`]).
//! * Slow tools run on the [`WorkerPool`] with a [`Ticket`]: they report progress and
//!   log lines through it, answer through it, and stop when its cancellation signal
//!   says the client cancelled (or the request expired, or the HTTP session ended).
//! * A tool that needs the client (sampling, elicitation) keeps a ticket, defers a
//!   message to itself ([`Context::defer`]) so that the request goes out with the
//!   endpoint free, and answers the tool call when the client's response arrives.
//! * Per-session state (the log level, subscriptions) is kept by [`SessionTag`]; the
//!   tool list and the watched resource are the server's, shared by every session.

use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::time::Duration;

use mcp_sansio::adapters::app::{Context, Handler, SessionTag, Ticket, WorkerPool};
use mcp_sansio::mcp::{
    CallToolParams, CallToolResult, CompleteParams, CompleteResult, Completion, CompletionReference, ContentBlock,
    CreateMessageParams, CreateMessageResult, ElicitAction, ElicitFormParams, ElicitParams, ElicitResult, EmptyResult,
    GetPromptParams, GetPromptResult, Items, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    ListToolsResult, LogData, LoggingLevel, LoggingMessageParams, MessageRole, Method, OneOrMany, Prompt,
    PromptMessage, ReadResourceParams, ReadResourceResult, ResourceContents, ResourceUriParams, Role, SamplingMessage,
    SetLevelParams, Tool,
};
use mcp_sansio::session::{
    Config, CursorCodec, CursorError, Endpoint, Event, IncomingRequest, RequestOptions, SendError,
};
use mcp_sansio::time::Instant;
use mcp_sansio::wire::{ErrorCode, JsonStr, RawJson, RequestId};
use serde::Serialize;

use super::fixtures as fx;
use super::mrtr::{self, Answer};

/// Requests of ours (sampling, elicitation) that can be in flight at once.
pub const OUT: usize = 32;
/// Requests of the client's that can be in flight at once over stdio (slow tool calls
/// hold one each; more are held).
pub const IN: usize = 64;

/// The endpoint this server runs over stdio.
pub type ServerEndpoint<'a> = Endpoint<'a, OUT, IN>;

/// The handler's context.
pub type Cx<'c> = Context<'c, Msg>;

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
             toggle_extra_tool (list changes), update_watched_resource (subscriptions) and, over HTTP, \
             test_reconnection (the client resumes a closed stream).",
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

/// The handler's own messages.
pub enum Msg {
    /// Ask the client something on behalf of the tool call `call`.
    Ask { call: Ticket, ask: Ask, params: Vec<u8> },
    /// Withdraw a request of ours.
    Cancel { session: SessionTag, out: RequestId },
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

/// `{"resultType":"input_required","inputRequests":{"ask":{…}}}`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct InputAsk<'a> {
    result_type: &'static str,
    input_requests: AskOne<'a>,
}

#[derive(Serialize)]
struct AskOne<'a> {
    ask: AskRequest<'a>,
}

#[derive(Serialize)]
struct AskRequest<'a> {
    method: &'static str,
    params: RawJson<'a>,
}

/// A server→client request in flight for a tool call.
struct PendingAsk {
    out: RequestId,
    call: Ticket,
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
    Logging { level: Option<LoggingLevel> },
    /// `test_tool_with_progress`: progress 0, 50, 100 of 100, 50 ms apart; answers the token.
    Progress { token: String },
    /// `test_long_running`.
    Long { steps: u64, step_ms: u64 },
    /// `test_reconnection`: answers after a pause, once the client has had to resume.
    Reconnection,
}

impl Job {
    fn run(self, ticket: Ticket, progress: bool) {
        let step = |n: f64, total: f64, message: String| {
            if progress {
                ticket.progress(n, Some(total), Some(&message));
            }
        };
        let text = match self {
            Job::Logging { level } => {
                for (i, line) in fx::LOG_LINES.iter().enumerate() {
                    if i > 0 && !ticket.sleep(Duration::from_millis(50)) {
                        break;
                    }
                    if level.is_none_or(|min| LoggingLevel::Info >= min) {
                        let params = LoggingMessageParams {
                            level: LoggingLevel::Info,
                            logger: None,
                            data: LogData::Text(JsonStr::from_text(line)),
                            meta: None,
                        };
                        ticket.notify("notifications/message", Some(&params));
                    }
                }
                fx::LOGGING_DONE.to_string()
            }
            Job::Progress { token } => {
                for (i, n) in [0.0, 50.0, 100.0].into_iter().enumerate() {
                    if i > 0 && !ticket.sleep(Duration::from_millis(50)) {
                        break;
                    }
                    step(n, 100.0, format!("Completed step {n} of 100"));
                }
                token
            }
            Job::Long { steps, step_ms } => {
                let mut done = 0;
                while done < steps && ticket.sleep(Duration::from_millis(step_ms)) {
                    done += 1;
                    step(done as f64, steps as f64, format!("step {done} of {steps}"));
                }
                if done < steps {
                    format!("cancelled after {done} of {steps} steps")
                } else {
                    format!("finished {steps} steps of {step_ms} ms")
                }
            }
            Job::Reconnection => {
                ticket.sleep(Duration::from_millis(200));
                "Reconnection test completed successfully".to_string()
            }
        };
        // Dropped by the adapter if the request was cancelled meanwhile.
        ticket.respond(&CallToolResult::text(&text));
    }
}

fn string_arg(args: RawJson<'_>, name: &str) -> Option<String> {
    args.get(name).and_then(|v| v.as_str()).map(|s| s.to_string())
}

/// JSON text of a value built from the vocabulary types.
fn json<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
    serde_json::to_vec(value).expect("vocabulary values serialize")
}

fn reply<R: Serialize + ?Sized>(cx: &mut Cx<'_>, req: &mut IncomingRequest<'_>, result: &R) {
    cx.reply(req, result);
}

fn fail(cx: &mut Cx<'_>, req: &mut IncomingRequest<'_>, code: ErrorCode, message: &str) {
    cx.reply_error(req, code, message);
}

fn fail_with<D: Serialize>(
    cx: &mut Cx<'_>,
    req: &mut IncomingRequest<'_>,
    code: ErrorCode,
    message: &str,
    data: Option<&D>,
) {
    cx.reply_error_data(req, code, message, data);
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

/// What the server keeps per session.
#[derive(Default)]
struct PerSession {
    log_level: Option<LoggingLevel>,
    /// 2026-07-28 requests came on it: resource notifications go to its listen
    /// streams (the endpoint knows which were granted the URI).
    stateless: bool,
    subscriptions: BTreeSet<String>,
}

/// The example server.
pub struct ServerApp {
    opts: Options,
    pool: WorkerPool,
    /// The 2026-07-28 fixtures (input_required rounds, diagnostic tools).
    modern: mrtr::Fixtures,
    /// `test_trigger_prompt_change` lists `extra_prompt`.
    extra_prompt: bool,
    tools: Vec<Tool<'static>>,
    extra_tool: Tool<'static>,
    asks: Vec<PendingAsk>,
    sessions: HashMap<SessionTag, PerSession>,
    extra_enabled: bool,
    tools_epoch: u32,
    watched: String,
    revision: u32,
    next_tick: Option<Instant>,
}

impl ServerApp {
    /// A server with `opts`.
    pub fn new(opts: Options) -> std::io::Result<Self> {
        Ok(ServerApp {
            pool: WorkerPool::new(opts.workers)?,
            modern: mrtr::Fixtures::new(random_key()),
            extra_prompt: false,
            opts,
            tools: fx::TOOLS.iter().map(fx::tool).collect(),
            extra_tool: fx::tool(&fx::EXTRA_TOOL),
            asks: Vec::new(),
            sessions: HashMap::new(),
            extra_enabled: false,
            tools_epoch: 0,
            watched: fx::WATCHED_TEXT.into(),
            revision: 0,
            next_tick: None,
        })
    }

    fn note(&self, what: fmt::Arguments<'_>) {
        if self.opts.verbose {
            eprintln!("[server] {what}");
        }
    }

    fn session(&mut self, cx: &Cx<'_>) -> &mut PerSession {
        self.sessions.entry(cx.session().unwrap_or(SessionTag::STDIO)).or_default()
    }

    /// `notifications/message` to the current session, if `level` passes its level.
    fn log(&mut self, cx: &mut Cx<'_>, level: LoggingLevel, text: &str) {
        let Some(tag) = cx.session() else { return };
        if self.session(cx).log_level.is_some_and(|min| level < min) {
            return;
        }
        let params = LoggingMessageParams {
            level,
            logger: Some(JsonStr::from_text(fx::LOGGER)),
            data: LogData::Text(JsonStr::from_text(text)),
            meta: None,
        };
        cx.notify(tag, "notifications/message", Some(&params));
    }

    fn on_request(&mut self, cx: &mut Cx<'_>, req: &mut IncomingRequest<'_>) {
        let params = req.params;
        match req.method {
            Method::ToolsList => {
                let mut tools = self.tool_list();
                if req.modern().is_some() {
                    tools.extend(mrtr::TOOLS.iter().map(fx::tool));
                }
                match self.page(&tools, List::Tools, params) {
                    Ok((page, next)) => {
                        let next_cursor = next.as_ref().map(|c| JsonStr::from_text(c.as_str()));
                        reply(cx, req, &ListToolsResult { next_cursor, ..ListToolsResult::new(page) })
                    }
                    Err(e) => fail(cx, req, e.code(), e.message()),
                }
            }
            Method::ToolsCall => self.call_tool(cx, req),
            Method::ResourcesList => match self.page(&fx::RESOURCES, List::Resources, params) {
                Ok((page, next)) => {
                    let next_cursor = next.as_ref().map(|c| JsonStr::from_text(c.as_str()));
                    reply(cx, req, &ListResourcesResult { next_cursor, ..ListResourcesResult::new(page) })
                }
                Err(e) => fail(cx, req, e.code(), e.message()),
            },
            Method::ResourcesTemplatesList => match self.page(&fx::TEMPLATES, List::Templates, params) {
                Ok((page, next)) => {
                    let next_cursor = next.as_ref().map(|c| JsonStr::from_text(c.as_str()));
                    let result = ListResourceTemplatesResult { next_cursor, ..ListResourceTemplatesResult::new(page) };
                    reply(cx, req, &result)
                }
                Err(e) => fail(cx, req, e.code(), e.message()),
            },
            Method::PromptsList => match self.page(&self.prompt_list(req.modern().is_some()), List::Prompts, params) {
                Ok((page, next)) => {
                    let next_cursor = next.as_ref().map(|c| JsonStr::from_text(c.as_str()));
                    reply(cx, req, &ListPromptsResult { next_cursor, ..ListPromptsResult::new(page) })
                }
                Err(e) => fail(cx, req, e.code(), e.message()),
            },
            Method::ResourcesRead => self.read_resource(cx, req),
            Method::ResourcesSubscribe | Method::ResourcesUnsubscribe => {
                let Some(p) = params.and_then(|p| p.decode::<ResourceUriParams<'_>>().ok()) else {
                    return fail(cx, req, ErrorCode::INVALID_PARAMS, "Invalid params: a uri is required");
                };
                let uri = p.uri.to_string();
                let subscribe = req.method == Method::ResourcesSubscribe;
                let text = if subscribe {
                    self.session(cx).subscriptions.insert(uri.clone());
                    format!("Subscribed to resource: {uri}")
                } else {
                    self.session(cx).subscriptions.remove(&uri);
                    format!("Unsubscribed from resource: {uri}")
                };
                reply(cx, req, &EmptyResult::EMPTY);
                self.log(cx, LoggingLevel::Info, &text);
            }
            Method::PromptsGet => self.get_prompt(cx, req),
            // 2026-07-28: a listen stream. Acknowledged with what this server can send;
            // the endpoint sends change notifications to it (tagged, filtered) and ends
            // it when the client cancels it or its input ends.
            Method::SubscriptionsListen => {
                if let Err(e) = req.acknowledge() {
                    self.note(format_args!("could not acknowledge {}: {e}", req.id));
                }
            }
            Method::CompletionComplete => self.complete(cx, req),
            Method::LoggingSetLevel => match params.and_then(|p| p.decode::<SetLevelParams<'_>>().ok()) {
                Some(p) => {
                    self.session(cx).log_level = Some(p.level);
                    reply(cx, req, &EmptyResult::EMPTY);
                    let text = format!("Log level set to: {}", p.level.as_str());
                    self.log(cx, LoggingLevel::Info, &text);
                }
                None => fail(cx, req, ErrorCode::INVALID_PARAMS, "Invalid params: level must be a logging level"),
            },
            other => {
                let message = format!("Method not found: {}", other.name());
                fail(cx, req, ErrorCode::METHOD_NOT_FOUND, &message)
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

    fn prompt_list(&self, modern: bool) -> Vec<Prompt<'static>> {
        let mut prompts = fx::PROMPTS.to_vec();
        if modern {
            prompts
                .push(Prompt::new(mrtr::PROMPT, &[]).with_description("Asks for the context to use (input_required)"));
        }
        if self.extra_prompt {
            prompts.push(Prompt::new("extra_prompt", &[]).with_description("Exists only while toggled on"));
        }
        prompts
    }

    fn tool_list(&self) -> Vec<Tool<'static>> {
        let mut tools = self.tools.clone();
        if self.extra_enabled {
            tools.push(self.extra_tool);
        }
        tools
    }

    // ---- tools ----------------------------------------------------------------------

    fn call_tool(&mut self, cx: &mut Cx<'_>, req: &mut IncomingRequest<'_>) {
        let Some(call) = req.params.and_then(|p| p.decode::<CallToolParams<'_>>().ok()) else {
            return fail(cx, req, ErrorCode::INVALID_PARAMS, "Invalid params: tools/call needs a tool name");
        };
        let args = call.arguments.unwrap_or(RawJson::EMPTY_OBJECT);
        let name = call.name.to_string();
        if let Some(m) = req.modern()
            && mrtr::Fixtures::has_tool(&name)
        {
            return self.call_modern_fixture(cx, req, &name, m.client_capabilities);
        }
        match name.as_str() {
            "test_simple_text" => reply(cx, req, &CallToolResult::text(fx::SIMPLE_TEXT)),
            "test_image_content" => {
                reply(cx, req, &CallToolResult::one(ContentBlock::image(fx::TEST_IMAGE_BASE64, "image/png")))
            }
            "test_audio_content" => {
                reply(cx, req, &CallToolResult::one(ContentBlock::audio(fx::TEST_AUDIO_BASE64, "audio/wav")))
            }
            "test_embedded_resource" => {
                let resource =
                    ResourceContents::text("test://embedded-resource", Some("text/plain"), fx::EMBEDDED_TEXT);
                reply(cx, req, &CallToolResult::one(ContentBlock::resource(resource)))
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
                reply(cx, req, &CallToolResult::new(&blocks))
            }
            "test_error_handling" => reply(cx, req, &CallToolResult::error(fx::ERROR_TEXT)),
            "test_tool_with_logging" => {
                let level = self.session(cx).log_level;
                self.spawn(cx, req, Job::Logging { level })
            }
            "test_tool_with_progress" => {
                // The answer is the progress token, as the fixture's text (0 without one).
                let token = params_meta_token(req.params).unwrap_or_else(|| "0".into());
                self.spawn(cx, req, Job::Progress { token })
            }
            "test_long_running" => {
                let steps = args.get("steps").and_then(|s| s.as_u64()).unwrap_or(10).clamp(1, 1000);
                let step_ms = args.get("stepMs").and_then(|s| s.as_u64()).unwrap_or(100).min(10_000);
                self.spawn(cx, req, Job::Long { steps, step_ms })
            }
            "test_reconnection" => {
                // Over HTTP the POST's stream is closed after its priming event; the answer
                // comes on the GET the client resumes with. Over stdio: just the answer.
                let ticket = cx.ticket(req);
                cx.close_stream(&ticket);
                self.pool.execute(move || Job::Reconnection.run(ticket, false));
            }
            "test_sampling" => {
                let Some(prompt) = string_arg(args, "prompt") else {
                    return reply(cx, req, &CallToolResult::error("Invalid arguments: prompt (a string) is required"));
                };
                let messages = [SamplingMessage {
                    role: MessageRole::User,
                    content: OneOrMany::One(ContentBlock::text(&prompt)),
                    meta: None,
                }];
                let params = json(&CreateMessageParams::new(&messages, 100));
                self.ask(cx, req, Ask::Sampling, params);
            }
            "test_elicitation" => {
                let Some(message) = string_arg(args, "message") else {
                    return reply(cx, req, &CallToolResult::error("Invalid arguments: message (a string) is required"));
                };
                self.elicit(cx, req, &message, fx::ELICITATION_SCHEMA, "User response");
            }
            "test_elicitation_sep1034_defaults" => self.elicit(
                cx,
                req,
                "Please review and update the form fields with defaults",
                fx::DEFAULTS_SCHEMA,
                "Elicitation completed",
            ),
            "test_elicitation_sep1330_enums" => self.elicit(
                cx,
                req,
                "Please select options from the enum fields",
                fx::ENUMS_SCHEMA,
                "Elicitation completed",
            ),
            "json_schema_2020_12_tool" => {
                let text = format!("JSON Schema 2020-12 tool called with: {}", fx::compact(args.as_bytes()));
                reply(cx, req, &CallToolResult::text(&text))
            }
            "echo" => match string_arg(args, "message") {
                Some(message) => reply(cx, req, &CallToolResult::text(&format!("Echo: {message}"))),
                None => reply(cx, req, &CallToolResult::error("Invalid arguments: message (a string) is required")),
            },
            "toggle_extra_tool" => {
                self.extra_enabled = !self.extra_enabled;
                // The list changed: cursors issued for the old one are now stale.
                self.tools_epoch += 1;
                let text =
                    if self.extra_enabled { "extra_tool is now listed" } else { "extra_tool is no longer listed" };
                reply(cx, req, &CallToolResult::text(text));
                // Every session sees the same list.
                let sessions: Vec<SessionTag> = self.sessions.keys().copied().collect();
                for s in sessions {
                    cx.notify(s, "notifications/tools/list_changed", None::<&RawJson<'_>>);
                }
            }
            "extra_tool" if self.extra_enabled => reply(cx, req, &CallToolResult::text("extra_tool was called")),
            "update_watched_resource" => {
                let notified = self.update_watched(cx, string_arg(args, "text"));
                let text = format!(
                    "{} is now at revision {}; {notified} subscriber(s) notified",
                    fx::WATCHED_URI,
                    self.revision
                );
                reply(cx, req, &CallToolResult::text(&text))
            }
            _ => {
                let message = format!("Unknown tool: {name}");
                fail(cx, req, ErrorCode::INVALID_PARAMS, &message)
            }
        }
    }

    /// The 2026-07-28 fixtures (see [`mrtr`]).
    fn call_modern_fixture(
        &mut self,
        cx: &mut Cx<'_>,
        req: &mut IncomingRequest<'_>,
        name: &str,
        caps: mcp_sansio::mcp::CapabilitySet,
    ) {
        let notify_all = |sessions: &HashMap<SessionTag, PerSession>, cx: &mut Cx<'_>, method: &str| {
            for s in sessions.keys() {
                cx.notify(*s, method, None::<&RawJson<'_>>);
            }
        };
        match name {
            // The endpoint sends its lines only at the level the request asked for.
            "test_logging_tool" => self.spawn(cx, req, Job::Logging { level: None }),
            "test_trigger_tool_change" => {
                self.extra_enabled = !self.extra_enabled;
                self.tools_epoch += 1;
                reply(cx, req, &CallToolResult::text("The tool list changed"));
                notify_all(&self.sessions, cx, "notifications/tools/list_changed");
            }
            "test_trigger_prompt_change" => {
                self.extra_prompt = !self.extra_prompt;
                reply(cx, req, &CallToolResult::text("The prompt list changed"));
                notify_all(&self.sessions, cx, "notifications/prompts/list_changed");
            }
            _ => {
                let answer = self.modern.call(cx.now(), name, req.params, caps);
                self.answer(cx, req, answer)
            }
        }
    }

    fn answer(&mut self, cx: &mut Cx<'_>, req: &mut IncomingRequest<'_>, answer: Answer) {
        match answer {
            Answer::Result(value) => reply(cx, req, &value),
            Answer::Error { code, message, data } => fail_with(cx, req, code, &message, data.as_ref()),
        }
    }

    fn elicit(
        &mut self,
        cx: &mut Cx<'_>,
        req: &mut IncomingRequest<'_>,
        message: &str,
        schema: &'static str,
        prefix: &'static str,
    ) {
        let params = ElicitParams::Form(ElicitFormParams {
            mode: None,
            message: JsonStr::from_text(message),
            requested_schema: RawJson::parse(schema.as_bytes()).expect("fixture schemas are valid JSON"),
            task: None,
            meta: None,
        });
        self.ask(cx, req, Ask::Elicitation { prefix }, json(&params));
    }

    /// A tool needs the client: in a handshake session it sends its request (deferred,
    /// the endpoint is busy with the event) and answers the call when the client has
    /// answered; in the stateless era (2026-07-28) it answers `input_required` with the
    /// request under the key `ask`, and the client's retry brings the answer (no state
    /// needed: the retry carries the original arguments).
    fn ask(&mut self, cx: &mut Cx<'_>, req: &mut IncomingRequest<'_>, ask: Ask, params: Vec<u8>) {
        if req.modern().is_none() {
            let call = cx.ticket(req);
            cx.defer(Msg::Ask { call, ask, params });
            return;
        }
        let answer = req.params.and_then(|p| p.get("inputResponses")).and_then(|r| r.get("ask"));
        if let Some(answer) = answer {
            return match ask.summary(answer) {
                Ok(text) => reply(cx, req, &CallToolResult::text(&text)),
                Err(why) => reply(cx, req, &CallToolResult::error(&format!("{}: {why}", ask.failure()))),
            };
        }
        let params = RawJson::parse(&params).expect("valid JSON");
        let request = AskRequest { method: ask.method(), params };
        let result = InputAsk { result_type: "input_required", input_requests: AskOne { ask: request } };
        if let Some(SendError::CapabilityNotDeclared(_)) = cx.reply(req, &result) {
            // The client cannot be asked: the tool says so, as in a handshake session.
            let text = format!("{}: the client did not declare the capability", ask.failure());
            reply(cx, req, &CallToolResult::error(&text))
        }
    }

    /// Runs `job` on a worker with the request's ticket.
    fn spawn(&mut self, cx: &mut Cx<'_>, req: &IncomingRequest<'_>, job: Job) {
        let progress = req.wants_progress();
        let ticket = cx.ticket(req);
        self.pool.execute(move || job.run(ticket, progress));
    }

    /// Changes the watched resource; returns how many subscribers were notified.
    fn update_watched(&mut self, cx: &mut Cx<'_>, text: Option<String>) -> usize {
        self.revision += 1;
        self.watched = text.unwrap_or_else(|| format!("{} (revision {})", fx::WATCHED_TEXT, self.revision));
        let params = ResourceUriParams::new(fx::WATCHED_URI);
        let mut notified = 0;
        for (tag, s) in &self.sessions {
            // 2026-07-28: sent to whichever listen streams were granted the URI (the
            // endpoint knows them); a handshake session keeps its subscriptions here.
            if s.stateless || s.subscriptions.contains(fx::WATCHED_URI) {
                cx.notify(*tag, "notifications/resources/updated", Some(&params));
                notified += 1;
            }
        }
        notified
    }

    // ---- resources, prompts, completion ---------------------------------------------

    fn read_resource(&mut self, cx: &mut Cx<'_>, req: &mut IncomingRequest<'_>) {
        let Some(p) = req.params.and_then(|p| p.decode::<ReadResourceParams<'_>>().ok()) else {
            return fail(cx, req, ErrorCode::INVALID_PARAMS, "Invalid params: a uri is required");
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
                return fail_with(cx, req, ErrorCode::INVALID_PARAMS, "Resource not found", Some(&data));
            }
        };
        let contents = [contents];
        let result = json(&ReadResourceResult::new(&contents));
        // (Serialized first: `contents` borrows `self.watched`, and `reply` needs `&mut self`.)
        reply(cx, req, &RawJson::parse(&result).expect("valid JSON"));
    }

    fn get_prompt(&mut self, cx: &mut Cx<'_>, req: &mut IncomingRequest<'_>) {
        let Some(p) = req.params.and_then(|p| p.decode::<GetPromptParams<'_>>().ok()) else {
            return fail(cx, req, ErrorCode::INVALID_PARAMS, "Invalid params: a prompt name is required");
        };
        let arg = |name: &str| p.arguments.and_then(|a| a.get(name)).and_then(Result::ok).map(|s| s.to_string());
        let user = |content| PromptMessage { role: MessageRole::User, content };
        let name = p.name.to_string();
        if name == mrtr::PROMPT && req.modern().is_some() {
            let answer = self.modern.prompt(req.params);
            return self.answer(cx, req, answer);
        }
        if name == "extra_prompt" && self.extra_prompt {
            let messages = [user(ContentBlock::text("extra_prompt was toggled on"))];
            return reply(cx, req, &GetPromptResult::new(&messages));
        }
        let missing = |cx: &mut Cx<'_>, req: &mut IncomingRequest<'_>, what: &str| {
            let message = format!("Invalid arguments for prompt {name}: {what} is required");
            fail(cx, req, ErrorCode::INVALID_PARAMS, &message)
        };
        match name.as_str() {
            "test_simple_prompt" => {
                let messages = [user(ContentBlock::text("This is a simple prompt for testing."))];
                reply(cx, req, &GetPromptResult::new(&messages))
            }
            "test_prompt_with_arguments" => {
                let (Some(arg1), Some(arg2)) = (arg("arg1"), arg("arg2")) else {
                    return missing(cx, req, "arg1 and arg2");
                };
                let text = format!("Prompt with arguments: arg1='{arg1}', arg2='{arg2}'");
                let messages = [user(ContentBlock::text(&text))];
                reply(cx, req, &GetPromptResult::new(&messages))
            }
            "test_prompt_with_embedded_resource" => {
                let Some(uri) = arg("resourceUri") else { return missing(cx, req, "resourceUri") };
                let resource =
                    ResourceContents::text(&uri, Some("text/plain"), "Embedded resource content for testing.");
                let messages = [
                    user(ContentBlock::resource(resource)),
                    user(ContentBlock::text("Please process the embedded resource above.")),
                ];
                reply(cx, req, &GetPromptResult::new(&messages))
            }
            "test_prompt_with_image" => {
                let messages = [
                    user(ContentBlock::image(fx::TEST_IMAGE_BASE64, "image/png")),
                    user(ContentBlock::text("Please analyze the image above.")),
                ];
                reply(cx, req, &GetPromptResult::new(&messages))
            }
            _ => {
                let message = format!("Prompt not found: {name}");
                fail(cx, req, ErrorCode::INVALID_PARAMS, &message)
            }
        }
    }

    fn complete(&mut self, cx: &mut Cx<'_>, req: &mut IncomingRequest<'_>) {
        let Some(p) = req.params.and_then(|p| p.decode::<CompleteParams<'_>>().ok()) else {
            return fail(cx, req, ErrorCode::INVALID_PARAMS, "Invalid params: ref and argument are required");
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
        reply(cx, req, &CompleteResult { completion, ..CompleteResult::new(&[]) })
    }

    // ---- answers from the client ----------------------------------------------------

    /// A request of ours ended: answer the tool call that was waiting for it.
    fn answered(&mut self, cx: &mut Cx<'_>, id: &RequestId, outcome: Result<RawJson<'_>, String>) {
        let Some(tag) = cx.session() else { return };
        let Some(i) = self.asks.iter().position(|a| a.call.session() == tag && a.out == *id) else { return };
        let PendingAsk { call, ask, .. } = self.asks.remove(i);
        match outcome.and_then(|r| ask.summary(r)) {
            Ok(text) => cx.respond(&call, &CallToolResult::text(&text)),
            Err(why) => cx.respond(&call, &CallToolResult::error(&format!("{}: {why}", ask.failure()))),
        }
    }

    /// The client cancelled a tool call waiting for it: withdraw our request too.
    fn cancelled(&mut self, cx: &mut Cx<'_>, request: &mcp_sansio::session::PendingRequest) {
        let Some(tag) = cx.session() else { return };
        let mut i = 0;
        while i < self.asks.len() {
            if self.asks[i].call.session() == tag && self.asks[i].call.request() == request {
                let out = self.asks.remove(i).out;
                cx.defer(Msg::Cancel { session: tag, out });
            } else {
                i += 1;
            }
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

impl Handler for ServerApp {
    type Message = Msg;

    fn on_event(&mut self, cx: &mut Cx<'_>, event: Event<'_>) {
        match event {
            Event::Negotiated { version, peer } => {
                let client = peer.get("clientInfo").map_or("?", |c| c.as_text());
                self.note(format_args!("negotiated {version} with {client}"));
                self.session(cx);
            }
            Event::Ready { .. } => {
                self.session(cx);
            }
            Event::Request(mut req) => {
                self.note(format_args!("request {} {}", req.id, req.method));
                if req.modern().is_some() {
                    // No handshake in this era: the first request opens the session (for
                    // the list and resource notifications its listen streams may take).
                    self.session(cx).stateless = true;
                }
                self.on_request(cx, &mut req)
            }
            Event::Response { id, result, .. } => self.answered(cx, &id, Ok(result)),
            Event::Error { id, error, .. } => {
                let why = format!("{} ({})", error.message, error.code.0);
                self.answered(cx, &id, Err(why))
            }
            Event::TimedOut { id, .. } => self.answered(cx, &id, Err("the client did not answer in time".into())),
            Event::Failed { id, reason, .. } => self.answered(cx, &id, Err(reason.to_string())),
            Event::Cancelled { request, .. } => {
                self.note(format_args!("the client cancelled {request}"));
                self.cancelled(cx, &request)
            }
            Event::Closed { reason } => self.note(format_args!("closed: {reason}")),
            other => self.note(format_args!("{other:?}")),
        }
    }

    fn on_message(&mut self, cx: &mut Cx<'_>, message: Msg) {
        match message {
            Msg::Ask { call, ask, params } => {
                if call.is_cancelled() {
                    return;
                }
                let params = RawJson::parse(&params).expect("valid JSON");
                let options = RequestOptions::default().timeout(ASK_TIMEOUT).related_to(call.request());
                match cx.send_request(call.session(), ask.method(), Some(&params), options) {
                    Ok(out) => {
                        self.asks.push(PendingAsk { out, call, ask });
                    }
                    Err(e) => {
                        // No capability, wrong version, no free slot, closing: the tool says so.
                        let text = format!("{}: {e}", ask.failure());
                        cx.respond(&call, &CallToolResult::error(&text));
                    }
                }
            }
            Msg::Cancel { session, out } => {
                let _ = cx.cancel(session, &out, Some("the tool call was cancelled"));
            }
        }
    }

    fn on_idle(&mut self, cx: &mut Cx<'_>) -> Option<Instant> {
        let interval = self.opts.watch_interval?;
        if self.sessions.is_empty() {
            return None;
        }
        let now = cx.now();
        let tick = *self.next_tick.get_or_insert(now + interval);
        if now >= tick {
            self.update_watched(cx, None);
            self.next_tick = Some(now + interval);
        }
        self.next_tick
    }

    fn on_session_end(&mut self, session: SessionTag) {
        self.sessions.remove(&session);
        self.asks.retain(|a| a.call.session() != session);
    }
}
