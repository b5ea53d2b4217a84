//! One TCP connection: its socket, its bounded buffers, and where it stands in the
//! request it is serving.

use std::io::{self, Read, Write};

use super::h1::{BodyReader, Framing};
use crate::http::server::{Headers, RequestKind, SessionHandle, SessionId};
use crate::mcp::ProtocolVersion;
use crate::time::Instant;

/// Input held beyond what the current request needs, at most: once this much waits
/// unread (a client pipelining requests, or writing while its stream is served), the
/// socket is not read until it goes down.
pub(crate) const INPUT_LIMIT: usize = 64 * 1024;

/// Output held for the socket: no more is taken from a session's streams while this
/// much waits (the client reads slowly), so backpressure reaches the session.
pub(crate) const OUTPUT_LOW: usize = 32 * 1024;

/// Whether a read shorter than asked means the socket had nothing more: so for TCP on
/// the edge-triggered readiness of epoll and kqueue; not relied on elsewhere.
const SHORT_READ_DRAINS: bool = cfg!(any(
    target_os = "linux",
    target_os = "android",
    target_vendor = "apple",
    target_os = "freebsd",
    target_os = "netbsd",
    target_os = "openbsd",
    target_os = "dragonfly"
));

/// What a request head decided, kept while its body is read.
#[derive(Clone, Debug)]
pub(crate) struct Req {
    pub kind: RequestKind,
    pub session_id: Option<SessionId>,
    pub version: Option<ProtocolVersion>,
    pub last_event_id: Option<String>,
    pub keep_alive: bool,
    pub http10: bool,
    /// `MCP-Protocol-Version` named no version served, on a POST with no session id:
    /// refused so unless the body is a 2026-07-28 request (then the endpoint answers).
    pub version_refused: Option<crate::http::server::BadRequest>,
    /// The standard headers of a 2026-07-28 request (`MCP-Protocol-Version`,
    /// `Mcp-Method`, `Mcp-Name`, every occurrence), checked against the body.
    pub modern_headers: KeptHeaders,
}

/// Header fields kept past the head, every occurrence in order, in one buffer: a
/// `String` and a `Vec` for each took two allocations a field (four more for a
/// stateless POST than for a session's request). Each field is its name's length (two
/// bytes) and its value's (four), then the name and the value.
#[derive(Clone, Debug, Default)]
pub(crate) struct KeptHeaders(Vec<u8>);

impl KeptHeaders {
    /// Keeps a field (one with a name of 64 KiB or more, which no head this server
    /// reads holds, is not kept).
    pub fn push(&mut self, name: &str, value: &[u8]) {
        let (Ok(n), Ok(v)) = (u16::try_from(name.len()), u32::try_from(value.len())) else { return };
        if self.0.is_empty() {
            // Room for a modern request's usual fields at once (growing from the first
            // one's size took a reallocation or two more).
            self.0.reserve(name.len() + value.len() + 128);
        }
        self.0.extend_from_slice(&n.to_le_bytes());
        self.0.extend_from_slice(&v.to_le_bytes());
        self.0.extend_from_slice(name.as_bytes());
        self.0.extend_from_slice(value);
    }

    fn fields(&self) -> impl Iterator<Item = (&[u8], &[u8])> + '_ {
        let mut rest = &self.0[..];
        core::iter::from_fn(move || {
            let (lengths, after) = rest.split_at_checked(6)?;
            let n = usize::from(u16::from_le_bytes([lengths[0], lengths[1]]));
            let v = u32::from_le_bytes([lengths[2], lengths[3], lengths[4], lengths[5]]) as usize;
            let (name, after) = after.split_at_checked(n)?;
            let (value, after) = after.split_at_checked(v)?;
            rest = after;
            Some((name, value))
        })
    }
}

impl Headers for KeptHeaders {
    fn value(&self, name: &str, nth: usize) -> Option<&[u8]> {
        self.fields().filter(|(n, _)| n.eq_ignore_ascii_case(name.as_bytes())).nth(nth).map(|(_, v)| v)
    }

