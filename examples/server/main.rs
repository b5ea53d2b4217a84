//! A complete MCP server over stdio or HTTP, declared on the toolkit
//! ([`ServerBuilder`](mcp_sansio::toolkit::server::ServerBuilder)): the same
//! [`ServerHandler`](mcp_sansio::toolkit::server::ServerHandler) on [`StdioLoop`] or on
//! [`HttpServer`], with a worker pool for its slow tools.
//!
//! It offers every fixture of the official conformance suite (tools `test_*`, resources
//! `test://…`, prompts `test_*`, completion, logging) plus:
//!
//! * `test_long_running` (`{"steps":10,"stepMs":100}`): works on a worker thread,
//!   reporting progress after each step, and stops when the client cancels;
//! * `test_reconnection`: over Streamable HTTP, closes the call's SSE stream after its
//!   priming event; the answer comes on the GET the client resumes with (SEP-1699);
//! * `toggle_extra_tool`: adds or removes `extra_tool` and sends
//!   `notifications/tools/list_changed`;
//! * `update_watched_resource` (`{"text":…}`): changes `test://watched-resource` and
//!   notifies its subscribers with `notifications/resources/updated`;
//! * `echo` (`{"message":…}`).
//!
//! Every list is paginated with signed cursors. Over stdio the server exits by itself,
//! with status 0, once its input ends and it has answered what it owes. With `--http
//! ADDR` it serves Streamable HTTP at `/mcp` and the legacy HTTP+SSE transport at `/sse`
//! (POSTs to `/messages`) until it is killed, and prints `listening on http://ADDR` on
//! stderr once it accepts connections (ADDR with port 0: a free port).
//!
//! With `--bearer TOKEN` every HTTP request must carry `Authorization: Bearer TOKEN`
//! (401 with a `WWW-Authenticate` challenge otherwise), and the protected resource
//! metadata the challenge names is served at `/.well-known/oauth-protected-resource/mcp`.
//!
//!     cargo run --example server --features stdio,http -- [--http ADDR [--json-response]
//!         [--bearer TOKEN]] [--page-size N] [--workers N] [--watch-interval-ms MS] [--verbose]

mod app;
mod fixtures;
mod mrtr;

use std::io;
use std::process::ExitCode;
use std::time::Duration;

use mcp_sansio::adapters::stdio::{Sink, StdioLoop};

use app::{Options, ServerEndpoint};

#[cfg(feature = "http")]
const USAGE: &str = "usage: server [--http ADDR [--json-response] [--bearer TOKEN]] [--page-size N] [--workers N]
              [--watch-interval-ms MS] [--verbose]

  --http ADDR            serve Streamable HTTP at /mcp and HTTP+SSE at /sse on ADDR
                         (127.0.0.1:3000; port 0: any free port) instead of stdio
  --json-response        over HTTP, answer a POST with plain JSON when nothing comes
                         before its response (default: always an SSE stream)
  --bearer TOKEN         over HTTP, let in only requests with Authorization: Bearer TOKEN
  --page-size N          items per page of every list (default 1000: one page)
  --workers N            worker threads for slow tools (default 4)
  --watch-interval-ms MS also change test://watched-resource every MS milliseconds
  --verbose              describe the events the toolkit leaves to the application on stderr";

#[cfg(not(feature = "http"))]
const USAGE: &str = "usage: server [--page-size N] [--workers N] [--watch-interval-ms MS] [--verbose]

  --page-size N          items per page of every list (default 1000: one page)
  --workers N            worker threads for slow tools (default 4)
  --watch-interval-ms MS also change test://watched-resource every MS milliseconds
  --verbose              describe the events the toolkit leaves to the application on stderr";

/// The receive buffer: the largest message the server accepts (longer lines are skipped).
const RX_BUFFER: usize = 512 * 1024;

