//! [`Client`]: typed calls, lists walked page by page, and the server's requests
//! answered by [`Hooks`], over a client [`Endpoint`], sans-IO.

use serde::Serialize;

use super::hooks::{Hooks, Reply};
use crate::mcp::{CallToolResult, CreateMessageParams, ElicitParams, Method, Role};
use crate::session::{
    Buffer, Config, Endpoint, Event, IncomingRequest, Info, Page, PageWalker, PaginationError, RequestOptions,
    SendError,
};
use crate::time::Instant;
use crate::toolkit::server::List;
use crate::wire::{DecodeError, ErrorCode, JsonStr, RawJson, RequestId};
#[cfg(feature = "alloc")]
use {
    super::answer::{Answer, ClientError},
    alloc::string::String,
    alloc::vec::Vec,
};

/// What the client makes of an event.
#[derive(Debug)]
#[non_exhaustive]
#[allow(clippy::large_enum_variant)] // no allocator to box with; it lives on the stack for one match
pub enum ClientEvent<'e> {
    /// A page of a list being walked ([`Client::walk`]); the next one is asked for at the
    /// next [`Client::poll`], unless this is the `last`.
    Page {
        /// The list.
        list: List,
        /// The page's result: its items are under `list.field()`.
        result: RawJson<'e>,
        /// Whether this is the last page.
        last: bool,
    },
    /// A walk stopped before its end: the server's cursors go round in a cycle, or there
    /// are more pages than the cap. (An error answer to a page ends the walk too; it
    /// comes as the [`Event::Error`] it is.)
    WalkFailed {
        /// The list.
        list: List,
        /// Why.
        error: PaginationError,
    },
    /// The answer to a `tools/call`, decoded.
    ToolResult {
        /// The call's id.
        id: RequestId,
        /// The result, or why it could not be read.
        result: Result<CallToolResult<'e>, DecodeError>,
    },
    /// Everything else, as the endpoint reported it (including the server's requests
    /// that are none of the hooks', which must be answered).
    Other(Event<'e>),
}

/// A list being walked.
struct Walk<const C: usize> {
    list: List,
    /// The page request in flight.
    request: Option<RequestId>,
    /// A page request is due.
    due: bool,
    walker: PageWalker<C>,
    options: RequestOptions,
}

/// The pages a walk may take before it stops, unless set.
pub const DEFAULT_MAX_PAGES: u32 = 1000;

/// A client over an [`Endpoint`]: tools called with typed arguments and their results
/// decoded, lists walked lazily through every page (cycles and runaway servers stopped),
/// and the server's requests (sampling, elicitation, roots) answered by its [`Hooks`].
/// Progress, timeouts and cancellation are the endpoint's own: [`RequestOptions`] to ask,
/// [`Event::Progress`] and [`Event::TimedOut`] to hear, [`Endpoint::cancel`] to withdraw.
///
/// `C` bounds the cursor a walk stores (256 bytes by default); one walk per list runs at
/// a time. Feed it the endpoint's events with [`handle`](Self::handle), and call
/// [`poll`](Self::poll) with the endpoint before the loop waits.
pub struct Client<H, const C: usize = 256> {
    hooks: H,
    walks: [Option<Walk<C>>; 4],
    max_pages: u32,
}

/// `tools/call` params with typed arguments.
#[derive(Serialize)]
struct ToolCall<'n, A: ?Sized> {
    name: &'n str,
    arguments: &'n A,
}

impl<H: Hooks, const C: usize> Client<H, C> {
    /// A client answering the server's requests with `hooks`.
    pub fn new(hooks: H) -> Self {
        Client { hooks, walks: [const { None }; 4], max_pages: DEFAULT_MAX_PAGES }
    }

    /// Stops a walk after `max` pages (1000 by default).
    pub fn max_pages(mut self, max: u32) -> Self {
        self.max_pages = max.max(1);
        self
    }

    /// The hooks.
    pub fn hooks(&mut self) -> &mut H {
        &mut self.hooks
    }

