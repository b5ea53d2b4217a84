//! The searches of [`find`](super) for targets where speed on long strings matters more
//! than code size: eight bytes at a time everywhere, and sixteen at a time (a block test the
//! auto-vectorizer turns into a few SIMD instructions) where there is SIMD.

use super::{HI, LO, eq_mask, first, is_escape_stop, is_text_stop, word};

/// Bytes per block.
pub(crate) const BLOCK: usize = 16;

/// For the validator: each byte that ends a run of plain string text, namely `"`, `\`, a
/// control character (U+0000..U+001F) or a non-ASCII byte (whose UTF-8 sequence is checked
/// where it occurs).
///
/// `x = w ^ 0x02` moves `"` (0x22) to 0x20 and keeps control characters below 0x20 while
/// moving space and `!` above it, so one "below 0x21" test finds quotes and control
/// characters together; the high bit of `x` is the high bit of `w`.
#[inline(always)]
pub(crate) const fn text_stops(w: u64) -> u64 {
    let x = w ^ (LO * 0x02);
    ((x.wrapping_sub(LO * 0x21) | x) & HI) | eq_mask(w, b'\\')
}

/// For the encoder: each byte that must be escaped in a string literal: `"`, `\`, or a
/// control character. Non-ASCII text is written as it is.
#[inline(always)]
pub(crate) const fn escape_stops(w: u64) -> u64 {
    let x = w ^ (LO * 0x02);
    (x.wrapping_sub(LO * 0x21) & !x & HI) | eq_mask(w, b'\\')
}

/// For the validator: `Ok(end)` if the string whose body starts at `start` closes at `end`
/// within its first eight bytes with nothing before that to check (member names, short
/// values); otherwise `Err(from)`, the offset the full scan must go on from (nothing
/// before it needs a look).
#[inline(always)]
pub(crate) fn plain_prefix(buf: &[u8], start: usize) -> Result<usize, usize> {
    let Some(w) = word(buf, start) else { return Err(start) };
    let mask = text_stops(w);
    if mask == 0 {
        return Err(start + 8);
    }
    let at = start + first(mask);
    if buf.get(at) == Some(&b'"') { Ok(at) } else { Err(at) }
}

/// For the validator: from `i`, the offset of the next byte that ends a run of plain text
/// (a [`text_stops`] byte), or `buf.len()`.
#[inline(always)]
pub(crate) fn next_text_stop(buf: &[u8], mut i: usize) -> usize {
    loop {
        match word(buf, i) {
            Some(w) => {
                let mask = text_stops(w);
                if mask != 0 {
                    return i + first(mask);
                }
                i = skip_plain_text(buf, i + 8);
            }
            None => {
                while let Some(&b) = buf.get(i) {
                    if is_text_stop(b) {
                        return i;
                    }
                    i += 1;
                }
                return i;
            }
        }
    }
}

/// In validated text: the offset of the quote that closes the string whose body starts at
/// `start`, if it is among the next sixteen bytes with no backslash before it (member
/// names, most values).
#[inline(always)]
pub(crate) fn short_string(buf: &[u8], start: usize) -> Option<usize> {
    for at in [start, start + 8] {
        let w = word(buf, at)?;
        let quotes = eq_mask(w, b'"');
        let below = if quotes == 0 { u64::MAX } else { (quotes & quotes.wrapping_neg()) - 1 };
        if eq_mask(w, b'\\') & below != 0 {
            return None;
        }
        if quotes != 0 {
            return Some(at + first(quotes));
        }
    }
    None
}

/// Whether this target has SIMD for the block kernels to compile to.
const VECTOR: bool = cfg!(any(target_feature = "sse2", target_feature = "neon", target_feature = "simd128"));

#[cfg(not(any(target_feature = "sse2", target_feature = "neon", target_feature = "simd128")))]
use swar as kernel;

/// The kernels of this target: vectorizable loops where there is SIMD, SWAR words elsewhere.
#[cfg(any(target_feature = "sse2", target_feature = "neon", target_feature = "simd128"))]
use vector as kernel;

