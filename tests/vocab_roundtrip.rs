//! Round trip of every vocabulary type with generated values: encode with our
//! `FrameWriter`, decode, compare with the value; encode the decoded value again and get
//! the same bytes; and our bytes equal `serde_json::to_vec` of the same value.
//!
//! Values borrow their text, so the strategies leak what they generate (a test process).

use mcp_sansio::mcp::*;
use mcp_sansio::wire::{FrameWriter, JsonStr, Number, RawJson, RequestId};
use proptest::collection::vec;
use proptest::option::of;
use proptest::prelude::*;

fn leak<T>(v: Vec<T>) -> &'static [T] {
    Box::leak(v.into_boxed_slice())
}

fn leak_str(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// Any text: controls, quotes, backslashes, non-BMP characters.
fn text() -> impl Strategy<Value = JsonStr<'static>> {
    prop_oneof!["[a-z/_.-]{0,8}", any::<String>(), Just("q\"b\\s\u{0}\u{1f}\n\t😀é".to_owned()),]
        .prop_map(|s| JsonStr::from_text(leak_str(s)))
}

fn texts() -> impl Strategy<Value = Items<'static, JsonStr<'static>>> {
    vec(text(), 0..3).prop_map(|v| Items::from_slice(leak(v)))
}

fn finite() -> impl Strategy<Value = f64> {
    prop_oneof![any::<f64>().prop_filter("finite", |f| f.is_finite()), (0u32..1000).prop_map(f64::from), Just(0.5)]
}

/// A JSON number, as text: any finite `f64` as serde_json writes it, integers, exponents.
fn number() -> impl Strategy<Value = Number<'static>> {
    prop_oneof![
        finite().prop_map(|f| serde_json::to_string(&f).unwrap()),
        Just("1e-3".to_owned()),
        Just("-0".to_owned())
    ]
    .prop_map(|t| Number::parse(leak_str(t)).unwrap())
}

fn json_value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        any::<String>().prop_map(serde_json::Value::from),
    ];
    leaf.prop_recursive(3, 12, 3, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..3).prop_map(serde_json::Value::from),
            vec(("[a-z]{1,4}", inner), 0..3).prop_map(|kv| serde_json::Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// A raw JSON object, compact (as our encoder writes it).
fn raw_object() -> impl Strategy<Value = RawJson<'static>> {
    vec(("[a-z$_]{1,6}", json_value()), 0..3).prop_map(|kv| {
        let v = serde_json::Value::Object(kv.into_iter().collect());
        RawJson::parse(leak_str(serde_json::to_string(&v).unwrap()).as_bytes()).unwrap()
    })
}

fn raw_any() -> impl Strategy<Value = RawJson<'static>> {
    json_value().prop_map(|v| RawJson::parse(leak_str(serde_json::to_string(&v).unwrap()).as_bytes()).unwrap())
}

fn meta() -> impl Strategy<Value = Option<Meta<'static>>> {
    of(prop_oneof![
        raw_object().prop_map(Meta::from_raw),
        (of(progress_token()), of(any::<bool>()), of(text()), of(raw_object())).prop_map(|(t, v, trace, extra)| {
            let extra = extra.map(|e| {
                // Extra members must not repeat reserved keys.
                let v: serde_json::Value = serde_json::from_slice(e.as_bytes()).unwrap();
                let mut m = serde_json::Map::new();
                for (k, x) in v.as_object().unwrap() {
                    m.insert(format!("com.example/{k}"), x.clone());
                }
                RawJson::parse(leak_str(serde_json::to_string(&m).unwrap()).as_bytes()).unwrap()
            });
            let fields = MetaFields {
                progress_token: t,
                protocol_version: v
                    .map(|b| if b { ProtocolVersion::V2026_07_28 } else { ProtocolVersion::V2025_06_18 }),
                log_level: v.map(|_| LoggingLevel::Notice),
                traceparent: trace,
                related_task: trace,
                extra,
                ..MetaFields::default()
            };
            Meta::from(&*Box::leak(Box::new(fields)))
        }),
    ])
}

