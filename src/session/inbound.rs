//! Requests the peer sent that the application is working on: fixed slots.
//!
//! Each slot remembers the id (to refuse a duplicate while it is in flight and to match
//! cancellations), the serial that names it for the application, its progress token with
//! the last value sent (progress must strictly increase and stops with the response),
//! and its deadline if one is configured. A slot is freed as soon as the request is
//! over: answered, cancelled by the peer, abandoned, or (once its event is delivered)
//! expired.

use super::decorate::Decorate;
use super::modern::ModernCtx;
use super::pending::{Fate, PendingRequest, Serials};
use super::profile::Profile;
use super::transmit::Origin;
use crate::mcp::Method;
use crate::time::Instant;
use crate::wire::{NumberBuf, RequestId, RequestIdRef};

/// One request of the peer's being worked on.
#[derive(Clone, Debug)]
pub(crate) struct InEntry {
    pub id: RequestId,
    pub serial: u64,
    pub method: Option<Method<'static>>,
    pub token: Option<RequestId>,
    pub last_progress: Option<NumberBuf>,
    /// When the endpoint answers it itself if the application has not.
    pub deadline: Option<Instant>,
    /// The deadline passed and the endpoint answered; the slot is freed when the
    /// `Expired` event is delivered.
    pub expired: bool,
    /// The stream it came in on closed (stateless HTTP: the cancellation); the slot is
    /// freed when the `Cancelled` event is delivered.
    pub stream_closed: bool,
    /// The channel it came in on: everything sent for it goes there.
    pub origin: Option<Origin>,
    // A stateless request's context (what its `_meta` said) is kept beside the slots, in
    // storage only an endpoint built for that era has (`Inbound::modern`).
}

impl InEntry {
    /// Whether an answer is still owed.
    pub fn is_live(&self) -> bool {
        !self.expired && !self.stream_closed
    }

    pub fn pending(&self) -> PendingRequest {
        PendingRequest::new(self.id.clone(), self.serial, self.origin)
    }
}

/// What the handle that answers one request needs of the table, as a trait object: two
/// words where a [`Table`] is three, so that a request handle stays within 128 bytes
/// (moved inline inside every `Event::Request`).
pub(crate) trait Slots {
    /// The live request in `slot`, if it is the one with `serial`, to read.
    fn get(&self, slot: Option<usize>, serial: u64) -> Option<&InEntry>;
    /// The same, to change, with its stateless context (what a stateless request said
    /// in its `_meta`: `None` for a handshake request, and always in an endpoint not
    /// built for the stateless era). One call for both: answering is on the hot path.
    fn live(&mut self, slot: Option<usize>, serial: u64) -> Option<(&mut InEntry, Option<&mut ModernCtx>)>;
    /// The stateless context of the live request in `slot`, if it is the one with
    /// `serial` (see [`live`](Self::live)).
    fn modern(&self, slot: Option<usize>, serial: u64) -> Option<ModernCtx>;
    /// What became of `serial`, which is in no live slot.
    fn fate(&self, serial: u64) -> Fate;
    /// Frees `slot` (see [`Table::end`]).
    fn end(&mut self, slot: usize, answered: bool) -> Option<PendingRequest>;
    /// What completes a stateless request's result: `None` in an endpoint not built
    /// for that era (which has no stateless requests). Asked of the table, whose type
    /// carries the endpoint's [`Profile`], so that the function is named only where
    /// the era is built (and the handle does not grow).
    fn decorate(&self) -> Option<Decorate>;
    /// The endpoint's time when the latest request handle was handed out.
    fn now(&self) -> Instant;
}

impl<const M: usize, E: Profile> Slots for Inbound<M, E> {
    fn now(&self) -> Instant {
        self.now
    }

    fn get(&self, slot: Option<usize>, serial: u64) -> Option<&InEntry> {
        self.slots.get(slot?)?.as_ref().filter(|e| e.is_live() && e.serial == serial)
    }

