//! The client's side of one MCP task (tasks extension, `io.modelcontextprotocol/tasks`,
//! 2026-07-28): after [`Event::TaskCreated`], poll `tasks/get` at the server's
//! `pollIntervalMs` until the task ends, surface what it asks, answer with
//! `tasks/update`, cancel with `tasks/cancel`.
//!
//! A [`TaskPoller`] is sans-IO like the endpoint and beside it: it keeps the task's id
//! (in a fixed buffer: no allocation), when to poll next and which request of ours is
//! the poll in flight. The loop takes the earlier of [`Endpoint::poll_timeout`] and
//! [`TaskPoller::poll_timeout`], calls [`TaskPoller::handle_timeout`] (which sends the
//! `tasks/get` when it is due; safe to call spuriously) and shows it every event with
//! [`TaskPoller::handle_event`], which reads the answers to its polls by the request they
//! answer and tells what the task did ([`TaskUpdate`]). One poll is in flight at a time;
//! the next is due `pollIntervalMs` after an answer (the value of the latest answer: the
//! server may change it), or after [`DEFAULT_POLL_INTERVAL`] if it names none.
//!
//! An `input_required` task's `inputRequests` have the shape of a multi round-trip
//! request's (`{key: {method, params}}`): answer them with the same hooks, and send the
//! answers with [`TaskPoller::answer`] (`tasks/update`). The same requests come again on
//! every poll until the server has them; [`TaskUpdate::InputRequired`] says whether
//! they are `fresh` (a set of keys not surfaced before), so they are shown once. With the
//! toolkit, [`Client::fulfil`](crate::toolkit::client::Client::fulfil) answers them
//! through the client's hooks, as it answers a multi round-trip request's.

use core::time::Duration;

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use super::buffer::Buffer;
use super::caller_errors::SendError;
use super::config::RequestOptions;
use super::endpoint::Endpoint;
use super::event::Event;
use super::modern::fnv;
use super::profile::Profile;
use crate::mcp::TaskStatus;
use crate::time::Instant;
use crate::wire::{ErrorObject, JsonKind, RawJson, RequestId};

/// The polling interval used when the server suggests none.
pub const DEFAULT_POLL_INTERVAL: Duration = Duration::from_secs(1);

/// The longest task id a [`TaskPoller`] keeps (as its JSON string token), by default.
pub const DEFAULT_TASK_ID_LEN: usize = 128;

/// Why a task handle cannot be followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum TaskHandleError {
    /// The result has no string `taskId`.
    NoTaskId,
    /// The id is longer than the poller keeps: `needed` bytes.
    IdTooLong {
        /// The id's length as a JSON string token.
        needed: usize,
    },
}

/// What an answer to a poll says the task did.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum TaskUpdate<'e> {
    /// Still `working` (the next poll is scheduled).
    Working {
        /// The whole `tasks/get` result (`statusMessage` and the like).
        task: RawJson<'e>,
    },
    /// `input_required`: answer `requests` (`{key: {method, params}}`) with
    /// [`TaskPoller::answer`]. Polling goes on.
    InputRequired {
        /// The whole `tasks/get` result (what the toolkit's
        /// [`Client::fulfil`](crate::toolkit::client::Client::fulfil) takes, as it takes
        /// an `input_required` result).
        task: RawJson<'e>,
        /// The `inputRequests` object.
        requests: RawJson<'e>,
        /// Whether these keys were not surfaced before (show them to the user once).
        fresh: bool,
    },
    /// `completed`: what the original request would have returned (decode it by that
    /// request's method). Polling has stopped.
    Completed {
        /// The `result` object.
        result: RawJson<'e>,
    },
    /// `failed`: the JSON-RPC error of the underlying request. Polling has stopped.
    Failed {
        /// The `error` object (`code`, `message`, `data`).
        error: RawJson<'e>,
    },
    /// `cancelled`. Polling has stopped.
    Cancelled,
    /// The server answered the poll with an error (-32602: the task is unknown or
    /// expired). Polling has stopped.
    Gone {
        /// The error.
        error: ErrorObject<'e>,
    },
    /// The answer to a poll is not a task this poller can read (no `status`, a status
    /// without what it must carry, another task's id). Polling has stopped.
    Invalid {
        /// The result as it came.
        result: RawJson<'e>,
    },
    /// The poll was not answered (timed out, the session failed): the next one is
    /// scheduled.
    Unanswered,
}

