//! A [`Server`] as the adapters' shared [`Handler`]: the same server, with the same
//! handlers, over stdio ([`StdioLoop::serve`](crate::adapters::stdio::StdioLoop::serve))
//! and over HTTP ([`HttpServer`](crate::adapters::http::server::HttpServer)), which
//! serves many sessions with it at once.
//!
//! What is declared (tools, resources, prompts, pages, cursors) is shared by every
//! session; what is in progress (step jobs, jobs on threads or executors) is kept per
//! session, by the [`SessionTag`] the adapter gives, and ends with its session. Answers
//! go through the adapter's [`Context`]: in place when there is room, queued in order in
//! the session's bounded outbox otherwise. Jobs off the loop wake it through the
//! adapter's mailbox.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use serde::Serialize;

use super::list::List;
use super::outlet::{Outlet, Refused, Taken};
use super::server::{Server, serve};
use super::step::{NoJob, Step};
use super::work::{Later, Runtime, Work};
use crate::adapters::app::{Action, Context, Handler, RequestError, SessionTag};
use crate::mcp::LoggingLevel;
use crate::session::{Event, PendingRequest, RequestOptions};
use crate::time::Instant;
use crate::toolkit::client::ClientError;
use crate::wire::{ErrorCode, ProgressValue, RawJson, RequestId};

/// What a [`ServerHandler`] does with the events its server does not cover.
pub type Fallback<S> = fn(&mut S, &mut Context<'_, ()>, Event<'_>);

/// The default [`Fallback`]: requests get -32601 "Method not found", the rest is
/// dropped.
pub fn not_found<S>(_: &mut S, cx: &mut Context<'_, ()>, event: Event<'_>) {
    if let Event::Request(mut request) = event {
        let _ = cx.reply_error(&mut request, ErrorCode::METHOD_NOT_FOUND, "Method not found");
    }
}

/// A [`Server`] with its state, as a [`Handler`] for any adapter (see the module docs):
/// made by [`Server::handler`].
///
/// ```no_run
/// # #[cfg(all(feature = "stdio", feature = "http"))] fn main() -> std::io::Result<()> {
/// use mcp_sansio::adapters::http::server::{HttpServer, ServerOptions};
/// use mcp_sansio::toolkit::server::ServerBuilder;
/// mcp_sansio::schema! {
///     #[derive(serde::Deserialize)]
///     struct Name { name: String }
/// }
/// let server = ServerBuilder::new("hello", "1.0.0")
///     .tool("hello", "Greets", |Name { name }| format!("Hello, {name}"))
///     .build();
/// let config = server.config();
/// let mut handler = server.handler(());
/// let mut http: HttpServer<'_, _> = HttpServer::bind("127.0.0.1:8080", config, ServerOptions::default())?;
/// http.run(&mut handler)?;
/// # Ok(()) }
/// # #[cfg(not(all(feature = "stdio", feature = "http")))] fn main() {}
/// ```
pub struct ServerHandler<'t, S, J = NoJob, const N: usize = 0, F = Fallback<S>> {
    server: Server<'t, S, J, N>,
    state: S,
    fallback: F,
    /// Work in progress, for the sessions that have some.
    work: HashMap<SessionTag, Work<J, N>>,
    /// Sessions that are ready, to announce list changes to.
    ready: HashSet<SessionTag>,
    /// The logging level each session set (`logging/setLevel`).
    levels: HashMap<SessionTag, LoggingLevel>,
    /// Wakes the loop when a job off it did something (set at the first callback).
    wake: Option<super::tasks::Wakeup>,
}

impl<'t, S, J: Step<S>, const N: usize> Server<'t, S, J, N> {
    /// This server and its `state` as a [`Handler`] for the adapters: the same server
    /// over stdio and HTTP (see [`ServerHandler`]).
    pub fn handler(self, state: S) -> ServerHandler<'t, S, J, N> {
        ServerHandler {
            server: self,
            state,
            fallback: not_found::<S>,
            work: HashMap::new(),
            ready: HashSet::new(),
            levels: HashMap::new(),
            wake: None,
        }
    }
}

