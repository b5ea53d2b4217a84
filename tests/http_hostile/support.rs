//! What the hostile-input tests need: the server under test started on a free port, its
//! process read from /proc (bytes read, memory), and a raw HTTP/1.1 connection that sends
//! exactly the bytes a test gives it and reads answers without trusting them.

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Where the server under test listens: what the request helpers need (cheap to clone
/// into client threads).
#[derive(Clone, Debug)]
pub struct Target {
    pub addr: SocketAddr,
    pub path: String,
}

impl Target {
    pub fn connect(&self) -> Raw {
        Raw::connect(self.addr)
    }
}

/// The server under test, killed when dropped.
pub struct Server {
    child: Child,
    pub target: Target,
}

impl std::ops::Deref for Server {
    type Target = Target;
    fn deref(&self) -> &Target {
        &self.target
    }
}

/// The default server: examples/server --http, built beside this test (target/<profile>/
/// examples/server).
fn default_command() -> String {
    let exe = std::env::current_exe().expect("current_exe");
    let profile_dir = exe.parent().and_then(|deps| deps.parent()).expect("target/<profile>/deps/<test>");
    format!("{} --http 127.0.0.1:{{port}}", profile_dir.join("examples").join("server").display())
}

pub fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

impl Server {
    /// Starts `$MCP_HTTP_SERVER` (default: examples/server --http 127.0.0.1:{port}) with
    /// `{port}` replaced by a free port, and waits until it accepts connections.
    pub fn start() -> Server {
        let template = std::env::var("MCP_HTTP_SERVER").unwrap_or_else(|_| default_command());
        let path = std::env::var("MCP_HTTP_PATH").unwrap_or_else(|_| "/mcp".into());
        let port = TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port();
        let command = template.replace("{port}", &port.to_string());
        let argv: Vec<&str> = command.split_whitespace().collect();
        let mut child = Command::new(argv[0])
            .args(&argv[1..])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start the server under test `{command}`: {e}"));
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let until = Instant::now() + Duration::from_secs(30);
        loop {
            if TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_ok() {
                // Drain its stderr so that a chatty server never blocks on a full pipe.
                if let Some(mut err) = child.stderr.take() {
                    std::thread::spawn(move || io::copy(&mut err, &mut io::sink()));
                }
                eprintln!("http_hostile: the server under test is `{command}`");
                return Server { child, target: Target { addr, path } };
            }
            if let Ok(Some(status)) = child.try_wait() {
                let mut err = String::new();
                if let Some(mut e) = child.stderr.take() {
                    let _ = e.read_to_string(&mut err);
                }
                panic!(
                    "the server under test `{command}` exited ({status}) before listening: {}\n(the default is \
                     examples/server --http, which exists once issue 9 lands; set MCP_HTTP_SERVER to test another \
                     server)",
                    err.trim()
                );
            }
            assert!(Instant::now() < until, "the server under test `{command}` did not listen on {addr} within 30 s");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Bytes the server process has read so far (/proc/<pid>/io rchar: every read(2),
    /// sockets included), if the kernel tells.
    pub fn bytes_read(&self) -> Option<u64> {
        proc_field(&format!("/proc/{}/io", self.pid()), "rchar:")
    }

    /// Resident memory in bytes (VmRSS).
    pub fn rss(&self) -> Option<u64> {
        proc_field(&format!("/proc/{}/status", self.pid()), "VmRSS:").map(|kb| kb * 1024)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn proc_field(path: &str, field: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    text.lines().find(|l| l.starts_with(field))?.split_whitespace().nth(1)?.parse().ok()
}

/// An answer as read off the wire.
#[derive(Debug, Default)]
pub struct Resp {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// A `text/event-stream` answer: only its head was read, the stream is left open.
    pub streaming: bool,
}

impl Resp {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The body as JSON: a plain JSON body, or the first SSE `data:` event of a whole body.
    pub fn json(&self) -> Option<serde_json::Value> {
        if let Ok(v) = serde_json::from_slice(&self.body) {
            return Some(v);
        }
        let text = self.text();
        let data: String = text.lines().filter_map(|l| l.strip_prefix("data:")).map(str::trim).collect();
        serde_json::from_str(&data).ok()
    }
}

/// A raw HTTP/1.1 connection.
pub struct Raw {
    pub stream: TcpStream,
    buf: Vec<u8>,
}

impl Raw {
    pub fn connect(addr: SocketAddr) -> Raw {
        let stream = TcpStream::connect(addr).unwrap_or_else(|e| panic!("cannot connect to {addr}: {e}"));
        stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        stream.set_write_timeout(Some(Duration::from_secs(10))).unwrap();
        let _ = stream.set_nodelay(true);
        Raw { stream, buf: Vec::new() }
    }

    pub fn send(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.stream.write_all(bytes)
    }

    fn fill(&mut self) -> io::Result<bool> {
        let mut chunk = [0u8; 16 * 1024];
        let n = self.stream.read(&mut chunk)?;
        self.buf.extend_from_slice(&chunk[..n]);
        Ok(n > 0)
    }

    fn line(&mut self) -> io::Result<String> {
        loop {
            if let Some(i) = self.buf.windows(2).position(|w| w == b"\r\n") {
                let line = String::from_utf8_lossy(&self.buf[..i]).into_owned();
                self.buf.drain(..i + 2);
                return Ok(line);
            }
            if !self.fill()? {
                return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "closed before a full line"));
            }
        }
    }

    fn exact(&mut self, n: usize) -> io::Result<Vec<u8>> {
        while self.buf.len() < n {
            if !self.fill()? {
                return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "closed mid-body"));
            }
        }
        Ok(self.buf.drain(..n).collect())
    }

    /// Reads one answer. SSE answers are returned after their head (`streaming`).
    pub fn response(&mut self) -> io::Result<Resp> {
        let mut r = Resp::default();
        loop {
            let status_line = self.line()?;
            r.status =
                status_line.split(' ').nth(1).and_then(|s| s.parse().ok()).ok_or_else(|| {
                    io::Error::new(io::ErrorKind::InvalidData, format!("status line {status_line:?}"))
                })?;
            r.headers.clear();
            loop {
                let l = self.line()?;
                if l.is_empty() {
                    break;
                }
                if let Some((n, v)) = l.split_once(':') {
                    r.headers.push((n.trim().to_string(), v.trim().to_string()));
                }
            }
            if r.status >= 200 {
                break;
            }
        }
        if r.header("content-type").is_some_and(|c| c.to_ascii_lowercase().starts_with("text/event-stream")) {
            r.streaming = true;
            return Ok(r);
        }
        if r.status == 204 || r.status == 304 {
            return Ok(r);
        }
        if r.header("transfer-encoding").is_some_and(|t| t.to_ascii_lowercase().contains("chunked")) {
            loop {
                let size = usize::from_str_radix(self.line()?.split(';').next().unwrap_or("").trim(), 16)
                    .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "bad chunk size"))?;
                if size == 0 {
                    while !self.line()?.is_empty() {}
                    break;
                }
                let chunk = self.exact(size)?;
                r.body.extend_from_slice(&chunk);
                self.exact(2)?;
            }
        } else if let Some(n) = r.header("content-length").and_then(|v| v.parse::<usize>().ok()) {
            r.body = self.exact(n)?;
        } else {
            while self.fill()? {}
            r.body = std::mem::take(&mut self.buf);
        }
        Ok(r)
    }

    /// What was read past the last answer's head and not handed out yet (the first bytes
    /// of a stream `response` left open). For tests/http_modern.
    #[allow(dead_code)]
    pub fn take_buffered(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.buf)
    }

    /// Reads a whole SSE body after `response` returned `streaming` (until the server ends
    /// it), for answers to POSTed requests.
    pub fn rest_of_stream(&mut self, r: &mut Resp) -> io::Result<()> {
        if r.header("transfer-encoding").is_some_and(|t| t.to_ascii_lowercase().contains("chunked")) {
            loop {
                let size = usize::from_str_radix(self.line()?.split(';').next().unwrap_or("").trim(), 16)
                    .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "bad chunk size"))?;
                if size == 0 {
                    while !self.line()?.is_empty() {}
                    return Ok(());
                }
                let chunk = self.exact(size)?;
                r.body.extend_from_slice(&chunk);
                self.exact(2)?;
            }
        }
        if let Some(n) = r.header("content-length").and_then(|v| v.parse::<usize>().ok()) {
            let body = self.exact(n)?;
            r.body.extend_from_slice(&body);
            return Ok(());
        }
        while self.fill()? {}
        r.body.extend(std::mem::take(&mut self.buf));
        Ok(())
    }

    /// Reads a chunked SSE body after `response` returned `streaming` until its text
    /// contains `needle` (the stream is left open); the text read.
    #[allow(dead_code)] // for the in-process server tests that share this file
    pub fn stream_until(&mut self, needle: &str) -> io::Result<String> {
        let mut text = String::new();
        while !text.contains(needle) {
            let Some(chunk) = self.next_chunk()? else {
                return Err(io::Error::new(io::ErrorKind::UnexpectedEof, format!("stream ended: {text:?}")));
            };
            text.push_str(&String::from_utf8_lossy(&chunk));
        }
        Ok(text)
    }

    /// The next chunk of a chunked body whose head `response` read (`None` at its end):
    /// for reading an SSE answer event by event.
    #[allow(dead_code)]
    pub fn next_chunk(&mut self) -> io::Result<Option<Vec<u8>>> {
        let size = usize::from_str_radix(self.line()?.split(';').next().unwrap_or("").trim(), 16)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "bad chunk size"))?;
        if size == 0 {
            while !self.line()?.is_empty() {}
            return Ok(None);
        }
        let chunk = self.exact(size)?;
        self.exact(2)?;
        Ok(Some(chunk))
    }

    /// Waits up to `limit` for the server to close the connection; the time it took.
    pub fn closed_within(&mut self, limit: Duration) -> Option<Duration> {
        let start = Instant::now();
        let mut chunk = [0u8; 4096];
        while start.elapsed() < limit {
            let left = limit.saturating_sub(start.elapsed()).max(Duration::from_millis(1));
            self.stream.set_read_timeout(Some(left.min(Duration::from_millis(500)))).ok();
            match self.stream.read(&mut chunk) {
                Ok(0) => return Some(start.elapsed()),
                Ok(_) => continue, // an answer (408, 400): keep reading to the close
                Err(e) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut) => continue,
                Err(_) => return Some(start.elapsed()), // reset
            }
        }
        None
    }
}

