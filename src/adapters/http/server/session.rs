//! One session as the server keeps it: awake (an endpoint, its SSE streams, what waits
//! to be sent) or asleep (a 22-byte snapshot), and the buffers awake sessions use.

use std::collections::VecDeque;

use crate::adapters::app::{Outbox, SessionTag, Tickets};
use crate::http::server::{StreamConfig, Streams};
use crate::mcp::{CapabilitySet, ProtocolVersion};
use crate::session::{Endpoint, Snapshot};
use crate::time::Instant;

/// A session's endpoint, over buffers it owns.
pub(crate) type Ep<'a, const OUT: usize, const IN: usize> = Endpoint<'a, OUT, IN, Box<[u8]>>;

/// POST streams a session has at once (more concurrent POSTs get 503).
pub(crate) const POST_STREAMS: usize = 64;
/// Connections a session's streams are carried on at once.
pub(crate) const CONNECTIONS: usize = 64;

/// A session's SSE side.
pub(crate) type SessionStreams = Streams<Box<[u8]>, POST_STREAMS, CONNECTIONS>;

/// A body waiting for room in the endpoint.
pub(crate) struct Feed {
    /// The exchange it came on (answered 202 once fed, if `accept`).
    pub exchange: u32,
    pub origin: Option<u32>,
    pub body: Vec<u8>,
    pub accept: bool,
}

pub(crate) struct Awake<'a, const OUT: usize, const IN: usize> {
    pub endpoint: Ep<'a, OUT, IN>,
    pub streams: SessionStreams,
    pub outbox: Outbox,
    pub tickets: Tickets,
    pub feeds: VecDeque<Feed>,
    /// The streams refused a message (a connected client reads slowly): the endpoint
    /// is drained again once that client takes more.
    pub stalled: bool,
    /// A stateless POST refused by the endpoint: the status its response gets.
    pub status: Option<u16>,
}

impl<const OUT: usize, const IN: usize> Awake<'_, OUT, IN> {
    /// Back to what a new session's parts are, in place (a stateless POST's, reused for
    /// the next: see `Hub::spare`).
    pub fn reset(&mut self, now: Instant, config: StreamConfig, epoch: u32) {
        let Awake { endpoint, streams, outbox, tickets, feeds, stalled, status } = self;
        endpoint.reset(now);
        streams.reset(config, epoch, None);
        *outbox = Outbox::default();
        // Empty already, as the session ended (its map and hasher keys are kept).
        tickets.cancel_all();
        feeds.clear();
        (*stalled, *status) = (false, None);
    }

    /// The buffers taken out in place (moving the parts out of their box first copied
    /// all of them): the parts are dropped next.
    pub fn take_buffers(&mut self) -> Buffers {
        let (rx, tx) = self.endpoint.take_buffers();
        (rx, tx, self.streams.take_store())
    }

    /// Whether its buffers are the pool's start sizes.
    pub fn start_sized(&self, pool: &Pool) -> bool {
        let (rx, tx, store) = pool.sizes;
        self.endpoint.receive_capacity() == rx
            && self.endpoint.transmit_capacity() == tx
            && self.streams.store_capacity() == store
    }
}

pub(crate) enum Life<'a, const OUT: usize, const IN: usize> {
    Awake(Box<Awake<'a, OUT, IN>>),
    Asleep(Snapshot),
}

pub(crate) struct Session<'a, const OUT: usize, const IN: usize> {
    pub tag: SessionTag,
    pub legacy: bool,
    /// One 2026-07-28 POST: no session id is sent, it never sleeps, and it ends with
    /// its exchange (closing the stream is the cancellation).
    pub stateless: bool,
    pub life: Life<'a, OUT, IN>,
    /// The negotiated version, once known.
    pub version: Option<ProtocolVersion>,
    pub caps: CapabilitySet,
    /// Put away at this time if still idle.
    pub sleep_at: Option<Instant>,
    pub dirty: bool,
    pub scheduled: Option<Instant>,
}

impl<'a, const OUT: usize, const IN: usize> Session<'a, OUT, IN> {
    pub fn awake(&mut self) -> Option<&mut Awake<'a, OUT, IN>> {
        match &mut self.life {
            Life::Awake(a) => Some(a),
            Life::Asleep(_) => None,
        }
    }

    /// When the session next needs the loop (its endpoint's and streams' timers).
    pub fn deadline(&self) -> Option<Instant> {
        let own = match &self.life {
            Life::Awake(a) => [a.endpoint.poll_timeout(), a.streams.poll_timeout()].into_iter().flatten().min(),
            Life::Asleep(_) => None,
        };
        [own, self.sleep_at].into_iter().flatten().min()
    }
}

/// An awake session's receive, transmit and event-store buffers.
pub(crate) type Buffers = (Box<[u8]>, Box<[u8]>, Box<[u8]>);

/// The buffers of awake sessions. Each session starts with small ones, which a few grow
/// (doubling, up to `max`) as their messages need: memory follows the messages seen,
/// not the longest one allowed. Start-sized buffers of sessions put away are kept for
/// the next to wake (a bounded number); grown ones go back to the allocator.
pub(crate) struct Pool {
    rx: Vec<Box<[u8]>>,
    tx: Vec<Box<[u8]>>,
    store: Vec<Box<[u8]>>,
    /// The start sizes.
    sizes: (usize, usize, usize),
    /// The bounds: receive, transmit, store.
    pub max: (usize, usize, usize),
    keep: usize,
}

