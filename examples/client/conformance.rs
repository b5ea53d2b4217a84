//! The client's part in the official conformance suite's client scenarios: the suite
//! runs `client --http URL` with the scenario's name in `MCP_CONFORMANCE_SCENARIO`, and
//! each scenario's server checks what the client does (tests/conformance/README.md and
//! the header of tests/conformance/ts_conformance_client.mjs):
//!
//! | scenario | script |
//! |---|---|
//! | `initialize` | `initialize`, `tools/list`, close |
//! | `tools_call` | `tools/list`, `add_numbers {a: 2, b: 3}` |
//! | `elicitation-sep1034-client-defaults` | `tools/list`, `test_client_elicitation_defaults`; the form accepted with its defaults |
//! | `sse-retry` | `tools/list`, `test_reconnection` (the server cuts the stream; the adapter resumes after `retry`) |
//! | `json-schema-2020-12-preservation` | `tools/list`, `json_schema_echo {schema: <json_schema_2020_12_tool's inputSchema, verbatim>}` |
//! | anything else (`auth/*`, ...) | `tools/list`, every tool called with `{}` |
//!
//! The `auth/*` scenarios answer the first request with 401 (or a later one with 403
//! `insufficient_scope`); `http.rs` gets a token through `oauth.rs` and the adapter
//! sends the request again with it.
//!
//! The server's own requests are answered as the stdio script answers them: sampling
//! with a scripted message, elicitation with the form filled from its defaults, roots
//! with none.

use std::collections::VecDeque;

use mcp_sansio::mcp::{
    ContentBlock, CreateMessageResult, ElicitAction, ElicitParams, ElicitResult, ListRootsResult, MessageRole, Method,
    OneOrMany, StopReason,
};
use mcp_sansio::session::{Event, IncomingRequest, Page, PageWalker, RequestOptions};
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

/// A scenario's script and what came of it.
pub struct Conformance {
    steps: VecDeque<Step>,
    waiting: Option<(RequestId, String)>,
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
            "initialize" => vec![],
            "tools_call" => vec![call("add_numbers", r#"{"a":2,"b":3}"#)],
            "elicitation-sep1034-client-defaults" => vec![call("test_client_elicitation_defaults", "{}")],
            "sse-retry" => vec![call("test_reconnection", "{}")],
            "json-schema-2020-12-preservation" => vec![Step::EchoSchema],
            _ => vec![Step::CallAll],
        };
        Conformance {
            steps: std::iter::once(Step::ListTools).chain(rest).collect(),
            waiting: None,
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
            Event::Response { id, result, .. } => {
                let Some((want, what)) = self.waiting.take() else { return };
                if want != id {
                    self.waiting = Some((want, what));
                    return;
                }
                if what == "tools/list" {
                    for tool in result.get("tools").into_iter().flat_map(|t| t.elements()) {
                        let name = tool.get("name").and_then(|n| n.as_str()).map(|n| n.to_string()).unwrap_or_default();
                        let schema = tool.get("inputSchema").map_or("{}", |s| s.as_text()).to_string();
                        self.tools.push((name, schema));
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
            Step::Call(name, args) => ("tools/call", format!("tools/call {name}"), call_params(&name, &args)),
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
        let sent = RawJson::parse(params.as_bytes())
            .map_err(|e| e.to_string())
            .and_then(|p| ep.send_request(now, method, Some(&p), RequestOptions::default()).map_err(|e| e.to_string()));
        match sent {
            Ok(id) => self.waiting = Some((id, what)),
            Err(e) => self.fail(format!("could not send {what}: {e}")),
        }
        None
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

fn call_params(name: &str, args: &str) -> String {
    format!(r#"{{"name":{},"arguments":{args}}}"#, serde_json::to_string(name).unwrap_or_default())
}

fn clip(text: &str) -> String {
    match text.char_indices().nth(200) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

/// The server's requests: a scripted sample, the form's defaults, no roots.
fn serve(req: &mut IncomingRequest<'_>) {
    match req.method {
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
            let _ = req.respond(&result);
        }
        Method::ElicitationCreate => {
            let content = match req.params.and_then(|p| p.decode::<ElicitParams<'_>>().ok()) {
                Some(ElicitParams::Form(form)) => fill_form(form.requested_schema),
                _ => None,
            };
            let action = if content.is_some() { ElicitAction::Accept } else { ElicitAction::Decline };
            say(format_args!("elicitation/create: {action:?} {}", content.as_deref().unwrap_or("")));
            let content = content.as_deref().and_then(|c| RawJson::parse(c.as_bytes()).ok());
            let _ = req.respond(&ElicitResult { action, content, result_type: None, meta: None });
        }
        Method::RootsList => {
            let _ = req.respond(&ListRootsResult::new(&[]));
        }
        other => {
            say(format_args!("the server sent {other}, which this client does not serve"));
            let _ = req.respond_error(ErrorCode::METHOD_NOT_FOUND, "Method not found");
        }
    }
}
