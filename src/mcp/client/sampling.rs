//! Sampling: `sampling/createMessage`.

use core::fmt;

use serde::Deserialize;
use serde::de::Deserializer;
use serde::{Serialize, Serializer};

use crate::mcp::basic::ResultType;
use crate::mcp::basic::meta::Meta;
use crate::mcp::basic::tasks::TaskMetadata;
use crate::mcp::content::{MessageRole, OneOrMany};
use crate::mcp::seq::Items;
use crate::mcp::server::tools::Tool;
use crate::wire::{JsonStr, RawJson};

/// A message of a sampling conversation.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SamplingMessage<'a> {
    /// Who says it.
    pub role: MessageRole,
    /// One block, or (2025-11-25 on) several. Text, image, audio (2025-03-26 on), tool
    /// use and tool result (2025-11-25 on).
    #[serde(borrow)]
    pub content: OneOrMany<'a>,
    /// `_meta` (2025-11-25 on).
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

/// A model name hint.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ModelHint<'a> {
    /// A full or partial model name.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub name: Option<JsonStr<'a>>,
}

/// What the server would like in a model.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct ModelPreferences<'a> {
    /// Model name hints, in order of preference.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub hints: Option<Items<'a, ModelHint<'a>>>,
    /// 0–1: how much low cost matters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_priority: Option<f64>,
    /// 0–1: how much speed matters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed_priority: Option<f64>,
    /// 0–1: how much capability matters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intelligence_priority: Option<f64>,
}

/// `includeContext` (values other than `none` are soft-deprecated from 2025-11-25).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub enum IncludeContext {
    /// `none`
    None,
    /// `thisServer`
    ThisServer,
    /// `allServers`
    AllServers,
}

/// `toolChoice.mode` (2025-11-25 on).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "lowercase")]
pub enum ToolChoiceMode {
    /// The model decides.
    Auto,
    /// The model must call a tool.
    Required,
    /// The model must not call a tool.
    None,
}

/// `toolChoice` (2025-11-25 on).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ToolChoice {
    /// How tools are used; absent means auto.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<ToolChoiceMode>,
}

/// `sampling/createMessage` params.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct CreateMessageParams<'a> {
    /// The conversation.
    #[serde(borrow)]
    pub messages: Items<'a, SamplingMessage<'a>>,
    /// Model preferences.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub model_preferences: Option<ModelPreferences<'a>>,
    /// A system prompt.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub system_prompt: Option<JsonStr<'a>>,
    /// Which servers' context to include.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_context: Option<IncludeContext>,
    /// Sampling temperature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    /// Most tokens to generate.
    pub max_tokens: u64,
    /// Stop sequences.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub stop_sequences: Option<Items<'a, JsonStr<'a>>>,
    /// Provider-specific metadata (an object), kept raw.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<RawJson<'a>>,
    /// Tools the model may call (2025-11-25 on).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<Items<'a, Tool<'a>>>,
    /// How tools are used (2025-11-25 on).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_choice: Option<ToolChoice>,
    /// Run as a task (2025-11-25).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<TaskMetadata>,
    /// `_meta`
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

impl<'a> CreateMessageParams<'a> {
    /// Sample at most `max_tokens` continuing `messages`.
    pub const fn new(messages: &'a [SamplingMessage<'a>], max_tokens: u64) -> Self {
        Self {
            messages: Items::from_slice(messages),
            model_preferences: None,
            system_prompt: None,
            include_context: None,
            temperature: None,
            max_tokens,
            stop_sequences: None,
            metadata: None,
            tools: None,
            tool_choice: None,
            task: None,
            meta: None,
        }
    }
}

/// Why sampling stopped: a known reason or any other string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum StopReason<'a> {
    /// `endTurn`
    EndTurn,
    /// `stopSequence`
    StopSequence,
    /// `maxTokens`
    MaxTokens,
    /// `toolUse` (2025-11-25 on)
    ToolUse,
    /// Another reason.
    Other(JsonStr<'a>),
}

