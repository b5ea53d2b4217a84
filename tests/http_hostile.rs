//! Bad input over HTTP (issue 9, "Checks"): a real server process, real sockets, and a
//! client that misbehaves on purpose. Each test starts its own server and checks that the
//! answer is the right one and that the server stays up with bounded memory:
//!
//! * malformed request lines and headers: 400 (431 for oversized heads, 505 for an
//!   unknown HTTP version), and the connection then either still works or is closed;
//! * bodies past the cap: 413, without the server reading them whole (measured from the
//!   server's own read count, /proc/<pid>/io);
//! * slow clients that never finish their headers: closed after the header timeout;
//! * invalid JSON: 400 with a JSON-RPC -32700 (or -32600) error without an id;
//! * messages of hundreds of KB both ways (a server that starts sessions small must grow);
//! * a hostile `Origin` (403) and a foreign `Host` on a loopback server (4xx);
//! * thousands of sessions: each served or refused with a clear status (429/503), memory
//!   per session within a budget, and the server still answering;
//! * an SSE stream held open while hundreds of POSTs go through, all answered promptly.
//!
//! The server under test is `$MCP_HTTP_SERVER` (a command with `{port}` in it), by default
//! `examples/server --http 127.0.0.1:{port}` as built beside this test. They start and
//! measure a server process one at a time, so plain `cargo test` skips them; run them with
//!
//!     cargo test --release --test http_hostile -- --ignored --test-threads 1
//!
//! or against another server, e.g. the TypeScript SDK's (tests/interop/ts_http_echo_server.mjs,
//! installed by tests/interop/run.sh --install-only):
//!
//!     MCP_HTTP_SERVER='node .ci/cache/interop/node/ts_http_echo_server.mjs --port {port}' \
//!         cargo test --test http_hostile -- --ignored --test-threads 1
//!
//! Settings (environment): MCP_HTTP_PATH (default /mcp), MCP_HTTP_BODY_CAP (the server's
//! body cap in bytes, default 4 MiB), MCP_HTTP_HEADER_TIMEOUT_MS (how soon a connection
//! whose head never completes must be closed, default 10000), MCP_HTTP_SESSIONS (default
//! 2000), MCP_HTTP_SESSION_BUDGET (bytes of memory allowed per idle session, default 8192).
//! Linux only (reads /proc).

#[path = "http_hostile/support.rs"]
mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use support::{Raw, Server, Session, Target, env_u64, open_session, ping, post, post_head};

/// One server at a time: the timing and memory checks must not share the machine with
/// another test's server.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

fn session(server: &Server) -> (Raw, Session) {
    let mut raw = server.connect();
    let s = open_session(&mut raw, server).unwrap_or_else(|r| panic!("initialize refused: {} {}", r.status, r.text()));
    (raw, s)
}

/// After a refusal on `raw`: the connection is closed, or still serves a request; and a
/// new connection is served either way.
fn still_usable(server: &Target, mut raw: Raw, what: &str) -> Result<(), String> {
    let mut fresh = server.connect();
    open_session(&mut fresh, server).map_err(|r| format!("{what}: the server no longer serves ({})", r.status))?;
    match post(&mut raw, server, None, support::INITIALIZE, "") {
        Ok(r) if r.status == 200 => Ok(()),
        Ok(r) => Err(format!("{what}: the connection stayed open but answered the next request with {}", r.status)),
        Err(_) => Ok(()), // closed: fine
    }
}

