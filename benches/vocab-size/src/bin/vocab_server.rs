//! The same server with the vocabulary's types (InitializeParams/Result, Tool, CallTool*, Resource, ReadResource*).
#![no_std]
#![no_main]

use core::hint::black_box;

#[allow(unused_imports)]
use mcp_sansio_vocab_size::opaque;

#[unsafe(no_mangle)]
pub extern "C" fn _start() -> ! {
    let rx = opaque::<512>();
    let mut tx = [0u8; 1024];
    loop {
        let n = black_box(rx.len());
        black_box(mcp_sansio_vocab_size::serve_vocab(&rx[..n], &mut tx));
    }
}
