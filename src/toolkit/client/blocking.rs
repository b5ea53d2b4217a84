//! [`BlockingClient`]: one blocking client whichever the transport: a server it spawns
//! (stdio, [`StdioClientBuilder`](super::StdioClientBuilder)) or one at a URL (HTTP,
//! [`HttpClientBuilder`](super::HttpClientBuilder)).
//!
//! The endpoint runs on a thread of its own, in the transport's adapter loop, with a
//! [`Client`] answering the server's requests through the [`Hooks`]; the application's
//! thread sends requests through the loop's mailbox and waits for their answers on a
//! channel each. Progress callbacks run on the loop's thread. The transport files only
//! start the loop and forward its callbacks to the [`Session`] here, so every method
//! behaves the same over both.
//!
//! Memory stays bounded: the mailbox is the adapter's bounded one, and a request that
//! finds every slot taken waits in `queued`, which holds at most one request per
//! thread blocked in a call (a caller waits until its request is sent) plus cancels.

use std::collections::VecDeque;
use std::io;
use std::string::String;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;
use std::time::Duration;
use std::vec::Vec;

use serde::Serialize;

use super::answer::{Answer, ClientError};
use super::client::Client;
use super::hooks::Hooks;
use crate::mcp::ProtocolVersion;
use crate::session::{
    Endpoint, Event, IncomingNotification, Misbehavior, PageWalker, PaginationError, RequestOptions, RetryTicket,
    SendError,
};
use crate::time::Instant;
use crate::toolkit::server::List;
use crate::toolkit::server::owned::to_json;
use crate::wire::{ErrorCode, RawJson, RequestId};

/// Requests in flight at once.
pub(super) const OUT: usize = 32;
/// The server's requests held at once.
pub(super) const IN: usize = 8;
/// The endpoint's receive buffer: the largest message taken.
pub(super) const RX: usize = 1 << 20;
/// The endpoint's transmit buffer.
pub(super) const TX: usize = 256 * 1024;

/// The endpoint both transports run.
pub(super) type Ep<'b> = Endpoint<'b, OUT, IN>;

/// Called with each progress notification of a call: progress, total, message.
type OnProgress = Box<dyn FnMut(f64, Option<f64>, Option<&str>) + Send>;