    fn live(&mut self, slot: Option<usize>, serial: u64) -> Option<(&mut InEntry, Option<&mut ModernCtx>)> {
        let slot = slot?;
        let entry = self.slots.get_mut(slot)?.as_mut().filter(|e| e.is_live() && e.serial == serial)?;
        Some((entry, self.modern.as_mut().get_mut(slot).and_then(Option::as_mut)))
    }

    fn modern(&self, slot: Option<usize>, serial: u64) -> Option<ModernCtx> {
        self.get(slot, serial)?;
        *self.modern.as_ref().get(slot?)?
    }

    fn fate(&self, serial: u64) -> Fate {
        self.book.serials.fate(serial)
    }

    fn end(&mut self, slot: usize, answered: bool) -> Option<PendingRequest> {
        self.table().end(slot, answered)
    }

    fn decorate(&self) -> Option<Decorate> {
        match E::STATELESS {
            true => Some(super::decorate::decorate as Decorate),
            false => None,
        }
    }
}

/// The slots of [`Inbound`] with its bookkeeping, as a view that does not depend on the
/// number of slots: the tables' logic.
pub(crate) struct Table<'t> {
    slots: &'t mut [Option<InEntry>],
    /// The slots' stateless contexts: empty in an endpoint not built for that era.
    modern: &'t mut [Option<ModernCtx>],
    book: &'t mut Book,
}

/// What the table keeps up to date on every change, so that the drain, which asks on
/// every call, does not walk the slots.
#[derive(Clone, Copy, Debug, Default)]
struct Book {
    serials: Serials,
    /// The earliest deadline of a live request.
    earliest: Option<Instant>,
    /// Expired requests whose event is not delivered yet.
    expired: usize,
}

/// The peer's requests in flight; `E`, the endpoint's [`Profile`], says what answers
/// them ([`Slots::decorate`]) and whether a slot has room for a stateless context.
pub(crate) struct Inbound<const M: usize, E: Profile> {
    slots: [Option<InEntry>; M],
    /// Each slot's stateless context, beside the slots: only a profile with the stateless
    /// era has room for them (32 bytes a slot on a 32-bit target).
    modern: E::ModernSlots<M>,
    book: Book,
    /// The endpoint's time when the latest request handle was handed out (what
    /// [`IncomingRequest::received_at`](super::IncomingRequest::received_at) says).
    now: Instant,
}

impl<const M: usize, E: Profile> Inbound<M, E> {
    pub fn new() -> Self {
        Self {
            slots: core::array::from_fn(|_| None),
            modern: E::modern_slots(),
            book: Book::default(),
            now: Instant::ZERO,
        }
    }

    /// Back to [`new`](Self::new)'s state, in place (see `Endpoint::reset`).
    pub fn reset(&mut self) {
        let Self { slots, modern, book, now } = self;
        slots.iter_mut().for_each(|s| *s = None);
        modern.as_mut().iter_mut().for_each(|s| *s = None);
        (*book, *now) = (Book::default(), Instant::ZERO);
    }

    /// The whole state, for comparing states in tests.
    #[cfg(test)]
    pub fn debug_state(&self) -> std::string::String {
        std::format!("{:?} {:?} {:?} {:?}", self.slots, self.modern.as_ref(), self.book, self.now)
    }

    /// The stateless context of the request in `slot` (see [`Slots::modern`]).
    pub fn modern_at(&self, slot: usize) -> Option<ModernCtx> {
        *self.modern.as_ref().get(slot)?
    }

    /// A request handle is handed out at `now`.
    pub fn handed_out_at(&mut self, now: Instant) {
        self.now = now;
    }