impl<'t, S, J: Step<S>, const N: usize, F> ServerHandler<'t, S, J, N, F>
where
    F: FnMut(&mut S, &mut Context<'_, ()>, Event<'_>),
{
    /// Gives the events the server does not cover to `fallback` (which must answer the
    /// requests among them), instead of [`not_found`].
    pub fn fallback<G>(self, fallback: G) -> ServerHandler<'t, S, J, N, G>
    where
        G: FnMut(&mut S, &mut Context<'_, ()>, Event<'_>),
    {
        let ServerHandler { server, state, work, ready, levels, wake, .. } = self;
        ServerHandler { server, state, fallback, work, ready, levels, wake }
    }

    /// The server (to announce a list change with [`Server::changed`], say).
    pub fn server_mut(&mut self) -> &mut Server<'t, S, J, N> {
        &mut self.server
    }

    /// The application's state.
    pub fn state(&self) -> &S {
        &self.state
    }

    /// The application's state, mutably.
    pub fn state_mut(&mut self) -> &mut S {
        &mut self.state
    }

    /// Sessions with work in progress.
    pub fn busy_sessions(&self) -> usize {
        self.work.len()
    }

    fn waker(&mut self, cx: &Context<'_, ()>) -> Option<super::tasks::Wakeup> {
        if self.wake.is_none() {
            let sender = cx.sender();
            // A full mailbox already holds something that wakes the loop, which then
            // polls every session's work.
            self.wake = Some(Arc::new(move || drop(sender.try_send(()))));
        }
        self.wake.clone()
    }

    fn end(&mut self, session: SessionTag) {
        self.ready.remove(&session);
        self.levels.remove(&session);
        if let Some(mut work) = self.work.remove(&session) {
            work.end_all(&mut self.state);
        }
    }
}

