//! The SSE side of one session: its streams, the connections that carry them, what is
//! sent on each, and when.
//!
//! * **Streams.** Stream 0 is the session's standalone (GET) stream; every POST that
//!   holds requests opens a stream of its own, numbered 1, 2, …, whose number is the
//!   `Origin` tag its messages carry. A message goes on exactly one stream: its
//!   origin's while that POST still awaits responses, the GET stream otherwise (a
//!   late notification for a request already answered is unrelated by then). A POST
//!   stream ends when the last of its requests is answered.
//! * **Connections.** At most one HTTP response carries a stream at a time. A POST's
//!   own response carries its stream; a GET carries stream 0, or, with
//!   `Last-Event-ID`, the stream that id names (any POST stream: resumption is always
//!   a GET in 2025-11-25). A second GET for a stream replaces the first (the old one
//!   is closed, never refused: Cursor reconnects that way). A dropped connection ends
//!   nothing: its stream goes on collecting messages for a resume.
//! * **JSON or SSE.** A POST's response form is decided by the first message for it:
//!   its response (a single request) may go as plain `application/json`
//!   ([`JsonResponses`]); anything else first (progress, a log message, a request to
//!   the client) makes it an SSE stream.
//! * **Events.** SSE events carry ids `<epoch>-<stream>-<seq>` (the epoch is random
//!   per session, so ids from before a restart name nothing; seq counts the session's
//!   messages), so a `Last-Event-ID` names its stream and position. 2025-11-25 streams
//!   open with a priming event (an id, `retry`, empty data); older clients get none
//!   (they would take empty data for a message). Every message is one `data:` line.
//! * **Storage.** Messages are kept in the caller's buffer ([`EventLog`]): each
//!   stream's queue, and after sending, the replay store. When room is short, sent
//!   messages go first, then unsent ones of streams no connection carries (reported as
//!   [`StreamOutput::Dropped`]); unsent messages of a connected stream are never
//!   dropped: [`Streams::push`] refuses ([`PushError::Backpressure`]) until the client
//!   reads. While no GET is open, at most `get_queue` unsent messages wait for one.
//! * **Keep-alive.** A `: keep-alive` comment on every SSE connection silent for
//!   `keepalive` (15 s by default).
//! * **Legacy HTTP+SSE.** A 2024-11-05 session has one stream, carried by its GET,
//!   whose first event is `endpoint` (the POST URL) and whose messages are
//!   `event: message` without ids; every message goes there.

use core::time::Duration;

use super::config::JsonResponses;
use super::log::{EventLog, Record};
use crate::ProtocolVersion;
use crate::time::Instant;

/// The standalone stream.
pub const GET_STREAM: u32 = 0;

/// How the streams of a session behave (taken from
/// [`ServerConfig`](super::ServerConfig)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamConfig {
    /// Plain JSON where possible, or always SSE.
    pub json_responses: JsonResponses,
    /// Silence before a keep-alive comment; zero for none.
    pub keepalive: Duration,
    /// The priming event's `retry`.
    pub retry_ms: u32,
    /// Close 2025-11-25 connections once their priming event and what is available
    /// are out (polling).
    pub close_after_priming: bool,
    /// Unsent messages kept for the GET stream while none is open.
    pub get_queue: u32,
}

impl Default for StreamConfig {
    fn default() -> Self {
        Self {
            json_responses: JsonResponses::WhenPossible,
            keepalive: super::config::DEFAULT_KEEPALIVE,
            retry_ms: super::config::DEFAULT_RETRY_MS,
            close_after_priming: false,
            get_queue: 64,
        }
    }
}

/// What a response body is, once decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum BodyKind {
    /// `application/json` of exactly `len` bytes.
    Json {
        /// The body's length.
        len: usize,
    },
    /// `text/event-stream`, as long as the stream lasts.
    Sse,
}

/// Something the adapter must act on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum StreamOutput {
    /// The response head of `exchange` is decided: send status 200 with this body kind.
    Head {
        /// The exchange.
        exchange: u32,
        /// Its body.
        kind: BodyKind,
    },
    /// `exchange` has bytes to read.
    Readable {
        /// The exchange.
        exchange: u32,
    },
    /// `exchange` was replaced by a newer GET for its stream: end its response now.
    Replaced {
        /// The exchange.
        exchange: u32,
    },
    /// Unsent messages of streams no connection carried were dropped for room (or the
    /// GET queue's bound was hit).
    Dropped {
        /// How many.
        messages: u32,
    },
}

/// Why a message was not stored. Nothing was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum PushError {
    /// Connected clients have not read enough yet: retry after they do (stop feeding
    /// the session meanwhile).
    Backpressure,
    /// The message is larger than the whole store.
    TooLarge {
        /// Bytes it needs.
        needed: usize,
        /// The store's size.
        capacity: usize,
    },
}

/// Why a stream or connection could not be opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum OpenError {
    /// Every stream (or connection) slot is in use.
    Full,
}

