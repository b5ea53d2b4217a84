//! JSON strings borrowed from a frame, unescaped only on demand.
//!
//! serde-json-core hands out `&str` fields with their escapes still in them (`a\"b` stays
//! five bytes) and rejects surrogate-pair escapes, which is how Python's `json.dumps` writes
//! every emoji. [`JsonStr`] keeps the raw text and decodes it correctly when asked: into a
//! caller's scratch buffer, as a `char` iterator, through `Display`, or by comparison.

use core::fmt;

use super::scan::StrSpan;

/// A JSON string from validated input, still escaped as it was on the wire.
///
/// ```
/// use mcp_sansio::wire::RawJson;
/// let v = RawJson::parse(br#"{"text":"caf\u00e9 \ud83d\ude00 \"q\""}"#).unwrap();
/// let text = v.get("text").unwrap().as_str().unwrap();
/// assert_eq!(text, "café 😀 \"q\"");
/// let mut scratch = [0u8; 32];
/// assert_eq!(text.unescape_into(&mut scratch).unwrap(), "café 😀 \"q\"");
/// ```
#[derive(Clone, Copy)]
pub struct JsonStr<'a> {
    raw: &'a [u8],
    escaped: bool,
}

/// Why a string could not be unescaped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum UnescapeError {
    /// The scratch buffer is too small; nothing useful was written to it.
    BufferTooSmall {
        /// Bytes the unescaped text needs.
        needed: usize,
        /// Bytes the scratch buffer has.
        capacity: usize,
    },
}

impl fmt::Display for UnescapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::BufferTooSmall { needed, capacity } => {
                write!(f, "scratch buffer too small to unescape string: need {needed} bytes, have {capacity}")
            }
        }
    }
}

impl core::error::Error for UnescapeError {}

/// One piece of an escaped string: a run of literal text or one escaped character.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fragment<'a> {
    /// Text that needed no escaping.
    Text(&'a str),
    /// A character that was written as an escape.
    Char(char),
}

impl<'a> JsonStr<'a> {
    /// The body of a validated string, and whether it holds an escape.
    pub(crate) const fn from_body(raw: &'a [u8], escaped: bool) -> Self {
        Self { raw, escaped }
    }

    pub(crate) fn from_span(buf: &'a [u8], span: StrSpan) -> Self {
        Self { raw: buf.get(span.start..span.end).unwrap_or_default(), escaped: span.escaped }
    }

    /// A string that needs no escaping, for comparisons and tests. Returns `None` if `s`
    /// contains a character JSON requires to be escaped (`"`, `\` or a control character).
    pub fn from_plain(s: &'a str) -> Option<Self> {
        let clean = s.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\');
        clean.then_some(Self { raw: s.as_bytes(), escaped: false })
    }

    /// Any text, to be written out (escaped as JSON requires) by a serializer: how values
    /// built for encoding carry names, descriptions and message text.
    ///
    /// Such a string was never escaped: [`raw`](Self::raw) is the text itself, and
    /// [`is_escaped`](Self::is_escaped) is `false`.
    ///
    /// ```
    /// use mcp_sansio::wire::JsonStr;
    /// let s = JsonStr::from_text("say \"hi\"\n");
    /// assert_eq!(s, "say \"hi\"\n");
    /// assert_eq!(s.as_plain(), Some("say \"hi\"\n"));
    /// ```
    pub const fn from_text(s: &'a str) -> Self {
        Self { raw: s.as_bytes(), escaped: false }
    }

