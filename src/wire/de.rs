//! A serde `Deserializer` over JSON that the scanner has already validated.
//!
//! serde-json-core cannot decode the MCP vocabulary: it has no raw-value capture (tool
//! schemas, `arguments`, `_meta` and `error.data` must stay raw), no `deserialize_any`
//! (so no string-or-number ids or progress tokens), it rejects surrogate-pair escapes, and
//! it hands `&str` fields their escapes silently (`a\"b` stays five bytes). Decoding from
//! a validated span removes all four problems and the second validation pass:
//!
//! * [`RawJson`] fields borrow their span (serde_json's raw-value protocol, so the same
//!   types also work with `serde_json` and its `raw_value` feature);
//! * [`JsonStr`](super::JsonStr) fields borrow the escaped text, unescaped on demand;
//! * `&str` fields borrow text without escapes and fail clearly on escaped text (never
//!   silently keep the escapes); owned string fields are unescaped through the caller's
//!   scratch buffer, surrogate pairs included;
//! * `deserialize_any` works, so hand-written `Deserialize` impls can look at the input.
//!
//! Errors are `Copy` values that keep what serde reports with a static lifetime (the
//! missing field's name, the expected length) and the byte offset where decoding stopped.

use core::fmt;

use serde::de::{self, DeserializeSeed, Visitor};

pub(crate) use super::decode_error::Error;
pub use super::decode_error::{DecodeError, DecodeErrorKind, Expected, FieldName, Found};

use super::lend::{self, LendAccess, Lent};
use super::navigate;
use super::raw::{RAW_TOKEN, RawJson, parse_i64, parse_u64};
use super::scan::StrSpan;
use super::spans::Entry;
use super::string::{JsonStr, SJC_ESCAPED_STR};

type Result<T> = core::result::Result<T, Error>;

/// Decodes `T` from a validated value, with optional scratch for unescaping.
pub(crate) fn decode<'a, T: de::Deserialize<'a>>(
    value: RawJson<'a>,
    scratch: Option<&mut [u8]>,
) -> core::result::Result<T, DecodeError> {
    let mut de = Deserializer::new(value.as_bytes(), 0, scratch);
    T::deserialize(&mut de).map_err(|e| de.error(e))
}

/// Decodes `T` from an object whose top-level members were recorded by the envelope pass
/// (see [`MemberSpans`](super::MemberSpans)): a struct or map is visited member by member
/// from the table, each value read where it is known to be, without walking past it to
/// find the next member (values kept raw, ignored ones, strings are taken as they stand).
/// Anything else `T` asks for is read from the text as [`decode`] reads it.
///
/// The same visitor sees the same members in the same order as with [`decode`], so a
/// value decoded here is the value [`decode`] gives; errors are not worth making precise
/// twice: the caller decodes again with [`decode`] to report one.
pub(crate) fn decode_recorded<'a, T: de::Deserialize<'a>>(
    recorded: super::Recorded<'a, '_>,
) -> core::result::Result<T, DecodeError> {
    let mut de = Deserializer::new(recorded.object, 0, None);
    T::deserialize(Root { de: &mut de, entries: recorded.entries }).map_err(|e| de.error(e))
}

/// Decodes `T` from the value that starts at `start` in `input` (validated text), and
/// returns the offset after what it read (the end of the value when decoding succeeds).
pub(crate) fn decode_at<'a, T: de::Deserialize<'a>>(
    input: &'a [u8],
    start: usize,
) -> (core::result::Result<T, DecodeError>, usize) {
    let mut de = Deserializer::new(input, start, None);
    let result = T::deserialize(&mut de).map_err(|e| de.error(e));
    (result, de.pos)
}

struct Deserializer<'a, 's> {
    input: &'a [u8],
    pos: usize,
    scratch: Option<&'s mut [u8]>,
    /// `input` as text, once a member name or a `&str` needed it (see [`Self::text`]).
    text: Option<&'a str>,
    /// The name of the member whose value is being read.
    key: Option<StrSpan>,
    /// The innermost member whose value failed, once one has.
    failed_in: Option<StrSpan>,
    /// A value whose span is known already, as (start, end), and its body if it is a
    /// string: the member being read from a recorded table (see [`decode_recorded`]),
    /// taken as it stands rather than walked again.
    known: (usize, usize),
    known_text: Option<StrSpan>,
}

/// Inputs up to this length are turned into one `&str` the first time a string must be
/// lent as text (member names, `&str` fields), so that every later one is a slice of it;
/// longer inputs convert each string alone. In safe Rust a `&str` can only come out of a
/// UTF-8 check, and checking a short message once costs less than checking its member
/// names one by one.
const WHOLE_TEXT: usize = 512;

/// Longest escaped member name or enum tag decoded without scratch.
const NAME_BUF: usize = 128;

impl<'a, 's> Deserializer<'a, 's> {
    shared_when_compact! {
    fn new(input: &'a [u8], pos: usize, scratch: Option<&'s mut [u8]>) -> Self {
        Self { input, pos, scratch, text: None, key: None, failed_in: None, known: (usize::MAX, 0), known_text: None }
    }
    }

    /// The error to report for `e`, raised where decoding stopped.
    #[cold]
    fn error(&self, Error(kind): Error) -> DecodeError {
        let field = self.failed_in.map(|span| FieldName::of(JsonStr::from_span(self.input, span)));
        DecodeError { kind, offset: self.pos, field }
    }

    fn peek(&mut self) -> Option<u8> {
        self.pos = navigate::skip_ws(self.input, self.pos);
        self.input.get(self.pos).copied()
    }

    fn found(&mut self) -> Found {
        match self.peek() {
            Some(b'n') => Found::Null,
            Some(b't' | b'f') => Found::Bool,
            Some(b'"') => Found::String,
            Some(b'[') => Found::Array,
            Some(b'{') => Found::Object,
            _ => Found::Number,
        }
    }

