//! What the example client does (its command line, read into a [`Plan`]), and the
//! transcript helpers both of its scripts share: `script.rs` (the toolkit's client) and
//! `app.rs` (the bare endpoint, the one `examples/demo` runs).

use std::time::Duration;

use mcp_sansio::mcp::{CallToolResult, ContentBlock, ResourceContents};
use mcp_sansio::session::Era;
use mcp_sansio::wire::{JsonKind, RawJson};

/// `clientInfo.name`.
pub const CLIENT_NAME: &str = "mcp-sansio-example-client";

/// A tool to call: its name and its arguments as JSON text.
#[derive(Clone, Debug)]
pub struct ToolCall {
    /// The tool's name.
    pub name: String,
    /// The arguments object.
    pub args: String,
    /// The call is meant to fail with a JSON-RPC error (an unknown tool, say).
    pub expect_error: bool,
}

impl ToolCall {
    /// `name` or `name=JSON`.
    pub fn parse(spec: &str) -> Result<ToolCall, String> {
        let (name, args) = spec.split_once('=').unwrap_or((spec, "{}"));
        let raw = RawJson::parse(args.as_bytes()).map_err(|e| format!("{name}: arguments are not JSON: {e}"))?;
        if raw.kind() != JsonKind::Object {
            return Err(format!("{name}: arguments must be a JSON object"));
        }
        Ok(ToolCall { name: name.into(), args: args.into(), expect_error: false })
    }
}

/// How the client answers elicitation requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElicitPolicy {
    /// Fill the form: defaults where given, else a plausible value per type.
    Accept,
    /// Say no.
    Decline,
    /// Dismiss it.
    Cancel,
}

/// What the client does, in order.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Offer only this version (default: every handshake version, newest first).
    pub version: Option<mcp_sansio::ProtocolVersion>,
    /// Ping after the handshake.
    pub ping: bool,
    /// Walk tools, resources, templates and prompts through every page.
    pub lists: bool,
    /// Tools to call, in order.
    pub calls: Vec<ToolCall>,
    /// A call made with a progress token.
    pub progress: Option<ToolCall>,
    /// A call cancelled after `cancel_after`.
    pub cancel: Option<ToolCall>,
    /// When to cancel it.
    pub cancel_after: Duration,
    /// A call made with a short timeout, expected to time out.
    pub timeout: Option<(ToolCall, Duration)>,
    /// Write a malformed line and show the server's error.
    pub malformed: bool,
    /// Send a request with this method, which the server should not know, and expect
    /// -32601 (Method not found).
    pub unknown_method: Option<String>,
    /// Roots to offer (declares the `roots` capability when not empty).
    pub roots: Vec<String>,
    /// How elicitation requests are answered.
    pub elicit: ElicitPolicy,
    /// The idle timeout of every request.
    pub request_timeout: Duration,
    /// How long to watch for stray messages after a cancellation or a timeout.
    pub quiet: Duration,
    /// Print an explanation before each step (the demo).
    #[allow(dead_code)] // read by app.rs, the demo's script; examples/client never teaches
    pub teach: bool,
    /// Which eras to speak (default: both, the probe decides).
    pub era: Era,
    /// In the stateless era: open a listen stream and watch a list change on it.
    pub listen: bool,
}