/// The headers every MCP POST carries.
pub fn post_head(server: &Target, session: Option<&Session>, body_len: usize, extra: &str) -> String {
    let mut h = format!(
        "POST {} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\
         Content-Length: {body_len}\r\n",
        server.path, server.addr
    );
    if let Some(s) = session {
        h.push_str(&format!("Mcp-Session-Id: {}\r\nMCP-Protocol-Version: {}\r\n", s.id, s.version));
    }
    h.push_str(extra);
    h.push_str("\r\n");
    h
}

/// A session opened with initialize + initialized.
#[derive(Clone, Debug)]
pub struct Session {
    pub id: String,
    pub version: String,
}

pub const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"http-hostile","version":"0.1.0"}}}"#;

/// POSTs a message and reads the whole answer (an SSE answer to its end).
pub fn post(raw: &mut Raw, server: &Target, session: Option<&Session>, body: &str, extra: &str) -> io::Result<Resp> {
    raw.send(format!("{}{body}", post_head(server, session, body.len(), extra)).as_bytes())?;
    let mut r = raw.response()?;
    if r.streaming {
        raw.rest_of_stream(&mut r)?;
    }
    Ok(r)
}

/// initialize + notifications/initialized on `raw`; the answer to initialize when it was
/// refused.
pub fn open_session(raw: &mut Raw, server: &Target) -> Result<Session, Resp> {
    let r = post(raw, server, None, INITIALIZE, "")
        .map_err(|e| Resp { body: e.to_string().into_bytes(), ..Resp::default() })?;
    let id = match r.header("mcp-session-id") {
        Some(id) if r.status == 200 => id.to_string(),
        _ => return Err(r),
    };
    let version = r
        .json()
        .and_then(|v| v["result"]["protocolVersion"].as_str().map(str::to_string))
        .unwrap_or_else(|| "2025-11-25".into());
    let s = Session { id, version };
    let done = post(raw, server, Some(&s), r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, "")
        .map_err(|e| Resp { body: e.to_string().into_bytes(), ..Resp::default() })?;
    if done.status != 202 {
        return Err(done);
    }
    Ok(s)
}

pub fn ping(raw: &mut Raw, server: &Target, session: &Session, id: u64) -> io::Result<Resp> {
    post(raw, server, Some(session), &format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#), "")
}
