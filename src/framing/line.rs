//! Newline-delimited framing for the stdio transport, incremental and allocation-free.
//!
//! MCP's stdio transport sends one JSON-RPC message per line, and a message never
//! contains a raw newline. [`LineFramer`] turns a byte stream, delivered in chunks of any
//! size, into those lines, holding partial lines in a caller-provided buffer:
//!
//! * every chunking of the same stream gives the same lines and errors (chunk boundaries
//!   may split a UTF-8 sequence, a CRLF or the BOM);
//! * a trailing CR is stripped (CRLF line ends), and lines that are empty or hold only
//!   whitespace are skipped;
//! * a UTF-8 byte order mark at the very start of the stream is skipped;
//! * a line that does not fit the buffer (its newline included) is reported once, with its
//!   full length, when its newline arrives, and skipped; the lines after it are intact;
//! * end of input in the middle of a line is reported.
//!
//! Memory stays bounded by the buffer whatever the input, so a peer that never sends a
//! newline cannot exhaust it (the TypeScript SDK grows its buffer to 10 MiB and then
//! gives up on the connection; the Python SDK's is unbounded).

use core::fmt;
use core::ops::Range;

use super::prefix::Prefix;

const BOM: &[u8; 3] = b"\xEF\xBB\xBF";

/// A line the framer could not deliver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum LineError {
    /// A line longer than the buffer was skipped. `len` is its full length in bytes,
    /// without the line terminator.
    TooLong {
        /// The skipped line's length.
        len: usize,
    },
    /// The stream ended inside a line, which was dropped. `len` is how many bytes of it
    /// had arrived.
    Unterminated {
        /// The partial line's length.
        len: usize,
    },
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooLong { len } => write!(f, "line of {len} bytes exceeds the receive buffer and was skipped"),
            Self::Unterminated { len } => write!(f, "input ended inside a line ({len} bytes without a newline)"),
        }
    }
}

impl core::error::Error for LineError {}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bom {
    /// Nothing of the stream seen yet, or only a prefix of the BOM.
    Undecided,
    Decided,
}

/// Splits a byte stream into lines; see the [module docs](crate::framing) and below.
///
/// ```
/// use mcp_sansio::framing::{LineError, LineFramer};
/// let mut buf = [0u8; 16];
/// let mut framer = LineFramer::new(&mut buf);
/// let mut lines = Vec::new();
/// for chunk in [&b"\xEF\xBB\xBF{\"a\":"[..], b"1}\r\n\n{}\n", b"0123456789abcdefXYZ\n[]"] {
///     let mut chunk = chunk;
///     while !chunk.is_empty() {
///         let n = framer.feed(chunk);
///         chunk = &chunk[n..];
///         while let Some(line) = framer.next_line() {
///             lines.push(line.map(|l| l.to_vec()));
///         }
///     }
/// }
/// framer.close();
/// while let Some(line) = framer.next_line() {
///     lines.push(line.map(|l| l.to_vec()));
/// }
/// assert_eq!(lines, [
///     Ok(b"{\"a\":1}".to_vec()),
///     Ok(b"{}".to_vec()),
///     Err(LineError::TooLong { len: 19 }),
///     Err(LineError::Unterminated { len: 2 }),
/// ]);
/// ```
pub struct LineFramer<'b> {
    buf: &'b mut [u8],
    state: LineState,
}

impl fmt::Debug for LineFramer<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LineFramer")
            .field("buffered", &self.state.buffered())
            .field("capacity", &self.buf.len())
            .field("skipping", &self.state.skipping)
            .field("eof", &self.state.eof)
            .finish()
    }
}

impl<'b> LineFramer<'b> {
    /// A framer over `buf`. A line, its newline included, must fit in `buf`; an empty
    /// `buf` holds nothing, so every byte fed to it is discarded.
    pub fn new(buf: &'b mut [u8]) -> Self {
        Self { buf, state: LineState::new() }
    }

    /// The buffer's size: the longest acceptable line plus one.
    pub fn capacity(&self) -> usize {
        self.buf.len()
    }

    /// Bytes received and not yet delivered.
    pub fn buffered(&self) -> usize {
        self.state.buffered()
    }

    /// Whether [`close`](Self::close) has been called.
    pub fn is_closed(&self) -> bool {
        self.state.is_closed()
    }

