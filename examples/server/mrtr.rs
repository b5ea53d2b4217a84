//! The 2026-07-28 fixtures of the conformance suite (0.2.0): tools and a prompt that
//! need input from the client, asked for with `input_required` results (multi
//! round-trip requests) instead of requests of the server's own, plus the diagnostic
//! tools of its `server-stateless` scenario.
//!
//! Nothing is kept between rounds: what a later round needs travels in `requestState`,
//! sealed with [`StateSealer`] (bound to the method, the tool or prompt, the keys asked
//! and an expiry), so a tampered or replayed state is refused with -32602. A retry
//! whose `inputResponses` do not answer what was asked (a missing key, a value of the
//! wrong shape) is asked again rather than failed, as the specification recommends.
//!
//! These are listed to 2026-07-28 requests only: a handshake session asks the client
//! with requests of its own (`test_sampling`, `test_elicitation`).

use std::time::Duration;

#[cfg(feature = "http")]
use mcp_sansio::http::server::ParamHeader;
use mcp_sansio::mcp::{Capability, CapabilitySet, Method};
use mcp_sansio::session::{StateBinding, StateSealer};
use mcp_sansio::time::Instant;
use mcp_sansio::wire::{ErrorCode, JsonStr, RawJson};

/// How long a sealed state stays good.
const STATE_TTL: Duration = Duration::from_secs(600);

/// The tools, as `(name, description, input schema)`.
pub const TOOLS: [(&str, &str, &str); 14] = [
    ("test_input_required_result_elicitation", "Asks the user's name (input_required, elicitation)", NO_ARGS),
    ("test_input_required_result_sampling", "Asks the client's model a question (input_required, sampling)", NO_ARGS),
    ("test_input_required_result_list_roots", "Asks the client's roots (input_required, roots/list)", NO_ARGS),
    ("test_input_required_result_request_state", "Asks for a confirmation with a sealed requestState", NO_ARGS),
    ("test_input_required_result_multiple_inputs", "Asks three things at once, with a sealed requestState", NO_ARGS),
    ("test_input_required_result_multi_round", "Asks twice, the second round depending on the first", NO_ARGS),
    ("test_input_required_result_tampered_state", "Refuses a requestState that was changed", NO_ARGS),
    ("test_input_required_result_capabilities", "Asks only what the client's capabilities allow", NO_ARGS),
    ("test_missing_capability", "Needs the client's sampling capability (-32021 without it)", NO_ARGS),
    ("test_streaming_elicitation", "Asks the user's name (input_required on the response stream)", NO_ARGS),
    ("test_logging_tool", "Logs three lines, only at the level the request asked for", NO_ARGS),
    ("test_trigger_tool_change", "Changes the tool list (notifications/tools/list_changed)", NO_ARGS),
    ("test_trigger_prompt_change", "Changes the prompt list (notifications/prompts/list_changed)", NO_ARGS),
    (
        "test_header_param",
        "Echoes its region argument, which travels in the Mcp-Param-Region header too",
        r#"{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region","description":"Where to run"}},"required":["region"]}"#,
    ),
];