    fn invalid_type(&mut self, expected: Expected) -> Error {
        Error(DecodeErrorKind::InvalidType { found: self.found(), expected: Some(expected) })
    }

    /// The value at `pos` as a span, moving past it.
    fn take_value(&mut self) -> &'a [u8] {
        let start = navigate::skip_ws(self.input, self.pos);
        let end = if start == self.known.0 { self.known.1 } else { navigate::value_end(self.input, start) };
        self.pos = end;
        self.input.get(start..end).unwrap_or_default()
    }

    /// The string at `pos`, moving past it.
    fn take_string(&mut self) -> Result<JsonStr<'a>> {
        self.take_span().map(|span| JsonStr::from_span(self.input, span))
    }

    /// The span of the string at `pos`, moving past it.
    fn take_span(&mut self) -> Result<StrSpan> {
        if self.peek() != Some(b'"') {
            return Err(self.invalid_type(Expected::String));
        }
        if self.pos == self.known.0
            && let Some(span) = self.known_text
        {
            self.pos = self.known.1;
            return Ok(span);
        }
        let (span, end) = navigate::string(self.input, self.pos);
        self.pos = end;
        Ok(span)
    }

    /// The body of a string without escapes, as text.
    fn text(&mut self, span: StrSpan) -> Option<&'a str> {
        if self.input.len() > WHOLE_TEXT || !super::find::VECTOR {
            return super::find::to_str(self.input.get(span.start..span.end)?);
        }
        let text = match self.text {
            Some(t) => t,
            None => *self.text.insert(super::find::to_str(self.input)?),
        };
        text.get(span.start..span.end)
    }

    fn take_number(&mut self, expected: Expected) -> Result<&'a [u8]> {
        match self.peek() {
            // (`value_end` finds the same end; the compact build shares its code.)
            Some(b'-' | b'0'..=b'9') if super::find::COMPACT => Ok(self.take_value()),
            Some(b'-' | b'0'..=b'9') => {
                let start = self.pos;
                self.pos = navigate::number_end(self.input, start);
                Ok(self.input.get(start..self.pos).unwrap_or_default())
            }
            _ => Err(self.invalid_type(expected)),
        }
    }

    /// Visits a string: borrowed when it has no escapes, else unescaped into scratch.
    fn visit_string<V: Visitor<'a>>(&mut self, visitor: V) -> Result<V::Value> {
        let span = self.take_span()?;
        if !span.escaped {
            let text = self.text(span).ok_or(Error(DecodeErrorKind::InvalidValue))?;
            return visitor.visit_borrowed_str(text);
        }
        let s = JsonStr::from_span(self.input, span);
        let needed = s.unescaped_len();
        match self.scratch.as_deref_mut() {
            // With an allocator, an owned string is simply made.
            #[cfg(feature = "alloc")]
            None => {
                let mut owned = alloc::string::String::with_capacity(needed);
                for fragment in s.fragments() {
                    match fragment {
                        super::Fragment::Text(t) => owned.push_str(t),
                        super::Fragment::Char(c) => owned.push(c),
                    }
                }
                visitor.visit_string(owned).map_err(borrow_hint)
            }
            #[cfg(not(feature = "alloc"))]
            None => Err(Error(DecodeErrorKind::NeedsScratch { len: needed })),
            Some(scratch) => match s.unescape_into(scratch) {
                Ok(text) => visitor.visit_str(text).map_err(borrow_hint),
                Err(_) => Err(Error(DecodeErrorKind::ScratchTooSmall { needed, capacity: scratch.len() })),
            },
        }
    }

    /// Visits a member name or enum tag; escaped names go through a small stack buffer.
    fn visit_name<V: Visitor<'a>>(&mut self, visitor: V) -> Result<V::Value> {
        match self.name()? {
            Ok(text) => visitor.visit_borrowed_str(text),
            Err(escaped) => {
                let mut buf = [0u8; NAME_BUF];
                visitor.visit_str(unescape_name(escaped, &mut buf))
            }
        }
    }

    /// Visits a struct field's name or an enum tag. Identifier visitors never keep the
    /// text, so with the compact searches it is handed over one way only (`visit_str`,
    /// plain or unescaped into the buffer): one copy of the field-name match, not two.
    fn visit_identifier<V: Visitor<'a>>(&mut self, visitor: V) -> Result<V::Value> {
        if !super::find::COMPACT {
            return self.visit_name(visitor);
        }
        let mut buf = [0u8; NAME_BUF];
        let text = match self.name()? {
            Ok(text) => text,
            Err(escaped) => unescape_name(escaped, &mut buf),
        };
        visitor.visit_str(text)
    }

    /// A struct's member name, when the struct's names are known (`fields`, as serde's
    /// derived impls list them): a name without escapes that is one of them is handed
    /// over as that `&'static str`, the same text, so that no `&str` has to be made from
    /// the input (in safe Rust only a UTF-8 check makes one, and for a short decode that
    /// check cost more than the rest of a member). Any other name goes the usual way.
    #[cfg(mcp_sansio_wide)]
    #[inline]
    fn field<V: Visitor<'a>>(&mut self, visitor: V, fields: &'static [&'static str]) -> Result<V::Value> {
        if self.peek() == Some(b'"')
            && let Some(end) = super::find::short_string(self.input, self.pos + 1)
            && let Some(name) = self.input.get(self.pos + 1..end)
            && let Some(field) = fields.iter().find(|f| f.as_bytes() == name)
        {
            self.pos = end + 1;
            return visitor.visit_borrowed_str(field);
        }
        self.visit_name(visitor)
    }

    /// An object, its members visited as a map: `fields` are the struct's own names
    /// when a struct is read (see [`field`](Self::field); the compact build drops them).
    fn object<V: Visitor<'a>>(&mut self, visitor: V, fields: &'static [&'static str]) -> Result<V::Value> {
        self.open(b'{', Expected::Object)?;
        let value = visitor.visit_map(Members::new(&mut *self, fields))?;
        self.close_object();
        Ok(value)
    }

    shared_when_compact! {
    /// The member name or enum tag at `pos`, moving past it: its text when it has no
    /// escapes, else the escaped string. (The part of [`visit_name`](Self::visit_name)
    /// that does not depend on the visitor.)
    fn name(&mut self) -> Result<core::result::Result<&'a str, JsonStr<'a>>> {
        let span = self.take_span()?;
        if !span.escaped {
            return self.text(span).map(Ok).ok_or(Error(DecodeErrorKind::InvalidValue));
        }
        Ok(Err(JsonStr::from_span(self.input, span)))
    }
    }

    shared_when_compact! {
    /// Moves past `open` (`{` or `[`), or fails with what was found instead.
    fn open(&mut self, open: u8, expected: Expected) -> Result<()> {
        if self.peek() != Some(open) {
            return Err(self.invalid_type(expected));
        }
        self.pos += 1;
        Ok(())
    }
    }

    shared_when_compact! {
    /// After a visitor read an object: skips the members it did not read, then the `}`.
    fn close_object(&mut self) {
        loop {
            match self.peek() {
                Some(b'}') => {
                    self.pos += 1;
                    return;
                }
                Some(b',' | b':') => self.pos += 1,
                Some(_) => {
                    let before = self.pos;
                    self.take_value();
                    if self.pos == before {
                        return;
                    }
                }
                None => return,
            }
        }
    }
    }

    shared_when_compact! {
    /// Before a member name: moves past the comma (unless it is the first member) and
    /// says where the name's quote is, or `None` at the end of the object.
    fn next_member(&mut self, first: &mut bool) -> Option<usize> {
        match self.peek() {
            Some(b'}') | None => return None,
            Some(b',') if !*first => self.pos += 1,
            _ => {}
        }
        *first = false;
        (self.peek() == Some(b'"')).then_some(self.pos)
    }
    }

    shared_when_compact! {
    /// After a member name whose quote was at `at`: remembers the name, for errors in its
    /// value.
    fn named(&mut self, at: usize) {
        self.key = Some(StrSpan { start: at + 1, end: self.pos.saturating_sub(1), escaped: true });
    }
    }

    shared_when_compact! {
    /// Before a member's value: moves past the colon and says which member it is.
    fn member_value(&mut self) -> Option<StrSpan> {
        if self.peek() == Some(b':') {
            self.pos += 1;
        }
        self.key
    }
    }

    shared_when_compact! {
    /// A member's value failed: the innermost member is named, errors pass through every
    /// enclosing one.
    fn failed_in(&mut self, key: Option<StrSpan>) {
        if self.failed_in.is_none() {
            self.failed_in = key;
        }
    }
    }

    fn integer<T: TryFrom<i64> + TryFrom<u64>>(&mut self) -> Result<T> {
        let value = match self.integer_value()? {
            Ok(u) => T::try_from(u).ok(),
            Err(i) => T::try_from(i).ok(),
        };
        value.ok_or(Error(DecodeErrorKind::NumberOutOfRange))
    }

    shared_when_compact! {
    /// The integer at `pos`, moving past it: `Ok` if it is not negative, `Err` if it is.
    fn integer_value(&mut self) -> Result<core::result::Result<u64, i64>> {
        let token = self.take_number(Expected::Integer)?;
        match parse_u64(token) {
            Some(u) => Ok(Ok(u)),
            None => parse_i64(token).map(Err).ok_or(Error(DecodeErrorKind::NumberOutOfRange)),
        }
    }
    }

    fn float(&mut self) -> Result<f64> {
        let token = self.take_number(Expected::Number)?;
        super::number::to_f64(token).ok_or(Error(DecodeErrorKind::NumberOutOfRange))
    }
}

