//! Deadlines: one table for the singletons (the `initialize` timeout, keepalive), the
//! request tables for the rest, and the one place that runs what is due.
//!
//! Nothing here reads a clock: `Core::now` is the latest instant an input carried. The
//! work is idempotent, so a spurious or repeated `handle_timeout` changes nothing.

use super::buffer::Buffer;
use super::core::Core;
use super::lifecycle::Phase;
use super::profile::Profile;
use super::replies::Owed;
use super::transmit::Origin;
use crate::time::Instant;
use crate::wire::{ErrorCode, ErrorId, NO_PARAMS, RequestId};

/// The error message for a request of the peer's that expired unanswered.
pub(crate) const EXPIRED_MESSAGE: &str = "Request not answered in time";

/// The deadlines of which there is at most one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Timer {
    /// Client: the `initialize` answer (or the `server/discover` probe's) is overdue.
    Initialize,
    /// Nothing received for the keepalive's idle time: send a ping.
    KeepaliveIdle,
    /// The keepalive ping went unanswered.
    KeepaliveAnswer,
}

impl Timer {
    const COUNT: usize = 3;
}

/// A keepalive ping in flight.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ping {
    pub id: u64,
    pub sent: Instant,
    /// `PeerUnresponsive` was reported for it.
    pub reported: bool,
}

/// The singleton deadlines, and the keepalive state they derive from.
#[cfg_attr(test, derive(Debug))]
pub(crate) struct Timers {
    table: [Option<Instant>; Timer::COUNT],
    /// The earliest of `table`, kept as it changes: every poll asks for it. Not on
    /// small targets, where comparing 64-bit options costs more code (164 bytes on
    /// thumbv7em) than it saves time.
    #[cfg(mcp_sansio_wide)]
    earliest: Option<Instant>,
    /// The keepalive ping in flight.
    pub ping: Option<Ping>,
    /// When the latest input arrived (keepalive counts silence from it).
    pub last_rx: Instant,
}

impl Timers {
    pub fn new(now: Instant) -> Self {
        Self {
            table: [None; Timer::COUNT],
            #[cfg(mcp_sansio_wide)]
            earliest: None,
            ping: None,
            last_rx: now,
        }
    }

    /// Input arrived at `now`: the keepalive's idle time starts again (cheap, as it runs
    /// on every read).
    pub fn received(&mut self, now: Instant, keepalive: Option<super::config::Keepalive>) {
        self.last_rx = now;
        if let (Some(k), Some(_)) = (keepalive, self.get(Timer::KeepaliveIdle)) {
            self.set(Timer::KeepaliveIdle, Some(now + k.idle));
        }
    }

    pub fn set(&mut self, timer: Timer, at: Option<Instant>) {
        self.table[timer as usize] = at;
        #[cfg(mcp_sansio_wide)]
        {
            self.earliest = self.earliest_of_table();
        }
    }

    fn get(&self, timer: Timer) -> Option<Instant> {
        self.table[timer as usize]
    }

    #[inline]
    fn due(&self, timer: Timer, now: Instant) -> bool {
        self.get(timer).is_some_and(|t| now >= t)
    }

    #[cfg(mcp_sansio_wide)]
    #[inline]
    fn any_due(&self, now: Instant) -> bool {
        self.earliest.is_some_and(|t| now >= t)
    }

    #[cfg(not(mcp_sansio_wide))]
    #[inline]
    fn any_due(&self, now: Instant) -> bool {
        self.table.iter().flatten().any(|&t| now >= t)
    }

    #[cfg(mcp_sansio_wide)]
    #[inline]
    fn next(&self) -> Option<Instant> {
        self.earliest
    }

    #[cfg(not(mcp_sansio_wide))]
    #[inline]
    fn next(&self) -> Option<Instant> {
        let [a, b, c] = self.table;
        [a, b, c].into_iter().flatten().min()
    }

    #[cfg(mcp_sansio_wide)]
    #[inline]
    fn earliest_of_table(&self) -> Option<Instant> {
        let [a, b, c] = self.table;
        earlier(earlier(a, b), c)
    }
}

