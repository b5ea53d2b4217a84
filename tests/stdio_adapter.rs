//! The stdio adapter over real OS pipes: a slow handler on a worker does not delay a ping
//! or a cancellation, and the server exits promptly at end of input.
#![cfg(feature = "stdio")]

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant as StdInstant};

use mcp_sansio::adapters::app::{Context, Handler, Ticket};
use mcp_sansio::adapters::stdio::{App, Mailbox, Sink, StdioLoop, WorkerPool};
use mcp_sansio::mcp::{Method, Role};
use mcp_sansio::session::{CloseReason, Config, Endpoint, Event, PendingRequest, SendError};
use mcp_sansio::time::Instant;
use mcp_sansio::wire::RawJson;

struct Slow {
    pool: WorkerPool,
    cancel: Vec<(PendingRequest, Arc<AtomicBool>)>,
}

enum Done {
    Finished(PendingRequest, bool),
}

impl App<4, 4> for Slow {
    type Message = Done;

    fn on_event(&mut self, event: Event<'_>, mailbox: &Mailbox<Done>) {
        match event {
            Event::Request(req) if req.method == Method::ToolsCall => {
                let id = req.pending();
                let flag = Arc::new(AtomicBool::new(false));
                self.cancel.push((id.clone(), flag.clone()));
                let mailbox = mailbox.clone();
                self.pool.execute(move || {
                    // 0.6 s of "work", checking for cancellation.
                    for _ in 0..60 {
                        if flag.load(Ordering::Relaxed) {
                            mailbox.send(Done::Finished(id, true));
                            return;
                        }
                        std::thread::sleep(Duration::from_millis(10));
                    }
                    mailbox.send(Done::Finished(id, false));
                });
            }
            Event::Request(mut req) => {
                req.respond_empty().unwrap();
            }
            Event::Cancelled { request, .. } => {
                for (rid, flag) in &self.cancel {
                    if *rid == request {
                        flag.store(true, Ordering::Relaxed);
                    }
                }
            }
            _ => {}
        }
    }

