//! `_meta`: metadata on requests, notifications, results and data types.
//!
//! A decoded `_meta` is kept as the object that was received and re-encoded verbatim, so
//! nothing a peer put there is lost. The keys the specification reserves have typed
//! accessors; every other key is reachable through [`Meta::get`]. For encoding, fill a
//! [`MetaFields`] and borrow it: `Meta::from(&fields)`.
//!
//! Reserved keys (see [`keys`]):
//!
//! | key | where | versions |
//! |---|---|---|
//! | `progressToken` | request | all |
//! | `io.modelcontextprotocol/related-task` | task-related messages | 2025-11-25 |
//! | `io.modelcontextprotocol/model-immediate-response` | `CreateTaskResult` | 2025-11-25 |
//! | `io.modelcontextprotocol/protocolVersion` | request (required) | 2026-07-28 |
//! | `io.modelcontextprotocol/clientCapabilities` | request (required) | 2026-07-28 |
//! | `io.modelcontextprotocol/clientInfo` | request | 2026-07-28 |
//! | `io.modelcontextprotocol/logLevel` | request | 2026-07-28 |
//! | `io.modelcontextprotocol/serverInfo` | result | 2026-07-28 |
//! | `io.modelcontextprotocol/subscriptionId` | listen stream notifications, listen result | 2026-07-28 |
//! | `traceparent`, `tracestate`, `baggage` | any | 2026-07-28 |

use core::fmt;

use serde::Deserialize;
use serde::Serialize;
use serde::de::Deserializer;
use serde::ser::{SerializeMap, Serializer};

use super::super::server::LoggingLevel;
use super::lifecycle::{ClientCapabilities, Implementation};
use super::progress::ProgressToken;
use super::request_id;
use crate::mcp::ProtocolVersion;
use crate::wire::{DecodeError, JsonStr, RawJson, RequestIdRef};

/// The `_meta` keys the specification reserves.
pub mod keys {
    /// Opts a request into progress notifications (all versions).
    pub const PROGRESS_TOKEN: &str = "progressToken";
    /// The task a message relates to, `{taskId}` (2025-11-25).
    pub const RELATED_TASK: &str = "io.modelcontextprotocol/related-task";
    /// A string the host may show the model at once while a task runs (2025-11-25,
    /// `CreateTaskResult`).
    pub const MODEL_IMMEDIATE_RESPONSE: &str = "io.modelcontextprotocol/model-immediate-response";
    /// The request's protocol version (2026-07-28, required on requests).
    pub const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
    /// The client's capabilities for this request (2026-07-28, required on requests).
    pub const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
    /// The client's name and version (2026-07-28, requests, SHOULD).
    pub const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
    /// The lowest log level the server may send for this request (2026-07-28).
    pub const LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
    /// The server's name and version (2026-07-28, results, SHOULD).
    pub const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
    /// The `subscriptions/listen` request a message belongs to (2026-07-28).
    pub const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";
    /// W3C trace context `traceparent` (2026-07-28).
    pub const TRACEPARENT: &str = "traceparent";
    /// W3C trace context `tracestate` (2026-07-28).
    pub const TRACESTATE: &str = "tracestate";
    /// W3C baggage (2026-07-28).
    pub const BAGGAGE: &str = "baggage";
}

/// Whether `key` has a prefix reserved for MCP: since 2025-11-25, a prefix whose second
/// label is `modelcontextprotocol` or `mcp` (`io.modelcontextprotocol/`, `dev.mcp/`), not
/// `com.example.mcp/`. (2025-06-18 reserved any label of those names followed by another
/// label; this checks the current rule.)
pub fn is_reserved_key(key: &str) -> bool {
    let Some((prefix, _)) = key.split_once('/') else { return false };
    let mut labels = prefix.split('.');
    labels.next();
    matches!(labels.next(), Some("modelcontextprotocol" | "mcp"))
}