    /// The table, to read or change.
    pub fn table(&mut self) -> Table<'_> {
        Table { slots: &mut self.slots, modern: self.modern.as_mut(), book: &mut self.book }
    }

    /// The serial the next request will get.
    pub fn next_serial(&self) -> u64 {
        self.book.serials.next()
    }

    /// Starts serials at `next`, for a resumed session.
    pub fn start_serials_at(&mut self, next: u64) {
        self.book.serials = Serials::start_at(next);
    }

    /// The slot of the live request with this id.
    pub fn find(&self, id: RequestIdRef<'_>) -> Option<usize> {
        self.slots.iter().position(|s| s.as_ref().is_some_and(|e| e.is_live() && e.id == id))
    }

    /// The slot of the live request with this id from `origin`. In the stateless era ids
    /// are unique only per sender, and on HTTP every POST is a sender of its own (two
    /// clients may both use id 1), so a request is named by its channel and its id.
    pub fn find_from(&self, origin: Option<Origin>, id: RequestIdRef<'_>) -> Option<usize> {
        self.slots.iter().position(|s| s.as_ref().is_some_and(|e| e.is_live() && e.origin == origin && e.id == id))
    }

    /// The live requests, to look at (listen streams, say).
    pub fn live_entries(&self) -> impl Iterator<Item = (usize, &InEntry)> {
        self.slots.iter().enumerate().filter_map(|(i, s)| s.as_ref().filter(|e| e.is_live()).map(|e| (i, e)))
    }

    /// The origin of the request in `slot`.
    pub fn origin(&self, slot: Option<usize>) -> Option<Origin> {
        self.slots.get(slot?)?.as_ref()?.origin
    }

    /// The slot of the live request with this serial.
    pub fn find_serial(&self, serial: u64) -> Option<usize> {
        self.slots.iter().position(|s| s.as_ref().is_some_and(|e| e.is_live() && e.serial == serial))
    }

    /// The live request with this id, named for later.
    pub fn pending(&self, id: RequestIdRef<'_>) -> Option<PendingRequest> {
        self.slots[self.find(id)?].as_ref().map(InEntry::pending)
    }

    // Inlined on wide builds where it is asked: out of line, the compiler may make it a
    // branchless scan of every slot (~190 instructions a request with 16 slots); small
    // targets keep one copy.
    #[cfg_attr(mcp_sansio_wide, inline(always))]
    pub fn has_free_slot(&self) -> bool {
        self.slots.iter().any(Option::is_none)
    }

    /// Whether a request expired and its event waits.
    #[inline]
    pub fn has_expired(&self) -> bool {
        self.book.expired > 0
    }

    /// Whether a live request's deadline has passed at `now`.
    #[inline]
    pub fn any_overdue(&self, now: Instant) -> bool {
        self.book.earliest.is_some_and(|t| now >= t)
    }

    /// The first live request whose deadline has passed at `now`.
    #[inline]
    pub fn overdue(&self, now: Instant) -> Option<(usize, &InEntry)> {
        if !self.any_overdue(now) {
            return None;
        }
        self.slots.iter().enumerate().find_map(|(i, s)| {
            s.as_ref().filter(|e| e.is_live() && e.deadline.is_some_and(|d| now >= d)).map(|e| (i, e))
        })
    }

    /// Requests still owed an answer.
    pub fn in_flight(&self) -> usize {
        self.slots.iter().flatten().filter(|e| e.is_live()).count()
    }

    /// Whether any slot is taken (an expired one included, until its event).
    pub fn any(&self) -> bool {
        self.slots.iter().any(Option::is_some)
    }

    /// The earliest deadline of a live request.
    #[inline]
    pub fn next_deadline(&self) -> Option<Instant> {
        self.book.earliest
    }
}

