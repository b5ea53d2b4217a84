//! Pagination: opaque cursors for servers, a safe page walker for clients.
//!
//! A cursor is opaque to the client, so a server may put anything in it; this one holds
//! a position, an epoch and a keyed tag (SipHash-2-4 with the server's key), so a client
//! cannot forge a position and a cursor from before the list changed is refused as stale
//! (both with -32602, as the specification suggests). The key comes from the caller:
//! the core draws no randomness.
//!
//! The walker follows `nextCursor` with a page cap and stops with an error when cursors
//! go round in a cycle (the official SDKs walk forever in both cases).

use core::fmt;

use serde::Serialize;

use crate::wire::{ErrorCode, JsonStr, RawJson};

/// Why a cursor was refused. Answer the request with [`code`](Self::code) (-32602).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum CursorError {
    /// Not a cursor this server issued (wrong length or characters, or a bad tag).
    Invalid,
    /// Issued before the list changed (an older epoch).
    Stale,
}

impl CursorError {
    /// The JSON-RPC error code to answer with.
    pub const fn code(self) -> ErrorCode {
        ErrorCode::INVALID_PARAMS
    }

    /// The message to answer with.
    pub const fn message(self) -> &'static str {
        match self {
            Self::Invalid => "Invalid cursor",
            Self::Stale => "Stale cursor: the list changed; start again without a cursor",
        }
    }
}

impl fmt::Display for CursorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl core::error::Error for CursorError {}

/// The length of a cursor's text.
pub const CURSOR_LEN: usize = 32;

/// A cursor's text: 32 lowercase hex digits.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Cursor([u8; CURSOR_LEN]);

impl Cursor {
    /// The text.
    pub fn as_str(&self) -> &str {
        core::str::from_utf8(&self.0).unwrap_or_default()
    }
}

impl fmt::Debug for Cursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Cursor {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// Issues and checks a server's pagination cursors.
///
/// ```
/// use mcp_sansio::session::{CursorCodec, CursorError};
/// use mcp_sansio::wire::RawJson;
/// let codec = CursorCodec::new(*b"0123456789abcdef");
/// let cursor = codec.encode(20);
/// let json = format!("\"{}\"", cursor.as_str());
/// let text = RawJson::parse(json.as_bytes()).unwrap().as_str().unwrap();
/// assert_eq!(codec.decode(text), Ok(20));
/// assert_eq!(codec.with_epoch(1).decode(text), Err(CursorError::Stale));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct CursorCodec {
    key: [u64; 2],
    epoch: u32,
}

impl CursorCodec {
    /// A codec with a secret key (draw it from a random source once per process).
    pub const fn new(key: [u8; 16]) -> Self {
        let mut k0 = [0u8; 8];
        let mut k1 = [0u8; 8];
        let mut i = 0;
        while i < 8 {
            k0[i] = key[i];
            k1[i] = key[i + 8];
            i += 1;
        }
        Self { key: [u64::from_le_bytes(k0), u64::from_le_bytes(k1)], epoch: 0 }
    }

    /// The same codec for a new version of the list: cursors of other epochs are stale.
    pub const fn with_epoch(self, epoch: u32) -> Self {
        Self { epoch, ..self }
    }

    fn tag(&self, position: u32, epoch: u32) -> u64 {
        let mut data = [0u8; 8];
        data[..4].copy_from_slice(&position.to_le_bytes());
        data[4..].copy_from_slice(&epoch.to_le_bytes());
        siphash24(self.key, &data)
    }

    /// The cursor for the page that starts at `position`.
    pub fn encode(&self, position: u32) -> Cursor {
        let mut raw = [0u8; 16];
        raw[..4].copy_from_slice(&position.to_be_bytes());
        raw[4..8].copy_from_slice(&self.epoch.to_be_bytes());
        raw[8..].copy_from_slice(&self.tag(position, self.epoch).to_be_bytes());
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut text = [0u8; CURSOR_LEN];
        for (i, b) in raw.iter().enumerate() {
            text[2 * i] = HEX[(b >> 4) as usize];
            text[2 * i + 1] = HEX[(b & 15) as usize];
        }
        Cursor(text)
    }

