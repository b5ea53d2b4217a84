//! Nothing but the entry point and the panic handler: the fixed cost to subtract.
#![no_std]
#![no_main]

use core::hint::black_box;

#[allow(unused_imports)]
use mcp_sansio_vocab_size::opaque;

#[unsafe(no_mangle)]
pub extern "C" fn _start() -> ! {
    loop {
        black_box(());
    }
}