/// From `i`, skips whole blocks that hold no [`text_stops`] byte; returns the offset of the
/// first block that holds one, or of the last few bytes (fewer than a block).
#[inline(always)]
pub(crate) fn skip_plain_text(buf: &[u8], i: usize) -> usize {
    skip_blocks(buf, i, kernel::plain_text)
}

/// From `i`, skips whole blocks that hold no [`escape_stops`] byte (see
/// [`skip_plain_text`]).
#[inline(always)]
pub(crate) fn skip_plain_escape(buf: &[u8], i: usize) -> usize {
    skip_blocks(buf, i, kernel::plain_escape)
}

/// From `i`, skips whole blocks that hold no quote (see [`skip_plain_text`]), two blocks
/// at a time while it can: quotes are rare inside a string, so this is the longest run.
#[inline(always)]
pub(crate) fn skip_no_quote(buf: &[u8], i: usize) -> usize {
    if !VECTOR {
        return i;
    }
    let Some(rest) = buf.get(i..) else { return i };
    let mut n = 0;
    for pair in rest.chunks_exact(2 * BLOCK) {
        let (a, b) = pair.split_at(BLOCK);
        let (Ok(a), Ok(b)) = (<&[u8; BLOCK]>::try_from(a), <&[u8; BLOCK]>::try_from(b)) else { break };
        if kernel::has_quote(a) | kernel::has_quote(b) {
            break;
        }
        n += 2 * BLOCK;
    }
    skip_blocks(buf, i + n, |b| !kernel::has_quote(b))
}

/// From `i`, skips whole blocks that hold no quote (see [`skip_plain_text`]), and says
/// whether any of the skipped bytes is a backslash.
#[inline(always)]
pub(crate) fn skip_no_quote_noting_backslashes(buf: &[u8], i: usize) -> (usize, bool) {
    let mut backslash = false;
    let end = skip_blocks(buf, i, |b| {
        let (q, bs) = kernel::quote_or_backslash(b);
        backslash |= bs && !q;
        !q
    });
    (end, backslash)
}

#[inline(always)]
fn skip_blocks(buf: &[u8], i: usize, mut plain: impl FnMut(&[u8; BLOCK]) -> bool) -> usize {
    // Without SIMD a block is two words: the word loops of the callers do the same work
    // with less code, which matters more on such targets (microcontrollers).
    if !VECTOR {
        return i;
    }
    let Some(rest) = buf.get(i..) else { return i };
    let mut n = 0;
    for chunk in rest.chunks_exact(BLOCK) {
        let Ok(block) = <&[u8; BLOCK]>::try_from(chunk) else { break };
        if !plain(block) {
            break;
        }
        n += BLOCK;
    }
    i + n
}

/// Whether `bytes` holds a backslash.
#[cfg_attr(any(target_feature = "sse2", target_feature = "neon", target_feature = "simd128"), inline)]
#[cfg_attr(not(any(target_feature = "sse2", target_feature = "neon", target_feature = "simd128")), inline(never))]
pub(crate) fn has_backslash(bytes: &[u8]) -> bool {
    let mut words = bytes.chunks_exact(8);
    let found = words.by_ref().any(|w| word(w, 0).is_some_and(|w| eq_mask(w, b'\\') != 0));
    // A loop rather than `contains`, whose general search is larger code for these few bytes.
    #[allow(clippy::manual_contains)]
    let tail = words.remainder().iter().any(|&b| b == b'\\');
    found || tail
}

/// [`has_backslash`], two blocks at a time where there is SIMD: for the body of a string
/// just found in validated text (see `navigate::string`), where finding the closing quote
/// at full speed and then searching the body for a backslash costs less than one search
/// that tests every block for both.
#[inline(always)]
pub(crate) fn has_backslash_blocks(bytes: &[u8]) -> bool {
    if !VECTOR {
        return has_backslash(bytes);
    }
    let mut pairs = bytes.chunks_exact(2 * BLOCK);
    for pair in pairs.by_ref() {
        let (a, b) = pair.split_at(BLOCK);
        let (Ok(a), Ok(b)) = (<&[u8; BLOCK]>::try_from(a), <&[u8; BLOCK]>::try_from(b)) else { break };
        if kernel::has_backslash(a) | kernel::has_backslash(b) {
            return true;
        }
    }
    has_backslash(pairs.remainder())
}

