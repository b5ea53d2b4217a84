//! Handlers that run off the loop (`std`): blocking ones on threads, async ones on any
//! executor, each with a [`Job`] for progress and cancellation.
//!
//! A job and the loop share one small record: the latest progress not yet sent, the
//! result once there is one, and the cancellation flag. Progress is coalesced (a job
//! that reports faster than the loop sends keeps only its latest value waiting), so
//! what a job can make the loop hold is bounded whatever it does; the number of jobs is
//! bounded by the endpoint's inbound slots, since each holds its request. After
//! changing the record the job calls the loop's waker (set with
//! [`ServerBuilder::waker`](super::ServerBuilder::waker); the stdio binding wakes its
//! loop), and [`Server::poll`](super::Server::poll) sends what it finds. A handler that
//! panics has its request abandoned (-32603), never left unanswered.

use std::boxed::Box;
use std::future::Future;
use std::pin::Pin;
use std::string::String;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll, Wake, Waker};
use std::time::Duration;
use std::vec::Vec;

use super::input::Input;
use super::outlet::{Outlet, Refused, Taken};
use super::output::{AsResult, Cancelled, ToolOutput};
use super::owned::to_json;
use super::rounds::{Asked, Round};
use super::task_store::TaskStore;
use crate::mcp::{LogData, LoggingLevel, LoggingMessageParams};
use crate::session::PendingRequest;
use crate::session::RequestOptions;
use crate::session::StateSealer;
use crate::time::Instant;
use crate::toolkit::client::{Answer, ClientError};
use crate::wire::RawJson;
use crate::wire::RequestId;

/// The log messages of a job waiting to be sent before its `log` waits for room.
const LOG_QUEUE: usize = 32;

/// Runs a blocking job (the default: a thread of its own).
pub(crate) type Spawner = Arc<dyn Fn(Box<dyn FnOnce() + Send>) + Send + Sync>;
/// Runs a future to completion (the default: a thread that blocks on it).
pub(crate) type Executor = Arc<dyn Fn(Pin<Box<dyn Future<Output = ()> + Send>>) + Send + Sync>;
/// Wakes the loop.
pub(crate) type Wakeup = Arc<dyn Fn() + Send + Sync>;

/// How a job ended.
enum Done {
    /// The result, as JSON text.
    Result(Vec<u8>),
    /// The handler panicked, or its result did not serialize.
    Failed,
}

/// A question a job asks the client, from asking to its answer.
enum Asking {
    /// To send: the method and its params as JSON text.
    Ask(Input, Vec<u8>),
    /// Sent; the loop routes the response here.
    Sent,
    /// Answered (or failed): for the job to take.
    Answered(Result<Answer, ClientError>),
}

#[derive(Default)]
struct State {
    progress: Option<(f64, Option<f64>, Option<String>)>,
    done: Option<Done>,
    /// The question in progress (a job asks one at a time: it waits for the answer).
    asking: Option<Asking>,
    /// Log messages not sent yet (at most [`LOG_QUEUE`]: a job logging more waits).
    logs: std::collections::VecDeque<(LoggingLevel, String)>,
    /// The task of an async job, woken on cancellation.
    waiting: Option<Waker>,
    /// A stateless call's round ended (`done` holds its `input_required` result): what
    /// the job makes after is dropped.
    round_over: bool,
    /// [`Job::close_stream`] asked for the call's response stream to be closed.
    close_stream: bool,
}

struct Shared {
    cancelled: AtomicBool,
    state: Mutex<State>,
    /// Signalled on cancellation, for [`Job::sleep`].
    cancel: Condvar,
    wake: Option<Wakeup>,
    /// The rounds of a stateless call (2026-07-28), whose questions are answered by
    /// `input_required` rounds; `None` in a handshake session.
    round: Option<Mutex<Round>>,
    /// The MCP task this job runs as (tasks extension; see `task_store.rs`): its
    /// questions and its outcome go to the store, not to a request.
    task: Option<(TaskStore, String)>,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn finish(&self, done: Done) {
        if let Some((store, id)) = &self.task {
            let result = match done {
                Done::Result(json) => Some(json),
                Done::Failed => None,
            };
            store.finish(id, result);
            return;
        }
        let mut state = self.lock();
        if !state.round_over {
            state.done = Some(done);
        }
        drop(state);
        self.wake();
    }

