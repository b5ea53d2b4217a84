//! The stdio line framer only.
#![no_std]
#![no_main]

use core::hint::black_box;
use mcp_sansio_size::{frame_lines, opaque};

#[unsafe(no_mangle)]
pub extern "C" fn _start() -> ! {
    let input = opaque::<256>();
    let mut buf = [0u8; 512];
    loop {
        frame_lines(&mut buf, &input, |line| {
            black_box(line);
        });
    }
}
