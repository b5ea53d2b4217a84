//! Sealed `requestState` for servers: multi round-trip requests (2026-07-28) without
//! server storage.
//!
//! A server that needs input before it can answer (an elicitation, a sampling, the
//! client's roots) returns `input_required` and keeps nothing: what it needs to carry on
//! travels in `requestState`, which the client echoes in its retry. The client is not to
//! be trusted with it, so the specification asks the server to protect its integrity
//! and to bind it to what it was issued for. [`StateSealer`] does both with a key the
//! application supplies (the core draws no randomness): the state's text is the payload
//! (base64url), its expiry, and a SipHash-2-4 tag over both and over a
//! [`StateBinding`]: the method, the tool, prompt or resource it is about, the keys of
//! the input requests that were asked, and, where there is one, the authenticated
//! principal and a digest of the request's other salient parameters. State that was
//! tampered with, has expired, or is presented on another request is refused with
//! [`StateError`], which answers -32602.
//!
//! What this does not do: make a state single-use (the specification leaves that to
//! servers that need it, with storage), or hide the payload (it is signed, not
//! encrypted: put nothing secret in it).
//!
//! ```
//! use mcp_sansio::session::{StateBinding, StateError, StateSealer};
//! use mcp_sansio::{Instant, Method};
//! use mcp_sansio::wire::RawJson;
//! use core::time::Duration;
//!
//! let sealer = StateSealer::new(*b"0123456789abcdef");
//! let asked = ["user_name"];
//! let binding = StateBinding::new(Method::ToolsCall, "greet", &asked);
//! let now = Instant::from_secs(10);
//! let mut buf = [0u8; 128];
//! let state = sealer.seal(&binding, b"step=1", now + Duration::from_secs(60), &mut buf).unwrap();
//!
//! // The retry echoes it; the server opens it for the same request.
//! let json = format!("\"{state}\"");
//! let echoed = RawJson::parse(json.as_bytes()).unwrap().as_str().unwrap();
//! let mut out = [0u8; 64];
//! assert_eq!(sealer.open(&binding, echoed, now, &mut out), Ok(&b"step=1"[..]));
//! // Not for another tool, not after it expired.
//! let other = StateBinding::new(Method::ToolsCall, "other", &asked);
//! assert_eq!(sealer.open(&other, echoed, now, &mut out), Err(StateError::Invalid));
//! assert_eq!(sealer.open(&binding, echoed, now + Duration::from_secs(61), &mut out), Err(StateError::Expired));
//! ```

use core::fmt;

use super::retry::digest_text;
use super::sip::Sip;
use crate::mcp::Method;
use crate::time::Instant;
use crate::wire::{ErrorCode, JsonStr};

/// What a sealed state is bound to: it opens only for a request that matches all of it.
#[derive(Clone, Copy, Debug)]
pub struct StateBinding<'a> {
    /// The request's method (`tools/call`, `prompts/get`, `resources/read`).
    pub method: Method<'a>,
    /// What it is about: the tool or prompt name, or the resource URI.
    pub target: &'a str,
    /// The keys of the input requests the state was issued with (in any order).
    pub keys: &'a [&'a str],
    /// The authenticated principal the request was made by, if the transport knows one
    /// (an OAuth subject, say): state issued to one principal does not open for another.
    pub principal: &'a [u8],
    /// A digest of the request's other salient parameters, in a form of the
    /// application's choosing (the tool's arguments, canonicalized): state issued for
    /// one call does not open for a call with other arguments.
    pub params: &'a [u8],
}

impl<'a> StateBinding<'a> {
    /// A binding to `method` on `target`, with these input request keys (no principal,
    /// no parameter digest).
    pub const fn new(method: Method<'a>, target: &'a str, keys: &'a [&'a str]) -> Self {
        Self { method, target, keys, principal: &[], params: &[] }
    }

    /// The same binding, also to `principal`.
    pub const fn for_principal(self, principal: &'a [u8]) -> Self {
        Self { principal, ..self }
    }

    /// The same binding, also to a digest of the other parameters.
    pub const fn with_params(self, params: &'a [u8]) -> Self {
        Self { params, ..self }
    }

    fn feed(&self, sip: &mut Sip) {
        sip.field(self.method.name().as_bytes()).field(self.target.as_bytes());
        // The keys in any order: a sum of their digests, and how many.
        let sum = self.keys.iter().fold(0u64, |acc, k| acc.wrapping_add(digest_text(k)));
        sip.write(&(self.keys.len() as u64).to_le_bytes()).write(&sum.to_le_bytes());
        sip.field(self.principal).field(self.params);
    }
}

