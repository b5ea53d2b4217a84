//! Where the session stands, in one state enum: the handshake, the session proper, and
//! its end.
//!
//! Every question about the lifecycle ("may this request pass?", "is input still
//! processed?", "why did it end?") is answered from [`Phase`] alone, so the answers
//! cannot disagree. The negotiated version and both sides' capability flags are the
//! data the handshake produced; they outlive it.
//!
//! The stateless era (2026-07-28) has no handshake: its version and capabilities travel
//! on every request. It is a phase of its own, [`Phase::Stateless`], reached by a server
//! at the first request that carries the modern `_meta` (or at once, if it speaks no
//! handshake version), and by a client once its `server/discover` probe
//! ([`Phase::Discovering`]) found a modern server.

use super::State;
use super::event::CloseReason;
use crate::mcp::{CapabilitySet, ProtocolVersion, Role};

/// How many times a client offers another version after a -32602 listing the server's.
const INITIALIZE_RETRIES: u8 = 2;

/// A client's `initialize` request in flight (its deadline is in the timer table).
#[derive(Clone, Copy, Debug)]
pub(crate) struct InitRequest {
    pub id: u64,
    /// Retries left after a -32602 that lists the server's versions.
    pub retries: u8,
    /// The version this `initialize` offered.
    pub offered: ProtocolVersion,
}

/// A dual-era client's `server/discover` probe in flight (its deadline is in the timer
/// table).
#[derive(Clone, Copy, Debug)]
pub(crate) struct DiscoverProbe {
    pub id: u64,
    /// The version the probe's `_meta` named.
    pub offered: ProtocolVersion,
    /// Whether another probe may follow a -32022 naming a mutual version.
    pub retried: bool,
}

/// Why a session is ending.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cause {
    /// The peer's input ended and everything in it was processed.
    InputEnded,
    /// This side ended it (a local close, a failed handshake): input is no longer read.
    Shutdown(CloseReason),
}

