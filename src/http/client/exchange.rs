//! Exchanges: one HTTP request and its response, in a fixed table of slots.
//!
//! Each slot owns an equal part of the caller's storage buffer and uses it for one
//! thing at a time: the body of the request it sends (kept until the response head says
//! it will not be sent again: after a 401, or while a 2024-11-05 server's `endpoint` is
//! awaited), then the response: a JSON body collected whole, or an event stream through
//! an [`SseDecoder`] over the same bytes.

use core::fmt;

use crate::framing::sse::SseDecoder;
use crate::wire::RequestId;

use super::outgoing::OutKind;

/// Names one HTTP exchange: the adapter keys its connection by it and passes it back
/// with every part of the response. Each retry or reconnection is a new exchange with a
/// new id, so parts of an abandoned one can never be taken for the current one.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ExchangeId(u32);

impl ExchangeId {
    pub(crate) const fn new(slot: usize, generation: u32) -> Self {
        ExchangeId(((generation & 0x00FF_FFFF) << 8) | (slot as u32 & 0xFF))
    }

    /// The slot (0 to `X - 1`) the exchange runs in. Exchanges of one slot never
    /// overlap, so an adapter may keep one connection (or task) per slot.
    pub const fn slot(self) -> usize {
        (self.0 & 0xFF) as usize
    }

    pub(crate) const fn generation(self) -> u32 {
        self.0 >> 8
    }

    /// The id as a number, for the adapter's tables and logs.
    pub const fn as_u32(self) -> u32 {
        self.0
    }
}

impl fmt::Debug for ExchangeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "x{}.{}", self.slot(), self.generation())
    }
}

impl fmt::Display for ExchangeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// The HTTP method of a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum HttpMethod {
    /// `GET`: an event stream.
    Get,
    /// `POST`: one message.
    Post,
    /// `DELETE`: the end of the session.
    Delete,
}

impl HttpMethod {
    /// The method's name.
    pub const fn as_str(self) -> &'static str {
        match self {
            HttpMethod::Get => "GET",
            HttpMethod::Post => "POST",
            HttpMethod::Delete => "DELETE",
        }
    }
}

/// What an exchange is for; an adapter may use it to pick timeouts (the streams stay
/// open for as long as the server likes, a POST's response may be an event stream too).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ExchangeKind {
    /// Streamable HTTP: a POST of one message; the response is JSON, an event stream,
    /// or 202.
    Post,
    /// Streamable HTTP: the standalone `GET` stream of server-initiated messages.
    Stream,
    /// Streamable HTTP: a `GET` with `Last-Event-ID` resuming a POST's response stream.
    Resume,
    /// Streamable HTTP: the `DELETE` that ends the session.
    Delete,
    /// HTTP+SSE (2024-11-05): the `GET` stream that carries every server message.
    LegacyStream,
    /// HTTP+SSE: a POST of one message to the announced endpoint; answered 202.
    LegacyPost,
}

impl ExchangeKind {
    /// Whether the exchange may stay open for long (a stream, or a request whose answer
    /// may come as one), as opposed to one that is answered at once. At most all slots
    /// but one hold long exchanges, so that answers and notifications always find one.
    pub(crate) fn is_long(self, out: OutKind) -> bool {
        match self {
            ExchangeKind::Stream | ExchangeKind::Resume | ExchangeKind::LegacyStream => true,
            ExchangeKind::Post => out.expects_response(),
            ExchangeKind::Delete | ExchangeKind::LegacyPost => false,
        }
    }
}

/// How a response body is being read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BodyMode {
    /// `application/json`, collected whole; `len` bytes so far.
    Json { len: usize },
    /// `text/event-stream`.
    Sse,
    /// Anything else: thrown away.
    Discard,
}

/// Why the adapter says a response ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ending {
    /// The body ended normally.
    Complete,
    /// The connection failed.
    Failed(super::event::Failure),
}

/// Where a slot's exchange stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stage {
    /// Nothing here.
    Free,
    /// The request is ready: the next poll hands it out.
    Queued,
    /// A stream waits to be reconnected at this instant.
    Waiting { at: crate::time::Instant },
    /// The request went out; its response head has not come.
    Sent,
    /// The body is being read; `ended` once the adapter said it ended (events still
    /// buffered are delivered first).
    Reading { mode: BodyMode, ended: Option<Ending> },
    /// The initialize request is kept while the HTTP+SSE `endpoint` is awaited.
    Held,
    /// 401/403: the application is being told (then `AuthBlocked`); `challenge` bytes
    /// of `WWW-Authenticate` follow the request body in the raw store.
    AuthPending { status: u16, challenge: usize },
    /// 401/403: waiting for the application to retry or give up.
    AuthBlocked { status: u16, challenge: usize },
    /// The exchange failed for good: the application is being told (then `Free`).
    Lost(super::event::LostReason),
}

