//! decode_request + decode_notification over every method (all params types).
#![no_std]
#![no_main]

use core::hint::black_box;

#[allow(unused_imports)]
use mcp_sansio_vocab_size::opaque;

#[unsafe(no_mangle)]
pub extern "C" fn _start() -> ! {
    let rx = opaque::<512>();
    loop {
        let n = black_box(rx.len());
        black_box(mcp_sansio_vocab_size::dispatch_all(&rx[..n]));
    }
}
