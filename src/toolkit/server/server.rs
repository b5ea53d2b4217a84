//! [`Server`]: the endpoint's events in, the declared handlers' answers out.

use serde::Deserialize;

use super::complete::Complete;
use super::list::{List, Page, Paging};
use super::prompt::Get;
use super::resource::{Read, short_text};
use super::step::{NoJob, Step};
use super::table::{Items, Table};
use super::tool::Call;
use super::uri_template::match_template;
use super::work::{Work, answer};
use crate::mcp::{CompleteParams, Implementation, ListChanged, Method, ProtocolVersion, Role, ServerCapabilities};
use crate::session::{Buffer, Config, DEFAULT_REPLY_RESERVE, Endpoint, Event, IncomingRequest};
use crate::time::Instant;
use crate::wire::{EncodeError, ErrorCode, FrameWriter, JsonStr, MAX_ID_LEN, RawJson};

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
    info: Implementation<'t>,
    instructions: Option<&'t str>,
    version: Option<ProtocolVersion>,
}

/// `tools/call` and `prompts/get` params: the name, and the arguments kept raw.
#[derive(Deserialize)]
struct Named<'a> {
    #[serde(borrow)]
    name: JsonStr<'a>,
    #[serde(borrow, default)]
    arguments: Option<RawJson<'a>>,
}

/// `resources/read` params.
#[derive(Deserialize)]
struct Uri<'a> {
    #[serde(borrow)]
    uri: JsonStr<'a>,
}

