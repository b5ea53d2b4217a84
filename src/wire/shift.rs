//! Moving bytes inside one buffer (`copy_within`) without linking `memmove` on the
//! targets where flash is scarce.
//!
//! The buffers the core owns are compacted in place: the line framer moves an unread tail
//! to the front, the transmit buffer drops what was written out, held requests close up
//! behind a dropped entry, the encoder makes room for an inserted member (and likewise the
//! SSE writer and the HTTP server's log; the SSE decoder, and with it the HTTP client,
//! keeps `copy_within`, as its `rotate_right` links `memmove` anyway). `copy_within` is
//! `memmove`, and on a Cortex-M compiler-builtins' `memmove` is 1.5 KB of `.text` (a
//! forward and a backward path, each word-aligned with its misaligned variants), while
//! every firmware links `memcpy` anyway. So with the [`compact`](super::find) searches (the
//! same target class: 32- and 16-bit targets without SIMD, or `--cfg mcp_sansio_compact`)
//! an overlapping move is done as a few non-overlapping `copy_from_slice`s (`memcpy`), each
//! as long as the distance moved; everywhere else it stays `copy_within`. Both give the
//! same bytes on every input: the tests compare them.

use core::ops::Range;

use super::find::COMPACT;

/// `buf.copy_within(src, dest)`: the bytes of `src` copied to start at `dest`, the ranges
/// may overlap. Panics where `copy_within` does (a range outside `buf`): the callers' ranges
/// are their own invariants.
#[inline]
pub(crate) fn copy_within(buf: &mut [u8], src: Range<usize>, dest: usize) {
    if COMPACT {
        by_chunks(buf, src, dest);
    } else {
        buf.copy_within(src, dest);
    }
}

/// The move as non-overlapping copies, each at most as long as the distance moved: front
/// to back when moving down (a chunk's destination ends where its source begins, and
/// what it overwrites was already copied), back to front when moving up.
fn by_chunks(buf: &mut [u8], src: Range<usize>, dest: usize) {
    let len = src.len();
    if dest < src.start {
        let distance = src.start - dest;
        let mut done = 0;
        while done < len {
            let n = distance.min(len - done);
            let (low, high) = buf.split_at_mut(src.start + done);
            low[dest + done..dest + done + n].copy_from_slice(&high[..n]);
            done += n;
        }
    } else if dest > src.start {
        let distance = dest - src.start;
        let mut left = len;
        while left > 0 {
            let n = distance.min(left);
            let from = src.start + left - n;
            // The destination, `from + distance ..`, starts at or after the source's end.
            let (low, high) = buf.split_at_mut(from + n);
            high[distance - n..distance].copy_from_slice(&low[from..]);
            left -= n;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::by_chunks;

    /// Every range and destination inside a 13-byte buffer: the same bytes as `copy_within`.
    #[test]
    fn chunks_move_like_copy_within() {
        const N: usize = 13;
        let original: [u8; N] = core::array::from_fn(|i| i as u8 + 1);
        for start in 0..=N {
            for end in start..=N {
                for dest in 0..=N - (end - start) {
                    let (mut expected, mut got) = (original, original);
                    expected.copy_within(start..end, dest);
                    by_chunks(&mut got, start..end, dest);
                    assert_eq!(got, expected, "{start}..{end} to {dest}");
                }
            }
        }
    }
}
