//! (`std`) The tasks extension (`io.modelcontextprotocol/tasks`, 2026-07-28) for the
//! toolkit: a bounded store of MCP tasks, tools run as tasks, and `tasks/get`,
//! `tasks/update`, `tasks/cancel` answered from the store.
//!
//! (Not to be confused with `tasks.rs`, which runs handlers off the loop as jobs: a task
//! here is the protocol's durable handle on such a job.)
//!
//! A tool declared with task support ([`TaskSupport::Optional`] or
//! [`TaskSupport::Required`], what `tools/list` shows as `execution.taskSupport`) is
//! called like any blocking tool, with a [`Job`](super::Job). When the client declared
//! the extension for that request (in `_meta["io.modelcontextprotocol/clientCapabilities"]
//! .extensions`), the toolkit creates the task in the store first, answers the call at
//! once with the flat `CreateTaskResult` (`resultType: "task"`, `taskId`, `status`,
//! `createdAt`, `lastUpdatedAt`, `ttlMs`, `pollIntervalMs`), and runs the handler on a
//! thread: its output becomes the task's `result` (`completed`, a tool error included:
//! `isError` is a completed call), a panic its `error` (`failed`, -32603). What the job
//! asks ([`Job::ask`](super::Job::ask), [`Job::ask_all`](super::Job::ask_all)) puts the
//! task in `input_required` with the questions under keys `q0`, `q1`, … (never reused)
//! until `tasks/update` answers them; the job then goes on. `tasks/cancel` ends the task
//! `cancelled` at once and cancels the job (cooperatively: [`Job::check`](super::Job::check)).
//!
//! A client that did not declare the extension gets the synchronous answer for an
//! optional tool and -32021 (with `requiredCapabilities`) for a required one; so does a
//! handshake-era session for a required tool (its 2025-11-25 tasks are another
//! protocol, not served here), while an optional tool simply runs.
//!
//! Bounded: the store holds at most `capacity` tasks. A task is dropped `ttlMs` after
//! its creation (the spec's "may discard after the TTL"; its job, if still running, is
//! cancelled). When the store is full, its oldest finished task (completed, failed or
//! cancelled, kept for its TTL) makes room; when it is full of unfinished tasks a new call is refused the way its
//! tool allows: an optional tool runs synchronously instead (the server decides
//! whether to make a task), a required one is answered -32603 "too many tasks". Time is
//! the loop's [`Instant`] (the store never reads a clock; the ISO 8601 timestamps are
//! that instant plus the wall-clock time [`TaskStore::wall_clock_at_zero`] says the
//! loop's zero was).

use std::boxed::Box;
use std::collections::VecDeque;
use std::format;
use std::string::String;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;
use std::vec::Vec;

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use super::input::Input;
use super::output::ToolOutput;
use super::tool::Call;
use super::work::{Later, answer};
use crate::mcp::{CapabilitySet, InputAnswers, InputKind, InputRequest, TASK_NOT_FOUND, TaskRequest, TaskStatus};
use crate::session::IncomingRequest;
use crate::time::Instant;
use crate::toolkit::client::{Answer, ClientError};
use crate::wire::{ErrorCode, RawJson};

pub use crate::mcp::TaskSupport;

// The `data` of -32021 when a tool can only run as a task: the session's own.
use crate::session::TASKS_REQUIRED;

/// The `capabilities.extensions` member that declares the extension.
pub(crate) const EXTENSION_DECLARED: RawJson<'static> = RawJson::from_static(r#"{"io.modelcontextprotocol/tasks":{}}"#);

/// How many tasks a store holds by default.
pub const DEFAULT_TASK_CAPACITY: usize = 64;
/// How long a task is kept from its creation by default (`ttlMs`).
pub const DEFAULT_TASK_TTL: Duration = Duration::from_secs(300);
/// The polling interval suggested by default (`pollIntervalMs`).
pub const DEFAULT_POLL_INTERVAL: Duration = Duration::from_millis(500);

/// A bounded store of MCP tasks, shared by every session of a server (a client may poll
/// on another connection, or over HTTP with every POST its own exchange). Cloning it
/// shares it. See the module docs.
#[derive(Clone)]
pub struct TaskStore {
    shared: Arc<Shared>,
}

