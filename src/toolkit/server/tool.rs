//! Tools: a handler per tool, typed by its arguments, answering through a [`Call`].

use core::marker::PhantomData;

use super::args_error::ArgumentsError;
use super::output::{AsResult, ToolOutput};
use super::step::NoJob;
use super::work::{Runtime, answer, answer_knowing};
use crate::mcp::{Tool, ToolAnnotations};
use crate::session::{IncomingRequest, PendingRequest};
use crate::toolkit::schema::Arguments;
use crate::wire::{DecodeError, ErrorCode, JsonStr, RawJson};

/// One tool: how `tools/list` shows it and how a call is answered.
///
/// [`ToolFn`] (an inline handler) and [`StepTool`] (work polled by the main loop)
/// implement it for `fn` handlers, which can sit in a `static` table; with `alloc` the
/// [`ServerBuilder`](super::ServerBuilder) adds closures, blocking handlers on threads and
/// async handlers on any executor. `S` is the application's state, which table handlers
/// get as `&mut S`; `J` the type of the main loop's step jobs.
pub trait ToolHandler<S, J = NoJob> {
    /// The tool as `tools/list` shows it.
    fn tool(&self) -> Tool<'_>;
    /// The tool's name (what a call is matched by).
    fn name(&self) -> JsonStr<'_> {
        self.tool().name
    }
    /// Answers a call, now or later.
    fn call(&self, state: &mut S, call: Call<'_, '_, J>);
    /// Whether the tool is offered to a request (`modern`: its 2026-07-28 view, `None`
    /// in a handshake session): a tool not offered is left out of `tools/list` and a
    /// call of it is answered as for an unknown tool. For tools that come and go (a
    /// feature switched on at run time, see [`Offered`](super::Offered); announce the
    /// change with [`Notifier::list_changed`](super::Notifier)) or that exist in one
    /// era only. Lists are paged over the tools offered to the request, so one that
    /// comes or goes is a change of the list (announce it: cursors go stale).
    fn offered(&self, modern: Option<crate::session::ModernRequest>) -> bool {
        let _ = modern;
        true
    }
}

/// One `tools/call` to answer: its arguments, and the ways to answer it. Dropping it
/// without answering leaves the request unanswered (the endpoint's `answer_within`
/// limit, if set, then answers it).
#[must_use = "a call must be answered"]
pub struct Call<'c, 'e, J> {
    pub(crate) request: &'c mut IncomingRequest<'e>,
    pub(crate) arguments: RawJson<'e>,
    pub(crate) runtime: &'c mut dyn Runtime<J>,
}

impl<'c, 'e, J> Call<'c, 'e, J> {
    /// The `arguments` object (`{}` if the request had none).
    pub fn arguments(&self) -> RawJson<'e> {
        self.arguments
    }

    /// The request, for its id, `_meta` and params.
    pub fn request(&self) -> &IncomingRequest<'e> {
        self.request
    }

    /// The arguments decoded into `A` (a [`schema!`](crate::schema) struct); for an
    /// error, [`ArgumentsError`] is the answer that tells the model what to correct.
    pub fn decode<A: Arguments>(&self) -> Result<A::Decoded<'e>, DecodeError> {
        self.arguments.decode::<A::Decoded<'e>>()
    }

    /// Answers with `output` (see [`ToolOutput`]).
    pub fn respond<T: ToolOutput + ?Sized>(self, output: &T) {
        answer_knowing(self.request, self.runtime, &AsResult(output), output.fresh());
    }

    /// Answers with a JSON-RPC error (for protocol errors; a failure the model should see
    /// is an `Err` [`ToolOutput`]).
    pub fn fail(self, code: ErrorCode, message: &str) {
        let _ = self.request.respond_error(code, message);
    }

    /// Answers with a JSON-RPC error carrying `data` (-32021 with the capabilities the
    /// client lacks, say).
    pub fn fail_with_data<D: serde::Serialize + ?Sized>(self, code: ErrorCode, message: &str, data: &D) {
        let _ = self.request.respond_error_with_data(code, message, data);
    }

    /// Answers with a whole result of the handler's own making, sent as it is: a
    /// 2026-07-28 `input_required` round written by hand (where [`Job::ask`](super::Job::ask)
    /// does not fit), or fields the toolkit does not know.
    pub fn respond_raw(self, result: RawJson<'_>) {
        answer(self.request, self.runtime, &result);
    }

    /// Hands the call to a step job, which the main loop polls (see
    /// [`Server::poll`](super::Server::poll)) until it finishes. If every job slot is
    /// taken, the call is answered with an `isError` result saying the server is busy.
    pub fn start(self, job: J) {
        let progress = self.request.wants_progress();
        if self.runtime.start(self.request.pending(), progress, job).is_err() {
            let busy: Result<(), &str> =
                Err("The server is busy with as many long-running calls as it can take; try again later.");
            answer(self.request, self.runtime, &AsResult(&busy));
        }
    }

    /// The request, named for later.
    pub fn pending(&self) -> PendingRequest {
        self.request.pending()
    }
}

