//! The session table: which ids are live, which ended, and when idle ones expire.
//!
//! Memory is bounded twice: by the store's capacity (a fixed array on a
//! microcontroller, a map the std adapter sizes) and by [`SessionTable::max_live`].
//! A new session when both are used gets [`Refusal::Busy`](super::Refusal::Busy)
//! (503 with `Retry-After`), never unbounded growth; idle sessions expire after the
//! configured time (30 minutes by default) and so make room. Sessions with an open
//! exchange (a POST being answered, a GET stream) are *pinned* and never expire; the
//! idle clock starts when the last exchange closes.
//!
//! Ended sessions (DELETE, expiry) leave a tombstone for one more idle period, so a
//! client that comes back with the id gets 404 (start over) rather than having a
//! signed id quietly rebuilt; tombstones give way to new sessions when room is short.
//!
//! The next expiry is kept as a lower bound, updated in O(1) as sessions are used, so
//! `poll_timeout` costs nothing per session; only a deadline that passed scans the
//! store.

use core::time::Duration;

use super::session_id::SessionId;
use crate::time::Instant;

/// Names one entry of a [`SessionStore`]: its slot and that slot's generation, so a
/// handle kept after the entry was removed names nothing rather than its successor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SessionHandle {
    /// The slot.
    pub index: u32,
    /// The slot's generation when the entry was put there.
    pub generation: u32,
}

/// One session in the table.
#[derive(Debug)]
pub struct Entry<V> {
    /// Its id.
    pub id: SessionId,
    /// When it was last used (a request, or its last exchange closing).
    pub last_active: Instant,
    /// Open exchanges; a pinned session does not expire.
    pub pinned: u32,
    /// The session's state; `None` for a tombstone (an ended session).
    pub value: Option<V>,
}

/// Where the table keeps its entries. [`Slots`] is a fixed array; the std adapter
/// brings a map (a slab of entries indexed by a hash map from id to slot) so lookups
/// stay O(1) with thousands of sessions.
pub trait SessionStore<V> {
    /// The most entries it can hold.
    fn capacity(&self) -> usize;
    /// Entries held, tombstones included.
    fn len(&self) -> usize;
    /// Whether it holds nothing.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The entry with this id.
    fn lookup(&self, id: &str) -> Option<SessionHandle>;
    /// The entry a handle names, if it still does.
    fn get(&self, handle: SessionHandle) -> Option<&Entry<V>>;
    /// The same, mutably.
    fn get_mut(&mut self, handle: SessionHandle) -> Option<&mut Entry<V>>;
    /// Adds an entry (its id is not in the store); gives it back when full.
    fn insert(&mut self, entry: Entry<V>) -> Result<SessionHandle, Entry<V>>;
    /// Removes an entry.
    fn remove(&mut self, handle: SessionHandle) -> Option<Entry<V>>;
    /// The first entry after `after` (from the start with `None`), for sweeps.
    fn next(&self, after: Option<SessionHandle>) -> Option<SessionHandle>;
}

/// A fixed array of `N` entries: the store for embedded servers. Lookups scan it.
pub struct Slots<V, const N: usize> {
    slots: [Option<Entry<V>>; N],
    generations: [u32; N],
    len: usize,
}

impl<V, const N: usize> Default for Slots<V, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V, const N: usize> Slots<V, N> {
    /// An empty store.
    pub fn new() -> Self {
        Self { slots: core::array::from_fn(|_| None), generations: [0; N], len: 0 }
    }

    fn handle(&self, index: usize) -> SessionHandle {
        SessionHandle { index: index as u32, generation: self.generations[index] }
    }

    fn slot(&self, h: SessionHandle) -> Option<usize> {
        let i = h.index as usize;
        (i < N && self.generations[i] == h.generation && self.slots[i].is_some()).then_some(i)
    }
}

impl<V, const N: usize> SessionStore<V> for Slots<V, N> {
    fn capacity(&self) -> usize {
        N
    }

    fn len(&self) -> usize {
        self.len
    }

    fn lookup(&self, id: &str) -> Option<SessionHandle> {
        let i = self.slots.iter().position(|s| s.as_ref().is_some_and(|e| e.id.as_str() == id))?;
        Some(self.handle(i))
    }

    fn get(&self, h: SessionHandle) -> Option<&Entry<V>> {
        self.slot(h).and_then(|i| self.slots[i].as_ref())
    }

    fn get_mut(&mut self, h: SessionHandle) -> Option<&mut Entry<V>> {
        self.slot(h).and_then(|i| self.slots[i].as_mut())
    }

