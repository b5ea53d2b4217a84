//! [`Outlet`]: where work in progress sends what it produced, so the same work runs on a
//! bare [`Endpoint`] (the sans-IO [`Server::poll`](super::Server::poll)) and on an
//! adapter's [`Context`](crate::adapters::app::Context) (the
//! [`ServerHandler`](super::ServerHandler) over stdio or HTTP).

use serde::Serialize;

#[cfg(feature = "std")]
use crate::session::RequestOptions;
use crate::session::{Buffer, Endpoint, PendingRequest, Profile, SendError};
use crate::time::Instant;
use crate::wire::ProgressValue;
#[cfg(feature = "std")]
use crate::wire::{RawJson, RequestId};

/// Why a request of ours was not sent.
#[cfg(feature = "std")]
pub(crate) enum Refused {
    /// Every slot is taken, or the transmit buffer is full: try again at the next poll.
    Later,
    /// Never: this is the answer.
    Never(crate::toolkit::client::ClientError),
}

#[cfg(feature = "std")]
impl From<SendError> for Refused {
    fn from(e: SendError) -> Self {
        match e {
            SendError::TxFull { .. } | SendError::TooManyInFlight { .. } => Refused::Later,
            e => Refused::Never(crate::toolkit::client::ClientError::Send(e)),
        }
    }
}

/// The reason a withdrawn question gives the client.
#[cfg(feature = "std")]
pub(crate) const WITHDRAWN: &str = "the tool call that asked was cancelled";

/// Whether an outlet took a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Taken {
    /// Sent, queued, or refused for good (the request is over): done with it.
    Yes,
    /// No room now: keep it and try again at the next poll.
    Full,
}

fn taken<T>(sent: Result<T, SendError>) -> Taken {
    match sent {
        Err(SendError::TxFull { .. }) => Taken::Full,
        _ => Taken::Yes,
    }
}

/// Where answers and progress of work in progress go.
pub(crate) trait Outlet {
    /// Answers `request` with `result`.
    fn respond<R: Serialize + ?Sized>(&mut self, request: &PendingRequest, result: &R) -> Taken;
    /// Reports progress on `request`.
    fn progress<N: ProgressValue>(
        &mut self,
        request: &PendingRequest,
        progress: N,
        total: Option<N>,
        message: Option<&str>,
    ) -> Taken;
    /// Gives up on `request` (-32603).
    #[cfg(feature = "std")]
    fn abandon(&mut self, request: &PendingRequest);
    /// Sends a request of ours (a job's question to the client).
    #[cfg(feature = "std")]
    fn request(&mut self, method: &str, params: &RawJson<'_>, options: RequestOptions) -> Result<RequestId, Refused>;
    /// Sends a notification about `request` (over HTTP, on its response stream).
    #[cfg(feature = "std")]
    fn notify_related<P: Serialize + ?Sized>(
        &mut self,
        request: &PendingRequest,
        method: &'static str,
        params: &P,
    ) -> Taken;
    /// Withdraws a request of ours (`notifications/cancelled`): the job that asked it
    /// was cancelled.
    #[cfg(feature = "std")]
    fn withdraw(&mut self, id: &RequestId);
    /// Closes the connection carrying `request`'s response stream, keeping the stream
    /// for the client to resume (Streamable HTTP only: nothing elsewhere).
    #[cfg(feature = "std")]
    fn close_stream(&mut self, request: &PendingRequest) {
        let _ = request;
    }
}

/// An endpoint at an instant, as an outlet (the instant is for the requests of ours
/// that jobs on threads ask).
#[cfg_attr(not(feature = "std"), allow(dead_code))]
pub(crate) struct At<'x, E>(pub &'x mut E, pub Instant);

impl<const OUT: usize, const IN: usize, B: Buffer, E: Profile> Outlet for At<'_, Endpoint<'_, OUT, IN, B, E>> {
    fn respond<R: Serialize + ?Sized>(&mut self, request: &PendingRequest, result: &R) -> Taken {
        taken(self.0.respond(request, result))
    }

    fn progress<N: ProgressValue>(
        &mut self,
        request: &PendingRequest,
        progress: N,
        total: Option<N>,
        message: Option<&str>,
    ) -> Taken {
        taken(self.0.send_progress(request, progress, total, message))
    }

    #[cfg(feature = "std")]
    fn abandon(&mut self, request: &PendingRequest) {
        let _ = self.0.abandon(request);
    }

    #[cfg(feature = "std")]
    fn withdraw(&mut self, id: &RequestId) {
        let _ = self.0.cancel(self.1, id, Some(WITHDRAWN));
    }

    #[cfg(feature = "std")]
    fn request(&mut self, method: &str, params: &RawJson<'_>, options: RequestOptions) -> Result<RequestId, Refused> {
        Ok(self.0.send_request(self.1, method, Some(params), options)?)
    }

    #[cfg(feature = "std")]
    fn notify_related<P: Serialize + ?Sized>(
        &mut self,
        request: &PendingRequest,
        method: &'static str,
        params: &P,
    ) -> Taken {
        taken(self.0.send_related_notification(self.1, request, method, Some(params)))
    }
}
