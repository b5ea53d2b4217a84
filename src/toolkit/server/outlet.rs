//! [`Outlet`]: where work in progress sends what it produced, so the same work runs on a
//! bare [`Endpoint`] (the sans-IO [`Server::poll`](super::Server::poll)) and on an
//! adapter's [`Context`](crate::adapters::app::Context) (the
//! [`ServerHandler`](super::ServerHandler) over stdio or HTTP).

use serde::Serialize;

use crate::session::{Buffer, Endpoint, PendingRequest, SendError};
use crate::wire::ProgressValue;

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
    fn abandon(&mut self, request: &PendingRequest);
}

impl<const OUT: usize, const IN: usize, B: Buffer> Outlet for Endpoint<'_, OUT, IN, B> {
    fn respond<R: Serialize + ?Sized>(&mut self, request: &PendingRequest, result: &R) -> Taken {
        taken(Endpoint::respond(self, request, result))
    }

    fn progress<N: ProgressValue>(
        &mut self,
        request: &PendingRequest,
        progress: N,
        total: Option<N>,
        message: Option<&str>,
    ) -> Taken {
        taken(self.send_progress(request, progress, total, message))
    }

    fn abandon(&mut self, request: &PendingRequest) {
        let _ = Endpoint::abandon(self, request);
    }
}
