//! [`Endpoint`]: one side of one MCP connection, as a state machine.

use core::time::Duration;

use serde::Serialize;

use super::config::Config;
use super::errors::{ConfigError, SendError};
use super::event::{CloseReason, Event, Output};
use super::inbound::Inbound;
use super::outbound::{Ended, Outbound};
use super::plan::Plan;
use crate::framing::{LineError, LineFramer};
use crate::mcp::{CapabilitySet, ProtocolVersion, Role};
use crate::time::Instant;
use crate::wire::{FrameWriter, JsonKind, MAX_ID_LEN, RawJson, RequestId};

/// Transmit-buffer room kept free for the replies the endpoint writes on its own (pongs,
/// error replies, cancellations): input is only processed while this much is free.
pub(crate) const AUTO_REPLY_RESERVE: usize = 512;

/// The smallest receive buffer accepted.
pub const MIN_RX_BUFFER: usize = 256;

/// Where the handshake stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum State {
    /// Client: `initialize` sent, waiting for its answer.
    AwaitingInitializeResult,
    /// Server: waiting for `initialize`.
    AwaitingInitialize,
    /// Server: `initialize` answered, waiting for `notifications/initialized`.
    AwaitingInitialized,
    /// The handshake is complete.
    Ready,
    /// The session is ending: no new requests; answers still flush.
    Closing,
    /// The session is over.
    Closed,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct InitRequest {
    pub id: u64,
    pub deadline: Instant,
    /// Retries left after a -32602 that lists the server's versions.
    pub retries: u8,
    /// The version this `initialize` offered.
    pub offered: ProtocolVersion,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Ping {
    pub id: u64,
    pub sent: Instant,
    pub reported: bool,
}

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Closing {
    /// The peer's input ended.
    pub eof: bool,
    /// Input is no longer processed (local close, or a failed handshake).
    pub stop_input: bool,
    /// Why the session ends, once decided.
    pub reason: Option<CloseReason>,
    /// Live outgoing requests have been failed.
    pub failed_outbound: bool,
    /// The `Closed` event was delivered.
    pub done: bool,
}

/// A batch frame being processed element by element.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BatchCursor {
    /// Offset in the receive buffer of the next element's search position.
    pub next: usize,
    /// End of the array in the receive buffer.
    pub end: usize,
}

/// Everything but the receive buffer, so that events can borrow both at once.
pub(crate) struct Core<'a, const OUT: usize, const IN: usize> {
    pub config: Config<'a>,
    pub tx: FrameWriter<'a>,
    pub out: Outbound<OUT>,
    pub inb: Inbound<IN>,
    pub state: State,
    pub version: Option<ProtocolVersion>,
    pub own_caps: CapabilitySet,
    pub peer_caps: CapabilitySet,
    pub now: Instant,
    pub last_rx: Instant,
    pub init: Option<InitRequest>,
    pub ping: Option<Ping>,
    pub ready_pending: bool,
    pub unresponsive: Option<Duration>,
    pub oversized_frame: Option<usize>,
    pub dropped_reply: Option<usize>,
    pub transmitted: usize,
    pub batch: Option<BatchCursor>,
    pub closing: Closing,
    pub reserve: usize,
}

/// One side of an MCP connection: a client or a server, as a sans-IO state machine.
///
/// `OUT` is the number of requests this side can have in flight, `IN` the number of the
/// peer's requests it can be working on at once. Both tables are fixed arrays inside the
/// endpoint; the receive and transmit buffers are the caller's.
///
/// The methods come in four kinds:
/// * inputs: [`handle_input`](Self::handle_input) (bytes from the transport),
///   [`handle_frame`](Self::handle_frame) (one whole message),
///   [`handle_eof`](Self::handle_eof), [`handle_timeout`](Self::handle_timeout);
/// * commands: [`send_request`](Self::send_request), [`send_notification`](Self::send_notification),
///   [`respond`](Self::respond), [`respond_error`](Self::respond_error),
///   [`send_progress`](Self::send_progress), [`cancel`](Self::cancel), [`close`](Self::close);
/// * outputs: [`poll_output`](Self::poll_output), [`poll_timeout`](Self::poll_timeout);
/// * getters: [`state`](Self::state), [`protocol_version`](Self::protocol_version), ….
///
/// **After every input or command, call `poll_output` until it returns
/// [`Output::Idle`]** (see the crate documentation for a complete loop).
pub struct Endpoint<'a, const OUT: usize = 8, const IN: usize = 8> {
    pub(crate) rx: LineFramer<'a>,
    pub(crate) core: Core<'a, OUT, IN>,
}

