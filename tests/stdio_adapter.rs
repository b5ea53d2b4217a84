//! The stdio adapter over real OS pipes: a slow handler on a worker does not delay a ping
//! or a cancellation, and the server exits promptly at end of input.
#![cfg(feature = "stdio")]

use std::io::{BufRead, BufReader, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant as StdInstant};

use mcp_sansio::adapters::stdio::{App, Mailbox, StdioLoop, WorkerPool};
use mcp_sansio::mcp::{Method, Role};
use mcp_sansio::session::{CloseReason, Config, Endpoint, Event, PendingRequest};
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
