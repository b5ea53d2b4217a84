//! Validate + classify, then typed decoding of params with `f64` fields (progress).
#![no_std]
#![no_main]

use core::hint::black_box;
use mcp_sansio::wire::Message;
use mcp_sansio_size::{classify, decode_progress, opaque};

#[unsafe(no_mangle)]
pub extern "C" fn _start() -> ! {
    let rx = opaque::<512>();
    loop {
        let len = black_box(rx.len());
        if let Some(Message::Notification(n)) = classify(&rx[..len])
            && let Some(params) = n.params
        {
            black_box(decode_progress(params));
        }
    }
}
