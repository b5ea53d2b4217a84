//! [`Listening`]: a 2026-07-28 listen stream of a [`BlockingClient`]'s
//! ([`BlockingClient::listen`]).
//!
//! In the stateless era change notifications (list changes, resource updates) come on a
//! listen stream: a `subscriptions/listen` request the server acknowledges with the
//! filter it grants, then tags every notification of the stream with the request's id.
//! The acknowledgement is what `listen` waits for; the notifications go to the
//! callback of [`ClientBuilder::notifications`](super::ClientBuilder::notifications),
//! with their [`subscription`](crate::session::IncomingNotification::subscription) set
//! to the stream's [`id`](Listening::id); dropping the handle ends the stream
//! (`notifications/cancelled`).

use serde::Serialize;

use super::answer::{Answer, ClientError};
use super::blocking::{BlockingClient, Msg};
use crate::session::RequestOptions;
use crate::toolkit::server::owned::to_json;
use crate::wire::RequestId;

/// An open listen stream; ended when dropped (or by [`end`](Self::end)).
#[must_use = "the stream ends when this is dropped"]
pub struct Listening<'c> {
    client: &'c BlockingClient,
    id: RequestId,
    granted: Answer,
}

impl BlockingClient {
    /// Opens a listen stream (2026-07-28) for the notifications `filter` (a
    /// `SubscriptionFilter`: `{"notifications": {"toolsListChanged": true}}`, say)
    /// asks for, and waits for the server's acknowledgement. A server of the
    /// handshake era has no listen streams: its change notifications come without
    /// asking; a stateless one that offers none refuses with -32601
    /// ([`ClientError::Error`]).
    pub fn listen<F: Serialize + ?Sized>(&self, filter: &F) -> Result<Listening<'_>, ClientError> {
        let params = to_json(filter)
            .ok_or(ClientError::Send(crate::session::SendError::Encode(crate::wire::EncodeError::NotAnObject)))?;
        let pending = self.send_json("subscriptions/listen", Some(params), RequestOptions::default(), None)?;
        let id = pending.id().clone();
        let granted = pending.wait()?;
        Ok(Listening { client: self, id, granted })
    }
}

impl Listening<'_> {
    /// The stream's id: the `subscription` of its notifications.
    pub fn id(&self) -> &RequestId {
        &self.id
    }

    /// The filter the server granted (a subset of what was asked).
    pub fn granted(&self) -> &Answer {
        &self.granted
    }

    /// Ends the stream: the server is told with `notifications/cancelled`.
    pub fn end(self) {}
}

impl Drop for Listening<'_> {
    fn drop(&mut self) {
        let _ = self.client.outbox.send(Msg::EndListen { id: self.id.clone() });
    }
}
