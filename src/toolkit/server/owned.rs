//! Values serialized into owned JSON text (with `alloc`): what crosses threads, and what
//! waits for room in the transmit buffer.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use serde::Serialize;

use crate::wire::{EncodeError, FrameWriter};

/// `value` as compact JSON text, `None` if it does not serialize.
pub(crate) fn to_json<T: Serialize + ?Sized>(value: &T) -> Option<Vec<u8>> {
    let mut buf = vec![0u8; 256];
    loop {
        let mut w = FrameWriter::unterminated(&mut buf);
        match w.value(value) {
            Ok(range) => {
                buf.truncate(range.end);
                return Some(buf);
            }
            Err(EncodeError::BufferTooSmall { needed, .. }) if needed > buf.len() => buf.resize(needed, 0),
            Err(_) => return None,
        }
    }
}

/// `value` as a `String` of JSON text.
pub(crate) fn to_text<T: Serialize + ?Sized>(value: &T) -> Option<String> {
    String::from_utf8(to_json(value)?).ok()
}