/// What [`Streams::read`] gave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ReadOutcome {
    /// Bytes written into the buffer.
    pub n: usize,
    /// The response is complete: end it (and, for a connection closed for polling,
    /// close it). The exchange is gone.
    pub end: bool,
}

#[derive(Clone, Copy, Debug)]
struct PostStream {
    id: u32,
    /// Responses still owed.
    pending: usize,
    /// The highest seq sent on any connection.
    delivered: u32,
    /// Must be SSE (the application asked, or it is a batch).
    force_sse: bool,
    /// Whether a message was stored for it yet.
    started: bool,
    /// Its stored messages not sent yet.
    unsent: u32,
}

impl PostStream {
    fn finished(&self) -> bool {
        self.pending == 0
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Undecided,
    Json,
    Sse,
}

#[derive(Clone, Copy, Debug)]
struct Conn {
    exchange: u32,
    stream: u32,
    /// The last seq sent (or, before priming, the position to resume after).
    cursor: u32,
    mode: Mode,
    head_owed: bool,
    readable_owed: bool,
    /// The preamble (priming or legacy `endpoint` event) is out.
    primed: bool,
    keepalive_due: bool,
    /// Bytes of the current piece already given.
    partial: usize,
    last_write: Instant,
    /// End once what is being written is out (polling, `disconnect`).
    end_after: bool,
    /// Where in the log the search for its next message starts, while the log's
    /// generation is `hint_gen` (no message of its stream after its cursor is before).
    hint: usize,
    hint_gen: u32,
}

/// One session's streams and connections over a message store `B` (see the module
/// docs); `S` POST streams and `C` connections at once.
pub struct Streams<B, const S: usize = 8, const C: usize = 4> {
    log: EventLog<B>,
    config: StreamConfig,
    epoch: u32,
    version: Option<ProtocolVersion>,
    legacy: Option<heapless::Vec<u8, 192>>,
    posts: [Option<PostStream>; S],
    conns: [Option<Conn>; C],
    next_stream: u32,
    get_delivered: u32,
    /// Messages stored for the GET stream not sent yet.
    get_unsent: u32,
    dropped: u32,
    /// Exchanges replaced by a newer GET, not yet reported.
    replaced: [Option<u32>; C],
}

impl<B: AsRef<[u8]> + AsMut<[u8]>, const S: usize, const C: usize> Streams<B, S, C> {
    /// Streams for a Streamable HTTP session. `epoch` is 32 random bits (event ids of
    /// other sessions and earlier processes then name nothing here); `version` the
    /// negotiated version when known (set later with [`set_version`](Self::set_version)).
    pub fn new(store: B, config: StreamConfig, epoch: u32, version: Option<ProtocolVersion>) -> Self {
        Self {
            log: EventLog::new(store),
            config,
            epoch,
            version,
            legacy: None,
            posts: [None; S],
            conns: [None; C],
            next_stream: 1,
            get_delivered: 0,
            get_unsent: 0,
            dropped: 0,
            replaced: [None; C],
        }
    }

    /// Back to what [`new`](Self::new) makes over the same store, in place: the HTTP
    /// server reuses a stateless POST's streams (their tables are kilobytes: built anew,
    /// they were copied on their way into their box and out again).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn reset(&mut self, config: StreamConfig, epoch: u32, version: Option<ProtocolVersion>) {
        let Self {
            log,
            config: c,
            epoch: e,
            version: v,
            legacy,
            posts,
            conns,
            next_stream,
            get_delivered,
            get_unsent,
            dropped,
            replaced,
        } = self;
        log.reset();
        (*c, *e, *v, *legacy) = (config, epoch, version, None);
        posts.iter_mut().for_each(|p| *p = None);
        conns.iter_mut().for_each(|c| *c = None);
        (*next_stream, *get_delivered, *get_unsent, *dropped) = (1, 0, 0, 0);
        replaced.iter_mut().for_each(|r| *r = None);
    }

    /// Streams for a legacy HTTP+SSE session whose `endpoint` event names `post_url`
    /// (at most 192 bytes; `None` when longer).
    pub fn legacy(store: B, config: StreamConfig, post_url: &str) -> Option<Self> {
        let mut url = heapless::Vec::new();
        url.extend_from_slice(post_url.as_bytes()).ok()?;
        if post_url.bytes().any(|b| b == b'\r' || b == b'\n') {
            return None;
        }
        let mut s = Self::new(store, config, 0, Some(ProtocolVersion::V2024_11_05));
        s.legacy = Some(url);
        Some(s)
    }

    /// Whether this is a legacy HTTP+SSE session.
    pub fn is_legacy(&self) -> bool {
        self.legacy.is_some()
    }

    /// Answers with plain JSON whenever the response is the first message (a
    /// 2026-07-28 POST: its refusals need a status of their own, and nothing resumes).
    pub fn prefer_json(&mut self) {
        self.config.json_responses = JsonResponses::WhenPossible;
    }

    /// Sets the negotiated version (after `initialize`): it decides priming.
    pub fn set_version(&mut self, version: ProtocolVersion) {
        self.version = Some(version);
    }