struct Shared {
    inner: Mutex<Inner>,
    /// Signalled when a task changes (answers, cancellation, expiry): what a job waiting
    /// for its answers waits on.
    changed: Condvar,
}

struct Inner {
    tasks: VecDeque<Entry>,
    capacity: usize,
    ttl: Duration,
    poll_interval: Duration,
    /// Unix time in ms at the loop's `Instant::ZERO`.
    epoch_ms: u64,
    /// Draws the task ids.
    ids: std::collections::hash_map::RandomState,
    serial: u64,
}

/// What the job's question became.
struct Question {
    key: String,
    /// `{"method":…,"params":…}` as JSON text.
    request: Vec<u8>,
    /// What its answer must be.
    kind: InputKind,
    /// Its answer once `tasks/update` brought one.
    answer: Option<Vec<u8>>,
}

enum Outcome {
    /// The tool's result (JSON text of a `CallToolResult`).
    Result(Vec<u8>),
    /// The JSON-RPC error object (JSON text).
    Error(Vec<u8>),
}

struct Entry {
    id: String,
    status: TaskStatus,
    created: Instant,
    /// `None`: changed by a job since the loop last looked (stamped at the next look,
    /// since only the loop knows the time).
    updated: Option<Instant>,
    outcome: Option<Outcome>,
    questions: Vec<Question>,
    /// The next question key's number.
    next_key: usize,
    /// What the client declared on the creating request: nothing else is asked.
    declared: CapabilitySet,
    /// Cancels the job.
    cancel: Option<Box<dyn Fn() + Send>>,
}

impl Entry {
    fn expires(&self, ttl: Duration) -> Instant {
        self.created + ttl
    }
}

/// Why a task was not created.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct StoreFull;

impl Default for TaskStore {
    fn default() -> Self {
        Self::new(DEFAULT_TASK_CAPACITY)
    }
}

impl core::fmt::Debug for TaskStore {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("TaskStore").field("tasks", &self.len()).finish()
    }
}

impl TaskStore {
    /// A store of at most `capacity` tasks (at least one), with the default TTL and
    /// polling interval, its timestamps counted from the wall clock now.
    pub fn new(capacity: usize) -> Self {
        let epoch_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
        let inner = Inner {
            tasks: VecDeque::new(),
            capacity: capacity.max(1),
            ttl: DEFAULT_TASK_TTL,
            poll_interval: DEFAULT_POLL_INTERVAL,
            epoch_ms,
            ids: std::collections::hash_map::RandomState::new(),
            serial: 0,
        };
        TaskStore { shared: Arc::new(Shared { inner: Mutex::new(inner), changed: Condvar::new() }) }
    }

    /// Keeps each task `ttl` from its creation (`ttlMs`; at least 1 ms).
    pub fn ttl(self, ttl: Duration) -> Self {
        self.lock().ttl = ttl.max(Duration::from_millis(1));
        self
    }

    /// Suggests polling every `interval` (`pollIntervalMs`; at least 1 ms).
    pub fn poll_interval(self, interval: Duration) -> Self {
        self.lock().poll_interval = interval.max(Duration::from_millis(1));
        self
    }

    /// The wall-clock time (Unix ms) of the loop's `Instant::ZERO`, from which
    /// `createdAt` and `lastUpdatedAt` are written (by default: when the store was made).
    pub fn wall_clock_at_zero(self, unix_ms: u64) -> Self {
        self.lock().epoch_ms = unix_ms;
        self
    }

    /// Tasks held (live or ended, until their TTL).
    pub fn len(&self) -> usize {
        self.lock().tasks.len()
    }

    /// Whether no task is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The status of task `id`, if it is held.
    pub fn status(&self, id: &str) -> Option<TaskStatus> {
        self.lock().tasks.iter().find(|t| t.id == id).map(|t| t.status)
    }

    /// Drops the tasks whose TTL ran out by `now` (each answer and creation does it too).
    pub fn expire(&self, now: Instant) {
        let (expired, cancels) = self.lock().expire(now);
        // Called with the store unlocked: a cancellation wakes the job's executor, which
        // may poll it at once, and the job may come back to the store.
        for cancel in cancels {
            cancel();
        }
        if expired {
            self.shared.changed.notify_all();
        }
    }

