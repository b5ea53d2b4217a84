//! Requests the peer sent that this endpoint has not answered yet.
//!
//! Each slot remembers the id (to refuse a duplicate while it is in flight and to match
//! cancellations), whether the peer cancelled it (so that no response is ever sent for
//! it), and its progress token with the last value sent (progress must strictly increase
//! and stops with the response).

use serde::Serialize;

use super::errors::{Responded, SendError};
use crate::mcp::Method;
use crate::wire::{ErrorCode, ErrorId, FrameView, NumberBuf, ProgressValue, RawJson, RequestId, RequestIdRef};

#[derive(Clone, Debug)]
pub(crate) struct InEntry {
    pub id: RequestId,
    pub method: Option<Method<'static>>,
    pub cancelled: bool,
    pub token: Option<RequestId>,
    pub last_progress: Option<NumberBuf>,
}

pub(crate) struct Inbound<const M: usize> {
    pub slots: [Option<InEntry>; M],
}

impl<const M: usize> Inbound<M> {
    pub fn new() -> Self {
        Self { slots: core::array::from_fn(|_| None) }
    }

    pub fn find(&self, id: RequestIdRef<'_>) -> Option<usize> {
        self.slots.iter().position(|s| s.as_ref().is_some_and(|e| e.id == id))
    }

    pub fn free_slot(&self) -> Option<usize> {
        self.slots.iter().position(Option::is_none)
    }

    pub fn in_flight(&self) -> usize {
        self.slots.iter().flatten().count()
    }

    /// Requests that still need an answer (cancelled ones need none).
    pub fn owed(&self) -> usize {
        self.slots.iter().flatten().filter(|e| !e.cancelled).count()
    }
}

/// The ability to answer one inbound request: the transmit buffer and its slot.
pub(crate) struct Responder<'e> {
    pub tx: FrameView<'e>,
    pub slot: &'e mut Option<InEntry>,
    /// Whether the session is closed (then nothing more is sent).
    pub closed: bool,
    /// Whether progress notifications may carry a `message` (2025-03-26 on).
    pub progress_message: bool,
}

impl<'e> Responder<'e> {
    /// The slot's entry and the transmit view, borrowed side by side.
    fn parts(&mut self) -> Result<(&mut InEntry, &mut FrameView<'e>), SendError> {
        if self.closed {
            return Err(SendError::Closed);
        }
        let entry = self.slot.as_mut().ok_or(SendError::UnknownRequest)?;
        Ok((entry, &mut self.tx))
    }

    /// Sends a result, or nothing if the peer cancelled; frees the slot either way.
    pub fn respond<R: Serialize + ?Sized>(&mut self, result: &R) -> Result<Responded, SendError> {
        let (entry, tx) = self.parts()?;
        if entry.cancelled {
            *self.slot = None;
            return Ok(Responded::Suppressed);
        }
        tx.result(entry.id.as_ref(), result)?;
        *self.slot = None;
        Ok(Responded::Sent)
    }

    /// Sends an error response, or nothing if the peer cancelled; frees the slot.
    pub fn respond_error<D: Serialize + ?Sized>(
        &mut self,
        code: ErrorCode,
        message: &str,
        data: Option<&D>,
    ) -> Result<Responded, SendError> {
        let (entry, tx) = self.parts()?;
        if entry.cancelled {
            *self.slot = None;
            return Ok(Responded::Suppressed);
        }
        tx.error_with_data(ErrorId::Id(entry.id.as_ref()), code, message, data)?;
        *self.slot = None;
        Ok(Responded::Sent)
    }

    /// Sends `notifications/progress` for this request.
    pub fn progress<N: ProgressValue>(
        &mut self,
        progress: N,
        total: Option<N>,
        message: Option<&str>,
    ) -> Result<(), SendError> {
        let progress_message = self.progress_message;
        let (entry, tx) = self.parts()?;
        if entry.cancelled {
            return Err(SendError::UnknownRequest);
        }
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
        #[derive(Serialize)]
        struct Params<'p> {
            #[serde(rename = "progressToken")]
            token: RequestIdRef<'p>,
            progress: crate::wire::Number<'p>,
            #[serde(skip_serializing_if = "Option::is_none")]
            total: Option<crate::wire::Number<'p>>,
            #[serde(skip_serializing_if = "Option::is_none")]
            message: Option<&'p str>,
        }
        // 2024-11-05's schema has no `message`: the text is dropped rather than sent.
        let message = message.filter(|_| progress_message);
        let params =
            Params { token: token.as_ref(), progress: value.get(), total: total.as_ref().map(NumberBuf::get), message };
        tx.notification("notifications/progress", Some(&params))?;
        entry.last_progress = Some(value);
        Ok(())
    }
}

impl<'e> crate::session::IncomingRequest<'e> {
    /// Answers with `result` (which must serialize to a JSON object). If the peer has
    /// cancelled the request, nothing is sent and [`Responded::Suppressed`] is returned.
    pub fn respond<R: Serialize + ?Sized>(&mut self, result: &R) -> Result<Responded, SendError> {
        self.responder.respond(result)
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

    /// Reports progress, if the request asked for it (values must strictly increase).
    /// Integers and floats are both accepted; integers cost no floating-point code.
    pub fn send_progress<N: ProgressValue>(
        &mut self,
        progress: N,
        total: Option<N>,
        message: Option<&str>,
    ) -> Result<(), SendError> {
        self.responder.progress(progress, total, message)
    }

    /// Whether the request asked for progress notifications.
    pub fn wants_progress(&self) -> bool {
        self.responder.slot.as_ref().is_some_and(|e| e.token.is_some())
    }

    /// An owned copy of the id, to answer later with [`Endpoint::respond`](super::Endpoint::respond).
    pub fn id_owned(&self) -> RequestId {
        // The endpoint stored this id when it accepted the request, so it fits.
        self.responder.slot.as_ref().map(|e| e.id.clone()).unwrap_or_else(|| RequestId::from_u64(0))
    }
}