/// An escaped member name, unescaped into `buf`. No Rust field or variant name is longer
/// than the buffer: a longer one becomes a name that matches nothing, so the member is
/// ignored (or refused by `deny_unknown_fields`).
fn unescape_name<'b>(name: JsonStr<'_>, buf: &'b mut [u8; NAME_BUF]) -> &'b str {
    match name.unescape_into(buf) {
        Ok(name) => name,
        Err(_) => "\u{0}",
    }
}

/// A `&str` visitor that met a transient string: say why, precisely.
fn borrow_hint(e: Error) -> Error {
    match e.0 {
        DecodeErrorKind::InvalidType { found: Found::String, .. } => Error(DecodeErrorKind::EscapedBorrow),
        _ => e,
    }
}

impl<'de> de::Deserializer<'de> for &mut Deserializer<'de, '_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'n') => {
                self.take_value();
                visitor.visit_unit()
            }
            Some(b't' | b'f') => self.deserialize_bool(visitor),
            Some(b'"') => self.visit_string(visitor),
            Some(b'[') => self.deserialize_seq(visitor),
            Some(b'{') => self.deserialize_map(visitor),
            _ => {
                let token = self.take_number(Expected::Number)?;
                if let Some(u) = parse_u64(token) {
                    visitor.visit_u64(u)
                } else if let Some(i) = parse_i64(token) {
                    visitor.visit_i64(i)
                } else {
                    self.pos -= token.len();
                    visitor.visit_f64(self.float()?)
                }
            }
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b't') => {
                self.take_value();
                visitor.visit_bool(true)
            }
            Some(b'f') => {
                self.take_value();
                visitor.visit_bool(false)
            }
            _ => Err(self.invalid_type(Expected::Bool)),
        }
    }

    fn deserialize_i8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_i8(self.integer()?)
    }
    fn deserialize_i16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_i16(self.integer()?)
    }
    fn deserialize_i32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_i32(self.integer()?)
    }
    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_i64(self.integer()?)
    }
    fn deserialize_u8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_u8(self.integer()?)
    }
    fn deserialize_u16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_u16(self.integer()?)
    }
    fn deserialize_u32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_u32(self.integer()?)
    }
    fn deserialize_u64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_u64(self.integer()?)
    }
    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_f32(self.float()? as f32)
    }
    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_f64(self.float()?)
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let s = self.take_string()?;
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => visitor.visit_char(c),
            _ => Err(Error(DecodeErrorKind::InvalidValue)),
        }
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.visit_string(visitor)
    }
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.visit_string(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'"') => {
                let s = self.take_string()?;
                match s.is_escaped() {
                    false => visitor.visit_borrowed_bytes(s.raw()),
                    true => Err(Error(DecodeErrorKind::EscapedBorrow)),
                }
            }
            Some(b'[') => self.deserialize_seq(visitor),
            _ => Err(self.invalid_type(Expected::String)),
        }
    }
    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.peek() == Some(b'n') {
            self.take_value();
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.peek() == Some(b'n') {
            self.take_value();
            visitor.visit_unit()
        } else {
            Err(self.invalid_type(Expected::Null))
        }
    }
    fn deserialize_unit_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value> {
        if name == RAW_TOKEN {
            let start = navigate::skip_ws(self.input, self.pos);
            let raw = self.take_value();
            if raw.is_empty() {
                self.pos = start;
                return Err(self.invalid_type(Expected::Value));
            }
            return visitor.visit_map(LendAccess::new(Lent::Raw, raw));
        }
        if name == super::ahead::AHEAD_TOKEN {
            let start = navigate::skip_ws(self.input, self.pos);
            return visitor.visit_map(AheadAccess { de: self, start, step: 0 });
        }
        if name == SJC_ESCAPED_STR {
            let s = self.take_string()?;
            return visitor.visit_newtype_struct(EscapedStr(s));
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.peek() != Some(b'[') {
            return Err(self.invalid_type(Expected::Array));
        }
        self.pos += 1;
        let value = visitor.visit_seq(Elements { de: &mut *self, first: true })?;
        match self.peek() {
            Some(b']') => {
                self.pos += 1;
                Ok(value)
            }
            // The visitor stopped before the end (a tuple shorter than the array).
            _ => Err(Error(DecodeErrorKind::InvalidLength { len: 0 })),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.object(visitor, &[])
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        // (The compact build does not use the names: see `Deserializer::field`.)
        self.object(visitor, fields)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.peek() {
            Some(b'"') => visitor.visit_enum(UnitVariant { de: self }),
            Some(b'{') => {
                self.pos += 1;
                let value = visitor.visit_enum(TaggedVariant { de: &mut *self })?;
                match self.peek() {
                    Some(b'}') => {
                        self.pos += 1;
                        Ok(value)
                    }
                    _ => Err(Error(DecodeErrorKind::InvalidLength { len: 2 })),
                }
            }
            _ => Err(self.invalid_type(Expected::Variant)),
        }
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.visit_identifier(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.take_value();
        visitor.visit_unit()
    }
}

struct Elements<'d, 'a, 's> {
    de: &'d mut Deserializer<'a, 's>,
    first: bool,
}

impl<'de> de::SeqAccess<'de> for Elements<'_, 'de, '_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        match self.de.peek() {
            Some(b']') | None => return Ok(None),
            Some(b',') if !self.first => self.de.pos += 1,
            _ => {}
        }
        self.first = false;
        seed.deserialize(&mut *self.de).map(Some)
    }
}