/// The arguments of [`TOOLS`] that travel in headers (`x-mcp-header`), for the HTTP
/// server to check.
#[cfg(feature = "http")]
pub const PARAM_HEADERS: [ParamHeader<'static>; 1] =
    [ParamHeader { tool: "test_header_param", property: "region", header: "Region" }];

/// The prompt that asks for input.
pub const PROMPT: &str = "test_input_required_result_prompt";

const NO_ARGS: &str = r#"{"type":"object","properties":{}}"#;

/// What a fixture answers.
pub enum Answer {
    /// A result (complete or `input_required`), as JSON text.
    Result(String),
    /// An error, with its `data` as JSON text.
    Error { code: ErrorCode, message: String, data: Option<&'static str> },
}

/// `s` as a JSON string, quotes included. The fixtures write their JSON as text (no
/// JSON value library in this binary: it would double the code that builds a result).
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn elicit(message: &str, field: &str, kind: &str) -> String {
    format!(
        r#"{{"method":"elicitation/create","params":{{"message":{},"requestedSchema":{{"type":"object","properties":{{{}:{{"type":{}}}}},"required":[{1}]}}}}}}"#,
        quote(message),
        quote(field),
        quote(kind),
    )
}

fn sample(text: &str, max_tokens: u32) -> String {
    format!(
        r#"{{"method":"sampling/createMessage","params":{{"messages":[{{"role":"user","content":{{"type":"text","text":{}}}}}],"maxTokens":{max_tokens}}}}}"#,
        quote(text)
    )
}

const ROOTS: &str = r#"{"method":"roots/list","params":{}}"#;

fn text(s: &str) -> Answer {
    Answer::Result(format!(r#"{{"content":[{{"type":"text","text":{}}}]}}"#, quote(s)))
}

/// A string's text, escapes resolved.
fn unescaped(s: JsonStr<'_>) -> String {
    s.to_string()
}

/// An accepted elicitation's `content[field]` as text.
fn accepted(answer: Option<RawJson<'_>>, field: &str) -> Option<String> {
    let a = answer.filter(RawJson::is_object)?;
    if a.get("action")?.as_str()? != "accept" {
        return None;
    }
    let value = a.get("content")?.get(field)?;
    // Another value as compact JSON text: the client's spaces and line breaks between
    // tokens are not part of the answer.
    Some(value.as_str().map_or_else(|| super::fixtures::compact(value.as_bytes()), unescaped))
}

/// A sampling result's text.
fn sampled(answer: Option<RawJson<'_>>) -> Option<String> {
    answer?.get("content")?.get("text")?.as_str().map(unescaped)
}

/// A roots/list result's URIs.
fn root_uris(answer: Option<RawJson<'_>>) -> Option<Vec<String>> {
    let roots = answer?.get("roots")?;
    if roots.kind() != mcp_sansio::wire::JsonKind::Array {
        return None;
    }
    roots.elements().map(|r| r.get("uri").and_then(|u| u.as_str()).map(unescaped)).collect()
}

/// The retry's parts: `inputResponses` (an object, if any) and `requestState`.
struct Retry<'a> {
    responses: Option<RawJson<'a>>,
    state: Option<JsonStr<'a>>,
}

impl<'a> Retry<'a> {
    fn of(params: Option<RawJson<'a>>) -> Retry<'a> {
        let params = params.filter(RawJson::is_object);
        Retry {
            responses: params.and_then(|p| p.get("inputResponses")).filter(RawJson::is_object),
            state: params.and_then(|p| p.get("requestState")).and_then(|s| s.as_str()),
        }
    }

    fn get(&self, key: &str) -> Option<RawJson<'a>> {
        self.responses?.get(key)
    }
}

/// The fixtures, with the key their states are sealed with.
pub struct Fixtures {
    sealer: StateSealer,
}

impl Fixtures {
    pub fn new(key: [u8; 16]) -> Self {
        Fixtures { sealer: StateSealer::new(key) }
    }

    fn seal(&self, now: Instant, method: Method<'_>, target: &str, keys: &[&str], payload: &str) -> String {
        let binding = StateBinding::new(method, target, keys);
        let mut out = vec![0u8; StateSealer::sealed_len(payload.len())];
        self.sealer
            .seal(&binding, payload.as_bytes(), now + STATE_TTL, &mut out)
            .map(str::to_string)
            .unwrap_or_default()
    }

    /// Opens `state` for the request it must have been issued for: its payload, or the
    /// -32602 that refuses it.
    fn open(&self, now: Instant, target: &str, keys: &[&str], state: Option<JsonStr<'_>>) -> Result<String, Answer> {
        let refuse = |why: &str| Answer::Error {
            code: ErrorCode::INVALID_PARAMS,
            message: format!("Invalid requestState: {why}"),
            data: None,
        };
        let state = state.ok_or_else(|| refuse("missing"))?;
        // The sealer takes its states as it writes them, plain; an escaped string is
        // the same state to a client (a JSON library may escape any character), so its
        // escapes are resolved first.
        let text = state.is_escaped().then(|| state.to_string());
        let state = text.as_deref().map_or(state, JsonStr::from_text);
        let binding = StateBinding::new(Method::ToolsCall, target, keys);
        let mut out = vec![0u8; state.raw().len()];
        match self.sealer.open(&binding, state, now, &mut out) {
            Ok(payload) => Ok(String::from_utf8_lossy(payload).into_owned()),
            Err(e) => Err(refuse(e.message())),
        }
    }

    /// `tools/call` of the tool `name` (one of [`TOOLS`]) with `params`, for a client
    /// that declared `caps`.
    pub fn call(&self, now: Instant, name: &str, params: Option<RawJson<'_>>, caps: CapabilitySet) -> Answer {
        let retry = Retry::of(params);
        let ask = |requests: String, state: Option<String>| {
            let state = state.map(|s| format!(r#","requestState":{}"#, quote(&s))).unwrap_or_default();
            Answer::Result(format!(r#"{{"resultType":"input_required","inputRequests":{requests}{state}}}"#))
        };
        let one = |key: &str, request: String| format!("{{{}:{request}}}", quote(key));
        let tool = Method::ToolsCall;
        match name {
            "test_input_required_result_elicitation" | "test_streaming_elicitation" => {
                match accepted(retry.get("user_name"), "name") {
                    Some(n) => text(&format!("Hello, {n}!")),
                    None => ask(one("user_name", elicit("What is your name?", "name", "string")), None),
                }
            }
            "test_input_required_result_sampling" => match sampled(retry.get("capital_question")) {
                Some(t) => text(&format!("LLM response: {t}")),
                None => ask(one("capital_question", sample("What is the capital of France?", 100)), None),
            },
            "test_input_required_result_list_roots" => match root_uris(retry.get("client_roots")) {
                Some(uris) => text(&format!("Roots: {}", uris.join(", "))),
                None => ask(one("client_roots", ROOTS.into()), None),
            },
            "test_input_required_result_request_state" | "test_input_required_result_tampered_state" => {
                let keys = ["confirm"];
                if retry.get("confirm").is_none() {
                    let state = self.seal(now, tool, name, &keys, "confirm");
                    return ask(one("confirm", elicit("Please confirm", "ok", "boolean")), Some(state));
                }
                match self.open(now, name, &keys, retry.state) {
                    Ok(_) => text("state-ok: the requestState was verified"),
                    Err(refusal) => refusal,
                }
            }
            "test_input_required_result_multiple_inputs" => {
                let keys = ["user_name", "greeting", "client_roots"];
                let answers = (
                    accepted(retry.get("user_name"), "name"),
                    sampled(retry.get("greeting")),
                    root_uris(retry.get("client_roots")),
                );
                if let (Some(n), Some(g), Some(r)) = answers {
                    return match self.open(now, name, &keys, retry.state) {
                        Ok(_) => text(&format!("{g} {n} (roots: {})", r.join(", "))),
                        Err(refusal) => refusal,
                    };
                }
                let requests = format!(
                    r#"{{"client_roots":{ROOTS},"greeting":{},"user_name":{}}}"#,
                    sample("Generate a greeting", 50),
                    elicit("What is your name?", "name", "string"),
                );
                ask(requests, Some(self.seal(now, tool, name, &keys, "all")))
            }
            "test_input_required_result_multi_round" => {
                if let Some(color) = accepted(retry.get("step2"), "color") {
                    return match self.open(now, name, &["step2"], retry.state) {
                        Ok(who) => text(&format!("{who} likes {color}")),
                        Err(refusal) => refusal,
                    };
                }
                if let Some(who) = accepted(retry.get("step1"), "name") {
                    return match self.open(now, name, &["step1"], retry.state) {
                        Ok(_) => ask(
                            one("step2", elicit("Step 2: What is your favorite color?", "color", "string")),
                            Some(self.seal(now, tool, name, &["step2"], &who)),
                        ),
                        Err(refusal) => refusal,
                    };
                }
                let state = self.seal(now, tool, name, &["step1"], "round 1");
                ask(one("step1", elicit("Step 1: What is your name?", "name", "string")), Some(state))
            }
            "test_input_required_result_capabilities" => {
                if retry.responses.is_some_and(|r| r.members().next().is_some()) {
                    return text("Answered what the client could answer");
                }
                let mut requests = Vec::new();
                if caps.contains(Capability::Sampling) {
                    requests.push(format!(r#""capital_question":{}"#, sample("What is the capital of France?", 100)));
                }
                if caps.contains(Capability::Elicitation) {
                    requests.push(format!(r#""user_name":{}"#, elicit("What is your name?", "name", "string")));
                }
                if caps.contains(Capability::Roots) {
                    requests.push(format!(r#""client_roots":{ROOTS}"#));
                }
                if requests.is_empty() {
                    return text("The client declared nothing this tool could ask for");
                }
                ask(format!("{{{}}}", requests.join(",")), None)
            }
            "test_missing_capability" if !caps.contains(Capability::Sampling) => Answer::Error {
                code: ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY,
                message: "Missing required client capability: sampling".into(),
                data: Some(r#"{"requiredCapabilities":{"sampling":{}}}"#),
            },
            "test_missing_capability" => text("The client declared sampling"),
            "test_header_param" => match params.and_then(|p| p.get("arguments")?.get("region")?.as_str()) {
                Some(r) => text(&format!("Region: {r}")),
                None => Answer::Error {
                    code: ErrorCode::INVALID_PARAMS,
                    message: "Invalid arguments: region (a string) is required".into(),
                    data: None,
                },
            },
            _ => {
                Answer::Error { code: ErrorCode::INVALID_PARAMS, message: format!("Unknown tool: {name}"), data: None }
            }
        }
    }

    /// `prompts/get` of [`PROMPT`].
    pub fn prompt(&self, params: Option<RawJson<'_>>) -> Answer {
        let retry = Retry::of(params);
        match accepted(retry.get("user_context"), "context") {
            Some(context) => Answer::Result(format!(
                r#"{{"description":"A prompt built from the context the user gave","messages":[{{"role":"user","content":{{"type":"text","text":{}}}}}]}}"#,
                quote(&format!("Use this context: {context}"))
            )),
            None => Answer::Result(format!(
                r#"{{"resultType":"input_required","inputRequests":{{"user_context":{}}}}}"#,
                elicit("What context should the prompt use?", "context", "string")
            )),
        }
    }
}
