//! Validate + classify, then typed decoding of `tools/call` params (no floats).
#![no_std]
#![no_main]

use core::hint::black_box;
use mcp_sansio::wire::Message;
use mcp_sansio_size::{classify, decode_call, opaque};

#[unsafe(no_mangle)]
pub extern "C" fn _start() -> ! {
    let rx = opaque::<512>();
    let mut scratch = [0u8; 256];
    loop {
        let len = black_box(rx.len());
        if let Some(Message::Request(r)) = classify(&rx[..len])
            && let Some(params) = r.params
        {
            black_box(decode_call(params, &mut scratch));
        }
    }
}