impl<'a> StopReason<'a> {
    /// The reason on the wire.
    pub fn as_json(&self) -> JsonStr<'a> {
        JsonStr::from_text(match self {
            Self::EndTurn => "endTurn",
            Self::StopSequence => "stopSequence",
            Self::MaxTokens => "maxTokens",
            Self::ToolUse => "toolUse",
            Self::Other(s) => return *s,
        })
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for StopReason<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = JsonStr::deserialize(d)?;
        Ok(match () {
            _ if s.eq_str("endTurn") => Self::EndTurn,
            _ if s.eq_str("stopSequence") => Self::StopSequence,
            _ if s.eq_str("maxTokens") => Self::MaxTokens,
            _ if s.eq_str("toolUse") => Self::ToolUse,
            _ => Self::Other(s),
        })
    }
}

impl Serialize for StopReason<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.as_json().serialize(s)
    }
}

impl fmt::Display for StopReason<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.as_json(), f)
    }
}

/// `sampling/createMessage` result.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct CreateMessageResult<'a> {
    /// Who says it (the assistant).
    pub role: MessageRole,
    /// What the model produced: one block or (2025-11-25 on) several.
    #[serde(borrow)]
    pub content: OneOrMany<'a>,
    /// The model used.
    #[serde(borrow)]
    pub model: JsonStr<'a>,
    /// Why it stopped.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<StopReason<'a>>,
    /// `resultType` (not part of the 2026-07-28 input response shape; kept if sent).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType<'a>>,
    /// `_meta`
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::content::ContentBlock;

    #[test]
    fn sampling_with_tools_from_the_schema_examples() {
        // schema/2026-07-28/examples/CreateMessageRequestParams/request-with-tools.json
        let p: CreateMessageParams<'_> = RawJson::parse(
            br#"{"messages":[{"role":"user","content":{"type":"text","text":"What's the weather like in Paris and London?"}}],
                "tools":[{"name":"get_weather","description":"Get current weather for a city","inputSchema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}],
                "toolChoice":{"mode":"auto"},"maxTokens":1000,"modelPreferences":{"hints":[{"name":"claude-3-sonnet"}],"intelligencePriority":0.8,"speedPriority":0.5},
                "includeContext":"thisServer","stopSequences":["\n\n"]}"#,
        )
        .unwrap()
        .decode()
        .unwrap();
        assert_eq!(p.max_tokens, 1000);
        assert_eq!(p.tool_choice.unwrap().mode, Some(ToolChoiceMode::Auto));
        assert_eq!(p.tools.unwrap().get(0).unwrap().unwrap().name, "get_weather");
        assert_eq!(p.include_context, Some(IncludeContext::ThisServer));
        assert_eq!(
            p.model_preferences.unwrap().hints.unwrap().get(0).unwrap().unwrap().name.unwrap(),
            "claude-3-sonnet"
        );
        // schema/2026-07-28/examples/CreateMessageResult/tool-use-response.json
        let r: CreateMessageResult<'_> = RawJson::parse(
            br#"{"role":"assistant","content":[{"type":"tool_use","id":"call_abc123","name":"get_weather","input":{"city":"Paris"}},
                {"type":"tool_use","id":"call_def456","name":"get_weather","input":{"city":"London"}}],"model":"claude-3-sonnet-20240307","stopReason":"toolUse"}"#,
        )
        .unwrap()
        .decode()
        .unwrap();
        assert_eq!(r.stop_reason, Some(StopReason::ToolUse));
        assert!(r.content.iter().all(|b| matches!(b, Ok(ContentBlock::ToolUse(_)))));
        let other: StopReason<'_> = RawJson::parse(br#""refusal""#).unwrap().decode().unwrap();
        assert_eq!(other, StopReason::Other("refusal".into()));
    }
}