struct Members<'d, 'a, 's> {
    de: &'d mut Deserializer<'a, 's>,
    first: bool,
    /// The struct's member names, when a struct is read (see [`Deserializer::field`]).
    #[cfg(mcp_sansio_wide)]
    fields: &'static [&'static str],
}

impl<'d, 'a, 's> Members<'d, 'a, 's> {
    #[inline(always)]
    fn new(de: &'d mut Deserializer<'a, 's>, _fields: &'static [&'static str]) -> Self {
        Self {
            de,
            first: true,
            #[cfg(mcp_sansio_wide)]
            fields: _fields,
        }
    }
}

impl<'de> de::MapAccess<'de> for Members<'_, 'de, '_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let Some(at) = self.de.next_member(&mut self.first) else { return Ok(None) };
        let key = seed.deserialize(MapKey {
            de: &mut *self.de,
            #[cfg(mcp_sansio_wide)]
            fields: self.fields,
        });
        self.de.named(at);
        key.map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let key = self.de.member_value();
        seed.deserialize(&mut *self.de).inspect_err(|_| self.de.failed_in(key))
    }
}

/// The map a read-ahead decoder is handed (see [`ahead`](super::ahead)): the mark, then
/// the input from the value's start; then either the length it read (a second key) or a
/// request for the general decoding (a second value), from the value's start.
struct AheadAccess<'d, 'a, 's> {
    de: &'d mut Deserializer<'a, 's>,
    start: usize,
    step: u8,
}

impl<'a> de::MapAccess<'a> for AheadAccess<'_, 'a, '_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'a>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.step == 0 {
            self.step = 1;
            return seed.deserialize(lend::MarkKey(Lent::Ahead)).map(Some);
        }
        let mut len = 0;
        let value = seed.deserialize(super::ahead::Consumed(&mut len))?;
        self.de.pos = self.start.saturating_add(len).min(self.de.input.len());
        Ok(Some(value))
    }

    fn next_value_seed<V: DeserializeSeed<'a>>(&mut self, seed: V) -> Result<V::Value> {
        if self.step == 1 {
            self.step = 2;
            return seed.deserialize(lend::SpanValue(self.de.input.get(self.start..).unwrap_or_default()));
        }
        self.de.pos = self.start;
        seed.deserialize(&mut *self.de)
    }
}

/// The object of [`decode_recorded`]: a struct or a map is visited from the table.
struct Root<'d, 'a, 's, 'r> {
    de: &'d mut Deserializer<'a, 's>,
    entries: &'r [Entry],
}