/// A `_meta` object: received (kept verbatim) or built for encoding from [`MetaFields`].
///
/// A decoded `_meta` is kept as the object that was received and re-encoded verbatim, so
/// nothing a peer put there is lost. The keys the specification reserves have typed
/// accessors; every other key is reachable through [`Meta::get`]. For encoding, fill a
/// [`MetaFields`] and borrow it: `Meta::from(&fields)`.
///
/// Reserved keys (see [`keys`]):
///
/// | key | where | versions |
/// |---|---|---|
/// | `progressToken` | request | all |
/// | `io.modelcontextprotocol/related-task` | task-related messages | 2025-11-25 |
/// | `io.modelcontextprotocol/model-immediate-response` | `CreateTaskResult` | 2025-11-25 |
/// | `io.modelcontextprotocol/protocolVersion` | request (required) | 2026-07-28 |
/// | `io.modelcontextprotocol/clientCapabilities` | request (required) | 2026-07-28 |
/// | `io.modelcontextprotocol/clientInfo` | request | 2026-07-28 |
/// | `io.modelcontextprotocol/logLevel` | request | 2026-07-28 |
/// | `io.modelcontextprotocol/serverInfo` | result | 2026-07-28 |
/// | `io.modelcontextprotocol/subscriptionId` | listen stream notifications, listen result | 2026-07-28 |
/// | `traceparent`, `tracestate`, `baggage` | any | 2026-07-28 |
#[derive(Clone, Copy)]
pub struct Meta<'a> {
    repr: Repr<'a>,
}

#[derive(Clone, Copy)]
enum Repr<'a> {
    Raw(RawJson<'a>),
    Fields(&'a MetaFields<'a>),
}

/// The reserved `_meta` keys, for building a [`Meta`] to encode. Unset fields are left
/// out; `extra` members (an object) are written after them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct MetaFields<'a> {
    /// `progressToken`
    pub progress_token: Option<ProgressToken<'a>>,
    /// `io.modelcontextprotocol/protocolVersion`
    pub protocol_version: Option<ProtocolVersion>,
    /// `io.modelcontextprotocol/clientCapabilities`
    pub client_capabilities: Option<&'a ClientCapabilities<'a>>,
    /// `io.modelcontextprotocol/clientInfo`
    pub client_info: Option<&'a Implementation<'a>>,
    /// `io.modelcontextprotocol/logLevel`
    pub log_level: Option<LoggingLevel>,
    /// `io.modelcontextprotocol/serverInfo`
    pub server_info: Option<&'a Implementation<'a>>,
    /// `io.modelcontextprotocol/subscriptionId`
    pub subscription_id: Option<RequestIdRef<'a>>,
    /// `io.modelcontextprotocol/related-task`: the task id.
    pub related_task: Option<JsonStr<'a>>,
    /// `io.modelcontextprotocol/model-immediate-response`
    pub model_immediate_response: Option<JsonStr<'a>>,
    /// `traceparent`
    pub traceparent: Option<JsonStr<'a>>,
    /// `tracestate`
    pub tracestate: Option<JsonStr<'a>>,
    /// `baggage`
    pub baggage: Option<JsonStr<'a>>,
    /// Further members: an object whose members are written as they are.
    pub extra: Option<RawJson<'a>>,
}

#[derive(Deserialize)]
struct RelatedTask<'a> {
    #[serde(borrow, rename = "taskId")]
    task_id: JsonStr<'a>,
}

#[derive(Serialize)]
struct RelatedTaskOut<'a> {
    #[serde(rename = "taskId")]
    task_id: JsonStr<'a>,
}

impl<'a> Meta<'a> {
    /// A received `_meta` object.
    pub fn from_raw(raw: RawJson<'a>) -> Self {
        Self { repr: Repr::Raw(raw) }
    }

