//! [`Endpoint`]: one side of one MCP connection, as a state machine.

use super::buffer::Buffer;
use super::caller_errors::{ConfigError, SendError};
use super::config::Config;
use super::core::{Core, Queued};
use super::event::{Event, IncomingRequest, Misbehavior, Output};
use super::held::{Area, Held};
use super::inbound::Inbound;
use super::lifecycle::Lifecycle;
use super::lifecycle::Phase;
use super::outbound::Outbound;
use super::profile::{Full, Profile};
use super::receive::Received;
use super::replies::AUTO_MESSAGE_MAX;
use super::timers::Timers;
use super::transmit::{Origin, Outbox, mark, mark_len};
use crate::framing::{LineError, LineState, Prefix};
use crate::mcp::{CapabilitySet, ProtocolVersion, Role};
use crate::time::Instant;
use crate::wire::{EncodeError, ErrorCode, ErrorId, MAX_ID_LEN};

/// The smallest receive buffer accepted.
pub const MIN_RX_BUFFER: usize = 256;

/// Where the handshake and the session stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum State {
    /// Dual-era client: `server/discover` sent to learn the server's era, waiting for its
    /// answer.
    Discovering,
    /// Client: `initialize` sent, waiting for its answer.
    AwaitingInitializeResult,
    /// Server: waiting for `initialize`.
    AwaitingInitialize,
    /// Server: `initialize` answered, waiting for `notifications/initialized`.
    AwaitingInitialized,
    /// The handshake is complete.
    Ready,
    /// The stateless era (2026-07-28): no handshake, every request carries its version and
    /// capabilities. A server validates them per request; a client sends them.
    Stateless,
    /// The session is ending: no new requests; answers still flush.
    Closing,
    /// The session is over.
    Closed,
}

/// One side of an MCP connection: a client or a server, as a sans-IO state machine.
///
/// `OUT` is the number of requests this side can have in flight, `IN` the number of the
/// peer's requests the application can be working on at once (more are held in the
/// receive buffer, see [`Overflow`](super::Overflow)). Both tables are fixed arrays
/// inside the endpoint; the receive and transmit buffers are `B`: lent by the caller
/// (the default), or owned (see [`with_buffers`](Self::with_buffers)). `E` is what the
/// endpoint is built for: every era and both roles ([`Full`], the default), the
/// handshake era only ([`Handshake`](super::Handshake): the stateless era's code is not
/// linked), or that era's server only ([`HandshakeServer`](super::HandshakeServer)); see
/// [`Profile`].
///
/// The methods come in four kinds:
/// * inputs: [`handle_input`](Self::handle_input) (bytes from the transport),
///   [`handle_frame_from`](Self::handle_frame_from) (one whole message, and the channel
///   it came in on), [`handle_eof`](Self::handle_eof),
///   [`handle_timeout`](Self::handle_timeout);
/// * commands: [`send_request`](Self::send_request), [`send_notification`](Self::send_notification),
///   [`respond`](Self::respond), [`respond_error`](Self::respond_error),
///   [`send_progress`](Self::send_progress), [`abandon`](Self::abandon),
///   [`cancel`](Self::cancel), [`close`](Self::close);
/// * outputs: [`poll_output`](Self::poll_output), [`sent`](Self::sent),
///   [`poll_timeout`](Self::poll_timeout);
/// * getters: [`state`](Self::state), [`protocol_version`](Self::protocol_version),
///   [`snapshot`](Self::snapshot), ….
///
/// **After every input or command, call `poll_output` until it returns
/// [`Output::Idle`]** (see the crate documentation for a complete loop).
///
/// # Memory
///
/// Everything is in the endpoint value and its two buffers; nothing is allocated. What
/// each choice costs (`size_of`, with lent buffers):
///
/// | | thumbv7em (32-bit) | x86_64 |
/// |---|---|---|
/// | the endpoint without slots (`OUT = IN = 0`) | 856 B | 1192 B |
/// | each `OUT` slot (a request of ours in flight) | 120 B | 128 B |
/// | each `IN` slot (a request of the peer's being worked on) | 248 B | 272 B |
/// | the same, in an endpoint not built for the stateless era ([`Handshake`](super::Handshake), [`HandshakeServer`](super::HandshakeServer): no room for a stateless request's `_meta`) | 224 B | 248 B |
/// | `Endpoint<'_, 4, 4>` / the default `<'_, 8, 8>` | 2328 B / 3800 B | 2792 B / 4392 B |
///
/// The buffers:
/// * receive: at least [`MIN_RX_BUFFER`] (256) bytes; the longest message it reads is
///   one byte less (two for frames given to [`handle_frame`](Self::handle_frame), ten with
///   an origin). Requests held beyond the `IN` slots use at most half of it, 14 bytes
///   each plus the request.
/// * transmit: at least the [reply reserve](super::Config::reply_reserve) (512 bytes by
///   default; 229 at the least, 237 in message mode), and for a server at least its
///   `initialize` result, for a client its `initialize` request (
///   [`with_buffers`](Self::with_buffers) says exactly). In message mode each queued frame
///   takes 9 bytes more.
pub struct Endpoint<'a, const OUT: usize = 8, const IN: usize = 8, B: Buffer = &'a mut [u8], E: Profile = Full> {
    /// The receive buffer's bytes; its cursor is `core.rx`. Kept apart so that events
    /// can borrow the bytes while the core changes.
    pub(super) rx: B,
    pub(super) core: Core<'a, OUT, IN, B, E>,
}

