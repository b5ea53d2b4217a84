//! Requests this endpoint sent and awaits answers to: fixed slots, ids, deadlines.
//!
//! Ids are integers counted up from 1 and never reused on a connection, so an id below
//! the next one to allocate that is not in a slot belongs to a request that already ended
//! (a late or duplicate response), and anything else was never sent.

use core::time::Duration;

use super::event::CloseReason;
use super::transmit::Origin;
use crate::mcp::Method;
use crate::time::Instant;
use crate::wire::NumberBuf;

/// The deadline of a request without one (a listen stream's): the far end of the clock,
/// never due and never reported by `poll_timeout`.
const NEVER: Instant = Instant::from_millis(u64::MAX);

/// How a request ended before its response arrived (the event is still to be delivered).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Ended {
    TimedOut,
    Failed(CloseReason),
}

/// One request of ours in flight.
#[derive(Clone, Copy, Debug)]
pub(crate) struct OutEntry {
    pub id: u64,
    pub method: Option<Method<'static>>,
    /// The idle timeout, to restart it on progress.
    idle: Duration,
    idle_deadline: Instant,
    max_deadline: Instant,
    /// The request asked for progress notifications.
    pub progress: bool,
    pub reset_on_progress: bool,
    last_progress: Option<NumberBuf>,
    /// Set when the request ended without a response; the slot is freed once the
    /// event is delivered.
    ended: Option<Ended>,
    /// A timeout happened but `notifications/cancelled` is not written yet (the transmit
    /// buffer was full); written before the event is delivered.
    cancel_unsent: bool,
    /// The channel of the peer's request this one relates to: its cancellation goes
    /// there too.
    pub origin: Option<Origin>,
    /// Sent in the stateless era: its answer is read by `resultType`.
    pub modern: bool,
    /// A `subscriptions/listen` stream of ours: notifications tagged with its id are
    /// its, and it has no timeout unless one was asked for.
    pub listen: bool,
    /// A listen stream of ours that the server acknowledged.
    pub acked: bool,
    /// A digest of what the request is about (`params.name`, or `params.uri` for
    /// `resources/read`), so that a retry after `input_required` can be checked to be
    /// about the same thing.
    pub target: u64,
}

impl OutEntry {
    /// A live request sent at `now` with these timeouts.
    pub fn new(id: u64, method: Option<Method<'static>>, now: Instant, idle: Duration, max: Duration) -> Self {
        OutEntry {
            id,
            method,
            idle,
            idle_deadline: now + idle,
            max_deadline: now + max,
            progress: false,
            reset_on_progress: false,
            last_progress: None,
            ended: None,
            cancel_unsent: false,
            origin: None,
            modern: false,
            listen: false,
            acked: false,
            target: 0,
        }
    }

    /// When the request times out.
    fn deadline(&self) -> Instant {
        self.idle_deadline.min(self.max_deadline)
    }

    fn is_live(&self) -> bool {
        self.ended.is_none()
    }

