//! Parameter values (`token / quoted-string`), borrowed as written and unescaped on demand.

use core::fmt;

use super::grammar::{ascii, parameter_step};
use crate::wire::UnescapeError;

/// A parameter's value as it appears in a header: a token, or the text of a quoted
/// string with its `\` escapes still in it. Nothing is copied until asked:
/// [`fragments`](Self::fragments) gives the unescaped text as borrowed pieces,
/// [`unescape`](Self::unescape) writes it into caller scratch, and the comparisons work on
/// the unescaped text without either.
#[derive(Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ParamValue<'a> {
    raw: &'a [u8],
    quoted: bool,
}

impl<'a> ParamValue<'a> {
    pub(crate) fn token(raw: &'a [u8]) -> Self {
        Self { raw, quoted: false }
    }

    pub(crate) fn quoted(raw: &'a [u8]) -> Self {
        Self { raw, quoted: true }
    }

    /// The value as written, without the quotes of a quoted string, escapes included.
    pub fn raw(&self) -> &'a [u8] {
        self.raw
    }

    /// Whether it was a quoted string.
    pub fn is_quoted(&self) -> bool {
        self.quoted
    }

    /// Whether unescaping changes anything (a quoted string with a `\` in it).
    pub fn has_escapes(&self) -> bool {
        self.quoted && self.raw.contains(&b'\\')
    }

    /// The value as `&str` without copying, when it has no escapes and is UTF-8 (tokens
    /// always are; quoted strings may carry other bytes).
    pub fn as_str(&self) -> Option<&'a str> {
        if self.has_escapes() { None } else { core::str::from_utf8(self.raw).ok() }
    }

    /// The unescaped value as borrowed pieces, in order (none for an empty value).
    pub fn fragments(&self) -> Fragments<'a> {
        Fragments { rest: self.raw, escapes: self.quoted, literal_first: false }
    }

    /// Bytes of the unescaped value.
    pub fn unescaped_len(&self) -> usize {
        self.fragments().map(<[u8]>::len).sum()
    }

    /// Writes the unescaped value into `scratch`.
    pub fn unescape<'s>(&self, scratch: &'s mut [u8]) -> Result<&'s [u8], UnescapeError> {
        let needed = self.unescaped_len();
        let capacity = scratch.len();
        let Some(out) = scratch.get_mut(..needed) else {
            return Err(UnescapeError::BufferTooSmall { needed, capacity });
        };
        let mut at = 0;
        for piece in self.fragments() {
            out[at..at + piece.len()].copy_from_slice(piece);
            at += piece.len();
        }
        Ok(out)
    }

    /// Whether the unescaped value is `other`, byte for byte.
    pub fn eq_bytes(&self, other: &[u8]) -> bool {
        self.compare(other, |a, b| a == b)
    }

    /// Whether the unescaped value is `other`, ignoring ASCII case (for case-insensitive
    /// values such as `charset` names and auth schemes).
    pub fn eq_ignore_ascii_case(&self, other: &[u8]) -> bool {
        self.compare(other, <[u8]>::eq_ignore_ascii_case)
    }

    fn compare(&self, mut other: &[u8], eq: impl Fn(&[u8], &[u8]) -> bool) -> bool {
        for piece in self.fragments() {
            match other.split_at_checked(piece.len()) {
                Some((head, rest)) if eq(head, piece) => other = rest,
                _ => return false,
            }
        }
        other.is_empty()
    }
}

impl fmt::Debug for ParamValue<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut t = f.debug_tuple(if self.quoted { "Quoted" } else { "Token" });
        match core::str::from_utf8(self.raw) {
            Ok(s) => t.field(&s),
            Err(_) => t.field(&self.raw),
        };
        t.finish()
    }
}

/// The unescaped pieces of a [`ParamValue`]: the text between escapes, each piece after
/// the first starting with the character an escape stood for.
#[derive(Clone, Debug)]
pub struct Fragments<'a> {
    rest: &'a [u8],
    escapes: bool,
    /// `rest[0]` followed a `\`: it is literal even if it is one.
    literal_first: bool,
}

impl<'a> Iterator for Fragments<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        loop {
            if self.rest.is_empty() {
                return None;
            }
            let from = usize::from(self.literal_first);
            let end = if self.escapes {
                self.rest[from..].iter().position(|&b| b == b'\\').map_or(self.rest.len(), |i| from + i)
            } else {
                self.rest.len()
            };
            let piece = &self.rest[..end];
            // Skip the `\` itself; what follows it is literal.
            self.rest = self.rest.get(end + 1..).unwrap_or_default();
            self.literal_first = true;
            if !piece.is_empty() {
                return Some(piece);
            }
        }
    }
}

/// The `name=value` parameters after a media type, in order. Names are ASCII tokens;
/// compare them ignoring case.
#[derive(Clone, Debug)]
pub struct Params<'a> {
    rest: &'a [u8],
}

impl<'a> Params<'a> {
    /// Over the text of `parameters` as validated by the grammar.
    pub(crate) fn new(rest: &'a [u8]) -> Self {
        Self { rest }
    }

    /// The first parameter called `name` (ignoring ASCII case).
    pub fn get(mut self, name: &str) -> Option<ParamValue<'a>> {
        self.find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v)
    }
}

impl<'a> Iterator for Params<'a> {
    type Item = (&'a str, ParamValue<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let (rest, param) = parameter_step(self.rest).ok()?;
            self.rest = rest;
            if let Some((name, value)) = param {
                return Some((ascii(name), value));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(v: ParamValue<'_>) -> std::vec::Vec<&[u8]> {
        v.fragments().collect()
    }

    #[test]
    fn unescaping() {
        let v = ParamValue::quoted(br#"a\"b\\c\d"#);
        assert!(v.has_escapes());
        assert_eq!(v.as_str(), None);
        assert_eq!(pieces(v), [&b"a"[..], b"\"b", b"\\c", b"d"]);
        assert_eq!(v.unescaped_len(), 6);
        let mut scratch = [0u8; 6];
        assert_eq!(v.unescape(&mut scratch), Ok(&br#"a"b\cd"#[..]));
        assert_eq!(v.unescape(&mut [0u8; 5]), Err(UnescapeError::BufferTooSmall { needed: 6, capacity: 5 }));
        assert!(v.eq_bytes(br#"a"b\cd"#));
        assert!(!v.eq_bytes(br#"a"b\c"#));
        assert!(!v.eq_bytes(br#"a"b\cde"#));
        assert!(ParamValue::quoted(br#"\\\\"#).eq_bytes(br#"\\"#));
        assert_eq!(pieces(ParamValue::quoted(br#"\\\\"#)), [&b"\\"[..], b"\\"]);
        assert_eq!(pieces(ParamValue::quoted(b"")), std::vec::Vec::<&[u8]>::new());
        // A token has no escapes.
        let t = ParamValue::token(b"UTF-8");
        assert_eq!(t.as_str(), Some("UTF-8"));
        assert!(t.eq_ignore_ascii_case(b"utf-8") && !t.eq_bytes(b"utf-8"));
    }

    #[test]
    fn params() {
        let mut p = Params::new(b"; charset=\"utf-8\";;q=1");
        assert_eq!(p.clone().get("CHARSET"), Some(ParamValue::quoted(b"utf-8")));
        assert_eq!(p.next(), Some(("charset", ParamValue::quoted(b"utf-8"))));
        assert_eq!(p.next(), Some(("q", ParamValue::token(b"1"))));
        assert_eq!(p.next(), None);
    }
}