impl<'a, const OUT: usize, const IN: usize, E: Profile> Endpoint<'a, OUT, IN, &'a mut [u8], E> {
    /// Creates an endpoint over two buffers the caller lends. A client queues its
    /// `initialize` request at once (drain `poll_output` to send it); a server waits for
    /// one. See [`with_buffers`](Self::with_buffers) for buffers the endpoint owns.
    pub fn new(config: Config<'a>, rx: &'a mut [u8], tx: &'a mut [u8], now: Instant) -> Result<Self, ConfigError> {
        Self::with_buffers(config, rx, tx, now)
    }
}

/// The room a configuration needs, as an endpoint's construction measured it (see
/// `Endpoint::with_buffers_reserved`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(feature = "http"), allow(dead_code))]
pub(crate) struct Reserves {
    identity_len: usize,
    first_reserve: usize,
}

impl<'a, const OUT: usize, const IN: usize, B: Buffer, E: Profile> Endpoint<'a, OUT, IN, B, E> {
    /// Creates an endpoint over two buffers of any storage: lent slices, arrays, or
    /// (with `alloc`) `Vec<u8>`/`Box<[u8]>` it owns, so that it can be kept without a
    /// borrow (a server holding many sessions, say). Otherwise as [`new`](Endpoint::new).
    ///
    /// ```
    /// use mcp_sansio::{Config, Endpoint, Instant, Role};
    /// use mcp_sansio::mcp::Implementation;
    /// let config = Config::new(Role::Server, Implementation::new("s", "1"));
    /// let owned: Endpoint<'static, 4, 4, [u8; 1024]> =
    ///     Endpoint::with_buffers(config, [0; 1024], [0; 1024], Instant::ZERO).unwrap();
    /// ```
    pub fn with_buffers(config: Config<'a>, rx: B, tx: B, now: Instant) -> Result<Self, ConfigError> {
        Self::check_config(&config, rx.as_ref().len())?;
        let mut endpoint = Self::fresh(config, rx, tx, now);
        endpoint.prepare()?;
        Ok(endpoint)
    }

