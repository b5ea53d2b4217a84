//! The sessions: the table (ids, expiry, the cap), their tags, waking and putting away,
//! and the endpoints as a handler's context reaches them.

use super::session::{Awake, Ep, Life, Pool, Session, SessionStreams, fresh, grow_to};
use super::store::MapStore;
use crate::adapters::app::{Outbox, RequestError, SeqMap, SessionTag, Sessions, Tickets};
use crate::http::server::{IdMinter, SessionHandle, SessionId, SessionKey, SessionTable, SessionTicket, StreamConfig};
use crate::mcp::{CapabilitySet, ProtocolVersion};
use crate::session::{Config, ConfigError, RequestOptions, Reserves, SendError, Snapshot};
use crate::time::Instant;
use crate::wire::{RawJson, RequestId};

/// The epoch of a stateless exchange's streams: they send no event ids (nothing resumes a
/// stream of a session that lives as long as one POST), so none is drawn for them.
const STATELESS_EPOCH: u32 = 0;

pub(crate) type Table<'a, const OUT: usize, const IN: usize> =
    SessionTable<Session<'a, OUT, IN>, MapStore<Session<'a, OUT, IN>>>;

pub(crate) struct Hub<'a, const OUT: usize, const IN: usize> {
    pub table: Table<'a, OUT, IN>,
    pub tags: SeqMap<SessionTag, SessionHandle>,
    next_tag: u64,
    pub pool: Pool,
    pub config: Config<'a>,
    pub streams: StreamConfig,
    pub minter: IdMinter,
    pub key: Option<SessionKey>,
    /// Sessions awake now.
    pub awake: usize,
    /// Sessions whose endpoint has something to do.
    pub dirty: Vec<SessionHandle>,
    /// Sessions that ended, for `on_session_end`.
    pub ended: Vec<SessionTag>,
    /// What the first endpoint of each kind (handshake, stateless) measured of the
    /// configuration: every later one is made without measuring it again (a stateless
    /// POST gets an endpoint of its own).
    reserves: [Option<Reserves>; 2],
    /// The parts of stateless POSTs' sessions that ended, over start-sized buffers, for
    /// the next POSTs: reset in place rather than built (an endpoint and its streams are
    /// kilobytes of inline tables, and building them meant copying them into their
    /// box). As many are kept as the pool keeps buffer sets.
    spare: Vec<Box<Awake<'a, OUT, IN>>>,
}

impl<'a, const OUT: usize, const IN: usize> Hub<'a, OUT, IN> {
    pub fn new(
        table: Table<'a, OUT, IN>,
        pool: Pool,
        config: Config<'a>,
        streams: StreamConfig,
        minter: IdMinter,
        key: Option<SessionKey>,
    ) -> Self {
        Hub {
            table,
            tags: SeqMap::default(),
            next_tag: 1,
            pool,
            config,
            streams,
            minter,
            key,
            awake: 0,
            dirty: Vec::new(),
            ended: Vec::new(),
            reserves: [None; 2],
            spare: Vec::new(),
        }
    }

    /// 32 random bits naming a session's event ids; none for a stateless exchange, whose
    /// streams send no event ids ([`STATELESS_EPOCH`]: nothing is drawn for it).
    fn epoch(&mut self, stateless: bool) -> u32 {
        if stateless {
            return STATELESS_EPOCH;
        }
        let b = self.minter.next_bits();
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }

    /// An endpoint over start-sized buffers from the pool (new, or resumed from
    /// `snapshot`), and the store for its streams. A transmit buffer too small for the
    /// server's `initialize` result makes the pool start them larger.
    fn endpoint(
        &mut self,
        now: Instant,
        snapshot: Option<Snapshot>,
        stateless: bool,
    ) -> Option<(Ep<'a, OUT, IN>, Box<[u8]>)> {
        let config = if stateless { self.config.era(crate::session::Era::Modern) } else { self.config };
        let kind = usize::from(stateless);
        for _ in 0..2 {
            let (rx, tx, store) = self.pool.take();
            let built = match (snapshot, self.reserves[kind]) {
                (None, Some(reserves)) => Ep::with_buffers_reserved(config, rx, tx, now, reserves),
                (None, None) => Ep::with_buffers(config, rx, tx, now),
                (Some(s), _) => Ep::resume(config, s, rx, tx, now),
            };
            match built {
                Ok(endpoint) => {
                    if snapshot.is_none() {
                        self.reserves[kind] = Some(endpoint.reserves());
                    }
                    return Some((endpoint, store));
                }
                Err(ConfigError::TxTooSmall { needed }) => {
                    self.pool.start_tx_at(needed);
                    // Their transmit buffers are not the start size any more.
                    self.spare.clear();
                }
                Err(_) => return None,
            }
        }
        None
    }

