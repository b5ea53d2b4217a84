//! Encoding only: a result and an error response with `FrameWriter`.
#![no_std]
#![no_main]

use core::hint::black_box;
use mcp_sansio::wire::RequestId;
use mcp_sansio_size::encode;

#[unsafe(no_mangle)]
pub extern "C" fn _start() -> ! {
    let mut tx = [0u8; 512];
    loop {
        let id = RequestId::from_u64(black_box(7));
        let text = black_box("hello \"world\"\n");
        black_box(encode(&mut tx, id.as_ref(), text));
    }
}
