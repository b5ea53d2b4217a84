//! Strict, allocation-free JSON validation (RFC 8259) that reports byte spans.
//!
//! serde-json-core is not a validator: it accepts raw control characters in strings and
//! "chomps" garbage inside values it skips. Everything that reaches it from this crate has
//! therefore been checked here first, in one pass, exactly to RFC 8259:
//!
//! * strings: no unescaped U+0000..U+001F, well-formed UTF-8 (no overlongs, no encoded
//!   surrogates), only the nine escapes the RFC lists, and `\u` surrogates only in valid
//!   high-low pairs;
//! * numbers: `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`, so no leading zeros,
//!   no `NaN`, no `Infinity`, no bare `.5` or `1.`;
//! * structure: no trailing commas, no trailing garbage, nesting capped.
//!
//! The scanner is iterative: nesting is tracked in a fixed bit stack, so no input can
//! overflow the call stack, whatever `max_depth` is set to.

use core::fmt;

use super::find;

/// The hard ceiling for [`ScanConfig::max_depth`]: the bit stack holds this many levels.
pub const MAX_DEPTH_LIMIT: u16 = 512;

/// The nesting depth accepted by default.
///
/// MCP messages nest a handful of levels; JSON Schemas in tool definitions rarely pass 10.
/// serde_json's own recursion limit is 128.
pub const DEFAULT_MAX_DEPTH: u16 = 64;

/// Scanner settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ScanConfig {
    /// How many arrays and objects may be open at once. Values above
    /// [`MAX_DEPTH_LIMIT`] are treated as [`MAX_DEPTH_LIMIT`].
    pub max_depth: u16,
}

impl Default for ScanConfig {
    fn default() -> Self {
        Self { max_depth: DEFAULT_MAX_DEPTH }
    }
}

impl ScanConfig {
    /// A configuration with the given depth cap.
    pub const fn with_max_depth(max_depth: u16) -> Self {
        Self { max_depth }
    }

    pub(crate) fn depth(&self) -> u16 {
        if self.max_depth > MAX_DEPTH_LIMIT { MAX_DEPTH_LIMIT } else { self.max_depth }
    }
}

/// Which rule of RFC 8259 a text broke.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum ScanErrorKind {
    /// The text holds no value at all (empty, or only whitespace).
    Empty,
    /// The text ended in the middle of a value.
    UnexpectedEnd,
    /// A byte that cannot start a value here.
    UnexpectedByte,
    /// Inside an object, something other than a string where a member name belongs.
    ExpectedKey,
    /// A member name not followed by `:`.
    ExpectedColon,
    /// A value inside an array or object not followed by `,` or the closing bracket.
    ExpectedCommaOrEnd,
    /// `true`, `false` or `null` misspelt.
    InvalidLiteral,
    /// An unescaped control character (U+0000..U+001F) inside a string.
    ControlCharacter,
    /// Bytes inside a string that are not well-formed UTF-8.
    InvalidUtf8,
    /// A backslash followed by anything but `"\/bfnrt` or `u` and four hex digits.
    InvalidEscape,
    /// A `\u` escape of a UTF-16 surrogate that is not half of a high-low pair.
    LoneSurrogate,
    /// A number with a superfluous leading zero, such as `01`.
    LeadingZero,
    /// A malformed number, such as `-`, `1.` or `1e`.
    InvalidNumber,
    /// A `,` directly before `]` or `}`.
    TrailingComma,
    /// More arrays and objects open at once than the configured depth allows.
    TooDeep,
    /// Something other than whitespace after the complete value.
    TrailingCharacters,
}

impl ScanErrorKind {
    /// A short description of the broken rule.
    pub const fn describe(self) -> &'static str {
        match self {
            Self::Empty => "no JSON value",
            Self::UnexpectedEnd => "unexpected end of input",
            Self::UnexpectedByte => "unexpected byte where a value should start",
            Self::ExpectedKey => "expected a string member name",
            Self::ExpectedColon => "expected ':' after a member name",
            Self::ExpectedCommaOrEnd => "expected ',' or a closing bracket",
            Self::InvalidLiteral => "invalid literal (expected true, false or null)",
            Self::ControlCharacter => "unescaped control character in string",
            Self::InvalidUtf8 => "invalid UTF-8 in string",
            Self::InvalidEscape => "invalid escape sequence",
            Self::LoneSurrogate => "unpaired UTF-16 surrogate escape",
            Self::LeadingZero => "number with a leading zero",
            Self::InvalidNumber => "malformed number",
            Self::TrailingComma => "trailing comma",
            Self::TooDeep => "nesting too deep",
            Self::TrailingCharacters => "trailing characters after the value",
        }
    }
}

/// A JSON syntax error: the rule that broke and the byte offset where it was seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ScanError {
    /// The rule that broke.
    pub kind: ScanErrorKind,
    /// Offset into the scanned text.
    pub offset: usize,
}

impl fmt::Display for ScanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid JSON at byte {}: {}", self.offset, self.kind.describe())
    }
}

