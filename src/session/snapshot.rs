//! An idle server session, kept small: what it takes to go on after the endpoint is
//! gone.
//!
//! A Streamable HTTP server holds one session per client, most of them idle most of the
//! time, and must survive a restart. An idle endpoint (ready, nothing in flight, nothing
//! buffered) comes down to a [`Snapshot`] of 22 bytes: the negotiated version, the
//! client's capability flags, the next outgoing request id (ids are never reused in a
//! session) and the next request serial (so a [`PendingRequest`](super::PendingRequest)
//! from before can never name a later request). [`Endpoint::resume`] builds a ready
//! endpoint from it; after a restart without one, pass a starting id of your own that
//! is above any the session used (a timestamp, say).

use core::fmt;

use super::buffer::Buffer;
use super::caller_errors::ConfigError;
use super::config::Config;
use super::endpoint::Endpoint;
use super::lifecycle::Phase;
use super::profile::Profile;
use crate::mcp::{CapabilitySet, ProtocolVersion, Role};
use crate::time::Instant;

/// An idle server session's state: enough for [`Endpoint::resume`] to go on with it
/// after the endpoint is gone (22 bytes as [`to_bytes`](Self::to_bytes)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Snapshot {
    /// The negotiated version.
    pub version: ProtocolVersion,
    /// The client's capability flags.
    pub peer_capabilities: CapabilitySet,
    /// The id of the next request this side sends.
    pub next_request_id: u64,
    /// The serial the endpoint gives the next of the client's requests.
    pub next_serial: u64,
}

/// The format of [`Snapshot::to_bytes`].
const FORMAT: u8 = 1;

impl Snapshot {
    /// The length of [`to_bytes`](Self::to_bytes).
    pub const LEN: usize = 22;

    /// The snapshot as bytes, to store: a format byte, the version, the flags and the
    /// two counters, little-endian.
    pub fn to_bytes(&self) -> [u8; Self::LEN] {
        let mut b = [0u8; Self::LEN];
        b[0] = FORMAT;
        b[1] = self.version.index() as u8;
        b[2..6].copy_from_slice(&self.peer_capabilities.bits().to_le_bytes());
        b[6..14].copy_from_slice(&self.next_request_id.to_le_bytes());
        b[14..22].copy_from_slice(&self.next_serial.to_le_bytes());
        b
    }

    /// A snapshot stored with [`to_bytes`](Self::to_bytes); `None` if `bytes` is not
    /// one (another length or format, a version this crate does not know).
    pub fn from_bytes(bytes: &[u8]) -> Option<Self> {
        let b: &[u8; Self::LEN] = bytes.try_into().ok()?;
        if b[0] != FORMAT {
            return None;
        }
        let word = |r: &[u8]| {
            let mut w = [0u8; 8];
            w.copy_from_slice(r);
            u64::from_le_bytes(w)
        };
        Some(Snapshot {
            version: *ProtocolVersion::ALL.get(usize::from(b[1]))?,
            peer_capabilities: CapabilitySet::from_bits(u32::from_le_bytes([b[2], b[3], b[4], b[5]])),
            next_request_id: word(&b[6..14]),
            next_serial: word(&b[14..22]),
        })
    }
}

/// Why an endpoint cannot be snapshotted now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum SnapshotError {
    /// The handshake is not complete, or the session is ending.
    NotReady,
    /// Something is in flight or buffered: requests either way (a keepalive ping
    /// included), held requests, received bytes not yet processed, bytes not yet
    /// written out, events not yet delivered. Drain and answer first.
    Busy,
}

impl fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotReady => f.write_str("the session is not ready (handshake incomplete, or ending)"),
            Self::Busy => f.write_str("the session is not idle: something is in flight or buffered"),
        }
    }
}

impl core::error::Error for SnapshotError {}

impl<'a, const OUT: usize, const IN: usize, B: Buffer, E: Profile> Endpoint<'a, OUT, IN, B, E> {
    /// The session's state, if the endpoint is a server that is idle: ready, nothing in
    /// flight, nothing buffered (see [`SnapshotError`]). The endpoint is unchanged; drop
    /// it (or [`into_buffers`](Self::into_buffers)) once the snapshot is stored.
    pub fn snapshot(&self) -> Result<Snapshot, SnapshotError> {
        let core = &self.core;
        let version = match (core.config.role, core.life.phase(), core.life.version()) {
            (Role::Server, Phase::Ready, Some(v)) if !core.rx.is_closed() => v,
            _ => return Err(SnapshotError::NotReady),
        };
        let idle = !core.out.any()
            && core.timers.ping.is_none()
            && !core.inb.any()
            && core.held.is_empty()
            && core.rx.is_idle()
            && core.tx.is_empty()
            && core.batch.is_none()
            && core.stall.is_none()
            && core.queued.is_empty()
            && !core.ready;
        if !idle {
            return Err(SnapshotError::Busy);
        }
        Ok(Snapshot {
            version,
            peer_capabilities: core.life.peer_caps(),
            next_request_id: core.out.peek_id(),
            next_serial: core.inb.next_serial(),
        })
    }

    /// A server endpoint back in the session `snapshot` describes: ready, as an
    /// endpoint that completed the handshake would be. `config` must be a server's that
    /// supports the snapshot's version.
    pub fn resume(config: Config<'a>, snapshot: Snapshot, rx: B, tx: B, now: Instant) -> Result<Self, ConfigError> {
        if config.role != Role::Server {
            return Err(ConfigError::NotAServer);
        }
        if !config.handshake_versions().contains(snapshot.version) {
            return Err(ConfigError::UnsupportedVersion);
        }
        Self::check_config(&config, rx.as_ref().len())?;
        let mut endpoint = Self::fresh(config, rx, tx, now);
        endpoint.core.check_reserves()?;
        let core = &mut endpoint.core;
        core.life.resume(snapshot.version, snapshot.peer_capabilities);
        core.out.start_ids_at(snapshot.next_request_id);
        core.inb.start_serials_at(snapshot.next_serial);
        core.refresh_timers();
        Ok(endpoint)
    }
}