impl<'d, 'a, 's, 'r> Root<'d, 'a, 's, 'r> {
    fn members<V: Visitor<'a>>(self, visitor: V, _fields: &'static [&'static str]) -> Result<V::Value> {
        visitor.visit_map(RecordedMembers {
            de: self.de,
            entries: self.entries.iter(),
            value: None,
            #[cfg(mcp_sansio_wide)]
            fields: _fields,
        })
    }
}

/// Forwards to the text deserializer what [`Root`] does not read from the table.
macro_rules! forward_to_text {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {$(
        fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value> {
            de::Deserializer::$method(&mut *self.de, $($arg,)* visitor)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for Root<'_, 'de, '_, '_> {
    type Error = Error;

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.members(visitor, fields)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.members(visitor, &[])
    }

    forward_to_text! {
        deserialize_any(); deserialize_bool(); deserialize_i8(); deserialize_i16(); deserialize_i32();
        deserialize_i64(); deserialize_u8(); deserialize_u16(); deserialize_u32(); deserialize_u64();
        deserialize_f32(); deserialize_f64(); deserialize_char(); deserialize_str(); deserialize_string();
        deserialize_bytes(); deserialize_byte_buf(); deserialize_option(); deserialize_unit();
        deserialize_unit_struct(name: &'static str); deserialize_newtype_struct(name: &'static str);
        deserialize_seq(); deserialize_tuple(len: usize); deserialize_tuple_struct(name: &'static str, len: usize);
        deserialize_enum(name: &'static str, variants: &'static [&'static str]); deserialize_identifier();
        deserialize_ignored_any();
    }
}

/// The members of a recorded object, from its table.
struct RecordedMembers<'d, 'a, 's, 'r> {
    de: &'d mut Deserializer<'a, 's>,
    entries: core::slice::Iter<'r, Entry>,
    /// The member whose name was just read.
    value: Option<&'r Entry>,
    /// The struct's member names, when a struct is read (see [`Deserializer::field`]).
    #[cfg(mcp_sansio_wide)]
    fields: &'static [&'static str],
}

impl<'de> de::MapAccess<'de> for RecordedMembers<'_, 'de, '_, '_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let Some(entry) = self.entries.next() else { return Ok(None) };
        self.value = Some(entry);
        // A struct's own member name, as `Deserializer::field` hands it over, without a
        // look at the text.
        #[cfg(mcp_sansio_wide)]
        if let Some(name) = entry.plain_name(self.de.input)
            && let Some(field) = self.fields.iter().find(|f| f.as_bytes() == name)
        {
            return seed.deserialize(de::value::BorrowedStrDeserializer::<Error>::new(field)).map(Some);
        }
        self.de.pos = entry.name_quote();
        seed.deserialize(MapKey {
            de: &mut *self.de,
            #[cfg(mcp_sansio_wide)]
            fields: self.fields,
        })
        .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let Some(entry) = self.value.take() else { return Err(Error(DecodeErrorKind::InvalidValue)) };
        let (start, end) = entry.value();
        self.de.pos = start;
        self.de.known = (start, end);
        self.de.known_text = entry.string();
        seed.deserialize(&mut *self.de)
    }
}

/// Member names: strings, but keys may also be asked for as numbers or bools (serde_json
/// allows `BTreeMap<u32, _>` keys that are quoted integers).
struct MapKey<'d, 'a, 's> {
    de: &'d mut Deserializer<'a, 's>,
    /// The struct's member names, if the map is a struct's (else empty).
    #[cfg(mcp_sansio_wide)]
    fields: &'static [&'static str],
}

impl<'d, 'a, 's> MapKey<'d, 'a, 's> {
    /// The key of an enum's tagged form: no member names known.
    #[inline(always)]
    fn tag(de: &'d mut Deserializer<'a, 's>) -> Self {
        Self {
            de,
            #[cfg(mcp_sansio_wide)]
            fields: &[],
        }
    }
}

impl<'de> de::Deserializer<'de> for MapKey<'_, 'de, '_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.de.visit_name(visitor)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        #[cfg(mcp_sansio_wide)]
        if !self.fields.is_empty() {
            return self.de.field(visitor, self.fields);
        }
        self.de.visit_identifier(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_some(self)
    }

    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let s = self.de.take_string()?;
        let n = s.as_plain().and_then(|t| parse_i64(t.as_bytes())).ok_or(Error(DecodeErrorKind::InvalidValue))?;
        visitor.visit_i64(n)
    }

    fn deserialize_u64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let s = self.de.take_string()?;
        let n = s.as_plain().and_then(|t| parse_u64(t.as_bytes())).ok_or(Error(DecodeErrorKind::InvalidValue))?;
        visitor.visit_u64(n)
    }

    fn deserialize_i32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_i64(visitor)
    }

    fn deserialize_u32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_u64(visitor)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.de.visit_string(visitor)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.de.visit_string(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_enum(&mut *self.de, name, variants, visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 u8 u16 i128 u128 f32 f64 char bytes byte_buf unit unit_struct seq tuple
        tuple_struct map struct ignored_any
    }
}

/// serde-json-core's escaped-string protocol, which `JsonStr` speaks: the string as it
/// was sent. `JsonStr` asks with `deserialize_any` and is lent the span (see
/// [`lend`](super::lend)); serde-json-core's own `EscapedStr` asks with `deserialize_str`
/// and gets the escaped text.
struct EscapedStr<'a>(JsonStr<'a>);

impl<'de> de::Deserializer<'de> for EscapedStr<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let lent = if self.0.is_escaped() { Lent::Escaped } else { Lent::Plain };
        visitor.visit_map(LendAccess::new(lent, self.0.raw()))
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_borrowed_str(super::find::to_str(self.0.raw()).ok_or(Error(DecodeErrorKind::InvalidValue))?)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char bytes byte_buf option unit
        unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

/// `"Variant"`
struct UnitVariant<'d, 'a, 's> {
    de: &'d mut Deserializer<'a, 's>,
}

