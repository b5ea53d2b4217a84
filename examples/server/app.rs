//! The example server declared on the toolkit ([`ServerBuilder`]): the same
//! [`ServerHandler`] serves stdio and HTTP.
//!
//! * The toolkit answers the lists (pages, signed cursors), reads, prompts, completion,
//!   `logging/setLevel`, `resources/subscribe` and 2026-07-28 listen streams.
//! * Fast tools answer in the event itself; slow ones run on the worker pool as toolkit
//!   jobs ([`Job`]): progress, log lines, questions to the client (sampling,
//!   elicitation: a request of the server's own in a handshake session, withdrawn if the
//!   call is cancelled), cancellation.
//! * What changes (the watched resource, the extra tool and prompt) is told to the
//!   [`Notifier`], which sends `resources/updated` to the subscribers and the
//!   `list_changed` notifications to every session, and makes old cursors stale.
//! * The watched resource's timer runs in the handler's idle hook.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use mcp_sansio::adapters::app::{Context, WorkerPool};
use mcp_sansio::mcp::{
    CallToolResult, ContentBlock, CreateMessageParams, CreateMessageResult, ElicitAction, ElicitFormParams,
    ElicitParams, ElicitResult, GetPromptResult, LoggingLevel, MessageRole, OneOrMany, PromptMessage, ResourceContents,
    ResourceTemplate, SamplingMessage, Tool,
};
use mcp_sansio::session::{Endpoint, Event, ModernRequest};
use mcp_sansio::time::Instant;
use mcp_sansio::toolkit::client::ClientError;
use mcp_sansio::toolkit::server::{
    Blob, Call, Condition, Fallback, Get, Idle, Job, List, NoJob, Notifier, PromptHandler, PromptInfo, Read,
    ResourceHandler, Server, ServerBuilder, ServerHandler, Target, TemplateHandler, ToolHandler, Vars,
};
use mcp_sansio::toolkit::{Arguments, NoArguments};
use mcp_sansio::wire::{ErrorCode, JsonStr, RawJson};

use super::fixtures as fx;
use super::mrtr::{self, Answer};

/// Requests of ours (sampling, elicitation) that can be in flight at once.
pub const OUT: usize = 32;
/// Requests of the client's that can be worked on at once in a session (slow tool calls
/// take one each; more wait in the receive buffer until one ends, answered in turn).
pub const IN: usize = 16;

/// The endpoint this server runs over stdio: the one the HTTP adapter makes for each
/// session (`Box<[u8]>` buffers, the same slots), so the binary carries the session
/// code once for both transports.
pub type ServerEndpoint = Endpoint<'static, OUT, IN, Box<[u8]>>;

/// The server, as the adapters' handler.
pub type Handler = ServerHandler<'static, App, NoJob, 0, Fallback<App>, Idle<App>>;

/// What the server can be told on its command line.
#[derive(Clone, Debug)]
pub struct Options {
    /// Items per page of every list.
    pub page_size: usize,
    /// Worker threads for slow tools.
    pub workers: usize,
    /// Change `test://watched-resource` by itself at this interval.
    pub watch_interval: Option<Duration>,
    /// Describe the events the toolkit leaves to the application on stderr.
    pub verbose: bool,
    /// The size of the endpoint's transmit buffer (an answer larger than this fails).
    pub tx_capacity: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options { page_size: 1000, workers: 4, watch_interval: None, verbose: false, tx_capacity: 256 * 1024 }
    }
}

/// `extra_tool` is listed (`toggle_extra_tool`, `test_trigger_tool_change`).
static EXTRA_TOOL: AtomicBool = AtomicBool::new(false);
/// `extra_prompt` is listed (`test_trigger_prompt_change`).
static EXTRA_PROMPT: AtomicBool = AtomicBool::new(false);

/// What the tools share: the server's, shared by every session.
pub struct App {
    notifier: Notifier,
    /// The 2026-07-28 fixtures (input_required rounds, diagnostic tools).
    modern: mrtr::Fixtures,
    watched: String,
    revision: u32,
    watch_interval: Option<Duration>,
    next_tick: Option<Instant>,
    verbose: bool,
    /// The clock the 2026-07-28 fixtures seal their states with.
    started: std::time::Instant,
}

