//! Answering one of the peer's requests: results, errors and progress, each written
//! only while the request is still owed an answer.

use serde::Serialize;

use super::caller_errors::{Responded, SendError};
use super::core::Core;
use super::inbound::InEntry;
use crate::wire::{ErrorCode, ErrorId, FrameView, NumberBuf, ProgressValue, RawJson, RequestId, RequestIdRef};

impl<const OUT: usize, const IN: usize> Core<'_, OUT, IN> {
    /// The handle that answers the request in inbound `slot`.
    pub fn responder(&mut self, slot: usize) -> Option<Responder<'_>> {
        // After a shutdown nothing more is sent; after the peer's end of input, answers
        // still are.
        let closed = !self.life.reads_input() && !self.rx.is_closed();
        let progress_message = self.life.version().is_none_or(|v| v != crate::mcp::ProtocolVersion::V2024_11_05);
        let slot = self.inb.slot_mut(slot)?;
        Some(Responder { tx: self.tx.view(), slot, closed, progress_message })
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
