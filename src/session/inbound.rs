//! Requests the peer sent that this endpoint has not answered yet.
//!
//! Each slot remembers the id (to refuse a duplicate while it is in flight and to match
//! cancellations), whether the peer cancelled it (so that no response is ever sent for
//! it), and its progress token with the last value sent (progress must strictly increase
//! and stops with the response).

use crate::wire::{NumberBuf, RequestId, RequestIdRef};

/// One request of the peer's being worked on.
#[derive(Clone, Debug)]
pub(crate) struct InEntry {
    pub id: RequestId,
    pub cancelled: bool,
    pub token: Option<RequestId>,
    pub last_progress: Option<NumberBuf>,
}

pub(crate) struct Inbound<const M: usize> {
    slots: [Option<InEntry>; M],
}

impl<const M: usize> Inbound<M> {
    pub fn new() -> Self {
        Self { slots: core::array::from_fn(|_| None) }
    }

    /// The slot of the request with this id.
    pub fn find(&self, id: RequestIdRef<'_>) -> Option<usize> {
        self.slots.iter().position(|s| s.as_ref().is_some_and(|e| e.id == id))
    }

    pub fn free_slot(&self) -> Option<usize> {
        self.slots.iter().position(Option::is_none)
    }

    /// Fills a slot [`free_slot`](Self::free_slot) returned.
    pub fn insert(&mut self, slot: usize, entry: InEntry) {
        if let Some(s) = self.slots.get_mut(slot) {
            *s = Some(entry);
        }
    }

    /// The slot itself, for a [`Responder`](super::responder::Responder).
    pub fn slot_mut(&mut self, slot: usize) -> Option<&mut Option<InEntry>> {
        self.slots.get_mut(slot)
    }

    /// Marks request `id` cancelled by the peer. `false` if there is no such request or
    /// it was already cancelled.
    pub fn cancel(&mut self, id: RequestIdRef<'_>) -> bool {
        let Some(entry) = self.slots.iter_mut().flatten().find(|e| e.id == id) else { return false };
        if entry.cancelled {
            return false;
        }
        entry.cancelled = true;
        true
    }

    /// Forgets every request (the session was shut down).
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = None);
    }

    pub fn in_flight(&self) -> usize {
        self.slots.iter().flatten().count()
    }

    /// Requests that still need an answer (cancelled ones need none).
    pub fn owed(&self) -> usize {
        self.slots.iter().flatten().filter(|e| !e.cancelled).count()
    }
}
