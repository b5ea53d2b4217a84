//! Answering one of the peer's requests: results, errors and progress, each written
//! only while the request is still owed an answer.
//!
//! The rule for an answer to a request that is no longer live (the same whether it comes
//! through the [`IncomingRequest`](super::IncomingRequest) handle or through
//! [`Endpoint::respond`](super::Endpoint::respond) with a [`PendingRequest`]):
//!
//! * the application already answered it, and it is among the 64 latest requests the
//!   endpoint delivered: [`SendError::AlreadyAnswered`];
//! * it ended otherwise (cancelled by the peer, expired, abandoned, answered by the
//!   endpoint because the reply could not fit), or it is older than that: nothing is
//!   written, `Ok(`[`Responded::Suppressed`]`)`;
//! * this endpoint never delivered it: [`SendError::UnknownRequest`];
//! * the session was shut down locally: [`SendError::Closed`].

use serde::Serialize;

use super::buffer::Buffer;
use super::caller_errors::{Responded, SendError};
use super::config::Config;
use super::core::Core;
use super::inbound::{InEntry, Slots};
use super::modern::ModernCtx;
use super::pending::{Fate, PendingRequest};
use super::profile::Profile;
use super::replies::write_replacement;
use crate::mcp::ProtocolVersion;
use crate::wire::{ErrorCode, ErrorId, FrameView, NumberBuf, ProgressValue, RawJson, RequestId, object_writer};

impl<const OUT: usize, const IN: usize, B: Buffer, E: Profile> Core<'_, OUT, IN, B, E> {
    /// The handle that answers the request `serial`, in inbound `slot` if it is live.
    pub fn responder(&mut self, slot: Option<usize>, serial: u64) -> Responder<'_> {
        // After a shutdown nothing more is sent; after the peer's end of input, answers
        // still are.
        let closed = !self.life.reads_input() && !self.rx.is_closed();
        let version = self.life.version();
        let origin = self.inb.origin(slot);
        let slot = slot.map_or(NO_SLOT, |s| s as u32);
        // Kept in the table, not the handle (which stays small).
        self.inb.handed_out_at(self.now);
        Responder { tx: self.tx.to(origin), table: &mut self.inb, config: &self.config, slot, serial, closed, version }
    }
}

/// The ability to answer one inbound request: the transmit buffer and the table.
pub(crate) struct Responder<'e> {
    pub(super) tx: FrameView<'e>,
    pub(super) table: &'e mut (dyn Slots + 'static),
    /// What stateless results are completed with (`serverInfo`, caching hints).
    pub(super) config: &'e Config<'e>,
    /// The request's slot, [`NO_SLOT`] if it is not live. (Kept small: a request handle
    /// is copied around inside every `Event::Request`, and up to 128 bytes the copies
    /// stay inline.)
    slot: u32,
    serial: u64,
    /// Whether the session was shut down (then nothing more is sent).
    closed: bool,
    version: Option<ProtocolVersion>,
}

/// What an answer to a request that is not live gets (see the module docs).
fn not_live(fate: Fate) -> Result<Responded, SendError> {
    match fate {
        Fate::Answered => Err(SendError::AlreadyAnswered),
        Fate::Ended => Ok(Responded::Suppressed),
        Fate::Unknown => Err(SendError::UnknownRequest),
    }
}

/// [`Responder::slot`] for a request that is not live.
const NO_SLOT: u32 = u32::MAX;

impl<'e> Responder<'e> {
    pub fn serial(&self) -> u64 {
        self.serial
    }

    pub(super) fn slot(&self) -> Option<usize> {
        (self.slot != NO_SLOT).then_some(self.slot as usize)
    }

    /// The live entry with the transmit view beside it, or what the answer gets instead.
    #[allow(clippy::type_complexity)]
    pub(super) fn live(
        &mut self,
    ) -> Result<(&mut InEntry, Option<&mut ModernCtx>, &mut FrameView<'e>), Result<Responded, SendError>> {
        if self.closed {
            return Err(Err(SendError::Closed));
        }
        let fate = self.table.fate(self.serial);
        match self.table.live(self.slot(), self.serial) {
            Some((entry, modern)) => Ok((entry, modern, &mut self.tx)),
            None => Err(not_live(fate)),
        }
    }

