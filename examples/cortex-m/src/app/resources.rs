//! Resources: five device readings, listed two to a page behind signed cursors.

use mcp_sansio::Instant;
use mcp_sansio::mcp::{ListResourcesResult, ReadResourceParams, ReadResourceResult, Resource, ResourceContents};
use mcp_sansio::session::{CursorCodec, IncomingRequest};
use mcp_sansio::wire::{ErrorCode, JsonStr};

use crate::device::{Device, Sensor};
use crate::endpoint::answer;
use crate::text::Text;

/// Items per `resources/list` page: fewer than the list, so a client walks three pages.
const PAGE: usize = 2;

/// The resources (`Resource::new` is `const`, so the table lives in flash).
static RESOURCES: [Resource<'static>; 5] = [
    Resource::new("sensor://temperature", "temperature").with_mime_type("text/plain"),
    Resource::new("sensor://humidity", "humidity").with_mime_type("text/plain"),
    Resource::new("device://led", "led").with_mime_type("text/plain").with_description("on or off"),
    Resource::new("device://uptime", "uptime").with_mime_type("text/plain").with_description("milliseconds"),
    Resource::new("device://info", "info").with_mime_type("application/json"),
];

const INFO: &str = r#"{"board":"mps2-an386","cpu":"cortex-m4f","clock_hz":25000000,"transport":"uart0"}"#;

pub struct Resources {
    codec: CursorCodec,
}

impl Resources {
    /// A key for the cursor tags. A real part would draw it from its random number
    /// generator at boot; this board has none, so a fixed key is mixed with `seed`.
    pub fn new(seed: u32) -> Self {
        let mut key = *b"mcp-sansio-cm4f!";
        for (k, s) in key.iter_mut().zip(seed.to_le_bytes()) {
            *k ^= s;
        }
        Self { codec: CursorCodec::new(key) }
    }

    #[inline(never)]
    pub fn list(&self, req: &mut IncomingRequest<'_>) {
        let start = match self.codec.position(req.params) {
            Ok(p) if (p as usize) < RESOURCES.len() => p as usize,
            Ok(_) => return reject(req, "Invalid cursor"),
            Err(e) => return reject(req, e.message()),
        };
        let end = (start + PAGE).min(RESOURCES.len());
        let next = (end < RESOURCES.len()).then(|| self.codec.encode(end as u32));
        let result = ListResourcesResult {
            next_cursor: next.as_ref().map(|c| JsonStr::from_text(c.as_str())),
            ..ListResourcesResult::new(&RESOURCES[start..end])
        };
        answer(req, &result);
    }
}

fn reject(req: &mut IncomingRequest<'_>, message: &str) {
    warn!("resources/list: {=str}", message);
    let _ = req.respond_error(ErrorCode::INVALID_PARAMS, message);
}

#[inline(never)]
pub fn read(req: &mut IncomingRequest<'_>, device: &Device, now: Instant) {
    let Some(uri) = req.params.and_then(|p| p.decode::<ReadResourceParams<'_>>().ok()).and_then(|p| p.uri.as_plain())
    else {
        let _ = req.respond_error(ErrorCode::INVALID_PARAMS, "Invalid params: a uri is required");
        return;
    };
    let mut text = Text::<24>::new();
    let (uri, mime, body): (&'static str, &'static str, &str) = match uri {
        "sensor://temperature" => ("sensor://temperature", "text/plain", reading(&mut text, Sensor::Temperature, now)),
        "sensor://humidity" => ("sensor://humidity", "text/plain", reading(&mut text, Sensor::Humidity, now)),
        "device://led" => ("device://led", "text/plain", if device.led { "on" } else { "off" }),
        "device://uptime" => {
            text.push_u64(now.as_millis());
            ("device://uptime", "text/plain", text.as_str())
        }
        "device://info" => ("device://info", "application/json", INFO),
        _ => {
            let _ = req.respond_error(ErrorCode::INVALID_PARAMS, "Resource not found");
            return;
        }
    };
    let contents = [ResourceContents::text(uri, Some(mime), body)];
    answer(req, &ReadResourceResult::new(&contents));
}

fn reading(text: &mut Text<24>, sensor: Sensor, now: Instant) -> &str {
    text.push_tenths(sensor.read_tenths(now)).push_str(" ").push_str(sensor.unit());
    text.as_str()
}
