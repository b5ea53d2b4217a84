//! The server's mailbox: a bounded queue other threads fill and the loop empties,
//! waking it through mio's waker.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::ThreadId;

use crate::adapters::app::{Action, Envelope, Letter, MailboxError, Post, SessionTag};

/// How many messages the mailbox holds by default before senders wait.
pub const DEFAULT_MAILBOX: usize = 256;

struct State<M> {
    queue: VecDeque<Envelope<M>>,
    capacity: usize,
    stopped: bool,
    loop_thread: Option<ThreadId>,
    /// The loop was woken and has not looked since.
    signalled: bool,
}

pub(crate) struct Queue<M> {
    state: Mutex<State<M>>,
    room: Condvar,
    waker: Arc<mio::Waker>,
}

impl<M> Queue<M> {
    pub fn new(waker: Arc<mio::Waker>, capacity: usize) -> Arc<Self> {
        Arc::new(Queue {
            state: Mutex::new(State {
                queue: VecDeque::new(),
                capacity: capacity.max(1),
                stopped: false,
                loop_thread: None,
                signalled: false,
            }),
            room: Condvar::new(),
            waker,
        })
    }

    fn lock(&self) -> MutexGuard<'_, State<M>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    // The letter comes back whole when it cannot be delivered.
    #[allow(clippy::result_large_err)]
    fn deliver(&self, letter: Envelope<M>, wait: bool) -> Result<(), MailboxError<Envelope<M>>> {
        let mut state = self.lock();
        loop {
            if state.stopped {
                return Err(MailboxError::Stopped(letter));
            }
            if state.queue.len() < state.capacity {
                state.queue.push_back(letter);
                let first = !std::mem::replace(&mut state.signalled, true);
                drop(state);
                if first {
                    // Only fails if the poll is gone, when nobody needs waking.
                    let _ = self.waker.wake();
                }
                return Ok(());
            }
            if !wait || state.loop_thread == Some(std::thread::current().id()) {
                return Err(MailboxError::Full(letter));
            }
            state = self.room.wait(state).unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// The loop runs on this thread from now on.
    pub fn start(&self) {
        let mut s = self.lock();
        s.stopped = false;
        s.loop_thread = Some(std::thread::current().id());
    }

    /// The loop has ended: senders stop waiting.
    pub fn stop(&self) {
        let undelivered = {
            let mut s = self.lock();
            s.stopped = true;
            s.loop_thread = None;
            std::mem::take(&mut s.queue)
        };
        self.room.notify_all();
        drop(undelivered);
    }

    /// Up to `n` letters, making room for waiting senders.
    pub fn take(&self, n: usize, into: &mut VecDeque<Envelope<M>>) {
        let mut s = self.lock();
        s.signalled = false;
        let k = n.min(s.queue.len());
        into.extend(s.queue.drain(..k));
        drop(s);
        if k > 0 {
            self.room.notify_all();
        }
    }
}

impl<M: Send> Post<M> for Queue<M> {
    fn post_app(&self, message: M, wait: bool) -> Result<(), MailboxError<M>> {
        match self.deliver(Envelope(Letter::App(message)), wait) {
            Ok(()) => Ok(()),
            Err(MailboxError::Full(Envelope(Letter::App(m)))) => Err(MailboxError::Full(m)),
            Err(MailboxError::Stopped(Envelope(Letter::App(m)))) => Err(MailboxError::Stopped(m)),
            // `deliver` hands back the letter it was given, an application message.
            Err(_) => Ok(()),
        }
    }

    fn post_act(&self, session: SessionTag, action: Action) -> bool {
        self.deliver(Envelope(Letter::Act(session, action)), true).is_ok()
    }
}
