//! Finding the next byte that matters inside a JSON string, in safe code.
//!
//! Most of a realistic MCP message is string bodies (tool descriptions, tool results,
//! resource text), so the speed of the whole wire layer is the speed of "skip to the next
//! quote". How that is done depends on the target, chosen at compile time:
//!
//! * **wide** ([`wide`](self::wide)), on 64-bit targets, wasm32, and wherever there is
//!   SIMD: a *word* mask (SWAR on `u64`) finds *where* the first byte that matters is,
//!   eight bytes at a time. Only the lowest flagged byte of a word mask is exact (borrows
//!   propagate upward, so bytes above a true hit may be flagged too), which is all a
//!   forward scan needs. Where there is SIMD (SSE2 on x86_64, NEON on aarch64, simd128 on
//!   wasm), a *block* test on 16 bytes that only answers "is anything here?", written as a
//!   plain loop over the bytes, compiles to a few vector instructions and skips plain text
//!   sixteen bytes at a time;
//! * **compact** ([`compact`](self::compact)), on 32- and 16-bit targets without SIMD
//!   (Cortex-M, 32-bit RISC-V, Xtensa, AVR): a byte at a time. There, `u64` masks take
//!   pairs of registers and several times the code, flash is scarce, and the messages are
//!   short; the byte loops are a fraction of the size and scan about as fast as the words
//!   would on such a core.
//!
//! With the wide searches, a string that goes on past its first 64 bytes is validated in
//! bulk (`Scanner::string_bulk`): the scan stops only at quotes, backslashes and control
//! characters, and the body is checked as UTF-8 once, by [`utf8_valid`] (simdutf8: AVX2 or
//! SSE4.2 detected at run time under `std`, NEON on aarch64, `core` elsewhere). The same
//! check makes `&str`s of validated spans ([`to_str`]). The compact build links neither.
//!
//! Building with `--cfg mcp_sansio_compact` (`RUSTFLAGS="--cfg mcp_sansio_compact"`)
//! selects the compact searches on any target: that is how the tests, the differential
//! test against serde_json and the fuzz targets cover them on a host, and how a part that
//! has SIMD but little flash can choose small code. Both implementations give the same
//! answers; the tests below compare them on every placement of every kind of byte. The
//! choice is made once, by the crate's build script (`build.rs`), which sets
//! `cfg(mcp_sansio_wide)` for the wide class; the sources test only that name.

/// Whether `b` ends a run of plain text for the validator (the byte form of [`wide::text_stops`]).
#[inline(always)]
pub(crate) const fn is_text_stop(b: u8) -> bool {
    b == b'"' || b == b'\\' || b < 0x20 || b >= 0x80
}

/// Whether `b` must be escaped in a string literal (the byte form of [`wide::escape_stops`]).
#[inline(always)]
pub(crate) const fn is_escape_stop(b: u8) -> bool {
    b == b'"' || b == b'\\' || b < 0x20
}

/// Whether `bytes` is well-formed UTF-8: with SIMD where the target has it (simdutf8:
/// AVX2 or SSE4.2 detected at run time under `std`, NEON on aarch64), `core`'s validator
/// elsewhere. ASCII text, the common case, is answered by `is_ascii` before either.
///
/// For the validator's bulk path (see `Scanner::string`): a string body holds whole
/// characters only if every maximal run of non-ASCII bytes in it does, so checking the
/// body at once checks exactly what checking run by run would.
#[cfg(mcp_sansio_wide)]
#[inline]
pub(crate) fn utf8_valid(bytes: &[u8]) -> bool {
    to_str(bytes).is_some()
}

/// `bytes` as text, if it is UTF-8: how validated spans become `&str` in safe code (the
/// scanner checked them already, but only a check makes a `&str`). Long texts (tool
/// results, resource contents) are checked with SIMD where [`utf8_valid`] is; short ones,
/// and every text in the compact build, by `core`.
#[inline(always)]
pub(crate) fn to_str(bytes: &[u8]) -> Option<&str> {
    #[cfg(all(any(target_arch = "x86_64", target_arch = "aarch64"), mcp_sansio_wide))]
    let text = simdutf8::basic::from_utf8(bytes).ok();
    #[cfg(not(all(any(target_arch = "x86_64", target_arch = "aarch64"), mcp_sansio_wide)))]
    let text = core::str::from_utf8(bytes).ok();
    text
}

/// The reserved `_meta` member names of 2026-07-28 that every stateless request carries,
/// `io.modelcontextprotocol/protocolVersion` and `…/clientCapabilities`, and the
/// `…/clientInfo` most clients add: 39, 42 and 34 bytes, past the validator's eight-byte
/// short cut, where the general search costs about 150 instructions each. Compared as
/// literals, a word at a time ([`reserved_key`]), they cost a few.
#[cfg(test)]
const RESERVED_KEYS: [&str; 3] = [
    "io.modelcontextprotocol/protocolVersion",
    "io.modelcontextprotocol/clientCapabilities",
    "io.modelcontextprotocol/clientInfo",
];