impl Table<'_> {
    /// Recomputes the earliest deadline, after the request that had it is over.
    fn recount(&mut self) {
        self.book.earliest = self.slots.iter().flatten().filter(|e| e.is_live()).filter_map(|e| e.deadline).min();
    }

    /// A live request with `deadline` is over: the earliest deadline may change.
    fn gone(&mut self, deadline: Option<Instant>) {
        if deadline.is_some() && deadline == self.book.earliest {
            self.recount();
        }
    }

    /// Puts a request in a free slot, giving it its serial: returns both. `None` if
    /// every slot is taken, or if `id` is longer than [`MAX_ID_LEN`](crate::wire::MAX_ID_LEN)
    /// (nothing changed then); a `token` that long is not kept (no progress is sent).
    ///
    /// The ids are copied from their borrowed forms straight into the slot: an entry
    /// built on the stack and moved in was the largest part of the receive path's stack
    /// frame on a microcontroller (a 320-byte copy on a Cortex-M).
    pub fn admit(
        &mut self,
        id: RequestIdRef<'_>,
        method: Option<Method<'static>>,
        token: Option<RequestIdRef<'_>>,
        deadline: Option<Instant>,
        origin: Option<Origin>,
        modern: Option<ModernCtx>,
    ) -> Option<(usize, u64)> {
        if id.as_token().len() > crate::wire::MAX_ID_LEN {
            return None;
        }
        let slot = self.slots.iter().position(Option::is_none)?;
        let serial = self.book.serials.issue();
        let entry = self.slots[slot].insert(InEntry {
            id: RequestId::unset(),
            serial,
            method,
            token: None,
            last_progress: None,
            deadline,
            expired: false,
            stream_closed: false,
            origin,
        });
        if let Some(place) = self.modern.get_mut(slot) {
            *place = modern;
        }
        // Cannot fail: the length was checked above.
        let _ = entry.id.assign(id);
        if let Some(t) = token {
            let kept = entry.token.insert(RequestId::unset());
            if kept.assign(t).is_err() {
                entry.token = None;
            }
        }
        if let Some(d) = deadline {
            self.book.earliest = Some(self.book.earliest.map_or(d, |e| e.min(d)));
        }
        Some((slot, serial))
    }

    /// Frees `slot`: its request is over. `answered` says whether the application
    /// answered it (a second answer is then refused rather than suppressed). Returns
    /// the request, named.
    pub fn end(&mut self, slot: usize, answered: bool) -> Option<PendingRequest> {
        let place = self.slots.get_mut(slot)?;
        let entry = place.as_ref()?;
        let (serial, deadline) = (entry.serial, entry.deadline);
        let pending = (!answered).then(|| entry.pending());
        *place = None;
        if answered {
            self.book.serials.answered(serial);
        }
        self.gone(deadline);
        pending
    }

    /// The request in `slot` was answered by the endpoint at its deadline; the slot is
    /// freed when its event is delivered.
    pub fn expire(&mut self, slot: usize) {
        let Some(Some(e)) = self.slots.get_mut(slot) else { return };
        if !e.expired {
            e.expired = true;
            self.book.expired += 1;
            self.recount();
        }
    }

    /// Frees the first expired slot (or one whose stream closed), for its event: the
    /// request, its method, and whether it expired (rather than lost its stream).
    pub fn take_expired(&mut self) -> Option<(PendingRequest, Option<Method<'static>>, bool)> {
        let place = self.slots.iter_mut().find(|s| s.as_ref().is_some_and(|e| e.expired || e.stream_closed))?;
        let taken = place.as_ref().map(|e| (e.pending(), e.method, e.expired));
        *place = None;
        self.book.expired -= 1;
        taken
    }

    /// The live requests that came in on `origin` are over: their stream closed, which in
    /// the stateless era is how a client cancels. Returns how many; their `Cancelled`
    /// events follow.
    pub fn close_origin(&mut self, origin: Origin) -> usize {
        let mut n = 0;
        for e in self.slots.iter_mut().flatten() {
            if e.is_live() && e.origin == Some(origin) {
                e.stream_closed = true;
                n += 1;
            }
        }
        self.book.expired += n;
        if n > 0 {
            self.recount();
        }
        n
    }

    /// Forgets every request (the session was shut down).
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = None);
        self.book.earliest = None;
        self.book.expired = 0;
    }
}
