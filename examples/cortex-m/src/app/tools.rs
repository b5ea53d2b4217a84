//! Tools: `add`, `read_sensor`, `blink`, `stats`.
//!
//! Each handler is `#[inline(never)]`: inlined into the dispatch, their locals would share
//! one stack frame (LTO merges them), and the stack would need their sum, not their
//! maximum.
//!
//! What a small server needs of the vocabulary, and no more: the `tools/call` params are
//! read with `Lazy` (the name and the arguments, not the task, input responses or
//! `_meta`), and so are the tools' arguments (looked up, not decoded with serde: with
//! nothing decoded through serde, its decoder is not linked at all), answers are
//! `TextToolResult`s (text only: no encoder for images, audio or
//! embedded resources is linked), and the tool list is one static JSON text. Three
//! features put the general types back, to measure what they cost (README.md, "Size"):
//! `typed-params` decodes `CallToolParams` and the arguments into structs,
//! `typed-lists` serializes `Tool`s,
//! `typed-results` answers with `CallToolResult`.

use mcp_sansio::Instant;
use mcp_sansio::mcp::CallToolParams;
#[cfg(not(feature = "typed-params"))]
use mcp_sansio::mcp::Lazy;
#[cfg(feature = "typed-lists")]
use mcp_sansio::mcp::{ListToolsResult, Tool};
use mcp_sansio::session::IncomingRequest;
use mcp_sansio::wire::{ErrorCode, JsonStr, RawJson};
#[cfg(feature = "typed-params")]
use serde::Deserialize;

use crate::device::Sensor;
use crate::endpoint::answer;
use crate::text::{Buf, Text};

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

/// The tool list, built from `Tool`s per request (`typed-lists`).
#[cfg(feature = "typed-lists")]
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

