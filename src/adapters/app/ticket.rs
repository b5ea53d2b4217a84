//! [`Ticket`]: one of the peer's requests, kept to be answered later from any thread,
//! with its cancellation signal; [`Tickets`]: the adapter's side of them.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError, Weak};
use std::time::Duration;

use serde::Serialize;

use super::action::Action;
use super::handler::SessionTag;
use super::sender::ActionPost;
use crate::session::PendingRequest;
use crate::wire::ErrorCode;

struct Inner {
    session: SessionTag,
    request: PendingRequest,
    cancelled: AtomicBool,
    /// An answer was sent (or queued): dropping the ticket abandons nothing.
    answered: AtomicBool,
    /// Sleepers wait here to be woken by a cancellation.
    lock: Mutex<()>,
    wake: Condvar,
    post: Arc<dyn ActionPost>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        if !self.answered.load(Ordering::Acquire) && !self.cancelled.load(Ordering::Acquire) {
            // Nobody will answer (a worker returned without it, or panicked): the
            // client gets -32603 rather than waiting forever.
            self.post.post_action(self.session, Action::Abandon { request: self.request.clone() });
        }
    }
}

/// One of the peer's requests, kept to be answered later, from this thread (through
/// the [`Context`](super::Context)) or from a worker (through the ticket itself).
/// Cheap to clone; every clone names the same request.
///
/// What a worker does with it goes through the adapter's mailbox (its methods wait
/// while the mailbox is full, and return `false` if the loop is gone or the request is
/// over). On the loop's own thread use the context's methods instead: the loop cannot
/// wait for its own mailbox.
///
/// **Cancellation.** [`is_cancelled`](Self::is_cancelled) turns true, and
/// [`sleep`](Self::sleep) returns early, once the request is over without an answer:
/// the peer cancelled it, it expired, or its session ended. Stop the work then; an
/// answer sent anyway is dropped (the specification asks that a cancelled request is
/// never answered).
///
/// **Dropped unanswered**, the last clone abandons the request: the endpoint answers
/// -32603 "Request abandoned" (unless it was cancelled).
#[derive(Clone)]
pub struct Ticket {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Ticket {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ticket")
            .field("session", &self.inner.session)
            .field("request", &self.inner.request)
            .field("cancelled", &self.is_cancelled())
            .finish()
    }
}

fn json<T: Serialize + ?Sized>(value: &T) -> Option<Vec<u8>> {
    crate::wire::to_vec(value).ok()
}

impl Ticket {
    pub(crate) fn new(session: SessionTag, request: PendingRequest, post: Arc<dyn ActionPost>) -> Self {
        Ticket {
            inner: Arc::new(Inner {
                session,
                request,
                cancelled: AtomicBool::new(false),
                answered: AtomicBool::new(false),
                lock: Mutex::new(()),
                wake: Condvar::new(),
                post,
            }),
        }
    }

    /// The session the request belongs to.
    pub fn session(&self) -> SessionTag {
        self.inner.session
    }

    /// The request.
    pub fn request(&self) -> &PendingRequest {
        &self.inner.request
    }

    /// Whether the request is over without an answer (cancelled by the peer, expired,
    /// its session ended): stop working on it.
    pub fn is_cancelled(&self) -> bool {
        self.inner.cancelled.load(Ordering::Acquire)
    }

