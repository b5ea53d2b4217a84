//! `Mcp-Session-Id` values: minted unpredictable, or signed so that they carry the
//! session's state across restarts and replicas.
//!
//! ## Random ids
//!
//! The core draws no randomness: [`IdMinter`] is seeded once with 128 bits from the
//! caller's CSPRNG (`getrandom`, a hardware RNG) and mints each id as SipHash-2-4-128 of
//! a counter under that seed, printed as 32 hex digits. That is a PRF in counter mode:
//! to anyone without the seed the ids are independent 128-bit random values, so they
//! are globally unique and unguessable as the specification asks, and minting costs no
//! system call. [`IdMinter::reseed`] mixes in fresh randomness whenever the caller
//! likes.
//!
//! ## Signed ids: sessions that survive a restart
//!
//! With a [`SessionKey`] (128 bits the application keeps, shared by every replica), an
//! id is `v1.` and the unpadded base64url of 34 bytes: a format byte, the negotiated
//! [`ProtocolVersion`], the client's [`CapabilitySet`] flags, a 12-byte nonce from the
//! minter, and a 128-bit SipHash-2-4-128 tag over all of it. Any process holding the key
//! reads the version and capabilities back from the header ([`SessionKey::verify`],
//! comparing tags in constant time) and rebuilds a ready session, so a restart or a
//! load balancer without sticky sessions no longer costs every client its session.
//!
//! What does **not** carry over, and what the client sees:
//! * requests in flight either way, and their SSE streams: a client waiting on a POST
//!   stream gets no response (its transport reports the broken stream; it may retry);
//! * the replay store: a `Last-Event-ID` from before the restart names no event and
//!   the resumed stream starts empty;
//! * the GET stream (the client reconnects it, as after any drop);
//! * the log level set with `logging/setLevel` and resource subscriptions, unless the
//!   application stores them itself keyed by session id;
//! * the client's `clientInfo`, and capability *details* beyond the flags (a sampling
//!   or elicitation sub-object's contents);
//! * termination: an id ended with DELETE is refused while this process remembers it,
//!   but a process that never saw the DELETE (a restart, another replica) accepts it
//!   again; rotate the key to revoke every id at once.

use super::mac::{siphash128, tags_equal};
use crate::ProtocolVersion;
use crate::mcp::CapabilitySet;

/// The longest id this core mints or keeps: longer header values name no session here.
pub const MAX_SESSION_ID_LEN: usize = 64;

/// A session id: 1 to [`MAX_SESSION_ID_LEN`] visible ASCII bytes, kept inline; or
/// [`SessionId::UNLISTED`], the empty id of a session nobody may name.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct SessionId {
    bytes: [u8; MAX_SESSION_ID_LEN],
    len: u8,
}

impl core::fmt::Debug for SessionId {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "SessionId({})", self.as_str())
    }
}

impl core::fmt::Display for SessionId {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(feature = "defmt")]
impl defmt::Format for SessionId {
    fn format(&self, f: defmt::Formatter<'_>) {
        defmt::write!(f, "{=str}", self.as_str())
    }
}

impl SessionId {
    /// The id of a session the table keeps but no header may name (a 2026-07-28
    /// stateless exchange, whose id is never sent): empty, which no header value
    /// parses to, and which a store leaves out of its index (nothing is minted for it).
    pub const UNLISTED: SessionId = SessionId { bytes: [0; MAX_SESSION_ID_LEN], len: 0 };

    /// Whether it is [`SessionId::UNLISTED`].
    pub fn is_unlisted(&self) -> bool {
        self.len == 0
    }

    /// The id a header names, if it is one this core could have minted (visible ASCII,
    /// at most [`MAX_SESSION_ID_LEN`] bytes).
    pub fn parse(text: &str) -> Option<Self> {
        let b = text.as_bytes();
        if b.is_empty() || b.len() > MAX_SESSION_ID_LEN || !b.iter().all(|c| (0x21..=0x7E).contains(c)) {
            return None;
        }
        let mut bytes = [0u8; MAX_SESSION_ID_LEN];
        bytes[..b.len()].copy_from_slice(b);
        Some(Self { bytes, len: b.len() as u8 })
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        // Only visible ASCII is ever stored.
        core::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or("")
    }

