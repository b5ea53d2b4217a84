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

use std::collections::BTreeSet;
use std::sync::Arc;

use serde::Serialize;

use super::list::List;
use super::notifier::Notifier;
use super::outlet::{Outlet, Refused, Taken};
use super::server::{Server, serve};
use super::step::{NoJob, Step};
use super::work::{Later, Room, Runtime, Work};
use crate::adapters::app::{Action, Context, Handler, RequestError, SeqMap, SeqSet, SessionTag};
use crate::mcp::{LoggingLevel, Method, ResourceUriParams};
use crate::session::{Event, IncomingRequest, PendingRequest, RequestOptions};
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

/// What a [`ServerHandler`] runs when its loop is about to wait, beside the server's own
/// work: the application's timers. It returns when to be called again (`None`: only
/// after the next event); the context sends to any session.
pub type Idle<S> = fn(&mut S, &mut Context<'_, ()>) -> Option<Instant>;

/// The default [`Idle`]: no timers of the application's.
pub fn no_timer<S>(_: &mut S, _: &mut Context<'_, ()>) -> Option<Instant> {
    None
}

/// The subscriptions (`resources/subscribe`) a session may hold at once: one more is
/// refused (-32603), so a client cannot make the server keep an unbounded set.
pub const MAX_SUBSCRIPTIONS: usize = 1024;

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
///
/// Beside what the [`Server`] answers, the handler keeps what is per session:
/// `logging/setLevel`, `resources/subscribe` and `resources/unsubscribe` (when the
/// server declares [`subscriptions`](Server::subscriptions)), and 2026-07-28 listen
/// streams (`subscriptions/listen`, acknowledged with what the server's capabilities
/// allow). What changes is told through its [`Notifier`] and sent to the sessions
/// concerned; the application's own timers run in its [`idle`](Self::idle) hook.
pub struct ServerHandler<'t, S, J = NoJob, const N: usize = 0, F = Fallback<S>, I = Idle<S>> {
    server: Server<'t, S, J, N>,
    state: S,
    fallback: F,
    idle: I,
    notifier: Notifier,
    /// The URIs each handshake session subscribed to.
    subscriptions: SeqMap<SessionTag, BTreeSet<String>>,
    /// Sessions that made 2026-07-28 requests: their listen streams take notifications
    /// (the endpoint sends each only to the streams that asked for it).
    stateless: Stateless,
    /// Work in progress, for the sessions that have some.
    work: SeqMap<SessionTag, Work<J, N>>,
    /// Sessions that are ready, to announce list changes to.
    ready: SeqSet<SessionTag>,
    /// The logging level each session set (`logging/setLevel`).
    levels: SeqMap<SessionTag, LoggingLevel>,
    /// Wakes the loop when a job off it did something (set at the first callback).
    wake: Option<super::tasks::Wakeup>,
}

/// The sessions that made 2026-07-28 requests. Every stateless request names its session
/// (over stdio always the same one): the last one added is remembered, so that a run of
/// requests from one session hashes none of them.
#[derive(Default)]
struct Stateless {
    set: SeqSet<SessionTag>,
    last: Option<SessionTag>,
}

impl Stateless {
    fn insert(&mut self, session: SessionTag) {
        if self.last != Some(session) {
            self.set.insert(session);
            self.last = Some(session);
        }
    }

    fn remove(&mut self, session: SessionTag) {
        self.set.remove(&session);
        if self.last == Some(session) {
            self.last = None;
        }
    }
}

impl<'t, S, J: Step<S>, const N: usize> Server<'t, S, J, N> {
    /// This server and its `state` as a [`Handler`] for the adapters: the same server
    /// over stdio and HTTP (see [`ServerHandler`]).
    pub fn handler(self, state: S) -> ServerHandler<'t, S, J, N> {
        ServerHandler {
            server: self,
            state,
            fallback: not_found::<S>,
            idle: no_timer::<S>,
            notifier: Notifier::new(),
            subscriptions: SeqMap::default(),
            stateless: Stateless::default(),
            work: SeqMap::default(),
            ready: SeqSet::default(),
            levels: SeqMap::default(),
            wake: None,
        }
    }
}

