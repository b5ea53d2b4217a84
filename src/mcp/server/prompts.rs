//! Prompts: `prompts/list` and `prompts/get`.

use serde::{Deserialize, Serialize};

use super::pagination::{ListResult, Listed};
use crate::mcp::basic::ResultType;
use crate::mcp::basic::lifecycle::Icon;
use crate::mcp::basic::meta::Meta;
use crate::mcp::content::{ContentBlock, MessageRole};
use crate::mcp::seq::{Items, Map};
use crate::wire::{JsonStr, RawJson};

/// An argument a prompt accepts.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct PromptArgument<'a> {
    /// Programmatic name.
    #[serde(borrow)]
    pub name: JsonStr<'a>,
    /// Display name (2025-06-18 on).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub title: Option<JsonStr<'a>>,
    /// Description.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub description: Option<JsonStr<'a>>,
    /// Whether it must be given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<bool>,
}

impl<'a> PromptArgument<'a> {
    /// An argument called `name`.
    pub const fn new(name: &'a str, required: bool) -> Self {
        Self { name: JsonStr::from_text(name), title: None, description: None, required: Some(required) }
    }

    /// With a description.
    pub const fn with_description(mut self, description: &'a str) -> Self {
        self.description = Some(JsonStr::from_text(description));
        self
    }

    /// With a display title.
    pub const fn with_title(mut self, title: &'a str) -> Self {
        self.title = Some(JsonStr::from_text(title));
        self
    }
}

/// A prompt or prompt template the server offers.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Prompt<'a> {
    /// Programmatic name.
    #[serde(borrow)]
    pub name: JsonStr<'a>,
    /// Display name (2025-06-18 on).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub title: Option<JsonStr<'a>>,
    /// Description.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub description: Option<JsonStr<'a>>,
    /// The arguments it takes.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Items<'a, PromptArgument<'a>>>,
    /// Icons (2025-11-25 on).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Items<'a, Icon<'a>>>,
    /// `_meta` (2025-06-18 on).
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

impl<'a> Prompt<'a> {
    /// A prompt called `name` taking `arguments`.
    pub const fn new(name: &'a str, arguments: &'a [PromptArgument<'a>]) -> Self {
        Self {
            name: JsonStr::from_text(name),
            title: None,
            description: None,
            arguments: Some(Items::from_slice(arguments)),
            icons: None,
            meta: None,
        }
    }

    /// With a description.
    ///
    /// ```
    /// use mcp_sansio::mcp::{Prompt, PromptArgument};
    /// const ARGS: [PromptArgument<'static>; 1] = [PromptArgument::new("city", true).with_description("Where")];
    /// const PROMPT: Prompt<'static> = Prompt::new("forecast", &ARGS).with_description("Plan the week").with_title("Forecast");
    /// assert_eq!(
    ///     serde_json::to_string(&PROMPT).unwrap(),
    ///     r#"{"name":"forecast","title":"Forecast","description":"Plan the week","arguments":[{"name":"city","description":"Where","required":true}]}"#
    /// );
    /// ```
    pub const fn with_description(mut self, description: &'a str) -> Self {
        self.description = Some(JsonStr::from_text(description));
        self
    }

    /// With a display title.
    pub const fn with_title(mut self, title: &'a str) -> Self {
        self.title = Some(JsonStr::from_text(title));
        self
    }
}

/// A message of a prompt.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct PromptMessage<'a> {
    /// Who says it.
    pub role: MessageRole,
    /// What is said (text, image, embedded resource; audio from 2025-03-26, resource
    /// links from 2025-06-18).
    #[serde(borrow)]
    pub content: ContentBlock<'a>,
}

/// `prompts/list` result.
pub type ListPromptsResult<'a> = ListResult<'a, Prompt<'a>>;

impl Listed for Prompt<'_> {
    const FIELD: &'static str = "prompts";
}

/// `prompts/get` params.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct GetPromptParams<'a> {
    /// The prompt's name.
    #[serde(borrow)]
    pub name: JsonStr<'a>,
    /// Argument values, by name.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Map<'a, JsonStr<'a>>>,
    /// Answers to the server's input requests, by key (2026-07-28 retry).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub input_responses: Option<Map<'a, RawJson<'a>>>,
    /// The server's `requestState`, echoed (2026-07-28 retry).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub request_state: Option<JsonStr<'a>>,
    /// `_meta`
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

/// `prompts/get` result.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct GetPromptResult<'a> {
    /// Description of the prompt.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub description: Option<JsonStr<'a>>,
    /// The messages.
    #[serde(borrow)]
    pub messages: Items<'a, PromptMessage<'a>>,
    /// `resultType` (2026-07-28, required there).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType<'a>>,
    /// `_meta`
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

impl<'a> GetPromptResult<'a> {
    /// A result of `messages`.
    pub const fn new(messages: &'a [PromptMessage<'a>]) -> Self {
        Self { description: None, messages: Items::from_slice(messages), result_type: None, meta: None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn get_prompt_from_the_schema_examples() {
        let p: GetPromptParams<'_> =
            RawJson::parse(br#"{"name":"code_review","arguments":{"code":"def hello():\n    print('world')"}}"#)
                .unwrap()
                .decode()
                .unwrap();
        assert_eq!(p.arguments.unwrap().get("code").unwrap().unwrap(), "def hello():\n    print('world')");
        let r: GetPromptResult<'_> = RawJson::parse(
            br#"{"description":"Code review prompt","messages":[{"role":"user","content":{"type":"text","text":"Please review this Python code:\ndef hello():\n    print('world')"}}]}"#,
        )
        .unwrap()
        .decode()
        .unwrap();
        let m = r.messages.get(0).unwrap().unwrap();
        assert_eq!(m.role, MessageRole::User);
        assert!(
            m.content.as_text().unwrap().eq_str("Please review this Python code:\ndef hello():\n    print('world')")
        );
    }
}