    fn insert(&mut self, entry: Entry<V>) -> Result<SessionHandle, Entry<V>> {
        let Some(i) = self.slots.iter().position(Option::is_none) else { return Err(entry) };
        self.generations[i] = self.generations[i].wrapping_add(1);
        self.slots[i] = Some(entry);
        self.len += 1;
        Ok(self.handle(i))
    }

    fn remove(&mut self, h: SessionHandle) -> Option<Entry<V>> {
        let i = self.slot(h)?;
        self.len -= 1;
        self.slots[i].take()
    }

    fn next(&self, after: Option<SessionHandle>) -> Option<SessionHandle> {
        let from = after.map_or(0, |h| h.index as usize + 1);
        (from..N).find(|&i| self.slots[i].is_some()).map(|i| self.handle(i))
    }
}

/// What a session id names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Lookup {
    /// A live session.
    Live(SessionHandle),
    /// A session that ended (DELETE, expiry): 404.
    Ended,
    /// Nothing: 404, unless a signed id lets the server rebuild it.
    Unknown,
}

/// The session table over a store (see the module docs).
pub struct SessionTable<V, S> {
    store: S,
    idle_timeout: Duration,
    /// Live sessions allowed at once (at most the store's capacity).
    pub max_live: usize,
    live: usize,
    /// No entry expires before this (a lower bound; `None`: nothing can expire).
    earliest: Option<Instant>,
    _value: core::marker::PhantomData<V>,
}

impl<V, S: SessionStore<V>> SessionTable<V, S> {
    /// A table over `store`, ending sessions idle for `idle_timeout`.
    pub fn new(store: S, idle_timeout: Duration) -> Self {
        let max_live = store.capacity();
        Self { store, idle_timeout, max_live, live: 0, earliest: None, _value: core::marker::PhantomData }
    }

    /// Live sessions.
    pub fn live(&self) -> usize {
        self.live
    }

    /// The store.
    pub fn store(&self) -> &S {
        &self.store
    }

    /// What `id` names. The empty id, [`SessionId::UNLISTED`] that stateless exchanges
    /// are opened with, names nothing.
    pub fn lookup(&self, id: &str) -> Lookup {
        if id.is_empty() {
            return Lookup::Unknown;
        }
        match self.store.lookup(id) {
            None => Lookup::Unknown,
            Some(h) => match self.store.get(h) {
                Some(Entry { value: Some(_), .. }) => Lookup::Live(h),
                _ => Lookup::Ended,
            },
        }
    }

    /// Adds a live session (its id must not be in the table). When the table is at
    /// its limit, expired tombstones and then the oldest tombstone make room; when
    /// there is still none the table is full (503) and the entry comes back, its value
    /// in it.
    pub fn open(&mut self, now: Instant, id: SessionId, value: V) -> Result<SessionHandle, Entry<V>> {
        if self.live >= self.max_live || self.store.len() >= self.store.capacity() {
            self.drop_expired_tombstones(now);
        }
        if self.store.len() >= self.store.capacity() {
            self.evict_oldest_tombstone();
        }
        let entry = Entry { id, last_active: now, pinned: 0, value: Some(value) };
        if self.live >= self.max_live || self.store.len() >= self.store.capacity() {
            return Err(entry);
        }
        match self.store.insert(entry) {
            Ok(h) => {
                self.live += 1;
                self.note_deadline(now);
                Ok(h)
            }
            Err(entry) => Err(entry),
        }
    }

    /// The session's state.
    pub fn get_mut(&mut self, h: SessionHandle) -> Option<&mut V> {
        self.store.get_mut(h)?.value.as_mut()
    }

    /// The session's state.
    pub fn get(&self, h: SessionHandle) -> Option<&V> {
        self.store.get(h)?.value.as_ref()
    }

    /// The session's id.
    pub fn id(&self, h: SessionHandle) -> Option<SessionId> {
        self.store.get(h).map(|e| e.id)
    }

    /// Records use of the session now.
    pub fn touch(&mut self, now: Instant, h: SessionHandle) {
        if let Some(e) = self.store.get_mut(h) {
            e.last_active = e.last_active.max(now);
        }
    }

    /// An exchange opened for the session: it does not expire until it closes.
    pub fn pin(&mut self, now: Instant, h: SessionHandle) {
        if let Some(e) = self.store.get_mut(h) {
            e.pinned += 1;
            e.last_active = e.last_active.max(now);
        }
    }

    /// An exchange of the session closed; the idle clock restarts.
    pub fn unpin(&mut self, now: Instant, h: SessionHandle) {
        if let Some(e) = self.store.get_mut(h) {
            e.pinned = e.pinned.saturating_sub(1);
            e.last_active = e.last_active.max(now);
            self.note_deadline(now);
        }
    }