    /// [`expire`](Self::expire), then when the next task expires: a deadline for the
    /// loop, so that a task nobody asks about still ends at its TTL (and a job waiting in
    /// `ask` for its answers is released) without another request coming.
    pub(crate) fn expire_due(&self, now: Instant) -> Option<Instant> {
        self.expire(now);
        let inner = self.lock();
        inner.tasks.iter().map(|t| t.expires(inner.ttl)).min()
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.shared.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Answers `request` if it is a stateless `tasks/get`, `tasks/update` or
    /// `tasks/cancel` (`false`: another method, or a handshake session's request). The endpoint has checked already that this server and
    /// the client declared the extension (-32601 and -32021 otherwise). An unknown or
    /// expired `taskId` is -32602.
    /// Its answers go through `later` as the toolkit's others do (see `work::answer`).
    pub(crate) fn serve(&self, request: &mut IncomingRequest<'_>, now: Instant, later: &mut dyn Later) -> bool {
        // A handshake session's `tasks/*` (2025-11-25) are another protocol, with other
        // shapes: not this store's (and it never makes a task for such a session).
        if request.modern().is_none() {
            return false;
        }
        let decoded = match TaskRequest::decode(request.method.name(), request.params) {
            None => return false,
            Some(Ok(decoded)) => decoded,
            Some(Err(_)) => {
                let message = match request.method.name() {
                    "tasks/update" => "Invalid params: tasks/update needs a taskId and an inputResponses object",
                    _ => "Invalid params: taskId must be a string",
                };
                error(request, later, ErrorCode::INVALID_PARAMS, message);
                return true;
            }
        };
        let id = decoded.task_id();
        self.expire(now);
        let mut inner = self.lock();
        inner.stamp(now);
        let (ttl, poll, epoch) = (inner.ttl, inner.poll_interval, inner.epoch_ms);
        let Some(entry) = inner.tasks.iter_mut().find(|t| id == t.id.as_str()) else {
            drop(inner);
            error(request, later, ErrorCode::INVALID_PARAMS, TASK_NOT_FOUND);
            return true;
        };
        match decoded {
            TaskRequest::Get(_) => {
                let detailed = crate::wire::to_vec(&Detailed { entry, ttl, poll, epoch, handle: false });
                drop(inner);
                match detailed {
                    Ok(json) => answer(request, later, &RawJson::from_validated(&json)),
                    Err(_) => {
                        error(request, later, ErrorCode::INTERNAL_ERROR, "Internal error: the task did not serialize")
                    }
                }
            }
            TaskRequest::Update(update) => {
                let Some(responses) = Some(update.input_responses).filter(RawJson::is_object) else {
                    drop(inner);
                    error(
                        request,
                        later,
                        ErrorCode::INVALID_PARAMS,
                        "Invalid params: inputResponses must be an object",
                    );
                    return true;
                };
                // Keys not outstanding (never issued, answered, or of an ended task) are
                // ignored, as the extension says. An outstanding one answered with the
                // wrong shape (an elicitation answered without an `action`, say) is a
                // protocol error, as in a multi round-trip retry: nothing is taken.
                let outstanding = entry.questions.iter().filter(|q| q.answer.is_none());
                let wrong = outstanding
                    .filter(|q| responses.get(&q.key).is_some())
                    .any(|q| InputAnswers::check(Some(responses), &[(q.key.as_str(), q.kind)]).is_err());
                if wrong {
                    drop(inner);
                    error(
                        request,
                        later,
                        ErrorCode::INVALID_PARAMS,
                        "Invalid params: an inputResponses answer does not answer its request",
                    );
                    return true;
                }
                let mut answered = false;
                for (key, value) in responses.members() {
                    if let Some(q) = entry.questions.iter_mut().find(|q| q.answer.is_none() && key == q.key.as_str()) {
                        q.answer = Some(value.as_bytes().to_vec());
                        answered = true;
                    }
                }
                if answered {
                    entry.updated = Some(now);
                    if entry.status == TaskStatus::InputRequired && entry.questions.iter().all(|q| q.answer.is_some()) {
                        entry.status = TaskStatus::Working;
                    }
                }
                drop(inner);
                self.shared.changed.notify_all();
                answer(request, later, &crate::mcp::EmptyResult::EMPTY);
            }
            TaskRequest::Cancel(_) => {
                // Idempotent: a task that ended already is acknowledged as it is.
                let mut cancel = None;
                if !entry.status.is_terminal() {
                    entry.status = TaskStatus::Cancelled;
                    entry.updated = Some(now);
                    entry.questions.clear();
                    cancel = entry.cancel.take();
                }
                drop(inner);
                // Outside the lock (see `expire`).
                if let Some(cancel) = cancel {
                    cancel();
                }
                self.shared.changed.notify_all();
                answer(request, later, &crate::mcp::EmptyResult::EMPTY);
            }
        }
        true
    }

    /// Makes a task in `working` for a request whose client declared `declared`: its id,
    /// and the `CreateTaskResult` to answer with (JSON text).
    pub(crate) fn create(&self, now: Instant, declared: CapabilitySet) -> Result<(String, Vec<u8>), StoreFull> {
        self.expire(now);
        let mut inner = self.lock();
        if inner.tasks.len() >= inner.capacity {
            // Full: a finished task (kept only for its TTL, so the client may still read
            // its outcome) gives way to a new one, the oldest first; only a store full of
            // unfinished tasks refuses.
            let finished = inner.tasks.iter().position(|t| t.status.is_terminal()).ok_or(StoreFull)?;
            let _ = inner.tasks.remove(finished);
        }
        inner.serial += 1;
        let id = {
            use std::hash::BuildHasher;
            let a = inner.ids.hash_one((inner.serial, 1u8));
            let b = inner.ids.hash_one((inner.serial, 2u8));
            format!("{a:016x}{b:016x}")
        };
        let entry = Entry {
            id: id.clone(),
            status: TaskStatus::Working,
            created: now,
            updated: Some(now),
            outcome: None,
            questions: Vec::new(),
            next_key: 0,
            declared,
            cancel: None,
        };
        let (ttl, poll, epoch) = (inner.ttl, inner.poll_interval, inner.epoch_ms);
        let handle =
            crate::wire::to_vec(&Detailed { entry: &entry, ttl, poll, epoch, handle: true }).map_err(|_| StoreFull)?;
        inner.tasks.push_back(entry);
        Ok((id, handle))
    }

    /// Sets how the job of task `id` is cancelled. The task may have ended between its
    /// creation and this (a `tasks/cancel`, its TTL): then `cancel` is called at once
    /// (with the store unlocked), since nothing would call it later.
    pub(crate) fn on_cancel(&self, id: &str, cancel: Box<dyn Fn() + Send>) {
        let mut inner = self.lock();
        match inner.tasks.iter_mut().find(|t| t.id == id) {
            Some(entry) if !entry.status.is_terminal() => entry.cancel = Some(cancel),
            _ => {
                drop(inner);
                cancel();
            }
        }
    }

    /// The job of task `id` ended: with its result (JSON text), or `None` if it failed
    /// (panicked, or its result did not serialize). A task that ended already (cancelled)
    /// or is gone keeps its state.
    pub(crate) fn finish(&self, id: &str, result: Option<Vec<u8>>) {
        let mut inner = self.lock();
        if let Some(entry) = inner.tasks.iter_mut().find(|t| t.id == id)
            && !entry.status.is_terminal()
        {
            let (status, outcome) = match result {
                Some(json) => (TaskStatus::Completed, Outcome::Result(json)),
                None => (
                    TaskStatus::Failed,
                    Outcome::Error(br#"{"code":-32603,"message":"Internal error: the tool failed"}"#.to_vec()),
                ),
            };
            entry.status = status;
            entry.outcome = Some(outcome);
            entry.questions.clear();
            entry.updated = None;
            entry.cancel = None;
        }
        drop(inner);
        self.shared.changed.notify_all();
    }

    /// The job of task `id` asks `questions` (each the input kind and its params as JSON
    /// text) at once: the task is `input_required` with them until `tasks/update` answers
    /// them all, and this returns their answers in order. A question the client's
    /// declared capabilities do not allow, or that is no such request, is refused
    /// without being asked; the task ending (cancelled, expired) or `cancelled()` makes
    /// the rest `Err(ClientError::Cancelled)`.
    pub(crate) fn ask(
        &self,
        id: &str,
        questions: &[(Input, Vec<u8>)],
        cancelled: &dyn Fn() -> bool,
    ) -> Vec<Result<Answer, ClientError>> {
        let mut out: Vec<Option<Result<Answer, ClientError>>> = questions.iter().map(|_| None).collect();
        let mut keys: Vec<Option<String>> = questions.iter().map(|_| None).collect();
        let mut inner = self.lock();
        let Some(entry) = inner.tasks.iter_mut().find(|t| t.id == id).filter(|t| !t.status.is_terminal()) else {
            return questions.iter().map(|_| Err(ClientError::Cancelled)).collect();
        };
        for (i, (input, params)) in questions.iter().enumerate() {
            let request =
                format!("{{\"method\":\"{}\",\"params\":{}}}", input.method(), String::from_utf8_lossy(params));
            let checked = match RawJson::parse(request.as_bytes()) {
                Err(_) => Err(ClientError::Cancelled),
                Ok(raw) => match raw.decode::<InputRequest<'_>>() {
                    Err(e) => Err(ClientError::Decode(e)),
                    Ok(asked) => match asked.needs() {
                        Some(needs) if !entry.declared.contains(needs) => {
                            Err(ClientError::Send(crate::session::SendError::CapabilityNotDeclared(needs)))
                        }
                        _ => Ok(()),
                    },
                },
            };
            if let Err(e) = checked {
                out[i] = Some(Err(e));
                continue;
            }
            let key = format!("q{}", entry.next_key);
            entry.next_key += 1;
            let kind = match input {
                Input::Sampling => InputKind::Sampling,
                Input::Elicitation => InputKind::Elicitation,
                Input::Roots => InputKind::Roots,
            };
            entry.questions.push(Question { key: key.clone(), request: request.into_bytes(), kind, answer: None });
            keys[i] = Some(key);
        }
        if keys.iter().any(Option::is_some) {
            entry.status = TaskStatus::InputRequired;
            entry.updated = None;
        }
        loop {
            let live = inner.tasks.iter_mut().find(|t| t.id == id).filter(|t| !t.status.is_terminal());
            let Some(entry) = live.filter(|_| !cancelled()) else {
                // Ended (cancelled, expired) or the job cancelled: the rest unanswered.
                for (slot, key) in out.iter_mut().zip(&keys) {
                    if key.is_some() && slot.is_none() {
                        *slot = Some(Err(ClientError::Cancelled));
                    }
                }
                break;
            };
            let all = keys.iter().flatten().all(|k| entry.questions.iter().any(|q| &q.key == k && q.answer.is_some()));
            if all {
                for (slot, key) in out.iter_mut().zip(&keys) {
                    if let Some(key) = key
                        && let Some(at) = entry.questions.iter().position(|q| &q.key == key)
                    {
                        let q = entry.questions.remove(at);
                        let answer = q.answer.unwrap_or_default();
                        *slot = Some(Ok(Answer::new(RawJson::from_validated(&answer))));
                    }
                }
                if entry.questions.is_empty() && entry.status == TaskStatus::InputRequired {
                    entry.status = TaskStatus::Working;
                    entry.updated = None;
                }
                break;
            }
            inner = self.shared.changed.wait(inner).unwrap_or_else(PoisonError::into_inner);
        }
        out.into_iter().map(|r| r.unwrap_or(Err(ClientError::Cancelled))).collect()
    }
}

impl Inner {
    /// Drops the tasks whose TTL ran out: whether it dropped any (a job waiting for
    /// answers must then be woken: its task is gone), and how to cancel their jobs (for
    /// the caller to call once the store is unlocked).
    #[must_use]
    fn expire(&mut self, now: Instant) -> (bool, Vec<Box<dyn Fn() + Send>>) {
        let (ttl, before) = (self.ttl, self.tasks.len());
        let mut cancels = Vec::new();
        self.tasks.retain_mut(|t| {
            let live = t.expires(ttl) > now;
            if !live && let Some(cancel) = t.cancel.take() {
                cancels.push(cancel);
            }
            live
        });
        (self.tasks.len() != before, cancels)
    }

