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
use mcp_sansio::http::headers::{BearerParams, ParamValue};
use mcp_sansio::session::{Event, OutputMode};
use mcp_sansio::time::Instant;
use mcp_sansio::wire::RequestId;

use crate::app::{ClientApp, ClientEndpoint, IN, OUT, Plan};
use crate::conformance::Conformance;
use crate::oauth::OAuth;

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

/// The application over HTTP: the script (or a conformance scenario), and what the
/// transport reports, printed.
trait Script {
    fn event(&mut self, ev: Event<'_>);
    fn advance(&mut self, ep: &mut ClientEndpoint<'_>, now: Instant) -> Option<Instant>;
    fn lost(&mut self, id: &RequestId, reason: &str);
    /// Whether the script ran to its end with every step behaving.
    fn verdict(&mut self, ended: &str) -> bool;
    /// The `Mcp-Param-*` headers of a POST (see [`Conformance::request_headers`]).
    fn request_headers(&self, body: &[u8], headers: &mut Vec<(String, String)>) {
        let _ = (body, headers);
    }
}

impl Script for ClientApp {
    fn event(&mut self, ev: Event<'_>) {
        self.on_session_event(ev);
    }
    fn advance(&mut self, ep: &mut ClientEndpoint<'_>, now: Instant) -> Option<Instant> {
        ClientApp::advance(self, ep, now)
    }
    fn lost(&mut self, id: &RequestId, reason: &str) {
        self.on_request_lost(id, reason);
    }
    fn verdict(&mut self, ended: &str) -> bool {
        let mut ok = self.finished && self.failures.is_empty();
        if !self.finished {
            println!("   · the session ended before the script did: {ended}");
            ok = false;
        }
        println!();
        if self.failures.is_empty() {
            println!("== Summary: every step behaved");
        } else {
            println!("== Summary: {} step(s) failed", self.failures.len());
            for f in &self.failures {
                println!("   - {f}");
            }
        }
        ok
    }
}

impl Script for Conformance {
    fn event(&mut self, ev: Event<'_>) {
        self.on_session_event(ev);
    }
    fn advance(&mut self, ep: &mut ClientEndpoint<'_>, now: Instant) -> Option<Instant> {
        Conformance::advance(self, ep, now)
    }
    fn lost(&mut self, id: &RequestId, reason: &str) {
        self.on_request_lost(id, reason);
    }
    fn verdict(&mut self, ended: &str) -> bool {
        self.verdict(ended)
    }
    fn request_headers(&self, body: &[u8], headers: &mut Vec<(String, String)>) {
        Conformance::request_headers(self, body, headers);
    }
}

/// The script, and the OAuth flow when the conformance suite runs us (`oauth.rs`; other
/// runs have no token to offer and give up on a 401).
struct OverHttp<S>(S, Option<OAuth>);

impl<S: Script> App<OUT, IN> for OverHttp<S> {
    type Message = ();

    fn on_event(&mut self, event: Event<'_>, _mailbox: &Mailbox<()>) {
        self.0.event(event);
    }

    fn on_idle(&mut self, endpoint: &mut ClientEndpoint<'_>, now: Instant) -> Option<Instant> {
        self.0.advance(endpoint, now)
    }

    fn request_headers(&mut self, body: &[u8], headers: &mut Vec<(String, String)>) {
        self.0.request_headers(body, headers);
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
            self.0.lost(id, &reason.to_string());
        }
    }

    fn credentials(&mut self, status: u16, challenge: Option<&BearerParams<'_>>) -> Option<String> {
        let text = |v: Option<&ParamValue<'_>>| v.map(param_text);
        let metadata = text(challenge.and_then(|c| c.resource_metadata.as_ref()));
        let scope = text(challenge.and_then(|c| c.scope.as_ref()));
        let Some(oauth) = self.1.as_mut() else {
            let metadata = metadata.map(|m| format!(" (resource metadata: {m})"));
            println!(
                "   · http: {status}: this client has no token to offer{}; giving up",
                metadata.unwrap_or_default()
            );
            return None;
        };
        println!("   · http: {status}: authorizing (resource metadata {metadata:?}, scope {scope:?})");
        match oauth.token(metadata.as_deref(), scope.as_deref()) {
            Ok(token) => {
                println!("   · http: got a token; retrying");
                Some(token)
            }
            Err(e) => {
                println!("   · http: no token: {e}; giving up");
                None
            }
        }
    }

    fn on_unsent(&mut self, error: SendError) {
        println!("   · http: a message could not be sent: {error}");
    }
}

/// Runs the script (or the conformance scenario named in the environment) against `url`.
pub fn run(url: &str, mode: TransportMode, plan: Plan) -> io::Result<bool> {
    match std::env::var("MCP_CONFORMANCE_SCENARIO") {
        Ok(scenario) if !scenario.is_empty() => {
            println!("== Conformance scenario {scenario} at {url}");
            let script = Conformance::new(&scenario);
            drive(url, mode, script.plan(), script, Some(OAuth::new(url)))
        }
        _ => {
            println!("== Connecting to {url} over HTTP ({mode:?})");
            let app = ClientApp::new(plan.clone(), None);
            drive(url, mode, plan, app, None)
        }
    }
}

fn drive<S: Script>(url: &str, mode: TransportMode, plan: Plan, script: S, oauth: Option<OAuth>) -> io::Result<bool> {
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
    let mut app = OverHttp(script, oauth);
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

/// A challenge parameter's text, unescaped.
fn param_text(v: &ParamValue<'_>) -> String {
    if let Some(s) = v.as_str() {
        return s.to_string();
    }
    let mut scratch = vec![0; v.unescaped_len()];
    v.unescape(&mut scratch).map(|b| String::from_utf8_lossy(b).into_owned()).unwrap_or_default()
}