/// A slot's share of the storage: raw bytes, or an event stream decoder over them.
pub(crate) enum Store<'a> {
    Raw(&'a mut [u8]),
    Sse(SseDecoder<'a>),
}

impl<'a> Store<'a> {
    /// The bytes, as raw storage (a decoder gives its buffer back).
    pub fn raw(&mut self) -> &mut [u8] {
        if let Store::Sse(d) = self {
            let buf = core::mem::replace(d, SseDecoder::new(Default::default())).into_buffer();
            *self = Store::Raw(buf);
        }
        match self {
            Store::Raw(b) => b,
            Store::Sse(_) => &mut [],
        }
    }

    /// The raw bytes without converting (empty while a decoder holds them).
    pub fn raw_ref(&self) -> &[u8] {
        match self {
            Store::Raw(b) => b,
            Store::Sse(_) => &[],
        }
    }

    /// Puts a fresh decoder over the bytes.
    pub fn start_sse(&mut self) {
        let buf: &'a mut [u8] = match self {
            Store::Raw(b) => core::mem::take(b),
            Store::Sse(d) => core::mem::replace(d, SseDecoder::new(Default::default())).into_buffer(),
        };
        *self = Store::Sse(SseDecoder::new(buf));
    }

    pub fn sse(&mut self) -> Option<&mut SseDecoder<'a>> {
        match self {
            Store::Sse(d) => Some(d),
            Store::Raw(_) => None,
        }
    }

    pub fn sse_ref(&self) -> Option<&SseDecoder<'a>> {
        match self {
            Store::Sse(d) => Some(d),
            Store::Raw(_) => None,
        }
    }

    pub fn capacity(&self) -> usize {
        match self {
            Store::Raw(b) => b.len(),
            Store::Sse(d) => d.capacity(),
        }
    }
}

/// One exchange slot.
pub(crate) struct Slot<'a> {
    /// The current exchange's id.
    pub id: ExchangeId,
    pub kind: ExchangeKind,
    pub stage: Stage,
    /// The request went out and the adapter has not said it ended: the adapter may
    /// still be running it, so leaving it needs an `Abort`.
    pub live: bool,
    /// An exchange of this slot to be aborted, handed out by the next poll. The slot
    /// is not reused before.
    pub abort: Option<ExchangeId>,
    pub store: Store<'a>,
    /// What the POSTed message is, and its length at the front of the raw store.
    pub out: OutKind,
    pub body_len: usize,
    /// The request id the POST carries (requests only).
    pub request: Option<RequestId>,
    /// The request carried `Mcp-Session-Id`.
    pub carried_session: bool,
    /// A 2026-07-28 request was refused with this status and a JSON body that is read
    /// for its answer (see `HeadFacts::modern`).
    pub refused: Option<u16>,
    /// The awaited response has been seen.
    pub answered: bool,
    /// Reconnection attempts in a row that brought nothing new.
    pub attempts: u8,
    /// Retries after 401/403 so far.
    pub auth_tries: u8,
    /// This connection delivered something new (a message or a new event id).
    pub fruitful: bool,
    /// A hash of the last event id when this connection started.
    pub id_mark: u64,
}

impl<'a> Slot<'a> {
    pub fn new(index: usize, buf: &'a mut [u8]) -> Self {
        Slot {
            id: ExchangeId::new(index, 0),
            kind: ExchangeKind::Post,
            stage: Stage::Free,
            live: false,
            abort: None,
            store: Store::Raw(buf),
            out: OutKind::Notification,
            body_len: 0,
            request: None,
            carried_session: false,
            refused: None,
            answered: false,
            attempts: 0,
            auth_tries: 0,
            fruitful: false,
            id_mark: 0,
        }
    }

    /// Whether new work may take this slot.
    pub fn is_free(&self) -> bool {
        matches!(self.stage, Stage::Free) && self.abort.is_none()
    }

    /// Whether the slot counts against the long-exchange limit.
    pub fn is_long(&self) -> bool {
        !matches!(self.stage, Stage::Free) && self.kind.is_long(self.out)
    }

    /// Leaves the HTTP exchange in progress: an `Abort` if the adapter may still run it.
    /// Its parts are ignored from now on (they need `live`).
    pub fn stop_http(&mut self) {
        if self.live {
            self.abort = Some(self.id);
            self.live = false;
        }
    }

    /// A new id, for the next HTTP request of this slot.
    pub fn next_id(&mut self) -> ExchangeId {
        self.id = ExchangeId::new(self.id.slot(), self.id.generation().wrapping_add(1));
        self.id
    }

    /// Empties the slot (the request id stays readable until the slot is reused, for the
    /// event that reports it).
    pub fn clear(&mut self) {
        self.stop_http();
        self.stage = Stage::Free;
        self.store.raw();
        self.answered = false;
        self.attempts = 0;
        self.auth_tries = 0;
        self.fruitful = false;
        self.carried_session = false;
        self.refused = None;
        self.body_len = 0;
    }
}

/// FNV-1a, to tell whether an event id changed without keeping a copy of it.
pub(crate) fn id_hash(id: &[u8]) -> u64 {
    id.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_pack_slot_and_generation() {
        let id = ExchangeId::new(3, 0x12_3456);
        assert_eq!((id.slot(), id.generation()), (3, 0x12_3456));
        assert_eq!(std::format!("{id}"), "x3.1193046");
        // Generations wrap in 24 bits and stay distinct from their neighbours.
        let wrapped = ExchangeId::new(1, 0x100_0000);
        assert_eq!(wrapped.generation(), 0);
        assert_ne!(ExchangeId::new(1, 1), ExchangeId::new(1, 2));
    }

    #[test]
    fn store_switches_between_raw_and_sse() {
        let mut buf = [0u8; 16];
        let mut s = Store::Raw(&mut buf);
        s.raw()[0] = 7;
        s.start_sse();
        assert_eq!(s.sse().unwrap().feed(b"data: x\n\n"), 9);
        assert!(s.sse().is_some());
        assert_eq!(s.capacity(), 16);
        assert_eq!(s.raw().len(), 16);
        assert!(s.sse_ref().is_none());
    }
}
