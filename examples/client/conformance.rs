//! The client's part in the official conformance suite's client scenarios, on the
//! toolkit's [`BlockingClient`]: the suite runs `client --http URL` with the scenario's
//! name in `MCP_CONFORMANCE_SCENARIO`, and each scenario's server checks what the
//! client does (tests/conformance/README.md and the header of
//! tests/conformance/ts_conformance_client.mjs):
//!
//! | scenario | script |
//! |---|---|
//! | `initialize`, `json-schema-ref-no-deref` | `initialize` (or `server/discover`), `tools/list`, close (the `$ref` to a network URI is never fetched) |
//! | `tools_call` | `tools/list`, `add_numbers {a: 2, b: 3}` |
//! | `elicitation-sep1034-client-defaults` | `tools/list`, `test_client_elicitation_defaults`; the form accepted with its defaults |
//! | `sse-retry` | `tools/list`, `test_reconnection` (the server cuts the stream; the adapter resumes after `retry`) |
//! | `json-schema-2020-12-preservation` | `tools/list`, `json_schema_echo {schema: <json_schema_2020_12_tool's inputSchema, verbatim>}` |
//! | `http-custom-headers` (any scenario whose `MCP_CONFORMANCE_CONTEXT` has `toolCalls`) | `tools/list`, those calls, with their `Mcp-Param-*` headers ([`param_headers`]) |
//! | anything else (`auth/*`, `sep-2322-client-request-state`, ...) | `tools/list`, every tool called with `{}` |
//!
//! What the toolkit does for the script: both eras (the `server/discover` probe, then
//! `initialize` for a handshake-era server), the `input_required` rounds of a stateless
//! server answered through the same [`Scripted`] hooks and sent again with their
//! `requestState` echoed (`sep-2322-client-request-state`), the `Mcp-Param-*` headers
//! through [`HttpClientBuilder::request_headers`](mcp_sansio::toolkit::client::HttpClientBuilder::request_headers),
//! and a 401 or 403 challenge (`auth/*`) answered through its
//! [`credentials`](mcp_sansio::toolkit::client::HttpClientBuilder::credentials) callback
//! with a token from the OAuth flow of `oauth.rs`. Tools whose `x-mcp-header`
//! annotations are invalid are left out (`http-invalid-tool-headers`).

use std::io;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_sansio::http::client::TransportMode;
use mcp_sansio::http::headers::{BearerParams, ParamValue, check_param_annotations, encode_param_value};
use mcp_sansio::http::headers::{encoded_param_len, param_annotations};
use mcp_sansio::mcp::{
    ClientCapabilities, ContentBlock, CreateMessageParams, CreateMessageResult, ElicitAction, ElicitParams,
    ElicitResult, Implementation, MessageRole, OneOrMany, StopReason,
};
use mcp_sansio::session::SendError;
use mcp_sansio::toolkit::client::{BlockingClient, ClientError, Hooks, Reply};
use mcp_sansio::wire::RawJson;

use crate::oauth::OAuth;
use crate::plan::{CLIENT_NAME, fill_form};

/// The tools listed: name and `inputSchema` as the server wrote it. Shared with the
/// request-headers callback, which runs on the client's loop thread.
type Tools = Arc<Mutex<Vec<(String, String)>>>;

fn say(text: impl std::fmt::Display) {
    println!("   · {text}");
}

/// Runs `scenario` against `url`; whether every step was answered.
pub fn run(url: &str, mode: TransportMode, scenario: &str) -> io::Result<bool> {
    println!("== Conformance scenario {scenario} at {url}");
    let tools: Tools = Arc::default();
    let listed = Arc::clone(&tools);
    let mut oauth = OAuth::new(url);
    let connected = BlockingClient::http(url)
        .transport(mode)
        .info(Implementation::new(CLIENT_NAME, env!("CARGO_PKG_VERSION")))
        .timeout(Duration::from_secs(30))
        .hooks(Scripted)
        .request_headers(move |body, headers| param_headers(&listed, body, headers))
        .credentials(move |status, challenge| authorize(&mut oauth, status, challenge))
        .connect();
    let mut failures = Vec::new();
    match connected {
        Ok(client) => {
            say(format_args!("negotiated protocol version {}", client.protocol_version()));
            script(&client, scenario, &tools, &mut failures);
            if let Err(e) = client.close() {
                say(format_args!("closing: {e}"));
            }
        }
        Err(e) => fail(&mut failures, format!("the session ended before the scenario did: {e}")),
    }
    println!("== {}", if failures.is_empty() { "Scenario done" } else { "Scenario failed" });
    Ok(failures.is_empty())
}

