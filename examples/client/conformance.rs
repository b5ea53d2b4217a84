//! The client's part in the official conformance suite's client scenarios: the suite
//! runs `client --http URL` with the scenario's name in `MCP_CONFORMANCE_SCENARIO`, and
//! each scenario's server checks what the client does (tests/conformance/README.md and
//! the header of tests/conformance/ts_conformance_client.mjs):
//!
//! | scenario | script |
//! |---|---|
//! | `initialize`, `json-schema-ref-no-deref` | `initialize` (or `server/discover`), `tools/list`, close (the `$ref` to a network URI is never fetched) |
//! | `tools_call` | `tools/list`, `add_numbers {a: 2, b: 3}` |
//! | `elicitation-sep1034-client-defaults` | `tools/list`, `test_client_elicitation_defaults`; the form accepted with its defaults |
//! | `sse-retry` | `tools/list`, `test_reconnection` (the server cuts the stream; the adapter resumes after `retry`) |
//! | `json-schema-2020-12-preservation` | `tools/list`, `json_schema_echo {schema: <json_schema_2020_12_tool's inputSchema, verbatim>}` |
//! | `http-custom-headers` (any scenario whose `MCP_CONFORMANCE_CONTEXT` has `toolCalls`) | `tools/list`, those calls, with their `Mcp-Param-*` headers ([`Conformance::request_headers`]) |
//! | anything else (`auth/*`, `sep-2322-client-request-state`, ...) | `tools/list`, every tool called with `{}` |
//!
//! Tools whose `x-mcp-header` annotations are invalid are left out
//! (`http-invalid-tool-headers`); an `input_required` result is answered as the
//! server's own requests are and retried with `requestState` echoed
//! (`sep-2322-client-request-state`).
//!
//! The `auth/*` scenarios answer the first request with 401 (or a later one with 403
//! `insufficient_scope`); `http.rs` gets a token through `oauth.rs` and the adapter
//! sends the request again with it.
//!
//! The server's own requests are answered as the stdio script answers them: sampling
//! with a scripted message, elicitation with the form filled from its defaults, roots
//! with none.

use std::collections::VecDeque;

use mcp_sansio::http::headers::{check_param_annotations, encode_param_value, param_annotations};
use mcp_sansio::mcp::{
    ContentBlock, CreateMessageResult, ElicitAction, ElicitParams, ElicitResult, ListRootsResult, MessageRole, Method,
    OneOrMany, StopReason,
};
use mcp_sansio::session::{Event, IncomingRequest, Page, PageWalker, RequestOptions, RetryTicket, SendError};
use mcp_sansio::time::Instant;
use mcp_sansio::wire::{ErrorCode, RawJson, RequestId};

use crate::app::{ClientEndpoint, Plan, fill_form};

/// A step of a scenario's script.
#[derive(Clone, Debug)]
enum Step {
    /// `tools/list`, every page.
    ListTools,
    /// `tools/call` of a tool with these arguments.
    Call(String, String),
    /// Every listed tool, with `{}`.
    CallAll,
    /// `json_schema_echo` with the focal tool's schema.
    EchoSchema,
}

/// A `tools/call` to send again after `input_required`.
struct Retry {
    ticket: RetryTicket,
    /// The tool and its arguments (JSON text), as first sent.
    call: (String, String),
    /// `inputResponses` (JSON text).
    responses: String,
    /// `requestState` exactly as received, if there was one.
    state: Option<String>,
}

/// A scenario's script and what came of it.
pub struct Conformance {
    steps: VecDeque<Step>,
    waiting: Option<(RequestId, String)>,
    /// The `tools/call` in flight (name, arguments), for a retry after `input_required`.
    calling: Option<(String, String)>,
    /// A retry to send after `input_required`.
    retry: Option<Retry>,
    walker: PageWalker<256>,
    /// Listed tools: name and `inputSchema` as the server wrote it.
    tools: Vec<(String, String)>,
    ready: bool,
    finished: bool,
    failures: Vec<String>,
}

fn say(text: impl std::fmt::Display) {
    println!("   · {text}");
}

