//! Replies the endpoint owes the peer, and the one rule for those that do not fit.
//!
//! Every request gets an answer, whatever the buffers. A reply the endpoint owes (a
//! pong, an error, the `initialize` result, the application's response) is written
//! whole or not at all, and when it does not fit:
//!
//! * if it would fit the empty transmit buffer, it waits: an automatic reply keeps its
//!   frame unprocessed until the buffer has drained enough (input stops meanwhile);
//!   the application's `respond` returns [`SendError::TxFull`](super::SendError::TxFull)
//!   to be retried after a drain;
//! * if it can never fit, it is replaced by -32603 "Reply of N bytes exceeds the M-byte
//!   transmit buffer", with the request's id, or with `"id": null` (no id from
//!   2025-11-25) when the id itself is longer than the endpoint stores
//!   ([`MAX_ID_LEN`](crate::wire::MAX_ID_LEN) bytes); `respond` then returns
//!   [`SendError::ReplyTooLarge`](super::SendError::ReplyTooLarge).
//!
//! The replacement always fits: input is only processed while the reply reserve is free,
//! and the reserve is at least the longest automatic reply.

use core::ops::Range;

use super::buffer::Buffer;
use super::core::Core;
use super::profile::Profile;
use super::transmit::Origin;
use crate::mcp::ProtocolVersion;
use crate::wire::{EncodeError, ErrorCode, ErrorId, FrameView, MAX_ID_LEN};

/// The longest message of an error the endpoint writes on its own (the capacity of the
/// strings it assembles them in).
pub(crate) const AUTO_MESSAGE_MAX: usize = 96;

/// What became of an owed reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[must_use]
pub(crate) enum Owed {
    /// Written, itself or its replacement.
    Sent,
    /// It needs `.0` bytes, more than are free now but not more than the buffer.
    Later(usize),
}

/// The replacement's message: "Reply of N bytes exceeds the M-byte transmit buffer",
/// assembled without `core::fmt` (kilobytes on a microcontroller).
pub(crate) fn too_large(needed: usize, capacity: usize) -> heapless::String<AUTO_MESSAGE_MAX> {
    let mut s = heapless::String::new();
    let _ = s.push_str("Reply of ");
    push_number(&mut s, needed);
    let _ = s.push_str(" bytes exceeds the ");
    push_number(&mut s, capacity);
    let _ = s.push_str("-byte transmit buffer");
    s
}

/// Appends `n` in decimal.
pub(crate) fn push_number<const N: usize>(s: &mut heapless::String<N>, n: usize) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    let mut n = n;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[i..] {
        let _ = s.push(char::from(d));
    }
}

/// How an error reply names a request id that could not be read (or kept): JSON-RPC's
/// `null`, or (from 2025-11-25, whose schema makes the id optional) no id at all.
pub(crate) fn unreadable_id(version: Option<ProtocolVersion>) -> ErrorId<'static> {
    if version.is_some_and(ProtocolVersion::error_id_optional) { ErrorId::Omitted } else { ErrorId::Null }
}

/// Writes the replacement for a reply to `id` that needed `needed` bytes.
pub(crate) fn write_replacement(
    tx: &mut FrameView<'_>,
    id: ErrorId<'_>,
    needed: usize,
    version: Option<ProtocolVersion>,
) -> Result<Range<usize>, EncodeError> {
    let id = match id {
        ErrorId::Id(id) if id.as_token().len() > MAX_ID_LEN => unreadable_id(version),
        other => other,
    };
    let capacity = tx.capacity();
    tx.error_with_data(id, ErrorCode::INTERNAL_ERROR, &too_large(needed, capacity), None::<&()>)
}

impl<const OUT: usize, const IN: usize, B: Buffer, E: Profile> Core<'_, OUT, IN, B, E> {
    /// Settles a reply the endpoint owes to `id`, given what writing it gave: see the
    /// module docs.
    pub fn owe(&mut self, id: ErrorId<'_>, origin: Option<Origin>, written: Result<Range<usize>, EncodeError>) -> Owed {
        match written {
            Err(EncodeError::BufferTooSmall { needed, .. }) if needed <= self.tx.capacity() => Owed::Later(needed),
            Err(EncodeError::BufferTooSmall { needed, .. }) => {
                // Fits: the reserve is free whenever the endpoint writes on its own.
                let _ = write_replacement(&mut self.tx.to(origin), id, needed, self.life.version());
                Owed::Sent
            }
            // The endpoint's own replies always encode.
            Ok(_) | Err(_) => Owed::Sent,
        }
    }
}
