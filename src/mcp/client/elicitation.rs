//! Elicitation: `elicitation/create` (2025-06-18 on; URL mode 2025-11-25 on) and
//! `notifications/elicitation/complete` (2025-11-25).

use serde::Deserialize;
use serde::de::{Deserializer, Error as _};
use serde::{Serialize, Serializer};

use crate::mcp::basic::ResultType;
use crate::mcp::basic::meta::Meta;
use crate::mcp::basic::tasks::TaskMetadata;
use crate::wire::{JsonStr, RawJson};

/// Form mode: ask the user to fill in fields described by a restricted JSON Schema.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct ElicitFormParams<'a> {
    /// `mode: "form"` (2025-11-25 on; optional: absent also means form).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<FormMode>,
    /// What to tell the user.
    #[serde(borrow)]
    pub message: JsonStr<'a>,
    /// The form: a flat object schema of primitive properties, kept raw.
    #[serde(borrow, deserialize_with = "crate::mcp::seq::object")]
    pub requested_schema: RawJson<'a>,
    /// Run as a task (2025-11-25).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<TaskMetadata>,
    /// `_meta`
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

/// The value of `mode` in form params.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum FormMode {
    /// `"form"`
    #[serde(rename = "form")]
    Form,
}

/// URL mode: send the user to a URL (2025-11-25 on). Written with `mode: "url"`.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(tag = "mode", rename = "url", rename_all = "camelCase")]
pub struct ElicitUrlParams<'a> {
    /// What to tell the user.
    #[serde(borrow)]
    pub message: JsonStr<'a>,
    /// Id that `notifications/elicitation/complete` refers to (2025-11-25; not in
    /// 2026-07-28).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub elicitation_id: Option<JsonStr<'a>>,
    /// Where to send the user.
    #[serde(borrow)]
    pub url: JsonStr<'a>,
    /// Run as a task (2025-11-25).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<TaskMetadata>,
    /// `_meta`
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

/// `elicitation/create` params, by `mode` (absent means form).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ElicitParams<'a> {
    /// `mode: "form"` or no `mode`.
    Form(ElicitFormParams<'a>),
    /// `mode: "url"`.
    Url(ElicitUrlParams<'a>),
}

impl<'de: 'a, 'a> Deserialize<'de> for ElicitParams<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = crate::mcp::seq::object(d)?;
        match raw.get("mode").map(|m| m.as_str()) {
            None => raw.decode().map(Self::Form).map_err(D::Error::custom),
            Some(Some(m)) if m.eq_str("form") => raw.decode().map(Self::Form).map_err(D::Error::custom),
            Some(Some(m)) if m.eq_str("url") => raw.decode().map(Self::Url).map_err(D::Error::custom),
            _ => Err(D::Error::unknown_variant("", &["form", "url"])),
        }
    }
}

impl Serialize for ElicitParams<'_> {
    /// Form params are written with `mode` only when it is set (versions before
    /// 2025-11-25 have no `mode`); URL params always with `mode: "url"`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Form(p) => p.serialize(s),
            Self::Url(p) => p.serialize(s),
        }
    }
}

/// `ElicitResult.action`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "lowercase")]
pub enum ElicitAction {
    /// The user submitted (form) or consented (URL).
    Accept,
    /// The user said no.
    Decline,
    /// The user dismissed it.
    Cancel,
}

/// `elicitation/create` result.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct ElicitResult<'a> {
    /// What the user did.
    pub action: ElicitAction,
    /// The submitted form (accept, form mode), kept raw.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub content: Option<RawJson<'a>>,
    /// `resultType` (not part of the 2026-07-28 input response shape; kept if sent).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType<'a>>,
    /// `_meta`
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

/// `notifications/elicitation/complete` params (2025-11-25).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct ElicitationCompleteParams<'a> {
    /// The URL elicitation that finished.
    #[serde(borrow)]
    pub elicitation_id: JsonStr<'a>,
    /// `_meta`
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes() {
        // schema/2026-07-28/examples/ElicitRequestFormParams/elicit-single-field.json
        let p: ElicitParams<'_> = RawJson::parse(
            br#"{"mode":"form","message":"Please provide your GitHub username","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}"#,
        )
        .unwrap()
        .decode()
        .unwrap();
        assert!(matches!(p, ElicitParams::Form(f) if f.requested_schema.get("required").is_some()));
        let p: ElicitParams<'_> =
            RawJson::parse(br#"{"message":"m","requestedSchema":{"type":"object","properties":{}}}"#)
                .unwrap()
                .decode()
                .unwrap();
        assert!(matches!(p, ElicitParams::Form(_)));
        let text = br#"{"mode":"url","elicitationId":"550e8400-e29b-41d4-a716-446655440000","url":"https://mcp.example.com/ui/set_api_key","message":"Please provide your API key to continue."}"#;
        let p: ElicitParams<'_> = RawJson::parse(text).unwrap().decode().unwrap();
        let ElicitParams::Url(u) = p else { panic!() };
        assert_eq!(u.elicitation_id.unwrap(), "550e8400-e29b-41d4-a716-446655440000");
        let out = serde_json::to_string(&p).unwrap();
        assert!(out.starts_with(r#"{"mode":"url","message":"Please provide"#), "{out}");
        assert!(RawJson::parse(br#"{"mode":"voice","message":"m"}"#).unwrap().decode::<ElicitParams<'_>>().is_err());
        let r: ElicitResult<'_> =
            RawJson::parse(br#"{"action":"accept","content":{"name":"octocat"}}"#).unwrap().decode().unwrap();
        assert_eq!(r.action, ElicitAction::Accept);
        assert_eq!(r.content.unwrap().get("name").unwrap().as_str().unwrap(), "octocat");
    }
}