impl App {
    /// Changes the watched resource and tells its subscribers; returns how many
    /// handshake sessions are subscribed.
    fn update_watched(&mut self, text: Option<String>) -> usize {
        self.revision += 1;
        self.watched = text.unwrap_or_else(|| format!("{} (revision {})", fx::WATCHED_TEXT, self.revision));
        self.notifier.resource_updated(fx::WATCHED_URI);
        self.notifier.subscribers(fx::WATCHED_URI)
    }

    fn now(&self) -> Instant {
        Instant::from_millis(self.started.elapsed().as_millis() as u64)
    }
}

/// The server with every fixture, and its handler (with the notifier its tools tell and
/// the watched resource's timer).
pub fn handler(opts: &Options) -> std::io::Result<(Handler, mcp_sansio::session::Config<'static>)> {
    let pool = WorkerPool::new(opts.workers)?;
    let notifier = Notifier::new();
    let server = server(opts.page_size, pool);
    // The server's info rendered once, so that results copy it rather than serialize it
    // (every 2026-07-28 result carries it); the configuration lives as long as the process.
    let info: &'static [u8] = Box::leak(server.info_json().into_boxed_slice());
    let mut config = server.config_with_info(info);
    config = config.instructions(INSTRUCTIONS);
    let app = App {
        notifier: notifier.clone(),
        modern: mrtr::Fixtures::new(random_key()),
        watched: fx::WATCHED_TEXT.into(),
        revision: 0,
        watch_interval: opts.watch_interval,
        next_tick: None,
        verbose: opts.verbose,
        started: std::time::Instant::now(),
    };
    let handler =
        server.handler(app).with_notifier(notifier).fallback(fallback as Fallback<App>).idle(tick as Idle<App>);
    Ok((handler, config))
}

const INSTRUCTIONS: &str = "The MCP conformance fixtures (test_*), plus test_long_running (progress, cancellation), \
    toggle_extra_tool (list changes), update_watched_resource (subscriptions) and, over HTTP, \
    test_reconnection (the client resumes a closed stream).";

fn server(page_size: usize, pool: WorkerPool) -> Server<'static, App> {
    let mut b = ServerBuilder::with_state("mcp-sansio-example-server", env!("CARGO_PKG_VERSION"))
        .page_size(page_size)
        .announce_changes(List::Tools)
        .announce_changes(List::Resources)
        .announce_changes(List::Prompts)
        .subscriptions()
        .logging()
        .spawner(move |job| pool.execute(job));
    for (entry, run) in fx::TOOLS.iter().zip(TOOL_RUNS) {
        b = b.tool_handler(Fixture::new(entry, run, always));
    }
    b = b.tool_handler(Fixture::new(&fx::EXTRA_TOOL, |_, call| call.respond(&"extra_tool was called"), extra_on));
    for entry in &mrtr::TOOLS {
        b = b.tool_handler(Fixture::new(entry, modern_tool, stateless));
    }
    b = b.resources(Fixed).template_handler(Template);
    for (info, get) in PROMPTS {
        b = b.prompt_handler(Prompt { info, get, when: always });
    }
    let modern_prompt = PromptInfo {
        name: mrtr::PROMPT,
        title: None,
        description: Some("Asks for the context to use (input_required)"),
        arguments: &[],
    };
    b = b.prompt_handler(Prompt { info: modern_prompt, get: |app, get| answer_prompt(app, get), when: stateless });
    let extra_prompt = PromptInfo {
        name: "extra_prompt",
        title: None,
        description: Some("Exists only while toggled on"),
        arguments: &[],
    };
    let extra = |_: &mut App, get: Get<'_, '_>| {
        let messages = [user(ContentBlock::text("extra_prompt was toggled on"))];
        get.respond(&GetPromptResult::new(&messages))
    };
    b = b.prompt_handler(Prompt { info: extra_prompt, get: extra, when: extra_prompt_on });
    let words = |typed: &str| fx::ARGUMENT_WORDS.iter().copied().filter(|w| w.starts_with(typed)).collect::<Vec<_>>();
    let ids = |typed: &str| fx::TEMPLATE_IDS.iter().copied().filter(|w| w.starts_with(typed)).collect::<Vec<_>>();
    b.complete(Target::Prompt("test_prompt_with_arguments"), "arg1", words)
        .complete(Target::Prompt("test_prompt_with_arguments"), "arg2", words)
        .complete(Target::Template(fx::TEMPLATE_URI), "id", ids)
        .build()
}