    /// The last progress value received.
    pub fn last_progress(&self) -> Option<NumberBuf> {
        self.last_progress
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

#[cfg_attr(test, derive(Debug))]
pub(crate) struct Outbound<const N: usize> {
    slots: [Option<OutEntry>; N],
    /// The next id to hand out; ids below it were used.
    next_id: u64,
    /// The earliest deadline of a live request, kept up to date by every change so that
    /// the drain, which asks on every call, does not walk the slots.
    earliest: Option<Instant>,
    /// Requests that ended without an answer and wait for their event.
    ended: usize,
}

impl<const N: usize> Outbound<N> {
    pub fn new() -> Self {
        Self { slots: [None; N], next_id: 1, earliest: None, ended: 0 }
    }

    /// Back to [`new`](Self::new)'s state, in place (see `Endpoint::reset`).
    pub fn reset(&mut self) {
        let Self { slots, next_id, earliest, ended } = self;
        slots.iter_mut().for_each(|s| *s = None);
        (*next_id, *earliest, *ended) = (1, None, 0);
    }

    fn recount(&mut self) {
        let live = self.slots.iter().flatten().filter(|e| e.is_live());
        self.earliest = live.map(OutEntry::deadline).filter(|d| *d != NEVER).min();
        self.ended = self.slots.iter().flatten().filter(|e| !e.is_live()).count();
    }

    /// A live request with `deadline` is over or moved: the earliest may change.
    fn gone(&mut self, deadline: Instant) {
        if Some(deadline) == self.earliest {
            self.recount();
        }
    }

    /// Takes the id [`peek_id`](Self::peek_id) returned (never reused on this connection).
    pub fn allocate_id(&mut self) {
        self.next_id += 1;
    }

    /// The id the next allocation will return.
    pub fn peek_id(&self) -> u64 {
        self.next_id
    }

    /// Starts ids at `id` (at least 1), for a resumed session.
    pub fn start_ids_at(&mut self, id: u64) {
        self.next_id = id.max(1);
    }

    pub fn free_slot(&self) -> Option<usize> {
        self.slots.iter().position(Option::is_none)
    }

    /// Fills a slot [`free_slot`](Self::free_slot) returned.
    pub fn insert(&mut self, slot: usize, entry: OutEntry) {
        let Some(place) = self.slots.get_mut(slot) else { return };
        *place = Some(entry);
        let d = entry.deadline();
        if d != NEVER {
            self.earliest = Some(self.earliest.map_or(d, |e| e.min(d)));
        }
    }

    /// Live requests.
    pub fn in_flight(&self) -> usize {
        self.slots.iter().flatten().filter(|e| e.is_live()).count()
    }

    /// Whether any slot is taken (live, or ended with its event still to deliver).
    pub fn any(&self) -> bool {
        self.slots.iter().any(Option::is_some)
    }

    fn find(&self, id: u64) -> Option<usize> {
        self.slots.iter().position(|s| s.is_some_and(|e| e.id == id))
    }

    /// Classifies a response id: `None` when the token is not one of our integers.
    pub fn lookup(&self, id: Option<u64>) -> Lookup {
        let Some(id) = id.filter(|&id| id > 0 && id < self.next_id) else {
            return Lookup::Unknown;
        };
        match self.find(id) {
            Some(i) if self.slots[i].is_some_and(|e| e.is_live()) => Lookup::Live(i),
            _ => Lookup::Ended,
        }
    }

    /// The live request in `slot`.
    pub fn live(&self, slot: usize) -> Option<&OutEntry> {
        self.slots.get(slot)?.as_ref().filter(|e| e.is_live())
    }

    /// Records progress `value` on the live request in `slot`, restarting its idle
    /// timeout at `now` if it asked for that.
    pub fn progressed(&mut self, slot: usize, value: NumberBuf, now: Instant) {
        let Some(Some(e)) = self.slots.get_mut(slot) else { return };
        e.last_progress = Some(value);
        if e.reset_on_progress {
            let before = e.deadline();
            e.idle_deadline = now + e.idle;
            self.gone(before);
        }
    }

    /// Frees `slot`, returning its request (its answer arrived).
    pub fn take(&mut self, slot: usize) -> Option<OutEntry> {
        let entry = self.slots.get_mut(slot)?.take()?;
        if entry.is_live() {
            self.gone(entry.deadline());
        } else {
            self.recount();
        }
        Some(entry)
    }

    /// The live listen stream of ours with this id.
    pub fn live_listen(&self, id: Option<u64>) -> Option<usize> {
        match self.lookup(id) {
            Lookup::Live(i) if self.slots[i].is_some_and(|e| e.listen) => Some(i),
            _ => None,
        }
    }

    /// The listen stream in `slot` was acknowledged: its id.
    pub fn acknowledge(&mut self, slot: usize) -> Option<u64> {
        let entry = self.slots.get_mut(slot)?.as_mut()?;
        entry.acked = true;
        Some(entry.id)
    }

    /// Whether the listen stream in `slot` was acknowledged.
    pub fn is_acknowledged(&self, slot: usize) -> bool {
        self.slots.get(slot).is_some_and(|s| s.is_some_and(|e| e.acked))
    }

    /// Whether request `id` is live.
    pub fn is_live(&self, id: u64) -> bool {
        self.find(id).is_some_and(|i| self.slots[i].is_some_and(|e| e.is_live()))
    }

    /// Forgets the live request `id` (the application cancelled it).
    pub fn forget(&mut self, id: u64) {
        if let Some(i) = self.find(id).filter(|&i| self.slots[i].is_some_and(|e| e.is_live())) {
            self.slots[i] = None;
        }
        self.recount();
    }

    /// Whether a live request is due at `now`, or a timed-out one still needs its
    /// `notifications/cancelled`: whether [`needs_cancel`](Self::needs_cancel) can say yes.
    #[inline]
    pub fn any_due(&self, now: Instant) -> bool {
        self.earliest.is_some_and(|t| now >= t)
            || (self.has_ended() && self.slots.iter().flatten().any(|e| e.cancel_unsent))
    }

    /// The id and origin of the request in `slot` if it is due at `now`, or timed out
    /// with its `notifications/cancelled` still unwritten.
    pub fn needs_cancel(&self, slot: usize, now: Instant) -> Option<(u64, Option<Origin>)> {
        let entry = self.slots.get(slot)?.as_ref()?;
        let due = entry.is_live() && now >= entry.deadline();
        (due || entry.cancel_unsent).then_some((entry.id, entry.origin))
    }

    /// The origin of the live request `id`.
    pub fn origin_of(&self, id: u64) -> Option<Origin> {
        self.slots.iter().flatten().find(|e| e.id == id && e.is_live()).and_then(|e| e.origin)
    }

    /// The request in `slot` timed out; `cancel_sent` says whether its
    /// `notifications/cancelled` was written.
    pub fn timed_out(&mut self, slot: usize, cancel_sent: bool) {
        if let Some(Some(e)) = self.slots.get_mut(slot) {
            e.ended = Some(Ended::TimedOut);
            e.cancel_unsent = !cancel_sent;
        }
        self.recount();
    }

    /// Every live request fails for `reason`.
    pub fn fail_all(&mut self, reason: CloseReason) {
        for entry in self.slots.iter_mut().flatten() {
            if entry.is_live() {
                entry.ended = Some(Ended::Failed(reason));
            }
        }
        self.recount();
    }

    /// Whether any request ended (timed out, failed) with its event still to take.
    #[inline]
    pub fn has_ended(&self) -> bool {
        self.ended > 0
    }

    /// Frees the first request that ended without an answer and whose event can be
    /// delivered now.
    #[inline]
    pub fn take_ended(&mut self) -> Option<(OutEntry, Ended)> {
        if !self.has_ended() {
            return None;
        }
        self.take_ended_slow()
    }

    fn take_ended_slow(&mut self) -> Option<(OutEntry, Ended)> {
        for slot in self.slots.iter_mut() {
            let Some(entry) = slot else { continue };
            let Some(ended) = entry.ended else { continue };
            if entry.cancel_unsent {
                // Written by the timers once there is room; the event waits for it.
                continue;
            }
            let entry = *entry;
            *slot = None;
            self.ended -= 1;
            return Some((entry, ended));
        }
        None
    }

    /// The earliest deadline of a live request.
    #[inline]
    pub fn next_deadline(&self) -> Option<Instant> {
        self.earliest
    }
}
