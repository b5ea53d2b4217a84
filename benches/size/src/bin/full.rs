//! All of it: a server loop framing lines, classifying, decoding, encoding replies.
//!
//! Frames stdin lines, parses and classifies each, decodes `tools/call` params and
//! encodes the result and an error.
#![no_std]
#![no_main]

use core::hint::black_box;
use mcp_sansio::wire::Message;
use mcp_sansio_size::{classify, decode_call, encode, frame_lines, opaque};

#[unsafe(no_mangle)]
pub extern "C" fn _start() -> ! {
    let input = opaque::<512>();
    let mut rx = [0u8; 512];
    let mut tx = [0u8; 512];
    let mut scratch = [0u8; 256];
    loop {
        frame_lines(&mut rx, &input, |line| {
            if let Some(Message::Request(r)) = classify(line) {
                let n = r.params.map_or(0, |p| decode_call(p, &mut scratch));
                let text = core::str::from_utf8(&scratch[..n.min(scratch.len())]).unwrap_or("");
                black_box(encode(&mut tx, r.id, text));
            }
        });
    }
}