    fn on_message(&mut self, ep: &mut Endpoint<'_, 4, 4>, _now: Instant, message: Done) {
        let Done::Finished(id, cancelled) = message;
        let result = RawJson::parse(br#"{"content":[{"type":"text","text":"done"}]}"#).unwrap();
        let outcome = ep.respond(&id, &result);
        assert!(outcome.is_ok(), "{outcome:?} (cancelled: {cancelled})");
    }
}

const INITIALIZE: &str = "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n";

#[test]
fn slow_work_does_not_block_ping_or_cancel_and_eof_ends_the_server() {
    let (server_in, mut client_out) = std::io::pipe().unwrap();
    let (client_in, server_out) = std::io::pipe().unwrap();
    let server = std::thread::spawn(move || {
        let config = Config::new(Role::Server, RawJson::parse(br#"{"name":"s","version":"1"}"#).unwrap())
            .capabilities(RawJson::parse(br#"{"tools":{}}"#).unwrap());
        let mut ev_loop = StdioLoop::new(server_in).unwrap();
        let (mut rx, mut tx) = (vec![0u8; 8192], vec![0u8; 8192]);
        let mut ep: Endpoint<'_, 4, 4> = Endpoint::new(config, &mut rx, &mut tx, ev_loop.clock().now()).unwrap();
        let mut app = Slow { pool: WorkerPool::new(2).unwrap(), cancel: Vec::new() };
        ev_loop.run(&mut ep, server_out, &mut app).unwrap()
    });
    let mut lines = BufReader::new(client_in).lines();
    let mut send = |s: &str| {
        client_out.write_all(s.as_bytes()).unwrap();
        client_out.write_all(b"\n").unwrap();
        client_out.flush().unwrap();
    };
    send(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
    );
    assert!(lines.next().unwrap().unwrap().contains(r#""protocolVersion":"2025-06-18""#));
    send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    send(r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow"}}"#);
    send(r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow"}}"#);
    let started = StdInstant::now();
    send(r#"{"jsonrpc":"2.0","id":4,"method":"ping"}"#);
    assert_eq!(lines.next().unwrap().unwrap(), r#"{"jsonrpc":"2.0","id":4,"result":{}}"#);
    assert!(started.elapsed() < Duration::from_millis(500), "ping waited {:?}", started.elapsed());
    // Cancel call 2: it is never answered; call 3 completes.
    send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}"#);
    let next = lines.next().unwrap().unwrap();
    assert_eq!(next, r#"{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"done"}]}}"#);
    // End of input: the server flushes and exits by itself, promptly.
    drop(client_out);
    let ended = StdInstant::now();
    let reason = server.join().unwrap();
    assert_eq!(reason, CloseReason::PeerClosed);
    assert!(ended.elapsed() < Duration::from_secs(1), "exit took {:?}", ended.elapsed());
    assert!(lines.next().is_none(), "nothing more, in particular no answer to the cancelled call");
}

/// Answers every `tools/call` with `text`, as soon as the transmit buffer has room (a
/// full one is retried when the loop is idle), the rest with `{}`.
struct Inline {
    result: Vec<u8>,
    owed: VecDeque<PendingRequest>,
}

impl App<4, 64> for Inline {
    type Message = ();

    fn on_event(&mut self, event: Event<'_>, _mailbox: &Mailbox<()>) {
        if let Event::Request(mut req) = event {
            if req.method == Method::ToolsCall {
                self.owed.push_back(req.pending());
            } else {
                req.respond_empty().unwrap();
            }
        }
    }

    fn on_message(&mut self, _ep: &mut Endpoint<'_, 4, 64>, _now: Instant, _message: ()) {}

    fn on_idle(&mut self, ep: &mut Endpoint<'_, 4, 64>, _now: Instant) -> Option<Instant> {
        let result = RawJson::parse(&self.result).unwrap();
        while let Some(id) = self.owed.front() {
            if let Err(SendError::TxFull { .. }) = ep.respond(id, &result) {
                break;
            }
            self.owed.pop_front();
        }
        None
    }
}

/// How the server under test reads and writes.
#[derive(Clone, Copy, Debug)]
enum Io {
    /// `StdioLoop::new` (a reader thread) and a blocking `Write`.
    ThreadAndWriter,
    /// `StdioLoop::from_fd` and `Sink::from_fd` (readiness, non-blocking output).
    #[cfg(unix)]
    Descriptors,
}

/// Runs an `Inline` server over two pipes on a thread; returns the client's ends and
/// what `run` returns, through a channel.
fn serve(
    io: Io,
    text: &str,
    linger: Duration,
) -> (std::io::PipeWriter, std::io::PipeReader, Receiver<std::io::Result<CloseReason>>) {
    let (server_in, client_out) = std::io::pipe().unwrap();
    let (client_in, server_out) = std::io::pipe().unwrap();
    let (done, result) = channel();
    let text = text.to_string();
    std::thread::spawn(move || {
        let config = Config::new(Role::Server, RawJson::parse(br#"{"name":"s","version":"1"}"#).unwrap())
            .capabilities(RawJson::parse(br#"{"tools":{}}"#).unwrap());
        let mut ev_loop = match io {
            Io::ThreadAndWriter => StdioLoop::new(server_in).unwrap(),
            #[cfg(unix)]
            Io::Descriptors => StdioLoop::from_fd(server_in).unwrap(),
        }
        .linger(linger);
        let (mut rx, mut tx) = (vec![0u8; 16 * 1024], vec![0u8; 64 * 1024]);
        let mut ep: Endpoint<'_, 4, 64> = Endpoint::new(config, &mut rx, &mut tx, ev_loop.clock().now()).unwrap();
        let result = format!(r#"{{"content":[{{"type":"text","text":"{text}"}}]}}"#).into_bytes();
        let mut app = Inline { result, owed: VecDeque::new() };
        let sink = match io {
            Io::ThreadAndWriter => Sink::writer(server_out),
            #[cfg(unix)]
            Io::Descriptors => Sink::from_fd(server_out),
        };
        let _ = done.send(ev_loop.run(&mut ep, sink, &mut app));
    });
    (client_out, client_in, result)
}

fn ios() -> Vec<Io> {
    vec![
        Io::ThreadAndWriter,
        #[cfg(unix)]
        Io::Descriptors,
    ]
}

/// A peer that writes without reading the replies is stopped by the pipe: the server
/// takes a bounded amount (its buffers), not the whole flood; once the peer reads,
/// every request is answered.
#[test]
fn a_flood_not_read_back_stops_at_the_pipe_and_is_answered_in_full() {
    const PINGS: u64 = 200_000;
    for io in ios() {
        let (mut client_out, client_in, result) = serve(io, "", Duration::from_secs(2));
        let written = Arc::new(AtomicU64::new(0));
        let counter = Arc::clone(&written);
        let writer = std::thread::spawn(move || {
            let mut batch = Vec::new();
            for id in 1..=PINGS {
                batch
                    .extend_from_slice(format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"ping\"}}\n").as_bytes());
                if batch.len() >= 16_000 || id == PINGS {
                    client_out.write_all(&batch).unwrap();
                    counter.fetch_add(batch.len() as u64, Ordering::Relaxed);
                    batch.clear();
                }
            }
        });
        // Until the writer is stuck: nothing taken for 300 ms.
        let (mut last, mut since) = (u64::MAX, StdInstant::now());
        while since.elapsed() < Duration::from_millis(300) {
            std::thread::sleep(Duration::from_millis(20));
            let now = written.load(Ordering::Relaxed);
            if now != last {
                (last, since) = (now, StdInstant::now());
            }
        }
        // Two pipes (64 KiB each on Linux), 16 + 64 KiB of endpoint buffers, the loop's
        // own: far below the 9 MB of the flood.
        assert!(last < 1024 * 1024, "{io:?}: the server took {last} bytes without its replies being read");
        let mut lines = BufReader::new(client_in).lines();
        for id in 1..=PINGS {
            assert_eq!(lines.next().unwrap().unwrap(), format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#));
        }
        writer.join().unwrap();
        assert_eq!(result.recv().unwrap().unwrap(), CloseReason::PeerClosed, "{io:?}");
        assert!(lines.next().is_none());
    }
}

/// With non-blocking output, a peer that closes its input and never reads does not keep
/// the server forever: the loop still reads the end of input while its replies wait,
/// lingers, and gives up on the output after one more linger.
#[test]
#[cfg(unix)]
fn a_peer_that_stops_reading_and_closes_its_input_does_not_keep_the_server() {
    let linger = Duration::from_millis(100);
    let (mut client_out, client_in, result) = serve(Io::Descriptors, &"x".repeat(16 * 1024), linger);
    let mut client_in = BufReader::new(client_in);
    client_out.write_all(INITIALIZE.as_bytes()).unwrap();
    let mut line = String::new();
    client_in.read_line(&mut line).unwrap();
    assert!(line.contains("protocolVersion"), "{line}");
    let mut requests = String::from("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
    for id in 1..=40 {
        requests.push_str(&format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"tools/call\",\"params\":{{\"name\":\"big\"}}}}\n"
        ));
    }
    client_out.write_all(requests.as_bytes()).unwrap();
    drop(client_out);
    // 40 answers of 16 KiB: far more than the pipe, the loop and the endpoint hold.
    let ended = result.recv_timeout(Duration::from_secs(10)).expect("the server is stuck writing");
    let error = ended.expect_err("the output was never read");
    assert_eq!(error.kind(), std::io::ErrorKind::TimedOut, "{error}");
    drop(client_in);
}

/// `O_NONBLOCK` belongs to the pipe's open description, which other holders share: the
/// loop sets it only while it runs and leaves the pipe blocking, as it found it.
#[test]
#[cfg(unix)]
fn the_output_pipe_is_left_blocking_as_it_was_found() {
    let (server_in, client_out) = std::io::pipe().unwrap();
    let (mut client_in, server_out) = std::io::pipe().unwrap();
    let other_holder = server_out.try_clone().unwrap();
    let server = std::thread::spawn(move || {
        let config = Config::new(Role::Server, RawJson::parse(br#"{"name":"s","version":"1"}"#).unwrap());
        let mut ev_loop = StdioLoop::from_fd(server_in).unwrap();
        let (mut rx, mut tx) = (vec![0u8; 4096], vec![0u8; 4096]);
        let mut ep: Endpoint<'_, 4, 64> = Endpoint::new(config, &mut rx, &mut tx, ev_loop.clock().now()).unwrap();
        let mut app = Inline { result: b"{}".to_vec(), owed: VecDeque::new() };
        ev_loop.run(&mut ep, Sink::from_fd(server_out), &mut app)
    });
    drop(client_out);
    assert_eq!(server.join().unwrap().unwrap(), CloseReason::PeerClosed);
    // More than the pipe holds: a non-blocking write would fail with WouldBlock.
    let writer = std::thread::spawn(move || (&other_holder).write_all(&[b'x'; 256 * 1024]));
    let mut all = vec![0u8; 256 * 1024];
    std::thread::sleep(Duration::from_millis(50));
    std::io::Read::read_exact(&mut client_in, &mut all).unwrap();
    writer.join().unwrap().expect("a blocking write waits for the reader");
}

/// A [`Handler`] whose slow tool runs on a worker with a ticket: the ticket's
/// cancellation signal stops the worker when the client cancels, without a table of
/// flags, and a ping is answered meanwhile.
struct Ticketed {
    pool: WorkerPool,
    stopped: Arc<AtomicU64>,
}

impl Handler for Ticketed {
    type Message = ();

    fn on_event(&mut self, cx: &mut Context<'_, ()>, event: Event<'_>) {
        let Event::Request(mut req) = event else { return };
        if req.method != Method::ToolsCall {
            cx.reply(&mut req, &RawJson::EMPTY_OBJECT);
            return;
        }
        let ticket: Ticket = cx.ticket(&req);
        let stopped = Arc::clone(&self.stopped);
        self.pool.execute(move || {
            let started = StdInstant::now();
            if ticket.sleep(Duration::from_secs(5)) {
                ticket.respond(&RawJson::parse(br#"{"content":[]}"#).unwrap());
            } else {
                stopped.store(started.elapsed().as_millis() as u64 + 1, Ordering::SeqCst);
            }
        });
    }
}

#[test]
fn a_handler_s_ticket_is_cancelled_when_the_client_cancels() {
    let (server_in, mut client_out) = std::io::pipe().unwrap();
    let (client_in, server_out) = std::io::pipe().unwrap();
    let stopped = Arc::new(AtomicU64::new(0));
    let seen = Arc::clone(&stopped);
    let server = std::thread::spawn(move || {
        let config = Config::new(Role::Server, RawJson::parse(br#"{"name":"s","version":"1"}"#).unwrap())
            .capabilities(RawJson::parse(br#"{"tools":{}}"#).unwrap());
        let mut ev_loop = StdioLoop::new(server_in).unwrap();
        let (mut rx, mut tx) = (vec![0u8; 8192], vec![0u8; 8192]);
        let mut ep: Endpoint<'_, 4, 4> = Endpoint::new(config, &mut rx, &mut tx, ev_loop.clock().now()).unwrap();
        let mut handler = Ticketed { pool: WorkerPool::new(2).unwrap(), stopped: seen };
        ev_loop.serve(&mut ep, server_out, &mut handler).unwrap()
    });
    let mut lines = BufReader::new(client_in).lines();
    let mut send = |s: &str| {
        client_out.write_all(s.as_bytes()).unwrap();
        client_out.write_all(b"\n").unwrap();
        client_out.flush().unwrap();
    };
    send(INITIALIZE.trim_end());
    assert!(lines.next().unwrap().unwrap().contains(r#""protocolVersion":"2025-06-18""#));
    send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    send(r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow"}}"#);
    send(r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#);
    assert_eq!(lines.next().unwrap().unwrap(), r#"{"jsonrpc":"2.0","id":3,"result":{}}"#);
    send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}"#);
    let until = StdInstant::now() + Duration::from_secs(2);
    while stopped.load(Ordering::SeqCst) == 0 && StdInstant::now() < until {
        std::thread::sleep(Duration::from_millis(5));
    }
    let took = stopped.load(Ordering::SeqCst);
    assert!(took > 0 && took < 2000, "the worker saw the cancellation after {took} ms (0: never)");
    drop(client_out);
    assert_eq!(server.join().unwrap(), CloseReason::PeerClosed);
    assert!(lines.next().is_none(), "no answer to the cancelled call");
}
