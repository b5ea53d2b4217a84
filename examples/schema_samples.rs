//! Writes one sample of every MCP message type, per protocol version, as JSON lines, for
//! validation against the official SDKs' schemas (tests/schema/run.sh).
//!
//! Each line: `{"version","kind","type","method","message"}` where `type` is the
//! schema's name for the message (`CallToolRequest`, `CallToolResult`…), `kind` is
//! `request`, `notification` or `result`, and `message` is the complete JSON-RPC frame
//! written by this crate's `FrameWriter`.
//!
//! Usage: `cargo run --example schema_samples -- OUT.jsonl`

use std::fmt::Write as _;

use mcp_sansio::mcp::*;
use mcp_sansio::wire::{FrameWriter, JsonStr, Number, RawJson, RequestId};
use serde::Serialize;

use ProtocolVersion as V;

const FANCY: &str = "Résumé 😀 \"quoted\"\tand\nnew line \\ backslash";

struct Out {
    text: String,
    id: u64,
}

impl Out {
    fn line(&mut self, v: V, kind: &str, ty: &str, method: &str, frame: &[u8]) {
        let frame = std::str::from_utf8(frame).unwrap().trim_end();
        writeln!(
            self.text,
            r#"{{"version":"{}","kind":"{kind}","type":"{ty}","method":"{method}","message":{frame}}}"#,
            v.as_str()
        )
        .unwrap();
    }

    fn request<P: Serialize>(&mut self, v: V, ty: &str, method: &str, params: Option<&P>) {
        self.id += 1;
        let mut buf = vec![0u8; 1 << 16];
        let mut w = FrameWriter::unterminated(&mut buf);
        let id = if self.id.is_multiple_of(2) {
            RequestId::from_u64(self.id)
        } else {
            RequestId::string(&format!("r-{}", self.id)).unwrap()
        };
        w.request(id.as_ref(), method, params).unwrap();
        let bytes = w.as_bytes().to_vec();
        // The params must decode by their method with our own types first.
        let params = RawJson::parse(&bytes).unwrap().get("params");
        decode_request(Method::from_known_name(method).unwrap(), params).unwrap_or_else(|e| panic!("{ty}: {e}"));
        self.line(v, "request", ty, method, &bytes);
    }

    fn notification<P: Serialize>(&mut self, v: V, ty: &str, method: &str, params: Option<&P>) {
        let mut buf = vec![0u8; 1 << 16];
        let mut w = FrameWriter::unterminated(&mut buf);
        w.notification(method, params).unwrap();
        let bytes = w.as_bytes().to_vec();
        let params = RawJson::parse(&bytes).unwrap().get("params");
        decode_notification(Method::from_known_name(method).unwrap(), params).unwrap_or_else(|e| panic!("{ty}: {e}"));
        self.line(v, "notification", ty, method, &bytes);
    }

    fn result<R: Serialize>(&mut self, v: V, ty: &str, method: &str, result: &R) {
        self.answer(v, ty, Answering::from(Method::from_known_name(method).unwrap()), result)
    }

    fn answer<R: Serialize>(&mut self, v: V, ty: &str, answering: Answering<'_>, result: &R) {
        self.id += 1;
        let mut buf = vec![0u8; 1 << 16];
        let mut w = FrameWriter::unterminated(&mut buf);
        w.result(RequestId::from_u64(self.id).as_ref(), result).unwrap();
        let bytes = w.as_bytes().to_vec();
        // The result must decode by its method with our own types first.
        let raw = RawJson::parse(&bytes).unwrap().get("result").unwrap();
        decode_result(answering, raw).unwrap_or_else(|e| panic!("{ty}: {e}"));
        let method = answering.method.name();
        self.line(v, "result", ty, method, &bytes);
    }
}

