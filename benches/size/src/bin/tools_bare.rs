//! A tools-only server on the bare endpoint: `add` and `echo`, a hand-written tool list, decoding by hand.
//! JSON table, their arguments decoded by hand (the toolkit probe's baseline).
#![no_std]
#![no_main]

use core::fmt::Write as _;
use core::hint::black_box;
use mcp_sansio::mcp::{CallToolParams, CallToolResult, ContentBlock, Method, Role, TextContent};
use mcp_sansio::session::{Config, Endpoint, Event, HandshakeServer, Output};
use mcp_sansio::time::Instant;
use mcp_sansio::wire::{ErrorCode, JsonStr, RawJson};
use mcp_sansio_size::opaque;

#[derive(serde::Deserialize)]
struct Add {
    a: i32,
    b: i32,
}

#[derive(serde::Deserialize)]
struct Echo<'a> {
    #[serde(borrow)]
    text: JsonStr<'a>,
}

static TOOLS: RawJson<'static> = RawJson::from_static(
    r#"{"tools":[{"name":"add","inputSchema":{"type":"object","properties":{"a":{"type":"integer","minimum":-2147483648,"maximum":2147483647},"b":{"type":"integer","minimum":-2147483648,"maximum":2147483647}},"required":["a","b"]}},{"name":"echo","inputSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}}]}"#,
);

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
                    let call = req.params.and_then(|p| p.decode::<CallToolParams<'_>>().ok());
                    let args = call.and_then(|c| c.arguments).unwrap_or(RawJson::EMPTY_OBJECT);
                    let _ = match (req.method, call) {
                        (Method::ToolsList, _) => req.respond(&TOOLS),
                        (Method::ToolsCall, Some(c)) if c.name == "add" => match args.decode::<Add>() {
                            Ok(Add { a, b }) => {
                                let mut text: heapless::String<24> = heapless::String::new();
                                let _ = write!(text, "{}", i64::from(a) + i64::from(b));
                                req.respond(&CallToolResult::text(&text))
                            }
                            Err(_) => req.respond(&CallToolResult::error("Invalid arguments")),
                        },
                        (Method::ToolsCall, Some(c)) if c.name == "echo" => match args.decode::<Echo<'_>>() {
                            Ok(Echo { text }) => req.respond(&CallToolResult::one(ContentBlock::Text(TextContent {
                                text,
                                annotations: None,
                                meta: None,
                            }))),
                            Err(_) => req.respond(&CallToolResult::error("Invalid arguments")),
                        },
                        (Method::ToolsCall, _) => req.respond_error(ErrorCode::INVALID_PARAMS, "Unknown tool"),
                        _ => req.respond_error(ErrorCode::METHOD_NOT_FOUND, "Method not found"),
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