/// Called with each notification of the server's but progress (see
/// [`ClientBuilder::notifications`](super::ClientBuilder::notifications)).
pub(super) type OnNotification = Box<dyn FnMut(&IncomingNotification<'_>) + Send>;

/// Called with each rule the server broke (see
/// [`ClientBuilder::misbehavior`](super::ClientBuilder::misbehavior)).
pub(super) type OnMisbehavior = Box<dyn FnMut(&Misbehavior<'_>) + Send>;

/// What the application hears of the session beyond its calls' answers.
#[derive(Default)]
pub(super) struct Listeners {
    pub notification: Option<OnNotification>,
    pub misbehavior: Option<OnMisbehavior>,
}

/// What the application's thread asks of the loop.
pub(super) enum Msg {
    Request {
        method: String,
        params: Option<Vec<u8>>,
        options: RequestOptions,
        waiter: Waiter,
    },
    /// A call sent again with the answers to its `input_required` result (2026-07-28).
    Retry {
        ticket: RetryTicket,
        retry: Again,
        responses: Vec<u8>,
        state: Option<String>,
        waiter: Waiter,
    },
    Cancel {
        id: RequestId,
    },
    /// Ends the listen stream `id` (2026-07-28).
    EndListen {
        id: RequestId,
    },
    Close,
}

/// What the loop tells a waiting call: `Sent` at most once (when the request first
/// goes out), then `Done` once ([`Waiter::done`] takes the waiter), so a channel of
/// [`REPLIES`] slots never fills.
enum Reply {
    Sent(RequestId),
    Done(Result<Answer, ClientError>),
}

/// The replies a call's channel holds: `Sent`, then `Done`.
const REPLIES: usize = 2;

pub(super) struct Waiter {
    /// Sent to with `try_send`: the loop never blocks on a caller (a caller that
    /// stopped listening has dropped its end, and the reply is dropped with it).
    reply: SyncSender<Reply>,
    progress: Option<OnProgress>,
    /// What the request was, for the methods a stateless server may answer with
    /// `input_required`: sent again with the answers.
    again: Option<Again>,
    /// The id the call was first sent with (what the caller cancels it by), once it has
    /// been sent again.
    first: Option<RequestId>,
    /// The `input_required` rounds it went through.
    rounds: usize,
}

/// A request's method, params and options, to send it again.
pub(super) struct Again {
    params: Option<Vec<u8>>,
    options: RequestOptions,
}

/// The methods a server may answer with `input_required` (2026-07-28).
fn may_ask(method: &str) -> bool {
    matches!(method, "tools/call" | "prompts/get" | "resources/read")
}

impl Waiter {
    fn done(self, outcome: Result<Answer, ClientError>) {
        let _ = self.reply.try_send(Reply::Done(outcome));
    }
}

/// The loop's side.
pub(super) struct Session<H> {
    client: Client<H>,
    waiting: Vec<(RequestId, Waiter)>,
    /// Requests that found every slot taken, sent as slots free.
    queued: VecDeque<Msg>,
    /// Told once the handshake is complete (or failed).
    /// Taken by the one send it ever carries (the handshake's outcome), so one slot.
    ready: Option<SyncSender<Result<(ProtocolVersion, Answer), ClientError>>>,
    initialize: Option<Answer>,
    listeners: Listeners,
}

impl<H> Session<H> {
    fn take(&mut self, id: &RequestId) -> Option<Waiter> {
        let at = self.waiting.iter().position(|(i, _)| i == id)?;
        Some(self.waiting.swap_remove(at).1)
    }

    fn run(&mut self, ep: &mut Ep<'_>, now: Instant, msg: Msg) -> Option<Msg> {
        match msg {
            Msg::Request { method, params, options, mut waiter } => {
                let raw = params.as_deref().map(RawJson::from_validated);
                match ep.send_request(now, &method, raw.as_ref(), options) {
                    Ok(id) => {
                        let _ = waiter.reply.try_send(Reply::Sent(id.clone()));
                        if may_ask(&method) {
                            waiter.again = Some(Again { params, options });
                        }
                        self.waiting.push((id, waiter));
                    }
                    Err(SendError::TooManyInFlight { .. } | SendError::TxFull { .. }) => {
                        return Some(Msg::Request { method, params, options, waiter });
                    }
                    Err(e) => waiter.done(Err(ClientError::Send(e))),
                }
            }
            Msg::Retry { ticket, retry, responses, state, mut waiter } => {
                let params = retry.params.as_deref().map(RawJson::from_validated);
                let answers = RawJson::from_validated(&responses);
                match ep.retry(now, &ticket, params.as_ref(), &answers, state.as_deref(), retry.options) {
                    Ok(id) => {
                        waiter.again = Some(retry);
                        self.waiting.push((id, waiter));
                    }
                    Err(SendError::TooManyInFlight { .. } | SendError::TxFull { .. }) => {
                        return Some(Msg::Retry { ticket, retry, responses, state, waiter });
                    }
                    Err(e) => waiter.done(Err(ClientError::Send(e))),
                }
            }
            Msg::Cancel { id } => {
                // The caller knows the call by its first id; sent again after an
                // `input_required` result, it goes by another now, or waits to go.
                let current = self.waiting.iter().find(|(i, w)| *i == id || w.first.as_ref() == Some(&id));
                if let Some(current) = current.map(|(i, _)| i.clone()) {
                    if ep.cancel(now, &current, Some("cancelled by the client")).is_ok()
                        && let Some(w) = self.take(&current)
                    {
                        w.done(Err(ClientError::Cancelled));
                    }
                } else if let Some(at) = self
                    .queued
                    .iter()
                    .position(|m| matches!(m, Msg::Retry { waiter, .. } if waiter.first.as_ref() == Some(&id)))
                    && let Some(Msg::Retry { waiter, .. }) = self.queued.remove(at)
                {
                    waiter.done(Err(ClientError::Cancelled));
                }
            }
            // A stream the server ended already is no longer the endpoint's: nothing to say.
            Msg::EndListen { id } => {
                let _ = ep.cancel(now, &id, Some("done listening"));
            }
            Msg::Close => ep.close(now),
        }
        None
    }
}

impl<H: Hooks> Session<H> {
    /// A session answering with `client`'s hooks; `ready` is told how the handshake went.
    /// `listeners` hear the server's notifications and misbehaviour.
    pub(super) fn new(
        client: Client<H>,
        ready: SyncSender<Result<(ProtocolVersion, Answer), ClientError>>,
        listeners: Listeners,
    ) -> Self {
        Session {
            client,
            waiting: Vec::new(),
            queued: VecDeque::new(),
            ready: Some(ready),
            initialize: None,
            listeners,
        }
    }

    /// An event of the endpoint.
    pub(super) fn on_event(&mut self, event: Event<'_>) {
        match event {
            Event::Negotiated { peer, .. } => self.initialize = Some(Answer::new(peer)),
            Event::Ready { version } => {
                if let (Some(ready), Some(init)) = (self.ready.take(), self.initialize.take()) {
                    let _ = ready.send(Ok((version, init)));
                }
            }
            Event::Request(mut request) => {
                let served = self.client.serve(&mut request);
                if !served {
                    let _ = request.respond_error(ErrorCode::METHOD_NOT_FOUND, "Method not found");
                }
            }
            Event::Response { id, result, .. } => {
                if let Some(w) = self.take(&id) {
                    w.done(Ok(Answer::new(result)));
                }
            }
            // A listen stream's acknowledgement is the answer `listen` waits for; the
            // stream's notifications go to the notifications' callback.
            Event::Subscribed { id, granted } => {
                if let Some(w) = self.take(&id) {
                    w.done(Ok(Answer::new(granted)));
                }
            }
            Event::InputRequired { id, result, retry, .. } => {
                // Answered through the hooks, then sent again (at the next idle, with
                // the endpoint at hand).
                let Some(mut w) = self.take(&id) else { return };
                w.first.get_or_insert(id);
                w.rounds += 1;
                if w.rounds > BlockingClient::MAX_ROUNDS {
                    return w.done(Err(ClientError::TooManyRounds));
                }
                let fulfilled = self.client.fulfil(result);
                match (fulfilled, w.again.take()) {
                    (Ok((responses, state)), Some(again)) => {
                        self.queued.push_back(Msg::Retry { ticket: retry, retry: again, responses, state, waiter: w });
                    }
                    (Err(e), _) => w.done(Err(e)),
                    (Ok(_), None) => w.done(Err(ClientError::Error {
                        code: ErrorCode::INVALID_REQUEST,
                        message: "input_required for a request that cannot be sent again".into(),
                        data: Some(Answer::new(result)),
                    })),
                }
            }
            Event::Error { id, error, .. } => {
                if let Some(w) = self.take(&id) {
                    let message = error.message.chars().collect();
                    let data = error.data.map(Answer::new);
                    w.done(Err(ClientError::Error { code: error.code, message, data }));
                }
            }
            Event::Notification(notification) => {
                if let Some(on_notification) = self.listeners.notification.as_mut() {
                    on_notification(&notification);
                }
            }
            Event::Misbehavior(what) => {
                if let Some(on_misbehavior) = self.listeners.misbehavior.as_mut() {
                    on_misbehavior(&what);
                }
            }
            Event::Progress { id, progress, total, message } => {
                if let Some((_, w)) = self.waiting.iter_mut().find(|(i, _)| *i == id)
                    && let (Some(on_progress), Some(p)) = (w.progress.as_mut(), progress.as_f64())
                {
                    let message: Option<String> = message.map(|m| m.chars().collect());
                    on_progress(p, total.and_then(|t| t.as_f64()), message.as_deref());
                }
            }
            Event::TimedOut { id, .. } | Event::ResponseTooLong { id, .. } => {
                if let Some(w) = self.take(&id) {
                    w.done(Err(ClientError::TimedOut));
                }
            }
            Event::Failed { id, reason, .. } => {
                if let Some(w) = self.take(&id) {
                    w.done(Err(ClientError::Closed(Some(reason))));
                }
            }
            Event::Closed { reason } => {
                for (_, w) in self.waiting.drain(..) {
                    w.done(Err(ClientError::Closed(Some(reason))));
                }
                if let Some(ready) = self.ready.take() {
                    let _ = ready.send(Err(ClientError::Closed(Some(reason))));
                }
            }
            _ => {}
        }
    }

    /// A message of the application's.
    pub(super) fn on_message(&mut self, ep: &mut Ep<'_>, now: Instant, msg: Msg) {
        if let Some(msg) = self.run(ep, now, msg) {
            self.queued.push_back(msg);
        }
    }

    /// Sends what waited for a free slot.
    pub(super) fn on_idle(&mut self, ep: &mut Ep<'_>, now: Instant) -> Option<Instant> {
        while let Some(msg) = self.queued.pop_front() {
            if let Some(msg) = self.run(ep, now, msg) {
                self.queued.push_front(msg);
                break;
            }
        }
        None
    }

    /// The request `id` will get no answer: the transport lost it (`why`).
    #[cfg(feature = "http")]
    pub(super) fn lost(&mut self, id: &RequestId, why: String) {
        if let Some(w) = self.take(id) {
            w.done(Err(ClientError::Transport(why)));
        }
    }

    /// The loop has ended (`why`, if the transport ended it): every call still waiting,
    /// and the handshake if it is, fail.
    pub(super) fn end(&mut self, why: Option<String>) {
        let error = || why.clone().map_or(ClientError::Closed(None), ClientError::Transport);
        for (_, w) in self.waiting.drain(..) {
            w.done(Err(error()));
        }
        if let Some(ready) = self.ready.take() {
            let _ = ready.send(Err(error()));
        }
        self.queued.clear();
    }
}

/// The mailbox of the adapter loop the client runs on.
pub(super) enum Outbox {
    /// The stdio loop's.
    #[cfg(feature = "stdio")]
    Stdio(crate::adapters::stdio::Mailbox<Msg>),
    /// The HTTP client loop's.
    #[cfg(feature = "http")]
    Http(crate::adapters::http::client::Mailbox<Msg>),
}

impl Outbox {
    /// Sends `msg` to the loop (waiting while the mailbox is full); `false` once the loop
    /// has ended.
    pub(super) fn send(&self, msg: Msg) -> bool {
        match self {
            #[cfg(feature = "stdio")]
            Outbox::Stdio(mailbox) => mailbox.send(msg),
            #[cfg(feature = "http")]
            Outbox::Http(mailbox) => mailbox.send(msg),
        }
    }
}

/// How a session ended at [`BlockingClient::close`].
#[derive(Debug)]
#[non_exhaustive]
pub enum Closed {
    /// The spawned server exited (see [`Exit`](crate::adapters::stdio::Exit)).
    #[cfg(feature = "stdio")]
    Exited(crate::adapters::stdio::Exit),
    /// The connection to the server ended (HTTP: the session was closed with a `DELETE`
    /// where the server allows it).
    Disconnected,
}

/// A blocking MCP client, the same whichever the transport: a server it spawned over
/// stdio ([`spawn`](Self::spawn)) or one at a URL over Streamable HTTP, falling back to
/// HTTP+SSE ([`connect`](Self::connect)). Requests from any thread, each waiting for its
/// own answer.
///
/// ```no_run
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use mcp_sansio::toolkit::client::BlockingClient;
/// #[derive(serde::Serialize)]
/// struct Forecast<'a> { city: &'a str, days: u8 }
///
/// # #[cfg(feature = "stdio")]
/// let client = BlockingClient::spawn(std::process::Command::new("weather-server"))?;
/// # #[cfg(not(feature = "stdio"))]
/// # let client = BlockingClient::connect("http://127.0.0.1:3000/mcp")?;
/// // or: BlockingClient::connect("http://127.0.0.1:3000/mcp")?
/// let answer = client.call_tool("get_forecast", &Forecast { city: "Oslo", days: 2 })?;
/// println!("{}", answer.text());
/// for page in client.resources() {
///     println!("{}", page?.json().get("resources").unwrap());
/// }
/// client.close()?;
/// # Ok(()) }
/// ```
pub struct BlockingClient {
    pub(super) outbox: Outbox,
    thread: Option<JoinHandle<io::Result<()>>>,
    /// The spawned server, and how long it has to exit once its stdin is closed and
    /// after SIGTERM.
    #[cfg(feature = "stdio")]
    child: Option<(crate::adapters::stdio::ChildProcess, [Duration; 2])>,
    /// The wire mode's stdin and tap (stdio, see `wire.rs`).
    #[cfg(feature = "stdio")]
    pub(super) raw: Option<(super::wire::SharedStdin, super::wire::Tap)>,
    version: ProtocolVersion,
    initialize: Answer,
}

/// What a transport's builder hands over once its loop's thread is running.
pub(super) struct Started {
    pub outbox: Outbox,
    pub thread: JoinHandle<io::Result<()>>,
    #[cfg(feature = "stdio")]
    pub child: Option<(crate::adapters::stdio::ChildProcess, [Duration; 2])>,
    #[cfg(feature = "stdio")]
    pub raw: Option<(super::wire::SharedStdin, super::wire::Tap)>,
    pub ready: Receiver<Result<(ProtocolVersion, Answer), ClientError>>,
}

impl BlockingClient {
    /// The `input_required` rounds a call follows (a stateless server's questions
    /// answered and the call sent again) before it fails with
    /// [`ClientError::TooManyRounds`].
    pub const MAX_ROUNDS: usize = 16;

    /// Waits for the handshake of a started loop.
    pub(super) fn start(started: Started) -> io::Result<Self> {
        let mut client = BlockingClient {
            outbox: started.outbox,
            thread: Some(started.thread),
            #[cfg(feature = "stdio")]
            child: started.child,
            #[cfg(feature = "stdio")]
            raw: started.raw,
            version: ProtocolVersion::V2025_11_25,
            initialize: Answer::new(RawJson::EMPTY_OBJECT),
        };
        match started.ready.recv() {
            Ok(Ok((version, initialize))) => {
                client.version = version;
                client.initialize = initialize;
                Ok(client)
            }
            Ok(Err(e)) => {
                let _ = client.stop();
                Err(io::Error::other(e))
            }
            Err(_) => Err(client.stop().err().unwrap_or_else(|| io::Error::other("the session ended at once"))),
        }
    }

    /// The protocol version negotiated.
    pub fn protocol_version(&self) -> ProtocolVersion {
        self.version
    }

    /// The server's `initialize` result (`serverInfo`, `capabilities`, `instructions`).
    pub fn initialize_result(&self) -> &Answer {
        &self.initialize
    }

    /// Sends `method` with `params` and waits for the answer.
    pub fn request<P: Serialize + ?Sized>(&self, method: &str, params: &P) -> Result<Answer, ClientError> {
        self.send(method, Some(params), RequestOptions::default(), None)?.wait()
    }

    /// Calls the tool `name` with `arguments` (a struct of the tool's arguments, or any
    /// value that serializes to an object) and waits for its result. A tool that failed
    /// is a result too: see [`Answer::is_error`].
    pub fn call_tool<A: Serialize + ?Sized>(&self, name: &str, arguments: &A) -> Result<Answer, ClientError> {
        self.call(name, arguments).send()
    }

    /// A call of the tool `name` to configure (progress, timeout) before sending it.
    pub fn call<'c, A: Serialize + ?Sized>(&'c self, name: &str, arguments: &A) -> Call<'c> {
        #[derive(Serialize)]
        struct Params<'n, A: ?Sized> {
            name: &'n str,
            arguments: &'n A,
        }
        Call {
            client: self,
            params: to_json(&Params { name, arguments }),
            options: RequestOptions::default(),
            progress: None,
        }
    }

    /// Walks `list` lazily: each item of the iterator is the next page (asked for only
    /// when the previous one has been taken), its items under `list.field()`. The walk
    /// stops with an error if the server's cursors go round, or after 1000 pages.
    pub fn list(&self, list: List) -> Pages<'_> {
        Pages { client: self, list, walker: PageWalker::new(super::DEFAULT_MAX_PAGES), done: false }
    }

    /// Every page of `tools/list`.
    pub fn tools(&self) -> Pages<'_> {
        self.list(List::Tools)
    }

    /// Every page of `resources/list`.
    pub fn resources(&self) -> Pages<'_> {
        self.list(List::Resources)
    }

    /// Every page of `resources/templates/list`.
    pub fn resource_templates(&self) -> Pages<'_> {
        self.list(List::Templates)
    }

    /// Every page of `prompts/list`.
    pub fn prompts(&self) -> Pages<'_> {
        self.list(List::Prompts)
    }

    /// Reads the resource at `uri`.
    pub fn read_resource(&self, uri: &str) -> Result<Answer, ClientError> {
        #[derive(Serialize)]
        struct Params<'a> {
            uri: &'a str,
        }
        self.request("resources/read", &Params { uri })
    }

    /// Gets the prompt `name` with `arguments` (strings).
    pub fn get_prompt<A: Serialize + ?Sized>(&self, name: &str, arguments: &A) -> Result<Answer, ClientError> {
        #[derive(Serialize)]
        struct Params<'n, A: ?Sized> {
            name: &'n str,
            arguments: &'n A,
        }
        self.request("prompts/get", &Params { name, arguments })
    }

    fn send<P: Serialize + ?Sized>(
        &self,
        method: &str,
        params: Option<&P>,
        options: RequestOptions,
        progress: Option<OnProgress>,
    ) -> Result<PendingCall<'_>, ClientError> {
        let params = match params {
            Some(p) => {
                Some(to_json(p).ok_or(ClientError::Send(SendError::Encode(crate::wire::EncodeError::NotAnObject)))?)
            }
            None => None,
        };
        self.send_json(method, params, options, progress)
    }

    pub(super) fn send_json(
        &self,
        method: &str,
        params: Option<Vec<u8>>,
        options: RequestOptions,
        progress: Option<OnProgress>,
    ) -> Result<PendingCall<'_>, ClientError> {
        let (reply, replies) = sync_channel(REPLIES);
        let waiter = Waiter { reply, progress, again: None, first: None, rounds: 0 };
        if !self.outbox.send(Msg::Request { method: method.into(), params, options, waiter }) {
            return Err(ClientError::Closed(None));
        }
        match replies.recv() {
            Ok(Reply::Sent(id)) => Ok(PendingCall { client: self, id, replies }),
            Ok(Reply::Done(Err(e))) => Err(e),
            Ok(Reply::Done(Ok(_))) | Err(_) => Err(ClientError::Closed(None)),
        }
    }

    /// Ends the session and waits for the loop to end. A spawned server has its stdin
    /// closed and is waited for (two seconds, then SIGTERM, two more, then SIGKILL); an
    /// HTTP session is ended with a `DELETE`. Requests still waiting fail.
    pub fn close(mut self) -> io::Result<Closed> {
        self.stop()
    }

    fn stop(&mut self) -> io::Result<Closed> {
        let _ = self.outbox.send(Msg::Close);
        let Some(thread) = self.thread.take() else { return Err(io::Error::other("already closed")) };
        let ended = match thread.join() {
            Ok(result) => result,
            Err(_) => Err(io::Error::other("the client's loop panicked")),
        };
        // A spawned server is shut down whatever became of the loop.
        #[cfg(feature = "stdio")]
        if let Some((child, [grace, term_grace])) = self.child.take() {
            let exit = child.shutdown(grace, term_grace);
            return ended.and(exit.map(Closed::Exited));
        }
        ended.map(|()| Closed::Disconnected)
    }
}