fn progress_token() -> impl Strategy<Value = ProgressToken<'static>> {
    prop_oneof![text().prop_map(ProgressToken::String), any::<i64>().prop_map(ProgressToken::Integer)]
}

fn icon() -> impl Strategy<Value = Icon<'static>> {
    (text(), of(text()), of(texts()), of(prop_oneof![Just(IconTheme::Light), Just(IconTheme::Dark)]))
        .prop_map(|(src, mime_type, sizes, theme)| Icon { src, mime_type, sizes, theme })
}

fn icons() -> impl Strategy<Value = Option<Items<'static, Icon<'static>>>> {
    of(vec(icon(), 0..2).prop_map(|v| Items::from_slice(leak(v))))
}

fn implementation() -> impl Strategy<Value = Implementation<'static>> {
    (text(), of(text()), text(), of(text()), icons(), of(text())).prop_map(
        |(name, title, version, description, icons, website_url)| Implementation {
            name,
            title,
            version,
            description,
            icons,
            website_url,
        },
    )
}

fn role() -> impl Strategy<Value = MessageRole> {
    prop_oneof![Just(MessageRole::User), Just(MessageRole::Assistant)]
}

fn annotations() -> impl Strategy<Value = Option<Annotations<'static>>> {
    of((of(vec(role(), 0..3)), of(number()), of(text())).prop_map(|(a, priority, last_modified)| Annotations {
        audience: a.map(|a| Items::from_slice(leak(a))),
        priority,
        last_modified,
    }))
}

fn resource_contents() -> impl Strategy<Value = ResourceContents<'static>> {
    (text(), of(text()), text(), meta(), any::<bool>()).prop_map(|(uri, mime_type, body, meta, is_text)| {
        if is_text {
            ResourceContents::Text(TextResourceContents { uri, mime_type, text: body, meta })
        } else {
            ResourceContents::Blob(BlobResourceContents { uri, mime_type, blob: body, meta })
        }
    })
}

fn leaf_block() -> impl Strategy<Value = ContentBlock<'static>> {
    prop_oneof![
        (text(), annotations(), meta()).prop_map(|(text, annotations, meta)| ContentBlock::Text(TextContent {
            text,
            annotations,
            meta
        })),
        (text(), text(), annotations(), meta()).prop_map(|(data, mime_type, annotations, meta)| {
            ContentBlock::Image(ImageContent { data, mime_type, annotations, meta })
        }),
        (text(), text(), annotations(), meta()).prop_map(|(data, mime_type, annotations, meta)| {
            ContentBlock::Audio(AudioContent { data, mime_type, annotations, meta })
        }),
        (text(), text(), of(text()), of(text()), of(text()), annotations(), of(any::<u64>()), icons(), meta())
            .prop_map(|(uri, name, title, description, mime_type, annotations, size, icons, meta)| {
                ContentBlock::ResourceLink(ResourceLink {
                    uri,
                    name,
                    title,
                    description,
                    mime_type,
                    annotations,
                    size,
                    icons,
                    meta,
                })
            }),
        (resource_contents(), annotations(), meta()).prop_map(|(resource, annotations, meta)| {
            ContentBlock::Resource(EmbeddedResource { resource, annotations, meta })
        }),
        (text(), text(), raw_object(), meta())
            .prop_map(|(id, name, input, meta)| ContentBlock::ToolUse(ToolUseContent { id, name, input, meta })),
        raw_object().prop_map(|mut o| {
            let mut v: serde_json::Value = serde_json::from_slice(o.as_bytes()).unwrap();
            v["type"] = "x-future".into();
            o = RawJson::parse(leak_str(serde_json::to_string(&v).unwrap()).as_bytes()).unwrap();
            ContentBlock::Other(o)
        }),
    ]
}

