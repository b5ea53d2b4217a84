//! Tools: `tools/list` and `tools/call`.

use serde::{Deserialize, Serialize};

use super::pagination::{ListResult, Listed};
use crate::mcp::basic::ResultType;
use crate::mcp::basic::lifecycle::Icon;
use crate::mcp::basic::meta::Meta;
use crate::mcp::basic::tasks::TaskMetadata;
use crate::mcp::content::{ContentBlock, ContentList};
use crate::mcp::seq::{Items, Map};
use crate::wire::{JsonStr, RawJson};

/// Hints about a tool's behaviour (2025-03-26 on). Hints only: never trust them from an
/// untrusted server.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct ToolAnnotations<'a> {
    /// Display name.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub title: Option<JsonStr<'a>>,
    /// Does not change its environment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only_hint: Option<bool>,
    /// May destroy things (meaningful when not read-only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive_hint: Option<bool>,
    /// Calling it twice with the same arguments does nothing more.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotent_hint: Option<bool>,
    /// Talks to an open world of external entities.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_world_hint: Option<bool>,
}

/// Whether a tool may be called as a task (2025-11-25).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "lowercase")]
pub enum TaskSupport {
    /// Never as a task (the default).
    Forbidden,
    /// Either way.
    Optional,
    /// Only as a task.
    Required,
}

/// `Tool.execution` (2025-11-25).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct ToolExecution {
    /// Task support; absent means forbidden.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_support: Option<TaskSupport>,
}

/// A tool the server offers.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct Tool<'a> {
    /// Programmatic name.
    #[serde(borrow)]
    pub name: JsonStr<'a>,
    /// Display name (2025-06-18 on).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub title: Option<JsonStr<'a>>,
    /// What it does, for the model.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub description: Option<JsonStr<'a>>,
    /// JSON Schema of the arguments (an object schema), kept raw.
    #[serde(borrow, deserialize_with = "crate::mcp::seq::object")]
    pub input_schema: RawJson<'a>,
    /// JSON Schema of `structuredContent` (2025-06-18 on), kept raw.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<RawJson<'a>>,
    /// Behaviour hints (2025-03-26 on).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<ToolAnnotations<'a>>,
    /// Task support (2025-11-25).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub execution: Option<ToolExecution>,
    /// Icons (2025-11-25 on).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Items<'a, Icon<'a>>>,
    /// `_meta` (2025-06-18 on).
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

/// `{"type":"object"}`: the input schema of a tool without arguments.
pub const NO_ARGUMENTS: RawJson<'static> = crate::mcp::EMPTY_OBJECT_SCHEMA;

impl<'a> Tool<'a> {
    /// A tool called `name` taking arguments described by `input_schema` (a JSON Schema
    /// object; [`NO_ARGUMENTS`] for none).
    pub const fn new(name: &'a str, input_schema: RawJson<'a>) -> Self {
        Self {
            name: JsonStr::from_text(name),
            title: None,
            description: None,
            input_schema,
            output_schema: None,
            annotations: None,
            execution: None,
            icons: None,
            meta: None,
        }
    }

    /// With a description.
    pub const fn with_description(mut self, description: &'a str) -> Self {
        self.description = Some(JsonStr::from_text(description));
        self
    }

    /// With a display title.
    pub const fn with_title(mut self, title: &'a str) -> Self {
        self.title = Some(JsonStr::from_text(title));
        self
    }

    /// With an output schema for structured results.
    pub const fn with_output_schema(mut self, schema: RawJson<'a>) -> Self {
        self.output_schema = Some(schema);
        self
    }

    /// With behaviour hints.
    pub const fn with_annotations(mut self, annotations: ToolAnnotations<'a>) -> Self {
        self.annotations = Some(annotations);
        self
    }
}

/// `tools/list` result.
pub type ListToolsResult<'a> = ListResult<'a, Tool<'a>>;

impl Listed for Tool<'_> {
    const FIELD: &'static str = "tools";
}

/// `tools/call` params.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct CallToolParams<'a> {
    /// The tool's name.
    #[serde(borrow)]
    pub name: JsonStr<'a>,
    /// Arguments (an object), kept raw: decode them into the tool's own type with
    /// [`RawJson::decode`].
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<RawJson<'a>>,
    /// Run as a task (2025-11-25); the result is then a
    /// [`CreateTaskResult`](crate::mcp::CreateTaskResult).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<TaskMetadata>,
    /// Answers to the server's input requests, by key (2026-07-28 retry); each value is
    /// decoded by the method of the input request it answers.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub input_responses: Option<Map<'a, RawJson<'a>>>,
    /// The server's `requestState`, echoed (2026-07-28 retry).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub request_state: Option<JsonStr<'a>>,
    /// `_meta`
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