/// For the validator: if the string whose body starts at `start` is one of the
/// `RESERVED_KEYS` written plainly (no escape), the offset of its closing quote. `None`
/// says nothing about the string: it is then scanned the general way. The names are plain
/// ASCII (checked by a test), so a match is a well-formed string with no escape.
///
/// Words, not slice comparisons: those become calls to `memcmp`, which cost as much as the
/// search they replace.
#[cfg(any(test, mcp_sansio_wide))]
#[inline(always)]
pub(crate) fn reserved_key(buf: &[u8], start: usize) -> Option<usize> {
    const fn le(bytes: &[u8; 8]) -> u64 {
        u64::from_le_bytes(*bytes)
    }
    let at = |k: usize| word(buf, start + k);
    if at(0)? != le(b"io.model") || at(8)? != le(b"contextp") || at(16)? != le(b"rotocol/") {
        return None;
    }
    let tail = at(24)?;
    if tail == le(b"protocol") {
        (at(32)? == le(b"Version\"")).then_some(start + 39)
    } else if tail == le(b"clientCa") {
        // The last word overlaps the one before it: "pabiliti", then "ilities\"".
        (at(32)? == le(b"pabiliti") && at(35)? == le(b"ilities\"")).then_some(start + 42)
    } else if tail == le(b"clientIn") {
        // Overlapping likewise: "clientIn", then "entInfo\"".
        (at(27)? == le(b"entInfo\"")).then_some(start + 34)
    } else {
        None
    }
}

// Word-at-a-time primitives: the wide searches are built on them, and the few word loops
// elsewhere in the crate (line breaks in `ser` and the line framer, quoted names in
// `encode`) use them too; on compact builds those loops are dead code behind `COMPACT`.

pub(crate) const LO: u64 = 0x0101_0101_0101_0101;
pub(crate) const HI: u64 = 0x8080_8080_8080_8080;

/// The eight bytes at `i`, little-endian, if there are eight.
#[inline(always)]
pub(crate) fn word(buf: &[u8], i: usize) -> Option<u64> {
    let chunk: [u8; 8] = buf.get(i..i.checked_add(8)?)?.try_into().ok()?;
    Some(u64::from_le_bytes(chunk))
}

/// The high bit of each byte of `w` equal to `b` (lowest flagged byte exact).
#[inline(always)]
pub(crate) const fn eq_mask(w: u64, b: u8) -> u64 {
    let x = w ^ (LO * b as u64);
    x.wrapping_sub(LO) & !x & HI
}

/// The offset (0..8) of the lowest flagged byte of a non-zero mask.
#[inline(always)]
pub(crate) const fn first(mask: u64) -> usize {
    (mask.trailing_zeros() / 8) as usize
}

/// Whether this build uses the [`compact`](self::compact) searches (see the module docs).
pub(crate) const COMPACT: bool = cfg!(not(mcp_sansio_wide));

/// Whether the wide searches skip blocks with SIMD (never with the compact ones).
pub(crate) const VECTOR: bool =
    !COMPACT && cfg!(any(target_feature = "sse2", target_feature = "neon", target_feature = "simd128"));

#[cfg(any(test, mcp_sansio_wide))]
mod wide;

#[cfg(any(test, not(mcp_sansio_wide)))]
mod compact;

#[cfg(mcp_sansio_wide)]
pub(crate) use wide::{
    closing_quote, has_backslash, has_backslash_blocks, next_escape, next_escape_inlined, next_text_stop, plain_prefix,
    short_string,
};

#[cfg(not(mcp_sansio_wide))]
pub(crate) use compact::{closing_quote, has_backslash, next_escape, next_text_stop, plain_prefix, short_string};

#[cfg(test)]
mod tests {
    use super::*;

    type ClosingQuote = fn(&[u8], usize, usize) -> Option<(usize, bool)>;

    /// The searches of one implementation, to run the same checks on both.
    struct Searches {
        name: &'static str,
        closing_noting: ClosingQuote,
        closing: ClosingQuote,
        next_escape: fn(&[u8], usize) -> usize,
        has_backslash: fn(&[u8]) -> bool,
        next_text_stop: fn(&[u8], usize) -> usize,
        plain_prefix: fn(&[u8], usize) -> Result<usize, usize>,
        short_string: fn(&[u8], usize) -> Option<usize>,
    }

    const BOTH: [Searches; 2] = [
        Searches {
            name: "wide",
            closing_noting: wide::closing_quote::<true>,
            closing: wide::closing_quote::<false>,
            next_escape: wide::next_escape,
            has_backslash: wide::has_backslash,
            next_text_stop: wide::next_text_stop,
            plain_prefix: wide::plain_prefix,
            short_string: wide::short_string,
        },
        Searches {
            name: "compact",
            closing_noting: compact::closing_quote::<true>,
            closing: compact::closing_quote::<false>,
            next_escape: compact::next_escape,
            has_backslash: compact::has_backslash,
            next_text_stop: compact::next_text_stop,
            plain_prefix: compact::plain_prefix,
            short_string: compact::short_string,
        },
    ];