    fn wake(&self) {
        if let Some(wake) = &self.wake {
            wake();
        }
    }

    fn cancel(&self) {
        self.cancelled.store(true, Ordering::Release);
        let waiting = self.lock().waiting.take();
        self.cancel.notify_all();
        if let Some(w) = waiting {
            w.wake();
        }
    }
}

/// What a handler running off the loop has of its call: progress reporting and the
/// cancellation signal.
#[derive(Clone)]
pub struct Job {
    shared: Arc<Shared>,
    progress: bool,
    /// The session's logging level when the call came (`logging/setLevel`).
    log_level: Option<LoggingLevel>,
}

impl core::fmt::Debug for Job {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Job").field("cancelled", &self.is_cancelled()).field("progress", &self.progress).finish()
    }
}

impl Job {
    /// Whether the client cancelled the call (or it expired, or the session ended).
    pub fn is_cancelled(&self) -> bool {
        self.shared.cancelled.load(Ordering::Acquire)
    }

    /// `Err(Cancelled)` once the call is cancelled: `job.check()?` in a loop.
    pub fn check(&self) -> Result<(), Cancelled> {
        if self.is_cancelled() { Err(Cancelled) } else { Ok(()) }
    }

    /// Sleeps for `duration`, or until the call is cancelled (then `Err(Cancelled)`).
    pub fn sleep(&self, duration: Duration) -> Result<(), Cancelled> {
        let until = std::time::Instant::now() + duration;
        let mut state = self.shared.lock();
        loop {
            self.check()?;
            let left = until.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return Ok(());
            }
            state = self.shared.cancel.wait_timeout(state, left).unwrap_or_else(PoisonError::into_inner).0;
        }
    }

    /// Completes when the call is cancelled (for async handlers: race it against the
    /// work, or simply let the toolkit drop the work, which it does on cancellation).
    pub fn cancelled(&self) -> impl Future<Output = ()> + Send + 'static {
        let shared = Arc::clone(&self.shared);
        std::future::poll_fn(move |cx| {
            if shared.cancelled.load(Ordering::Acquire) {
                return Poll::Ready(());
            }
            shared.lock().waiting = Some(cx.waker().clone());
            if shared.cancelled.load(Ordering::Acquire) { Poll::Ready(()) } else { Poll::Pending }
        })
    }

    /// Asks the client for input and waits for its answer (or for the call to be
    /// cancelled: `Err(ClientError::Cancelled)`). The toolkit chooses how, by the
    /// call's era (see [`Input`]): in a handshake session (before 2026-07-28) a request
    /// of the server's own, sent on the call's channel (over HTTP, its response stream);
    /// for a stateless call (2026-07-28) an `input_required` round: a question answered
    /// in the call (on a retry) returns its answer at once, and the first one not
    /// answered ends the call with `input_required` and returns
    /// `Err(ClientError::Cancelled)`, the job being stopped and whatever it returns
    /// dropped. The retry runs the handler again from the start, so what it does before
    /// a question may be done more than once. `params` are the request's params
    /// (`CreateMessageParams` for sampling, `ElicitRequestParams` for elicitation,
    /// nothing for roots).
    pub fn ask<P: serde::Serialize + ?Sized>(&self, input: Input, params: &P) -> Result<Answer, ClientError> {
        use crate::wire::{EncodeError, SerializeError};
        let unserializable =
            ClientError::Send(crate::session::SendError::Encode(EncodeError::Serialize(SerializeError::Custom)));
        let json = to_json(params).ok_or(unserializable)?;
        if let Some((store, id)) = &self.shared.task {
            let shared = &self.shared;
            let cancelled = || shared.cancelled.load(Ordering::Acquire);
            return store.ask(id, &[(input, json)], &cancelled).pop().unwrap_or(Err(ClientError::Cancelled));
        }
        if let Some(round) = &self.shared.round {
            return self.ask_in_round(round, input, &json);
        }
        let mut state = self.shared.lock();
        state.asking = Some(Asking::Ask(input, json));
        drop(state);
        self.shared.wake();
        let mut state = self.shared.lock();
        loop {
            if self.is_cancelled() {
                state.asking = None;
                return Err(ClientError::Cancelled);
            }
            if let Some(Asking::Answered(_)) = state.asking
                && let Some(Asking::Answered(answer)) = state.asking.take()
            {
                return answer;
            }
            state = self.shared.cancel.wait(state).unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Asks several questions at once and waits for all their answers, in order. A job
    /// running as an MCP task (tasks extension) puts them all in the task's
    /// `inputRequests` together, so the client sees them at once and may answer them
    /// in one `tasks/update` or several; anywhere else they are asked one after another
    /// with [`ask`](Self::ask) (in a stateless call the first one not answered ends the
    /// round, and the rest are `Err(ClientError::Cancelled)`).
    pub fn ask_all<P: serde::Serialize>(&self, questions: &[(Input, P)]) -> Vec<Result<Answer, ClientError>> {
        if let Some((store, id)) = &self.shared.task {
            let mut asked = Vec::with_capacity(questions.len());
            let mut out: Vec<Option<Result<Answer, ClientError>>> = Vec::with_capacity(questions.len());
            for (input, params) in questions {
                match to_json(params) {
                    Some(json) => {
                        asked.push((*input, json));
                        out.push(None);
                    }
                    None => out.push(Some(Err(ClientError::Cancelled))),
                }
            }
            let shared = &self.shared;
            let cancelled = || shared.cancelled.load(Ordering::Acquire);
            let mut answers = store.ask(id, &asked, &cancelled).into_iter();
            return out
                .into_iter()
                .map(|o| o.unwrap_or_else(|| answers.next().unwrap_or(Err(ClientError::Cancelled))))
                .collect();
        }
        let mut out = Vec::with_capacity(questions.len());
        for (input, params) in questions {
            let answer = if self.is_cancelled() { Err(ClientError::Cancelled) } else { self.ask(*input, params) };
            out.push(answer);
        }
        out
    }

    /// [`ask`](Self::ask) for a stateless call.
    fn ask_in_round(&self, round: &Mutex<Round>, input: Input, params: &[u8]) -> Result<Answer, ClientError> {
        self.check().map_err(|_| ClientError::Cancelled)?;
        let asked = round.lock().unwrap_or_else(PoisonError::into_inner).ask(input, params);
        match asked {
            Asked::Answer(answer) => Ok(answer),
            Asked::Refused(e) => Err(e),
            Asked::EndRound(result) => {
                let mut state = self.shared.lock();
                if !state.round_over && state.done.is_none() {
                    state.done = Some(Done::Result(result));
                    state.round_over = true;
                    // Its progress would come after its answer.
                    state.progress = None;
                }
                drop(state);
                self.shared.cancel();
                self.shared.wake();
                Err(ClientError::Cancelled)
            }
        }
    }

    /// Asks the client's model for a completion (`sampling/createMessage`, see
    /// [`ask`](Self::ask)); the answer decodes as a `CreateMessageResult`.
    pub fn sample<P: serde::Serialize + ?Sized>(&self, params: &P) -> Result<Answer, ClientError> {
        self.ask(Input::Sampling, params)
    }

    /// Asks the user for input (`elicitation/create`, see [`ask`](Self::ask)); the answer
    /// decodes as an `ElicitResult`.
    pub fn elicit<P: serde::Serialize + ?Sized>(&self, params: &P) -> Result<Answer, ClientError> {
        self.ask(Input::Elicitation, params)
    }

    /// Asks the client for its roots (`roots/list`, see [`ask`](Self::ask)); the answer
    /// decodes as a `ListRootsResult`.
    pub fn roots(&self) -> Result<Answer, ClientError> {
        self.ask(Input::Roots, &crate::wire::RawJson::EMPTY_OBJECT)
    }

    /// Sends a log message about the call (`notifications/message`; over HTTP on the
    /// call's response stream) if `level` is at least the session's logging level (as
    /// `logging/setLevel` set it when the call came; everything without one). Waits
    /// while many are waiting to be sent; nothing once the call is cancelled.
    pub fn log(&self, level: LoggingLevel, message: &str) {
        // A task's job has no request to relate a message to (the extension supports
        // none on tasks).
        if self.shared.task.is_some() || self.log_level.is_some_and(|min| level < min) {
            return;
        }
        let mut state = self.shared.lock();
        while state.logs.len() >= LOG_QUEUE {
            if self.is_cancelled() {
                return;
            }
            state = self.shared.cancel.wait(state).unwrap_or_else(PoisonError::into_inner);
        }
        if self.is_cancelled() {
            return;
        }
        state.logs.push_back((level, String::from(message)));
        drop(state);
        self.shared.wake();
    }

    /// Over Streamable HTTP, closes the connection that carries the call's response
    /// stream once its priming event is out, keeping the stream: the client reconnects
    /// with `GET` and `Last-Event-ID` and gets the progress and the answer there
    /// (SEP-1699 polling, for 2025-11-25 clients). A long job frees the client's
    /// connection this way instead of holding it open. Nothing over stdio or a bare
    /// endpoint, where there is no stream to close.
    pub fn close_stream(&self) {
        if self.is_cancelled() {
            return;
        }
        self.shared.lock().close_stream = true;
        self.shared.wake();
    }

    /// Whether the client asked for progress.
    pub fn wants_progress(&self) -> bool {
        self.progress
    }

    /// Reports progress (values must increase; only the latest one waits to be sent, so
    /// report as often as is convenient). Ignored if the client did not ask for progress.
    pub fn progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) {
        if !self.progress || self.is_cancelled() {
            return;
        }
        self.shared.lock().progress = Some((progress, total, message.map(String::from)));
        self.shared.wake();
    }
}

