//! Lazy sequences and maps: decoded element by element, straight from the frame.
//!
//! A decoded `tools/list` result does not copy its 50 tools anywhere: its `tools` field is
//! an [`Items`] that remembers the array's span and decodes one [`Tool`](super::Tool) each
//! time the iterator is advanced. Values built for encoding use the other form, a borrowed
//! slice (`Items::from(&TOOLS[..])`), and serialize exactly like a decoded array would.

use core::fmt;
use core::marker::PhantomData;

use serde::Deserialize;
use serde::Serialize;
use serde::de::{Deserializer, Error as _};
use serde::ser::{SerializeMap, Serializer};

use crate::wire::{DecodeElements, DecodeError, JsonKind, JsonStr, ObjectMembers, RawJson};

/// A JSON array of `T`: either a span of the frame, decoded on demand, or a slice built
/// for encoding.
///
/// A decoded `tools/list` result does not copy its 50 tools anywhere: its `tools` field is
/// an [`Items`] that remembers the array's span and decodes one [`Tool`](super::Tool) each
/// time the iterator is advanced. Values built for encoding use the other form, a borrowed
/// slice (`Items::from(&TOOLS[..])`), and serialize exactly like a decoded array would.
pub struct Items<'a, T> {
    repr: ItemsRepr<'a, T>,
}

enum ItemsRepr<'a, T> {
    Raw(RawJson<'a>),
    Slice(&'a [T]),
}

impl<T> Clone for Items<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Items<'_, T> {}

impl<T> Clone for ItemsRepr<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for ItemsRepr<'_, T> {}

impl<'a, T> Items<'a, T> {
    /// The empty sequence.
    pub const fn empty() -> Self {
        Self { repr: ItemsRepr::Slice(&[]) }
    }

    /// A sequence built for encoding.
    pub const fn from_slice(items: &'a [T]) -> Self {
        Self { repr: ItemsRepr::Slice(items) }
    }

    /// A sequence over a JSON array (anything else is an empty sequence).
    pub fn from_raw(array: RawJson<'a>) -> Self {
        Self { repr: ItemsRepr::Raw(array) }
    }

    /// The array as received, for a decoded sequence.
    pub fn raw(&self) -> Option<RawJson<'a>> {
        match self.repr {
            ItemsRepr::Raw(r) => Some(r),
            ItemsRepr::Slice(_) => None,
        }
    }

    /// The slice, for a sequence built for encoding.
    pub fn as_slice(&self) -> Option<&'a [T]> {
        match self.repr {
            ItemsRepr::Raw(_) => None,
            ItemsRepr::Slice(s) => Some(s),
        }
    }

    /// The number of elements (a decoded array is walked, not decoded).
    pub fn len(&self) -> usize {
        match self.repr {
            ItemsRepr::Raw(r) => r.elements().count(),
            ItemsRepr::Slice(s) => s.len(),
        }
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        match self.repr {
            ItemsRepr::Raw(r) => r.elements().next().is_none(),
            ItemsRepr::Slice(s) => s.is_empty(),
        }
    }
}

impl<'a, T: Clone + Deserialize<'a>> Items<'a, T> {
    /// The elements in order, each decoded when it is reached. A decoding error is
    /// reported for that element alone; the iterator goes on with the next one.
    pub fn iter(&self) -> ItemsIter<'a, T> {
        match self.repr {
            ItemsRepr::Raw(r) => ItemsIter { inner: IterRepr::Raw(r.decode_elements()) },
            ItemsRepr::Slice(s) => ItemsIter { inner: IterRepr::Slice(s.iter()) },
        }
    }

    /// The element at `index`, decoded.
    pub fn get(&self, index: usize) -> Option<Result<T, DecodeError>> {
        self.iter().nth(index)
    }

    /// Whether every element decodes.
    pub fn validate(&self) -> Result<(), DecodeError> {
        self.iter().try_for_each(|r| r.map(drop))
    }
}

impl<'a, T> From<&'a [T]> for Items<'a, T> {
    fn from(items: &'a [T]) -> Self {
        Self::from_slice(items)
    }
}

impl<'a, T, const N: usize> From<&'a [T; N]> for Items<'a, T> {
    fn from(items: &'a [T; N]) -> Self {
        Self::from_slice(items)
    }
}

impl<T> Default for Items<'_, T> {
    fn default() -> Self {
        Self::empty()
    }
}

/// Iterator over an [`Items`]: each element decoded, or the reason it could not be.
pub struct ItemsIter<'a, T> {
    inner: IterRepr<'a, T>,
}