    /// The object as received, for a decoded `_meta`.
    pub fn raw(&self) -> Option<RawJson<'a>> {
        match self.repr {
            Repr::Raw(r) => Some(r),
            Repr::Fields(_) => None,
        }
    }

    /// The fields, for a `_meta` built for encoding.
    pub fn fields(&self) -> Option<&'a MetaFields<'a>> {
        match self.repr {
            Repr::Raw(_) => None,
            Repr::Fields(f) => Some(f),
        }
    }

    /// The value under `key`: a member of a received object, or of a built one's `extra`.
    pub fn get(&self, key: &str) -> Option<RawJson<'a>> {
        match self.repr {
            Repr::Raw(r) => r.get(key),
            Repr::Fields(f) => f.extra.and_then(|e| e.get(key)),
        }
    }

    fn string(&self, key: &str) -> Option<JsonStr<'a>> {
        self.get(key).and_then(|v| v.as_str())
    }

    /// `progressToken`: the request wants progress notifications under this token.
    pub fn progress_token(&self) -> Option<ProgressToken<'a>> {
        match self.repr {
            // What `ProgressToken`'s `Deserialize` does with the span, without serde.
            Repr::Raw(r) => r.get(keys::PROGRESS_TOKEN).and_then(ProgressToken::from_raw),
            Repr::Fields(f) => f.progress_token,
        }
    }

    /// `io.modelcontextprotocol/protocolVersion` as sent (2026-07-28, required on requests).
    pub fn protocol_version_str(&self) -> Option<JsonStr<'a>> {
        match self.repr {
            Repr::Raw(_) => self.string(keys::PROTOCOL_VERSION),
            Repr::Fields(f) => f.protocol_version.map(|v| JsonStr::from_text(v.as_str())),
        }
    }

    /// `io.modelcontextprotocol/protocolVersion`, if it names a published version.
    pub fn protocol_version(&self) -> Option<ProtocolVersion> {
        self.protocol_version_str().and_then(ProtocolVersion::from_json)
    }

    /// `io.modelcontextprotocol/clientCapabilities` (2026-07-28, required on requests).
    pub fn client_capabilities(&self) -> Option<Result<ClientCapabilities<'a>, DecodeError>> {
        match self.repr {
            Repr::Raw(r) => r.get(keys::CLIENT_CAPABILITIES).map(|v| v.decode()),
            Repr::Fields(f) => f.client_capabilities.map(|c| Ok(*c)),
        }
    }

    /// `io.modelcontextprotocol/clientInfo` (2026-07-28).
    pub fn client_info(&self) -> Option<Result<Implementation<'a>, DecodeError>> {
        match self.repr {
            Repr::Raw(r) => r.get(keys::CLIENT_INFO).map(|v| v.decode()),
            Repr::Fields(f) => f.client_info.map(|c| Ok(*c)),
        }
    }

    /// `io.modelcontextprotocol/logLevel` (2026-07-28).
    pub fn log_level(&self) -> Option<Result<LoggingLevel, DecodeError>> {
        match self.repr {
            Repr::Raw(r) => r.get(keys::LOG_LEVEL).map(|v| v.decode()),
            Repr::Fields(f) => f.log_level.map(Ok),
        }
    }

    /// `io.modelcontextprotocol/serverInfo` (2026-07-28, on results).
    pub fn server_info(&self) -> Option<Result<Implementation<'a>, DecodeError>> {
        match self.repr {
            Repr::Raw(r) => r.get(keys::SERVER_INFO).map(|v| v.decode()),
            Repr::Fields(f) => f.server_info.map(|c| Ok(*c)),
        }
    }

    /// `io.modelcontextprotocol/subscriptionId` (2026-07-28): the id of the
    /// `subscriptions/listen` request a message belongs to.
    pub fn subscription_id(&self) -> Option<RequestIdRef<'a>> {
        match self.repr {
            Repr::Raw(r) => r.get(keys::SUBSCRIPTION_ID).and_then(|v| request_id::from_raw(v)),
            Repr::Fields(f) => f.subscription_id,
        }
    }

    /// `io.modelcontextprotocol/related-task`: the id of the task a message relates to
    /// (2025-11-25).
    pub fn related_task(&self) -> Option<JsonStr<'a>> {
        match self.repr {
            Repr::Raw(r) => {
                r.get(keys::RELATED_TASK).and_then(|v| v.decode::<RelatedTask<'a>>().ok()).map(|t| t.task_id)
            }
            Repr::Fields(f) => f.related_task,
        }
    }

    /// `io.modelcontextprotocol/model-immediate-response` (2025-11-25).
    pub fn model_immediate_response(&self) -> Option<JsonStr<'a>> {
        match self.repr {
            Repr::Raw(_) => self.string(keys::MODEL_IMMEDIATE_RESPONSE),
            Repr::Fields(f) => f.model_immediate_response,
        }
    }

    /// `traceparent` (W3C trace context).
    pub fn traceparent(&self) -> Option<JsonStr<'a>> {
        match self.repr {
            Repr::Raw(_) => self.string(keys::TRACEPARENT),
            Repr::Fields(f) => f.traceparent,
        }
    }

    /// `tracestate` (W3C trace context).
    pub fn tracestate(&self) -> Option<JsonStr<'a>> {
        match self.repr {
            Repr::Raw(_) => self.string(keys::TRACESTATE),
            Repr::Fields(f) => f.tracestate,
        }
    }

    /// `baggage` (W3C baggage).
    pub fn baggage(&self) -> Option<JsonStr<'a>> {
        match self.repr {
            Repr::Raw(_) => self.string(keys::BAGGAGE),
            Repr::Fields(f) => f.baggage,
        }
    }
}

