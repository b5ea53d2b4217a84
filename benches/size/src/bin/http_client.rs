//! The HTTP client core: Streamable HTTP with the HTTP+SSE fallback, 4 exchanges.
//!
//! An `HttpClient<'_, 4>` sent opaque messages and fed opaque response heads, bodies,
//! ends, failures and timeouts on whatever exchanges it asks for, with auth retries and
//! close: every path of the client is reachable, so the linker keeps all of it.
#![no_std]
#![no_main]

use core::hint::black_box;
use mcp_sansio::http::client::{ClientConfig, Event, Failure, HttpClient, Output};
use mcp_sansio::time::Instant;
use mcp_sansio_size::opaque;

#[unsafe(no_mangle)]
pub extern "C" fn _start() -> ! {
    let input = opaque::<512>();
    let mut storage = [0u8; 256 + 128 + 64 + 7 + 4 * 1024];
    let Ok(config) = ClientConfig::new("http://192.168.1.20:3000/mcp") else { loop {} };
    let config = config.endpoint_url_capacity(128).token_capacity(64);
    let Ok(mut client) = HttpClient::<'_, 4>::new(config, &mut storage) else { loop {} };
    let _ = client.set_bearer_token(core::str::from_utf8(&input[..16]).ok());
    let mut now = 0u64;
    let mut last = None;
    loop {
        now += black_box(1);
        let t = Instant::from_millis(now);
        let pick = input[(now % 64) as usize];
        let _ = client.send_message(t, &input[64..320]);
        if let Some(x) = last {
            match pick % 6 {
                0 => {
                    let status = u16::from_le_bytes([input[1], input[2]]);
                    let headers = [
                        ("content-type", &input[320..352]),
                        ("mcp-session-id", &input[352..384]),
                        ("www-authenticate", &input[384..448]),
                    ];
                    client.handle_response(t, x, status, headers);
                }
                1 => {
                    black_box(client.handle_body(t, x, &input[448..512]));
                }
                2 => client.handle_end(t, x),
                3 => client.handle_failure(t, x, Failure::Broken),
                4 => client.close(t),
                _ => client.handle_timeout(t),
            }
        }
        loop {
            match client.poll_output() {
                Output::Request(r) => {
                    last = Some(r.exchange);
                    black_box((r.url, r.headers(), r.body));
                }
                Output::Abort(x) => {
                    black_box(x);
                }
                Output::Message(m) => {
                    black_box(m.bytes);
                    client.consume_message();
                }
                Output::Event(Event::AuthRequired { exchange, bearer, .. }) => {
                    black_box(bearer);
                    let _ = if pick & 1 == 0 { client.retry(exchange).map(|_| ()) } else { client.give_up(exchange) };
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
