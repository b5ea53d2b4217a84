//! A minimal HTTP/1.1 client over a blocking `TcpStream`, just enough to drive an MCP
//! server over Streamable HTTP: keep-alive, `Content-Length`, chunked and close-delimited
//! bodies, and SSE response bodies scanned for the JSON-RPC response as the bytes arrive
//! (so the latency is taken when the response event is complete, not when the server
//! gets round to closing the stream).
//!
//! Written here rather than taken from a crate so the load generator stays std-only and its
//! own cost is small and known: one write per request, reads into one reused buffer.

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// `http://host:port/path`, the only form the load generator takes.
#[derive(Clone, Debug)]
pub struct Url {
    pub authority: String,
    pub path: String,
}

impl Url {
    pub fn parse(url: &str) -> Result<Url, String> {
        let rest = url.strip_prefix("http://").ok_or_else(|| format!("not an http:// URL: {url}"))?;
        let (authority, path) = match rest.find('/') {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, "/"),
        };
        if !authority.contains(':') {
            return Err(format!("the URL needs an explicit port: {url}"));
        }
        Ok(Url { authority: authority.to_string(), path: path.to_string() })
    }
}

/// How the server framed a response body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// `application/json`
    Json,
    /// `text/event-stream`
    Sse,
    /// No body (202 for notifications, DELETE answers).
    Empty,
}

pub struct Response {
    pub status: u16,
    headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub form: Form,
    /// When the JSON-RPC response with the id asked for was complete in the body (for SSE,
    /// the end of its event; for JSON, the end of the body).
    pub message_at: Option<Instant>,
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// One keep-alive connection; reconnects by itself when the server closed the last one.
pub struct Conn {
    url: Url,
    stream: Option<TcpStream>,
    buf: Vec<u8>,
    pos: usize,
    out: Vec<u8>,
}

const TIMEOUT: Duration = Duration::from_secs(15);

fn bad(what: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.into())
}

impl Conn {
    pub fn new(url: &Url) -> Conn {
        Conn {
            url: url.clone(),
            stream: None,
            buf: Vec::with_capacity(16 * 1024),
            pos: 0,
            out: Vec::with_capacity(1024),
        }
    }

    fn stream(&mut self) -> io::Result<&mut TcpStream> {
        if self.stream.is_none() {
            let s = TcpStream::connect(&self.url.authority)?;
            s.set_nodelay(true)?;
            s.set_read_timeout(Some(TIMEOUT))?;
            s.set_write_timeout(Some(TIMEOUT))?;
            self.stream = Some(s);
            self.buf.clear();
            self.pos = 0;
        }
        Ok(self.stream.as_mut().unwrap())
    }

    /// Sends one request and reads its whole response. `want_id`: the JSON-RPC id whose
    /// response marks `message_at`. On any error the connection is dropped (the next
    /// request opens a new one).
    pub fn request(
        &mut self,
        method: &str,
        headers: &[(&str, &str)],
        body: &[u8],
        want_id: Option<u64>,
    ) -> io::Result<Response> {
        let r = self.exchange(method, headers, body, want_id);
        if r.is_err() {
            self.stream = None;
        }
        r
    }

    fn exchange(
        &mut self,
        method: &str,
        headers: &[(&str, &str)],
        body: &[u8],
        want_id: Option<u64>,
    ) -> io::Result<Response> {
        let mut out = std::mem::take(&mut self.out);
        out.clear();
        write!(out, "{method} {} HTTP/1.1\r\nHost: {}\r\n", self.url.path, self.url.authority)?;
        for (n, v) in headers {
            write!(out, "{n}: {v}\r\n")?;
        }
        if !body.is_empty() || method == "POST" {
            write!(out, "Content-Length: {}\r\n", body.len())?;
        }
        out.extend_from_slice(b"\r\n");
        out.extend_from_slice(body);
        let written = self.stream()?.write_all(&out);
        self.out = out;
        written?;
        loop {
            let (status, headers) = self.read_head()?;
            if (100..200).contains(&status) {
                continue; // 100 Continue and friends: the real answer follows
            }
            return self.read_body(status, headers, method, want_id);
        }
    }

