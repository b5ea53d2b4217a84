//! The fixed data the example server offers: the official conformance suite's fixtures
//! (tools, resources, prompts, with their exact texts) plus a few tools of its own that
//! exercise the rest of the protocol (a long-running tool, list changes, resource updates).

use mcp_sansio::mcp::{Resource, ResourceTemplate, Tool};
use mcp_sansio::wire::{JsonStr, RawJson};

/// A 1x1 red PNG pixel.
pub const TEST_IMAGE_BASE64: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/// A minimal WAV file.
pub const TEST_AUDIO_BASE64: &str = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

pub const SIMPLE_TEXT: &str = "This is a simple text response for testing.";
pub const EMBEDDED_TEXT: &str = "This is an embedded resource content.";
pub const ERROR_TEXT: &str = "This tool intentionally returns an error for testing";
pub const LOGGING_DONE: &str = "Tool with logging executed successfully";
pub const LOG_LINES: [&str; 3] = ["Tool execution started", "Tool processing data", "Tool execution completed"];
pub const STATIC_TEXT: &str = "This is the content of the static text resource.";
pub const WATCHED_TEXT: &str = "Watched resource content";

/// The URI of the resource that changes.
pub const WATCHED_URI: &str = "test://watched-resource";

const fn text(s: &'static str) -> Option<JsonStr<'static>> {
    Some(JsonStr::from_text(s))
}

/// `{"type":"object","properties":{}}`: what the TypeScript SDK lists for a tool without arguments.
const NO_ARGS: &str = r#"{"type":"object","properties":{}}"#;

/// SEP-1613 / SEP-2106: a raw JSON Schema 2020-12 input schema that must reach the client
/// untouched (`$schema`, `$defs` with an `$anchor`, composition, conditionals,
/// `additionalProperties`).
pub const JSON_SCHEMA_2020_12: &str = concat!(
    r#"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","#,
    r#""$defs":{"address":{"$anchor":"addressDef","type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},"#,
    r##""properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"},"contactMethod":{"type":"string","enum":["phone","email"]},"phone":{"type":"string"},"email":{"type":"string"}},"##,
    r#""allOf":[{"anyOf":[{"required":["phone"]},{"required":["email"]}]}],"#,
    r#""if":{"properties":{"contactMethod":{"const":"phone"}},"required":["contactMethod"]},"then":{"required":["phone"]},"else":{"required":["email"]},"#,
    r#""additionalProperties":false}"#
);

/// Every tool that is always listed: name, description, input schema.
pub const TOOLS: [(&str, &str, &str); 18] = [
    ("test_simple_text", "Tests simple text content response", NO_ARGS),
    ("test_image_content", "Tests image content response", NO_ARGS),
    ("test_audio_content", "Tests audio content response", NO_ARGS),
    ("test_embedded_resource", "Tests embedded resource content response", NO_ARGS),
    ("test_multiple_content_types", "Tests response with multiple content types (text, image, resource)", NO_ARGS),
    ("test_tool_with_logging", "Tests tool that emits log messages during execution", NO_ARGS),
    ("test_tool_with_progress", "Tests tool that reports progress notifications", NO_ARGS),
    ("test_error_handling", "Tests error response handling", NO_ARGS),
    (
        "test_sampling",
        "Tests server-initiated sampling (LLM completion request)",
        r#"{"type":"object","properties":{"prompt":{"type":"string","description":"The prompt to send to the LLM"}},"required":["prompt"]}"#,
    ),
    (
        "test_elicitation",
        "Tests server-initiated elicitation (user input request)",
        r#"{"type":"object","properties":{"message":{"type":"string","description":"The message to show the user"}},"required":["message"]}"#,
    ),
    ("test_elicitation_sep1034_defaults", "Tests elicitation with default values per SEP-1034", NO_ARGS),
    ("test_elicitation_sep1330_enums", "Tests elicitation with enum schema improvements per SEP-1330", NO_ARGS),
    (
        "json_schema_2020_12_tool",
        "Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)",
        JSON_SCHEMA_2020_12,
    ),
    (
        "echo",
        "Echoes the message back",
        r#"{"type":"object","properties":{"message":{"type":"string","description":"What to echo"}},"required":["message"]}"#,
    ),
    (
        "test_long_running",
        "Works for steps x stepMs milliseconds on a worker thread, reporting progress after each step; honours cancellation",
        r#"{"type":"object","properties":{"steps":{"type":"integer","minimum":1,"maximum":1000,"default":10},"stepMs":{"type":"integer","minimum":0,"maximum":10000,"default":100}}}"#,
    ),
    (
        "test_reconnection",
        "Over HTTP, closes the SSE stream of this call after its priming event; the answer comes on the stream the client resumes",
        NO_ARGS,
    ),
    ("toggle_extra_tool", "Adds or removes the tool extra_tool, then sends notifications/tools/list_changed", NO_ARGS),
    (
        "update_watched_resource",
        "Changes test://watched-resource and sends notifications/resources/updated to its subscribers",
        r#"{"type":"object","properties":{"text":{"type":"string","description":"The new content (default: a revision counter)"}}}"#,
    ),
];

/// The tool that `toggle_extra_tool` adds and removes.
pub const EXTRA_TOOL: (&str, &str, &str) = ("extra_tool", "Exists only while toggled on", NO_ARGS);

/// The tools as vocabulary values (schemas are validated once, at startup).
pub fn tool(entry: &(&'static str, &'static str, &'static str)) -> Tool<'static> {
    let (name, description, schema) = *entry;
    let schema = RawJson::parse(schema.as_bytes()).expect("fixture schemas are valid JSON");
    Tool::new(name, schema).with_description(description)
}

pub const RESOURCES: [Resource<'static>; 3] = [
    Resource {
        title: text("Static Text Resource"),
        description: text("A static text resource for testing"),
        mime_type: text("text/plain"),
        ..Resource::new("test://static-text", "static-text")
    },
    Resource {
        title: text("Static Binary Resource"),
        description: text("A static binary resource (image) for testing"),
        mime_type: text("image/png"),
        ..Resource::new("test://static-binary", "static-binary")
    },
    Resource {
        title: text("Watched Resource"),
        description: text("A resource that changes when update_watched_resource is called"),
        mime_type: text("text/plain"),
        ..Resource::new(WATCHED_URI, "watched-resource")
    },
];

/// The resource template's URI template.
pub const TEMPLATE_URI: &str = "test://template/{id}/data";

pub const TEMPLATES: [ResourceTemplate<'static>; 1] = [ResourceTemplate {
    title: text("Resource Template"),
    description: text("A resource template with parameter substitution"),
    mime_type: text("application/json"),
    ..ResourceTemplate::new("test://template/{id}/data", "template")
}];

mcp_sansio::schema! {
    /// The arguments of `test_prompt_with_arguments`.
    #[derive(serde::Deserialize)]
    pub struct TwoArgs {
        /// First test argument
        pub arg1: String,
        /// Second test argument
        pub arg2: String,
    }

    /// The argument of `test_prompt_with_embedded_resource`.
    #[derive(serde::Deserialize)]
    pub struct EmbedArgs {
        /// URI of the resource to embed
        #[serde(rename = "resourceUri")]
        pub resource_uri: String,
    }
}

/// Completion candidates for the arguments of `test_prompt_with_arguments`.
pub const ARGUMENT_WORDS: [&str; 6] = ["hello", "help", "paris", "park", "party", "world"];
/// Completion candidates for `{id}` of the resource template.
pub const TEMPLATE_IDS: [&str; 4] = ["1", "2", "3", "123"];

/// `test_elicitation`'s form, as the conformance scenario documents it.
pub const ELICITATION_SCHEMA: &str = r#"{"type":"object","properties":{"username":{"type":"string","description":"User's response"},"email":{"type":"string","description":"User's email address"}},"required":["username","email"]}"#;

/// SEP-1034: a default for every primitive type.
pub const DEFAULTS_SCHEMA: &str = concat!(
    r#"{"type":"object","properties":{"#,
    r#""name":{"type":"string","description":"User name","default":"John Doe"},"#,
    r#""age":{"type":"integer","description":"User age","default":30},"#,
    r#""score":{"type":"number","description":"User score","default":95.5},"#,
    r#""status":{"type":"string","description":"User status","enum":["active","inactive","pending"],"default":"active"},"#,
    r#""verified":{"type":"boolean","description":"Verification status","default":true}"#,
    r#"},"required":[]}"#
);

/// SEP-1330: the five enum shapes.
pub const ENUMS_SCHEMA: &str = concat!(
    r#"{"type":"object","properties":{"#,
    r#""untitledSingle":{"type":"string","description":"Select one option","enum":["option1","option2","option3"]},"#,
    r#""titledSingle":{"type":"string","description":"Select one option with titles","oneOf":[{"const":"value1","title":"First Option"},{"const":"value2","title":"Second Option"},{"const":"value3","title":"Third Option"}]},"#,
    r#""legacyEnum":{"type":"string","description":"Select one option (legacy)","enum":["opt1","opt2","opt3"],"enumNames":["Option One","Option Two","Option Three"]},"#,
    r#""untitledMulti":{"type":"array","description":"Select multiple options","minItems":1,"maxItems":3,"items":{"type":"string","enum":["option1","option2","option3"]}},"#,
    r#""titledMulti":{"type":"array","description":"Select multiple options with titles","minItems":1,"maxItems":3,"items":{"anyOf":[{"const":"value1","title":"First Choice"},{"const":"value2","title":"Second Choice"},{"const":"value3","title":"Third Choice"}]}}"#,
    r#"},"required":[]}"#
);

/// JSON text without the whitespace between tokens, as JavaScript's `JSON.stringify`
/// writes it (member order kept).
pub fn compact(json: &[u8]) -> String {
    let mut out = Vec::with_capacity(json.len());
    let (mut in_string, mut escaped) = (false, false);
    for &b in json {
        if in_string {
            out.push(b);
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
        } else if !matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
            in_string = b == b'"';
            out.push(b);
        }
    }
    String::from_utf8(out).unwrap_or_default()
}