    /// Whether it is in the signed format (it may still fail verification).
    pub fn is_signed(&self) -> bool {
        self.as_str().starts_with(SIGNED_PREFIX)
    }
}

/// Mints unpredictable values from a caller-provided seed (see the module docs).
#[derive(Clone)]
pub struct IdMinter {
    key: [u8; 16],
    counter: u64,
}

impl core::fmt::Debug for IdMinter {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("IdMinter").field("counter", &self.counter).finish_non_exhaustive()
    }
}

const HEX: &[u8; 16] = b"0123456789abcdef";

impl IdMinter {
    /// A minter seeded with 128 bits from a CSPRNG.
    pub fn new(seed: [u8; 16]) -> Self {
        Self { key: seed, counter: 0 }
    }

    /// Mixes fresh randomness into the seed.
    pub fn reseed(&mut self, fresh: [u8; 16]) {
        let mut data = [0u8; 24];
        data[..16].copy_from_slice(&fresh);
        data[16..].copy_from_slice(&self.counter.to_le_bytes());
        self.key = siphash128(&self.key, &data);
    }

    /// The next 128 unpredictable bits.
    pub fn next_bits(&mut self) -> [u8; 16] {
        self.counter = self.counter.wrapping_add(1);
        siphash128(&self.key, &self.counter.to_le_bytes())
    }

    /// A fresh random session id: 128 bits as 32 lowercase hex digits.
    pub fn random_id(&mut self) -> SessionId {
        let bits = self.next_bits();
        let mut bytes = [0u8; MAX_SESSION_ID_LEN];
        for (i, b) in bits.iter().enumerate() {
            bytes[2 * i] = HEX[usize::from(b >> 4)];
            bytes[2 * i + 1] = HEX[usize::from(b & 15)];
        }
        SessionId { bytes, len: 32 }
    }
}

/// What a signed id carries: enough to rebuild a ready session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SessionTicket {
    /// The negotiated protocol version.
    pub version: ProtocolVersion,
    /// The client's capability flags.
    pub client_capabilities: CapabilitySet,
}

/// The application's key for signed session ids (128 bits, kept secret, the same on
/// every replica).
#[derive(Clone)]
pub struct SessionKey([u8; 16]);

impl core::fmt::Debug for SessionKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("SessionKey(..)")
    }
}

const SIGNED_PREFIX: &str = "v1.";
const FORMAT: u8 = 1;
const NONCE: usize = 12;
/// Format, version, capabilities, nonce.
const PAYLOAD: usize = 1 + 1 + 4 + NONCE;
const RAW: usize = PAYLOAD + 16;
const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
/// Length of a signed id: the prefix and 34 bytes in unpadded base64.
pub const SIGNED_ID_LEN: usize = SIGNED_PREFIX.len() + (RAW * 4).div_ceil(3);

const _: () = assert!(SIGNED_ID_LEN <= MAX_SESSION_ID_LEN);

impl SessionKey {
    /// A key from 128 secret bits.
    pub const fn new(key: [u8; 16]) -> Self {
        Self(key)
    }

    /// A signed id for `ticket`, unique by the minter's nonce.
    pub fn sign(&self, ticket: SessionTicket, minter: &mut IdMinter) -> SessionId {
        let mut raw = [0u8; RAW];
        raw[0] = FORMAT;
        raw[1] = ticket.version.index() as u8;
        raw[2..6].copy_from_slice(&ticket.client_capabilities.bits().to_le_bytes());
        raw[6..PAYLOAD].copy_from_slice(&minter.next_bits()[..NONCE]);
        let tag = siphash128(&self.0, &raw[..PAYLOAD]);
        raw[PAYLOAD..].copy_from_slice(&tag);
        let mut bytes = [0u8; MAX_SESSION_ID_LEN];
        bytes[..SIGNED_PREFIX.len()].copy_from_slice(SIGNED_PREFIX.as_bytes());
        let mut at = SIGNED_PREFIX.len();
        for chunk in raw.chunks(3) {
            let n = chunk.iter().enumerate().fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
            for k in 0..=chunk.len() {
                bytes[at] = B64[(n >> (18 - 6 * k) & 63) as usize];
                at += 1;
            }
        }
        SessionId { bytes, len: at as u8 }
    }