enum IterRepr<'a, T> {
    Raw(DecodeElements<'a, T>),
    Slice(core::slice::Iter<'a, T>),
}

impl<'a, T: Clone + Deserialize<'a>> Iterator for ItemsIter<'a, T> {
    type Item = Result<T, DecodeError>;

    fn next(&mut self) -> Option<Self::Item> {
        match &mut self.inner {
            IterRepr::Raw(elements) => elements.next(),
            IterRepr::Slice(items) => items.next().cloned().map(Ok),
        }
    }
}

impl<'a, T: Clone + Deserialize<'a> + PartialEq> PartialEq for Items<'a, T> {
    /// Equal when both have the same elements, compared decoded (a decoded array and a
    /// slice can be equal). An element that fails to decode is equal to nothing.
    fn eq(&self, other: &Self) -> bool {
        let mut a = self.iter();
        let mut b = other.iter();
        loop {
            match (a.next(), b.next()) {
                (None, None) => return true,
                (Some(Ok(x)), Some(Ok(y))) if x == y => {}
                _ => return false,
            }
        }
    }
}

impl<'a, T: Clone + Deserialize<'a> + fmt::Debug> fmt::Debug for Items<'a, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(feature = "defmt")]
impl<T> defmt::Format for Items<'_, T> {
    fn format(&self, f: defmt::Formatter<'_>) {
        match self.repr {
            ItemsRepr::Raw(r) => defmt::write!(f, "{}", r),
            ItemsRepr::Slice(s) => defmt::write!(f, "[{} items]", s.len()),
        }
    }
}

impl<'de: 'a, 'a, T> Deserialize<'de> for Items<'a, T> {
    /// Borrows the array; elements are decoded when iterated. Anything but an array is an
    /// error.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = RawJson::deserialize(d)?;
        if raw.kind() != JsonKind::Array {
            return Err(D::Error::invalid_type(unexpected(raw), &"an array"));
        }
        Ok(Self::from_raw(raw))
    }
}

impl<T: Serialize> Serialize for Items<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.repr {
            ItemsRepr::Raw(r) => r.serialize(s),
            ItemsRepr::Slice(items) => s.collect_seq(items),
        }
    }
}

/// What serde should say was found instead of the expected JSON type.
pub(crate) fn unexpected(raw: RawJson<'_>) -> serde::de::Unexpected<'static> {
    raw.unexpected()
}

/// A JSON object whose values are all `V` (prompt arguments, input requests…): a span of
/// the frame decoded on demand, or key–value pairs built for encoding.
pub struct Map<'a, V> {
    repr: MapRepr<'a, V>,
}

enum MapRepr<'a, V> {
    Raw(RawJson<'a>),
    Pairs(&'a [(JsonStr<'a>, V)]),
}

impl<V> Clone for Map<'_, V> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<V> Copy for Map<'_, V> {}

impl<V> Clone for MapRepr<'_, V> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<V> Copy for MapRepr<'_, V> {}

impl<'a, V> Map<'a, V> {
    /// A map built for encoding.
    pub const fn from_pairs(pairs: &'a [(JsonStr<'a>, V)]) -> Self {
        Self { repr: MapRepr::Pairs(pairs) }
    }

    /// A map over a JSON object (anything else is an empty map).
    pub fn from_raw(object: RawJson<'a>) -> Self {
        Self { repr: MapRepr::Raw(object) }
    }

    /// The object as received, for a decoded map.
    pub fn raw(&self) -> Option<RawJson<'a>> {
        match self.repr {
            MapRepr::Raw(r) => Some(r),
            MapRepr::Pairs(_) => None,
        }
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        match self.repr {
            MapRepr::Raw(r) => r.members().count(),
            MapRepr::Pairs(p) => p.len(),
        }
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<'a, V: Clone + Deserialize<'a>> Map<'a, V> {
    /// The entries in order, each value decoded when it is reached.
    pub fn iter(&self) -> MapIter<'a, V> {
        match self.repr {
            MapRepr::Raw(r) => MapIter { inner: MapIterRepr::Raw(r.members(), PhantomData) },
            MapRepr::Pairs(p) => MapIter { inner: MapIterRepr::Pairs(p.iter()) },
        }
    }

    /// The value under `key` (compared after unescaping), decoded.
    pub fn get(&self, key: &str) -> Option<Result<V, DecodeError>> {
        self.iter().find(|(k, _)| k.eq_str(key)).map(|(_, v)| v)
    }
}

/// Iterator over a [`Map`]: `(key, decoded value)`.
pub struct MapIter<'a, V> {
    inner: MapIterRepr<'a, V>,
}

enum MapIterRepr<'a, V> {
    Raw(ObjectMembers<'a>, PhantomData<V>),
    Pairs(core::slice::Iter<'a, (JsonStr<'a>, V)>),
}

