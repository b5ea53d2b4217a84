//! Work that outlives the event that started it: step jobs in fixed slots, answers
//! waiting for room (with `alloc`), and jobs on other threads or executors (with `std`).

use core::task::Poll;

use serde::Serialize;

use super::outlet::Outlet;
use super::output::AsResult;
use super::step::{Step, StepContext};
use crate::session::{IncomingRequest, PendingRequest, SendError};
use crate::time::Instant;
use crate::wire::{ErrorCode, ProgressValue};

/// Where an answer that does not fit the transmit buffer now waits.
pub(crate) trait Later {
    /// Keeps an answer (JSON text of a result) that did not fit the transmit buffer, to
    /// send once there is room.
    #[cfg(feature = "alloc")]
    fn later(&mut self, request: PendingRequest, result: alloc::vec::Vec<u8>);
    /// Keeps an error answer that did not fit the transmit buffer, to send once there is
    /// room (`data` as JSON text). Without a queue for errors (a bare endpoint, where
    /// [`room`](Self::room) is in place), it is refused with -32603 as a result would be.
    #[cfg(feature = "std")]
    fn fail(&mut self, request: PendingRequest, code: ErrorCode, message: &str, data: Option<alloc::vec::Vec<u8>>) {
        let _ = (request, code, message, data);
    }
    /// How an answer may go out now: in place on a bare endpoint; through an adapter,
    /// behind what its session already queued, or into a transmit buffer it can grow.
    fn room(&self) -> Room {
        Room::InPlace
    }
}

/// How an answer may go out now (see [`Later::room`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Room {
    /// Written into the transmit buffer if it fits its free room.
    InPlace,
    /// Written if it fits now; one longer than the buffer waits for the adapter to grow
    /// it, instead of being refused with -32603.
    #[cfg_attr(not(any(feature = "stdio", feature = "http")), allow(dead_code))]
    Grows,
    /// Queued behind what waits already, to keep the session's order.
    #[cfg_attr(not(any(feature = "stdio", feature = "http")), allow(dead_code))]
    Behind,
}

/// What a [`Call`](super::Call) needs from the server besides the request.
pub(crate) trait Runtime<J>: Later {
    /// Takes a step job for `request`; gives it back if every slot is taken.
    fn start(&mut self, request: PendingRequest, progress: bool, job: J) -> Result<(), J>;
    /// The jobs running off the loop.
    #[cfg(feature = "std")]
    fn tasks(&mut self) -> &mut super::tasks::Tasks;
}

/// Answers `request` with `result`; one that does not fit the transmit buffer now waits
/// (with `alloc`) or is refused with -32603 (without, where nothing can hold it: give the
/// endpoint a [reply reserve](crate::session::Config::reply_reserve) as large as the
/// largest result to avoid it).
pub(crate) fn answer<R: Serialize + ?Sized>(request: &mut IncomingRequest<'_>, later: &mut dyn Later, result: &R) {
    answer_knowing(request, later, result, false);
}

/// [`answer`], for a result that certainly has neither `resultType` nor `_meta` when
/// `fresh` (see [`ToolOutput::fresh`](super::ToolOutput::fresh)).
pub(crate) fn answer_knowing<R: Serialize + ?Sized>(
    request: &mut IncomingRequest<'_>,
    later: &mut dyn Later,
    result: &R,
    fresh: bool,
) {
    let full = match later.room() {
        Room::Behind => true,
        Room::Grows => matches!(request.respond_knowing(false, result, fresh), Err(SendError::TxFull { .. })),
        Room::InPlace => matches!(request.respond_knowing(true, result, fresh), Err(SendError::TxFull { .. })),
    };
    if full {
        #[cfg(feature = "alloc")]
        if let Some(json) = super::owned::to_json(result) {
            later.later(request.pending(), json);
            return;
        }
        let _ = later;
        let _ = request.respond_error(
            ErrorCode::INTERNAL_ERROR,
            "Internal error: the result does not fit the transmit buffer's free room",
        );
    }
}

/// Answers `request` with an error the way [`answer`] answers with a result: behind
/// what the session queued, into a transmit buffer that grows, or in place, and one that
/// does not fit now waits (with `alloc`, where the runtime queues errors) or is replaced
/// by -32603.
#[cfg(feature = "std")]
pub(crate) fn answer_error(
    request: &mut IncomingRequest<'_>,
    later: &mut dyn Later,
    code: ErrorCode,
    message: &str,
    data: Option<crate::wire::RawJson<'_>>,
) {
    let sent = match (later.room(), data) {
        (Room::Behind, _) => Err(SendError::TxFull { needed: 0, available: 0 }),
        (Room::Grows, data) => request.try_respond_error(code, message, data.as_ref()).map(drop),
        (Room::InPlace, Some(data)) => request.respond_error_with_data(code, message, &data).map(drop),
        (Room::InPlace, None) => request.respond_error(code, message).map(drop),
    };
    if let Err(SendError::TxFull { .. }) = sent {
        {
            later.fail(request.pending(), code, message, data.map(|d| d.as_bytes().to_vec()));
            if later.room() != Room::InPlace {
                return;
            }
        }
        let _ = request.respond_error(
            ErrorCode::INTERNAL_ERROR,
            "Internal error: the error does not fit the transmit buffer's free room",
        );
    }
}

/// A step job in its slot.
struct Slot<J> {
    request: PendingRequest,
    progress: bool,
    /// When to step it next; `None`: at the next poll.
    wake: Option<Instant>,
    job: J,
}

