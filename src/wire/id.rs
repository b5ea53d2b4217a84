//! JSON-RPC request ids, kept as their raw wire token.
//!
//! MCP allows a string or an integer (never `null`, never a fraction). The id is stored
//! as the exact bytes the peer sent and echoed back byte for byte, so `1` never turns into
//! `1.0`, a 30-digit integer never loses precision, and `"a\/b"` comes back as `"a\/b"`.
//! Equality is by meaning, though: `"a\/b"` and `"a/b"` are the same id, and so are `0`
//! and `-0`.

use core::fmt;

use super::raw::{parse_i64, parse_u64};
use super::string::JsonStr;

/// The longest id token [`RequestId`] can hold, in bytes (quotes and escapes included).
pub const MAX_ID_LEN: usize = 64;

/// Whether an id is a string or an integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum IdKind {
    /// A JSON string.
    String,
    /// A JSON integer, possibly beyond the range of `i64` and `u64`.
    Integer,
}

/// A request id borrowed from a frame.
#[derive(Clone, Copy)]
pub struct RequestIdRef<'a> {
    token: &'a [u8],
}

impl<'a> RequestIdRef<'a> {
    /// Wraps a token the scanner classified as a string or an integer.
    pub(crate) fn from_validated(token: &'a [u8]) -> Self {
        Self { token }
    }

    /// The token exactly as it appeared on the wire (a string keeps its quotes).
    pub fn as_token(&self) -> &'a [u8] {
        self.token
    }

    /// String or integer.
    pub fn kind(&self) -> IdKind {
        if self.token.first() == Some(&b'"') { IdKind::String } else { IdKind::Integer }
    }

    /// The integer, if the id is one and fits `i64`.
    pub fn as_i64(&self) -> Option<i64> {
        parse_i64(self.token)
    }

    /// The integer, if the id is one and fits `u64`.
    pub fn as_u64(&self) -> Option<u64> {
        parse_u64(self.token)
    }

    /// The string, if the id is one.
    pub fn as_str(&self) -> Option<JsonStr<'a>> {
        super::raw::RawJson::from_validated(self.token).as_str()
    }

    /// An owned copy; fails when the token is longer than [`MAX_ID_LEN`].
    pub fn to_owned(&self) -> Result<RequestId, IdTooLong> {
        let mut token = heapless::Vec::new();
        token.extend_from_slice(self.token).map_err(|_| IdTooLong { len: self.token.len() })?;
        Ok(RequestId { token })
    }
}

impl PartialEq for RequestIdRef<'_> {
    /// Ids are equal when they mean the same: the string `"a\/b"` equals `"a/b"`, the
    /// integer `-0` equals `0`; a string never equals an integer.
    fn eq(&self, other: &Self) -> bool {
        if self.token == other.token {
            return true;
        }
        match (self.kind(), other.kind()) {
            (IdKind::String, IdKind::String) => self.as_str() == other.as_str(),
            (IdKind::Integer, IdKind::Integer) => {
                let zero = |t: &[u8]| t == b"0" || t == b"-0";
                zero(self.token) && zero(other.token)
            }
            _ => false,
        }
    }
}

impl Eq for RequestIdRef<'_> {}

impl fmt::Debug for RequestIdRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(core::str::from_utf8(self.token).unwrap_or("<id>"))
    }
}

impl fmt::Display for RequestIdRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

#[cfg(feature = "defmt")]
impl defmt::Format for RequestIdRef<'_> {
    fn format(&self, f: defmt::Formatter<'_>) {
        defmt::write!(f, "{=[u8]:a}", self.token)
    }
}

impl serde::Serialize for RequestIdRef<'_> {
    /// Writes the token verbatim (see [`RawJson`](super::RawJson)'s `Serialize`).
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        super::raw::RawJson::from_validated(self.token).serialize(s)
    }
}

/// An id token longer than [`MAX_ID_LEN`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct IdTooLong {
    /// The token's length in bytes.
    pub len: usize,
}

impl fmt::Display for IdTooLong {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "request id of {} bytes is longer than the {MAX_ID_LEN} this build stores", self.len)
    }
}

impl core::error::Error for IdTooLong {}

/// An owned request id: the raw token, up to [`MAX_ID_LEN`] bytes, stored inline.
#[derive(Clone)]
pub struct RequestId {
    token: heapless::Vec<u8, MAX_ID_LEN>,
}

