//! Multi round-trip requests (2026-07-28): a server answers `tools/call`, `prompts/get`
//! or `resources/read` with an [`InputRequiredResult`]; the client fulfils the input
//! requests and retries with `inputResponses` and `requestState`.

use serde::Deserialize;
use serde::de::{Deserializer, Error as _};
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use super::meta::Meta;
use super::{EmptyParams, ResultType};
use crate::mcp::client::elicitation::{ElicitParams, ElicitResult};
use crate::mcp::client::roots::ListRootsResult;
use crate::mcp::client::sampling::{CreateMessageParams, CreateMessageResult};
use crate::mcp::seq::Map;
use crate::mcp::{Capability, CapabilitySet};
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

/// Why an input request may not be put in an [`InputRequiredResult`] for this client.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum InputRequestError {
    /// The client did not declare this capability for the request (the specification:
    /// a server MUST NOT ask for it).
    NotDeclared(Capability),
    /// Not an `elicitation/create`, `sampling/createMessage` or `roots/list` request.
    NotAnInputRequest,
}

impl InputRequest<'_> {
    /// The client capability this input request needs: `elicitation.form` or
    /// `elicitation.url` by mode, `sampling` (`sampling.tools` when it offers tools),
    /// `roots`.
    pub fn needs(&self) -> Option<Capability> {
        Some(match self {
            Self::Elicit(ElicitParams::Form(_)) => Capability::ElicitationForm,
            Self::Elicit(ElicitParams::Url(_)) => Capability::ElicitationUrl,
            Self::CreateMessage(p) if p.tools.is_some() => Capability::SamplingTools,
            Self::CreateMessage(_) => Capability::Sampling,
            Self::ListRoots(_) => Capability::Roots,
            Self::Other(_) => return None,
        })
    }
}

impl<'a> InputRequiredResult<'a> {
    /// A result asking for `requests`, refused if one of them needs a capability the
    /// client did not declare (`declared`: the request's client capability flags, as
    /// [`ModernRequest::client_capabilities`](crate::session::ModernRequest) gives them).
    pub fn for_client(
        declared: CapabilitySet,
        requests: &'a [(JsonStr<'a>, InputRequest<'a>)],
        state: Option<JsonStr<'a>>,
    ) -> Result<Self, InputRequestError> {
        for (_, request) in requests {
            let needs = request.needs().ok_or(InputRequestError::NotAnInputRequest)?;
            if !declared.contains(needs) {
                return Err(InputRequestError::NotDeclared(needs));
            }
        }
        Ok(Self::new(requests, state))
    }
}

/// What a server asked for under one `inputRequests` key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum InputKind {
    /// `elicitation/create`: answered with an `ElicitResult`.
    Elicitation,
    /// `sampling/createMessage`: answered with a `CreateMessageResult`.
    Sampling,
    /// `roots/list`: answered with a `ListRootsResult`.
    Roots,
}

/// One answer of a retry's `inputResponses`, decoded by what was asked under its key.
///
/// A borrowed view that lives on the stack while a retry is checked: the variants'
/// sizes differ (a sampling result is the largest), and boxing is not an option in a
/// core without an allocator.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum InputResponse<'a> {
    /// The answer to an elicitation.
    Elicit(ElicitResult<'a>),
    /// The answer to a sampling request.
    Sampling(CreateMessageResult<'a>),
    /// The client's roots.
    Roots(ListRootsResult<'a>),
}

/// Why a retry's `inputResponses` do not answer what the server asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum InputResponsesError<'k> {
    /// The key was not answered (or the request carried no `inputResponses` at all):
    /// ask again with a new `input_required` result, as the specification suggests.
    Missing(&'k str),
    /// The answer under this key has the wrong shape: a protocol error (-32602).
    Invalid(&'k str),
    /// `inputResponses` is not an object: a protocol error (-32602).
    NotAnObject,
}

impl InputResponsesError<'_> {
    /// The JSON-RPC error code for the errors that are protocol errors (`None` for
    /// [`Missing`](Self::Missing), which asks again instead).
    pub const fn code(&self) -> Option<crate::wire::ErrorCode> {
        match self {
            Self::Missing(_) => None,
            Self::Invalid(_) | Self::NotAnObject => Some(crate::wire::ErrorCode::INVALID_PARAMS),
        }
    }
}

/// A retry's `inputResponses`, checked against what was asked: every key answered with
/// the right shape. Keys the server did not ask for are ignored, as the specification
/// asks.
#[derive(Clone, Copy, Debug)]
pub struct InputAnswers<'a, 'k> {
    responses: RawJson<'a>,
    asked: &'k [(&'k str, InputKind)],
}

