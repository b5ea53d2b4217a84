//! One TCP connection carrying the exchanges of one slot of the client core, one at a
//! time: connecting (each address in turn), writing the request, reading the head, then
//! the body as far as the core takes it, and kept alive for the slot's next exchange
//! when the response allows.
//!
//! [`Conn::step`] does one thing at a time and says what: an input given to the core
//! (the loop drains before the next one), bytes moved, or nothing until the socket or
//! the core is ready. It never reads ahead of its buffer: when the core takes nothing,
//! nothing more is read, the kernel's receive window fills, and the server's writes
//! block (backpressure reaches the socket).

use std::io::{self, Read, Write};
use std::net::SocketAddr;
use std::time::Duration;

use mio::net::TcpStream;
use mio::{Interest, Registry, Token};

use super::h1::body::{BodyDecoder, Framing, Piece};
use super::h1::head::{self, MAX_HEADERS, Parsed};
use crate::http::client::{ExchangeId, Failure, HttpClient};
use crate::time::Instant;

/// Where a connection stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Phase {
    /// The TCP connection is being opened.
    Connecting,
    /// The request is going out.
    Writing,
    /// Waiting for the response head.
    Head,
    /// Reading the body.
    Body,
    /// The response ended; the connection waits for the slot's next request.
    Idle,
}

/// What [`Conn::step`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Turn {
    /// Nothing until the socket is ready, the core takes more, or a deadline.
    Wait,
    /// Bytes moved or the phase changed, without an input to the core: step again.
    Moved,
    /// An input was given to the core: drain it, then step again.
    Fed,
    /// The connection is done and must be dropped; `fed`: after an input to the core.
    Drop {
        /// An input was given (drain after dropping).
        fed: bool,
    },
}

/// Per-exchange settings the loop works out from the request.
#[derive(Clone, Copy, Debug)]
pub(super) struct Timeouts {
    pub connect: Duration,
    /// From the moment the request starts going out to the head.
    pub head: Option<Duration>,
}

/// One connection.
pub(super) struct Conn {
    stream: TcpStream,
    token: Token,
    addrs: Vec<SocketAddr>,
    /// The address `stream` is (being) connected to.
    addr: usize,
    /// `host[:port]` the connection goes to, for reuse.
    pub authority: String,
    /// The exchange being carried (or the last one, while idle).
    pub exchange: ExchangeId,
    pub phase: Phase,
    timeouts: Timeouts,
    out: Vec<u8>,
    written: usize,
    buf: Vec<u8>,
    start: usize,
    end: usize,
    body: BodyDecoder,
    /// Readiness as last reported (mio is edge-triggered: these stay set until an
    /// operation says `WouldBlock`).
    readable: bool,
    writable: bool,
    /// The server closed its side, or reading failed.
    eof: bool,
    pub deadline: Option<Instant>,
    /// The exchange went on a connection kept alive from an earlier one.
    reused: bool,
    /// Bytes of this exchange's response have come.
    received: bool,
    /// The response lets the connection carry another request.
    reusable: bool,
}

impl Conn {
    /// Opens a connection to the first address that accepts one; `out` holds the
    /// request to write once connected. `Err` when no address could even be tried.
    #[allow(clippy::too_many_arguments)]
    pub fn open(
        registry: &Registry,
        token: Token,
        addrs: Vec<SocketAddr>,
        authority: String,
        exchange: ExchangeId,
        out: Vec<u8>,
        buf: Vec<u8>,
        timeouts: Timeouts,
        now: Instant,
    ) -> io::Result<Conn> {
        let (stream, addr) = connect_from(registry, token, &addrs, 0)?;
        Ok(Conn {
            stream,
            token,
            addrs,
            addr,
            authority,
            exchange,
            phase: Phase::Connecting,
            timeouts,
            out,
            written: 0,
            buf,
            start: 0,
            end: 0,
            body: BodyDecoder::new(Framing::Empty),
            readable: false,
            writable: false,
            eof: false,
            deadline: Some(now + timeouts.connect),
            reused: false,
            received: false,
            reusable: false,
        })
    }

    /// Whether the connection can carry a new request to `authority` now.
    pub fn can_carry(&self, authority: &str) -> bool {
        self.phase == Phase::Idle && !self.eof && self.authority.eq_ignore_ascii_case(authority)
    }

    /// Starts the next exchange on this idle connection.
    pub fn reuse(&mut self, exchange: ExchangeId, out: Vec<u8>, timeouts: Timeouts, now: Instant) {
        self.exchange = exchange;
        self.out = out;
        self.written = 0;
        self.timeouts = timeouts;
        self.phase = Phase::Writing;
        self.reused = true;
        self.received = false;
        self.reusable = false;
        self.start = 0;
        self.end = 0;
        self.deadline = timeouts.head.map(|t| now + t);
    }