impl<S, J: Step<S>, const N: usize, F> Handler for ServerHandler<'_, S, J, N, F>
where
    F: FnMut(&mut S, &mut Context<'_, ()>, Event<'_>),
{
    type Message = ();

    fn on_event(&mut self, cx: &mut Context<'_, ()>, event: Event<'_>) {
        let session = cx.session().unwrap_or(SessionTag::STDIO);
        match event {
            Event::Request(mut request) => {
                if let Some(set_level) = self.server.set_level
                    && request.method == crate::mcp::Method::LoggingSetLevel
                {
                    if let Some(level) = set_level(&mut request) {
                        self.levels.insert(session, level);
                    }
                    return;
                }
                if let Some(store) = &self.server.task_store
                    && store.serve(&mut request, cx.now())
                {
                    return;
                }
                let wake = self.waker(cx);
                let mut work = match self.work.remove(&session) {
                    Some(work) => work,
                    None => self.server.work.sibling(wake),
                };
                work.tasks().log_level = self.levels.get(&session).copied();
                work.tasks().now = cx.now();
                let mut routed = Routed { work: &mut work, cx, session };
                let served = serve(&self.server.items, &self.server.paging, &mut routed, &mut self.state, &mut request);
                if !work.is_idle() {
                    self.work.insert(session, work);
                }
                if !served {
                    (self.fallback)(&mut self.state, cx, Event::Request(request));
                }
                return;
            }
            Event::Ready { .. } => {
                self.ready.insert(session);
            }
            Event::Cancelled { ref request, .. } | Event::Expired { ref request, .. } => {
                if let Some(work) = self.work.get_mut(&session) {
                    work.end(&mut self.state, request);
                    if work.is_idle() {
                        self.work.remove(&session);
                    }
                }
            }
            Event::Closed { .. } => self.end(session),
            Event::Response { ref id, .. }
            | Event::Error { ref id, .. }
            | Event::TimedOut { ref id, .. }
            | Event::ResponseTooLong { ref id, .. }
            | Event::Failed { ref id, .. } => {
                if let Some(work) = self.work.get_mut(&session)
                    && work.tasks().asked(id)
                    && let Some(answer) = super::tasks::answer_of(&event)
                {
                    work.tasks().answered(id, answer);
                    return;
                }
            }
            _ => {}
        }
        (self.fallback)(&mut self.state, cx, event);
    }

    fn on_message(&mut self, cx: &mut Context<'_, ()>, (): ()) {
        // A job off the loop did something; `on_idle` follows and sends it.
        let _ = cx;
    }

    fn on_idle(&mut self, cx: &mut Context<'_, ()>) -> Option<Instant> {
        let changes = self.server.take_changes();
        if changes != 0 {
            for list in [List::Tools, List::Resources, List::Templates, List::Prompts] {
                if changes & (1 << list as u8) != 0 {
                    for &session in &self.ready {
                        cx.notify(session, list.changed_method(), None::<&RawJson<'_>>);
                    }
                }
            }
        }
        let now = cx.now();
        let state = &mut self.state;
        let mut next: Option<Instant> = None;
        self.work.retain(|&session, work| {
            let due = work.poll(state, &mut Via { cx: &mut *cx, session }, now);
            next = match (next, due) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            !work.is_idle()
        });
        next
    }

    fn on_session_end(&mut self, session: SessionTag) {
        self.end(session);
    }
}

/// A session's work and the adapter's context, as a request's runtime.
struct Routed<'x, 'c, J, const N: usize> {
    work: &'x mut Work<J, N>,
    cx: &'x mut Context<'c, ()>,
    session: SessionTag,
}

impl<J, const N: usize> Later for Routed<'_, '_, J, N> {
    fn later(&mut self, request: PendingRequest, result: Vec<u8>) {
        // The session's outbox keeps it, in order, until there is room.
        self.cx.act(self.session, Action::Respond { request, result });
    }
}

impl<J, const N: usize> Runtime<J> for Routed<'_, '_, J, N> {
    fn start(&mut self, request: PendingRequest, progress: bool, job: J) -> Result<(), J> {
        self.work.start(request, progress, job)
    }

    fn tasks(&mut self) -> &mut super::tasks::Tasks {
        self.work.tasks()
    }
}

/// The adapter's context, as the outlet of a session's work.
struct Via<'x, 'c> {
    cx: &'x mut Context<'c, ()>,
    session: SessionTag,
}

impl Outlet for Via<'_, '_> {
    fn respond<R: Serialize + ?Sized>(&mut self, request: &PendingRequest, result: &R) -> Taken {
        let request = request.clone();
        let action = match crate::wire::to_vec(result) {
            Ok(result) => Action::Respond { request, result },
            Err(_) => Action::Abandon { request },
        };
        self.cx.act(self.session, action);
        Taken::Yes
    }

    fn progress<P: ProgressValue>(
        &mut self,
        request: &PendingRequest,
        progress: P,
        total: Option<P>,
        message: Option<&str>,
    ) -> Taken {
        use crate::wire::ProgressF64;
        // Progress is only worth sending when it can go now: behind a backlog, the
        // next value replaces it.
        if self.cx.backlogged(self.session) {
            return Taken::Full;
        }
        let (progress, total) = (progress.to_f64(), total.map(ProgressF64::to_f64));
        let message = message.map(str::to_string);
        self.cx.act(self.session, Action::Progress { request: request.clone(), progress, total, message });
        Taken::Yes
    }

    fn abandon(&mut self, request: &PendingRequest) {
        self.cx.act(self.session, Action::Abandon { request: request.clone() });
    }

    fn notify_related<P: Serialize + ?Sized>(
        &mut self,
        request: &PendingRequest,
        method: &'static str,
        params: &P,
    ) -> Taken {
        // What waits behind a backlog waits in the job, whose log then blocks: the
        // backpressure reaches it.
        if self.cx.backlogged(self.session) {
            return Taken::Full;
        }
        let Ok(params) = crate::wire::to_vec(params) else { return Taken::Yes };
        let method = std::borrow::Cow::Borrowed(method);
        self.cx.act(self.session, Action::Notify { related: Some(request.clone()), method, params: Some(params) });
        Taken::Yes
    }

    fn request(&mut self, method: &str, params: &RawJson<'_>, options: RequestOptions) -> Result<RequestId, Refused> {
        match self.cx.send_request(self.session, method, Some(params), options) {
            Ok(id) => Ok(id),
            Err(RequestError::Send(e)) => Err(e.into()),
            // Outside an event (where the work is polled) this is the session gone.
            Err(RequestError::InEvent) => Err(Refused::Later),
            Err(_) => Err(Refused::Never(ClientError::Closed(None))),
        }
    }
}