    /// The bytes between the quotes, escapes included, exactly as received (for a string
    /// made with [`from_text`](Self::from_text), the text itself).
    pub fn raw(&self) -> &'a [u8] {
        self.raw
    }

    /// Whether the wire text contains any escape sequence.
    pub fn is_escaped(&self) -> bool {
        self.escaped
    }

    /// The text without copying, when the wire form has no escapes.
    pub fn as_plain(&self) -> Option<&'a str> {
        if self.escaped { None } else { super::find::to_str(self.raw) }
    }

    /// The text as runs of literal text and escaped characters.
    pub fn fragments(&self) -> Fragments<'a> {
        Fragments { rest: self.raw, plain: !self.escaped }
    }

    /// The unescaped characters.
    pub fn chars(&self) -> Chars<'a> {
        Chars { fragments: self.fragments(), run: "".chars() }
    }

    /// The length in bytes of the unescaped UTF-8 text.
    pub fn unescaped_len(&self) -> usize {
        if !self.escaped {
            return self.raw.len();
        }
        self.fragments()
            .map(|f| match f {
                Fragment::Text(t) => t.len(),
                Fragment::Char(c) => c.len_utf8(),
            })
            .sum()
    }

    /// Writes the unescaped text into `scratch` and returns it.
    ///
    /// On [`UnescapeError::BufferTooSmall`] the error says how many bytes are needed.
    pub fn unescape_into<'s>(&self, scratch: &'s mut [u8]) -> Result<&'s str, UnescapeError> {
        // Byte runs are copied as they are (the frame was validated) and the output is
        // checked as UTF-8 once, at the end.
        let raw = self.raw;
        let capacity = scratch.len();
        let too_small = || UnescapeError::BufferTooSmall { needed: self.unescaped_len(), capacity };
        let mut n = 0;
        let mut i = 0;
        loop {
            let j = raw[i..].iter().position(|&b| b == b'\\').map_or(raw.len(), |p| i + p);
            let text = &raw[i..j];
            scratch.get_mut(n..n + text.len()).ok_or_else(too_small)?.copy_from_slice(text);
            n += text.len();
            if j >= raw.len() {
                break;
            }
            let (c, used) = decode_escape(&raw[j..]);
            let mut utf8 = [0u8; 4];
            let c = c.encode_utf8(&mut utf8).as_bytes();
            scratch.get_mut(n..n + c.len()).ok_or_else(too_small)?.copy_from_slice(c);
            n += c.len();
            i = (j + used).min(raw.len());
        }
        // Valid text with escapes decoded to chars is valid UTF-8: this cannot fail.
        Ok(core::str::from_utf8(&scratch[..n]).unwrap_or_default())
    }

    /// The text: borrowed from the frame when it has no escapes, otherwise unescaped into
    /// `scratch`.
    pub fn to_str<'s>(&self, scratch: &'s mut [u8]) -> Result<&'s str, UnescapeError>
    where
        'a: 's,
    {
        match self.as_plain() {
            Some(s) => Ok(s),
            None => self.unescape_into(scratch),
        }
    }

    /// Compares the unescaped text with `s`.
    pub fn eq_str(&self, s: &str) -> bool {
        if !self.escaped {
            return self.raw == s.as_bytes();
        }
        self.bytes().eq(s.bytes())
    }

    /// The unescaped text's UTF-8 bytes: what comparisons walk. Equal bytes are equal
    /// characters (the text of a string is UTF-8: validated on the wire, a `&str`
    /// otherwise), and only the escapes need decoding: no UTF-8 decoding of the literal
    /// runs, and no second character iterator linked beside [`chars`](Self::chars).
    fn bytes(&self) -> UnescapedBytes<'a> {
        UnescapedBytes { rest: self.raw, plain: !self.escaped, pending: [0; 4], at: 0, len: 0 }
    }
}

impl PartialEq for JsonStr<'_> {
    /// Equal when the unescaped texts are equal: `"a\/b"` equals `"a/b"`.
    fn eq(&self, other: &Self) -> bool {
        if !self.escaped && !other.escaped {
            return self.raw == other.raw;
        }
        self.bytes().eq(other.bytes())
    }
}

impl Eq for JsonStr<'_> {}

impl PartialEq<str> for JsonStr<'_> {
    fn eq(&self, other: &str) -> bool {
        self.eq_str(other)
    }
}

impl PartialEq<&str> for JsonStr<'_> {
    fn eq(&self, other: &&str) -> bool {
        self.eq_str(other)
    }
}

impl fmt::Display for JsonStr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for fragment in self.fragments() {
            match fragment {
                Fragment::Text(t) => f.write_str(t)?,
                Fragment::Char(c) => fmt::Write::write_char(f, c)?,
            }
        }
        Ok(())
    }
}

impl fmt::Debug for JsonStr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\"")?;
        for c in self.chars() {
            fmt::Display::fmt(&c.escape_debug(), f)?;
        }
        f.write_str("\"")
    }
}

#[cfg(feature = "defmt")]
impl defmt::Format for JsonStr<'_> {
    fn format(&self, f: defmt::Formatter<'_>) {
        match self.as_plain() {
            Some(s) => defmt::write!(f, "{=str}", s),
            None => defmt::write!(f, "{=[u8]:a}", self.raw),
        }
    }
}

/// Iterator over the [`Fragment`]s of a [`JsonStr`].
#[derive(Clone)]
pub struct Fragments<'a> {
    rest: &'a [u8],
    /// No escapes in `rest`: a backslash is a literal character (text from `from_text`).
    plain: bool,
}

