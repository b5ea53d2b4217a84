//! Tools: `add`, `read_sensor`, `blink`, `stats`.
//!
//! Each handler is `#[inline(never)]`: inlined into the dispatch, their locals would share
//! one stack frame (LTO merges them), and the stack would need their sum, not their
//! maximum.
//!
//! Three features swap a vocabulary type for a hand-written shape, to measure what the
//! general types cost on a part that needs only a sliver of them (README.md, "Size"):
//! `lean-params` reads `tools/call` params by navigating the raw JSON instead of decoding
//! `CallToolParams`; `lean-tools` sends the tool list as one JSON literal instead of
//! serializing `Tool`s; `lean-results` answers with a text-only result instead of
//! `CallToolResult`, whose content list can hold any content block.

use mcp_sansio::Instant;
#[cfg(not(feature = "lean-params"))]
use mcp_sansio::mcp::CallToolParams;
#[cfg(feature = "lean-results")]
use mcp_sansio::mcp::TextContent;
#[cfg(not(feature = "lean-tools"))]
use mcp_sansio::mcp::{ListToolsResult, Tool};
use mcp_sansio::session::IncomingRequest;
use mcp_sansio::wire::{JsonStr, RawJson};
use serde::Deserialize;
#[cfg(feature = "lean-results")]
use serde::Serialize;

use crate::device::Sensor;
use crate::endpoint::answer;
use crate::text::Text;

macro_rules! add_schema {
    () => {
        r#"{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"required":["a","b"]}"#
    };
}
macro_rules! sensor_schema {
    () => {
        r#"{"type":"object","properties":{"sensor":{"type":"string","enum":["temperature","humidity"]}},"required":["sensor"]}"#
    };
}
#[cfg(feature = "blink")]
macro_rules! blink_schema {
    () => {
        r#"{"type":"object","properties":{"times":{"type":"integer","minimum":1,"maximum":50},"interval_ms":{"type":"integer","minimum":10,"maximum":2000}}}"#
    };
}
macro_rules! add_description {
    () => {
        "Adds two integers."
    };
}
macro_rules! sensor_description {
    () => {
        "Reads the temperature or humidity sensor."
    };
}
#[cfg(feature = "blink")]
macro_rules! blink_description {
    () => {
        "Blinks the LED, reporting progress; slow, and can be cancelled."
    };
}
#[cfg(feature = "stats")]
macro_rules! stats_description {
    () => {
        "RAM use: stack high-water mark, statics, buffers."
    };
}

/// The tool list. (Built per request: a `Tool` holds its schema as `RawJson`, which has
/// no `const` constructor yet, so the table cannot be a `static`.)
#[cfg(not(feature = "lean-tools"))]
#[inline(never)]
pub fn list(req: &mut IncomingRequest<'_>) {
    let schema = |s: &'static str| RawJson::parse(s.as_bytes()).unwrap_or(mcp_sansio::mcp::NO_ARGUMENTS);
    let tools = [
        Tool::new("add", schema(add_schema!())).with_description(add_description!()),
        Tool::new("read_sensor", schema(sensor_schema!())).with_description(sensor_description!()),
        #[cfg(feature = "blink")]
        Tool::new("blink", schema(blink_schema!())).with_description(blink_description!()),
        #[cfg(feature = "stats")]
        Tool::new("stats", mcp_sansio::mcp::NO_ARGUMENTS).with_description(stats_description!()),
    ];
    answer(req, &ListToolsResult::new(&tools));
}

#[cfg(all(feature = "lean-tools", feature = "blink"))]
macro_rules! blink_json {
    () => {
        concat!(
            r#",{"name":"blink","description":""#,
            blink_description!(),
            r#"","inputSchema":"#,
            blink_schema!(),
            "}"
        )
    };
}
#[cfg(all(feature = "lean-tools", not(feature = "blink")))]
macro_rules! blink_json {
    () => {
        ""
    };
}
#[cfg(all(feature = "lean-tools", feature = "stats"))]
macro_rules! stats_json {
    () => {
        concat!(r#",{"name":"stats","description":""#, stats_description!(), r#"","inputSchema":{"type":"object"}}"#)
    };
}
#[cfg(all(feature = "lean-tools", not(feature = "stats")))]
macro_rules! stats_json {
    () => {
        ""
    };
}

/// The `tools/list` result, written out (the same bytes the `Tool`s serialize to).
#[cfg(feature = "lean-tools")]
const TOOLS_JSON: &str = concat!(
    r#"{"tools":[{"name":"add","description":""#,
    add_description!(),
    r#"","inputSchema":"#,
    add_schema!(),
    r#"},{"name":"read_sensor","description":""#,
    sensor_description!(),
    r#"","inputSchema":"#,
    sensor_schema!(),
    "}",
    blink_json!(),
    stats_json!(),
    "]}"
);

#[cfg(feature = "lean-tools")]
#[inline(never)]
pub fn list(req: &mut IncomingRequest<'_>) {
    answer(req, &RawJson::parse(TOOLS_JSON.as_bytes()).unwrap_or(RawJson::EMPTY_OBJECT));
}

/// A `tools/call` result with one text block.
#[cfg(not(feature = "lean-results"))]
pub type TextResult<'a> = mcp_sansio::mcp::CallToolResult<'a>;

#[cfg(feature = "lean-results")]
#[derive(Serialize)]
pub struct TextResult<'a> {
    content: [TextContent<'a>; 1],
    #[serde(rename = "isError", skip_serializing_if = "core::ops::Not::not")]
    is_error: bool,
}

/// A successful call's answer.
pub fn text(text: &str) -> TextResult<'_> {
    #[cfg(not(feature = "lean-results"))]
    return TextResult::text(text);
    #[cfg(feature = "lean-results")]
    TextResult { content: [TextContent::new(text)], is_error: false }
}

