//! [`RawJson`]: a validated JSON value borrowed from a frame, decoded only when asked.

use core::fmt;
use core::marker::PhantomData;

use serde::Deserialize;

use super::de::DecodeError;
use super::navigate::{self, Elements, Members};
use super::scan::{ScanConfig, ScanError, Scanner};
use super::string::JsonStr;

/// The type of a JSON value, read from its first byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum JsonKind {
    /// `{…}`
    Object,
    /// `[…]`
    Array,
    /// `"…"`
    String,
    /// `-1.5e3`
    Number,
    /// `true` or `false`
    Bool,
    /// `null`
    Null,
}

/// A JSON value that has passed strict validation, borrowed from the input.
///
/// Nothing is decoded until it is needed: [`get`](Self::get) finds a member by name,
/// [`decode`](Self::decode) runs serde-json-core on just this span, and the value can be
/// written back out verbatim by this crate's encoder.
///
/// ```
/// use mcp_sansio::wire::RawJson;
/// #[derive(serde::Deserialize)]
/// struct Args { a: i32, b: i32 }
/// let params = RawJson::parse(br#"{"name":"add","arguments":{"a":2,"b":3}}"#).unwrap();
/// let args: Args = params.get("arguments").unwrap().decode().unwrap();
/// assert_eq!(args.a + args.b, 5);
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct RawJson<'a> {
    bytes: &'a [u8],
}

impl<'a> RawJson<'a> {
    /// Validates `text` as one JSON value (whitespace around it is allowed and dropped).
    pub fn parse(text: &'a [u8]) -> Result<Self, ScanError> {
        Self::parse_with(text, ScanConfig::default())
    }

    /// [`parse`](Self::parse) with an explicit depth cap.
    pub fn parse_with(text: &'a [u8], config: ScanConfig) -> Result<Self, ScanError> {
        let (start, end) = Scanner::new(text).document(config.depth())?;
        Ok(Self { bytes: &text[start..end] })
    }

    /// The empty object `{}`.
    pub const EMPTY_OBJECT: RawJson<'static> = RawJson { bytes: b"{}" };

    /// JSON `null`.
    pub const NULL: RawJson<'static> = RawJson { bytes: b"null" };

    /// Wraps bytes that the scanner has already validated as exactly one value.
    pub(crate) const fn from_validated(bytes: &'a [u8]) -> Self {
        Self { bytes }
    }

    /// The value's text, exactly as received, without surrounding whitespace.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Where this value starts in `outer`, if it is a part of it (a span of the same
    /// frame), such as a member of a message's `params`.
    pub fn offset_in(&self, outer: &[u8]) -> Option<usize> {
        let at = (self.bytes.as_ptr() as usize).checked_sub(outer.as_ptr() as usize)?;
        (at + self.bytes.len() <= outer.len()).then_some(at)
    }