impl Drop for BlockingClient {
    fn drop(&mut self) {
        if self.thread.is_some() {
            let _ = self.stop();
        }
    }
}

impl core::fmt::Debug for BlockingClient {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("BlockingClient").field("version", &self.version).finish_non_exhaustive()
    }
}

/// A tool call being set up: [`progress`](Self::progress), [`timeout`](Self::timeout),
/// [`log_level`](Self::log_level), then [`send`](Self::send) (and wait) or [`start`](Self::start) (and cancel, perhaps).
#[must_use = "a call is sent by send() or start()"]
pub struct Call<'c> {
    client: &'c BlockingClient,
    params: Option<Vec<u8>>,
    options: RequestOptions,
    progress: Option<OnProgress>,
}

impl<'c> Call<'c> {
    /// Asks for progress; `on_progress` gets each notification (progress, total, message)
    /// on the client's loop thread. Progress also restarts the call's timeout.
    pub fn progress(mut self, on_progress: impl FnMut(f64, Option<f64>, Option<&str>) + Send + 'static) -> Self {
        self.options.progress = true;
        self.options.reset_timeout_on_progress = true;
        self.progress = Some(Box::new(on_progress));
        self
    }

    /// Asks for the server's log messages about this call at `level` and above: in
    /// 2026-07-28 a request gets none unless it asks (`_meta`'s
    /// `io.modelcontextprotocol/logLevel`); a handshake-era session has one level for
    /// everything, set with `logging/setLevel`, and ignores this. They come to
    /// [`ClientBuilder::notifications`](super::ClientBuilder::notifications).
    pub fn log_level(mut self, level: crate::mcp::LoggingLevel) -> Self {
        self.options = self.options.with_log_level(level);
        self
    }

