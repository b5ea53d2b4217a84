//! The endpoint's state apart from the received bytes: the sub-machines, and what ties
//! them together (the handshake messages, the events that borrow nothing, the end).
//!
//! The received bytes stay outside [`Core`] so that an event can borrow them while the
//! core is changed: see [`Endpoint::poll_output`](super::Endpoint::poll_output).

use core::time::Duration;

use super::buffer::Buffer;
use super::caller_errors::SendError;
use super::config::Config;
use super::event::{CloseReason, Event, RefuseReason};
use super::held::Held;
use super::inbound::Inbound;
use super::lifecycle::{Cause, Lifecycle};
use super::outbound::{Ended, Outbound};
use super::profile::Profile;
use super::replies::Owed;
use super::timers::{Timer, Timers};
use super::transmit::{Origin, Outbox};
use crate::framing::{LineState, Prefix};
use crate::mcp::{ProtocolVersion, Role};
use crate::time::Instant;
use crate::wire::{ErrorId, RequestId};

/// A batch frame being processed element by element.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BatchCursor {
    /// Offset in the receive buffer of the next element's search position.
    pub next: usize,
    /// End of the array in the receive buffer.
    pub end: usize,
    /// The channel the batch came in on.
    pub origin: Option<Origin>,
}

/// Events waiting to be delivered that borrow nothing.
#[derive(Clone, Copy, Debug, Default)]
///
/// (`Ready`, a flag, is kept in [`Core::ready`]: beside the core's other flags it takes
/// no room, while here it padded this to the next 8 bytes.)
pub(crate) struct Queued {
    pub unresponsive: Option<Duration>,
    /// A frame given to `handle_frame` that can never fit the receive buffer: its length
    /// and what its first bytes showed.
    pub oversized_frame: Option<(usize, Prefix, Option<Origin>)>,
}

impl Queued {
    pub fn is_empty(&self) -> bool {
        self.unresponsive.is_none() && self.oversized_frame.is_none()
    }
}

pub(crate) struct Core<'a, const OUT: usize, const IN: usize, B, E: Profile> {
    pub config: Config<'a>,
    /// The framer's cursor over the receive buffer.
    pub rx: LineState,
    pub tx: Outbox<B>,
    pub life: Lifecycle,
    pub out: Outbound<OUT>,
    pub inb: Inbound<IN, E>,
    /// The peer's requests beyond the slots, held in the receive buffer.
    pub held: Held,
    pub timers: Timers,
    pub queued: Queued,
    pub now: Instant,
    pub batch: Option<BatchCursor>,
    /// An automatic reply needs this many bytes free: its frame waits until then.
    pub stall: Option<usize>,
    /// The channel of the frame being processed: its automatic replies go back on it.
    pub origin: Option<Origin>,
    /// Input comes as whole frames (`handle_frame*`), each line carrying its origin.
    pub framed: bool,
    /// Transmit-buffer room kept free for the replies the endpoint writes on its own:
    /// input is only processed while this much is free.
    pub reserve: usize,
    /// The same while a server's initialize result is still to be written.
    pub first_reserve: usize,
    /// This side declared the tasks extension (2026-07-28).
    pub own_tasks: bool,
    /// Client: `Ready` follows `Negotiated` (one of the [`Queued`] events).
    pub ready: bool,
    /// The most bytes `config.capabilities` and `config.info` write together (the `_meta`
    /// of a stateless client's requests).
    pub identity_len: usize,
    /// What the endpoint type is built for (see [`Profile`]).
    pub profile: core::marker::PhantomData<fn() -> E>,
}

impl<'a, const OUT: usize, const IN: usize, B: Buffer, E: Profile> Core<'a, OUT, IN, B, E> {
    /// This side's role: a constant if the endpoint's type is built for one role only,
    /// so that what only the other role does is not linked (see [`Profile`]).
    #[inline(always)]
    pub fn role(&self) -> Role {
        match (E::CLIENT, E::SERVER) {
            (false, _) => Role::Server,
            (_, false) => Role::Client,
            _ => self.config.role,
        }
    }

    /// The stateless versions this endpoint speaks: none if its type is not built for
    /// them (a constant then, so that what depends on them is not linked).
    #[inline(always)]
    pub fn modern_versions(&self) -> crate::mcp::VersionSet {
        match E::STATELESS {
            true => self.config.modern_versions(),
            false => crate::mcp::VersionSet::EMPTY,
        }
    }

    /// Whether the session is in the stateless era (never, if the endpoint's type is not
    /// built for it: see [`Profile`]).
    #[inline(always)]
    pub fn is_stateless(&self) -> bool {
        E::STATELESS && self.life.is_stateless()
    }

    pub fn advance(&mut self, now: Instant) {
        self.now = self.now.max(now);
    }

    /// Input arrived at `self.now` (keepalive counts silence from here).
    pub fn received(&mut self) {
        self.timers.received(self.now, self.config.keepalive);
    }