/// The jobs running off the loop.
pub(crate) struct Tasks {
    running: Vec<(PendingRequest, Arc<Shared>)>,
    /// The questions sent for them, by the id of our request.
    asked: Vec<(RequestId, Arc<Shared>)>,
    /// Questions of jobs that were cancelled, to withdraw (`notifications/cancelled`)
    /// at the next poll: the client stops asking its user for an answer nobody waits for.
    withdraw: Vec<RequestId>,
    /// The session's logging level, for the jobs started from now on.
    pub(crate) log_level: Option<LoggingLevel>,
    /// `None` until set: nothing is allocated for a server without jobs off the loop.
    pub(crate) wake: Option<Wakeup>,
    pub(crate) spawner: Option<Spawner>,
    pub(crate) executor: Option<Executor>,
    /// Seals the `requestState` of stateless calls' rounds.
    pub(crate) sealer: StateSealer,
    /// The clock, as of the event being handled (the last poll for a [`Server`]'s own
    /// loop): what a round's state expires from.
    ///
    /// [`Server`]: super::Server
    pub(crate) now: Instant,
}

impl Tasks {
    pub(crate) fn new() -> Self {
        Tasks {
            running: Vec::new(),
            asked: Vec::new(),
            withdraw: Vec::new(),
            log_level: None,
            wake: None,
            spawner: None,
            executor: None,
            sealer: StateSealer::new([0; 16]),
            now: Instant::ZERO,
        }
    }