    /// Fails the call with [`ClientError::TimedOut`] after `timeout` without an answer
    /// (or progress).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.options = self.options.timeout(timeout);
        self
    }

    /// Sends the call and waits for its result.
    pub fn send(self) -> Result<Answer, ClientError> {
        self.start()?.wait()
    }

    /// Sends the call; the answer is waited for with [`PendingCall::wait`].
    pub fn start(self) -> Result<PendingCall<'c>, ClientError> {
        let params = self.params.ok_or(ClientError::Send(SendError::Encode(crate::wire::EncodeError::NotAnObject)))?;
        self.client.send_json("tools/call", Some(params), self.options, self.progress)
    }
}

/// A request sent, its answer not yet taken.
#[must_use = "wait() takes the answer"]
pub struct PendingCall<'c> {
    client: &'c BlockingClient,
    id: RequestId,
    replies: Receiver<Reply>,
}

impl PendingCall<'_> {
    /// The request's id.
    pub fn id(&self) -> &RequestId {
        &self.id
    }

    /// Waits for the answer.
    pub fn wait(self) -> Result<Answer, ClientError> {
        match self.replies.recv() {
            Ok(Reply::Done(outcome)) => outcome,
            Ok(Reply::Sent(_)) | Err(_) => Err(ClientError::Closed(None)),
        }
    }

    /// The answer, if it has come.
    pub fn try_wait(&self) -> Option<Result<Answer, ClientError>> {
        match self.replies.try_recv() {
            Ok(Reply::Done(outcome)) => Some(outcome),
            _ => None,
        }
    }

    /// Cancels the request (the server is told with `notifications/cancelled`): it fails
    /// with [`ClientError::Cancelled`], unless its answer came first.
    pub fn cancel(self) -> Result<Answer, ClientError> {
        let _ = self.client.outbox.send(Msg::Cancel { id: self.id.clone() });
        self.wait()
    }
}

/// The pages of a list, asked for one at a time (see [`BlockingClient::list`]).
pub struct Pages<'c> {
    client: &'c BlockingClient,
    list: List,
    walker: PageWalker<1024>,
    done: bool,
}

impl Iterator for Pages<'_> {
    type Item = Result<Answer, ClientError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let page = self.client.request(self.list.method(), &self.walker.params());
        let page = match page {
            Ok(page) => page,
            Err(e) => {
                self.done = true;
                return Some(Err(e));
            }
        };
        match self.walker.next_page(page.json()) {
            Ok(crate::session::Page::More) => {}
            Ok(crate::session::Page::Done) => self.done = true,
            Err(PaginationError::Finished) => return None,
            Err(e) => {
                self.done = true;
                return Some(Err(ClientError::Walk(e)));
            }
        }
        Some(Ok(page))
    }
}
