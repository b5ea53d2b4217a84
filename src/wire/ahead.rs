//! Read-ahead decoding: one pass over the members of a value of a known, frequent shape.
//!
//! A content block or a resource's contents decoded the general way is walked three times:
//! once to find its end (it is taken raw), once to find its `type` (or `text`), and once
//! more as a struct, member by member, through serde. Most of them, though, come in one
//! shape (`{"type":"text","text":"…"}`, `{"uri":…,"mimeType":…,"text":…}`), and the text
//! they are read from has been validated already.
//!
//! This crate's decoder therefore lends a type that asks for it the input from the value's
//! start (see [`Lent::Ahead`]); the type reads its members in the expected order straight
//! from those bytes and says how far it read. On any surprise (another member, another
//! order, an escaped name, a value of another type) it reads nothing and the value is
//! decoded the general way, from its start, so the result is always the general one. Other
//! deserializers are simply given the general way (those that answer a newtype with a map,
//! as serde's value deserializers do, with that map).

use core::fmt;
use core::marker::PhantomData;

use serde::de::value::{BorrowedStrDeserializer, MapAccessDeserializer};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};

use super::de::{DecodeErrorKind, Error};
use super::lend::{self, Lent};
use super::navigate;
use super::raw::RAW_TOKEN;
use super::string::JsonStr;

/// The newtype name that asks this crate's decoder for read-ahead.
pub(crate) const AHEAD_TOKEN: &str = "$mcp_sansio::private::ReadAhead";

/// A type with a read-ahead decoder and the general one it falls back to.
pub(crate) trait ReadAhead<'de>: Sized {
    /// The value at the start of `input` (validated JSON from the value's first byte to the
    /// end of the input) and how many bytes it takes, if it has the expected shape.
    fn ahead(input: &'de [u8]) -> Option<(Self, usize)>;

    /// The general decoding.
    fn general<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error>;
}

/// Decodes `T` by read-ahead from this crate's decoder, the general way from any other.
pub(crate) fn deserialize<'de, T: ReadAhead<'de>, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
    d.deserialize_newtype_struct(AHEAD_TOKEN, AheadVisitor(PhantomData))
}

struct AheadVisitor<T>(PhantomData<fn() -> T>);

impl<'de, T: ReadAhead<'de>> Visitor<'de> for AheadVisitor<T> {
    type Value = T;

    /// `RawJson`'s words, which the general decoding would use: a value that is neither a
    /// newtype nor a map is refused in the same words either way.
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        T::general(d)
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<T, M::Error> {
        match lend::probe(&mut map)? {
            Some(Some(Lent::Ahead)) => {}
            // Another deserializer that answers a newtype with its map (serde's value
            // deserializers forward it to `deserialize_any`): the general decoding, given
            // the map with its first name put back.
            first => return T::general(MapAccessDeserializer::new(Replay { first: Some(first.is_some()), map })),
        }
        if let Some((value, len)) = T::ahead(lend::span(&mut map)?) {
            map.next_key_seed(Advance(len))?;
            return Ok(value);
        }
        map.next_value_seed(General(PhantomData))
    }
}

/// A map whose first name [`lend::probe`] has read, that name put back: the general
/// decodings take the value raw first (`RawJson`), whose visitor reads any name but this
/// crate's marks alike, so serde_json's raw-value name stands for whichever it was.
struct Replay<M> {
    /// `Some(true)`: a name to put back; `Some(false)`: the map was empty.
    first: Option<bool>,
    map: M,
}

impl<'de, M: MapAccess<'de>> MapAccess<'de> for Replay<M> {
    type Error = M::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, M::Error> {
        match self.first.take() {
            Some(true) => seed.deserialize(BorrowedStrDeserializer::new(RAW_TOKEN)).map(Some),
            Some(false) => Ok(None),
            None => self.map.next_key_seed(seed),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, M::Error> {
        self.map.next_value_seed(seed)
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

/// After a read-ahead decoder succeeded: tells the decoder how far it read (as a tuple's
/// length, the one number serde passes from a visitor to a deserializer).
struct Advance(usize);

impl<'de> DeserializeSeed<'de> for Advance {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_tuple(self.0, Unit)
    }
}

struct Unit;

impl<'de> Visitor<'de> for Unit {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("nothing")
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
}

/// After a read-ahead decoder gave up: the general decoding, from the value's start.
struct General<T>(PhantomData<fn() -> T>);

impl<'de, T: ReadAhead<'de>> DeserializeSeed<'de> for General<T> {
    type Value = T;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        T::general(d)
    }
}

/// The decoder's side of [`Advance`]: takes the length.
pub(crate) struct Consumed<'n>(pub(crate) &'n mut usize);

impl<'de> Deserializer<'de> for Consumed<'_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Error> {
        Err(Error(DecodeErrorKind::InvalidValue))
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, Error> {
        *self.0 = len;
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option
        unit unit_struct newtype_struct seq tuple_struct map struct enum identifier ignored_any
    }
}