    fn awake_parts(
        &mut self,
        endpoint: Ep<'a, OUT, IN>,
        store: Box<[u8]>,
        legacy_url: Option<&str>,
        version: Option<ProtocolVersion>,
        stateless: bool,
    ) -> Option<Box<Awake<'a, OUT, IN>>> {
        let streams = match legacy_url {
            Some(url) => SessionStreams::legacy(store, self.streams, url)?,
            None => {
                let epoch = self.epoch(stateless);
                SessionStreams::new(store, self.streams, epoch, version)
            }
        };
        Some(Box::new(Awake {
            endpoint,
            streams,
            outbox: Outbox::default(),
            tickets: Tickets::default(),
            feeds: Default::default(),
            stalled: false,
            status: None,
        }))
    }

    /// A new session, awake. `Err(())` when the table is full (503).
    /// `id`: a signed id for it, if the server signs them. `stateless`: for one
    /// 2026-07-28 POST.
    pub fn open(
        &mut self,
        now: Instant,
        legacy: bool,
        legacy_path: &str,
        id: Option<SessionId>,
        stateless: bool,
    ) -> Result<SessionHandle, ()> {
        // A stateless exchange's id is never sent: none is minted, and no lookup finds it.
        let id = match id {
            Some(id) => id,
            None if stateless => SessionId::UNLISTED,
            None => self.minter.random_id(),
        };
        // Only a stateless POST takes spare parts: other sessions leave them for the next.
        let spare = if stateless { self.spare.pop() } else { None };
        let awake = match spare {
            Some(mut awake) => {
                let epoch = self.epoch(true);
                awake.reset(now, self.streams, epoch);
                awake
            }
            None => {
                // A stateless POST's endpoint serves that era only: `initialize` there
                // is a method this era does not have.
                let (endpoint, store) = self.endpoint(now, None, stateless).ok_or(())?;
                let url = legacy.then(|| format!("{legacy_path}?sessionId={id}"));
                self.awake_parts(endpoint, store, url.as_deref(), None, stateless).ok_or(())?
            }
        };
        let tag = SessionTag(self.next_tag);
        let session = Session {
            tag,
            legacy,
            stateless,
            life: Life::Awake(awake),
            version: None,
            caps: CapabilitySet::EMPTY,
            sleep_at: None,
            dirty: false,
            scheduled: None,
        };
        match self.table.open(now, id, session) {
            Ok(h) => {
                self.next_tag += 1;
                self.tags.insert(tag, h);
                self.awake += 1;
                Ok(h)
            }
            Err(entry) => {
                if let Some(s) = entry.value {
                    self.recycle(s);
                }
                Err(())
            }
        }
    }

    /// A session rebuilt from a signed id (a restart, another replica): ready, awake.
    pub fn rebuild(&mut self, now: Instant, id: &str, wall_ms: u64) -> Option<SessionHandle> {
        let ticket: SessionTicket = self.key.as_ref()?.verify(id)?;
        let id = SessionId::parse(id)?;
        let snapshot = Snapshot {
            version: ticket.version,
            peer_capabilities: ticket.client_capabilities,
            // Ids this process sends start above any the session used before: the
            // milliseconds of the wall clock, times a thousand.
            next_request_id: wall_ms.saturating_mul(1000),
            next_serial: 0,
        };
        let (endpoint, store) = self.endpoint(now, Some(snapshot), false)?;
        let awake = self.awake_parts(endpoint, store, None, Some(ticket.version), false)?;
        let tag = SessionTag(self.next_tag);
        let session = Session {
            tag,
            legacy: false,
            stateless: false,
            life: Life::Awake(awake),
            version: Some(ticket.version),
            caps: ticket.client_capabilities,
            sleep_at: None,
            dirty: false,
            scheduled: None,
        };
        let h = self.table.open(now, id, session).ok()?;
        self.next_tag += 1;
        self.tags.insert(tag, h);
        self.awake += 1;
        Some(h)
    }

    /// The signed id of a session that `initialize` (its body) starts, if the server
    /// signs ids: it carries the version the endpoint will negotiate (the client's if
    /// served, else the newest) and the client's capability flags.
    pub fn signed_id(&mut self, initialize: &[u8]) -> Option<SessionId> {
        let key = self.key.clone()?;
        let params = RawJson::parse(initialize).ok()?.get("params")?;
        let served = self.config.versions.intersect(crate::mcp::VersionSet::HANDSHAKE);
        let asked = params.get("protocolVersion").and_then(|v| v.as_str()).and_then(ProtocolVersion::from_json);
        let version = asked.filter(|v| served.contains(*v)).or_else(|| served.newest())?;
        let caps = params.get("capabilities").map_or(CapabilitySet::EMPTY, CapabilitySet::from_client_json);
        Some(key.sign(SessionTicket { version, client_capabilities: caps }, &mut self.minter))
    }

    /// Wakes a session put away; `false` if it is not live.
    pub fn wake(&mut self, h: SessionHandle, now: Instant) -> bool {
        let Some(s) = self.table.get_mut(h) else { return false };
        let Life::Asleep(snapshot) = s.life else { return true };
        let Some((endpoint, store)) = self.endpoint(now, Some(snapshot), false) else { return false };
        let version = Some(snapshot.version);
        let Some(awake) = self.awake_parts(endpoint, store, None, version, false) else { return false };
        if let Some(s) = self.table.get_mut(h) {
            s.life = Life::Awake(awake);
        }
        self.awake += 1;
        true
    }

    /// Puts an idle session away, if it is idle; returns whether it went.
    pub fn sleep(&mut self, h: SessionHandle) -> bool {
        let Some(s) = self.table.get_mut(h) else { return false };
        if s.legacy || s.stateless {
            return false;
        }
        let Life::Awake(a) = &s.life else { return false };
        if !a.streams.is_idle() || !a.outbox.is_empty() || !a.feeds.is_empty() || !a.tickets.is_empty() {
            return false;
        }
        let Ok(snapshot) = a.endpoint.snapshot() else { return false };
        let Life::Awake(mut a) = std::mem::replace(&mut s.life, Life::Asleep(snapshot)) else { return false };
        s.sleep_at = None;
        self.awake -= 1;
        self.give_back(&mut a);
        true
    }

    /// An awake session's buffers back to the pool, taken out of its box in place
    /// (moving its parts out of the box first copied all of them).
    fn give_back(&mut self, a: &mut Awake<'a, OUT, IN>) {
        let (rx, tx, store) = a.take_buffers();
        self.pool.give(rx, tx, store, self.awake);
    }

    fn recycle(&mut self, s: Session<'a, OUT, IN>) {
        if let Life::Awake(mut a) = s.life {
            a.tickets.cancel_all();
            let keep = self.pool.keep(self.awake);
            self.spare.truncate(keep);
            if s.stateless && self.spare.len() < keep && a.start_sized(&self.pool) {
                self.spare.push(a);
            } else {
                self.give_back(&mut a);
            }
        }
    }

    /// Ends a session (DELETE, expiry, its legacy stream closed): its tickets are
    /// cancelled and `on_session_end` follows.
    pub fn end(&mut self, h: SessionHandle, now: Instant) {
        // A stateless exchange's id was never sent: no tombstone (see `forget`).
        let stateless = self.table.get(h).is_some_and(|s| s.stateless);
        let ended = if stateless { self.table.forget(h) } else { self.table.end(now, h) };
        if let Some(s) = ended {
            self.finish(s);
        }
    }

    /// What ending a session leaves to do once the table let it go.
    pub fn finish(&mut self, s: Session<'a, OUT, IN>) {
        self.tags.remove(&s.tag);
        self.ended.push(s.tag);
        if matches!(s.life, Life::Awake(_)) {
            self.awake -= 1;
        }
        self.recycle(s);
    }

    pub fn mark(&mut self, h: SessionHandle) {
        if let Some(s) = self.table.get_mut(h)
            && !s.dirty
        {
            s.dirty = true;
            self.dirty.push(h);
        }
    }

    pub fn awake_mut(&mut self, h: SessionHandle) -> Option<&mut Awake<'a, OUT, IN>> {
        self.table.get_mut(h)?.awake()
    }

    /// The session a tag names, awake.
    fn woken(&mut self, tag: SessionTag, now: Instant) -> Option<SessionHandle> {
        let h = *self.tags.get(&tag)?;
        self.wake(h, now).then_some(h)
    }
}