    /// What acknowledging a request that is not a listen stream gets (every request of
    /// an endpoint not built for the stateless era): as [`acknowledge`](Self::acknowledge)
    /// answers it, without linking it.
    pub(super) fn not_a_stream(&mut self) -> Result<Responded, SendError> {
        match self.live() {
            Ok(_) => Err(SendError::NotSubscribed),
            Err(outcome) => outcome,
        }
    }

    /// Writes an answer with `write`, then frees the slot. An answer that can never fit
    /// is replaced (see [`replies`](super::replies)).
    fn answer(
        &mut self,
        answered: bool,
        replace: bool,
        write: impl FnOnce(&mut FrameView<'e>, &InEntry, Option<&ModernCtx>) -> Result<core::ops::Range<usize>, SendError>,
    ) -> Result<Responded, SendError> {
        let version = self.version;
        let (entry, modern, tx) = match self.live() {
            Ok(parts) => parts,
            Err(outcome) => return outcome,
        };
        let result = match write(tx, entry, modern.as_deref()) {
            Ok(_) => Ok(Responded::Sent),
            Err(SendError::TxFull { needed, .. }) if replace && needed > tx.capacity() => {
                write_replacement(tx, ErrorId::Id(entry.id.as_ref()), needed, version)?;
                Err(SendError::ReplyTooLarge { needed, capacity: tx.capacity() })
            }
            Err(e) => return Err(e),
        };
        if let Some(slot) = self.slot() {
            self.table.end(slot, answered);
        }
        result
    }

    /// Sends a result and frees the slot. A stateless request's result is completed on
    /// its way out (see [`decorate`](super::decorate)).
    pub fn respond<R: Serialize + ?Sized>(&mut self, result: &R) -> Result<Responded, SendError> {
        self.respond_as(true, true, result, false)
    }

    /// [`respond`](Self::respond) (`replace`) or [`try_respond`](Self::try_respond), for a
    /// result that certainly has neither `resultType` nor `_meta` (`fresh`: the toolkit
    /// wrote it from a value that has none), which a stateless request's completion then
    /// does not look for.
    pub(crate) fn respond_knowing<R: Serialize + ?Sized>(
        &mut self,
        replace: bool,
        result: &R,
        fresh: bool,
    ) -> Result<Responded, SendError> {
        self.respond_as(true, replace, result, fresh)
    }

    /// Sends a result if it fits now; `TxFull` otherwise, even when it never will
    /// (nothing replaces it, the slot stays).
    pub fn try_respond<R: Serialize + ?Sized>(&mut self, result: &R) -> Result<Responded, SendError> {
        self.respond_as(true, false, result, false)
    }

    /// Ends a listen stream from this side, as the endpoint does when the peer's input
    /// ends: its closing result if it was acknowledged, else -32603. A later answer from
    /// the application is suppressed.
    pub fn end_listen(&mut self, acknowledged: bool) -> Result<Responded, SendError> {
        if acknowledged {
            return self.respond_as(false, true, &RawJson::EMPTY_OBJECT, false);
        }
        self.answer(false, true, |tx, e, _| {
            let id = ErrorId::Id(e.id.as_ref());
            Ok(tx.error_with_data(id, ErrorCode::INTERNAL_ERROR, "Server closing", None::<&()>)?)
        })
    }

    fn respond_as<R: Serialize + ?Sized>(
        &mut self,
        answered: bool,
        replace: bool,
        result: &R,
        fresh: bool,
    ) -> Result<Responded, SendError> {
        // Only a table of an endpoint built for the stateless era names the function
        // that completes its results: others do not link it (see `profile.rs`).
        let (config, decorate) = (self.config, self.table.decorate());
        self.answer(answered, replace, |tx, entry, modern| {
            let id = entry.id.as_ref();
            match (modern, decorate) {
                (Some(ctx), Some(decorate)) => {
                    decorate(tx, id, entry.method, ctx, config, &mut object_writer(result), fresh)
                }
                _ => Ok(tx.result(id, result)?),
            }
        })
    }

    /// Sends an error response and frees the slot.
    pub fn respond_error<D: Serialize + ?Sized>(
        &mut self,
        code: ErrorCode,
        message: &str,
        data: Option<&D>,
    ) -> Result<Responded, SendError> {
        self.error_as(true, code, message, data)
    }

    /// Sends an error response if it fits now; `TxFull` otherwise, even when it never
    /// will (nothing replaces it, the slot stays): [`try_respond`](Self::try_respond)'s
    /// rule for errors, whose `data` can be as long as a result.
    pub fn try_respond_error<D: Serialize + ?Sized>(
        &mut self,
        code: ErrorCode,
        message: &str,
        data: Option<&D>,
    ) -> Result<Responded, SendError> {
        self.error_as(false, code, message, data)
    }

    fn error_as<D: Serialize + ?Sized>(
        &mut self,
        replace: bool,
        code: ErrorCode,
        message: &str,
        data: Option<&D>,
    ) -> Result<Responded, SendError> {
        self.answer(true, replace, |tx, e, _| {
            Ok(tx.error_with_data(ErrorId::Id(e.id.as_ref()), code, message, data)?)
        })
    }

    /// Gives up on the request: sends -32603 and frees the slot. A later answer is
    /// suppressed.
    pub fn abandon(&mut self) -> Result<Responded, SendError> {
        self.answer(false, true, |tx, e, _| {
            let id = ErrorId::Id(e.id.as_ref());
            Ok(tx.error_with_data(id, ErrorCode::INTERNAL_ERROR, "Request abandoned", None::<&()>)?)
        })
    }

    /// Sends `notifications/progress` for this request.
    pub fn progress<N: ProgressValue>(
        &mut self,
        progress: N,
        total: Option<N>,
        message: Option<&str>,
    ) -> Result<Responded, SendError> {
        // 2024-11-05's schema has no `message`: the text is dropped rather than sent.
        let message = message.filter(|_| self.version.is_none_or(|v| v != ProtocolVersion::V2024_11_05));
        let (entry, _, tx) = match self.live() {
            Ok(parts) => parts,
            Err(outcome) => return outcome,
        };
        let Some(token) = entry.token.as_ref() else { return Err(SendError::NoProgressToken) };
        let value = NumberBuf::format(progress).ok_or(SendError::InvalidProgress)?;
        let total = match total {
            Some(t) => Some(NumberBuf::format(t).ok_or(SendError::InvalidProgress)?),
            None => None,
        };
        if let Some(last) = entry.last_progress
            && value.get() <= last.get()
        {
            return Err(SendError::ProgressNotIncreasing);
        }
        // Written member by member (the bytes a derived `Serialize` of these four
        // members writes): the token and the numbers are JSON tokens already.
        tx.notification_with("notifications/progress", |out| {
            out.put(b"{\"progressToken\":");
            out.raw(token.as_ref().as_token());
            out.put(b",\"progress\":");
            out.raw(value.get().as_bytes());
            if let Some(total) = &total {
                out.put(b",\"total\":");
                out.raw(total.get().as_bytes());
            }
            if let Some(message) = message {
                out.put(b",\"message\":");
                out.string(message);
            }
            out.put(b"}");
            Ok(())
        })?;
        entry.last_progress = Some(value);
        Ok(Responded::Sent)
    }
}

impl<'e> crate::session::IncomingRequest<'e> {
    /// Names this request for later: keep it to answer with
    /// [`Endpoint::respond`](super::Endpoint::respond) once the event is gone (from a
    /// worker, say), and to recognise it in a [`Cancelled`](super::Event::Cancelled) or
    /// [`Expired`](super::Event::Expired) event.
    pub fn pending(&self) -> PendingRequest {
        let origin = self.responder.tx.tag().map(super::transmit::Origin);
        PendingRequest::new(self.id_owned(), self.responder.serial(), origin)
    }