impl Conformance {
    /// The script for `scenario`.
    pub fn new(scenario: &str) -> Self {
        let call = |name: &str, args: &str| Step::Call(name.into(), args.into());
        let rest = match scenario {
            "initialize" | "json-schema-ref-no-deref" => vec![],
            "tools_call" => vec![call("add_numbers", r#"{"a":2,"b":3}"#)],
            "elicitation-sep1034-client-defaults" => vec![call("test_client_elicitation_defaults", "{}")],
            "sse-retry" => vec![call("test_reconnection", "{}")],
            "json-schema-2020-12-preservation" => vec![Step::EchoSchema],
            _ => match context_calls() {
                Some(calls) => calls.into_iter().map(|(n, a)| Step::Call(n, a)).collect(),
                None => vec![Step::CallAll],
            },
        };
        Conformance {
            steps: std::iter::once(Step::ListTools).chain(rest).collect(),
            waiting: None,
            calling: None,
            retry: None,
            walker: PageWalker::new(100),
            tools: Vec::new(),
            ready: false,
            finished: false,
            failures: Vec::new(),
        }
    }

    /// The session settings: the stdio script's, without its steps.
    pub fn plan(&self) -> Plan {
        Plan::default()
    }

    fn fail(&mut self, what: String) {
        say(format_args!("FAILED: {what}"));
        self.failures.push(what);
    }

    /// An event of the session.
    pub fn on_session_event(&mut self, ev: Event<'_>) {
        match ev {
            Event::Negotiated { version, .. } => say(format_args!("negotiated protocol version {version}")),
            Event::Ready { .. } => self.ready = true,
            Event::Request(mut req) => serve(&mut req),
            Event::InputRequired { id, result, retry, .. } => {
                let Some((want, what)) = self.waiting.take() else { return };
                if want != id {
                    self.waiting = Some((want, what));
                    return;
                }
                let Some(call) = self.calling.take() else {
                    return self.fail(format!("{what}: input required, but no call to retry"));
                };
                // Every input request answered as the server's own requests are; the
                // state echoed verbatim, and none sent when none came (SEP-2322).
                let mut responses = serde_json::Map::new();
                for (key, request) in result.get("inputRequests").into_iter().flat_map(|r| r.members()) {
                    let method = request.get("method").and_then(|m| m.as_str()).map(|m| m.to_string());
                    let method = method.unwrap_or_default();
                    let answer = answer(&method, request.get("params"))
                        .and_then(|a| serde_json::from_str::<serde_json::Value>(&a).ok());
                    match answer {
                        Some(a) => {
                            responses.insert(key.to_string(), a);
                        }
                        None => return self.fail(format!("{what}: cannot answer the input request {key} ({method})")),
                    }
                }
                let state = result.get("requestState").and_then(|s| s.as_str()).map(|s| s.to_string());
                say(format_args!("{what}: input required; retrying with the answers"));
                let responses = serde_json::Value::Object(responses).to_string();
                self.retry = Some(Retry { ticket: retry, call, responses, state });
            }
            Event::Response { id, result, .. } => {
                let Some((want, what)) = self.waiting.take() else { return };
                if want != id {
                    self.waiting = Some((want, what));
                    return;
                }
                if what == "tools/list" {
                    for tool in result.get("tools").into_iter().flat_map(|t| t.elements()) {
                        let name = tool.get("name").and_then(|n| n.as_str()).map(|n| n.to_string()).unwrap_or_default();
                        let schema = tool.get("inputSchema").unwrap_or(RawJson::EMPTY_OBJECT);
                        // A tool whose x-mcp-header annotations are invalid is left out
                        // (SEP-2243); the others stay usable.
                        if let Err(why) = check_param_annotations(schema) {
                            say(format_args!("tool {name} left out: {why}"));
                            continue;
                        }
                        self.tools.push((name, schema.as_text().to_string()));
                    }
                    match self.walker.next_page(result) {
                        Ok(Page::More) => self.steps.push_front(Step::ListTools),
                        Ok(Page::Done) => {
                            let names: Vec<&str> = self.tools.iter().map(|(n, _)| n.as_str()).collect();
                            say(format_args!("tools: {}", names.join(", ")));
                        }
                        Err(e) => self.fail(format!("tools/list: {e}")),
                    }
                } else {
                    say(format_args!("{what}: {}", clip(result.as_text())));
                }
            }
            Event::Error { id, error, .. } => {
                if let Some((want, what)) = self.waiting.take() {
                    if want == id {
                        self.fail(format!("{what}: error {} {}", error.code.0, error.message));
                    } else {
                        self.waiting = Some((want, what));
                    }
                }
            }
            Event::TimedOut { id, .. } | Event::Failed { id, .. } => {
                if self.waiting.as_ref().is_some_and(|(want, _)| *want == id)
                    && let Some((_, what)) = self.waiting.take()
                {
                    self.fail(format!("{what}: no answer"));
                }
            }
            Event::Closed { reason } => say(format_args!("session closed: {reason}")),
            other => say(format_args!("{other:?}")),
        }
    }

    /// A request the transport lost: the step fails, the script goes on.
    pub fn on_request_lost(&mut self, id: &RequestId, reason: &str) {
        if self.waiting.as_ref().is_some_and(|(want, _)| want == id)
            && let Some((_, what)) = self.waiting.take()
        {
            self.fail(format!("{what}: lost ({reason})"));
        }
    }

    /// The next step once the last one was answered; closes the session at the end.
    pub fn advance(&mut self, ep: &mut ClientEndpoint<'_>, now: Instant) -> Option<Instant> {
        if !self.ready || self.finished || self.waiting.is_some() {
            return None;
        }
        if let Some(Retry { ticket, call: (name, args), responses, state }) = self.retry.take() {
            let params = call_params(&name, &args);
            let sent = RawJson::parse(params.as_bytes())
                .and_then(|p| RawJson::parse(responses.as_bytes()).map(|r| (p, r)))
                .map_err(|e| e.to_string())
                .and_then(|(p, r)| {
                    ep.retry(now, &ticket, Some(&p), &r, state.as_deref(), RequestOptions::default())
                        .map_err(|e| e.to_string())
                });
            match sent {
                Ok(id) => {
                    self.waiting = Some((id, format!("tools/call {name} (retry)")));
                    self.calling = Some((name, args));
                }
                Err(e) => self.fail(format!("could not retry {name}: {e}")),
            }
            return None;
        }
        let Some(step) = self.steps.pop_front() else {
            self.finished = true;
            ep.close(now);
            return None;
        };
        let (method, what, params) = match step {
            Step::ListTools => {
                let params = serde_json::to_string(&self.walker.params()).unwrap_or_else(|_| "{}".into());
                ("tools/list", "tools/list".to_string(), params)
            }
            Step::Call(name, args) => {
                let params = call_params(&name, &args);
                self.calling = Some((name.clone(), args));
                ("tools/call", format!("tools/call {name}"), params)
            }
            Step::CallAll => {
                let calls = self.tools.iter().map(|(n, _)| Step::Call(n.clone(), "{}".into())).collect::<Vec<_>>();
                for c in calls.into_iter().rev() {
                    self.steps.push_front(c);
                }
                return self.advance(ep, now);
            }
            Step::EchoSchema => {
                let schema = match self.tools.iter().find(|(n, _)| n == "json_schema_2020_12_tool") {
                    Some((_, s)) => s.clone(),
                    None => {
                        self.fail("the server listed no json_schema_2020_12_tool".into());
                        "{}".into()
                    }
                };
                let args = format!(r#"{{"schema":{schema}}}"#);
                ("tools/call", "tools/call json_schema_echo".to_string(), call_params("json_schema_echo", &args))
            }
        };
        let sent = match RawJson::parse(params.as_bytes()) {
            Ok(p) => ep.send_request(now, method, Some(&p), RequestOptions::default()),
            Err(e) => {
                self.fail(format!("could not send {what}: {e}"));
                return None;
            }
        };
        match sent {
            Ok(id) => self.waiting = Some((id, what)),
            // A server without tools (request-metadata's) is not asked for them.
            Err(SendError::CapabilityNotDeclared(_)) if method == "tools/list" => {
                say("the server declares no tools: none listed");
                return self.advance(ep, now);
            }
            Err(e) => self.fail(format!("could not send {what}: {e}")),
        }
        None
    }

    /// The `Mcp-Param-{Name}` headers of a 2026-07-28 `tools/call` in `body`: every
    /// argument the listed tool's `inputSchema` marks `x-mcp-header`, unless absent or
    /// `null`; strings as the base64 sentinel where a header cannot carry them as they
    /// are, integers in decimal, booleans as `true`/`false`.
    pub fn request_headers(&self, body: &[u8], headers: &mut Vec<(String, String)>) {
        let Ok(message) = serde_json::from_slice::<serde_json::Value>(body) else { return };
        let params = &message["params"];
        if message["method"] != "tools/call" || params["_meta"]["io.modelcontextprotocol/protocolVersion"].is_null() {
            return;
        }
        let Some(name) = params["name"].as_str() else { return };
        let Some((_, schema)) = self.tools.iter().find(|(n, _)| n == name) else { return };
        let Ok(schema) = RawJson::parse(schema.as_bytes()) else { return };
        for (property, header) in param_annotations(schema) {
            let value = match &params["arguments"][property] {
                serde_json::Value::String(s) => {
                    let mut out = vec![0; mcp_sansio::http::headers::encoded_param_len(s)];
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

    /// Whether every step was answered.
    pub fn verdict(&mut self, ended: &str) -> bool {
        if !self.finished {
            self.fail(format!("the session ended before the scenario did: {ended}"));
        }
        println!("== {}", if self.failures.is_empty() { "Scenario done" } else { "Scenario failed" });
        self.failures.is_empty()
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

fn call_params(name: &str, args: &str) -> String {
    format!(r#"{{"name":{},"arguments":{args}}}"#, serde_json::to_string(name).unwrap_or_default())
}

fn clip(text: &str) -> String {
    match text.char_indices().nth(200) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

/// The answer to a server's request or a 2026-07-28 input request, as JSON text: a
/// scripted sample, the form's defaults, no roots; `None` for anything else.
fn answer(method: &str, params: Option<RawJson<'_>>) -> Option<String> {
    match Method::from_known_name(method)? {
        Method::SamplingCreateMessage => {
            say("sampling/createMessage: a scripted answer");
            let result = CreateMessageResult {
                role: MessageRole::Assistant,
                content: OneOrMany::One(ContentBlock::text("A scripted answer")),
                model: "scripted-model".into(),
                stop_reason: Some(StopReason::EndTurn),
                result_type: None,
                meta: None,
            };
            serde_json::to_string(&result).ok()
        }
        Method::ElicitationCreate => {
            let content = match params.and_then(|p| p.decode::<ElicitParams<'_>>().ok()) {
                Some(ElicitParams::Form(form)) => fill_form(form.requested_schema),
                _ => None,
            };
            let action = if content.is_some() { ElicitAction::Accept } else { ElicitAction::Decline };
            say(format_args!("elicitation/create: {action:?} {}", content.as_deref().unwrap_or("")));
            let content = content.as_deref().and_then(|c| RawJson::parse(c.as_bytes()).ok());
            serde_json::to_string(&ElicitResult { action, content, result_type: None, meta: None }).ok()
        }
        Method::RootsList => serde_json::to_string(&ListRootsResult::new(&[])).ok(),
        _ => None,
    }
}

/// The server's requests, answered by [`answer`].
fn serve(req: &mut IncomingRequest<'_>) {
    let method = req.method.name().to_string();
    match answer(&method, req.params).as_deref().map(|a| RawJson::parse(a.as_bytes())) {
        Some(Ok(result)) => {
            let _ = req.respond(&result);
        }
        _ => {
            say(format_args!("the server sent {method}, which this client does not serve"));
            let _ = req.respond_error(ErrorCode::METHOD_NOT_FOUND, "Method not found");
        }
    }
}