impl Cause {
    fn reason(self) -> CloseReason {
        match self {
            Cause::InputEnded => CloseReason::PeerClosed,
            Cause::Shutdown(reason) => reason,
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum Phase {
    /// Dual-era client: `server/discover` sent, waiting for its answer.
    Discovering(DiscoverProbe),
    /// Client: `initialize` sent, waiting for its answer.
    Initializing(InitRequest),
    /// Server: waiting for `initialize`.
    AwaitingInitialize,
    /// Server: `initialize` answered, waiting for `notifications/initialized`.
    AwaitingInitialized,
    /// The handshake is complete.
    Ready,
    /// The stateless era: every request stands alone. A server validates each one's
    /// `_meta`; a client puts it on each one, at the version it settled on.
    Stateless,
    /// No new input is processed; answers still flush, then `Closed`.
    Closing(Cause),
    /// The `Closed` event was delivered.
    Closed(CloseReason),
}

#[cfg_attr(test, derive(Debug))]
pub(crate) struct Lifecycle {
    phase: Phase,
    version: Option<ProtocolVersion>,
    own_caps: CapabilitySet,
    peer_caps: CapabilitySet,
}

impl Lifecycle {
    /// A server waits for the client's opening (or, speaking only the stateless era,
    /// starts in it); a client is about to send its first request (see
    /// [`initializing`](Self::initializing) and [`discovering`](Self::discovering)).
    /// `stateless_only`: the newest version of a server that speaks no handshake version.
    pub fn new(role: Role, own_caps: CapabilitySet, stateless_only: Option<ProtocolVersion>) -> Self {
        let phase = match role {
            Role::Server if stateless_only.is_some() => Phase::Stateless,
            Role::Server => Phase::AwaitingInitialize,
            // Completed by `initializing` before the endpoint is handed out.
            Role::Client => Phase::Initializing(InitRequest {
                id: 0,
                retries: INITIALIZE_RETRIES,
                offered: ProtocolVersion::LATEST_HANDSHAKE,
            }),
        };
        let version = stateless_only.filter(|_| role == Role::Server);
        Self { phase, version, own_caps, peer_caps: CapabilitySet::EMPTY }
    }

    #[inline]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The public view of the phase.
    pub fn state(&self) -> State {
        match self.phase {
            Phase::Discovering(_) => State::Discovering,
            Phase::Initializing(_) => State::AwaitingInitializeResult,
            Phase::AwaitingInitialize => State::AwaitingInitialize,
            Phase::AwaitingInitialized => State::AwaitingInitialized,
            Phase::Ready => State::Ready,
            Phase::Stateless => State::Stateless,
            Phase::Closing(_) => State::Closing,
            Phase::Closed(_) => State::Closed,
        }
    }

    #[inline]
    pub fn version(&self) -> Option<ProtocolVersion> {
        self.version
    }

    /// The negotiated version once the handshake is complete and the session open.
    #[inline]
    pub fn ready_version(&self) -> Option<ProtocolVersion> {
        match self.phase {
            Phase::Ready => self.version,
            _ => None,
        }
    }

    pub fn own_caps(&self) -> CapabilitySet {
        self.own_caps
    }

    pub fn peer_caps(&self) -> CapabilitySet {
        self.peer_caps
    }

    /// Whether received frames are still processed (not closing, not closed).
    #[inline]
    pub fn reads_input(&self) -> bool {
        !matches!(self.phase, Phase::Closing(_) | Phase::Closed(_))
    }

    #[inline]
    pub fn is_closed(&self) -> bool {
        matches!(self.phase, Phase::Closed(_))
    }

    /// Whether the endpoint is in the stateless era.
    #[inline]
    pub fn is_stateless(&self) -> bool {
        matches!(self.phase, Phase::Stateless)
    }

    /// The client's `server/discover` probe in flight.
    #[inline]
    pub fn probe(&self) -> Option<DiscoverProbe> {
        match self.phase {
            Phase::Discovering(probe) => Some(probe),
            _ => None,
        }
    }

    /// Client: `server/discover` offering `offered` was sent with `id`.
    pub fn discovering(&mut self, id: u64, offered: ProtocolVersion, retried: bool) {
        self.phase = Phase::Discovering(DiscoverProbe { id, offered, retried });
    }

    /// Server: the client opened with a stateless request; the connection stays in that
    /// era. Client: the probe found a modern server speaking `version`, whose
    /// capabilities are `peer_caps`.
    pub fn go_stateless(&mut self, version: ProtocolVersion, peer_caps: CapabilitySet) {
        self.version = Some(version);
        self.peer_caps = peer_caps;
        self.phase = Phase::Stateless;
    }

    /// Client: the stateless version to use from now on (a -32022 named a mutual one).
    pub fn switch_version(&mut self, version: ProtocolVersion) {
        if self.is_stateless() {
            self.version = Some(version);
        }
    }

    /// The client's `initialize` in flight.
    #[inline]
    pub fn init(&self) -> Option<InitRequest> {
        match self.phase {
            Phase::Initializing(init) => Some(init),
            _ => None,
        }
    }

    /// Client: `initialize` offering `offered` was sent with `id`. Retries carry over
    /// from the previous attempt.
    pub fn initializing(&mut self, id: u64, offered: ProtocolVersion) {
        let retries = match self.phase {
            Phase::Initializing(init) => init.retries,
            _ => INITIALIZE_RETRIES,
        };
        self.phase = Phase::Initializing(InitRequest { id, retries, offered });
    }

    /// Client: one retry is used up.
    pub fn spend_retry(&mut self) {
        if let Phase::Initializing(init) = &mut self.phase {
            init.retries = init.retries.saturating_sub(1);
        }
    }

    /// Server: `initialize` answered with `version`.
    pub fn negotiated(&mut self, version: ProtocolVersion, peer_caps: CapabilitySet) {
        self.version = Some(version);
        self.peer_caps = peer_caps;
        self.phase = Phase::AwaitingInitialized;
    }

    /// Server: `notifications/initialized` arrived. `false` if it was not expected.
    pub fn initialized(&mut self) -> bool {
        if matches!(self.phase, Phase::AwaitingInitialized) {
            self.phase = Phase::Ready;
            return true;
        }
        false
    }

    /// Client: the server accepted `version`.
    pub fn accepted(&mut self, version: ProtocolVersion, peer_caps: CapabilitySet) {
        self.version = Some(version);
        self.peer_caps = peer_caps;
        self.phase = Phase::Ready;
    }

    /// Server: back in a session that an earlier endpoint negotiated.
    pub fn resume(&mut self, version: ProtocolVersion, peer_caps: CapabilitySet) {
        self.version = Some(version);
        self.peer_caps = peer_caps;
        self.phase = Phase::Ready;
    }

    /// Starts closing for `cause`. Returns whether the session was open until now (the
    /// caller then fails what is in flight). A shutdown replaces an end of input as the
    /// reason; nothing replaces a shutdown.
    pub fn close(&mut self, cause: Cause) -> bool {
        match self.phase {
            Phase::Closed(_) | Phase::Closing(Cause::Shutdown(_)) => false,
            Phase::Closing(Cause::InputEnded) => {
                self.phase = Phase::Closing(cause);
                false
            }
            _ => {
                self.phase = Phase::Closing(cause);
                true
            }
        }
    }

    /// Why the session ends (meaningful once closing).
    pub fn close_reason(&self) -> CloseReason {
        match self.phase {
            Phase::Closing(cause) => cause.reason(),
            Phase::Closed(reason) => reason,
            _ => CloseReason::PeerClosed,
        }
    }

    /// The `Closed` event is being delivered.
    pub fn finish(&mut self) -> CloseReason {
        let reason = self.close_reason();
        self.phase = Phase::Closed(reason);
        reason
    }
}