impl<'a> Iterator for Fragments<'a> {
    type Item = Fragment<'a>;

    fn next(&mut self) -> Option<Fragment<'a>> {
        let rest = self.rest;
        let first = *rest.first()?;
        if first != b'\\' || self.plain {
            let run = if self.plain { rest.len() } else { rest.iter().position(|&b| b == b'\\').unwrap_or(rest.len()) };
            self.rest = &rest[run..];
            // (With SIMD where there is some; the compact build keeps one check.)
            if !super::find::COMPACT
                && let Some(t) = super::find::to_str(&rest[..run])
            {
                return Some(Fragment::Text(t));
            }
            return match core::str::from_utf8(&rest[..run]) {
                Ok(t) => Some(Fragment::Text(t)),
                // Only reachable for text that bypassed validation: degrade, never panic.
                Err(e) if e.valid_up_to() > 0 => {
                    self.rest = &rest[e.valid_up_to()..];
                    Some(Fragment::Text(core::str::from_utf8(&rest[..e.valid_up_to()]).unwrap_or_default()))
                }
                Err(_) => {
                    self.rest = &rest[1..];
                    Some(Fragment::Char(char::REPLACEMENT_CHARACTER))
                }
            };
        }
        let (c, used) = decode_escape(rest);
        self.rest = rest.get(used..).unwrap_or_default();
        Some(Fragment::Char(c))
    }
}

fn hex4(bytes: &[u8]) -> Option<u32> {
    let digits = bytes.get(..4)?;
    let mut v = 0u32;
    for &b in digits {
        v = (v << 4) | (b as char).to_digit(16)?;
    }
    Some(v)
}

/// Decodes the escape at the start of `s` (which begins with `\`): the character and the
/// number of bytes consumed. Malformed escapes decode as U+FFFD and consume at least 2 bytes.
fn decode_escape(s: &[u8]) -> (char, usize) {
    let c = match s.get(1) {
        Some(b'"') => '"',
        Some(b'\\') => '\\',
        Some(b'/') => '/',
        Some(b'b') => '\u{8}',
        Some(b'f') => '\u{c}',
        Some(b'n') => '\n',
        Some(b'r') => '\r',
        Some(b't') => '\t',
        Some(b'u') => {
            let Some(unit) = hex4(&s[2..]) else {
                return (char::REPLACEMENT_CHARACTER, 2);
            };
            if (0xD800..0xDC00).contains(&unit) {
                if s.get(6) == Some(&b'\\')
                    && s.get(7) == Some(&b'u')
                    && let Some(low @ 0xDC00..=0xDFFF) = s.get(8..).and_then(hex4)
                {
                    let c = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                    return (char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER), 12);
                }
                return (char::REPLACEMENT_CHARACTER, 6);
            }
            return (char::from_u32(unit).unwrap_or(char::REPLACEMENT_CHARACTER), 6);
        }
        _ => char::REPLACEMENT_CHARACTER,
    };
    (c, 2)
}

/// The UTF-8 bytes of a [`JsonStr`]'s unescaped text (see `JsonStr::bytes`).
struct UnescapedBytes<'a> {
    rest: &'a [u8],
    /// No escapes in `rest` (as in [`Fragments`]).
    plain: bool,
    /// The encoding of the latest escaped character, `at..len` still to come.
    pending: [u8; 4],
    at: u8,
    len: u8,
}

impl Iterator for UnescapedBytes<'_> {
    type Item = u8;

    fn next(&mut self) -> Option<u8> {
        if self.at < self.len {
            let b = self.pending[usize::from(self.at) & 3];
            self.at += 1;
            return Some(b);
        }
        let (&first, tail) = self.rest.split_first()?;
        if first != b'\\' || self.plain {
            self.rest = tail;
            return Some(first);
        }
        let (c, used) = decode_escape(self.rest);
        self.rest = self.rest.get(used..).unwrap_or_default();
        self.len = c.encode_utf8(&mut self.pending).len() as u8;
        self.at = 1;
        Some(self.pending[0])
    }
}

/// Iterator over the unescaped characters of a [`JsonStr`].
#[derive(Clone)]
pub struct Chars<'a> {
    fragments: Fragments<'a>,
    run: core::str::Chars<'a>,
}

impl Iterator for Chars<'_> {
    type Item = char;

    fn next(&mut self) -> Option<char> {
        loop {
            if let Some(c) = self.run.next() {
                return Some(c);
            }
            match self.fragments.next()? {
                Fragment::Text(t) => self.run = t.chars(),
                Fragment::Char(c) => return Some(c),
            }
        }
    }
}

