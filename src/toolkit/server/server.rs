//! [`Server`]: the endpoint's events in, the declared handlers' answers out.

use super::dispatch::Parts;
use super::list::{List, Paging};
use super::step::{NoJob, Step};
use super::table::{Items, Table};
use super::work::Work;
use crate::mcp::{Implementation, ListChanged, LoggingLevel, ProtocolVersion, Role, ServerCapabilities};
use crate::session::{Buffer, Config, DEFAULT_REPLY_RESERVE, Endpoint, Event, IncomingRequest, Profile};
use crate::time::Instant;
use crate::wire::{MAX_ID_LEN, RawJson};

/// A server over an [`Endpoint`]: it answers the requests its handlers cover (listing with
/// pagination, calls, reads, prompts, completions) and gives every other event back.
///
/// `S` is the application's state (what table handlers get as `&mut S`), `J` the type of
/// its step jobs and `N` how many can run at once (see [`Step`]). It is sans-IO like the
/// endpoint: feed it the endpoint's events with [`handle`](Self::handle), and call
/// [`poll`](Self::poll) with the endpoint whenever the loop is about to wait (it sends
/// what work in progress produced and says when to come back).
///
/// ```
/// use mcp_sansio::mcp::Implementation;
/// use mcp_sansio::toolkit::server::{Server, Table, ToolFn};
/// use mcp_sansio::{Endpoint, Instant, Output};
/// mcp_sansio::schema! {
///     #[derive(serde::Deserialize)]
///     pub struct Echo<'a> { #[serde(borrow)] text: mcp_sansio::wire::JsonStr<'a> }
/// }
/// static ECHO: ToolFn<Echo<'static>, (), mcp_sansio::toolkit::server::Text<&str>> =
///     ToolFn::borrowed("echo", |_, _| mcp_sansio::toolkit::server::Text("echoed"));
/// static TABLE: Table<'static, ()> = Table::new().tools(&[&ECHO]);
///
/// let mut server: Server<'_, ()> = Server::new(TABLE).info(Implementation::new("echo", "1.0.0"));
/// let config = server.config();
/// let (mut rx, mut tx) = ([0u8; 2048], [0u8; 2048]);
/// let mut ep: Endpoint = Endpoint::new(config, &mut rx, &mut tx, Instant::ZERO).unwrap();
/// # let _ = ep.handle_input(Instant::ZERO, b"");
/// loop {
///     match ep.poll_output() {
///         Output::Event(event) => {
///             if let Some(_unhandled) = server.handle(&mut (), event) { /* the application's */ }
///         }
///         Output::Transmit(_bytes) => { /* write them */ }
///         Output::Idle { .. } => break,
///     }
/// }
/// let _next = server.poll(&mut (), &mut ep, Instant::ZERO);
/// ```
pub struct Server<'t, S, J = NoJob, const N: usize = 0> {
    pub(crate) items: Items<'t, S, J>,
    pub(crate) paging: Paging,
    pub(crate) work: Work<J, N>,
    /// Lists whose changes are announced (`listChanged`), by [`List`] bit.
    pub(crate) announced: u8,
    /// Lists changed since the last poll, to announce.
    pending_changes: u8,
    pub(crate) subscribe: bool,
    pub(crate) logging: bool,
    /// What `logging/setLevel` set.
    log_level: Option<LoggingLevel>,
    /// How `logging/setLevel` is answered, set by [`logging`](Self::logging) only (so a
    /// firmware without logging links no level decoder).
    pub(crate) set_level: Option<SetLevel>,
    info: Implementation<'t>,
    instructions: Option<&'t str>,
    version: Option<ProtocolVersion>,
    /// The MCP tasks (tasks extension) of the tools that run as tasks: set, the server
    /// declares the extension and answers `tasks/*` from it.
    #[cfg(feature = "std")]
    pub(crate) task_store: Option<super::TaskStore>,
}