/// Events the toolkit leaves to the application: requests it does not know are
/// refused, the rest is only described (with `--verbose`).
fn fallback(app: &mut App, cx: &mut Context<'_, ()>, event: Event<'_>) {
    match event {
        Event::Request(mut req) => {
            let message = format!("Method not found: {}", req.method.name());
            let _ = cx.reply_error(&mut req, ErrorCode::METHOD_NOT_FOUND, &message);
        }
        other if app.verbose => eprintln!("[server] {other:?}"),
        _ => {}
    }
}

/// The watched resource's timer (`--watch-interval-ms`).
fn tick(app: &mut App, cx: &mut Context<'_, ()>) -> Option<Instant> {
    let interval = app.watch_interval?;
    let now = cx.now();
    let due = *app.next_tick.get_or_insert(now + interval);
    if now >= due {
        app.update_watched(None);
        app.next_tick = Some(now + interval);
    }
    app.next_tick
}

/// A key drawn from the process's random hashing seed.
fn random_key() -> [u8; 16] {
    use std::hash::{BuildHasher, RandomState};
    let state = RandomState::new();
    let mut key = [0u8; 16];
    key[..8].copy_from_slice(&state.hash_one(1u8).to_le_bytes());
    key[8..].copy_from_slice(&state.hash_one(2u8).to_le_bytes());
    key
}

// ---- tools ----------------------------------------------------------------------------

type Run = for<'c, 'e> fn(&mut App, Call<'c, 'e, NoJob>);

/// A fixture tool: listed as the fixture table says, answered by `run`, offered `when`.
struct Fixture {
    tool: Tool<'static>,
    run: Run,
    when: Condition,
}

impl Fixture {
    fn new(entry: &(&'static str, &'static str, &'static str), run: Run, when: Condition) -> Self {
        Fixture { tool: fx::tool(entry), run, when }
    }
}

impl ToolHandler<App> for Fixture {
    fn tool(&self) -> Tool<'_> {
        self.tool
    }

    fn call(&self, app: &mut App, call: Call<'_, '_, NoJob>) {
        (self.run)(app, call)
    }

    fn offered(&self, modern: Option<ModernRequest>) -> bool {
        (self.when)(modern)
    }
}

fn always(_: Option<ModernRequest>) -> bool {
    true
}

fn stateless(modern: Option<ModernRequest>) -> bool {
    modern.is_some()
}

fn extra_on(_: Option<ModernRequest>) -> bool {
    EXTRA_TOOL.load(Ordering::Relaxed)
}

fn extra_prompt_on(_: Option<ModernRequest>) -> bool {
    EXTRA_PROMPT.load(Ordering::Relaxed)
}