    /// Answers with `result` (which must serialize to a JSON object). See
    /// [`Responded`] for answers to a request that is already over.
    pub fn respond<R: Serialize + ?Sized>(&mut self, result: &R) -> Result<Responded, SendError> {
        self.responder.respond(result)
    }

    /// Answers with `result` if it fits the transmit buffer now. Unlike
    /// [`respond`](Self::respond), an answer larger than the whole buffer is not replaced
    /// by -32603: it gets [`SendError::TxFull`] like one that only has to wait, and the
    /// request stays open, for a host that can grow the buffer
    /// ([`Endpoint::replace_transmit_buffer`](super::Endpoint::replace_transmit_buffer))
    /// or queue the answer and retry.
    pub fn try_respond<R: Serialize + ?Sized>(&mut self, result: &R) -> Result<Responded, SendError> {
        self.responder.try_respond(result)
    }

    /// [`respond`](Self::respond) (`replace`) or [`try_respond`](Self::try_respond) for a
    /// result known to have neither `resultType` nor `_meta` when `fresh`.
    pub(crate) fn respond_knowing<R: Serialize + ?Sized>(
        &mut self,
        replace: bool,
        result: &R,
        fresh: bool,
    ) -> Result<Responded, SendError> {
        self.responder.respond_knowing(replace, result, fresh)
    }