/// The command line: the application's options, and the HTTP ones.
struct Args {
    opts: Options,
    http: Option<String>,
    json_response: bool,
    bearer: Option<String>,
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut a = Args { opts: Options::default(), http: None, json_response: false, bearer: None };
    while let Some(arg) = args.next() {
        let mut value = |flag: &str| args.next().ok_or_else(|| format!("{flag} needs a value"));
        let number = |flag: &str, v: String| -> Result<u64, String> {
            v.parse().map_err(|_| format!("{flag}: not a number: {v}"))
        };
        match arg.as_str() {
            "--page-size" => a.opts.page_size = number("--page-size", value("--page-size")?)?.max(1) as usize,
            "--workers" => a.opts.workers = number("--workers", value("--workers")?)?.clamp(1, 64) as usize,
            "--watch-interval-ms" => {
                let ms = number("--watch-interval-ms", value("--watch-interval-ms")?)?;
                a.opts.watch_interval = Some(Duration::from_millis(ms.max(1)))
            }
            "--verbose" => a.opts.verbose = true,
            #[cfg(feature = "http")]
            "--http" => a.http = Some(value("--http")?),
            #[cfg(feature = "http")]
            "--json-response" => a.json_response = true,
            #[cfg(feature = "http")]
            "--bearer" => a.bearer = Some(value("--bearer")?),
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument: {other}")),
        }
    }
    if a.http.is_none() && (a.json_response || a.bearer.is_some()) {
        return Err("--json-response and --bearer need --http".into());
    }
    Ok(a)
}

fn run_stdio(opts: Options) -> io::Result<()> {
    let verbose = opts.verbose;
    let mut event_loop = StdioLoop::stdin()?;
    let (rx, tx) = (vec![0u8; RX_BUFFER].into_boxed_slice(), vec![0u8; opts.tx_capacity].into_boxed_slice());
    let (mut handler, config) = app::handler(&opts)?;
    let mut endpoint =
        ServerEndpoint::with_buffers(config, rx, tx, event_loop.clock().now()).map_err(io::Error::other)?;
    let reason = event_loop.serve(&mut endpoint, Sink::stdout()?, &mut handler)?;
    // Dropping the handler joins the workers (their jobs were cancelled when the
    // session ended, so they stop at once).
    drop(handler);
    if verbose {
        eprintln!("[server] exiting: {reason}");
    }
    Ok(())
}

#[cfg(feature = "http")]
fn run_http(addr: &str, json_response: bool, bearer: Option<String>, opts: Options) -> io::Result<()> {
    use mcp_sansio::adapters::http::server::{Authorizer, HttpServer, ServerOptions, WELL_KNOWN_RESOURCE_METADATA};
    use mcp_sansio::http::server::JsonResponses;

    // Bound first: the metadata URL names the port (ADDR may ask for any free one).
    let listener = std::net::TcpListener::bind(addr)?;
    let local = listener.local_addr()?;
    let metadata_url = format!("http://{local}{WELL_KNOWN_RESOURCE_METADATA}/mcp");
    let document = format!(r#"{{"resource":"http://{local}/mcp","bearer_methods_supported":["header"]}}"#);
    let mut options = ServerOptions::default();
    if let Some(token) = bearer {
        options.authorize = Some(Authorizer::bearer(token));
        options.config.auth.resource_metadata = Some(&metadata_url);
        options.metadata_document = Some(&document);
    }
    options.config.json_responses = if json_response { JsonResponses::WhenPossible } else { JsonResponses::Never };
    options.rx_buffer = RX_BUFFER;
    options.tx_buffer = opts.tx_capacity;
    options.event_store = opts.tx_capacity + 64 * 1024;
    // 2026-07-28: the arguments that travel in Mcp-Param-* headers, checked by the server.
    options.param_headers = &mrtr::PARAM_HEADERS;
    let (mut handler, config) = app::handler(&opts)?;
    let mut server: HttpServer<'_, app::Handler, { app::OUT }, { app::IN }> =
        HttpServer::with_listener(listener, config, options)?;
    eprintln!("listening on http://{}", server.local_addr());
    server.run(&mut handler)
}

fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("server: {message}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let result = match args.http {
        #[cfg(feature = "http")]
        Some(addr) => run_http(&addr, args.json_response, args.bearer, args.opts),
        _ => {
            let _ = (args.json_response, args.bearer);
            run_stdio(args.opts)
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("server: {e}");
            ExitCode::FAILURE
        }
    }
}
