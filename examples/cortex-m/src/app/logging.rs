//! Logging: `logging/setLevel`, and `notifications/message` when `blink` starts and ends.

use mcp_sansio::Instant;
#[cfg(feature = "typed-results")]
use mcp_sansio::mcp::{LogData, LoggingMessageParams};
use mcp_sansio::mcp::{LoggingLevel, SetLevelParams};
use mcp_sansio::session::IncomingRequest;
use mcp_sansio::wire::ErrorCode;
#[cfg(feature = "typed-results")]
use mcp_sansio::wire::JsonStr;

use crate::endpoint::{self, Server, answer};
use crate::text::Text;

/// Messages waiting for the next idle moment (an event handler cannot send: the event
/// borrows the endpoint).
const QUEUE: usize = 2;

pub struct Logging {
    /// The least severe level the client wants; `None` until it says (then: info).
    level: Option<LoggingLevel>,
    queue: [Option<(LoggingLevel, Text<40>)>; QUEUE],
}

impl Logging {
    pub const fn new() -> Self {
        Self { level: None, queue: [const { None }; QUEUE] }
    }

    #[inline(never)]
    pub fn set_level(&mut self, req: &mut IncomingRequest<'_>) {
        #[cfg(feature = "typed-params")]
        let level = req.params.and_then(|p| p.decode::<SetLevelParams<'_>>().ok()).map(|p| p.level);
        // Only the level is read (not `_meta`): see `Lazy`.
        #[cfg(not(feature = "typed-params"))]
        let level = mcp_sansio::mcp::Lazy::<SetLevelParams<'_>>::of(req.params).level().ok();
        match level {
            Some(level) => {
                info!("log level set to {=str}", level.as_str());
                self.level = Some(level);
                // `{}` as raw JSON: `EmptyResult`'s serializer brings its `_meta`'s
                // (2.4 KB of flash) for a result that never has one here.
                answer(req, &mcp_sansio::wire::RawJson::EMPTY_OBJECT);
            }
            None => {
                let _ = req.respond_error(ErrorCode::INVALID_PARAMS, "Invalid params: level must be a logging level");
            }
        }
    }

    /// Queues "`what` `n`" at info level, if the client wants info messages (a full queue
    /// drops the newest: these are notices, not answers).
    #[cfg(feature = "blink")]
    pub fn push_blink(&mut self, what: &str, n: u32) {
        if self.level.unwrap_or(LoggingLevel::Info) > LoggingLevel::Info {
            return;
        }
        if let Some(slot) = self.queue.iter_mut().find(|s| s.is_none()) {
            let mut text = Text::new();
            text.push_str(what).push_str(" ").push_u64(n.into());
            *slot = Some((LoggingLevel::Info, text));
        }
    }

    /// Sends what is queued; true if something was.
    #[inline(never)]
    pub fn flush(&mut self, ep: &mut Server, now: Instant) -> bool {
        let mut sent = false;
        for slot in self.queue.iter_mut() {
            let Some((level, text)) = slot else { continue };
            #[cfg(feature = "typed-results")]
            let params = LoggingMessageParams {
                logger: Some(JsonStr::from_text("firmware")),
                data: LogData::Text(JsonStr::from_text(text.as_str())),
                ..LoggingMessageParams::text(*level, "")
            };
            // `notifications/message`'s params with a text message, as JSON: the bytes
            // `LoggingMessageParams` writes for it, through the one `RawJson` serializer
            // (README.md, "Size"; the queued texts and the level names need no escaping).
            // `typed-results` puts the general type back, to measure what it costs.
            #[cfg(not(feature = "typed-results"))]
            let mut json = Text::<96>::new();
            #[cfg(not(feature = "typed-results"))]
            let params = {
                json.push_str(r#"{"level":""#).push_str(level.as_str());
                json.push_str(r#"","logger":"firmware","data":""#).push_str(text.as_str()).push_str(r#""}"#);
                match mcp_sansio::wire::RawJson::parse(json.as_str().as_bytes()) {
                    Ok(raw) if !json.overflowed() => raw,
                    _ => {
                        *slot = None;
                        continue;
                    }
                }
            };
            match endpoint::log_message(ep, now, &params) {
                Err(mcp_sansio::session::SendError::TxFull { .. }) => break,
                _ => {
                    *slot = None;
                    sent = true;
                }
            }
        }
        sent
    }
}