    /// Answers with the empty result `{}`.
    pub fn respond_empty(&mut self) -> Result<Responded, SendError> {
        self.responder.respond(&RawJson::EMPTY_OBJECT)
    }

    /// Answers with an error.
    pub fn respond_error(&mut self, code: ErrorCode, message: &str) -> Result<Responded, SendError> {
        self.responder.respond_error(code, message, None::<&RawJson<'_>>)
    }

    /// Answers with an error carrying `data`.
    pub fn respond_error_with_data<D: Serialize + ?Sized>(
        &mut self,
        code: ErrorCode,
        message: &str,
        data: &D,
    ) -> Result<Responded, SendError> {
        self.responder.respond_error(code, message, Some(data))
    }

    /// Answers with an error (carrying `data` if given) if it fits the transmit buffer
    /// now; like [`try_respond`](Self::try_respond), one larger than the whole buffer
    /// gets [`SendError::TxFull`] and the request stays open, for a host that grows the
    /// buffer or queues the answer.
    pub fn try_respond_error<D: Serialize + ?Sized>(
        &mut self,
        code: ErrorCode,
        message: &str,
        data: Option<&D>,
    ) -> Result<Responded, SendError> {
        self.responder.try_respond_error(code, message, data)
    }

    /// Reports progress, if the request asked for it (values must strictly increase).
    /// Integers and floats are both accepted; integers cost no floating-point code.
    pub fn send_progress<N: ProgressValue>(
        &mut self,
        progress: N,
        total: Option<N>,
        message: Option<&str>,
    ) -> Result<Responded, SendError> {
        self.responder.progress(progress, total, message)
    }

    /// 2026-07-28: acknowledges this listen stream (a `subscriptions/listen` request)
    /// with everything it asked for that this server can honour (its capabilities'
    /// `listChanged` and `subscribe`, task ids with the tasks extension on both sides).
    /// See [`Endpoint::acknowledge`](super::Endpoint::acknowledge) to grant less.
    pub fn acknowledge(&mut self) -> Result<Responded, SendError> {
        let asked = self.params.and_then(|p| p.get("notifications"));
        let filter = asked.and_then(|n| n.decode::<crate::mcp::SubscriptionFilter<'_>>().ok()).unwrap_or_default();
        let task_ids = asked.and_then(|n| n.get("taskIds")).and_then(|t| t.decode().ok());
        self.responder.acknowledge(&filter, task_ids)
    }

    /// What a stateless request (2026-07-28) said about itself in `_meta`: its version,
    /// the client's capabilities for it, whether it takes tasks, the log level it wants.
    /// `None` for a request of a handshake session.
    pub fn modern(&self) -> Option<super::ModernRequest> {
        self.modern_ctx().as_ref().map(super::modern::ModernCtx::view)
    }

    /// What the endpoint kept of a stateless request's `_meta` (the public view, and
    /// where the `_meta` stands: see `ModernCtx::meta`).
    #[inline]
    pub(crate) fn modern_ctx(&self) -> Option<super::modern::ModernCtx> {
        let (slot, serial) = (self.responder.slot(), self.responder.serial);
        self.responder.table.modern(slot, serial)
    }

    /// The request's `params._meta` as the endpoint walked it, as (address, length), if
    /// it is a stateless request.
    #[inline]
    pub(crate) fn walked_meta(ctx: Option<super::modern::ModernCtx>) -> Option<(usize, usize)> {
        ctx.map(|c| c.meta).filter(|&(_, len)| len > 0).map(|(at, len)| (at, len as usize))
    }

    /// The endpoint's time when it handed the request out (the latest instant passed in
    /// then): what a handler that has no clock of its own dates what it does from.
    pub fn received_at(&self) -> crate::time::Instant {
        self.responder.table.now()
    }

    /// Whether the request asked for progress notifications.
    pub fn wants_progress(&self) -> bool {
        let (slot, serial) = (self.responder.slot(), self.responder.serial);
        self.responder.table.get(slot, serial).is_some_and(|e| e.token.is_some())
    }

    /// An owned copy of the id.
    pub fn id_owned(&self) -> RequestId {
        // The endpoint stored this id when it accepted the request, so it fits.
        self.id.to_owned().unwrap_or_else(|_| RequestId::from_u64(0))
    }
}