/// Why a `requestState` was refused. Answer the retry with [`code`](Self::code)
/// (-32602) and [`message`](Self::message).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum StateError {
    /// Not a state this server sealed for this request: tampered with, forged, or
    /// issued for another request, tool, principal or set of input requests.
    Invalid,
    /// Sealed for this request, but its time is over.
    Expired,
    /// The output buffer is too small for the payload (the caller's limit).
    BufferTooSmall {
        /// Bytes the payload needs.
        needed: usize,
    },
}

impl StateError {
    /// The JSON-RPC error code to answer with.
    pub const fn code(self) -> ErrorCode {
        match self {
            Self::Invalid | Self::Expired => ErrorCode::INVALID_PARAMS,
            Self::BufferTooSmall { .. } => ErrorCode::INTERNAL_ERROR,
        }
    }

    /// The message to answer with.
    pub const fn message(self) -> &'static str {
        match self {
            Self::Invalid => "Invalid requestState",
            Self::Expired => "Expired requestState: start the request again",
            Self::BufferTooSmall { .. } => "requestState payload too large",
        }
    }
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl core::error::Error for StateError {}

/// Seals and opens a server's `requestState`; see the module documentation.
#[derive(Clone, Copy, Debug)]
pub struct StateSealer {
    key: [u64; 2],
}

/// The bytes of a sealed state beside its payload: `.`, 16 hex digits of expiry, `.`,
/// 16 hex digits of tag.
const TRAILER: usize = 34;

impl StateSealer {
    /// A sealer with a secret key (draw it from a random source once per process, or
    /// share one among the instances of a server behind a load balancer).
    pub const fn new(key: [u8; 16]) -> Self {
        let mut k0 = [0u8; 8];
        let mut k1 = [0u8; 8];
        let mut i = 0;
        while i < 8 {
            k0[i] = key[i];
            k1[i] = key[i + 8];
            i += 1;
        }
        Self { key: [u64::from_le_bytes(k0), u64::from_le_bytes(k1)] }
    }

    /// The length of the state [`seal`](Self::seal) writes for a payload of `len` bytes.
    pub const fn sealed_len(len: usize) -> usize {
        (len * 4).div_ceil(3) + TRAILER
    }

    fn tag(&self, binding: &StateBinding<'_>, payload: &[u8], expires: u64) -> u64 {
        let mut sip = Sip::new(self.key);
        sip.field(b"io.modelcontextprotocol/requestState mcp-sansio 1");
        binding.feed(&mut sip);
        sip.write(&expires.to_le_bytes()).field(payload);
        sip.finish()
    }

    /// Seals `payload` for the request `binding` describes, valid until `expires` (on the
    /// endpoint's clock), into `out`: the text to put in `requestState`.
    pub fn seal<'o>(
        &self,
        binding: &StateBinding<'_>,
        payload: &[u8],
        expires: Instant,
        out: &'o mut [u8],
    ) -> Result<&'o str, StateError> {
        let needed = Self::sealed_len(payload.len());
        let Some(out) = out.get_mut(..needed) else { return Err(StateError::BufferTooSmall { needed }) };
        let n = encode64(payload, out);
        let expires = expires.as_millis();
        out[n] = b'.';
        hex(expires, &mut out[n + 1..n + 17]);
        out[n + 17] = b'.';
        hex(self.tag(binding, payload, expires), &mut out[n + 18..n + 34]);
        Ok(core::str::from_utf8(out).unwrap_or_default())
    }

    /// Opens a `requestState` received in a retry, for the request `binding`
    /// describes, at `now`: the payload, in `out`.
    pub fn open<'o>(
        &self,
        binding: &StateBinding<'_>,
        state: JsonStr<'_>,
        now: Instant,
        out: &'o mut [u8],
    ) -> Result<&'o [u8], StateError> {
        // Sealed states are plain ASCII: an escaped one was not written by `seal`.
        let text = state.as_plain().ok_or(StateError::Invalid)?.as_bytes();
        let split = text.len().checked_sub(TRAILER).ok_or(StateError::Invalid)?;
        let (body, trailer) = text.split_at(split);
        if trailer[0] != b'.' || trailer[17] != b'.' {
            return Err(StateError::Invalid);
        }
        let expires = unhex(&trailer[1..17]).ok_or(StateError::Invalid)?;
        let tag = unhex(&trailer[18..34]).ok_or(StateError::Invalid)?;
        let needed = body.len() / 4 * 3 + (body.len() % 4).saturating_sub(1);
        let Some(payload) = out.get_mut(..needed) else { return Err(StateError::BufferTooSmall { needed }) };
        decode64(body, payload).ok_or(StateError::Invalid)?;
        // Compared whole; a timing difference would tell an attacker nothing of the key.
        if self.tag(binding, payload, expires) != tag {
            return Err(StateError::Invalid);
        }
        if now.as_millis() > expires {
            return Err(StateError::Expired);
        }
        Ok(payload)
    }
}