impl<'a> CallToolParams<'a> {
    /// Calls `name` with `arguments`.
    pub const fn new(name: &'a str, arguments: Option<RawJson<'a>>) -> Self {
        Self {
            name: JsonStr::from_text(name),
            arguments,
            task: None,
            input_responses: None,
            request_state: None,
            meta: None,
        }
    }
}

/// `tools/call` result.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct CallToolResult<'a> {
    /// Unstructured result.
    #[serde(borrow)]
    pub content: ContentList<'a>,
    /// Structured result (2025-06-18 on; an object until 2025-11-25, any value in
    /// 2026-07-28), kept raw.
    #[serde(borrow, default, deserialize_with = "crate::mcp::seq::some_raw", skip_serializing_if = "Option::is_none")]
    pub structured_content: Option<RawJson<'a>>,
    /// Whether the call failed (a tool error the model should see, not a protocol error).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_error: Option<bool>,
    /// `resultType` (2026-07-28, required there).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType<'a>>,
    /// `_meta`
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

impl<'a> CallToolResult<'a> {
    /// A result made of `content`.
    pub const fn new(content: &'a [ContentBlock<'a>]) -> Self {
        Self {
            content: ContentList::from_slice(content),
            structured_content: None,
            is_error: None,
            result_type: None,
            meta: None,
        }
    }

    /// A result with one content block.
    pub const fn one(block: ContentBlock<'a>) -> Self {
        Self {
            content: ContentList::one(block),
            structured_content: None,
            is_error: None,
            result_type: None,
            meta: None,
        }
    }

    /// A result with one text block.
    ///
    /// ```
    /// use mcp_sansio::mcp::CallToolResult;
    /// let r = CallToolResult::text("5");
    /// assert_eq!(serde_json::to_string(&r).unwrap(), r#"{"content":[{"type":"text","text":"5"}]}"#);
    /// ```
    pub const fn text(text: &'a str) -> Self {
        Self::one(ContentBlock::text(text))
    }

    /// A failed call with one text block explaining why (`isError: true`).
    pub const fn error(text: &'a str) -> Self {
        let mut r = Self::text(text);
        r.is_error = Some(true);
        r
    }

    /// With structured content.
    pub const fn with_structured(mut self, value: RawJson<'a>) -> Self {
        self.structured_content = Some(value);
        self
    }

    /// With `resultType: complete` (2026-07-28).
    pub const fn complete(mut self) -> Self {
        self.result_type = Some(ResultType::Complete);
        self
    }
}

/// A `tools/call` result of one text block: what most tools answer, written exactly as
/// [`CallToolResult::text`] and [`CallToolResult::error`] write it.
///
/// [`CallToolResult`] holds any content block, so writing one links the encoder of every
/// kind of block (images, audio, embedded resources, sampling's tool use…): about 2 KB
/// on a microcontroller. This holds text only, and is for encoding only (decode results
/// as `CallToolResult`).
///
/// ```
/// use mcp_sansio::mcp::{CallToolResult, TextToolResult};
/// let small = serde_json::to_string(&TextToolResult::error("no such sensor")).unwrap();
/// assert_eq!(small, serde_json::to_string(&CallToolResult::error("no such sensor")).unwrap());
/// assert_eq!(small, r#"{"content":[{"type":"text","text":"no such sensor"}],"isError":true}"#);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct TextToolResult<'a> {
    /// The one text block.
    content: [TextBlock<'a>; 1],
    /// Structured result (2025-06-18 on), kept raw.
    #[serde(skip_serializing_if = "Option::is_none")]
    structured_content: Option<RawJson<'a>>,
    /// `Some(true)` for a failed call.
    #[serde(skip_serializing_if = "Option::is_none")]
    is_error: Option<bool>,
    /// `resultType` (2026-07-28, required there).
    #[serde(skip_serializing_if = "Option::is_none")]
    result_type: Option<ResultType<'a>>,
}

/// `{"type":"text","text":…}`: [`TextContent`] without annotations or `_meta`, whose
/// encoders (and `_meta`'s, which can hold implementation info and capabilities) a text
/// answer does not need.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(tag = "type", rename = "text")]
struct TextBlock<'a> {
    text: JsonStr<'a>,
}

impl<'a> TextToolResult<'a> {
    /// A result with the text `text`.
    pub const fn text(text: &'a str) -> Self {
        Self {
            content: [TextBlock { text: JsonStr::from_text(text) }],
            structured_content: None,
            is_error: None,
            result_type: None,
        }
    }

    /// A failed call with the text `text` explaining why (`isError: true`).
    pub const fn error(text: &'a str) -> Self {
        let mut r = Self::text(text);
        r.is_error = Some(true);
        r
    }