/// The longest URI matched against templates when it came escaped.
const URI_SCRATCH: usize = 512;

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
            info: Implementation::new("mcp-sansio-server", env!("CARGO_PKG_VERSION")),
            instructions: None,
            version: None,
        }
    }

    /// Who the server is (`serverInfo`).
    pub fn info(mut self, info: Implementation<'t>) -> Self {
        self.info = info;
        self
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

    /// Declares `logging`: `logging/setLevel` comes to the application, which sends
    /// `notifications/message`.
    pub fn logging(mut self) -> Self {
        self.logging = true;
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
        caps
    }

    /// An endpoint configuration for this server: its [info](Self::info), the
    /// [capabilities](Self::capabilities), the instructions, and a reply reserve that holds
    /// the largest list page (so a page is always answered at once, never waiting for
    /// room). Change what else it needs (timeouts, versions) on the value.
    pub fn config(&self) -> Config<'t> {
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
        let mut largest = 0;
        for list in [List::Tools, List::Resources, List::Templates, List::Prompts] {
            let len = self.len(list);
            let mut start = 0;
            loop {
                largest = largest.max(self.page_len(list, start, len));
                start += self.paging.page_size;
                if start >= len {
                    break;
                }
            }
        }
        // `{"jsonrpc":"2.0","id":…,"result":` and `}\n`, and room for a few escapes.
        (largest + MAX_ID_LEN + 40).max(DEFAULT_REPLY_RESERVE)
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
                if self.serve(state, &mut request) {
                    None
                } else {
                    Some(Event::Request(request))
                }
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
            other => Some(other),
        }
    }

    /// Runs what needs the endpoint: announces list changes, sends answers that waited for
    /// room, steps the step jobs that are due and delivers what jobs on other threads
    /// did. Call it whenever the loop is about to wait (and drain the endpoint after);
    /// returns when to call it again if nothing else happens first.
    pub fn poll<const OUT: usize, const IN: usize, B: Buffer>(
        &mut self,
        state: &mut S,
        ep: &mut Endpoint<'_, OUT, IN, B>,
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
        self.work.poll(state, ep, now)
    }

    /// Answers `request` if the handlers cover its method.
    fn serve(&mut self, state: &mut S, request: &mut IncomingRequest<'_>) -> bool {
        let items = &self.items;
        let resources = items.set_count() > 0 || items.template_count() > 0;
        match request.method {
            Method::ToolsList if items.tool_count() > 0 => self.list(request, List::Tools),
            Method::ToolsCall if items.tool_count() > 0 => self.call(state, request),
            Method::ResourcesList if resources => self.list(request, List::Resources),
            Method::ResourcesTemplatesList if resources => self.list(request, List::Templates),
            Method::ResourcesRead if resources => self.read(state, request),
            Method::PromptsList if items.prompt_count() > 0 => self.list(request, List::Prompts),
            Method::PromptsGet if items.prompt_count() > 0 => self.get_prompt(state, request),
            Method::CompletionComplete if items.completer_count() > 0 => self.complete(state, request),
            _ => return false,
        }
        true
    }

    fn len(&self, list: List) -> usize {
        match list {
            List::Tools => self.items.tool_count(),
            List::Resources => self.items.resource_count(),
            List::Templates => self.items.template_count(),
            List::Prompts => self.items.prompt_count(),
        }
    }

    /// The size of the page of `list` that starts at `start`.
    fn page_len(&self, list: List, start: usize, len: usize) -> usize {
        let (range, next) = self.paging.page_at(list, start, len);
        let mut none = [0u8; 0];
        let mut w = FrameWriter::unterminated(&mut none);
        let items = &self.items;
        let field = list.field();
        let measured = match list {
            List::Tools => w.value(&Page { field, items: range.filter_map(|i| items.tool(i)).map(|t| t.tool()), next }),
            List::Resources => w.value(&Page { field, items: range.filter_map(|i| items.resource(i)), next }),
            List::Templates => {
                w.value(&Page { field, items: range.filter_map(|i| items.template(i)).map(|t| t.template()), next })
            }
            List::Prompts => {
                w.value(&Page { field, items: range.filter_map(|i| items.prompt(i)).map(|p| p.prompt()), next })
            }
        };
        match measured {
            Ok(r) => r.len(),
            Err(EncodeError::BufferTooSmall { needed, .. }) => needed,
            Err(_) => 0,
        }
    }

    fn list(&mut self, request: &mut IncomingRequest<'_>, list: List) {
        let (range, next) = match self.paging.page(list, request.params, self.len(list)) {
            Ok(page) => page,
            Err(e) => {
                let _ = request.respond_error(e.code(), e.message());
                return;
            }
        };
        let items = &self.items;
        let field = list.field();
        let later = &mut self.work;
        match list {
            List::Tools => {
                let page = Page { field, items: range.filter_map(|i| items.tool(i)).map(|t| t.tool()), next };
                answer(request, later, &page);
            }
            List::Resources => {
                answer(request, later, &Page { field, items: range.filter_map(|i| items.resource(i)), next })
            }
            List::Templates => {
                let page = Page { field, items: range.filter_map(|i| items.template(i)).map(|t| t.template()), next };
                answer(request, later, &page);
            }
            List::Prompts => {
                let page = Page { field, items: range.filter_map(|i| items.prompt(i)).map(|p| p.prompt()), next };
                answer(request, later, &page);
            }
        }
    }

    fn call(&mut self, state: &mut S, request: &mut IncomingRequest<'_>) {
        let Some(params) = request.params.and_then(|p| p.decode::<Named<'_>>().ok()) else {
            let _ = request.respond_error(ErrorCode::INVALID_PARAMS, "Invalid params: tools/call needs a tool name");
            return;
        };
        let arguments = params.arguments.filter(|a| !a.is_null()).unwrap_or(RawJson::EMPTY_OBJECT);
        match self.items.tools().find(|t| t.name() == params.name) {
            Some(tool) => tool.call(state, Call { request, arguments, runtime: &mut self.work }),
            None => {
                let message = short_text(&format_args!("Unknown tool: {}", params.name));
                let _ = request.respond_error(ErrorCode::INVALID_PARAMS, &message);
            }
        }
    }

    fn read(&mut self, state: &mut S, request: &mut IncomingRequest<'_>) {
        let Some(Uri { uri }) = request.params.and_then(|p| p.decode::<Uri<'_>>().ok()) else {
            let _ = request.respond_error(ErrorCode::INVALID_PARAMS, "Invalid params: resources/read needs a uri");
            return;
        };
        let later = &mut self.work;
        if let Some((set, index)) = self.items.find_resource(uri) {
            return set.read(state, index, Read { request, uri, later });
        }
        let mut scratch = [0u8; URI_SCRATCH];
        let text = uri.as_plain().or_else(|| uri.unescape_into(&mut scratch).ok());
        if let Some(text) = text {
            for template in self.items.templates() {
                let pattern = template.template().uri_template;
                let mut pattern_scratch = [0u8; URI_SCRATCH];
                let Some(pattern) = pattern.as_plain().or_else(|| pattern.unescape_into(&mut pattern_scratch).ok())
                else {
                    continue;
                };
                if let Some(vars) = match_template(pattern, text) {
                    return template.read(state, &vars, Read { request, uri, later });
                }
            }
        }
        Read { request, uri, later }.not_found();
    }

    fn get_prompt(&mut self, state: &mut S, request: &mut IncomingRequest<'_>) {
        let Some(params) = request.params.and_then(|p| p.decode::<Named<'_>>().ok()) else {
            let _ = request.respond_error(ErrorCode::INVALID_PARAMS, "Invalid params: prompts/get needs a prompt name");
            return;
        };
        let arguments = params.arguments.filter(|a| !a.is_null()).unwrap_or(RawJson::EMPTY_OBJECT);
        match self.items.prompts().find(|p| params.name == p.prompt().name) {
            Some(prompt) => prompt.get(state, Get { request, arguments, later: &mut self.work }),
            None => {
                let message = short_text(&format_args!("Unknown prompt: {}", params.name));
                let _ = request.respond_error(ErrorCode::INVALID_PARAMS, &message);
            }
        }
    }

    fn complete(&mut self, state: &mut S, request: &mut IncomingRequest<'_>) {
        let Some(params) = request.params.and_then(|p| p.decode::<CompleteParams<'_>>().ok()) else {
            let _ = request.respond_error(
                ErrorCode::INVALID_PARAMS,
                "Invalid params: completion/complete needs a ref and an argument",
            );
            return;
        };
        let argument = params.argument;
        let completer = self.items.completers().find(|c| {
            let (target, name) = c.target();
            target.matches(&params.reference) && argument.name == name
        });
        let reply = Complete { request };
        match completer {
            Some(c) => c.complete(state, argument.value, params.context, reply),
            None => reply.none(),
        }
    }
}
