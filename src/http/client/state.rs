//! [`HttpClient`]: the state, the commands and the getters. Inputs are in `input.rs`,
//! the drain in `drain.rs`.

use heapless::Deque;

use super::config::{ClientConfig, ConfigError, MIN_SLOT, TransportMode};
use super::event::{Expiry, HttpMisbehavior, RetryError, SendError, TokenError, Transport};
use super::exchange::{ExchangeId, ExchangeKind, Slot, Stage};
use super::outgoing::{OutKind, classify};
use super::request::{self, HeaderValues, HttpRequest};
use super::text::Text;
use crate::mcp::ProtocolVersion;
use crate::time::Instant;
use crate::wire::RequestId;

/// Events waiting for the drain, beyond those a slot's stage carries. Bounded: an input
/// queues at most a few, and the caller drains after each one.
pub(crate) const EVENT_QUEUE: usize = 16;

/// An event that borrows nothing (or only what the client keeps anyway).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Queued {
    Connected,
    FellBack(u16),
    StandaloneUnavailable(Option<u16>),
    Reconnecting { exchange: ExchangeId, attempt: u8, at: Instant },
    Misbehavior { exchange: ExchangeId, what: HttpMisbehavior },
    SessionExpired(Expiry),
    Closed,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    /// Running (before, during and after the handshake).
    Open,
    /// The session expired: only an `initialize` may go.
    Expired,
    /// `close` was called; the `DELETE` is on its way.
    Closing,
    Closed,
}

/// The standalone GET stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Standalone {
    /// Not opened yet.
    Idle,
    /// To be opened as soon as a slot allows.
    Wanted,
    /// A slot holds it (connected, connecting or waiting to reconnect).
    Active,
    /// Unavailable, given up, or not wanted.
    Off,
}

/// The HTTP+SSE stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Legacy {
    None,
    /// To be opened as soon as a slot allows.
    Wanted,
    /// Opened in this slot; the `endpoint` event has not come.
    Connecting(usize),
    /// Open in this slot, endpoint known.
    Ready(usize),
}

/// The message handed out and not yet consumed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pending {
    pub slot: usize,
    pub exchange: ExchangeId,
    /// `Some(len)`: a JSON body of `len` bytes at the front of the raw store; `None`: the
    /// decoder's current event.
    pub json: Option<usize>,
}

/// The sans-IO client side of MCP's HTTP transports: Streamable HTTP, with the
/// 2024-11-05 HTTP+SSE transport as a fallback.
///
/// It turns outgoing messages into HTTP requests (each with every header the transport
/// requires) and response parts into incoming messages, and does what the transports
/// ask of a client between the two: the session id, the protocol version header, the
/// standalone `GET` stream, resuming broken streams with `Last-Event-ID` on the server's
/// `retry`, a new session after a 404, the fallback, `DELETE` on close, and 401/403 as
/// events the application answers with a new token.
///
/// `X` is the number of exchanges (HTTP requests) that can be in flight at once; each
/// gets an equal share of the storage buffer, which holds its request body and then its
/// response (a JSON body, or the current event of a stream), so a slot must fit the
/// largest message either way. One slot is always kept from streams and requests, so
/// that an answer to a server's request can go out while a request's stream is open:
/// `X = 4` allows the standalone stream and two requests at once.
///
/// See the [module documentation](super) for the driving loop.
pub struct HttpClient<'a, const X: usize = 4> {
    pub(crate) config: ClientConfig<'a>,
    pub(crate) text: Text<'a>,
    pub(crate) slots: [Slot<'a>; X],
    pub(crate) phase: Phase,
    /// The transport settled by an answered `initialize`.
    pub(crate) transport: Option<Transport>,
    /// A Streamable HTTP POST was answered 2xx: no fallback any more.
    pub(crate) streamable_seen: bool,
    /// The server speaks HTTP+SSE (configured, or found by the fallback).
    pub(crate) legacy_known: bool,
    pub(crate) version: Option<ProtocolVersion>,
    /// The `initialize` in flight.
    pub(crate) init: Option<RequestId>,
    /// The session id came with the `initialize` response head, whose body is not read yet.
    pub(crate) session_tentative: bool,
    pub(crate) standalone: Standalone,
    pub(crate) legacy: Legacy,
    pub(crate) delete_wanted: bool,
    pub(crate) events: Deque<Queued, EVENT_QUEUE>,
    pub(crate) events_dropped: usize,
    pub(crate) message: Option<Pending>,
    pub(crate) now: Instant,
}

