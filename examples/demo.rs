//! MCP in five minutes: the example client talks to the example server over a real byte
//! stream (two OS pipes; the server runs on a thread of its own, exactly as it would in
//! its own process), and every line on the wire is printed with what it means. Twice:
//! once in the handshake era (`initialize`, 2025-11-25), once in the stateless one
//! (2026-07-28: `server/discover`, requests that carry their own `_meta`, an
//! `input_required` round, a listen stream).
//!
//!     cargo run --example demo
//!
//! `→` is a line the client wrote, `←` a line the server wrote, `·` what the client made
//! of it. The same code runs as two programs: `examples/server` and `examples/client`.
//! For a deterministic version on a virtual clock, see `cargo run --example tour`.

#[allow(dead_code)]
#[path = "client/app.rs"]
mod client_app;
#[allow(dead_code)]
#[path = "server/fixtures.rs"]
mod fixtures;
#[allow(dead_code)]
#[path = "server/mrtr.rs"]
mod mrtr;
#[allow(dead_code)]
#[path = "client/plan.rs"]
mod plan;
#[allow(dead_code)]
#[path = "server/app.rs"]
mod server_app;

use std::io;
use std::time::Duration;

use mcp_sansio::adapters::stdio::StdioLoop;
use mcp_sansio::session::{CloseReason, Era};

use client_app::{ClientApp, ClientEndpoint, SharedWriter, TapReader};
use plan::{Plan, ToolCall};
use server_app::{Options, ServerEndpoint};

const INTRO: &str = "\
MCP, the Model Context Protocol, connects an application that runs a model (the client)
to a program that offers it tools, resources and prompts (the server). Messages are
JSON-RPC 2.0: requests with an id, answered by exactly one response with the same id,
and notifications, which are never answered. On stdio each message is one line of JSON.

Here the server offers the official conformance suite's fixtures and lists 4 items per
page. The client follows a script; every step below is one exchange. The protocol has two
eras: the first session opens with the `initialize` handshake (2025-11-25 and before),
the second is stateless (2026-07-28).";

const MODERN: &str = "\
== The same server, the stateless era (2026-07-28)

A new connection, and a client that tries the newest era first: it sends `server/discover`
with 2026-07-28 in `_meta`. This server answers it, so there is no handshake: every request
carries its version, the client's capabilities and name in `_meta`, the server checks them
on each one, and every result says what kind it is (`resultType`). The server sends no
requests of its own: when a tool needs the client, its result says `input_required`, and
the client answers and sends the call again with a new id.";

/// The server, as `examples/server` runs it, reading `input` and writing `output`.
fn serve(input: io::PipeReader, output: io::PipeWriter) -> io::Result<CloseReason> {
    let opts = Options { page_size: 4, ..Options::default() };
    let mut event_loop = StdioLoop::new(input)?;
    let (rx, tx) = (vec![0u8; 64 * 1024].into_boxed_slice(), vec![0u8; opts.tx_capacity].into_boxed_slice());
    let (mut handler, config) = server_app::handler(&opts)?;
    let mut endpoint =
        ServerEndpoint::with_buffers(config, rx, tx, event_loop.clock().now()).map_err(io::Error::other)?;
    event_loop.serve(&mut endpoint, output, &mut handler)
}

fn call(name: &str, args: &str) -> ToolCall {
    ToolCall { name: name.into(), args: args.into(), expect_error: false }
}

/// One session through a pair of pipes: `plan` run by the client against the server.
fn session(plan: Plan) -> io::Result<Vec<String>> {
    let (server_in, client_out) = io::pipe()?;
    let (client_in, server_out) = io::pipe()?;
    let server = std::thread::Builder::new().name("server".into()).spawn(move || serve(server_in, server_out))?;
    let writer = SharedWriter::new(client_out, true);
    let mut event_loop = StdioLoop::new(TapReader::new(client_in, true))?;
    let capabilities = plan.capabilities();
    let (mut rx, mut tx) = (vec![0u8; 256 * 1024], vec![0u8; 64 * 1024]);
    let mut endpoint: ClientEndpoint<'_> =
        ClientEndpoint::new(plan.config(&capabilities), &mut rx, &mut tx, event_loop.clock().now())
            .map_err(io::Error::other)?;
    let mut app = ClientApp::new(plan, Some(writer.clone()));
    event_loop.run(&mut endpoint, writer.clone(), &mut app)?;

    // Closing our end of the pipe is how a stdio client ends the session.
    writer.close();
    let reason = server.join().map_err(|_| io::Error::other("the server thread panicked"))??;
    println!("   · the server read the end of its input, answered what it owed, and stopped ({reason})");
    Ok(app.failures)
}

fn main() -> io::Result<()> {
    println!("{INTRO}");
    let legacy = Plan {
        era: Era::Legacy,
        calls: vec![
            call("test_simple_text", "{}"),
            call("test_image_content", "{}"),
            call("test_tool_with_logging", "{}"),
            call("test_sampling", r#"{"prompt":"Write a haiku about pipes"}"#),
            call("test_elicitation", r#"{"message":"Please provide your information"}"#),
            ToolCall { expect_error: true, ..call("no_such_tool", "{}") },
        ],
        progress: Some(call("test_long_running", r#"{"steps":4,"stepMs":100}"#)),
        cancel: Some(call("test_long_running", r#"{"steps":50,"stepMs":100}"#)),
        cancel_after: Duration::from_millis(350),
        timeout: Some((call("test_long_running", r#"{"steps":10,"stepMs":100}"#), Duration::from_millis(250))),
        malformed: true,
        listen: false,
        teach: true,
        ..Plan::default()
    };
    let mut failures = session(legacy)?;
    println!();
    println!("{MODERN}");
    let modern = Plan {
        era: Era::Auto,
        lists: false,
        calls: vec![
            call("test_simple_text", "{}"),
            call("test_sampling", r#"{"prompt":"Write a haiku about statelessness"}"#),
        ],
        progress: None,
        cancel: None,
        teach: true,
        ..Plan::default()
    };
    failures.extend(session(modern)?);
    println!();
    if failures.is_empty() {
        println!("That is the whole protocol over stdio, in both eras. Run the two halves as programs:");
        println!("    cargo build --examples");
        println!("    target/debug/examples/client --wire -- target/debug/examples/server --page-size 4 --verbose");
        println!("    target/debug/examples/client --era legacy --wire -- target/debug/examples/server --page-size 4");
        Ok(())
    } else {
        Err(io::Error::other(format!("{} step(s) did not behave: {failures:?}", failures.len())))
    }
}
