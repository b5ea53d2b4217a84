//! [`Mailbox`]: how other threads hand messages to the loop, through a bounded queue.

use std::sync::Arc;

use super::shared::Shared;
use crate::adapters::app::{Action, Envelope, Letter, MailboxError, Post, SessionTag};

/// Lets any thread (a worker, a timer, a UI) hand a message to the loop, which passes it
/// to [`App::on_message`](super::App::on_message) with the endpoint.
///
/// The queue is bounded ([`StdioLoop::mailbox_capacity`](super::StdioLoop::mailbox_capacity),
/// 64 by default). When it is full, [`send`](Self::send) waits for room: a worker that
/// produces faster than the loop can write waits for it, and while the peer does not read
/// the replies, the loop takes no messages at all (each would add output), so workers
/// wait on the full mailbox. [`try_send`](Self::try_send) never waits.
pub struct Mailbox<M>(pub(super) Arc<Shared<M>>);

impl<M> Clone for Mailbox<M> {
    fn clone(&self) -> Self {
        Mailbox(Arc::clone(&self.0))
    }
}

impl<M> Mailbox<M> {
    /// Delivers `message`, waiting while the mailbox is full. `false`, the message
    /// dropped, if the loop has stopped (or stops while this waits), or if this is the
    /// loop's own thread (inside [`App::on_event`](super::App::on_event)) and the mailbox
    /// is full: the loop cannot wait for itself. Use [`try_send`](Self::try_send) to get
    /// the message back instead.
    pub fn send(&self, message: M) -> bool {
        deliver(&self.0, message, true).is_ok()
    }

    /// Delivers `message` if there is room now.
    pub fn try_send(&self, message: M) -> Result<(), MailboxError<M>> {
        deliver(&self.0, message, false)
    }
}

/// Delivers `message`; with `wait`, waits for room unless on the loop's thread.
fn deliver<M>(shared: &Shared<M>, message: M, wait: bool) -> Result<(), MailboxError<M>> {
    let mut state = shared.lock();
    loop {
        if state.stopped {
            return Err(MailboxError::Stopped(message));
        }
        if state.messages.len() < state.capacity {
            shared.push_message(state, message);
            return Ok(());
        }
        if !wait || state.loop_thread == Some(std::thread::current().id()) {
            return Err(MailboxError::Full(message));
        }
        state = shared.wait_for_room(state);
    }
}

/// The mailbox of a loop that runs a [`Handler`](crate::adapters::app::Handler).
impl<M: Send> Post<M> for Shared<Envelope<M>> {
    fn post_app(&self, message: M, wait: bool) -> Result<(), MailboxError<M>> {
        match deliver(self, Envelope(Letter::App(message)), wait) {
            Ok(()) => Ok(()),
            Err(MailboxError::Full(Envelope(Letter::App(m)))) => Err(MailboxError::Full(m)),
            Err(MailboxError::Stopped(Envelope(Letter::App(m)))) => Err(MailboxError::Stopped(m)),
            // `deliver` hands back the letter it was given, an application message.
            Err(_) => Ok(()),
        }
    }

    fn post_act(&self, session: SessionTag, action: Action) -> bool {
        deliver(self, Envelope(Letter::Act(session, action)), true).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn mailbox(capacity: usize) -> Mailbox<u32> {
        let shared = Shared::new(0).unwrap();
        shared.lock().capacity = capacity;
        Mailbox(shared)
    }

    #[test]
    fn a_full_mailbox_refuses_try_send_and_makes_send_wait_for_room() {
        let mailbox = mailbox(2);
        assert!(mailbox.try_send(1).is_ok() && mailbox.send(2));
        assert!(matches!(mailbox.try_send(3), Err(MailboxError::Full(3))));
        let sender = mailbox.clone();
        let waiting = std::thread::spawn(move || sender.send(3));
        std::thread::sleep(Duration::from_millis(50));
        assert!(!waiting.is_finished(), "send waits while the mailbox is full");
        assert_eq!(mailbox.0.take_message(), Some(1));
        assert!(waiting.join().unwrap());
        assert_eq!(
            (mailbox.0.take_message(), mailbox.0.take_message(), mailbox.0.take_message()),
            (Some(2), Some(3), None)
        );
    }

    #[test]
    fn the_loop_thread_never_waits_on_its_own_mailbox_and_a_stopped_loop_takes_nothing() {
        let mailbox = mailbox(1);
        mailbox.0.start();
        assert!(mailbox.send(1));
        assert!(!mailbox.send(2), "full, on the loop's thread: refused at once");
        let sender = mailbox.clone();
        let waiting = std::thread::spawn(move || sender.send(3));
        std::thread::sleep(Duration::from_millis(50));
        mailbox.0.stop();
        assert!(!waiting.join().unwrap(), "a sender waiting when the loop stops gets false");
        assert!(matches!(mailbox.try_send(4), Err(MailboxError::Stopped(4))));
        assert!(!mailbox.send(5));
    }
}
