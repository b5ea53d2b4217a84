//! Multi round-trip requests (2026-07-28): a server answers `tools/call`, `prompts/get`
//! or `resources/read` with an [`InputRequiredResult`]; the client fulfils the input
//! requests and retries with `inputResponses` and `requestState`.

use serde::Deserialize;
use serde::de::{Deserializer, Error as _};
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use super::meta::Meta;
use super::{EmptyParams, ResultType};
use crate::mcp::client::elicitation::ElicitParams;
use crate::mcp::client::sampling::CreateMessageParams;
use crate::mcp::seq::Map;
use crate::wire::{JsonStr, RawJson};

/// A request the server needs the client to fulfil: `{method, params}`, without
/// `jsonrpc` or `id`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum InputRequest<'a> {
    /// `sampling/createMessage`
    CreateMessage(CreateMessageParams<'a>),
    /// `elicitation/create`
    Elicit(ElicitParams<'a>),
    /// `roots/list`
    ListRoots(EmptyParams<'a>),
    /// Another method (an extension's), kept raw: `{method, params}`.
    Other(RawJson<'a>),
}

impl InputRequest<'_> {
    /// The method name.
    pub fn method(&self) -> crate::mcp::Method<'_> {
        use crate::mcp::Method;
        match self {
            Self::CreateMessage(_) => Method::SamplingCreateMessage,
            Self::Elicit(_) => Method::ElicitationCreate,
            Self::ListRoots(_) => Method::RootsList,
            Self::Other(raw) => {
                raw.get("method").and_then(|m| m.as_str()).map_or(Method::Other(JsonStr::from_text("")), Method::parse)
            }
        }
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for InputRequest<'a> {
    /// Reads `method`, then decodes `params` by it.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = crate::mcp::seq::object(d)?;
        let method = raw.get("method").and_then(|m| m.as_str()).ok_or_else(|| D::Error::missing_field("method"))?;
        let params = raw.get("params");
        let de = |p: Option<RawJson<'a>>| p.ok_or_else(|| D::Error::missing_field("params"));
        Ok(if method.eq_str("sampling/createMessage") {
            Self::CreateMessage(de(params)?.decode().map_err(D::Error::custom)?)
        } else if method.eq_str("elicitation/create") {
            Self::Elicit(de(params)?.decode().map_err(D::Error::custom)?)
        } else if method.eq_str("roots/list") {
            Self::ListRoots(params.map(|p| p.decode()).transpose().map_err(D::Error::custom)?.unwrap_or_default())
        } else {
            Self::Other(raw)
        })
    }
}

impl Serialize for InputRequest<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        fn pair<S: Serializer, P: Serialize>(s: S, method: &str, params: &P) -> Result<S::Ok, S::Error> {
            let mut st = s.serialize_struct("InputRequest", 2)?;
            st.serialize_field("method", method)?;
            st.serialize_field("params", params)?;
            st.end()
        }
        match self {
            Self::CreateMessage(p) => pair(s, "sampling/createMessage", p),
            Self::Elicit(p) => pair(s, "elicitation/create", p),
            Self::ListRoots(p) if p.meta.is_none() => {
                let mut st = s.serialize_struct("InputRequest", 1)?;
                st.serialize_field("method", "roots/list")?;
                st.end()
            }
            Self::ListRoots(p) => pair(s, "roots/list", p),
            Self::Other(raw) => raw.serialize(s),
        }
    }
}

/// `{"resultType":"input_required"}` (2026-07-28): the server needs input before it can
/// answer. At least one of `input_requests` and `request_state` is present.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct InputRequiredResult<'a> {
    /// `resultType`: [`ResultType::InputRequired`].
    #[serde(borrow)]
    pub result_type: ResultType<'a>,
    /// The requests to fulfil, by a key the retry answers under.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub input_requests: Option<Map<'a, InputRequest<'a>>>,
    /// Opaque state to echo in the retry.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub request_state: Option<JsonStr<'a>>,
    /// `_meta`
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

impl<'a> InputRequiredResult<'a> {
    /// A result asking for `requests` (key, request), with optional state to echo.
    pub const fn new(requests: &'a [(JsonStr<'a>, InputRequest<'a>)], state: Option<JsonStr<'a>>) -> Self {
        Self {
            result_type: ResultType::InputRequired,
            input_requests: Some(Map::from_pairs(requests)),
            request_state: state,
            meta: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_required_from_the_schema_example() {
        // schema/2026-07-28/examples/InputRequiredResult/input-required-result-with-elicitation-and-sampling-and-request-state.json
        let r: InputRequiredResult<'_> = RawJson::parse(
            br#"{"resultType":"input_required","inputRequests":{
                "github_login":{"method":"elicitation/create","params":{"mode":"form","message":"Please provide your GitHub username",
                  "requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}},
                "capital_of_france":{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"What is the capital of France?"}}],"maxTokens":100}},
                "roots":{"method":"roots/list"},
                "future":{"method":"x/y","params":{}}},
                "requestState":"eyJsb2dpbiI6bnVsbH0"}"#,
        )
        .unwrap()
        .decode()
        .unwrap();
        let reqs = r.input_requests.unwrap();
        assert!(matches!(reqs.get("github_login").unwrap().unwrap(), InputRequest::Elicit(_)));
        let InputRequest::CreateMessage(m) = reqs.get("capital_of_france").unwrap().unwrap() else { panic!() };
        assert_eq!(m.max_tokens, 100);
        assert!(matches!(reqs.get("roots").unwrap().unwrap(), InputRequest::ListRoots(_)));
        assert!(matches!(reqs.get("future").unwrap().unwrap(), InputRequest::Other(_)));
        assert_eq!(r.request_state.unwrap(), "eyJsb2dpbiI6bnVsbH0");
        let text = serde_json::to_string(&r).unwrap();
        let back: InputRequiredResult<'_> = RawJson::parse(text.as_bytes()).unwrap().decode().unwrap();
        assert_eq!(back, r);
    }
}