    /// Ends a session: its state is handed back and a tombstone stays.
    pub fn end(&mut self, now: Instant, h: SessionHandle) -> Option<V> {
        let e = self.store.get_mut(h)?;
        let value = e.value.take()?;
        e.last_active = now;
        e.pinned = 0;
        self.live -= 1;
        self.note_deadline(now);
        Some(value)
    }

    /// Ends a session whose id no client ever saw (a 2026-07-28 stateless exchange,
    /// which lives as long as its POST): its state is handed back and, unlike
    /// [`end`](Self::end), no tombstone stays, since nobody can come back with the id.
    /// Tombstones for such exchanges would fill the store at one per request and make
    /// every later [`open`](Self::open) sweep it.
    pub fn forget(&mut self, h: SessionHandle) -> Option<V> {
        self.store.get(h)?.value.as_ref()?;
        let value = self.store.remove(h)?.value?;
        self.live -= 1;
        Some(value)
    }

    /// When the next session may expire (spuriously early is possible, never late).
    pub fn next_deadline(&self) -> Option<Instant> {
        self.earliest
    }

    /// Ends one live session whose idle time is up, handing back its id and state; call
    /// until `None` (each call is O(n) when something is due, O(1) otherwise).
    /// Tombstones whose time is up are dropped on the way.
    pub fn expire(&mut self, now: Instant) -> Option<(SessionId, V)> {
        if self.earliest.is_none_or(|t| t > now) {
            return None;
        }
        let mut earliest: Option<Instant> = None;
        let mut cursor = None;
        let mut expired = None;
        while let Some(h) = self.store.next(cursor) {
            cursor = Some(h);
            let Some(e) = self.store.get(h) else { continue };
            let deadline = e.last_active.saturating_add(self.idle_timeout);
            let due = deadline <= now && e.pinned == 0;
            if due && e.value.is_none() {
                self.store.remove(h);
            } else if due && expired.is_none() {
                expired = Some(h);
            } else if e.pinned == 0 {
                earliest = Some(earliest.map_or(deadline, |t| t.min(deadline)));
            }
        }
        self.earliest = earliest;
        let h = expired?;
        let id = self.store.get(h)?.id;
        let value = self.end(now, h)?;
        Some((id, value))
    }

    fn note_deadline(&mut self, at: Instant) {
        let deadline = at.saturating_add(self.idle_timeout);
        self.earliest = Some(self.earliest.map_or(deadline, |t| t.min(deadline)));
    }

    fn drop_expired_tombstones(&mut self, now: Instant) {
        let mut cursor = None;
        while let Some(h) = self.store.next(cursor) {
            cursor = Some(h);
            if let Some(e) = self.store.get(h)
                && e.value.is_none()
                && e.last_active.saturating_add(self.idle_timeout) <= now
            {
                self.store.remove(h);
            }
        }
    }