/// Follows one task (see the module docs). `ID` bounds the task id's length.
#[derive(Clone, Debug)]
pub struct TaskPoller<const ID: usize = DEFAULT_TASK_ID_LEN> {
    /// The id as its JSON string token (quotes and escapes as the server wrote it).
    id: heapless::Vec<u8, ID>,
    interval: Duration,
    /// When the next poll is due; `None` while one is in flight or once the task ended.
    due: Option<Instant>,
    in_flight: Option<RequestId>,
    status: TaskStatus,
    /// The digest of the last set of input request keys surfaced.
    surfaced: u64,
}

/// `{"taskId": <token>}` and, for `tasks/update`, `inputResponses`.
struct Params<'x, R: ?Sized> {
    id: &'x [u8],
    responses: Option<&'x R>,
}

impl<R: Serialize + ?Sized> Serialize for Params<'_, R> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("taskId", &RawJson::from_validated(self.id))?;
        if let Some(r) = self.responses {
            map.serialize_entry("inputResponses", r)?;
        }
        map.end()
    }
}

impl<const ID: usize> TaskPoller<ID> {
    /// Follows the task of `handle` (the `task` of [`Event::TaskCreated`]); the first
    /// poll is due `pollIntervalMs` (or [`DEFAULT_POLL_INTERVAL`]) after `now`.
    pub fn new(handle: RawJson<'_>, now: Instant) -> Result<Self, TaskHandleError> {
        let id = handle.get("taskId").filter(|v| v.kind() == JsonKind::String).ok_or(TaskHandleError::NoTaskId)?;
        let token = id.as_bytes();
        let id = heapless::Vec::from_slice(token).map_err(|_| TaskHandleError::IdTooLong { needed: token.len() })?;
        let status = handle.get("status").and_then(|s| s.decode::<TaskStatus>().ok()).unwrap_or(TaskStatus::Working);
        let interval = interval_of(handle).unwrap_or(DEFAULT_POLL_INTERVAL);
        let due = (!status.is_terminal()).then(|| now + interval);
        Ok(TaskPoller { id, interval, due, in_flight: None, status, surfaced: 0 })
    }