    /// One walk of the fields, not one for each of the first two occurrences.
    fn first_and_repeated(&self, name: &str) -> (Option<&[u8]>, bool) {
        let mut found = self.fields().filter(|(n, _)| n.eq_ignore_ascii_case(name.as_bytes())).map(|(_, v)| v);
        (found.next(), found.next().is_some())
    }
}

/// Where the connection stands.
pub(crate) enum Phase {
    /// Waiting for (the rest of) a request head.
    Head,
    /// Reading a POST body.
    Body { req: Req, reader: BodyReader, body: Vec<u8> },
    /// The body waits for room in its session's endpoint; the session feeds it.
    Feeding,
    /// A response carried by a session's streams.
    Exchange(Exchange),
    /// A whole response is in the output; then the next request, or the close.
    Answered,
    /// Closing once the output is out.
    Closing,
}

/// A response the session's streams write.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Exchange {
    pub id: u32,
    pub session: SessionHandle,
    /// The head is out: bytes may follow.
    pub head_sent: bool,
    pub chunked: bool,
    pub keep_alive: bool,
    /// A legacy session's stream: the session ends with it.
    pub legacy: bool,
}

pub(crate) struct Conn {
    pub socket: mio::net::TcpStream,
    pub readable: bool,
    pub writable: bool,
    /// The last readiness event said the peer closed its side.
    pub read_closed: bool,
    /// Input not used yet, from `rstart`.
    pub rbuf: Vec<u8>,
    pub rstart: usize,
    /// How far the input was searched for the end of a head.
    pub searched: usize,
    /// Output not written yet, from `wstart`.
    pub wbuf: Vec<u8>,
    pub wstart: usize,
    pub phase: Phase,
    /// When the current head's first byte came (the header timeout runs from there).
    pub head_started: Option<Instant>,
    /// When the connection last did anything (the idle timeout).
    pub last_active: Instant,
    /// Since when the client has taken nothing of what waits for it.
    pub stalled_since: Option<Instant>,
    /// The peer closed its side, or the socket failed.
    pub eof: bool,
    pub dead: bool,
    /// The connection ends once its output is out.
    pub close_after: bool,
    pub dirty: bool,
    pub scheduled: Option<Instant>,
}

impl Conn {
    pub fn new(socket: mio::net::TcpStream, now: Instant) -> Self {
        Conn {
            socket,
            readable: false,
            writable: false,
            read_closed: false,
            rbuf: Vec::new(),
            rstart: 0,
            searched: 0,
            wbuf: Vec::new(),
            wstart: 0,
            phase: Phase::Head,
            head_started: None,
            last_active: now,
            stalled_since: None,
            eof: false,
            dead: false,
            close_after: false,
            dirty: true,
            scheduled: None,
        }
    }

    /// Input not used yet.
    pub fn input(&self) -> &[u8] {
        &self.rbuf[self.rstart..]
    }

    /// Marks `n` bytes of input used.
    pub fn consume(&mut self, n: usize) {
        self.rstart += n;
        self.searched = self.searched.saturating_sub(n);
        if self.rstart == self.rbuf.len() {
            self.rbuf.clear();
            self.rstart = 0;
        }
    }