    /// As [`with_buffers`](Self::with_buffers), with the reserves an endpoint made from
    /// the same configuration found ([`reserves`](Self::reserves)): they are not measured
    /// again (six frames written and cleared). For the HTTP adapter, which makes an
    /// endpoint from one configuration for every stateless POST. Reserves from another
    /// configuration give wrong room checks (refusals where there was room, or a reply
    /// that waits), never anything worse.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn with_buffers_reserved(
        config: Config<'a>,
        rx: B,
        tx: B,
        now: Instant,
        reserves: Reserves,
    ) -> Result<Self, ConfigError> {
        if config.role == Role::Client {
            // A client opens with a request of its own: made the usual way.
            return Self::with_buffers(config, rx, tx, now);
        }
        Self::check_config(&config, rx.as_ref().len())?;
        let mut endpoint = Self::fresh(config, rx, tx, now);
        endpoint.core.identity_len = reserves.identity_len;
        endpoint.core.first_reserve = reserves.first_reserve;
        if endpoint.core.tx.capacity() < reserves.first_reserve {
            return Err(ConfigError::TxTooSmall { needed: reserves.first_reserve });
        }
        Ok(endpoint)
    }

    /// What this endpoint's construction measured of its configuration, for
    /// [`with_buffers_reserved`](Self::with_buffers_reserved).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn reserves(&self) -> Reserves {
        Reserves { identity_len: self.core.identity_len, first_reserve: self.core.first_reserve }
    }

    /// Creates an endpoint in `place` (an `Option` in a static, say) and returns it
    /// there; otherwise as [`with_buffers`](Self::with_buffers). An endpoint already in
    /// `place` is dropped first; on an error `place` is left `None`.
    ///
    /// Why: a constructor that returns the endpoint moves it on its way to where it is
    /// kept, and each move may take a copy of it on the stack (three copies of a
    /// 1,264-byte endpoint made the boot the stack's high-water mark on a Cortex-M).
    /// Here the endpoint is built where it stays.
    ///
    /// ```
    /// use mcp_sansio::{Config, Endpoint, Instant, Role};
    /// use mcp_sansio::mcp::Implementation;
    /// let config = Config::new(Role::Server, Implementation::new("s", "1"));
    /// let (mut rx, mut tx) = ([0u8; 1024], [0u8; 1024]);
    /// let mut place = None;
    /// let endpoint: &mut Endpoint<'_, 0, 2> =
    ///     Endpoint::new_in(&mut place, config, &mut rx[..], &mut tx[..], Instant::ZERO).unwrap();
    /// assert!(!endpoint.is_closed());
    /// ```
    pub fn new_in<'p>(
        place: &'p mut Option<Self>,
        config: Config<'a>,
        rx: B,
        tx: B,
        now: Instant,
    ) -> Result<&'p mut Self, ConfigError> {
        *place = None;
        Self::check_config(&config, rx.as_ref().len())?;
        if let Err(e) = place.insert(Self::fresh(config, rx, tx, now)).prepare() {
            *place = None;
            return Err(e);
        }
        // Just filled: never `None` here.
        place.as_mut().ok_or(ConfigError::NotAnObject)
    }

    /// What the constructors check before building anything.
    pub(super) fn check_config(config: &Config<'a>, rx_len: usize) -> Result<(), ConfigError> {
        if !config.check_identity() {
            return Err(ConfigError::NotAnObject);
        }
        if !E::CLIENT && config.role == Role::Client {
            return Err(ConfigError::NotAServer);
        }
        if config.versions.intersect(E::VERSIONS).is_empty() {
            return Err(ConfigError::NoVersion);
        }
        if rx_len < MIN_RX_BUFFER {
            return Err(ConfigError::RxTooSmall { needed: MIN_RX_BUFFER });
        }
        Ok(())
    }

    /// An endpoint at the start of a session, not yet checked against its buffers. A
    /// server of the stateless era only starts in it.
    #[inline(always)]
    pub(super) fn fresh(mut config: Config<'a>, rx: B, tx: B, now: Instant) -> Self {
        // What this endpoint type is not built for, it does not speak.
        config.versions = config.versions.intersect(E::VERSIONS);
        let rx_len = rx.as_ref().len();
        let stateless_only = Self::stateless_only(&config);
        Self {
            rx,
            core: Core {
                config,
                rx: LineState::new(),
                tx: Outbox::new(tx, config.output),
                life: Lifecycle::new(config.role, config.own_flags(), stateless_only),
                out: Outbound::new(),
                inb: Inbound::new(),
                held: Held::new(rx_len),
                timers: Timers::new(now),
                queued: Queued::default(),
                now,
                batch: None,
                stall: None,
                origin: None,
                framed: false,
                reserve: config.reply_reserve,
                first_reserve: config.reply_reserve,
                // Read by the stateless era only (tasks are its extension).
                own_tasks: E::STATELESS && config.capabilities.declares_tasks(),
                ready: false,
                profile: core::marker::PhantomData,
                identity_len: 0,
            },
        }
    }

    /// The newest version of a server that speaks no handshake version (it starts in the
    /// stateless era), if the endpoint type is built for that era.
    #[inline(always)]
    pub(super) fn stateless_only(config: &Config<'a>) -> Option<ProtocolVersion> {
        match E::STATELESS {
            true => config.newest().is_none().then(|| config.modern_versions().newest()).flatten(),
            false => None,
        }
    }

    /// Checks the reserves against the transmit buffer; a client opens: its
    /// `server/discover` probe if it speaks the stateless era, else its `initialize`.
    fn prepare(&mut self) -> Result<(), ConfigError> {
        let core = &mut self.core;
        core.check_reserves()?;
        if core.role() == Role::Client {
            let newest = core.config.newest();
            let opened = match core.modern_versions().newest() {
                Some(modern) => core.send_discover(modern, false),
                None => core.send_initialize(newest.unwrap_or(ProtocolVersion::LATEST_HANDSHAKE)),
            };
            opened.map_err(|e| match e {
                SendError::TxFull { needed, .. } => ConfigError::TxTooSmall { needed: needed.max(core.first_reserve) },
                SendError::Encode(e) => ConfigError::Encode(e),
                _ => ConfigError::NotAnObject,
            })?;
        }
        Ok(())
    }

    // ---- inputs -------------------------------------------------------------------

    /// Feeds bytes received from a byte-stream transport (stdio). Returns how many were
    /// taken: fewer than `data.len()` when the receive buffer holds unprocessed messages
    /// (or an owed reply waits for room); drain [`poll_output`](Self::poll_output) and
    /// feed the rest.
    #[must_use = "bytes not taken must be fed again after a drain"]
    pub fn handle_input(&mut self, now: Instant, data: &[u8]) -> usize {
        self.core.advance(now);
        if !self.core.life.reads_input() || self.core.rx.is_closed() {
            return data.len();
        }
        if !data.is_empty() {
            self.core.received();
        }
        if !self.make_room() {
            return 0;
        }
        let limit = self.core.held.limit();
        self.core.rx.feed(&mut self.rx.as_mut()[..limit], data)
    }

    /// The free part of the receive buffer, to read into directly; then call
    /// [`commit_input`](Self::commit_input). Empty only while unprocessed messages (or
    /// an owed reply) wait: drain [`poll_output`](Self::poll_output) first.
    pub fn input_buffer(&mut self) -> &mut [u8] {
        if !self.make_room() {
            return &mut [];
        }
        let limit = self.core.held.limit();
        self.core.rx.spare(&mut self.rx.as_mut()[..limit])
    }

    /// Marks `n` bytes of [`input_buffer`](Self::input_buffer) as received.
    pub fn commit_input(&mut self, now: Instant, n: usize) {
        let core = &mut self.core;
        core.advance(now);
        if n > 0 {
            core.received();
        }
        let limit = core.held.limit();
        if !core.life.reads_input() {
            // Discard: nothing is processed any more.
            let _ = core.rx.spare(&mut self.rx.as_mut()[..limit]);
            return;
        }
        core.rx.commit(limit, n);
    }

    /// Makes the room the framer needs: when its part of the receive buffer is full with
    /// the start of one line, held requests are refused, newest first, until the line
    /// fits or none is left. `false` if a refusal does not fit the transmit buffer yet.
    fn make_room(&mut self) -> bool {
        loop {
            self.core.held.settle(self.rx.as_mut());
            let limit = self.core.held.limit();
            if self.core.held.count() == 0 || !self.core.rx.is_full_of_one_line(&mut self.rx.as_mut()[..limit]) {
                return true;
            }
            if !self.core.refuse_newest_held(self.rx.as_ref()) {
                return false;
            }
        }
    }

    /// Feeds one complete message from a message-oriented transport (an HTTP body, an SSE
    /// event), with no [`Origin`]. See [`handle_frame_from`](Self::handle_frame_from).
    #[must_use = "a frame not taken must be fed again after a drain"]
    pub fn handle_frame(&mut self, now: Instant, frame: &[u8]) -> bool {
        self.handle_frame_from(now, None, frame)
    }

    /// Feeds one complete message that came in on the channel `origin` (an HTTP POST,
    /// say): whatever is sent for the requests in it carries that origin (see
    /// [`Origin`]). Returns `false`, taking nothing, when the receive buffer has no room
    /// for it now: drain [`poll_output`](Self::poll_output) and try again. A message
    /// larger than the whole buffer is reported as
    /// [`Misbehavior::LineTooLong`](super::Misbehavior::LineTooLong) (and answered if it
    /// is a request whose id can be seen).
    ///
    /// An endpoint takes its input either as whole frames (this) or as a byte stream
    /// ([`handle_input`](Self::handle_input)), not both.
    #[must_use = "a frame not taken must be fed again after a drain"]
    pub fn handle_frame_from(&mut self, now: Instant, origin: Option<Origin>, frame: &[u8]) -> bool {
        self.core.advance(now);
        self.core.received();
        if !self.core.life.reads_input() || self.core.rx.is_closed() {
            return true;
        }
        self.core.framed = true;
        self.core.held.settle(self.rx.as_mut());
        // The frame, its mark (the origin) and its newline.
        let size = mark_len(origin) + frame.len() + 1;
        if size > self.rx.as_ref().len() {
            // One report is held at a time: a second oversized frame waits for the drain.
            if self.core.queued.oversized_frame.is_some() {
                return false;
            }
            self.core.queued.oversized_frame = Some((frame.len(), Prefix::scan(frame), origin));
            return true;
        }
        loop {
            let limit = self.core.held.limit();
            let spare = self.core.rx.spare(&mut self.rx.as_mut()[..limit]);
            if spare.len() >= size {
                break;
            }
            // No room: the messages waiting make it once processed; failing those, the
            // held requests are refused to make it.
            if self.core.rx.buffered() > 0
                || self.core.held.count() == 0
                || !self.core.refuse_newest_held(self.rx.as_ref())
            {
                return false;
            }
            self.core.held.settle(self.rx.as_mut());
        }
        let core = &mut self.core;
        let limit = core.held.limit();
        let spare = core.rx.spare(&mut self.rx.as_mut()[..limit]);
        let at = mark(spare, origin);
        let body = &mut spare[at..at + frame.len()];
        body.copy_from_slice(frame);
        // A message may contain line breaks between tokens; they must not split it. In
        // valid JSON they can only be whitespace, so they become spaces; in invalid JSON
        // they become a byte that keeps it invalid (a raw line break inside a string
        // must not turn into a valid space).
        if frame.iter().any(|&b| b == b'\n' || b == b'\r') {
            let valid =
                crate::wire::validate(frame, crate::wire::ScanConfig::with_max_depth(core.config.max_depth)).is_ok();
            for b in body.iter_mut() {
                if *b == b'\n' || *b == b'\r' {
                    *b = if valid { b' ' } else { 0x01 };
                }
            }
        }
        spare[size - 1] = b'\n';
        core.rx.commit(limit, size);
        true
    }

    /// The peer closed its side: no more input will come. Messages already received are
    /// still processed; then requests of ours in flight fail
    /// ([`Event::Failed`](super::Event::Failed)), answers to the peer's requests still
    /// flush, and [`Event::Closed`](super::Event::Closed) follows once every request the
    /// peer sent has been answered.
    pub fn handle_eof(&mut self, now: Instant) {
        self.core.advance(now);
        self.core.rx.close();
        self.core.refresh_timers();
    }

    /// The channel `origin` closed (a stateless HTTP POST's response stream, say). In the
    /// stateless era that is how a client cancels (2026-07-28): every request of the
    /// peer's that came in on it is over, reported as [`Event::Cancelled`](super::Event::Cancelled)
    /// (a listen stream included: its subscription ends), nothing more is sent for it, and
    /// requests held for it are dropped. In a handshake session a closed stream cancels
    /// nothing (2025 Streamable HTTP): this does nothing there. Returns how many requests
    /// it ended.
    pub fn handle_origin_closed(&mut self, now: Instant, origin: Origin) -> usize {
        self.core.advance(now);
        if !self.core.is_stateless() {
            return 0;
        }
        let held = self.core.held.drop_origin(self.rx.as_mut(), origin.0);
        held + self.core.inb.table().close_origin(origin)
    }

    /// Time has passed: expires requests, sends keepalive pings. Safe to call at any time
    /// and any number of times.
    pub fn handle_timeout(&mut self, now: Instant) {
        self.core.advance(now);
        self.core.run_timers();
    }

    // ---- outputs ------------------------------------------------------------------

    /// The next thing to do: bytes to write, an event to handle, or nothing until the
    /// next input. Call it until it returns [`Output::Idle`] after every input and
    /// command. Bytes from [`Output::Transmit`] count as written when this is called again.
    // Not inlined: its frame (the frames read, an event being built) is then gone while the
    // caller handles the event, instead of adding to every handler's stack (with the two cold
    // paths in receive.rs, 112 B less at the firmware example's high-water mark).
    #[inline(never)]
    pub fn poll_output(&mut self) -> Output<'_> {
        let Self { rx, core } = self;
        let rx = rx.as_mut();
        // Everything that writes the receive buffer happens here, before any of it is
        // borrowed for the event this may return.
        core.held.settle(rx);
        core.tx.release();
        core.run_timers();
        if !core.tx.is_empty() && core.tx.available() < core.reserve() {
            return core.transmit();
        }
        if let Some(event) = core.queued_event() {
            return Output::Event(event);
        }
        // The received lines are borrowed (shared) for the event; the part above them,
        // where held requests live, stays writable for the requests held on the way.
        let tail = core.rx.tail();
        let (lines, above) = rx.split_at_mut(tail);
        let lines: &[u8] = lines;
        let mut area = Area { bytes: &mut *above, base: tail };
        if let Some(received) = core.process_input(lines, &mut area) {
            return Output::Event(core.attach(received));
        }
        if core.held.count() > 0 && core.inb.has_free_slot() {
            let region = above.get(core.held.limit() - tail..).unwrap_or_default();
            if let Some(received) = core.deliver_held(region) {
                return Output::Event(core.attach(received));
            }
        }
        if !core.tx.is_empty() {
            return core.transmit();
        }
        if let Some(event) = core.closed_event() {
            return Output::Event(event);
        }
        // The end of input may have ended listen streams from this side (their ends).
        if !core.tx.is_empty() {
            return core.transmit();
        }
        Output::Idle { next_timeout: core.next_deadline() }
    }

    /// Only the first `n` bytes of the last [`Output::Transmit`] went out (a UART, a
    /// non-blocking socket): the next [`poll_output`](Self::poll_output) hands out the
    /// rest first. Call it before that poll; without it a transmit counts as written
    /// whole.
    pub fn sent(&mut self, n: usize) {
        self.core.tx.sent(n);
    }

    /// The earliest deadline: call [`handle_timeout`](Self::handle_timeout) then.
    pub fn poll_timeout(&self) -> Option<Instant> {
        self.core.next_deadline()
    }

    // ---- getters ------------------------------------------------------------------

    /// Where the handshake and the session stand.
    pub fn state(&self) -> State {
        self.core.life.state()
    }

    /// The negotiated protocol version, once known.
    pub fn protocol_version(&self) -> Option<ProtocolVersion> {
        self.core.life.version()
    }

    /// This side's role.
    pub fn role(&self) -> Role {
        self.core.role()
    }

    /// The capabilities the peer declared (empty until the handshake).
    pub fn peer_capabilities(&self) -> CapabilitySet {
        self.core.life.peer_caps()
    }

    /// The capabilities this side declared.
    pub fn capabilities(&self) -> CapabilitySet {
        self.core.life.own_caps()
    }

    /// Requests of ours awaiting an answer.
    pub fn requests_in_flight(&self) -> usize {
        self.core.out.in_flight()
    }

    /// Requests of the peer's not answered yet.
    pub fn peer_requests_in_flight(&self) -> usize {
        self.core.inb.in_flight()
    }

    /// Whether the `Closed` event has been delivered.
    pub fn is_closed(&self) -> bool {
        self.core.life.is_closed()
    }

    /// The two buffers, receive then transmit, back from an endpoint no longer needed
    /// (to reuse them for the next session, say).
    pub fn into_buffers(self) -> (B, B) {
        (self.rx, self.core.tx.into_buffer())
    }

    /// The endpoint's idea of the current time (the latest instant passed in).
    pub fn now(&self) -> Instant {
        self.core.now
    }
}