#[test]
#[ignore = "starts a server process and measures it: .ci/run http, or see the module docs"]
fn malformed_request_heads_are_refused_and_the_server_stays_up() {
    let _g = serial();
    let mut server = Server::start();
    let host = server.addr.to_string();
    let p = server.path.clone();
    // Each request is valid but for the one fault it is named after (an initialize POST
    // with the right Accept and Content-Type), so only that fault can explain a refusal.
    let init = support::INITIALIZE;
    let mcp = "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n";
    let len = format!("Content-Length: {}\r\n", init.len());
    let long = "a".repeat(100 * 1024);
    let many: String = (0..2000).map(|i| format!("X-H{i}: v\r\n")).collect();
    let cases: Vec<(&str, String, &[u16])> = vec![
        ("garbage request line", format!("GARBAGE\r\nHost: {host}\r\n{mcp}{len}\r\n{init}"), &[400]),
        ("no HTTP version", format!("POST {p}\r\nHost: {host}\r\n{mcp}{len}\r\n{init}"), &[400]),
        ("unknown HTTP version", format!("POST {p} HTTP/9.9\r\nHost: {host}\r\n{mcp}{len}\r\n{init}"), &[400, 505]),
        (
            "header line without a colon",
            format!("POST {p} HTTP/1.1\r\nHost: {host}\r\n{mcp}NoColonHere\r\n{len}\r\n{init}"),
            &[400],
        ),
        ("space before the colon", format!("POST {p} HTTP/1.1\r\nHost : {host}\r\n{mcp}{len}\r\n{init}"), &[400]),
        (
            "NUL in a header value",
            format!("POST {p} HTTP/1.1\r\nHost: {host}\r\n{mcp}X-A: a\0b\r\n{len}\r\n{init}"),
            &[400],
        ),
        ("no Host header", format!("POST {p} HTTP/1.1\r\n{mcp}{len}\r\n{init}"), &[400]),
        (
            "Content-Length not a number",
            format!("POST {p} HTTP/1.1\r\nHost: {host}\r\n{mcp}Content-Length: abc\r\n\r\n{init}"),
            &[400],
        ),
        (
            "two different Content-Lengths",
            format!("POST {p} HTTP/1.1\r\nHost: {host}\r\n{mcp}{len}Content-Length: 5\r\n\r\n{init}"),
            &[400],
        ),
        (
            "Content-Length and Transfer-Encoding together (smuggling)",
            format!("POST {p} HTTP/1.1\r\nHost: {host}\r\n{mcp}{len}Transfer-Encoding: chunked\r\n\r\n{init}"),
            &[400],
        ),
        (
            "broken chunked body",
            format!(
                "POST {p} HTTP/1.1\r\nHost: {host}\r\n{mcp}Transfer-Encoding: chunked\r\n\r\nzz\r\n{init}\r\n0\r\n\r\n"
            ),
            &[400],
        ),
        (
            "a 100 KiB header",
            format!("POST {p} HTTP/1.1\r\nHost: {host}\r\n{mcp}X-Long: {long}\r\n{len}\r\n{init}"),
            &[400, 431],
        ),
        ("2000 headers", format!("POST {p} HTTP/1.1\r\nHost: {host}\r\n{mcp}{many}{len}\r\n{init}"), &[400, 431]),
    ];
    let mut failures = Vec::new();
    for (what, bytes, allowed) in cases {
        let mut raw = server.connect();
        if raw.send(bytes.as_bytes()).is_err() {
            failures.push(format!("{what}: the server reset the connection while the request was sent"));
            continue;
        }
        match raw.response() {
            Ok(r) if allowed.contains(&r.status) => {
                if let Err(e) = still_usable(&server, raw, what) {
                    failures.push(e);
                }
            }
            Ok(r) => failures.push(format!(
                "{what}: answered {} (want {allowed:?}): {}",
                r.status,
                r.text().chars().take(120).collect::<String>()
            )),
            Err(e) => failures.push(format!("{what}: no answer ({e}); want {allowed:?}")),
        }
    }
    assert!(server.alive(), "the server process exited");
    assert!(
        failures.is_empty(),
        "{} of the malformed requests were mishandled:\n  {}",
        failures.len(),
        failures.join("\n  ")
    );
}