    /// Free space to read into directly (then call [`commit`](Self::commit)): the
    /// zero-copy alternative to [`feed`](Self::feed).
    ///
    /// Empty only when complete lines are waiting: drain [`next_line`](Self::next_line)
    /// first. When the partial line left in the buffer fills it, the line is too long and
    /// the framer starts skipping it here, so room is always made.
    pub fn spare(&mut self) -> &mut [u8] {
        self.state.spare(self.buf)
    }

    /// Marks `n` bytes of [`spare`](Self::spare) as received.
    pub fn commit(&mut self, n: usize) {
        self.state.commit(self.buf.len(), n);
    }

    /// Copies as much of `data` as fits; returns how many bytes were taken. Returns 0
    /// only if `data` is empty or complete lines are waiting in
    /// [`next_line`](Self::next_line).
    pub fn feed(&mut self, data: &[u8]) -> usize {
        self.state.feed(self.buf, data)
    }

    /// Marks the end of the stream. A partial line still buffered is then reported by
    /// [`next_line`](Self::next_line) as [`LineError::Unterminated`].
    pub fn close(&mut self) {
        self.state.close();
    }

    /// The next complete line, or an error for a line that could not be delivered.
    /// `None` means more input is needed (or, after [`close`](Self::close), the end).
    #[allow(clippy::should_implement_trait)] // the item borrows the framer: not an Iterator
    pub fn next_line(&mut self) -> Option<Result<&[u8], LineError>> {
        match self.state.peek_line(self.buf, self.buf.len())? {
            Ok(range) => {
                self.state.consume_line();
                Some(Ok(&self.buf[range]))
            }
            Err(e) => Some(Err(e)),
        }
    }
}

/// The framer's cursor, kept apart from the bytes it frames.
///
/// [`LineFramer`] pairs it with a buffer. The session keeps the two apart so that it can
/// borrow the received bytes immutably (events point into them) while it moves the
/// cursor from line to line: only [`spare`](Self::spare), [`feed`](Self::feed) and
/// [`commit`](Self::commit) write bytes, and none of them runs while lines are being
/// handed out.
#[derive(Clone, Debug)]
pub(crate) struct LineState {
    /// Start of the bytes not yet delivered.
    head: usize,
    /// End of the bytes received.
    tail: usize,
    /// `buf[head..scanned]` holds no newline.
    scanned: usize,
    /// While discarding an oversized line: the bytes of it seen so far.
    skipping: Option<usize>,
    /// Whether the last byte discarded while skipping was a CR (a CRLF may be split
    /// across a discard).
    skip_ends_in_cr: bool,
    bom: Bom,
    eof: bool,
    /// The end-of-input report has been made (or there was nothing to report).
    eof_done: bool,
    /// A line returned by `peek_line` and not yet consumed, and where the next one starts.
    peeked: Option<(Range<usize>, usize)>,
    /// What the first bytes of the line being skipped (or just reported too long) showed.
    oversized: Option<Prefix>,
    /// The line `consume_line` just released (its range, and the length of its
    /// terminator: 1 or 2 bytes), for `keep_line`.
    kept: Option<(usize, usize, u8)>,
}

impl LineState {
    pub(crate) const fn new() -> Self {
        Self {
            head: 0,
            tail: 0,
            scanned: 0,
            skipping: None,
            skip_ends_in_cr: false,
            bom: Bom::Undecided,
            eof: false,
            eof_done: false,
            peeked: None,
            oversized: None,
            kept: None,
        }
    }

    /// What the first bytes of the last line reported [`LineError::TooLong`] showed.
    pub(crate) fn take_oversized(&mut self) -> Option<Prefix> {
        self.oversized.take()
    }

    /// Whether the buffer is full with the start of a line and no newline, so that
    /// [`spare`](Self::spare) would start skipping that line (compacting first).
    pub(crate) fn is_full_of_one_line(&mut self, buf: &mut [u8]) -> bool {
        if self.head > 0 && self.tail == buf.len() {
            self.compact(buf);
        }
        self.head == 0
            && self.tail == buf.len()
            && !buf.is_empty()
            && self.skipping.is_none()
            && self.bom == Bom::Decided
            && self.peeked.is_none()
            && self.find_newline(buf).is_none()
    }

