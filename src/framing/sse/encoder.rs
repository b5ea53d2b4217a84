//! Writing events into a caller-provided buffer, whole or not at all.

use core::fmt;
use core::ops::Range;

use super::error::SseWriteError;

/// Appends `text/event-stream` events to a caller-provided buffer.
///
/// The contract is [`FrameWriter`](crate::wire::FrameWriter)'s: an event either fits
/// completely or nothing is written, and the error says how many bytes it needs, so the
/// caller can flush and try again. Every event ends with its blank line, so whatever has
/// been written can be sent as it stands.
///
/// ```
/// use mcp_sansio::framing::sse::{SseWriter, SseWriteError};
/// let mut buf = [0u8; 128];
/// let mut w = SseWriter::new(&mut buf);
/// w.priming("s1-0", Some(2000)).unwrap();
/// w.message(None, Some("s1-1"), br#"{"jsonrpc":"2.0","method":"ping","id":1}"#).unwrap();
/// w.comment("keep-alive").unwrap();
/// assert_eq!(
///     w.as_bytes(),
///     b"id: s1-0\nretry: 2000\ndata: \n\n\
///       id: s1-1\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":1}\n\n\
///       : keep-alive\n\n"
/// );
///
/// let mut small = [0u8; 8];
/// let mut w = SseWriter::new(&mut small);
/// assert_eq!(w.message(None, None, b"{}"), Err(SseWriteError::BufferTooSmall { needed: 10, available: 8 }));
/// assert!(w.is_empty());
/// ```
pub struct SseWriter<'b> {
    buf: &'b mut [u8],
    len: usize,
}

impl fmt::Debug for SseWriter<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SseWriter").field("len", &self.len).field("capacity", &self.buf.len()).finish()
    }
}

impl<'b> SseWriter<'b> {
    /// A writer appending to `buf`.
    pub fn new(buf: &'b mut [u8]) -> Self {
        Self { buf, len: 0 }
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing is written.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The buffer's size.
    pub fn capacity(&self) -> usize {
        self.buf.len()
    }

    /// Bytes still free.
    pub fn available(&self) -> usize {
        self.buf.len() - self.len
    }

    /// Everything written so far.
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }

    /// Forgets everything written.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Drops the first `n` written bytes (after a partial write to a socket), moving the
    /// rest to the front.
    pub fn consume(&mut self, n: usize) {
        let n = n.min(self.len);
        crate::wire::shift::copy_within(&mut self.buf[..], n..self.len, 0);
        self.len -= n;
    }

    /// An event carrying `data`: `event:` and `id:` lines when given, then one `data:`
    /// line per line of `data`. Line breaks in `data` (CR, LF or CRLF) start a new
    /// `data:` line, so a receiver gets the same text back with every line break as LF;
    /// compact JSON has none and takes one line. Returns where the event was written.
    pub fn message(
        &mut self,
        event: Option<&str>,
        id: Option<&str>,
        data: &[u8],
    ) -> Result<Range<usize>, SseWriteError> {
        if let Some(event) = event {
            check_line("event", event.as_bytes(), false)?;
        }
        if let Some(id) = id {
            check_line("id", id.as_bytes(), true)?;
        }
        let (lines, bytes) = data_lines(data).fold((0, 0), |(n, b), l| (n + 1, b + l.len()));
        let needed = event.map_or(0, |e| field_len("event", e.as_bytes()))
            + id.map_or(0, |i| field_len("id", i.as_bytes()))
            + lines * b"data: \n".len()
            + bytes
            + 1;
        self.write(needed, |out| {
            if let Some(event) = event {
                out.field(b"event", event.as_bytes());
            }
            if let Some(id) = id {
                out.field(b"id", id.as_bytes());
            }
            for line in data_lines(data) {
                out.field(b"data", line);
            }
        })
    }

    /// The priming event a 2025-11-25 server sends first on a stream: an id and empty
    /// data (`id: X`, `data: `), which a client records for `Last-Event-ID` and does not
    /// take as a message; with `retry` the reconnection time too, which a server should
    /// set before it closes a connection it means the client to resume.
    pub fn priming(&mut self, id: &str, retry: Option<u32>) -> Result<Range<usize>, SseWriteError> {
        check_line("id", id.as_bytes(), true)?;
        let mut digits = [0u8; 10];
        let retry = retry.map(|ms| decimal(ms, &mut digits));
        let needed = field_len("id", id.as_bytes()) + retry.map_or(0, |r| field_len("retry", r)) + b"data: \n\n".len();
        self.write(needed, |out| {
            out.field(b"id", id.as_bytes());
            if let Some(retry) = retry {
                out.field(b"retry", retry);
            }
            out.field(b"data", b"");
        })
    }

    /// A `retry: <ms>` block: the time a client waits before reconnecting. It dispatches
    /// nothing.
    pub fn retry(&mut self, ms: u32) -> Result<Range<usize>, SseWriteError> {
        let mut digits = [0u8; 10];
        let retry = decimal(ms, &mut digits);
        self.write(field_len("retry", retry) + 1, |out| out.field(b"retry", retry))
    }

    /// A comment (`: text`, or `:` for empty text) followed by a blank line: the
    /// keep-alive that stops proxies and clients from closing an idle stream. Receivers
    /// ignore it.
    pub fn comment(&mut self, text: &str) -> Result<Range<usize>, SseWriteError> {
        check_line("comment", text.as_bytes(), false)?;
        let needed = if text.is_empty() { b":\n\n".len() } else { b": \n\n".len() + text.len() };
        self.write(needed, |out| {
            if text.is_empty() {
                out.put(b":\n");
            } else {
                out.field(b"", text.as_bytes());
            }
        })
    }