impl core::error::Error for ScanError {}

/// Checks that `text` is exactly one JSON value, optionally surrounded by whitespace.
///
/// ```
/// use mcp_sansio::wire::{validate, ScanConfig, ScanErrorKind};
/// assert!(validate(br#" {"a": [1, 2.5e3, "\u00e9"]} "#, ScanConfig::default()).is_ok());
/// let err = validate(b"[1,]", ScanConfig::default()).unwrap_err();
/// assert_eq!(err.kind, ScanErrorKind::TrailingComma);
/// ```
pub fn validate(text: &[u8], config: ScanConfig) -> Result<(), ScanError> {
    let mut s = Scanner::new(text);
    s.document(config.depth()).map(|_| ())
}

/// A string token: the bytes between its quotes, and whether any of them is an escape.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StrSpan {
    pub start: usize,
    pub end: usize,
    pub escaped: bool,
}

/// With the wide searches, how far into a string the byte-at-a-time scan goes on before
/// the rest is checked in bulk (see `Scanner::string_bulk`): short strings, most of a
/// message's, are read once; long ones with many stops (tool results, resource text)
/// are not stopped at every non-ASCII run.
const BULK_AFTER: usize = 64;

/// Whether an array or an object is open at one level of the bit stack.
struct Nesting {
    bits: [u64; (MAX_DEPTH_LIMIT as usize) / 64],
    depth: u16,
}

impl Nesting {
    const fn new() -> Self {
        Self { bits: [0; (MAX_DEPTH_LIMIT as usize) / 64], depth: 0 }
    }

    /// Pushes one level; `false` when `limit` would be exceeded.
    #[inline]
    fn push(&mut self, is_object: bool, limit: u16) -> bool {
        if self.depth >= limit {
            return false;
        }
        let (word, bit) = ((self.depth / 64) as usize, self.depth % 64);
        if let Some(w) = self.bits.get_mut(word) {
            if is_object {
                *w |= 1 << bit;
            } else {
                *w &= !(1 << bit);
            }
        }
        self.depth += 1;
        true
    }

    /// Whether the innermost open container is an object.
    #[inline]
    fn top_is_object(&self) -> bool {
        let d = self.depth.wrapping_sub(1);
        let (word, bit) = ((d / 64) as usize, d % 64);
        self.bits.get(word).is_some_and(|w| w & (1 << bit) != 0)
    }
}

/// The cursor over one JSON text. Every method leaves `pos` just past what it consumed.
pub(crate) struct Scanner<'a> {
    buf: &'a [u8],
    pub(crate) pos: usize,
}

#[inline(always)]
fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\r' | b'\t')
}

#[inline(always)]
fn hex_value(b: u8) -> Option<u16> {
    let digit = b.wrapping_sub(b'0');
    if digit < 10 {
        return Some(digit as u16);
    }
    let letter = (b | 0x20).wrapping_sub(b'a');
    if letter < 6 { Some(letter as u16 + 10) } else { None }
}

/// The four hex digits at `at`, as a UTF-16 unit.
#[cfg_attr(any(target_feature = "sse2", target_feature = "neon", target_feature = "simd128"), inline(always))]
fn hex4(buf: &[u8], at: usize) -> Option<u16> {
    let &[a, b, c, d] = buf.get(at..at + 4)? else { return None };
    if !find::COMPACT {
        return hex4_word(u32::from_le_bytes([a, b, c, d]));
    }
    Some((hex_value(a)? << 12) | (hex_value(b)? << 8) | (hex_value(c)? << 4) | hex_value(d)?)
}

/// [`hex4`] on the four digits as one little-endian word, without a branch per digit:
/// Python's `json.dumps` writes every non-ASCII character as `\uXXXX`, so in such text
/// this runs once every few bytes. (The compact build keeps the smaller digit loop.)
///
/// With every byte below 0x80, adding `0x80 - lo` to a byte sets its high bit exactly
/// when the byte is at least `lo`, and no sum carries into the next byte; so each range
/// test is two additions. A letter's digit is its low nibble plus nine.
#[inline(always)]
const fn hex4_word(w: u32) -> Option<u16> {
    const LO: u32 = 0x0101_0101;
    const HI: u32 = 0x8080_8080;
    // Set in each byte that is at least `lo` and at most `hi` (bytes below 0x80).
    const fn within(x: u32, lo: u8, hi: u8) -> u32 {
        (x + LO * (0x80 - lo as u32)) & !(x + LO * (0x7F - hi as u32)) & HI
    }
    if w & HI != 0 {
        return None;
    }
    let digits = within(w, b'0', b'9');
    let letters = within(w | (LO * 0x20), b'a', b'f');
    if digits | letters != HI {
        return None;
    }
    // Each byte's value, the first digit in the lowest byte; then the four nibbles packed
    // with the first one highest.
    let nibbles = (w & (LO * 0x0F)) + (letters >> 7) * 9;
    let swapped = nibbles.swap_bytes();
    let pairs = (swapped | (swapped >> 4)) & 0x00FF_00FF;
    Some(((pairs & 0xFF) | ((pairs >> 8) & 0xFF00)) as u16)
}