    /// The end of the bytes received: `peek_line` reads nothing beyond it.
    pub(crate) fn tail(&self) -> usize {
        self.tail
    }

    /// Whether nothing is buffered and no line is being skipped.
    pub(crate) fn is_idle(&self) -> bool {
        self.head == self.tail && self.skipping.is_none() && self.peeked.is_none()
    }

    /// Starts again at the front of a new buffer (the caller swaps it in): only while
    /// nothing is buffered, skipped or peeked ([`is_idle`](Self::is_idle)); returns
    /// whether it did.
    pub(crate) fn rebase(&mut self) -> bool {
        if !self.is_idle() {
            return false;
        }
        self.head = 0;
        self.tail = 0;
        self.scanned = 0;
        self.kept = None;
        true
    }

    /// Bytes received and not yet delivered.
    pub(crate) fn buffered(&self) -> usize {
        self.tail - self.head
    }

    pub(crate) fn is_closed(&self) -> bool {
        self.eof
    }

    /// See [`LineFramer::spare`].
    ///
    /// Runs on every read (with one-byte reads, once a byte): whether the buffer needs
    /// any work first is decided inline, the work (moving the unread bytes down, a full
    /// buffer) is out of line.
    #[cfg_attr(mcp_sansio_wide, inline(always))]
    pub(crate) fn spare<'b>(&mut self, buf: &'b mut [u8]) -> &'b mut [u8] {
        // Small targets skip the early test: it would repeat, as code, the tests the work
        // starts with.
        #[cfg(mcp_sansio_wide)]
        {
            let full = self.tail == buf.len();
            if !((self.head > 0 && (full || self.head == self.tail))
                || (self.head == 0 && full && self.skipping.is_none()))
            {
                return &mut buf[self.tail..];
            }
        }
        self.make_room(buf);
        &mut buf[self.tail..]
    }

    #[cfg_attr(mcp_sansio_wide, inline(never))]
    #[cfg_attr(not(mcp_sansio_wide), inline(always))]
    fn make_room(&mut self, buf: &mut [u8]) {
        if self.head > 0 && (self.tail == buf.len() || self.head == self.tail) {
            self.compact(buf);
        }
        if self.head == 0 && self.tail == buf.len() && self.skipping.is_none() {
            // Full. If a newline is in there, lines are waiting to be drained; if not,
            // the current line cannot fit and is skipped from here on.
            self.decide_bom_when_full(buf);
            if self.head > 0 {
                // A BOM was just dropped: the line after it may still fit.
                self.compact(buf);
            } else if self.peeked.is_none() && self.find_newline(buf).is_none() {
                // (A peeked line, one handed back with `keep_line`, is a complete line:
                // the search starts past its newline.)
                self.oversized = Some(Prefix::scan(&buf[self.head..self.tail]));
                self.skipping = Some(self.tail - self.head);
                self.skip_ends_in_cr = self.tail > self.head && buf[self.tail - 1] == b'\r';
                self.head = 0;
                self.tail = 0;
                self.scanned = 0;
            }
        }
    }

    /// See [`LineFramer::commit`]; `capacity` is the buffer's length.
    pub(crate) fn commit(&mut self, capacity: usize, n: usize) {
        self.tail = (self.tail + n).min(capacity);
    }

    /// See [`LineFramer::feed`].
    pub(crate) fn feed(&mut self, buf: &mut [u8], data: &[u8]) -> usize {
        if self.eof {
            return 0;
        }
        if buf.is_empty() {
            // Nothing can ever be held: taking nothing would make a caller's loop spin.
            return data.len();
        }
        let capacity = buf.len();
        let spare = self.spare(buf);
        let n = spare.len().min(data.len());
        if cfg!(mcp_sansio_wide) && n == 1 {
            // A reader that hands over one byte at a time (a UART): a store, not a call
            // to `memcpy`.
            spare[0] = data[0];
        } else {
            spare[..n].copy_from_slice(&data[..n]);
        }
        self.commit(capacity, n);
        n
    }

    pub(crate) fn close(&mut self) {
        self.eof = true;
    }

    fn compact(&mut self, buf: &mut [u8]) {
        self.kept = None;
        if let Some((range, next)) = self.peeked.take() {
            self.peeked = Some((range.start - self.head..range.end - self.head, next - self.head));
        }
        crate::wire::shift::copy_within(buf, self.head..self.tail, 0);
        self.tail -= self.head;
        self.scanned -= self.head;
        self.head = 0;
    }

    /// A full buffer must not wait for more bytes to decide the BOM (only possible when
    /// the buffer is smaller than the BOM itself).
    fn decide_bom_when_full(&mut self, buf: &[u8]) {
        if !self.decide_bom(buf) {
            self.bom = Bom::Decided;
        }
    }

    /// Decides whether the stream starts with a BOM, once enough bytes are here.
    /// Returns `false` while undecidable (a strict prefix of the BOM and more may come).
    fn decide_bom(&mut self, buf: &[u8]) -> bool {
        if self.bom == Bom::Decided {
            return true;
        }
        let have = &buf[self.head..self.tail];
        let n = have.len().min(3);
        if have[..n] != BOM[..n] {
            self.bom = Bom::Decided;
            return true;
        }
        if n == 3 {
            self.head += 3;
            self.scanned = self.scanned.max(self.head);
            self.bom = Bom::Decided;
            return true;
        }
        if self.eof {
            self.bom = Bom::Decided;
            return true;
        }
        false
    }

    /// The next complete line as a range into `buf`, which stays there until
    /// [`consume_line`](Self::consume_line); or an error for a line that could not be
    /// delivered (errors are consumed as they are reported). Reads `buf` only: it may
    /// end at [`tail`](Self::tail), the buffer's full size being `capacity`.
    pub(crate) fn peek_line(&mut self, buf: &[u8], capacity: usize) -> Option<Result<Range<usize>, LineError>> {
        self.kept = None;
        if let Some((range, _)) = &self.peeked {
            return Some(Ok(range.clone()));
        }
        loop {
            if let Some(seen) = self.skipping {
                return self.skip_to_newline(buf, seen);
            }
            if self.head == self.tail && !self.eof {
                return None;
            }
            if !self.decide_bom(buf) {
                return None;
            }
            match self.find_newline(buf) {
                Some(nl) => {
                    let start = self.head;
                    let mut end = nl;
                    if end > start && buf[end - 1] == b'\r' {
                        end -= 1;
                    }
                    if buf[start..end].iter().all(|b| matches!(b, b' ' | b'\t' | b'\r')) {
                        self.head = nl + 1;
                        self.scanned = self.head;
                        continue;
                    }
                    self.peeked = Some((start..end, nl + 1));
                    return Some(Ok(start..end));
                }
                None if self.eof && !self.eof_done => return self.unterminated(buf, capacity),
                None => return None,
            }
        }
    }

    /// [`peek_line`](Self::peek_line) at the end of input with a line unterminated.
    #[cfg_attr(mcp_sansio_wide, cold)]
    #[cfg_attr(mcp_sansio_wide, inline(never))]
    #[cfg_attr(not(mcp_sansio_wide), inline(always))]
    fn unterminated(&mut self, buf: &[u8], capacity: usize) -> Option<Result<Range<usize>, LineError>> {
        self.eof_done = true;
        let rest = &buf[self.head..self.tail];
        self.head = self.tail;
        if rest.len() == capacity {
            // It fills the buffer, so it could never fit with its newline:
            // the report `spare` (or one more empty `feed`) would have made.
            self.oversized = Some(Prefix::scan(rest));
            return Some(Err(LineError::TooLong { len: rest.len() }));
        }
        if rest.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r')) {
            return None;
        }
        Some(Err(LineError::Unterminated { len: rest.len() }))
    }

    /// [`peek_line`](Self::peek_line) while skipping a line too long for the buffer
    /// (`seen` bytes of it so far).
    #[cfg_attr(mcp_sansio_wide, cold)]
    #[cfg_attr(mcp_sansio_wide, inline(never))]
    #[cfg_attr(not(mcp_sansio_wide), inline(always))]
    fn skip_to_newline(&mut self, buf: &[u8], seen: usize) -> Option<Result<Range<usize>, LineError>> {
        match self.find_newline(buf) {
            Some(nl) => {
                let mut len = seen + (nl - self.head);
                let cr = if nl > self.head { buf[nl - 1] == b'\r' } else { self.skip_ends_in_cr };
                if cr {
                    len -= 1;
                }
                self.head = nl + 1;
                self.scanned = self.head;
                self.skipping = None;
                self.bom = Bom::Decided;
                Some(Err(LineError::TooLong { len }))
            }
            None => {
                let seen = seen + (self.tail - self.head);
                if self.tail > self.head {
                    self.skip_ends_in_cr = buf[self.tail - 1] == b'\r';
                }
                self.head = 0;
                self.tail = 0;
                self.scanned = 0;
                self.skipping = Some(seen);
                if self.eof && !self.eof_done {
                    self.eof_done = true;
                    self.skipping = None;
                    return Some(Err(LineError::TooLong { len: seen }));
                }
                None
            }
        }
    }

    /// Releases the line returned by [`peek_line`](Self::peek_line). Its bytes stay
    /// readable in the buffer until the next `spare`, `feed` or `commit`.
    pub(crate) fn consume_line(&mut self) {
        if let Some((range, next)) = self.peeked.take() {
            // A peeked line starts at the head, so that is all `keep_line` needs.
            self.kept = Some((range.start, range.end, (next - range.end) as u8));
            self.head = next;
            self.scanned = self.scanned.max(next);
        }
    }

    /// Takes back the line [`consume_line`](Self::consume_line) just released: the next
    /// [`peek_line`](Self::peek_line) returns it again. (The session releases a line
    /// before handling it and keeps it when it must be handled again.)
    pub(crate) fn keep_line(&mut self) {
        if let Some((start, end, terminator)) = self.kept.take() {
            self.head = start;
            self.peeked = Some((start..end, end + usize::from(terminator)));
        }
    }

    fn find_newline(&mut self, buf: &[u8]) -> Option<usize> {
        let from = self.scanned.max(self.head);
        let hay = &buf[from..self.tail];
        let found = if !crate::wire::COMPACT && hay.len() >= 16 {
            newline_by_words(hay)
        } else {
            hay.iter().position(|&b| b == b'\n')
        };
        match found {
            Some(i) => Some(from + i),
            None => {
                self.scanned = self.tail;
                None
            }
        }
    }
}