/// The server's work in progress.
pub(crate) struct Work<J, const N: usize> {
    slots: [Option<Slot<J>>; N],
    #[cfg(feature = "alloc")]
    later: alloc::collections::VecDeque<(PendingRequest, alloc::vec::Vec<u8>)>,
    #[cfg(feature = "std")]
    pub(crate) tasks: super::tasks::Tasks,
}

impl<J, const N: usize> Work<J, N> {
    pub(crate) fn new() -> Self {
        Work {
            slots: [const { None }; N],
            #[cfg(feature = "alloc")]
            later: alloc::collections::VecDeque::new(),
            #[cfg(feature = "std")]
            tasks: super::tasks::Tasks::new(),
        }
    }

    /// Another work record for another session, running its off-loop jobs the same way
    /// (spawner, executor) and waking the loop with `wake`.
    #[cfg(any(feature = "stdio", feature = "http"))]
    pub(crate) fn sibling(&self, wake: Option<super::tasks::Wakeup>) -> Self {
        let mut work = Work::new();
        work.tasks.spawner.clone_from(&self.tasks.spawner);
        work.tasks.executor.clone_from(&self.tasks.executor);
        work.tasks.sealer = self.tasks.sealer;
        work.tasks.wake = wake;
        work
    }

    /// Whether nothing is in progress: no step job, no answer waiting, no job off the
    /// loop.
    #[cfg(any(feature = "stdio", feature = "http"))]
    pub(crate) fn is_idle(&self) -> bool {
        self.jobs() == 0 && self.later.is_empty() && self.tasks.is_empty()
    }

    /// Step jobs running.
    pub(crate) fn jobs(&self) -> usize {
        self.slots.iter().filter(|s| s.is_some()).count()
    }

    /// Stops the work for a request that is over (cancelled, expired).
    pub(crate) fn end<S>(&mut self, state: &mut S, request: &PendingRequest)
    where
        J: Step<S>,
    {
        for slot in &mut self.slots {
            if slot.as_ref().is_some_and(|s| s.request == *request)
                && let Some(mut s) = slot.take()
            {
                s.job.cancelled(state);
            }
        }
        #[cfg(feature = "alloc")]
        self.later.retain(|(r, _)| r != request);
        #[cfg(feature = "std")]
        self.tasks.end(request);
    }

    /// Stops everything (the session closed).
    pub(crate) fn end_all<S>(&mut self, state: &mut S)
    where
        J: Step<S>,
    {
        for slot in &mut self.slots {
            if let Some(mut s) = slot.take() {
                s.job.cancelled(state);
            }
        }
        #[cfg(feature = "alloc")]
        self.later.clear();
        #[cfg(feature = "std")]
        self.tasks.end_all();
    }

    /// Sends what waits, steps the jobs that are due, delivers what the off-loop jobs
    /// did. Returns when to poll again.
    pub(crate) fn poll<S, O: Outlet>(&mut self, state: &mut S, ep: &mut O, now: Instant) -> Option<Instant>
    where
        J: Step<S>,
    {
        #[cfg(feature = "alloc")]
        while let Some((request, json)) = self.later.front() {
            let result = crate::wire::RawJson::from_validated(json);
            if ep.respond(request, &result) == super::outlet::Taken::Full {
                break;
            }
            self.later.pop_front();
        }
        let mut next: Option<Instant> = None;
        for slot in &mut self.slots {
            let Some(s) = slot else { continue };
            if s.wake.is_some_and(|at| at > now) {
                next = earliest(next, s.wake);
                continue;
            }
            let mut cx = Stepping { ep: &mut *ep, request: &s.request, progress: s.progress, now, wake: None };
            let done = match s.job.step(state, &mut cx) {
                Poll::Ready(output) => {
                    let _ = ep.respond(&s.request, &AsResult(&output));
                    true
                }
                Poll::Pending => {
                    s.wake = cx.wake;
                    next = earliest(next, Some(cx.wake.unwrap_or(now)));
                    false
                }
            };
            if done {
                *slot = None;
            }
        }
        #[cfg(feature = "std")]
        self.tasks.poll(ep);
        next
    }
}

fn earliest(a: Option<Instant>, b: Option<Instant>) -> Option<Instant> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

impl<J, const N: usize> Later for Work<J, N> {
    #[cfg(feature = "alloc")]
    fn later(&mut self, request: PendingRequest, result: alloc::vec::Vec<u8>) {
        self.later.push_back((request, result));
    }
}

impl<J, const N: usize> Runtime<J> for Work<J, N> {
    fn start(&mut self, request: PendingRequest, progress: bool, job: J) -> Result<(), J> {
        match self.slots.iter_mut().find(|s| s.is_none()) {
            Some(slot) => {
                *slot = Some(Slot { request, progress, wake: None, job });
                Ok(())
            }
            None => Err(job),
        }
    }

    #[cfg(feature = "std")]
    fn tasks(&mut self) -> &mut super::tasks::Tasks {
        &mut self.tasks
    }
}

/// The [`StepContext`] of one job being stepped.
struct Stepping<'x, O> {
    ep: &'x mut O,
    request: &'x PendingRequest,
    progress: bool,
    now: Instant,
    wake: Option<Instant>,
}

impl<O: Outlet> StepContext for Stepping<'_, O> {
    fn now(&self) -> Instant {
        self.now
    }

    fn wants_progress(&self) -> bool {
        self.progress
    }

    fn progress<N: ProgressValue>(&mut self, progress: N, total: Option<N>, message: Option<&str>) {
        if self.progress {
            let _ = self.ep.progress(self.request, progress, total, message);
        }
    }

    fn wake_at(&mut self, at: Instant) {
        self.wake = Some(self.wake.map_or(at, |w| w.min(at)));
    }
}
