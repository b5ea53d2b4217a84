//! Logging: `logging/setLevel` and `notifications/message`.

use serde::{Deserialize, Serialize};

use crate::mcp::basic::meta::Meta;
use crate::wire::{JsonStr, RawJson};

/// Severity, in RFC 5424 order: `Debug < Info < … < Emergency`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "lowercase")]
pub enum LoggingLevel {
    /// `debug`
    Debug,
    /// `info`
    Info,
    /// `notice`
    Notice,
    /// `warning`
    Warning,
    /// `error`
    Error,
    /// `critical`
    Critical,
    /// `alert`
    Alert,
    /// `emergency`
    Emergency,
}

impl LoggingLevel {
    /// Every level, least severe first.
    pub const ALL: [LoggingLevel; 8] = [
        Self::Debug,
        Self::Info,
        Self::Notice,
        Self::Warning,
        Self::Error,
        Self::Critical,
        Self::Alert,
        Self::Emergency,
    ];

    /// The name on the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Debug => "debug",
            Self::Info => "info",
            Self::Notice => "notice",
            Self::Warning => "warning",
            Self::Error => "error",
            Self::Critical => "critical",
            Self::Alert => "alert",
            Self::Emergency => "emergency",
        }
    }
}

/// `logging/setLevel` params (2024-11-05 to 2025-11-25; 2026-07-28 uses the request's
/// `io.modelcontextprotocol/logLevel` instead).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SetLevelParams<'a> {
    /// Send messages at this level and above.
    pub level: LoggingLevel,
    /// `_meta`
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

/// `notifications/message` `data`: any JSON value. Decoded messages hold it raw; messages
/// built for encoding may also give plain text.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum LogData<'a> {
    /// A JSON value.
    Raw(RawJson<'a>),
    /// A string.
    Text(JsonStr<'a>),
}

impl<'a> LogData<'a> {
    /// The value as JSON text, if it is [`Raw`](Self::Raw).
    pub fn raw(&self) -> Option<RawJson<'a>> {
        match self {
            Self::Raw(r) => Some(*r),
            Self::Text(_) => None,
        }
    }

    /// The string, if the value is one.
    pub fn as_str(&self) -> Option<JsonStr<'a>> {
        match self {
            Self::Raw(r) => r.as_str(),
            Self::Text(t) => Some(*t),
        }
    }
}

impl PartialEq for LogData<'_> {
    /// Text equals a raw JSON string with the same text.
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Self::Raw(a), Self::Raw(b)) => a == b,
            _ => self.as_str().is_some() && self.as_str() == other.as_str(),
        }
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for LogData<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        RawJson::deserialize(d).map(Self::Raw)
    }
}

impl Serialize for LogData<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Raw(r) => r.serialize(s),
            Self::Text(t) => t.serialize(s),
        }
    }
}

/// `notifications/message` params.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct LoggingMessageParams<'a> {
    /// Severity.
    pub level: LoggingLevel,
    /// The logger's name.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub logger: Option<JsonStr<'a>>,
    /// The message: any JSON value.
    #[serde(borrow)]
    pub data: LogData<'a>,
    /// `_meta`
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

impl<'a> LoggingMessageParams<'a> {
    /// A text message at `level`.
    pub const fn text(level: LoggingLevel, text: &'a str) -> Self {
        Self { level, logger: None, data: LogData::Text(JsonStr::from_text(text)), meta: None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_ordered_and_named() {
        assert!(LoggingLevel::Debug < LoggingLevel::Info && LoggingLevel::Alert < LoggingLevel::Emergency);
        for (i, l) in LoggingLevel::ALL.iter().enumerate() {
            let text = serde_json::to_string(l).unwrap();
            assert_eq!(text.trim_matches('"'), l.as_str());
            assert_eq!(
                RawJson::parse(text.as_bytes()).unwrap().decode::<LoggingLevel>().unwrap(),
                LoggingLevel::ALL[i]
            );
        }
        assert!(RawJson::parse(br#""trace""#).unwrap().decode::<LoggingLevel>().is_err());
    }

    #[test]
    fn message_data_stays_raw() {
        // schema/2026-07-28/examples/LoggingMessageNotificationParams
        let p: LoggingMessageParams<'_> = RawJson::parse(
            br#"{"level":"error","logger":"database","data":{"error":"Connection failed","details":{"host":"localhost","port":5432}}}"#,
        )
        .unwrap()
        .decode()
        .unwrap();
        assert_eq!(p.level, LoggingLevel::Error);
        assert_eq!(p.data.raw().unwrap().get("details").unwrap().get("port").unwrap().as_i64(), Some(5432));
        let out = LoggingMessageParams::text(LoggingLevel::Info, "line\nbreak");
        assert_eq!(serde_json::to_string(&out).unwrap(), r#"{"level":"info","data":"line\nbreak"}"#);
    }
}