    /// The position a cursor stands for, if this codec issued it for the current epoch.
    pub fn decode(&self, cursor: JsonStr<'_>) -> Result<u32, CursorError> {
        let text = cursor.as_plain().ok_or(CursorError::Invalid)?.as_bytes();
        if text.len() != CURSOR_LEN {
            return Err(CursorError::Invalid);
        }
        let mut raw = [0u8; 16];
        for (i, pair) in text.chunks(2).enumerate() {
            let hex = |c: u8| match c {
                b'0'..=b'9' => Some(c - b'0'),
                b'a'..=b'f' => Some(c - b'a' + 10),
                _ => None,
            };
            raw[i] = (hex(pair[0]).ok_or(CursorError::Invalid)? << 4) | hex(pair[1]).ok_or(CursorError::Invalid)?;
        }
        let word = |r: &[u8]| u32::from_be_bytes([r[0], r[1], r[2], r[3]]);
        let (position, epoch) = (word(&raw[..4]), word(&raw[4..8]));
        let mut tag = [0u8; 8];
        tag.copy_from_slice(&raw[8..]);
        if u64::from_be_bytes(tag) != self.tag(position, epoch) {
            return Err(CursorError::Invalid);
        }
        if epoch != self.epoch {
            return Err(CursorError::Stale);
        }
        Ok(position)
    }

    /// The position to serve for a list request's params: 0 without a cursor.
    pub fn position(&self, params: Option<RawJson<'_>>) -> Result<u32, CursorError> {
        match params.and_then(|p| p.get("cursor")) {
            None => Ok(0),
            Some(c) if c.is_null() => Ok(0),
            Some(c) => self.decode(c.as_str().ok_or(CursorError::Invalid)?),
        }
    }

    /// The page to serve from a list of `len` items for a list request's params, `size`
    /// items at most: the range of items, and the cursor for the next page (`None` on
    /// the last one). The cursor's position is clamped to the list, so a list that
    /// shrank without a new epoch serves an empty last page rather than panicking on a
    /// slice out of range.
    ///
    /// ```
    /// use mcp_sansio::session::CursorCodec;
    /// let codec = CursorCodec::new([3; 16]);
    /// let (items, next) = codec.page(None, 25, 10).unwrap();
    /// assert_eq!(items, 0..10);
    /// let json = format!(r#"{{"cursor":"{}"}}"#, next.unwrap().as_str());
    /// let params = mcp_sansio::wire::RawJson::parse(json.as_bytes()).unwrap();
    /// assert_eq!(codec.page(Some(params), 25, 10).unwrap().0, 10..20);
    /// assert_eq!(codec.page(Some(params), 4, 10).unwrap(), (4..4, None), "the list shrank");
    /// ```
    pub fn page(
        &self,
        params: Option<RawJson<'_>>,
        len: usize,
        size: usize,
    ) -> Result<(core::ops::Range<usize>, Option<Cursor>), CursorError> {
        let start = usize::try_from(self.position(params)?).unwrap_or(usize::MAX).min(len);
        let end = start.saturating_add(size.max(1)).min(len);
        let next = (end < len).then(|| self.encode(u32::try_from(end).unwrap_or(u32::MAX)));
        Ok((start..end, next))
    }
}

/// SipHash-2-4 (Aumasson and Bernstein), for the cursor tag.
fn siphash24(key: [u64; 2], data: &[u8]) -> u64 {
    super::sip::Sip::new(key).write(data).finish()
}

/// Why a client stopped walking pages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum PaginationError {
    /// More pages than the cap.
    TooManyPages {
        /// The cap.
        max: u32,
    },
    /// `nextCursor` came back to a cursor already used: the server would loop forever.
    RepeatedCursor,
    /// `nextCursor` is longer than the walker can store.
    CursorTooLong {
        /// Its length in bytes.
        len: usize,
    },
    /// `nextCursor` is not a string.
    InvalidCursor,
    /// The walk already ended.
    Finished,
}

impl fmt::Display for PaginationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooManyPages { max } => write!(f, "more than {max} pages"),
            Self::RepeatedCursor => f.write_str("the server returned a cursor it had already returned"),
            Self::CursorTooLong { len } => write!(f, "cursor of {len} bytes is too long to store"),
            Self::InvalidCursor => f.write_str("nextCursor is not a string"),
            Self::Finished => f.write_str("the last page was already received"),
        }
    }
}

impl core::error::Error for PaginationError {}

/// What the walker says after a page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Page {
    /// Another page follows: request it with [`PageWalker::params`].
    More,
    /// That was the last page.
    Done,
}