fn raw(text: &'static str) -> RawJson<'static> {
    RawJson::parse(text.as_bytes()).unwrap()
}

fn main() {
    let path = std::env::args().nth(1);
    let mut out = Out { text: String::new(), id: 0 };
    for v in ProtocolVersion::ALL {
        samples(&mut out, v);
    }
    match path {
        Some(p) => std::fs::write(&p, &out.text).unwrap(),
        None => print!("{}", out.text),
    }
}

fn samples(out: &mut Out, v: V) {
    let modern = v == V::V2026_07_28;
    let has = |first: V| v >= first;
    let opt = |first: V, s: &'static str| has(first).then(|| JsonStr::from_text(s));

    // ---- shared pieces ----
    let sizes = [JsonStr::from_text("48x48")];
    let icons_data = [Icon {
        src: JsonStr::from_text("data:image/png;base64,iVBORw0KGgo="),
        mime_type: Some("image/png".into()),
        sizes: Some(Items::from_slice(&sizes)),
        theme: Some(IconTheme::Dark),
    }];
    let icons = has(V::V2025_11_25).then(|| Items::from_slice(&icons_data[..]));
    let meta_raw = raw(r#"{"com.example/trace":"abc","n":[1,2]}"#);
    let data_meta = has(V::V2025_06_18).then(|| Meta::from_raw(meta_raw));
    let client_info = Implementation {
        name: "sample-client".into(),
        title: opt(V::V2025_06_18, "Sample Client"),
        version: "1.0.0".into(),
        description: opt(V::V2025_11_25, FANCY),
        icons,
        website_url: opt(V::V2025_11_25, "https://example.com/client"),
    };
    let server_info = Implementation { name: "sample-server".into(), ..client_info };
    let client_caps = ClientCapabilities {
        experimental: Some(raw(r#"{"com.example/x":{"on":true}}"#)),
        roots: Some(if modern { ListChanged::NO } else { ListChanged::YES }),
        sampling: Some(SamplingCapability {
            context: has(V::V2025_11_25).then_some(RawJson::EMPTY_OBJECT),
            tools: has(V::V2025_11_25).then_some(RawJson::EMPTY_OBJECT),
        }),
        elicitation: has(V::V2025_06_18).then(|| ElicitationCapability {
            form: has(V::V2025_11_25).then_some(RawJson::EMPTY_OBJECT),
            url: has(V::V2025_11_25).then_some(RawJson::EMPTY_OBJECT),
        }),
        tasks: (v == V::V2025_11_25).then(|| TasksCapability {
            list: Some(RawJson::EMPTY_OBJECT),
            cancel: Some(RawJson::EMPTY_OBJECT),
            requests: Some(raw(r#"{"sampling":{"createMessage":{}},"elicitation":{"create":{}}}"#)),
        }),
        extensions: modern.then(|| raw(r#"{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html"]}}"#)),
    };
    let server_caps = ServerCapabilities {
        experimental: None,
        logging: Some(RawJson::EMPTY_OBJECT),
        completions: has(V::V2025_03_26).then_some(RawJson::EMPTY_OBJECT),
        prompts: Some(ListChanged::YES),
        resources: Some(ResourcesCapability { subscribe: Some(true), list_changed: Some(true) }),
        tools: Some(ListChanged::YES),
        tasks: (v == V::V2025_11_25).then(|| TasksCapability {
            list: Some(RawJson::EMPTY_OBJECT),
            cancel: Some(RawJson::EMPTY_OBJECT),
            requests: Some(raw(r#"{"tools":{"call":{}}}"#)),
        }),
        extensions: None,
    };
    // 2026-07-28: every request carries the envelope; every result says resultType.
    let envelope_fields = MetaFields {
        protocol_version: Some(v),
        client_capabilities: Some(&client_caps),
        client_info: Some(&client_info),
        log_level: Some(LoggingLevel::Warning),
        progress_token: Some(ProgressToken::String("tok-1".into())),
        traceparent: Some("00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01".into()),
        ..MetaFields::default()
    };
    let legacy_fields = MetaFields { progress_token: Some(ProgressToken::Integer(7)), ..MetaFields::default() };
    let req_meta = Some(Meta::from(if modern { &envelope_fields } else { &legacy_fields }));
    let server_info_fields = MetaFields { server_info: Some(&server_info), ..MetaFields::default() };
    let res_meta = modern.then(|| Meta::from(&server_info_fields));
    let rt = modern.then_some(ResultType::Complete);
    let (ttl_ms, cache_scope) = if modern { (Some(60_000), Some(CacheScope::Private)) } else { (None, None) };
    let empty = EmptyParams { meta: req_meta };
    let annotations = Annotations {
        audience: Some(Items::from_slice(&[MessageRole::User, MessageRole::Assistant])),
        priority: Number::parse("0.5"),
        last_modified: opt(V::V2025_06_18, "2025-05-03T14:30:00Z"),
    };
    let text = TextContent { text: FANCY.into(), annotations: Some(annotations), meta: data_meta };
    let image = ContentBlock::Image(ImageContent {
        data: "iVBORw0KGgo=".into(),
        mime_type: "image/png".into(),
        annotations: None,
        meta: data_meta,
    });
    let embedded = ContentBlock::Resource(EmbeddedResource {
        resource: ResourceContents::Text(TextResourceContents {
            uri: "file:///notes.txt".into(),
            mime_type: Some("text/plain".into()),
            text: FANCY.into(),
            meta: data_meta,
        }),
        annotations: None,
        meta: data_meta,
    });
    let mut blocks = vec![ContentBlock::Text(text), image, embedded];
    if has(V::V2025_03_26) {
        blocks.push(ContentBlock::audio("UklGRiQA", "audio/wav"));
    }
    if has(V::V2025_06_18) {
        blocks.push(ContentBlock::ResourceLink(ResourceLink {
            uri: "file:///project/src/main.rs".into(),
            name: "main.rs".into(),
            title: Some("Main".into()),
            description: Some(FANCY.into()),
            mime_type: Some("text/x-rust".into()),
            annotations: None,
            size: Some(1024),
            icons,
            meta: data_meta,
        }));
    }
    let blocks = &blocks[..];

    // ---- lifecycle ----
    if !modern {
        let params = InitializeParams {
            protocol_version: v.as_str().into(),
            capabilities: client_caps,
            client_info,
            meta: None,
        };
        out.request(v, "InitializeRequest", "initialize", Some(&params));
        let mut result = InitializeResult::new(v, server_caps, server_info);
        result.instructions = Some(FANCY.into());
        out.result(v, "InitializeResult", "initialize", &result);
        out.notification(v, "InitializedNotification", "notifications/initialized", None::<&EmptyParams>);
        out.request(v, "PingRequest", "ping", None::<&EmptyParams>);
        out.result(v, "EmptyResult", "ping", &EmptyResult::EMPTY);
    } else {
        out.request(v, "DiscoverRequest", "server/discover", Some(&empty));
        let versions = [JsonStr::from_text("2026-07-28"), JsonStr::from_text("2025-11-25")];
        let d = DiscoverResult {
            supported_versions: Items::from_slice(&versions),
            capabilities: server_caps,
            instructions: Some(FANCY.into()),
            ttl_ms,
            cache_scope,
            result_type: rt,
            meta: res_meta,
        };
        out.result(v, "DiscoverResult", "server/discover", &d);
    }
    let cancel_id = RequestId::string("r-1").unwrap();
    out.notification(
        v,
        "CancelledNotification",
        "notifications/cancelled",
        Some(&CancelledParams::new(cancel_id.as_ref(), Some(FANCY.into()))),
    );
    let mut progress = ProgressParams::new(ProgressToken::Integer(7), 0.5, Some(1.0));
    progress.message = opt(V::V2025_03_26, FANCY);
    out.notification(v, "ProgressNotification", "notifications/progress", Some(&progress));

    // ---- tools ----
    let list = PaginatedParams { cursor: Some("page-2".into()), meta: req_meta };
    out.request(v, "ListToolsRequest", "tools/list", Some(&list));
    let input_schema =
        raw(r#"{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}"#);
    let mut tool = Tool::new("add", input_schema).with_description(FANCY);
    if has(V::V2025_03_26) {
        tool.annotations = Some(ToolAnnotations {
            title: Some("Add".into()),
            read_only_hint: Some(true),
            destructive_hint: Some(false),
            idempotent_hint: Some(true),
            open_world_hint: Some(false),
        });
    }
    if has(V::V2025_06_18) {
        tool.title = Some("Adder".into());
        tool.output_schema =
            Some(raw(r#"{"type":"object","properties":{"sum":{"type":"number"}},"required":["sum"]}"#));
        tool.meta = data_meta;
    }
    if v == V::V2025_11_25 {
        tool.execution = Some(ToolExecution { task_support: Some(TaskSupport::Optional) });
    }
    tool.icons = icons;
    let tools = [tool, Tool::new("now", NO_ARGUMENTS)];
    let mut tools_result = ListToolsResult::new(&tools);
    tools_result.next_cursor = Some("page-3".into());
    (tools_result.ttl_ms, tools_result.cache_scope, tools_result.result_type, tools_result.meta) =
        (ttl_ms, cache_scope, rt, res_meta);
    out.result(v, "ListToolsResult", "tools/list", &tools_result);
    let mut call = CallToolParams::new("add", Some(raw(r#"{"a":2,"b":3}"#)));
    call.meta = req_meta;
    out.request(v, "CallToolRequest", "tools/call", Some(&call));
    let mut call_result = CallToolResult::new(blocks);
    if has(V::V2025_06_18) {
        call_result.structured_content = Some(raw(r#"{"sum":5}"#));
    }
    (call_result.result_type, call_result.meta) = (rt, res_meta);
    out.result(v, "CallToolResult", "tools/call", &call_result);
    let mut err = CallToolResult::error(FANCY);
    err.result_type = rt;
    out.result(v, "CallToolResult", "tools/call", &err);
    out.notification(v, "ToolListChangedNotification", "notifications/tools/list_changed", None::<&EmptyParams>);

    // ---- resources ----
    out.request(v, "ListResourcesRequest", "resources/list", Some(&list));
    let resource = Resource {
        uri: "file:///notes.txt".into(),
        name: "notes.txt".into(),
        title: opt(V::V2025_06_18, "Notes"),
        description: Some(FANCY.into()),
        mime_type: Some("text/plain".into()),
        annotations: Some(annotations),
        size: Some(42),
        icons,
        meta: data_meta,
    };
    let resources = [resource];
    let mut r = ListResourcesResult::new(&resources);
    (r.ttl_ms, r.cache_scope, r.result_type, r.meta) = (ttl_ms, cache_scope, rt, res_meta);
    out.result(v, "ListResourcesResult", "resources/list", &r);
    out.request(v, "ListResourceTemplatesRequest", "resources/templates/list", Some(&list));
    let mut template = ResourceTemplate::new("file:///{path}", "files");
    (template.title, template.description, template.icons, template.meta) =
        (opt(V::V2025_06_18, "Files"), Some(FANCY.into()), icons, data_meta);
    let templates = [template];
    let mut t = ListResourceTemplatesResult::new(&templates);
    (t.ttl_ms, t.cache_scope, t.result_type, t.meta) = (ttl_ms, cache_scope, rt, res_meta);
    out.result(v, "ListResourceTemplatesResult", "resources/templates/list", &t);
    let read = ReadResourceParams {
        uri: "file:///notes.txt".into(),
        input_responses: None,
        request_state: None,
        meta: req_meta,
    };
    out.request(v, "ReadResourceRequest", "resources/read", Some(&read));
    let contents = [
        ResourceContents::text("file:///notes.txt", Some("text/plain"), FANCY),
        ResourceContents::blob("file:///logo.png", Some("image/png"), "iVBORw0KGgo="),
    ];
    let mut rr = ReadResourceResult::new(&contents);
    (rr.ttl_ms, rr.cache_scope, rr.result_type, rr.meta) = (ttl_ms, cache_scope, rt, res_meta);
    out.result(v, "ReadResourceResult", "resources/read", &rr);
    let uri = ResourceUriParams { uri: "file:///notes.txt".into(), meta: None };
    if !modern {
        out.request(v, "SubscribeRequest", "resources/subscribe", Some(&uri));
        out.result(v, "EmptyResult", "resources/subscribe", &EmptyResult::EMPTY);
        out.request(v, "UnsubscribeRequest", "resources/unsubscribe", Some(&uri));
        out.result(v, "EmptyResult", "resources/unsubscribe", &EmptyResult::EMPTY);
    }
    out.notification(v, "ResourceUpdatedNotification", "notifications/resources/updated", Some(&uri));
    out.notification(
        v,
        "ResourceListChangedNotification",
        "notifications/resources/list_changed",
        None::<&EmptyParams>,
    );

    // ---- prompts ----
    out.request(v, "ListPromptsRequest", "prompts/list", Some(&list));
    let args = [PromptArgument {
        name: "code".into(),
        title: opt(V::V2025_06_18, "Code"),
        description: Some(FANCY.into()),
        required: Some(true),
    }];
    let mut prompt = Prompt::new("code_review", &args);
    (prompt.title, prompt.description, prompt.icons, prompt.meta) =
        (opt(V::V2025_06_18, "Code review"), Some(FANCY.into()), icons, data_meta);
    let prompts = [prompt];
    let mut pl = ListPromptsResult::new(&prompts);
    (pl.ttl_ms, pl.cache_scope, pl.result_type, pl.meta) = (ttl_ms, cache_scope, rt, res_meta);
    out.result(v, "ListPromptsResult", "prompts/list", &pl);
    let pairs = [(JsonStr::from_text("code"), JsonStr::from_text(FANCY))];
    let get = GetPromptParams {
        name: "code_review".into(),
        arguments: Some(Map::from_pairs(&pairs)),
        input_responses: None,
        request_state: None,
        meta: req_meta,
    };
    out.request(v, "GetPromptRequest", "prompts/get", Some(&get));
    let messages: Vec<PromptMessage<'_>> =
        blocks.iter().map(|b| PromptMessage { role: MessageRole::User, content: *b }).collect();
    let mut gp = GetPromptResult::new(&messages);
    (gp.description, gp.result_type, gp.meta) = (Some(FANCY.into()), rt, res_meta);
    out.result(v, "GetPromptResult", "prompts/get", &gp);
    out.notification(v, "PromptListChangedNotification", "notifications/prompts/list_changed", None::<&EmptyParams>);

    // ---- completion ----
    let context_pairs = [(JsonStr::from_text("language"), JsonStr::from_text("python"))];
    for reference in [
        CompletionReference::Prompt(PromptReference {
            name: "code_review".into(),
            title: opt(V::V2025_06_18, "Code review"),
        }),
        CompletionReference::Resource(ResourceTemplateReference { uri: "file:///{path}".into() }),
    ] {
        let c = CompleteParams {
            reference,
            argument: CompletionArgument { name: "code".into(), value: "fla".into() },
            context: has(V::V2025_06_18)
                .then(|| CompletionContext { arguments: Some(Map::from_pairs(&context_pairs)) }),
            meta: req_meta,
        };
        out.request(v, "CompleteRequest", "completion/complete", Some(&c));
    }
    let values = [JsonStr::from_text("flask"), JsonStr::from_text(FANCY)];
    let mut cr = CompleteResult::new(&values);
    (cr.completion.total, cr.completion.has_more, cr.result_type, cr.meta) = (Some(10), Some(true), rt, res_meta);
    out.result(v, "CompleteResult", "completion/complete", &cr);

    // ---- logging ----
    if !modern {
        let level = SetLevelParams { level: LoggingLevel::Notice, meta: None };
        out.request(v, "SetLevelRequest", "logging/setLevel", Some(&level));
        out.result(v, "EmptyResult", "logging/setLevel", &EmptyResult::EMPTY);
    }
    let mut log = LoggingMessageParams::text(LoggingLevel::Error, FANCY);
    log.logger = Some("db".into());
    out.notification(v, "LoggingMessageNotification", "notifications/message", Some(&log));
    let log = LoggingMessageParams {
        level: LoggingLevel::Emergency,
        logger: None,
        data: LogData::Raw(raw(r#"{"error":"x","n":[1,null]}"#)),
        meta: None,
    };
    out.notification(v, "LoggingMessageNotification", "notifications/message", Some(&log));

    // ---- client features (server-to-client requests; 2026-07-28: input requests) ----
    let mut sampling = vec![
        SamplingMessage { role: MessageRole::User, content: OneOrMany::One(ContentBlock::Text(text)), meta: None },
        SamplingMessage { role: MessageRole::User, content: OneOrMany::One(image), meta: None },
    ];
    if has(V::V2025_03_26) {
        let audio = ContentBlock::audio("UklGRiQA", "audio/wav");
        sampling.push(SamplingMessage { role: MessageRole::User, content: OneOrMany::One(audio), meta: None });
    }
    let tool_use = [ContentBlock::ToolUse(ToolUseContent {
        id: "call_1".into(),
        name: "add".into(),
        input: raw(r#"{"a":1}"#),
        meta: None,
    })];
    let tool_result_content = [ContentBlock::text("3")];
    let tool_result = [ContentBlock::ToolResult(ToolResultContent {
        tool_use_id: "call_1".into(),
        content: Items::from_slice(&tool_result_content),
        structured_content: Some(raw(r#"{"sum":3}"#)),
        is_error: Some(false),
        meta: None,
    })];
    if has(V::V2025_11_25) {
        let uses = OneOrMany::Many(Items::from_slice(&tool_use));
        sampling.push(SamplingMessage { role: MessageRole::Assistant, content: uses, meta: None });
        let results = OneOrMany::Many(Items::from_slice(&tool_result));
        sampling.push(SamplingMessage { role: MessageRole::User, content: results, meta: data_meta });
    }
    let stops = [JsonStr::from_text("\n\n")];
    let hints = [ModelHint { name: Some("claude-3-sonnet".into()) }];
    let mut cm = CreateMessageParams::new(&sampling, 100);
    cm.model_preferences = Some(ModelPreferences {
        hints: Some(Items::from_slice(&hints)),
        cost_priority: Some(0.3),
        speed_priority: Some(0.5),
        intelligence_priority: Some(0.8),
    });
    (cm.system_prompt, cm.include_context, cm.temperature, cm.stop_sequences, cm.metadata) = (
        Some(FANCY.into()),
        Some(IncludeContext::ThisServer),
        Some(0.7),
        Some(Items::from_slice(&stops)),
        Some(raw(r#"{"k":"v"}"#)),
    );
    let sampling_tools = [tools[0]];
    if has(V::V2025_11_25) {
        cm.tools = Some(Items::from_slice(&sampling_tools));
        cm.tool_choice = Some(ToolChoice { mode: Some(ToolChoiceMode::Auto) });
    }
    let reply = CreateMessageResult {
        role: MessageRole::Assistant,
        content: OneOrMany::One(ContentBlock::text(FANCY)),
        model: "claude-3-sonnet-20240307".into(),
        stop_reason: Some(StopReason::EndTurn),
        result_type: None,
        meta: None,
    };
    let tool_reply = CreateMessageResult {
        content: OneOrMany::Many(Items::from_slice(&tool_use)),
        stop_reason: Some(StopReason::ToolUse),
        ..reply
    };
    let roots = [Root::new("file:///home/user/project", Some("Project")), Root::new("file:///tmp", None)];
    let roots_result = ListRootsResult::new(&roots);
    let form_schema = raw(
        r#"{"type":"object","properties":{"name":{"type":"string","title":"Name","minLength":1},"age":{"type":"integer","minimum":0},"ok":{"type":"boolean","default":true},"color":{"type":"string","enum":["red","green"]}},"required":["name"]}"#,
    );
    let form = ElicitParams::Form(ElicitFormParams {
        mode: has(V::V2025_11_25).then_some(FormMode::Form),
        message: FANCY.into(),
        requested_schema: form_schema,
        task: None,
        meta: None,
    });
    let url = ElicitParams::Url(ElicitUrlParams {
        message: "Please sign in".into(),
        elicitation_id: (v == V::V2025_11_25).then(|| "550e8400-e29b-41d4-a716-446655440000".into()),
        url: "https://example.com/login".into(),
        task: None,
        meta: None,
    });
    let accepted = ElicitResult {
        action: ElicitAction::Accept,
        content: Some(raw(r#"{"name":"octocat","age":30,"ok":true,"color":"red"}"#)),
        result_type: None,
        meta: None,
    };
    let declined = ElicitResult { action: ElicitAction::Decline, content: None, result_type: None, meta: None };
    if !modern {
        out.request(v, "CreateMessageRequest", "sampling/createMessage", Some(&cm));
        out.result(v, "CreateMessageResult", "sampling/createMessage", &reply);
        if has(V::V2025_11_25) {
            out.result(v, "CreateMessageResult", "sampling/createMessage", &tool_reply);
        }
        out.request(v, "ListRootsRequest", "roots/list", None::<&EmptyParams>);
        out.result(v, "ListRootsResult", "roots/list", &roots_result);
        out.notification(v, "RootsListChangedNotification", "notifications/roots/list_changed", None::<&EmptyParams>);
        if has(V::V2025_06_18) {
            out.request(v, "ElicitRequest", "elicitation/create", Some(&form));
            out.result(v, "ElicitResult", "elicitation/create", &accepted);
            out.result(v, "ElicitResult", "elicitation/create", &declined);
        }
        if has(V::V2025_11_25) {
            out.request(v, "ElicitRequest", "elicitation/create", Some(&url));
            let done =
                ElicitationCompleteParams { elicitation_id: "550e8400-e29b-41d4-a716-446655440000".into(), meta: None };
            out.notification(v, "ElicitationCompleteNotification", "notifications/elicitation/complete", Some(&done));
        }
    }

    // ---- tasks (2025-11-25) ----
    if v == V::V2025_11_25 {
        let mut call = CallToolParams::new("add", Some(raw(r#"{"a":2,"b":3}"#)));
        call.task = Some(TaskMetadata { ttl: Some(60_000) });
        out.request(v, "CallToolRequest", "tools/call", Some(&call));
        let task = Task {
            task_id: "786512e2-9e0d-44bd-8f29-789f320fe840".into(),
            status: TaskStatus::Working,
            status_message: Some(FANCY.into()),
            created_at: "2025-11-25T10:30:00Z".into(),
            last_updated_at: "2025-11-25T10:40:00Z".into(),
            ttl: Some(60_000),
            poll_interval: Some(5_000),
            result_type: None,
            meta: None,
        };
        let immediate = MetaFields { model_immediate_response: Some("Working on it".into()), ..MetaFields::default() };
        let created = CreateTaskResult { task, result_type: None, meta: Some(Meta::from(&immediate)) };
        // Our own decoder must know the request was task-augmented.
        out.answer(v, "CreateTaskResult", Answering::task(Method::ToolsCall), &created);
        let id = TaskIdParams { task_id: task.task_id, meta: None };
        out.request(v, "GetTaskRequest", "tasks/get", Some(&id));
        out.result(v, "GetTaskResult", "tasks/get", &Task { ttl: None, ..task });
        out.request(v, "GetTaskPayloadRequest", "tasks/result", Some(&id));
        let related = MetaFields { related_task: Some(task.task_id), ..MetaFields::default() };
        let mut payload = CallToolResult::text("5");
        payload.meta = Some(Meta::from(&related));
        out.result(v, "CallToolResult", "tasks/result", &payload);
        out.request(v, "ListTasksRequest", "tasks/list", Some(&PaginatedParams::default()));
        let done = Task { status: TaskStatus::Completed, ..task };
        let all = [task, done];
        let lt = ListTasksResult { tasks: Items::from_slice(&all), next_cursor: None, result_type: None, meta: None };
        out.result(v, "ListTasksResult", "tasks/list", &lt);
        out.request(v, "CancelTaskRequest", "tasks/cancel", Some(&id));
        out.result(v, "CancelTaskResult", "tasks/cancel", &Task { status: TaskStatus::Cancelled, ..task });
        out.notification(v, "TaskStatusNotification", "notifications/tasks/status", Some(&done));
        let mut cm_task = cm;
        cm_task.task = Some(TaskMetadata { ttl: None });
        out.request(v, "CreateMessageRequest", "sampling/createMessage", Some(&cm_task));
    }

    // ---- 2026-07-28: subscriptions, input-required results, retries ----
    if modern {
        let uris = [JsonStr::from_text("file:///notes.txt")];
        let filter = SubscriptionFilter {
            tools_list_changed: Some(true),
            prompts_list_changed: Some(true),
            resources_list_changed: Some(false),
            resource_subscriptions: Some(Items::from_slice(&uris)),
        };
        let listen = SubscriptionParams { notifications: filter, meta: req_meta };
        out.request(v, "SubscriptionsListenRequest", "subscriptions/listen", Some(&listen));
        let sub_id = RequestId::string("listen-1").unwrap();
        let sub_fields = MetaFields { subscription_id: Some(sub_id.as_ref()), ..MetaFields::default() };
        let sub_meta = Some(Meta::from(&sub_fields));
        out.notification(
            v,
            "SubscriptionsAcknowledgedNotification",
            "notifications/subscriptions/acknowledged",
            Some(&SubscriptionParams { notifications: filter, meta: sub_meta }),
        );
        let closing = EmptyResult { result_type: rt, meta: sub_meta };
        out.result(v, "SubscriptionsListenResult", "subscriptions/listen", &closing);
        let requests = [
            (JsonStr::from_text("login"), InputRequest::Elicit(form)),
            (JsonStr::from_text("capital"), InputRequest::CreateMessage(cm)),
            (JsonStr::from_text("roots"), InputRequest::ListRoots(EmptyParams::default())),
        ];
        let ir = InputRequiredResult::new(&requests, Some("eyJzdGVwIjoxfQ".into()));
        for method in ["tools/call", "prompts/get", "resources/read"] {
            out.result(v, "InputRequiredResult", method, &ir);
        }
        let reply_text = serde_json::to_string(&reply).unwrap();
        let accepted_text = serde_json::to_string(&accepted).unwrap();
        let roots_text = serde_json::to_string(&roots_result).unwrap();
        let responses = [
            (JsonStr::from_text("login"), RawJson::parse(accepted_text.as_bytes()).unwrap()),
            (JsonStr::from_text("capital"), RawJson::parse(reply_text.as_bytes()).unwrap()),
            (JsonStr::from_text("roots"), RawJson::parse(roots_text.as_bytes()).unwrap()),
        ];
        let mut retry = CallToolParams::new("add", Some(raw(r#"{"a":2,"b":3}"#)));
        (retry.input_responses, retry.request_state, retry.meta) =
            (Some(Map::from_pairs(&responses)), Some("eyJzdGVwIjoxfQ".into()), req_meta);
        out.request(v, "CallToolRequest", "tools/call", Some(&retry));
    }
}