    /// An endpoint configuration for this client: `info` and the hooks' capabilities.
    pub fn config<'i>(&self, info: impl Into<Info<'i>>) -> Config<'i> {
        // The handshake era by default: `handle` answers a handshake server's requests
        // through the hooks, but gives an `input_required` result back as it is (answer
        // it with `fulfil` and `Endpoint::retry`, then pick `Era::Auto` on the value).
        // The blocking client drives both eras.
        Config::new(Role::Client, info).capabilities(self.hooks.capabilities()).era(crate::session::Era::Legacy)
    }

    /// Calls the tool `name` with `arguments` (any value that serializes to an object:
    /// a struct of the tool's arguments, a [`RawJson`]). The answer comes as
    /// [`ClientEvent::ToolResult`] with the returned id.
    pub fn call_tool<A: Serialize + ?Sized, const OUT: usize, const IN: usize, B: Buffer>(
        &mut self,
        ep: &mut Endpoint<'_, OUT, IN, B>,
        now: Instant,
        name: &str,
        arguments: &A,
        options: RequestOptions,
    ) -> Result<RequestId, SendError> {
        ep.send_request(now, "tools/call", Some(&ToolCall { name, arguments }), options)
    }

    /// Starts walking `list` from its first page: each page comes as a
    /// [`ClientEvent::Page`], the next asked for at the next [`poll`](Self::poll). A walk of
    /// the same list already under way starts again.
    pub fn walk<const OUT: usize, const IN: usize, B: Buffer>(
        &mut self,
        ep: &mut Endpoint<'_, OUT, IN, B>,
        now: Instant,
        list: List,
        options: RequestOptions,
    ) -> Result<(), SendError> {
        let walk = Walk { list, request: None, due: true, walker: PageWalker::new(self.max_pages), options };
        self.walks[list as usize] = Some(walk);
        self.send_pages(ep, now)
    }

    /// Whether `list` is being walked.
    pub fn walking(&self, list: List) -> bool {
        self.walks[list as usize].is_some()
    }

    /// Sends what is due: the next page of each walk.
    pub fn poll<const OUT: usize, const IN: usize, B: Buffer>(
        &mut self,
        ep: &mut Endpoint<'_, OUT, IN, B>,
        now: Instant,
    ) -> Result<(), SendError> {
        self.send_pages(ep, now)
    }

    fn send_pages<const OUT: usize, const IN: usize, B: Buffer>(
        &mut self,
        ep: &mut Endpoint<'_, OUT, IN, B>,
        now: Instant,
    ) -> Result<(), SendError> {
        for walk in self.walks.iter_mut().flatten().filter(|w| w.due) {
            match ep.send_request(now, walk.list.method(), Some(&walk.walker.params()), walk.options) {
                Ok(id) => {
                    walk.request = Some(id);
                    walk.due = false;
                }
                // Sent at a later poll.
                Err(SendError::TooManyInFlight { .. } | SendError::TxFull { .. }) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// The slot of the walk waiting for `id`.
    fn walk_of(&mut self, id: &RequestId) -> Option<&mut Option<Walk<C>>> {
        self.walks.iter_mut().find(|w| w.as_ref().is_some_and(|w| w.request.as_ref() == Some(id)))
    }

    /// Takes an event from the endpoint: answers the server's requests the hooks cover,
    /// turns pages and tool results into [`ClientEvent`]s, and gives back everything
    /// else.
    pub fn handle<'e>(&mut self, event: Event<'e>) -> Option<ClientEvent<'e>> {
        match event {
            Event::Request(mut request) => {
                if self.serve(&mut request) {
                    None
                } else {
                    Some(ClientEvent::Other(Event::Request(request)))
                }
            }
            Event::Response { id, method, result } => {
                if let Some(slot) = self.walk_of(&id) {
                    let walk = slot.as_mut()?;
                    let list = walk.list;
                    walk.request = None;
                    return Some(match walk.walker.next_page(result) {
                        Ok(Page::More) => {
                            walk.due = true;
                            ClientEvent::Page { list, result, last: false }
                        }
                        Ok(Page::Done) => {
                            *slot = None;
                            ClientEvent::Page { list, result, last: true }
                        }
                        Err(error) => {
                            *slot = None;
                            ClientEvent::WalkFailed { list, error }
                        }
                    });
                }
                if method == Some(Method::ToolsCall) {
                    return Some(ClientEvent::ToolResult { id, result: result.decode() });
                }
                Some(ClientEvent::Other(Event::Response { id, method, result }))
            }
            Event::Error { ref id, .. } | Event::TimedOut { ref id, .. } | Event::Failed { ref id, .. } => {
                if let Some(slot) = self.walk_of(id) {
                    *slot = None;
                }
                Some(ClientEvent::Other(event))
            }
            other => Some(ClientEvent::Other(other)),
        }
    }

    /// Gives one of the server's requests to its hook (what [`handle`](Self::handle) does
    /// with them); `false` if it is none of theirs, and still to be answered.
    pub fn serve(&mut self, request: &mut IncomingRequest<'_>) -> bool {
        fn params<'e, T: serde::Deserialize<'e>>(request: &mut IncomingRequest<'e>) -> Option<T> {
            let decoded = request.params.unwrap_or(RawJson::EMPTY_OBJECT).decode();
            if decoded.is_err() {
                let _ = request.respond_error(ErrorCode::INVALID_PARAMS, "Invalid params");
            }
            decoded.ok()
        }
        match request.method {
            Method::SamplingCreateMessage => {
                if let Some(p) = params::<CreateMessageParams<'_>>(request) {
                    self.hooks.sampling(p, Reply::to_request(request));
                }
            }
            Method::ElicitationCreate => {
                if let Some(p) = params::<ElicitParams<'_>>(request) {
                    self.hooks.elicitation(p, Reply::to_request(request));
                }
            }
            Method::RootsList => self.hooks.roots(Reply::to_request(request)),
            _ => return false,
        }
        true
    }
}