/// The offset of the first byte at or after `i` that must be escaped in a string literal,
/// or `buf.len()`.
#[inline]
pub(crate) fn next_escape(buf: &[u8], i: usize) -> usize {
    next_escape_inlined(buf, i)
}

/// [`next_escape`], inlined into its caller: for the validator's bulk string loop (see
/// `Scanner::string_bulk`), which calls it once per escape, so that its constants stay
/// in registers across the loop.
#[inline(always)]
pub(crate) fn next_escape_inlined(buf: &[u8], mut i: usize) -> usize {
    loop {
        match word(buf, i) {
            Some(w) => {
                let mask = escape_stops(w);
                if mask != 0 {
                    return i + first(mask);
                }
                i = skip_plain_escape(buf, i + 8);
            }
            None => {
                while let Some(&b) = buf.get(i) {
                    if is_escape_stop(b) {
                        return i;
                    }
                    i += 1;
                }
                return buf.len();
            }
        }
    }
}

/// In validated text, the offset of the quote that closes the string whose body starts at
/// `start`, searching from `i`, and (with `BACKSLASHES`) whether the body holds a backslash
/// (an escape); `None` if the text ends first.
///
/// Only quotes stop the search: a quote preceded by an odd run of backslashes is escaped,
/// and the search goes on after it. Backslashes cost nothing more than being noted, and
/// only until the first one is seen, so text written with many escapes (Python's
/// `json.dumps` writes every non-ASCII character as `\uXXXX`) is skipped about as fast
/// as plain text.
#[cfg_attr(any(target_feature = "sse2", target_feature = "neon", target_feature = "simd128"), inline)]
#[cfg_attr(not(any(target_feature = "sse2", target_feature = "neon", target_feature = "simd128")), inline(never))]
pub(crate) fn closing_quote<const BACKSLASHES: bool>(buf: &[u8], start: usize, mut i: usize) -> Option<(usize, bool)> {
    let mut escaped = false;
    loop {
        // The next quote at or after `i`, noting backslashes before it while none is known.
        let at = loop {
            match word(buf, i) {
                Some(w) => {
                    let quotes = eq_mask(w, b'"');
                    if BACKSLASHES && !escaped {
                        let backslashes = eq_mask(w, b'\\');
                        // Backslashes below the first quote are exact: false hits only
                        // appear above a true one.
                        let below = if quotes == 0 { u64::MAX } else { (quotes & quotes.wrapping_neg()) - 1 };
                        escaped = backslashes & below != 0;
                    }
                    if quotes != 0 {
                        break i + first(quotes);
                    }
                    i += 8;
                    if BACKSLASHES && !escaped {
                        let (end, backslash) = skip_no_quote_noting_backslashes(buf, i);
                        escaped = backslash;
                        i = end;
                    } else {
                        i = skip_no_quote(buf, i);
                    }
                }
                None => {
                    let rest = buf.get(i..)?;
                    let k = rest.iter().position(|&b| b == b'"')?;
                    if BACKSLASHES && !escaped {
                        #[allow(clippy::manual_contains)] // see `has_backslash`
                        let tail = rest[..k].iter().any(|&b| b == b'\\');
                        escaped = tail;
                    }
                    break i + k;
                }
            }
        };
        // Escaped if an odd run of backslashes (inside the body) comes right before it.
        let mut run = 0;
        while at - run > start && buf.get(at - run - 1) == Some(&b'\\') {
            run += 1;
        }
        if run % 2 == 1 {
            escaped = true;
            i = at + 1;
            continue;
        }
        return Some((at, BACKSLASHES && escaped));
    }
}

/// Kernels written for the auto-vectorizer: a reduction over the block with no early exit
/// and no data-dependent control flow.
#[cfg(any(test, target_feature = "sse2", target_feature = "neon", target_feature = "simd128"))]
mod vector {
    use super::BLOCK;

