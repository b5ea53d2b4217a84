//! An MCP client over stdio, of both eras (`--era`: by default it probes with
//! `server/discover` and speaks 2026-07-28 to a server that answers, the handshake
//! versions otherwise): spawns a server command, performs the handshake, pings,
//! walks every paginated list to the end, calls tools (one with progress, one that it
//! cancels), answers the server's sampling, elicitation and roots requests by a script,
//! prints a readable transcript, then shuts the server down the way the specification
//! says (close its stdin, wait, SIGTERM, wait, SIGKILL) and reports how it exited.
//!
//! Against `examples/server` (the defaults):
//!
//!     cargo run --example client --features stdio -- -- target/debug/examples/server --page-size 3
//!
//! Against the official TypeScript example server:
//!
//!     cargo run --example client --features stdio -- \
//!         --call 'echo={"message":"hi"}' --call get-sum='{"a":1,"b":2}' \
//!         --progress-tool 'trigger-long-running-operation={"duration":2,"steps":4}' \
//!         --cancel-tool 'trigger-long-running-operation={"duration":30,"steps":30}' \
//!         -- npx -y @modelcontextprotocol/server-everything stdio
//!
//! Over HTTP, against a server that is already running (`http.rs`):
//!
//!     cargo run --example client --features stdio,http -- --http http://127.0.0.1:3000/mcp

mod conformance;
mod oauth;
mod plan;
mod script;

use std::process::ExitCode;
use std::time::Duration;

use mcp_sansio::ProtocolVersion;
use mcp_sansio::http::client::TransportMode;
use mcp_sansio::session::Era;

use plan::{ElicitPolicy, Plan, ToolCall};

const USAGE: &str = "usage: client [options] -- COMMAND [ARGS...]
       client [options] --http URL [--transport auto|streamable|sse]

  --era auto|modern|legacy  which protocol eras to speak (default auto: server/discover first,
                            2026-07-28 if the server answers it, else the initialize handshake)
  --protocol-version V      offer only this version, in its era (default: all, newest first)
  --call NAME[=JSON]        call a tool (repeatable; replaces the default calls)
  --progress-tool NAME[=JSON]  the call made with a progress token ('none' to skip)
  --cancel-tool NAME[=JSON]    the call cancelled after --cancel-after-ms ('none' to skip)
  --cancel-after-ms MS      (default 300)
  --quiet-ms MS             watch for stray messages after a cancellation or a timeout (default 300)
  --timeout-tool NAME[=JSON]   a call expected to time out after --timeout-after-ms
  --timeout-after-ms MS    (default 200)
  --request-timeout-ms MS   idle timeout of every request (default 30000)
  --no-lists                skip walking the lists
  --no-listen               skip the listen stream (2026-07-28)
  --malformed               send a malformed line and show the server's error
  --unknown-method NAME     send a request NAME the server lacks; expect -32601
  --root URI                declare roots and offer this one (repeatable)
  --elicit accept|decline|cancel   how to answer elicitation (default accept)
  --wire                    print every line sent and received
  --grace-ms MS             wait for the server to exit after closing its stdin (default 2000)
  --term-grace-ms MS        wait after SIGTERM before SIGKILL (default 2000)
  --http URL                connect to a running server over Streamable HTTP instead, falling
                            back to HTTP+SSE; with MCP_CONFORMANCE_SCENARIO set, run that
                            conformance scenario's script, and answer 401/403 challenges with
                            an OAuth flow (oauth.rs) (--wire and --malformed: stdio only)
  --transport MODE          auto (default), streamable (no fallback) or sse (HTTP+SSE only)

Defaults match examples/server. The exit status is 0 when every step behaved.";