fn block() -> impl Strategy<Value = ContentBlock<'static>> {
    prop_oneof![
        4 => leaf_block(),
        1 => (text(), vec(leaf_block(), 0..3), of(raw_any()), of(any::<bool>()), meta()).prop_map(
            |(tool_use_id, content, structured_content, is_error, meta)| ContentBlock::ToolResult(ToolResultContent {
                tool_use_id,
                content: Items::from_slice(leak(content)),
                structured_content,
                is_error,
                meta,
            })
        ),
    ]
}

fn blocks() -> impl Strategy<Value = Items<'static, ContentBlock<'static>>> {
    vec(block(), 0..3).prop_map(|v| Items::from_slice(leak(v)))
}

fn tool() -> impl Strategy<Value = Tool<'static>> {
    let ann = of((of(text()), of(any::<bool>()), of(any::<bool>()), of(any::<bool>()), of(any::<bool>())).prop_map(
        |(title, read_only_hint, destructive_hint, idempotent_hint, open_world_hint)| ToolAnnotations {
            title,
            read_only_hint,
            destructive_hint,
            idempotent_hint,
            open_world_hint,
        },
    ));
    let exec =
        of(of(prop_oneof![Just(TaskSupport::Forbidden), Just(TaskSupport::Optional), Just(TaskSupport::Required)])
            .prop_map(|task_support| ToolExecution { task_support }));
    (text(), of(text()), of(text()), raw_object(), of(raw_object()), ann, exec, icons(), meta()).prop_map(
        |(name, title, description, input_schema, output_schema, annotations, execution, icons, meta)| Tool {
            name,
            title,
            description,
            input_schema,
            output_schema,
            annotations,
            execution,
            icons,
            meta,
        },
    )
}

fn result_type() -> impl Strategy<Value = Option<ResultType<'static>>> {
    of(prop_oneof![Just(ResultType::Complete), Just(ResultType::InputRequired), text().prop_map(ResultType::Other)])
        .prop_map(|r| match r {
            // `Other` with a known name decodes as that name.
            Some(ResultType::Other(s)) if s == "complete" || s == "input_required" => None,
            r => r,
        })
}

fn cache() -> impl Strategy<Value = (Option<u64>, Option<CacheScope>)> {
    (of(any::<u64>()), of(prop_oneof![Just(CacheScope::Public), Just(CacheScope::Private)]))
}

fn capabilities() -> impl Strategy<Value = (ClientCapabilities<'static>, ServerCapabilities<'static>)> {
    let flag = || of(any::<bool>());
    let obj = || of(raw_object());
    let tasks = move || {
        of((obj(), obj(), obj()).prop_map(|(list, cancel, requests)| TasksCapability { list, cancel, requests }))
    };
    let client = (
        obj(),
        of(flag().prop_map(|list_changed| ListChanged { list_changed })),
        of((obj(), obj()).prop_map(|(context, tools)| SamplingCapability { context, tools })),
        of((obj(), obj()).prop_map(|(form, url)| ElicitationCapability { form, url })),
        tasks(),
        obj(),
    )
        .prop_map(|(experimental, roots, sampling, elicitation, tasks, extensions)| ClientCapabilities {
            experimental,
            roots,
            sampling,
            elicitation,
            tasks,
            extensions,
        });
    let server = (
        obj(),
        obj(),
        obj(),
        of(flag().prop_map(|list_changed| ListChanged { list_changed })),
        of((flag(), flag()).prop_map(|(subscribe, list_changed)| ResourcesCapability { subscribe, list_changed })),
        of(flag().prop_map(|list_changed| ListChanged { list_changed })),
        tasks(),
        obj(),
    )
        .prop_map(|(experimental, logging, completions, prompts, resources, tools, tasks, extensions)| {
            ServerCapabilities { experimental, logging, completions, prompts, resources, tools, tasks, extensions }
        });
    (client, server)
}

