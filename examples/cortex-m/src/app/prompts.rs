//! One prompt: `diagnose`, with an optional `symptom`.
//!
//! The list is a static JSON text, the params are read with `Lazy`, and the answer is a
//! text-only shape, so no `Prompt` serializer and no encoder for other content blocks (or
//! for `_meta`) is linked. `typed-lists` and `typed-params`/`typed-results` put
//! the general types back (README.md, "Size").

use mcp_sansio::mcp::GetPromptParams;
#[cfg(not(feature = "typed-params"))]
use mcp_sansio::mcp::Lazy;
#[cfg(feature = "typed-results")]
use mcp_sansio::mcp::MessageRole;
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
    // The limit is on the symptom as the client wrote it, escapes included, as the
    // receive buffer's is on the whole line.
    if symptom.is_some_and(|s| s.raw().len() > MAX_SYMPTOM) {
        let _ = req.respond_error(ErrorCode::INVALID_PARAMS, "Invalid arguments: symptom is too long");
        return;
    }
    #[cfg(feature = "typed-results")]
    {
        let mut scratch = [0u8; MAX_SYMPTOM];
        let symptom = match symptom.map(|s| s.to_str(&mut scratch)) {
            Some(Ok(s)) => Some(s),
            Some(Err(_)) => {
                let _ = req.respond_error(ErrorCode::INVALID_PARAMS, "Invalid arguments: symptom is too long");
                return;
            }
            None => None,
        };
        let mut text = Text::<{ INTRO.len() + SHOWS.len() + ASK.len() + MAX_SYMPTOM }>::new();
        text.push_str(INTRO);
        if let Some(s) = symptom {
            text.push_str(SHOWS).push_str(s);
        }
        text.push_str(ASK);
        answer_text(req, text.as_str());
    }
    #[cfg(not(feature = "typed-results"))]
    {
        // The symptom goes into the answer as it came, escapes and all: it is already a
        // valid JSON string body (the scanner checked it), so it needs neither
        // unescaping nor escaping again.
        let symptom = symptom.map(|s| core::str::from_utf8(s.raw()).unwrap_or_default());
        // The bytes `GetPromptResult` writes for one user message of text, with room for
        // the longest symptom.
        const OPEN: &str =
            r#"{"description":"Device check","messages":[{"role":"user","content":{"type":"text","text":""#;
        const CLOSE: &str = r#""}}]}"#;
        const ROOM: usize = OPEN.len() + INTRO.len() + SHOWS.len() + ASK.len() + CLOSE.len() + MAX_SYMPTOM;
        let mut json = Text::<ROOM>::new();
        json.push_str(OPEN);
        json.push_str(INTRO);
        if let Some(s) = symptom {
            json.push_str(SHOWS).push_str(s);
        }
        json.push_str(ASK).push_str(CLOSE);
        crate::endpoint::answer_json(req, json.as_str(), !json.overflowed());
    }
}

/// The prompt's text, around the symptom (none of it needs escaping in JSON).
const INTRO: &str = "Diagnose the device";
const SHOWS: &str = ", which shows: ";
const ASK: &str = ". Read sensor://temperature and device://info, call stats, and say what to check next.";
/// The longest symptom taken, in bytes as received (escapes included: 288 ASCII
/// characters, or 48 `é` as Python's `json.dumps` writes them, each a six-byte `\u00e9`;
/// the unescaped text is never longer). The whole request must fit the 512-byte receive
/// buffer anyway.
const MAX_SYMPTOM: usize = 288;

/// The `prompts/get` result: one user message with `text`.
#[cfg(feature = "typed-results")]
fn answer_text(req: &mut IncomingRequest<'_>, text: &str) {
    use mcp_sansio::mcp::{ContentBlock, GetPromptResult, PromptMessage};
    let messages = [PromptMessage { role: MessageRole::User, content: ContentBlock::text(text) }];
    let result =
        GetPromptResult { description: Some(JsonStr::from_text("Device check")), ..GetPromptResult::new(&messages) };
    answer(req, &result);
}
