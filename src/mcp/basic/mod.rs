//! Base protocol: lifecycle, `_meta`, cancellation, progress, tasks, and the 2026-07-28
//! patterns (result types, multi round-trip requests, subscriptions).

pub mod cancellation;
pub mod errors;
pub mod lifecycle;
pub mod meta;
pub mod mrtr;
pub mod progress;
pub mod subscriptions;
pub mod tasks;

use core::fmt;

use serde::Deserialize;
use serde::de::{Deserializer, Error as _};
use serde::{Serialize, Serializer};

use self::meta::Meta;
use crate::wire::{JsonStr, RawJson};

/// Params that carry nothing but `_meta`: `ping`, `notifications/initialized`, the
/// `list_changed` notifications, `roots/list`, `server/discover` (the schema's
/// `RequestParams` / `NotificationParams`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct EmptyParams<'a> {
    /// `_meta` (requests: all versions; 2026-07-28 requests: required, see [`Meta`]).
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

impl<'a> EmptyParams<'a> {
    /// Params with only this `_meta`.
    pub const fn with_meta(meta: Meta<'a>) -> Self {
        Self { meta: Some(meta) }
    }
}

/// A result with no content: `ping`, `logging/setLevel`, `resources/subscribe` and
/// `unsubscribe`, and the closing result of `subscriptions/listen` (2026-07-28).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct EmptyResult<'a> {
    /// `resultType` (2026-07-28, required there: `complete`).
    #[serde(borrow, rename = "resultType", default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType<'a>>,
    /// `_meta`
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

impl EmptyResult<'static> {
    /// `{}`: the empty result of the handshake versions.
    pub const EMPTY: EmptyResult<'static> = EmptyResult { result_type: None, meta: None };
    /// `{"resultType":"complete"}`: the empty result of 2026-07-28.
    pub const COMPLETE: EmptyResult<'static> = EmptyResult { result_type: Some(ResultType::Complete), meta: None };
}

/// `resultType` (2026-07-28): what kind of result a response carries.
///
/// Absent means [`Complete`](Self::Complete) (a result from a server of an earlier
/// version). A value this crate does not know is kept as [`Other`](Self::Other); the
/// per-method result decoder treats it as invalid, as the specification asks, unless
/// the caller negotiated an extension that defines it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ResultType<'a> {
    /// `complete`: the final result.
    Complete,
    /// `input_required`: an [`InputRequiredResult`](mrtr::InputRequiredResult).
    InputRequired,
    /// Another value (an extension's, such as the tasks extension's `task`).
    Other(JsonStr<'a>),
}

impl<'a> ResultType<'a> {
    /// The value on the wire.
    pub fn as_json(&self) -> JsonStr<'a> {
        match self {
            Self::Complete => JsonStr::from_text("complete"),
            Self::InputRequired => JsonStr::from_text("input_required"),
            Self::Other(s) => *s,
        }
    }

    /// The `resultType` member of a result object: absent is `Complete`; a member that is
    /// not a string is `None`.
    pub fn of(result: RawJson<'a>) -> Option<Self> {
        match result.get("resultType") {
            None => Some(Self::Complete),
            Some(v) => v.as_str().map(Self::from_json),
        }
    }

    /// The result type named by `s`.
    pub fn from_json(s: JsonStr<'a>) -> Self {
        if s.eq_str("complete") {
            Self::Complete
        } else if s.eq_str("input_required") {
            Self::InputRequired
        } else {
            Self::Other(s)
        }
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for ResultType<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        JsonStr::deserialize(d).map(Self::from_json)
    }
}

impl Serialize for ResultType<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.as_json().serialize(s)
    }
}

impl fmt::Display for ResultType<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.as_json(), f)
    }
}

/// Request ids inside params (`notifications/cancelled`) and `_meta`.
pub(crate) mod request_id {
    use super::*;
    use crate::wire::{JsonKind, RequestIdRef};

    /// A string or an integer (no fraction, no exponent), as MCP allows for ids.
    pub(crate) fn from_raw(raw: RawJson<'_>) -> Option<RequestIdRef<'_>> {
        let ok = match raw.kind() {
            JsonKind::String => true,
            JsonKind::Number => !raw.as_bytes().iter().any(|b| matches!(b, b'.' | b'e' | b'E')),
            _ => false,
        };
        ok.then(|| RequestIdRef::from_validated(raw.as_bytes()))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<RequestIdRef<'de>, D::Error> {
        let raw = RawJson::deserialize(d)?;
        from_raw(raw).ok_or_else(|| D::Error::invalid_type(crate::mcp::seq::unexpected(raw), &"a string or integer id"))
    }

    pub(crate) fn deserialize_opt<'de, D: Deserializer<'de>>(d: D) -> Result<Option<RequestIdRef<'de>>, D::Error> {
        deserialize(d).map(Some)
    }
}

/// Serializes `Option<u64>` as the number or `null` (for required, nullable fields).
pub(crate) fn nullable<S: Serializer, T: Serialize>(v: &Option<T>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(v) => v.serialize(s),
        None => s.serialize_unit(),
    }
}
