//! The searches of [`find`](super) a byte at a time, for targets where code size matters
//! more than speed on long strings (see the module docs there). Same answers as
//! [`wide`](super::wide) on every input: the tests compare them.

use super::{is_escape_stop, is_text_stop};

/// For the validator: there is no short cut here, so always `Err(start)` (see the wide
/// version).
#[inline(always)]
pub(crate) fn plain_prefix(_buf: &[u8], start: usize) -> Result<usize, usize> {
    Err(start)
}

/// For the validator: from `i`, the offset of the next byte that ends a run of plain text
/// (see [`is_text_stop`]), or `buf.len()`.
#[inline(always)]
pub(crate) fn next_text_stop(buf: &[u8], mut i: usize) -> usize {
    while let Some(&b) = buf.get(i) {
        if is_text_stop(b) {
            break;
        }
        i += 1;
    }
    i
}

/// In validated text: no short cut here, so always `None` (see the wide version).
#[inline(always)]
pub(crate) fn short_string(_buf: &[u8], _start: usize) -> Option<usize> {
    None
}

/// Whether `bytes` holds a backslash.
#[inline]
pub(crate) fn has_backslash(bytes: &[u8]) -> bool {
    // A loop rather than `contains`, whose general search (`memchr`) is larger code.
    #[allow(clippy::manual_contains)]
    let found = bytes.iter().any(|&b| b == b'\\');
    found
}

/// The offset of the first byte at or after `i` that must be escaped in a string literal,
/// or `buf.len()`.
#[inline]
pub(crate) fn next_escape(buf: &[u8], mut i: usize) -> usize {
    while let Some(&b) = buf.get(i) {
        if is_escape_stop(b) {
            return i;
        }
        i += 1;
    }
    buf.len()
}

/// In validated text, the offset of the quote that closes the string whose body starts at
/// `i`, and (with `BACKSLASHES`) whether the body holds an escape; `None` if the text ends
/// first. (`_start`, where the body starts, is `i` for every caller; the wide version
/// needs it to look back over backslashes, this one reads escapes forward.)
#[inline(always)]
pub(crate) fn closing_quote<const BACKSLASHES: bool>(buf: &[u8], _start: usize, i: usize) -> Option<(usize, bool)> {
    let (end, escaped) = closing_quote_from(buf, i)?;
    Some((end, BACKSLASHES && escaped))
}

/// One copy of the search for both modes of [`closing_quote`].
#[inline(never)]
fn closing_quote_from(buf: &[u8], mut i: usize) -> Option<(usize, bool)> {
    let mut escaped = false;
    loop {
        match *buf.get(i)? {
            b'"' => return Some((i, escaped)),
            b'\\' => {
                escaped = true;
                i += 2;
            }
            _ => i += 1,
        }
    }
}