    /// Reads what the socket has, up to `limit` bytes held, through `scratch` (the
    /// loop's, so that no buffer is zeroed per read). Returns whether bytes came.
    pub fn read_some(&mut self, scratch: &mut [u8], limit: usize, now: Instant) -> bool {
        let mut got = false;
        while self.readable && !self.eof && self.input().len() < limit {
            if self.rstart > 0 && self.rstart * 2 >= self.rbuf.len() {
                self.rbuf.drain(..self.rstart);
                self.rstart = 0;
            }
            let room = (limit - self.input().len()).clamp(1, scratch.len());
            match self.socket.read(&mut scratch[..room]) {
                Ok(0) => self.eof = true,
                Ok(n) => {
                    self.rbuf.extend_from_slice(&scratch[..n]);
                    got = true;
                    self.last_active = now;
                    // A short read emptied the socket's queue: more data will be a new
                    // readiness event, so the read that would say `WouldBlock` is
                    // saved (one system call per request; tokio does the same). Not
                    // once the peer closed its side: the end is read now.
                    if n < room && SHORT_READ_DRAINS && !self.read_closed {
                        self.readable = false;
                    }
                }
                Err(e) => match e.kind() {
                    io::ErrorKind::WouldBlock => self.readable = false,
                    io::ErrorKind::Interrupted => {}
                    _ => {
                        self.eof = true;
                        self.dead = true;
                    }
                },
            }
        }
        if self.rbuf.capacity() > 4 * INPUT_LIMIT && self.input().len() < INPUT_LIMIT {
            self.rbuf.drain(..self.rstart);
            self.rstart = 0;
            self.rbuf.shrink_to(INPUT_LIMIT);
        }
        got
    }

    /// Output waiting for the socket.
    pub fn pending(&self) -> usize {
        self.wbuf.len() - self.wstart
    }

    /// Writes what waits, as far as the socket takes it.
    pub fn write_some(&mut self, now: Instant) {
        while self.writable && self.pending() > 0 && !self.dead {
            match self.socket.write(&self.wbuf[self.wstart..]) {
                Ok(0) => self.dead = true,
                Ok(n) => {
                    self.wstart += n;
                    self.last_active = now;
                    self.stalled_since = None;
                }
                Err(e) => match e.kind() {
                    io::ErrorKind::WouldBlock => self.writable = false,
                    io::ErrorKind::Interrupted => {}
                    _ => self.dead = true,
                },
            }
        }
        if self.pending() == 0 {
            self.wbuf.clear();
            self.wstart = 0;
            self.stalled_since = None;
            if self.wbuf.capacity() > 4 * OUTPUT_LOW {
                self.wbuf.shrink_to(OUTPUT_LOW);
            }
        } else {
            self.stalled_since.get_or_insert(now);
            if self.wstart > OUTPUT_LOW {
                self.wbuf.drain(..self.wstart);
                self.wstart = 0;
            }
        }
    }

    /// The body framing of a request, as a reader.
    pub fn body_reader(framing: Framing, length: Option<u64>, cap: usize) -> BodyReader {
        match framing {
            Framing::Chunked => BodyReader::chunked(cap),
            Framing::Length(_) => BodyReader::length(length.unwrap_or(0), cap),
        }
    }
}

#[cfg(test)]
mod kept_headers_tests {
    use super::{Headers, KeptHeaders};

    /// Each occurrence of a field, by any case of its name, in the order received.
    #[test]
    fn kept_headers_are_found_by_name_and_occurrence() {
        let mut kept = KeptHeaders::default();
        assert_eq!(kept.value("mcp-method", 0), None);
        for (name, value) in [("Mcp-Method", "tools/call"), ("MCP-Name", ""), ("mcp-method", "x"), ("Mcp-Param-A", "1")]
        {
            kept.push(name, value.as_bytes());
        }
        assert_eq!(kept.value("mcp-method", 0), Some(&b"tools/call"[..]));
        assert_eq!(kept.value("MCP-METHOD", 1), Some(&b"x"[..]));
        assert_eq!(kept.value("mcp-method", 2), None);
        assert_eq!(kept.value("mcp-name", 0), Some(&b""[..]));
        assert_eq!(kept.value("mcp-param-a", 0), Some(&b"1"[..]));
        assert_eq!(kept.value("mcp-param", 0), None);
        // The one walk `single` makes sees a second occurrence, by any case.
        assert_eq!(kept.first_and_repeated("MCP-method"), (Some(&b"tools/call"[..]), true));
        assert_eq!(kept.first_and_repeated("mcp-name"), (Some(&b""[..]), false));
        assert_eq!(kept.first_and_repeated("mcp-param-b"), (None, false));
    }
}