    /// Stamps what jobs changed since the loop last looked.
    fn stamp(&mut self, now: Instant) {
        for t in &mut self.tasks {
            t.updated.get_or_insert(now);
        }
    }
}

/// A task as `tasks/get` shows it (a `DetailedTask`: what its status brings inlined), or
/// as the `CreateTaskResult` of its creation (`handle`: `resultType: "task"`, nothing
/// inlined).
struct Detailed<'x> {
    entry: &'x Entry,
    ttl: Duration,
    poll: Duration,
    epoch: u64,
    handle: bool,
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

impl Serialize for Detailed<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let e = self.entry;
        let mut map = s.serialize_map(None)?;
        if self.handle {
            map.serialize_entry("resultType", "task")?;
        }
        map.serialize_entry("taskId", &e.id)?;
        map.serialize_entry("status", &e.status)?;
        let created = iso8601(self.epoch.saturating_add(e.created.as_millis()));
        let updated = e.updated.unwrap_or(e.created);
        let updated = iso8601(self.epoch.saturating_add(updated.as_millis()));
        map.serialize_entry("createdAt", created.as_str())?;
        map.serialize_entry("lastUpdatedAt", updated.as_str())?;
        map.serialize_entry("ttlMs", &millis(self.ttl))?;
        map.serialize_entry("pollIntervalMs", &millis(self.poll))?;
        if self.handle {
            return map.end();
        }
        match (&e.status, &e.outcome) {
            (TaskStatus::InputRequired, _) => map.serialize_entry("inputRequests", &Pending(&e.questions))?,
            (TaskStatus::Completed, Some(Outcome::Result(json))) => {
                map.serialize_entry("result", &RawJson::from_validated(json))?;
            }
            (TaskStatus::Failed, Some(Outcome::Error(json))) => {
                map.serialize_entry("error", &RawJson::from_validated(json))?;
            }
            _ => {}
        }
        map.end()
    }
}

