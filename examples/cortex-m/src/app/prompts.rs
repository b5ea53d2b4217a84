//! One prompt: `diagnose`, with an optional `symptom`.

use mcp_sansio::mcp::{
    ContentBlock, GetPromptParams, GetPromptResult, ListPromptsResult, MessageRole, Prompt, PromptArgument,
    PromptMessage,
};
use mcp_sansio::session::IncomingRequest;
use mcp_sansio::wire::{ErrorCode, JsonStr};

use crate::endpoint::answer;
use crate::text::Text;

static ARGUMENTS: [PromptArgument<'static>; 1] = [PromptArgument::new("symptom", false)];

static PROMPTS: [Prompt<'static>; 1] = [Prompt {
    description: Some(JsonStr::from_text("Check the device's health")),
    ..Prompt::new("diagnose", &ARGUMENTS)
}];

#[inline(never)]
pub fn list(req: &mut IncomingRequest<'_>) {
    answer(req, &ListPromptsResult::new(&PROMPTS));
}

#[inline(never)]
pub fn get(req: &mut IncomingRequest<'_>) {
    let Some(p) = req.params.and_then(|p| p.decode::<GetPromptParams<'_>>().ok()) else {
        let _ = req.respond_error(ErrorCode::INVALID_PARAMS, "Invalid params: a prompt name is required");
        return;
    };
    if !p.name.eq_str("diagnose") {
        let _ = req.respond_error(ErrorCode::INVALID_PARAMS, "Prompt not found");
        return;
    }
    let mut scratch = [0u8; 96];
    let symptom = p.arguments.and_then(|a| a.get("symptom")).and_then(Result::ok);
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
    let messages = [PromptMessage { role: MessageRole::User, content: ContentBlock::text(text.as_str()) }];
    let result =
        GetPromptResult { description: Some(JsonStr::from_text("Device check")), ..GetPromptResult::new(&messages) };
    answer(req, &result);
}