    /// The round of a stateless `tools/call` (`None` in a handshake session), its
    /// `requestState` checked: a refusal is the call's answer.
    pub(crate) fn round_of(
        &self,
        request: &crate::session::IncomingRequest<'_>,
        arguments: RawJson<'_>,
    ) -> Result<Option<Round>, super::rounds::Refusal> {
        Round::of(request, arguments, self.sealer, self.now)
    }

    /// Whether no job is running.
    #[cfg(any(feature = "stdio", feature = "http"))]
    pub(crate) fn is_empty(&self) -> bool {
        self.running.is_empty() && self.asked.is_empty() && self.withdraw.is_empty()
    }

    /// Whether `id` (of our request) is a job's question.
    pub(crate) fn asked(&self, id: &RequestId) -> bool {
        self.asked.iter().any(|(i, _)| i == id)
    }

    /// Routes the answer to a question of a job's (`id` our request's); `false` if `id`
    /// is not one of theirs.
    pub(crate) fn answered(&mut self, id: &RequestId, answer: Result<Answer, ClientError>) -> bool {
        let Some(at) = self.asked.iter().position(|(i, _)| i == id) else { return false };
        let (_, shared) = self.asked.swap_remove(at);
        let mut state = shared.lock();
        if matches!(state.asking, Some(Asking::Sent)) {
            state.asking = Some(Asking::Answered(answer));
        }
        drop(state);
        shared.cancel.notify_all();
        true
    }