impl<'a, const OUT: usize, const IN: usize, B: Buffer, E: Profile> Core<'a, OUT, IN, B, E> {
    /// Checks that the reply reserve and the transmit buffer hold what the endpoint
    /// must be able to write on its own, and sets the reserve before the handshake.
    pub(super) fn check_reserves(&mut self) -> Result<(), ConfigError> {
        let config = self.config;
        // The reserve holds the longest reply the endpoint writes on its own: an error
        // for the longest id it answers with the longest message it uses (and a few
        // escaped quotes in it).
        let longest_id = [b'1'; MAX_ID_LEN];
        let id = crate::wire::RequestIdRef::from_validated(&longest_id);
        let message = [b'x'; AUTO_MESSAGE_MAX];
        let message = core::str::from_utf8(&message).unwrap_or_default();
        let floor = self.measure(|tx| tx.error(ErrorId::Id(id), ErrorCode::INTERNAL_ERROR, message))? + 8;
        if config.reply_reserve < floor {
            return Err(ConfigError::ReserveTooSmall { needed: floor });
        }
        // What a stateless result's `serverInfo` and a stateless request's `_meta` add
        // (only that era writes them; both are written, and so checked, by the
        // handshake's `initialize` too).
        if E::STATELESS {
            let info = self.measure(|tx| tx.result_with(id, |out| config.info.write(out)))?;
            let caps = self.measure(|tx| tx.result_with(id, |out| config.capabilities.write(out)))?;
            let empty = self.measure(|tx| {
                tx.result_with(id, |out| {
                    out.put(b"{}");
                    Ok(())
                })
            })?;
            self.identity_len = info.saturating_sub(empty) + caps.saturating_sub(empty) + 4;
        }
        if self.role() == Role::Server {
            // A server's initialize result must fit too, until it is sent, and its
            // discover result whenever one is asked for.
            if let Some(newest) = config.newest() {
                let needed =
                    self.measure(|tx| tx.result_with(id, |out| config.write_initialize_result(newest, out)))?;
                self.first_reserve = self.reserve.max(needed);
            }
            if !self.modern_versions().is_empty() {
                let discover = self.measure(|tx| tx.result_with(id, |out| config.write_discover_result(out)))?;
                self.first_reserve = self.first_reserve.max(discover);
            }
        }
        if self.tx.capacity() < self.first_reserve {
            return Err(ConfigError::TxTooSmall { needed: self.first_reserve });
        }
        Ok(())
    }