/// The questions not answered yet, by key.
struct Pending<'x>(&'x [Question]);

impl Serialize for Pending<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        for q in self.0.iter().filter(|q| q.answer.is_none()) {
            map.serialize_entry(&q.key, &RawJson::from_validated(&q.request))?;
        }
        map.end()
    }
}

/// `YYYY-MM-DDTHH:MM:SS.mmmZ` for Unix time `ms`.
fn iso8601(ms: u64) -> heapless::String<24> {
    use core::fmt::Write;
    let (secs, milli) = (ms / 1000, ms % 1000);
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    let mut out = heapless::String::new();
    let _ = write!(
        out,
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{milli:03}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    );
    out
}

impl<J> Call<'_, '_, J> {
    /// Answers with `result` written as it is (an `InputRequiredResult` of a round that
    /// gathers input before a task is made, say); the endpoint checks it as any
    /// stateless result.
    pub fn respond_result<R: Serialize + ?Sized>(self, result: &R) {
        super::work::answer(self.request, self.runtime, result);
    }

    /// Answers from the blocking function `work` as a task of `store` when the client
    /// declared the tasks extension for this call (the call is answered at once with the
    /// task handle; see the module docs), and as [`spawn_blocking`](Self::spawn_blocking)
    /// otherwise, or -32021 for a `Required` tool.
    pub fn spawn_task_blocking<R, F>(self, store: &TaskStore, support: TaskSupport, work: F)
    where
        R: ToolOutput,
        F: FnOnce(super::Job) -> R + Send + 'static,
    {
        let modern = self.request.modern();
        let declared = modern.is_some_and(|m| m.tasks_extension);
        if !declared {
            if support == TaskSupport::Required {
                return refuse_required(self.request, self.runtime);
            }
            return self.spawn_blocking(work);
        }
        let caps = modern.map_or(CapabilitySet::EMPTY, |m| m.client_capabilities);
        let now = self.runtime.tasks().now;
        match store.create(now, caps) {
            Ok((id, handle)) => {
                let spawner = self.runtime.tasks().spawner.clone();
                super::tasks::spawn_task_blocking(spawner, store.clone(), id, work);
                super::work::answer(self.request, self.runtime, &RawJson::from_validated(&handle));
            }
            Err(StoreFull) if support == TaskSupport::Optional => self.spawn_blocking(work),
            Err(StoreFull) => refuse_full(self.request, self.runtime),
        }
    }
}