/// The name serde-json-core gives its escaped-string newtype. Deserializing through it makes
/// serde-json-core hand over the raw, still-escaped text.
pub(crate) const SJC_ESCAPED_STR: &str = "__serde_json_core_escaped_string__";

impl<'a> From<&'a str> for JsonStr<'a> {
    /// [`JsonStr::from_text`].
    fn from(s: &'a str) -> Self {
        Self::from_text(s)
    }
}

impl<'de: 'a, 'a> serde::Deserialize<'de> for JsonStr<'a> {
    /// Borrows the string as it appears in the input.
    ///
    /// With serde-json-core the borrowed text is the raw, escaped form. Other deserializers
    /// (serde_json) can lend a string only when it has no escapes, in which case the raw
    /// and the unescaped form are the same bytes; escaped strings are an error there.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Raw;
        impl<'de> serde::de::Visitor<'de> for Raw {
            type Value = JsonStr<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string borrowed from the input")
            }
            fn visit_borrowed_str<E: serde::de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(JsonStr { raw: v.as_bytes(), escaped: v.as_bytes().contains(&b'\\') })
            }
            fn visit_newtype_struct<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
                d.deserialize_any(Raw)
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
                // Lent by this crate's decoder (see `lend`): a validated string body.
                let escaped = match super::lend::probe(&mut map)? {
                    Some(Some(super::lend::Lent::Plain)) => false,
                    Some(Some(super::lend::Lent::Escaped)) => true,
                    _ => return Err(serde::de::Error::invalid_type(serde::de::Unexpected::Map, &self)),
                };
                Ok(JsonStr { raw: super::lend::span(&mut map)?, escaped })
            }
        }
        d.deserialize_newtype_struct(SJC_ESCAPED_STR, Raw)
    }
}

/// The newtype name under which an escaped [`JsonStr`] reaches a serializer (see its
/// `Serialize` impl). This crate's serializer recognises it; any other passes the newtype
/// through, as serde's data model says.
pub(crate) const ESCAPED_TEXT: &str = "$mcp_sansio::private::EscapedText";

impl serde::Serialize for JsonStr<'_> {
    /// Writes the unescaped text; the serializer escapes it again as its format requires.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // Text with escapes is unescaped on the fly, without `core::fmt` where this crate's
        // own serializer writes it (a few KB of flash on a microcontroller): it is handed
        // over as a newtype named `ESCAPED_TEXT`, which that serializer opens with a
        // serializer of its own that is not human-readable, and to that one alone
        // `Escaped` gives the escaped text, to be re-escaped fragment by fragment. Every
        // other serializer gets the unescaped text through `collect_str`.
        match self.as_plain() {
            Some(t) => s.serialize_str(t),
            None if s.is_human_readable() => s.serialize_newtype_struct(ESCAPED_TEXT, &Escaped(*self)),
            None => s.collect_str(self),
        }
    }
}

/// An escaped [`JsonStr`] inside its [`ESCAPED_TEXT`] newtype.
pub(crate) struct Escaped<'a>(JsonStr<'a>);

