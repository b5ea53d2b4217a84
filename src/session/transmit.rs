//! What goes out, and on which channel: [`Transmit`], [`Origin`], the two output modes,
//! and the queue of frames waiting in the transmit buffer.
//!
//! A transport with one channel (stdio) takes everything queued in one write, frames
//! newline-terminated: line mode, the default, which costs nothing beyond the frames. A
//! transport with several channels (Streamable HTTP: a response stream per POST, and
//! the GET stream) needs each message apart, with the channel it belongs on: message
//! mode hands out one message at a time, no newline, with its [`Origin`]. To do that it
//! keeps a 9-byte header before each frame in the transmit buffer.
//!
//! Either way a transport that can take only part of a transmit (a UART, a
//! non-blocking socket) says how much with [`Endpoint::sent`](super::Endpoint::sent);
//! the rest is handed out first at the next poll.

use core::fmt;
use core::ops::Deref;

use super::buffer::Buffer;
use crate::wire::{FrameView, Framing, TAG_HEADER, read_tag};

/// The channel a message came in on, as an opaque tag the transport chooses: an HTTP
/// POST's response stream, say.
///
/// Given with [`Endpoint::handle_frame_from`](super::Endpoint::handle_frame_from), it
/// sticks to the request the message carried: the response, the endpoint's own replies
/// to it (errors, pongs), its progress, and whatever the application sends as related to
/// it ([`RequestOptions::related_to`](super::RequestOptions::related_to),
/// [`Endpoint::send_related_notification`](super::Endpoint::send_related_notification))
/// come out with it in [`Transmit::origin`]. Messages related to nothing have no origin
/// (for Streamable HTTP: the GET stream).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Origin(pub u32);

/// How the endpoint hands out what it sends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum OutputMode {
    /// Every frame queued, newline-terminated, in one [`Transmit`], without origins
    /// (stdio, or any byte stream).
    #[default]
    Lines,
    /// One message per [`Transmit`], without a newline, with its [`Origin`] (HTTP, SSE,
    /// WebSocket). Each queued frame takes 9 bytes more of the transmit buffer.
    Messages,
}

/// Bytes to write: deref to `&[u8]`, so `writer.write_all(&t)` works.
#[must_use = "bytes to write: they count as written at the next poll_output"]
pub struct Transmit<'e> {
    bytes: &'e [u8],
    /// The channel the message belongs on (message mode only; always `None` in line
    /// mode).
    pub origin: Option<Origin>,
}

impl<'e> Transmit<'e> {
    /// The bytes, borrowed for as long as the output is.
    pub fn bytes(&self) -> &'e [u8] {
        self.bytes
    }
}

impl Deref for Transmit<'_> {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        self.bytes
    }
}

impl fmt::Debug for Transmit<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Transmit").field("len", &self.bytes.len()).field("origin", &self.origin).finish()
    }
}

/// The frames in the transmit buffer, from `head` to `len`.
pub(crate) struct Outbox<B> {
    buf: B,
    /// Start of what is not yet written out.
    head: usize,
    /// End of what is queued.
    len: usize,
    mode: OutputMode,
    /// Bytes handed out by the last `Transmit`, released at the next poll.
    handed: usize,
    /// How many of them the transport said went out (`Endpoint::sent`).
    sent: Option<usize>,
    /// Message mode: how much of the first message went out already.
    partial: usize,
}

impl<B: Buffer> Outbox<B> {
    pub fn new(buf: B, mode: OutputMode) -> Self {
        Self { buf, head: 0, len: 0, mode, handed: 0, sent: None, partial: 0 }
    }

    /// Empty again, as [`new`](Self::new) leaves it over the same buffer and mode (see
    /// `Endpoint::reset`).
    pub fn reset(&mut self) {
        let Self { buf: _, head, len, mode: _, handed, sent, partial } = self;
        (*head, *len, *handed, *sent, *partial) = (0, 0, 0, None, 0);
    }

    /// Everything but the bytes, for comparing states in tests.
    #[cfg(test)]
    pub fn debug_state(&self) -> std::string::String {
        let Self { buf, head, len, mode, handed, sent, partial } = self;
        std::format!("{} {head} {len} {mode:?} {handed} {sent:?} {partial}", buf.as_ref().len())
    }

