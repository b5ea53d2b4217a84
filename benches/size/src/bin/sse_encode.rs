//! The SSE writer only: priming event, message, keep-alive comment, retry.
#![no_std]
#![no_main]

use core::hint::black_box;
use mcp_sansio_size::{opaque, sse_encode};

#[unsafe(no_mangle)]
pub extern "C" fn _start() -> ! {
    let json = opaque::<64>();
    let mut out = [0u8; 512];
    loop {
        black_box(sse_encode(&mut out, black_box("s1-7"), &json));
    }
}