    /// The buffers, for the slot's next connection.
    pub fn into_buffers(self, registry: &Registry) -> (Vec<u8>, Vec<u8>) {
        let mut stream = self.stream;
        let _ = registry.deregister(&mut stream);
        (self.out, self.buf)
    }

    /// The socket became ready (or reported an error, which the next operation reads).
    pub fn ready(&mut self, readable: bool, writable: bool) {
        self.readable |= readable;
        self.writable |= writable;
    }

    /// One step; see [`Turn`].
    pub fn step<const X: usize>(&mut self, now: Instant, http: &mut HttpClient<'_, X>, registry: &Registry) -> Turn {
        match self.phase {
            Phase::Connecting => self.connecting(now, http, registry),
            Phase::Writing => self.writing(now, http, registry),
            Phase::Head => self.head(now, http, registry),
            Phase::Body => self.body(now, http),
            Phase::Idle => self.idle(),
        }
    }

    /// A deadline passed: the connection attempt moves to the next address or fails,
    /// a response head that did not come fails the exchange.
    pub fn expire<const X: usize>(&mut self, now: Instant, http: &mut HttpClient<'_, X>, registry: &Registry) -> Turn {
        if self.deadline.is_none_or(|at| now < at) {
            return Turn::Wait;
        }
        self.deadline = None;
        match self.phase {
            Phase::Connecting => self.next_address(now, http, registry),
            Phase::Writing | Phase::Head => self.fail(now, http, Failure::Timeout),
            Phase::Body | Phase::Idle => Turn::Wait,
        }
    }

    fn connecting<const X: usize>(&mut self, now: Instant, http: &mut HttpClient<'_, X>, registry: &Registry) -> Turn {
        if !self.writable && !self.readable {
            return Turn::Wait;
        }
        match self.stream.take_error() {
            Ok(None) => {}
            Ok(Some(_)) | Err(_) => return self.next_address(now, http, registry),
        }
        match self.stream.peer_addr() {
            Ok(_) => {
                let _ = self.stream.set_nodelay(true);
                self.phase = Phase::Writing;
                self.deadline = self.timeouts.head.map(|t| now + t);
                Turn::Moved
            }
            Err(e) if e.kind() == io::ErrorKind::NotConnected => {
                // Not yet (a readiness report that was not about the connection).
                self.readable = false;
                self.writable = false;
                Turn::Wait
            }
            Err(_) => self.next_address(now, http, registry),
        }
    }

    /// This address did not work: the next one, or the exchange fails.
    fn next_address<const X: usize>(
        &mut self,
        now: Instant,
        http: &mut HttpClient<'_, X>,
        registry: &Registry,
    ) -> Turn {
        let _ = registry.deregister(&mut self.stream);
        match connect_from(registry, self.token, &self.addrs, self.addr + 1) {
            Ok((stream, addr)) => {
                self.stream = stream;
                self.addr = addr;
                self.readable = false;
                self.writable = false;
                self.deadline = Some(now + self.timeouts.connect);
                Turn::Moved
            }
            Err(_) => {
                http.handle_failure(now, self.exchange, Failure::Connect);
                Turn::Drop { fed: true }
            }
        }
    }

    fn writing<const X: usize>(&mut self, now: Instant, http: &mut HttpClient<'_, X>, registry: &Registry) -> Turn {
        while self.written < self.out.len() {
            if !self.writable {
                return Turn::Wait;
            }
            match self.stream.write(&self.out[self.written..]) {
                Ok(0) => return self.broken(now, http, registry),
                Ok(n) => self.written += n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    self.writable = false;
                    return Turn::Wait;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => return self.broken(now, http, registry),
            }
        }
        self.phase = Phase::Head;
        Turn::Moved
    }

    fn head<const X: usize>(&mut self, now: Instant, http: &mut HttpClient<'_, X>, registry: &Registry) -> Turn {
        if self.start < self.end {
            let mut fields = [httparse::EMPTY_HEADER; MAX_HEADERS];
            match head::parse(&self.buf[self.start..self.end], &mut fields) {
                Ok(Parsed::Final(h)) => {
                    let headers = h.headers.iter().map(|f| (f.name, f.value));
                    http.handle_response(now, self.exchange, h.status, headers);
                    self.start += h.len;
                    self.body = BodyDecoder::new(h.framing);
                    self.reusable = h.reusable;
                    self.phase = Phase::Body;
                    self.deadline = None;
                    return Turn::Fed;
                }
                Ok(Parsed::Interim { len }) => {
                    self.start += len;
                    return Turn::Moved;
                }
                Ok(Parsed::Partial) => {}
                Err(_) => return self.fail(now, http, Failure::Broken),
            }
        }
        if self.compact() == 0 {
            // A head larger than the whole buffer.
            return self.fail(now, http, Failure::Broken);
        }
        match self.read() {
            Got::Some => Turn::Moved,
            Got::Wait => Turn::Wait,
            Got::Closed => self.broken(now, http, registry),
        }
    }

