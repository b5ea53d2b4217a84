//! Requests beyond the inbound slots, held in the receive buffer until a slot frees.
//!
//! A request that arrives while every slot is taken is not refused: its bytes move to
//! the top of the receive buffer, and the framer reads on below them, so the responses,
//! cancellations, pings and notifications behind it are processed at once (a server
//! waiting on a sampling answer must still read it). Held requests are delivered
//! oldest first as slots free. They cost no memory beyond the buffer, and at most half
//! of it: past that a request is refused (-32603), and when a frame needs the room the
//! newest held requests are refused to make it, so reading never stops.
//!
//! Layout of the receive buffer `rx` (capacity `cap`):
//!
//! ```text
//! [0 .. limit)       the framer's buffer: lines being received and processed
//! [limit .. cap)     held entries, the newest at `limit`, the oldest at the top
//! ```
//!
//! An entry is a [`HEADER`]-byte header (the line's length, its origin, flags, where its
//! id token is) and the line.

use crate::wire::{RequestId, RequestIdRef};

/// Bytes before each held line.
pub(crate) const HEADER: usize = 14;

const ORIGIN_PRESENT: u8 = 1;
const DROPPED: u8 = 2;

/// A held entry's header.
#[derive(Clone, Copy, Debug)]
struct Entry {
    len: usize,
    origin: Option<u32>,
    dropped: bool,
    id_off: usize,
    id_len: usize,
}

impl Entry {
    fn read(bytes: &[u8]) -> Option<Entry> {
        let h = bytes.get(..HEADER)?;
        let word = |i: usize| u32::from_le_bytes([h[i], h[i + 1], h[i + 2], h[i + 3]]) as usize;
        let flags = h[8];
        Some(Entry {
            len: word(0),
            origin: (flags & ORIGIN_PRESENT != 0).then(|| word(4) as u32),
            dropped: flags & DROPPED != 0,
            id_len: usize::from(h[9]),
            id_off: word(10),
        })
    }

    fn write(&self, out: &mut [u8]) {
        out[0..4].copy_from_slice(&(self.len as u32).to_le_bytes());
        out[4..8].copy_from_slice(&self.origin.unwrap_or(0).to_le_bytes());
        out[8] = if self.origin.is_some() { ORIGIN_PRESENT } else { 0 } | if self.dropped { DROPPED } else { 0 };
        out[9] = self.id_len as u8;
        out[10..14].copy_from_slice(&(self.id_off as u32).to_le_bytes());
    }

    fn size(&self) -> usize {
        HEADER + self.len
    }

    fn id<'b>(&self, line: &'b [u8]) -> RequestIdRef<'b> {
        RequestIdRef::from_validated(line.get(self.id_off..self.id_off + self.id_len).unwrap_or_default())
    }
}

/// The part of the receive buffer above the framer's bytes, writable while those are
/// borrowed: `bytes` is `rx[base..]`.
pub(crate) struct Area<'u> {
    pub bytes: &'u mut [u8],
    pub base: usize,
}

/// A held request handed back: its line and origin.
pub(crate) struct HeldRequest<'b> {
    pub line: &'b [u8],
    pub origin: Option<u32>,
}

/// The held region's bookkeeping (its bytes are in the receive buffer).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Held {
    /// Where the region starts: the framer's buffer is `rx[..limit]`.
    limit: usize,
    /// The receive buffer's length.
    cap: usize,
    /// Entries not dropped.
    count: usize,
    /// The oldest entry was delivered; it is removed before the buffer is next written.
    delivered: bool,
    /// Some entries are dropped (cancelled) and wait to be removed.
    dropped: bool,
}

impl Held {
    pub fn new(cap: usize) -> Self {
        Self { limit: cap, cap, count: 0, delivered: false, dropped: false }
    }

    /// The end of the framer's buffer.
    #[inline]
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// The receive buffer's length.
    pub fn capacity(&self) -> usize {
        self.cap
    }

    /// Whether the region holds nothing at all.
    pub fn is_empty(&self) -> bool {
        self.limit == self.cap && !self.delivered
    }

    /// Requests held and not yet delivered.
    #[inline]
    pub fn count(&self) -> usize {
        self.count - usize::from(self.delivered)
    }

