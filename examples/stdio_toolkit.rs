//! The stdio round-trip bench's echo server on the toolkit: `echo {message}` from a
//! `static` table, its text answered straight from the request (no copy), served by
//! `Server::serve_stdio`. With `--bare`, the same echo on the bare endpoint and the same
//! stdio loop, decoding by hand (what an application writes without the toolkit): the
//! two side by side show what the toolkit costs per request.
//!
//!     cargo run --release --features stdio --example stdio_toolkit [-- --bare]

use mcp_sansio::adapters::stdio::{App, Mailbox, Sink, StdioLoop};
use mcp_sansio::mcp::{CallToolParams, CallToolResult, ContentBlock, Implementation, Method, TextContent};
use mcp_sansio::session::{Endpoint, Event};
use mcp_sansio::time::Instant;
use mcp_sansio::toolkit::server::{STDIO_IN, STDIO_OUT, STDIO_RX, STDIO_TX, Server, Table, ToolCallFn};
use mcp_sansio::wire::{ErrorCode, JsonStr, RawJson};

mcp_sansio::schema! {
    #[derive(serde::Deserialize)]
    pub struct Echo<'a> {
        #[serde(borrow)]
        message: JsonStr<'a>,
    }
}

static ECHO: ToolCallFn<Echo<'static>, ()> =
    ToolCallFn::new("echo", |_, Echo { message }, call| call.respond(&message));
static TABLE: Table<'static, ()> = Table::new().tools(&[&ECHO]);

/// The bare endpoint's echo: params and arguments decoded by hand.
struct Bare;

impl App<STDIO_OUT, STDIO_IN> for Bare {
    type Message = ();

    fn on_event(&mut self, event: Event<'_>, _: &Mailbox<()>) {
        let Event::Request(mut req) = event else { return };
        let call = req.params.and_then(|p| p.decode::<CallToolParams<'_>>().ok());
        let _ = match call.filter(|c| req.method == Method::ToolsCall && c.name == "echo") {
            Some(call) => match call.arguments.unwrap_or(RawJson::EMPTY_OBJECT).decode::<Echo<'_>>() {
                Ok(Echo { message }) => req.respond(&CallToolResult::one(ContentBlock::Text(TextContent {
                    text: message,
                    annotations: None,
                    meta: None,
                }))),
                Err(_) => req.respond(&CallToolResult::error("Invalid arguments")),
            },
            None => req.respond_error(ErrorCode::METHOD_NOT_FOUND, "Method not found"),
        };
    }

    fn on_message(&mut self, _: &mut Endpoint<'_, STDIO_OUT, STDIO_IN>, _: Instant, (): ()) {}
}

fn main() -> std::io::Result<()> {
    let server: Server<'_, ()> = Server::new(TABLE).info(Implementation::new("stdio-toolkit", "0.1.0"));
    if !std::env::args().any(|a| a == "--bare") {
        server.serve_stdio(&mut ())?;
        return Ok(());
    }
    // The same loop, buffers and configuration, without the toolkit.
    let mut ev_loop = StdioLoop::stdin()?;
    let (mut rx, mut tx) = (vec![0u8; STDIO_RX], vec![0u8; STDIO_TX]);
    let mut endpoint: Endpoint<'_, STDIO_OUT, STDIO_IN> =
        Endpoint::new(server.config(), &mut rx, &mut tx, ev_loop.clock().now()).map_err(std::io::Error::other)?;
    ev_loop.run(&mut endpoint, Sink::stdout()?, &mut Bare)?;
    Ok(())
}