impl<J> Call<'_, '_, J> {
    /// [`spawn_task_blocking`](Self::spawn_task_blocking) for a future run on the
    /// server's executor (by default a thread that blocks on it): as a task of `store` for
    /// a client that declared the extension, as [`spawn`](Self::spawn) otherwise, or
    /// -32021 for a `Required` tool. A cancelled task's future is dropped, unfinished.
    pub fn spawn_task<R, Fut, F>(self, store: &TaskStore, support: TaskSupport, work: F)
    where
        R: ToolOutput + 'static,
        Fut: core::future::Future<Output = R> + Send + 'static,
        F: FnOnce(super::Job) -> Fut,
    {
        let modern = self.request.modern();
        if !modern.is_some_and(|m| m.tasks_extension) {
            if support == TaskSupport::Required {
                return refuse_required(self.request, self.runtime);
            }
            return self.spawn(work);
        }
        let caps = modern.map_or(CapabilitySet::EMPTY, |m| m.client_capabilities);
        let now = self.runtime.tasks().now;
        match store.create(now, caps) {
            Ok((id, handle)) => {
                let executor = self.runtime.tasks().executor.clone();
                super::tasks::spawn_task(executor, store.clone(), id, work);
                super::work::answer(self.request, self.runtime, &RawJson::from_validated(&handle));
            }
            Err(StoreFull) if support == TaskSupport::Optional => self.spawn(work),
            Err(StoreFull) => refuse_full(self.request, self.runtime),
        }
    }
}