    fn register(&mut self, request: PendingRequest, progress: bool, round: Option<Round>) -> Job {
        let shared = Arc::new(Shared {
            cancelled: AtomicBool::new(false),
            state: Mutex::new(State::default()),
            cancel: Condvar::new(),
            wake: self.wake.clone(),
            round: round.map(Mutex::new),
            task: None,
        });
        self.running.push((request, Arc::clone(&shared)));
        Job { shared, progress, log_level: self.log_level }
    }

    /// Runs `work` on the spawner (a thread of its own by default).
    pub(crate) fn spawn_blocking<R, F>(
        &mut self,
        request: PendingRequest,
        progress: bool,
        round: Option<Round>,
        work: F,
    ) where
        R: ToolOutput,
        F: FnOnce(Job) -> R + Send + 'static,
    {
        let job = self.register(request, progress, round);
        let shared = Arc::clone(&job.shared);
        let on_failure = Arc::clone(&job.shared);
        let run = Box::new(move || {
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(job)));
            let done = outcome.ok().and_then(|r| to_json(&AsResult(&r))).map_or(Done::Failed, Done::Result);
            shared.finish(done);
        });
        start_blocking(self.spawner.as_ref(), "mcp-tool", run, &on_failure);
    }

    /// Runs the future `work` makes on the executor (a thread of its own by default).
    /// The future is dropped, unfinished, when the call is cancelled.
    pub(crate) fn spawn<R, Fut, F>(&mut self, request: PendingRequest, progress: bool, round: Option<Round>, work: F)
    where
        R: ToolOutput + 'static,
        Fut: Future<Output = R> + Send + 'static,
        F: FnOnce(Job) -> Fut,
    {
        let job = self.register(request, progress, round);
        let shared = Arc::clone(&job.shared);
        let on_failure = Arc::clone(&job.shared);
        let guarded: Pin<Box<dyn Future<Output = ()> + Send>> =
            Box::pin(Guarded { work: Some(Box::pin(work(job))), shared });
        start_future(self.executor.as_ref(), "mcp-tool", guarded, &on_failure);
    }

    /// Sends what the jobs did: the latest progress, and results (in order, stopping when
    /// the transmit buffer is full).
    pub(crate) fn poll<O: Outlet>(&mut self, ep: &mut O) {
        for id in self.withdraw.drain(..) {
            ep.withdraw(&id);
        }
        let mut i = 0;
        while i < self.running.len() {
            let (request, shared) = &self.running[i];
            let mut state = shared.lock();
            if let Some(Asking::Ask(input, params)) = &state.asking {
                let options = RequestOptions::default().related_to(request);
                match ep.request(input.method(), &RawJson::from_validated(params), options) {
                    Ok(id) => {
                        state.asking = Some(Asking::Sent);
                        self.asked.push((id, Arc::clone(shared)));
                    }
                    Err(Refused::Later) => {}
                    Err(Refused::Never(e)) => {
                        state.asking = Some(Asking::Answered(Err(e)));
                        shared.cancel.notify_all();
                    }
                }
            }
            if core::mem::take(&mut state.close_stream) {
                ep.close_stream(request);
            }
            let logged = !state.logs.is_empty();
            while let Some((level, text)) = state.logs.front() {
                let data = LogData::Text(crate::wire::JsonStr::from_text(text));
                let params = LoggingMessageParams { level: *level, logger: None, data, meta: None };
                if ep.notify_related(request, "notifications/message", &params) == Taken::Full {
                    break;
                }
                state.logs.pop_front();
            }
            if logged {
                // Room in the queue for a job waiting in `log`.
                shared.cancel.notify_all();
            }
            if !state.logs.is_empty() {
                // What it logged goes before its progress and its answer.
                drop(state);
                i += 1;
                continue;
            }
            if let Some((progress, total, message)) = state.progress.take()
                && ep.progress(request, progress, total, message.as_deref()) == Taken::Full
            {
                state.progress = Some((progress, total, message));
            }
            let sent = match state.done.take() {
                None => false,
                Some(Done::Result(json)) => match ep.respond(request, &RawJson::from_validated(&json)) {
                    Taken::Full => {
                        state.done = Some(Done::Result(json));
                        return;
                    }
                    Taken::Yes => true,
                },
                Some(Done::Failed) => {
                    ep.abandon(request);
                    true
                }
            };
            drop(state);
            if sent {
                let _ = self.running.remove(i);
            } else {
                i += 1;
            }
        }
    }

    /// Cancels the job of `request`.
    pub(crate) fn end(&mut self, request: &PendingRequest) {
        self.running.retain(|(r, shared)| {
            if r == request {
                shared.cancel();
            }
            r != request
        });
        // Its question, if any, is answered by nobody now: withdrawn.
        let withdraw = &mut self.withdraw;
        self.asked.retain(|(id, shared)| {
            let over = shared.cancelled.load(Ordering::Acquire);
            if over {
                withdraw.push(id.clone());
            }
            !over
        });
    }

    /// Cancels every job.
    pub(crate) fn end_all(&mut self) {
        for (_, shared) in self.running.drain(..) {
            shared.cancel();
        }
        // The session is over: nothing to withdraw its questions from.
        self.asked.clear();
        self.withdraw.clear();
    }
}