    /// The task's id, as the JSON string token the server wrote.
    pub fn task_id(&self) -> RawJson<'_> {
        RawJson::from_validated(&self.id)
    }

    /// The status the latest answer reported.
    pub fn status(&self) -> TaskStatus {
        self.status
    }

    /// The interval between polls (the server's latest `pollIntervalMs`).
    pub fn interval(&self) -> Duration {
        self.interval
    }

    /// Whether the task ended (or is gone): nothing more to poll.
    pub fn is_done(&self) -> bool {
        self.due.is_none() && self.in_flight.is_none()
    }

    /// When the next poll is due (`None` while one is in flight, or once done).
    pub fn poll_timeout(&self) -> Option<Instant> {
        self.due
    }

    /// Sends the `tasks/get` if it is due at `now` (otherwise nothing: safe to call
    /// spuriously). A refusal of the endpoint's (no free slot, the transmit buffer full,
    /// the session over) is returned for the caller to see, and the poll is due again an
    /// interval later (never a deadline in the past, which would make a loop spin).
    pub fn handle_timeout<const OUT: usize, const IN: usize, B: Buffer, E: Profile>(
        &mut self,
        ep: &mut Endpoint<'_, OUT, IN, B, E>,
        now: Instant,
    ) -> Result<Option<RequestId>, SendError> {
        match self.due {
            Some(at) if at <= now && self.in_flight.is_none() => {}
            _ => return Ok(None),
        }
        let params = Params::<RawJson<'_>> { id: &self.id, responses: None };
        match ep.send_request(now, "tasks/get", Some(&params), RequestOptions::default()) {
            Ok(id) => {
                self.in_flight = Some(id.clone());
                self.due = None;
                Ok(Some(id))
            }
            Err(e) => {
                self.due = Some(now + self.interval);
                Err(e)
            }
        }
    }

    /// Sends `tasks/update` with `responses` (an object: `{key: result}`) for the task's
    /// input requests. Polling goes on as it was.
    pub fn answer<R: Serialize + ?Sized, const OUT: usize, const IN: usize, B: Buffer, E: Profile>(
        &mut self,
        ep: &mut Endpoint<'_, OUT, IN, B, E>,
        now: Instant,
        responses: &R,
    ) -> Result<RequestId, SendError> {
        ep.send_request(
            now,
            "tasks/update",
            Some(&Params { id: &self.id, responses: Some(responses) }),
            RequestOptions::default(),
        )
    }

    /// Sends `tasks/cancel` and stops polling (the extension lets a client forget a task
    /// once it asked to cancel it).
    pub fn cancel<const OUT: usize, const IN: usize, B: Buffer, E: Profile>(
        &mut self,
        ep: &mut Endpoint<'_, OUT, IN, B, E>,
        now: Instant,
    ) -> Result<RequestId, SendError> {
        let params = Params::<RawJson<'_>> { id: &self.id, responses: None };
        let id = ep.send_request(now, "tasks/cancel", Some(&params), RequestOptions::default())?;
        self.due = None;
        self.in_flight = None;
        Ok(id)
    }

    /// Reads `event` if it answers this poller's poll (`None` otherwise: the event is
    /// the application's), and schedules the next poll from `now`.
    pub fn handle_event<'e>(&mut self, event: &Event<'e>, now: Instant) -> Option<TaskUpdate<'e>> {
        let mine = |id: &RequestId| self.in_flight.as_ref() == Some(id);
        let update = match event {
            Event::Response { id, result, .. } if mine(id) => self.read(*result),
            Event::Error { id, error, .. } if mine(id) => {
                self.in_flight = None;
                return Some(TaskUpdate::Gone { error: *error });
            }
            Event::TimedOut { id, .. } | Event::Failed { id, .. } | Event::ResponseTooLong { id, .. } if mine(id) => {
                TaskUpdate::Unanswered
            }
            _ => return None,
        };
        self.in_flight = None;
        let ended = matches!(
            update,
            TaskUpdate::Completed { .. }
                | TaskUpdate::Failed { .. }
                | TaskUpdate::Cancelled
                | TaskUpdate::Invalid { .. }
        );
        self.due = (!ended).then(|| now + self.interval);
        Some(update)
    }

    /// A `tasks/get` result.
    fn read<'e>(&mut self, result: RawJson<'e>) -> TaskUpdate<'e> {
        let invalid = TaskUpdate::Invalid { result };
        let same =
            result.get("taskId").is_some_and(|id| id.as_str() == self.task_id().as_str() && id.as_str().is_some());
        let Some(status) = result.get("status").and_then(|s| s.decode::<TaskStatus>().ok()).filter(|_| same) else {
            return invalid;
        };
        if let Some(interval) = interval_of(result) {
            self.interval = interval;
        }
        self.status = status;
        match status {
            TaskStatus::Working => TaskUpdate::Working { task: result },
            TaskStatus::Cancelled => TaskUpdate::Cancelled,
            TaskStatus::Completed => match result.get("result").filter(RawJson::is_object) {
                Some(result) => TaskUpdate::Completed { result },
                None => invalid,
            },
            TaskStatus::Failed => match result.get("error").filter(RawJson::is_object) {
                Some(error) => TaskUpdate::Failed { error },
                None => invalid,
            },
            TaskStatus::InputRequired => match result.get("inputRequests").filter(RawJson::is_object) {
                Some(requests) => {
                    let keys = requests.members().fold(0u64, |acc, (k, _)| acc ^ fnv(k.raw()).rotate_left(1));
                    let fresh = keys != self.surfaced;
                    self.surfaced = keys;
                    TaskUpdate::InputRequired { task: result, requests, fresh }
                }
                None => invalid,
            },
        }
    }
}

/// `pollIntervalMs`, when it is a positive integer.
fn interval_of(task: RawJson<'_>) -> Option<Duration> {
    task.get("pollIntervalMs").and_then(|v| v.as_u64()).filter(|&ms| ms > 0).map(Duration::from_millis)
}
