//! The HTTP server core: request-head and body classification, refusals, session ids
//! (random and signed), the session table and one session's SSE streams.
#![no_std]
#![no_main]

use core::hint::black_box;
use mcp_sansio_size::{http_server, opaque};

#[unsafe(no_mangle)]
pub extern "C" fn _start() -> ! {
    let raw = opaque::<512>();
    let mut out = [0u8; 1536];
    loop {
        black_box(http_server(&raw, &mut out));
    }
}