impl<'a, const X: usize> HttpClient<'a, X> {
    /// A client for `config`'s URL over `storage`: the first
    /// [`ClientConfig::text_len`] bytes hold the session id, the HTTP+SSE endpoint and
    /// the bearer token; the rest is split evenly between the `X` exchanges
    /// ([`ClientConfig::storage_len`] computes the size for a given slot size).
    pub fn new(config: ClientConfig<'a>, storage: &'a mut [u8]) -> Result<Self, ConfigError> {
        if X < 2 || X > 256 {
            return Err(ConfigError::TooFewExchanges);
        }
        let text_len = config.text_len();
        let needed = config.storage_len(X, MIN_SLOT);
        if storage.len() < needed {
            return Err(ConfigError::StorageTooSmall { needed });
        }
        let (text, rest) = storage.split_at_mut(text_len);
        let slot_len = rest.len() / X;
        let mut chunks = rest.chunks_exact_mut(slot_len);
        let slots = core::array::from_fn(|i| Slot::new(i, chunks.next().unwrap_or_default()));
        Ok(Self {
            config,
            text: Text::new(&config, text),
            slots,
            phase: Phase::Open,
            transport: None,
            streamable_seen: false,
            legacy_known: config.mode == TransportMode::Legacy,
            version: None,
            init: None,
            session_tentative: false,
            standalone: if config.standalone_stream { Standalone::Idle } else { Standalone::Off },
            legacy: Legacy::None,
            delete_wanted: false,
            events: Deque::new(),
            events_dropped: 0,
            message: None,
            now: Instant::ZERO,
        })
    }

    // ---- commands -------------------------------------------------------------------

    /// POSTs one message (what the session's `Transmit` holds in message mode). Returns
    /// the exchange that carries it; on `Err` nothing was taken.
    ///
    /// The message is copied into a slot, where it stays until its response head says
    /// it will not be sent again. `initialize` goes without the session id (a new
    /// session after a 404 must not carry the old one); everything else carries it, and
    /// `MCP-Protocol-Version` once `initialize` was answered. A
    /// `notifications/cancelled` also drops the stream of the request it cancels.
    pub fn send_message(&mut self, now: Instant, message: &[u8]) -> Result<ExchangeId, SendError> {
        self.advance(now);
        if matches!(self.phase, Phase::Closing | Phase::Closed) {
            return Err(SendError::Closed);
        }
        let out = classify(message).ok_or(SendError::NotAMessage)?;
        let (kind, stage, i) = self.place(out.kind, message.len())?;
        if let Some(cancelled) = &out.cancels {
            self.drop_request_stream(cancelled);
        }
        let slot = &mut self.slots[i];
        slot.store.raw()[..message.len()].copy_from_slice(message);
        slot.body_len = message.len();
        slot.kind = kind;
        slot.out = out.kind;
        slot.request = out.id.clone();
        slot.stage = stage;
        let id = slot.next_id();
        if out.kind == OutKind::Initialize {
            self.init = out.id;
            self.phase = Phase::Open;
            if matches!(stage, Stage::Held) {
                self.legacy = Legacy::Wanted;
            }
        }
        Ok(id)
    }

    /// Where a message of `kind` and `len` bytes would go now: its exchange kind, first
    /// stage and slot.
    pub(crate) fn place(&self, kind: OutKind, len: usize) -> Result<(ExchangeKind, Stage, usize), SendError> {
        if matches!(self.phase, Phase::Closing | Phase::Closed) {
            return Err(SendError::Closed);
        }
        if self.phase == Phase::Expired && kind != OutKind::Initialize {
            return Err(SendError::SessionExpired);
        }
        let capacity = self.slot_capacity();
        if len > capacity {
            return Err(SendError::TooLarge { needed: len, capacity });
        }
        let (exchange, stage) = if self.legacy_known {
            match (self.legacy, kind) {
                (Legacy::Ready(_), _) => (ExchangeKind::LegacyPost, Stage::Queued),
                // A new HTTP+SSE session: its stream first, then this initialize.
                (Legacy::None, OutKind::Initialize) => (ExchangeKind::LegacyPost, Stage::Held),
                _ => return Err(SendError::Busy),
            }
        } else {
            (ExchangeKind::Post, Stage::Queued)
        };
        let i = self.allocate(exchange.is_long(kind)).ok_or(SendError::Busy)?;
        Ok((exchange, stage, i))
    }

    /// Sets the bearer token sent as `Authorization: Bearer <token>` on every request
    /// from now on (POST, GET, DELETE, reconnections), or removes it (`None`). A refused
    /// token changes nothing.
    pub fn set_bearer_token(&mut self, token: Option<&str>) -> Result<(), TokenError> {
        self.text.set_token(token)
    }

