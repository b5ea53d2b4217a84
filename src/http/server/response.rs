//! Response parts written into the caller's buffer: a status, header fields, and a body
//! when the whole response is known at once.
//!
//! The header fields are kept as HTTP/1.1 field lines (`Name: value\r\n`), so a socket
//! adapter writes them after its status line as they are, and a hyper or axum adapter
//! iterates them as `(name, value)` pairs.

use core::fmt;

/// Why a response was not written: the caller's buffer is too small. Nothing usable was
/// written; [`MIN_RESPONSE_BUFFER`] bytes always hold every response the core writes
/// on its own, unless the configured challenge or paths are longer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct BufferTooSmall {
    /// Bytes the response needs (at least).
    pub needed: usize,
    /// Bytes the buffer has.
    pub capacity: usize,
}

impl fmt::Display for BufferTooSmall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "response buffer too small: need {} bytes, have {}", self.needed, self.capacity)
    }
}

impl core::error::Error for BufferTooSmall {}

/// A response buffer of this size holds every response head and refusal the core
/// writes, with a session id of up to 256 bytes, as long as the configured challenge
/// (`resource_metadata`, `scope`) and the legacy POST path stay under 256 bytes each.
pub const MIN_RESPONSE_BUFFER: usize = 1536;

/// One response: status, header fields, and the body when it is complete. A streamed
/// response (SSE, or JSON that is not ready yet) has an empty `body` here; its bytes
/// come from the server's `read`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Response<'o> {
    /// The status code.
    pub status: u16,
    fields: &'o [u8],
    /// The body, when the response is complete.
    pub body: &'o [u8],
}

impl fmt::Debug for Response<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("Response");
        d.field("status", &self.status);
        for (name, value) in self.headers() {
            d.field(name, &value);
        }
        d.field("body", &core::str::from_utf8(self.body).unwrap_or("<binary>")).finish()
    }
}

impl<'o> Response<'o> {
    /// The header fields, in order.
    pub fn headers(&self) -> impl Iterator<Item = (&'o str, &'o str)> + 'o {
        let text = core::str::from_utf8(self.fields).unwrap_or("");
        text.split_terminator("\r\n").filter_map(|line| line.split_once(": "))
    }

    /// The value of the first field called `name` (ignoring ASCII case).
    pub fn header(&self, name: &str) -> Option<&'o str> {
        self.headers().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v)
    }

    /// The header fields as HTTP/1.1 field lines, each ending in CRLF (no blank line).
    pub fn field_lines(&self) -> &'o [u8] {
        self.fields
    }

    /// The standard reason phrase of the status, for an HTTP/1.1 status line.
    pub fn reason(&self) -> &'static str {
        reason(self.status)
    }
}

/// The reason phrase of the statuses the core uses.
pub fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        202 => "Accepted",
        204 => "No Content",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        406 => "Not Acceptable",
        413 => "Content Too Large",
        415 => "Unsupported Media Type",
        503 => "Service Unavailable",
        _ => "",
    }
}

/// Writes a response into a buffer: status, then fields, then optionally a body. Once
/// something does not fit, nothing more is written but the size is still counted, so
/// the error says how much the whole response needs.
pub(crate) struct ResponseWriter<'o> {
    buf: &'o mut [u8],
    len: usize,
    /// Bytes the response needs; equal to `len` while everything fitted.
    needed: usize,
    status: u16,
}

impl<'o> ResponseWriter<'o> {
    pub(crate) fn new(buf: &'o mut [u8], status: u16) -> Self {
        Self { buf, len: 0, needed: 0, status }
    }

    fn fits(&self) -> bool {
        self.len == self.needed
    }

    fn put(&mut self, bytes: &[u8]) {
        self.write_with(|out| match out.get_mut(..bytes.len()) {
            Some(dst) => {
                dst.copy_from_slice(bytes);
                Ok(bytes.len())
            }
            None => Err(bytes.len()),
        });
    }

    /// Lets `f` write into the free space: `Ok(written)` or `Err(needed)`.
    fn write_with(&mut self, f: impl FnOnce(&mut [u8]) -> Result<usize, usize>) {
        let fits = self.fits();
        let spare: &mut [u8] = if fits { &mut self.buf[self.len..] } else { &mut [] };
        match f(spare) {
            Ok(n) => {
                if fits {
                    self.len += n;
                }
                self.needed += n;
            }
            Err(n) => self.needed += n,
        }
    }

    /// Appends `name: value` (the caller guarantees neither holds CR or LF).
    pub(crate) fn header(&mut self, name: &str, value: &[u8]) -> &mut Self {
        self.header_with(name, |out| match out.get_mut(..value.len()) {
            Some(dst) => {
                dst.copy_from_slice(value);
                Ok(value.len())
            }
            None => Err(value.len()),
        })
    }