    /// The value's text as `&str` (validated JSON is always UTF-8).
    pub fn as_text(&self) -> &'a str {
        super::find::to_str(self.bytes).unwrap_or_default()
    }

    /// The value's type.
    pub fn kind(&self) -> JsonKind {
        match self.bytes.first() {
            Some(b'{') => JsonKind::Object,
            Some(b'[') => JsonKind::Array,
            Some(b'"') => JsonKind::String,
            Some(b't' | b'f') => JsonKind::Bool,
            Some(b'n') => JsonKind::Null,
            _ => JsonKind::Number,
        }
    }

    /// Whether this is an object.
    pub fn is_object(&self) -> bool {
        self.kind() == JsonKind::Object
    }

    /// Whether this is `null`.
    pub fn is_null(&self) -> bool {
        self.kind() == JsonKind::Null
    }

    /// The JSON type of this value, as a decoding error names it.
    pub(crate) fn found(&self) -> super::Found {
        use super::Found;
        match self.kind() {
            JsonKind::Object => Found::Object,
            JsonKind::Array => Found::Array,
            JsonKind::String => Found::String,
            JsonKind::Number => Found::Number,
            JsonKind::Bool => Found::Bool,
            JsonKind::Null => Found::Null,
        }
    }

    /// What this value is, for a serde error saying it is not what was expected.
    pub(crate) fn unexpected(&self) -> serde::de::Unexpected<'static> {
        use serde::de::Unexpected as U;
        match self.kind() {
            JsonKind::Object => U::Map,
            JsonKind::Array => U::Seq,
            JsonKind::String => U::Str(""),
            JsonKind::Number => U::Other("a number"),
            JsonKind::Bool => U::Bool(self.as_bool().unwrap_or_default()),
            JsonKind::Null => U::Unit,
        }
    }

    /// The first member named `name` (compared after unescaping), if this is an object.
    ///
    /// The members before it are skipped without being decoded: strings sixteen bytes at
    /// a time, containers by their brackets.
    pub fn get(&self, name: &str) -> Option<RawJson<'a>> {
        let start = navigate::find_member(self.bytes, name)?;
        let end = navigate::value_end(self.bytes, start);
        self.bytes.get(start..end).filter(|v| !v.is_empty()).map(RawJson::from_validated)
    }

    /// Whether this is an object with a member named `name`; cheaper than
    /// [`get`](Self::get), as the member's own value is not skipped.
    pub fn contains_key(&self, name: &str) -> bool {
        navigate::find_member(self.bytes, name).is_some()
    }

    /// The members of the object that is the value of the first member named `name`
    /// (empty if that value is not an object), or `None` without such a member: one walk,
    /// where [`get`](Self::get) then [`members`](Self::members) would skip the whole value
    /// once to find where it ends, then walk it again. (The members are read where they
    /// stand; the iterator ends at the object's closing brace.)
    pub(crate) fn members_of(&self, name: &str) -> Option<ObjectMembers<'a>> {
        let value = self.bytes.get(navigate::find_member(self.bytes, name)?..)?;
        Some(ObjectMembers { bytes: value, inner: Members::new(value) })
    }

    /// The members of an object, in order; empty for other kinds.
    pub fn members(&self) -> ObjectMembers<'a> {
        ObjectMembers { bytes: self.bytes, inner: Members::new(self.bytes) }
    }

    /// The elements of an array, in order; empty for other kinds.
    pub fn elements(&self) -> ArrayElements<'a> {
        ArrayElements { bytes: self.bytes, inner: Elements::new(self.bytes) }
    }

    /// The elements of an array, each decoded into `T` where it stands (one pass over the
    /// array); empty for other kinds. An element that does not decode is reported alone,
    /// and the iterator goes on with the next one.
    pub fn decode_elements<T: Deserialize<'a>>(&self) -> DecodeElements<'a, T> {
        let pos = if self.bytes.first() == Some(&b'[') { 1 } else { self.bytes.len() };
        DecodeElements { bytes: self.bytes, pos, item: PhantomData }
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<JsonStr<'a>> {
        if self.kind() != JsonKind::String {
            return None;
        }
        // A validated string value is its quotes and the body between them.
        let body = self.bytes.get(1..self.bytes.len().saturating_sub(1)).unwrap_or_default();
        Some(JsonStr::from_body(body, super::find::has_backslash(body)))
    }

    /// The boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self.bytes {
            b"true" => Some(true),
            b"false" => Some(false),
            _ => None,
        }
    }

    /// The number as `i64`, if it is an integer (no fraction or exponent) in range.
    pub fn as_i64(&self) -> Option<i64> {
        parse_i64(self.bytes)
    }

    /// The number as `u64`, if it is a non-negative integer in range.
    pub fn as_u64(&self) -> Option<u64> {
        parse_u64(self.bytes)
    }

    /// The number as `f64` (integers included, rounded to the nearest), if this is a
    /// number within `f64`'s range (`1e400` is `None`, not infinity).
    pub fn as_f64(&self) -> Option<f64> {
        if self.kind() != JsonKind::Number {
            return None;
        }
        super::number::to_f64(self.bytes)
    }

    /// Decodes the value into `T` with this crate's span decoder (see [`DecodeError`]).
    ///
    /// Text fields should be [`JsonStr`] (borrowed, unescaped on demand) or `&str` (borrowed;
    /// an escaped string is then an error, never silently kept escaped). Owned string fields
    /// with escapes need [`decode_with`](Self::decode_with). Fields of type `RawJson` borrow
    /// their span.
    pub fn decode<T: Deserialize<'a>>(&self) -> Result<T, DecodeError> {
        super::de::decode(*self, None)
    }

    /// [`decode`](Self::decode), unescaping strings for owned fields (`heapless::String`,
    /// `String`) through `scratch`, which must hold the longest such string.
    pub fn decode_with<T: Deserialize<'a>>(&self, scratch: &mut [u8]) -> Result<T, DecodeError> {
        super::de::decode(*self, Some(scratch))
    }
}

