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

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// Flags (in its high bit) each byte of `w` that ends a run of plain string text: `"`,
/// `\` or a control character. Non-ASCII bytes are not flagged: they are checked as UTF-8
/// a whole run at a time.
///
/// Only the lowest flagged byte is exact (borrows propagate upward, so bytes above a true
/// hit may be flagged too), which is all a forward scan needs.
#[inline(always)]
fn stop_mask(w: u64) -> u64 {
    let quote = w ^ (LO * b'"' as u64);
    let backslash = w ^ (LO * b'\\' as u64);
    let zero_in = |v: u64| v.wrapping_sub(LO) & !v;
    let below_space = w.wrapping_sub(LO * 0x20) & !w;
    (zero_in(quote) | zero_in(backslash) | below_space) & HI
}

/// The offset of the first `"`, `\\` or control byte in `buf[from..]`, or `buf.len()`.
#[inline]
pub(crate) fn find_stop(buf: &[u8], mut i: usize) -> usize {
    while let Some(chunk) = buf.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let mask = stop_mask(u64::from_le_bytes(word));
        if mask != 0 {
            return i + (mask.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while let Some(&b) = buf.get(i) {
        if ends_run(b) {
            return i;
        }
        i += 1;
    }
    buf.len()
}

#[inline(always)]
fn ends_run(b: u8) -> bool {
    b == b'"' || b == b'\\' || b < 0x20
}

#[inline(always)]
fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\r' | b'\t')
}

#[inline(always)]
fn hex_value(b: u8) -> Option<u16> {
    match b {
        b'0'..=b'9' => Some((b - b'0') as u16),
        b'a'..=b'f' => Some((b - b'a' + 10) as u16),
        b'A'..=b'F' => Some((b - b'A' + 10) as u16),
        _ => None,
    }
}

impl<'a> Scanner<'a> {
    pub(crate) fn new(buf: &'a [u8]) -> Self {
        Self { buf, pos: 0 }
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
    /// The text between escapes is scanned eight bytes at a time for the next quote,
    /// backslash or control character. If any byte of the string is non-ASCII, its whole
    /// content is then checked with `core::str::from_utf8`, which accepts exactly the
    /// well-formed UTF-8 of Unicode table 3-7 (no overlongs, no encoded surrogates, nothing
    /// above U+10FFFF); escapes are ASCII and cannot hide a bad sequence. Before any other
    /// error is reported the text up to it is checked too, so errors come out at the same
    /// offsets, and in the same order, as a byte-at-a-time scan would find them.
    pub(crate) fn string(&mut self) -> Result<StrSpan, ScanError> {
        debug_assert_eq!(self.peek(), Some(b'"'));
        let buf = self.buf;
        let start = self.pos + 1;
        let mut escaped = false;
        let mut i = start;
        // A high bit is set here if any text byte seen so far may be non-ASCII.
        let mut high = 0u64;
        loop {
            // Find the next quote, backslash or control character.
            let stop = loop {
                if let Some(chunk) = buf.get(i..i + 8) {
                    let mut word = [0u8; 8];
                    word.copy_from_slice(chunk);
                    let w = u64::from_le_bytes(word);
                    let mask = stop_mask(w);
                    if mask != 0 {
                        let k = mask.trailing_zeros() / 8;
                        // Only the bytes before the stop are text.
                        high |= w & ((1u64 << (8 * k)) - 1);
                        i += k as usize;
                        break Some((w >> (8 * k)) as u8);
                    }
                    high |= w;
                    i += 8;
                } else {
                    match buf.get(i) {
                        Some(&b) if ends_run(b) => break Some(b),
                        Some(&b) => {
                            high |= u64::from(b);
                            i += 1;
                        }
                        None => break None,
                    }
                }
            };
            let result = match stop {
                Some(b'"') => Ok(StrSpan { start, end: i, escaped }),
                Some(b'\\') => {
                    escaped = true;
                    self.pos = i;
                    match self.escape() {
                        Ok(next) => {
                            i = next;
                            continue;
                        }
                        Err(e) => Err(e),
                    }
                }
                Some(_) => Err(ScanError { kind: ScanErrorKind::ControlCharacter, offset: i }),
                None => Err(ScanError { kind: ScanErrorKind::UnexpectedEnd, offset: i }),
            };
            if high & HI != 0 {
                self.utf8_run(start, i)?;
            }
            if result.is_ok() {
                self.pos = i + 1;
            } else {
                self.pos = i;
            }
            return result;
        }
    }

    /// Checks that `buf[from..to]` is well-formed UTF-8. A sequence cut short at `to` is
    /// invalid: `to` is at a quote, a backslash, a control character or the end of input.
    #[inline(never)]
    fn utf8_run(&self, from: usize, to: usize) -> Result<(), ScanError> {
        match core::str::from_utf8(self.buf.get(from..to).unwrap_or_default()) {
            Ok(_) => Ok(()),
            Err(e) => Err(ScanError { kind: ScanErrorKind::InvalidUtf8, offset: from + e.valid_up_to() }),
        }
    }

    /// Validates the escape at `pos` (a backslash); returns the offset after it.
    fn escape(&mut self) -> Result<usize, ScanError> {
        let at = self.pos;
        match self.buf.get(at + 1) {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(at + 2),
            Some(b'u') => {
                let unit = self.hex4(at + 2)?;
                match unit {
                    0xD800..=0xDBFF => {
                        // A high surrogate must be followed at once by an escaped low one.
                        if self.buf.get(at + 6) == Some(&b'\\') && self.buf.get(at + 7) == Some(&b'u') {
                            let low = self.hex4(at + 8)?;
                            if (0xDC00..=0xDFFF).contains(&low) {
                                return Ok(at + 12);
                            }
                        }
                        Err(ScanError { kind: ScanErrorKind::LoneSurrogate, offset: at })
                    }
                    0xDC00..=0xDFFF => Err(ScanError { kind: ScanErrorKind::LoneSurrogate, offset: at }),
                    _ => Ok(at + 6),
                }
            }
            None => Err(ScanError { kind: ScanErrorKind::UnexpectedEnd, offset: at + 1 }),
            Some(_) => Err(ScanError { kind: ScanErrorKind::InvalidEscape, offset: at }),
        }
    }

    fn hex4(&self, at: usize) -> Result<u16, ScanError> {
        let mut v = 0u16;
        for k in 0..4 {
            match self.buf.get(at + k) {
                Some(&b) => match hex_value(b) {
                    Some(h) => v = (v << 4) | h,
                    None => return Err(ScanError { kind: ScanErrorKind::InvalidEscape, offset: at + k }),
                },
                None => return Err(ScanError { kind: ScanErrorKind::UnexpectedEnd, offset: at + k }),
            }
        }
        Ok(v)
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

    /// After `,` or `{` inside an object: a member name and its colon.
    #[inline]
    fn member_name(&mut self) -> Result<(), ScanError> {
        self.skip_ws();
        match self.peek() {
            Some(b'"') => {
                self.string()?;
            }
            _ => return Err(self.err_or_end(ScanErrorKind::ExpectedKey)),
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
    fn stop_detector_finds_the_first_stop_on_every_position() {
        for pos in 0..8 {
            for b in 0..=255u8 {
                let mut w = *b"abcdefgh";
                w[pos] = b;
                let mask = stop_mask(u64::from_le_bytes(w));
                let want = ends_run(b).then_some(pos as u32);
                assert_eq!((mask != 0).then(|| mask.trailing_zeros() / 8), want, "byte {b:#x} at {pos}");
                // With another stop after it, the first one is still the one found.
                if pos < 7 && ends_run(b) {
                    w[7] = b'"';
                    let mask = stop_mask(u64::from_le_bytes(w));
                    assert_eq!(mask.trailing_zeros() / 8, pos as u32, "byte {b:#x} at {pos}, quote after");
                }
                // A stop after a non-stop byte `b` (including every non-ASCII byte).
                if !ends_run(b) && pos < 7 {
                    w[pos + 1] = 0x1F;
                    let mask = stop_mask(u64::from_le_bytes(w));
                    assert_eq!(mask.trailing_zeros() / 8, pos as u32 + 1, "byte {b:#x} at {pos}, control after");
                }
            }
        }
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
