//! The session store of the std server: a slab of entries indexed by a hash map from
//! session id, so that lookups stay O(1) with thousands of sessions.

use std::collections::HashMap;

use crate::http::server::{Entry, SessionHandle, SessionId, SessionStore};

pub(crate) struct MapStore<V> {
    slots: Vec<Option<Entry<V>>>,
    generations: Vec<u32>,
    free: Vec<u32>,
    index: HashMap<SessionId, u32>,
    capacity: usize,
    len: usize,
}

impl<V> MapStore<V> {
    pub fn new(capacity: usize) -> Self {
        MapStore {
            slots: Vec::new(),
            generations: Vec::new(),
            free: Vec::new(),
            index: HashMap::new(),
            capacity,
            len: 0,
        }
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
        let &i = self.index.get(&id)?;
        Some(SessionHandle { index: i, generation: self.generations[i as usize] })
    }

    fn get(&self, h: SessionHandle) -> Option<&Entry<V>> {
        self.slot(h).and_then(|i| self.slots[i].as_ref())
    }

    fn get_mut(&mut self, h: SessionHandle) -> Option<&mut Entry<V>> {
        self.slot(h).and_then(|i| self.slots[i].as_mut())
    }

    fn insert(&mut self, entry: Entry<V>) -> Result<SessionHandle, Entry<V>> {
        if self.len >= self.capacity {
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
        self.index.insert(entry.id, i as u32);
        self.slots[i] = Some(entry);
        self.len += 1;
        Ok(SessionHandle { index: i as u32, generation: self.generations[i] })
    }

    fn remove(&mut self, h: SessionHandle) -> Option<Entry<V>> {
        let i = self.slot(h)?;
        let entry = self.slots[i].take()?;
        self.index.remove(&entry.id);
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