/// Validates the escape whose backslash is at `at`; returns the offset after it, or `None`
/// if it is not valid (see [`escape_error`] for why).
#[cfg_attr(any(target_feature = "sse2", target_feature = "neon", target_feature = "simd128"), inline(always))]
fn escape(buf: &[u8], at: usize) -> Option<usize> {
    match buf.get(at + 1)? {
        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => Some(at + 2),
        b'u' => match hex4(buf, at + 2)? {
            // A high surrogate must be followed at once by an escaped low one.
            0xD800..=0xDBFF => match (buf.get(at + 6..at + 8), hex4(buf, at + 8)) {
                (Some(b"\\u"), Some(0xDC00..=0xDFFF)) => Some(at + 12),
                _ => None,
            },
            0xDC00..=0xDFFF => None,
            _ => Some(at + 6),
        },
        _ => None,
    }
}

/// Why the escape at `at` is not valid, and where.
#[cold]
#[inline(never)]
fn escape_error(buf: &[u8], at: usize) -> ScanError {
    let err = |kind, offset| ScanError { kind, offset };
    match buf.get(at + 1) {
        None => err(ScanErrorKind::UnexpectedEnd, at + 1),
        Some(b'u') => {
            // Name the first hex digit that is wrong or missing.
            for (k, digit) in (at + 2..at + 6).map(|k| (k, buf.get(k))) {
                match digit {
                    None => return err(ScanErrorKind::UnexpectedEnd, k),
                    Some(&b) if hex_value(b).is_none() => return err(ScanErrorKind::InvalidEscape, k),
                    Some(_) => {}
                }
            }
            // The unit is a surrogate: a lone one, or a high one whose partner escape is
            // itself broken (named like any other escape), or not a low surrogate.
            if matches!(hex4(buf, at + 2), Some(0xD800..=0xDBFF))
                && buf.get(at + 6) == Some(&b'\\')
                && buf.get(at + 7) == Some(&b'u')
                && hex4(buf, at + 8).is_none()
            {
                for (k, digit) in (at + 8..at + 12).map(|k| (k, buf.get(k))) {
                    match digit {
                        None => return err(ScanErrorKind::UnexpectedEnd, k),
                        Some(&b) if hex_value(b).is_none() => return err(ScanErrorKind::InvalidEscape, k),
                        Some(_) => {}
                    }
                }
            }
            err(ScanErrorKind::LoneSurrogate, at)
        }
        Some(_) => err(ScanErrorKind::InvalidEscape, at),
    }
}

/// Checks the run of non-ASCII bytes that starts at `i`: characters come in runs (a word
/// of Cyrillic, CJK, an emoji sequence). Returns the offset after it, or the offset of the
/// first sequence that is not well formed.
///
/// A run of bytes of 0x80 and above holds whole characters only, if it is valid: every
/// byte of a multi-byte character is, and the ASCII byte that ends the run starts a new
/// one. So checking the run alone, sequence by sequence, checks exactly its characters.
/// Where code size matters more than speed (targets without SIMD) core's `from_utf8`
/// does it, which any firmware links anyway; the tests check that both agree.
#[inline]
fn utf8_run(buf: &[u8], i: usize) -> Result<usize, usize> {
    if find::VECTOR { utf8_run_here(buf, i) } else { utf8_run_core(buf, i) }
}

#[cfg_attr(any(target_feature = "sse2", target_feature = "neon", target_feature = "simd128"), inline(always))]
fn utf8_run_here(buf: &[u8], mut i: usize) -> Result<usize, usize> {
    loop {
        i = utf8_sequence(buf, i).ok_or(i)?;
        if buf.get(i).is_none_or(|&b| b < 0x80) {
            return Ok(i);
        }
    }
}

fn utf8_run_core(buf: &[u8], i: usize) -> Result<usize, usize> {
    let run = buf.get(i..).unwrap_or_default();
    let len = run.iter().position(|&b| b < 0x80).unwrap_or(run.len());
    match core::str::from_utf8(&run[..len]) {
        Ok(_) => Ok(i + len),
        Err(e) => Err(i + e.valid_up_to()),
    }
}

/// Checks the UTF-8 sequence that starts at `i` (a byte of 0x80 or above) against Unicode's
/// table 3-7 (no overlongs, no encoded surrogates, nothing above U+10FFFF); returns the
/// offset after it, or `None` if it is not well formed (the error is then at `i`). A
/// sequence cut short by a quote, a backslash or the end of input is not well formed.
#[cfg_attr(any(target_feature = "sse2", target_feature = "neon", target_feature = "simd128"), inline(always))]
fn utf8_sequence(buf: &[u8], i: usize) -> Option<usize> {
    let (len, lo, hi) = match buf.get(i)? {
        0xC2..=0xDF => (2, 0x80, 0xBF),
        0xE0 => (3, 0xA0, 0xBF),
        0xE1..=0xEC | 0xEE..=0xEF => (3, 0x80, 0xBF),
        0xED => (3, 0x80, 0x9F),
        0xF0 => (4, 0x90, 0xBF),
        0xF1..=0xF3 => (4, 0x80, 0xBF),
        0xF4 => (4, 0x80, 0x8F),
        _ => return None,
    };
    if !(lo..=hi).contains(buf.get(i + 1)?) {
        return None;
    }
    for k in 2..len {
        if !matches!(buf.get(i + k)?, 0x80..=0xBF) {
            return None;
        }
    }
    Some(i + len)
}

