//! Long work without threads or an allocator: step jobs, polled by the main loop.
//!
//! A [`StepTool`](super::StepTool) turns a call into a job of the server's job type `J`
//! (one type per server: an enum when several tools work this way), kept in one of the
//! server's `N` job slots. Each [`Server::poll`](super::Server::poll) steps the jobs that
//! are due; a job reports progress through its [`StepContext`], says when it wants the
//! next step ([`wake_at`](StepContext::wake_at)), and finishes by returning its output.
//! A job whose request is cancelled by the client (or expires) is dropped after its
//! [`cancelled`](Step::cancelled) hook runs: the cancellation signal of this mode.

use core::task::Poll;

use super::output::ToolOutput;
use crate::time::Instant;
use crate::wire::ProgressValue;

/// What a step job can do while it is stepped.
pub trait StepContext {
    /// The current time (the instant given to `poll`).
    fn now(&self) -> Instant;
    /// Whether the client asked for progress on this call.
    fn wants_progress(&self) -> bool;
    /// Reports progress (values must increase; ignored if the client did not ask for
    /// progress, or if there is no room to send it now). Integers cost no floating-point
    /// code.
    fn progress<N: ProgressValue>(&mut self, progress: N, total: Option<N>, message: Option<&str>);
    /// Asks to be stepped again at `at` (and not before). Without it a pending job is
    /// stepped again at the next poll.
    fn wake_at(&mut self, at: Instant);
}

/// A step job: long work the main loop advances one step at a time.
pub trait Step<S> {
    /// What the job answers the call with.
    type Output<'a>: ToolOutput
    where
        Self: 'a;
    /// Advances the job; `Ready` finishes it with the call's result.
    fn step(&mut self, state: &mut S, cx: &mut impl StepContext) -> Poll<Self::Output<'_>>;
    /// The client cancelled the call (or it expired): the job is dropped after this.
    fn cancelled(&mut self, state: &mut S) {
        let _ = state;
    }
}

/// The job type of a server without step jobs (it has no values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoJob {}

impl<S> Step<S> for NoJob {
    type Output<'a> = ();
    fn step(&mut self, _: &mut S, _: &mut impl StepContext) -> Poll<()> {
        match *self {}
    }
}