fn sampling_message() -> impl Strategy<Value = SamplingMessage<'static>> {
    (role(), prop_oneof![block().prop_map(OneOrMany::One), blocks().prop_map(OneOrMany::Many)], meta())
        .prop_map(|(role, content, meta)| SamplingMessage { role, content, meta })
}

fn task() -> impl Strategy<Value = Task<'static>> {
    let status = prop_oneof![
        Just(TaskStatus::Working),
        Just(TaskStatus::InputRequired),
        Just(TaskStatus::Completed),
        Just(TaskStatus::Failed),
        Just(TaskStatus::Cancelled)
    ];
    (text(), status, of(text()), text(), text(), of(any::<u64>()), of(any::<u64>()), result_type(), meta()).prop_map(
        |(task_id, status, status_message, created_at, last_updated_at, ttl, poll_interval, result_type, meta)| Task {
            task_id,
            status,
            status_message,
            created_at,
            last_updated_at,
            ttl,
            poll_interval,
            result_type,
            meta,
        },
    )
}

fn decode_as<T: serde::Deserialize<'static>>(_: &T, raw: RawJson<'static>) -> Result<T, mcp_sansio::wire::DecodeError> {
    raw.decode()
}

/// serde_json cannot lend escaped strings (`JsonStr` then fails): only unescaped values.
fn serde_json_as<T: serde::Deserialize<'static>>(_: &T, bytes: &'static [u8]) -> Option<T> {
    serde_json::from_slice(bytes).ok()
}

/// JSON equality with numbers compared to within a few ulps.
fn json_close(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value as V;
    match (a, b) {
        (V::Number(x), V::Number(y)) => match (x.as_f64(), y.as_f64()) {
            (Some(x), Some(y)) => x == y || (x - y).abs() <= 1e-14 * x.abs().max(y.abs()),
            _ => x == y,
        },
        (V::Array(x), V::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_close(x, y)),
        (V::Object(x), V::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| json_close(v, w)))
        }
        _ => a == b,
    }
}