    /// Reads more bytes into the buffer; Ok(false) at end of stream.
    fn fill(&mut self) -> io::Result<bool> {
        if self.pos > 0 && self.pos == self.buf.len() {
            self.buf.clear();
            self.pos = 0;
        }
        let start = self.buf.len();
        self.buf.resize(start + 16 * 1024, 0);
        let stream = self.stream.as_mut().ok_or_else(|| bad("not connected"))?;
        let n = loop {
            match stream.read(&mut self.buf[start..]) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                r => break r,
            }
        };
        let n = match n {
            Ok(n) => n,
            Err(e) => {
                self.buf.truncate(start);
                return Err(e);
            }
        };
        self.buf.truncate(start + n);
        Ok(n > 0)
    }

    /// One CRLF-terminated line (without the CRLF).
    fn line(&mut self) -> io::Result<String> {
        loop {
            if let Some(i) = self.buf[self.pos..].windows(2).position(|w| w == b"\r\n") {
                let line = String::from_utf8_lossy(&self.buf[self.pos..self.pos + i]).into_owned();
                self.pos += i + 2;
                return Ok(line);
            }
            if self.buf.len() - self.pos > 64 * 1024 {
                return Err(bad("response line longer than 64 KiB"));
            }
            if !self.fill()? {
                return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "connection closed mid-head"));
            }
        }
    }

    fn read_head(&mut self) -> io::Result<(u16, Vec<(String, String)>)> {
        let status_line = self.line()?;
        let status = status_line
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| bad(format!("bad status line {status_line:?}")))?;
        let mut headers = Vec::new();
        loop {
            let line = self.line()?;
            if line.is_empty() {
                return Ok((status, headers));
            }
            let (n, v) = line.split_once(':').ok_or_else(|| bad(format!("bad header line {line:?}")))?;
            headers.push((n.trim().to_string(), v.trim().to_string()));
        }
    }

    fn read_body(
        &mut self,
        status: u16,
        headers: Vec<(String, String)>,
        method: &str,
        want_id: Option<u64>,
    ) -> io::Result<Response> {
        let mut resp = Response { status, headers, body: Vec::new(), form: Form::Empty, message_at: None };
        let ctype = resp.header("content-type").unwrap_or("").to_ascii_lowercase();
        resp.form = if ctype.starts_with("text/event-stream") {
            Form::Sse
        } else if ctype.starts_with("application/json") {
            Form::Json
        } else {
            Form::Empty
        };
        let close = resp.header("connection").is_some_and(|v| v.eq_ignore_ascii_case("close"));
        let chunked = resp.header("transfer-encoding").is_some_and(|v| v.to_ascii_lowercase().contains("chunked"));
        let length: Option<usize> = resp.header("content-length").and_then(|v| v.parse().ok());
        let mut scan = SseScan::new(want_id);
        if method == "HEAD" || status == 204 || status == 304 {
            // no body
        } else if chunked {
            loop {
                let size_line = self.line()?;
                let size = usize::from_str_radix(size_line.split(';').next().unwrap_or("").trim(), 16)
                    .map_err(|_| bad(format!("bad chunk size {size_line:?}")))?;
                if size == 0 {
                    while !self.line()?.is_empty() {} // trailers
                    break;
                }
                self.take(size, &mut resp.body, &mut scan, resp.form)?;
                if !self.line()?.is_empty() {
                    return Err(bad("chunk not followed by CRLF"));
                }
            }
        } else if let Some(n) = length {
            self.take(n, &mut resp.body, &mut scan, resp.form)?;
        } else {
            // Close-delimited.
            loop {
                let have = self.buf.len() - self.pos;
                if have > 0 {
                    self.take(have, &mut resp.body, &mut scan, resp.form)?;
                }
                if !self.fill()? {
                    break;
                }
            }
            self.stream = None;
        }
        if close {
            self.stream = None;
        }
        resp.message_at = match resp.form {
            Form::Sse => scan.found,
            Form::Json if want_id.is_some() => Some(Instant::now()),
            _ => None,
        };
        Ok(resp)
    }

    /// Moves `n` body bytes into `body`, reading as needed, scanning SSE as it goes.
    fn take(&mut self, mut n: usize, body: &mut Vec<u8>, scan: &mut SseScan, form: Form) -> io::Result<()> {
        while n > 0 {
            if self.pos == self.buf.len() && !self.fill()? {
                return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "connection closed mid-body"));
            }
            let k = n.min(self.buf.len() - self.pos);
            body.extend_from_slice(&self.buf[self.pos..self.pos + k]);
            self.pos += k;
            n -= k;
            if form == Form::Sse {
                scan.advance(body);
            }
        }
        Ok(())
    }
}

