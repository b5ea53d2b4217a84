//! [`Mailbox`]: how other threads hand messages to the client loop, through a bounded
//! queue that wakes the loop's `poll`.

use std::collections::VecDeque;
use std::fmt;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// Lets any thread (a UI, a worker) hand a message to the loop, which passes it to
/// [`App::on_message`](super::App::on_message) with the endpoint, to send a request or
/// answer one.
///
/// The queue is bounded ([`Options::mailbox_capacity`](super::Options::mailbox_capacity),
/// 64 by default): [`send`](Self::send) waits for room, [`try_send`](Self::try_send)
/// never waits. The loop takes one message per turn, after everything the sockets had
/// has been handled. What the application sends from it waits in the endpoint's
/// (bounded) transmit buffer while no exchange is free; when that is full,
/// `send_request` says so (`TxFull`) and the application keeps the work.
pub struct Mailbox<M>(pub(super) Arc<Shared<M>>);

impl<M> Clone for Mailbox<M> {
    fn clone(&self) -> Self {
        Mailbox(Arc::clone(&self.0))
    }
}

/// Why [`Mailbox::try_send`] did not deliver a message; the message comes back.
pub enum MailboxError<M> {
    /// The mailbox holds as many messages as it may.
    Full(M),
    /// The loop has stopped (its `run` returned, or it was dropped).
    Stopped(M),
}

impl<M> MailboxError<M> {
    /// The message that was not delivered.
    pub fn into_inner(self) -> M {
        match self {
            MailboxError::Full(m) | MailboxError::Stopped(m) => m,
        }
    }
}

impl<M> fmt::Debug for MailboxError<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MailboxError::Full(_) => "Full(..)",
            MailboxError::Stopped(_) => "Stopped(..)",
        })
    }
}

impl<M> fmt::Display for MailboxError<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MailboxError::Full(_) => "the mailbox is full",
            MailboxError::Stopped(_) => "the loop has stopped",
        })
    }
}

impl<M> std::error::Error for MailboxError<M> {}

impl<M> Mailbox<M> {
    /// Delivers `message`, waiting while the mailbox is full. `false`, the message
    /// dropped, if the loop is not running (or stops while this waits), or if this is
    /// the loop's own thread and the mailbox is full (the loop cannot wait for itself).
    pub fn send(&self, message: M) -> bool {
        self.0.deliver(message, true).is_ok()
    }

    /// Delivers `message` if there is room now.
    pub fn try_send(&self, message: M) -> Result<(), MailboxError<M>> {
        self.0.deliver(message, false)
    }
}

pub(super) struct State<M> {
    messages: VecDeque<M>,
    pub capacity: usize,
    running: bool,
    loop_thread: Option<std::thread::ThreadId>,
}

/// The queue, its condition variable, and the waker of the loop's poll.
pub(super) struct Shared<M> {
    state: Mutex<State<M>>,
    room: Condvar,
    waker: mio::Waker,
}

impl<M> Shared<M> {
    pub fn new(waker: mio::Waker, capacity: usize) -> Self {
        let state = State { messages: VecDeque::new(), capacity: capacity.max(1), running: false, loop_thread: None };
        Shared { state: Mutex::new(state), room: Condvar::new(), waker }
    }

    pub fn lock(&self) -> MutexGuard<'_, State<M>> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The loop runs on this thread from now on: messages are taken.
    pub fn start(&self) {
        let mut s = self.lock();
        s.running = true;
        s.loop_thread = Some(std::thread::current().id());
    }

    /// The loop stopped: senders are refused, waiting ones woken, queued messages dropped.
    pub fn stop(&self) {
        let mut s = self.lock();
        s.running = false;
        s.loop_thread = None;
        s.messages.clear();
        drop(s);
        self.room.notify_all();
    }

    /// The next message, if any (room is made for a waiting sender).
    pub fn take(&self) -> Option<M> {
        let m = self.lock().messages.pop_front();
        if m.is_some() {
            self.room.notify_one();
        }
        m
    }

    fn deliver(&self, message: M, wait: bool) -> Result<(), MailboxError<M>> {
        let mut s = self.lock();
        loop {
            if !s.running {
                return Err(MailboxError::Stopped(message));
            }
            if s.messages.len() < s.capacity {
                let was_empty = s.messages.is_empty();
                s.messages.push_back(message);
                drop(s);
                // One wake-up per batch: the loop drains the queue a message per turn
                // and looks again while it is not empty.
                if was_empty {
                    let _ = self.waker.wake();
                }
                return Ok(());
            }
            if !wait || s.loop_thread == Some(std::thread::current().id()) {
                return Err(MailboxError::Full(message));
            }
            s = self.room.wait(s).unwrap_or_else(|p| p.into_inner());
        }
    }

    /// Whether messages wait.
    pub fn pending(&self) -> bool {
        !self.lock().messages.is_empty()
    }
}
