//! Writing JSON-RPC messages into a caller-provided buffer.
//!
//! A [`FrameWriter`] appends whole frames to a byte slice. A frame either fits completely
//! or is not written: on [`EncodeError::BufferTooSmall`] the writer's length and every byte
//! of its content are exactly as before, and the error says how many bytes the frame needs,
//! so the caller can flush or grow and try again. Bytes past [`FrameWriter::len`] are the
//! writer's scratch space and hold nothing meaningful.
//!
//! Frames never contain a raw newline (strings are escaped, raw JSON has its line breaks
//! turned into spaces), so newline-terminated output is valid stdio framing as it stands.

use core::fmt;
use core::ops::Range;

use serde::Serialize;

use super::codes::ErrorCode;
use super::id::RequestIdRef;
use super::raw::RawJson;
use super::ser::{Out, SerializeError, to_out};

/// Pass as `params` for a message without params: `w.request(id, "ping", NO_PARAMS)`.
pub const NO_PARAMS: Option<&RawJson<'static>> = None;

/// The `id` of an error response.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ErrorId<'a> {
    /// The id of the request that failed.
    Id(RequestIdRef<'a>),
    /// `"id": null`: JSON-RPC 2.0's form for "the request id could not be read", and what
    /// protocol versions up to 2025-06-18 expect.
    Null,
    /// No `id` member: the 2025-11-25 schema's form for the same thing.
    Omitted,
}

impl<'a> From<RequestIdRef<'a>> for ErrorId<'a> {
    fn from(id: RequestIdRef<'a>) -> Self {
        ErrorId::Id(id)
    }
}

impl<'a> From<Option<RequestIdRef<'a>>> for ErrorId<'a> {
    /// `None` becomes [`ErrorId::Null`].
    fn from(id: Option<RequestIdRef<'a>>) -> Self {
        id.map_or(ErrorId::Null, ErrorId::Id)
    }
}

/// Why a frame was not written. In every case nothing was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum EncodeError {
    /// The frame needs `needed` bytes (its terminator included) and only `available` are free.
    BufferTooSmall {
        /// Bytes the frame needs: exact, except for a progress-token request whose params
        /// did not fit at all, where it is a size sure to suffice (the token's position
        /// in the params is not known yet).
        needed: usize,
        /// Bytes free in the buffer.
        available: usize,
    },
    /// `params` or `result` did not serialize to a JSON object, which MCP requires.
    NotAnObject,
    /// The params already carry `_meta.progressToken`; the endpoint assigns the token.
    ProgressTokenPresent,
    /// The value could not be serialized.
    Serialize(SerializeError),
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::BufferTooSmall { needed, available } => {
                write!(f, "buffer too small: frame needs {needed} bytes, {available} free; nothing was written")
            }
            Self::NotAnObject => f.write_str("params and results must serialize to a JSON object"),
            Self::ProgressTokenPresent => f.write_str("params already carry _meta.progressToken"),
            Self::Serialize(e) => write!(f, "cannot serialize: {e}"),
        }
    }
}

impl core::error::Error for EncodeError {}

impl From<SerializeError> for EncodeError {
    fn from(e: SerializeError) -> Self {
        EncodeError::Serialize(e)
    }
}

/// Appends JSON-RPC frames to a caller-provided buffer.
///
/// ```
/// use mcp_sansio::wire::{ErrorCode, ErrorId, FrameWriter, RequestId, NO_PARAMS};
/// let mut buf = [0u8; 256];
/// let mut w = FrameWriter::new(&mut buf);
/// let id = RequestId::from_u64(1);
/// w.request(id.as_ref(), "ping", NO_PARAMS).unwrap();
/// w.error(ErrorId::Null, ErrorCode::PARSE_ERROR, "Parse error").unwrap();
/// assert_eq!(
///     w.as_bytes(),
///     b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n\
///       {\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}\n"
/// );
///
/// let mut small = [0u8; 16];
/// let mut w = FrameWriter::new(&mut small);
/// let err = w.request(id.as_ref(), "ping", NO_PARAMS).unwrap_err();
/// assert_eq!(err.to_string(), "buffer too small: frame needs 41 bytes, 16 free; nothing was written");
/// assert!(w.is_empty());
/// ```
pub struct FrameWriter<'b> {
    buf: &'b mut [u8],
    len: usize,
    framing: Framing,
}

impl fmt::Debug for FrameWriter<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FrameWriter").field("len", &self.len).field("capacity", &self.buf.len()).finish()
    }
}

const JSONRPC: &[u8] = b"{\"jsonrpc\":\"2.0\"";

/// What goes around each frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Framing {
    /// A newline after each frame (stdio).
    Newline,
    /// Nothing: frames back to back (one frame per HTTP body or SSE event).
    Bare,
    /// A [`TAG_HEADER`]-byte header before each frame: its length and a tag (the
    /// session's message mode, which hands out one frame at a time with its origin).
    Tagged,
}

/// The header of a [`Framing::Tagged`] frame: the body's length (u32, little-endian),
/// whether a tag is present (one byte) and the tag (u32, little-endian).
pub(crate) const TAG_HEADER: usize = 9;

/// Reads the header of the tagged frame at the start of `bytes`: the body's length and
/// the tag.
pub(crate) fn read_tag(bytes: &[u8]) -> Option<(usize, Option<u32>)> {
    let h = bytes.get(..TAG_HEADER)?;
    let len = u32::from_le_bytes([h[0], h[1], h[2], h[3]]) as usize;
    let tag = u32::from_le_bytes([h[5], h[6], h[7], h[8]]);
    Some((len, (h[4] != 0).then_some(tag)))
}

impl<'b> FrameWriter<'b> {
    /// A writer that ends every frame with `\n` (stdio framing).
    pub fn new(buf: &'b mut [u8]) -> Self {
        Self { buf, len: 0, framing: Framing::Newline }
    }

    /// A writer that puts nothing between frames (one frame per HTTP body or SSE event).
    pub fn unterminated(buf: &'b mut [u8]) -> Self {
        Self { buf, len: 0, framing: Framing::Bare }
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

    /// Drops the first `n` written bytes (for example after a partial write to a socket),
    /// moving the rest to the front.
    pub fn consume(&mut self, n: usize) {
        let n = n.min(self.len);
        super::shift::copy_within(self.buf, n..self.len, 0);
        self.len -= n;
    }

    fn view(&mut self) -> FrameView<'_> {
        FrameView::new(self.buf, &mut self.len, self.framing, None)
    }

    /// A request: `{"jsonrpc":"2.0","id":…,"method":…,"params":…}`.
    pub fn request<P: Serialize + ?Sized>(
        &mut self,
        id: RequestIdRef<'_>,
        method: &str,
        params: Option<&P>,
    ) -> Result<Range<usize>, EncodeError> {
        self.view().request(id, method, params)
    }

    /// A request whose params carry `_meta.progressToken`: the token is added to the
    /// params' `_meta` object (created if absent), whatever `P` is. Fails with
    /// [`EncodeError::ProgressTokenPresent`] if `P` already sets a progress token, and
    /// with [`EncodeError::NotAnObject`] if `P` has a `_meta` that is not an object.
    pub fn request_with_progress_token<P: Serialize + ?Sized>(
        &mut self,
        id: RequestIdRef<'_>,
        method: &str,
        params: Option<&P>,
        token: RequestIdRef<'_>,
    ) -> Result<Range<usize>, EncodeError> {
        self.view().request_with_progress_token(id, method, params, token)
    }