/// -32021: the tool runs only as a task, and the client did not declare the extension.
fn refuse_required(request: &mut IncomingRequest<'_>, later: &mut dyn Later) {
    super::work::answer_error(
        request,
        later,
        ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY,
        "Missing required client capability: this tool runs only as a task (io.modelcontextprotocol/tasks)",
        Some(TASKS_REQUIRED),
    );
}

/// -32603: the store is full of live tasks and the tool cannot run otherwise.
fn refuse_full(request: &mut IncomingRequest<'_>, later: &mut dyn Later) {
    error(request, later, ErrorCode::INTERNAL_ERROR, "Internal error: too many tasks in progress; try again later");
}

/// An error answer without data, the toolkit's way (see `work::answer_error`).
fn error(request: &mut IncomingRequest<'_>, later: &mut dyn Later, code: ErrorCode, message: &str) {
    super::work::answer_error(request, later, code, message, None);
}

/// Whether a tool result written as JSON text is a task handle (for tests and loops
/// that look at answers).
pub fn is_task_handle(result: RawJson<'_>) -> bool {
    result.get("resultType").and_then(|t| t.as_str()).is_some_and(|t| t == "task")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_iso_8601() {
        assert_eq!(iso8601(0).as_str(), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso8601(1_764_547_200_123).as_str(), "2025-12-01T00:00:00.123Z");
        assert_eq!(iso8601(951_782_400_000).as_str(), "2000-02-29T00:00:00.000Z");
    }

    #[test]
    fn a_full_store_refuses_until_a_task_expires() {
        let store = TaskStore::new(2).ttl(Duration::from_secs(10));
        let t0 = Instant::ZERO;
        assert!(store.create(t0, CapabilitySet::EMPTY).is_ok());
        assert!(store.create(t0, CapabilitySet::EMPTY).is_ok());
        assert_eq!(store.create(t0 + Duration::from_secs(9), CapabilitySet::EMPTY), Err(StoreFull));
        assert!(store.create(t0 + Duration::from_secs(10), CapabilitySet::EMPTY).is_ok());
        assert_eq!(store.len(), 1);
    }

    #[test]
    fn a_full_store_evicts_its_oldest_finished_task() {
        let store = TaskStore::new(3);
        let t0 = Instant::ZERO;
        let (a, _) = store.create(t0, CapabilitySet::EMPTY).unwrap();
        let (b, _) = store.create(t0, CapabilitySet::EMPTY).unwrap();
        let (c, _) = store.create(t0, CapabilitySet::EMPTY).unwrap();
        // All unfinished: refused.
        assert_eq!(store.create(t0, CapabilitySet::EMPTY), Err(StoreFull));
        store.finish(&c, Some(b"{}".to_vec()));
        store.finish(&b, None);
        let (d, _) = store.create(t0, CapabilitySet::EMPTY).unwrap();
        // The oldest finished one (b) went; the unfinished and the newer finished stay.
        assert_eq!(store.status(&b), None);
        assert_eq!(store.status(&a), Some(TaskStatus::Working));
        assert_eq!(store.status(&c), Some(TaskStatus::Completed));
        assert_eq!(store.status(&d), Some(TaskStatus::Working));
        assert!(store.create(t0, CapabilitySet::EMPTY).is_ok());
        assert_eq!(store.status(&c), None);
        assert_eq!(store.create(t0, CapabilitySet::EMPTY), Err(StoreFull));
    }

    /// A cancellation that comes back to the store (as an executor polling the woken job
    /// at once does) finds it unlocked.
    #[test]
    fn jobs_are_cancelled_with_the_store_unlocked() {
        use std::sync::atomic::{AtomicU8, Ordering};
        let store = TaskStore::new(2).ttl(Duration::from_secs(1));
        let seen = Arc::new(AtomicU8::new(0));
        let (id, _) = store.create(Instant::ZERO, CapabilitySet::EMPTY).unwrap();
        let (again, flag) = (store.clone(), Arc::clone(&seen));
        store.on_cancel(
            &id,
            Box::new(move || {
                let unlocked = again.shared.inner.try_lock().is_ok();
                flag.store(if unlocked { 1 } else { 2 }, Ordering::SeqCst);
            }),
        );
        store.expire(Instant::ZERO + Duration::from_secs(1));
        assert_eq!(seen.load(Ordering::SeqCst), 1, "called, with the store unlocked");
    }

    /// A task that ended before its job's cancellation was set (a `tasks/cancel` or its
    /// TTL between `create` and `on_cancel`) has it called at once.
    #[test]
    fn a_cancellation_set_after_the_task_ended_is_called_at_once() {
        use std::sync::atomic::{AtomicBool, Ordering};
        let store = TaskStore::new(2).ttl(Duration::from_secs(1));
        let (gone, _) = store.create(Instant::ZERO, CapabilitySet::EMPTY).unwrap();
        store.expire(Instant::ZERO + Duration::from_secs(1));
        let called = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&called);
        store.on_cancel(&gone, Box::new(move || flag.store(true, Ordering::SeqCst)));
        assert!(called.load(Ordering::SeqCst), "the task expired first");

        let (ended, _) = store.create(Instant::ZERO + Duration::from_secs(1), CapabilitySet::EMPTY).unwrap();
        store.lock().tasks.iter_mut().find(|t| t.id == ended).unwrap().status = TaskStatus::Cancelled;
        let called = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&called);
        store.on_cancel(&ended, Box::new(move || flag.store(true, Ordering::SeqCst)));
        assert!(called.load(Ordering::SeqCst), "the task was cancelled first");

        let (live, _) = store.create(Instant::ZERO + Duration::from_secs(1), CapabilitySet::EMPTY).unwrap();
        let called = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&called);
        store.on_cancel(&live, Box::new(move || flag.store(true, Ordering::SeqCst)));
        assert!(!called.load(Ordering::SeqCst), "a live task's job is cancelled later");
    }

    #[test]
    fn the_handle_is_flat_with_integer_durations() {
        let store = TaskStore::new(1).wall_clock_at_zero(0).poll_interval(Duration::from_millis(250));
        let (id, handle) = store.create(Instant::ZERO, CapabilitySet::EMPTY).unwrap();
        let text = String::from_utf8(handle).unwrap();
        assert_eq!(
            text,
            format!(
                r#"{{"resultType":"task","taskId":"{id}","status":"working","createdAt":"1970-01-01T00:00:00.000Z","lastUpdatedAt":"1970-01-01T00:00:00.000Z","ttlMs":300000,"pollIntervalMs":250}}"#
            )
        );
        assert_eq!(id.len(), 32);
    }
}
