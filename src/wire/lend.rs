//! Lending validated spans from this crate's span decoder to this crate's own `Deserialize`
//! impls ([`RawJson`](super::RawJson), [`JsonStr`](super::JsonStr)) without checking them
//! again.
//!
//! serde tells a `Deserialize` impl nothing about the deserializer driving it. `RawJson` and
//! `JsonStr` must accept text from any deserializer (serde_json, serde-json-core), and text
//! from elsewhere must be validated, strictly, before a `RawJson` may hold it: the encoder
//! writes a `RawJson` out verbatim. Text lent by this crate's decoder, though, is a span of
//! input the scanner has already validated, and checking it again (or even running
//! `str::from_utf8` over it) was most of the cost of typed decoding.
//!
//! The decoder therefore lends a span as a one-member map whose key, asked for as bytes, is
//! a slice of a private static. Its address is the proof: no code outside this module can
//! produce it, so a visitor that sees that address as the key knows the value that follows
//! is a validated span, and takes it as bytes. Any other deserializer hands over some other
//! key (serde_json's raw-value key, asked for as bytes, arrives as a string), and the
//! visitor falls back to its checked path. Nothing here needs `unsafe`: the check is a
//! pointer comparison, and the worst a forged key could do is make a `RawJson` of text that
//! was not validated, which stays memory-safe (its accessors never assume UTF-8).

use serde::de::{self, DeserializeSeed, MapAccess, Visitor};

use super::de::{DecodeErrorKind, Error};
use super::raw::RAW_TOKEN;

/// What a lent span is: the keys live at the first addresses of this static. Its
/// content is distinctive so that no identical constant elsewhere could be merged with it.
static MARKS: [u8; 16] = *b"mcp-sansio:lent.";

/// The kind of span the decoder lends.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Lent {
    /// A whole JSON value, for `RawJson`.
    Raw,
    /// The body of a string without escapes, for `JsonStr`.
    Plain,
    /// The body of a string with escapes, for `JsonStr`.
    Escaped,
    /// The input from a value's start to the end, for a read-ahead decoder (see
    /// [`ahead`](super::ahead)).
    Ahead,
}

impl Lent {
    fn mark(self) -> &'static [u8] {
        let at = match self {
            Lent::Raw => 0,
            Lent::Plain => 1,
            Lent::Escaped => 2,
            Lent::Ahead => 3,
        };
        MARKS.get(at..at + 1).unwrap_or_default()
    }

    fn of(mark: &[u8]) -> Option<Lent> {
        [Lent::Raw, Lent::Plain, Lent::Escaped, Lent::Ahead].into_iter().find(|l| core::ptr::eq(l.mark(), mark))
    }
}

/// The map the decoder hands a visitor for a lent span.
pub(crate) struct LendAccess<'a> {
    lent: Lent,
    span: Option<&'a [u8]>,
}

impl<'a> LendAccess<'a> {
    pub(crate) fn new(lent: Lent, span: &'a [u8]) -> Self {
        Self { lent, span: Some(span) }
    }
}

impl<'de> MapAccess<'de> for LendAccess<'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        if self.span.is_none() {
            return Ok(None);
        }
        seed.deserialize(MarkKey(self.lent)).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let span = self.span.take().unwrap_or(b"null");
        seed.deserialize(SpanValue(span))
    }
}

/// The key: the mark when asked for bytes; serde_json's raw-value token otherwise, so
/// serde_json's own `RawValue` can still be decoded through this crate's decoder.
pub(crate) struct MarkKey(pub(crate) Lent);

impl<'de> de::Deserializer<'de> for MarkKey {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_borrowed_str(RAW_TOKEN)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_borrowed_bytes(self.0.mark())
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_bytes(visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string option unit
        unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

/// The span: as bytes when asked for bytes (the lending path), as text otherwise.
pub(crate) struct SpanValue<'a>(pub(crate) &'a [u8]);

impl<'de> de::Deserializer<'de> for SpanValue<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let text = super::find::to_str(self.0).ok_or(Error(DecodeErrorKind::InvalidValue))?;
        visitor.visit_borrowed_str(text)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_borrowed_bytes(self.0)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_bytes(visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string option unit
        unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

/// The first key of a map, as a visitor sees it: `Some(Some(lent))` for this crate's mark,
/// `Some(None)` for any other key (consumed), `None` for an empty map.
pub(crate) fn probe<'de, M: MapAccess<'de>>(map: &mut M) -> Result<Option<Option<Lent>>, M::Error> {
    map.next_key_seed(Probe)
}

struct Probe;

impl<'de> DeserializeSeed<'de> for Probe {
    type Value = Option<Lent>;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Option<Lent>, D::Error> {
        d.deserialize_bytes(self)
    }
}

impl<'de> Visitor<'de> for Probe {
    type Value = Option<Lent>;
    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("a member name")
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Option<Lent>, E> {
        Ok(Lent::of(v))
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Option<Lent>, E> {
        Ok(None)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Option<Lent>, E> {
        Ok(None)
    }
}

/// After [`probe`] found a mark: the lent span.
pub(crate) fn span<'de, M: MapAccess<'de>>(map: &mut M) -> Result<&'de [u8], M::Error> {
    map.next_value_seed(Span)
}

struct Span;

impl<'de> DeserializeSeed<'de> for Span {
    type Value = &'de [u8];
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<&'de [u8], D::Error> {
        d.deserialize_bytes(self)
    }
}

impl<'de> Visitor<'de> for Span {
    type Value = &'de [u8];
    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("a lent span")
    }
    fn visit_borrowed_bytes<E: de::Error>(self, v: &'de [u8]) -> Result<&'de [u8], E> {
        Ok(v)
    }
}