/// The `Tool` entry of a typed handler.
const fn entry(name: &'static str, schema: RawJson<'static>) -> Tool<'static> {
    Tool::new(name, schema)
}

/// A tool answered inline by a function of its typed arguments: `fn(&mut S, A) -> R`,
/// `R` a [`ToolOutput`]. Made in a `const` (so it can sit in a `static` table) with
/// [`new`](Self::new) for arguments that own their data and
/// [`borrowed`](Self::borrowed) for arguments that borrow from the request.
///
/// ```
/// use mcp_sansio::toolkit::server::ToolFn;
/// mcp_sansio::schema! {
///     #[derive(serde::Deserialize)]
///     pub struct Add { a: i32, b: i32 }
/// }
/// struct App;
/// static ADD: ToolFn<Add, App, i64> =
///     ToolFn::new("add", |_, Add { a, b }| i64::from(a) + i64::from(b)).description("Adds two integers");
/// ```
pub struct ToolFn<A: Arguments, S, R> {
    tool: Tool<'static>,
    run: for<'a> fn(&mut S, A::Decoded<'a>) -> R,
}

impl<A: Arguments, S, R> ToolFn<A, S, R> {
    /// The tool `name`, answered by `run`.
    pub const fn new(name: &'static str, run: fn(&mut S, A) -> R) -> Self
    where
        A: for<'x> Arguments<Decoded<'x> = A>,
    {
        ToolFn { tool: entry(name, A::SCHEMA), run }
    }

    /// The tool `name`, answered by `run` with arguments that borrow from the request
    /// (`JsonStr<'a>` fields: no copy). The arguments type comes from the item's type
    /// (`static T: ToolFn<Forecast<'static>, App, R>`) or is named:
    /// `ToolFn::<Forecast, _, _>::borrowed(…)`.
    pub const fn borrowed(name: &'static str, run: for<'a> fn(&mut S, A::Decoded<'a>) -> R) -> Self {
        ToolFn { tool: entry(name, A::SCHEMA), run }
    }

    /// With a description (what the model reads to choose the tool).
    pub const fn description(mut self, description: &'static str) -> Self {
        self.tool = self.tool.with_description(description);
        self
    }

    /// With a display title.
    pub const fn title(mut self, title: &'static str) -> Self {
        self.tool = self.tool.with_title(title);
        self
    }

    /// With behaviour hints.
    pub const fn annotations(mut self, annotations: ToolAnnotations<'static>) -> Self {
        self.tool = self.tool.with_annotations(annotations);
        self
    }

    /// With an output schema (for [`Json`](super::Json) results).
    pub const fn output_schema(mut self, schema: RawJson<'static>) -> Self {
        self.tool = self.tool.with_output_schema(schema);
        self
    }
}

/// Decodes a call's arguments and answers bad ones; the decoded arguments otherwise.
pub(crate) fn arguments<'c, 'e, A: Arguments, J>(
    name: JsonStr<'_>,
    call: Call<'c, 'e, J>,
) -> Option<(A::Decoded<'e>, Call<'c, 'e, J>)> {
    match call.decode::<A>() {
        Ok(args) => Some((args, call)),
        Err(error) => {
            let name = name.as_plain().unwrap_or("this tool");
            let refused: Result<(), ArgumentsError<'_>> = Err(ArgumentsError::new(name, error, A::FIELDS));
            call.respond(&refused);
            None
        }
    }
}

impl<A: Arguments, S, J, R: ToolOutput> ToolHandler<S, J> for ToolFn<A, S, R> {
    fn tool(&self) -> Tool<'_> {
        self.tool
    }

    fn name(&self) -> JsonStr<'_> {
        self.tool.name
    }

    fn call(&self, state: &mut S, call: Call<'_, '_, J>) {
        if let Some((args, call)) = arguments::<A, J>(self.tool.name, call) {
            let output = (self.run)(state, args);
            call.respond(&output);
        }
    }
}