    fn body<const X: usize>(&mut self, now: Instant, http: &mut HttpClient<'_, X>) -> Turn {
        let piece = match self.body.next(&self.buf[self.start..self.end]) {
            Ok(p) => p,
            Err(_) => return self.fail(now, http, Failure::Broken),
        };
        match piece {
            Piece::Data { skip, len } => {
                self.start += skip;
                let taken = http.handle_body(now, self.exchange, &self.buf[self.start..self.start + len]).min(len);
                self.body.taken(taken);
                self.start += taken;
                if taken == 0 {
                    // The core holds what it has: read nothing more until it takes this.
                    Turn::Wait
                } else {
                    Turn::Fed
                }
            }
            Piece::End { skip } => {
                self.start += skip;
                http.handle_end(now, self.exchange);
                if self.reusable && self.start == self.end && !self.eof {
                    self.phase = Phase::Idle;
                    self.start = 0;
                    self.end = 0;
                    Turn::Fed
                } else {
                    Turn::Drop { fed: true }
                }
            }
            Piece::More { skip } => {
                self.start += skip;
                if self.eof {
                    if self.body.complete_at_close() {
                        http.handle_end(now, self.exchange);
                    } else {
                        http.handle_failure(now, self.exchange, Failure::Broken);
                    }
                    return Turn::Drop { fed: true };
                }
                if self.compact() == 0 {
                    // Framing bytes (a chunk-size line) longer than the buffer.
                    return self.fail(now, http, Failure::Broken);
                }
                match self.read() {
                    Got::Some => Turn::Moved,
                    Got::Wait => Turn::Wait,
                    // Looked at again: the end of a close-delimited body, or a cut.
                    Got::Closed => Turn::Moved,
                }
            }
        }
    }

    /// An idle connection: the server may close it, or (wrongly) send something.
    fn idle(&mut self) -> Turn {
        self.start = 0;
        self.end = 0;
        match self.read() {
            Got::Wait => Turn::Wait,
            // Closed, or bytes nobody asked for: the connection cannot be trusted.
            Got::Closed | Got::Some => Turn::Drop { fed: false },
        }
    }

    /// The connection broke before a response head. A connection kept alive from an
    /// earlier exchange may have been closed by the server just as the request went
    /// out (an idle timeout): the request goes again, once, on a new connection, when
    /// not a byte of the response came. Otherwise the exchange fails.
    fn broken<const X: usize>(&mut self, now: Instant, http: &mut HttpClient<'_, X>, registry: &Registry) -> Turn {
        if self.reused && !self.received {
            let _ = registry.deregister(&mut self.stream);
            if let Ok((stream, addr)) = connect_from(registry, self.token, &self.addrs, 0) {
                self.stream = stream;
                self.addr = addr;
                self.reused = false;
                self.eof = false;
                self.readable = false;
                self.writable = false;
                self.written = 0;
                self.start = 0;
                self.end = 0;
                self.phase = Phase::Connecting;
                self.deadline = Some(now + self.timeouts.connect);
                return Turn::Moved;
            }
        }
        self.fail(now, http, Failure::Broken)
    }

    fn fail<const X: usize>(&mut self, now: Instant, http: &mut HttpClient<'_, X>, failure: Failure) -> Turn {
        http.handle_failure(now, self.exchange, failure);
        Turn::Drop { fed: true }
    }

    /// Makes room at the end of the buffer by moving what is unread to the front;
    /// returns the room.
    fn compact(&mut self) -> usize {
        if self.start == self.end {
            self.start = 0;
            self.end = 0;
        } else if self.end == self.buf.len() && self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        self.buf.len() - self.end
    }

    /// Reads what the socket has into the room at the end of the buffer.
    fn read(&mut self) -> Got {
        if self.eof {
            return Got::Closed;
        }
        if !self.readable || self.end == self.buf.len() {
            return Got::Wait;
        }
        loop {
            match self.stream.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    return Got::Closed;
                }
                Ok(n) => {
                    self.end += n;
                    self.received = true;
                    return Got::Some;
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    self.readable = false;
                    return Got::Wait;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => {
                    self.eof = true;
                    return Got::Closed;
                }
            }
        }
    }
}

/// What a read did.
enum Got {
    Some,
    Wait,
    Closed,
}

/// Starts a non-blocking connection to the first of `addrs[from..]` that can be tried,
/// registered for both kinds of readiness.
fn connect_from(
    registry: &Registry,
    token: Token,
    addrs: &[SocketAddr],
    from: usize,
) -> io::Result<(TcpStream, usize)> {
    let mut last = io::Error::new(io::ErrorKind::NotFound, "the host resolved to no address");
    for (i, addr) in addrs.iter().enumerate().skip(from) {
        match TcpStream::connect(*addr) {
            Ok(mut stream) => {
                registry.register(&mut stream, token, Interest::READABLE | Interest::WRITABLE)?;
                return Ok((stream, i));
            }
            Err(e) => last = e,
        }
    }
    Err(last)
}
