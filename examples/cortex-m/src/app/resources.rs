//! Resources: five device readings, listed two to a page behind signed cursors.
//!
//! The list pages are cut from a static table of JSON texts (the bytes the `Resource`s
//! serialize to), the params are read with `Lazy`, and a read is answered with a
//! text-only shape: no `Resource` serializer and no encoder for binary contents (or for
//! `_meta`) is linked. `typed-lists`, `typed-params` and `typed-results` put the
//! general types back (README.md, "Size").

use mcp_sansio::Instant;
#[cfg(not(feature = "typed-params"))]
use mcp_sansio::mcp::Lazy;
use mcp_sansio::mcp::ReadResourceParams;
#[cfg(feature = "typed-lists")]
use mcp_sansio::mcp::{ListResourcesResult, Resource};
use mcp_sansio::session::{CursorCodec, IncomingRequest};
use mcp_sansio::wire::{ErrorCode, JsonStr};

use crate::device::{Device, Sensor};
#[cfg(any(feature = "typed-lists", feature = "typed-results"))]
use crate::endpoint::answer;
use crate::text::Text;

/// Items per `resources/list` page: fewer than the list, so a client walks three pages.
const PAGE: usize = 2;

/// The resources (`Resource::new` is `const`, so the table lives in flash).
#[cfg(feature = "typed-lists")]
static RESOURCES: [Resource<'static>; 5] = [
    Resource::new("sensor://temperature", "temperature").with_mime_type("text/plain"),
    Resource::new("sensor://humidity", "humidity").with_mime_type("text/plain"),
    Resource::new("device://led", "led").with_mime_type("text/plain").with_description("on or off"),
    Resource::new("device://uptime", "uptime").with_mime_type("text/plain").with_description("milliseconds"),
    Resource::new("device://info", "info").with_mime_type("application/json"),
];

/// The resources as JSON (the bytes `RESOURCES` serializes to), checked when the
/// firmware is built (`RawJson::from_static`).
#[cfg(not(feature = "typed-lists"))]
static RESOURCES: [mcp_sansio::wire::RawJson<'static>; 5] = [
    mcp_sansio::wire::RawJson::from_static(
        r#"{"uri":"sensor://temperature","name":"temperature","mimeType":"text/plain"}"#,
    ),
    mcp_sansio::wire::RawJson::from_static(r#"{"uri":"sensor://humidity","name":"humidity","mimeType":"text/plain"}"#),
    mcp_sansio::wire::RawJson::from_static(
        r#"{"uri":"device://led","name":"led","description":"on or off","mimeType":"text/plain"}"#,
    ),
    mcp_sansio::wire::RawJson::from_static(
        r#"{"uri":"device://uptime","name":"uptime","description":"milliseconds","mimeType":"text/plain"}"#,
    ),
    mcp_sansio::wire::RawJson::from_static(r#"{"uri":"device://info","name":"info","mimeType":"application/json"}"#),
];

const INFO: &str = r#"{"board":"mps2-an386","cpu":"cortex-m4f","clock_hz":25000000,"transport":"uart0"}"#;
/// `INFO` as the body of a JSON string.
#[cfg(not(feature = "typed-results"))]
const INFO_ESCAPED: &str =
    r#"{\"board\":\"mps2-an386\",\"cpu\":\"cortex-m4f\",\"clock_hz\":25000000,\"transport\":\"uart0\"}"#;

/// What `resources/read` serves: each resource's URI and MIME type (as in `RESOURCES`).
const READABLE: [(&str, &str); 5] = [
    ("sensor://temperature", "text/plain"),
    ("sensor://humidity", "text/plain"),
    ("device://led", "text/plain"),
    ("device://uptime", "text/plain"),
    ("device://info", "application/json"),
];
/// Where `device://info` is in `READABLE`.
#[cfg(not(feature = "typed-results"))]
const INFO_AT: usize = 4;

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
        let next = next.as_ref().map(|c| c.as_str());
        #[cfg(feature = "typed-lists")]
        {
            let mut result = ListResourcesResult::new(&RESOURCES[start..end]);
            result.next_cursor = next.map(JsonStr::from_text);
            answer(req, &result);
        }
        #[cfg(not(feature = "typed-lists"))]
        {
            // The bytes `ListResourcesResult` writes: the items' JSON texts, and the
            // cursor, whose characters need no escaping.
            let mut json = Text::<288>::new();
            json.push_str(r#"{"resources":["#);
            for (i, r) in RESOURCES[start..end].iter().enumerate() {
                json.push_str(if i == 0 { "" } else { "," }).push_str(r.as_text());
            }
            json.push_str("]");
            if let Some(c) = next {
                json.push_str(r#","nextCursor":""#).push_str(c).push_str(r#"""#);
            }
            json.push_str("}");
            crate::endpoint::answer_json(req, json.as_str(), !json.overflowed());
        }
    }
}

fn reject(req: &mut IncomingRequest<'_>, message: &str) {
    warn!("resources/list: {=str}", message);
    let _ = req.respond_error(ErrorCode::INVALID_PARAMS, message);
}

/// The URI asked for.
fn uri<'e>(req: &IncomingRequest<'e>) -> Option<JsonStr<'e>> {
    #[cfg(feature = "typed-params")]
    return req.params.and_then(|p| p.decode::<ReadResourceParams<'e>>().ok()).map(|p| p.uri);
    #[cfg(not(feature = "typed-params"))]
    Lazy::<ReadResourceParams<'e>>::of(req.params).uri().ok()
}

#[inline(never)]
pub fn read(req: &mut IncomingRequest<'_>, device: &Device, now: Instant) {
    let Some(uri) = uri(req).and_then(|u| u.as_plain()) else {
        let _ = req.respond_error(ErrorCode::INVALID_PARAMS, "Invalid params: a uri is required");
        return;
    };
    // Looked up in a table, then read by position: one comparison loop instead of a
    // chain of string matches.
    let Some(at) = READABLE.iter().position(|(u, _)| *u == uri) else {
        let _ = req.respond_error(ErrorCode::INVALID_PARAMS, "Resource not found");
        return;
    };
    let (uri, mime) = READABLE[at];
    let mut text = Text::<24>::new();
    let body: &str = match at {
        0 => reading(&mut text, Sensor::Temperature, now),
        1 => reading(&mut text, Sensor::Humidity, now),
        2 => {
            if device.led {
                "on"
            } else {
                "off"
            }
        }
        3 => text.push_u64(now.as_millis()).as_str(),
        _ => INFO,
    };
    #[cfg(feature = "typed-results")]
    {
        use mcp_sansio::mcp::{ReadResourceResult, ResourceContents};
        let contents = [ResourceContents::text(uri, Some(mime), body)];
        answer(req, &ReadResourceResult::new(&contents));
    }
    #[cfg(not(feature = "typed-results"))]
    {
        // The bytes `ReadResourceResult` writes for one text content (`INFO`, the one
        // body with quotes, goes in escaped: `INFO_ESCAPED`).
        let body = if at == INFO_AT { INFO_ESCAPED } else { body };
        let mut json = Text::<192>::new();
        json.push_str(r#"{"contents":[{"uri":""#).push_str(uri).push_str(r#"","mimeType":""#).push_str(mime);
        json.push_str(r#"","text":""#).push_str(body).push_str(r#""}]}"#);
        crate::endpoint::answer_json(req, json.as_str(), !json.overflowed());
    }
}

fn reading(text: &mut Text<24>, sensor: Sensor, now: Instant) -> &str {
    text.push_tenths(sensor.read_tenths(now)).push_str(" ").push_str(sensor.unit());
    text.as_str()
}