    fn primes(&self) -> bool {
        self.legacy.is_none() && self.version.is_some_and(|v| v >= ProtocolVersion::V2025_11_25 && v.has_handshake())
    }

    /// A 2026-07-28 exchange: no resumability, so no event ids and no priming.
    fn stateless(&self) -> bool {
        self.version.is_some_and(|v| !v.has_handshake())
    }

    fn conn_index(&self, exchange: u32) -> Option<usize> {
        self.conns.iter().position(|c| c.is_some_and(|c| c.exchange == exchange))
    }

    fn post(&self, stream: u32) -> Option<&PostStream> {
        self.posts.iter().flatten().find(|p| p.id == stream)
    }

    /// The stream if it still awaits responses.
    fn open_post_stream(&self, stream: u32) -> Option<&PostStream> {
        self.post(stream).filter(|p| !p.finished())
    }

    fn post_mut(&mut self, stream: u32) -> Option<&mut PostStream> {
        self.posts.iter_mut().flatten().find(|p| p.id == stream)
    }

    fn attached(&self, stream: u32) -> bool {
        self.conns.iter().flatten().any(|c| c.stream == stream)
    }

    fn new_conn(&mut self, now: Instant, exchange: u32, stream: u32, cursor: u32, mode: Mode) -> Result<(), OpenError> {
        let slot = self.conns.iter().position(Option::is_none).ok_or(OpenError::Full)?;
        // A new POST stream has nothing stored yet: its messages come after the end.
        let hint = if mode == Mode::Undecided { self.log.end() } else { 0 };
        self.conns[slot] = Some(Conn {
            exchange,
            stream,
            cursor,
            mode,
            head_owed: mode != Mode::Undecided,
            readable_owed: false,
            primed: false,
            keepalive_due: false,
            partial: 0,
            last_write: now,
            end_after: false,
            hint,
            hint_gen: self.log.generation,
        });
        Ok(())
    }

    /// A POST carrying `requests` requests arrived on `exchange`: opens its stream and
    /// returns the stream number, the `Origin` to feed the body with. A batch (more than
    /// one request) always answers as SSE.
    pub fn open_post(&mut self, now: Instant, exchange: u32, requests: usize) -> Result<u32, OpenError> {
        if self.conns.iter().all(Option::is_some) {
            return Err(OpenError::Full);
        }
        let slot = match self.posts.iter().position(Option::is_none) {
            Some(slot) => slot,
            // The oldest complete stream no connection carries is forgotten (what it
            // still held can no longer be resumed).
            None => {
                let conns = self.conns;
                let oldest = (0..S)
                    .filter(|&i| {
                        self.posts[i].is_some_and(|p| p.finished() && !conns.iter().flatten().any(|c| c.stream == p.id))
                    })
                    .min_by_key(|&i| self.posts[i].map_or(u32::MAX, |p| p.id));
                oldest.ok_or(OpenError::Full)?
            }
        };
        let id = self.next_stream;
        self.next_stream = self.next_stream.wrapping_add(1).max(1);
        self.posts[slot] = Some(PostStream {
            id,
            pending: requests.max(1),
            delivered: self.log.last_seq,
            force_sse: requests > 1,
            started: false,
            unsent: 0,
        });
        self.new_conn(now, exchange, id, self.log.last_seq, Mode::Undecided)?;
        if requests > 1 {
            self.start_sse(id);
        }
        Ok(id)
    }

    /// A GET arrived on `exchange`, resuming after `last_event_id` if given. Opens the
    /// standalone stream, or the stream the id names; an id this session did not issue
    /// opens the standalone stream (nothing of another stream is ever replayed). A
    /// connection already carrying that stream is replaced. Returns the stream.
    pub fn open_get(&mut self, now: Instant, exchange: u32, last_event_id: Option<&str>) -> Result<u32, OpenError> {
        let resumed = last_event_id.and_then(|id| self.parse_event_id(id));
        let (stream, cursor) = resumed.unwrap_or((GET_STREAM, self.get_delivered));
        self.claimed(stream, cursor);
        if let Some(i) = self.conns.iter().position(|c| c.is_some_and(|c| c.stream == stream))
            && let Some(old) = self.conns[i].take()
            && let Some(slot) = self.replaced.iter_mut().find(|r| r.is_none())
        {
            *slot = Some(old.exchange);
        }
        self.new_conn(now, exchange, stream, cursor, Mode::Sse)?;
        if resumed.is_some() && !self.config.close_after_priming {
            // A resumed stream is not primed again: the client has its position (the
            // id it sent) and its retry time, and a priming event would repeat the id
            // of the last event it already has. (When polling, the priming event is how
            // a connection with nothing new tells the client to wait `retry` before it
            // polls again.)
            if let Some(c) = self.conns.iter_mut().flatten().find(|c| c.exchange == exchange) {
                c.primed = true;
            }
        }
        Ok(stream)
    }