    fn framing(&self) -> Framing {
        match self.mode {
            OutputMode::Lines => Framing::Newline,
            OutputMode::Messages => Framing::Tagged,
        }
    }

    /// A writer that appends frames for `origin`. What was written out is moved away
    /// first, so the whole free room is at the end.
    pub fn to(&mut self, origin: Option<Origin>) -> FrameView<'_> {
        let framing = self.framing();
        let buf = self.buf.as_mut();
        if self.head > 0 {
            crate::wire::shift::copy_within(buf, self.head..self.len, 0);
            self.len -= self.head;
            self.head = 0;
        }
        FrameView::new(buf, &mut self.len, framing, origin.map(|o| o.0))
    }

    /// How many bytes wait to be written out: a mark for [`truncate`](Self::truncate).
    pub fn queued(&self) -> usize {
        self.len - self.head
    }

    /// Drops the frames queued after the mark `queued` (a command that wrote several
    /// frames and must take them all back; nothing was handed out in between).
    pub fn truncate(&mut self, queued: usize) {
        self.len = self.len.min(self.head + queued);
    }

    /// The bytes of a frame just written at `range` (as a writer from
    /// [`to`](Self::to) returned it, before anything else changed the queue): the
    /// message alone, without its header or newline.
    pub fn frame(&self, range: core::ops::Range<usize>) -> &[u8] {
        let bytes = self.buf.as_ref().get(range).unwrap_or_default();
        match self.mode {
            OutputMode::Lines => bytes.strip_suffix(b"\n").unwrap_or(bytes),
            OutputMode::Messages => bytes.get(TAG_HEADER..).unwrap_or_default(),
        }
    }

    /// Whether nothing waits to be written out.
    pub fn is_empty(&self) -> bool {
        self.head == self.len
    }

    /// Bytes free for new frames.
    pub fn available(&self) -> usize {
        self.capacity() - (self.len - self.head)
    }

    pub fn capacity(&self) -> usize {
        self.buf.as_ref().len()
    }

    /// The next bytes to write out (the queue must not be empty).
    pub fn transmit(&mut self) -> Transmit<'_> {
        let buf = self.buf.as_ref();
        let (bytes, origin) = match self.mode {
            OutputMode::Lines => (&buf[self.head..self.len], None),
            OutputMode::Messages => {
                let (len, tag) = read_tag(&buf[self.head..self.len]).unwrap_or((0, None));
                let body = self.head + TAG_HEADER;
                (buf.get(body + self.partial..body + len).unwrap_or_default(), tag.map(Origin))
            }
        };
        self.handed = bytes.len();
        self.sent = None;
        Transmit { bytes, origin }
    }

    /// Only `n` bytes of the last transmit went out.
    pub fn sent(&mut self, n: usize) {
        if self.handed > 0 {
            self.sent = Some(n.min(self.handed));
        }
    }

    /// What the last transmit handed out counts as written (or what `sent` said).
    pub fn release(&mut self) {
        if self.handed == 0 {
            return;
        }
        let n = self.sent.take().unwrap_or(self.handed);
        self.handed = 0;
        match self.mode {
            OutputMode::Lines => self.head += n,
            OutputMode::Messages => {
                self.partial += n;
                let whole = read_tag(&self.buf.as_ref()[self.head..self.len]).map_or(0, |(len, _)| len);
                if self.partial >= whole {
                    self.head += TAG_HEADER + whole;
                    self.partial = 0;
                }
            }
        }
        if self.head >= self.len {
            self.head = 0;
            self.len = 0;
        }
    }

    /// Moves what is queued to the front of `new` and keeps `new`, returning the old
    /// buffer; `Err(new)`, nothing changed, when `new` is smaller than the buffer now.
    /// The last transmit is released first, as the next poll would.
    pub fn replace_buffer(&mut self, mut new: B) -> Result<B, B> {
        if new.as_ref().len() < self.capacity() {
            return Err(new);
        }
        self.release();
        let queued = self.len - self.head;
        new.as_mut()[..queued].copy_from_slice(&self.buf.as_ref()[self.head..self.len]);
        self.head = 0;
        self.len = queued;
        Ok(core::mem::replace(&mut self.buf, new))
    }

    /// Forgets everything queued (only before the endpoint is handed out).
    pub fn clear(&mut self) {
        self.head = 0;
        self.len = 0;
        self.handed = 0;
        self.sent = None;
        self.partial = 0;
    }

    /// The buffer itself, for a snapshot.
    pub fn into_buffer(self) -> B {
        self.buf
    }

    /// The buffer taken out in place (see `Endpoint::take_buffers`).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub fn take_buffer(&mut self) -> B
    where
        B: Default,
    {
        core::mem::take(&mut self.buf)
    }
}