/// Walks the members of the validated object `text` starts with (it may go on after the
/// object), once: `member` is given each member's name (`Ok` for one `known` read from
/// the bytes after its quote, as in `navigate::walk_object`) and the text from its value on,
/// and returns how many bytes of it the value takes if it walked the value itself (a
/// nested object, walked in turn with this), or `None` to have it skipped here. The
/// length of the object, or `None` if `text` does not start with one.
pub(crate) fn walk_object<'a, K>(
    text: &'a [u8],
    known: impl FnMut(&[u8]) -> Option<(K, usize)>,
    mut member: impl FnMut(Result<K, JsonStr<'a>>, &'a [u8]) -> Option<usize>,
) -> Option<usize> {
    navigate::walk_object(text, known, |name, start| {
        let len = member(name.map_err(|span| JsonStr::from_span(text, span)), text.get(start..)?)?;
        start.checked_add(len)
    })
}

pub(crate) fn parse_u64(bytes: &[u8]) -> Option<u64> {
    if bytes.is_empty() || bytes.len() > 20 {
        return None;
    }
    let mut v: u64 = 0;
    for &b in bytes {
        if !b.is_ascii_digit() {
            return None;
        }
        v = v.checked_mul(10)?.checked_add((b - b'0') as u64)?;
    }
    Some(v)
}

pub(crate) fn parse_i64(bytes: &[u8]) -> Option<i64> {
    match bytes.split_first() {
        Some((b'-', digits)) => {
            let magnitude = parse_u64(digits)?;
            if magnitude == 1 << 63 { Some(i64::MIN) } else { i64::try_from(magnitude).ok().map(|m| -m) }
        }
        _ => parse_u64(bytes).and_then(|v| i64::try_from(v).ok()),
    }
}

impl fmt::Debug for RawJson<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_text())
    }
}

impl fmt::Display for RawJson<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_text())
    }
}

#[cfg(feature = "defmt")]
impl defmt::Format for RawJson<'_> {
    fn format(&self, f: defmt::Formatter<'_>) {
        defmt::write!(f, "{=str}", self.as_text())
    }
}

/// The token under which raw JSON travels through serde's data model.
///
/// It is serde_json's own `RawValue` token, so a [`RawJson`] serialized with serde_json
/// (with its `raw_value` feature on) is also written verbatim; this crate's encoder
/// recognises the same token.
pub(crate) const RAW_TOKEN: &str = "$serde_json::private::RawValue";

impl serde::Serialize for RawJson<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct(RAW_TOKEN, 1)?;
        st.serialize_field(RAW_TOKEN, self.as_text())?;
        st.end()
    }
}

/// Iterator over an object's members: `(name, value)`.
#[derive(Clone)]
pub struct ObjectMembers<'a> {
    bytes: &'a [u8],
    inner: Members<'a>,
}