    /// With structured content.
    pub const fn with_structured(mut self, value: RawJson<'a>) -> Self {
        self.structured_content = Some(value);
        self
    }

    /// With `resultType: complete` (2026-07-28).
    pub const fn complete(mut self) -> Self {
        self.result_type = Some(ResultType::Complete);
        self
    }

    /// The text.
    pub const fn as_text(&self) -> JsonStr<'a> {
        self.content[0].text
    }

    /// Whether this reports a failed call.
    pub const fn is_error(&self) -> bool {
        matches!(self.is_error, Some(true))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tools_from_the_schema_examples() {
        // schema/2026-07-28/examples/Tool/with-output-schema-for-structured-content.json (+ 2025-11-25 fields)
        let t: Tool<'_> = RawJson::parse(
            br#"{"name":"get_weather_data","title":"Weather Data Retriever","description":"Get current weather data for a location",
                "inputSchema":{"type":"object","properties":{"location":{"type":"string","description":"City name or zip code"}},"required":["location"]},
                "outputSchema":{"type":"object","properties":{"temperature":{"type":"number"}},"required":["temperature"]},
                "annotations":{"readOnlyHint":true,"openWorldHint":true},"execution":{"taskSupport":"optional"},
                "icons":[{"src":"data:image/png;base64,AAAA","theme":"dark"}],"_meta":{"com.example/x":1}}"#,
        )
        .unwrap()
        .decode()
        .unwrap();
        assert_eq!(t.input_schema.get("required").unwrap().as_bytes(), br#"["location"]"#);
        assert!(t.output_schema.is_some());
        assert_eq!(t.annotations.unwrap().read_only_hint, Some(true));
        assert_eq!(t.execution.unwrap().task_support, Some(TaskSupport::Optional));
        assert_eq!(t.meta.unwrap().get("com.example/x").unwrap().as_i64(), Some(1));
        assert!(RawJson::parse(br#"{"name":"x","inputSchema":true}"#).unwrap().decode::<Tool<'_>>().is_err());
    }

    /// Every form writes exactly what the general result writes.
    #[test]
    fn text_results_write_what_call_tool_result_writes() {
        let structured = RawJson::parse(br#"{"t":21.5}"#).unwrap();
        let text = "caf\u{e9} \"21.5\"\n";
        let pairs = [
            (TextToolResult::text(text), CallToolResult::text(text)),
            (TextToolResult::error(text), CallToolResult::error(text)),
            (
                TextToolResult::text(text).with_structured(structured).complete(),
                CallToolResult::text(text).with_structured(structured).complete(),
            ),
        ];
        for (small, general) in pairs {
            let mut a = [0u8; 256];
            let mut b = [0u8; 256];
            let id = crate::wire::RequestId::from_u64(1);
            let small_at = crate::wire::FrameWriter::new(&mut a).result(id.as_ref(), &small).unwrap();
            let general_at = crate::wire::FrameWriter::new(&mut b).result(id.as_ref(), &general).unwrap();
            assert_eq!(a[small_at], b[general_at]);
            assert_eq!(serde_json::to_string(&small).unwrap(), serde_json::to_string(&general).unwrap());
            assert_eq!(small.is_error(), general.is_error == Some(true));
            assert!(small.as_text().eq_str(text));
        }
    }

    #[test]
    fn call_results() {
        // schema/2026-07-28/examples/CallToolResult/result-with-structured-content.json
        let r: CallToolResult<'_> = RawJson::parse(
            br#"{"resultType":"complete","content":[{"type":"text","text":"{\"temperature\": 22.5, \"conditions\": \"Partly cloudy\", \"humidity\": 65}"}],
                "structuredContent":{"temperature":22.5,"conditions":"Partly cloudy","humidity":65}}"#,
        )
        .unwrap()
        .decode()
        .unwrap();
        assert_eq!(r.content.len(), 1);
        assert!(
            r.content
                .get(0)
                .unwrap()
                .unwrap()
                .as_text()
                .unwrap()
                .eq_str("{\"temperature\": 22.5, \"conditions\": \"Partly cloudy\", \"humidity\": 65}")
        );
        assert_eq!(r.structured_content.unwrap().get("humidity").unwrap().as_i64(), Some(65));
        let e = CallToolResult::error("Invalid departure date: must be in the future.");
        assert_eq!(
            serde_json::to_string(&e).unwrap(),
            r#"{"content":[{"type":"text","text":"Invalid departure date: must be in the future."}],"isError":true}"#
        );
        let text = serde_json::to_string(&e).unwrap();
        let back: CallToolResult<'_> = RawJson::parse(text.as_bytes()).unwrap().decode().unwrap();
        assert_eq!(back.content, e.content);
    }
}
