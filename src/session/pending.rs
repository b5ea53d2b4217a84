//! Naming one of the peer's requests for later: [`PendingRequest`], and what became of
//! the ones that ended.
//!
//! A wire id alone cannot name a request for long: once a request ends, the peer may
//! use its id again (2026-07-28 makes ids unique only among outstanding requests), and
//! an answer addressed by id would then answer the newer one. So every request the
//! endpoint delivers also gets a serial, counted up and never reused on the endpoint,
//! and answers are matched by serial.

use super::transmit::Origin;
use crate::wire::{RequestId, RequestIdRef};

/// One of the peer's requests, owned: what a worker keeps to answer it later with
/// [`Endpoint::respond`](super::Endpoint::respond) and friends, or to recognise it in a
/// [`Cancelled`](super::Event::Cancelled) or [`Expired`](super::Event::Expired) event.
///
/// Two values are equal when they name the same request of the same endpoint. The
/// endpoint looks a request up by its serial, so an answer can never reach a newer
/// request that reuses the id.
#[derive(Clone, Debug, PartialEq, Eq)]
#[must_use = "a pending request is how the request gets its answer"]
pub struct PendingRequest {
    id: RequestId,
    serial: u64,
    origin: Option<Origin>,
}

impl PendingRequest {
    pub(crate) fn new(id: RequestId, serial: u64, origin: Option<Origin>) -> Self {
        Self { id, serial, origin }
    }

    /// The channel the request came in on, if the transport said
    /// ([`Endpoint::handle_frame_from`](super::Endpoint::handle_frame_from)).
    pub fn origin(&self) -> Option<Origin> {
        self.origin
    }

    /// The request's id on the wire.
    pub fn id(&self) -> RequestIdRef<'_> {
        self.id.as_ref()
    }

    /// The request's number on this endpoint: counted up from 0, never reused, so it
    /// can key an application's table of work in progress.
    pub fn serial(&self) -> u64 {
        self.serial
    }
}

/// The wire id, as `RequestId` shows it (logs name a request by its id).
impl core::fmt::Display for PendingRequest {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        core::fmt::Display::fmt(&self.id, f)
    }
}

#[cfg(feature = "defmt")]
impl defmt::Format for PendingRequest {
    fn format(&self, f: defmt::Formatter<'_>) {
        defmt::write!(f, "PendingRequest({=u64})", self.serial)
    }
}

/// What became of a request that is no longer in a slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fate {
    /// The application answered it, and it is among the [`RECENT`] latest requests.
    Answered,
    /// It ended otherwise (cancelled by the peer, expired, abandoned), or it is too old
    /// to tell.
    Ended,
    /// This endpoint never delivered it.
    Unknown,
}

/// How many of the latest requests remember whether the application answered them.
pub(crate) const RECENT: u64 = 64;

/// Serials, and which of the latest requests the application answered: 16 bytes for the
/// rule "a second answer to a request is refused (within the latest 64 requests),
/// any other late answer is suppressed".
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Serials {
    /// The next serial to issue.
    next: u64,
    /// Bit `i`: serial `next - 1 - i` was answered by the application.
    answered: u64,
}

impl Serials {
    /// A serial for a request being delivered.
    pub fn issue(&mut self) -> u64 {
        let serial = self.next;
        self.next += 1;
        self.answered <<= 1;
        serial
    }

    /// The application answered `serial`.
    pub fn answered(&mut self, serial: u64) {
        if let Some(bit) = self.bit(serial) {
            self.answered |= bit;
        }
    }

    fn bit(&self, serial: u64) -> Option<u64> {
        let age = self.next.checked_sub(serial + 1)?;
        (age < RECENT).then(|| 1 << age)
    }

    /// The next serial to issue.
    pub fn next(&self) -> u64 {
        self.next
    }

    /// Starts serials at `next`, for a resumed session.
    pub fn start_at(next: u64) -> Self {
        Serials { next, answered: 0 }
    }

    /// What became of `serial`, which is in no slot.
    pub fn fate(&self, serial: u64) -> Fate {
        if serial >= self.next {
            return Fate::Unknown;
        }
        match self.bit(serial) {
            Some(bit) if self.answered & bit != 0 => Fate::Answered,
            _ => Fate::Ended,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_remembers_the_latest_answers() {
        let mut s = Serials::default();
        let first = s.issue();
        s.answered(first);
        assert_eq!(s.fate(first), Fate::Answered);
        assert_eq!(s.fate(first + 1), Fate::Unknown);
        let second = s.issue();
        assert_eq!(s.fate(second), Fate::Ended);
        for _ in 0..RECENT - 2 {
            s.issue();
        }
        assert_eq!(s.fate(first), Fate::Answered, "still in the window");
        s.issue();
        assert_eq!(s.fate(first), Fate::Ended, "out of the window");
    }
}