impl<'de, 'd, 's> de::EnumAccess<'de> for UnitVariant<'d, 'de, 's> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let tag = seed.deserialize(MapKey::tag(&mut *self.de))?;
        Ok((tag, self))
    }
}

impl<'de> de::VariantAccess<'de> for UnitVariant<'_, 'de, '_> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        Ok(())
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, _seed: T) -> Result<T::Value> {
        Err(Error(DecodeErrorKind::InvalidType { found: Found::String, expected: Some(Expected::Object) }))
    }
    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _visitor: V) -> Result<V::Value> {
        Err(Error(DecodeErrorKind::InvalidType { found: Found::String, expected: Some(Expected::Object) }))
    }
    fn struct_variant<V: Visitor<'de>>(self, _fields: &'static [&'static str], _visitor: V) -> Result<V::Value> {
        Err(Error(DecodeErrorKind::InvalidType { found: Found::String, expected: Some(Expected::Object) }))
    }
}

/// `{"Variant": content}`
struct TaggedVariant<'d, 'a, 's> {
    de: &'d mut Deserializer<'a, 's>,
}

impl<'de, 'd, 's> de::EnumAccess<'de> for TaggedVariant<'d, 'de, 's> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        if self.de.peek() != Some(b'"') {
            return Err(Error(DecodeErrorKind::InvalidLength { len: 0 }));
        }
        let tag = seed.deserialize(MapKey::tag(&mut *self.de))?;
        if self.de.peek() == Some(b':') {
            self.de.pos += 1;
        }
        Ok((tag, self))
    }
}

impl<'de> de::VariantAccess<'de> for TaggedVariant<'_, 'de, '_> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        de::Deserialize::deserialize(&mut *self.de)
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(&mut *self.de)
    }
    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_seq(&mut *self.de, visitor)
    }
    fn struct_variant<V: Visitor<'de>>(self, _fields: &'static [&'static str], visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_map(&mut *self.de, visitor)
    }
}