impl<const OUT: usize, const IN: usize> Sessions for Hub<'_, OUT, IN> {
    fn send_request(
        &mut self,
        session: SessionTag,
        now: Instant,
        method: &str,
        params: Option<RawJson<'_>>,
        options: RequestOptions,
    ) -> Result<RequestId, RequestError> {
        let h = self.woken(session, now).ok_or(RequestError::NoSession)?;
        let tx_max = self.pool.max.1;
        let a = self.awake_mut(h).ok_or(RequestError::NoSession)?;
        let mut sent = a.endpoint.send_request(now, method, params.as_ref(), options);
        // A request longer than the whole transmit buffer: it grows, up to its bound.
        let cap = a.endpoint.transmit_capacity();
        if let Err(SendError::TxFull { needed, .. }) = sent
            && needed > cap
            && let Some(n) = grow_to(cap, needed + 64, tx_max)
            && a.endpoint.replace_transmit_buffer(fresh(n)).is_ok()
        {
            sent = a.endpoint.send_request(now, method, params.as_ref(), options);
        }
        let id = sent?;
        self.mark(h);
        Ok(id)
    }

    fn cancel(
        &mut self,
        session: SessionTag,
        now: Instant,
        id: &RequestId,
        reason: Option<&str>,
    ) -> Result<(), RequestError> {
        let h = self.woken(session, now).ok_or(RequestError::NoSession)?;
        let a = self.awake_mut(h).ok_or(RequestError::NoSession)?;
        a.endpoint.cancel(now, id, reason)?;
        self.mark(h);
        Ok(())
    }

    fn protocol_version(&self, session: SessionTag) -> Option<ProtocolVersion> {
        let h = self.tags.get(&session)?;
        self.table.get(*h)?.version
    }

    fn peer_capabilities(&self, session: SessionTag) -> Option<CapabilitySet> {
        let h = self.tags.get(&session)?;
        Some(self.table.get(*h)?.caps)
    }

    fn backlogged(&self, session: SessionTag) -> bool {
        let Some(h) = self.tags.get(&session) else { return false };
        matches!(self.table.get(*h).map(|s| &s.life), Some(Life::Awake(a)) if !a.outbox.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::{Hub, Pool};
    use crate::http::server::{IdMinter, SessionTable, StreamConfig};
    use crate::mcp::Role;
    use crate::session::{Config, OutputMode};
    use crate::time::Instant;
    use crate::wire::RawJson;
    use core::time::Duration;

    fn hub() -> Hub<'static, 2, 2> {
        let info = RawJson::parse(br#"{"name":"s","version":"1"}"#).unwrap();
        let config = Config::new(Role::Server, info).output(OutputMode::Messages);
        let table = SessionTable::new(super::MapStore::new(8), Duration::from_secs(60));
        let pool = Pool::new((4096, 4096, 4096), (65536, 65536, 65536), 2);
        Hub::new(table, pool, config, StreamConfig::default(), IdMinter::new([7; 16]), None)
    }

    /// The parts of an ended stateless POST's session wait for the next stateless POST:
    /// a handshake session (or a legacy one) opened meanwhile does not take them (and
    /// throw them away with their buffers).
    #[test]
    fn spare_parts_wait_for_a_stateless_post() {
        let mut hub = hub();
        let now = Instant::ZERO;
        let h = hub.open(now, false, "/mcp", None, true).unwrap();
        hub.end(h, now);
        assert_eq!(hub.spare.len(), 1, "an ended stateless session's parts are kept");
        let stateful = hub.open(now, false, "/mcp", None, false).unwrap();
        let legacy = hub.open(now, true, "/mcp", None, false).unwrap();
        assert_eq!(hub.spare.len(), 1, "not taken by a handshake or legacy session");
        let h = hub.open(now, false, "/mcp", None, true).unwrap();
        assert_eq!(hub.spare.len(), 0, "taken by the next stateless POST");
        for h in [h, stateful, legacy] {
            hub.end(h, now);
        }
    }
}
