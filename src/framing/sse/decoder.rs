//! Incremental, allocation-free event-stream parsing into a caller-provided buffer.
//!
//! The buffer holds, front to back, what the stream has said so far and still matters,
//! then the bytes not yet looked at:
//!
//! ```text
//! [ last event id | id of this event | event type | data | (gap) | unread bytes | free ]
//!   0               id_len             ids_end                     head..tail
//! ```
//!
//! A line is interpreted as soon as its terminator has arrived, so what waits in the
//! buffer is one partial line and the fields of one event: comments and `retry` lines
//! take no room however many arrive, and an event's size is what it dispatches, not the
//! size of its text. Field values are moved down from the line into their region; a value
//! is never longer than the line it came in, so interpreting a line never needs room the
//! line did not already take.

use core::fmt;

use super::error::SseError;
use super::field::{Line, parse_line, parse_retry};

const BOM: &[u8; 3] = b"\xEF\xBB\xBF";

/// One dispatched event, borrowed from the decoder's buffer.
#[derive(Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SseEvent<'a> {
    event_type: &'a [u8],
    data: &'a [u8],
    last_event_id: &'a [u8],
}

impl<'a> SseEvent<'a> {
    /// The event type: the last `event` field's value, or `message` when there was none
    /// (or it was empty).
    pub fn event_type(&self) -> &'a [u8] {
        self.event_type
    }

    /// The data: the `data` fields' values joined with `\n`. May be empty (an event
    /// made only of `data:` with nothing after it, such as MCP's priming event).
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// The stream's last event id at this event: this event's `id` field, or the one
    /// before it (ids persist from event to event); empty when none was set.
    pub fn last_event_id(&self) -> &'a [u8] {
        self.last_event_id
    }

    /// The JSON-RPC message this event carries, by MCP's rule: events of type `message`
    /// (which includes events with no `event` field) whose data is not empty. `None` for
    /// every other event, among them the empty-data priming event of 2025-11-25 servers
    /// (whose id still counts) and the `endpoint` event of the 2024-11-05 transport.
    pub fn message(&self) -> Option<&'a [u8]> {
        (self.event_type == b"message" && !self.data.is_empty()).then_some(self.data)
    }
}

impl fmt::Debug for SseEvent<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("SseEvent");
        for (name, bytes) in
            [("event_type", self.event_type), ("data", self.data), ("last_event_id", self.last_event_id)]
        {
            match core::str::from_utf8(bytes) {
                Ok(text) => d.field(name, &text),
                Err(_) => d.field(name, &bytes),
            };
        }
        d.finish()
    }
}

/// The fields the decoder acts on; every other name is ignored.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Field {
    Data,
    Event,
    Id,
    Retry,
    Other,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Discard {
    /// An overlong comment: nothing of the event is lost.
    Comment,
    /// An overlong field line of an event already being skipped.
    Field,
}