impl<'a, const OUT: usize, const IN: usize> Endpoint<'a, OUT, IN> {
    /// Creates an endpoint. A client queues its `initialize` request at once (drain
    /// `poll_output` to send it); a server waits for one.
    pub fn new(config: Config<'a>, rx: &'a mut [u8], tx: &'a mut [u8], now: Instant) -> Result<Self, ConfigError> {
        if config.info.kind() != JsonKind::Object || config.capabilities.kind() != JsonKind::Object {
            return Err(ConfigError::NotAnObject);
        }
        let Some(newest) = config.newest() else { return Err(ConfigError::NoHandshakeVersion) };
        if rx.len() < MIN_RX_BUFFER {
            return Err(ConfigError::RxTooSmall { needed: MIN_RX_BUFFER });
        }
        let mut core = Core {
            config,
            tx: FrameWriter::new(tx),
            out: Outbound::new(),
            inb: Inbound::new(),
            state: match config.role {
                Role::Client => State::AwaitingInitializeResult,
                Role::Server => State::AwaitingInitialize,
            },
            version: None,
            own_caps: config.own_capabilities(),
            peer_caps: CapabilitySet::EMPTY,
            now,
            last_rx: now,
            init: None,
            ping: None,
            ready_pending: false,
            unresponsive: None,
            oversized_frame: None,
            dropped_reply: None,
            transmitted: 0,
            batch: None,
            closing: Closing::default(),
            reserve: AUTO_REPLY_RESERVE,
        };
        // The initialize result (server) must always fit beside the usual reserve.
        if config.role == Role::Server {
            let longest_id = [b'1'; MAX_ID_LEN];
            let id = crate::wire::RequestIdRef::from_validated(&longest_id);
            let needed = match core.tx.result(id, &core.initialize_result(newest)) {
                Ok(range) => range.len(),
                Err(crate::wire::EncodeError::BufferTooSmall { needed, .. }) => needed,
                Err(_) => return Err(ConfigError::NotAnObject),
            };
            core.tx.clear();
            core.reserve = core.reserve.max(needed + AUTO_REPLY_RESERVE);
        }
        if core.tx.capacity() < core.reserve {
            return Err(ConfigError::TxTooSmall { needed: core.reserve });
        }
        if config.role == Role::Client {
            core.send_initialize(newest).map_err(|e| match e {
                SendError::TxFull { needed, .. } => ConfigError::TxTooSmall { needed: needed.max(core.reserve) },
                _ => ConfigError::NotAnObject,
            })?;
        }
        Ok(Self { rx: LineFramer::new(rx), core })
    }

    // ---- inputs -------------------------------------------------------------------

    /// Feeds bytes received from a byte-stream transport (stdio). Returns how many were
    /// taken: fewer than `data.len()` when the receive buffer holds unprocessed messages;
    /// drain [`poll_output`](Self::poll_output) and feed the rest.
    pub fn handle_input(&mut self, now: Instant, data: &[u8]) -> usize {
        self.core.advance(now);
        if self.core.closing.stop_input || self.rx.is_closed() {
            return data.len();
        }
        if !data.is_empty() {
            self.core.last_rx = self.core.now;
        }
        self.rx.feed(data)
    }

    /// The free part of the receive buffer, to read into directly; then call
    /// [`commit_input`](Self::commit_input). Empty only while unprocessed messages wait.
    pub fn input_buffer(&mut self) -> &mut [u8] {
        self.rx.spare()
    }

    /// Marks `n` bytes of [`input_buffer`](Self::input_buffer) as received.
    pub fn commit_input(&mut self, now: Instant, n: usize) {
        self.core.advance(now);
        if n > 0 {
            self.core.last_rx = self.core.now;
        }
        if self.core.closing.stop_input {
            // Discard: nothing is processed any more.
            let _ = self.rx.spare();
            return;
        }
        self.rx.commit(n);
    }

    /// Feeds one complete message from a message-oriented transport (an HTTP body, an SSE
    /// event). Returns `false`, taking nothing, when the receive buffer has no room for it
    /// now: drain [`poll_output`](Self::poll_output) and try again. A message larger than
    /// the whole buffer is reported as [`Misbehavior::LineTooLong`](super::Misbehavior::LineTooLong).
    pub fn handle_frame(&mut self, now: Instant, frame: &[u8]) -> bool {
        self.core.advance(now);
        self.core.last_rx = self.core.now;
        if self.core.closing.stop_input || self.rx.is_closed() {
            return true;
        }
        if frame.len() + 1 > self.rx.capacity() {
            // One report is held at a time: a second oversized frame waits for the drain.
            if self.core.oversized_frame.is_some() {
                return false;
            }
            self.core.oversized_frame = Some(frame.len());
            return true;
        }
        let spare = self.rx.spare();
        if spare.len() < frame.len() + 1 {
            return false;
        }
        spare[..frame.len()].copy_from_slice(frame);
        // A message may contain line breaks between tokens; they must not split it. In
        // valid JSON they can only be whitespace, so they become spaces; in invalid JSON
        // they become a byte that keeps it invalid (a raw line break inside a string
        // must not turn into a valid space).
        if frame.iter().any(|&b| b == b'\n' || b == b'\r') {
            let valid =
                crate::wire::validate(frame, crate::wire::ScanConfig::with_max_depth(self.core.config.max_depth))
                    .is_ok();
            for b in &mut spare[..frame.len()] {
                if *b == b'\n' || *b == b'\r' {
                    *b = if valid { b' ' } else { 0x01 };
                }
            }
        }
        spare[frame.len()] = b'\n';
        self.rx.commit(frame.len() + 1);
        true
    }