impl<'t, S, J: Step<S>, const N: usize> Server<'t, S, J, N> {
    /// A server for the handlers of `table`.
    pub fn new(table: Table<'t, S, J>) -> Self {
        Server {
            items: Items {
                table,
                #[cfg(feature = "alloc")]
                owned: super::table::Owned::default(),
            },
            paging: Paging::new(),
            work: Work::new(),
            announced: 0,
            pending_changes: 0,
            subscribe: false,
            logging: false,
            log_level: None,
            set_level: None,
            info: Implementation::new("mcp-sansio-server", env!("CARGO_PKG_VERSION")),
            instructions: None,
            version: None,
            #[cfg(feature = "std")]
            task_store: None,
        }
    }

    /// Who the server is (`serverInfo`).
    pub fn info(mut self, info: Implementation<'t>) -> Self {
        self.info = info;
        self
    }

    /// The server's info (`serverInfo`) rendered once as JSON. Put into the endpoint's
    /// [`Config::info`] as [`RawJson`], it is copied into every result that carries it (each
    /// 2026-07-28 result's `_meta`, the `initialize` result) instead of serialized again:
    /// what [`serve_stdio`](Self::serve_stdio) and `serve_http` do.
    #[cfg(feature = "alloc")]
    pub fn info_json(&self) -> alloc::vec::Vec<u8> {
        let mut buf = alloc::vec![0u8; crate::wire::measure(&self.info)];
        match crate::wire::FrameWriter::unterminated(&mut buf).value(&self.info) {
            Ok(written) => buf.truncate(written.end),
            // Not reachable (measured above); a typed config is then kept.
            Err(_) => buf.clear(),
        }
        buf
    }