impl<'a, 'k> InputAnswers<'a, 'k> {
    /// Checks `responses` (the retry's `params.inputResponses`, `None` if absent) against
    /// `asked`.
    pub fn check(
        responses: Option<RawJson<'a>>,
        asked: &'k [(&'k str, InputKind)],
    ) -> Result<Self, InputResponsesError<'k>> {
        let Some(responses) = responses else {
            return match asked.first() {
                Some((key, _)) => Err(InputResponsesError::Missing(key)),
                None => Ok(Self { responses: RawJson::EMPTY_OBJECT, asked }),
            };
        };
        if !responses.is_object() {
            return Err(InputResponsesError::NotAnObject);
        }
        let answers = Self { responses, asked };
        for (key, _) in asked {
            match answers.decode(key) {
                None => return Err(InputResponsesError::Missing(key)),
                Some(Err(())) => return Err(InputResponsesError::Invalid(key)),
                Some(Ok(_)) => {}
            }
        }
        Ok(answers)
    }

    fn decode(&self, key: &str) -> Option<Result<InputResponse<'a>, ()>> {
        let (_, kind) = self.asked.iter().find(|(k, _)| *k == key)?;
        let value = self.responses.get(key)?;
        Some(match kind {
            InputKind::Elicitation => value.decode().map(InputResponse::Elicit).map_err(|_| ()),
            InputKind::Sampling => value.decode().map(InputResponse::Sampling).map_err(|_| ()),
            InputKind::Roots => value.decode().map(InputResponse::Roots).map_err(|_| ()),
        })
    }

    /// The answer under `key` (one of the keys asked).
    pub fn get(&self, key: &str) -> Option<InputResponse<'a>> {
        self.decode(key)?.ok()
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

    #[test]
    fn a_retry_answers_every_key_with_the_right_shape() {
        let asked =
            [("user_name", InputKind::Elicitation), ("capital", InputKind::Sampling), ("roots", InputKind::Roots)];
        let responses = RawJson::parse(
            br#"{"user_name":{"action":"accept","content":{"name":"Alice"}},
                "capital":{"role":"assistant","content":{"type":"text","text":"Paris"},"model":"m"},
                "roots":{"roots":[{"uri":"file:///r"}]},"extra":12345}"#,
        )
        .unwrap();
        let answers = InputAnswers::check(Some(responses), &asked).unwrap();
        assert!(matches!(answers.get("user_name"), Some(InputResponse::Elicit(_))));
        assert!(matches!(answers.get("roots"), Some(InputResponse::Roots(r)) if r.roots.len() == 1));
        assert_eq!(answers.get("extra"), None);
        assert_eq!(InputAnswers::check(None, &asked).unwrap_err(), InputResponsesError::Missing("user_name"));
        let wrong = RawJson::parse(br#"{"user_name":12345}"#).unwrap();
        assert_eq!(
            InputAnswers::check(Some(wrong), &asked[..1]).unwrap_err(),
            InputResponsesError::Invalid("user_name")
        );
        let other_key = RawJson::parse(br#"{"wrong_key":{"action":"accept"}}"#).unwrap();
        assert_eq!(
            InputAnswers::check(Some(other_key), &asked[..1]).unwrap_err(),
            InputResponsesError::Missing("user_name")
        );
        let null = RawJson::parse(b"null").unwrap();
        assert_eq!(InputAnswers::check(Some(null), &asked).unwrap_err(), InputResponsesError::NotAnObject);
    }

    #[test]
    fn no_input_request_for_an_undeclared_capability() {
        let roots = [(JsonStr::from_text("r"), InputRequest::ListRoots(EmptyParams::default()))];
        assert_eq!(
            InputRequiredResult::for_client(CapabilitySet::EMPTY, &roots, None),
            Err(InputRequestError::NotDeclared(Capability::Roots))
        );
        assert!(InputRequiredResult::for_client(CapabilitySet::of(&[Capability::Roots]), &roots, None).is_ok());
    }
}