/// Sends a head then up to `total` body bytes in the background; returns the answer (if
/// any came), how many bytes the server had read by then, and by the end (when the client
/// could send no more, or sent it all), and how much the client got sent.
fn send_oversized(server: &Server, head: String, total: usize, chunked: bool) -> (Option<u16>, u64, u64, usize) {
    let mut raw = server.connect();
    let before = server.bytes_read().unwrap_or(0);
    raw.send(head.as_bytes()).expect("sending the head");
    let mut writer = raw.stream.try_clone().expect("clone");
    writer.set_write_timeout(Some(Duration::from_secs(2))).ok();
    let sent = Arc::new(AtomicUsize::new(0));
    let sent_w = sent.clone();
    let t = std::thread::spawn(move || {
        use std::io::Write;
        let chunk = vec![b' '; 64 * 1024];
        let mut n = 0;
        while n < total {
            let ok = if chunked {
                writer
                    .write_all(format!("{:x}\r\n", chunk.len()).as_bytes())
                    .and_then(|_| writer.write_all(&chunk))
                    .and_then(|_| writer.write_all(b"\r\n"))
            } else {
                writer.write_all(&chunk)
            };
            if ok.is_err() {
                break;
            }
            n += chunk.len();
            sent_w.store(n, Ordering::Relaxed);
        }
    });
    raw.stream.set_read_timeout(Some(Duration::from_secs(15))).ok();
    let status = raw.response().ok().map(|r| r.status);
    let read = server.bytes_read().unwrap_or(0).saturating_sub(before);
    // Keep the connection open while the writer goes on: a server that drains the whole
    // body after answering (instead of closing) shows it here.
    let _ = t.join();
    std::thread::sleep(Duration::from_millis(300));
    let read_by_end = server.bytes_read().unwrap_or(0).saturating_sub(before);
    drop(raw);
    (status, read, read_by_end, sent.load(Ordering::Relaxed))
}