    /// A notification: `{"jsonrpc":"2.0","method":…,"params":…}`.
    pub fn notification<P: Serialize + ?Sized>(
        &mut self,
        method: &str,
        params: Option<&P>,
    ) -> Result<Range<usize>, EncodeError> {
        self.view().notification(method, params)
    }

    /// A result response; `result` must serialize to an object.
    pub fn result<R: Serialize + ?Sized>(
        &mut self,
        id: RequestIdRef<'_>,
        result: &R,
    ) -> Result<Range<usize>, EncodeError> {
        self.view().result(id, result)
    }

    /// An error response without `data`.
    pub fn error(&mut self, id: ErrorId<'_>, code: ErrorCode, message: &str) -> Result<Range<usize>, EncodeError> {
        self.view().error_with_data(id, code, message, None::<&RawJson<'_>>)
    }

    /// An error response with `data`.
    pub fn error_with_data<D: Serialize + ?Sized>(
        &mut self,
        id: ErrorId<'_>,
        code: ErrorCode,
        message: &str,
        data: &D,
    ) -> Result<Range<usize>, EncodeError> {
        self.view().error_with_data(id, code, message, Some(data))
    }

    /// Any JSON value as one frame.
    pub fn value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<Range<usize>, EncodeError> {
        self.view().push(|out| to_out(out, value).map_err(EncodeError::from))
    }

    /// Starts a batch response (protocol 2025-03-26): responses added to the returned
    /// writer become one JSON array frame when it is finished.
    pub fn batch(&mut self) -> BatchWriter<'_, 'b> {
        let start = self.len;
        BatchWriter { writer: self, start, end: start, finished: false }
    }
}

/// A frame's body being written, for code outside the encoder that assembles one
/// itself: the session's `initialize` exchange, whose typed parts are serialized
/// through function pointers made only where a typed value is given (so that their
/// serializers are linked only into programs that use them).
pub(crate) struct JsonOut<'x, 'o> {
    out: &'x mut Out<'o>,
}

impl JsonOut<'_, '_> {
    /// JSON text written as it is (a constant fragment).
    pub(crate) fn put(&mut self, bytes: &[u8]) {
        self.out.put(bytes);
    }

    /// A validated JSON value, its line breaks turned into spaces.
    pub(crate) fn raw(&mut self, json: &[u8]) {
        self.out.raw_json(json);
    }

    /// A string, quoted and escaped.
    pub(crate) fn string(&mut self, s: &str) {
        self.out.escaped_str(s);
    }

    /// An unsigned integer.
    pub(crate) fn u64(&mut self, v: u64) {
        self.out.u64(v);
    }

    /// Any value, through serde.
    pub(crate) fn value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), EncodeError> {
        to_out(self.out, value).map_err(EncodeError::from)
    }
}

/// Frames appended to a buffer whose length is kept elsewhere: how [`FrameWriter`] and
/// the session write. Each frame is written whole or not at all; in [`Framing::Tagged`]
/// it carries `tag` in its header.
pub(crate) struct FrameView<'w> {
    buf: &'w mut [u8],
    len: &'w mut usize,
    framing: Framing,
    /// The tag, unpacked so that a view stays small (it sits in every request handle).
    tagged: bool,
    tag: u32,
}

impl<'w> FrameView<'w> {
    /// Appends to `buf[..*len]`.
    pub(crate) fn new(buf: &'w mut [u8], len: &'w mut usize, framing: Framing, tag: Option<u32>) -> Self {
        Self { buf, len, framing, tagged: tag.is_some(), tag: tag.unwrap_or(0) }
    }

    /// The tag frames carry.
    pub(crate) fn tag(&self) -> Option<u32> {
        self.tagged.then_some(self.tag)
    }

    /// The buffer's size.
    pub(crate) fn capacity(&self) -> usize {
        self.buf.len()
    }

