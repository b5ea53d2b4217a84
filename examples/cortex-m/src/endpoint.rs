//! Everything that meets mcp-sansio's session API: the configuration, the endpoint and
//! its buffers in statics, the drain loop, and answers given after the event that
//! brought the request (the `blink` tool's).
//!
//! Kept in one place so the rest of the firmware only meets `IncomingRequest` through
//! `app`. Late answers go through `PendingRequest` handles, which never answer a newer
//! request that reuses an id.

#[cfg(feature = "blink")]
use mcp_sansio::session::PendingRequest;
#[cfg(feature = "blink")]
use mcp_sansio::session::Responded;
use mcp_sansio::session::{HandshakeServer, SendError};
use mcp_sansio::wire::{ErrorCode, RawJson};
use mcp_sansio::{Config, Endpoint, Instant, Output, Role};
use serde::Serialize;

use crate::app::App;
use crate::hw::uart;

/// Requests of ours in flight at once: this server sends none (no keepalive pings, no
/// sampling), and with an empty table the code for outgoing requests folds away
/// (2.8 KB of flash at opt-level "z").
pub const OUT: usize = 0;
/// Requests of the client's in flight at once: a running `blink` and one more. Without
/// `blink` every request is answered while its event is handled, so one slot is enough
/// (each costs 224 bytes of RAM); requests that arrive meanwhile wait in the receive
/// buffer.
pub const IN: usize = if cfg!(feature = "blink") { 2 } else { 1 };
/// The receive buffer: a whole line must fit. The official SDKs' longest line is their
/// `initialize` (157 bytes from the Python client, 161 from the TypeScript one, as CI
/// runs them); a `tools/call` of `blink` with a progress token is about 145. A client
/// declaring many capabilities sends more, hence twice the crate's 256-byte minimum.
pub const RX_LEN: usize = 512;
/// The transmit buffer: at least the endpoint's floor, the `initialize` result for the
/// longest id (64 digits) plus a 512-byte reserve for the replies it writes itself: 845
/// bytes for the complete build, 804 for the tools-only one (808: the endpoint's static
/// is 8-byte aligned, so 804 would save nothing). The complete build's
/// largest answer, `tools/list`, is 792 bytes; an answer up to the floor always fits when
/// its request is delivered (the endpoint delivers requests only while that much is free).
pub const TX_LEN: usize =
    if cfg!(any(feature = "blink", feature = "resources", feature = "prompts")) { 1024 } else { 808 };

/// The endpoint this firmware runs: built as a server of the handshake era only
/// (`HandshakeServer`), so neither the stateless era's code (2026-07-28: per-request
/// `_meta`, discovery, listen streams, result completion; about 12 KB of flash at
/// opt-level "z") nor the client's side of the handshake is linked. The official clients
/// it serves open with `initialize`; one probing with `server/discover` gets -32601 and
/// falls back to it.
pub type Server = Endpoint<'static, OUT, IN, &'static mut [u8], HandshakeServer>;

