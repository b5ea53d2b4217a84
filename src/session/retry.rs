//! A client's multi round-trip requests (2026-07-28): what a retry after `input_required`
//! must match.
//!
//! The endpoint keeps no copy of a request once it is sent (it has nowhere to), so the
//! retry is sent by the application again, with the original params, the answers to the
//! input requests and the `requestState` it received ([`Endpoint::retry`]). What the
//! endpoint does keep is small and checks the rules the specification puts on the retry:
//! a [`RetryTicket`], handed out with [`Event::InputRequired`], holds digests of what the
//! request was about (its tool, prompt or resource), of the `requestState` (echoed
//! verbatim, and only if there was one) and of the `inputRequests` keys (every one
//! answered, nothing else). The retry gets a new id, as it must.
//!
//! [`Endpoint::retry`]: super::Endpoint::retry
//! [`Event::InputRequired`]: super::Event::InputRequired

use super::modern::fnv;
use crate::mcp::Method;
use crate::wire::{Fragment, JsonStr, RawJson};

/// What a retry after an `input_required` result must match; see
/// [`Endpoint::retry`](super::Endpoint::retry).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct RetryTicket {
    pub(crate) method: Option<Method<'static>>,
    pub(crate) target: u64,
    pub(crate) state: Option<u64>,
    pub(crate) keys: KeyDigest,
}

impl RetryTicket {
    /// The method to send again.
    pub fn method(&self) -> Option<Method<'static>> {
        self.method
    }

    /// Whether the result carried a `requestState` (which the retry must echo).
    pub fn has_state(&self) -> bool {
        self.state.is_some()
    }

    /// How many input requests the retry must answer.
    pub fn input_requests(&self) -> usize {
        self.keys.count as usize
    }

    /// The ticket for an `input_required` result to a request of `method` about `target`
    /// (`None` if the result is not a valid one).
    pub(crate) fn for_result(method: Option<Method<'static>>, target: u64, result: RawJson<'_>) -> Option<Self> {
        let state = match result.get("requestState") {
            None => None,
            Some(s) => Some(digest_str(s.as_str()?)),
        };
        let keys = match result.get("inputRequests") {
            None => KeyDigest::default(),
            Some(requests) => KeyDigest::of(requests)?,
        };
        Some(Self { method, target, state, keys })
    }
}

/// A digest of an object's keys, in any order: how many, and their digests combined.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub(crate) struct KeyDigest {
    count: u32,
    sum: u64,
}

impl KeyDigest {
    /// The digest of `object`'s keys (`None` if it is not an object).
    pub fn of(object: RawJson<'_>) -> Option<Self> {
        if !object.is_object() {
            return None;
        }
        let mut d = KeyDigest::default();
        for (key, _) in object.members() {
            d.count += 1;
            // A sum, not an exclusive or: a key given twice does not cancel out.
            d.sum = d.sum.wrapping_add(digest_str(key));
        }
        Some(d)
    }
}

/// The digest of a string's unescaped text, so that two spellings of one string (`"é"`
/// and `"\u00e9"`) agree.
pub(crate) fn digest_str(s: JsonStr<'_>) -> u64 {
    if let Some(plain) = s.as_plain() {
        return fnv(plain.as_bytes());
    }
    let mut h = fnv(b"");
    let mut feed = |bytes: &[u8]| {
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for fragment in s.fragments() {
        match fragment {
            Fragment::Text(t) => feed(t.as_bytes()),
            Fragment::Char(c) => feed(c.encode_utf8(&mut [0u8; 4]).as_bytes()),
        }
    }
    h
}

/// The digest of plain text, as [`digest_str`] computes it for the same characters.
pub(crate) fn digest_text(s: &str) -> u64 {
    digest_str(JsonStr::from_text(s))
}

/// What a request is about: the digest of `params.name` (`tools/call`, `prompts/get`) or
/// `params.uri` (`resources/read`); 0 for other methods.
pub(crate) fn target_of(method: Option<Method<'_>>, params: RawJson<'_>) -> u64 {
    let key = match method {
        Some(Method::ToolsCall | Method::PromptsGet) => "name",
        Some(Method::ResourcesRead) => "uri",
        _ => return 0,
    };
    params.get(key).and_then(|v| v.as_str()).map_or(0, digest_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_ignore_spelling_and_order() {
        let a = RawJson::parse(br#""caf\u00e9""#).unwrap().as_str().unwrap();
        assert_eq!(digest_str(a), digest_text("café"));
        let x = KeyDigest::of(RawJson::parse(br#"{"a":1,"b\u0031":2}"#).unwrap()).unwrap();
        let y = KeyDigest::of(RawJson::parse(br#"{"b1":{},"a":[]}"#).unwrap()).unwrap();
        assert_eq!(x, y);
        let z = KeyDigest::of(RawJson::parse(br#"{"a":1}"#).unwrap()).unwrap();
        assert_ne!(x, z);
        let twice = KeyDigest::of(RawJson::parse(br#"{"a":1,"a":2}"#).unwrap()).unwrap();
        assert_ne!(twice, KeyDigest::default());
    }
}