impl serde::Serialize for Escaped<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            s.collect_str(&self.0)
        } else {
            // Only this crate's serializer gets here without being human-readable (the
            // newtype is written by `JsonStr` only to human-readable ones).
            s.serialize_bytes(self.0.raw())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::scan::Scanner;

    fn js(text: &'static str) -> JsonStr<'static> {
        let mut s = Scanner::new(text.as_bytes());
        let span = s.string().unwrap();
        JsonStr::from_span(text.as_bytes(), span)
    }

    #[test]
    fn unescapes_every_escape_and_surrogate_pairs() {
        let s = js(r#""a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00\u0000z""#);
        let mut buf = [0u8; 64];
        assert_eq!(s.unescape_into(&mut buf).unwrap(), "a\"b\\c/d\u{8}\u{c}\n\r\té😀\0z");
        assert_eq!(s.unescaped_len(), "a\"b\\c/d\u{8}\u{c}\n\r\té😀\0z".len());
        assert!(s.eq_str("a\"b\\c/d\u{8}\u{c}\n\r\té😀\0z"));
    }

    #[test]
    fn too_small_scratch_reports_the_exact_need() {
        let s = js(r#""\ud83d\ude00!""#);
        let mut buf = [0u8; 4];
        assert_eq!(s.unescape_into(&mut buf), Err(UnescapeError::BufferTooSmall { needed: 5, capacity: 4 }));
        let mut buf = [0u8; 5];
        assert_eq!(s.unescape_into(&mut buf).unwrap(), "😀!");
    }

    #[test]
    fn plain_strings_borrow() {
        let s = js(r#""tools/call""#);
        assert_eq!(s.as_plain(), Some("tools/call"));
        let mut scratch = [0u8; 0];
        assert_eq!(s.to_str(&mut scratch).unwrap(), "tools/call");
    }

    #[test]
    fn comparison_is_on_unescaped_text() {
        assert_eq!(js(r#""tools\/call""#), js(r#""tools/call""#));
        assert!(js(r#""tools\/call""#).eq_str("tools/call"));
        assert!(!js(r#""tools\/call""#).eq_str("tools/cal"));
        assert_eq!(js(r#""\u0041""#), JsonStr::from_plain("A").unwrap());
    }

    /// Comparisons walk bytes (`UnescapedBytes`): they agree with comparing the
    /// characters, for every pair: multi-byte escapes, surrogate pairs, literal and
    /// escaped forms of one character, prefixes that end inside an escaped character.
    #[test]
    fn comparison_agrees_with_the_characters() {
        let texts = [
            r#""""#,
            r#""a""#,
            r#""ab""#,
            r#""\u0061b""#,
            r#""é""#,
            r#""\u00e9""#,
            r#""\u00e9x""#,
            r#""😀""#,
            r#""\ud83d\ude00""#,
            r#""\ufffd""#,
            r#""\u20ac""#,
            r#""€""#,
            r#""€\n""#,
            r#""€\\n""#,
            r#""\\\"""#,
        ];
        for a in texts {
            let a = js(a);
            let mut buf = [0u8; 16];
            let a_text = a.unescape_into(&mut buf).unwrap();
            for b in texts {
                let b = js(b);
                let same = a.chars().eq(b.chars());
                assert_eq!(a == b, same, "{a:?} == {b:?}");
                assert_eq!(b.eq_str(a_text), same, "{b:?} eq_str {a_text:?}");
                // Every prefix of `a`'s text (those ending inside a character's encoding
                // cannot be a `str`) compares as the characters say.
                for end in (0..a_text.len()).filter(|&e| a_text.is_char_boundary(e)) {
                    assert_eq!(b.eq_str(&a_text[..end]), b.chars().eq(a_text[..end].chars()));
                }
            }
        }
        // Text that was never escaped: a backslash is itself.
        assert!(JsonStr::from_text(r"a\u0041").eq_str(r"a\u0041"));
        assert!(!JsonStr::from_text(r"a\u0041").eq_str("aA"));
        assert_ne!(JsonStr::from_text(r"a\u0041"), js(r#""aA""#));
    }

    #[test]
    fn decodes_through_serde_json_core_with_escapes_intact() {
        #[derive(serde::Deserialize)]
        struct T<'a> {
            #[serde(borrow)]
            text: JsonStr<'a>,
        }
        let (t, _) = serde_json_core::from_slice::<T<'_>>(br#"{"text":"x\ud83d\ude00\n"}"#).unwrap();
        assert!(t.text.eq_str("x😀\n"));
        let (t, _) = serde_json_core::from_slice_escaped::<T<'_>>(br#"{"text":"a\"b"}"#, &mut [0; 8]).unwrap();
        assert!(t.text.eq_str("a\"b"));
    }

    #[test]
    fn text_strings_are_literal_and_serialize_escaped() {
        extern crate std;
        use std::format;
        let t = JsonStr::from_text("a\\u0041\"\n😀");
        assert!(!t.is_escaped());
        assert_eq!(t.chars().count(), 10);
        assert_eq!(format!("{t}"), "a\\u0041\"\n😀");
        assert_eq!(t.unescaped_len(), "a\\u0041\"\n😀".len());
        assert_eq!(t, js(r#""a\\u0041\"\n\ud83d\ude00""#));
        assert_eq!(serde_json::to_string(&t).unwrap(), r#""a\\u0041\"\n😀""#);
        let mut buf = [0u8; 64];
        let mut w = crate::wire::FrameWriter::unterminated(&mut buf);
        w.value(&t).unwrap();
        assert_eq!(w.as_bytes(), r#""a\\u0041\"\n😀""#.as_bytes());
    }

    #[test]
    fn display_and_debug_show_unescaped_text() {
        extern crate std;
        use std::format;
        let s = js(r#""a\nb\u00e9""#);
        assert_eq!(format!("{s}"), "a\nbé");
        assert_eq!(format!("{s:?}"), "\"a\\nbé\"");
    }
}