impl<'de: 'a, 'a> de::Deserialize<'de> for RawJson<'a> {
    /// Borrows the value's text through serde_json's raw-value protocol, which both this
    /// crate's decoder and `serde_json` (with its `raw_value` feature) implement. Text
    /// from another deserializer is validated again, strictly, before it is accepted.
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> core::result::Result<Self, D::Error> {
        struct RawVisitor;
        impl<'de> Visitor<'de> for RawVisitor {
            type Value = RawJson<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<M: de::MapAccess<'de>>(self, mut map: M) -> core::result::Result<Self::Value, M::Error> {
                match lend::probe(&mut map)? {
                    // Lent by this crate's decoder: validated already.
                    Some(Some(Lent::Raw)) => Ok(RawJson::from_validated(lend::span(&mut map)?)),
                    Some(_) => map.next_value_seed(RawText),
                    None => Err(de::Error::invalid_type(de::Unexpected::Map, &self)),
                }
            }
        }
        struct RawText;
        impl<'de> DeserializeSeed<'de> for RawText {
            type Value = RawJson<'de>;
            fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> core::result::Result<Self::Value, D::Error> {
                d.deserialize_str(self)
            }
        }
        impl<'de> Visitor<'de> for RawText {
            type Value = RawJson<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("raw JSON text")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> core::result::Result<Self::Value, E> {
                RawJson::parse(v.as_bytes()).map_err(|_| E::invalid_value(de::Unexpected::Str(v), &self))
            }
        }
        d.deserialize_newtype_struct(RAW_TOKEN, RawVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Deserialize, Debug, PartialEq)]
    struct Call<'a> {
        #[serde(borrow)]
        name: JsonStr<'a>,
        #[serde(borrow)]
        arguments: Option<RawJson<'a>>,
        #[serde(default)]
        count: u32,
    }

    fn raw(text: &'static str) -> RawJson<'static> {
        RawJson::parse(text.as_bytes()).unwrap()
    }

    /// Struct member names are matched against the struct's names byte for byte (see
    /// `Deserializer::field`): near misses (a prefix, one byte more or changed, another
    /// case, an escape, non-ASCII, a name longer than the short search), at every distance
    /// from the end of the input, decode exactly as serde_json decodes them, in a lenient
    /// struct and in one that refuses unknown members.
    #[test]
    fn struct_member_names_are_matched_exactly() {
        #[derive(Deserialize, Debug, PartialEq)]
        #[serde(rename_all = "camelCase")]
        struct Lenient {
            text: Option<u8>,
            lang: Option<u8>,
            max_results: Option<u8>,
            t: Option<u8>,
        }
        #[derive(Deserialize, Debug, PartialEq)]
        #[serde(rename_all = "camelCase", deny_unknown_fields)]
        struct Strict {
            text: Option<u8>,
            lang: Option<u8>,
            max_results: Option<u8>,
            t: Option<u8>,
        }
        let names = [
            "text",
            "lang",
            "maxResults",
            "t",
            "",
            "tex",
            "texts",
            "texT",
            "Text",
            "lanh",
            "maxResult",
            "maxResultsX",
            "max_results",
            "t\\u0065xt",
            "l\\u0061ng",
            "téxt",
            "tt",
            "maxResultsmaxResults",
        ];
        for name in names {
            for pad in 0..12 {
                let text = std::format!(r#"{{"{name}":1,"lang":2{}}}"#, " ".repeat(pad));
                let ours = RawJson::parse(text.as_bytes()).unwrap().decode::<Lenient>().ok();
                assert_eq!(ours, serde_json::from_str::<Lenient>(&text).ok(), "{text}");
                let ours = RawJson::parse(text.as_bytes()).unwrap().decode::<Strict>().ok();
                assert_eq!(ours, serde_json::from_str::<Strict>(&text).ok(), "{text}");
                // Last in the object, right before its end.
                let text = std::format!(r#"{{"lang":2,"{name}":1{}}}"#, " ".repeat(pad));
                let ours = RawJson::parse(text.as_bytes()).unwrap().decode::<Lenient>().ok();
                assert_eq!(ours, serde_json::from_str::<Lenient>(&text).ok(), "{text}");
            }
        }
        // A refused name is reported as it was sent.
        let e = raw(r#"{"tex":1}"#).decode::<Strict>().unwrap_err();
        assert_eq!(e.kind, DecodeErrorKind::UnknownField);
    }

    /// A hand-written struct visitor that borrows its member names sees the names as sent,
    /// whether or not they are among the struct's. (Wide builds: the compact ones hand
    /// identifiers over as transient text only, see `visit_identifier`.)
    #[cfg(mcp_sansio_wide)]
    #[test]
    fn borrowed_member_names_keep_their_text() {
        struct Names<'a>(std::vec::Vec<&'a str>);
        impl<'de> Deserialize<'de> for Names<'de> {
            fn deserialize<D: de::Deserializer<'de>>(d: D) -> core::result::Result<Self, D::Error> {
                struct Key;
                impl<'de> DeserializeSeed<'de> for Key {
                    type Value = &'de str;
                    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> core::result::Result<&'de str, D::Error> {
                        d.deserialize_identifier(self)
                    }
                }
                impl<'de> Visitor<'de> for Key {
                    type Value = &'de str;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str("a name")
                    }
                    fn visit_borrowed_str<E>(self, v: &'de str) -> core::result::Result<&'de str, E> {
                        Ok(v)
                    }
                }
                struct V;
                impl<'de> Visitor<'de> for V {
                    type Value = Names<'de>;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str("an object")
                    }
                    fn visit_map<M: de::MapAccess<'de>>(self, mut m: M) -> core::result::Result<Names<'de>, M::Error> {
                        let mut names = std::vec::Vec::new();
                        while let Some(name) = m.next_key_seed(Key)? {
                            names.push(name);
                            m.next_value::<de::IgnoredAny>()?;
                        }
                        Ok(Names(names))
                    }
                }
                d.deserialize_struct("Names", &["a", "bb"], V)
            }
        }
        let names = raw(r#"{"a":1,"zz":[2],"bb":{},"b":3,"a":4}"#).decode::<Names<'_>>().unwrap();
        assert_eq!(names.0, ["a", "zz", "bb", "b", "a"]);
    }

    #[test]
    fn raw_fields_and_escaped_text() {
        let v = raw(r#"{"name":"caf\u00e9 \ud83d\ude00","arguments":{"a":[1,{"b":"}"}]},"extra":{"x":[]}}"#);
        let call: Call<'_> = v.decode().unwrap();
        assert!(call.name.eq_str("café 😀"));
        assert_eq!(call.arguments.unwrap().as_bytes(), br#"{"a":[1,{"b":"}"}]}"#);
        assert_eq!(call.count, 0);
    }

    #[test]
    fn same_types_decode_with_serde_json() {
        let text = r#"{"name":"x","arguments":{"a":1},"count":3}"#;
        let call: Call<'_> = serde_json::from_str(text).unwrap();
        assert_eq!(call.arguments.unwrap().as_bytes(), br#"{"a":1}"#);
        assert_eq!(call.count, 3);
    }

    #[test]
    fn errors_are_precise() {
        let e = raw(r#"{"arguments":{}}"#).decode::<Call<'_>>().unwrap_err();
        assert_eq!(e.kind, DecodeErrorKind::MissingField("name"));
        let e = raw(r#"{"name":"x","count":-1}"#).decode::<Call<'_>>().unwrap_err();
        assert_eq!(e.kind, DecodeErrorKind::NumberOutOfRange);
        let e = raw(r#"{"name":"x","count":"3"}"#).decode::<Call<'_>>().unwrap_err();
        assert_eq!(e.kind, DecodeErrorKind::InvalidType { found: Found::String, expected: Some(Expected::Integer) });
        let e = raw(r#"{"name":"x","name":"y"}"#).decode::<Call<'_>>().unwrap_err();
        assert_eq!(e.kind, DecodeErrorKind::DuplicateField("name"));
        assert_eq!(e.to_string(), "duplicate field `name` at byte 18"); // just after the second name
    }

    #[test]
    fn borrowed_str_never_keeps_escapes() {
        #[derive(Deserialize, Debug)]
        struct S<'a> {
            s: &'a str,
        }
        assert_eq!(raw(r#"{"s":"plain"}"#).decode::<S<'_>>().unwrap().s, "plain");
        // Escaped text cannot be lent: with an allocator the string is made, and the `&str`
        // visitor refuses it; without one, there is nowhere to unescape it.
        let e = raw(r#"{"s":"a\"b"}"#).decode::<S<'_>>().unwrap_err();
        let want = if cfg!(feature = "alloc") {
            DecodeErrorKind::EscapedBorrow
        } else {
            DecodeErrorKind::NeedsScratch { len: 3 }
        };
        assert_eq!(e.kind, want);
        assert_eq!(e.field.unwrap().as_str(), "s");
        let e = raw(r#"{"s":"a\"b"}"#).decode_with::<S<'_>>(&mut [0; 8]).unwrap_err();
        assert_eq!(e.kind, DecodeErrorKind::EscapedBorrow);
    }

    /// Issue 8: with `alloc`, owned strings decode whatever their escapes, with no scratch.
    #[cfg(feature = "alloc")]
    #[test]
    fn owned_strings_with_alloc_need_no_scratch() {
        #[derive(Deserialize, Debug, PartialEq)]
        struct S {
            city: alloc::string::String,
            note: Option<alloc::string::String>,
            plain: alloc::string::String,
        }
        let s: S = raw(r#"{"city":"S\u00e3o Paulo \"SP\"","note":"a\nb\ud83d\ude00","plain":"x"}"#).decode().unwrap();
        assert_eq!(s, S { city: "São Paulo \"SP\"".into(), note: Some("a\nb😀".into()), plain: "x".into() });
    }

    /// Issue 8: errors name the member whose value failed and the type it needed.
    #[test]
    fn errors_name_the_member_and_the_expected_type() {
        #[derive(Deserialize, Debug)]
        #[allow(dead_code)]
        struct Inner {
            days: u8,
            units: bool,
        }
        #[derive(Deserialize, Debug)]
        #[allow(dead_code)]
        struct Outer {
            city: u8,
            forecast: Inner,
        }
        let e = raw(r#"{"city":1,"forecast":{"days":"3","unit\u0073":true}}"#).decode::<Outer>().unwrap_err();
        assert_eq!(e.kind, DecodeErrorKind::InvalidType { found: Found::String, expected: Some(Expected::Integer) });
        assert_eq!(e.field.unwrap().as_str(), "days");
        let e = raw(r#"{"city":1,"forecast":{"days":3}}"#).decode::<Outer>().unwrap_err();
        assert_eq!(e.kind, DecodeErrorKind::MissingField("units"));
        assert_eq!(e.field.unwrap().as_str(), "forecast", "the object that lacks it");
        assert_eq!(e.to_string(), "missing field `units` in `forecast` at byte 30");
        let e = raw(r#"{"forecast":{"days":3,"units":true}}"#).decode::<Outer>().unwrap_err();
        assert_eq!((e.kind, e.field), (DecodeErrorKind::MissingField("city"), None));
        // An escaped member name is named unescaped; a long one is cut.
        let e = raw(r#"{"cit\u0079":true}"#).decode::<Outer>().unwrap_err();
        assert_eq!(e.field.unwrap().as_str(), "city");
        let long = "x".repeat(40);
        let text = std::format!(r#"{{"{long}":1,"city":1,"forecast":{{"days":[],"units":true}}}}"#);
        let e = RawJson::parse(text.as_bytes()).unwrap().decode::<Outer>().unwrap_err();
        assert_eq!((e.field.unwrap().as_str(), e.field.unwrap().is_truncated()), ("days", false));
        assert_eq!(e.to_string(), "invalid type: found an array, expected an integer, in `days` at byte 74");
        // A name longer than the buffer is cut at a character boundary.
        let name = crate::wire::JsonStr::from_text("ééééééééééééééééé!"); // 34 bytes
        let cut = FieldName::of(name);
        assert_eq!((cut.as_str(), cut.is_truncated()), ("éééééééééééééééé", true));
        assert_eq!(cut.to_string(), "éééééééééééééééé…");
    }

    #[test]
    fn owned_strings_unescape_through_scratch() {
        #[derive(Deserialize, Debug)]
        struct S {
            a: heapless::String<16>,
            b: heapless::String<16>,
        }
        let v = raw(r#"{"a":"\ud83d\ude00\n","b":"x\ty"}"#);
        let s: S = v.decode_with(&mut [0; 8]).unwrap();
        assert_eq!((s.a.as_str(), s.b.as_str()), ("😀\n", "x\ty"));
        let e = v.decode_with::<S>(&mut [0; 2]).unwrap_err();
        assert_eq!(e.kind, DecodeErrorKind::ScratchTooSmall { needed: 5, capacity: 2 });
    }

    #[test]
    fn any_enums_numbers_and_escaped_names() {
        #[derive(Deserialize, Debug, PartialEq)]
        #[serde(rename_all = "lowercase")]
        enum Level {
            Debug,
            Info,
        }
        #[derive(Deserialize, Debug, PartialEq)]
        enum E {
            A(u8),
            B { x: i8 },
            C,
        }
        #[derive(Deserialize, Debug, PartialEq)]
        struct T {
            level: Level,
            e: [E; 3],
            f: f64,
            big: i64,
            t: (u8, bool),
        }
        let v = raw(
            r#"{"lev\u0065l":"info","e":[{"A":7},{"B":{"x":-2}},"C"],"f":-1.5e2,"big":-9223372036854775808,"t":[1,true],"z":null}"#,
        );
        let t: T = v.decode().unwrap();
        assert_eq!(
            t,
            T { level: Level::Info, e: [E::A(7), E::B { x: -2 }, E::C], f: -150.0, big: i64::MIN, t: (1, true) }
        );
        assert_eq!(raw(r#""debug""#).decode::<Level>().unwrap(), Level::Debug);
        assert_eq!(raw(r#""trace""#).decode::<Level>().unwrap_err().kind, DecodeErrorKind::UnknownVariant);
    }

    #[test]
    fn deserialize_any_sees_types() {
        struct Kind(&'static str);
        impl<'de> Deserialize<'de> for Kind {
            fn deserialize<D: de::Deserializer<'de>>(d: D) -> core::result::Result<Self, D::Error> {
                struct V;
                impl<'de> Visitor<'de> for V {
                    type Value = Kind;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str("anything")
                    }
                    fn visit_u64<E>(self, _: u64) -> core::result::Result<Kind, E> {
                        Ok(Kind("u64"))
                    }
                    fn visit_i64<E>(self, _: i64) -> core::result::Result<Kind, E> {
                        Ok(Kind("i64"))
                    }
                    fn visit_f64<E>(self, _: f64) -> core::result::Result<Kind, E> {
                        Ok(Kind("f64"))
                    }
                    fn visit_borrowed_str<E>(self, _: &'de str) -> core::result::Result<Kind, E> {
                        Ok(Kind("str"))
                    }
                    fn visit_unit<E>(self) -> core::result::Result<Kind, E> {
                        Ok(Kind("null"))
                    }
                }
                d.deserialize_any(V)
            }
        }
        for (text, kind) in
            [("1", "u64"), ("-1", "i64"), ("1.5", "f64"), ("1e400", "f64"), ("\"s\"", "str"), ("null", "null")]
        {
            match raw(text).decode::<Kind>() {
                Ok(k) => assert_eq!(k.0, kind, "{text}"),
                Err(e) => assert_eq!((text, e.kind), ("1e400", DecodeErrorKind::NumberOutOfRange)),
            }
        }
    }
}