    fn evict_oldest_tombstone(&mut self) {
        let mut cursor = None;
        let mut oldest: Option<(SessionHandle, Instant)> = None;
        while let Some(h) = self.store.next(cursor) {
            cursor = Some(h);
            if let Some(e) = self.store.get(h)
                && e.value.is_none()
                && oldest.is_none_or(|(_, t)| e.last_active < t)
            {
                oldest = Some((h, e.last_active));
            }
        }
        if let Some((h, _)) = oldest {
            self.store.remove(h);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const IDLE: Duration = Duration::from_secs(60);

    fn id(n: u8) -> SessionId {
        SessionId::parse(core::str::from_utf8(&[b'a' + n]).unwrap()).unwrap()
    }

    fn t(s: u64) -> Instant {
        Instant::from_secs(s)
    }

    #[test]
    fn open_lookup_end() {
        let mut table: SessionTable<u32, Slots<u32, 3>> = SessionTable::new(Slots::new(), IDLE);
        let a = table.open(t(0), id(0), 10).unwrap();
        assert_eq!(table.lookup("a"), Lookup::Live(a));
        assert_eq!(table.lookup("b"), Lookup::Unknown);
        assert_eq!(table.get(a), Some(&10));
        *table.get_mut(a).unwrap() += 1;
        assert_eq!(table.end(t(1), a), Some(11));
        assert_eq!(table.lookup("a"), Lookup::Ended);
        assert_eq!(table.get(a), None);
        assert_eq!(table.end(t(1), a), None);
        assert_eq!(table.live(), 0);
    }

    #[test]
    fn no_id_names_an_unlisted_session() {
        let mut table: SessionTable<u32, Slots<u32, 3>> = SessionTable::new(Slots::new(), IDLE);
        let a = table.open(t(0), SessionId::UNLISTED, 1).unwrap();
        let b = table.open(t(0), SessionId::UNLISTED, 2).unwrap();
        assert_ne!(a, b);
        assert_eq!((table.get(a), table.get(b)), (Some(&1), Some(&2)));
        assert!(SessionId::UNLISTED.is_unlisted() && !id(0).is_unlisted());
        assert_eq!(SessionId::parse(SessionId::UNLISTED.as_str()), None, "no header parses to it");
        // Even the empty text the store would match finds nothing.
        assert_eq!(table.lookup(""), Lookup::Unknown);
        assert_eq!(table.lookup("a"), Lookup::Unknown);
        assert_eq!(table.forget(a), Some(1));
        assert_eq!(table.lookup(""), Lookup::Unknown);
        assert_eq!(table.live(), 1);
    }

    #[test]
    fn a_forgotten_session_leaves_no_tombstone() {
        let mut table: SessionTable<u32, Slots<u32, 2>> = SessionTable::new(Slots::new(), IDLE);
        let kept = table.open(t(0), id(0), 1).unwrap();
        for n in 0..100u32 {
            let h = table.open(t(1), id(1), n).unwrap();
            assert_eq!(table.forget(h), Some(n));
            assert_eq!(table.forget(h), None, "a handle forgotten names nothing");
            assert_eq!(table.lookup("b"), Lookup::Unknown);
            assert_eq!(table.store().len(), 1, "only the kept session is stored");
        }
        assert_eq!(table.live(), 1);
        assert_eq!(table.get(kept), Some(&1));
        // An ended session is not forgotten (its tombstone stays): `forget` takes live ones only.
        assert_eq!(table.end(t(2), kept), Some(1));
        assert_eq!(table.forget(kept), None);
        assert_eq!(table.lookup("a"), Lookup::Ended);
    }

    #[test]
    fn cap_and_tombstones_make_room() {
        let mut table: SessionTable<u32, Slots<u32, 2>> = SessionTable::new(Slots::new(), IDLE);
        let a = table.open(t(0), id(0), 1).unwrap();
        table.open(t(0), id(1), 2).unwrap();
        let refused = table.open(t(0), id(2), 3).unwrap_err();
        assert_eq!((refused.id, refused.value), (id(2), Some(3)));
        // An ended session's tombstone gives way to a new one.
        table.end(t(1), a);
        let c = table.open(t(2), id(2), 3).unwrap();
        assert_eq!(table.lookup("c"), Lookup::Live(c));
        assert_eq!(table.lookup("a"), Lookup::Unknown);
        // A lower cap than the store.
        let mut capped: SessionTable<u32, Slots<u32, 4>> = SessionTable::new(Slots::new(), IDLE);
        capped.max_live = 1;
        capped.open(t(0), id(0), 1).unwrap();
        assert!(capped.open(t(0), id(1), 2).is_err());
    }

    #[test]
    fn idle_sessions_expire_pinned_ones_do_not() {
        let mut table: SessionTable<u32, Slots<u32, 4>> = SessionTable::new(Slots::new(), IDLE);
        let a = table.open(t(0), id(0), 1).unwrap();
        let b = table.open(t(10), id(1), 2).unwrap();
        let c = table.open(t(20), id(2), 3).unwrap();
        table.pin(t(20), c);
        assert_eq!(table.next_deadline(), Some(t(60)));
        assert_eq!(table.expire(t(59)), None);
        table.touch(t(30), a);
        // The bound is early, never late: nothing is due at 60 after the touch.
        assert_eq!(table.expire(t(60)), None);
        assert_eq!(table.next_deadline(), Some(t(70)));
        assert_eq!(table.expire(t(70)), Some((id(1), 2)));
        assert_eq!(table.lookup("b"), Lookup::Ended);
        assert_eq!(table.expire(t(70)), None);
        assert_eq!(table.expire(t(90)), Some((id(0), 1)));
        // c is pinned: it stays however long.
        assert_eq!(table.expire(t(1000)), None);
        assert_eq!(table.lookup("c"), Lookup::Live(c));
        table.unpin(t(1000), c);
        assert_eq!(table.expire(t(1059)), None);
        assert_eq!(table.expire(t(1060)), Some((id(2), 3)));
        // Tombstones go one idle period after the end.
        assert_eq!(table.store().len(), 1);
        assert_eq!(table.expire(t(1120)), None);
        assert_eq!(table.store().len(), 0);
        assert_eq!(table.next_deadline(), None);
        let _ = b;
    }

    #[test]
    fn stale_handles_name_nothing() {
        let mut table: SessionTable<u32, Slots<u32, 1>> = SessionTable::new(Slots::new(), IDLE);
        let a = table.open(t(0), id(0), 1).unwrap();
        table.end(t(0), a);
        let b = table.open(t(0), id(1), 2).unwrap();
        assert_eq!(a.index, b.index);
        assert_eq!(table.get(a), None);
        assert_eq!(table.get(b), Some(&2));
    }
}