/// Follows `nextCursor` through a paginated list, from the client side.
///
/// `C` bounds the stored cursor's length (the walker keeps two). Cycles are found with
/// Brent's algorithm in constant memory, comparing cursors themselves (no hash, so two
/// different cursors are never taken for a cycle): a cursor that comes back (which makes
/// a deterministic server repeat the same pages forever) is reported within three times
/// the cycle's length, and the page cap bounds everything else.
///
/// ```
/// use mcp_sansio::session::{Page, PageWalker, PaginationError};
/// use mcp_sansio::wire::RawJson;
/// let mut walker = PageWalker::<64>::new(100);
/// assert!(walker.cursor().is_none());
/// let page = RawJson::parse(br#"{"tools":[],"nextCursor":"p2"}"#).unwrap();
/// assert_eq!(walker.next_page(page), Ok(Page::More));
/// assert_eq!(walker.cursor(), Some("p2"));
/// let again = RawJson::parse(br#"{"tools":[],"nextCursor":"p2"}"#).unwrap();
/// assert_eq!(walker.next_page(again), Err(PaginationError::RepeatedCursor));
/// ```
#[derive(Clone, Debug)]
pub struct PageWalker<const C: usize = 256> {
    cursor: heapless::String<C>,
    has_cursor: bool,
    pages: u32,
    max_pages: u32,
    done: bool,
    /// Brent's saved cursor, compared with each new one.
    checkpoint: heapless::String<C>,
    has_checkpoint: bool,
    power: u32,
    steps: u32,
}

impl<const C: usize> PageWalker<C> {
    /// A walker that gives up after `max_pages` pages.
    pub fn new(max_pages: u32) -> Self {
        Self {
            cursor: heapless::String::new(),
            has_cursor: false,
            pages: 0,
            max_pages,
            done: false,
            checkpoint: heapless::String::new(),
            has_checkpoint: false,
            power: 1,
            steps: 0,
        }
    }

    /// The cursor for the next request; `None` for the first page.
    pub fn cursor(&self) -> Option<&str> {
        self.has_cursor.then_some(self.cursor.as_str())
    }

    /// The params for the next list request: `{}` or `{"cursor": …}`.
    pub fn params(&self) -> PageParams<'_> {
        PageParams { cursor: self.cursor() }
    }

    /// Pages received so far.
    pub fn pages(&self) -> u32 {
        self.pages
    }

    /// Whether the last page was received.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Takes one page's result and reads its `nextCursor`.
    pub fn next_page(&mut self, result: RawJson<'_>) -> Result<Page, PaginationError> {
        if self.done {
            return Err(PaginationError::Finished);
        }
        self.pages += 1;
        let next = match result.get("nextCursor") {
            None => None,
            Some(v) if v.is_null() => None,
            Some(v) => Some(v.as_str().ok_or(PaginationError::InvalidCursor)?),
        };
        let Some(next) = next else {
            self.done = true;
            return Ok(Page::Done);
        };
        if self.pages >= self.max_pages {
            self.done = true;
            return Err(PaginationError::TooManyPages { max: self.max_pages });
        }
        let len = next.unescaped_len();
        let mut text: heapless::String<C> = heapless::String::new();
        for c in next.chars() {
            text.push(c).map_err(|_| PaginationError::CursorTooLong { len })?;
        }
        let repeated = (self.has_cursor && text == self.cursor) || (self.has_checkpoint && text == self.checkpoint);
        if repeated {
            self.done = true;
            return Err(PaginationError::RepeatedCursor);
        }
        if self.steps == self.power {
            self.checkpoint = text.clone();
            self.has_checkpoint = true;
            self.power = self.power.saturating_mul(2);
            self.steps = 0;
        }
        self.steps += 1;
        self.cursor = text;
        self.has_cursor = true;
        Ok(Page::More)
    }
}

