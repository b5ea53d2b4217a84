//! A complete MCP server over stdio, on the blocking [`StdioLoop`] with a worker pool.
//!
//! It offers every fixture of the official conformance suite (tools `test_*`, resources
//! `test://…`, prompts `test_*`, completion, logging) plus:
//!
//! * `test_long_running` (`{"steps":10,"stepMs":100}`): works on a worker thread,
//!   reporting progress after each step, and stops when the client cancels;
//! * `toggle_extra_tool`: adds or removes `extra_tool` and sends
//!   `notifications/tools/list_changed`;
//! * `update_watched_resource` (`{"text":…}`): changes `test://watched-resource` and
//!   notifies its subscribers with `notifications/resources/updated`;
//! * `echo` (`{"message":…}`).
//!
//! Every list is paginated with signed cursors. The server exits by itself, with status
//! 0, once its input ends and it has answered what it owes.
//!
//!     cargo run --example server --features stdio -- [--page-size N] [--workers N]
//!         [--watch-interval-ms MS] [--verbose]

mod app;
mod fixtures;

use std::io;
use std::process::ExitCode;
use std::time::Duration;

use mcp_sansio::adapters::stdio::{Sink, StdioLoop};

use app::{Options, ServerApp, ServerEndpoint};

const USAGE: &str = "usage: server [--page-size N] [--workers N] [--watch-interval-ms MS] [--verbose]

  --page-size N          items per page of every list (default 1000: one page)
  --workers N            worker threads for slow tools (default 4)
  --watch-interval-ms MS also change test://watched-resource every MS milliseconds
  --verbose              describe every event on stderr";

/// The receive buffer: the largest message the server accepts (longer lines are skipped).
const RX_BUFFER: usize = 512 * 1024;

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut opts = Options::default();
    while let Some(arg) = args.next() {
        let mut number = |flag: &str| -> Result<u64, String> {
            let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
            value.parse().map_err(|_| format!("{flag}: not a number: {value}"))
        };
        match arg.as_str() {
            "--page-size" => opts.page_size = number("--page-size")?.max(1) as usize,
            "--workers" => opts.workers = number("--workers")?.clamp(1, 64) as usize,
            "--watch-interval-ms" => {
                opts.watch_interval = Some(Duration::from_millis(number("--watch-interval-ms")?.max(1)))
            }
            "--verbose" => opts.verbose = true,
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument: {other}")),
        }
    }
    Ok(opts)
}

fn run(opts: Options) -> io::Result<()> {
    let verbose = opts.verbose;
    let mut event_loop = StdioLoop::stdin()?;
    let (mut rx, mut tx) = (vec![0u8; RX_BUFFER], vec![0u8; opts.tx_capacity]);
    let mut endpoint: ServerEndpoint<'_> =
        ServerEndpoint::new(app::config(), &mut rx, &mut tx, event_loop.clock().now()).map_err(io::Error::other)?;
    let mut app = ServerApp::new(opts)?;
    let reason = event_loop.run(&mut endpoint, Sink::stdout()?, &mut app)?;
    // Stop the workers still busy for a client that is gone; dropping the app joins them.
    app.stop_jobs();
    drop(app);
    if verbose {
        eprintln!("[server] exiting: {reason}");
    }
    Ok(())
}

fn main() -> ExitCode {
    let opts = match parse_args(std::env::args().skip(1)) {
        Ok(opts) => opts,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("server: {message}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(opts) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("server: {e}");
            ExitCode::FAILURE
        }
    }
}
