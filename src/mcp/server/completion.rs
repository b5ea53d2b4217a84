//! Completion: `completion/complete`.

use serde::Deserialize;
use serde::de::{Deserializer, Error as _};
use serde::{Serialize, Serializer};

use crate::mcp::basic::ResultType;
use crate::mcp::basic::meta::Meta;
use crate::mcp::seq::{Items, Map};
use crate::wire::JsonStr;

/// `{"type":"ref/prompt"}`: completing a prompt's argument.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(tag = "type", rename = "ref/prompt")]
pub struct PromptReference<'a> {
    /// The prompt's name.
    #[serde(borrow)]
    pub name: JsonStr<'a>,
    /// Display name (2025-06-18 on).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub title: Option<JsonStr<'a>>,
}

/// `{"type":"ref/resource"}`: completing a resource template's variable.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(tag = "type", rename = "ref/resource")]
pub struct ResourceTemplateReference<'a> {
    /// The template (or URI).
    #[serde(borrow)]
    pub uri: JsonStr<'a>,
}

/// What is being completed, by its `type`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum CompletionReference<'a> {
    /// `ref/prompt`
    Prompt(PromptReference<'a>),
    /// `ref/resource`
    Resource(ResourceTemplateReference<'a>),
}

impl<'de: 'a, 'a> Deserialize<'de> for CompletionReference<'a> {
    /// Reads `type`, then decodes that variant; another `type` is an error.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = crate::mcp::seq::object(d)?;
        let tag = raw.get("type").and_then(|t| t.as_str()).ok_or_else(|| D::Error::missing_field("type"))?;
        if tag.eq_str("ref/prompt") {
            raw.decode().map(Self::Prompt).map_err(D::Error::custom)
        } else if tag.eq_str("ref/resource") {
            raw.decode().map(Self::Resource).map_err(D::Error::custom)
        } else {
            Err(D::Error::unknown_variant("", &["ref/prompt", "ref/resource"]))
        }
    }
}

impl Serialize for CompletionReference<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Prompt(p) => p.serialize(s),
            Self::Resource(r) => r.serialize(s),
        }
    }
}

/// `CompleteRequestParams.argument`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct CompletionArgument<'a> {
    /// The argument's name.
    #[serde(borrow)]
    pub name: JsonStr<'a>,
    /// What has been typed so far.
    #[serde(borrow)]
    pub value: JsonStr<'a>,
}

/// `CompleteRequestParams.context` (2025-06-18 on).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct CompletionContext<'a> {
    /// Arguments already resolved, by name.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Map<'a, JsonStr<'a>>>,
}

/// `completion/complete` params.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct CompleteParams<'a> {
    /// What is being completed.
    #[serde(borrow, rename = "ref")]
    pub reference: CompletionReference<'a>,
    /// The argument being completed.
    #[serde(borrow)]
    pub argument: CompletionArgument<'a>,
    /// Context (2025-06-18 on).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub context: Option<CompletionContext<'a>>,
    /// `_meta`
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

/// `CompleteResult.completion`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct Completion<'a> {
    /// Suggestions, at most 100.
    #[serde(borrow)]
    pub values: Items<'a, JsonStr<'a>>,
    /// How many there are in all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
    /// Whether there are more than `values`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub has_more: Option<bool>,
}

/// `completion/complete` result.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct CompleteResult<'a> {
    /// The suggestions.
    #[serde(borrow)]
    pub completion: Completion<'a>,
    /// `resultType` (2026-07-28, required there).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType<'a>>,
    /// `_meta`
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

impl<'a> CompleteResult<'a> {
    /// The suggestions `values`, all there are.
    pub const fn new(values: &'a [JsonStr<'a>]) -> Self {
        Self {
            completion: Completion { values: Items::from_slice(values), total: None, has_more: None },
            result_type: None,
            meta: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::RawJson;

    #[test]
    fn references_by_type() {
        // schema/2026-07-28/examples/CompleteRequestParams/prompt-argument-completion-with-context.json
        let p: CompleteParams<'_> = RawJson::parse(
            br#"{"ref":{"type":"ref/prompt","name":"code_review"},"argument":{"name":"framework","value":"fla"},"context":{"arguments":{"language":"python"}}}"#,
        )
        .unwrap()
        .decode()
        .unwrap();
        assert!(matches!(p.reference, CompletionReference::Prompt(r) if r.name == "code_review"));
        assert_eq!(p.context.unwrap().arguments.unwrap().get("language").unwrap().unwrap(), "python");
        let r: CompletionReference<'_> =
            RawJson::parse(br#"{"type":"ref/resource","uri":"file:///{path}"}"#).unwrap().decode().unwrap();
        assert_eq!(serde_json::to_string(&r).unwrap(), r#"{"type":"ref/resource","uri":"file:///{path}"}"#);
        assert!(
            RawJson::parse(br#"{"type":"ref/tool","name":"x"}"#).unwrap().decode::<CompletionReference<'_>>().is_err()
        );
    }
}