/// Encode, decode, compare; re-encode, same bytes; serde_json writes the same bytes.
macro_rules! round_trip {
    ($value:expr) => {{
        let value = $value;
        let mut buf = vec![0u8; 1 << 16];
        let mut w = FrameWriter::unterminated(&mut buf);
        w.value(&value).unwrap();
        let ours = w.as_bytes().to_vec();
        prop_assert_eq!(
            String::from_utf8(ours.clone()).unwrap(),
            serde_json::to_string(&value).unwrap(),
            "our encoder and serde_json disagree"
        );
        let ours: &'static [u8] = leak(ours);
        let raw = RawJson::parse(ours).unwrap();
        let decoded = decode_as(&value, raw).map_err(|e| TestCaseError::fail(format!("{e}: {}", raw)))?;
        prop_assert_eq!(&decoded, &value);
        let mut buf2 = vec![0u8; 1 << 16];
        let mut w2 = FrameWriter::unterminated(&mut buf2);
        w2.value(&decoded).unwrap();
        prop_assert_eq!(w2.as_bytes(), &ours[..]);
        // serde_json decodes our output into the same value (through its raw-value support;
        // its float parsing without `float_roundtrip` may be one ulp off, so compare the
        // re-encoded JSON with numbers compared approximately).
        if let Some(v) = serde_json_as(&value, ours) {
            let again = serde_json::to_vec(&v).unwrap();
            prop_assert!(
                json_close(&serde_json::from_slice(&again).unwrap(), &serde_json::from_slice(ours).unwrap()),
                "serde_json decoded a different value"
            );
        }
    }};
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    fn lifecycle(
        (client, server) in capabilities(), info in implementation(), version in text(), instructions in of(text()),
        meta in meta(), rt in result_type(),
    ) {
        round_trip!(InitializeParams { protocol_version: version, capabilities: client, client_info: info, meta });
        round_trip!(InitializeResult {
            protocol_version: version, capabilities: server, server_info: info, instructions, result_type: rt, meta
        });
        round_trip!(client);
        round_trip!(server);
        round_trip!(EmptyParams { meta });
        round_trip!(EmptyResult { result_type: rt, meta });
    }

    fn utilities(
        token in progress_token(), progress in finite(), total in of(finite()), message in of(text()), meta in meta(),
        id in prop_oneof![
            any::<i64>().prop_map(RequestId::from_i64),
            "[a-z\"\\\\ ]{0,5}".prop_map(|s| RequestId::string(&s).unwrap()),
        ],
        reason in of(text()),
        level in prop::sample::select(LoggingLevel::ALL.to_vec()), logger in of(text()), data in raw_any(),
        uri in text(),
    ) {
        round_trip!(ProgressParams { progress_token: token, progress, total, message, meta });
        let id: &'static RequestId = Box::leak(Box::new(id));
        round_trip!(CancelledParams { request_id: Some(id.as_ref()), reason, meta });
        round_trip!(CancelledParams { request_id: None, reason, meta });
        round_trip!(SetLevelParams { level, meta });
        round_trip!(LoggingMessageParams { level, logger, data: LogData::Raw(data), meta });
        round_trip!(LoggingMessageParams { level, logger, data: LogData::Text(message.unwrap_or("".into())), meta });
        round_trip!(ResourceUriParams { uri, meta });
        round_trip!(PaginatedParams { cursor: message, meta });
    }

    fn tools(
        tools in vec(tool(), 0..3), cursor in of(text()), (ttl_ms, cache_scope) in cache(), rt in result_type(),
        meta in meta(), name in text(), arguments in of(raw_object()), ttl in of(any::<u64>()),
        content in blocks(), structured in of(raw_any()), is_error in of(any::<bool>()), state in of(text()),
        responses in of(vec((text(), raw_any()), 0..3)),
    ) {
        let tools = Items::from_slice(leak(tools));
        round_trip!(ListToolsResult { items: tools, next_cursor: cursor, ttl_ms, cache_scope, result_type: rt, meta });
        round_trip!(CallToolParams {
            name, arguments, task: ttl.map(|t| TaskMetadata { ttl: Some(t) }),
            input_responses: responses.map(|r| Map::from_pairs(leak(r))), request_state: state, meta,
        });
        round_trip!(CallToolResult {
            content: ContentList::from(content), structured_content: structured, is_error, result_type: rt, meta
        });
        round_trip!(CallToolResult::text(leak_str(format!("{name}"))));
    }

    fn resources(
        resources in vec((text(), text(), of(text()), of(text()), of(text()), annotations(), of(any::<u64>()), icons(), meta()), 0..3),
        templates in vec((text(), text(), of(text()), of(text()), of(text()), annotations(), icons(), meta()), 0..3),
        contents in vec(resource_contents(), 0..3), cursor in of(text()), (ttl_ms, cache_scope) in cache(),
        rt in result_type(), meta in meta(), uri in text(), state in of(text()),
    ) {
        let resources: Vec<_> = resources.into_iter().map(|(uri, name, title, description, mime_type, annotations, size, icons, meta)| {
            Resource { uri, name, title, description, mime_type, annotations, size, icons, meta }
        }).collect();
        let templates: Vec<_> = templates.into_iter().map(|(uri_template, name, title, description, mime_type, annotations, icons, meta)| {
            ResourceTemplate { uri_template, name, title, description, mime_type, annotations, icons, meta }
        }).collect();
        round_trip!(ListResourcesResult {
            items: Items::from_slice(leak(resources)), next_cursor: cursor, ttl_ms, cache_scope, result_type: rt, meta
        });
        round_trip!(ListResourceTemplatesResult {
            items: Items::from_slice(leak(templates)), next_cursor: cursor, ttl_ms, cache_scope, result_type: rt, meta
        });
        round_trip!(ReadResourceResult { contents: Items::from_slice(leak(contents)), ttl_ms, cache_scope, result_type: rt, meta });
        round_trip!(ReadResourceParams { uri, input_responses: None, request_state: state, meta });
    }

    fn prompts_and_completion(
        prompts in vec((text(), of(text()), of(text()), of(vec((text(), of(text()), of(text()), of(any::<bool>())), 0..3)), icons(), meta()), 0..3),
        messages in vec((role(), block()), 0..3), args in of(vec((text(), text()), 0..3)),
        name in text(), value in text(), title in of(text()), description in of(text()),
        values in texts(), total in of(any::<u64>()), has_more in of(any::<bool>()), rt in result_type(), meta in meta(),
        is_prompt in any::<bool>(),
    ) {
        let prompts: Vec<_> = prompts.into_iter().map(|(name, title, description, arguments, icons, meta)| Prompt {
            name, title, description, icons, meta,
            arguments: arguments.map(|a| Items::from_slice(leak(a.into_iter().map(|(name, title, description, required)| {
                PromptArgument { name, title, description, required }
            }).collect()))),
        }).collect();
        round_trip!(ListPromptsResult::new(leak(prompts)));
        let messages: Vec<_> = messages.into_iter().map(|(role, content)| PromptMessage { role, content }).collect();
        round_trip!(GetPromptResult { description, messages: Items::from_slice(leak(messages)), result_type: rt, meta });
        let arguments = args.map(|a| Map::from_pairs(leak(a)));
        round_trip!(GetPromptParams { name, arguments, input_responses: None, request_state: None, meta });
        let reference = if is_prompt {
            CompletionReference::Prompt(PromptReference { name, title })
        } else {
            CompletionReference::Resource(ResourceTemplateReference { uri: name })
        };
        round_trip!(CompleteParams {
            reference, argument: CompletionArgument { name, value },
            context: Some(CompletionContext { arguments }), meta,
        });
        round_trip!(CompleteResult { completion: Completion { values, total, has_more }, result_type: rt, meta });
    }

    fn client_features(
        messages in vec(sampling_message(), 0..3), tools in of(vec(tool(), 0..2)), max_tokens in any::<u64>(),
        temperature in of(finite()), system_prompt in of(text()), stop in of(texts()), metadata in of(raw_object()),
        prefs in of((of(vec(of(text()), 0..3)), of(finite()), of(finite()), of(finite()))),
        include in of(prop_oneof![Just(IncludeContext::None), Just(IncludeContext::ThisServer), Just(IncludeContext::AllServers)]),
        mode in of(prop_oneof![Just(ToolChoiceMode::Auto), Just(ToolChoiceMode::Required), Just(ToolChoiceMode::None)]),
        reply in sampling_message(), model in text(),
        stop_reason in of(prop_oneof![Just(StopReason::EndTurn), Just(StopReason::ToolUse), "[A-Z]{1,4}".prop_map(|s| StopReason::Other(JsonStr::from_text(leak_str(s))))]),
        roots in vec((text(), of(text()), meta()), 0..3), message in text(), schema in raw_object(), url in text(),
        elicitation_id in of(text()), form_mode in any::<bool>(),
        action in prop_oneof![Just(ElicitAction::Accept), Just(ElicitAction::Decline), Just(ElicitAction::Cancel)],
        content in of(raw_object()), rt in result_type(), meta in meta(), ttl in of(any::<u64>()),
    ) {
        let model_preferences = prefs.map(|(hints, cost_priority, speed_priority, intelligence_priority)| ModelPreferences {
            hints: hints.map(|h| Items::from_slice(leak(h.into_iter().map(|name| ModelHint { name }).collect()))),
            cost_priority, speed_priority, intelligence_priority,
        });
        let params = CreateMessageParams {
            messages: Items::from_slice(leak(messages)), model_preferences, system_prompt, include_context: include,
            temperature, max_tokens, stop_sequences: stop, metadata,
            tools: tools.map(|t| Items::from_slice(leak(t))), tool_choice: Some(ToolChoice { mode }),
            task: ttl.map(|t| TaskMetadata { ttl: Some(t) }), meta,
        };
        round_trip!(params);
        round_trip!(CreateMessageResult { role: reply.role, content: reply.content, model, stop_reason, result_type: rt, meta });
        let roots: Vec<_> = roots.into_iter().map(|(uri, name, meta)| Root { uri, name, meta }).collect();
        round_trip!(ListRootsResult { roots: Items::from_slice(leak(roots)), result_type: rt, meta });
        let form = ElicitParams::Form(ElicitFormParams {
            mode: form_mode.then_some(FormMode::Form), message, requested_schema: schema,
            task: ttl.map(|t| TaskMetadata { ttl: Some(t) }), meta,
        });
        round_trip!(form);
        let url = ElicitUrlParams { message, elicitation_id, url, task: None, meta };
        round_trip!(ElicitParams::Url(url));
        round_trip!(ElicitResult { action, content, result_type: rt, meta });
        round_trip!(ElicitationCompleteParams { elicitation_id: message, meta });
        let requests = [
            (JsonStr::from_text("a"), InputRequest::CreateMessage(params)),
            (JsonStr::from_text("b"), InputRequest::Elicit(form)),
            (JsonStr::from_text("c"), InputRequest::ListRoots(EmptyParams { meta })),
        ];
        round_trip!(InputRequiredResult::new(leak(requests.to_vec()), elicitation_id));
    }

    fn tasks_discover_and_subscriptions(
        task in task(), tasks in vec(task(), 0..3), cursor in of(text()), rt in result_type(), meta in meta(),
        (client, server) in capabilities(), versions in texts(), instructions in of(text()), (ttl_ms, cache_scope) in cache(),
        flags in (of(any::<bool>()), of(any::<bool>()), of(any::<bool>())), uris in of(texts()),
    ) {
        round_trip!(task);
        round_trip!(CreateTaskResult { task, result_type: rt, meta });
        round_trip!(ListTasksResult { tasks: Items::from_slice(leak(tasks)), next_cursor: cursor, result_type: rt, meta });
        round_trip!(TaskIdParams { task_id: task.task_id, meta });
        round_trip!(DiscoverResult {
            supported_versions: versions, capabilities: server, instructions, ttl_ms, cache_scope, result_type: rt, meta
        });
        let notifications = SubscriptionFilter {
            tools_list_changed: flags.0, prompts_list_changed: flags.1, resources_list_changed: flags.2,
            resource_subscriptions: uris,
        };
        round_trip!(SubscriptionParams { notifications, meta });
        round_trip!(MissingCapabilityData { required_capabilities: client });
        round_trip!(UnsupportedVersionData { supported: versions, requested: instructions });
    }
}

/// Debug builds of these strategies need deep stacks (the generated value trees nest
/// many tuples); run each on a thread with room.
fn on_big_stack(f: fn()) {
    std::thread::Builder::new().stack_size(256 << 20).spawn(f).unwrap().join().unwrap();
}

#[test]
fn round_trip_lifecycle() {
    on_big_stack(lifecycle);
}

#[test]
fn round_trip_utilities() {
    on_big_stack(utilities);
}

#[test]
fn round_trip_tools() {
    on_big_stack(tools);
}

#[test]
fn round_trip_resources() {
    on_big_stack(resources);
}

#[test]
fn round_trip_prompts_and_completion() {
    on_big_stack(prompts_and_completion);
}

#[test]
fn round_trip_client_features() {
    on_big_stack(client_features);
}

#[test]
fn round_trip_tasks_discover_and_subscriptions() {
    on_big_stack(tasks_discover_and_subscriptions);
}