    /// A client resumes `stream` after `seq`: what it says it has counts as sent, so
    /// that no connection's position is ever past what its stream has sent (each
    /// message a connection then sends is the next unsent one, which keeps the
    /// counts of unsent messages exact). A client says it has more than was sent only
    /// when it took the id of an event it did not get whole, so this is rare.
    fn claimed(&mut self, stream: u32, seq: u32) {
        let delivered = if stream == GET_STREAM {
            self.get_delivered
        } else {
            match self.post(stream) {
                Some(p) => p.delivered,
                None => return,
            }
        };
        if seq <= delivered {
            return;
        }
        let n = self.log.iter().filter(|r| r.stream == stream && r.seq > delivered && r.seq <= seq).count() as u32;
        if stream == GET_STREAM {
            self.get_delivered = seq;
            self.get_unsent = self.get_unsent.saturating_sub(n);
        } else if let Some(p) = self.post_mut(stream) {
            p.delivered = seq;
            p.unsent = p.unsent.saturating_sub(n);
        }
    }

    /// `(stream, seq)` of an event id this session issued.
    fn parse_event_id(&self, id: &str) -> Option<(u32, u32)> {
        let mut parts = id.split('-');
        let epoch = u32::from_str_radix(parts.next()?, 16).ok()?;
        let stream: u32 = parts.next()?.parse().ok()?;
        let seq: u32 = parts.next()?.parse().ok()?;
        if parts.next().is_some() || epoch != self.epoch || stream >= self.next_stream || seq > self.log.last_seq {
            return None;
        }
        Some((stream, seq))
    }

    /// Stores a message the session sent, on the stream its `origin` names (the GET
    /// stream for `None`, or when that POST's requests are all answered); `is_response`
    /// says it answers a request (the POST stream ends after its last). Legacy sessions
    /// put everything on their one stream.
    pub fn push(
        &mut self,
        now: Instant,
        origin: Option<u32>,
        message: &[u8],
        is_response: bool,
    ) -> Result<(), PushError> {
        let _ = now;
        let stream = match origin {
            Some(o) if self.legacy.is_none() && self.open_post_stream(o).is_some() => o,
            _ => GET_STREAM,
        };
        let cost = EventLog::<B>::cost(message.len());
        if cost > self.log.capacity() {
            return Err(PushError::TooLarge { needed: cost, capacity: self.log.capacity() });
        }
        if stream == GET_STREAM && !self.attached(GET_STREAM) {
            // The queue for a GET stream not open: its oldest unsent message makes way.
            if self.get_unsent >= self.config.get_queue {
                let mut first = true;
                let after = self.get_delivered;
                let mut dropped = 0;
                self.log.make_room(
                    usize::MAX,
                    |r| {
                        let go = first && r.stream == GET_STREAM && r.seq > after;
                        first &= !go;
                        go
                    },
                    |_| dropped += 1,
                );
                self.dropped += dropped;
                self.get_unsent -= dropped.min(self.get_unsent);
            }
        }
        if !self.make_room(cost) {
            return Err(PushError::Backpressure);
        }
        let Some(seq) = self.log.push(stream, message) else { return Err(PushError::Backpressure) };
        if stream == GET_STREAM {
            self.get_unsent += 1;
        }
        let json = self.config.json_responses == JsonResponses::WhenPossible;
        let mut finished = false;
        if let Some(p) = self.post_mut(stream) {
            p.unsent += 1;
            let first = !p.started;
            p.started = true;
            if is_response {
                p.pending = p.pending.saturating_sub(1);
                finished = p.pending == 0;
            }
            let json_ok = json && first && finished && !p.force_sse;
            if let Some(c) = self.conns.iter_mut().flatten().find(|c| c.stream == stream && c.mode == Mode::Undecided) {
                c.mode = if json_ok { Mode::Json } else { Mode::Sse };
                c.head_owed = true;
            }
        }
        for c in self.conns.iter_mut().flatten().filter(|c| c.stream == stream && c.mode != Mode::Undecided) {
            c.readable_owed = true;
        }
        let _ = seq;
        Ok(())
    }