impl<'a> ObjectMembers<'a> {
    /// The whole object, once its members have been read up to `last`, the value of its
    /// last member (`None`: it has none): for a reader that walked an object once and
    /// keeps its span, so that a later reader can step over it without walking it again
    /// (the session and a stateless request's `_meta`). `None` if `last` is not the last
    /// member's value.
    pub(crate) fn walked(&self, last: Option<RawJson<'a>>) -> Option<RawJson<'a>> {
        let from = match last {
            Some(v) => v.offset_in(self.bytes)? + v.as_bytes().len(),
            None => 1,
        };
        let close = navigate::skip_ws(self.bytes, from);
        let whole = (self.bytes.first() == Some(&b'{') && self.bytes.get(close) == Some(&b'}'))
            .then(|| self.bytes.get(..=close))??;
        Some(RawJson::from_validated(whole))
    }
}

impl<'a> ObjectMembers<'a> {
    /// The next member, where `literal` may know its name from the bytes after its opening
    /// quote (see `Members::next_known`): `Ok(key)` for a name it knew, the name itself
    /// otherwise (a name it knows written with escapes included).
    #[inline]
    pub(crate) fn next_known<K>(
        &mut self,
        literal: impl FnOnce(&[u8]) -> Option<(K, usize)>,
    ) -> Option<(Result<K, JsonStr<'a>>, RawJson<'a>)> {
        let (name, start, end) = self.inner.next_known(literal)?;
        let value = RawJson::from_validated(self.bytes.get(start..end)?);
        Some((name.map_err(|span| JsonStr::from_span(self.bytes, span)), value))
    }
}

impl<'a> Iterator for ObjectMembers<'a> {
    type Item = (JsonStr<'a>, RawJson<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        let (name, start, end) = self.inner.next()?;
        let value = RawJson::from_validated(self.bytes.get(start..end)?);
        Some((JsonStr::from_span(self.bytes, name), value))
    }
}

/// Iterator over an array's elements, decoded: see [`RawJson::decode_elements`].
pub struct DecodeElements<'a, T> {
    bytes: &'a [u8],
    pos: usize,
    item: PhantomData<fn() -> T>,
}

impl<T> Clone for DecodeElements<'_, T> {
    fn clone(&self) -> Self {
        Self { bytes: self.bytes, pos: self.pos, item: PhantomData }
    }
}

impl<'a, T: Deserialize<'a>> Iterator for DecodeElements<'a, T> {
    type Item = Result<T, DecodeError>;

    fn next(&mut self) -> Option<Self::Item> {
        let buf = self.bytes;
        let mut i = navigate::skip_ws(buf, self.pos);
        if buf.get(i) == Some(&b',') {
            i = navigate::skip_ws(buf, i + 1);
        }
        if matches!(buf.get(i), None | Some(b']')) {
            self.pos = buf.len();
            return None;
        }
        let (result, end) = super::de::decode_at::<T>(buf, i);
        // A value that failed to decode (or a `Deserialize` impl that read nothing) is
        // skipped by its brackets.
        let end = if result.is_ok() && end > i { end } else { navigate::value_end(buf, i) };
        self.pos = if end > i { end } else { buf.len() };
        Some(result)
    }
}

/// Iterator over an array's elements.
#[derive(Clone)]
pub struct ArrayElements<'a> {
    bytes: &'a [u8],
    inner: Elements<'a>,
}

impl<'a> Iterator for ArrayElements<'a> {
    type Item = RawJson<'a>;