impl<'a, V: Clone + Deserialize<'a>> Iterator for MapIter<'a, V> {
    type Item = (JsonStr<'a>, Result<V, DecodeError>);

    fn next(&mut self) -> Option<Self::Item> {
        match &mut self.inner {
            MapIterRepr::Raw(members, _) => members.next().map(|(k, v)| (k, v.decode())),
            MapIterRepr::Pairs(pairs) => pairs.next().map(|(k, v)| (*k, Ok(v.clone()))),
        }
    }
}

impl<'a, V: Clone + Deserialize<'a> + PartialEq> PartialEq for Map<'a, V> {
    /// Equal when both have the same entries in the same order, values compared decoded.
    fn eq(&self, other: &Self) -> bool {
        let mut a = self.iter();
        let mut b = other.iter();
        loop {
            match (a.next(), b.next()) {
                (None, None) => return true,
                (Some((ka, Ok(va))), Some((kb, Ok(vb)))) if ka == kb && va == vb => {}
                _ => return false,
            }
        }
    }
}

impl<'a, V: Clone + Deserialize<'a> + fmt::Debug> fmt::Debug for Map<'a, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

#[cfg(feature = "defmt")]
impl<V> defmt::Format for Map<'_, V> {
    fn format(&self, f: defmt::Formatter<'_>) {
        match self.repr {
            MapRepr::Raw(r) => defmt::write!(f, "{}", r),
            MapRepr::Pairs(p) => defmt::write!(f, "{{{} entries}}", p.len()),
        }
    }
}

impl<'de: 'a, 'a, V> Deserialize<'de> for Map<'a, V> {
    /// Borrows the object; values are decoded when iterated. Anything but an object is an
    /// error.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = RawJson::deserialize(d)?;
        if raw.kind() != JsonKind::Object {
            return Err(D::Error::invalid_type(unexpected(raw), &"an object"));
        }
        Ok(Self::from_raw(raw))
    }
}

impl<V: Serialize> Serialize for Map<'_, V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.repr {
            MapRepr::Raw(r) => r.serialize(s),
            MapRepr::Pairs(pairs) => {
                let mut m = s.serialize_map(Some(pairs.len()))?;
                for (k, v) in pairs {
                    m.serialize_entry(k, v)?;
                }
                m.end()
            }
        }
    }
}

/// A JSON object that must be one (`_meta`, schemas, arguments): decoding rejects other kinds.
pub(crate) fn object<'de, D: Deserializer<'de>>(d: D) -> Result<RawJson<'de>, D::Error> {
    let raw = RawJson::deserialize(d)?;
    if raw.kind() != JsonKind::Object {
        return Err(D::Error::invalid_type(unexpected(raw), &"an object"));
    }
    Ok(raw)
}

/// Any JSON value, `null` included, as `Some` (serde would make `null` a `None`).
pub(crate) fn some_raw<'de, D: Deserializer<'de>>(d: D) -> Result<Option<RawJson<'de>>, D::Error> {
    RawJson::deserialize(d).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decoded_and_built_sequences_agree() {
        let raw = RawJson::parse(br#"["a","b\u0063",1]"#).unwrap();
        let items: Items<'_, JsonStr<'_>> = raw.decode().unwrap();
        assert_eq!(items.len(), 3);
        let mut it = items.iter();
        assert_eq!(it.next().unwrap().unwrap(), "a");
        assert_eq!(it.next().unwrap().unwrap(), "bc");
        assert!(it.next().unwrap().is_err());
        assert!(it.next().is_none());
        assert!(items.validate().is_err());

        let built = [JsonStr::from_text("a"), JsonStr::from_text("bc")];
        let two: Items<'_, JsonStr<'_>> = RawJson::parse(br#"["a","b\u0063"]"#).unwrap().decode().unwrap();
        assert_eq!(two, Items::from(&built));
        assert_eq!(serde_json::to_string(&Items::from(&built)).unwrap(), r#"["a","bc"]"#);
        assert!(RawJson::parse(b"{}").unwrap().decode::<Items<'_, u8>>().is_err());
    }

    #[test]
    fn maps() {
        let raw = RawJson::parse(br#"{"x":"1","y":"2"}"#).unwrap();
        let m: Map<'_, JsonStr<'_>> = raw.decode().unwrap();
        assert_eq!(m.get("y").unwrap().unwrap(), "2");
        assert!(m.get("z").is_none());
        let pairs = [(JsonStr::from_text("x"), JsonStr::from_text("1")), (JsonStr::from_text("y"), "2".into())];
        assert_eq!(m, Map::from_pairs(&pairs));
        assert_eq!(serde_json::to_string(&Map::from_pairs(&pairs)).unwrap(), r#"{"x":"1","y":"2"}"#);
    }
}