impl<'t, S, J: Step<S>, const N: usize, F, I> ServerHandler<'t, S, J, N, F, I>
where
    F: FnMut(&mut S, &mut Context<'_, ()>, Event<'_>),
    I: FnMut(&mut S, &mut Context<'_, ()>) -> Option<Instant>,
{
    /// Gives the events the server does not cover to `fallback` (which must answer the
    /// requests among them), instead of [`not_found`].
    pub fn fallback<G>(self, fallback: G) -> ServerHandler<'t, S, J, N, G, I>
    where
        G: FnMut(&mut S, &mut Context<'_, ()>, Event<'_>),
    {
        let ServerHandler {
            server, state, idle, notifier, subscriptions, stateless, work, ready, levels, wake, ..
        } = self;
        ServerHandler { server, state, fallback, idle, notifier, subscriptions, stateless, work, ready, levels, wake }
    }

    /// Runs `idle` whenever the loop is about to wait, after the server's own work: the
    /// application's timers (a resource that changes every minute, say). It returns
    /// when it wants to run again; the loop wakes then (or at an earlier deadline).
    pub fn idle<G>(self, idle: G) -> ServerHandler<'t, S, J, N, F, G>
    where
        G: FnMut(&mut S, &mut Context<'_, ()>) -> Option<Instant>,
    {
        let ServerHandler {
            server,
            state,
            fallback,
            notifier,
            subscriptions,
            stateless,
            work,
            ready,
            levels,
            wake,
            ..
        } = self;
        ServerHandler { server, state, fallback, idle, notifier, subscriptions, stateless, work, ready, levels, wake }
    }

    /// Takes `notifier` as the handler's (one made before the handlers that tell it, so
    /// they can capture it), instead of the one it has. Take it before the first
    /// session: the subscriber counts are kept in the notifier.
    pub fn with_notifier(mut self, notifier: Notifier) -> Self {
        self.notifier = notifier;
        self
    }

    /// The handler's [`Notifier`], for what changes the server's resources and lists.
    pub fn notifier(&self) -> Notifier {
        self.notifier.clone()
    }

    /// The URIs `session` subscribed to.
    pub fn subscriptions(&self, session: SessionTag) -> impl Iterator<Item = &str> + '_ {
        self.subscriptions.get(&session).into_iter().flatten().map(String::as_str)
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
            let wake: super::tasks::Wakeup = Arc::new(move || drop(sender.try_send(())));
            self.notifier.set_wake(Arc::clone(&wake));
            self.wake = Some(wake);
        }
        self.wake.clone()
    }

    fn end(&mut self, session: SessionTag) {
        self.ready.remove(&session);
        self.levels.remove(&session);
        for uri in self.subscriptions.remove(&session).into_iter().flatten() {
            self.notifier.count(&uri, false);
        }
        self.stateless.remove(session);
        if let Some(mut work) = self.work.remove(&session) {
            work.end_all(&mut self.state);
        }
    }
}

