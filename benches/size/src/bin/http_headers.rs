//! The HTTP header grammars: Accept, Content-Type, the MCP headers, Origin, Host, the
//! base64 sentinel and a WWW-Authenticate Bearer challenge.
#![no_std]
#![no_main]

use core::hint::black_box;
use mcp_sansio_size::{http_headers, opaque};

#[unsafe(no_mangle)]
pub extern "C" fn _start() -> ! {
    let raw = opaque::<256>();
    let mut scratch = [0u8; 128];
    loop {
        let v: [&[u8]; 8] = core::array::from_fn(|k| &raw[k * 32..k * 32 + 32]);
        black_box(http_headers(&v, &mut scratch));
    }
}