/// Finds, in a growing SSE body, the first complete event whose data is the JSON-RPC
/// response with a given id.
struct SseScan {
    needle: Option<Vec<u8>>,
    from: usize,
    found: Option<Instant>,
}

impl SseScan {
    fn new(want_id: Option<u64>) -> SseScan {
        SseScan { needle: want_id.map(|id| format!("\"id\":{id}").into_bytes()), from: 0, found: None }
    }

    fn advance(&mut self, body: &[u8]) {
        let Some(needle) = &self.needle else { return };
        if self.found.is_some() {
            return;
        }
        while let Some(end) = find_event_end(&body[self.from..]) {
            let event = &body[self.from..self.from + end];
            self.from += end;
            if contains_id(event, needle) {
                self.found = Some(Instant::now());
                return;
            }
        }
    }
}

/// The length up to and including the blank line that ends the first event, if complete.
fn find_event_end(b: &[u8]) -> Option<usize> {
    let mut i = 0;
    while i + 1 < b.len() {
        if b[i] == b'\n' && b[i + 1] == b'\n' {
            return Some(i + 2);
        }
        if i + 3 < b.len() && &b[i..i + 4] == b"\r\n\r\n" {
            return Some(i + 4);
        }
        i += 1;
    }
    None
}

/// `"id":N` not followed by another digit.
pub fn contains_id(hay: &[u8], needle: &[u8]) -> bool {
    let mut start = 0;
    while let Some(i) = hay[start..].windows(needle.len()).position(|w| w == needle) {
        let after = start + i + needle.len();
        if hay.get(after).is_none_or(|c| !c.is_ascii_digit()) {
            return true;
        }
        start = after;
    }
    false
}

/// One MCP session over Streamable HTTP on its own keep-alive connection.
pub struct Session {
    conn: Conn,
    session_id: Option<String>,
    version: String,
    next_id: u64,
    body: Vec<u8>,
}

/// One measured `tools/call`.
pub struct Call {
    pub latency: Duration,
    pub form: Form,
}

const INIT: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"http-load","version":"0.1.0"}}}"#;
const INITIALIZED: &[u8] = br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
const ACCEPT: (&str, &str) = ("Accept", "application/json, text/event-stream");
const JSON: (&str, &str) = ("Content-Type", "application/json");

impl Session {
    /// initialize, then notifications/initialized: a ready session.
    pub fn open(url: &Url) -> io::Result<Session> {
        Session::open_on(Conn::new(url))
    }

    /// The same on an existing connection (sessions live on the server, not on the
    /// connection, so one keep-alive connection can open many).
    pub fn open_on(mut conn: Conn) -> io::Result<Session> {
        let r = conn.request("POST", &[JSON, ACCEPT], INIT.as_bytes(), Some(0))?;
        if r.status != 200 || r.message_at.is_none() {
            return Err(bad(format!("initialize answered {} {}", r.status, String::from_utf8_lossy(&r.body))));
        }
        let session_id = r.header("mcp-session-id").map(str::to_string);
        let version = negotiated_version(&r.body).unwrap_or_else(|| "2025-11-25".to_string());
        let mut s = Session { conn, session_id, version, next_id: 1, body: Vec::with_capacity(256) };
        let r = s.post(INITIALIZED.to_vec(), None)?;
        if !(200..300).contains(&r.status) {
            return Err(bad(format!("notifications/initialized answered {}", r.status)));
        }
        Ok(s)
    }

    /// The connection back, leaving the session open on the server.
    pub fn into_conn(self) -> Conn {
        self.conn
    }

    /// Whether the server keeps sessions (it sent an Mcp-Session-Id).
    pub fn stateful(&self) -> bool {
        self.session_id.is_some()
    }