#[test]
#[ignore = "starts a server process and measures it: .ci/run http, or see the module docs"]
fn bodies_past_the_cap_get_413_without_being_read() {
    let _g = serial();
    let server = Server::start();
    let cap = env_u64("MCP_HTTP_BODY_CAP", 4 * 1024 * 1024) as usize;
    let (_raw, s) = session(&server);
    let total = 64 * 1024 * 1024;
    let mut failures = Vec::new();

    // Declared up front: nothing of the body needs reading.
    let head = post_head(&server, Some(&s), total, "");
    let (status, read, read_by_end, sent) = send_oversized(&server, head, total, false);
    eprintln!(
        "declared {total} bytes: answered {status:?}; the server read {read} bytes by then, {read_by_end} in all; the client got {sent} written"
    );
    if status != Some(413) {
        failures.push(format!("Content-Length {total} (cap {cap}): answered {status:?}, want 413"));
    }
    if read > 1024 * 1024 {
        failures.push(format!("Content-Length {total}: the server read {read} bytes before answering (want < 1 MiB)"));
    }
    if read_by_end as usize > cap + 2 * 1024 * 1024 {
        failures.push(format!("Content-Length {total}: the server went on reading after its answer, {read_by_end} bytes in all (want < cap + 2 MiB: close, do not drain)"));
    }

    // Chunked: the server must stop at the cap.
    let head = post_head(&server, Some(&s), 0, "").replace("Content-Length: 0\r\n", "Transfer-Encoding: chunked\r\n");
    let (status, read, read_by_end, sent) = send_oversized(&server, head, total, true);
    eprintln!(
        "chunked {total} bytes: answered {status:?}; the server read {read} bytes by then, {read_by_end} in all; the client got {sent} written"
    );
    if status != Some(413) {
        failures.push(format!("chunked body of {total} bytes (cap {cap}): answered {status:?}, want 413"));
    }
    if read as usize > cap + 1024 * 1024 {
        failures
            .push(format!("chunked body: the server read {read} bytes before answering (cap {cap} + 1 MiB at most)"));
    }
    if read_by_end as usize > cap + 2 * 1024 * 1024 {
        failures.push(format!("chunked body: the server went on reading after its answer, {read_by_end} bytes in all"));
    }

    // And it still serves.
    let mut raw = server.connect();
    if let Err(r) = open_session(&mut raw, &server) {
        failures.push(format!("after the oversized bodies, initialize got {}", r.status));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
#[ignore = "starts a server process and measures it: .ci/run http, or see the module docs"]
fn slow_clients_that_never_finish_headers_are_closed() {
    let _g = serial();
    let server = Server::start();
    let timeout = Duration::from_millis(env_u64("MCP_HTTP_HEADER_TIMEOUT_MS", 10_000));
    let limit = timeout + Duration::from_secs(5);
    let head = format!("POST {} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n", server.path, server.addr);

    // One that stops mid-head, one that trickles a header byte every 500 ms (an idle
    // timer reset by each byte would never fire on it: the limit is on the whole head).
    let mut stalled = server.connect();
    stalled.send(head.as_bytes()).unwrap();
    let trickler = {
        let mut raw = server.connect();
        let head = head.clone();
        std::thread::spawn(move || {
            raw.send(head.as_bytes()).unwrap();
            let start = Instant::now();
            for b in b"X-Slow: ".iter().chain([b'a'; 200].iter()) {
                if raw.send(&[*b]).is_err() {
                    return Some(start.elapsed());
                }
                std::thread::sleep(Duration::from_millis(500));
                if start.elapsed() > limit {
                    return None;
                }
            }
            None
        })
    };
    let stalled_closed = stalled.closed_within(limit);
    let trickle_closed = trickler.join().unwrap();
    let mut fresh = server.connect();
    let serving = open_session(&mut fresh, &server).is_ok();
    assert!(
        stalled_closed.is_some() && trickle_closed.is_some() && serving,
        "header timeout {timeout:?}: a stalled head was closed after {stalled_closed:?}, a trickled one after \
         {trickle_closed:?} (None: still open after {limit:?}); the server still serves: {serving}"
    );
}

#[test]
#[ignore = "starts a server process and measures it: .ci/run http, or see the module docs"]
fn invalid_json_gets_400_with_an_id_less_error() {
    let _g = serial();
    let server = Server::start();
    let (mut raw, s) = session(&server);
    let mut failures = Vec::new();
    for (what, body, codes) in [
        ("truncated JSON", r#"{"jsonrpc":"2.0","id":7,"method":"#, &[-32700][..]),
        ("not JSON at all", "hello there", &[-32700]),
        ("JSON but not a JSON-RPC message", r#"{"hello":"world"}"#, &[-32600, -32700]),
    ] {
        match post(&mut raw, &server, Some(&s), body, "") {
            Ok(r) => {
                let v = r.json();
                let code = v.as_ref().and_then(|v| v["error"]["code"].as_i64()).map(|c| c as i32);
                let id_less = v.as_ref().is_some_and(|v| v.get("id").is_none_or(|id| id.is_null()));
                if r.status != 400 || !code.is_some_and(|c| codes.contains(&c)) || !id_less {
                    failures.push(format!(
                        "{what}: {} {} (want 400 with error {codes:?} and no id)",
                        r.status,
                        r.text()
                    ));
                }
            }
            Err(e) => failures.push(format!("{what}: no answer: {e}")),
        }
        // The connection stays usable (or is closed and a new one works).
        match ping(&mut raw, &server, &s, 99) {
            Ok(r) if r.status == 200 => {}
            _ => {
                raw = server.connect();
                if ping(&mut raw, &server, &s, 99).map(|r| r.status).unwrap_or(0) != 200 {
                    failures.push(format!("{what}: the session no longer answers ping"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Messages far larger than a session starts with (our server's buffers start at 16 KiB
/// and grow within their bounds) go through both ways, and a small one after them still
/// does: a request and its echo of 40 KB, of 200 KB, then of 5 bytes.
#[test]
#[ignore = "starts a server process and measures it: .ci/run http, or see the module docs"]
fn large_messages_go_through_both_ways() {
    let _g = serial();
    let mut server = Server::start();
    let (mut raw, s) = session(&server);
    for (id, size) in [(10u64, 40_000usize), (11, 200_000), (12, 5)] {
        let text = "x".repeat(size);
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"echo","arguments":{{"message":"{text}"}}}}}}"#
        );
        let r = post(&mut raw, &server, Some(&s), &body, "").unwrap_or_else(|e| panic!("{size} bytes: no answer: {e}"));
        let start: String = r.text().chars().take(300).collect();
        let v = r.json().unwrap_or_else(|| panic!("{size} bytes: {} {start}", r.status));
        let echoed = v["result"]["content"][0]["text"].as_str().unwrap_or_default();
        assert!(
            r.status == 200 && v["id"] == id && echoed.ends_with(&text) && echoed.len() < size + 64,
            "{size} bytes: {} {start}",
            r.status
        );
    }
    assert!(server.alive(), "the server is still up");
}

#[test]
#[ignore = "starts a server process and measures it: .ci/run http, or see the module docs"]
fn a_hostile_origin_gets_403_and_a_foreign_host_4xx() {
    let _g = serial();
    let server = Server::start();
    let mut failures = Vec::new();
    let mut raw = server.connect();
    match post(&mut raw, &server, None, support::INITIALIZE, "Origin: http://evil.example\r\n") {
        Ok(r) if r.status == 403 => {}
        Ok(r) => failures.push(format!("initialize with Origin http://evil.example: {} (want 403)", r.status)),
        Err(e) => failures.push(format!("initialize with Origin http://evil.example: no answer ({e})")),
    }
    let (mut raw, s) = session(&server);
    match post(
        &mut raw,
        &server,
        Some(&s),
        r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#,
        "Origin: http://evil.example\r\n",
    ) {
        Ok(r) if r.status == 403 => {}
        Ok(r) => failures.push(format!("ping in a session with Origin http://evil.example: {} (want 403)", r.status)),
        Err(e) => failures.push(format!("ping with a hostile Origin: no answer ({e})")),
    }
    // The server's own origin is fine.
    let own = format!("Origin: http://{}\r\n", server.addr);
    let mut raw = server.connect();
    match post(&mut raw, &server, None, support::INITIALIZE, &own) {
        Ok(r) if r.status == 200 => {}
        Ok(r) => failures.push(format!("initialize with the server's own Origin: {} (want 200)", r.status)),
        Err(e) => failures.push(format!("initialize with the server's own Origin: no answer ({e})")),
    }
    // DNS rebinding: a loopback server reached under another name.
    let mut raw = server.connect();
    let head = post_head(&server, None, support::INITIALIZE.len(), "")
        .replace(&format!("Host: {}", server.addr), "Host: evil.example");
    raw.send(format!("{head}{}", support::INITIALIZE).as_bytes()).unwrap();
    match raw.response() {
        Ok(r) if (400..500).contains(&r.status) => {}
        Ok(r) => failures.push(format!("Host: evil.example on a loopback server: {} (want 4xx)", r.status)),
        Err(e) => failures.push(format!("Host: evil.example: no answer ({e})")),
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
#[ignore = "starts a server process and measures it: .ci/run http, or see the module docs"]
fn thousands_of_sessions_are_served_or_refused_with_bounded_memory() {
    let _g = serial();
    let mut server = Server::start();
    let n = env_u64("MCP_HTTP_SESSIONS", 2000) as usize;
    let budget = env_u64("MCP_HTTP_SESSION_BUDGET", 8192);
    let (mut keep, kept) = session(&server);
    let before = server.rss().unwrap_or(0);
    let opened = Arc::new(AtomicUsize::new(0));
    let refused = Arc::new(AtomicUsize::new(0));
    let wrong: Arc<Mutex<Vec<String>>> = Arc::default();
    let threads: Vec<_> = (0..8)
        .map(|t| {
            let (server, opened, refused, wrong) =
                (server.target.clone(), opened.clone(), refused.clone(), wrong.clone());
            std::thread::spawn(move || {
                let mut raw = server.connect();
                for _ in (t..n).step_by(8) {
                    match open_session(&mut raw, &server) {
                        Ok(_) => {
                            opened.fetch_add(1, Ordering::Relaxed);
                        }
                        Err(r) if (r.status == 429 || r.status == 503) => {
                            refused.fetch_add(1, Ordering::Relaxed);
                        }
                        Err(r) => {
                            let mut w = wrong.lock().unwrap();
                            if w.len() < 5 {
                                w.push(format!("{} {}", r.status, r.text().chars().take(100).collect::<String>()));
                            }
                            raw = server.connect();
                        }
                    }
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    std::thread::sleep(Duration::from_millis(500));
    let after = server.rss().unwrap_or(0);
    let (opened, refused) = (opened.load(Ordering::Relaxed), refused.load(Ordering::Relaxed));
    let per = after.saturating_sub(before) / opened.max(1) as u64;
    eprintln!("{n} initialize: {opened} sessions, {refused} refused; RSS {before} -> {after} bytes, {per} per session");
    let wrong = wrong.lock().unwrap().clone();
    let alive = ping(&mut keep, &server, &kept, 5).map(|r| r.status).unwrap_or(0);
    assert!(server.alive(), "the server process exited");
    assert!(
        wrong.is_empty() && opened + refused == n && per <= budget && alive == 200,
        "{n} initialize requests: {opened} served, {refused} refused with 429/503, others answered {wrong:?}; \
         {per} bytes per session (budget {budget}); the first session's ping after them: {alive}"
    );
}

#[test]
#[ignore = "starts a server process and measures it: .ci/run http, or see the module docs"]
fn an_open_sse_stream_does_not_hold_up_posts() {
    let _g = serial();
    let server = Server::start();
    let (_raw, s) = session(&server);
    // The standalone GET stream, held open and never read.
    let mut stream = server.connect();
    stream
        .send(
            format!(
                "GET {} HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\nMcp-Session-Id: {}\r\nMCP-Protocol-Version: {}\r\n\r\n",
                server.path, server.addr, s.id, s.version
            )
            .as_bytes(),
        )
        .unwrap();
    let head = stream.response().expect("an answer to the GET");
    assert!(
        head.status == 200 && head.streaming,
        "GET for the standalone stream: {} (want 200 text/event-stream)",
        head.status
    );
    // 300 pings: 100 on one connection, 200 over four parallel ones.
    let slow: Arc<Mutex<Vec<String>>> = Arc::default();
    let started = Instant::now();
    let lanes: Vec<_> = (0..5)
        .map(|lane| {
            let (slow, s, probe) = (slow.clone(), s.clone(), server.target.clone());
            std::thread::spawn(move || {
                let mut raw = probe.connect();
                let count = if lane == 0 { 100 } else { 50 };
                for i in 0..count {
                    let t = Instant::now();
                    let r = ping(&mut raw, &probe, &s, 1000 * lane as u64 + i);
                    let took = t.elapsed();
                    match r {
                        Ok(r) if r.status == 200 && took < Duration::from_secs(2) => {}
                        Ok(r) => slow.lock().unwrap().push(format!("lane {lane} #{i}: {} after {took:?}", r.status)),
                        Err(e) => {
                            slow.lock().unwrap().push(format!("lane {lane} #{i}: {e} after {took:?}"));
                            raw = probe.connect();
                        }
                    }
                }
            })
        })
        .collect();
    for l in lanes {
        l.join().unwrap();
    }
    let took = started.elapsed();
    let slow = slow.lock().unwrap().clone();
    let still_open = stream.closed_within(Duration::from_millis(200)).is_none();
    assert!(
        slow.is_empty() && still_open,
        "300 pings with a GET stream open took {took:?}; slow or failed: {slow:?}; the GET stream still open: {still_open}"
    );
}
