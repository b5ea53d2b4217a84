//! Tools: `add`, `read_sensor`, `blink`, `stats`.

use mcp_sansio::Instant;
use mcp_sansio::mcp::{CallToolParams, CallToolResult, ListToolsResult, Tool};
use mcp_sansio::session::IncomingRequest;
use mcp_sansio::wire::{JsonStr, RawJson};
use serde::Deserialize;

use crate::device::Sensor;
use crate::endpoint::answer;
use crate::text::Text;

const ADD_SCHEMA: &str =
    r#"{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"required":["a","b"]}"#;
const SENSOR_SCHEMA: &str = r#"{"type":"object","properties":{"sensor":{"type":"string","enum":["temperature","humidity"]}},"required":["sensor"]}"#;
#[cfg(feature = "blink")]
const BLINK_SCHEMA: &str = r#"{"type":"object","properties":{"times":{"type":"integer","minimum":1,"maximum":50},"interval_ms":{"type":"integer","minimum":10,"maximum":2000}}}"#;

/// The tool list. (Built per request: a `Tool` holds its schema as `RawJson`, which has
/// no `const` constructor yet, so the table cannot be a `static`.)
fn tools() -> [Tool<'static>; TOOLS] {
    let schema = |s: &'static str| RawJson::parse(s.as_bytes()).unwrap_or(mcp_sansio::mcp::NO_ARGUMENTS);
    [
        Tool::new("add", schema(ADD_SCHEMA)).with_description("Adds two integers."),
        Tool::new("read_sensor", schema(SENSOR_SCHEMA)).with_description("Reads the temperature or humidity sensor."),
        #[cfg(feature = "blink")]
        Tool::new("blink", schema(BLINK_SCHEMA))
            .with_description("Blinks the LED, reporting progress; slow, and can be cancelled."),
        #[cfg(feature = "stats")]
        Tool::new("stats", mcp_sansio::mcp::NO_ARGUMENTS)
            .with_description("RAM use: stack high-water mark, statics, buffers."),
    ]
}

const TOOLS: usize = 2 + cfg!(feature = "blink") as usize + cfg!(feature = "stats") as usize;

pub fn list(req: &mut IncomingRequest<'_>) {
    answer(req, &ListToolsResult::new(&tools()));
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
    let call: CallToolParams<'e> = req.params?.decode().ok()?;
    let name = match call.name.as_plain()? {
        "add" => Name::Add,
        "read_sensor" => Name::ReadSensor,
        #[cfg(feature = "blink")]
        "blink" => Name::Blink,
        #[cfg(feature = "stats")]
        "stats" => Name::Stats,
        _ => Name::Unknown,
    };
    Some((name, call.arguments.unwrap_or(RawJson::EMPTY_OBJECT)))
}

#[derive(Deserialize)]
struct AddArgs {
    a: i64,
    b: i64,
}

pub fn add(req: &mut IncomingRequest<'_>, args: RawJson<'_>) {
    let Ok(AddArgs { a, b }) = args.decode() else {
        return answer(req, &CallToolResult::error("Invalid arguments: a and b must be integers"));
    };
    let Some(sum) = a.checked_add(b) else {
        return answer(req, &CallToolResult::error("Overflow: the sum does not fit 64 bits"));
    };
    let mut text = Text::<24>::new();
    text.push_i64(sum);
    answer(req, &CallToolResult::text(text.as_str()));
}

#[derive(Deserialize)]
struct SensorArgs<'a> {
    #[serde(borrow)]
    sensor: JsonStr<'a>,
}

pub fn read_sensor(req: &mut IncomingRequest<'_>, args: RawJson<'_>, now: Instant) {
    let sensor = args.decode::<SensorArgs<'_>>().ok().and_then(|a| a.sensor.as_plain()).and_then(Sensor::parse);
    let Some(sensor) = sensor else {
        return answer(req, &CallToolResult::error("Invalid arguments: sensor must be temperature or humidity"));
    };
    let mut text = Text::<40>::new();
    text.push_str(sensor.name())
        .push_str(": ")
        .push_tenths(sensor.read_tenths(now))
        .push_str(" ")
        .push_str(sensor.unit());
    answer(req, &CallToolResult::text(text.as_str()));
}

/// RAM use, as `key=value` words (the CI script reads them).
#[cfg(feature = "stats")]
pub fn stats(req: &mut IncomingRequest<'_>, now: Instant) {
    use crate::endpoint::{RX_LEN, Server, TX_LEN};
    use crate::hw::memory;
    let high_water = memory::stack_high_water();
    info!("stats: stack high-water {=usize} B", high_water);
    let mut text = Text::<160>::new();
    text.push_str("stack_high_water=")
        .push_u64(high_water as u64)
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
    answer(req, &CallToolResult::text(text.as_str()));
}
