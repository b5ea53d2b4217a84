//! What an endpoint type is built for, fixed at compile time: [`Profile`] (its documentation
//! says why it is a type parameter).

use crate::mcp::VersionSet;

use super::config::MODERN;

mod sealed {
    use crate::session::modern::ModernCtx;

    pub trait Sealed {
        /// Where the inbound table keeps each request's stateless context
        /// ([`ModernCtx`], 32 bytes on a 32-bit target): one per slot if the profile has
        /// the stateless era, none (an empty array: no RAM, and every lookup a constant
        /// `None`) if it has not.
        type ModernSlots<const M: usize>: AsRef<[Option<ModernCtx>]> + AsMut<[Option<ModernCtx>]>;
        /// The empty storage.
        fn modern_slots<const M: usize>() -> Self::ModernSlots<M>;
    }
}

use super::modern::ModernCtx;

/// What an [`Endpoint`](super::Endpoint) type can speak, fixed at compile time.
///
/// The era an endpoint speaks is chosen at run time, by its
/// [`versions`](super::Config::versions): so a plain [`Endpoint`](super::Endpoint) links
/// the stateless era (2026-07-28: per-request `_meta`, `server/discover`, listen streams,
/// `input_required` results, the dual-era client's probe) even when its configuration
/// names handshake versions only. On a microcontroller that is a third of the session
/// layer's code: 12 to 14 KB of .text on a Cortex-M4 at opt-level z (the session size
/// probe, `benches/size`, and the firmware example, `examples/cortex-m`).
///
/// The endpoint's last type parameter says what it is built for. The default, [`Full`],
/// is every era and both roles; [`Handshake`] is the handshake era only (2024-11-05 to
/// 2025-11-25); [`HandshakeServer`] is that era's server only, without the client's side
/// of the handshake (`initialize` sent and its answer read: 2.5 KB more):
///
/// ```
/// use mcp_sansio::mcp::Implementation;
/// use mcp_sansio::session::{Config, Endpoint, Handshake};
/// use mcp_sansio::{Instant, Role};
/// let (mut rx, mut tx) = ([0u8; 1024], [0u8; 1024]);
/// let config = Config::new(Role::Server, Implementation::new("mcu", "1"));
/// let ep: Endpoint<'_, 0, 2, &mut [u8], Handshake> =
///     Endpoint::new(config, &mut rx[..], &mut tx[..], Instant::ZERO).unwrap();
/// assert_eq!(ep.state(), mcp_sansio::session::State::AwaitingInitialize);
/// // Nothing left of a stateless-only configuration:
/// let modern = Config::new(Role::Server, Implementation::new("mcu", "1")).era(mcp_sansio::session::Era::Modern);
/// let refused = Endpoint::<'_, 0, 2, &mut [u8], Handshake>::new(modern, &mut rx[..], &mut tx[..], Instant::ZERO);
/// assert!(matches!(refused, Err(mcp_sansio::session::ConfigError::NoVersion)));
/// ```
///
/// A [`Handshake`] endpoint keeps only the handshake versions of its configuration
/// (none left: [`ConfigError::NoVersion`](super::ConfigError::NoVersion)), and then
/// behaves exactly as a [`Full`] endpoint configured with those versions: a stateless
/// request gets the same answer (-32601 for `server/discover` and
/// `subscriptions/listen`, which no handshake version has, so a dual-era client falls
/// back to `initialize`; -32600 for other requests before the handshake, and after it
/// -32600 "This session opened with initialize"), and a client opens with `initialize`,
/// never probing. The difference is only in what is linked: every era dispatch in the
/// session is `if E::STATELESS { … }` on a constant, so monomorphisation leaves the
/// stateless branches (and everything only they reach) out of the program.
///
/// Why a type parameter rather than reachability (a table of the stateless functions
/// installed by a constructor, which a handshake-only constructor never names): the
/// session's code is already generic over the endpoint's capacities and buffers, so the
/// stateless functions are `Core<OUT, IN, B>` methods. A table of them would have to be
/// named per endpoint type from the constructor, or type-erased behind a trait object
/// over the core, and kept in the endpoint (RAM) and called indirectly on the hot path;
/// a constant on a type parameter costs nothing at run time and needs no rewrite of the
/// stateless code. (A runtime value that a constructor sets, the other obvious route, does
/// not work: LLVM keeps the code behind it, as was measured for the role.) The one place
/// outside that generic code, answering a request ([`IncomingRequest`](super::IncomingRequest)
/// is not generic), uses reachability: the function that completes a stateless result is
/// named only by the inbound table of an endpoint whose profile has the era (the table's
/// type carries the profile; the request handle reaches it through the table's vtable,
/// so the handle does not grow).
///
/// A [`HandshakeServer`] endpoint takes a server's configuration only
/// ([`ConfigError::NotAServer`](super::ConfigError::NotAServer)); its role is then a
/// constant, and every role dispatch folds the same way.
///
/// The profiles are sealed: what an endpoint can be built for is this crate's choice:
/// [`Full`] (the default), [`Handshake`] or [`HandshakeServer`].
pub trait Profile: sealed::Sealed + 'static {
    /// The stateless era (2026-07-28) is built in.
    const STATELESS: bool;
    /// The versions an endpoint of this profile can speak: its configuration's versions
    /// are cut down to these.
    const VERSIONS: VersionSet;
    /// The client role is built in.
    const CLIENT: bool;
    /// The server role is built in.
    const SERVER: bool;
}

/// Every era, both roles: the default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Full;

/// The handshake era only (2024-11-05 to 2025-11-25), both roles: the stateless era is
/// not linked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Handshake;

/// A server of the handshake era only: neither the stateless era nor the client's side
/// of the handshake (`initialize` and its answer) is linked. The smallest server.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HandshakeServer;

impl sealed::Sealed for Full {
    type ModernSlots<const M: usize> = [Option<ModernCtx>; M];
    fn modern_slots<const M: usize>() -> Self::ModernSlots<M> {
        [None; M]
    }
}
impl sealed::Sealed for Handshake {
    type ModernSlots<const M: usize> = [Option<ModernCtx>; 0];
    fn modern_slots<const M: usize>() -> Self::ModernSlots<M> {
        []
    }
}
impl sealed::Sealed for HandshakeServer {
    type ModernSlots<const M: usize> = [Option<ModernCtx>; 0];
    fn modern_slots<const M: usize>() -> Self::ModernSlots<M> {
        []
    }
}

impl Profile for Full {
    const STATELESS: bool = true;
    const VERSIONS: VersionSet = VersionSet::HANDSHAKE.with(MODERN);
    const CLIENT: bool = true;
    const SERVER: bool = true;
}

impl Profile for Handshake {
    const STATELESS: bool = false;
    const VERSIONS: VersionSet = VersionSet::HANDSHAKE;
    const CLIENT: bool = true;
    const SERVER: bool = true;
}

impl Profile for HandshakeServer {
    const STATELESS: bool = false;
    const VERSIONS: VersionSet = VersionSet::HANDSHAKE;
    const CLIENT: bool = false;
    const SERVER: bool = true;
}
