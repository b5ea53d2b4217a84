//! A session's outgoing messages, in the caller's buffer: the send queue of every
//! stream and its replay store at once.
//!
//! Each message is a record `[stream u32][seq u32][len u32][bytes]`, appended in send
//! order; `seq` counts the session's messages and names the event (`<epoch>-<stream>-
//! <seq>`), so "after event N of stream S" is "records of S with seq > N". A record
//! stays after it was sent, for a client that resumes with `Last-Event-ID`, until room
//! is needed: the oldest records go first. The owner says which records may go (see
//! [`EventLog::make_room`]), so messages a connected client has not been sent yet are
//! never dropped to make room: that is backpressure, not loss.

const HEADER: usize = 12;

/// One stored message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Record<'a> {
    pub stream: u32,
    pub seq: u32,
    pub bytes: &'a [u8],
}

/// The log over a byte buffer.
pub(crate) struct EventLog<B> {
    buf: B,
    len: usize,
    /// The seq of the last record appended (0: none yet).
    pub last_seq: u32,
    /// Changes whenever records move (some were dropped or removed): byte offsets into
    /// the log kept by a reader are valid while it is unchanged.
    pub generation: u32,
}

fn word(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

impl<B: AsRef<[u8]> + AsMut<[u8]>> EventLog<B> {
    pub fn new(buf: B) -> Self {
        Self { buf, len: 0, last_seq: 0, generation: 0 }
    }

    pub fn capacity(&self) -> usize {
        self.buf.as_ref().len()
    }

    /// Bytes a message of `n` bytes takes.
    pub fn cost(n: usize) -> usize {
        HEADER + n
    }

    pub fn free(&self) -> usize {
        self.capacity() - self.len
    }

    /// The record at byte offset `at`, and the offset of the next one.
    fn at(&self, at: usize) -> Option<(Record<'_>, usize)> {
        let b = &self.buf.as_ref()[..self.len];
        if at + HEADER > b.len() {
            return None;
        }
        let n = word(b, at + 8) as usize;
        let end = at + HEADER + n;
        let bytes = b.get(at + HEADER..end)?;
        Some((Record { stream: word(b, at), seq: word(b, at + 4), bytes }, end))
    }

    /// Records in order.
    pub fn iter(&self) -> impl Iterator<Item = Record<'_>> + '_ {
        let mut at = 0;
        core::iter::from_fn(move || {
            let (r, next) = self.at(at)?;
            at = next;
            Some(r)
        })
    }

    /// The first record of `stream` with seq above `after`.
    #[cfg(test)]
    pub fn next_of(&self, stream: u32, after: u32) -> Option<Record<'_>> {
        self.next_of_from(stream, after, 0).map(|(r, _, _)| r)
    }

    /// The first record of `stream` with seq above `after` at or past byte offset
    /// `from` (a record boundary of this generation, before which no such record is),
    /// with its offset and the next record's.
    pub fn next_of_from(&self, stream: u32, after: u32, from: usize) -> Option<(Record<'_>, usize, usize)> {
        let mut at = from;
        loop {
            let (r, next) = self.at(at)?;
            if r.stream == stream && r.seq > after {
                return Some((r, at, next));
            }
            at = next;
        }
    }

    /// Where the next record will be appended.
    pub fn end(&self) -> usize {
        self.len
    }

    /// Removes the record at `at` (which ends at `next`).
    pub fn remove(&mut self, at: usize, next: usize) {
        if at < next && next <= self.len {
            crate::wire::shift::copy_within(self.buf.as_mut(), next..self.len, at);
            self.len -= next - at;
            self.generation = self.generation.wrapping_add(1);
        }
    }

    /// Appends a message if it fits now; returns its seq. Line breaks (only ever JSON
    /// whitespace in a valid message) become spaces, so one message is one SSE data line.
    pub fn push(&mut self, stream: u32, bytes: &[u8]) -> Option<u32> {
        let cost = Self::cost(bytes.len());
        if cost > self.free() || bytes.len() > u32::MAX as usize {
            return None;
        }
        let seq = self.last_seq.wrapping_add(1);
        let at = self.len;
        let b = self.buf.as_mut();
        b[at..at + 4].copy_from_slice(&stream.to_le_bytes());
        b[at + 4..at + 8].copy_from_slice(&seq.to_le_bytes());
        b[at + 8..at + 12].copy_from_slice(&(bytes.len() as u32).to_le_bytes());
        let body = &mut b[at + HEADER..at + cost];
        body.copy_from_slice(bytes);
        // The encoder never writes a line break: look first (eight bytes at a time), and
        // blank byte by byte only when there is one.
        if crate::wire::has_line_break(bytes) {
            for c in body.iter_mut().filter(|c| **c == b'\n' || **c == b'\r') {
                *c = b' ';
            }
        }
        self.len += cost;
        self.last_seq = seq;
        Some(seq)
    }

    /// Drops records, oldest first, that `may_go` allows, until `needed` bytes are free
    /// or none it allows is left; calls `dropped` with each one dropped. Returns whether
    /// `needed` bytes are free. One pass: the records kept move down once each.
    pub fn make_room(
        &mut self,
        needed: usize,
        mut may_go: impl FnMut(&Record<'_>) -> bool,
        mut dropped: impl FnMut(&Record<'_>),
    ) -> bool {
        let mut freed = 0;
        let (mut at, mut kept) = (0, 0);
        while self.free() + freed < needed {
            let Some((r, next)) = self.at(at) else { break };
            let go = may_go(&r);
            if go {
                dropped(&r);
                freed += next - at;
            } else {
                if kept != at {
                    crate::wire::shift::copy_within(self.buf.as_mut(), at..next, kept);
                }
                kept += next - at;
            }
            at = next;
        }
        if freed > 0 {
            crate::wire::shift::copy_within(self.buf.as_mut(), at..self.len, kept);
            self.len -= freed;
            self.generation = self.generation.wrapping_add(1);
        }
        self.free() >= needed
    }

    /// Moves the records into `bigger` (at least as long as what they take), returning
    /// the old buffer; `Err(bigger)` when they do not fit there.
    pub fn replace_buffer(&mut self, mut bigger: B) -> Result<B, B> {
        let Some(dst) = bigger.as_mut().get_mut(..self.len) else { return Err(bigger) };
        dst.copy_from_slice(&self.buf.as_ref()[..self.len]);
        self.generation = self.generation.wrapping_add(1);
        Ok(core::mem::replace(&mut self.buf, bigger))
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Empty, as [`new`](Self::new) makes it over the same buffer.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub fn reset(&mut self) {
        let Self { buf: _, len, last_seq, generation } = self;
        (*len, *last_seq, *generation) = (0, 0, 0);
    }

    pub fn into_buffer(self) -> B {
        self.buf
    }

    /// The buffer taken out in place (see `Streams::take_store`).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub fn take_buffer(&mut self) -> B
    where
        B: Default,
    {
        core::mem::take(&mut self.buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_breaks_anywhere_become_spaces() {
        let mut log = EventLog::new([0u8; 512]);
        let mut msg = [b'x'; 200];
        (msg[3], msg[64], msg[130], msg[199]) = (b'\r', b'\n', b'\r', b'\n');
        assert_eq!(log.push(1, &msg), Some(1));
        let kept = log.next_of(1, 0).unwrap().bytes;
        assert_eq!(kept.iter().filter(|&&c| c == b' ').count(), 4);
        assert!(!crate::wire::has_line_break(kept));
    }

    #[test]
    fn append_find_and_evict() {
        let mut log = EventLog::new([0u8; 64]);
        assert_eq!(log.push(1, b"{\"a\":\n1}"), Some(1));
        assert_eq!(log.push(2, b"bb"), Some(2));
        assert_eq!(log.push(1, b"ccc"), Some(3));
        assert_eq!(log.next_of(1, 0).unwrap().bytes, b"{\"a\": 1}");
        assert_eq!(log.next_of(1, 1).unwrap().seq, 3);
        assert_eq!(log.next_of(2, 2), None);
        assert_eq!(log.free(), 64 - 3 * 12 - 13);
        // Full: nothing is written.
        assert_eq!(log.push(3, &[b'x'; 20]), None);
        // Room is made only from what may go.
        let mut gone = std::vec::Vec::new();
        assert!(!log.make_room(40, |r| r.stream == 2, |r| gone.push(r.seq)));
        assert_eq!(gone, [2]);
        assert!(log.make_room(40, |_| true, |r| gone.push(r.seq)));
        assert_eq!(gone, [2, 1]);
        assert_eq!(log.iter().map(|r| r.seq).collect::<std::vec::Vec<_>>(), [3]);
        assert_eq!(log.push(3, &[b'x'; 20]), Some(4));
    }

    #[test]
    fn room_is_made_in_one_pass_keeping_order() {
        let mut log = EventLog::new([0u8; 120]);
        for (stream, body) in [(1, &b"a1"[..]), (2, b"b2"), (1, b"c3"), (3, b"d4"), (2, b"e5")] {
            log.push(stream, body).unwrap();
        }
        let g = log.generation;
        // Streams 1 and 3 may go; 12 + 2 bytes each, 50 free: room for 80 needs three.
        let mut gone = std::vec::Vec::new();
        assert!(log.make_room(80, |r| r.stream != 2, |r| gone.push(r.seq)));
        assert_eq!(gone, [1, 3, 4]);
        assert_ne!(log.generation, g);
        let left: std::vec::Vec<_> = log.iter().map(|r| (r.seq, r.bytes.to_vec())).collect();
        assert_eq!(left, [(2, b"b2".to_vec()), (5, b"e5".to_vec())]);
        // Offsets: the second record of stream 2, found from the first one's end.
        let (r, at, next) = log.next_of_from(2, 0, 0).unwrap();
        assert_eq!((r.seq, at), (2, 0));
        let (r, at2, _) = log.next_of_from(2, r.seq, next).unwrap();
        assert_eq!((r.seq, at2), (5, next));
        // Nothing to do: nothing moves.
        let g = log.generation;
        assert!(log.make_room(10, |_| true, |_| panic!("nothing needs to go")));
        assert_eq!(log.generation, g);
        // Removing the last record; moving everything to a larger buffer.
        log.remove(at2, log.end());
        assert_eq!(log.iter().map(|r| r.seq).collect::<std::vec::Vec<_>>(), [2]);
        let mut small = EventLog::new(std::vec![0u8; 120]);
        small.push(7, b"xyz").unwrap();
        assert!(small.replace_buffer(std::vec![0u8; 10]).is_err());
        let old = small.replace_buffer(std::vec![0u8; 200]).unwrap();
        assert_eq!(old.len(), 120);
        assert_eq!((small.capacity(), small.next_of(7, 0).unwrap().bytes), (200, &b"xyz"[..]));
    }
}