    /// Writes `needed` bytes with `body`, then the blank line, or nothing at all.
    fn write(&mut self, needed: usize, body: impl FnOnce(&mut Out<'_>)) -> Result<Range<usize>, SseWriteError> {
        let available = self.available();
        if needed > available {
            return Err(SseWriteError::BufferTooSmall { needed, available });
        }
        let start = self.len;
        let mut out = Out { buf: &mut self.buf[start..start + needed], at: 0 };
        body(&mut out);
        out.put(b"\n");
        debug_assert_eq!(out.at, needed, "size computed for an event differs from what was written");
        self.len = start + needed;
        Ok(start..self.len)
    }
}

/// A cursor over exactly the bytes an event was measured to need.
struct Out<'a> {
    buf: &'a mut [u8],
    at: usize,
}

impl Out<'_> {
    fn put(&mut self, bytes: &[u8]) {
        // The event was measured first; `get_mut` keeps a mismatch from panicking in release.
        if let Some(dst) = self.buf.get_mut(self.at..self.at + bytes.len()) {
            dst.copy_from_slice(bytes);
        }
        self.at += bytes.len();
    }

    /// `name: value\n`.
    fn field(&mut self, name: &[u8], value: &[u8]) {
        self.put(name);
        self.put(b": ");
        self.put(value);
        self.put(b"\n");
    }
}

/// Bytes of `name: value\n`.
fn field_len(name: &str, value: &[u8]) -> usize {
    name.len() + 2 + value.len() + 1
}

fn check_line(field: &'static str, text: &[u8], is_id: bool) -> Result<(), SseWriteError> {
    let bad = |b: &u8| *b == b'\r' || *b == b'\n' || (is_id && *b == 0);
    if text.iter().any(bad) { Err(SseWriteError::InvalidField { field }) } else { Ok(()) }
}

/// The lines of `data`, split at CRLF, CR or LF; empty data is one empty line.
fn data_lines(data: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = Some(data);
    core::iter::from_fn(move || {
        let text = rest?;
        match text.iter().position(|&b| b == b'\r' || b == b'\n') {
            Some(i) => {
                let skip = if text[i] == b'\r' && text.get(i + 1) == Some(&b'\n') { 2 } else { 1 };
                rest = Some(&text[i + skip..]);
                Some(&text[..i])
            }
            None => {
                rest = None;
                Some(text)
            }
        }
    })
}

/// `n` in decimal, in `digits`.
fn decimal(mut n: u32, digits: &mut [u8; 10]) -> &[u8] {
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return &digits[at..];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(f: impl FnOnce(&mut SseWriter<'_>) -> Result<Range<usize>, SseWriteError>) -> Vec<u8> {
        let mut buf = [0u8; 256];
        let mut w = SseWriter::new(&mut buf);
        let range = f(&mut w).unwrap();
        assert_eq!(range, 0..w.len());
        w.as_bytes().to_vec()
    }

    #[test]
    fn events() {
        assert_eq!(written(|w| w.message(None, None, b"{}")), b"data: {}\n\n");
        assert_eq!(
            written(|w| w.message(Some("endpoint"), None, b"/messages?sessionId=1")),
            b"event: endpoint\ndata: /messages?sessionId=1\n\n"
        );
        assert_eq!(written(|w| w.message(Some("message"), Some("7"), b"x")), b"event: message\nid: 7\ndata: x\n\n");
        assert_eq!(written(|w| w.message(None, None, b"")), b"data: \n\n");
        assert_eq!(
            written(|w| w.message(None, None, b"a\nb\r\nc\rd\n")),
            b"data: a\ndata: b\ndata: c\ndata: d\ndata: \n\n"
        );
        // An id may be empty: it resets the receiver's last event id.
        assert_eq!(written(|w| w.message(None, Some(""), b"x")), b"id: \ndata: x\n\n");
        assert_eq!(written(|w| w.priming("p", None)), b"id: p\ndata: \n\n");
        assert_eq!(written(|w| w.priming("p", Some(0))), b"id: p\nretry: 0\ndata: \n\n");
        assert_eq!(written(|w| w.retry(u32::MAX)), b"retry: 4294967295\n\n");
        assert_eq!(written(|w| w.comment("")), b":\n\n");
        assert_eq!(written(|w| w.comment("ping")), b": ping\n\n");
    }

    #[test]
    fn refusals_write_nothing() {
        let mut buf = [0u8; 64];
        let mut w = SseWriter::new(&mut buf);
        w.comment("x").unwrap();
        let before = w.as_bytes().to_vec();
        assert_eq!(w.message(Some("a\nb"), None, b""), Err(SseWriteError::InvalidField { field: "event" }));
        assert_eq!(w.message(None, Some("1\r"), b""), Err(SseWriteError::InvalidField { field: "id" }));
        assert_eq!(w.priming("\0", None), Err(SseWriteError::InvalidField { field: "id" }));
        assert_eq!(w.comment("a\nb"), Err(SseWriteError::InvalidField { field: "comment" }));
        // A NUL is only a problem in an id.
        assert!(w.message(Some("\0"), None, b"").is_ok());
        w.clear();
        w.comment("x").unwrap();
        let big = [b'x'; 60];
        assert_eq!(w.message(None, None, &big), Err(SseWriteError::BufferTooSmall { needed: 68, available: 59 }));
        assert_eq!(w.as_bytes(), &before[..]);
        // Exactly full is fine.
        assert_eq!(w.message(None, None, &big[..51]), Ok(5..64));
        assert_eq!(w.retry(1), Err(SseWriteError::BufferTooSmall { needed: 10, available: 0 }));
        w.consume(5);
        assert!(w.as_bytes().starts_with(b"data: xxx"));
    }
}
