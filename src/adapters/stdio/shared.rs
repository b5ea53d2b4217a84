//! What the loop shares with other threads: the mailbox's bounded queue, the reader
//! thread's buffers, and the way to wake the loop from its wait.
//!
//! One mutex guards all of it: every operation is a few pointer moves, so contention is
//! brief, and one lock makes the wake-up protocol easy to get right. A thread that adds
//! work sets `signalled` and, if it was not set, wakes the loop once (on Unix one byte
//! into a pipe that the loop's `poll` watches, elsewhere a condition variable); the loop
//! clears `signalled` when it wakes and looks at the queues afterwards, so no work added
//! in between can be missed.

use std::collections::VecDeque;
use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::ThreadId;

/// How many messages a mailbox holds, by default, before senders wait.
pub const DEFAULT_MAILBOX_CAPACITY: usize = 64;

/// What a reader thread read, and how much of it the endpoint has taken.
pub(super) struct Chunk {
    pub buf: Vec<u8>,
    pub len: usize,
    pub taken: usize,
}

pub(super) struct State<M> {
    /// Mailbox messages, at most `capacity`.
    pub messages: VecDeque<M>,
    pub capacity: usize,
    /// Filled by the reader thread, in order; at most the number of its buffers.
    pub chunks: VecDeque<Chunk>,
    /// Buffers the reader thread may fill.
    pub free: Vec<Vec<u8>>,
    /// The reader thread saw the end of its input (after the chunks in `chunks`).
    pub input_ended: bool,
    /// The loop has ended (or not started a second time): senders no longer wait.
    pub stopped: bool,
    /// The thread running the loop, which must never wait for room itself.
    pub loop_thread: Option<ThreadId>,
    /// Threads waiting on `room`.
    waiting: usize,
    /// The loop was woken (or will be) and has not looked yet.
    signalled: bool,
}

/// The shared half of a loop; see the module docs.
pub(super) struct Shared<M> {
    state: Mutex<State<M>>,
    /// `state.messages.len()`, written under the lock, so that the loop can see that
    /// the mailbox is empty without taking the lock. A message it misses this way was
    /// added after its look, and its wake-up makes the loop take the lock (in `wait`)
    /// before it looks again.
    queued: AtomicUsize,
    /// Mailbox senders and the reader thread wait here for room.
    room: Condvar,
    wake: Wake,
}

impl<M> Shared<M> {
    /// The shared state of a loop whose reader thread (if any) has `buffers` buffers.
    pub fn new(buffers: usize) -> io::Result<Arc<Self>> {
        Ok(Arc::new(Shared {
            state: Mutex::new(State {
                messages: VecDeque::new(),
                capacity: DEFAULT_MAILBOX_CAPACITY,
                chunks: VecDeque::new(),
                free: (0..buffers).map(|_| Vec::new()).collect(),
                input_ended: false,
                stopped: false,
                loop_thread: None,
                waiting: 0,
                signalled: false,
            }),
            queued: AtomicUsize::new(0),
            room: Condvar::new(),
            wake: Wake::new()?,
        }))
    }

    /// The state, whatever a panicking thread left: every field is valid at all times.
    pub fn lock(&self) -> MutexGuard<'_, State<M>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Releases `state` and wakes the loop, once per wait, for work just added to it.
    pub fn signal(&self, mut state: MutexGuard<'_, State<M>>) {
        let first = !state.signalled;
        state.signalled = true;
        drop(state);
        if first {
            self.wake.notify();
        }
    }

    /// Waits until room may have been made (or the loop stopped).
    pub fn wait_for_room<'s>(&'s self, mut state: MutexGuard<'s, State<M>>) -> MutexGuard<'s, State<M>> {
        state.waiting += 1;
        let mut state = self.room.wait(state).unwrap_or_else(PoisonError::into_inner);
        state.waiting -= 1;
        state
    }

    /// Tells the threads waiting for room that some was made.
    pub fn made_room(&self, state: &State<M>) {
        if state.waiting > 0 {
            self.room.notify_all();
        }
    }

    /// The loop starts on this thread.
    pub fn start(&self) {
        let mut state = self.lock();
        state.stopped = false;
        state.loop_thread = Some(std::thread::current().id());
    }

    /// The loop has ended: nothing waits for it any more.
    pub fn stop(&self) {
        let mut state = self.lock();
        state.stopped = true;
        state.loop_thread = None;
        let undelivered = std::mem::take(&mut state.messages);
        self.queued.store(0, Ordering::Release);
        self.room.notify_all();
        drop(state);
        // Dropped outside the lock: a message's destructor may use a mailbox.
        drop(undelivered);
    }

    /// Adds a message (there is room: the caller checked) and wakes the loop.
    pub fn push_message(&self, mut state: MutexGuard<'_, State<M>>, message: M) {
        state.messages.push_back(message);
        self.queued.store(state.messages.len(), Ordering::Release);
        self.signal(state);
    }

