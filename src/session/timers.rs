//! Deadlines: request timeouts, the `initialize` timeout, keepalive pings.
//!
//! Nothing here reads a clock: `Core::now` is the latest instant an input carried. The
//! work is idempotent, so a spurious or repeated `handle_timeout` changes nothing.

use super::endpoint::{Core, Ping, State};
use super::event::CloseReason;
use super::outbound::Ended;
use crate::time::Instant;
use crate::wire::{NO_PARAMS, RequestId};

impl<const OUT: usize, const IN: usize> Core<'_, OUT, IN> {
    /// Does whatever is due at `self.now`.
    pub fn run_timers(&mut self) {
        let now = self.now;
        for i in 0..OUT {
            let Some(entry) = self.out.slots[i] else { continue };
            let due = entry.ended.is_none() && now >= entry.deadline();
            if !due && !entry.cancel_unsent {
                continue;
            }
            // `notifications/cancelled`, as the specification asks of a requester that
            // stops waiting. If it does not fit now, it is retried at the next poll and
            // the TimedOut event waits for it, so the order on the wire stays right.
            let sent = self.send_cancelled(entry.id, "Request timed out");
            if let Some(e) = self.out.slots[i].as_mut() {
                e.ended = Some(Ended::TimedOut);
                e.cancel_unsent = !sent;
            }
        }
        if let Some(init) = self.init
            && self.state == State::AwaitingInitializeResult
            && now >= init.deadline
        {
            self.shut_down(CloseReason::InitializeTimedOut);
        }
        self.run_keepalive(now);
    }

    fn run_keepalive(&mut self, now: Instant) {
        let Some(keepalive) = self.config.keepalive else { return };
        if self.state != State::Ready || self.closing.stop_input || self.closing.eof {
            return;
        }
        match self.ping {
            None if now >= self.last_rx + keepalive.idle => {
                let id = self.out.peek_id();
                if self.tx.request(RequestId::from_u64(id).as_ref(), "ping", NO_PARAMS).is_ok() {
                    self.out.allocate_id();
                    self.ping = Some(Ping { id, sent: now, reported: false });
                }
            }
            Some(ping) if !ping.reported && now >= ping.sent + keepalive.timeout => {
                self.unresponsive = Some(now.saturating_duration_since(ping.sent));
                self.ping = Some(Ping { reported: true, ..ping });
            }
            _ => {}
        }
    }

    /// Writes `notifications/cancelled` for our request `id`; `false` if it did not fit.
    pub fn send_cancelled(&mut self, id: u64, reason: &str) -> bool {
        #[derive(serde::Serialize)]
        struct Params<'r> {
            #[serde(rename = "requestId")]
            request_id: u64,
            reason: &'r str,
        }
        self.tx.notification("notifications/cancelled", Some(&Params { request_id: id, reason })).is_ok()
    }

    /// The earliest instant at which `run_timers` has something to do.
    pub fn next_deadline(&self) -> Option<Instant> {
        let mut next = self.out.next_deadline();
        let mut consider = |t: Instant| next = Some(next.map_or(t, |n| n.min(t)));
        if let Some(init) = self.init
            && self.state == State::AwaitingInitializeResult
        {
            consider(init.deadline);
        }
        if let Some(keepalive) = self.config.keepalive
            && self.state == State::Ready
            && !self.closing.stop_input
            && !self.closing.eof
        {
            match self.ping {
                None => consider(self.last_rx + keepalive.idle),
                Some(ping) if !ping.reported => consider(ping.sent + keepalive.timeout),
                Some(_) => {}
            }
        }
        next
    }
}
