//! [`MemberSpans`]: where the members of a message's `params` or `result` are, recorded
//! while the envelope pass validates them, so that typed decoding does not walk them again.
//!
//! [`Message::parse`](super::Message::parse) validates every byte of a frame, `params` and
//! `result` included, and then forgets where their members were: a typed decoder
//! (`mcp::decode_request` and its siblings) finds each member again, walking past every
//! value it does not keep (a tool's 64 KiB `content`, an `inputSchema`, `arguments`) and
//! re-reading every string to its end. [`Message::parse_with_spans`](super::Message::parse_with_spans)
//! records, in a table the caller provides, the name and value span of each top-level
//! member of the object it validates, and `mcp::decode_request_with_spans` (and
//! `decode_notification_with_spans`, `decode_result_with_spans`) read the members from it:
//! a value that is kept raw is taken as it stands, a string's end and escapes are known.
//!
//! The table has a fixed capacity (`N` members, no allocation); an object with more
//! members than that is still validated, but marked incomplete, and the decoders then read
//! the text as they always did. The answer, value or error, is the same either way.

use super::raw::RawJson;
use super::scan::StrSpan;
use super::string::JsonStr;

/// One recorded member: offsets into the object, as `u32` to keep the table small.
#[derive(Clone, Copy, Default, Debug)]
pub(crate) struct Entry {
    /// The name's body (between its quotes).
    name: (u32, u32),
    /// The value, without surrounding whitespace.
    value: (u32, u32),
    flags: u8,
}

const NAME_ESCAPED: u8 = 1;
const STRING: u8 = 2;
const STRING_ESCAPED: u8 = 4;

impl Entry {
    /// The name's bytes, or `None` when the name has escapes (left to the general path).
    #[inline]
    pub(crate) fn plain_name<'a>(&self, object: &'a [u8]) -> Option<&'a [u8]> {
        if self.flags & NAME_ESCAPED != 0 {
            return None;
        }
        object.get(self.name.0 as usize..self.name.1 as usize)
    }

    /// The name as sent.
    fn name<'a>(&self, object: &'a [u8]) -> JsonStr<'a> {
        let span =
            StrSpan { start: self.name.0 as usize, end: self.name.1 as usize, escaped: self.flags & NAME_ESCAPED != 0 };
        JsonStr::from_span(object, span)
    }

    /// Where the name's opening quote is.
    #[inline]
    pub(crate) fn name_quote(&self) -> usize {
        (self.name.0 as usize).saturating_sub(1)
    }

    /// The value's span, as (start, end).
    #[inline]
    pub(crate) fn value(&self) -> (usize, usize) {
        (self.value.0 as usize, self.value.1 as usize)
    }

    /// For a string value, its body (between the quotes) and whether it has escapes.
    #[inline]
    pub(crate) fn string(&self) -> Option<StrSpan> {
        (self.flags & STRING != 0).then(|| StrSpan {
            start: self.value.0 as usize + 1,
            end: (self.value.1 as usize).saturating_sub(1),
            escaped: self.flags & STRING_ESCAPED != 0,
        })
    }
}

/// The top-level members of a message's `params` or `result`, as the envelope pass found
/// them: up to `N` of them, in order, each as the spans of its name and its value.
///
/// Filled by [`Message::parse_with_spans`](super::Message::parse_with_spans) and read by
/// `mcp::decode_request_with_spans`, `mcp::decode_notification_with_spans` and
/// `mcp::decode_result_with_spans`, which then decode the typed params or result without
/// walking the object again. A table lives on the stack next to the frame it describes
/// (it borrows it), and each parse starts it afresh; 16 members hold every member that
/// any MCP params or result type defines (`MemberSpans<'_, 16>` takes 352 bytes on a
/// 64-bit target: 20 per member, 32 for the rest).
///
/// An object with more than `N` members is validated all the same and the parse answers
/// as [`Message::parse`](super::Message::parse) does, but the table is marked incomplete
/// ([`is_complete`](Self::is_complete) is `false`, the first `N` members are kept) and the
/// `_with_spans` decoders read the text as the plain decoders do: the same answer, without
/// the saving. A table is used only for the very object it was recorded for (the same span
/// of the same frame); passed with any other params or result, it is ignored likewise.
///
/// ```
/// use mcp_sansio::wire::{MemberSpans, Message};
///
/// let frame = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":2}}}"#;
/// let mut spans = MemberSpans::<8>::new();
/// let Message::Request(req) = Message::parse_with_spans(frame, &mut spans).unwrap() else { panic!() };
/// assert!(spans.is_complete());
/// assert_eq!(spans.object(), req.params);
/// let names: Vec<_> = spans.members().map(|(name, value)| (name.raw(), value.as_bytes())).collect();
/// assert_eq!(names, [(&b"name"[..], &br#""add""#[..]), (b"arguments", br#"{"a":2}"#)]);
///
/// // Two members, a table for one: recorded in part, not used for decoding.
/// let mut small = MemberSpans::<1>::new();
/// assert_eq!(Message::parse_with_spans(frame, &mut small), Message::parse(frame));
/// assert!(!small.is_complete());
/// assert_eq!(small.len(), 1);
/// ```
#[derive(Clone, Copy)]
pub struct MemberSpans<'a, const N: usize> {
    head: Head<'a>,
    entries: [Entry; N],
}