impl<S, J: Step<S>, const N: usize, F, I> Handler for ServerHandler<'_, S, J, N, F, I>
where
    F: FnMut(&mut S, &mut Context<'_, ()>, Event<'_>),
    I: FnMut(&mut S, &mut Context<'_, ()>) -> Option<Instant>,
{
    type Message = ();

    fn on_event(&mut self, cx: &mut Context<'_, ()>, event: Event<'_>) {
        let session = cx.session().unwrap_or(SessionTag::STDIO);
        match event {
            Event::Request(mut request) => {
                if request.modern().is_some() {
                    // No handshake in this era: the first request makes the session
                    // one that listen streams may take notifications for.
                    self.stateless.insert(session);
                }
                if self.per_session(cx, session, &mut request) {
                    return;
                }
                if let Some(set_level) = self.server.set_level
                    && request.method == crate::mcp::Method::LoggingSetLevel
                {
                    if let Some(level) = set_level(&mut request) {
                        self.levels.insert(session, level);
                    }
                    return;
                }
                let wake = self.waker(cx);
                let mut work = match self.work.remove(&session) {
                    Some(work) => work,
                    None => self.server.work.sibling(wake),
                };
                work.tasks().log_level = self.levels.get(&session).copied();
                work.tasks().now = cx.now();
                let now = cx.now();
                let mut routed = Routed { work: &mut work, cx, session };
                // The store's answers go the way the others do (behind what the session
                // queued, into a buffer that grows).
                let served =
                    self.server.task_store.as_ref().is_some_and(|store| store.serve(&mut request, now, &mut routed))
                        || serve(&self.server.items, &self.server.paging, &mut routed, &mut self.state, &mut request);
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
        // The notifier wakes the loop from now on (what it was told before is here).
        if self.wake.is_none() {
            self.waker(cx);
        }
        let told = self.notifier.take();
        for list in [List::Tools, List::Resources, List::Templates, List::Prompts] {
            if told.lists & (1 << list as u8) != 0 {
                self.server.changed(list);
            }
        }
        let changes = self.server.take_changes();
        if changes != 0 {
            for list in [List::Tools, List::Resources, List::Templates, List::Prompts] {
                if changes & (1 << list as u8) != 0 {
                    for &session in self.ready.union(&self.stateless.set) {
                        cx.notify(session, list.changed_method(), None::<&RawJson<'_>>);
                    }
                }
            }
        }
        for uri in &told.updated {
            let params = ResourceUriParams::new(uri);
            let subscribed = self.subscriptions.iter().filter(|(_, uris)| uris.contains(uri)).map(|(s, _)| s);
            let listening = self.stateless.set.iter().filter(|s| !self.subscriptions.contains_key(s));
            for &session in subscribed.chain(listening) {
                cx.notify(session, "notifications/resources/updated", Some(&params));
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
        // Tasks end at their TTL though nobody asks about them (releasing a job that
        // waits for answers): the next expiry is a deadline too.
        if let Some(expires) = self.server.task_store.as_ref().and_then(|store| store.expire_due(now)) {
            next = Some(next.map_or(expires, |n| n.min(expires)));
        }
        let mine = (self.idle)(&mut self.state, cx);
        match (next, mine) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn on_session_end(&mut self, session: SessionTag) {
        self.end(session);
    }
}

impl<S, J: Step<S>, const N: usize, F, I> ServerHandler<'_, S, J, N, F, I> {
    /// Answers what the handler keeps per session: subscriptions and listen streams
    /// (`false`: not one of those).
    fn per_session(
        &mut self,
        cx: &mut Context<'_, ()>,
        session: SessionTag,
        request: &mut IncomingRequest<'_>,
    ) -> bool {
        match request.method {
            Method::ResourcesSubscribe | Method::ResourcesUnsubscribe if self.server.subscribe => {
                let Some(p) = request.params.and_then(|p| p.decode::<ResourceUriParams<'_>>().ok()) else {
                    let _ = cx.reply_error(request, ErrorCode::INVALID_PARAMS, "Invalid params: a uri is required");
                    return true;
                };
                let mut scratch = [0u8; 512];
                let Some(uri) = p.uri.as_plain().or_else(|| p.uri.unescape_into(&mut scratch).ok()) else {
                    let _ = cx.reply_error(request, ErrorCode::INVALID_PARAMS, "Invalid params: the uri is too long");
                    return true;
                };
                let uris = self.subscriptions.entry(session).or_default();
                if request.method == Method::ResourcesUnsubscribe {
                    if uris.remove(uri) {
                        self.notifier.count(uri, false);
                    }
                    if uris.is_empty() {
                        self.subscriptions.remove(&session);
                    }
                } else if !uris.contains(uri) {
                    if uris.len() >= MAX_SUBSCRIPTIONS {
                        let message = "Too many subscriptions: unsubscribe from a resource first";
                        let _ = cx.reply_error(request, ErrorCode::INTERNAL_ERROR, message);
                        return true;
                    }
                    uris.insert(String::from(uri));
                    self.notifier.count(uri, true);
                }
                let _ = cx.reply(request, &crate::mcp::EmptyResult::EMPTY);
                true
            }
            Method::SubscriptionsListen => {
                // The endpoint keeps the stream open, sends it the notifications it was
                // granted and ends it when the client cancels it or the session ends.
                if let Err(e) = request.acknowledge() {
                    let message = std::format!("Could not open the listen stream: {e}");
                    let _ = cx.reply_error(request, ErrorCode::INTERNAL_ERROR, &message);
                }
                true
            }
            _ => false,
        }
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

    fn fail(&mut self, request: PendingRequest, code: ErrorCode, message: &str, data: Option<Vec<u8>>) {
        self.cx.act(self.session, Action::Fail { request, code, message: message.into(), data });
    }

    fn room(&self) -> Room {
        if self.cx.queued(self.session) {
            Room::Behind
        } else if self.cx.grows() {
            Room::Grows
        } else {
            Room::InPlace
        }
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

    fn withdraw(&mut self, id: &RequestId) {
        let _ = self.cx.cancel(self.session, id, Some(super::outlet::WITHDRAWN));
    }

    fn close_stream(&mut self, request: &PendingRequest) {
        self.cx.act(self.session, Action::CloseStream { request: request.clone() });
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