#[cfg(feature = "alloc")]
impl<H: Hooks, const C: usize> Client<H, C> {
    /// Fulfils the `inputRequests` of an `input_required` result (2026-07-28, see
    /// [`Event::InputRequired`]) through the hooks, as they answer a handshake-era
    /// server's requests: the retry's `inputResponses` (JSON text of an object) and its
    /// `requestState`, for [`Endpoint::retry`]. A hook's error, an input request it
    /// left unanswered or one of a kind no hook takes fails the call
    /// (`ClientError::Error`).
    pub fn fulfil(&mut self, result: RawJson<'_>) -> Result<(Vec<u8>, Option<String>), ClientError> {
        use crate::mcp::InputRequest;
        let unanswered = |message: &str| ClientError::Error {
            code: ErrorCode::INVALID_REQUEST,
            message: message.into(),
            data: Some(Answer::new(result)),
        };
        let mut responses = Vec::from(&b"{"[..]);
        let requests = result.get("inputRequests").unwrap_or(RawJson::EMPTY_OBJECT);
        for (i, (key, request)) in requests.members().enumerate() {
            let key: String = key.chars().collect();
            let mut slot = None;
            let reply = Reply { to: super::hooks::To::Input(&mut slot, &key) };
            match request.decode::<InputRequest<'_>>().map_err(ClientError::Decode)? {
                InputRequest::CreateMessage(p) => self.hooks.sampling(p, reply),
                InputRequest::Elicit(p) => self.hooks.elicitation(p, reply),
                InputRequest::ListRoots(_) => self.hooks.roots(reply),
                InputRequest::Other(_) => return Err(unanswered("an input request this client does not take")),
            }
            let answer = match slot {
                Some(Ok(answer)) => answer,
                Some(Err((code, message))) => return Err(ClientError::Error { code, message, data: None }),
                None => return Err(unanswered("the hooks left an input request unanswered")),
            };
            if i > 0 {
                responses.push(b',');
            }
            responses.extend_from_slice(&crate::toolkit::server::owned::to_json(key.as_str()).unwrap_or_default());
            responses.push(b':');
            responses.extend_from_slice(&answer);
        }
        responses.push(b'}');
        let state = result.get("requestState").and_then(|s| s.as_str()).map(|s| s.chars().collect());
        Ok((responses, state))
    }
}

/// The text blocks of a tool result, for code that wants just the text.
pub fn result_text<'a>(result: &CallToolResult<'a>) -> impl Iterator<Item = JsonStr<'a>> + 'a {
    result.content.iter().filter_map(|block| block.ok()?.as_text())
}