/// A failed call's answer (a tool error the model sees, not a protocol error).
pub fn error(text: &str) -> TextResult<'_> {
    #[cfg(not(feature = "lean-results"))]
    return TextResult::error(text);
    #[cfg(feature = "lean-results")]
    TextResult { content: [TextContent::new(text)], is_error: true }
}

pub enum Name {
    Add,
    ReadSensor,
    #[cfg(feature = "blink")]
    Blink,
    #[cfg(feature = "stats")]
    Stats,
    Unknown,
}

/// The tool's name and its arguments (`{}` when absent).
pub fn name_and_arguments<'e>(req: &IncomingRequest<'e>) -> Option<(Name, RawJson<'e>)> {
    #[cfg(not(feature = "lean-params"))]
    let (name, arguments) = {
        let call: CallToolParams<'e> = req.params?.decode().ok()?;
        (call.name, call.arguments)
    };
    #[cfg(feature = "lean-params")]
    let (name, arguments) = {
        let params = req.params?;
        (params.get("name")?.as_str()?, params.get("arguments"))
    };
    let name = match name.as_plain()? {
        "add" => Name::Add,
        "read_sensor" => Name::ReadSensor,
        #[cfg(feature = "blink")]
        "blink" => Name::Blink,
        #[cfg(feature = "stats")]
        "stats" => Name::Stats,
        _ => Name::Unknown,
    };
    Some((name, arguments.unwrap_or(RawJson::EMPTY_OBJECT)))
}

#[derive(Deserialize)]
struct AddArgs {
    a: i64,
    b: i64,
}

#[inline(never)]
pub fn add(req: &mut IncomingRequest<'_>, args: RawJson<'_>) {
    let Ok(AddArgs { a, b }) = args.decode() else {
        return answer(req, &error("Invalid arguments: a and b must be integers"));
    };
    let Some(sum) = a.checked_add(b) else {
        return answer(req, &error("Overflow: the sum does not fit 64 bits"));
    };
    let mut text = Text::<24>::new();
    text.push_i64(sum);
    answer(req, &self::text(text.as_str()));
}

#[derive(Deserialize)]
struct SensorArgs<'a> {
    #[serde(borrow)]
    sensor: JsonStr<'a>,
}

#[inline(never)]
pub fn read_sensor(req: &mut IncomingRequest<'_>, args: RawJson<'_>, now: Instant) {
    let sensor = args.decode::<SensorArgs<'_>>().ok().and_then(|a| a.sensor.as_plain()).and_then(Sensor::parse);
    let Some(sensor) = sensor else {
        return answer(req, &error("Invalid arguments: sensor must be temperature or humidity"));
    };
    let mut text = Text::<40>::new();
    text.push_str(sensor.name())
        .push_str(": ")
        .push_tenths(sensor.read_tenths(now))
        .push_str(" ")
        .push_str(sensor.unit());
    answer(req, &self::text(text.as_str()));
}

/// RAM use, as `key=value` words (the CI script reads them).
#[cfg(feature = "stats")]
#[inline(never)]
pub fn stats(req: &mut IncomingRequest<'_>, now: Instant) {
    use crate::endpoint::{RX_LEN, Server, TX_LEN};
    use crate::hw::memory;
    let serving = memory::stack_high_water();
    let high_water = serving.max(memory::boot_high_water());
    info!("stats: stack high-water {=usize} B (serving {=usize} B)", high_water, serving);
    let mut text = Text::<224>::new();
    text.push_str("stack_high_water=")
        .push_u64(high_water as u64)
        .push_str(" boot_high_water=")
        .push_u64(memory::boot_high_water() as u64)
        .push_str(" serving_high_water=")
        .push_u64(serving as u64)
        .push_str(" stack_size=")
        .push_u64(memory::stack_size() as u64)
        .push_str(" statics=")
        .push_u64(memory::statics() as u64)
        .push_str(" endpoint=")
        .push_u64(core::mem::size_of::<Server>() as u64)
        .push_str(" rx=")
        .push_u64(RX_LEN as u64)
        .push_str(" tx=")
        .push_u64(TX_LEN as u64)
        .push_str(" uptime_ms=")
        .push_u64(now.as_millis());
    answer(req, &self::text(text.as_str()));
}