/// How each of [`fx::TOOLS`] is answered, in its order.
const TOOL_RUNS: [Run; 18] = [
    |_, call| call.respond(&CallToolResult::text(fx::SIMPLE_TEXT)),
    |_, call| call.respond(&CallToolResult::one(ContentBlock::image(fx::TEST_IMAGE_BASE64, "image/png"))),
    |_, call| call.respond(&CallToolResult::one(ContentBlock::audio(fx::TEST_AUDIO_BASE64, "audio/wav"))),
    |_, call| {
        let resource = ResourceContents::text("test://embedded-resource", Some("text/plain"), fx::EMBEDDED_TEXT);
        call.respond(&CallToolResult::one(ContentBlock::resource(resource)))
    },
    |_, call| {
        let blocks = [
            ContentBlock::text("Multiple content types test:"),
            ContentBlock::image(fx::TEST_IMAGE_BASE64, "image/png"),
            ContentBlock::resource(ResourceContents::text(
                "test://mixed-content-resource",
                Some("application/json"),
                r#"{"test":"data","value":123}"#,
            )),
        ];
        call.respond(&CallToolResult::new(&blocks))
    },
    |_, call| call.spawn_blocking(|job| log_lines(&job)),
    |_, call| {
        // The answer is the progress token, as the fixture's text (0 without one).
        let token = meta_token(call.request().params).unwrap_or_else(|| "0".into());
        call.spawn_blocking(move |job| {
            for (i, n) in [0.0, 50.0, 100.0].into_iter().enumerate() {
                if i > 0 && job.sleep(Duration::from_millis(50)).is_err() {
                    break;
                }
                job.progress(n, Some(100.0), Some(&format!("Completed step {n} of 100")));
            }
            token
        })
    },
    |_, call| call.respond(&CallToolResult::error(fx::ERROR_TEXT)),
    |_, call| {
        let Some(prompt) = string_arg(call.arguments(), "prompt") else {
            return call.respond(&CallToolResult::error("Invalid arguments: prompt (a string) is required"));
        };
        call.spawn_blocking(move |job| {
            let messages = [SamplingMessage {
                role: MessageRole::User,
                content: OneOrMany::One(ContentBlock::text(&prompt)),
                meta: None,
            }];
            let answer = job.sample(&CreateMessageParams::new(&messages, 100)).map_err(|e| failure("Sampling", &e))?;
            let r: CreateMessageResult<'_> =
                answer.decode().map_err(|e| format!("Sampling not supported or error: invalid result: {e}"))?;
            let text = r.content.iter().find_map(|b| b.ok()?.as_text());
            Ok::<_, String>(format!("LLM response: {}", text.map_or("No response".into(), |t| t.to_string())))
        })
    },
    |_, call| {
        let Some(message) = string_arg(call.arguments(), "message") else {
            return call.respond(&CallToolResult::error("Invalid arguments: message (a string) is required"));
        };
        elicit(call, message, fx::ELICITATION_SCHEMA, "User response")
    },
    |_, call| {
        let message = "Please review and update the form fields with defaults".to_string();
        elicit(call, message, fx::DEFAULTS_SCHEMA, "Elicitation completed")
    },
    |_, call| {
        let message = "Please select options from the enum fields".to_string();
        elicit(call, message, fx::ENUMS_SCHEMA, "Elicitation completed")
    },
    |_, call| {
        let text = format!("JSON Schema 2020-12 tool called with: {}", fx::compact(call.arguments().as_bytes()));
        call.respond(&CallToolResult::text(&text))
    },
    |_, call| match string_arg(call.arguments(), "message") {
        Some(message) => call.respond(&CallToolResult::text(&format!("Echo: {message}"))),
        None => call.respond(&CallToolResult::error("Invalid arguments: message (a string) is required")),
    },
    |_, call| {
        let args = call.arguments();
        let steps = args.get("steps").and_then(|s| s.as_u64()).unwrap_or(10).clamp(1, 1000);
        let step_ms = args.get("stepMs").and_then(|s| s.as_u64()).unwrap_or(100).min(10_000);
        call.spawn_blocking(move |job| {
            let mut done = 0;
            while done < steps && job.sleep(Duration::from_millis(step_ms)).is_ok() {
                done += 1;
                job.progress(done as f64, Some(steps as f64), Some(&format!("step {done} of {steps}")));
            }
            if done < steps {
                format!("cancelled after {done} of {steps} steps")
            } else {
                format!("finished {steps} steps of {step_ms} ms")
            }
        })
    },
    |_, call| {
        // Over HTTP the POST's stream is closed after its priming event; the answer
        // comes on the GET the client resumes with. Over stdio: just the answer.
        call.spawn_blocking(|job| {
            job.close_stream();
            let _ = job.sleep(Duration::from_millis(200));
            "Reconnection test completed successfully"
        })
    },
    |app, call| {
        let on = !EXTRA_TOOL.fetch_xor(true, Ordering::Relaxed);
        // Every session sees the same list; cursors issued for the old one go stale.
        app.notifier.list_changed(List::Tools);
        let text = if on { "extra_tool is now listed" } else { "extra_tool is no longer listed" };
        call.respond(&CallToolResult::text(text))
    },
    |app, call| {
        let notified = app.update_watched(string_arg(call.arguments(), "text"));
        let text =
            format!("{} is now at revision {}; {notified} subscriber(s) notified", fx::WATCHED_URI, app.revision);
        call.respond(&CallToolResult::text(&text))
    },
];

/// `test_tool_with_logging` (and `test_logging_tool`): three log lines 50 ms apart, at
/// the level the session (or the 2026-07-28 request) asked for.
fn log_lines(job: &Job) -> &'static str {
    for (i, line) in fx::LOG_LINES.iter().enumerate() {
        if i > 0 && job.sleep(Duration::from_millis(50)).is_err() {
            break;
        }
        job.log(LoggingLevel::Info, line);
    }
    fx::LOGGING_DONE
}