    /// Entries in `region` (`rx[limit..]`), the newest first, with their offsets in it.
    fn entries(region: &[u8]) -> impl Iterator<Item = (usize, Entry)> + '_ {
        let mut pos = 0;
        core::iter::from_fn(move || {
            let entry = Entry::read(region.get(pos..)?)?;
            let at = pos;
            pos += entry.size();
            Some((at, entry))
        })
    }

    fn region<'a>(&self, area: &'a Area<'_>) -> &'a [u8] {
        area.bytes.get(self.limit.saturating_sub(area.base)..).unwrap_or_default()
    }

    /// Holds `line` (a request whose id token is the sub-slice `id` of it), from
    /// `origin`. `false` if it does not fit: the room below the region is too small, or
    /// held requests would take more than half the buffer.
    pub fn hold(&mut self, area: &mut Area<'_>, line: &[u8], id: &[u8], origin: Option<u32>) -> bool {
        let size = HEADER + line.len();
        let free = self.limit.saturating_sub(area.base);
        if size > free || (self.cap - self.limit) + size > self.cap / 2 {
            return false;
        }
        let id_off = (id.as_ptr() as usize).wrapping_sub(line.as_ptr() as usize);
        if id_off > line.len() || id.len() > usize::from(u8::MAX) {
            return false;
        }
        let at = free - size;
        let entry = Entry { len: line.len(), origin, dropped: false, id_off, id_len: id.len() };
        entry.write(&mut area.bytes[at..at + HEADER]);
        area.bytes[at + HEADER..at + size].copy_from_slice(line);
        self.limit -= size;
        self.count += 1;
        true
    }

    /// Whether a held request (not yet delivered) has this id, from `from` if given (in
    /// the stateless era a request is named by its channel and its id).
    pub fn contains(&self, area: &Area<'_>, id: RequestIdRef<'_>, from: Option<Option<u32>>) -> bool {
        if self.count() == 0 {
            return false;
        }
        let region = self.region(area);
        let oldest = self.oldest_at(region);
        Held::entries(region).any(|(at, e)| {
            self.waiting(at, &e, oldest) && from.is_none_or(|o| o == e.origin) && e.id(&region[at + HEADER..]) == id
        })
    }

    /// Whether the entry at `at` still waits for delivery (not dropped, not the one
    /// just delivered, which is `oldest`).
    fn waiting(&self, at: usize, e: &Entry, oldest: Option<usize>) -> bool {
        !(e.dropped || self.delivered && Some(at) == oldest)
    }

    /// Drops the held request with this id (from `from`, if given): the peer cancelled
    /// it, so it is never delivered nor answered. `false` if there is none.
    pub fn cancel(&mut self, area: &mut Area<'_>, id: RequestIdRef<'_>, from: Option<Option<u32>>) -> bool {
        if self.count() == 0 {
            return false;
        }
        let start = self.limit.saturating_sub(area.base);
        let oldest = self.oldest_at(self.region(area));
        let Some(region) = area.bytes.get_mut(start..) else { return false };
        let found = Held::entries(region).find(|(at, e)| {
            self.waiting(*at, e, oldest) && from.is_none_or(|o| o == e.origin) && e.id(&region[at + HEADER..]) == id
        });
        let Some((at, mut entry)) = found else { return false };
        entry.dropped = true;
        entry.write(&mut region[at..at + HEADER]);
        self.count -= 1;
        self.dropped = true;
        true
    }

    /// Drops every held request that came in on `origin` (its stream closed): they are
    /// never delivered nor answered. Returns how many.
    pub fn drop_origin(&mut self, rx: &mut [u8], origin: u32) -> usize {
        if self.count() == 0 {
            return 0;
        }
        let limit = self.limit;
        let oldest = self.oldest_at(rx.get(limit..).unwrap_or_default());
        let Some(region) = rx.get_mut(limit..) else { return 0 };
        let mut n = 0;
        let mut pos = 0;
        while let Some(mut entry) = region.get(pos..).and_then(Entry::read) {
            if self.waiting(pos, &entry, oldest) && entry.origin == Some(origin) {
                entry.dropped = true;
                entry.write(&mut region[pos..pos + HEADER]);
                n += 1;
            }
            pos += entry.size();
        }
        self.count -= n;
        self.dropped |= n > 0;
        n
    }

    /// Offset in `region` of the oldest entry not dropped.
    fn oldest_at(&self, region: &[u8]) -> Option<usize> {
        Held::entries(region).filter(|(_, e)| !e.dropped).last().map(|(at, _)| at)
    }

    /// The oldest held request, in `region` (`rx[limit..]`), to deliver; it is removed
    /// by the next [`settle`](Self::settle).
    pub fn deliver<'b>(&mut self, region: &'b [u8]) -> Option<HeldRequest<'b>> {
        if self.count() == 0 {
            return None;
        }
        let at = self.oldest_at(region)?;
        let entry = Entry::read(&region[at..])?;
        self.delivered = true;
        Some(HeldRequest { line: region.get(at + HEADER..at + entry.size())?, origin: entry.origin })
    }

    /// Removes the delivered and the dropped entries from `rx`, packing the rest at the
    /// top. Runs before anything writes the buffer.
    #[inline]
    pub fn settle(&mut self, rx: &mut [u8]) {
        if self.delivered || self.dropped {
            self.compact(rx);
        }
    }

    fn compact(&mut self, rx: &mut [u8]) {
        self.dropped = false;
        if self.delivered {
            self.delivered = false;
            let region = rx.get_mut(self.limit..).unwrap_or_default();
            if let Some(at) = self.oldest_at(region)
                && let Some(mut entry) = Entry::read(&region[at..])
            {
                entry.dropped = true;
                entry.write(&mut region[at..at + HEADER]);
                self.count -= 1;
            }
        }
        if self.count == 0 {
            self.limit = self.cap;
            return;
        }
        let mut pos = self.limit;
        while let Some(entry) = rx.get(pos..).and_then(Entry::read) {
            let size = entry.size();
            if entry.dropped {
                crate::wire::shift::copy_within(rx, self.limit..pos, self.limit + size);
                self.limit += size;
            }
            pos += size;
        }
    }

    /// The newest held request's id and origin, to refuse it when its room is needed.
    pub fn newest(&self, rx: &[u8]) -> Option<(RequestId, Option<u32>)> {
        let region = rx.get(self.limit..)?;
        let (at, entry) = Held::entries(region).find(|(_, e)| !e.dropped)?;
        let id = entry.id(&region[at + HEADER..]).to_owned().ok()?;
        Some((id, entry.origin))
    }

    /// Removes the newest held request (refused by the caller), and any dropped entries
    /// in front of it.
    pub fn remove_newest(&mut self, rx: &[u8]) {
        while let Some(entry) = rx.get(self.limit..).and_then(Entry::read) {
            self.limit += entry.size();
            if !entry.dropped {
                self.count -= 1;
                break;
            }
        }
        if self.count == 0 {
            self.limit = self.cap;
        }
    }

    /// Forgets every held request (the session was shut down).
    pub fn clear(&mut self) {
        *self = Held::new(self.cap);
    }
}