// ---- origins of received frames ---------------------------------------------------------
//
// A frame given to `handle_frame*` waits in the receive buffer with the others until it
// is processed, so its origin is stored in front of it: one byte that no JSON text can
// start with (a control character), then, if there is an origin, its 8 hex digits.
// Every frame fed that way has the mark, so bytes from the peer can never pass for one.

/// A received frame without an origin.
const NO_ORIGIN: u8 = 0x1F;
/// A received frame with an origin: 8 lowercase hex digits follow.
const WITH_ORIGIN: u8 = 0x1E;

/// The longest mark before a received frame.
pub(crate) const RX_MARK: usize = 9;

/// Writes the mark for `origin` at the start of `out` (which has room for [`RX_MARK`]
/// bytes); returns its length.
pub(crate) fn mark(out: &mut [u8], origin: Option<Origin>) -> usize {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    match origin {
        None => {
            out[0] = NO_ORIGIN;
            1
        }
        Some(Origin(o)) => {
            out[0] = WITH_ORIGIN;
            for (i, b) in out[1..RX_MARK].iter_mut().enumerate() {
                *b = HEX[((o >> (28 - 4 * i)) & 15) as usize];
            }
            RX_MARK
        }
    }
}

/// The length of the mark `mark` writes for `origin`.
pub(crate) fn mark_len(origin: Option<Origin>) -> usize {
    if origin.is_some() { RX_MARK } else { 1 }
}

/// Splits a received line into its origin and the frame. A line without a mark (fed as
/// a byte stream) has no origin.
pub(crate) fn untag(line: &[u8]) -> (Option<Origin>, &[u8]) {
    match line.first() {
        Some(&NO_ORIGIN) => (None, &line[1..]),
        Some(&WITH_ORIGIN) if line.len() >= RX_MARK => {
            let mut o = 0u32;
            for &c in &line[1..RX_MARK] {
                let d = match c {
                    b'0'..=b'9' => c - b'0',
                    b'a'..=b'f' => c - b'a' + 10,
                    _ => return (None, line),
                };
                o = o << 4 | u32::from(d);
            }
            (Some(Origin(o)), &line[RX_MARK..])
        }
        _ => (None, line),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_round_trip() {
        for origin in [None, Some(Origin(0)), Some(Origin(0x1234_abcd)), Some(Origin(u32::MAX))] {
            let mut line = [0u8; RX_MARK + 2];
            let n = mark(&mut line, origin);
            assert_eq!(n, mark_len(origin));
            line[n..n + 2].copy_from_slice(b"{}");
            assert_eq!(untag(&line[..n + 2]), (origin, &b"{}"[..]));
        }
        assert_eq!(untag(b"{}"), (None, &b"{}"[..]));
    }

    #[test]
    fn message_mode_hands_out_one_message_at_a_time_and_the_rest_of_a_partial_one() {
        let mut buf = [0u8; 128];
        let mut out = Outbox::new(&mut buf, OutputMode::Messages);
        out.to(Some(Origin(7))).notification("a", crate::wire::NO_PARAMS).unwrap();
        out.to(None).notification("b", crate::wire::NO_PARAMS).unwrap();
        let t = out.transmit();
        assert_eq!((&*t, t.origin), (&br#"{"jsonrpc":"2.0","method":"a"}"#[..], Some(Origin(7))));
        out.sent(10);
        out.release();
        let t = out.transmit();
        assert_eq!((&*t, t.origin), (&br#":"2.0","method":"a"}"#[..], Some(Origin(7))));
        out.release();
        let t = out.transmit();
        assert_eq!((&*t, t.origin), (&br#"{"jsonrpc":"2.0","method":"b"}"#[..], None));
        out.release();
        assert!(out.is_empty());
        assert_eq!(out.available(), 128);
    }
}