    /// Sends a request refused with 401/403 again, with the token set now (see
    /// [`Event::AuthRequired`](super::Event::AuthRequired)). Returns the new exchange.
    pub fn retry(&mut self, exchange: ExchangeId) -> Result<ExchangeId, RetryError> {
        let i = self.blocked(exchange)?;
        let slot = &mut self.slots[i];
        slot.auth_tries = slot.auth_tries.saturating_add(1);
        slot.stage = Stage::Queued;
        Ok(slot.next_id())
    }

    /// Gives up on a request refused with 401/403: a message is reported
    /// [`Lost`](super::Event::Lost) (so that the session fails it), the standalone
    /// stream [`StandaloneUnavailable`](super::Event::StandaloneUnavailable), the
    /// HTTP+SSE stream loses the `initialize` waiting for it.
    pub fn give_up(&mut self, exchange: ExchangeId) -> Result<(), RetryError> {
        let i = self.blocked(exchange)?;
        let Stage::AuthBlocked { status, .. } = self.slots[i].stage else { return Err(RetryError::NotWaiting) };
        self.fail(i, super::event::LostReason::Unauthorized { status }, Some(status));
        Ok(())
    }

    fn blocked(&self, exchange: ExchangeId) -> Result<usize, RetryError> {
        let i = exchange.slot();
        match self.slots.get(i) {
            Some(s) if s.id == exchange && matches!(s.stage, Stage::AuthBlocked { .. }) => Ok(i),
            _ => Err(RetryError::NotWaiting),
        }
    }

    /// Ends the session: every exchange is aborted, then (Streamable HTTP with a session
    /// id, unless configured otherwise) a `DELETE` ends it on the server.
    /// [`Event::Closed`](super::Event::Closed) follows when that is answered or fails.
    pub fn close(&mut self, now: Instant) {
        self.advance(now);
        if matches!(self.phase, Phase::Closing | Phase::Closed) {
            return;
        }
        self.drop_all();
        let delete = self.config.delete_on_close
            && self.transport == Some(Transport::Streamable)
            && self.text.session_id().is_some();
        if delete {
            self.phase = Phase::Closing;
            self.delete_wanted = true;
        } else {
            self.phase = Phase::Closed;
            self.queue(Queued::Closed);
        }
    }

    /// The message handed out last by [`poll_output`](Self::poll_output) was taken by
    /// the session: the next poll moves on.
    pub fn consume_message(&mut self) {
        let Some(p) = self.message.take() else { return };
        let slot = &mut self.slots[p.slot];
        if slot.id != p.exchange {
            return;
        }
        let done = match p.json {
            Some(_) => true,
            None => slot.answered && matches!(slot.kind, ExchangeKind::Post | ExchangeKind::Resume),
        };
        if done {
            // The answer is in: the response stream has nothing more for us.
            slot.clear();
        }
    }

    // ---- getters --------------------------------------------------------------------