    #[inline(always)]
    pub(crate) fn plain_text(b: &[u8; BLOCK]) -> bool {
        let mut special = false;
        for &c in b {
            // As in `text_stops`: `c ^ 2` puts quotes and control characters below 0x21 and
            // every non-ASCII byte below zero, so one signed comparison finds all three.
            special |= (((c ^ 0x02) as i8) < 0x21) | (c == b'\\');
        }
        !special
    }

    #[inline(always)]
    pub(crate) fn quote_or_backslash(b: &[u8; BLOCK]) -> (bool, bool) {
        let (mut quote, mut backslash) = (false, false);
        for &c in b {
            quote |= c == b'"';
            backslash |= c == b'\\';
        }
        (quote, backslash)
    }

    #[inline(always)]
    pub(crate) fn has_quote(b: &[u8; BLOCK]) -> bool {
        let mut quote = false;
        for &c in b {
            quote |= c == b'"';
        }
        quote
    }

    #[inline(always)]
    pub(crate) fn has_backslash(b: &[u8; BLOCK]) -> bool {
        let mut backslash = false;
        for &c in b {
            backslash |= c == b'\\';
        }
        backslash
    }

    #[inline(always)]
    pub(crate) fn plain_escape(b: &[u8; BLOCK]) -> bool {
        let mut special = false;
        for &c in b {
            special |= ((c ^ 0x02) < 0x21) | (c == b'\\');
        }
        !special
    }
}

/// The same kernels on two SWAR words, for targets without SIMD.
#[cfg(any(test, not(any(target_feature = "sse2", target_feature = "neon", target_feature = "simd128"))))]
mod swar {
    use super::{BLOCK, eq_mask, escape_stops, text_stops};

    #[inline(always)]
    fn words(b: &[u8; BLOCK]) -> (u64, u64) {
        let (lo, hi) = b.split_at(8);
        let lo: [u8; 8] = lo.try_into().unwrap_or_default();
        let hi: [u8; 8] = hi.try_into().unwrap_or_default();
        (u64::from_le_bytes(lo), u64::from_le_bytes(hi))
    }

    #[inline(always)]
    pub(crate) fn plain_text(b: &[u8; BLOCK]) -> bool {
        let (lo, hi) = words(b);
        text_stops(lo) | text_stops(hi) == 0
    }

    #[inline(always)]
    pub(crate) fn quote_or_backslash(b: &[u8; BLOCK]) -> (bool, bool) {
        let (lo, hi) = words(b);
        (eq_mask(lo, b'"') | eq_mask(hi, b'"') != 0, eq_mask(lo, b'\\') | eq_mask(hi, b'\\') != 0)
    }

    #[inline(always)]
    pub(crate) fn has_quote(b: &[u8; BLOCK]) -> bool {
        let (lo, hi) = words(b);
        eq_mask(lo, b'"') | eq_mask(hi, b'"') != 0
    }

    #[inline(always)]
    pub(crate) fn has_backslash(b: &[u8; BLOCK]) -> bool {
        let (lo, hi) = words(b);
        eq_mask(lo, b'\\') | eq_mask(hi, b'\\') != 0
    }

