//! `--http URL`: the same script over Streamable HTTP, falling back to HTTP+SSE when
//! the server answers `initialize` with 400, 404 or 405 (`--transport sse`: HTTP+SSE
//! only, `--transport streamable`: no fallback), on the crate's HTTP client adapter. When
//! the conformance suite runs it (`MCP_CONFORMANCE_SCENARIO` set), the scenario's own
//! script runs instead (`conformance.rs`), and a 401 or 403 challenge is answered with a
//! token from the OAuth flow of `oauth.rs`; otherwise this client has no token to offer
//! and gives up on them.

use std::io;

use mcp_sansio::adapters::http::client::{App, HttpClientLoop, Mailbox, Options, Outcome};
use mcp_sansio::http::client::{ClientConfig, Event as TransportEvent, HttpClient, SendError, TransportMode};
use mcp_sansio::http::headers::BearerParams;
use mcp_sansio::session::{Event, OutputMode};
use mcp_sansio::time::Instant;

use crate::app::{ClientApp, ClientEndpoint, IN, OUT, Plan};

/// HTTP exchanges at once: the standalone stream, a request's stream, a resumption,
/// and the answers and notifications that go out meanwhile.
const EXCHANGES: usize = 6;
/// The largest message an exchange sends or receives.
const EXCHANGE_BYTES: usize = 256 * 1024;

/// `--transport`.
pub fn transport_mode(name: &str) -> Result<TransportMode, String> {
    match name {
        "auto" => Ok(TransportMode::Auto),
        "streamable" => Ok(TransportMode::Streamable),
        "sse" => Ok(TransportMode::Legacy),
        other => Err(format!("--transport: auto, streamable or sse, not {other}")),
    }
}

/// The script, and what the transport reports, printed; it has no token to offer, and
/// gives up on a 401.
struct OverHttp(ClientApp);

impl App<OUT, IN> for OverHttp {
    type Message = ();

    fn on_event(&mut self, event: Event<'_>, _mailbox: &Mailbox<()>) {
        self.0.on_session_event(event);
    }

    fn on_idle(&mut self, endpoint: &mut ClientEndpoint<'_>, now: Instant) -> Option<Instant> {
        self.0.advance(endpoint, now)
    }

    fn on_transport(&mut self, event: &TransportEvent<'_>) {
        let text = match event {
            TransportEvent::Connected { transport, session_id } => {
                format!("connected over {transport:?}, session id {}", session_id.unwrap_or("(none)"))
            }
            TransportEvent::FellBack { status } => {
                format!("the server answered initialize with {status}: falling back to HTTP+SSE on the same URL")
            }
            TransportEvent::StandaloneUnavailable { status: Some(s) } => {
                format!("no standalone GET stream (the server answered {s}): server messages come on POST streams")
            }
            TransportEvent::StandaloneUnavailable { status: None } => {
                "the standalone GET stream could not be reconnected".to_string()
            }
            TransportEvent::Reconnecting { exchange, attempt, at } => {
                format!("a stream broke: reconnecting as {exchange} at {at:?} (attempt {attempt})")
            }
            TransportEvent::Lost { exchange, request, reason } => match request {
                Some(id) => format!("request {id} lost with exchange {exchange}: {reason}"),
                None => format!("a message was not delivered ({exchange}): {reason}"),
            },
            TransportEvent::Misbehavior { exchange, what } => {
                format!("the server broke a rule on {exchange}: {what:?}")
            }
            TransportEvent::SessionExpired { reason } => format!("the session expired: {reason:?}"),
            TransportEvent::AuthRequired { status, .. } => format!("the server wants credentials ({status})"),
            TransportEvent::Closed => "the HTTP session is closed".to_string(),
            other => format!("{other:?}"),
        };
        println!("   · http: {text}");
        if let TransportEvent::Lost { request: Some(id), reason, .. } = event {
            self.0.on_request_lost(id, &reason.to_string());
        }
    }

    fn credentials(&mut self, status: u16, challenge: Option<&BearerParams<'_>>) -> Option<String> {
        let metadata =
            challenge.and_then(|c| c.resource_metadata.as_ref()).map(|m| format!(" (resource metadata: {m:?})"));
        println!("   · http: {status}: this client has no token to offer{}; giving up", metadata.unwrap_or_default());
        None
    }

    fn on_unsent(&mut self, error: SendError) {
        println!("   · http: a message could not be sent: {error}");
    }
}

/// Runs the script (or the conformance scenario named in the environment) against `url`.
pub fn run(url: &str, mode: TransportMode, plan: Plan) -> io::Result<bool> {
    match std::env::var("MCP_CONFORMANCE_SCENARIO") {
        Ok(scenario) if !scenario.is_empty() => crate::conformance::run(url, mode, &scenario),
        _ => {
            println!("== Connecting to {url} over HTTP ({mode:?})");
            drive(url, mode, plan)
        }
    }
}

fn drive(url: &str, mode: TransportMode, plan: Plan) -> io::Result<bool> {
    let mut event_loop: HttpClientLoop<()> = HttpClientLoop::new(Options::new())?;
    let capabilities = plan.capabilities();
    let config = plan.config(&capabilities).output(OutputMode::Messages);
    let (mut rx, mut tx) = (vec![0u8; 1024 * 1024], vec![0u8; 64 * 1024]);
    let mut endpoint: ClientEndpoint<'_> =
        ClientEndpoint::new(config, &mut rx, &mut tx, event_loop.clock().now()).map_err(io::Error::other)?;
    let http_config = ClientConfig::new(url)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, format!("{url}: {e}")))?
        .mode(mode);
    let mut storage = vec![0u8; http_config.storage_len(EXCHANGES, EXCHANGE_BYTES)];
    let mut http: HttpClient<'_, EXCHANGES> = HttpClient::new(http_config, &mut storage).map_err(io::Error::other)?;
    let mut app = OverHttp(ClientApp::new(plan, None));
    let ended = match event_loop.run(&mut endpoint, &mut http, &mut app)? {
        Outcome::Closed(reason) => reason.to_string(),
        Outcome::SessionExpired(reason) => {
            println!("   · the server ended the session ({reason:?}); this script does not start another");
            format!("the session expired ({reason:?})")
        }
        Outcome::Unreachable(reason) => {
            println!("   · the server could not be reached: {reason}");
            format!("unreachable: {reason}")
        }
        other => format!("{other:?}"),
    };
    Ok(app.0.verdict(&ended))
}