/// Asks the client to fill `schema`; the answer starts with `prefix`.
fn elicit(call: Call<'_, '_, NoJob>, message: String, schema: &'static str, prefix: &'static str) {
    call.spawn_blocking(move |job| {
        let params = ElicitParams::Form(ElicitFormParams {
            mode: None,
            message: JsonStr::from_text(&message),
            requested_schema: RawJson::parse(schema.as_bytes()).expect("fixture schemas are valid JSON"),
            task: None,
            meta: None,
        });
        let answer = job.elicit(&params).map_err(|e| failure("Elicitation", &e))?;
        let r: ElicitResult<'_> =
            answer.decode().map_err(|e| format!("Elicitation not supported or error: invalid result: {e}"))?;
        let action = match r.action {
            ElicitAction::Accept => "accept",
            ElicitAction::Decline => "decline",
            ElicitAction::Cancel => "cancel",
        };
        let content = r.content.map_or("{}".into(), |c| fx::compact(c.as_bytes()));
        Ok::<_, String>(format!("{prefix}: action={action}, content={content}"))
    })
}

/// What a tool says when its question to the client failed.
fn failure(what: &str, e: &ClientError) -> String {
    let why = match e {
        ClientError::Send(e) => e.to_string(),
        ClientError::Error { code, message, .. } => format!("{message} ({})", code.0),
        ClientError::TimedOut => "the client did not answer in time".into(),
        ClientError::Closed(Some(reason)) => reason.to_string(),
        other => other.to_string(),
    };
    format!("{what} not supported or error: {why}")
}

/// The 2026-07-28 tools (see [`mrtr`]).
fn modern_tool(app: &mut App, call: Call<'_, '_, NoJob>) {
    let name = call.request().params.and_then(|p| p.get("name")).and_then(|n| n.as_str()).map(|n| n.to_string());
    let name = name.unwrap_or_default();
    match name.as_str() {
        // The endpoint sends the lines only at the level the request asked for.
        "test_logging_tool" => call.spawn_blocking(|job| log_lines(&job)),
        "test_trigger_tool_change" => {
            EXTRA_TOOL.fetch_xor(true, Ordering::Relaxed);
            app.notifier.list_changed(List::Tools);
            call.respond(&CallToolResult::text("The tool list changed"))
        }
        "test_trigger_prompt_change" => {
            EXTRA_PROMPT.fetch_xor(true, Ordering::Relaxed);
            app.notifier.list_changed(List::Prompts);
            call.respond(&CallToolResult::text("The prompt list changed"))
        }
        _ => {
            let caps = call.request().modern().map(|m| m.client_capabilities).unwrap_or_default();
            match app.modern.call(app.now(), &name, call.request().params, caps) {
                Answer::Result(value) => call.respond_raw(raw(&value)),
                Answer::Error { code, message, data: Some(data) } => call.fail_with_data(code, &message, &raw(data)),
                Answer::Error { code, message, data: None } => call.fail(code, &message),
            }
        }
    }
}

/// A fixture's JSON text as JSON.
fn raw(text: &str) -> RawJson<'_> {
    RawJson::parse(text.as_bytes()).expect("the fixtures write valid JSON")
}

fn string_arg(args: RawJson<'_>, name: &str) -> Option<String> {
    args.get(name).and_then(|v| v.as_str()).map(|s| s.to_string())
}

/// `params._meta.progressToken` as text: a string's content or a number's digits.
fn meta_token(params: Option<RawJson<'_>>) -> Option<String> {
    let token = params?.get("_meta")?.get("progressToken")?;
    match token.as_str() {
        Some(s) => Some(s.to_string()),
        None => Some(token.as_text().to_string()),
    }
}

// ---- resources ------------------------------------------------------------------------

/// The fixed resources: static text, static binary, and the watched one.
struct Fixed;

impl ResourceHandler<App> for Fixed {
    fn len(&self) -> usize {
        fx::RESOURCES.len()
    }

    fn resource(&self, index: usize) -> Option<mcp_sansio::mcp::Resource<'_>> {
        fx::RESOURCES.get(index).copied()
    }

    fn read(&self, app: &mut App, index: usize, read: Read<'_, '_>) {
        let mime = |m: &'static str| Some(JsonStr::from_text(m));
        match index {
            0 => read.respond(fx::STATIC_TEXT, mime("text/plain")),
            1 => read.respond(&Blob(fx::TEST_IMAGE_BASE64), mime("image/png")),
            _ => read.respond(app.watched.as_str(), mime("text/plain")),
        }
    }
}

/// `test://template/{id}/data`.
struct Template;