    /// The size of what `write` writes into the empty transmit buffer (what it needs if
    /// it does not fit), which is left empty.
    fn measure(
        &mut self,
        write: impl FnOnce(&mut crate::wire::FrameView<'_>) -> Result<core::ops::Range<usize>, EncodeError>,
    ) -> Result<usize, ConfigError> {
        let size = match write(&mut self.tx.to(None)) {
            Ok(range) => range.len(),
            Err(EncodeError::BufferTooSmall { needed, .. }) => needed,
            Err(e) => return Err(ConfigError::Encode(e)),
        };
        self.tx.clear();
        Ok(size)
    }

    /// Transmit-buffer room input processing keeps free for the replies the endpoint
    /// writes on its own (a server's initialize result included, until it is sent).
    fn reserve(&self) -> usize {
        match self.life.phase() {
            Phase::AwaitingInitialize => self.first_reserve,
            _ => self.reserve,
        }
    }

    fn transmit(&mut self) -> Output<'_> {
        Output::Transmit(self.tx.transmit())
    }

    /// Processes received frames from `lines` (the receive buffer up to the framer's
    /// tail) until one produces something for the application. Requests held on the way
    /// are copied into `area`.
    fn process_input<'e>(&mut self, lines: &'e [u8], area: &mut Area<'_>) -> Option<Received<'e>> {
        let limit = self.held.limit();
        if let Some((len, prefix, origin)) = self.queued.oversized_frame.take() {
            let limit = self.max_message() - mark_len(origin);
            return self.too_long(len, Some(prefix), origin, limit);
        }
        if !self.life.reads_input() {
            return None;
        }
        loop {
            if let Some(needed) = self.stall {
                // An automatic reply waits for this much room before its frame is tried again.
                if self.tx.available() < needed && !self.tx.is_empty() {
                    return None;
                }
                self.stall = None;
            }
            // Automatic replies need room; let the transmit buffer drain first.
            if self.tx.available() < self.reserve() && !self.tx.is_empty() {
                return None;
            }
            if let Some(cursor) = self.batch {
                match self.receive_batch_element(lines, cursor, area) {
                    _ if self.stall.is_some() => return None,
                    Some(Some(received)) => return Some(received),
                    Some(None) => continue,
                    None => {
                        self.batch = None;
                        self.rx.consume_line();
                        continue;
                    }
                }
            }
            let range = match self.rx.peek_line(lines, limit)? {
                Ok(range) => range,
                Err(LineError::TooLong { len }) => {
                    let prefix = self.rx.take_oversized();
                    return self.too_long(len, prefix, None, self.max_message());
                }
                Err(LineError::Unterminated { len }) => return Some(Misbehavior::UnterminatedLine { len }.into()),
            };
            // Released first, so that what the line produced goes straight out (no check
            // stands between the call and the return); taken back below if it must stay.
            self.rx.consume_line();
            let received = self.receive_line(lines, range, area);
            if received.is_some() {
                return received;
            }
            if self.stall.is_some() {
                // The line is tried again once its reply fits (a stalled line produces
                // nothing).
                self.rx.keep_line();
                return None;
            }
            if self.batch.is_some() {
                // A batch stays in the buffer while its elements are processed.
                self.rx.keep_line();
            }
            if !self.life.reads_input() {
                return None;
            }
        }
    }