    /// Frees `needed` bytes: sent messages first, then unsent ones no connection
    /// carries (counted as dropped).
    /// Which records are sent, and not still to be sent by a connection replaying its
    /// stream: those may make room at any time.
    fn sent_records(&self) -> impl Fn(&Record<'_>) -> bool + use<B, S, C> {
        let delivered: [(u32, u32); S] =
            core::array::from_fn(|i| self.posts[i].map_or((u32::MAX, 0), |p| (p.id, p.delivered)));
        let get = self.get_delivered;
        let carried: [Option<(u32, u32)>; C] = core::array::from_fn(|i| self.conns[i].map(|c| (c.stream, c.cursor)));
        move |r: &Record<'_>| {
            let counted = if r.stream == GET_STREAM {
                r.seq <= get
            } else {
                delivered.iter().find(|(id, _)| *id == r.stream).is_none_or(|(_, d)| r.seq <= *d)
            };
            counted && !carried.iter().flatten().any(|(s, cursor)| *s == r.stream && r.seq > *cursor)
        }
    }

    /// Whether a message of `len` bytes is stored without dropping anything not sent yet
    /// (only sent messages making room). A caller whose store can grow grows it
    /// ([`replace_store`](Self::replace_store)) when this is false, before
    /// [`push`](Self::push) drops unsent messages of streams no connection carries.
    pub fn fits(&self, len: usize) -> bool {
        let cost = EventLog::<B>::cost(len);
        if self.log.free() >= cost {
            return true;
        }
        let sent = self.sent_records();
        let reclaimable: usize = self.log.iter().filter(|r| sent(r)).map(|r| EventLog::<B>::cost(r.bytes.len())).sum();
        self.log.free() + reclaimable >= cost
    }

    fn make_room(&mut self, needed: usize) -> bool {
        if self.log.free() >= needed {
            return true;
        }
        let sent = self.sent_records();
        let carried: [Option<u32>; C] = core::array::from_fn(|i| self.conns[i].map(|c| c.stream));
        // Sent messages go a quarter of the store at a time, not one per push: the
        // records kept move once per quarter, and readers' offsets stay valid between.
        let bulk = needed.max(self.log.capacity() / 4);
        self.log.make_room(bulk, |r| sent(r), |_| {});
        if self.log.free() >= needed {
            return true;
        }
        // Then unsent messages of streams no connection carries (only unsent ones are
        // left of those).
        let mut dropped = 0;
        let (posts, get_unsent, get_delivered) = (&mut self.posts, &mut self.get_unsent, self.get_delivered);
        let ok = self.log.make_room(
            needed,
            |r| !carried.contains(&Some(r.stream)),
            |r| {
                dropped += 1;
                if r.stream == GET_STREAM && r.seq > get_delivered {
                    *get_unsent = get_unsent.saturating_sub(1);
                } else if let Some(p) = posts.iter_mut().flatten().find(|p| p.id == r.stream && r.seq > p.delivered) {
                    p.unsent = p.unsent.saturating_sub(1);
                }
            },
        );
        self.dropped += dropped;
        ok
    }

    /// Makes the POST stream answer as SSE now (before its response): for a request
    /// that will take a while, so the client gets the head and the priming event at once.
    pub fn start_sse(&mut self, stream: u32) {
        if let Some(p) = self.post_mut(stream) {
            p.force_sse = true;
        }
        for c in self.conns.iter_mut().flatten().filter(|c| c.stream == stream && c.mode == Mode::Undecided) {
            c.mode = Mode::Sse;
            c.head_owed = true;
        }
    }

    /// Closes the connection carrying `stream` once its priming event and whatever is
    /// stored for it now are out, keeping the stream (SEP-1699 polling): the client reconnects with GET and
    /// `Last-Event-ID` after `retry` and gets what was sent meanwhile. Only for
    /// 2025-11-25 sessions, whose clients resume; returns whether it applies.
    pub fn disconnect(&mut self, stream: u32) -> bool {
        if !self.primes() {
            return false;
        }
        self.start_sse(stream);
        let mut any = false;
        for c in self.conns.iter_mut().flatten().filter(|c| c.stream == stream) {
            c.end_after = true;
            c.readable_owed = true;
            any = true;
        }
        any
    }

    /// The next thing the adapter must act on.
    pub fn poll(&mut self) -> Option<StreamOutput> {
        if let Some(slot) = self.replaced.iter_mut().find(|r| r.is_some()) {
            return slot.take().map(|exchange| StreamOutput::Replaced { exchange });
        }
        if self.dropped > 0 {
            let messages = core::mem::take(&mut self.dropped);
            return Some(StreamOutput::Dropped { messages });
        }
        for i in 0..C {
            let Some(c) = self.conns[i] else { continue };
            if c.head_owed {
                let kind = match c.mode {
                    Mode::Json => {
                        let from = if c.hint_gen == self.log.generation { c.hint } else { 0 };
                        let next = self.log.next_of_from(c.stream, c.cursor, from);
                        BodyKind::Json { len: next.map_or(0, |(r, _, _)| r.bytes.len()) }
                    }
                    _ => BodyKind::Sse,
                };
                if let Some(c) = self.conns[i].as_mut() {
                    c.head_owed = false;
                    c.readable_owed = true;
                }
                return Some(StreamOutput::Head { exchange: c.exchange, kind });
            }
        }
        for c in self.conns.iter_mut().flatten() {
            if c.readable_owed {
                c.readable_owed = false;
                return Some(StreamOutput::Readable { exchange: c.exchange });
            }
        }
        None
    }

    /// Writes what `exchange` has to send into `out`: whole events where they fit, the
    /// rest of a long one on the next call. `end` means the response is complete (and
    /// the exchange is gone); an exchange this session does not know ends at once.
    pub fn read(&mut self, now: Instant, exchange: u32, out: &mut [u8]) -> ReadOutcome {
        let Some(i) = self.conn_index(exchange) else { return ReadOutcome { n: 0, end: true } };
        let Some(mut c) = self.conns[i] else { return ReadOutcome { n: 0, end: true } };
        if c.mode == Mode::Undecided || c.head_owed {
            return ReadOutcome { n: 0, end: false };
        }
        let mut n = 0;
        let mut end = false;
        let mut id_buf = [0u8; 32];
        loop {
            if n == out.len() {
                break;
            }
            if c.mode == Mode::Sse && !c.primed {
                let done = if let Some(url) = &self.legacy {
                    copy_pieces(&[b"event: endpoint\ndata: ", url, b"\n\n"], &mut c.partial, out, &mut n)
                } else if self.primes() {
                    let id = event_id(&mut id_buf, self.epoch, c.stream, c.cursor);
                    let mut digits = [0u8; 20];
                    let retry = super::response::decimal(u64::from(self.config.retry_ms), &mut digits);
                    copy_pieces(&[b"id: ", id, b"\nretry: ", retry, b"\ndata: \n\n"], &mut c.partial, out, &mut n)
                } else {
                    true
                };
                if !done {
                    break;
                }
                c.primed = true;
                if self.primes() && self.config.close_after_priming {
                    c.end_after = true;
                }
                continue;
            }
            if c.hint_gen != self.log.generation {
                c.hint = 0;
                c.hint_gen = self.log.generation;
            }
            if let Some((r, at, next)) = self.log.next_of_from(c.stream, c.cursor, c.hint) {
                let (seq, stream) = (r.seq, r.stream);
                c.hint = at;
                let stateless = self.stateless();
                let done = match (c.mode, self.legacy.is_some()) {
                    (Mode::Json, _) => copy_pieces(&[r.bytes], &mut c.partial, out, &mut n),
                    _ if stateless => copy_pieces(&[b"data: ", r.bytes, b"\n\n"], &mut c.partial, out, &mut n),
                    (_, true) => {
                        copy_pieces(&[b"event: message\ndata: ", r.bytes, b"\n\n"], &mut c.partial, out, &mut n)
                    }
                    _ => {
                        let id = event_id(&mut id_buf, self.epoch, stream, seq);
                        copy_pieces(&[b"id: ", id, b"\ndata: ", r.bytes, b"\n\n"], &mut c.partial, out, &mut n)
                    }
                };
                if !done {
                    break;
                }
                c.cursor = seq;
                c.hint = next;
                c.keepalive_due = false;
                if stream == GET_STREAM {
                    if seq > self.get_delivered {
                        self.get_unsent = self.get_unsent.saturating_sub(1);
                        self.get_delivered = seq;
                    }
                } else if let Some(p) = self.post_mut(stream)
                    && seq > p.delivered
                {
                    p.unsent = p.unsent.saturating_sub(1);
                    p.delivered = seq;
                }
                if c.mode == Mode::Json {
                    // A plain JSON answer has no event id: nothing can ask for it again,
                    // so neither it nor its stream is kept.
                    self.log.remove(at, next);
                    if let Some(slot) = self.posts.iter_mut().find(|p| p.is_some_and(|p| p.id == stream)) {
                        *slot = None;
                    }
                    end = true;
                    break;
                }
                continue;
            }
            // Nothing of its stream up to the end of the log: the next search starts there.
            c.hint = self.log.end();
            if c.keepalive_due {
                if !copy_pieces(&[b": keep-alive\n\n"], &mut c.partial, out, &mut n) {
                    break;
                }
                c.keepalive_due = false;
                continue;
            }
            // Nothing left. A polled connection closes now (its stream goes on); a POST
            // stream whose requests are all answered is complete, and once all it held
            // is out it is forgotten.
            if c.end_after && c.partial == 0 {
                end = true;
            }
            if c.stream != GET_STREAM && self.open_post_stream(c.stream).is_none() && c.partial == 0 {
                end = true;
                if let Some(slot) = self.posts.iter_mut().find(|p| p.is_some_and(|p| p.id == c.stream)) {
                    *slot = None;
                }
            }
            break;
        }
        if n > 0 {
            c.last_write = now;
        }
        self.conns[i] = if end { None } else { Some(c) };
        ReadOutcome { n, end }
    }

    /// The client went away from `exchange` (or the adapter ended it). Nothing else
    /// ends: its stream keeps collecting messages for a resume. Returns whether the
    /// exchange was this session's.
    pub fn connection_closed(&mut self, exchange: u32) -> bool {
        match self.conn_index(exchange) {
            Some(i) => {
                self.conns[i] = None;
                true
            }
            None => false,
        }
    }

    /// When a keep-alive is next due.
    pub fn poll_timeout(&self) -> Option<Instant> {
        if self.config.keepalive.is_zero() {
            return None;
        }
        self.conns
            .iter()
            .flatten()
            .filter(|c| c.mode == Mode::Sse && !c.head_owed && !c.keepalive_due)
            .map(|c| c.last_write.saturating_add(self.config.keepalive))
            .min()
    }

    /// Marks keep-alives due (safe to call at any time).
    pub fn handle_timeout(&mut self, now: Instant) {
        if self.config.keepalive.is_zero() {
            return;
        }
        let keepalive = self.config.keepalive;
        for c in self.conns.iter_mut().flatten() {
            if c.mode == Mode::Sse && !c.head_owed && !c.keepalive_due && c.last_write.saturating_add(keepalive) <= now
            {
                c.keepalive_due = true;
                c.readable_owed = true;
            }
        }
    }

    /// No connection, no POST awaiting responses, nothing unsent for the GET stream:
    /// the session could be put away as a snapshot (the replay store goes with it).
    pub fn is_idle(&self) -> bool {
        self.conns.iter().all(Option::is_none)
            && self.get_unsent == 0
            && self.posts.iter().flatten().all(|p| p.finished() && p.unsent == 0)
    }

    /// Open connections.
    pub fn connections(&self) -> usize {
        self.conns.iter().flatten().count()
    }

    /// Whether the POST stream is still waiting for responses.
    pub fn is_open(&self, stream: u32) -> bool {
        self.open_post_stream(stream).is_some()
    }

    /// The message store's size in bytes.
    pub fn store_capacity(&self) -> usize {
        self.log.capacity()
    }

    /// Moves what is stored into `bigger` and returns the old store: for a message
    /// larger than the store ([`PushError::TooLarge`]), when the caller's storage can
    /// grow (an allocator, a pool of larger buffers). `Err(bigger)`, nothing changed,
    /// when what is stored does not fit in it.
    pub fn replace_store(&mut self, bigger: B) -> Result<B, B> {
        self.log.replace_buffer(bigger)
    }

    /// The message store back, to reuse for another session.
    pub fn into_store(self) -> B {
        self.log.into_buffer()
    }

    /// The message store taken out in place, as [`into_store`](Self::into_store) gives
    /// it, for streams about to be dropped in their box (moving them out first copies
    /// their tables). They are left over an empty store: use them no more.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn take_store(&mut self) -> B
    where
        B: Default,
    {
        self.log.take_buffer()
    }

    /// Forgets everything stored (the session ended).
    pub fn clear(&mut self) {
        self.log.clear();
        self.posts = [None; S];
        self.conns = [None; C];
        self.get_unsent = 0;
    }
}