/// Params of a paginated list request.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct PageParams<'c> {
    /// The cursor, absent for the first page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cursor: Option<&'c str>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> std::string::String {
        std::format!("\"{s}\"")
    }

    #[test]
    fn siphash_matches_the_reference_vector() {
        // Key 00..0f, message 00..0e: the paper's test vector.
        let key: [u8; 16] = core::array::from_fn(|i| i as u8);
        let msg: [u8; 15] = core::array::from_fn(|i| i as u8);
        let codec = CursorCodec::new(key);
        assert_eq!(siphash24(codec.key, &msg), 0xa129_ca61_49be_45e5);
    }

    #[test]
    fn cursors_round_trip_and_refuse_forgeries() {
        let codec = CursorCodec::new([7; 16]);
        for pos in [0, 1, 20, u32::MAX] {
            let c = codec.encode(pos);
            let json = text(c.as_str());
            let s = RawJson::parse(json.as_bytes()).unwrap().as_str().unwrap();
            assert_eq!(codec.decode(s), Ok(pos));
        }
        // Changing the position without the key breaks the tag.
        let mut forged = codec.encode(20).0;
        forged[7] = if forged[7] == b'0' { b'1' } else { b'0' };
        let json = text(core::str::from_utf8(&forged).unwrap());
        let s = RawJson::parse(json.as_bytes()).unwrap().as_str().unwrap();
        assert_eq!(codec.decode(s), Err(CursorError::Invalid));
        for bad in ["", "zz", "0123", "00000014000000000000000000000000X"] {
            let json = text(bad);
            let s = RawJson::parse(json.as_bytes()).unwrap().as_str().unwrap();
            assert_eq!(codec.decode(s), Err(CursorError::Invalid), "{bad}");
        }
        let other_key = CursorCodec::new([8; 16]);
        let json = text(codec.encode(3).as_str());
        let s = RawJson::parse(json.as_bytes()).unwrap().as_str().unwrap();
        assert_eq!(other_key.decode(s), Err(CursorError::Invalid));
        assert_eq!(codec.with_epoch(2).decode(s), Err(CursorError::Stale));
        assert_eq!(CursorError::Stale.code(), ErrorCode::INVALID_PARAMS);
    }

    fn page(next: Option<&str>) -> std::string::String {
        match next {
            Some(c) => std::format!(r#"{{"items":[],"nextCursor":"{c}"}}"#),
            None => r#"{"items":[]}"#.into(),
        }
    }

    #[test]
    fn walker_follows_to_the_end() {
        let mut w = PageWalker::<16>::new(10);
        for c in ["a", "b", "c"] {
            let p = page(Some(c));
            assert_eq!(w.next_page(RawJson::parse(p.as_bytes()).unwrap()), Ok(Page::More));
            assert_eq!(w.cursor(), Some(c));
        }
        let p = page(None);
        assert_eq!(w.next_page(RawJson::parse(p.as_bytes()).unwrap()), Ok(Page::Done));
        assert_eq!((w.pages(), w.is_done()), (4, true));
        assert_eq!(w.next_page(RawJson::parse(p.as_bytes()).unwrap()), Err(PaginationError::Finished));
    }

    #[test]
    fn walker_detects_cycles_of_any_length() {
        for cycle in 1..20usize {
            let mut w = PageWalker::<16>::new(1000);
            let mut n = 0;
            let err = loop {
                let c = std::format!("c{}", n % cycle);
                let p = page(Some(&c));
                match w.next_page(RawJson::parse(p.as_bytes()).unwrap()) {
                    Ok(_) => n += 1,
                    Err(e) => break e,
                }
            };
            assert_eq!(err, PaginationError::RepeatedCursor);
            assert!(n <= 3 * cycle + 2, "cycle {cycle} found after {n} pages");
        }
    }

    #[test]
    fn walker_tells_apart_cursors_a_hash_could_confuse() {
        // Long distinct cursors sharing every byte but one: any cursor seen once is
        // compared whole, never by a digest.
        let mut w = PageWalker::<64>::new(1000);
        for n in 0..200 {
            let c = std::format!("{}{n:03}", "c".repeat(40));
            let p = page(Some(&c));
            assert_eq!(w.next_page(RawJson::parse(p.as_bytes()).unwrap()), Ok(Page::More), "{n}");
        }
    }

    #[test]
    fn walker_caps_pages_and_cursor_length() {
        let mut w = PageWalker::<4>::new(2);
        let p = page(Some("abcde"));
        assert_eq!(w.next_page(RawJson::parse(p.as_bytes()).unwrap()), Err(PaginationError::CursorTooLong { len: 5 }));
        let mut w = PageWalker::<4>::new(2);
        let p1 = page(Some("a"));
        let p2 = page(Some("b"));
        assert_eq!(w.next_page(RawJson::parse(p1.as_bytes()).unwrap()), Ok(Page::More));
        assert_eq!(w.next_page(RawJson::parse(p2.as_bytes()).unwrap()), Err(PaginationError::TooManyPages { max: 2 }));
    }
}