    #[inline(always)]
    pub(crate) fn plain_escape(b: &[u8; BLOCK]) -> bool {
        let (lo, hi) = words(b);
        escape_stops(lo) | escape_stops(hi) == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte value at every position of a word, alone and followed by another hit.
    #[test]
    fn word_masks_find_the_first_hit_on_every_position() {
        type Mask = (fn(u64) -> u64, fn(u8) -> bool, &'static str);
        let masks: [Mask; 4] = [
            (text_stops, is_text_stop, "text"),
            (escape_stops, is_escape_stop, "escape"),
            (|w| eq_mask(w, b'"'), |b| b == b'"', "quote"),
            (|w| eq_mask(w, b'\\'), |b| b == b'\\', "backslash"),
        ];
        for (mask, is_hit, name) in masks {
            for pos in 0..8 {
                for b in 0..=255u8 {
                    let mut w = *b"abcdefgh";
                    w[pos] = b;
                    let m = mask(u64::from_le_bytes(w));
                    let want = is_hit(b).then_some(pos);
                    assert_eq!((m != 0).then(|| first(m)), want, "{name}: byte {b:#x} at {pos}");
                    if pos < 7 {
                        // Another hit after it: the first is still the one found. Every
                        // other byte value follows too, so a borrow out of `b` is covered.
                        for after in [b'"', b'\\', 0x00, 0x1F, 0x80, 0xFF] {
                            let mut w2 = w;
                            w2[pos + 1] = after;
                            let m = mask(u64::from_le_bytes(w2));
                            let want = if is_hit(b) {
                                Some(pos)
                            } else if is_hit(after) {
                                Some(pos + 1)
                            } else {
                                None
                            };
                            assert_eq!((m != 0).then(|| first(m)), want, "{name}: {b:#x} then {after:#x} at {pos}");
                        }
                    }
                }
            }
        }
    }

    /// Whole blocks are skipped up to the one holding the stop, where there is SIMD (0xC3
    /// is a stop for the validator: UTF-8 is checked where it is met).
    #[test]
    fn blocks_are_skipped_up_to_a_stop() {
        for len in 0..70 {
            for at in 0..len {
                for b in [b'"', b'\\', 0x1F, 0xC3, b'a'] {
                    let mut text = vec![b'a'; len];
                    text[at] = b;
                    let whole = if VECTOR { len - len % BLOCK } else { 0 };
                    let skipped = skip_plain_text(&text, 0);
                    if is_text_stop(b) {
                        assert!(
                            skipped <= at && (at < skipped + BLOCK || !VECTOR),
                            "{b:#x} at {at} of {len}: {skipped}"
                        );
                    } else {
                        assert_eq!(skipped, whole, "{b:#x} at {at} of {len}");
                    }
                    let skipped = skip_no_quote(&text, 0);
                    if b == b'"' {
                        assert!(
                            skipped <= at && (at < skipped + BLOCK || !VECTOR),
                            "{b:#x} at {at} of {len}: {skipped}"
                        );
                    } else {
                        assert_eq!(skipped, whole, "{b:#x} at {at} of {len}");
                    }
                }
            }
        }
    }

    /// The vector and SWAR kernels answer alike for every byte at every position, on a
    /// background of every kind of filler.
    #[test]
    fn block_kernels_agree() {
        for filler in [b'a', b' ', b'~', b'0'] {
            for pos in 0..BLOCK {
                for b in 0..=255u8 {
                    let mut block = [filler; BLOCK];
                    block[pos] = b;
                    assert_eq!(vector::plain_text(&block), swar::plain_text(&block), "{b:#x} at {pos}");
                    assert_eq!(vector::plain_text(&block), !is_text_stop(b), "{b:#x} at {pos}");
                    assert_eq!(vector::plain_escape(&block), swar::plain_escape(&block), "{b:#x} at {pos}");
                    assert_eq!(vector::plain_escape(&block), !is_escape_stop(b), "{b:#x} at {pos}");
                    assert_eq!(vector::quote_or_backslash(&block), swar::quote_or_backslash(&block));
                    assert_eq!(vector::quote_or_backslash(&block), (b == b'"', b == b'\\'), "{b:#x} at {pos}");
                    assert_eq!(vector::has_quote(&block), swar::has_quote(&block));
                    assert_eq!(vector::has_quote(&block), b == b'"', "{b:#x} at {pos}");
                    assert_eq!(vector::has_backslash(&block), swar::has_backslash(&block));
                    assert_eq!(vector::has_backslash(&block), b == b'\\', "{b:#x} at {pos}");
                }
            }
        }
        // Pairs of special bytes anywhere.
        for i in 0..BLOCK {
            for j in 0..BLOCK {
                for (x, y) in [(b'"', b'\\'), (0x1F, 0x80), (b'\\', b'\\'), (0xFF, b'"')] {
                    let mut block = [b'x'; BLOCK];
                    block[i] = x;
                    block[j] = y;
                    assert_eq!(vector::plain_text(&block), swar::plain_text(&block));
                    assert_eq!(vector::plain_escape(&block), swar::plain_escape(&block));
                    assert_eq!(vector::quote_or_backslash(&block), swar::quote_or_backslash(&block));
                    assert_eq!(vector::has_quote(&block), swar::has_quote(&block));
                }
            }
        }
    }
}
