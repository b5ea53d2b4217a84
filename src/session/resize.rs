//! Larger buffers for an endpoint that runs: a host holding many sessions starts each
//! one with small buffers and grows the few whose messages need more, so that memory
//! follows the messages actually seen rather than the largest one allowed (the std HTTP
//! server does this, between a small start and its configured bounds).
//!
//! Swaps happen between calls, where no event borrows a buffer. The transmit buffer can
//! be swapped at any time (what is queued moves along); the
//! receive buffer only while it holds nothing (no unprocessed bytes, no held requests,
//! no batch or reply in progress), which is the case after every drain of a host that
//! feeds whole messages ([`handle_frame_from`](super::Endpoint::handle_frame_from)).

use super::buffer::Buffer;
use super::endpoint::{Endpoint, MIN_RX_BUFFER};
use super::held::Held;
use super::profile::Profile;

impl<const OUT: usize, const IN: usize, B: Buffer, E: Profile> Endpoint<'_, OUT, IN, B, E> {
    /// The receive buffer's size.
    pub fn receive_capacity(&self) -> usize {
        self.rx.as_ref().len()
    }

    /// The transmit buffer's size.
    pub fn transmit_capacity(&self) -> usize {
        self.core.tx.capacity()
    }

    /// Swaps in a receive buffer at least as large as the one in use and returns the
    /// old one; `Err(rx)`, nothing changed, when `rx` is smaller, or while the buffer
    /// holds something (bytes not processed yet, held requests, a batch or a reply
    /// that waits for room): drain [`poll_output`](Self::poll_output) first.
    pub fn replace_receive_buffer(&mut self, mut rx: B) -> Result<B, B> {
        let len = rx.as_ref().len();
        if len < self.receive_capacity().max(MIN_RX_BUFFER) {
            return Err(rx);
        }
        let core = &mut self.core;
        core.held.settle(self.rx.as_mut());
        if !core.held.is_empty() || core.batch.is_some() || core.stall.is_some() || !core.rx.rebase() {
            return Err(rx);
        }
        core.held = Held::new(len);
        core::mem::swap(&mut self.rx, &mut rx);
        Ok(rx)
    }

    /// Swaps in a transmit buffer at least as large as the one in use, moving what is
    /// queued into it, and returns the old one; `Err(tx)`, nothing changed, when `tx` is
    /// smaller. The last [`Transmit`](super::Transmit) counts as written, as at the next
    /// [`poll_output`](Self::poll_output) (so [`sent`](Self::sent) comes before). A reply the old buffer could never hold fits once this one can: answer
    /// with [`IncomingRequest::try_respond`](super::IncomingRequest::try_respond) to
    /// get `TxFull` rather than its -32603 replacement.
    pub fn replace_transmit_buffer(&mut self, tx: B) -> Result<B, B> {
        self.core.tx.replace_buffer(tx)
    }

    /// The two buffers taken out in place, as [`into_buffers`](Self::into_buffers)
    /// gives them, for an endpoint about to be dropped in its box (moving it out first
    /// copies all of it). It is left over empty buffers: use it no more.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn take_buffers(&mut self) -> (B, B)
    where
        B: Default,
    {
        (core::mem::take(&mut self.rx), self.core.tx.take_buffer())
    }
}