const SERVER_INFO: &str = concat!(r#"{"name":"mcp-sansio-cortex-m","version":""#, env!("CARGO_PKG_VERSION"), r#""}"#);

#[cfg(feature = "resources")]
macro_rules! resources_cap {
    () => {
        r#","resources":{}"#
    };
}
#[cfg(not(feature = "resources"))]
macro_rules! resources_cap {
    () => {
        ""
    };
}
#[cfg(feature = "prompts")]
macro_rules! prompts_cap {
    () => {
        r#","prompts":{}"#
    };
}
#[cfg(not(feature = "prompts"))]
macro_rules! prompts_cap {
    () => {
        ""
    };
}
#[cfg(feature = "logging")]
macro_rules! logging_cap {
    () => {
        r#","logging":{}"#
    };
}
#[cfg(not(feature = "logging"))]
macro_rules! logging_cap {
    () => {
        ""
    };
}

/// What this build offers (the endpoint reads its own flags from it, and refuses the
/// methods of anything not declared).
const CAPABILITIES: &str = concat!(r#"{"tools":{}"#, resources_cap!(), prompts_cap!(), logging_cap!(), "}");

/// The server info and capabilities, checked as JSON when the firmware is built.
static SERVER_INFO_JSON: RawJson<'static> = RawJson::from_static(SERVER_INFO);
static CAPABILITIES_JSON: RawJson<'static> = RawJson::from_static(CAPABILITIES);

/// The endpoint, in a static, over buffers in statics. (Building it is not `const`: it
/// reads its own capabilities and checks its buffers against the configuration, so
/// this runs at boot.) `Endpoint::new_in`
/// builds it in its static's `Option`: `Endpoint::new` returned it and the copies of
/// it on the way to the static (three of 1,264 bytes) made the boot the stack's
/// high-water mark. Not inlined, so that the loop's frame does not keep its room.
#[inline(never)]
pub fn start(now: Instant) -> &'static mut Server {
    let config = Config::new(Role::Server, SERVER_INFO_JSON)
        .capabilities(CAPABILITIES_JSON)
        .instructions("A simulated Cortex-M4F device: an LED and two sensors.");
    let (Some(rx), Some(tx)) =
        (cortex_m::singleton!(: [u8; RX_LEN] = [0; RX_LEN]), cortex_m::singleton!(: [u8; TX_LEN] = [0; TX_LEN]))
    else {
        crate::fatal("buffers taken twice")
    };
    let Some(place) = cortex_m::singleton!(: Option<Server> = None) else { crate::fatal("endpoint taken twice") };
    match Endpoint::new_in(place, config, &mut rx[..], &mut tx[..], now) {
        Ok(ep) => ep,
        Err(e) => {
            // (Not the `ConfigError` itself: its derived `defmt::Format` is 200 bytes of
            // flash for a fault of the build that its first boot shows.)
            let _ = e;
            error!("endpoint refused its configuration");
            crate::fatal("endpoint configuration")
        }
    }
}

/// Moves received bytes from the UART's ring straight into the receive buffer. (Not
/// inlined, like `drain`: the loop's frame then holds neither's locals.)
#[inline(never)]
pub fn feed(ep: &mut Server, now: Instant) {
    uart::poll();
    let n = uart::RX.pop_into(ep.input_buffer());
    if n > 0 {
        ep.commit_input(now, n);
        // Room in the ring again: take a byte the UART may have kept back.
        uart::poll();
    }
}

/// Drains the endpoint: writes its bytes to the UART, hands events to `app`. Returns
/// the endpoint's next deadline. (Not inlined: its frame, which holds the event, is
/// popped while `feed` reads input.)
#[inline(never)]
pub fn drain(ep: &mut Server, app: &mut App, now: Instant) -> Option<Instant> {
    loop {
        match ep.poll_output() {
            Output::Transmit(bytes) => uart::write(&bytes),
            Output::Event(event) => app.on_event(event, now),
            Output::Idle { next_timeout } => return next_timeout,
        }
    }
}

/// Answers a request from its event. An answer that does not fit the transmit buffer
/// gets a short error instead, so the client is never left waiting.
pub fn answer<R: Serialize + ?Sized>(req: &mut mcp_sansio::session::IncomingRequest<'_>, result: &R) {
    if let Err(e) = req.respond(result) {
        not_answered(req, e);
    }
}

/// Answers with the JSON object `json`, written by the caller (with `complete` false
/// if it did not fit its buffer). The answers assembled from static JSON texts and the
/// firmware's own strings (a resource list page, a resource's contents, the prompt) go
/// this way: they all share `RawJson`'s serializer, where a result type each would bring
/// one serializer each (about 400 bytes of flash apiece). Checked as JSON before it is
/// sent, like every `RawJson`.
#[cfg(any(feature = "resources", feature = "prompts"))]
#[allow(dead_code)] // with `typed-lists` and `typed-results`
#[inline(never)]
pub fn answer_json(req: &mut mcp_sansio::session::IncomingRequest<'_>, json: &str, complete: bool) {
    match RawJson::parse(json.as_bytes()) {
        Ok(raw) if complete => answer(req, &raw),
        _ => {
            warn!("answer to {=str} not built", req.method.name());
            let _ = req.respond_error(ErrorCode::INTERNAL_ERROR, "Answer too large for the device's buffer");
        }
    }
}

/// [`answer`]'s failure path, once for every result type (not inlined into each
/// instantiation: the log call and the error's `defmt::Format` would be copied into each).
#[inline(never)]
fn not_answered(req: &mut mcp_sansio::session::IncomingRequest<'_>, e: SendError) {
    match e {
        SendError::TxFull { needed, .. } => {
            warn!("answer to {=str} needs {=usize} bytes: sent an error instead", req.method.name(), needed);
            let _ = req.respond_error(ErrorCode::INTERNAL_ERROR, "Answer too large for the device's buffer");
        }
        e => warn!("answer to {=str} failed: {=str}", req.method.name(), why(&e)),
    }
}

/// What went wrong with a send, in a word, for the log: the few reasons this firmware
/// can meet (`SendError`'s derived `defmt::Format`, covering every variant and its
/// fields, costs about 300 bytes of flash).
pub fn why(e: &SendError) -> &'static str {
    match e {
        SendError::TxFull { .. } => "transmit buffer full",
        SendError::UnknownRequest | SendError::AlreadyAnswered => "request already over",
        SendError::NoProgressToken => "no progress token",
        SendError::ProgressNotIncreasing => "progress not increasing",
        _ => "refused",
    }
}

/// The answer to a late call whose text did not fit (not reached: `blink`'s texts are
/// short and plain).
#[cfg(feature = "blink")]
static TOO_LARGE: RawJson<'static> =
    RawJson::from_static(r#"{"content":[{"type":"text","text":"answer too large"}],"isError":true}"#);

#[cfg(feature = "blink")]
/// A request answered after its event returned.
pub struct Pending(PendingRequest);

#[cfg(feature = "blink")]
impl Pending {
    pub fn of(req: &mcp_sansio::session::IncomingRequest<'_>) -> Self {
        Self(req.pending())
    }

    pub fn is(&self, request: &PendingRequest) -> bool {
        self.0 == *request
    }

    /// `notifications/progress` for it, if the client asked for progress.
    pub fn progress(&self, ep: &mut Server, done: u32, total: u32, message: &str) -> Result<(), SendError> {
        ep.send_progress(&self.0, u64::from(done), Some(u64::from(total)), Some(message)).map(|_| ())
    }

    /// The final answer, a text (which the endpoint suppresses if the client cancelled).
    pub fn finish(&self, ep: &mut Server, text: &str) -> Result<Responded, SendError> {
        let mut reply = crate::app::tools::Reply::new();
        reply.text().push_str(text);
        match reply.finish(false) {
            Some(result) => ep.respond(&self.0, &result),
            None => ep.respond(&self.0, &TOO_LARGE),
        }
    }
}

/// `notifications/message`.
#[cfg(feature = "logging")]
pub fn log_message<P: Serialize>(ep: &mut Server, now: Instant, params: &P) -> Result<(), SendError> {
    ep.send_notification(now, "notifications/message", Some(params))
}