    /// Sleeps for `d`, or until the request is cancelled; returns whether it is still
    /// live (`false`: stop).
    pub fn sleep(&self, d: Duration) -> bool {
        let until = std::time::Instant::now() + d;
        let mut guard = self.inner.lock.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if self.is_cancelled() {
                return false;
            }
            let left = until.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return true;
            }
            guard = self.inner.wake.wait_timeout(guard, left).unwrap_or_else(PoisonError::into_inner).0;
        }
    }

    pub(crate) fn mark_answered(&self) {
        self.inner.answered.store(true, Ordering::Release);
    }

    fn post(&self, action: Action) -> bool {
        !self.is_cancelled() && self.inner.post.post_action(self.inner.session, action)
    }

    fn answer(&self, action: Action) -> bool {
        if self.inner.answered.swap(true, Ordering::AcqRel) {
            return false;
        }
        self.post(action)
    }

    /// Answers the request with `result` (which must serialize to a JSON object).
    pub fn respond<R: Serialize + ?Sized>(&self, result: &R) -> bool {
        let Some(result) = json(result) else { return self.abandon() };
        self.answer(Action::Respond { request: self.inner.request.clone(), result })
    }

    /// Answers the request with an error.
    pub fn respond_error(&self, code: ErrorCode, message: &str) -> bool {
        self.answer(Action::Fail { request: self.inner.request.clone(), code, message: message.into(), data: None })
    }

    /// Answers the request with an error carrying `data`.
    pub fn respond_error_with_data<D: Serialize + ?Sized>(&self, code: ErrorCode, message: &str, data: &D) -> bool {
        let data = json(data);
        self.answer(Action::Fail { request: self.inner.request.clone(), code, message: message.into(), data })
    }

    /// Gives up on the request: the endpoint answers -32603 "Request abandoned".
    pub fn abandon(&self) -> bool {
        self.answer(Action::Abandon { request: self.inner.request.clone() })
    }

    /// Reports progress, if the request asked for it (values must increase).
    pub fn progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) -> bool {
        let message = message.map(str::to_string);
        self.post(Action::Progress { request: self.inner.request.clone(), progress, total, message })
    }

    /// Sends a notification about the request (a `notifications/message` log line,
    /// say): over HTTP it goes on the request's own response stream.
    pub fn notify<P: Serialize + ?Sized>(&self, method: &str, params: Option<&P>) -> bool {
        let params = params.and_then(json);
        let method = Cow::Owned(method.to_string());
        self.post(Action::Notify { related: Some(self.inner.request.clone()), method, params })
    }

    fn cancel(&self) {
        let _guard = self.inner.lock.lock().unwrap_or_else(PoisonError::into_inner);
        self.inner.cancelled.store(true, Ordering::Release);
        self.inner.wake.notify_all();
    }
}

/// The tickets of one session that are still owed an answer, by request serial, so
/// that the adapter can cancel them. Weak: the application owns the tickets.
#[derive(Default)]
pub(crate) struct Tickets {
    live: HashMap<u64, Weak<Inner>>,
}

impl Tickets {
    pub fn insert(&mut self, ticket: &Ticket) {
        // Forget tickets already dropped, so the map stays as small as the work.
        if self.live.len() >= 64 && self.live.len().is_power_of_two() {
            self.live.retain(|_, w| w.strong_count() > 0);
        }
        self.live.insert(ticket.inner.request.serial(), Arc::downgrade(&ticket.inner));
    }

    /// The request is over without an answer: its ticket is cancelled.
    pub fn cancel(&mut self, request: &PendingRequest) {
        if let Some(t) = self.live.remove(&request.serial()).and_then(|w| w.upgrade()) {
            Ticket { inner: t }.cancel();
        }
    }

    /// The request was answered: nothing more to cancel.
    pub fn answered(&mut self, request: &PendingRequest) {
        if let Some(t) = self.live.remove(&request.serial()).and_then(|w| w.upgrade()) {
            t.answered.store(true, Ordering::Release);
        }
    }

    /// The session ended: every ticket is cancelled.
    pub fn cancel_all(&mut self) {
        for (_, w) in self.live.drain() {
            if let Some(t) = w.upgrade() {
                Ticket { inner: t }.cancel();
            }
        }
    }

    /// Whether no kept request is alive (the HTTP server keeps an idle session's
    /// endpoint asleep only then; stdio never asks).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub fn is_empty(&self) -> bool {
        self.live.values().all(|w| w.strong_count() == 0)
    }
}
