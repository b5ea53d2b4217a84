//! Requests this endpoint sent and awaits answers to: fixed slots, ids, deadlines.
//!
//! Ids are integers counted up from 1 and never reused on a connection, so an id below
//! the next one to allocate that is not in a slot belongs to a request that already ended
//! (a late or duplicate response), and anything else was never sent.

use core::time::Duration;

use super::event::CloseReason;
use crate::mcp::Method;
use crate::time::Instant;
use crate::wire::NumberBuf;

/// How a request ended before its response arrived (the event is still to be delivered).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Ended {
    TimedOut,
    Failed(CloseReason),
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct OutEntry {
    pub id: u64,
    pub method: Option<Method<'static>>,
    pub idle: Duration,
    pub idle_deadline: Instant,
    pub max_deadline: Instant,
    pub progress: bool,
    pub reset_on_progress: bool,
    pub last_progress: Option<NumberBuf>,
    /// Set when the request ended without a response; the slot is freed once the
    /// event is delivered.
    pub ended: Option<Ended>,
    /// A timeout happened but `notifications/cancelled` is not written yet (the transmit
    /// buffer was full); written before the event is delivered.
    pub cancel_unsent: bool,
}

impl OutEntry {
    /// When the request times out.
    pub fn deadline(&self) -> Instant {
        self.idle_deadline.min(self.max_deadline)
    }
}

/// Where a response's id points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lookup {
    /// A live request in this slot.
    Live(usize),
    /// A request that ended (answered, timed out, cancelled, failed).
    Ended,
    /// An id this endpoint never used.
    Unknown,
}

pub(crate) struct Outbound<const N: usize> {
    pub slots: [Option<OutEntry>; N],
    /// The next id to hand out; ids below it were used.
    next_id: u64,
}

impl<const N: usize> Outbound<N> {
    pub fn new() -> Self {
        Self { slots: [None; N], next_id: 1 }
    }

    /// A fresh id (never reused on this connection).
    pub fn allocate_id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// The id the next allocation will return.
    pub fn peek_id(&self) -> u64 {
        self.next_id
    }

    pub fn free_slot(&self) -> Option<usize> {
        self.slots.iter().position(Option::is_none)
    }

    pub fn in_flight(&self) -> usize {
        self.slots.iter().filter(|s| s.is_some_and(|e| e.ended.is_none())).count()
    }

    pub fn find(&self, id: u64) -> Option<usize> {
        self.slots.iter().position(|s| s.is_some_and(|e| e.id == id))
    }

    /// Classifies a response id: `None` when the token is not one of our integers.
    pub fn lookup(&self, id: Option<u64>) -> Lookup {
        let Some(id) = id.filter(|&id| id > 0 && id < self.next_id) else {
            return Lookup::Unknown;
        };
        match self.find(id) {
            Some(i) if self.slots[i].is_some_and(|e| e.ended.is_none()) => Lookup::Live(i),
            _ => Lookup::Ended,
        }
    }

    /// The earliest deadline of a live request.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.slots.iter().flatten().filter(|e| e.ended.is_none()).map(OutEntry::deadline).min()
    }
}
