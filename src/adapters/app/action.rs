//! What the application asks an adapter to send for it, owned, so that it can wait
//! in a session's [`Outbox`] until the endpoint takes it.

use std::borrow::Cow;
use std::collections::VecDeque;

use crate::session::{Buffer, Endpoint, PendingRequest, SendError};
use crate::time::Instant;
use crate::wire::{ErrorCode, RawJson};

/// The bytes a session's outbox holds before the adapter stops taking more from the
/// mailbox (see [`OUTBOX_LIMIT`](super::OUTBOX_LIMIT)).
pub(crate) const OUTBOX_LIMIT_BYTES: usize = 1024 * 1024;

/// One message to send, with its parameters as JSON text.
#[derive(Debug)]
pub(crate) enum Action {
    /// Answer `request` with `result` (a JSON object).
    Respond { request: PendingRequest, result: Vec<u8> },
    /// Answer `request` with an error.
    Fail { request: PendingRequest, code: ErrorCode, message: String, data: Option<Vec<u8>> },
    /// Give up on `request` (-32603 "Request abandoned").
    Abandon { request: PendingRequest },
    /// Progress on `request`.
    Progress { request: PendingRequest, progress: f64, total: Option<f64>, message: Option<String> },
    /// A notification, about `related` if given.
    Notify { related: Option<PendingRequest>, method: Cow<'static, str>, params: Option<Vec<u8>> },
    /// Transport-specific: close the connection carrying `request`'s response stream
    /// once what is there is out (HTTP polling); nothing over stdio (which never reads
    /// `request`: only the HTTP server does).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    CloseStream { request: PendingRequest },
    /// End the session.
    End,
}

impl Action {
    pub fn size(&self) -> usize {
        let n = |v: &Option<Vec<u8>>| v.as_ref().map_or(0, Vec::len);
        64 + match self {
            Action::Respond { result, .. } => result.len(),
            Action::Fail { message, data, .. } => message.len() + n(data),
            Action::Progress { message, .. } => message.as_ref().map_or(0, String::len),
            Action::Notify { method, params, .. } => method.len() + n(params),
            Action::Abandon { .. } | Action::CloseStream { .. } | Action::End => 0,
        }
    }

    /// The request the action answers (which ends its ticket), if any.
    pub fn answers(&self) -> Option<&PendingRequest> {
        match self {
            Action::Respond { request, .. } | Action::Fail { request, .. } | Action::Abandon { request } => {
                Some(request)
            }
            _ => None,
        }
    }
}

/// What [`apply`] did.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Applied {
    /// Sent, or nothing to send any more (the request ended, the session closed).
    Done,
    /// The transmit buffer cannot take it now: try again after a drain.
    Retry,
    /// For the adapter: transport-specific, or the end of the session.
    Adapter,
}

fn raw(bytes: &[u8]) -> RawJson<'_> {
    // Written by serde_json from a Serialize value: valid JSON. Anything else would be
    // sent as an empty object rather than as broken JSON.
    RawJson::parse(bytes).unwrap_or(RawJson::EMPTY_OBJECT)
}

/// Sends `action` on `endpoint`.
pub(crate) fn apply<const OUT: usize, const IN: usize, B: Buffer>(
    endpoint: &mut Endpoint<'_, OUT, IN, B>,
    now: Instant,
    action: &Action,
) -> Applied {
    let sent = match action {
        Action::Respond { request, result } => endpoint.respond(request, &raw(result)).map(drop),
        Action::Fail { request, code, message, data } => match data {
            Some(d) => endpoint.respond_error_with_data(request, *code, message, &raw(d)).map(drop),
            None => endpoint.respond_error(request, *code, message).map(drop),
        },
        Action::Abandon { request } => endpoint.abandon(request).map(drop),
        Action::Progress { request, progress, total, message } => {
            endpoint.send_progress(request, *progress, *total, message.as_deref()).map(drop)
        }
        Action::Notify { related, method, params } => {
            let params = params.as_deref().map(raw);
            match related {
                Some(r) => endpoint.send_related_notification(now, r, method, params.as_ref()),
                None => endpoint.send_notification(now, method, params.as_ref()),
            }
        }
        Action::CloseStream { .. } | Action::End => return Applied::Adapter,
    };
    match sent {
        // Room may come once what is queued is written out.
        Err(SendError::TxFull { .. }) => Applied::Retry,
        // Anything else is final: sent, or refused for good (the request is over, the
        // session closed, a notification the session's version does not have, a
        // reply too large, which the endpoint answered with -32603 itself).
        _ => Applied::Done,
    }
}

/// A session's queue of actions the endpoint could not take yet, in order.
#[derive(Debug, Default)]
pub(crate) struct Outbox {
    queue: VecDeque<Action>,
    bytes: usize,
}

impl Outbox {
    pub fn push(&mut self, action: Action) {
        self.bytes += action.size();
        self.queue.push_back(action);
    }

    pub fn front(&self) -> Option<&Action> {
        self.queue.front()
    }

    pub fn pop(&mut self) -> Option<Action> {
        let a = self.queue.pop_front()?;
        self.bytes = self.bytes.saturating_sub(a.size());
        Some(a)
    }

    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// Whether it holds more than the limit: stop taking from the mailbox.
    pub fn is_full(&self) -> bool {
        self.bytes > OUTBOX_LIMIT_BYTES
    }
}