const HEX: &[u8; 16] = b"0123456789abcdef";

fn hex(v: u64, out: &mut [u8]) {
    for (i, b) in out.iter_mut().enumerate().take(16) {
        *b = HEX[((v >> (60 - 4 * i)) & 15) as usize];
    }
}

fn unhex(text: &[u8]) -> Option<u64> {
    text.iter().try_fold(0u64, |acc, &c| {
        let d = match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            _ => return None,
        };
        Some(acc << 4 | u64::from(d))
    })
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// base64url without padding; returns the length written.
fn encode64(data: &[u8], out: &mut [u8]) -> usize {
    let mut n = 0;
    for chunk in data.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let w = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..chunk.len() + 1 {
            out[n] = B64[((w >> (18 - 6 * i)) & 63) as usize];
            n += 1;
        }
    }
    n
}

/// Decodes base64url without padding into `out` (exactly the right length), refusing
/// anything `encode64` would not have written.
fn decode64(text: &[u8], out: &mut [u8]) -> Option<()> {
    if text.len() % 4 == 1 {
        return None;
    }
    let value = |c: u8| B64.iter().position(|&b| b == c).map(|p| p as u32);
    let mut o = 0;
    for chunk in text.chunks(4) {
        let mut w = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            w |= value(c)? << (18 - 6 * i);
        }
        let bytes = chunk.len() - 1;
        // Bits below the last byte must be zero: one text per payload.
        if w & ((1 << (24 - 8 * bytes)) - 1) != 0 {
            return None;
        }
        for i in 0..bytes {
            *out.get_mut(o)? = (w >> (16 - 8 * i)) as u8;
            o += 1;
        }
    }
    (o == out.len()).then_some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn js(s: &str) -> JsonStr<'_> {
        JsonStr::from_text(s)
    }

    #[test]
    fn base64url_round_trips_every_length() {
        for len in 0..40 {
            let data: std::vec::Vec<u8> = (0..len as u8).map(|b| b.wrapping_mul(37)).collect();
            let mut text = [0u8; 64];
            let n = encode64(&data, &mut text);
            assert_eq!(n + TRAILER, StateSealer::sealed_len(len));
            let mut back = std::vec![0u8; len];
            assert_eq!(decode64(&text[..n], &mut back), Some(()));
            assert_eq!(back, data);
        }
        // Non-canonical trailing bits are refused.
        let mut out = [0u8; 1];
        assert_eq!(decode64(b"QQ", &mut out), Some(()));
        assert_eq!(decode64(b"QR", &mut out), None);
    }

    #[test]
    fn every_part_of_the_binding_counts() {
        let sealer = StateSealer::new(*b"k-k-k-k-k-k-k-k-");
        let keys = ["a", "b"];
        let base = StateBinding::new(Method::ToolsCall, "t", &keys).for_principal(b"alice").with_params(b"x=1");
        let mut buf = [0u8; 128];
        let state = sealer.seal(&base, b"payload", Instant::from_secs(100), &mut buf).unwrap().to_owned();
        let mut out = [0u8; 32];
        let open = |b: &StateBinding<'_>, s: &str, out: &mut [u8; 32]| {
            sealer.open(b, js(s), Instant::ZERO, out).map(|p| p.len())
        };
        assert_eq!(open(&base, &state, &mut out), Ok(7));
        let reordered = ["b", "a"];
        assert_eq!(open(&StateBinding { keys: &reordered, ..base }, &state, &mut out), Ok(7));
        let others: [StateBinding<'_>; 5] = [
            StateBinding { method: Method::PromptsGet, ..base },
            StateBinding { target: "u", ..base },
            StateBinding { keys: &["a"], ..base },
            base.for_principal(b"mallory"),
            base.with_params(b"x=2"),
        ];
        for other in others {
            assert_eq!(open(&other, &state, &mut out), Err(StateError::Invalid), "{other:?}");
        }
        // Any changed character is refused.
        for i in 0..state.len() {
            let mut bytes = state.clone().into_bytes();
            bytes[i] = if bytes[i] == b'A' { b'B' } else { b'A' };
            let tampered = String::from_utf8(bytes).unwrap();
            assert!(open(&base, &tampered, &mut out).is_err(), "{tampered}");
        }
        assert_eq!(open(&base, "", &mut out), Err(StateError::Invalid));
        let mut small = [0u8; 3];
        assert_eq!(
            sealer.open(&base, js(&state), Instant::ZERO, &mut small),
            Err(StateError::BufferTooSmall { needed: 7 })
        );
        assert_eq!(
            sealer.seal(&base, b"payload", Instant::ZERO, &mut small),
            Err(StateError::BufferTooSmall { needed: 44 })
        );
    }
}