    /// The request of an exchange whose response head has not come yet, again (for an
    /// adapter that writes it out in pieces).
    pub fn request(&self, exchange: ExchangeId) -> Option<HttpRequest<'_>> {
        let slot = self.slots.get(exchange.slot())?;
        (slot.id == exchange && matches!(slot.stage, Stage::Sent)).then(|| self.build_request(exchange.slot()))
    }

    /// The session id the server gave, if any.
    pub fn session_id(&self) -> Option<&str> {
        self.text.session_id()
    }

    /// The protocol version `initialize` settled (sent as `MCP-Protocol-Version`).
    pub fn protocol_version(&self) -> Option<ProtocolVersion> {
        self.version
    }

    /// The transport, once `initialize` was answered.
    pub fn transport(&self) -> Option<Transport> {
        self.transport
    }

    /// The URL messages are POSTed to: the MCP endpoint, or the one an HTTP+SSE server
    /// announced.
    pub fn post_url(&self) -> &str {
        if self.legacy_known { self.text.endpoint_url().unwrap_or("") } else { self.config.url.as_str() }
    }

    /// Exchange slots in use (requests in flight, streams, waiting reconnections, held
    /// messages).
    pub fn exchanges_in_use(&self) -> usize {
        self.slots.iter().filter(|s| !matches!(s.stage, Stage::Free)).count()
    }

    /// The bytes of storage each exchange has: the largest message it can send or take.
    pub fn slot_capacity(&self) -> usize {
        self.slots[0].store.capacity()
    }

    /// Whether the standalone `GET` stream is still being opened: the handshake is done
    /// over Streamable HTTP, and the stream waits for `notifications/initialized` to be
    /// accepted, for a slot, or for its response head. False once it is open, refused,
    /// given up or not wanted, over HTTP+SSE, and before the handshake.
    ///
    /// An adapter may hold the application's first requests until then, so that a server
    /// which drops the messages it has for a stream nobody has opened yet (the TypeScript
    /// SDK does, for a request a tool sends without relating it to the call) loses none.
    pub fn standalone_opening(&self) -> bool {
        if self.phase != Phase::Open || self.legacy_known || self.transport != Some(Transport::Streamable) {
            return false;
        }
        match self.standalone {
            Standalone::Idle | Standalone::Wanted => true,
            Standalone::Active => self
                .slots
                .iter()
                .any(|s| s.kind == ExchangeKind::Stream && matches!(s.stage, Stage::Queued | Stage::Sent)),
            Standalone::Off => false,
        }
    }

    /// Whether [`Event::Closed`](super::Event::Closed) has been queued.
    pub fn is_closed(&self) -> bool {
        self.phase == Phase::Closed
    }

    /// Events dropped because the queue was full (the caller did not drain after
    /// inputs); stays 0 when the drain rule is kept.
    pub fn events_dropped(&self) -> usize {
        self.events_dropped
    }

    /// The earliest reconnection deadline: call [`handle_timeout`](Self::handle_timeout) then.
    pub fn poll_timeout(&self) -> Option<Instant> {
        self.slots
            .iter()
            .filter_map(|s| match s.stage {
                Stage::Waiting { at } => Some(at),
                _ => None,
            })
            .min()
    }

    // ---- internals ------------------------------------------------------------------

    pub(crate) fn advance(&mut self, now: Instant) {
        self.now = self.now.max(now);
    }

    pub(crate) fn queue(&mut self, event: Queued) {
        if self.events.push_back(event).is_err() {
            self.events_dropped += 1;
        }
    }

    /// A free slot for an exchange; a long one (a stream, or a request whose answer may
    /// stream) only if it leaves one slot that holds no long exchange.
    pub(crate) fn allocate(&self, long: bool) -> Option<usize> {
        if long && self.slots.iter().filter(|s| s.is_long()).count() + 1 >= X {
            return None;
        }
        self.slots.iter().position(Slot::is_free)
    }

    /// Drops the exchange of the request `id` (it was cancelled): nothing more of it is
    /// wanted, and no reconnection.
    fn drop_request_stream(&mut self, id: &RequestId) {
        for slot in &mut self.slots {
            if !matches!(slot.stage, Stage::Free)
                && matches!(slot.kind, ExchangeKind::Post | ExchangeKind::Resume)
                && slot.request.as_ref() == Some(id)
            {
                slot.clear();
            }
        }
        if self.message.is_some_and(|p| matches!(self.slots[p.slot].stage, Stage::Free)) {
            self.message = None;
        }
    }

    /// Aborts and empties every exchange.
    pub(crate) fn drop_all(&mut self) {
        for slot in &mut self.slots {
            slot.clear();
        }
        self.message = None;
        self.delete_wanted = false;
        if self.standalone != Standalone::Off {
            self.standalone = Standalone::Idle;
        }
        self.legacy = Legacy::None;
    }

    /// The session is gone: drop all of it, and accept only a new `initialize`.
    pub(crate) fn expire(&mut self, reason: Expiry) {
        self.drop_all();
        if self.config.standalone_stream {
            self.standalone = Standalone::Idle;
        }
        self.text.clear_session_id();
        self.text.clear_endpoint_url();
        self.version = None;
        self.init = None;
        self.session_tentative = false;
        self.transport = None;
        self.phase = Phase::Expired;
        self.queue(Queued::SessionExpired(reason));
    }

    /// The request for slot `i`'s current exchange.
    pub(crate) fn build_request(&self, i: usize) -> HttpRequest<'_> {
        let slot = &self.slots[i];
        let kind = slot.kind;
        let initialize = kind == ExchangeKind::Post && slot.out == OutKind::Initialize;
        let url = match kind {
            ExchangeKind::LegacyPost => self.text.endpoint_url().unwrap_or(""),
            _ => self.config.url.as_str(),
        };
        let last_event_id = match kind {
            ExchangeKind::Stream | ExchangeKind::Resume => slot
                .store
                .sse_ref()
                .map(|d| d.last_event_id())
                .and_then(|id| crate::http::headers::last_event_id(id).ok())
                .filter(|id| !id.is_empty()),
            _ => None,
        };
        let values = HeaderValues {
            session_id: if initialize { None } else { self.text.session_id() },
            version: match kind {
                _ if initialize => None,
                ExchangeKind::LegacyStream => None,
                _ => self.version.map(ProtocolVersion::as_str),
            },
            authorization: self.text.authorization(),
            last_event_id,
        };
        let body = slot.store.raw_ref().get(..slot.body_len).unwrap_or(&[]);
        request::build(slot.id, kind, url, body, values)
    }
}