impl Default for Plan {
    /// The defaults match `examples/server`.
    fn default() -> Self {
        Plan {
            version: None,
            ping: true,
            lists: true,
            calls: ["test_simple_text", "test_tool_with_logging"]
                .into_iter()
                .map(|n| ToolCall::parse(n).expect("valid"))
                .chain([
                    ToolCall::parse(r#"test_sampling={"prompt":"Say hello"}"#).expect("valid"),
                    ToolCall::parse(r#"test_elicitation={"message":"Who are you?"}"#).expect("valid"),
                ])
                .collect(),
            progress: Some(ToolCall::parse("test_tool_with_progress").expect("valid")),
            cancel: Some(ToolCall::parse(r#"test_long_running={"steps":100,"stepMs":50}"#).expect("valid")),
            cancel_after: Duration::from_millis(300),
            timeout: None,
            malformed: false,
            unknown_method: None,
            roots: Vec::new(),
            elicit: ElicitPolicy::Accept,
            request_timeout: Duration::from_secs(30),
            quiet: Duration::from_millis(300),
            teach: false,
            era: Era::Auto,
            listen: true,
        }
    }
}

/// Shortens a line for display.
pub fn clip(line: &str, width: usize) -> String {
    match line.char_indices().nth(width) {
        Some((cut, _)) => format!("{}… ({} bytes)", &line[..cut], line.len()),
        None => line.to_string(),
    }
}

/// A one-line description of a tool result's content.
pub fn describe_result(result: RawJson<'_>) -> String {
    let Ok(r) = result.decode::<CallToolResult<'_>>() else { return format!("unreadable result: {result}") };
    let blocks: Vec<String> = r
        .content
        .iter()
        .map(|b| match b {
            Ok(ContentBlock::Text(t)) => format!("{:?}", clip(&t.text.to_string(), 100)),
            Ok(ContentBlock::Image(i)) => format!("[image {}, {} base64 bytes]", i.mime_type, i.data.raw().len()),
            Ok(ContentBlock::Audio(a)) => format!("[audio {}, {} base64 bytes]", a.mime_type, a.data.raw().len()),
            Ok(ContentBlock::Resource(e)) => match e.resource {
                ResourceContents::Text(t) => format!("[resource {}: {:?}]", t.uri, clip(&t.text.to_string(), 60)),
                ResourceContents::Blob(b) => format!("[resource {}: {} base64 bytes]", b.uri, b.blob.raw().len()),
            },
            Ok(ContentBlock::ResourceLink(l)) => format!("[link {}]", l.uri),
            Ok(other) => format!("[{}]", other.kind()),
            Err(e) => format!("[unreadable block: {e}]"),
        })
        .collect();
    let error = if r.is_error == Some(true) { "tool error: " } else { "" };
    format!("{error}{}", blocks.join(", "))
}

/// A form filled from its schema: each property's default, else the first allowed value,
/// else a plausible value of its type. `None` if the schema has no properties object.
pub fn fill_form(schema: RawJson<'_>) -> Option<String> {
    let properties = schema.get("properties").filter(|p| p.kind() == JsonKind::Object)?;
    let mut out = String::from("{");
    for (i, (name, prop)) in properties.members().enumerate() {
        let value = prop
            .get("default")
            .map(|d| d.as_text().to_string())
            .or_else(|| prop.get("enum").and_then(|e| e.elements().next()).map(|v| v.as_text().to_string()))
            .or_else(|| {
                let first = prop.get("oneOf").or_else(|| prop.get("anyOf"))?.elements().next()?;
                first.get("const").map(|c| c.as_text().to_string())
            })
            .unwrap_or_else(|| {
                let kind = prop.get("type").and_then(|t| t.as_str()).map(|t| t.to_string()).unwrap_or_default();
                match kind.as_str() {
                    "integer" => "42".into(),
                    "number" => "4.2".into(),
                    "boolean" => "true".into(),
                    "array" => {
                        let items = prop.get("items");
                        let first = items
                            .and_then(|i| i.get("enum"))
                            .and_then(|e| e.elements().next())
                            .or_else(|| items?.get("anyOf")?.elements().next()?.get("const"));
                        format!("[{}]", first.map(|f| f.as_text()).unwrap_or(""))
                    }
                    _ if prop.get("format").and_then(|f| f.as_str()).is_some_and(|f| f == "email") => {
                        r#""user@example.com""#.into()
                    }
                    _ => serde_json::to_string(&format!("scripted {name}")).unwrap_or_default(),
                }
            });
        if i > 0 {
            out.push(',');
        }
        out.push_str(&serde_json::to_string(&name.to_string()).unwrap_or_default());
        out.push(':');
        out.push_str(&value);
    }
    out.push('}');
    Some(out)
}