/// What a table knows besides its entries.
#[derive(Clone, Copy)]
pub(crate) struct Head<'a> {
    /// The object whose members are recorded, once its end was seen.
    object: Option<&'a [u8]>,
    len: usize,
    /// More members than the table holds, or offsets beyond `u32`: the table is not usable.
    overflowed: bool,
}

/// A table seen without its capacity, so that the code that fills and reads it is not
/// generic over `N`: compiled once, in this crate, whatever tables its users declare (a
/// function instantiated in the user's crate would make everything it calls, down to the
/// scanner, an exported symbol called through the GOT, slowing the plain parse too).
pub(crate) struct Table<'r, 'a> {
    head: &'r mut Head<'a>,
    entries: &'r mut [Entry],
}

impl<const N: usize> Default for MemberSpans<'_, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> core::fmt::Debug for MemberSpans<'_, N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("MemberSpans")
            .field("object", &self.object())
            .field("len", &self.head.len)
            .field("complete", &self.is_complete())
            .finish()
    }
}

impl<'a, const N: usize> MemberSpans<'a, N> {
    /// An empty table.
    pub const fn new() -> Self {
        Self {
            head: Head { object: None, len: 0, overflowed: false },
            entries: [Entry { name: (0, 0), value: (0, 0), flags: 0 }; N],
        }
    }

    /// The table without its capacity (see [`Table`]).
    pub(crate) fn table(&mut self) -> Table<'_, 'a> {
        Table { head: &mut self.head, entries: &mut self.entries }
    }

    /// The object whose members were recorded (a request's or notification's `params`, a
    /// response's `result`), or `None` when the last parse recorded none (no such member,
    /// a frame that is not a message, a `params` that is not an object).
    pub fn object(&self) -> Option<RawJson<'a>> {
        self.head.object.map(RawJson::from_validated)
    }

    /// Whether every member of [`object`](Self::object) is in the table (there is an
    /// object, and it has at most `N` members).
    pub fn is_complete(&self) -> bool {
        self.head.object.is_some() && !self.head.overflowed
    }

    /// How many members are recorded.
    pub fn len(&self) -> usize {
        self.recorded().len()
    }

    /// Whether no member is recorded.
    pub fn is_empty(&self) -> bool {
        self.recorded().is_empty()
    }

    /// The recorded members, in order: each name as sent and its value.
    pub fn members(&self) -> impl Iterator<Item = (JsonStr<'a>, RawJson<'a>)> + '_ {
        let object = self.head.object.unwrap_or_default();
        self.recorded().iter().map(move |e| {
            let (start, end) = e.value();
            (e.name(object), RawJson::from_validated(object.get(start..end).unwrap_or_default()))
        })
    }

    fn recorded(&self) -> &[Entry] {
        if self.head.object.is_none() { &[] } else { self.entries.get(..self.head.len).unwrap_or_default() }
    }

    /// The members of `object`, if this table holds them all (it was recorded for
    /// `object` itself and did not overflow): what [`members`](Self::members) gives,
    /// for a caller that must not read another object's.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn members_of(
        &self,
        object: RawJson<'a>,
    ) -> Option<impl Iterator<Item = (JsonStr<'a>, RawJson<'a>)> + '_> {
        self.recorded_for(object).map(|_| self.members())
    }

    /// The whole table, when it is complete and was recorded for `object` itself (the
    /// same span of the same frame), else `None`: a table from another frame, or from the
    /// other object of a frame with both `params` and `result`, is never used.
    pub(crate) fn recorded_for(&self, object: RawJson<'a>) -> Option<Recorded<'a, '_>> {
        let mine = self.head.object?;
        let theirs = object.as_bytes();
        (!self.head.overflowed && core::ptr::eq(mine, theirs))
            .then(|| Recorded { object: mine, entries: self.recorded() })
    }
}

