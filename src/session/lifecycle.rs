//! Where the session stands, in one state enum: the handshake, the session proper, and
//! its end.
//!
//! Every question about the lifecycle ("may this request pass?", "is input still
//! processed?", "why did it end?") is answered from [`Phase`] alone, so the answers
//! cannot disagree. The negotiated version and both sides' capability flags are the
//! data the handshake produced; they outlive it.
//!
//! A stateless lifecycle (2026-07-28: no handshake, the version and capabilities per
//! request) will be a second way into [`Phase::Ready`], next to the handshake.

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
    /// Client: `initialize` sent, waiting for its answer.
    Initializing(InitRequest),
    /// Server: waiting for `initialize`.
    AwaitingInitialize,
    /// Server: `initialize` answered, waiting for `notifications/initialized`.
    AwaitingInitialized,
    /// The handshake is complete.
    Ready,
    /// No new input is processed; answers still flush, then `Closed`.
    Closing(Cause),
    /// The `Closed` event was delivered.
    Closed(CloseReason),
}

pub(crate) struct Lifecycle {
    phase: Phase,
    version: Option<ProtocolVersion>,
    own_caps: CapabilitySet,
    peer_caps: CapabilitySet,
}

impl Lifecycle {
    /// A server waits for `initialize`; a client is about to send it (see
    /// [`initializing`](Self::initializing)).
    pub fn new(role: Role, own_caps: CapabilitySet) -> Self {
        let phase = match role {
            Role::Server => Phase::AwaitingInitialize,
            // Completed by `initializing` before the endpoint is handed out.
            Role::Client => Phase::Initializing(InitRequest {
                id: 0,
                retries: INITIALIZE_RETRIES,
                offered: ProtocolVersion::LATEST_HANDSHAKE,
            }),
        };
        Self { phase, version: None, own_caps, peer_caps: CapabilitySet::EMPTY }
    }

    #[inline]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The public view of the phase.
    pub fn state(&self) -> State {
        match self.phase {
            Phase::Initializing(_) => State::AwaitingInitializeResult,
            Phase::AwaitingInitialize => State::AwaitingInitialize,
            Phase::AwaitingInitialized => State::AwaitingInitialized,
            Phase::Ready => State::Ready,
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