    /// What a signed id carries, if it is one this key signed; `None` for anything else
    /// (another format, another key, a changed byte, a version this build does not know).
    pub fn verify(&self, id: &str) -> Option<SessionTicket> {
        let text = id.strip_prefix(SIGNED_PREFIX)?.as_bytes();
        if text.len() != SIGNED_ID_LEN - SIGNED_PREFIX.len() {
            return None;
        }
        let mut raw = [0u8; RAW];
        let mut at = 0;
        for chunk in text.chunks(4) {
            let mut n = 0u32;
            for (k, c) in chunk.iter().enumerate() {
                let v = B64.iter().position(|b| b == c)? as u32;
                n |= v << (18 - 6 * k);
            }
            for k in 0..chunk.len() - 1 {
                raw[at] = (n >> (16 - 8 * k)) as u8;
                at += 1;
            }
            // Unused low bits of a short final group must be zero (one spelling per id).
            let used = 8 * (chunk.len() - 1);
            if n & ((1 << (24 - used)) - 1) != 0 {
                return None;
            }
        }
        let mut tag = [0u8; 16];
        tag.copy_from_slice(&raw[PAYLOAD..]);
        if !tags_equal(&tag, &siphash128(&self.0, &raw[..PAYLOAD])) || raw[0] != FORMAT {
            return None;
        }
        let version = *ProtocolVersion::ALL.get(usize::from(raw[1]))?;
        let caps = u32::from_le_bytes([raw[2], raw[3], raw[4], raw[5]]);
        Some(SessionTicket { version, client_capabilities: CapabilitySet::from_bits(caps) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::Capability;

    #[test]
    fn random_ids_are_hex_and_distinct() {
        let mut m = IdMinter::new([7; 16]);
        let a = m.random_id();
        let b = m.random_id();
        assert_ne!(a, b);
        assert_eq!(a.as_str().len(), 32);
        assert!(a.as_str().bytes().all(|c| c.is_ascii_hexdigit()));
        // Another seed, another sequence.
        assert_ne!(IdMinter::new([8; 16]).random_id(), IdMinter::new([7; 16]).random_id());
        let mut r = IdMinter::new([7; 16]);
        r.reseed([1; 16]);
        assert_ne!(r.random_id(), a);
        assert_eq!(SessionId::parse(a.as_str()), Some(a));
        assert!(!a.is_signed());
    }

    #[test]
    fn signed_ids_round_trip_and_resist_tampering() {
        let key = SessionKey::new([42; 16]);
        let mut m = IdMinter::new([1; 16]);
        let caps = CapabilitySet::of(&[Capability::Sampling, Capability::ElicitationForm, Capability::Roots]);
        let ticket = SessionTicket { version: ProtocolVersion::V2025_06_18, client_capabilities: caps };
        let id = key.sign(ticket, &mut m);
        assert_eq!(id.as_str().len(), SIGNED_ID_LEN);
        assert!(id.is_signed());
        assert!(id.as_str().bytes().all(|c| (0x21..=0x7E).contains(&c)));
        assert_eq!(key.verify(id.as_str()), Some(ticket));
        assert_ne!(key.sign(ticket, &mut m), id, "the nonce makes each id unique");
        assert_eq!(SessionKey::new([43; 16]).verify(id.as_str()), None);
        // Every single-character change is refused.
        let text = id.as_str().as_bytes().to_vec();
        for i in 0..text.len() {
            for c in [b'A', b'z', b'-', b'0'] {
                let mut t = text.clone();
                if t[i] == c {
                    continue;
                }
                t[i] = c;
                assert_eq!(key.verify(core::str::from_utf8(&t).unwrap()), None, "byte {i}");
            }
        }
        assert_eq!(key.verify(&id.as_str()[..SIGNED_ID_LEN - 1]), None);
        assert_eq!(key.verify("v1."), None);
        assert_eq!(key.verify("0123456789abcdef0123456789abcdef"), None);
    }
}