/// A reader over validated JSON for the read-ahead decoders: each step reads one expected
/// token (after any whitespace) or says `None`.
pub(crate) struct Cursor<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    /// At the start of `buf`.
    pub(crate) fn new(buf: &'a [u8]) -> Self {
        Self { buf, pos: 0 }
    }

    /// The byte `b`.
    #[inline]
    pub(crate) fn byte(&mut self, b: u8) -> Option<()> {
        let i = navigate::skip_ws(self.buf, self.pos);
        (self.buf.get(i) == Some(&b)).then(|| self.pos = i + 1)
    }

    /// The exact bytes `quoted` (a string written without escapes, quotes included).
    #[inline]
    pub(crate) fn quoted(&mut self, quoted: &[u8]) -> Option<()> {
        let i = navigate::skip_ws(self.buf, self.pos);
        let end = i + quoted.len();
        (self.buf.get(i..end) == Some(quoted)).then(|| self.pos = end)
    }

    /// The member name `quoted` (quotes included, no escapes) and its colon.
    #[inline]
    pub(crate) fn key(&mut self, quoted: &[u8]) -> Option<()> {
        self.quoted(quoted)?;
        self.byte(b':')
    }

    /// A comma, then the member name `quoted` and its colon.
    #[inline]
    pub(crate) fn member(&mut self, quoted: &[u8]) -> Option<()> {
        self.byte(b',')?;
        self.key(quoted)
    }

    /// A string value.
    #[inline]
    pub(crate) fn string(&mut self) -> Option<JsonStr<'a>> {
        let i = navigate::skip_ws(self.buf, self.pos);
        if self.buf.get(i) != Some(&b'"') {
            return None;
        }
        let (span, end) = navigate::string(self.buf, i);
        self.pos = end;
        Some(JsonStr::from_span(self.buf, span))
    }

    /// Any value, decoded as the general decoding decodes it; `None` if that fails (the
    /// general decoding then reports it).
    pub(crate) fn value<T: de::Deserialize<'a>>(&mut self) -> Option<T> {
        let i = navigate::skip_ws(self.buf, self.pos);
        let (value, end) = super::de::decode_at::<T>(self.buf, i);
        let value = value.ok()?;
        self.pos = end;
        Some(value)
    }

    /// The object's closing brace: how many bytes the value took.
    #[inline]
    pub(crate) fn close(&mut self) -> Option<usize> {
        self.byte(b'}')?;
        Some(self.pos)
    }

    /// Where the cursor is, to come back to.
    pub(crate) fn at(&self) -> usize {
        self.pos
    }

    /// Back to where [`at`](Self::at) was.
    pub(crate) fn back(&mut self, at: usize) {
        self.pos = at;
    }
}

/// A value decoded the general way only, for tests that compare the two ways.
#[cfg(test)]
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct GeneralOnly<T>(pub(crate) T);

#[cfg(test)]
impl<'de, T: ReadAhead<'de>> de::Deserialize<'de> for GeneralOnly<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::general(d).map(GeneralOnly)
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde::de::value::{BorrowedStrDeserializer, Error, MapDeserializer};

    use super::GeneralOnly;
    use crate::mcp::ContentBlock;
    use crate::mcp::ResourceContents;

    /// Deserializers that answer a newtype with their map or their value (serde's value
    /// deserializers): the same value, or the same error, as the general decoding.
    #[test]
    fn forwarding_deserializers_get_the_general_decoding() {
        const RAW_VALUE: &str = r#"{"type":"text","text":"a"}"#;
        let maps: [&[(&str, &str)]; 4] = [
            &[("$serde_json::private::RawValue", RAW_VALUE)],
            &[("$serde_json::private::RawValue", r#"{"uri":"u","blob":"AAAA"}"#)],
            &[("type", "text"), ("text", "a")],
            &[],
        ];
        let map = |members: &'static [(&'static str, &'static str)]| {
            MapDeserializer::<_, Error>::new(
                members
                    .iter()
                    .map(|(k, v)| (BorrowedStrDeserializer::<Error>::new(k), BorrowedStrDeserializer::<Error>::new(v))),
            )
        };
        let shown = |r: Result<std::string::String, Error>| r.map_err(|e| std::format!("{e}"));
        for members in maps {
            let fast = ContentBlock::deserialize(map(members)).map(|v| std::format!("{v:?}"));
            let general = GeneralOnly::<ContentBlock<'_>>::deserialize(map(members)).map(|v| std::format!("{:?}", v.0));
            assert_eq!(shown(fast), shown(general), "{members:?}");
            let fast = ResourceContents::deserialize(map(members)).map(|v| std::format!("{v:?}"));
            let general =
                GeneralOnly::<ResourceContents<'_>>::deserialize(map(members)).map(|v| std::format!("{:?}", v.0));
            assert_eq!(shown(fast), shown(general), "{members:?}");
        }
        let fast = ContentBlock::deserialize(map(maps[0])).map(|v| std::format!("{v:?}"));
        assert!(fast.is_ok(), "{fast:?}");
        let text = BorrowedStrDeserializer::<Error>::new(RAW_VALUE);
        let fast = ContentBlock::deserialize(text).map(|v| std::format!("{v:?}"));
        let general = GeneralOnly::<ContentBlock<'_>>::deserialize(text).map(|v| std::format!("{:?}", v.0));
        assert_eq!(shown(fast), shown(general));
    }
}