/// A typed tool whose handler answers the call itself: `fn(&mut S, A, Call)`. What
/// [`ToolFn`] cannot do: answer with text borrowed from the arguments (no copy, no
/// allocation), decide per call between answering now and [starting a job](Call::start).
///
/// ```
/// use mcp_sansio::toolkit::server::{Text, ToolCallFn};
/// use mcp_sansio::wire::JsonStr;
/// mcp_sansio::schema! {
///     #[derive(serde::Deserialize)]
///     pub struct Echo<'a> { #[serde(borrow)] text: JsonStr<'a> }
/// }
/// static ECHO: ToolCallFn<Echo<'static>, ()> = ToolCallFn::new("echo", |_, Echo { text }, call| call.respond(&Text(text)));
/// ```
pub struct ToolCallFn<A: Arguments, S, J = NoJob> {
    tool: Tool<'static>,
    run: for<'a, 'c> fn(&mut S, A::Decoded<'a>, Call<'c, 'a, J>),
}

impl<A: Arguments, S, J> ToolCallFn<A, S, J> {
    /// The tool `name`, answered by `run`.
    pub const fn new(name: &'static str, run: for<'a, 'c> fn(&mut S, A::Decoded<'a>, Call<'c, 'a, J>)) -> Self {
        ToolCallFn { tool: entry(name, A::SCHEMA), run }
    }

    /// With a description.
    pub const fn description(mut self, description: &'static str) -> Self {
        self.tool = self.tool.with_description(description);
        self
    }
}

impl<A: Arguments, S, J> ToolHandler<S, J> for ToolCallFn<A, S, J> {
    fn tool(&self) -> Tool<'_> {
        self.tool
    }

    fn name(&self) -> JsonStr<'_> {
        self.tool.name
    }

    fn call(&self, state: &mut S, call: Call<'_, '_, J>) {
        if let Some((args, call)) = arguments::<A, J>(self.tool.name, call) {
            (self.run)(state, args, call);
        }
    }
}

/// A tool whose calls become step jobs of type `J`, which the main loop polls with
/// [`Server::poll`](super::Server::poll) until they finish (see [`Step`](super::Step)):
/// long work without threads or an allocator. `start` turns the arguments into the job.
pub struct StepTool<A: Arguments, S, J> {
    tool: Tool<'static>,
    start: for<'a> fn(&mut S, A::Decoded<'a>) -> J,
    _job: PhantomData<fn() -> J>,
}

impl<A: Arguments, S, J> StepTool<A, S, J> {
    /// The tool `name`, whose calls `start` turns into jobs.
    pub const fn new(name: &'static str, start: fn(&mut S, A) -> J) -> Self
    where
        A: for<'x> Arguments<Decoded<'x> = A>,
    {
        StepTool { tool: entry(name, A::SCHEMA), start, _job: PhantomData }
    }

    /// The same for arguments that borrow from the request.
    pub const fn borrowed(name: &'static str, start: for<'a> fn(&mut S, A::Decoded<'a>) -> J) -> Self {
        StepTool { tool: entry(name, A::SCHEMA), start, _job: PhantomData }
    }

    /// With a description.
    pub const fn description(mut self, description: &'static str) -> Self {
        self.tool = self.tool.with_description(description);
        self
    }
}

impl<A: Arguments, S, J> ToolHandler<S, J> for StepTool<A, S, J> {
    fn tool(&self) -> Tool<'_> {
        self.tool
    }

    fn name(&self) -> JsonStr<'_> {
        self.tool.name
    }

    fn call(&self, state: &mut S, call: Call<'_, '_, J>) {
        if let Some((args, call)) = arguments::<A, J>(self.tool.name, call) {
            let job = (self.start)(state, args);
            call.start(job);
        }
    }
}

#[cfg(feature = "std")]
impl<J> Call<'_, '_, J> {
    /// Answers from a blocking function run off the loop (on a thread of its own, or the
    /// spawner the server was given), which gets a [`Job`](super::Job) for progress and
    /// cancellation.
    pub fn spawn_blocking<R, F>(self, work: F)
    where
        R: ToolOutput,
        F: FnOnce(super::Job) -> R + Send + 'static,
    {
        let progress = self.request.wants_progress();
        let round = match self.runtime.tasks().round_of(self.request, self.arguments) {
            Ok(round) => round,
            Err((code, message)) => return self.fail(code, message),
        };
        self.runtime.tasks().spawn_blocking(self.request.pending(), progress, round, work);
    }

    /// Answers from a future run on the server's executor (by default a thread that
    /// blocks on it). The future is dropped, unfinished, if the call is cancelled.
    pub fn spawn<R, Fut, F>(self, work: F)
    where
        R: ToolOutput + 'static,
        Fut: core::future::Future<Output = R> + Send + 'static,
        F: FnOnce(super::Job) -> Fut,
    {
        let progress = self.request.wants_progress();
        let round = match self.runtime.tasks().round_of(self.request, self.arguments) {
            Ok(round) => round,
            Err((code, message)) => return self.fail(code, message),
        };
        self.runtime.tasks().spawn(self.request.pending(), progress, round, work);
    }
}