/// The record and the [`Job`] of MCP task `id` of `store`, which `tasks/cancel` (or the
/// task's expiry) cancels: what both ways of running a task's work start from.
fn task_job(store: &TaskStore, id: String) -> (Arc<Shared>, Job) {
    let shared = Arc::new(Shared {
        cancelled: AtomicBool::new(false),
        state: Mutex::new(State::default()),
        cancel: Condvar::new(),
        wake: None,
        round: None,
        task: Some((store.clone(), id.clone())),
    });
    let for_cancel = Arc::clone(&shared);
    store.on_cancel(&id, Box::new(move || for_cancel.cancel()));
    let job = Job { shared: Arc::clone(&shared), progress: false, log_level: None };
    (shared, job)
}

/// Runs `work` as the job of MCP task `id` of `store` (on `spawner`, a thread of its own
/// by default): its questions and outcome go to the store, `tasks/cancel` cancels it.
pub(crate) fn spawn_task_blocking<R, F>(spawner: Option<Spawner>, store: TaskStore, id: String, work: F)
where
    R: ToolOutput,
    F: FnOnce(Job) -> R + Send + 'static,
{
    let (shared, job) = task_job(&store, id);
    let on_failure = Arc::clone(&shared);
    let run = Box::new(move || {
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(job)));
        let done = outcome.ok().and_then(|r| to_json(&AsResult(&r))).map_or(Done::Failed, Done::Result);
        shared.finish(done);
    });
    start_blocking(spawner.as_ref(), "mcp-task", run, &on_failure);
}