pub(crate) fn fresh(n: usize) -> Box<[u8]> {
    vec![0u8; n].into_boxed_slice()
}

/// The size a buffer of `current` bytes grows to so that it holds `needed`: doubled
/// at least once, and until it holds it, at most `max`; `None` when it is at `max`.
pub(crate) fn grow_to(current: usize, needed: usize, max: usize) -> Option<usize> {
    if current >= max {
        return None;
    }
    let mut n = current.max(1).saturating_mul(2);
    while n < needed {
        n = n.saturating_mul(2);
    }
    Some(n.min(max))
}

impl Pool {
    /// Buffers that start at `start` bytes (each at most its bound) and grow to `max`.
    pub fn new(start: (usize, usize, usize), max: (usize, usize, usize), keep: usize) -> Self {
        let sizes = (start.0.min(max.0), start.1.min(max.1), start.2.min(max.2));
        Pool { rx: Vec::new(), tx: Vec::new(), store: Vec::new(), sizes, max, keep }
    }

    pub fn take(&mut self) -> Buffers {
        let (rx, tx, store) = self.sizes;
        (
            self.rx.pop().unwrap_or_else(|| fresh(rx)),
            self.tx.pop().unwrap_or_else(|| fresh(tx)),
            self.store.pop().unwrap_or_else(|| fresh(store)),
        )
    }

    /// The transmit buffer must start at `needed` bytes at least (a server's
    /// `initialize` result must fit it): from now on it does.
    pub fn start_tx_at(&mut self, needed: usize) {
        if needed > self.sizes.1 {
            self.sizes.1 = needed.min(self.max.1.max(needed));
            self.tx.clear();
        }
    }

    /// Takes a session's buffers back. `awake`: the sessions awake now. As many sets are
    /// kept as there are sessions awake, at least `keep`: under a burst of concurrent
    /// sessions (64 clients each POSTing statelessly: a session per POST) every new one
    /// reuses the buffers of one that ended instead of allocating and zeroing three;
    /// once the burst is over, the pool is back to `keep` sets as the sessions end (each
    /// return first drops what is beyond the new bound: without that a burst of N sessions
    /// ending one by one would leave N/2 sets behind for good).
    /// How many buffer sets (or stateless sessions' parts) are kept while `awake`
    /// sessions are awake (see [`give`](Self::give)).
    pub fn keep(&self, awake: usize) -> usize {
        self.keep.max(awake)
    }

    pub fn give(&mut self, rx: Box<[u8]>, tx: Box<[u8]>, store: Box<[u8]>, awake: usize) {
        let (r, t, s) = self.sizes;
        let keep = self.keep.max(awake);
        self.rx.truncate(keep);
        self.tx.truncate(keep);
        self.store.truncate(keep);
        if rx.len() == r && self.rx.len() < keep {
            self.rx.push(rx);
        }
        if tx.len() == t && self.tx.len() < keep {
            self.tx.push(tx);
        }
        if store.len() == s && self.store.len() < keep {
            self.store.push(store);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Pool, fresh, grow_to};

    /// A burst of sessions beyond `keep` gets its buffers back while as many sessions are
    /// awake; afterwards no more than `keep` (or the sessions still awake) are kept.
    #[test]
    fn the_pool_keeps_as_many_buffer_sets_as_sessions_are_awake() {
        let mut pool = Pool::new((16, 16, 16), (64, 64, 64), 2);
        let give = |pool: &mut Pool, awake| pool.give(fresh(16), fresh(16), fresh(16), awake);
        for awake in [5, 4, 3] {
            give(&mut pool, awake);
        }
        assert_eq!((pool.rx.len(), pool.tx.len(), pool.store.len()), (3, 3, 3), "kept while sessions are awake");
        give(&mut pool, 1);
        assert_eq!(
            (pool.rx.len(), pool.tx.len(), pool.store.len()),
            (2, 2, 2),
            "beyond both `keep` and the sessions awake: dropped"
        );
        // A buffer of another size (grown, or from before a resize) is never kept.
        pool.take();
        pool.give(fresh(32), fresh(16), fresh(16), 9);
        assert_eq!((pool.rx.len(), pool.tx.len()), (1, 2));
        // A burst of 200 sessions: kept while they are awake, back to `keep` once they
        // have ended one by one.
        for _ in 0..200 {
            pool.give(fresh(16), fresh(16), fresh(16), 200);
        }
        assert_eq!(pool.rx.len(), 200);
        for awake in (0..200).rev() {
            give(&mut pool, awake);
        }
        assert_eq!((pool.rx.len(), pool.tx.len(), pool.store.len()), (2, 2, 2), "back to `keep` after the burst");
    }

    #[test]
    fn buffers_double_until_they_hold_the_message_within_the_bound() {
        assert_eq!(grow_to(16, 10, 100), Some(32), "at least doubled");
        assert_eq!(grow_to(16, 33, 100), Some(64));
        assert_eq!(grow_to(16, 1000, 100), Some(100), "at most the bound");
        assert_eq!(grow_to(100, 1000, 100), None, "at the bound");
    }
}
