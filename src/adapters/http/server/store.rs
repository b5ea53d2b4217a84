//! The session store of the std server: a slab of entries indexed by a hash map from
//! session id, so that lookups stay O(1) with thousands of sessions.
//!
//! The index is keyed by a 64-bit keyed hash of the id rather than by the id itself (65
//! bytes inline), which keeps an idle session about 100 bytes smaller; the entry's own
//! id is compared on every lookup, so a hash that matches another id finds nothing, and
//! a new id whose hash is taken is refused (503: the client retries and gets another,
//! random id). For random 128-bit ids that happens about once in 10^11 sessions opened
//! among 10,000 live.

use std::collections::HashMap;
use std::hash::{BuildHasher, BuildHasherDefault, Hasher, RandomState};

use crate::http::server::{Entry, SessionHandle, SessionId, SessionStore};

/// The index's keys are hashes already: used as they are.
#[derive(Default)]
struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

pub(crate) struct MapStore<V> {
    slots: Vec<Option<Entry<V>>>,
    generations: Vec<u32>,
    free: Vec<u32>,
    /// Slot by the keyed hash of its id.
    index: HashMap<u64, u32, BuildHasherDefault<Prehashed>>,
    keys: RandomState,
    capacity: usize,
    len: usize,
}

impl<V> MapStore<V> {
    pub fn new(capacity: usize) -> Self {
        MapStore {
            slots: Vec::new(),
            generations: Vec::new(),
            free: Vec::new(),
            index: HashMap::default(),
            keys: RandomState::new(),
            capacity,
            len: 0,
        }
    }

    fn key(&self, id: &SessionId) -> u64 {
        self.keys.hash_one(id.as_str())
    }

    fn slot(&self, h: SessionHandle) -> Option<usize> {
        let i = h.index as usize;
        (self.generations.get(i) == Some(&h.generation) && self.slots[i].is_some()).then_some(i)
    }
}

impl<V> SessionStore<V> for MapStore<V> {
    fn capacity(&self) -> usize {
        self.capacity
    }

    fn len(&self) -> usize {
        self.len
    }

    fn lookup(&self, id: &str) -> Option<SessionHandle> {
        let id = SessionId::parse(id)?;
        let &i = self.index.get(&self.key(&id))?;
        let entry = self.slots.get(i as usize)?.as_ref()?;
        (entry.id == id).then(|| SessionHandle { index: i, generation: self.generations[i as usize] })
    }

    fn get(&self, h: SessionHandle) -> Option<&Entry<V>> {
        self.slot(h).and_then(|i| self.slots[i].as_ref())
    }

    fn get_mut(&mut self, h: SessionHandle) -> Option<&mut Entry<V>> {
        self.slot(h).and_then(|i| self.slots[i].as_mut())
    }

    fn insert(&mut self, entry: Entry<V>) -> Result<SessionHandle, Entry<V>> {
        // An unlisted id (a stateless exchange) is not indexed: no lookup can find it,
        // and its entry costs no hashing.
        let key = (!entry.id.is_unlisted()).then(|| self.key(&entry.id));
        if self.len >= self.capacity || key.is_some_and(|k| self.index.contains_key(&k)) {
            return Err(entry);
        }
        let i = match self.free.pop() {
            Some(i) => i as usize,
            None => {
                self.slots.push(None);
                self.generations.push(0);
                self.slots.len() - 1
            }
        };
        self.generations[i] = self.generations[i].wrapping_add(1);
        if let Some(key) = key {
            self.index.insert(key, i as u32);
        }
        self.slots[i] = Some(entry);
        self.len += 1;
        Ok(SessionHandle { index: i as u32, generation: self.generations[i] })
    }

    fn remove(&mut self, h: SessionHandle) -> Option<Entry<V>> {
        let i = self.slot(h)?;
        let entry = self.slots[i].take()?;
        if !entry.id.is_unlisted() {
            let key = self.key(&entry.id);
            self.index.remove(&key);
        }
        self.free.push(i as u32);
        self.len -= 1;
        Some(entry)
    }

    fn next(&self, after: Option<SessionHandle>) -> Option<SessionHandle> {
        let from = after.map_or(0, |h| h.index as usize + 1);
        (from..self.slots.len())
            .find(|&i| self.slots[i].is_some())
            .map(|i| SessionHandle { index: i as u32, generation: self.generations[i] })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Instant;

    fn entry(id: &str, value: u32) -> Entry<u32> {
        Entry { id: SessionId::parse(id).unwrap(), last_active: Instant::ZERO, pinned: 0, value: Some(value) }
    }

    #[test]
    fn ids_are_found_by_their_hash_and_checked() {
        let mut store: MapStore<u32> = MapStore::new(8);
        let a = store.insert(entry("session-a", 1)).unwrap();
        let b = store.insert(entry("session-b", 2)).unwrap();
        assert_eq!((store.lookup("session-a"), store.lookup("session-b")), (Some(a), Some(b)));
        assert_eq!(store.lookup("session-c"), None);
        // The same id again is refused (its key is taken), nothing changed.
        assert!(store.insert(entry("session-a", 3)).is_err());
        assert_eq!(store.get(a).and_then(|e| e.value), Some(1));
        // A slot reused by another id: the old id and handle find nothing.
        assert_eq!(store.remove(a).and_then(|e| e.value), Some(1));
        assert_eq!(store.lookup("session-a"), None);
        let c = store.insert(entry("session-c", 4)).unwrap();
        assert_eq!((c.index, store.lookup("session-c")), (a.index, Some(c)));
        assert!(store.get(a).is_none());
        // An index entry that names a slot holding another id finds nothing.
        let key = store.key(&SessionId::parse("session-z").unwrap());
        store.index.insert(key, c.index);
        assert_eq!(store.lookup("session-z"), None);
    }

    #[test]
    fn unlisted_entries_are_kept_but_not_indexed() {
        let mut store: MapStore<u32> = MapStore::new(8);
        let listed = store.insert(entry("session-a", 1)).unwrap();
        let unlisted =
            |value| Entry { id: SessionId::UNLISTED, last_active: Instant::ZERO, pinned: 0, value: Some(value) };
        // Any number of them: they share no key, and none is hashed into the index.
        let a = store.insert(unlisted(2)).unwrap();
        let b = store.insert(unlisted(3)).unwrap();
        assert_eq!((store.len(), store.index.len()), (3, 1));
        assert_eq!((store.get(a).and_then(|e| e.value), store.get(b).and_then(|e| e.value)), (Some(2), Some(3)));
        assert_eq!(store.lookup(""), None);
        assert_eq!(store.remove(a).and_then(|e| e.value), Some(2));
        // Removing one leaves the listed session's index entry alone.
        assert_eq!((store.lookup("session-a"), store.index.len()), (Some(listed), 1));
        assert!(store.remove(b).is_some() && store.remove(listed).is_some());
        assert!(store.index.is_empty());
    }
}