impl<'a> From<&'a MetaFields<'a>> for Meta<'a> {
    fn from(fields: &'a MetaFields<'a>) -> Self {
        Self { repr: Repr::Fields(fields) }
    }
}

impl PartialEq for Meta<'_> {
    /// Two received objects are equal when their text is; otherwise when every reserved
    /// key and every further member agree.
    fn eq(&self, other: &Self) -> bool {
        if let (Repr::Raw(a), Repr::Raw(b)) = (self.repr, other.repr) {
            return a == b;
        }
        self.progress_token() == other.progress_token()
            && self.protocol_version_str() == other.protocol_version_str()
            && self.client_capabilities() == other.client_capabilities()
            && self.client_info() == other.client_info()
            && self.log_level() == other.log_level()
            && self.server_info() == other.server_info()
            && self.subscription_id() == other.subscription_id()
            && self.related_task() == other.related_task()
            && self.model_immediate_response() == other.model_immediate_response()
            && self.traceparent() == other.traceparent()
            && self.tracestate() == other.tracestate()
            && self.baggage() == other.baggage()
    }
}

impl fmt::Debug for Meta<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.repr {
            Repr::Raw(r) => fmt::Debug::fmt(&r, f),
            Repr::Fields(m) => fmt::Debug::fmt(m, f),
        }
    }
}

#[cfg(feature = "defmt")]
impl defmt::Format for Meta<'_> {
    fn format(&self, f: defmt::Formatter<'_>) {
        match self.repr {
            Repr::Raw(r) => defmt::write!(f, "{}", r),
            Repr::Fields(m) => defmt::write!(f, "{}", m),
        }
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Meta<'a> {
    /// Borrows the object; must be an object.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        super::super::seq::object(d).map(Meta::from_raw)
    }
}

impl Serialize for Meta<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.repr {
            Repr::Raw(r) => r.serialize(s),
            Repr::Fields(f) => f.serialize(s),
        }
    }
}

