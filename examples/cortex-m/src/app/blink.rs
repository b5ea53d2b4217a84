//! The slow tool: `blink` toggles the LED `times` times, `interval_ms` apart, reporting
//! progress after each blink, and stops when the client cancels.
//!
//! It never blocks the loop: the call is accepted and left unanswered, and [`Blink::step`]
//! is run from the main loop whenever it wakes (the 100 Hz SysTick guarantees it does);
//! it does whatever has come due and returns. The answer is sent when the last blink is
//! done. The client's cancellation frees the request's slot at once; the job stops at its
//! next step, and its final answer is suppressed by the endpoint (a cancelled request must
//! never be answered on the wire).

use core::time::Duration;

use mcp_sansio::Instant;
use mcp_sansio::session::PendingRequest;
use mcp_sansio::session::{IncomingRequest, Responded, SendError};
use mcp_sansio::wire::RawJson;

use super::tools;
use crate::device::Device;
use crate::endpoint::{Pending, Server};
use crate::text::Text;

struct Job {
    call: Pending,
    times: u32,
    done: u32,
    interval: Duration,
    next: Instant,
    progress: bool,
    cancelled: bool,
}

pub struct Blink {
    job: Option<Job>,
}

/// `times` and `interval_ms`, each absent (or null) or an integer that fits `u32`; `None`
/// if either is something else. Decoded into a struct with serde (`typed-params`), or
/// looked up (see `tools::add_args`).
fn args(args: RawJson<'_>) -> Option<(Option<u32>, Option<u32>)> {
    #[cfg(feature = "typed-params")]
    {
        #[derive(serde::Deserialize)]
        struct Args {
            times: Option<u32>,
            interval_ms: Option<u32>,
        }
        let Args { times, interval_ms } = args.decode().ok()?;
        Some((times, interval_ms))
    }
    #[cfg(not(feature = "typed-params"))]
    {
        let int = |name| match args.get(name) {
            Some(v) if v.kind() != mcp_sansio::wire::JsonKind::Null => {
                v.as_u64().and_then(|n| u32::try_from(n).ok()).map(Some)
            }
            _ => Some(None),
        };
        Some((int("times")?, int("interval_ms")?))
    }
}

/// What a step finished.
pub enum Outcome {
    Finished(u32),
    Cancelled(u32),
}

impl Outcome {
    #[allow(dead_code)]
    pub fn text(&self) -> &'static str {
        match self {
            Self::Finished(_) => "blink: finished",
            Self::Cancelled(_) => "blink: cancelled after",
        }
    }

    #[allow(dead_code)]
    pub fn count(&self) -> u32 {
        match self {
            Self::Finished(n) | Self::Cancelled(n) => *n,
        }
    }
}

impl Blink {
    pub const fn new() -> Self {
        Self { job: None }
    }

    /// Accepts a call (and answers it later), or answers it now with a tool error.
    /// Returns the number of blinks started.
    #[inline(never)]
    pub fn start(&mut self, req: &mut IncomingRequest<'_>, args: RawJson<'_>, now: Instant) -> Option<u32> {
        let Some((times, interval_ms)) = self::args(args) else {
            tools::reply(req, "Invalid arguments: times and interval_ms are integers", true);
            return None;
        };
        let (times, interval) = (times.unwrap_or(5), interval_ms.unwrap_or(100));
        if !(1..=50).contains(&times) || !(10..=2000).contains(&interval) {
            tools::reply(req, "Invalid arguments: times 1-50, interval_ms 10-2000", true);
            return None;
        }
        if self.job.is_some() {
            tools::reply(req, "Busy: the LED is already blinking", true);
            return None;
        }
        let interval = Duration::from_millis(u64::from(interval));
        info!("blink: {=u32} times, {=u64} ms apart", times, interval.as_millis() as u64);
        self.job = Some(Job {
            call: Pending::of(req),
            times,
            done: 0,
            interval,
            next: now + interval,
            progress: req.wants_progress(),
            cancelled: false,
        });
        Some(times)
    }

    /// The client cancelled `request`.
    pub fn cancel(&mut self, request: &PendingRequest) {
        if let Some(job) = self.job.as_mut().filter(|j| j.call.is(request)) {
            job.cancelled = true;
        }
    }

    /// When the next blink is due.
    pub fn deadline(&self) -> Option<Instant> {
        self.job.as_ref().map(|j| if j.cancelled { Instant::ZERO } else { j.next })
    }

    /// Does what has come due. Returns what ended, if the job did.
    #[inline(never)]
    pub fn step(&mut self, ep: &mut Server, device: &mut Device, now: Instant) -> Option<Outcome> {
        let job = self.job.as_mut()?;
        if job.cancelled {
            // Frees the request's slot; nothing goes on the wire.
            return match job.call.finish(ep, "cancelled") {
                Ok(Responded::Suppressed) | Ok(Responded::Sent) | Err(SendError::UnknownRequest) => {
                    info!("blink: cancelled after {=u32} of {=u32}", job.done, job.times);
                    let done = job.done;
                    self.job = None;
                    Some(Outcome::Cancelled(done))
                }
                Err(_) => None,
            };
        }
        if now < job.next {
            return None;
        }
        if job.done < job.times {
            device.toggle();
            job.done += 1;
            job.next = job.next + job.interval;
            if job.progress {
                let mut text = Text::<32>::new();
                text.push_str("blink ").push_u64(job.done.into()).push_str(" of ").push_u64(job.times.into());
                if let Err(e) = job.call.progress(ep, job.done, job.times, text.as_str()) {
                    warn!("blink: progress not sent: {=str}", crate::endpoint::why(&e));
                }
            }
            if job.done < job.times {
                return None;
            }
        }
        let mut text = Text::<32>::new();
        text.push_str("blinked ").push_u64(job.times.into()).push_str(" times");
        match job.call.finish(ep, text.as_str()) {
            Err(SendError::TxFull { .. }) => None, // sent on the next wake, once the buffer drained
            outcome => {
                if let Err(e) = outcome {
                    warn!("blink: answer not sent: {=str}", crate::endpoint::why(&e));
                }
                info!("blink: finished {=u32}", job.times);
                let times = job.times;
                self.job = None;
                Some(Outcome::Finished(times))
            }
        }
    }
}
