//! The members of a validated object, read straight from the text: the direct decoders
//! of the hottest small shapes (`notifications/progress` params, `tools/call` params and
//! results…, see `mcp::direct`) are written over this instead of serde's visitors.
//!
//! serde's derived `Deserialize` goes through a field visitor, `Option` and newtype
//! plumbing and the lending protocol for every member: for a three-member notification
//! that costs more than validating it did. Here a member is a name (its bytes, when it has
//! no escapes) and a value span, and the caller matches names with a `match` on bytes.
//! Anything unusual (an escaped name, a value of another type, a duplicate) is not
//! decided here: the direct decoder gives up and the serde path decodes the same bytes,
//! so both paths give the same answer and the serde path alone reports errors.

use super::navigate;
use super::raw::RawJson;
use super::string::JsonStr;

/// The members of one validated object, in order.
pub(crate) struct Fields<'a> {
    buf: &'a [u8],
    pos: usize,
    /// A value known already, as (its address, its length): see [`each_member_knowing`].
    known: (usize, usize),
}

/// What [`Fields::next`] found.
pub(crate) enum Step<'a> {
    /// A member whose name has no escapes: the name's bytes and the value.
    Member(&'a [u8], Value<'a>),
    /// The end of the object.
    End,
    /// Something the direct decoders leave to serde (an escaped name, malformed text).
    GiveUp,
}

/// A member's value: its whole span and, for a string, its body.
#[derive(Clone, Copy)]
pub(crate) struct Value<'a> {
    raw: RawJson<'a>,
    text: Option<JsonStr<'a>>,
}

impl<'a> Fields<'a> {
    /// The members of `object`, or `None` if it is not an object.
    pub(crate) fn of(object: RawJson<'a>) -> Option<Self> {
        let buf = object.as_bytes();
        (buf.first() == Some(&b'{')).then_some(Self { buf, pos: 1, known: (usize::MAX, 0) })
    }

    /// The next member.
    #[inline(always)]
    pub(crate) fn next(&mut self) -> Step<'a> {
        let buf = self.buf;
        let mut i = navigate::skip_ws(buf, self.pos);
        match buf.get(i) {
            Some(b'}') => return Step::End,
            Some(b',') if self.pos > 1 => i = navigate::skip_ws(buf, i + 1),
            _ => {}
        }
        if buf.get(i) != Some(&b'"') {
            return Step::GiveUp;
        }
        let (name, after) = navigate::string_inlined(buf, i);
        i = navigate::skip_ws(buf, after);
        if name.escaped || buf.get(i) != Some(&b':') {
            return Step::GiveUp;
        }
        let start = navigate::skip_ws(buf, i + 1);
        let (end, text) = match buf.get(start) {
            Some(b'"') => {
                let (span, end) = navigate::string_inlined(buf, start);
                (end, Some(JsonStr::from_span(buf, span)))
            }
            _ if (buf.as_ptr() as usize).wrapping_add(start) == self.known.0 => (start + self.known.1, None),
            // Numbers (progress, totals, counts) are read here, without a call (wide
            // builds: the compact ones keep one copy of the walk).
            Some(b'-' | b'0'..=b'9') if !super::COMPACT => (navigate::number_end(buf, start), None),
            _ => (navigate::value_end(buf, start), None),
        };
        let (Some(name), Some(value)) = (buf.get(name.start..name.end), buf.get(start..end)) else {
            return Step::GiveUp;
        };
        if value.is_empty() {
            return Step::GiveUp;
        }
        self.pos = end;
        Step::Member(name, Value { raw: RawJson::from_validated(value), text })
    }
}

impl<'a> Value<'a> {
    /// The value's span.
    pub(crate) fn raw(self) -> RawJson<'a> {
        self.raw
    }

    /// Whether the value is `null`.
    pub(crate) fn is_null(self) -> bool {
        self.raw.as_bytes().first() == Some(&b'n')
    }

    /// The string's body, if the value is a string.
    pub(crate) fn str(self) -> Option<JsonStr<'a>> {
        self.text
    }

    /// A number as `f64`, converted as the span decoder converts it.
    pub(crate) fn f64(self) -> Option<f64> {
        match self.raw.as_bytes().first() {
            Some(b'-' | b'0'..=b'9') => super::number::to_f64(self.raw.as_bytes()),
            _ => None,
        }
    }

    /// An optional member: `Some(None)` for `null`, `Some(Some(v))` when `read` accepts
    /// the value, `None` (give up) when it does not.
    pub(crate) fn nullable<T>(self, read: impl FnOnce(Self) -> Option<T>) -> Option<Option<T>> {
        if self.is_null() { Some(None) } else { read(self).map(Some) }
    }
}

/// Records the members a direct decoder has seen, so that a duplicate makes it give up
/// (serde's derived impls refuse duplicates).
#[derive(Default)]
pub(crate) struct Seen(u32);

impl Seen {
    /// Member `bit`'s value as read, or `None` (give up) if the member was seen already.
    pub(crate) fn take<T>(&mut self, bit: u32, value: Option<T>) -> Option<T> {
        let mask = 1u32 << (bit & 31);
        if self.0 & mask != 0 {
            return None;
        }
        self.0 |= mask;
        value
    }
}