    /// The reserved names are plain text (so a literal match is a valid, unescaped string),
    /// are found at their closing quote, and only whole, at the start, closed.
    #[test]
    fn reserved_keys_are_plain_and_found_only_whole() {
        for key in RESERVED_KEYS.map(str::as_bytes) {
            assert!(!key.iter().any(|&b| is_text_stop(b)));
            let text = [b"\"", key, b"\":1,\"x\":2}"].concat();
            assert_eq!(reserved_key(&text, 1), Some(key.len() + 1));
            assert_eq!(reserved_key(&text, 0), None);
            // Cut before its quote, or any byte changed: not a match.
            for cut in 0..=key.len() {
                assert_eq!(reserved_key(&text[..cut], 1), None, "{cut}");
            }
            for at in 1..=key.len() + 1 {
                let mut changed = text.clone();
                changed[at] ^= 0x20;
                assert_eq!(reserved_key(&changed, 1), None, "{at}");
            }
            let escaped = [b"\"", &key[..key.len() - 1], b"\\u0041\":1,\"x\":2}"].concat();
            assert_eq!(reserved_key(&escaped, 1), None);
        }
        assert_eq!(reserved_key(b"\"io.modelcontextprotocol/logLevel\":1,\"x\":2}", 1), None);
    }

    /// A reference for `closing_quote`: byte by byte.
    fn closing_quote_slowly(buf: &[u8], start: usize) -> Option<(usize, bool)> {
        let mut i = start;
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

    /// Every placement of escapes, quotes and backslash runs around the 8-, 16- and 32-byte
    /// steps, in both modes, by both implementations.
    #[test]
    fn closing_quote_agrees_with_a_byte_by_byte_search() {
        let pieces: [&[u8]; 7] = [b"\\\"", b"\\\\", b"\\\\\\\"", b"\\n", b"\\u00e9", "é".as_bytes(), b"x"];
        for s in &BOTH {
            for len in 0..80 {
                for (p, piece) in pieces.iter().enumerate() {
                    for at in (0..=len).step_by(3) {
                        let mut body = vec![b'a'; len];
                        body.splice(at..at, piece.iter().copied());
                        let mut text = body.clone();
                        text.extend_from_slice(b"\"x\\\"y\"");
                        let want = closing_quote_slowly(&text, 0);
                        assert_eq!((s.closing_noting)(&text, 0, 0), want, "{}: piece {p} at {at} of {len}", s.name);
                        let got = (s.closing)(&text, 0, 0).map(|(end, _)| end);
                        assert_eq!(got, want.map(|(end, _)| end), "{}: piece {p} at {at} of {len}, not noting", s.name);
                        // The short cut, where it answers, gives the same quote.
                        if let Some(end) = (s.short_string)(&text, 0) {
                            assert_eq!(want, Some((end, false)), "{}: piece {p} at {at} of {len}", s.name);
                        }
                        // Unterminated: nothing found, whatever the length.
                        let found = (s.closing_noting)(&body, 0, 0).is_some();
                        assert_eq!(found, closing_quote_slowly(&body, 0).is_some(), "{}", s.name);
                    }
                }
            }
        }
    }

    /// Every kind of byte at every position of texts of every length up to 70, searched
    /// from every start, by both implementations.
    #[test]
    fn stops_escapes_and_backslashes_are_found_everywhere() {
        for s in &BOTH {
            for len in 0..70 {
                for at in 0..len {
                    for b in [b'"', b'\\', 0x00, 0x1F, b' ', 0x7F, 0x80, 0xC3, 0xFF, b'a'] {
                        let mut text = vec![b'a'; len];
                        text[at] = b;
                        for from in [0, at.saturating_sub(9), at, at + 1] {
                            let want = if is_escape_stop(b) && from <= at { at } else { len };
                            assert_eq!((s.next_escape)(&text, from), want, "{}: {b:#x} at {at} of {len}", s.name);
                            let want = if is_text_stop(b) && from <= at { at } else { len.max(from) };
                            let got = (s.next_text_stop)(&text, from);
                            assert_eq!(got, want, "{}: {b:#x} at {at} of {len} from {from}", s.name);
                        }
                        assert_eq!((s.has_backslash)(&text), b == b'\\', "{}: {b:#x} at {at} of {len}", s.name);
                        // The validator's short cut: a quote found is the first stop, and
                        // the scan resumes at or before the first stop.
                        match (s.plain_prefix)(&text, 0) {
                            Ok(end) => assert_eq!((end, text[end]), (at, b'"'), "{}: {b:#x} at {at} of {len}", s.name),
                            Err(from) => {
                                let first = if is_text_stop(b) { at } else { len };
                                assert!(from <= first, "{}: {b:#x} at {at} of {len}: {from}", s.name);
                                assert!(b != b'"' || from <= at);
                            }
                        }
                    }
                }
            }
        }
    }
}