    /// The next mailbox message, making room for a waiting sender.
    pub fn take_message(&self) -> Option<M> {
        if self.queued.load(Ordering::Acquire) == 0 {
            return None;
        }
        let mut state = self.lock();
        let message = state.messages.pop_front()?;
        self.queued.store(state.messages.len(), Ordering::Release);
        self.made_room(&state);
        Some(message)
    }
}

/// What `wait` found ready (without `poll`, nothing: the loop looks at everything).
#[derive(Default)]
#[cfg_attr(not(unix), allow(dead_code))]
pub(super) struct Ready {
    pub input: bool,
    pub output: bool,
}

#[cfg(unix)]
mod wake {
    use std::io::{self, Read, Write};
    use std::os::fd::{AsFd, BorrowedFd};
    use std::time::Duration;

    use rustix::event::{PollFd, PollFlags, Timespec, poll};

    use super::{Ready, Shared};

    /// A pipe the loop polls: one byte in it means "look at the queues". At most one
    /// byte is ever in it (`signalled` guards the writes), so writing never blocks.
    pub(in super::super) struct Wake {
        rx: io::PipeReader,
        tx: io::PipeWriter,
    }

    impl Wake {
        pub fn new() -> io::Result<Self> {
            let (rx, tx) = io::pipe()?;
            Ok(Wake { rx, tx })
        }

        pub fn notify(&self) {
            // Only fails if the loop's end was closed, when nobody needs waking.
            let _ = (&self.tx).write(&[1]);
        }
    }

    impl<M> Shared<M> {
        /// Waits until `input` is readable, `output` writable, another thread signals,
        /// or `timeout` passes (`None`: no timeout), whichever is first. Spurious
        /// returns are allowed: the loop looks at everything after each one.
        pub fn wait(
            &self,
            input: Option<BorrowedFd<'_>>,
            output: Option<BorrowedFd<'_>>,
            timeout: Option<Duration>,
        ) -> io::Result<Ready> {
            let wake = self.wake.rx.as_fd();
            let mut fds = [
                PollFd::from_borrowed_fd(wake, PollFlags::IN),
                PollFd::from_borrowed_fd(wake, PollFlags::empty()),
                PollFd::from_borrowed_fd(wake, PollFlags::empty()),
            ];
            let mut n = 1;
            let input_at = input.map(|fd| {
                fds[n] = PollFd::from_borrowed_fd(fd, PollFlags::IN);
                n += 1;
                n - 1
            });
            let output_at = output.map(|fd| {
                fds[n] = PollFd::from_borrowed_fd(fd, PollFlags::OUT);
                n += 1;
                n - 1
            });
            let timeout = timeout.map(|t| Timespec {
                tv_sec: t.as_secs().min(i64::MAX as u64) as i64,
                tv_nsec: i64::from(t.subsec_nanos()),
            });
            match poll(&mut fds[..n], timeout.as_ref()) {
                Ok(_) => {}
                Err(rustix::io::Errno::INTR) => return Ok(Ready::default()),
                Err(e) => return Err(e.into()),
            }
            // Hang-ups and errors count as ready: the read or write that follows says
            // what happened.
            let ready = |at: Option<usize>| at.is_some_and(|i| !fds[i].revents().is_empty());
            let found = Ready { input: ready(input_at), output: ready(output_at) };
            if !fds[0].revents().is_empty() {
                let mut byte = [0u8; 8];
                let _ = (&self.wake.rx).read(&mut byte);
                self.lock().signalled = false;
            }
            Ok(found)
        }
    }
}

#[cfg(not(unix))]
mod wake {
    use std::io;
    use std::sync::{Condvar, PoisonError};
    use std::time::Duration;

    use super::{Ready, Shared};

    /// Without a readiness poll, the loop waits on a condition variable; input comes
    /// from the reader thread and output is written blocking.
    pub(in super::super) struct Wake {
        cv: Condvar,
    }

    impl Wake {
        pub fn new() -> io::Result<Self> {
            Ok(Wake { cv: Condvar::new() })
        }

        pub fn notify(&self) {
            self.cv.notify_one();
        }
    }

    impl<M> Shared<M> {
        /// Waits until another thread signals or `timeout` passes.
        pub fn wait(&self, timeout: Option<Duration>) -> io::Result<Ready> {
            let mut state = self.lock();
            let until = timeout.map(|t| std::time::Instant::now() + t);
            while !state.signalled {
                state = match until {
                    None => self.wake.cv.wait(state).unwrap_or_else(PoisonError::into_inner),
                    Some(until) => {
                        let left = until.saturating_duration_since(std::time::Instant::now());
                        if left.is_zero() {
                            break;
                        }
                        self.wake.cv.wait_timeout(state, left).unwrap_or_else(PoisonError::into_inner).0
                    }
                };
            }
            state.signalled = false;
            Ok(Ready::default())
        }
    }
}

use wake::Wake;
