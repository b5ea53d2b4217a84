//! A minimal server on the stdio adapter, for the stdio round-trip bench: StdioLoop and
//! the Endpoint with one canned tool result, answered inline (no worker threads). Compared
//! with examples/stdio_floor (same replies, no protocol), it shows what the adapter and
//! the session cost; compared with examples/server, what the example's application does.
//!
//!     cargo run --release --features stdio --example stdio_min

use mcp_sansio::adapters::stdio::{App, Mailbox, Sink, StdioLoop};
use mcp_sansio::mcp::{Method, Role};
use mcp_sansio::session::{Config, Endpoint, Event};
use mcp_sansio::time::Instant;
use mcp_sansio::wire::{ErrorCode, RawJson};

struct Min {
    call: RawJson<'static>,
}

impl App<4, 64> for Min {
    type Message = ();

    fn on_event(&mut self, event: Event<'_>, _mailbox: &Mailbox<()>) {
        if let Event::Request(mut req) = event {
            let _ = match req.method {
                Method::ToolsCall => req.respond(&self.call),
                _ => req.respond_error(ErrorCode::METHOD_NOT_FOUND, "Method not found"),
            };
        }
    }

    fn on_message(&mut self, _endpoint: &mut Endpoint<'_, 4, 64>, _now: Instant, _message: ()) {}
}

fn main() -> std::io::Result<()> {
    let config = Config::new(Role::Server, RawJson::parse(br#"{"name":"stdio-min","version":"0.1.0"}"#).unwrap())
        .capabilities(RawJson::parse(br#"{"tools":{}}"#).unwrap());
    let mut ev_loop = StdioLoop::stdin()?;
    let (mut rx, mut tx) = (vec![0u8; 64 * 1024], vec![0u8; 64 * 1024]);
    let mut endpoint: Endpoint<'_, 4, 64> =
        Endpoint::new(config, &mut rx, &mut tx, ev_loop.clock().now()).expect("valid configuration");
    let mut app = Min { call: RawJson::parse(br#"{"content":[{"type":"text","text":"hello"}]}"#).unwrap() };
    ev_loop.run(&mut endpoint, Sink::stdout()?, &mut app)?;
    Ok(())
}