    /// [`config`](Self::config) with [`info_json`](Self::info_json) (or the typed info,
    /// should that not be JSON) as its info.
    #[cfg(feature = "alloc")]
    pub fn config_with_info<'c>(&self, info_json: &'c [u8]) -> Config<'c>
    where
        't: 'c,
    {
        let mut config: Config<'c> = self.config();
        if let Ok(info) = RawJson::parse(info_json) {
            config.info = info.into();
        }
        config
    }

    /// The `instructions` of the `initialize` result.
    pub fn instructions(mut self, instructions: &'t str) -> Self {
        self.instructions = Some(instructions);
        self
    }

    /// Signs pagination cursors with `key` (draw it from a random source; without one,
    /// a client can forge a cursor, which only lets it start a page anywhere).
    pub fn cursor_key(mut self, key: [u8; 16]) -> Self {
        self.paging.key = key;
        self
    }

    /// Seals the `requestState` of the `input_required` rounds by which jobs ask the
    /// client in stateless calls (2026-07-28; see [`Job::ask`](super::Job::ask)) with
    /// `key` (draw it from a random source; without one, a client can forge a state,
    /// which lets it pretend it gave other answers to a job's earlier questions).
    #[cfg(feature = "std")]
    pub fn state_key(mut self, key: [u8; 16]) -> Self {
        self.work.tasks.sealer = crate::session::StateSealer::new(key);
        self
    }

    /// Serves lists `size` items per page (100 by default).
    pub fn page_size(mut self, size: usize) -> Self {
        self.paging.page_size = size.max(1);
        self
    }

    /// Declares that `list` changes, and that the change is announced
    /// (`listChanged: true`); see [`changed`](Self::changed).
    pub fn announce_changes(mut self, list: List) -> Self {
        self.announced |= 1 << list as u8;
        self
    }

    /// Declares `resources.subscribe`: `resources/subscribe` and `resources/unsubscribe`
    /// come to the application, which sends `notifications/resources/updated`.
    pub fn subscriptions(mut self) -> Self {
        self.subscribe = true;
        self
    }

    /// Declares `logging`: the server answers `logging/setLevel` and keeps the level
    /// ([`log_level`](Self::log_level)); handlers on threads log about their call with
    /// [`Job::log`](super::Job::log), which sends what passes it.
    pub fn logging(mut self) -> Self {
        self.logging = true;
        self.set_level = Some(set_level);
        self
    }

    /// The capabilities the declared handlers make: `tools` if there is a tool,
    /// `resources` for a resource or template, `prompts`, `completions`.
    pub fn capabilities(&self) -> ServerCapabilities<'static> {
        let changes =
            |list: List| if self.announced & (1 << list as u8) != 0 { ListChanged::YES } else { ListChanged::NO };
        let mut caps = ServerCapabilities::new();
        let items = &self.items;
        if items.tool_count() > 0 {
            caps = caps.tools(changes(List::Tools));
        }
        if items.set_count() > 0 || items.template_count() > 0 {
            caps = caps.resources(self.subscribe, changes(List::Resources));
        }
        if items.prompt_count() > 0 {
            caps = caps.prompts(changes(List::Prompts));
        }
        if items.completer_count() > 0 {
            caps = caps.completions();
        }
        if self.logging {
            caps = caps.logging();
        }
        #[cfg(feature = "std")]
        if self.task_store.is_some() {
            caps = caps.extensions(super::task_store::EXTENSION_DECLARED);
        }
        caps
    }

    /// An endpoint configuration for this server: its [info](Self::info), the
    /// [capabilities](Self::capabilities), the instructions, and a reply reserve that holds
    /// the largest list page (so a page is always answered at once, never waiting for
    /// room). Change what else it needs (timeouts, versions) on the value.
    pub fn config(&self) -> Config<'t> {
        // Both eras: a job asks the client with a request of the server's own in a
        // handshake session and with `input_required` rounds in a stateless call.
        let config =
            Config::new(Role::Server, self.info).capabilities(self.capabilities()).reply_reserve(self.reply_reserve());
        match self.instructions {
            Some(text) => config.instructions(text),
            None => config,
        }
    }

    /// The reply reserve an endpoint needs for this server's list pages: the largest page
    /// with its envelope, at least [`DEFAULT_REPLY_RESERVE`].
    pub fn reply_reserve(&self) -> usize {
        let kinds = self.items.kinds();
        let largest = kinds.all().into_iter().flatten().map(|k| (k.largest_page)(&self.items, &self.paging)).max();
        // `{"jsonrpc":"2.0","id":…,"result":` and `}\n`, and room for a few escapes.
        (largest.unwrap_or(0) + MAX_ID_LEN + 40).max(DEFAULT_REPLY_RESERVE)
    }

    /// Announces that `list` changed: cursors issued before are refused as stale from now
    /// on, and the next [`poll`](Self::poll) sends the `list_changed` notification if the
    /// change is [announced](Self::announce_changes).
    pub fn changed(&mut self, list: List) {
        self.paging.changed(list);
        if self.announced & (1 << list as u8) != 0 {
            self.pending_changes |= 1 << list as u8;
        }
    }

    /// Step jobs running.
    pub fn jobs(&self) -> usize {
        self.work.jobs()
    }

    /// The logging level the client set (`logging/setLevel`), if it did.
    pub fn log_level(&self) -> Option<LoggingLevel> {
        self.log_level
    }

    /// The protocol version the session negotiated, once known.
    pub fn protocol_version(&self) -> Option<ProtocolVersion> {
        self.version
    }

    /// Takes an event from the endpoint: answers the requests the handlers cover, stops
    /// the work of requests that are over, and gives back everything else (for the
    /// application, or to drop).
    pub fn handle<'e>(&mut self, state: &mut S, event: Event<'e>) -> Option<Event<'e>> {
        match event {
            Event::Request(mut request) => {
                // What the request does is dated from when the endpoint received it
                // (not the last poll, which may not have come yet).
                #[cfg(feature = "std")]
                {
                    self.work.tasks.now = self.work.tasks.now.max(request.received_at());
                }
                if let Some(set_level) = self.set_level
                    && request.method == crate::mcp::Method::LoggingSetLevel
                {
                    if let Some(level) = set_level(&mut request) {
                        self.log_level = Some(level);
                        #[cfg(feature = "std")]
                        {
                            self.work.tasks.log_level = Some(level);
                        }
                    }
                    return None;
                }
                #[cfg(feature = "std")]
                if let Some(store) = &self.task_store
                    && store.serve(&mut request, self.work.tasks.now, &mut self.work)
                {
                    return None;
                }
                if self.serve(state, &mut request) { None } else { Some(Event::Request(request)) }
            }
            Event::Negotiated { version, peer } => {
                self.version = Some(version);
                Some(Event::Negotiated { version, peer })
            }
            Event::Cancelled { request, reason } => {
                self.work.end(state, &request);
                Some(Event::Cancelled { request, reason })
            }
            Event::Expired { request, method } => {
                self.work.end(state, &request);
                Some(Event::Expired { request, method })
            }
            Event::Closed { reason } => {
                self.work.end_all(state);
                Some(Event::Closed { reason })
            }
            #[cfg(feature = "std")]
            Event::Response { ref id, .. }
            | Event::Error { ref id, .. }
            | Event::TimedOut { ref id, .. }
            | Event::ResponseTooLong { ref id, .. }
            | Event::Failed { ref id, .. } => {
                // The answer to a job's question goes to the job.
                if self.work.tasks.asked(id)
                    && let Some(answer) = super::tasks::answer_of(&event)
                {
                    self.work.tasks.answered(id, answer);
                    return None;
                }
                Some(event)
            }
            other => Some(other),
        }
    }

    /// Runs what needs the endpoint: announces list changes, sends answers that waited for
    /// room, steps the step jobs that are due and delivers what jobs on other threads
    /// did. Call it whenever the loop is about to wait (and drain the endpoint after);
    /// returns when to call it again if nothing else happens first.
    pub fn poll<const OUT: usize, const IN: usize, B: Buffer, E: Profile>(
        &mut self,
        state: &mut S,
        ep: &mut Endpoint<'_, OUT, IN, B, E>,
        now: Instant,
    ) -> Option<Instant> {
        for list in [List::Tools, List::Resources, List::Templates, List::Prompts] {
            let bit = 1 << list as u8;
            if self.pending_changes & bit != 0 {
                match ep.send_notification(now, list.changed_method(), None::<&RawJson<'_>>) {
                    Err(crate::session::SendError::TxFull { .. }) => {}
                    _ => self.pending_changes &= !bit,
                }
            }
        }
        #[cfg(feature = "std")]
        let expires = {
            self.work.tasks.now = now;
            self.task_store.as_ref().and_then(|store| store.expire_due(now))
        };
        let due = self.work.poll(state, &mut super::outlet::At(ep, now), now);
        #[cfg(feature = "std")]
        let due = match (due, expires) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        due
    }

    /// Answers `request` if the handlers cover its method: each kind of handler declared
    /// brings its own dispatch (see `dispatch.rs`).
    fn serve(&mut self, state: &mut S, request: &mut IncomingRequest<'_>) -> bool {
        serve(&self.items, &self.paging, &mut self.work, state, request)
    }

    /// The list changes to announce since the last call, by [`List`] bit.
    #[cfg(any(feature = "stdio", feature = "http"))]
    pub(crate) fn take_changes(&mut self) -> u8 {
        core::mem::take(&mut self.pending_changes)
    }
}