/// `<epoch>-<stream>-<seq>` in `buf`.
fn event_id(buf: &mut [u8; 32], epoch: u32, stream: u32, seq: u32) -> &[u8] {
    let mut at = 0;
    for k in (0..8).rev() {
        buf[at] = b"0123456789abcdef"[(epoch >> (4 * k) & 15) as usize];
        at += 1;
    }
    for n in [stream, seq] {
        buf[at] = b'-';
        at += 1;
        let mut digits = [0u8; 20];
        let d = super::response::decimal(u64::from(n), &mut digits);
        buf[at..at + d.len()].copy_from_slice(d);
        at += d.len();
    }
    &buf[..at]
}

/// Copies the concatenation of `pieces`, from `*partial` on, into `out[*n..]`. Returns
/// whether all of it is out (then `*partial` is 0 again).
fn copy_pieces(pieces: &[&[u8]], partial: &mut usize, out: &mut [u8], n: &mut usize) -> bool {
    let mut skip = *partial;
    for piece in pieces {
        if skip >= piece.len() {
            skip -= piece.len();
            continue;
        }
        let src = &piece[skip..];
        skip = 0;
        let room = out.len() - *n;
        let take = src.len().min(room);
        out[*n..*n + take].copy_from_slice(&src[..take]);
        *n += take;
        *partial += take;
        if take < src.len() {
            return false;
        }
    }
    *partial = 0;
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    type S = Streams<[u8; 2048], 4, 4>;

    /// The whole state but the stored bytes.
    fn debug_state(s: &S) -> String {
        let Streams {
            log,
            config,
            epoch,
            version,
            legacy,
            posts,
            conns,
            next_stream,
            get_delivered,
            get_unsent,
            dropped,
            replaced,
        } = s;
        format!(
            "{} {} {} {config:?} {epoch} {version:?} {legacy:?} {posts:?} {conns:?} {next_stream} {get_delivered} \
             {get_unsent} {dropped} {replaced:?}",
            log.end(),
            log.last_seq,
            log.generation
        )
    }

    /// Streams reset after use are the streams `new` makes.
    #[test]
    fn reset_streams_are_new_ones() {
        let config = StreamConfig::default();
        let mut s: S = Streams::new([0; 2048], config, 7, Some(ProtocolVersion::V2025_11_25));
        let fresh = debug_state(&Streams::new([0; 2048], config, 9, Some(ProtocolVersion::V2026_07_28)));
        let origin = s.open_post(Instant::ZERO, 1, 2).unwrap();
        s.push(Instant::ZERO, Some(origin), b"{}", false).unwrap();
        s.open_get(Instant::ZERO, 2, None).unwrap();
        s.push(Instant::ZERO, None, b"{}", false).unwrap();
        s.open_get(Instant::ZERO, 3, None).unwrap();
        s.prefer_json();
        assert_ne!(debug_state(&s), fresh);
        s.reset(config, 9, Some(ProtocolVersion::V2026_07_28));
        assert_eq!(debug_state(&s), fresh);
    }

    /// The definition `is_idle`'s counters keep: no connection, every POST answered,
    /// and every stored message of a stream still known sent.
    fn idle_by_scan(s: &S) -> bool {
        let delivered = |stream: u32| {
            if stream == GET_STREAM { s.get_delivered } else { s.post(stream).map_or(u32::MAX, |p| p.delivered) }
        };
        s.conns.iter().all(Option::is_none)
            && s.posts.iter().flatten().all(PostStream::finished)
            && s.log.iter().all(|r| r.seq <= delivered(r.stream))
    }

    fn unsent_by_scan(s: &S, stream: u32, delivered: u32) -> u32 {
        s.log.iter().filter(|r| r.stream == stream && r.seq > delivered).count() as u32
    }

    #[test]
    fn fits_says_whether_unsent_messages_would_have_to_go() {
        let mut s: S = Streams::new([0; 2048], StreamConfig::default(), 7, Some(ProtocolVersion::V2025_11_25));
        let message = [b'x'; 300];
        // No GET open: what is pushed for it waits, unsent, until the store is full.
        while s.fits(message.len()) {
            s.push(Instant::ZERO, None, &message, false).unwrap();
        }
        assert_eq!(s.get_unsent, 6);
        // Pushing now drops the oldest unsent message.
        s.push(Instant::ZERO, None, &message, false).unwrap();
        assert_eq!(s.poll(), Some(StreamOutput::Dropped { messages: 1 }));
        assert!(!s.fits(message.len()));
        // Once a GET took them, they are sent: room without loss.
        s.open_get(Instant::ZERO, 1, None).unwrap();
        while s.poll().is_some() {}
        let mut out = [0u8; 4096];
        while s.read(Instant::ZERO, 1, &mut out).n > 0 {}
        assert_eq!(s.get_unsent, 0);
        assert!(s.fits(message.len()));
        assert!(!s.fits(2048), "larger than the whole store");
    }

    /// Random opens, pushes, reads in random sizes, drops, resumes and polls: the
    /// counters agree with a scan of the store after every step, and nothing panics.
    #[test]
    fn counters_agree_with_the_store() {
        for seed in 1..=40u64 {
            let mut rng = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let mut next = move |n: u64| {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                rng % n
            };
            let json = if seed % 2 == 0 { JsonResponses::WhenPossible } else { JsonResponses::Never };
            let config = StreamConfig { json_responses: json, get_queue: 8, ..StreamConfig::default() };
            let mut s: S = Streams::new([0; 2048], config, 7, Some(ProtocolVersion::V2025_11_25));
            let mut exchange = 0u32;
            let mut ids: heapless::Vec<heapless::String<32>, 16> = heapless::Vec::new();
            let now = Instant::ZERO;
            for step in 0..400 {
                match next(9) {
                    0 | 1 => {
                        exchange += 1;
                        let _ = s.open_post(now, exchange, 1 + next(2) as usize);
                    }
                    2 => {
                        exchange += 1;
                        let resume = ids.get(next(ids.len() as u64 + 1) as usize).cloned();
                        let _ = s.open_get(now, exchange, resume.as_deref());
                    }
                    3 | 4 => {
                        let origin = (next(3) > 0).then(|| next(u64::from(s.next_stream)) as u32);
                        let body = [b'x'; 300];
                        let len = 20 + next(280) as usize;
                        let _ = s.push(now, origin, &body[..len], next(2) == 0);
                    }
                    5 | 6 => {
                        let x = 1 + next(u64::from(exchange.max(1))) as u32;
                        let mut out = [0u8; 512];
                        let size = 1 + next(511) as usize;
                        let read = s.read(now, x, &mut out[..size]);
                        let text = core::str::from_utf8(&out[..read.n]).unwrap_or("");
                        for line in text.lines().filter_map(|l| l.strip_prefix("id: ")) {
                            if ids.is_full() {
                                ids.remove(0);
                            }
                            let mut id = heapless::String::new();
                            if id.push_str(line).is_ok() {
                                let _ = ids.push(id);
                            }
                        }
                    }
                    7 => {
                        let x = 1 + next(u64::from(exchange.max(1))) as u32;
                        s.connection_closed(x);
                    }
                    _ => while s.poll().is_some() {},
                }
                assert_eq!(s.is_idle(), idle_by_scan(&s), "seed {seed} step {step}");
                assert_eq!(s.get_unsent, unsent_by_scan(&s, GET_STREAM, s.get_delivered), "seed {seed} step {step}");
                for p in s.posts.iter().flatten() {
                    assert_eq!(p.unsent, unsent_by_scan(&s, p.id, p.delivered), "seed {seed} step {step}");
                }
            }
        }
    }
}
