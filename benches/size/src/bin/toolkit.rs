//! The same tools-only server on the toolkit: `add` and `echo` from a static table (schema!, paging, errors for the model).
#![no_std]
#![no_main]

use core::hint::black_box;
use mcp_sansio::mcp::Implementation;
use mcp_sansio::session::{Endpoint, Event, HandshakeServer, Output};
use mcp_sansio::time::Instant;
use mcp_sansio::toolkit::server::{Server, Table, ToolCallFn, ToolFn};
use mcp_sansio::wire::{ErrorCode, JsonStr};
use mcp_sansio_size::opaque;

mcp_sansio::schema! {
    #[derive(serde::Deserialize)]
    pub struct Add { a: i32, b: i32 }

    #[derive(serde::Deserialize)]
    pub struct Echo<'a> {
        #[serde(borrow)]
        text: JsonStr<'a>,
    }
}

static ADD: ToolFn<Add, (), i64> = ToolFn::new("add", |_, Add { a, b }| i64::from(a) + i64::from(b));
static ECHO: ToolCallFn<Echo<'static>, ()> = ToolCallFn::new("echo", |_, Echo { text }, call| call.respond(&text));
static TABLE: Table<'static, ()> = Table::new().tools(&[&ADD, &ECHO]);

#[unsafe(no_mangle)]
pub extern "C" fn _start() -> ! {
    let input = opaque::<512>();
    let mut rx = [0u8; 1024];
    let mut tx = [0u8; 2048];
    let mut server: Server<'_, ()> = Server::new(TABLE).info(Implementation::new("mcu", "1"));
    let Ok(mut ep) =
        Endpoint::<'_, 4, 4, &mut [u8], HandshakeServer>::new(server.config(), &mut rx, &mut tx, Instant::ZERO)
    else {
        loop {}
    };
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
                Output::Event(e) => match server.handle(&mut (), e) {
                    Some(Event::Request(mut req)) => {
                        let _ = req.respond_error(ErrorCode::METHOD_NOT_FOUND, "Method not found");
                    }
                    other => {
                        black_box(&other);
                    }
                },
                Output::Idle { next_timeout } => {
                    black_box(next_timeout);
                    let _ = server.poll(&mut (), &mut ep, t);
                    break;
                }
            }
        }
    }
}