/// Runs the future `work` makes as the job of MCP task `id` of `store`, on `executor` (a
/// thread that blocks on it by default); `tasks/cancel` cancels it (the future is
/// dropped, unfinished).
pub(crate) fn spawn_task<R, Fut, F>(executor: Option<Executor>, store: TaskStore, id: String, work: F)
where
    R: ToolOutput + 'static,
    Fut: Future<Output = R> + Send + 'static,
    F: FnOnce(Job) -> Fut,
{
    let (shared, job) = task_job(&store, id);
    let on_failure = Arc::clone(&shared);
    let guarded: Pin<Box<dyn Future<Output = ()> + Send>> =
        Box::pin(Guarded { work: Some(Box::pin(work(job))), shared });
    start_future(executor.as_ref(), "mcp-task", guarded, &on_failure);
}

/// Starts a job's closure on `spawner`, or on a thread of its own named `name` (the job
/// fails if no thread can be had). Not generic: every tool's closure comes here as the
/// same boxed type, so std's thread start is built once, not once per tool (about 1.5 KB
/// of code each).
fn start_blocking(spawner: Option<&Spawner>, name: &str, run: Box<dyn FnOnce() + Send>, on_failure: &Shared) {
    match spawner {
        Some(spawn) => spawn(run),
        None => {
            if std::thread::Builder::new().name(name.into()).spawn(run).is_err() {
                on_failure.finish(Done::Failed);
            }
        }
    }
}

/// [`start_blocking`] for a job's future: on `executor`, or blocked on by a thread of its
/// own named `name`.
fn start_future(
    executor: Option<&Executor>,
    name: &str,
    guarded: Pin<Box<dyn Future<Output = ()> + Send>>,
    on_failure: &Shared,
) {
    match executor {
        Some(run) => run(guarded),
        None => {
            if std::thread::Builder::new().name(name.into()).spawn(move || block_on(guarded)).is_err() {
                on_failure.finish(Done::Failed);
            }
        }
    }
}

/// An async job: stops (dropping the work) once cancelled; stores the result when done.
struct Guarded<R> {
    work: Option<Pin<Box<dyn Future<Output = R> + Send>>>,
    shared: Arc<Shared>,
}

impl<R: ToolOutput> Future for Guarded<R> {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.shared.cancelled.load(Ordering::Acquire) {
            self.work = None;
            return Poll::Ready(());
        }
        self.shared.lock().waiting = Some(cx.waker().clone());
        let Some(work) = self.work.as_mut() else { return Poll::Ready(()) };
        let polled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work.as_mut().poll(cx)));
        let done = match polled {
            Ok(Poll::Pending) => return Poll::Pending,
            Ok(Poll::Ready(r)) => to_json(&AsResult(&r)).map_or(Done::Failed, Done::Result),
            Err(_) => Done::Failed,
        };
        self.work = None;
        self.shared.finish(done);
        Poll::Ready(())
    }
}

/// Runs a future on this thread, parking between polls.
fn block_on(mut future: Pin<Box<dyn Future<Output = ()> + Send>>) {
    struct Unpark(std::thread::Thread);
    impl Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
    let mut cx = Context::from_waker(&waker);
    while future.as_mut().poll(&mut cx).is_pending() {
        std::thread::park();
    }
}

/// What an event about a request of ours says to the job that asked it, if it ends it.
pub(crate) fn answer_of(event: &crate::session::Event<'_>) -> Option<Result<Answer, ClientError>> {
    use crate::session::Event;
    Some(match event {
        Event::Response { result, .. } => Ok(Answer::new(*result)),
        Event::Error { error, .. } => Err(ClientError::Error {
            code: error.code,
            message: error.message.chars().collect(),
            data: error.data.map(Answer::new),
        }),
        Event::TimedOut { .. } | Event::ResponseTooLong { .. } => Err(ClientError::TimedOut),
        Event::Failed { reason, .. } => Err(ClientError::Closed(Some(*reason))),
        _ => return None,
    })
}
