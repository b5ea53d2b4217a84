//! Every example of the 2026-07-28 schema (tests/fixtures/spec-examples) decodes as the
//! type its folder names, and decodes to the same value again after re-encoding.

use mcp_sansio::mcp::*;
use mcp_sansio::wire::{ErrorCode, FrameWriter, Message, RawJson};

/// Decodes `raw` as `$t`, re-encodes it with our writer and with serde_json, decodes
/// both again and compares.
macro_rules! round_trip {
    ($t:ty, $raw:expr) => {{
        let raw: RawJson<'_> = $raw;
        let value: $t = raw.decode().map_err(|e| format!("decode: {e}"))?;
        let ours = encode(&value)?;
        // serde_json writes raw values verbatim, line breaks included; ours writes a raw
        // value with line breaks compact, to keep a frame on one line (and one without
        // them verbatim). Compared without the whitespace between tokens, they agree.
        let theirs = serde_json::to_vec(&value).unwrap();
        if ours.contains(&b'\n') || ours.contains(&b'\r') {
            return Err(format!("a line break in our output: {}", String::from_utf8_lossy(&ours)));
        }
        if compact(&ours) != compact(&theirs) {
            return Err(format!(
                "our encoder and serde_json disagree:\n{}\n{}",
                String::from_utf8_lossy(&ours),
                String::from_utf8_lossy(&theirs)
            ));
        }
        if !json_eq(&serde_json::from_slice(raw.as_bytes()).unwrap(), &serde_json::from_slice(&ours).unwrap()) {
            return Err(format!("re-encoded JSON differs:\n{}\n{}", raw, String::from_utf8_lossy(&ours)));
        }
        // decode -> encode -> decode: equal (raw spans are compared as bytes, so compare
        // two values that both came from our encoder's output).
        let first: $t = RawJson::parse(&ours).unwrap().decode().map_err(|e| format!("decode again: {e}"))?;
        let ours2 = encode(&first)?;
        let second: $t = RawJson::parse(&ours2).unwrap().decode().map_err(|e| format!("decode again: {e}"))?;
        if first != second || ours != ours2 {
            return Err(format!("round trip changed the value: {first:?} != {second:?}"));
        }
    }};
}

/// `json` without whitespace outside strings, found byte by byte.
fn compact(json: &[u8]) -> Vec<u8> {
    let (mut out, mut in_string, mut escaped) = (Vec::new(), false, false);
    for &b in json {
        if in_string {
            in_string = escaped || b != b'"';
            escaped = !escaped && b == b'\\';
        } else if matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
            continue;
        } else {
            in_string = b == b'"';
        }
        out.push(b);
    }
    out
}

fn encode<T: serde::Serialize>(value: &T) -> Result<Vec<u8>, String> {
    let mut buf = vec![0u8; 1 << 16];
    let mut w = FrameWriter::unterminated(&mut buf);
    w.value(value).map_err(|e| format!("encode: {e}"))?;
    Ok(w.as_bytes().to_vec())
}