    /// Appends one frame produced by `body`, or nothing.
    fn push(
        &mut self,
        body: impl FnOnce(&mut Out<'_>) -> Result<(), EncodeError>,
    ) -> Result<Range<usize>, EncodeError> {
        let start = *self.len;
        let body_start = start + if self.framing == Framing::Tagged { TAG_HEADER } else { 0 };
        let mut out = Out::at(self.buf, body_start);
        body(&mut out)?;
        // 64-bit hosts: the rest out of line (see `finish`); microcontrollers: as it was.
        #[cfg(mcp_sansio_wide)]
        {
            let (end, overflowed) = (out.len(), out.overflowed());
            self.finish(start, end, overflowed)
        }
        #[cfg(not(mcp_sansio_wide))]
        {
            if self.framing == Framing::Newline {
                out.byte(b'\n');
            }
            if out.overflowed() {
                return Err(EncodeError::BufferTooSmall {
                    needed: out.len() - start,
                    available: self.buf.len() - start,
                });
            }
            let end = out.len();
            self.seal(start, end);
            Ok(start..end)
        }
    }

    /// [`push`](Self::push)'s end on 64-bit hosts: the line break, the room check, the
    /// header. Inlined, it was copied into every frame kind's push (63 copies, ~46 KB in
    /// a server binary); out of line it costs a call per frame. Microcontrollers keep the
    /// inlined form, whose code size was measured as it is.
    #[cfg(mcp_sansio_wide)]
    #[inline(never)]
    fn finish(&mut self, start: usize, mut end: usize, mut overflowed: bool) -> Result<Range<usize>, EncodeError> {
        if self.framing == Framing::Newline {
            match self.buf.get_mut(end) {
                Some(b) if !overflowed => *b = b'\n',
                _ => overflowed = true,
            }
            end += 1;
        }
        if overflowed {
            return Err(EncodeError::BufferTooSmall { needed: end - start, available: self.buf.len() - start });
        }
        self.seal(start, end);
        Ok(start..end)
    }

    /// Writes the header of the frame at `start..end` (tagged framing) and takes it.
    fn seal(&mut self, start: usize, end: usize) {
        if self.framing == Framing::Tagged {
            let h = &mut self.buf[start..start + TAG_HEADER];
            h[..4].copy_from_slice(&((end - start - TAG_HEADER) as u32).to_le_bytes());
            h[4] = u8::from(self.tagged);
            h[5..].copy_from_slice(&self.tag.to_le_bytes());
        }
        *self.len = end;
    }

    pub(crate) fn request<P: Serialize + ?Sized>(
        &mut self,
        id: RequestIdRef<'_>,
        method: &str,
        params: Option<&P>,
    ) -> Result<Range<usize>, EncodeError> {
        self.push(|out| {
            out.put(JSONRPC);
            out.put(b",\"id\":");
            out.raw_json(id.as_token());
            method_and_params(out, method, params)
        })
    }

    /// See [`FrameWriter::request_with_progress_token`].
    pub(crate) fn request_with_progress_token<P: Serialize + ?Sized>(
        &mut self,
        id: RequestIdRef<'_>,
        method: &str,
        params: Option<&P>,
        token: RequestIdRef<'_>,
    ) -> Result<Range<usize>, EncodeError> {
        let capacity = self.buf.len();
        let start = *self.len;
        let body_start = start + if self.framing == Framing::Tagged { TAG_HEADER } else { 0 };
        let mut out = Out::at(self.buf, body_start);
        out.put(JSONRPC);
        out.put(b",\"id\":");
        out.raw_json(id.as_token());
        out.put(b",\"method\":");
        out.escaped_str(method);
        out.put(b",\"params\":");
        let params_at = out.len();
        match params {
            Some(p) => object(&mut out, p)?,
            None => out.put(b"{}"),
        }
        let params_end = out.len();
        out.byte(b'}');
        if self.framing == Framing::Newline {
            out.byte(b'\n');
        }
        // Where the token goes, and what to insert there.
        let mut insert = [0u8; 30 + super::id::MAX_ID_LEN];
        let (at, n) = {
            let written = out.written();
            let params_text = written.map(|w| &w[params_at..params_end]);
            match params_text.map(|p| RawJson::from_validated(p).get("_meta")) {
                Some(Some(meta)) if meta.get("progressToken").is_some() => {
                    return Err(EncodeError::ProgressTokenPresent);
                }
                Some(Some(meta)) if meta.is_object() => {
                    // Inside the existing `_meta` object.
                    let meta_at = meta.as_bytes().as_ptr() as usize - written.map_or(0, |w| w.as_ptr() as usize);
                    let empty = meta.members().next().is_none();
                    let mut o = Out::new(&mut insert);
                    o.put(b"\"progressToken\":");
                    o.raw_json(token.as_token());
                    if !empty {
                        o.byte(b',');
                    }
                    (meta_at + 1, o.len())
                }
                // A `_meta` that is not an object cannot take the token, and a second
                // `_meta` member would make the params ambiguous.
                Some(Some(_)) => return Err(EncodeError::NotAnObject),
                _ => {
                    let empty = params_text.is_none_or(|p| RawJson::from_validated(p).members().next().is_none());
                    let mut o = Out::new(&mut insert);
                    o.put(b"\"_meta\":{\"progressToken\":");
                    o.raw_json(token.as_token());
                    o.byte(b'}');
                    if !empty {
                        o.byte(b',');
                    }
                    (params_at + 1, o.len())
                }
            }
        };
        // Without the params' text the insertion could not be placed; the longest one
        // (a new `_meta` member) bounds what is missing.
        let n = if out.overflowed() { 30 + token.as_token().len() } else { n };
        let total = out.len() + n;
        if out.overflowed() || total > capacity {
            return Err(EncodeError::BufferTooSmall { needed: total - start, available: capacity - start });
        }
        let end = out.len();
        super::shift::copy_within(self.buf, at..end, at + n);
        self.buf[at..at + n].copy_from_slice(&insert[..n]);
        self.seal(start, total);
        Ok(start..total)
    }

    pub(crate) fn notification<P: Serialize + ?Sized>(
        &mut self,
        method: &str,
        params: Option<&P>,
    ) -> Result<Range<usize>, EncodeError> {
        self.push(|out| {
            out.put(JSONRPC);
            method_and_params(out, method, params)
        })
    }

    /// A notification whose params object `params` writes itself.
    pub(crate) fn notification_with(
        &mut self,
        method: &str,
        params: impl FnOnce(&mut JsonOut<'_, '_>) -> Result<(), EncodeError>,
    ) -> Result<Range<usize>, EncodeError> {
        self.push(|out| {
            out.put(JSONRPC);
            method_and_params_with(out, method, params)
        })
    }

    /// A request whose params object `params` writes itself.
    pub(crate) fn request_with(
        &mut self,
        id: RequestIdRef<'_>,
        method: &str,
        params: impl FnOnce(&mut JsonOut<'_, '_>) -> Result<(), EncodeError>,
    ) -> Result<Range<usize>, EncodeError> {
        self.push(|out| {
            out.put(JSONRPC);
            out.put(b",\"id\":");
            out.raw_json(id.as_token());
            method_and_params_with(out, method, params)
        })
    }

    /// A result response whose result object `result` writes itself.
    pub(crate) fn result_with(
        &mut self,
        id: RequestIdRef<'_>,
        result: impl FnOnce(&mut JsonOut<'_, '_>) -> Result<(), EncodeError>,
    ) -> Result<Range<usize>, EncodeError> {
        self.push(|out| {
            out.put(JSONRPC);
            out.put(b",\"id\":");
            out.raw_json(id.as_token());
            out.put(b",\"result\":");
            result(&mut JsonOut { out })?;
            out.byte(b'}');
            Ok(())
        })
    }

    pub(crate) fn result<R: Serialize + ?Sized>(
        &mut self,
        id: RequestIdRef<'_>,
        result: &R,
    ) -> Result<Range<usize>, EncodeError> {
        self.push(|out| result_body(out, id, result))
    }

    /// A result response whose result object `amend` adds members to (2026-07-28:
    /// `resultType`, caching hints, `_meta` entries); see [`Amend`].
    ///
    /// The result comes as a writer ([`object_writer`]) rather than a `Serialize` value,
    /// so that this (and whoever calls it through a function pointer) is not generic
    /// over the result's type.
    pub(crate) fn result_amended<A: Amend>(
        &mut self,
        id: RequestIdRef<'_>,
        result: &mut ObjectWriter<'_>,
        amend: &mut A,
    ) -> Result<Range<usize>, A::Error> {
        self.amended(
            |out| {
                out.put(JSONRPC);
                out.put(b",\"id\":");
                out.raw_json(id.as_token());
                out.put(b",\"result\":");
            },
            |out| result(out),
            amend,
        )
    }

    /// A request whose params object (`{}` when there are none) `amend` adds members to
    /// (2026-07-28: the per-request `_meta`, a retry's `inputResponses`); see [`Amend`].
    pub(crate) fn request_amended<P: Serialize + ?Sized, A: Amend>(
        &mut self,
        id: RequestIdRef<'_>,
        method: &str,
        params: Option<&P>,
        amend: &mut A,
    ) -> Result<Range<usize>, A::Error> {
        self.amended(
            |out| {
                out.put(JSONRPC);
                out.put(b",\"id\":");
                out.raw_json(id.as_token());
                out.put(b",\"method\":");
                out.escaped_str(method);
                out.put(b",\"params\":");
            },
            |out| optional_object(out, params),
            amend,
        )
    }

    /// A notification whose params object `amend` adds members to (a listen stream's
    /// `_meta.io.modelcontextprotocol/subscriptionId`); see [`Amend`].
    pub(crate) fn notification_amended<P: Serialize + ?Sized, A: Amend>(
        &mut self,
        method: &str,
        params: Option<&P>,
        amend: &mut A,
    ) -> Result<Range<usize>, A::Error> {
        self.amended(
            |out| {
                out.put(JSONRPC);
                out.put(b",\"method\":");
                out.escaped_str(method);
                out.put(b",\"params\":");
            },
            |out| optional_object(out, params),
            amend,
        )
    }

    /// One frame: `head`, then `value` (an object; `{}` if `None`) with what `amend`
    /// adds, then `}`. Whole or not at all, as every frame.
    ///
    /// The object is serialized first, so that `amend` can see what it holds; the
    /// members to add are then written after the frame, in the free part of the buffer,
    /// and rotated into place: the `_meta` entries first (they go further in), then the
    /// members that open the object. No scratch memory beyond the buffer itself.
    ///
    /// Wide builds first try it the other way round, where `amend` can say what it adds
    /// to an object that names none of the members it looks at ([`Amend::blind`], the
    /// common case: a result that has neither `resultType` nor `_meta`): those members
    /// are written ahead of the object, whose opening brace then becomes a comma, and a
    /// quick look at the object ([`Amend::untouched`]) confirms it; nothing is rotated
    /// and nothing is looked at twice. When the look says otherwise, the object is moved
    /// back over what was written ahead and completed the general way: the same bytes
    /// come out either way.
    fn amended<A: Amend>(
        &mut self,
        mut head: impl FnMut(&mut Out<'_>),
        mut value: impl FnMut(&mut Out<'_>) -> Result<(), EncodeError>,
        amend: &mut A,
    ) -> Result<Range<usize>, A::Error> {
        if !super::find::COMPACT
            && let Some(blind) = amend.blind()
        {
            match self.write_object(&mut head, &mut value, Some((&*amend, &blind)))? {
                Written::Fits(frame) if amend.untouched(RawJson::from_validated(&self.buf[frame.object.clone()])) => {
                    return Ok(self.open_object(frame));
                }
                Written::Fits(frame) => {
                    let frame = self.moved_back(frame);
                    return self.complete(frame, amend);
                }
                // It might fit the general way: written again, to be exact.
                Written::Ahead(_) => {}
                // Too long without what went ahead, too: the general way's error.
                Written::TooLong(len) => return Err(self.too_long(len, amend)),
            }
        }
        match self.write_object(&mut head, &mut value, None::<(&A, &Plan)>)? {
            Written::Fits(frame) => self.complete(frame, amend),
            Written::TooLong(len) | Written::Ahead(len) => Err(self.too_long(len, amend)),
        }
    }

    /// A frame `len` bytes long before the amendment does not fit: the object could not be
    /// looked at, so the most `amend` could add bounds what it needs.
    fn too_long<A: Amend>(&self, len: usize, amend: &A) -> A::Error {
        EncodeError::BufferTooSmall { needed: len + amend.bound(), available: self.buf.len() - *self.len }.into()
    }

    /// Writes `head`, then (with `ahead`) the members an object that names none of the
    /// amendment's gets, then `value` and the frame's end. `TooLong` carries the frame's
    /// length without anything ahead of the object, not counting what the amendment adds.
    fn write_object<A: Amend>(
        &mut self,
        head: &mut impl FnMut(&mut Out<'_>),
        value: &mut impl FnMut(&mut Out<'_>) -> Result<(), EncodeError>,
        ahead: Option<(&A, &Plan)>,
    ) -> Result<Written, EncodeError> {
        let capacity = self.buf.len();
        let start = *self.len;
        let body_start = start + if self.framing == Framing::Tagged { TAG_HEADER } else { 0 };
        let mut out = Out::at(self.buf, body_start);
        head(&mut out);
        let ahead_at = out.len();
        if let Some((amend, plan)) = ahead {
            amend.ahead(plan, &mut JsonOut { out: &mut out })?;
        }
        let obj_at = out.len();
        value(&mut out)?;
        let obj_end = out.len();
        out.byte(b'}');
        if self.framing == Framing::Newline {
            out.byte(b'\n');
        }
        if out.overflowed() {
            let without = out.len() - (obj_at - ahead_at);
            return Ok(match ahead.is_some() && without <= capacity {
                true => Written::Ahead(without - start),
                false => Written::TooLong(without - start),
            });
        }
        Ok(Written::Fits(Laid { start, ahead_at, object: obj_at..obj_end, end: out.len() }))
    }

    /// A frame written with members ahead of its object, confirmed: the object's opening
    /// brace becomes the comma after them (or goes, if the object is empty).
    fn open_object(&mut self, frame: Laid) -> Range<usize> {
        let Laid { start, object, mut end, .. } = frame;
        match first_inside(&self.buf[object.clone()]) == Some(b'}') {
            true => {
                self.buf.copy_within(object.start + 1..end, object.start);
                end -= 1;
            }
            false => self.buf[object.start] = b',',
        }
        self.seal(start, end);
        start..end
    }

    /// A frame written with members ahead of its object, refused: the object moved back
    /// to where the general way has it.
    fn moved_back(&mut self, frame: Laid) -> Laid {
        let Laid { start, ahead_at, object, end } = frame;
        let by = object.start - ahead_at;
        self.buf.copy_within(object.start..end, ahead_at);
        Laid { start, ahead_at, object: object.start - by..object.end - by, end: end - by }
    }

    /// Completes a frame written the general way (nothing ahead of its object): what
    /// `amend` plans is written past the frame and rotated into place.
    fn complete<A: Amend>(&mut self, frame: Laid, amend: &mut A) -> Result<Range<usize>, A::Error> {
        let capacity = self.buf.len();
        let Laid { start, object: Range { start: obj_at, end: obj_end }, end, .. } = frame;
        let object = RawJson::from_validated(&self.buf[obj_at..obj_end]);
        let object_empty = first_inside(object.as_bytes()) == Some(b'}');
        let plan = amend.plan(object)?;
        let meta_inside = plan.meta_at.and_then(|at| {
            let meta = self.buf.get(obj_at + at..obj_end)?;
            Some((obj_at + at, first_inside(meta) == Some(b'}')))
        });
        // The insertions, written past the frame: the `_meta` entries, then the members.
        let mut out = Out::at(self.buf, end);
        if let (true, Some((_, empty))) = (plan.meta, meta_inside) {
            amend.meta(&plan, &mut JsonOut { out: &mut out })?;
            if !empty {
                out.byte(b',');
            }
        }
        let meta_len = out.len() - end;
        let new_meta = plan.meta && meta_inside.is_none();
        if plan.top || new_meta {
            if plan.top {
                amend.top(&plan, &mut JsonOut { out: &mut out })?;
            }
            if new_meta {
                if plan.top {
                    out.byte(b',');
                }
                out.put(b"\"_meta\":{");
                amend.meta(&plan, &mut JsonOut { out: &mut out })?;
                out.byte(b'}');
            }
            if !object_empty {
                out.byte(b',');
            }
        }
        let total = out.len();
        if out.overflowed() {
            return Err(EncodeError::BufferTooSmall { needed: total - start, available: capacity - start }.into());
        }
        let top_len = total - end - meta_len;
        if let (true, Some((meta_at, _))) = (meta_len > 0, meta_inside) {
            self.buf[meta_at + 1..end + meta_len].rotate_right(meta_len);
        }
        if top_len > 0 {
            self.buf[obj_at + 1..total].rotate_right(top_len);
        }
        self.seal(start, total);
        Ok(start..total)
    }

    pub(crate) fn error(
        &mut self,
        id: ErrorId<'_>,
        code: ErrorCode,
        message: &str,
    ) -> Result<Range<usize>, EncodeError> {
        self.error_with_data(id, code, message, None::<&RawJson<'_>>)
    }

    pub(crate) fn error_with_data<D: Serialize + ?Sized>(
        &mut self,
        id: ErrorId<'_>,
        code: ErrorCode,
        message: &str,
        data: Option<&D>,
    ) -> Result<Range<usize>, EncodeError> {
        self.push(|out| error_body(out, id, code, message, data))
    }
}

/// What [`FrameView`]'s amended frames add to the object they carry: members that open
/// the object, and entries that open its `_meta` (which is created when the object has
/// none). The object is looked at as written before anything is added.
pub(crate) trait Amend {
    /// What refusing the object looks like (encoding errors convert into it).
    type Error: From<EncodeError>;
    /// Looks at the object as written (valid JSON) and says what to add, or refuses it.
    fn plan(&mut self, object: RawJson<'_>) -> Result<Plan, Self::Error>;
    /// Writes the members that open the object, separated by commas, with none after
    /// the last (called when [`Plan::top`] is set).
    fn top(&self, plan: &Plan, out: &mut JsonOut<'_, '_>) -> Result<(), EncodeError>;
    /// Writes the entries that open `_meta`, the same way (called when [`Plan::meta`]
    /// is set).
    fn meta(&self, plan: &Plan, out: &mut JsonOut<'_, '_>) -> Result<(), EncodeError>;
    /// The most `top` and `meta` can write together, a new `"_meta":{…}` and the commas
    /// included: what a frame whose object did not fit reports as needed on top.
    fn bound(&self) -> usize;
    /// The plan for an object that names none of the members [`plan`](Self::plan) looks
    /// at, made ready as `plan` would for it (so that `top` and `meta` can be written
    /// before the object is); `None` (the default) where there is no such plan. Only
    /// wide builds ask (see `FrameView::amended`).
    fn blind(&mut self) -> Option<Plan> {
        None
    }
    /// Writes what goes ahead of an object that names none of the members: `{`, what
    /// [`top`](Self::top) writes, and a new `"_meta":{…}` holding what
    /// [`meta`](Self::meta) writes, as the plan says; an amendment may write the same
    /// bytes its own quicker way.
    fn ahead(&self, plan: &Plan, out: &mut JsonOut<'_, '_>) -> Result<(), EncodeError> {
        write_ahead(self, plan, out)
    }
    /// Whether `object` certainly names none of the members `plan` looks at, so that the
    /// [`blind`](Self::blind) plan is the one `plan` would make; `false` when unsure.
    fn untouched(&self, _object: RawJson<'_>) -> bool {
        false
    }
}

/// [`Amend::ahead`] the general way: `{`, the members, then `"_meta":{` with the entries
/// and `}`, each as the plan says.
pub(crate) fn write_ahead<A: Amend + ?Sized>(
    amend: &A,
    plan: &Plan,
    out: &mut JsonOut<'_, '_>,
) -> Result<(), EncodeError> {
    out.put(b"{");
    if plan.top {
        amend.top(plan, out)?;
    }
    if plan.meta {
        if plan.top {
            out.put(b",");
        }
        out.put(b"\"_meta\":{");
        amend.meta(plan, out)?;
        out.put(b"}");
    }
    Ok(())
}

/// A frame written into the buffer, not yet sealed: where it starts, where the members
/// written ahead of its object start (where the object starts, if none were), its
/// object, and its end.
struct Laid {
    start: usize,
    ahead_at: usize,
    object: Range<usize>,
    end: usize,
}

/// What [`FrameView::write_object`] did.
enum Written {
    /// The frame fits.
    Fits(Laid),
    /// Too long with what went ahead of the object, not without it: the frame's length
    /// without it.
    Ahead(usize),
    /// Too long: the frame's length without anything ahead of its object.
    TooLong(usize),
}

/// What an [`Amend`] adds to one object.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Plan {
    /// Members open the object.
    pub top: bool,
    /// Entries open `_meta`.
    pub meta: bool,
    /// Where the object's `_meta` value (an object) starts in the object's text, if it
    /// has one.
    pub meta_at: Option<usize>,
}

/// Whether `json` (valid JSON text) may have a member named one of `names` at any depth:
/// `false` means certainly not, so that an [`Amend`] can skip walking the object. A
/// quick pass over the bytes: each quote is followed by a name and a closing quote?
///
/// The count of names is a constant of each call site, so that the word loop tests
/// exactly that many first bytes (one, two or four at the crate's call sites), no more.
#[inline]
pub(crate) fn may_have_member<const N: usize>(json: &[u8], names: &[&[u8]; N]) -> bool {
    // Compact builds (small 32-bit targets) search byte by byte, as the scanner does
    // there (see `find`); elsewhere eight positions at a time: the word at `at` says
    // where the quotes are, the word at `at + 1` which bytes follow them, and only a
    // quote followed by a name's first byte is looked at further (quotes are close
    // together in JSON; the names are rare: most words cost a few masks and no branch).
    // An empty name (never at the crate's call sites) leaves it all to the byte loop.
    let mut at = 0;
    if !super::find::COMPACT && N > 0 && names.iter().all(|n| !n.is_empty()) {
        use super::find::{HI, LO, word};
        // The high bit of each byte of `w` that equals the one repeated in `pattern`, and
        // perhaps of a byte above one that does (the borrow of the subtraction): such a
        // candidate too many is rejected by the comparison below, none is ever missed.
        let equal = |w: u64, pattern: u64| {
            let x = w ^ pattern;
            x.wrapping_sub(LO) & !x & HI
        };
        let quotes = LO * u64::from(b'"');
        let patterns: [u64; N] = core::array::from_fn(|i| LO * u64::from(names[i].first().copied().unwrap_or(b'"')));
        while let (Some(here), Some(next)) = (word(json, at), word(json, at + 1)) {
            let follows = patterns.iter().fold(0, |f, &p| f | equal(next, p));
            let mut candidates = equal(here, quotes) & follows;
            while candidates != 0 {
                let q = at + (candidates.trailing_zeros() / 8) as usize;
                if json.get(q) == Some(&b'"') && quoted_name_at(json, q, names) {
                    return true;
                }
                candidates &= candidates - 1;
            }
            at += 8;
        }
    }
    json.get(at..)
        .unwrap_or_default()
        .iter()
        .enumerate()
        .any(|(i, &b)| b == b'"' && quoted_name_at(json, at + i, names))
}

/// Whether the quote at `q` opens one of `names`, closed by a quote.
#[inline(always)]
fn quoted_name_at(json: &[u8], q: usize, names: &[&[u8]]) -> bool {
    let rest = json.get(q + 1..).unwrap_or_default();
    names.iter().any(|n| rest.get(n.len()) == Some(&b'"') && rest.starts_with(n))
}

/// How many bytes `value` serializes to, counted without being stored.
pub(crate) fn measure<T: Serialize + ?Sized>(value: &T) -> usize {
    let mut none = [0u8; 0];
    let mut out = Out::new(&mut none);
    let _ = to_out(&mut out, value);
    out.len()
}

/// How many bytes `write` writes, counted without being stored.
pub(crate) fn measure_with(write: impl FnOnce(&mut JsonOut<'_, '_>) -> Result<(), EncodeError>) -> usize {
    let mut none = [0u8; 0];
    let mut out = Out::new(&mut none);
    let _ = write(&mut JsonOut { out: &mut out });
    out.len()
}

/// The first byte after an object's opening brace that is not whitespace (raw JSON is
/// written verbatim, spaces included).
fn first_inside(object: &[u8]) -> Option<u8> {
    object.iter().skip(1).copied().find(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
}

fn method_and_params<P: Serialize + ?Sized>(
    out: &mut Out<'_>,
    method: &str,
    params: Option<&P>,
) -> Result<(), EncodeError> {
    out.put(b",\"method\":");
    out.escaped_str(method);
    if let Some(params) = params {
        out.put(b",\"params\":");
        object(out, params)?;
    }
    out.byte(b'}');
    Ok(())
}

/// The method and a params object that `params` writes itself, then the message's end.
fn method_and_params_with(
    out: &mut Out<'_>,
    method: &str,
    params: impl FnOnce(&mut JsonOut<'_, '_>) -> Result<(), EncodeError>,
) -> Result<(), EncodeError> {
    out.put(b",\"method\":");
    out.escaped_str(method);
    out.put(b",\"params\":");
    params(&mut JsonOut { out })?;
    out.byte(b'}');
    Ok(())
}

fn result_body<R: Serialize + ?Sized>(out: &mut Out<'_>, id: RequestIdRef<'_>, result: &R) -> Result<(), EncodeError> {
    out.put(JSONRPC);
    out.put(b",\"id\":");
    out.raw_json(id.as_token());
    out.put(b",\"result\":");
    object(out, result)?;
    out.byte(b'}');
    Ok(())
}

fn error_body<D: Serialize + ?Sized>(
    out: &mut Out<'_>,
    id: ErrorId<'_>,
    code: ErrorCode,
    message: &str,
    data: Option<&D>,
) -> Result<(), EncodeError> {
    out.put(JSONRPC);
    match id {
        ErrorId::Id(id) => {
            out.put(b",\"id\":");
            out.raw_json(id.as_token());
        }
        ErrorId::Null => out.put(b",\"id\":null"),
        ErrorId::Omitted => {}
    }
    out.put(b",\"error\":{\"code\":");
    out.i64(code.0.into());
    out.put(b",\"message\":");
    out.escaped_str(message);
    if let Some(data) = data {
        out.put(b",\"data\":");
        to_out(out, data)?;
    }
    out.put(b"}}");
    Ok(())
}

/// Writes one JSON object into a frame: see [`object_writer`].
pub(crate) type ObjectWriter<'w> = dyn FnMut(&mut Out<'_>) -> Result<(), EncodeError> + 'w;

/// `value` (which must serialize to a JSON object) as an [`ObjectWriter`].
pub(crate) fn object_writer<T: Serialize + ?Sized>(
    value: &T,
) -> impl FnMut(&mut Out<'_>) -> Result<(), EncodeError> + '_ {
    move |out| object(out, value)
}

/// `value` as an object, `{}` if there is none.
fn optional_object<T: Serialize + ?Sized>(out: &mut Out<'_>, value: Option<&T>) -> Result<(), EncodeError> {
    match value {
        Some(v) => object(out, v),
        None => {
            out.put(b"{}");
            Ok(())
        }
    }
}

/// Serializes a value that must be a JSON object.
fn object<T: Serialize + ?Sized>(out: &mut Out<'_>, value: &T) -> Result<(), EncodeError> {
    out.watch_next();
    to_out(out, value)?;
    if out.watched() != Some(b'{') {
        return Err(EncodeError::NotAnObject);
    }
    Ok(())
}

/// Builds one batch response frame; see [`FrameWriter::batch`].
///
/// Dropping it without [`finish`](Self::finish) discards the whole batch.
pub struct BatchWriter<'w, 'b> {
    writer: &'w mut FrameWriter<'b>,
    start: usize,
    end: usize,
    finished: bool,
}

impl BatchWriter<'_, '_> {
    /// Responses added so far.
    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }

    fn element(&mut self, body: impl FnOnce(&mut Out<'_>) -> Result<(), EncodeError>) -> Result<(), EncodeError> {
        let buf = &mut *self.writer.buf;
        let capacity = buf.len();
        let mut out = Out::at(buf, self.end);
        out.byte(if self.end == self.start { b'[' } else { b',' });
        body(&mut out)?;
        // Room for the closing bracket and terminator must remain, or finish could fail.
        let tail = 1 + usize::from(self.writer.framing == Framing::Newline);
        if out.overflowed() || out.len() + tail > capacity {
            return Err(EncodeError::BufferTooSmall {
                needed: out.len() + tail - self.end,
                available: capacity - self.end,
            });
        }
        self.end = out.len();
        Ok(())
    }

    /// Adds a result response.
    pub fn result<R: Serialize + ?Sized>(&mut self, id: RequestIdRef<'_>, result: &R) -> Result<(), EncodeError> {
        self.element(|out| result_body(out, id, result))
    }

    /// Adds an error response.
    pub fn error(&mut self, id: ErrorId<'_>, code: ErrorCode, message: &str) -> Result<(), EncodeError> {
        self.element(|out| error_body(out, id, code, message, None::<&RawJson<'_>>))
    }

    /// Adds an error response with `data`.
    pub fn error_with_data<D: Serialize + ?Sized>(
        &mut self,
        id: ErrorId<'_>,
        code: ErrorCode,
        message: &str,
        data: &D,
    ) -> Result<(), EncodeError> {
        self.element(|out| error_body(out, id, code, message, Some(data)))
    }

    /// Closes the array and commits the frame. A batch with no responses (all of its
    /// elements were notifications) writes nothing and returns `None`, as JSON-RPC asks.
    pub fn finish(mut self) -> Option<Range<usize>> {
        self.finished = true;
        if self.is_empty() {
            return None;
        }
        let buf = &mut *self.writer.buf;
        // `element` reserved room for these bytes.
        buf[self.end] = b']';
        self.end += 1;
        if self.writer.framing == Framing::Newline {
            buf[self.end] = b'\n';
            self.end += 1;
        }
        self.writer.len = self.end;
        Some(self.start..self.end)
    }
}

impl Drop for BatchWriter<'_, '_> {
    fn drop(&mut self) {
        if !self.finished {
            self.writer.len = self.start;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::RequestId;

    /// An [`Amend`] shaped like the stateless results' completion, with its ahead-of-time
    /// plan on or off: `resultType` and a `_meta` entry, where the object lacks them.
    struct Probe {
        blind: bool,
        result_type: bool,
        meta_entry: bool,
    }

    impl Amend for Probe {
        type Error = EncodeError;

        fn plan(&mut self, object: RawJson<'_>) -> Result<Plan, EncodeError> {
            let (mut result_type, mut meta) = (false, None);
            for (key, value) in object.members() {
                match key.raw() {
                    b"resultType" => result_type = true,
                    b"_meta" => meta = Some(value),
                    _ => {}
                }
            }
            self.result_type = !result_type;
            self.meta_entry = meta.is_none_or(|m| !m.contains_key("k"));
            let meta_at = meta.and_then(|m| m.offset_in(object.as_bytes()));
            Ok(Plan { top: self.result_type, meta: self.meta_entry, meta_at })
        }

        fn top(&self, _plan: &Plan, out: &mut JsonOut<'_, '_>) -> Result<(), EncodeError> {
            out.put(b"\"resultType\":\"complete\"");
            Ok(())
        }

        fn meta(&self, _plan: &Plan, out: &mut JsonOut<'_, '_>) -> Result<(), EncodeError> {
            out.put(b"\"k\":1");
            Ok(())
        }

        fn bound(&self) -> usize {
            // A bound, not the exact count (as real ones are), so that an error sized by
            // the bound is told from one sized by what was written.
            23 + 1 + 9 + 5 + 1 + 1 + 10
        }

        fn blind(&mut self) -> Option<Plan> {
            (self.result_type, self.meta_entry) = (true, true);
            self.blind.then_some(Plan { top: true, meta: true, meta_at: None })
        }

        fn untouched(&self, object: RawJson<'_>) -> bool {
            !may_have_member(object.as_bytes(), &[b"resultType", b"_meta"])
        }
    }

    /// Members written ahead of the object (the wide builds' way, confirmed or moved back)
    /// give the frame, or the error, that writing them after it and rotating them in gives:
    /// for objects with and without what is added, empty ones, ones whose names appear
    /// only deeper or in strings, at every buffer size from nothing to more than enough,
    /// in both framings, with a frame before it in the buffer.
    #[test]
    fn members_written_ahead_give_the_general_frame() {
        let objects = [
            "{}",
            "{ }",
            r#"{"a":1}"#,
            r#"{ "a" : [1,{"b":2}] }"#,
            r#"{"_meta":{}}"#,
            r#"{"_meta":{ }, "a":1}"#,
            r#"{"a":1,"_meta":{"x":"y"}}"#,
            r#"{"_meta":{"k":2}}"#,
            r#"{"resultType":"complete","a":1}"#,
            r#"{"resultType":"x","_meta":{"k":0}}"#,
            r#"{"a":{"resultType":1,"_meta":{}}}"#,
            r#"{"a":"_meta","b":["resultType"]}"#,
            r#"{"content":[{"type":"text","text":"hello"}],"isError":false}"#,
        ];
        let id = RequestId::from_u64(7);
        let mut cases = 0;
        for text in objects {
            let object = RawJson::parse(text.as_bytes()).unwrap();
            for framing in [Framing::Newline, Framing::Tagged] {
                for capacity in 0..text.len() + 120 {
                    let run = |blind: bool| {
                        let mut buf = std::vec![0u8; capacity];
                        let mut len = capacity.min(5);
                        let mut view = FrameView::new(&mut buf, &mut len, framing, Some(3));
                        let mut probe = Probe { blind, result_type: false, meta_entry: false };
                        let got = view.result_amended(id.as_ref(), &mut object_writer(&object), &mut probe);
                        (got.map(|r| buf[r].to_vec()), len)
                    };
                    let general = run(false);
                    assert_eq!(run(true), general, "{text} in {capacity} bytes, {framing:?}");
                    if let (Ok(frame), Framing::Newline) = (&general.0, framing) {
                        let body = RawJson::parse(&frame[..frame.len() - 1]).unwrap();
                        let result = body.get("result").unwrap();
                        assert!(result.contains_key("resultType"), "{text}");
                        assert!(result.get("_meta").unwrap().contains_key("k"), "{text}");
                    }
                    cases += 1;
                }
            }
        }
        assert!(cases > 3000, "{cases}");
    }

    /// `may_have_member` against the plain reading of its contract (a quote, the name, a
    /// quote, anywhere), with the name at every offset of the eight-byte words and across
    /// their edges, next to quotes and bytes that the word search must not take for one
    /// (`#` is a quote plus one, `\xa2` a quote with the high bit set).
    #[test]
    fn may_have_member_finds_every_quoted_name() {
        let names: [&[u8]; 2] = [b"_meta", b"resultType"];
        let contains = |hay: &[u8], n: &[u8]| {
            hay.windows(n.len() + 2).any(|w| w[0] == b'"' && w[n.len() + 1] == b'"' && &w[1..=n.len()] == n)
        };
        // (`"#_meta"`: a quote, then a byte the word search may flag as one too.)
        let fillers: [&[u8]; 6] = [b"x", b"\"\"", b"#", "\u{a2}".as_bytes(), b"\"_met\"", b"\"#_meta\""];
        let mut cases = 0;
        for pad in 0..20 {
            for filler in fillers {
                for tail in [&b""[..], b"\"", b"\"r", b"#\"_meta"] {
                    for name in [&b"_meta"[..], b"resultType", b"_metas", b"result", b"_me"] {
                        let mut json = Vec::new();
                        for _ in 0..pad {
                            json.extend_from_slice(filler);
                        }
                        json.push(b'"');
                        json.extend_from_slice(name);
                        json.push(b'"');
                        json.extend_from_slice(tail);
                        let want = names.iter().any(|n| contains(&json, n));
                        assert_eq!(may_have_member(&json, &names), want, "{:?}", String::from_utf8_lossy(&json));
                        assert!(!may_have_member(&json, &[]));
                        // One name, and four (the counts of the other call sites).
                        let text = String::from_utf8_lossy(&json);
                        assert_eq!(may_have_member(&json, &[b"_meta"]), contains(&json, b"_meta"), "{text:?}");
                        let four: [&[u8]; 4] = [b"ttlMs", b"resultType", b"cacheScope", b"_meta"];
                        let want = four.iter().any(|n| contains(&json, n));
                        assert_eq!(may_have_member(&json, &four), want, "{text:?}");
                        cases += 1;
                    }
                }
            }
        }
        assert_eq!(cases, 2400);
        assert!(!may_have_member(br#"{"content":[{"type":"text","text":"hello world"}],"isError":false}"#, &names));
        assert!(may_have_member(br#"{"content":[],"_meta":{}}"#, &names));
    }

    #[test]
    fn every_frame_kind() {
        let mut buf = [0u8; 512];
        let mut w = FrameWriter::new(&mut buf);
        let id = RequestId::string("a\"b").unwrap();
        w.request(id.as_ref(), "tools/call", Some(&RawJson::parse(br#"{"name":"x"}"#).unwrap())).unwrap();
        w.notification("notifications/initialized", NO_PARAMS).unwrap();
        w.result(RequestId::from_u64(3).as_ref(), &RawJson::EMPTY_OBJECT).unwrap();
        w.error_with_data(ErrorId::Omitted, ErrorCode::INVALID_PARAMS, "bad \"x\"", &[1, 2]).unwrap();
        let text = core::str::from_utf8(w.as_bytes()).unwrap();
        assert_eq!(
            text,
            concat!(
                r#"{"jsonrpc":"2.0","id":"a\"b","method":"tools/call","params":{"name":"x"}}"#,
                "\n",
                r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
                "\n",
                r#"{"jsonrpc":"2.0","id":3,"result":{}}"#,
                "\n",
                r#"{"jsonrpc":"2.0","error":{"code":-32602,"message":"bad \"x\"","data":[1,2]}}"#,
                "\n",
            )
        );
    }

    #[test]
    fn too_small_changes_nothing_and_reports_the_exact_need() {
        let id = RequestId::from_u64(42);
        let mut big = [0u8; 256];
        let mut w = FrameWriter::new(&mut big);
        let frame_len = w.result(id.as_ref(), &("x", 1).map_object()).unwrap().len();
        for cap in 0..frame_len {
            let mut buf = std::vec![0u8; cap + 10];
            let mut w = FrameWriter::new(&mut buf);
            w.notification("n", NO_PARAMS).unwrap_or(0..0);
            let before = w.as_bytes().to_vec();
            let free = w.available();
            if free >= frame_len {
                continue;
            }
            let err = w.result(id.as_ref(), &("x", 1).map_object()).unwrap_err();
            assert_eq!(err, EncodeError::BufferTooSmall { needed: frame_len, available: free });
            assert_eq!(w.as_bytes(), &before[..]);
        }
    }

    #[test]
    fn params_and_results_must_be_objects() {
        let mut buf = [0u8; 64];
        let mut w = FrameWriter::new(&mut buf);
        assert_eq!(w.request(RequestId::from_u64(1).as_ref(), "m", Some(&[1])), Err(EncodeError::NotAnObject));
        assert_eq!(w.result(RequestId::from_u64(1).as_ref(), &5), Err(EncodeError::NotAnObject));
        // Also when the value is too big to fit: the kind is known without storing it.
        let mut tiny = [0u8; 40];
        let mut w = FrameWriter::new(&mut tiny);
        assert_eq!(w.result(RequestId::from_u64(1).as_ref(), &[0u8; 32]), Err(EncodeError::NotAnObject));
        assert!(w.is_empty());
    }

    #[test]
    fn progress_token_is_merged_into_any_params() {
        let id = RequestId::from_u64(7);
        let cases: [(Option<&str>, &str); 4] = [
            (None, r#"{"_meta":{"progressToken":7}}"#),
            (Some("{}"), r#"{"_meta":{"progressToken":7}}"#),
            (Some(r#"{"name":"x"}"#), r#"{"_meta":{"progressToken":7},"name":"x"}"#),
            (Some(r#"{"name":"x","_meta":{"k":1}}"#), r#"{"name":"x","_meta":{"progressToken":7,"k":1}}"#),
        ];
        for (params, want) in cases {
            let params = params.map(|p| RawJson::parse(p.as_bytes()).unwrap());
            let mut buf = [0u8; 128];
            let mut w = FrameWriter::new(&mut buf);
            w.request_with_progress_token(id.as_ref(), "tools/call", params.as_ref(), id.as_ref()).unwrap();
            let expected = std::format!(r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{want}}}"#) + "\n";
            assert_eq!(core::str::from_utf8(w.as_bytes()).unwrap(), expected);
            // Exact need on overflow, nothing written.
            let need = w.len();
            let mut small = std::vec![0u8; need - 1];
            let mut w = FrameWriter::new(&mut small);
            let err = w.request_with_progress_token(id.as_ref(), "tools/call", params.as_ref(), id.as_ref());
            assert_eq!(err, Err(EncodeError::BufferTooSmall { needed: need, available: need - 1 }));
            assert!(w.is_empty());
        }
        let clash = RawJson::parse(br#"{"_meta":{"progressToken":"mine"}}"#).unwrap();
        let mut buf = [0u8; 128];
        let mut w = FrameWriter::new(&mut buf);
        assert_eq!(
            w.request_with_progress_token(id.as_ref(), "m", Some(&clash), id.as_ref()),
            Err(EncodeError::ProgressTokenPresent)
        );
        let not_object = RawJson::parse(br#"{"_meta":5,"name":"x"}"#).unwrap();
        let err = w.request_with_progress_token(id.as_ref(), "m", Some(&not_object), id.as_ref());
        assert_eq!((err, w.is_empty()), (Err(EncodeError::NotAnObject), true));
    }

    #[test]
    fn batches() {
        let mut buf = [0u8; 256];
        let mut w = FrameWriter::new(&mut buf);
        let mut b = w.batch();
        b.result(RequestId::from_u64(1).as_ref(), &RawJson::EMPTY_OBJECT).unwrap();
        b.error(ErrorId::Null, ErrorCode::INVALID_REQUEST, "x").unwrap();
        b.finish().unwrap();
        assert_eq!(
            w.as_bytes(),
            &b"[{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}},{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"x\"}}]\n"[..]
        );
        let len = w.len();
        assert!(w.batch().finish().is_none());
        {
            let mut b = w.batch();
            b.result(RequestId::from_u64(2).as_ref(), &RawJson::EMPTY_OBJECT).unwrap();
        } // dropped unfinished: discarded
        assert_eq!(w.len(), len);
    }

    trait MapObject {
        fn map_object(self) -> std::collections::BTreeMap<&'static str, i32>;
    }
    impl MapObject for (&'static str, i32) {
        fn map_object(self) -> std::collections::BTreeMap<&'static str, i32> {
            [(self.0, self.1)].into_iter().collect()
        }
    }

    /// Every frame kind `push` writes, in each framing, at every room around its size and
    /// after a frame already there: whole, sealed and taken when it fits; otherwise
    /// `BufferTooSmall` with the frame's exact size (header and line break included) and
    /// the length unchanged. CI runs the lib tests in both builds (again with `--cfg
    /// mcp_sansio_compact`), so this holds `push`'s out-of-line end (64-bit hosts) and its
    /// inlined one (microcontrollers) to the same bytes and the same errors.
    #[test]
    fn push_fits_whole_or_reports_the_exact_need_in_every_framing() {
        type Write = fn(&mut FrameView<'_>, RequestIdRef<'_>, &RawJson<'_>) -> Result<Range<usize>, EncodeError>;
        let writes: [Write; 4] = [
            |v, id, p| v.request(id, "tools/call", Some(p)),
            |v, _, p| v.notification("notifications/progress", Some(p)),
            |v, id, p| v.result(id, p),
            |v, _, _| v.error(ErrorId::Omitted, ErrorCode::INVALID_PARAMS, "bad \"x\""),
        ];
        let id = RequestId::string("a\"b").unwrap();
        let params = RawJson::parse(br#"{"name":"x"}"#).unwrap();
        let mut cases = 0;
        for (framing, around) in [(Framing::Newline, 1), (Framing::Bare, 0), (Framing::Tagged, TAG_HEADER)] {
            for write in writes {
                let (mut big, mut len) = ([0u8; 256], 0);
                let body = write(&mut FrameView::new(&mut big, &mut len, Framing::Bare, None), id.as_ref(), &params);
                let body = big[body.unwrap()].to_vec();
                let frame_len = body.len() + around;
                for start in [0, 7] {
                    for capacity in start..start + frame_len + 3 {
                        let mut buf = std::vec![0xaau8; capacity];
                        let mut len = start;
                        let mut view = FrameView::new(&mut buf, &mut len, framing, Some(5));
                        let got = write(&mut view, id.as_ref(), &params);
                        let case = std::format!("{framing:?}, {capacity} bytes from {start}");
                        if capacity - start < frame_len {
                            let needed = EncodeError::BufferTooSmall { needed: frame_len, available: capacity - start };
                            assert_eq!(got, Err(needed), "{case}");
                            assert_eq!(len, start, "{case}");
                        } else {
                            assert_eq!(got, Ok(start..start + frame_len), "{case}");
                            assert_eq!(len, start + frame_len, "{case}");
                            let frame = &buf[start..start + frame_len];
                            match framing {
                                Framing::Newline => assert_eq!(frame, [&body[..], b"\n"].concat(), "{case}"),
                                Framing::Bare => assert_eq!(frame, &body[..], "{case}"),
                                Framing::Tagged => {
                                    assert_eq!(read_tag(frame), Some((body.len(), Some(5))), "{case}");
                                    assert_eq!(&frame[TAG_HEADER..], &body[..], "{case}");
                                }
                            }
                        }
                        assert!(buf[..start].iter().all(|&b| b == 0xaa), "{case}");
                        cases += 1;
                    }
                }
            }
        }
        assert!(cases > 1000, "{cases}");
    }
}
