//! The session layer: a handshake-era server-only Endpoint (handshake, correlation, timers) answering tools.
//!
//! An `Endpoint<'_, 4, 4, &mut [u8], HandshakeServer>` server fed opaque bytes: it answers `initialize` and `ping`
//! itself, refuses what is not allowed, and the application answers `tools/call` with a
//! text result and everything else with an error; timeouts and end of input are handled.
#![no_std]
#![no_main]

use core::hint::black_box;
use mcp_sansio::mcp::{Method, Role};
use mcp_sansio::session::{Config, Endpoint, Event, HandshakeServer, Output};
use mcp_sansio::time::Instant;
use mcp_sansio::wire::{ErrorCode, RawJson};
use mcp_sansio_size::opaque;

#[unsafe(no_mangle)]
pub extern "C" fn _start() -> ! {
    let input = opaque::<512>();
    let mut rx = [0u8; 1024];
    let mut tx = [0u8; 2048];
    let info = RawJson::parse(br#"{"name":"mcu","version":"1"}"#).unwrap_or(RawJson::EMPTY_OBJECT);
    let caps = RawJson::parse(br#"{"tools":{}}"#).unwrap_or(RawJson::EMPTY_OBJECT);
    let config = Config::new(Role::Server, info).capabilities(caps);
    let Ok(mut ep) = Endpoint::<'_, 4, 4, &mut [u8], HandshakeServer>::new(config, &mut rx, &mut tx, Instant::ZERO)
    else {
        loop {}
    };
    let result = RawJson::parse(br#"{"content":[{"type":"text","text":"ok"}]}"#).unwrap_or(RawJson::EMPTY_OBJECT);
    let mut now = 0u64;
    loop {
        now += black_box(1);
        let t = Instant::from_millis(now);
        let n = ep.handle_input(t, &input);
        if n == 0 {
            ep.handle_timeout(t);
        }
        if black_box(now) == 0 {
            ep.handle_eof(t);
        }
        loop {
            match ep.poll_output() {
                Output::Transmit(bytes) => {
                    black_box(&bytes);
                }
                Output::Event(Event::Request(mut req)) => {
                    let _ = if req.method == Method::ToolsCall {
                        req.respond(&result)
                    } else {
                        req.respond_error(ErrorCode::METHOD_NOT_FOUND, "Method not found")
                    };
                }
                Output::Event(e) => {
                    black_box(&e);
                }
                Output::Idle { next_timeout } => {
                    black_box(next_timeout);
                    break;
                }
            }
        }
    }
}