    fn post(&mut self, body: Vec<u8>, want_id: Option<u64>) -> io::Result<Response> {
        let sid = self.session_id.clone();
        let mut headers = vec![JSON, ACCEPT, ("MCP-Protocol-Version", self.version.as_str())];
        if let Some(sid) = &sid {
            headers.push(("Mcp-Session-Id", sid));
        }
        let r = self.conn.request("POST", &headers, &body, want_id);
        self.body = body;
        r
    }

    /// `tools/call` echo {"message":"hello"}: the time until its response was complete.
    pub fn call_echo(&mut self) -> io::Result<Call> {
        let id = self.next_id;
        self.next_id += 1;
        let mut body = std::mem::take(&mut self.body);
        body.clear();
        write!(
            body,
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"echo","arguments":{{"message":"hello"}}}}}}"#
        )?;
        let t = Instant::now();
        let r = self.post(body, Some(id))?;
        let at = r.message_at.ok_or_else(|| {
            bad(format!("no response to tools/call {id}: {} {}", r.status, String::from_utf8_lossy(&r.body)))
        })?;
        if r.status != 200
            // The echoed text ends with the message ("hello", or examples/server's "Echo: hello").
            || !r.body.windows(6).any(|w| w == b"hello\"")
            || !r.body.windows(8).any(|w| w == b"\"result\"")
        {
            return Err(bad(format!(
                "bad answer to tools/call {id}: {} {}",
                r.status,
                String::from_utf8_lossy(&r.body)
            )));
        }
        Ok(Call { latency: at - t, form: r.form })
    }

    /// DELETE the session (ignoring the answer: 405 is allowed).
    pub fn close(mut self) {
        if let Some(sid) = self.session_id.clone() {
            let _ = self.conn.request(
                "DELETE",
                &[("Mcp-Session-Id", &sid), ("MCP-Protocol-Version", &self.version.clone())],
                b"",
                None,
            );
        }
    }
}

/// `"protocolVersion":"V"` in an initialize answer.
fn negotiated_version(body: &[u8]) -> Option<String> {
    let key = b"\"protocolVersion\":\"";
    let at = body.windows(key.len()).position(|w| w == key)? + key.len();
    let end = body[at..].iter().position(|&c| c == b'"')?;
    Some(String::from_utf8_lossy(&body[at..at + end]).into_owned())
}

/// A 2026-07-28 client: no session, every POST stands alone with the required `_meta` in
/// the body and the standard headers (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`)
/// that a modern server checks against it (spec notes §5.4, §8).
pub struct Modern {
    conn: Conn,
    next_id: u64,
    body: Vec<u8>,
}

const MODERN_HEADERS: [(&str, &str); 5] =
    [JSON, ACCEPT, ("MCP-Protocol-Version", "2026-07-28"), ("Mcp-Method", "tools/call"), ("Mcp-Name", "echo")];

impl Modern {
    pub fn new(url: &Url) -> Modern {
        Modern { conn: Conn::new(url), next_id: 1, body: Vec::with_capacity(256) }
    }

    /// `tools/call` echo {"message":"hello"} with the required `_meta`: the time until its
    /// response was complete; an error unless it is a 2026-07-28 result (`resultType`).
    pub fn call_echo(&mut self) -> io::Result<Call> {
        let id = self.next_id;
        self.next_id += 1;
        let mut body = std::mem::take(&mut self.body);
        body.clear();
        write!(
            body,
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"echo","arguments":{{"message":"hello"}},"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#
        )?;
        let t = Instant::now();
        let r = self.conn.request("POST", &MODERN_HEADERS, &body, Some(id));
        self.body = body;
        let r = r?;
        let at = r.message_at.ok_or_else(|| {
            bad(format!("no response to tools/call {id}: {} {}", r.status, String::from_utf8_lossy(&r.body)))
        })?;
        if r.status != 200
            || !r.body.windows(6).any(|w| w == b"hello\"")
            || !r.body.windows(8).any(|w| w == b"\"result\"")
            || !r.body.windows(12).any(|w| w == b"\"resultType\"")
        {
            return Err(bad(format!(
                "bad answer to a 2026-07-28 tools/call {id}: {} {}",
                r.status,
                String::from_utf8_lossy(&r.body)
            )));
        }
        Ok(Call { latency: at - t, form: r.form })
    }
}