fn fail(failures: &mut Vec<String>, what: String) {
    say(format_args!("FAILED: {what}"));
    failures.push(what);
}

/// The scenario's steps: `tools/list` through every page, then its calls.
fn script(client: &BlockingClient, scenario: &str, tools: &Tools, failures: &mut Vec<String>) {
    for page in client.tools() {
        let page = match page {
            Ok(page) => page,
            // A server without tools (request-metadata's) is not asked for them.
            Err(ClientError::Send(SendError::CapabilityNotDeclared(_))) => {
                say("the server declares no tools: none listed");
                break;
            }
            Err(e) => return fail(failures, format!("tools/list: {e}")),
        };
        let mut listed = tools.lock().unwrap_or_else(|e| e.into_inner());
        for tool in page.json().get("tools").into_iter().flat_map(|t| t.elements()) {
            let name = tool.get("name").and_then(|n| n.as_str()).map(|n| n.to_string()).unwrap_or_default();
            let schema = tool.get("inputSchema").unwrap_or(RawJson::EMPTY_OBJECT);
            // A tool whose x-mcp-header annotations are invalid is left out (SEP-2243);
            // the others stay usable.
            if let Err(why) = check_param_annotations(schema) {
                say(format_args!("tool {name} left out: {why}"));
                continue;
            }
            listed.push((name, schema.as_text().to_string()));
        }
    }
    let listed: Vec<(String, String)> = tools.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let names: Vec<&str> = listed.iter().map(|(n, _)| n.as_str()).collect();
    say(format_args!("tools: {}", names.join(", ")));
    let calls: Vec<(String, String)> = match scenario {
        "initialize" | "json-schema-ref-no-deref" => vec![],
        "tools_call" => vec![("add_numbers".into(), r#"{"a":2,"b":3}"#.into())],
        "elicitation-sep1034-client-defaults" => vec![("test_client_elicitation_defaults".into(), "{}".into())],
        "sse-retry" => vec![("test_reconnection".into(), "{}".into())],
        "json-schema-2020-12-preservation" => {
            let schema = match listed.iter().find(|(n, _)| n == "json_schema_2020_12_tool") {
                Some((_, s)) => s.clone(),
                None => {
                    fail(failures, "the server listed no json_schema_2020_12_tool".into());
                    "{}".into()
                }
            };
            vec![("json_schema_echo".into(), format!(r#"{{"schema":{schema}}}"#))]
        }
        _ => context_calls().unwrap_or_else(|| listed.iter().map(|(n, _)| (n.clone(), "{}".into())).collect()),
    };
    for (name, args) in calls {
        let what = format!("tools/call {name}");
        let arguments = match RawJson::parse(args.as_bytes()) {
            Ok(a) => a,
            Err(e) => {
                fail(failures, format!("could not send {what}: {e}"));
                continue;
            }
        };
        match client.call_tool(&name, &arguments) {
            Ok(answer) => say(format_args!("{what}: {}", clip(answer.json().as_text()))),
            Err(e) => fail(failures, format!("{what}: {e}")),
        }
    }
}

/// A 401 or 403 challenge: a token from the OAuth flow, or `None` to give up.
fn authorize(oauth: &mut OAuth, status: u16, challenge: Option<&BearerParams<'_>>) -> Option<String> {
    let text = |v: Option<&ParamValue<'_>>| v.map(param_text);
    let metadata = text(challenge.and_then(|c| c.resource_metadata.as_ref()));
    let scope = text(challenge.and_then(|c| c.scope.as_ref()));
    say(format_args!("http: {status}: authorizing (resource metadata {metadata:?}, scope {scope:?})"));
    match oauth.token(metadata.as_deref(), scope.as_deref()) {
        Ok(token) => {
            say("http: got a token; retrying");
            Some(token)
        }
        Err(e) => {
            say(format_args!("http: no token: {e}; giving up"));
            None
        }
    }
}

/// A challenge parameter's text, unescaped.
fn param_text(v: &ParamValue<'_>) -> String {
    if let Some(s) = v.as_str() {
        return s.to_string();
    }
    let mut scratch = vec![0; v.unescaped_len()];
    v.unescape(&mut scratch).map(|b| String::from_utf8_lossy(b).into_owned()).unwrap_or_default()
}

/// The `Mcp-Param-{Name}` headers of a 2026-07-28 `tools/call` in `body`: every
/// argument the listed tool's `inputSchema` marks `x-mcp-header`, unless absent or
/// `null`; strings as the base64 sentinel where a header cannot carry them as they
/// are, integers in decimal, booleans as `true`/`false`.
fn param_headers(tools: &Tools, body: &[u8], headers: &mut Vec<(String, String)>) {
    let Ok(message) = serde_json::from_slice::<serde_json::Value>(body) else { return };
    let params = &message["params"];
    if message["method"] != "tools/call" || params["_meta"]["io.modelcontextprotocol/protocolVersion"].is_null() {
        return;
    }
    let Some(name) = params["name"].as_str() else { return };
    let tools = tools.lock().unwrap_or_else(|e| e.into_inner());
    let Some((_, schema)) = tools.iter().find(|(n, _)| n == name) else { return };
    let Ok(schema) = RawJson::parse(schema.as_bytes()) else { return };
    for (property, header) in param_annotations(schema) {
        let value = match &params["arguments"][property] {
            serde_json::Value::String(s) => {
                let mut out = vec![0; encoded_param_len(s)];
                match encode_param_value(s, &mut out) {
                    Ok(v) => v.to_string(),
                    Err(_) => continue,
                }
            }
            serde_json::Value::Bool(b) => b.to_string(),
            serde_json::Value::Number(n) => n.to_string(),
            _ => continue,
        };
        headers.push((format!("Mcp-Param-{header}"), value));
    }
}

/// The calls `MCP_CONFORMANCE_CONTEXT` names (`toolCalls`: name, arguments), if any.
fn context_calls() -> Option<Vec<(String, String)>> {
    let context: serde_json::Value = serde_json::from_str(&std::env::var("MCP_CONFORMANCE_CONTEXT").ok()?).ok()?;
    let calls = context.get("toolCalls")?.as_array()?;
    let calls =
        calls.iter().filter_map(|c| Some((c.get("name")?.as_str()?.to_string(), c.get("arguments")?.to_string())));
    Some(calls.collect())
}

fn clip(text: &str) -> String {
    match text.char_indices().nth(200) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

/// The server's requests (or a stateless server's input requests): sampling with a
/// scripted message, elicitation with the form filled from its defaults; no roots.
struct Scripted;

impl Hooks for Scripted {
    fn capabilities(&self) -> ClientCapabilities<'static> {
        ClientCapabilities::new().sampling().elicitation()
    }

    fn sampling(&mut self, _: CreateMessageParams<'_>, reply: Reply<'_, '_>) {
        say("sampling/createMessage: a scripted answer");
        reply.respond(&CreateMessageResult {
            role: MessageRole::Assistant,
            content: OneOrMany::One(ContentBlock::text("A scripted answer")),
            model: "scripted-model".into(),
            stop_reason: Some(StopReason::EndTurn),
            result_type: None,
            meta: None,
        });
    }

    fn elicitation(&mut self, params: ElicitParams<'_>, reply: Reply<'_, '_>) {
        let content = match params {
            ElicitParams::Form(form) => fill_form(form.requested_schema),
            _ => None,
        };
        let action = if content.is_some() { ElicitAction::Accept } else { ElicitAction::Decline };
        say(format_args!("elicitation/create: {action:?} {}", content.as_deref().unwrap_or("")));
        let content = content.as_deref().and_then(|c| RawJson::parse(c.as_bytes()).ok());
        reply.respond(&ElicitResult { action, content, result_type: None, meta: None });
    }
}
