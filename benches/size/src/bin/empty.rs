//! Nothing but the entry point and the panic handler: the fixed cost to subtract.
#![no_std]
#![no_main]

use mcp_sansio_size as _;

#[unsafe(no_mangle)]
pub extern "C" fn _start() -> ! {
    loop {
        core::hint::black_box(());
    }
}