    /// The longest message the receive buffer takes.
    fn max_message(&self) -> usize {
        self.held.capacity() - 1
    }

    /// Turns what a frame produced into the event, giving a request its handle.
    #[inline]
    fn attach<'e>(&'e mut self, received: Received<'e>) -> Event<'e> {
        match received {
            Received::Event(event) => event,
            Received::Request { slot, serial, id, method, params } => {
                Event::Request(IncomingRequest { id, method, params, responder: self.responder(Some(slot), serial) })
            }
        }
    }
}

#[cfg(test)]
mod reserves_tests {
    use super::*;
    use crate::wire::RawJson;

    /// Long enough to make the initialize result the largest reply (over the reserve).
    const INSTRUCTIONS: &str = concat!(
        "0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789",
        "0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789",
        "0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789",
        "0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789",
        "0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789",
    );

    fn config() -> Config<'static> {
        Config::new(Role::Server, RawJson::parse(br#"{"name":"s","version":"1"}"#).unwrap())
            .capabilities(RawJson::parse(br#"{"tools":{}}"#).unwrap())
            .instructions(INSTRUCTIONS)
    }

    /// An endpoint made with the reserves another one measured has the same reserves,
    /// and a transmit buffer too small for them is refused as when they are measured.
    #[test]
    fn reserves_measured_once_hold_for_the_next_endpoint() {
        let measured: Endpoint<'static, 2, 2, [u8; 1024]> =
            Endpoint::with_buffers(config(), [0; 1024], [0; 1024], Instant::ZERO).unwrap();
        let reserves = measured.reserves();
        assert!(reserves.identity_len > 0 && reserves.first_reserve > config().reply_reserve);
        let again: Endpoint<'static, 2, 2, [u8; 1024]> =
            Endpoint::with_buffers_reserved(config(), [0; 1024], [0; 1024], Instant::ZERO, reserves).unwrap();
        assert_eq!(again.reserves(), reserves);
        let small = |r: Option<Reserves>| {
            let tx = [0u8; 1024];
            let tx = &mut { tx }[..reserves.first_reserve - 1];
            let mut rx = [0u8; 1024];
            let built: Result<Endpoint<'_, 2, 2>, _> = match r {
                Some(r) => Endpoint::with_buffers_reserved(config(), &mut rx[..], tx, Instant::ZERO, r),
                None => Endpoint::with_buffers(config(), &mut rx[..], tx, Instant::ZERO),
            };
            built.err()
        };
        assert_eq!(small(Some(reserves)), small(None));
        assert!(matches!(small(None), Some(ConfigError::TxTooSmall { .. })));
    }
}