    /// The peer closed its side: no more input will come. Messages already received are
    /// still processed; then requests of ours in flight fail
    /// ([`Event::Failed`](super::Event::Failed)), answers to the peer's requests still
    /// flush, and [`Event::Closed`](super::Event::Closed) follows once every request the
    /// peer sent has been answered.
    pub fn handle_eof(&mut self, now: Instant) {
        self.core.advance(now);
        self.core.closing.eof = true;
        self.rx.close();
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
    pub fn poll_output(&mut self) -> Output<'_> {
        let core = &mut self.core;
        if core.transmitted > 0 {
            core.tx.consume(core.transmitted);
            core.transmitted = 0;
        }
        core.run_timers();
        if !core.tx.is_empty() && core.tx.available() < core.reserve {
            return self.transmit();
        }
        if let Some(event) = self.core.queued_event() {
            return Output::Event(event);
        }
        if let Some(plan) = self.process_input() {
            let closed = self.core.state == State::Closed || self.core.closing.stop_input;
            let progress_message = self.core.version.is_none_or(|v| v != ProtocolVersion::V2024_11_05);
            let base = self.rx.buffer();
            return Output::Event(plan.resolve(
                base,
                self.core.tx.view(),
                &mut self.core.inb.slots,
                closed,
                progress_message,
            ));
        }
        if !self.core.tx.is_empty() {
            return self.transmit();
        }
        if let Some(event) = self.core.closed_event(self.rx.is_closed()) {
            return Output::Event(event);
        }
        Output::Idle { next_timeout: self.poll_timeout() }
    }

    fn transmit(&mut self) -> Output<'_> {
        self.core.transmitted = self.core.tx.len();
        Output::Transmit(self.core.tx.as_bytes())
    }

    /// The earliest deadline: call [`handle_timeout`](Self::handle_timeout) then.
    pub fn poll_timeout(&self) -> Option<Instant> {
        self.core.next_deadline()
    }

    /// Processes received frames until one produces an event.
    fn process_input(&mut self) -> Option<Plan> {
        let core = &mut self.core;
        if let Some(len) = core.oversized_frame.take() {
            return Some(Plan::LineTooLong(len));
        }
        if core.closing.stop_input {
            return None;
        }
        loop {
            // Automatic replies need room; let the transmit buffer drain first.
            if core.tx.available() < core.reserve && !core.tx.is_empty() {
                return None;
            }
            if let Some(cursor) = core.batch {
                match core.batch_step(self.rx.buffer(), cursor) {
                    Some(Some(plan)) => return Some(plan),
                    Some(None) => continue,
                    None => {
                        core.batch = None;
                        self.rx.consume_line();
                        continue;
                    }
                }
            }
            let range = match self.rx.peek_line()? {
                Ok(range) => range,
                Err(LineError::TooLong { len }) => return Some(Plan::LineTooLong(len)),
                Err(LineError::Unterminated { len }) => return Some(Plan::Unterminated(len)),
            };
            let (plan, keep) = core.dispatch_line(self.rx.buffer(), range);
            if !keep {
                self.rx.consume_line();
            }
            if plan.is_some() {
                return plan;
            }
            if core.closing.stop_input {
                return None;
            }
        }
    }

    // ---- getters ------------------------------------------------------------------

    /// Where the handshake and the session stand.
    pub fn state(&self) -> State {
        self.core.state
    }

    /// The negotiated protocol version, once known.
    pub fn protocol_version(&self) -> Option<ProtocolVersion> {
        self.core.version
    }

    /// This side's role.
    pub fn role(&self) -> Role {
        self.core.config.role
    }

    /// The capabilities the peer declared (empty until the handshake).
    pub fn peer_capabilities(&self) -> CapabilitySet {
        self.core.peer_caps
    }

    /// The capabilities this side declared.
    pub fn capabilities(&self) -> CapabilitySet {
        self.core.own_caps
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
        self.core.closing.done
    }

    /// The endpoint's idea of the current time (the latest instant passed in).
    pub fn now(&self) -> Instant {
        self.core.now
    }
}