impl<const OUT: usize, const IN: usize, B: Buffer, E: Profile> Core<'_, OUT, IN, B, E> {
    /// Does whatever is due at `self.now`.
    ///
    /// Runs on every poll: whether anything is due at all is inlined into the poll (three
    /// comparisons when nothing is), the work stays out of line.
    #[cfg_attr(mcp_sansio_wide, inline(always))]
    pub fn run_timers(&mut self) {
        // Small targets skip the early test: it would repeat, as code, the tests the
        // work starts with.
        #[cfg(mcp_sansio_wide)]
        {
            let now = self.now;
            if !(self.out.any_due(now) || self.inb.any_overdue(now) || self.timers.any_due(now)) {
                return;
            }
        }
        self.run_due_timers();
    }

    #[cfg_attr(mcp_sansio_wide, inline(never))]
    fn run_due_timers(&mut self) {
        let now = self.now;
        if self.out.any_due(now) {
            for slot in 0..OUT {
                let Some((id, origin)) = self.out.needs_cancel(slot, now) else { continue };
                // `notifications/cancelled`, as the specification asks of a requester that
                // stops waiting. If it does not fit now, it is retried at the next poll and
                // the TimedOut event waits for it, so the order on the wire stays right.
                let sent = self.send_cancelled(id, origin, "Request timed out");
                self.out.timed_out(slot, sent);
            }
        }
        // The peer's requests the application did not answer in time are answered
        // here; one that does not fit yet is tried again at the next poll.
        while let Some((slot, entry)) = self.inb.overdue(now) {
            let (id, origin) = (entry.id.clone(), entry.origin);
            let written =
                self.tx.to(origin).error(ErrorId::Id(id.as_ref()), ErrorCode::INTERNAL_ERROR, EXPIRED_MESSAGE);
            match self.owe(ErrorId::Id(id.as_ref()), origin, written) {
                Owed::Sent => self.inb.table().expire(slot),
                Owed::Later(_) => break,
            }
        }
        if !self.timers.any_due(now) {
            return;
        }
        // Only a client sets the `initialize` timer: an endpoint without the client's side
        // does not link what it does (the shutdown).
        if E::CLIENT && self.timers.due(Timer::Initialize, now) {
            if E::STATELESS && self.life.probe().is_some() {
                // The `server/discover` probe went unanswered: a handshake-era server.
                self.timers.set(Timer::Initialize, None);
                self.probe_timed_out();
            } else {
                self.shut_down(super::event::CloseReason::InitializeTimedOut);
            }
        }
        if self.timers.due(Timer::KeepaliveIdle, now) {
            let id = self.out.peek_id();
            // If it does not fit, the timer stays due and the next poll tries again.
            if self.tx.to(None).request(RequestId::from_u64(id).as_ref(), "ping", NO_PARAMS).is_ok() {
                self.out.allocate_id();
                self.timers.ping = Some(Ping { id, sent: now, reported: false });
            }
        }
        if let Some(ping) = self.timers.ping
            && self.timers.due(Timer::KeepaliveAnswer, now)
        {
            self.queued.unresponsive = Some(now.saturating_duration_since(ping.sent));
            self.timers.ping = Some(Ping { reported: true, ..ping });
        }
        self.refresh_timers();
    }

    /// Brings the singleton deadlines in line with the state they derive from; called
    /// whenever that state changes (input arrives, the phase or the ping changes).
    pub fn refresh_timers(&mut self) {
        if !matches!(self.life.phase(), Phase::Initializing(_) | Phase::Discovering(_)) {
            self.timers.set(Timer::Initialize, None);
        }
        let keepalive = self.config.keepalive.filter(|_| self.life.ready_version().is_some() && !self.rx.is_closed());
        let (idle, answer) = match (keepalive, self.timers.ping) {
            (None, _) => (None, None),
            (Some(k), None) => (Some(self.timers.last_rx + k.idle), None),
            (Some(k), Some(ping)) if !ping.reported => (None, Some(ping.sent + k.timeout)),
            (Some(_), Some(_)) => (None, None),
        };
        self.timers.set(Timer::KeepaliveIdle, idle);
        self.timers.set(Timer::KeepaliveAnswer, answer);
    }

    /// Writes `notifications/cancelled` for our request `id` (sent for `origin`);
    /// `false` if it did not fit.
    pub fn send_cancelled(&mut self, id: u64, origin: Option<Origin>, reason: &str) -> bool {
        #[derive(serde::Serialize)]
        struct Params<'r> {
            #[serde(rename = "requestId")]
            request_id: u64,
            reason: &'r str,
        }
        self.tx.to(origin).notification("notifications/cancelled", Some(&Params { request_id: id, reason })).is_ok()
    }

    /// The earliest instant at which `run_timers` has something to do.
    pub fn next_deadline(&self) -> Option<Instant> {
        earlier(earlier(self.out.next_deadline(), self.inb.next_deadline()), self.timers.next())
    }
}

/// The earlier of two optional deadlines (`None`: no deadline).
#[inline(always)]
fn earlier(a: Option<Instant>, b: Option<Instant>) -> Option<Instant> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The earliest deadline follows every change of the table, in any order (wide builds
    /// keep it beside the table instead of computing it on each poll).
    #[test]
    fn the_earliest_deadline_follows_every_change() {
        let timers = [Timer::Initialize, Timer::KeepaliveIdle, Timer::KeepaliveAnswer];
        let values = [None, Some(Instant::from_millis(5)), Some(Instant::from_millis(9)), Some(Instant::ZERO)];
        let mut t = Timers::new(Instant::ZERO);
        let mut table = [None; Timer::COUNT];
        // Every sequence of 4 changes (which timer, which value): 12^4 of them.
        for n in 0..12usize.pow(4) {
            let mut k = n;
            for _ in 0..4 {
                let (timer, value) = (timers[k % 3], values[(k / 3) % 4]);
                k /= 12;
                t.set(timer, value);
                table[timer as usize] = value;
                let want = table.iter().flatten().min().copied();
                assert_eq!(t.next(), want, "after {n}");
                for now in [0, 4, 5, 8, 9, 10].map(Instant::from_millis) {
                    assert_eq!(t.any_due(now), want.is_some_and(|w| now >= w), "after {n} at {now:?}");
                }
            }
        }
    }
}