/// Calls `each` with every member of `object`, in order; `None` as soon as `each` gives up
/// or a member is one the direct decoders leave to serde.
pub(crate) fn each_member<'a>(
    object: RawJson<'a>,
    mut each: impl FnMut(&'a [u8], Value<'a>) -> Option<()>,
) -> Option<()> {
    let mut fields = Fields::of(object)?;
    loop {
        match fields.next() {
            Step::Member(name, value) => each(name, value)?,
            Step::End => return Some(()),
            Step::GiveUp => return None,
        }
    }
}

/// [`each_member`], where `known` is one of the object's values that was walked already,
/// as (its address, its length): an object or an array, taken as it stands rather than
/// walked again (a stateless request's `_meta`, which the session read; see
/// `ObjectMembers::walked`). Found by its address, so that a value that is not one of this
/// object's own (from another request, say) changes nothing.
pub(crate) fn each_member_knowing<'a>(
    object: RawJson<'a>,
    known: Option<(usize, usize)>,
    mut each: impl FnMut(&'a [u8], Value<'a>) -> Option<()>,
) -> Option<()> {
    let mut fields = Fields::of(object)?;
    if let Some(known) = known {
        fields.known = known;
    }
    loop {
        match fields.next() {
            Step::Member(name, value) => each(name, value)?,
            Step::End => return Some(()),
            Step::GiveUp => return None,
        }
    }
}

/// Where a direct decoder or a typed decoding reads an object's members from: the text
/// ([`Text`], walked member by member) or the table the envelope pass recorded
/// ([`Recorded`](super::Recorded), see [`MemberSpans`](super::MemberSpans)). A type
/// parameter, so that the decoders over the text compile to what they were before tables
/// existed.
pub(crate) trait Source<'a>: Copy {
    /// [`each_member`] of `object` (the object this source describes).
    fn each(self, object: RawJson<'a>, each: impl FnMut(&'a [u8], Value<'a>) -> Option<()>) -> Option<()>;

    /// `object` decoded as `T` (the error, if any, as [`RawJson::decode`] reports it).
    fn decode<T: serde::Deserialize<'a>>(self, object: RawJson<'a>) -> Result<T, super::DecodeError>;
}

/// The members read from the text.
#[derive(Clone, Copy)]
pub(crate) struct Text;

impl<'a> Source<'a> for Text {
    #[inline(always)]
    fn each(self, object: RawJson<'a>, each: impl FnMut(&'a [u8], Value<'a>) -> Option<()>) -> Option<()> {
        each_member(object, each)
    }

    #[inline(always)]
    fn decode<T: serde::Deserialize<'a>>(self, object: RawJson<'a>) -> Result<T, super::DecodeError> {
        object.decode()
    }
}

impl<'a> Source<'a> for super::Recorded<'a, '_> {
    /// The members from the table: the same names and values [`each_member`] finds (an
    /// escaped name gives up, as there).
    fn each(self, _object: RawJson<'a>, mut each: impl FnMut(&'a [u8], Value<'a>) -> Option<()>) -> Option<()> {
        let object = self.object;
        for entry in self.entries {
            let name = entry.plain_name(object)?;
            let (start, end) = entry.value();
            let raw = RawJson::from_validated(object.get(start..end)?);
            each(name, Value { raw, text: entry.string().map(|span| JsonStr::from_span(object, span)) })?;
        }
        Some(())
    }

    /// Decoded from the table; on an error, decoded again from the text, whose error is
    /// the one reported.
    fn decode<T: serde::Deserialize<'a>>(self, object: RawJson<'a>) -> Result<T, super::DecodeError> {
        super::de::decode_recorded(self).or_else(|_| object.decode())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every form of number, followed by every kind of delimiter, is one value span, as
    /// the generic walk (`navigate::value_end`) finds it (numbers are read inline).
    #[test]
    fn number_values_end_where_the_walk_ends_them() {
        let numbers = ["0", "-0", "7", "-12", "3.25", "-0.5e10", "1E+2", "2e-3", "12345678901234567890123"];
        let after = [",\"z\":1}", " ,\"z\":1}", "}", " }", "\n}", "\t,\r\"z\":[]}"];
        for n in numbers {
            for a in after {
                let text = std::format!("{{\"a\":{n}{a}");
                let raw = RawJson::parse(text.as_bytes()).unwrap();
                let mut fields = Fields::of(raw).unwrap();
                let Step::Member(name, value) = fields.next() else { panic!("{text}") };
                assert_eq!((name, value.raw().as_bytes()), (&b"a"[..], n.as_bytes()), "{text}");
                let start = text.find(':').unwrap() + 1;
                assert_eq!(start + n.len(), navigate::value_end(text.as_bytes(), start), "{text}");
                let rest = if a.contains('z') { Step::Member(b"z", value) } else { Step::End };
                match (fields.next(), rest) {
                    (Step::Member(name, _), Step::Member(want, _)) => assert_eq!(name, want, "{text}"),
                    (Step::End, Step::End) => {}
                    _ => panic!("{text}"),
                }
            }
        }
    }
}