/// Parses a `text/event-stream` body exactly as the WHATWG HTML standard's "interpreting
/// an event stream" says; see the [module docs](super) and below.
///
/// ```
/// use mcp_sansio::framing::sse::{SseDecoder, SseError};
/// let mut buf = [0u8; 64];
/// let mut sse = SseDecoder::new(&mut buf);
/// let mut seen = Vec::new();
/// let stream: &[&[u8]] = &[b"\xEF\xBB", b"\xBFid: 1\r", b"\ndata: \r\n\r\n: ping\n", b"event: message\ndata: {}\n\ndata: cut"];
/// for chunk in stream {
///     let mut chunk = *chunk;
///     while !chunk.is_empty() {
///         let n = sse.feed(chunk);
///         chunk = &chunk[n..];
///         while let Some(event) = sse.next_event() {
///             seen.push(event.map(|e| (e.data().to_vec(), e.message().is_some(), e.last_event_id().to_vec())));
///         }
///     }
/// }
/// sse.close();
/// while let Some(event) = sse.next_event() {
///     seen.push(event.map(|e| (e.data().to_vec(), e.message().is_some(), e.last_event_id().to_vec())));
/// }
/// assert_eq!(seen, [
///     Ok((b"".to_vec(), false, b"1".to_vec())), // the priming event: an id, no message
///     Ok((b"{}".to_vec(), true, b"1".to_vec())),
///     Err(SseError::Incomplete),
/// ]);
/// assert_eq!(sse.last_event_id(), b"1");
/// ```
pub struct SseDecoder<'b> {
    buf: &'b mut [u8],
    /// The last event id string: `buf[..id_len]`.
    id_len: usize,
    /// An `id` field seen since the last blank line: `buf[id_len..id_len + len]`.
    pending_id: Option<usize>,
    /// The event type buffer, after the ids.
    type_len: usize,
    /// The data buffer, after the event type: every value followed by `\n`.
    data_len: usize,
    /// Start of the bytes not yet interpreted; never before the regions' end.
    head: usize,
    /// End of the bytes received.
    tail: usize,
    /// `buf[head..scanned]` holds no CR or LF.
    scanned: usize,
    /// The last line ended with a CR: a LF right after it belongs to that line end.
    after_cr: bool,
    bom_decided: bool,
    /// The event in progress did not fit: its data and type are dropped until its blank line.
    skipping: bool,
    /// Inside a line that does not fit: its bytes are dropped until its line end.
    discarding: Option<Discard>,
    /// An event was handed out; its type and data go (and its id becomes the last event
    /// id) at the next call.
    dispatched: bool,
    retry: Option<u32>,
    eof: bool,
    eof_done: bool,
}

impl fmt::Debug for SseDecoder<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SseDecoder")
            .field("capacity", &self.buf.len())
            .field("held", &self.regions_end())
            .field("unread", &(self.tail - self.head))
            .field("skipping", &self.skipping)
            .field("retry", &self.retry)
            .field("eof", &self.eof)
            .finish()
    }
}

/// What interpreting one line led to.
enum Step {
    Continue,
    Dispatch,
    TooLarge,
}

impl<'b> SseDecoder<'b> {
    /// A decoder over `buf`. An event must fit in it: its last event id, its own id, its
    /// type and its data (each data line's value plus one byte), with room left for the
    /// longest line of it, line end included. An empty `buf` holds nothing: every byte
    /// fed to it is discarded.
    pub fn new(buf: &'b mut [u8]) -> Self {
        Self {
            buf,
            id_len: 0,
            pending_id: None,
            type_len: 0,
            data_len: 0,
            head: 0,
            tail: 0,
            scanned: 0,
            after_cr: false,
            bom_decided: false,
            skipping: false,
            discarding: None,
            dispatched: false,
            retry: None,
            eof: false,
            eof_done: false,
        }
    }

    /// The buffer's size.
    pub fn capacity(&self) -> usize {
        self.buf.len()
    }

    /// Whether [`close`](Self::close) has been called.
    pub fn is_closed(&self) -> bool {
        self.eof
    }

    /// The last event id string, what a client sends as `Last-Event-ID` when it
    /// reconnects (nothing when empty). It changes when an event is dispatched and at a
    /// blank line after an `id` field even when no event is (`id: 7` then a blank line);
    /// an `id` in an event cut off by the end of the stream does not count.
    pub fn last_event_id(&self) -> &[u8] {
        match self.pending_id {
            Some(len) if self.dispatched => &self.buf[self.id_len..self.id_len + len],
            _ => &self.buf[..self.id_len],
        }
    }

    /// The reconnection time in milliseconds set by the last valid `retry` field, if any.
    pub fn retry(&self) -> Option<u32> {
        self.retry
    }

    /// Prepares for the next connection of the same event source: the stream starts
    /// afresh (a BOM may lead it again, nothing partial is carried over, input is
    /// accepted again after [`close`](Self::close)), while the last event id and the
    /// reconnection time are kept, as an `EventSource` keeps them across reconnections.
    pub fn restart(&mut self) {
        self.release();
        self.type_len = 0;
        self.data_len = 0;
        self.pending_id = None;
        self.head = self.id_len;
        self.tail = self.id_len;
        self.scanned = self.id_len;
        self.after_cr = false;
        self.bom_decided = false;
        self.skipping = false;
        self.discarding = None;
        self.eof = false;
        self.eof_done = false;
    }