impl RequestId {
    /// An integer id.
    pub fn from_u64(n: u64) -> Self {
        let mut digits = [0u8; 20];
        let i = super::ser::format_u64(n, &mut digits);
        let mut token = heapless::Vec::new();
        // 20 digits always fit in MAX_ID_LEN.
        let _ = token.extend_from_slice(&digits[i..]);
        Self { token }
    }

    /// A negative or positive integer id.
    pub fn from_i64(n: i64) -> Self {
        if n >= 0 {
            return Self::from_u64(n as u64);
        }
        let digits = Self::from_u64(n.unsigned_abs());
        let mut token = heapless::Vec::new();
        let _ = token.push(b'-');
        let _ = token.extend_from_slice(&digits.token);
        Self { token }
    }

    /// A string id; fails when the escaped token would exceed [`MAX_ID_LEN`].
    pub fn string(s: &str) -> Result<Self, IdTooLong> {
        let mut buf = [0u8; MAX_ID_LEN];
        let mut out = super::ser::Out::new(&mut buf);
        out.escaped_str(s);
        let len = out.len();
        match out.written() {
            Some(bytes) => {
                let mut token = heapless::Vec::new();
                let _ = token.extend_from_slice(bytes);
                Ok(Self { token })
            }
            None => Err(IdTooLong { len }),
        }
    }

    /// No token: only a place to [`assign`](Self::assign) one to.
    pub(crate) const fn unset() -> Self {
        Self { token: heapless::Vec::new() }
    }

    /// Makes this the owned copy of `id` in place (a slot's id is written where it is
    /// kept, not built on the stack and moved there); fails, leaving it empty, when the
    /// token is longer than [`MAX_ID_LEN`].
    pub(crate) fn assign(&mut self, id: RequestIdRef<'_>) -> Result<(), IdTooLong> {
        self.token.clear();
        self.token.extend_from_slice(id.token).map_err(|_| IdTooLong { len: id.token.len() })
    }

    /// The borrowed form.
    pub fn as_ref(&self) -> RequestIdRef<'_> {
        RequestIdRef { token: &self.token }
    }

    /// The token as written on the wire.
    pub fn as_token(&self) -> &[u8] {
        &self.token
    }
}

impl PartialEq for RequestId {
    fn eq(&self, other: &Self) -> bool {
        self.as_ref() == other.as_ref()
    }
}

impl Eq for RequestId {}

impl PartialEq<RequestIdRef<'_>> for RequestId {
    fn eq(&self, other: &RequestIdRef<'_>) -> bool {
        self.as_ref() == *other
    }
}

impl fmt::Debug for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.as_ref(), f)
    }
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.as_ref(), f)
    }
}

#[cfg(feature = "defmt")]
impl defmt::Format for RequestId {
    fn format(&self, f: defmt::Formatter<'_>) {
        defmt::write!(f, "{=[u8]:a}", &self.token[..])
    }
}

impl serde::Serialize for RequestId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.as_ref().serialize(s)
    }
}

impl<'a> From<&'a RequestId> for RequestIdRef<'a> {
    fn from(id: &'a RequestId) -> Self {
        id.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_tokens() {
        assert_eq!(RequestId::from_u64(0).as_token(), b"0");
        assert_eq!(RequestId::from_u64(u64::MAX).as_token(), b"18446744073709551615");
        assert_eq!(RequestId::from_i64(i64::MIN).as_token(), b"-9223372036854775808");
        assert_eq!(RequestId::from_i64(-1).as_ref().as_i64(), Some(-1));
    }

    #[test]
    fn string_tokens_are_escaped_and_bounded() {
        assert_eq!(RequestId::string("a\"b").unwrap().as_token(), br#""a\"b""#);
        let long = "x".repeat(63);
        assert_eq!(RequestId::string(&long), Err(IdTooLong { len: 65 }));
        assert!(RequestId::string(&long[..62]).is_ok());
    }

    #[test]
    fn equality_is_by_meaning() {
        let a = RequestIdRef::from_validated(br#""a\/b""#);
        let b = RequestIdRef::from_validated(br#""a/b""#);
        assert_eq!(a, b);
        assert_eq!(RequestIdRef::from_validated(b"-0"), RequestIdRef::from_validated(b"0"));
        assert_ne!(RequestIdRef::from_validated(b"1"), RequestIdRef::from_validated(br#""1""#));
        assert_ne!(RequestIdRef::from_validated(b"10"), RequestIdRef::from_validated(b"1"));
    }
}