impl<'a> Table<'_, 'a> {
    /// Starts the table afresh.
    pub(crate) fn clear(&mut self) {
        *self.head = Head { object: None, len: 0, overflowed: false };
    }

    /// Starts recording a new object (a frame with `params` and `result` records the
    /// later one).
    pub(crate) fn begin(&mut self) {
        self.clear();
    }

    /// Records one member of the object that starts at `base` in the frame: the name's
    /// body, the value's span, and the value's body if it is a string.
    #[inline]
    pub(crate) fn member(&mut self, base: usize, name: StrSpan, value: (usize, usize), text: Option<StrSpan>) {
        let off = |at: usize| u32::try_from(at - base).ok();
        let (Some(n0), Some(n1), Some(v0), Some(v1)) = (off(name.start), off(name.end), off(value.0), off(value.1))
        else {
            self.head.overflowed = true;
            return;
        };
        let mut flags = if name.escaped { NAME_ESCAPED } else { 0 };
        if let Some(t) = text {
            flags |= STRING | if t.escaped { STRING_ESCAPED } else { 0 };
        }
        match self.entries.get_mut(self.head.len) {
            Some(slot) => {
                *slot = Entry { name: (n0, n1), value: (v0, v1), flags };
                self.head.len += 1;
            }
            None => self.head.overflowed = true,
        }
    }

    /// The object ended: `object` is its whole span.
    pub(crate) fn finish(&mut self, object: &'a [u8]) {
        self.head.object = Some(object);
    }
}

/// A complete table and the object it describes (see [`MemberSpans::recorded_for`]).
#[derive(Clone, Copy)]
pub(crate) struct Recorded<'a, 'r> {
    pub(crate) object: &'a [u8],
    pub(crate) entries: &'r [Entry],
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The size the documentation gives.
    #[cfg(target_pointer_width = "64")]
    #[test]
    fn a_table_of_16_takes_352_bytes() {
        assert_eq!(core::mem::size_of::<Entry>(), 20);
        assert_eq!(core::mem::size_of::<MemberSpans<'_, 16>>(), 352);
    }

    /// The `_with_spans` decoders read the table (and only the right one): with two values
    /// swapped in the table, the serde path and the direct path both see them swapped. The
    /// comparisons of tests/member_spans.rs cannot tell a table that is never used from
    /// one that is; this can.
    #[test]
    fn the_decoders_read_the_table_recorded_for_their_object() {
        use crate::mcp::{AnyRequest, Method, decode_request_with_spans};
        use crate::wire::Message;

        let frame = br#"{"jsonrpc":"2.0","id":1,"method":"x","params":{"name":"a","uri":"b"}}"#;
        let mut spans = MemberSpans::<4>::new();
        let Ok(Message::Request(req)) = Message::parse_with_spans(frame, &mut spans) else { panic!() };
        let params = req.params.unwrap();
        assert!(spans.recorded_for(params).is_some());
        // The same bytes elsewhere, and a table too small: not used.
        let copy = *frame;
        let Ok(Message::Request(other)) = Message::parse(&copy) else { panic!() };
        assert!(spans.recorded_for(other.params.unwrap()).is_none());
        let mut small = MemberSpans::<1>::new();
        Message::parse_with_spans(frame, &mut small).unwrap();
        assert!(small.recorded_for(params).is_none());

        spans.entries.swap(0, 1);
        let (n, u) = (spans.entries[0].name, spans.entries[1].name);
        (spans.entries[0].name, spans.entries[1].name) = (u, n);
        // `name` now has the value `"b"`, `uri` the value `"a"`.
        let call = decode_request_with_spans(Method::ToolsCall, req.params, &spans);
        let Ok(AnyRequest::CallTool(call)) = call else { panic!("{call:?}") };
        assert_eq!(call.name, "b");
        let read = decode_request_with_spans(Method::ResourcesRead, req.params, &spans);
        let Ok(AnyRequest::ReadResource(read)) = read else { panic!("{read:?}") };
        assert_eq!(read.uri, "a");
        // The plain decoders, and the tampered table for other params, read the text.
        let Ok(AnyRequest::CallTool(call)) = decode_request_with_spans(Method::ToolsCall, other.params, &spans) else {
            panic!()
        };
        assert_eq!(call.name, "a");
    }
}
