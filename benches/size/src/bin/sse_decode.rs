//! The SSE decoder only: an HTTP client reading an event stream.
#![no_std]
#![no_main]

use core::hint::black_box;
use mcp_sansio_size::{opaque, sse_decode};

#[unsafe(no_mangle)]
pub extern "C" fn _start() -> ! {
    let input = opaque::<256>();
    let mut buf = [0u8; 512];
    loop {
        black_box(sse_decode(&mut buf, &input, |message| {
            black_box(message);
        }));
    }
}