    fn next(&mut self) -> Option<Self::Item> {
        let (start, end) = self.inner.next()?;
        Some(RawJson::from_validated(self.bytes.get(start..end)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `walked` gives the object once its last member was read, and nothing before.
    #[test]
    fn a_walked_object_is_the_member_value() {
        let v = RawJson::parse(br#"{"a":1,"m" : { "x" : [1,"}"] , "y":{} } ,"b":{}}"#).unwrap();
        let want = v.get("m").unwrap();
        let mut members = v.members_of("m").unwrap();
        let first = members.next();
        assert_eq!(members.walked(first.map(|(_, v)| v)), None, "a member is left");
        let last = members.by_ref().last().map(|(_, v)| v);
        assert_eq!(members.walked(last).map(|m| m.as_bytes()), Some(want.as_bytes()));
        let empty = RawJson::parse(br#"{"m":{ },"n":5}"#).unwrap();
        let members = empty.members_of("m").unwrap();
        assert_eq!(members.walked(None).map(|m| m.as_bytes()), Some(&b"{ }"[..]));
        assert_eq!(empty.members_of("n").unwrap().walked(None), None, "not an object");
    }

    /// `members_of` gives what `get` then `members` give, and stops at the inner object's
    /// closing brace although it never measured the object.
    #[test]
    fn members_of_reads_the_inner_object_in_place() {
        let v = RawJson::parse(br#"{"a":{"k":[1,{"z":2}],"s":"}\"}"} , "m" : { "p" : true } ,"b":3,"n":7}"#).unwrap();
        let pairs = |m: ObjectMembers<'_>| {
            m.map(|(k, v)| (k.raw().to_vec(), v.as_bytes().to_vec())).collect::<std::vec::Vec<_>>()
        };
        for name in ["a", "m"] {
            let want = pairs(v.get(name).unwrap().members());
            assert!(!want.is_empty());
            assert_eq!(pairs(v.members_of(name).unwrap()), want, "{name}");
        }
        assert!(v.members_of("b").unwrap().next().is_none());
        assert!(v.members_of("missing").is_none());
        assert!(RawJson::parse(b"[1]").unwrap().members_of("a").is_none());
    }

    #[test]
    fn member_lookup_finds_nested_spans_verbatim() {
        let v = RawJson::parse(br#" {"a" : 1, "x\u0079": {"x":[1,2,{"y":"}\"]"}]}, "n": null } "#).unwrap();
        assert_eq!(v.get("xy").unwrap().as_bytes(), br#"{"x":[1,2,{"y":"}\"]"}]}"#);
        assert_eq!(v.get("a").unwrap().as_i64(), Some(1));
        assert!(v.get("n").unwrap().is_null());
        assert!(v.get("missing").is_none());
        let names: heapless::Vec<_, 4> = v.members().map(|(k, _)| k.unescaped_len()).collect();
        assert_eq!(&names[..], &[1, 2, 1]);
    }

    #[test]
    fn elements_and_scalars() {
        let v = RawJson::parse(b"[ 1 , -2.5e1 ,\"s\", true, [ ], {}]").unwrap();
        let mut it = v.elements();
        assert_eq!(it.next().unwrap().as_u64(), Some(1));
        assert_eq!(it.next().unwrap().as_f64(), Some(-25.0));
        assert!(it.next().unwrap().as_str().unwrap().eq_str("s"));
        assert_eq!(it.next().unwrap().as_bool(), Some(true));
        assert_eq!(it.next().unwrap().kind(), JsonKind::Array);
        assert_eq!(it.next().unwrap().kind(), JsonKind::Object);
        assert!(it.next().is_none());
    }

    #[test]
    fn integer_conversions_are_exact() {
        fn n(t: &[u8]) -> RawJson<'_> {
            RawJson::parse(t).unwrap()
        }
        assert_eq!(n(b"-9223372036854775808").as_i64(), Some(i64::MIN));
        assert_eq!(n(b"9223372036854775808").as_i64(), None);
        assert_eq!(n(b"18446744073709551615").as_u64(), Some(u64::MAX));
        assert_eq!(n(b"18446744073709551616").as_u64(), None);
        assert_eq!(n(b"1.0").as_i64(), None);
        assert_eq!(n(b"-0").as_i64(), Some(0));
        assert_eq!(n(b"1e400").as_f64(), None);
        assert_eq!(n(b"-1e308").as_f64(), Some(-1e308));
    }

    #[test]
    fn typed_decode_unescapes_owned_strings_through_scratch() {
        #[derive(serde::Deserialize, Debug, PartialEq)]
        struct P {
            n: u8,
            s: heapless::String<8>,
        }
        let v = RawJson::parse(br#"{"s":"a\nb","n":7,"extra":[{}]}"#).unwrap();
        let p: P = v.decode_with(&mut [0; 8]).unwrap();
        assert_eq!(p, P { n: 7, s: "a\nb".try_into().unwrap() });
        assert!(v.decode::<u8>().is_err());
    }
}