    /// The event [`next_event`](Self::next_event) handed out last, again, while it is
    /// still held (until the next call that takes `&mut self`). A caller that decides
    /// what to do with an event first and hands it on afterwards (the HTTP client core,
    /// which skips priming events in a loop) reads it back with this.
    pub fn current(&self) -> Option<SseEvent<'_>> {
        self.dispatched.then(|| self.event())
    }

    /// Gives the buffer back (its contents unspecified), so that one caller-provided
    /// buffer can serve a stream and then something else: the HTTP client keeps a
    /// request body, a JSON response or an event stream in the same slot.
    pub fn into_buffer(self) -> &'b mut [u8] {
        self.buf
    }

    /// Free space to read into directly (then call [`commit`](Self::commit)): the
    /// zero-copy alternative to [`feed`](Self::feed).
    ///
    /// Empty only when complete lines are waiting (drain [`next_event`](Self::next_event)
    /// first), after [`close`](Self::close), or for an empty buffer. When the line being
    /// received cannot fit, the decoder starts skipping it (or its event) here, so room is
    /// always made.
    pub fn spare(&mut self) -> &mut [u8] {
        self.release();
        if self.eof || self.buf.is_empty() {
            return &mut [];
        }
        loop {
            let base = self.regions_end();
            if self.head > base && (self.tail == self.buf.len() || self.head == self.tail) {
                self.compact();
            }
            if self.tail < self.buf.len() {
                break;
            }
            // Full. Lines waiting to be interpreted make room once drained.
            if self.find_terminator().is_some() {
                break;
            }
            if self.discarding.is_some() {
                self.drop_unread();
                continue;
            }
            if !self.bom_decided {
                // Only a buffer smaller than the BOM can fill with a prefix of it.
                self.decide_bom();
                self.bom_decided = true;
                continue;
            }
            // The line being received does not fit. (The regions always end before the
            // buffer does, since every line interpreted left room for its line end, so a
            // full buffer holds at least one unread byte.)
            if self.buf[self.head] == b':' {
                self.discarding = Some(Discard::Comment);
                self.drop_unread();
            } else if !self.skipping {
                // Its event is lost: free the event's room and see whether the line fits now.
                self.skipping = true;
                self.type_len = 0;
                self.data_len = 0;
            } else {
                self.discarding = Some(Discard::Field);
                self.drop_unread();
            }
        }
        &mut self.buf[self.tail..]
    }

    /// Marks `n` bytes of [`spare`](Self::spare) as received.
    pub fn commit(&mut self, n: usize) {
        self.tail = (self.tail + n).min(self.buf.len());
    }

    /// Copies as much of `data` as fits; returns how many bytes were taken. Returns 0
    /// only if `data` is empty, complete lines are waiting in
    /// [`next_event`](Self::next_event), or after [`close`](Self::close).
    pub fn feed(&mut self, data: &[u8]) -> usize {
        if self.eof {
            return 0;
        }
        if self.buf.is_empty() {
            // Nothing can ever be held: taking nothing would make a caller's loop spin.
            return data.len();
        }
        let spare = self.spare();
        let n = spare.len().min(data.len());
        spare[..n].copy_from_slice(&data[..n]);
        self.commit(n);
        n
    }

    /// Marks the end of the stream. An event still incomplete is then discarded and
    /// reported by [`next_event`](Self::next_event).
    pub fn close(&mut self) {
        self.release();
        self.eof = true;
    }

    /// The next dispatched event, or an error for an event that could not be delivered.
    /// `None` means more input is needed (or, after [`close`](Self::close), the end).
    pub fn next_event(&mut self) -> Option<Result<SseEvent<'_>, SseError>> {
        self.release();
        loop {
            if let Some(kind) = self.discarding {
                match self.find_terminator() {
                    Some(t) => {
                        self.after_cr = self.buf[t] == b'\r';
                        self.head = t + 1;
                        self.scanned = self.head;
                        self.discarding = None;
                        continue;
                    }
                    None => {
                        self.drop_unread();
                        if self.eof {
                            return self.finish(kind == Discard::Comment);
                        }
                        return None;
                    }
                }
            }
            if self.after_cr && self.head < self.tail {
                if self.buf[self.head] == b'\n' {
                    self.head += 1;
                    self.scanned = self.scanned.max(self.head);
                }
                self.after_cr = false;
            }
            if !self.bom_decided {
                if !self.decide_bom() {
                    return None;
                }
                self.bom_decided = true;
            }
            let Some(t) = self.find_terminator() else {
                if self.eof {
                    let comment = self.head < self.tail && self.buf[self.head] == b':';
                    return self.finish(comment);
                }
                return None;
            };
            let line = self.head..t;
            self.after_cr = self.buf[t] == b'\r';
            self.head = t + 1;
            self.scanned = self.head;
            match self.interpret(line.start, line.end) {
                Step::Continue => {}
                Step::Dispatch => return Some(Ok(self.event())),
                Step::TooLarge => return Some(Err(SseError::TooLarge { capacity: self.buf.len() })),
            }
        }
    }

    /// The end of the stream, once: what is left is discarded and reported.
    /// `comment`: the unread bytes (or the line being discarded) are a comment.
    fn finish(&mut self, comment: bool) -> Option<Result<SseEvent<'_>, SseError>> {
        if self.eof_done {
            return None;
        }
        self.eof_done = true;
        let partial = self.tail - self.head;
        let line_lost = partial > 0 && !comment;
        // A partial line that fills the buffer could never have fit with its line end:
        // the report `spare` would have made with one more read.
        let too_large = self.skipping || (line_lost && self.regions_end() + partial >= self.buf.len());
        let pending = self.data_len > 0 || self.type_len > 0 || self.pending_id.is_some();
        self.skipping = false;
        self.discarding = None;
        self.type_len = 0;
        self.data_len = 0;
        // An id in an event that never ended is not the last event id.
        self.pending_id = None;
        self.head = self.tail;
        if too_large {
            Some(Err(SseError::TooLarge { capacity: self.buf.len() }))
        } else if pending || line_lost {
            Some(Err(SseError::Incomplete))
        } else {
            None
        }
    }

    /// Interprets the line `buf[start..end]` (its terminator already consumed).
    fn interpret(&mut self, start: usize, end: usize) -> Step {
        let (field, value_len) = match parse_line(&self.buf[start..end]) {
            Line::Blank => return self.blank_line(),
            Line::Comment => return Step::Continue,
            Line::Field { name, value } => {
                let field = match name {
                    b"data" => Field::Data,
                    b"event" => Field::Event,
                    b"id" => Field::Id,
                    b"retry" => Field::Retry,
                    _ => Field::Other,
                };
                (field, value.len())
            }
        };
        let value = end - value_len..end;
        match field {
            Field::Data if !self.skipping => {
                let at = self.regions_end();
                self.buf.copy_within(value, at);
                self.buf[at + value_len] = b'\n';
                self.data_len += value_len + 1;
            }
            Field::Event if !self.skipping => {
                let at = self.ids_end();
                self.replace(at, self.type_len, self.data_len, value);
                self.type_len = value_len;
            }
            Field::Id if !self.buf[value.clone()].contains(&0) => {
                let old = self.pending_id.unwrap_or(0);
                self.replace(self.id_len, old, self.type_len + self.data_len, value);
                self.pending_id = Some(value_len);
            }
            Field::Retry => {
                if let Some(ms) = parse_retry(&self.buf[value]) {
                    self.retry = Some(ms);
                }
            }
            _ => {}
        }
        Step::Continue
    }

    fn blank_line(&mut self) -> Step {
        if self.skipping {
            self.skipping = false;
            self.end_event();
            Step::TooLarge
        } else if self.data_len == 0 {
            // Nothing to dispatch, but an id field still becomes the last event id.
            self.end_event();
            Step::Continue
        } else {
            self.dispatched = true;
            Step::Dispatch
        }
    }

    /// The event just dispatched, borrowed from the regions.
    fn event(&self) -> SseEvent<'_> {
        let type_at = self.ids_end();
        let data_at = type_at + self.type_len;
        let event_type = if self.type_len == 0 { &b"message"[..] } else { &self.buf[type_at..data_at] };
        // The data buffer ends with the `\n` of its last value: strip it.
        let data = &self.buf[data_at..data_at + self.data_len.saturating_sub(1)];
        SseEvent { event_type, data, last_event_id: self.last_event_id() }
    }

    /// Forgets the dispatched event handed out last, now that its borrow has ended.
    fn release(&mut self) {
        if self.dispatched {
            self.dispatched = false;
            self.end_event();
        }
    }

    /// Clears the event type and data buffers and makes a pending id the last event id.
    fn end_event(&mut self) {
        self.type_len = 0;
        self.data_len = 0;
        if let Some(len) = self.pending_id.take() {
            self.buf.copy_within(self.id_len..self.id_len + len, 0);
            self.id_len = len;
        }
    }

    /// Puts `buf[value]` (which lies past every region) in place of the `old` bytes at
    /// `at`, followed by `after` bytes of later regions that move with it.
    fn replace(&mut self, at: usize, old: usize, after: usize, value: core::ops::Range<usize>) {
        let end = at + old + after;
        let len = value.len();
        self.buf.copy_within(value, end);
        // [old | after | value] -> [value | after]
        let region = &mut self.buf[at..end + len];
        region[old..].rotate_right(len);
        region.copy_within(old.., 0);
    }

    fn ids_end(&self) -> usize {
        self.id_len + self.pending_id.unwrap_or(0)
    }

    fn regions_end(&self) -> usize {
        self.ids_end() + self.type_len + self.data_len
    }

    /// Moves the unread bytes down to the end of the regions.
    fn compact(&mut self) {
        let base = self.regions_end();
        let shift = self.head - base;
        self.buf.copy_within(self.head..self.tail, base);
        self.tail -= shift;
        self.scanned = self.scanned.max(self.head) - shift;
        self.head = base;
    }

    /// Drops the unread bytes (a line being discarded); they hold no line end.
    fn drop_unread(&mut self) {
        let base = self.regions_end();
        self.head = base;
        self.tail = base;
        self.scanned = base;
        self.after_cr = false;
    }

    /// Decides whether the stream starts with a BOM, and drops it, once enough bytes
    /// are here. `false` while undecidable (a strict prefix of it, and more may come).
    fn decide_bom(&mut self) -> bool {
        let have = &self.buf[self.head..self.tail];
        let n = have.len().min(BOM.len());
        if have[..n] != BOM[..n] {
            return true;
        }
        if n == BOM.len() {
            self.head += BOM.len();
            self.scanned = self.scanned.max(self.head);
            return true;
        }
        self.eof
    }

    /// The first CR or LF among the unread bytes.
    fn find_terminator(&mut self) -> Option<usize> {
        let from = self.scanned.max(self.head);
        match self.buf[from..self.tail].iter().position(|&b| b == b'\n' || b == b'\r') {
            Some(i) => Some(from + i),
            None => {
                self.scanned = self.tail;
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    /// (type, data, last event id) of a dispatched event, or the error.
    type Item = Result<(Vec<u8>, Vec<u8>, Vec<u8>), SseError>;

    fn drain(d: &mut SseDecoder<'_>, out: &mut Vec<Item>) {
        while let Some(item) = d.next_event() {
            out.push(item.map(|e| (e.event_type().to_vec(), e.data().to_vec(), e.last_event_id().to_vec())));
        }
    }

    fn feed_all(d: &mut SseDecoder<'_>, chunks: &[&[u8]], out: &mut Vec<Item>) {
        for chunk in chunks {
            let mut chunk = *chunk;
            while !chunk.is_empty() {
                let n = d.feed(chunk);
                chunk = &chunk[n..];
                drain(d, out);
            }
        }
    }

    /// Items, then the last event id and reconnection time at the end.
    fn run(cap: usize, chunks: &[&[u8]], close: bool) -> (Vec<Item>, Vec<u8>, Option<u32>) {
        let mut buf = std::vec![0u8; cap];
        let mut d = SseDecoder::new(&mut buf);
        let mut out = Vec::new();
        feed_all(&mut d, chunks, &mut out);
        if close {
            d.close();
            drain(&mut d, &mut out);
            assert!(d.next_event().is_none());
        }
        (out, d.last_event_id().to_vec(), d.retry())
    }

    fn msg(data: &str, id: &str) -> Item {
        ev("message", data, id)
    }

    fn ev(ty: &str, data: &str, id: &str) -> Item {
        Ok((ty.as_bytes().to_vec(), data.as_bytes().to_vec(), id.as_bytes().to_vec()))
    }

    /// Every split of `stream` into three chunks gives what one chunk gives.
    fn splits_agree(cap: usize, stream: &[u8]) -> (Vec<Item>, Vec<u8>, Option<u32>) {
        let want = run(cap, &[stream], true);
        for i in 0..=stream.len() {
            for j in i..=stream.len() {
                let got = run(cap, &[&stream[..i], &stream[i..j], &stream[j..]], true);
                assert_eq!(got, want, "split at {i} and {j}");
            }
        }
        want
    }

    #[test]
    fn current_repeats_the_held_event_and_the_buffer_comes_back() {
        let mut buf = [0u8; 32];
        let mut d = SseDecoder::new(&mut buf);
        assert!(d.current().is_none());
        assert_eq!(d.feed(b"id: 7\ndata: x\n\ndata: y\n\n"), 24);
        let first = d.next_event().unwrap().unwrap().data().to_vec();
        assert_eq!(d.current().map(|e| (e.data().to_vec(), e.last_event_id().to_vec())), Some((first, b"7".to_vec())));
        assert_eq!(d.next_event().unwrap().unwrap().data(), b"y");
        assert_eq!(d.current().unwrap().data(), b"y");
        assert!(d.next_event().is_none());
        assert!(d.current().is_none());
        assert_eq!(d.into_buffer().len(), 32);
    }

    #[test]
    fn whatwg_example_ids() {
        let stream = b": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n";
        let (items, id, _) = splits_agree(64, stream);
        assert_eq!(items, [msg("first event", "1"), msg("second event", ""), msg(" third event", "")]);
        assert_eq!(id, b"");
        // Without the final blank line the third event is discarded.
        let (items, _, _) = run(64, &[&stream[..stream.len() - 1]], true);
        assert_eq!(items[2], Err(SseError::Incomplete));
    }

    #[test]
    fn whatwg_example_empty_data() {
        let (items, _, _) = splits_agree(64, b"data\n\ndata\ndata\n\ndata:");
        assert_eq!(items, [msg("", ""), msg("\n", ""), Err(SseError::Incomplete)]);
    }

    #[test]
    fn whatwg_example_space_and_lines() {
        let (items, _, _) = splits_agree(64, b"data:test\n\ndata: test\n\n");
        assert_eq!(items, [msg("test", ""), msg("test", "")]);
        let (items, _, _) = splits_agree(64, b"data: YHOO\ndata: +2\ndata: 10\n\n");
        assert_eq!(items, [msg("YHOO\n+2\n10", "")]);
    }

    #[test]
    fn line_ends_and_bom() {
        let stream = b"\xEF\xBB\xBFdata: a\r\rdata: b\r\n\r\ndata: c\n\n\xEF\xBB\xBFdata: d\n\ndata: e\r\n\n";
        let (items, _, _) = splits_agree(64, stream);
        // A BOM after the start is part of the field name, which is then unknown.
        assert_eq!(items, [msg("a", ""), msg("b", ""), msg("c", ""), msg("e", "")]);
        // One BOM only.
        let (items, _, _) = run(64, &[b"\xEF\xBB\xBF\xEF\xBB\xBFdata: x\n\ndata: y\n\n"], true);
        assert_eq!(items, [msg("y", "")]);
        // A BOM prefix that is not a BOM stays.
        let (items, _, _) = run(64, &[b"\xEF", b"\xBBdata: x\n\n"], true);
        assert!(items.is_empty());
        // A CR at the end of a chunk and the LF at the start of the next are one line end.
        let (items, _, _) = run(64, &[b"data: x\r", b"\n", b"\r", b"\ndata: y\r", b"\r"], true);
        assert_eq!(items, [msg("x", ""), msg("y", "")]);
    }

    #[test]
    fn fields() {
        let stream =
            b"event: endpoint\ndata: /messages?sessionId=1\n\nevent: a\nevent: b\ndata: 1\n\nevent:\ndata: 2\n\n\
            Data: no\nevent: x\n\ndata:3\nfoo: bar\nretry: 10\nretry: x\n\n";
        let (items, _, retry) = splits_agree(64, stream);
        assert_eq!(items, [ev("endpoint", "/messages?sessionId=1", ""), ev("b", "1", ""), msg("2", ""), msg("3", "")]);
        assert_eq!(retry, Some(10));
    }

    #[test]
    fn ids() {
        // An id persists, a NUL makes the field ignored, an empty one resets, and an id
        // block without data dispatches nothing but still counts.
        let stream = b"id: 1\ndata: a\n\ndata: b\n\nid: 2\0\ndata: c\n\nid: 3\n\nid\ndata: d\n\nid: 4\n\n";
        let mut buf = [0u8; 64];
        let mut d = SseDecoder::new(&mut buf);
        let mut out = Vec::new();
        let mut ids = Vec::new();
        for b in stream {
            assert_eq!(d.feed(&[*b]), 1);
            drain(&mut d, &mut out);
            ids.push(d.last_event_id().to_vec());
        }
        assert_eq!(out, [msg("a", "1"), msg("b", "1"), msg("c", "1"), msg("d", "")]);
        assert_eq!(d.last_event_id(), b"4");
        // The id changes at the blank line, not at the id field.
        let at = stream.windows(5).position(|w| w == b"id: 3").unwrap() + 5;
        assert_eq!(ids[at - 1], b"1");
        assert_eq!(ids[at], b"1");
        assert_eq!(ids[at + 1], b"3");
        // An id in an event cut off by the end of the stream does not count.
        let (items, id, _) = run(64, &[b"id: 1\n\nid: 2\ndata: x\n"], true);
        assert_eq!((items, id), (std::vec![Err(SseError::Incomplete)], b"1".to_vec()));
    }

    #[test]
    fn mcp_priming_event() {
        let mut buf = [0u8; 64];
        let mut d = SseDecoder::new(&mut buf);
        let stream = b"id: s1-0\nretry: 3000\ndata: \n\nid: s1-1\ndata: {}\n\n";
        assert_eq!(d.feed(stream), stream.len());
        let e = d.next_event().unwrap().unwrap();
        assert_eq!((e.data(), e.last_event_id(), e.message()), (&b""[..], &b"s1-0"[..], None));
        assert_eq!(d.last_event_id(), b"s1-0");
        let e = d.next_event().unwrap().unwrap();
        assert_eq!((e.message(), e.last_event_id()), (Some(&b"{}"[..]), &b"s1-1"[..]));
        assert!(d.next_event().is_none());
        assert_eq!((d.last_event_id(), d.retry()), (&b"s1-1"[..], Some(3000)));
    }

    #[test]
    fn events_that_do_not_fit_are_skipped_and_reported() {
        // 16 bytes: "data: 0123456789" (16) + LF does not fit.
        let stream = b"data: ok\n\ndata: 0123456789\n\ndata: ok2\n\n";
        let (items, _, _) = splits_agree(16, stream);
        let too_large = Err(SseError::TooLarge { capacity: 16 });
        assert_eq!(items, [msg("ok", ""), too_large.clone(), msg("ok2", "")]);
        // Lines fit one by one but the data does not: skipped at the line that overflows.
        let (items, _, _) = splits_agree(16, b"data: 1234\ndata: 5678\ndata: 9abc\n\ndata: x\n\n");
        assert_eq!(items, [too_large.clone(), msg("x", "")]);
        // The skipped event's id still counts, wherever it is in the event.
        let (items, id, _) = splits_agree(16, b"id: 7\ndata: 0123456789ab\n\n");
        assert_eq!((items, id), (std::vec![too_large.clone()], b"7".to_vec()));
        let (items, id, _) = splits_agree(16, b"data: 012345\ndata: 6789ab\nid: 8\n\n");
        assert_eq!((items, id), (std::vec![too_large.clone()], b"8".to_vec()));
        // A long comment costs nothing, even inside an event.
        let (items, _, _) = splits_agree(16, b"data: a\n: a comment longer than the buffer\ndata: b\n\n");
        assert_eq!(items, [msg("a\nb", "")]);
        // Too large at the end of the stream.
        let (items, _, _) = run(16, &[b"data: ok\n\ndata: 0123456789abcdef"], true);
        assert_eq!(items, [msg("ok", ""), too_large.clone()]);
        let (items, _, _) = run(16, &[b"data: 0123456789"], true);
        assert_eq!(items, [too_large]);
        let (items, _, _) = run(16, &[b"data: 012345678"], true);
        assert_eq!(items, [Err(SseError::Incomplete)]);
    }

    #[test]
    fn nothing_left_means_nothing_reported_at_the_end() {
        for stream in
            [&b""[..], b"\xEF\xBB\xBF", b"data: x\n\n", b"data: x\n\n: comment", b"retry: 5\n", b"foo\n", b"\n\n"]
        {
            let (items, _, _) = run(64, &[stream], true);
            assert!(items.iter().all(Result::is_ok), "{stream:?}: {items:?}");
        }
        for stream in [&b"d"[..], b"\xEF\xBB", b"event: x\n", b"id: 1\n", b"data\n"] {
            let (items, _, _) = run(64, &[stream], true);
            assert_eq!(items.last(), Some(&Err(SseError::Incomplete)), "{stream:?}");
        }
    }

    #[test]
    fn a_stream_of_keep_alives_never_fills_the_buffer() {
        let mut buf = [0u8; 16];
        let mut d = SseDecoder::new(&mut buf);
        for _ in 0..10_000 {
            let mut chunk = &b": keep-alive\r\nretry: 1000\r\n"[..];
            while !chunk.is_empty() {
                let n = d.feed(chunk);
                chunk = &chunk[n..];
                assert!(d.next_event().is_none());
            }
        }
        let mut out = Vec::new();
        feed_all(&mut d, &[b"data: x\n\n"], &mut out);
        assert_eq!(out, [msg("x", "")]);
    }

    #[test]
    fn restart_keeps_the_id_and_retry() {
        let mut buf = [0u8; 32];
        let mut d = SseDecoder::new(&mut buf);
        let mut out = Vec::new();
        feed_all(&mut d, &[b"id: 5\nretry: 9\ndata: a\n\nid: 6\ndata: cut"], &mut out);
        d.close();
        drain(&mut d, &mut out);
        assert_eq!(out, [msg("a", "5"), Err(SseError::Incomplete)]);
        d.restart();
        assert!(!d.is_closed());
        out.clear();
        feed_all(&mut d, &[b"\xEF\xBB\xBFdata: b\n\n"], &mut out);
        assert_eq!(out, [msg("b", "5")]);
        assert_eq!(d.retry(), Some(9));
    }

    #[test]
    fn zero_copy_and_tiny_buffers() {
        let mut buf = [0u8; 16];
        let mut d = SseDecoder::new(&mut buf);
        let spare = d.spare();
        spare[..9].copy_from_slice(b"data: x\n\n");
        d.commit(9);
        assert_eq!(d.next_event().map(|e| e.map(|e| e.data().to_vec())), Some(Ok(b"x".to_vec())));
        assert!(d.next_event().is_none());
        assert_eq!(d.spare().len(), 16);
        // An empty buffer takes everything and holds nothing.
        let mut d = SseDecoder::new(&mut []);
        assert_eq!(d.feed(b"data: x\n\n"), 9);
        assert!(d.next_event().is_none());
        // A buffer of one byte still sees blank lines.
        assert_eq!(run(1, &[b"data: x\n\n\n"], true).0, [Err(SseError::TooLarge { capacity: 1 })]);
    }
}