    /// Appends a field whose value `f` writes into the free space (`Ok(written)` or
    /// `Err(needed)`).
    pub(crate) fn header_with(&mut self, name: &str, f: impl FnOnce(&mut [u8]) -> Result<usize, usize>) -> &mut Self {
        self.put(name.as_bytes());
        self.put(b": ");
        self.write_with(f);
        self.put(b"\r\n");
        self
    }

    /// Appends a decimal field value.
    pub(crate) fn header_u64(&mut self, name: &str, n: u64) -> &mut Self {
        let mut digits = [0u8; 20];
        let text = decimal(n, &mut digits);
        self.header(name, text)
    }

    /// Finishes with a body that `f` writes into the free space (`Ok(written)` or
    /// `Err(needed)`).
    pub(crate) fn finish_with(
        mut self,
        f: impl FnOnce(&mut [u8]) -> Result<usize, usize>,
    ) -> Result<Response<'o>, BufferTooSmall> {
        let fields_end = self.len;
        self.write_with(f);
        if !self.fits() {
            return Err(BufferTooSmall { needed: self.needed, capacity: self.buf.len() });
        }
        let (fields, rest) = self.buf.split_at(fields_end);
        Ok(Response { status: self.status, fields, body: &rest[..self.len - fields_end] })
    }

    /// Finishes without a body.
    pub(crate) fn finish(self) -> Result<Response<'o>, BufferTooSmall> {
        self.finish_with(|_| Ok(0))
    }
}

/// The head of a 200 response once its body kind is decided: `Content-Type`, the
/// SSE fields that stop proxies from buffering or cutting the stream
/// (`Cache-Control: no-cache`, `X-Accel-Buffering: no`), `Content-Length` for JSON,
/// and `Mcp-Session-Id` when given (on the response that carries the `InitializeResult`,
/// or always: clients ignore it elsewhere).
///
/// ```
/// use mcp_sansio::http::server::{BodyKind, ok_head};
/// let mut out = [0u8; 256];
/// let head = ok_head(BodyKind::Sse, Some("abc"), &mut out).unwrap();
/// assert_eq!(head.status, 200);
/// assert_eq!(head.header("content-type"), Some("text/event-stream"));
/// assert_eq!(head.header("x-accel-buffering"), Some("no"));
/// assert_eq!(head.header("mcp-session-id"), Some("abc"));
/// ```
pub fn ok_head<'o>(
    kind: super::streams::BodyKind,
    session_id: Option<&str>,
    out: &'o mut [u8],
) -> Result<Response<'o>, BufferTooSmall> {
    let mut w = ResponseWriter::new(out, 200);
    match kind {
        super::streams::BodyKind::Json { len } => {
            w.header("Content-Type", b"application/json").header_u64("Content-Length", len as u64);
        }
        super::streams::BodyKind::Sse => {
            w.header("Content-Type", b"text/event-stream")
                .header("Cache-Control", b"no-cache")
                .header("X-Accel-Buffering", b"no");
        }
    }
    if let Some(id) = session_id.filter(|id| id.bytes().all(|b| (0x21..=0x7E).contains(&b))) {
        w.header("Mcp-Session-Id", id.as_bytes());
    }
    w.finish()
}

/// The 202 of a POST that held only notifications and responses (no body), or of a
/// legacy POST; and the 200 of a DELETE that ended a session (`status` 200).
pub fn empty_response(status: u16, out: &mut [u8]) -> Result<Response<'_>, BufferTooSmall> {
    ResponseWriter::new(out, status).finish()
}

/// `n` in decimal, in `digits`.
pub(crate) fn decimal(mut n: u64, digits: &mut [u8; 20]) -> &[u8] {
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

    #[test]
    fn writes_and_reads_back() {
        let mut buf = [0u8; 128];
        let mut w = ResponseWriter::new(&mut buf, 405);
        w.header("Allow", b"GET, POST").header_u64("Retry-After", 30);
        let r = w.finish_with(|out| out.get_mut(..2).map(|d| d.copy_from_slice(b"{}")).map(|_| 2).ok_or(2));
        let r = r.unwrap();
        assert_eq!(r.status, 405);
        assert_eq!(r.field_lines(), b"Allow: GET, POST\r\nRetry-After: 30\r\n");
        assert_eq!(r.headers().collect::<std::vec::Vec<_>>(), [("Allow", "GET, POST"), ("Retry-After", "30")]);
        assert_eq!(r.header("allow"), Some("GET, POST"));
        assert_eq!(r.body, b"{}");
        assert_eq!(r.reason(), "Method Not Allowed");
    }

    #[test]
    fn too_small_says_how_much() {
        let mut buf = [0u8; 10];
        let mut w = ResponseWriter::new(&mut buf, 200);
        w.header("Content-Type", b"application/json");
        assert_eq!(w.finish().unwrap_err(), BufferTooSmall { needed: 32, capacity: 10 });
        let mut buf = [0u8; 10];
        let w = ResponseWriter::new(&mut buf, 200);
        assert_eq!(w.finish_with(|out| Err(out.len() + 5)).unwrap_err(), BufferTooSmall { needed: 15, capacity: 10 });
    }
}
