//! Validate + classify only: `Message::parse` on a frame.
#![no_std]
#![no_main]

use core::hint::black_box;
use mcp_sansio_size::{classify, opaque};

#[unsafe(no_mangle)]
pub extern "C" fn _start() -> ! {
    let rx = opaque::<512>();
    loop {
        let len = black_box(rx.len());
        black_box(classify(&rx[..len]));
    }
}