impl<'a> Scanner<'a> {
    pub(crate) fn new(buf: &'a [u8]) -> Self {
        Self { buf, pos: 0 }
    }

    /// The whole text.
    #[inline(always)]
    pub(crate) fn buf(&self) -> &'a [u8] {
        self.buf
    }

    #[inline(always)]
    pub(crate) fn peek(&self) -> Option<u8> {
        self.buf.get(self.pos).copied()
    }

    #[inline(always)]
    fn err(&self, kind: ScanErrorKind) -> ScanError {
        ScanError { kind, offset: self.pos }
    }

    /// `UnexpectedEnd` at the end of input, otherwise `kind`.
    #[inline]
    fn err_or_end(&self, kind: ScanErrorKind) -> ScanError {
        if self.pos >= self.buf.len() { self.err(ScanErrorKind::UnexpectedEnd) } else { self.err(kind) }
    }

    #[inline(always)]
    pub(crate) fn skip_ws(&mut self) {
        if find::COMPACT {
            // One shared copy (see `navigate::skip_ws`).
            self.pos = super::navigate::skip_ws(self.buf, self.pos);
            return;
        }
        while let Some(&b) = self.buf.get(self.pos) {
            if !is_ws(b) {
                break;
            }
            self.pos += 1;
        }
    }

    /// Consumes `byte` (after whitespace) or fails with `kind`.
    #[inline]
    pub(crate) fn expect(&mut self, byte: u8, kind: ScanErrorKind) -> Result<(), ScanError> {
        self.skip_ws();
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.err_or_end(kind))
        }
    }

    /// After the value: only whitespace may follow.
    pub(crate) fn finish(&mut self) -> Result<(), ScanError> {
        self.skip_ws();
        if self.pos < self.buf.len() { Err(self.err(ScanErrorKind::TrailingCharacters)) } else { Ok(()) }
    }

    /// A whole document: whitespace, one value, whitespace. Returns the value's span.
    pub(crate) fn document(&mut self, max_depth: u16) -> Result<(usize, usize), ScanError> {
        self.skip_ws();
        if self.pos >= self.buf.len() {
            return Err(self.err(ScanErrorKind::Empty));
        }
        let span = self.value(max_depth)?;
        self.finish()?;
        Ok(span)
    }

    /// Scans a string whose opening quote is at `pos`.
    ///
    /// With the wide searches, a string with no special byte in its first eight is
    /// finished here (member names, short values); the rest go to
    /// [`string_bulk`](Self::string_bulk), or to [`string_from`](Self::string_from) with
    /// the compact searches (see [`find`](super::find)).
    #[inline]
    pub(crate) fn string(&mut self) -> Result<StrSpan, ScanError> {
        self.string_or_key::<false>()
    }

    /// [`string`](Self::string) for a member name: with the wide searches, the reserved
    /// `_meta` names every stateless request carries are matched as literals where the
    /// short cut gives up on them ([`find::reserved_key`]); the compact build scans them as
    /// any string.
    #[inline(always)]
    pub(crate) fn key(&mut self) -> Result<StrSpan, ScanError> {
        self.string_or_key::<true>()
    }

    /// The two above: the eight-byte short cut, then (for a `KEY`, wide searches) the
    /// reserved names, then the general search.
    #[inline(always)]
    fn string_or_key<const KEY: bool>(&mut self) -> Result<StrSpan, ScanError> {
        debug_assert_eq!(self.peek(), Some(b'"'));
        let start = self.pos + 1;
        match find::plain_prefix(self.buf, start) {
            Ok(end) => {
                self.pos = end + 1;
                Ok(StrSpan { start, end, escaped: false })
            }
            Err(from) => {
                #[cfg(mcp_sansio_wide)]
                if KEY && let Some(end) = find::reserved_key(self.buf, start) {
                    self.pos = end + 1;
                    return Ok(StrSpan { start, end, escaped: false });
                }
                // A string of nine to sixteen bytes (`2026-07-28`, `tools/call`,
                // `arguments`) closes in the second word: finished here, without the call
                // the general search costs. (Compact builds never get past the first word:
                // their `plain_prefix` gives up at once.)
                let from = match from == start + 8 {
                    true => match find::plain_prefix(self.buf, from) {
                        Ok(end) => {
                            self.pos = end + 1;
                            return Ok(StrSpan { start, end, escaped: false });
                        }
                        Err(from) => from,
                    },
                    false => from,
                };
                self.string_from::<{ !find::COMPACT }>(start, from)
            }
        }
    }

    /// With the wide searches, the rest of a string whose body starts at `start`, from
    /// `from` on (nothing between them needs a look), checked in bulk: the scan stops only
    /// at quotes, backslashes and control characters (sixteen bytes at a time), each
    /// escape is checked where it is, and the body is checked as UTF-8 once, after its
    /// closing quote is found. Non-ASCII text (a tenth of the bytes of a typical tool
    /// result, in runs of a word or two) no longer stops the scan every few dozen bytes.
    ///
    /// It accepts exactly the strings [`string_from`](Self::string_from) accepts (the
    /// same grammar; UTF-8 checked over the body rather than run by run, which is the same
    /// check because escapes are ASCII). On anything it refuses, the string is scanned
    /// again by `string_from`, from its start, so errors keep their kind and offset.
    #[cfg(mcp_sansio_wide)]
    #[inline(never)]
    fn string_bulk(&mut self, start: usize, from: usize, mut escaped: bool) -> Result<StrSpan, ScanError> {
        let buf = self.buf;
        let mut i = from;
        let end = loop {
            i = find::next_escape_inlined(buf, i);
            match buf.get(i) {
                Some(b'"') => break i,
                Some(b'\\') => match escape(buf, i) {
                    Some(next) => {
                        escaped = true;
                        i = next;
                    }
                    None => return self.string_from::<false>(start, start),
                },
                _ => return self.string_from::<false>(start, start),
            }
        };
        match buf.get(from..end) {
            Some(body) if find::utf8_valid(body) => {
                self.pos = end + 1;
                Ok(StrSpan { start, end, escaped })
            }
            _ => self.string_from::<false>(start, start),
        }
    }

    /// The compact build has no bulk path (see [`find`](super::find)).
    #[cfg(not(mcp_sansio_wide))]
    #[inline(always)]
    fn string_bulk(&mut self, start: usize, _from: usize, _escaped: bool) -> Result<StrSpan, ScanError> {
        self.string_from::<false>(start, start)
    }

    /// The rest of a string whose body starts at `start`, from `i` on (nothing between
    /// them needs a look).
    ///
    /// Plain text is skipped by [`find::next_text_stop`] up to the next quote, backslash,
    /// control character or non-ASCII byte (sixteen or eight bytes at a time with the wide
    /// searches, one at a time with the compact ones). A non-ASCII byte starts a run of
    /// UTF-8 sequences checked on the spot, so the string is read once, and errors come out
    /// at the same offsets, in the same order, as a byte-at-a-time scan would find them.
    /// With `BULK` (the wide searches), a string still going past its first
    /// [`BULK_AFTER`] bytes is handed to [`string_bulk`](Self::string_bulk) at its next
    /// stop; without, it is read to its end here (the compact build, and the exact second
    /// look at a string the bulk path refused).
    #[inline(never)]
    fn string_from<const BULK: bool>(&mut self, start: usize, mut i: usize) -> Result<StrSpan, ScanError> {
        let buf = self.buf;
        let mut escaped = false;
        loop {
            i = find::next_text_stop(buf, i);
            match buf.get(i).copied() {
                Some(b'"') => {
                    self.pos = i + 1;
                    return Ok(StrSpan { start, end: i, escaped });
                }
                Some(b'\\') => {
                    escaped = true;
                    match escape(buf, i) {
                        Some(next) => i = next,
                        None => {
                            let e = escape_error(buf, i);
                            self.pos = e.offset;
                            return Err(e);
                        }
                    }
                    if BULK && i - start >= BULK_AFTER {
                        return self.string_bulk(start, i, escaped);
                    }
                }
                Some(0x80..=0xFF) => match utf8_run(buf, i) {
                    Ok(next) if BULK && next - start >= BULK_AFTER => return self.string_bulk(start, next, escaped),
                    Ok(next) => i = next,
                    Err(at) => {
                        self.pos = at;
                        return Err(ScanError { kind: ScanErrorKind::InvalidUtf8, offset: at });
                    }
                },
                Some(_) => {
                    self.pos = i;
                    return Err(ScanError { kind: ScanErrorKind::ControlCharacter, offset: i });
                }
                None => {
                    self.pos = i;
                    return Err(ScanError { kind: ScanErrorKind::UnexpectedEnd, offset: i });
                }
            }
        }
    }

    /// Scans a number at `pos`; returns whether it is an integer (no fraction, no exponent).
    pub(crate) fn number(&mut self) -> Result<bool, ScanError> {
        let buf = self.buf;
        let mut i = self.pos;
        if buf.get(i) == Some(&b'-') {
            i += 1;
        }
        match buf.get(i) {
            Some(b'0') => {
                i += 1;
                if buf.get(i).is_some_and(u8::is_ascii_digit) {
                    self.pos = i;
                    return Err(self.err(ScanErrorKind::LeadingZero));
                }
            }
            Some(b'1'..=b'9') => {
                i += 1;
                while buf.get(i).is_some_and(u8::is_ascii_digit) {
                    i += 1;
                }
            }
            _ => {
                self.pos = i;
                return Err(self.err_or_end(ScanErrorKind::InvalidNumber));
            }
        }
        let mut integer = true;
        if buf.get(i) == Some(&b'.') {
            integer = false;
            i += 1;
            if !buf.get(i).is_some_and(u8::is_ascii_digit) {
                self.pos = i;
                return Err(self.err_or_end(ScanErrorKind::InvalidNumber));
            }
            while buf.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
        }
        if matches!(buf.get(i), Some(b'e' | b'E')) {
            integer = false;
            i += 1;
            if matches!(buf.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            if !buf.get(i).is_some_and(u8::is_ascii_digit) {
                self.pos = i;
                return Err(self.err_or_end(ScanErrorKind::InvalidNumber));
            }
            while buf.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
        }
        self.pos = i;
        Ok(integer)
    }

    fn literal(&mut self, word: &[u8]) -> Result<(), ScanError> {
        let end = self.pos + word.len();
        match self.buf.get(self.pos..end) {
            Some(s) if s == word => {
                self.pos = end;
                Ok(())
            }
            _ => {
                // Point at the first byte that differs.
                let same = self.buf[self.pos..].iter().zip(word).take_while(|(a, b)| a == b).count();
                self.pos += same;
                Err(self.err_or_end(ScanErrorKind::InvalidLiteral))
            }
        }
    }

    /// After `,` or `{` inside an object: a member name and its colon. Inlined into both
    /// places of the value loop with the wide searches (a call per member name, and its
    /// constants set up again each time, cost more than the copy); one copy otherwise.
    #[cfg_attr(mcp_sansio_wide, inline(always))]
    #[cfg_attr(not(mcp_sansio_wide), inline)]
    fn member_name(&mut self) -> Result<(), ScanError> {
        self.skip_ws();
        match self.peek() {
            Some(b'"') => {
                self.key()?;
            }
            _ => return Err(self.err_or_end(ScanErrorKind::ExpectedKey)),
        }
        // The colon right after the name (compact JSON) without a call: the paths of the
        // name above would otherwise meet in an out-of-line `expect`.
        if self.peek() == Some(b':') {
            self.pos += 1;
            return Ok(());
        }
        self.expect(b':', ScanErrorKind::ExpectedColon)
    }

    /// Scans one value (leading whitespace allowed) with at most `max_depth` containers
    /// open inside it. Returns the span of the value without surrounding whitespace.
    pub(crate) fn value(&mut self, max_depth: u16) -> Result<(usize, usize), ScanError> {
        self.skip_ws();
        let start = self.pos;
        let mut stack = Nesting::new();
        'value: loop {
            self.skip_ws();
            match self.peek() {
                Some(b'"') => {
                    self.string()?;
                }
                Some(b'{') => {
                    if !stack.push(true, max_depth) {
                        return Err(self.err(ScanErrorKind::TooDeep));
                    }
                    self.pos += 1;
                    self.skip_ws();
                    if self.peek() == Some(b'}') {
                        self.pos += 1;
                        stack.depth -= 1;
                    } else {
                        self.member_name()?;
                        continue 'value;
                    }
                }
                Some(b'[') => {
                    if !stack.push(false, max_depth) {
                        return Err(self.err(ScanErrorKind::TooDeep));
                    }
                    self.pos += 1;
                    self.skip_ws();
                    if self.peek() == Some(b']') {
                        self.pos += 1;
                        stack.depth -= 1;
                    } else {
                        continue 'value;
                    }
                }
                Some(b'-' | b'0'..=b'9') => {
                    self.number()?;
                }
                Some(b't') => self.literal(b"true")?,
                Some(b'f') => self.literal(b"false")?,
                Some(b'n') => self.literal(b"null")?,
                Some(_) => return Err(self.err(ScanErrorKind::UnexpectedByte)),
                None => return Err(self.err(ScanErrorKind::UnexpectedEnd)),
            }
            // A value is complete: close containers or move to the next element.
            loop {
                if stack.depth == 0 {
                    return Ok((start, self.pos));
                }
                self.skip_ws();
                let in_object = stack.top_is_object();
                match self.peek() {
                    Some(b',') => {
                        self.pos += 1;
                        self.skip_ws();
                        let close = if in_object { b'}' } else { b']' };
                        if self.peek() == Some(close) {
                            return Err(self.err(ScanErrorKind::TrailingComma));
                        }
                        if in_object {
                            self.member_name()?;
                        }
                        continue 'value;
                    }
                    Some(b'}') if in_object => {
                        self.pos += 1;
                        stack.depth -= 1;
                    }
                    Some(b']') if !in_object => {
                        self.pos += 1;
                        stack.depth -= 1;
                    }
                    _ => return Err(self.err_or_end(ScanErrorKind::ExpectedCommaOrEnd)),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(text: &str) -> Option<ScanErrorKind> {
        validate(text.as_bytes(), ScanConfig::default()).err().map(|e| e.kind)
    }

    #[test]
    fn accepts_rfc_examples() {
        for ok in [
            "0",
            "-0",
            "1.5e-3",
            "1E+2",
            "true",
            "null",
            r#""\ud83d\ude00""#,
            "[]",
            "{}",
            " [ 1 , { } ] ",
            r#"{"a":{"b":[{"c":"\/\b\f\n\r\t\"\\"}]}}"#,
            "\"é😀\"",
        ] {
            assert_eq!(kind(ok), None, "{ok}");
        }
    }

    #[test]
    fn rejects_each_rule() {
        let cases = [
            ("", ScanErrorKind::Empty),
            ("  ", ScanErrorKind::Empty),
            ("[1", ScanErrorKind::UnexpectedEnd),
            ("\"abc", ScanErrorKind::UnexpectedEnd),
            ("{1:2}", ScanErrorKind::ExpectedKey),
            ("{\"a\" 2}", ScanErrorKind::ExpectedColon),
            ("[1 2]", ScanErrorKind::ExpectedCommaOrEnd),
            ("tru", ScanErrorKind::UnexpectedEnd),
            ("trux", ScanErrorKind::InvalidLiteral),
            ("\"a\u{1}b\"", ScanErrorKind::ControlCharacter),
            ("\"\\x\"", ScanErrorKind::InvalidEscape),
            ("\"\\u12G4\"", ScanErrorKind::InvalidEscape),
            ("\"\\ud83d\"", ScanErrorKind::LoneSurrogate),
            ("\"\\ude00\"", ScanErrorKind::LoneSurrogate),
            ("\"\\ud83d\\u0041\"", ScanErrorKind::LoneSurrogate),
            ("01", ScanErrorKind::LeadingZero),
            ("-", ScanErrorKind::UnexpectedEnd),
            ("1.", ScanErrorKind::UnexpectedEnd),
            ("1.e3", ScanErrorKind::InvalidNumber),
            ("NaN", ScanErrorKind::UnexpectedByte),
            ("-Infinity", ScanErrorKind::InvalidNumber),
            ("[1,]", ScanErrorKind::TrailingComma),
            ("{\"a\":1,}", ScanErrorKind::TrailingComma),
            ("{} x", ScanErrorKind::TrailingCharacters),
            ("\u{feff}{}", ScanErrorKind::UnexpectedByte),
        ];
        for (text, want) in cases {
            assert_eq!(kind(text), Some(want), "{text:?}");
        }
    }

    /// Both ways of checking a run of non-ASCII bytes agree on every 1-to-3-byte start
    /// and on a sample of 4-byte ones, followed by ASCII, a quote, more non-ASCII or the end.
    #[test]
    fn utf8_runs_are_checked_alike_both_ways() {
        let mut cases: Vec<Vec<u8>> = Vec::new();
        for a in 0x80..=0xFFu8 {
            for b in 0..=0xFFu8 {
                cases.push(vec![a, b]);
                cases.push(vec![a, b, 0x80]);
                cases.push(vec![a, b, 0xBF, b'x']);
                if a >= 0xE0 {
                    for c in [0x00, 0x7F, 0x80, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF] {
                        cases.push(vec![a, b, c, b'"']);
                        cases.push(vec![a, b, c, 0x80, 0xBF]);
                    }
                }
            }
        }
        for case in &cases {
            for end in 1..=case.len() {
                let bytes = &case[..end];
                assert_eq!(utf8_run_here(bytes, 0), utf8_run_core(bytes, 0), "{bytes:02x?}");
            }
        }
        for s in ["é", "東京", "😀👍🏽", "\u{7ff}\u{800}\u{ffff}\u{10000}\u{10ffff}"] {
            assert_eq!(utf8_run_here(s.as_bytes(), 0), Ok(s.len()));
            assert_eq!(utf8_run_core(s.as_bytes(), 0), Ok(s.len()));
        }
    }

    /// The word form of `hex4` answers as the digit loop does for every pair of bytes in
    /// every pair of places (each other place a valid digit of every kind in turn), which
    /// covers every byte in every place, alone and with any other.
    #[test]
    fn hex4_word_agrees_with_the_digit_loop() {
        let digits = |w: [u8; 4]| -> Option<u16> {
            Some((hex_value(w[0])? << 12) | (hex_value(w[1])? << 8) | (hex_value(w[2])? << 4) | hex_value(w[3])?)
        };
        let mut checked = 0u32;
        for (p, q) in [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)] {
            for filler in [b'0', b'9', b'a', b'F'] {
                for x in 0..=255u8 {
                    for y in 0..=255u8 {
                        let mut w = [filler; 4];
                        w[p] = x;
                        w[q] = y;
                        assert_eq!(hex4_word(u32::from_le_bytes(w)), digits(w), "{w:02x?}");
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, 6 * 4 * 65_536);
        assert_eq!(hex4(b"00e9", 0), Some(0xE9));
        assert_eq!(hex4(b"xDBFF", 1), Some(0xDBFF));
        assert_eq!(hex4(b"abc", 0), None);
    }

    /// The pieces a string body is made of, valid and not, for the tests of the bulk path.
    const PIECES: [&[u8]; 24] = [
        b"\\\"",
        b"\\\\",
        b"\\n",
        b"\\/",
        b"\\u00e9",
        b"\\ud83d\\ude00",
        b"\\x",
        b"\\u12G4",
        b"\\ud83d",
        b"\\ude00",
        b"\\ud83d\\u0041",
        b"\\",
        b"\x00",
        b"\x1f",
        b"\n",
        b"\x7f",
        "é".as_bytes(),
        "€".as_bytes(),
        "😀".as_bytes(),
        b"\x80",
        b"\xe2\x82",
        b"\xc0\xaf",
        b"\xed\xa0\x80",
        b"\xf4\x90\x80\x80",
    ];

    /// Every piece at every offset of bodies up to 112 bytes (every position modulo 32
    /// before and after the switch to the bulk path at `BULK_AFTER`, across every word and
    /// block boundary), alone, next to a multi-byte character or an escape, and cut short
    /// at every length: the bulk path answers exactly as the byte-at-a-time scan does (the
    /// same span, or the same error at the same offset).
    #[test]
    fn bulk_strings_agree_with_the_byte_at_a_time_scan() {
        let answer = |text: &[u8], bulk: bool| {
            let mut s = Scanner::new(text);
            let got = if bulk { s.string() } else { s.string_from::<false>(1, 1) };
            (got.map(|span| (span.start, span.end, span.escaped)), s.pos)
        };
        let mut checked = 0;
        for len in 0..112 {
            for piece in PIECES {
                for at in 0..=len {
                    for neighbour in [&b""[..], "ü".as_bytes(), "日".as_bytes(), b"\\t", b"\\u0041"] {
                        let mut text = vec![b'"'];
                        text.extend((0..len).map(|k| b'a' + (k % 26) as u8));
                        // A stop past `BULK_AFTER` in half the cases, so that the
                        // pieces after it are checked by the bulk path.
                        if len % 2 == 1 && len > 70 && at > 70 {
                            text[68] = b'\\';
                            text[69] = b'n';
                        }
                        let tail = text.split_off(1 + at);
                        text.extend_from_slice(neighbour);
                        text.extend_from_slice(piece);
                        text.extend_from_slice(&tail);
                        text.extend_from_slice(b"\",1]");
                        assert_eq!(answer(&text, true), answer(&text, false), "{:?}", String::from_utf8_lossy(&text));
                        if at % 7 == 0 {
                            for cut in 1..text.len() {
                                let short = &text[..cut];
                                assert_eq!(answer(short, true), answer(short, false), "{short:02x?}");
                            }
                        }
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 600_000);
    }

    #[test]
    fn rejects_invalid_utf8_forms() {
        for bad in [
            &b"\"\xC0\xAF\""[..],    // overlong '/'
            b"\"\xE0\x80\xAF\"",     // overlong
            b"\"\xED\xA0\x80\"",     // encoded surrogate
            b"\"\xF4\x90\x80\x80\"", // above U+10FFFF
            b"\"\x80\"",             // lone continuation
            b"\"\xE2\x82\"",         // truncated
            b"\"\xFF\"",
        ] {
            let e = validate(bad, ScanConfig::default()).unwrap_err();
            assert_eq!(e.kind, ScanErrorKind::InvalidUtf8, "{bad:?}");
        }
        assert!(validate(b"\"\xF4\x8F\xBF\xBF\xE2\x82\xAC\"", ScanConfig::default()).is_ok());
    }

    #[test]
    fn depth_cap_is_exact_and_iterative() {
        let cfg = ScanConfig::with_max_depth(3);
        assert!(validate(b"[[[]]]", cfg).is_ok());
        assert_eq!(validate(b"[[[[]]]]", cfg).unwrap_err().kind, ScanErrorKind::TooDeep);
        // Far past any stack: a million brackets fail cleanly at the cap.
        let deep = [b'['; 1_000_000];
        let e = validate(&deep, ScanConfig::default()).unwrap_err();
        assert_eq!((e.kind, e.offset), (ScanErrorKind::TooDeep, 64));
        // The ceiling holds even when the configured cap is above it.
        let mut nested = [b'['; 600].to_vec();
        nested.extend([b']'; 600]);
        assert_eq!(validate(&nested, ScanConfig::with_max_depth(u16::MAX)).unwrap_err().kind, ScanErrorKind::TooDeep);
    }

    #[test]
    fn offsets_point_at_the_offending_byte() {
        let e = validate(b"{\"a\":[1,2,x]}", ScanConfig::default()).unwrap_err();
        assert_eq!((e.kind, e.offset), (ScanErrorKind::UnexpectedByte, 10));
    }
}
