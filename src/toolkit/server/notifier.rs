//! [`Notifier`]: what changed on the server, told from anywhere (a tool handler, a
//! thread, a timer), sent by the [`ServerHandler`](super::ServerHandler) to the sessions
//! concerned when its loop next runs.

use std::collections::{BTreeMap, BTreeSet};
use std::string::String;
use std::sync::{Arc, Mutex, PoisonError};

use super::list::List;
use super::tasks::Wakeup;

/// A handle that tells a [`ServerHandler`](super::ServerHandler) that a resource or a
/// list changed; clone it into whatever makes the change.
///
/// * [`resource_updated`](Self::resource_updated): `notifications/resources/updated`
///   goes to every handshake session subscribed to the URI (`resources/subscribe`,
///   answered by the handler when the server declares
///   [`subscriptions`](super::Server::subscriptions)), and to every 2026-07-28 client,
///   whose listen streams granted the URI take it (the endpoint filters).
/// * [`list_changed`](Self::list_changed): cursors of the list issued before are stale
///   from now on, and the list's `list_changed` notification goes to every session if
///   the change is [announced](super::Server::announce_changes).
///
/// Changes are coalesced until the loop sends them (two updates of one URI make one
/// notification), so what waits is bounded by the URIs the application names, whatever
/// the clients do; telling it wakes the loop.
///
/// ```
/// use mcp_sansio::toolkit::server::{List, Notifier, ServerBuilder};
/// mcp_sansio::schema! {
///     #[derive(serde::Deserialize)]
///     pub struct Text { text: String }
/// }
/// let notifier = Notifier::new();
/// let told = notifier.clone();
/// let server = ServerBuilder::new("notes", "1.0.0")
///     .subscriptions()
///     .announce_changes(List::Tools)
///     .resource("notes://latest", "latest", || "…")
///     .tool("write", "Writes the latest note", move |Text { text }| {
///         told.resource_updated("notes://latest");
///         format!("wrote {} bytes", text.len())
///     })
///     .build();
/// let handler = server.handler(()).with_notifier(notifier);
/// # let _ = handler;
/// ```
#[derive(Clone, Default)]
pub struct Notifier {
    shared: Arc<Shared>,
}

#[derive(Default)]
struct Shared {
    changes: Mutex<Changes>,
    wake: Mutex<Option<Wakeup>>,
    /// How many handshake sessions are subscribed to each URI (kept by the handler).
    subscribed: Mutex<BTreeMap<String, usize>>,
}

/// What changed since the loop last looked.
#[derive(Default)]
pub(crate) struct Changes {
    /// Lists, by [`List`] bit.
    pub lists: u8,
    /// Resources updated, by URI.
    pub updated: BTreeSet<String>,
}

impl Notifier {
    /// A notifier, for a handler to take with
    /// [`ServerHandler::with_notifier`](super::ServerHandler::with_notifier) (every
    /// handler also has one of its own: [`ServerHandler::notifier`](super::ServerHandler::notifier)).
    pub fn new() -> Self {
        Notifier::default()
    }

    /// The resource at `uri` changed: its subscribers are told
    /// (`notifications/resources/updated`).
    pub fn resource_updated(&self, uri: &str) {
        let mut changes = self.lock();
        if !changes.updated.contains(uri) {
            changes.updated.insert(String::from(uri));
        }
        drop(changes);
        self.wake_loop();
    }

    /// `list` changed: its cursors go stale, and the change is announced if declared.
    pub fn list_changed(&self, list: List) {
        self.lock().lists |= 1 << list as u8;
        self.wake_loop();
    }

    /// Wakes the loop, so that the handler's [idle hook](super::ServerHandler::idle) runs
    /// soon: how the application's own messages reach it. Keep them in a channel of the
    /// application's (bounded, as its own backpressure needs), send, call `wake`, and
    /// drain the channel in the hook, which can send to any session. Before the loop's
    /// first event there is nothing to wake: the hook runs at that event anyway.
    pub fn wake(&self) {
        self.wake_loop();
    }

    /// How many handshake sessions are subscribed to `uri` now (`resources/subscribe`):
    /// whom [`resource_updated`](Self::resource_updated) tells, besides the listen
    /// streams of 2026-07-28 clients, which the endpoint keeps.
    pub fn subscribers(&self, uri: &str) -> usize {
        self.shared.subscribed.lock().unwrap_or_else(PoisonError::into_inner).get(uri).copied().unwrap_or(0)
    }

    /// One session more (`true`) or fewer subscribed to `uri`.
    pub(crate) fn count(&self, uri: &str, more: bool) {
        let mut counts = self.shared.subscribed.lock().unwrap_or_else(PoisonError::into_inner);
        if more {
            *counts.entry(String::from(uri)).or_default() += 1;
        } else if let Some(n) = counts.get_mut(uri) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                counts.remove(uri);
            }
        }
    }

    /// Takes what changed.
    pub(crate) fn take(&self) -> Changes {
        core::mem::take(&mut *self.lock())
    }

    /// How the loop is woken (set by the handler once it has a context).
    pub(crate) fn set_wake(&self, wake: Wakeup) {
        let mut slot = self.shared.wake.lock().unwrap_or_else(PoisonError::into_inner);
        if slot.is_none() {
            *slot = Some(wake);
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Changes> {
        self.shared.changes.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn wake_loop(&self) {
        let wake = self.shared.wake.lock().unwrap_or_else(PoisonError::into_inner).clone();
        if let Some(wake) = wake {
            wake();
        }
    }
}

impl core::fmt::Debug for Notifier {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Notifier").finish_non_exhaustive()
    }
}