struct Args {
    plan: Plan,
    wire: bool,
    grace: Duration,
    term_grace: Duration,
    command: Vec<String>,
    /// `--http URL` and `--transport`.
    http: Option<(String, TransportMode)>,
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut plan = Plan::default();
    let (mut wire, mut grace, mut term_grace) = (false, Duration::from_secs(2), Duration::from_secs(2));
    let mut calls: Option<Vec<ToolCall>> = None;
    let mut timeout_call = None;
    let mut timeout_ms = 200;
    let mut http_url: Option<String> = None;
    let mut transport = TransportMode::Auto;
    let optional_call = |spec: String| -> Result<Option<ToolCall>, String> {
        if spec == "none" { Ok(None) } else { ToolCall::parse(&spec).map(Some) }
    };
    while let Some(arg) = args.next() {
        let mut value = |flag: &str| args.next().ok_or_else(|| format!("{flag} needs a value"));
        let ms = |v: String| v.parse::<u64>().map(Duration::from_millis).map_err(|_| format!("not a number: {v}"));
        match arg.as_str() {
            "--" => break,
            "--era" => {
                plan.era = match value(&arg)?.as_str() {
                    "auto" => Era::Auto,
                    "modern" => Era::Modern,
                    "legacy" => Era::Legacy,
                    other => return Err(format!("--era: auto, modern or legacy, not {other}")),
                }
            }
            "--no-listen" => plan.listen = false,
            "--protocol-version" => {
                let v = value(&arg)?;
                plan.version = Some(ProtocolVersion::from_name(&v).ok_or_else(|| format!("unknown version {v}"))?);
            }
            "--call" => calls.get_or_insert_with(Vec::new).push(ToolCall::parse(&value(&arg)?)?),
            "--progress-tool" => plan.progress = optional_call(value(&arg)?)?,
            "--cancel-tool" => plan.cancel = optional_call(value(&arg)?)?,
            "--cancel-after-ms" => plan.cancel_after = ms(value(&arg)?)?,
            "--quiet-ms" => plan.quiet = ms(value(&arg)?)?,
            "--timeout-tool" => timeout_call = optional_call(value(&arg)?)?,
            "--timeout-after-ms" => timeout_ms = ms(value(&arg)?)?.as_millis() as u64,
            "--request-timeout-ms" => plan.request_timeout = ms(value(&arg)?)?,
            "--no-lists" => plan.lists = false,
            "--malformed" => plan.malformed = true,
            "--unknown-method" => plan.unknown_method = Some(value(&arg)?),
            "--root" => plan.roots.push(value(&arg)?),
            "--elicit" => {
                plan.elicit = match value(&arg)?.as_str() {
                    "accept" => ElicitPolicy::Accept,
                    "decline" => ElicitPolicy::Decline,
                    "cancel" => ElicitPolicy::Cancel,
                    other => return Err(format!("--elicit: accept, decline or cancel, not {other}")),
                }
            }
            "--wire" => wire = true,
            "--grace-ms" => grace = ms(value(&arg)?)?,
            "--term-grace-ms" => term_grace = ms(value(&arg)?)?,
            "--http" => http_url = Some(value(&arg)?),
            "--transport" => transport = transport_mode(&value(&arg)?)?,
            "-h" | "--help" => return Err(String::new()),
            other if other.starts_with('-') => return Err(format!("unknown option {other}")),
            other => {
                // The command starts here (no `--`).
                let command: Vec<String> = std::iter::once(other.to_string()).chain(args).collect();
                let http = http_url.map(|u| (u, transport));
                return finish(plan, calls, timeout_call, timeout_ms, wire, grace, term_grace, command, http);
            }
        }
    }
    let command: Vec<String> = args.collect();
    let http = http_url.map(|u| (u, transport));
    finish(plan, calls, timeout_call, timeout_ms, wire, grace, term_grace, command, http)
}

#[allow(clippy::too_many_arguments)]
fn finish(
    mut plan: Plan,
    calls: Option<Vec<ToolCall>>,
    timeout_call: Option<ToolCall>,
    timeout_ms: u64,
    wire: bool,
    grace: Duration,
    term_grace: Duration,
    command: Vec<String>,
    http: Option<(String, TransportMode)>,
) -> Result<Args, String> {
    if command.is_empty() && http.is_none() {
        return Err("no server command given".into());
    }
    if let Some(calls) = calls {
        plan.calls = calls;
    }
    plan.timeout = timeout_call.map(|c| (c, Duration::from_millis(timeout_ms)));
    Ok(Args { plan, wire, grace, term_grace, command, http })
}

fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("client: {message}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("client: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `--transport`.
fn transport_mode(name: &str) -> Result<TransportMode, String> {
    match name {
        "auto" => Ok(TransportMode::Auto),
        "streamable" => Ok(TransportMode::Streamable),
        "sse" => Ok(TransportMode::Legacy),
        other => Err(format!("--transport: auto, streamable or sse, not {other}")),
    }
}

fn run(args: Args) -> std::io::Result<bool> {
    if let Some((url, mode)) = &args.http {
        // The conformance suite names its scenario in the environment.
        return match std::env::var("MCP_CONFORMANCE_SCENARIO") {
            Ok(scenario) if !scenario.is_empty() => conformance::run(url, *mode, &scenario),
            _ => script::over_http(url, *mode, args.plan),
        };
    }
    script::over_stdio(&args.command, args.plan, args.wire, [args.grace, args.term_grace])
}
