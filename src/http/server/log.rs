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
}

fn word(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

impl<B: AsRef<[u8]> + AsMut<[u8]>> EventLog<B> {
    pub fn new(buf: B) -> Self {
        Self { buf, len: 0, last_seq: 0 }
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
    pub fn next_of(&self, stream: u32, after: u32) -> Option<Record<'_>> {
        self.iter().find(|r| r.stream == stream && r.seq > after)
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
        for c in body.iter_mut().filter(|c| **c == b'\n' || **c == b'\r') {
            *c = b' ';
        }
        self.len += cost;
        self.last_seq = seq;
        Some(seq)
    }

    /// Drops records, oldest first, that `may_go` allows, until `needed` bytes are free
    /// or none it allows is left; calls `dropped` with each one dropped. Returns whether
    /// `needed` bytes are free.
    pub fn make_room(
        &mut self,
        needed: usize,
        mut may_go: impl FnMut(&Record<'_>) -> bool,
        mut dropped: impl FnMut(&Record<'_>),
    ) -> bool {
        let mut at = 0;
        while self.free() < needed {
            let Some((r, next)) = self.at(at) else { return false };
            if may_go(&r) {
                dropped(&r);
                let b = self.buf.as_mut();
                b.copy_within(next..self.len, at);
                self.len -= next - at;
            } else {
                at = next;
            }
        }
        true
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    pub fn into_buffer(self) -> B {
        self.buf
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
