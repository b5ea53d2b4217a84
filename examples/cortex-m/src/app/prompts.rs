//! One prompt: `diagnose`, with an optional `symptom`.
//!
//! The list is a static JSON text, the params are read with `Lazy`, and the answer is a
//! text-only shape, so no `Prompt` serializer and no encoder for other content blocks (or
//! for `_meta`) is linked. `typed-lists` and `typed-params`/`typed-results` put
//! the general types back (README.md, "Size").

#[cfg(not(feature = "typed-params"))]
use mcp_sansio::mcp::Lazy;
use mcp_sansio::mcp::{GetPromptParams, MessageRole};
#[cfg(feature = "typed-lists")]
use mcp_sansio::mcp::{ListPromptsResult, Prompt, PromptArgument};
use mcp_sansio::session::IncomingRequest;
use mcp_sansio::wire::{ErrorCode, JsonStr};

use crate::endpoint::answer;
use crate::text::Text;

#[cfg(feature = "typed-lists")]
static ARGUMENTS: [PromptArgument<'static>; 1] = [PromptArgument::new("symptom", false)];

#[cfg(feature = "typed-lists")]
static PROMPTS: [Prompt<'static>; 1] = [Prompt {
    description: Some(JsonStr::from_text("Check the device's health")),
    ..Prompt::new("diagnose", &ARGUMENTS)
}];

/// The `prompts/list` result, written out (the bytes `PROMPTS` serializes to).
#[cfg(not(feature = "typed-lists"))]
pub const PROMPTS_JSON: &str = r#"{"prompts":[{"name":"diagnose","description":"Check the device's health","arguments":[{"name":"symptom","required":false}]}]}"#;

/// The prompt list, checked as JSON when the firmware is built.
#[cfg(not(feature = "typed-lists"))]
static PROMPTS_LIST: mcp_sansio::wire::RawJson<'static> = mcp_sansio::wire::RawJson::from_static(PROMPTS_JSON);

#[inline(never)]
pub fn list(req: &mut IncomingRequest<'_>) {
    #[cfg(feature = "typed-lists")]
    answer(req, &ListPromptsResult::new(&PROMPTS));
    #[cfg(not(feature = "typed-lists"))]
    answer(req, &PROMPTS_LIST);
}

/// The prompt's name and its `symptom` argument, if given.
fn name_and_symptom<'e>(req: &IncomingRequest<'e>) -> Option<(JsonStr<'e>, Option<JsonStr<'e>>)> {
    #[cfg(feature = "typed-params")]
    {
        let p = req.params?.decode::<GetPromptParams<'e>>().ok()?;
        let symptom = match p.arguments.and_then(|a| a.get("symptom")) {
            Some(s) => Some(s.ok()?),
            None => None,
        };
        Some((p.name, symptom))
    }
    #[cfg(not(feature = "typed-params"))]
    {
        let p = Lazy::<GetPromptParams<'e>>::of(req.params);
        Some((p.name().ok()?, p.argument("symptom").ok()?))
    }
}

#[inline(never)]
pub fn get(req: &mut IncomingRequest<'_>) {
    let Some((name, symptom)) = name_and_symptom(req) else {
        let _ = req.respond_error(ErrorCode::INVALID_PARAMS, "Invalid params: a prompt name is required");
        return;
    };
    if !name.eq_str("diagnose") {
        let _ = req.respond_error(ErrorCode::INVALID_PARAMS, "Prompt not found");
        return;
    }
    let mut scratch = [0u8; 96];
    let symptom = match symptom.map(|s| s.to_str(&mut scratch)) {
        Some(Ok(s)) => Some(s),
        Some(Err(_)) => {
            let _ = req.respond_error(ErrorCode::INVALID_PARAMS, "Invalid arguments: symptom is too long");
            return;
        }
        None => None,
    };
    let mut text = Text::<224>::new();
    text.push_str("Diagnose the device");
    if let Some(s) = symptom {
        text.push_str(", which shows: ").push_str(s);
    }
    text.push_str(". Read sensor://temperature and device://info, call stats, and say what to check next.");
    answer_text(req, text.as_str());
}

/// The `prompts/get` result: one user message with `text`.
#[cfg(feature = "typed-results")]
fn answer_text(req: &mut IncomingRequest<'_>, text: &str) {
    use mcp_sansio::mcp::{ContentBlock, GetPromptResult, PromptMessage};
    let messages = [PromptMessage { role: MessageRole::User, content: ContentBlock::text(text) }];
    let result =
        GetPromptResult { description: Some(JsonStr::from_text("Device check")), ..GetPromptResult::new(&messages) };
    answer(req, &result);
}

/// The `prompts/get` result: one user message with `text` (the bytes `GetPromptResult`
/// writes for it).
#[cfg(not(feature = "typed-results"))]
fn answer_text(req: &mut IncomingRequest<'_>, text: &str) {
    /// `{"type":"text","text":…}` (`TextContent` without annotations and `_meta`, whose
    /// encoders this answer does not need).
    #[derive(serde::Serialize)]
    #[serde(tag = "type", rename = "text")]
    struct TextContent<'a> {
        text: &'a str,
    }
    #[derive(serde::Serialize)]
    struct Message<'a> {
        role: MessageRole,
        content: TextContent<'a>,
    }
    #[derive(serde::Serialize)]
    struct Result<'a> {
        description: &'static str,
        messages: [Message<'a>; 1],
    }
    let result = Result {
        description: "Device check",
        messages: [Message { role: MessageRole::User, content: TextContent { text } }],
    };
    answer(req, &result);
}