/// The bytes [`newline_by_words`] skips at a time where there is SIMD.
const NEWLINE_BLOCK: usize = 32;

/// The offset of the first `\n` in `bytes`, for [`LineState::find_newline`] on a slice of 16
/// bytes or more (every byte of every message passes there): 32 bytes at a time where there
/// is SIMD, then eight at a time, then the tail; compact builds (small 32-bit targets, where code size matters more) keep the byte
/// loop, as the JSON scanner does (`wire::find`). Out of line and `cold` so that the
/// byte-at-a-time path, taken for every byte when a reader hands over one at a time, keeps
/// its short prologue (with this search inlined, `peek_line` saved more registers on every
/// call: +3% instructions per message with 1-byte reads).
#[cold]
#[inline(never)]
fn newline_by_words(bytes: &[u8]) -> Option<usize> {
    use crate::wire::{VECTOR, eq_mask, first, word};
    let mut at = 0;
    if VECTOR {
        // Where there is SIMD, 32 bytes at a time first: a loop over the block with no
        // early exit, which the auto-vectorizer turns into a few vector instructions.
        for block in bytes.as_chunks::<NEWLINE_BLOCK>().0 {
            if block.iter().fold(false, |found, &b| found | (b == b'\n')) {
                break;
            }
            at += NEWLINE_BLOCK;
        }
    }
    while let Some(w) = word(bytes, at) {
        let found = eq_mask(w, b'\n');
        if found != 0 {
            return Some(at + first(found));
        }
        at += 8;
    }
    bytes[at..].iter().position(|&b| b == b'\n').map(|i| at + i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    type Event = Result<Vec<u8>, LineError>;

    /// A line handed back with `keep_line` (its reply did not fit yet) is a complete line
    /// in the buffer: when more bytes without a newline then fill the buffer, the framer
    /// must not take them for one line too long and skip from there (it searched for a
    /// newline only past the kept line's, dropped it and could later index past `tail`).
    #[test]
    fn a_kept_line_survives_a_buffer_filled_behind_it() {
        for fill in [b'x', b' ', b'\r'] {
            let mut buf = [0u8; 16];
            let mut s = LineState::new();
            assert_eq!(s.feed(&mut buf, b"ab\n"), 3);
            assert_eq!(s.peek_line(&buf, 16), Some(Ok(0..2)));
            s.consume_line();
            s.keep_line();
            assert_eq!(s.feed(&mut buf, &[fill; 13]), 13);
            // Full: nothing more is taken until the kept line is drained.
            assert_eq!(s.feed(&mut buf, &[fill; 4]), 0);
            assert!(!s.is_full_of_one_line(&mut buf));
            let line = s.peek_line(&buf, 16).unwrap().unwrap();
            assert_eq!(&buf[line], b"ab");
            s.consume_line();
            assert_eq!(s.peek_line(&buf, 16), None);
            // Room again: the rest is a line in the making, too long once it fills the
            // buffer, and skipped from there up to its newline.
            assert_eq!(s.feed(&mut buf, &[fill; 3]), 3);
            assert_eq!(s.feed(&mut buf, &[fill; 4]), 4);
            assert_eq!(s.feed(&mut buf, b"\n"), 1);
            let len = if fill == b'\r' { 19 } else { 20 };
            assert_eq!(s.peek_line(&buf, 16), Some(Err(LineError::TooLong { len })), "fill {fill}");
            assert_eq!(s.feed(&mut buf, b"{}\n"), 3);
            let line = s.peek_line(&buf, 16).unwrap().unwrap();
            assert_eq!(&buf[line], b"{}");
        }
    }

    /// The word-at-a-time search finds the first line feed at every offset of a word and
    /// of the tail, behind bytes a borrow could confuse with one (`\x0b` is a line feed
    /// plus one) and other line feeds, and nothing where there is none.
    #[test]
    fn newline_in_finds_the_first_line_feed() {
        for len in 0..3 * NEWLINE_BLOCK + 9 {
            for filler in [b'x', 0x0b, 0x8a, b'\r'] {
                let mut bytes = std::vec![filler; len];
                assert_eq!(newline_by_words(&bytes), None);
                for at in 0..len {
                    bytes[at] = b'\n';
                    if at + 1 < len {
                        bytes[len - 1] = b'\n';
                    }
                    assert_eq!(newline_by_words(&bytes), Some(at), "len {len}, at {at}, filler {filler:#x}");
                    bytes.fill(filler);
                }
            }
        }
    }

    fn run(cap: usize, chunks: &[&[u8]], close: bool) -> Vec<Event> {
        let mut buf = std::vec![0u8; cap];
        let mut f = LineFramer::new(&mut buf);
        let mut out = Vec::new();
        for chunk in chunks {
            let mut chunk = *chunk;
            while !chunk.is_empty() {
                let n = f.feed(chunk);
                chunk = &chunk[n..];
                while let Some(l) = f.next_line() {
                    out.push(l.map(<[u8]>::to_vec));
                }
            }
        }
        if close {
            f.close();
            while let Some(l) = f.next_line() {
                out.push(l.map(<[u8]>::to_vec));
            }
        }
        out
    }

    fn ok(s: &[u8]) -> Event {
        Ok(s.to_vec())
    }

    #[test]
    fn strips_cr_bom_and_blank_lines() {
        let evs = run(64, &[b"\xEF\xBB\xBF{}\r\n\r\n  \n\t\r\n[1]\n"], true);
        assert_eq!(evs, [ok(b"{}"), ok(b"[1]")]);
        // A BOM later in the stream is data, not skipped.
        let evs = run(64, &[b"{}\n\xEF\xBB\xBF{}\n"], true);
        assert_eq!(evs, [ok(b"{}"), ok(b"\xEF\xBB\xBF{}")]);
    }

    #[test]
    fn bom_prefix_that_is_not_a_bom_is_kept() {
        assert_eq!(run(64, &[b"\xEF", b"\xBBx\n"], true), [ok(b"\xEF\xBBx")]);
        assert_eq!(run(64, &[b"\xEF\xBB"], true), [Err(LineError::Unterminated { len: 2 })]);
    }

    #[test]
    fn exact_fit_and_one_over() {
        // Capacity 4: a 3-byte line plus its newline fits; a 4-byte line does not.
        assert_eq!(run(4, &[b"abc\nabcd\nxy\n"], true), [ok(b"abc"), Err(LineError::TooLong { len: 4 }), ok(b"xy")]);
        assert_eq!(run(4, &[b"abcdefghij\r\nok\n"], true), [Err(LineError::TooLong { len: 10 }), ok(b"ok")]);
    }

    #[test]
    fn eof_reports() {
        assert_eq!(run(8, &[b"{}\n{"], true), [ok(b"{}"), Err(LineError::Unterminated { len: 1 })]);
        assert_eq!(run(4, &[b"abcdefg"], true), [Err(LineError::TooLong { len: 7 })]);
        assert_eq!(run(8, &[b"{}\n  "], true), [ok(b"{}")]);
        assert_eq!(run(8, &[b"{}\n{"], false), [ok(b"{}")]);
    }

    #[test]
    fn every_split_of_a_tricky_stream_gives_the_same_events() {
        let stream: &[u8] =
            b"\xEF\xBB\xBF{\"a\":\"\xE2\x82\xAC\"}\r\n\n0123456789ABCDEFGHIJ\r\nok\r\n\xF0\x9F\x98\x80\ntail";
        let want = run(12, &[stream], true);
        assert_eq!(want.len(), 5);
        for i in 0..=stream.len() {
            for j in i..=stream.len() {
                assert_eq!(run(12, &[&stream[..i], &stream[i..j], &stream[j..]], true), want, "split {i} {j}");
            }
        }
        let bytes: Vec<&[u8]> = stream.chunks(1).collect();
        assert_eq!(run(12, &bytes, true), want);
    }

    #[test]
    fn bom_dropped_when_the_buffer_is_full_frees_its_room() {
        // Fed without draining in between, so the BOM is decided inside `spare` on a full
        // buffer. It used to count against the line after it (`TooLong { len: 1 }` here).
        let mut buf = [0u8; 3];
        let mut f = LineFramer::new(&mut buf);
        for b in b"\xEF\xBB\xBF{\r\n" {
            assert_eq!(f.feed(&[*b]), 1);
        }
        assert_eq!(f.next_line(), Some(Ok(&b"{"[..])));
        let mut buf = [0u8; 5];
        let mut f = LineFramer::new(&mut buf);
        assert_eq!(f.feed(b"\xEF\xBB\xBFabcd\n"), 5);
        assert_eq!(f.feed(b"cd\n"), 3);
        assert_eq!(f.next_line(), Some(Ok(&b"abcd"[..])));
        assert_eq!(f.next_line(), None);
    }

    #[test]
    fn a_partial_line_filling_the_buffer_at_eof_is_too_long_however_it_was_fed() {
        // It used to be `Unterminated { len: 5 }` through `feed`, but `TooLong { len: 5 }`
        // when the reader called `spare` (or fed an empty read) before learning of the end.
        assert_eq!(run(5, &[b"[][]\r"], true), [Err(LineError::TooLong { len: 5 })]);
        assert_eq!(run(5, &[b"{}\n[][]\r"], true), [ok(b"{}"), Err(LineError::TooLong { len: 5 })]);
        assert_eq!(run(5, &[b"     "], true), [Err(LineError::TooLong { len: 5 })]);
        let mut buf = [0u8; 5];
        let mut f = LineFramer::new(&mut buf);
        assert_eq!(f.feed(b"[][]\r"), 5);
        assert_eq!(f.next_line(), None);
        assert_eq!(f.feed(b""), 0);
        f.close();
        assert_eq!(f.next_line(), Some(Err(LineError::TooLong { len: 5 })));
        assert_eq!(f.next_line(), None);
        // One byte short of the buffer is still an unterminated line.
        assert_eq!(run(5, &[b"[][]"], true), [Err(LineError::Unterminated { len: 4 })]);
    }

    #[test]
    fn zero_copy_path() {
        let mut buf = [0u8; 8];
        let mut f = LineFramer::new(&mut buf);
        let spare = f.spare();
        spare[..3].copy_from_slice(b"{}\n");
        f.commit(3);
        assert_eq!(f.next_line(), Some(Ok(&b"{}"[..])));
        assert_eq!(f.next_line(), None);
        assert_eq!(f.spare().len(), 8);
    }
}