    /// Queues `initialize` offering `version` (client).
    pub fn send_initialize(&mut self, version: ProtocolVersion) -> Result<(), SendError> {
        let (capabilities, info) = (self.config.capabilities, self.config.info);
        let id = self.out.peek_id();
        self.tx.to(None).request_with(RequestId::from_u64(id).as_ref(), "initialize", |out| {
            out.put(b"{\"protocolVersion\":");
            out.string(version.as_str());
            out.put(b",\"capabilities\":");
            capabilities.write(out)?;
            out.put(b",\"clientInfo\":");
            info.write(out)?;
            out.put(b"}");
            Ok(())
        })?;
        self.out.allocate_id();
        self.life.initializing(id, version);
        self.timers.set(Timer::Initialize, Some(self.now + self.config.initialize_timeout));
        Ok(())
    }

    /// Events that do not borrow the receive buffer.
    ///
    /// Asked on every poll: whether anything is queued at all is inlined into the poll
    /// (a few flags and counters), the taking stays out of line.
    #[cfg_attr(mcp_sansio_wide, inline(always))]
    pub fn queued_event(&mut self) -> Option<Event<'static>> {
        // Small targets skip the early test, as `run_timers` does.
        #[cfg(mcp_sansio_wide)]
        {
            let queued = (E::CLIENT && self.ready)
                || self.queued.unresponsive.is_some()
                || self.inb.has_expired()
                || self.out.has_ended();
            if !queued {
                return None;
            }
        }
        self.take_queued_event()
    }

    #[cfg_attr(mcp_sansio_wide, inline(never))]
    fn take_queued_event(&mut self) -> Option<Event<'static>> {
        // Only a client's handshake queues `Ready`.
        if E::CLIENT && self.ready {
            self.ready = false;
            if let Some(version) = self.life.version() {
                return Some(Event::Ready { version });
            }
        }
        if let Some(waited) = self.queued.unresponsive.take() {
            return Some(Event::PeerUnresponsive { waited });
        }
        if self.inb.has_expired()
            && let Some((request, method, expired)) = self.inb.table().take_expired()
        {
            return Some(match expired {
                true => Event::Expired { request, method },
                false => Event::Cancelled { request, reason: None },
            });
        }
        let (entry, ended) = self.out.take_ended()?;
        let (id, method) = (RequestId::from_u64(entry.id), entry.method);
        Some(match ended {
            Ended::TimedOut => Event::TimedOut { id, method },
            Ended::Failed(reason) => Event::Failed { id, method, reason },
        })
    }

    /// Ends the session from this side: `reason` says why. Live requests of ours fail,
    /// the peer's requests are abandoned, input is no longer processed; what is queued
    /// for sending still goes out, then `Closed`.
    pub fn shut_down(&mut self, reason: CloseReason) {
        if self.life.close(Cause::Shutdown(reason)) {
            self.out.fail_all(reason);
        }
        self.timers.ping = None;
        self.batch = None;
        self.stall = None;
        self.inb.table().clear();
        self.held.clear();
        self.refresh_timers();
    }

    /// Refuses the newest held request (-32603, as if it had never been held), to make
    /// room in `rx` for a frame being read. `false` if the refusal does not fit yet.
    pub fn refuse_newest_held(&mut self, rx: &[u8]) -> bool {
        let Some((id, origin)) = self.held.newest(rx) else { return true };
        let origin = origin.map(Origin);
        let (code, message) = RefuseReason::TooManyRequests.reply_for::<E>();
        let written = self.tx.to(origin).error(ErrorId::Id(id.as_ref()), code, message);
        match self.owe(ErrorId::Id(id.as_ref()), origin, written) {
            Owed::Sent => {
                self.held.remove_newest(rx);
                true
            }
            Owed::Later(_) => false,
        }
    }

    /// The `Closed` event, once everything owed has been delivered and sent.
    ///
    /// Asked on every poll that finds nothing else to do (with one-byte reads, once a
    /// byte): the common answer, "input is not over", is inlined into the poll and the
    /// rest stays out of line.
    #[cfg_attr(mcp_sansio_wide, inline(always))]
    pub fn closed_event(&mut self) -> Option<Event<'static>> {
        if self.life.is_closed() {
            return None;
        }
        let input_over = !self.life.reads_input() || (self.rx.is_closed() && self.batch.is_none());
        if !input_over {
            return None;
        }
        self.input_over_event()
    }

    /// [`closed_event`](Self::closed_event) once the peer's input is over.
    #[cfg_attr(mcp_sansio_wide, inline(never))]
    #[cfg_attr(not(mcp_sansio_wide), inline(always))]
    fn input_over_event(&mut self) -> Option<Event<'static>> {
        // The peer's input is over: nothing can cancel a listen stream any more, so it
        // ends from this side; nothing can answer our requests any more.
        if self.is_stateless() && self.role() == Role::Server {
            self.end_listens();
        }
        if self.life.close(Cause::InputEnded) {
            self.timers.ping = None;
            self.out.fail_all(CloseReason::PeerClosed);
            self.refresh_timers();
        }
        if let Some(event) = self.queued_event() {
            return Some(event);
        }
        if self.out.any() || self.inb.any() || self.held.count() > 0 || !self.tx.is_empty() {
            return None;
        }
        Some(Event::Closed { reason: self.life.finish() })
    }
}