impl<'a, const OUT: usize, const IN: usize> Core<'a, OUT, IN> {
    pub fn advance(&mut self, now: Instant) {
        self.now = self.now.max(now);
    }

    /// The `initialize` result this server sends for `version`.
    pub fn initialize_result(&self, version: ProtocolVersion) -> impl Serialize + 'a {
        #[derive(Serialize)]
        struct InitializeResult<'r> {
            #[serde(rename = "protocolVersion")]
            version: ProtocolVersion,
            capabilities: RawJson<'r>,
            #[serde(rename = "serverInfo")]
            info: RawJson<'r>,
            #[serde(skip_serializing_if = "Option::is_none")]
            instructions: Option<&'r str>,
        }
        InitializeResult {
            version,
            capabilities: self.config.capabilities,
            info: self.config.info,
            instructions: self.config.instructions,
        }
    }

    /// Queues `initialize` offering `version` (client).
    pub fn send_initialize(&mut self, version: ProtocolVersion) -> Result<(), SendError> {
        #[derive(Serialize)]
        struct InitializeParams<'r> {
            #[serde(rename = "protocolVersion")]
            version: ProtocolVersion,
            capabilities: RawJson<'r>,
            #[serde(rename = "clientInfo")]
            info: RawJson<'r>,
        }
        let params = InitializeParams { version, capabilities: self.config.capabilities, info: self.config.info };
        let id = self.out.peek_id();
        self.tx.request(RequestId::from_u64(id).as_ref(), "initialize", Some(&params))?;
        self.out.allocate_id();
        let retries = self.init.map_or(2, |i| i.retries);
        self.init =
            Some(InitRequest { id, deadline: self.now + self.config.initialize_timeout, retries, offered: version });
        Ok(())
    }

    /// Events that do not borrow the receive buffer.
    fn queued_event(&mut self) -> Option<Event<'static>> {
        if self.ready_pending {
            self.ready_pending = false;
            if let Some(version) = self.version {
                return Some(Event::Ready { version });
            }
        }
        if let Some(waited) = self.unresponsive.take() {
            return Some(Event::PeerUnresponsive { waited });
        }
        if let Some(needed) = self.dropped_reply.take() {
            return Some(Event::ReplyDropped { needed });
        }
        for slot in self.out.slots.iter_mut() {
            let Some(entry) = slot else { continue };
            let Some(ended) = entry.ended else { continue };
            if entry.cancel_unsent {
                // Written by run_timers once there is room; the event waits for it.
                continue;
            }
            let (id, method) = (RequestId::from_u64(entry.id), entry.method);
            *slot = None;
            return Some(match ended {
                Ended::TimedOut => Event::TimedOut { id, method },
                Ended::Failed(reason) => Event::Failed { id, method, reason },
            });
        }
        None
    }

    /// Ends the session from this side: `reason` says why. Live requests of ours fail,
    /// the peer's requests are abandoned, input is no longer processed; what is queued
    /// for sending still goes out, then `Closed`.
    pub fn shut_down(&mut self, reason: CloseReason) {
        if self.closing.reason.is_none() {
            self.closing.reason = Some(reason);
        }
        self.closing.stop_input = true;
        self.init = None;
        self.ping = None;
        self.batch = None;
        self.inb = Inbound::new();
        self.fail_outbound(reason);
        if self.state != State::Closed {
            self.state = State::Closing;
        }
    }

    pub fn fail_outbound(&mut self, reason: CloseReason) {
        if self.closing.failed_outbound {
            return;
        }
        self.closing.failed_outbound = true;
        for entry in self.out.slots.iter_mut().flatten() {
            if entry.ended.is_none() {
                entry.ended = Some(Ended::Failed(reason));
            }
        }
    }

    /// The `Closed` event, once everything owed has been delivered and sent.
    fn closed_event(&mut self, rx_closed: bool) -> Option<Event<'static>> {
        if self.closing.done {
            return None;
        }
        let input_over = self.closing.stop_input || (self.closing.eof && rx_closed && self.batch.is_none());
        if !input_over {
            return None;
        }
        // The peer's input is over: nothing can answer our requests any more.
        let reason = self.closing.reason.unwrap_or(CloseReason::PeerClosed);
        if !self.closing.failed_outbound {
            self.init = None;
            self.ping = None;
            self.fail_outbound(reason);
            if self.state != State::Closed {
                self.state = State::Closing;
            }
        }
        if let Some(event) = self.queued_event() {
            return Some(event);
        }
        if self.out.slots.iter().any(Option::is_some) || self.inb.owed() > 0 || !self.tx.is_empty() {
            return None;
        }
        self.closing.done = true;
        self.state = State::Closed;
        Some(Event::Closed { reason })
    }
}
