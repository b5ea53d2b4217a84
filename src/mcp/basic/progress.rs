//! Progress: `progressToken` in a request's `_meta`, and `notifications/progress`.

use core::fmt;

use serde::Deserialize;
use serde::de::{Deserializer, Error as _};
use serde::{Serialize, Serializer};

use super::meta::Meta;
use crate::wire::{IdKind, JsonKind, JsonStr, RawJson, RequestIdRef};

/// A progress token: a string or an integer, chosen by the requester.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ProgressToken<'a> {
    /// A string token.
    String(JsonStr<'a>),
    /// An integer token.
    Integer(i64),
}

impl<'a> ProgressToken<'a> {
    /// The token that reuses a request id, as the official SDKs do (`None` for an integer
    /// id outside `i64`).
    pub fn from_id(id: RequestIdRef<'a>) -> Option<Self> {
        match id.kind() {
            IdKind::String => id.as_str().map(Self::String),
            IdKind::Integer => id.as_i64().map(Self::Integer),
        }
    }

    /// The token a validated value holds: a string, or an integer that fits `i64`.
    pub(crate) fn from_raw(raw: RawJson<'a>) -> Option<Self> {
        match raw.kind() {
            JsonKind::String => raw.as_str().map(Self::String),
            JsonKind::Number => raw.as_i64().map(Self::Integer),
            _ => None,
        }
    }

    /// Whether this token and a request id are the same value.
    pub fn matches_id(&self, id: RequestIdRef<'_>) -> bool {
        match (self, id.kind()) {
            (Self::String(s), IdKind::String) => id.as_str().is_some_and(|i| i == *s),
            (Self::Integer(n), IdKind::Integer) => id.as_i64() == Some(*n),
            _ => false,
        }
    }
}

impl fmt::Display for ProgressToken<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::String(s) => fmt::Display::fmt(s, f),
            Self::Integer(n) => fmt::Display::fmt(n, f),
        }
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for ProgressToken<'a> {
    /// A string, or an integer that fits `i64`; anything else is an error.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = RawJson::deserialize(d)?;
        ProgressToken::from_raw(raw).ok_or_else(|| match raw.kind() {
            JsonKind::String => D::Error::custom("bad string"),
            JsonKind::Number => D::Error::invalid_value(serde::de::Unexpected::Other("number"), &"an integer token"),
            _ => D::Error::invalid_type(crate::mcp::seq::unexpected(raw), &"a string or integer token"),
        })
    }
}

impl Serialize for ProgressToken<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::String(t) => t.serialize(s),
            Self::Integer(n) => s.serialize_i64(*n),
        }
    }
}

/// `notifications/progress` params.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct ProgressParams<'a> {
    /// The token from the request's `_meta`.
    #[serde(borrow)]
    pub progress_token: ProgressToken<'a>,
    /// Progress so far; increases with every notification (may be fractional).
    pub progress: f64,
    /// Total, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<f64>,
    /// A human-readable progress message (2025-03-26 on).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub message: Option<JsonStr<'a>>,
    /// `_meta` (2025-06-18 on; 2026-07-28: `subscriptionId` on listen streams).
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

impl<'a> ProgressParams<'a> {
    /// Progress `progress` of `total` (if known) for `token`.
    pub const fn new(token: ProgressToken<'a>, progress: f64, total: Option<f64>) -> Self {
        Self { progress_token: token, progress, total, message: None, meta: None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_strings_or_integers() {
        let p: ProgressParams<'_> = RawJson::parse(
            br#"{"progressToken":"abc123","progress":50,"total":100,"message":"Reticulating splines..."}"#,
        )
        .unwrap()
        .decode()
        .unwrap();
        assert_eq!(p.progress_token, ProgressToken::String("abc123".into()));
        assert_eq!((p.progress, p.total), (50.0, Some(100.0)));
        let t: ProgressToken<'_> = RawJson::parse(b"-3").unwrap().decode().unwrap();
        assert_eq!(t, ProgressToken::Integer(-3));
        assert!(RawJson::parse(b"1.5").unwrap().decode::<ProgressToken<'_>>().is_err());
        assert!(RawJson::parse(b"null").unwrap().decode::<ProgressToken<'_>>().is_err());
        let id = RequestIdRef::from_validated(b"12");
        assert!(ProgressToken::Integer(12).matches_id(id));
        assert_eq!(ProgressToken::from_id(id), Some(ProgressToken::Integer(12)));
    }
}