impl TemplateHandler<App> for Template {
    fn template(&self) -> ResourceTemplate<'_> {
        fx::TEMPLATES[0]
    }

    fn read(&self, _: &mut App, vars: &Vars<'_>, read: Read<'_, '_>) {
        match vars.get("id").filter(|id| !id.is_empty() && !id.contains('/')) {
            Some(id) => {
                let (data, id) = (mrtr::quote(&format!("Data for ID: {id}")), mrtr::quote(id));
                let text = format!(r#"{{"id":{id},"templateTest":true,"data":{data}}}"#);
                read.respond(text.as_str(), Some(JsonStr::from_text("application/json")))
            }
            None => read.not_found(),
        }
    }
}

// ---- prompts --------------------------------------------------------------------------

type GetFn = for<'c, 'e> fn(&mut App, Get<'c, 'e>);

/// A prompt: listed as `info`, answered by `get`, offered `when`.
struct Prompt {
    info: PromptInfo<'static>,
    get: GetFn,
    when: Condition,
}

impl PromptHandler<App> for Prompt {
    fn prompt(&self) -> PromptInfo<'_> {
        self.info
    }

    fn get(&self, app: &mut App, get: Get<'_, '_>) {
        (self.get)(app, get)
    }

    fn offered(&self, modern: Option<ModernRequest>) -> bool {
        (self.when)(modern)
    }
}

fn user(content: ContentBlock<'_>) -> PromptMessage<'_> {
    PromptMessage { role: MessageRole::User, content }
}

const fn info(
    name: &'static str,
    title: &'static str,
    description: &'static str,
    arguments: &'static [mcp_sansio::toolkit::Property],
) -> PromptInfo<'static> {
    PromptInfo { name, title: Some(title), description: Some(description), arguments }
}

/// The conformance suite's prompts.
const PROMPTS: [(PromptInfo<'static>, GetFn); 4] = [
    (
        info("test_simple_prompt", "Simple Test Prompt", "A simple prompt without arguments", NoArguments::FIELDS),
        |_, get| {
            let messages = [user(ContentBlock::text("This is a simple prompt for testing."))];
            get.respond(&GetPromptResult::new(&messages))
        },
    ),
    (
        info(
            "test_prompt_with_arguments",
            "Prompt With Arguments",
            "A prompt with required arguments",
            fx::TwoArgs::FIELDS,
        ),
        |_, get| match get.arguments().decode::<fx::TwoArgs>() {
            Ok(fx::TwoArgs { arg1, arg2 }) => {
                let text = format!("Prompt with arguments: arg1='{arg1}', arg2='{arg2}'");
                get.respond(&GetPromptResult::new(&[user(ContentBlock::text(&text))]))
            }
            Err(_) => get.fail(
                ErrorCode::INVALID_PARAMS,
                &"Invalid arguments for prompt test_prompt_with_arguments: arg1 and arg2 is required",
            ),
        },
    ),
    (
        info(
            "test_prompt_with_embedded_resource",
            "Prompt With Embedded Resource",
            "A prompt that includes an embedded resource",
            fx::EmbedArgs::FIELDS,
        ),
        |_, get| match get.arguments().decode::<fx::EmbedArgs>() {
            Ok(fx::EmbedArgs { resource_uri }) => {
                let resource =
                    ResourceContents::text(&resource_uri, Some("text/plain"), "Embedded resource content for testing.");
                let messages = [
                    user(ContentBlock::resource(resource)),
                    user(ContentBlock::text("Please process the embedded resource above.")),
                ];
                get.respond(&GetPromptResult::new(&messages))
            }
            Err(_) => get.fail(
                ErrorCode::INVALID_PARAMS,
                &"Invalid arguments for prompt test_prompt_with_embedded_resource: resourceUri is required",
            ),
        },
    ),
    (
        info(
            "test_prompt_with_image",
            "Prompt With Image",
            "A prompt that includes image content",
            NoArguments::FIELDS,
        ),
        |_, get| {
            let messages = [
                user(ContentBlock::image(fx::TEST_IMAGE_BASE64, "image/png")),
                user(ContentBlock::text("Please analyze the image above.")),
            ];
            get.respond(&GetPromptResult::new(&messages))
        },
    ),
];

/// `test_input_required_result_prompt` (2026-07-28).
fn answer_prompt(app: &mut App, get: Get<'_, '_>) {
    match app.modern.prompt(get.request().params) {
        Answer::Result(value) => get.respond_raw(raw(&value)),
        Answer::Error { code, message, .. } => get.fail(code, &message),
    }
}