#[cfg(all(not(feature = "typed-lists"), feature = "blink"))]
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
#[cfg(all(not(feature = "typed-lists"), not(feature = "blink")))]
macro_rules! blink_json {
    () => {
        ""
    };
}
#[cfg(all(not(feature = "typed-lists"), feature = "stats"))]
macro_rules! stats_json {
    () => {
        concat!(r#",{"name":"stats","description":""#, stats_description!(), r#"","inputSchema":{"type":"object"}}"#)
    };
}
#[cfg(all(not(feature = "typed-lists"), not(feature = "stats")))]
macro_rules! stats_json {
    () => {
        ""
    };
}

/// The `tools/list` result, written out (the same bytes the `Tool`s serialize to).
#[cfg(not(feature = "typed-lists"))]
pub const TOOLS_JSON: &str = concat!(
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

/// The tool list, checked as JSON when the firmware is built.
#[cfg(not(feature = "typed-lists"))]
static TOOLS: RawJson<'static> = RawJson::from_static(TOOLS_JSON);

/// The tool list, from its static JSON.
#[cfg(not(feature = "typed-lists"))]
#[inline(never)]
pub fn list(req: &mut IncomingRequest<'_>) {
    answer(req, &TOOLS);
}

/// A `tools/call` result with one text block, being written: its text is pushed into
/// [`text`](Self::text), then it is answered with [`send`](Self::send).
///
/// Sent as JSON: the bytes `TextToolResult` writes for it, through the one `RawJson`
/// serializer the other answers use (a result type of its own would bring its own
/// serializer: about 600 bytes of flash). The text is written in place, between the
/// JSON around it, so no second buffer is needed. The texts are the firmware's own and
/// need no escaping (one that did would fail the `RawJson` check, and the client would
/// get an error, never malformed JSON). `typed-results` sends `CallToolResult` instead.
pub struct Reply(Text<REPLY_LEN>);

/// Room for a result: the longest text (`stats`'s, up to 173 bytes) and the 56 bytes of
/// JSON around it.
const REPLY_LEN: usize = 240;

#[cfg(not(feature = "typed-results"))]
const HEAD: &str = r#"{"content":[{"type":"text","text":""#;

impl Reply {
    pub fn new() -> Self {
        #[allow(unused_mut)] // with `typed-results`
        let mut json = Text::new();
        #[cfg(not(feature = "typed-results"))]
        json.push_str(HEAD);
        Self(json)
    }

    pub fn text(&mut self) -> &mut Buf<[u8]> {
        &mut self.0
    }

    /// The result, closed: as JSON (`None` if it did not fit), or as `CallToolResult`.
    #[cfg(not(feature = "typed-results"))]
    pub fn finish(&mut self, is_error: bool) -> Option<RawJson<'_>> {
        self.0.push_str(if is_error { r#""}],"isError":true}"# } else { r#""}]}"# });
        RawJson::parse(self.0.as_str().as_bytes()).ok().filter(|_| !self.0.overflowed())
    }
    #[cfg(feature = "typed-results")]
    pub fn finish(&mut self, is_error: bool) -> Option<mcp_sansio::mcp::CallToolResult<'_>> {
        use mcp_sansio::mcp::CallToolResult;
        let text = self.0.as_str();
        Some(if is_error { CallToolResult::error(text) } else { CallToolResult::text(text) })
    }

    /// Answers the call; `is_error` makes it a tool error (which the model sees), not a
    /// protocol error.
    #[inline(never)]
    pub fn send(mut self, req: &mut IncomingRequest<'_>, is_error: bool) {
        match self.finish(is_error) {
            Some(result) => answer(req, &result),
            None => {
                let _ = req.respond_error(ErrorCode::INTERNAL_ERROR, "Answer too large for the device's buffer");
            }
        }
    }
}

/// Answers a call with `text`.
#[inline(never)]
pub fn reply(req: &mut IncomingRequest<'_>, text: &str, is_error: bool) {
    let mut reply = Reply::new();
    reply.text().push_str(text);
    reply.send(req, is_error);
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
    #[cfg(feature = "typed-params")]
    let (name, arguments) = {
        let call: CallToolParams<'e> = req.params?.decode().ok()?;
        (call.name, call.arguments)
    };
    #[cfg(not(feature = "typed-params"))]
    let (name, arguments) = {
        let call = Lazy::<CallToolParams<'e>>::of(req.params);
        (call.name().ok()?, call.arguments())
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

/// `add`'s `a` and `b`, if both are integers: decoded into a struct with serde
/// (`typed-params`), or read by looking the two members up, which links no decoder at
/// all when nothing else decodes with serde (about 3 KB here).
fn add_args(args: RawJson<'_>) -> Option<(i64, i64)> {
    #[cfg(feature = "typed-params")]
    {
        #[derive(Deserialize)]
        struct AddArgs {
            a: i64,
            b: i64,
        }
        let AddArgs { a, b } = args.decode().ok()?;
        Some((a, b))
    }
    #[cfg(not(feature = "typed-params"))]
    Some((args.get("a")?.as_i64()?, args.get("b")?.as_i64()?))
}

/// `read_sensor`'s `sensor` (see [`add_args`]).
fn sensor_arg(args: RawJson<'_>) -> Option<JsonStr<'_>> {
    #[cfg(feature = "typed-params")]
    {
        #[derive(Deserialize)]
        struct SensorArgs<'a> {
            #[serde(borrow)]
            sensor: JsonStr<'a>,
        }
        args.decode::<SensorArgs<'_>>().ok().map(|a| a.sensor)
    }
    #[cfg(not(feature = "typed-params"))]
    args.get("sensor")?.as_str()
}

#[inline(never)]
pub fn add(req: &mut IncomingRequest<'_>, args: RawJson<'_>) {
    let Some((a, b)) = add_args(args) else {
        return reply(req, "Invalid arguments: a and b must be integers", true);
    };
    let Some(sum) = a.checked_add(b) else {
        return reply(req, "Overflow: the sum does not fit 64 bits", true);
    };
    let mut reply = Reply::new();
    reply.text().push_i64(sum);
    reply.send(req, false);
}

#[inline(never)]
pub fn read_sensor(req: &mut IncomingRequest<'_>, args: RawJson<'_>, now: Instant) {
    let sensor = sensor_arg(args).and_then(|s| s.as_plain()).and_then(Sensor::parse);
    let Some(sensor) = sensor else {
        return reply(req, "Invalid arguments: sensor must be temperature or humidity", true);
    };
    let mut reply = Reply::new();
    reply
        .text()
        .push_str(sensor.name())
        .push_str(": ")
        .push_tenths(sensor.read_tenths(now))
        .push_str(" ")
        .push_str(sensor.unit());
    reply.send(req, false);
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
    // Key by key from a table: one loop instead of eighteen calls.
    const KEYS: [&str; 9] = [
        "stack_high_water=",
        " boot_high_water=",
        " serving_high_water=",
        " stack_size=",
        " statics=",
        " endpoint=",
        " rx=",
        " tx=",
        " uptime_ms=",
    ];
    let values = [
        high_water as u32,
        memory::boot_high_water() as u32,
        serving as u32,
        memory::stack_size() as u32,
        memory::statics() as u32,
        core::mem::size_of::<Server>() as u32,
        RX_LEN as u32,
        TX_LEN as u32,
    ];
    let mut reply = Reply::new();
    for (key, value) in KEYS.iter().zip(values) {
        reply.text().push_str(key).push_u64(value.into());
    }
    reply.text().push_str(KEYS[8]).push_u64(now.as_millis());
    reply.send(req, false);
}