/// JSON equality with numbers compared by value (`50` and `50.0` are the same number).
fn json_eq(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value as V;
    match (a, b) {
        (V::Number(x), V::Number(y)) => x.as_f64() == y.as_f64(),
        (V::Array(x), V::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_eq(x, y)),
        (V::Object(x), V::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

fn method_of_result(type_name: &str) -> Option<Method<'static>> {
    Some(match type_name.trim_end_matches("Response") {
        "CallToolResult" => Method::ToolsCall,
        "CompleteResult" => Method::CompletionComplete,
        "DiscoverResult" => Method::ServerDiscover,
        "GetPromptResult" => Method::PromptsGet,
        "ListPromptsResult" => Method::PromptsList,
        "ListResourceTemplatesResult" => Method::ResourcesTemplatesList,
        "ListResourcesResult" => Method::ResourcesList,
        "ListToolsResult" => Method::ToolsList,
        "ReadResourceResult" => Method::ResourcesRead,
        "SubscriptionsListenResult" => Method::SubscriptionsListen,
        "CreateMessageResult" => Method::SamplingCreateMessage,
        "ListRootsResult" => Method::RootsList,
        "ElicitResult" => Method::ElicitationCreate,
        _ => return None,
    })
}

fn check(type_name: &str, text: &[u8]) -> Result<&'static str, String> {
    let raw = RawJson::parse(text).map_err(|e| format!("invalid JSON: {e:?}"))?;
    match type_name {
        "AudioContent" | "ImageContent" | "TextContent" | "EmbeddedResource" | "ResourceLink" | "ToolUseContent"
        | "ToolResultContent" => round_trip!(ContentBlock<'_>, raw),
        "BlobResourceContents" | "TextResourceContents" => round_trip!(ResourceContents<'_>, raw),
        "CallToolRequestParams" => round_trip!(CallToolParams<'_>, raw),
        "CallToolResult" => round_trip!(CallToolResult<'_>, raw),
        "CancelledNotificationParams" => round_trip!(CancelledParams<'_>, raw),
        "ClientCapabilities" => round_trip!(ClientCapabilities<'_>, raw),
        "ServerCapabilities" => round_trip!(ServerCapabilities<'_>, raw),
        "CompleteRequestParams" => round_trip!(CompleteParams<'_>, raw),
        "CompleteResult" => round_trip!(CompleteResult<'_>, raw),
        "CreateMessageRequestParams" => round_trip!(CreateMessageParams<'_>, raw),
        "CreateMessageResult" => round_trip!(CreateMessageResult<'_>, raw),
        "DiscoverResult" => round_trip!(DiscoverResult<'_>, raw),
        "ElicitRequestFormParams" | "ElicitRequestURLParams" => round_trip!(ElicitParams<'_>, raw),
        "ElicitResult" => round_trip!(ElicitResult<'_>, raw),
        "GetPromptRequestParams" => round_trip!(GetPromptParams<'_>, raw),
        "GetPromptResult" => round_trip!(GetPromptResult<'_>, raw),
        "InputRequests" => round_trip!(Map<'_, InputRequest<'_>>, raw),
        "InputRequiredResult" => round_trip!(InputRequiredResult<'_>, raw),
        "InputResponses" => {
            // Each response is decoded by the method of the request it answers; the
            // matching InputRequests example asks for an elicitation and a sampling.
            for (key, value) in raw.members() {
                let method =
                    if key.eq_str("github_login") { Method::ElicitationCreate } else { Method::SamplingCreateMessage };
                decode_result(method, value).map_err(|e| format!("{key}: {e}"))?;
            }
        }
        "ListPromptsResult" => round_trip!(ListPromptsResult<'_>, raw),
        "ListResourceTemplatesResult" => round_trip!(ListResourceTemplatesResult<'_>, raw),
        "ListResourcesResult" => round_trip!(ListResourcesResult<'_>, raw),
        "ListRootsResult" => round_trip!(ListRootsResult<'_>, raw),
        "ListToolsResult" => round_trip!(ListToolsResult<'_>, raw),
        "LoggingMessageNotificationParams" => round_trip!(LoggingMessageParams<'_>, raw),
        "ModelPreferences" => round_trip!(ModelPreferences<'_>, raw),
        "PaginatedRequestParams" => round_trip!(PaginatedParams<'_>, raw),
        "ProgressNotificationParams" => round_trip!(ProgressParams<'_>, raw),
        "ReadResourceResult" => round_trip!(ReadResourceResult<'_>, raw),
        "Resource" => round_trip!(Resource<'_>, raw),
        "ResourceUpdatedNotificationParams" => round_trip!(ResourceUriParams<'_>, raw),
        "Root" => round_trip!(Root<'_>, raw),
        "SamplingMessage" => round_trip!(SamplingMessage<'_>, raw),
        "SubscriptionsListenResult" => round_trip!(EmptyResult<'_>, raw),
        "Tool" => round_trip!(Tool<'_>, raw),
        // {method, params} without jsonrpc/id: the 2026-07-28 input request shape.
        // (The ListRootsRequest example also carries an `id`, which that shape does not
        // have; it is dropped like any unknown member.)
        "CreateMessageRequest" | "ElicitRequest" | "ListRootsRequest" => {
            let r: InputRequest<'_> = raw.decode().map_err(|e| e.to_string())?;
            if matches!(r, InputRequest::Other(_)) {
                return Err("input request method not recognised".into());
            }
            let mut v: serde_json::Value = serde_json::from_slice(text).unwrap();
            v.as_object_mut().unwrap().remove("id");
            let without_id = serde_json::to_vec(&v).unwrap();
            round_trip!(InputRequest<'_>, RawJson::parse(&without_id).unwrap())
        }
        // A bare error object.
        "InternalError" | "InvalidParamsError" | "MethodNotFoundError" | "ParseError" | "InvalidRequestError" => {
            let v: serde_json::Value = serde_json::from_slice(text).unwrap();
            if !v["code"].is_i64() || !v["message"].is_string() {
                return Err("not an error object".into());
            }
            return Ok("error object");
        }
        // Pieces of an elicitation's requestedSchema: kept raw by design.
        "BooleanSchema"
        | "NumberSchema"
        | "StringSchema"
        | "TitledMultiSelectEnumSchema"
        | "TitledSingleSelectEnumSchema"
        | "UntitledMultiSelectEnumSchema"
        | "UntitledSingleSelectEnumSchema" => {
            return Ok("raw by design");
        }
        _ => {
            // Whole JSON-RPC messages.
            let message = Message::parse(text).map_err(|e| format!("envelope: {e:?}"))?;
            match message {
                Message::Request(r) => {
                    let req = decode_request(Method::parse(r.method), r.params).map_err(|e| e.to_string())?;
                    if matches!(req, AnyRequest::Other(_)) {
                        return Err("unknown request method".into());
                    }
                }
                Message::Notification(n) => {
                    let note = decode_notification(Method::parse(n.method), n.params).map_err(|e| e.to_string())?;
                    if matches!(note, AnyNotification::Other(_)) {
                        return Err("unknown notification method".into());
                    }
                }
                Message::Response(r) => {
                    let method = method_of_result(type_name).ok_or("no method known for this result type")?;
                    decode_result(method, r.result).map_err(|e| e.to_string())?;
                }
                Message::Error(e) => {
                    let data = e.error.data;
                    match e.error.code {
                        ErrorCode(-32022) => {
                            data.ok_or("no data")?.decode::<UnsupportedVersionData<'_>>().map_err(|e| e.to_string())?;
                        }
                        ErrorCode(-32021) => {
                            data.ok_or("no data")?.decode::<MissingCapabilityData<'_>>().map_err(|e| e.to_string())?;
                        }
                        _ => {}
                    }
                }
            }
            return Ok("message");
        }
    }
    Ok("typed")
}

#[test]
fn every_schema_example_decodes_and_round_trips() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/spec-examples");
    let mut failures = Vec::new();
    let mut count = 0;
    for dir in std::fs::read_dir(&root).unwrap() {
        let dir = dir.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        let type_name = dir.file_name().unwrap().to_str().unwrap().to_owned();
        for file in std::fs::read_dir(&dir).unwrap() {
            let file = file.unwrap().path();
            let text = std::fs::read(&file).unwrap();
            count += 1;
            if let Err(e) = check(&type_name, &text) {
                failures.push(format!("{}: {e}", file.strip_prefix(&root).unwrap().display()));
            }
        }
    }
    assert!(count > 100, "only {count} examples found");
    assert!(failures.is_empty(), "{} of {count} examples failed:\n{}", failures.len(), failures.join("\n"));
}