/// Answers `logging/setLevel`, giving the level it set.
pub(crate) type SetLevel = fn(&mut IncomingRequest<'_>) -> Option<LoggingLevel>;

/// Reads a `logging/setLevel` request's level and answers it (`None`: its params were
/// not a level, answered -32602).
pub(crate) fn set_level(request: &mut IncomingRequest<'_>) -> Option<LoggingLevel> {
    match request.params.and_then(|p| p.decode::<crate::mcp::SetLevelParams<'_>>().ok()) {
        Some(p) => {
            let _ = request.respond_empty();
            Some(p.level)
        }
        None => {
            let _ = request
                .respond_error(crate::wire::ErrorCode::INVALID_PARAMS, "Invalid params: level must be a logging level");
            None
        }
    }
}

/// Answers `request` with the handlers of `items`, keeping work in progress in
/// `runtime` (the server's own, or a session's in the adapters' binding).
pub(crate) fn serve<S, J>(
    items: &Items<'_, S, J>,
    paging: &Paging,
    runtime: &mut dyn super::work::Runtime<J>,
    state: &mut S,
    request: &mut IncomingRequest<'_>,
) -> bool {
    let kinds = items.kinds();
    let mut parts = Parts { items, paging, runtime };
    for kind in kinds.all().into_iter().flatten() {
        if (kind.serve)(&mut parts, state, request) {
            return true;
        }
    }
    false
}