impl Serialize for MetaFields<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        if let Some(v) = &self.progress_token {
            m.serialize_entry(keys::PROGRESS_TOKEN, v)?;
        }
        if let Some(v) = &self.protocol_version {
            m.serialize_entry(keys::PROTOCOL_VERSION, v)?;
        }
        if let Some(v) = &self.client_capabilities {
            m.serialize_entry(keys::CLIENT_CAPABILITIES, v)?;
        }
        if let Some(v) = &self.client_info {
            m.serialize_entry(keys::CLIENT_INFO, v)?;
        }
        if let Some(v) = &self.log_level {
            m.serialize_entry(keys::LOG_LEVEL, v)?;
        }
        if let Some(v) = &self.server_info {
            m.serialize_entry(keys::SERVER_INFO, v)?;
        }
        if let Some(v) = &self.subscription_id {
            m.serialize_entry(keys::SUBSCRIPTION_ID, v)?;
        }
        if let Some(v) = self.related_task {
            m.serialize_entry(keys::RELATED_TASK, &RelatedTaskOut { task_id: v })?;
        }
        if let Some(v) = &self.model_immediate_response {
            m.serialize_entry(keys::MODEL_IMMEDIATE_RESPONSE, v)?;
        }
        if let Some(v) = &self.traceparent {
            m.serialize_entry(keys::TRACEPARENT, v)?;
        }
        if let Some(v) = &self.tracestate {
            m.serialize_entry(keys::TRACESTATE, v)?;
        }
        if let Some(v) = &self.baggage {
            m.serialize_entry(keys::BAGGAGE, v)?;
        }
        if let Some(extra) = self.extra {
            for (k, v) in extra.members() {
                m.serialize_entry(&k, &v)?;
            }
        }
        m.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserved_prefixes() {
        assert!(is_reserved_key("io.modelcontextprotocol/related-task"));
        assert!(is_reserved_key("dev.mcp/x"));
        assert!(is_reserved_key("com.mcp.tools/x"));
        assert!(!is_reserved_key("com.example.mcp/x"));
        assert!(!is_reserved_key("progressToken"));
        assert!(!is_reserved_key("mcp/x"));
    }

    /// The progress token read from a raw `_meta` is what decoding the member with serde
    /// gives, for every kind of value (refused ones included).
    #[test]
    fn progress_token_reads_as_serde_decodes() {
        for value in [
            r#""p1""#,
            r#""p\u0031\n""#,
            "7",
            "-3",
            "0",
            "9223372036854775807",
            "9223372036854775808",
            "-9223372036854775809",
            "1.5",
            "1e3",
            "-0",
            "null",
            "true",
            "{}",
            r#"["a"]"#,
        ] {
            let text = format!(r#"{{"a":1,"progressToken":{value},"b":[2]}}"#);
            let raw = RawJson::parse(text.as_bytes()).unwrap();
            let m: Meta<'_> = raw.decode().unwrap();
            let serde = raw.get("progressToken").unwrap().decode::<ProgressToken<'_>>().ok();
            assert_eq!(m.progress_token(), serde, "{value}");
        }
        let none: Meta<'_> = RawJson::parse(br#"{"a":1}"#).unwrap().decode().unwrap();
        assert_eq!(none.progress_token(), None);
    }

    #[test]
    fn request_envelope_accessors() {
        let raw = RawJson::parse(
            br#"{"progressToken":"p\u0031","io.modelcontextprotocol/protocolVersion":"2026-07-28",
                "io.modelcontextprotocol/clientCapabilities":{"roots":{},"x-future":{}},
                "io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},
                "io.modelcontextprotocol/logLevel":"warning","traceparent":"00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01",
                "com.example/custom":[1]}"#,
        )
        .unwrap();
        let m: Meta<'_> = raw.decode().unwrap();
        assert_eq!(m.progress_token(), Some(ProgressToken::String(JsonStr::from_text("p1"))));
        assert_eq!(m.protocol_version(), Some(ProtocolVersion::V2026_07_28));
        assert!(m.client_capabilities().unwrap().unwrap().roots.is_some());
        assert_eq!(m.client_info().unwrap().unwrap().name, "c");
        assert_eq!(m.log_level(), Some(Ok(LoggingLevel::Warning)));
        assert_eq!(m.traceparent().unwrap(), "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01");
        assert_eq!(m.get("com.example/custom").unwrap().as_bytes(), b"[1]");
        assert!(m.server_info().is_none());
        // Re-encoded verbatim.
        assert_eq!(serde_json::to_string(&m).unwrap().as_bytes(), raw.as_bytes());
    }

    #[test]
    fn built_meta_encodes_reserved_keys_then_extra() {
        let caps = ClientCapabilities::default();
        let fields = MetaFields {
            progress_token: Some(ProgressToken::Integer(7)),
            protocol_version: Some(ProtocolVersion::V2026_07_28),
            client_capabilities: Some(&caps),
            related_task: Some(JsonStr::from_text("t-1")),
            extra: Some(RawJson::parse(br#"{"com.example/a":true}"#).unwrap()),
            ..MetaFields::default()
        };
        let m = Meta::from(&fields);
        let text = serde_json::to_string(&m).unwrap();
        assert_eq!(
            text,
            r#"{"progressToken":7,"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/related-task":{"taskId":"t-1"},"com.example/a":true}"#
        );
        let back: Meta<'_> = RawJson::parse(text.as_bytes()).unwrap().decode().unwrap();
        assert_eq!(back, m);
        assert_eq!(back.related_task().unwrap(), "t-1");
    }
}
