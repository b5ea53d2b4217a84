//! The device's MCP server: what each event and request gets.
//!
//! Requests are answered through their event's handle while their params are still
//! borrowed from the receive buffer; only `blink` answers later, from [`App::on_idle`].
//! The endpoint itself answers `initialize`, `ping`, and methods this build did not
//! declare (with -32601).

#[cfg(feature = "blink")]
mod blink;
#[cfg(feature = "logging")]
mod logging;
#[cfg(feature = "prompts")]
mod prompts;
#[cfg(feature = "resources")]
mod resources;
pub(crate) mod tools;

use mcp_sansio::session::{Event, IncomingRequest, Misbehavior};
use mcp_sansio::wire::ErrorCode;
use mcp_sansio::{Instant, Method};

#[cfg(any(feature = "blink", feature = "resources"))]
use crate::device::Device;
use crate::endpoint::Server;

pub struct App {
    #[cfg(any(feature = "blink", feature = "resources"))]
    device: Device,
    #[cfg(feature = "blink")]
    blink: blink::Blink,
    #[cfg(feature = "resources")]
    resources: resources::Resources,
    #[cfg(feature = "logging")]
    logging: logging::Logging,
}

impl App {
    /// `seed` varies from boot to boot (it keys the pagination cursors).
    pub fn new(seed: u32) -> Self {
        let _ = seed;
        Self {
            #[cfg(any(feature = "blink", feature = "resources"))]
            device: Device::new(),
            #[cfg(feature = "blink")]
            blink: blink::Blink::new(),
            #[cfg(feature = "resources")]
            resources: resources::Resources::new(seed),
            #[cfg(feature = "logging")]
            logging: logging::Logging::new(),
        }
    }

    /// (Not inlined: its frame, and the handlers' below it, then stay off the path that
    /// reads input, which is the deepest; 112 bytes of stack.)
    #[inline(never)]
    pub fn on_event(&mut self, event: Event<'_>, now: Instant) {
        match event {
            Event::Negotiated { version, peer } => {
                let client = peer.get("clientInfo").and_then(|c| c.get("name")).and_then(|n| n.as_str());
                info!("negotiated {} with {}", version, client);
            }
            Event::Ready { version } => info!("session ready ({})", version),
            Event::Request(mut req) => {
                debug!("request {} {=str}", req.id, req.method.name());
                self.on_request(&mut req, now);
            }
            Event::Notification(n) => debug!("notification {=str}", n.method.name()),
            Event::Cancelled { request, reason } => {
                info!("client cancelled request {} ({})", request.id(), reason);
                #[cfg(feature = "blink")]
                self.blink.cancel(&request);
            }
            Event::Misbehavior(m) => misbehavior(&m),
            // (No reason: over a UART the session only ends when the firmware stops, so
            // `CloseReason`'s derived `defmt::Format` would be flash for nothing.)
            Event::Closed { .. } => info!("session closed"),
            _ => {}
        }
    }

    fn on_request(&mut self, req: &mut IncomingRequest<'_>, now: Instant) {
        match req.method {
            Method::ToolsList => tools::list(req),
            Method::ToolsCall => self.call_tool(req, now),
            #[cfg(feature = "resources")]
            Method::ResourcesList => self.resources.list(req),
            #[cfg(feature = "resources")]
            Method::ResourcesRead => resources::read(req, &self.device, now),
            #[cfg(feature = "prompts")]
            Method::PromptsList => prompts::list(req),
            #[cfg(feature = "prompts")]
            Method::PromptsGet => prompts::get(req),
            #[cfg(feature = "logging")]
            Method::LoggingSetLevel => self.logging.set_level(req),
            _ => {
                warn!("unknown method {=str}", req.method.name());
                let _ = req.respond_error(ErrorCode::METHOD_NOT_FOUND, "Method not found");
            }
        }
    }

    fn call_tool(&mut self, req: &mut IncomingRequest<'_>, now: Instant) {
        let Some((name, args)) = tools::name_and_arguments(req) else {
            let _ = req.respond_error(ErrorCode::INVALID_PARAMS, "Invalid params: tools/call needs a tool name");
            return;
        };
        match name {
            tools::Name::Add => tools::add(req, args),
            tools::Name::ReadSensor => tools::read_sensor(req, args, now),
            #[cfg(feature = "blink")]
            tools::Name::Blink => {
                if let Some(started) = self.blink.start(req, args, now) {
                    #[cfg(feature = "logging")]
                    self.logging.push_blink("blink: started", started);
                    let _ = started;
                }
            }
            #[cfg(feature = "stats")]
            tools::Name::Stats => tools::stats(req, now),
            tools::Name::Unknown => {
                let _ = req.respond_error(ErrorCode::INVALID_PARAMS, "Unknown tool");
            }
        }
    }

    /// Work that does not wait for input: `blink` steps, log messages. Returns true if
    /// it gave the endpoint something to send (drain again).
    #[allow(unused_mut)]
    pub fn on_idle(&mut self, ep: &mut Server, now: Instant) -> bool {
        let mut sent = false;
        #[cfg(feature = "blink")]
        if let Some(outcome) = self.blink.step(ep, &mut self.device, now) {
            sent = true;
            #[cfg(feature = "logging")]
            self.logging.push_blink(outcome.text(), outcome.count());
            let _ = outcome;
        }
        #[cfg(feature = "logging")]
        {
            sent |= self.logging.flush(ep, now);
        }
        let _ = (ep, now);
        sent
    }

    /// When [`on_idle`](Self::on_idle) next has work.
    pub fn next_deadline(&self) -> Option<Instant> {
        #[cfg(feature = "blink")]
        return self.blink.deadline();
        #[cfg(not(feature = "blink"))]
        None
    }
}

/// The peer's misbehaviour, logged with the texts and codes its replies carry, not with
/// the errors' own `defmt::Format`s: the envelope error's nested rules and the refusal
/// reasons would bring about 400 bytes of flash.
fn misbehavior(m: &Misbehavior<'_>) {
    match m {
        Misbehavior::InvalidMessage { error, replied } => {
            warn!(
                "misbehavior: invalid message: {=str} ({=i32}, replied: {=bool})",
                error.rule.describe(),
                error.code().0,
                replied
            )
        }
        Misbehavior::LineTooLong { len, replied } => {
            warn!("misbehavior: line of {=usize} bytes skipped (replied: {=bool})", len, replied)
        }
        Misbehavior::UnterminatedLine { len } => warn!("misbehavior: unterminated line of {=usize} bytes", len),
        Misbehavior::RequestRefused { id, method, code, .. } => {
            warn!("misbehavior: refused {} {=str}: {=i32}", id, method.name(), code.0)
        }
        Misbehavior::NotificationIgnored { method, .. } => {
            warn!("misbehavior: ignored notification {=str}", method.name())
        }
        _ => warn!("misbehavior: other"),
    }
}
