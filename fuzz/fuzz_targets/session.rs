//! A client endpoint and a server endpoint under fuzzer-chosen input: raw bytes fed to
//! either side in chosen chunks, each side's own output delivered to the other in chosen
//! chunks, timer advances, application commands (requests, answers, progress, cancels,
//! notifications), end of input and local close.
//!
//! Checked after every step: nothing panics; `poll_output` goes idle in bounded steps;
//! what a side transmits is whole lines, each a valid JSON-RPC message (message mode:
//! exactly one message), also when the transport takes only part of each transmit; an idle side's
//! deadline equals `poll_timeout` and is never in the past; the clock never goes back;
//! slot counts stay within capacity; `Closed` comes at most once and nothing follows it.
//!
//! Input layout: `[setup, era, op, args.., op, args.., ...]`
//! * setup: bit 2 keepalive on both sides, bits 3-4 the receive buffer (256, 512, 4096,
//!   65536), bit 5 small transmit buffers, bit 6 complete the opening first (handshake or
//!   probe), bit 7 message mode (each transmit one message; all input frame by frame,
//!   with origins);
//! * era (bits 0-2): 0-3 the client's only version, each handshake version; 4 the
//!   client of the stateless era only; 5 both sides of both eras (the probe decides);
//!   6 a dual-era client and a handshake-only server (the probe falls back); 7 a
//!   dual-era client and a stateless-only server; bit 3: the server is built
//!   [`Handshake`] (the stateless era not linked), bit 4: the client is, bit 5: the
//!   server is built [`HandshakeServer`] (nor the client's side); a side built for the
//!   handshake era whose configuration names stateless versions only is not tried;
//! * op = byte % 10, see `step`; lengths and chunk sizes are the next bytes. The
//!   application's commands cover the stateless era too: listen streams and their
//!   acknowledgement, `input_required` results and the retries they call for, channels
//!   closing, task handles (tasks extension) and the client's `TaskPoller` following
//!   the first one (its polls sent as time advances; its deadline never in the past).
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_sansio::mcp::{ProtocolVersion, Role, VersionSet};
use mcp_sansio::session::{
    Config, Endpoint, Era, Event, Full, Handshake, HandshakeServer, Keepalive, Origin, Output, OutputMode,
    PendingRequest, Profile, RequestOptions, RetryTicket, TaskPoller,
};
use mcp_sansio::time::Instant;
use mcp_sansio::wire::{ErrorCode, Message, NO_PARAMS, RawJson, RequestId};

const SLOTS: usize = 4;
type Ep<'a, E> = Endpoint<'a, SLOTS, SLOTS, &'a mut [u8], E>;

struct Side<'a, E: Profile> {
    ep: Ep<'a, E>,
    /// Bytes transmitted, not yet delivered to the other side.
    pipe: Vec<u8>,
    /// `Closed` events seen.
    closed_events: u32,
    /// Ids of the peer's requests not answered yet (by the application).
    held: Vec<PendingRequest>,
    /// Our own requests, for cancellation.
    own: Vec<RequestId>,
    /// Retries `input_required` results asked for: the ticket and the state.
    tickets: Vec<(RetryTicket, Option<String>)>,
    last_now: Instant,
    /// Message mode: each transmit is one message (delivered to the peer as a line).
    messages: bool,
    /// Take at most this many bytes of each transmit, as a UART or a full socket would.
    trickle: Option<usize>,
    /// The part of a transmit taken so far.
    unsent: Vec<u8>,
    /// Client: the first task handle received, followed.
    poller: Option<TaskPoller>,
}

fn raw(text: &'static [u8]) -> RawJson<'static> {
    RawJson::parse(text).unwrap()
}

impl<'a, E: Profile> Side<'a, E> {
    fn new(config: Config<'static>, rx: &'a mut [u8], tx: &'a mut [u8]) -> Self {
        let messages = config.output == OutputMode::Messages;
        let ep = Ep::new(config, rx, tx, Instant::ZERO).unwrap();
        Side {
            ep,
            pipe: Vec::new(),
            closed_events: 0,
            held: Vec::new(),
            own: Vec::new(),
            tickets: Vec::new(),
            last_now: Instant::ZERO,
            messages,
            trickle: None,
            unsent: Vec::new(),
            poller: None,
        }
    }

    /// Feeds each line of `data` as one frame from `origin`.
    fn feed_frames(&mut self, now: Instant, data: &[u8], origin: u8) {
        for line in data.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            let mut stalls = 0;
            while !self.ep.handle_frame_from(now, Some(Origin(u32::from(origin))), line) {
                self.drain();
                stalls += 1;
                assert!(stalls < 1000, "a frame is never taken");
            }
            self.drain();
        }
    }

    fn drain(&mut self) {
        for _ in 0..100_000 {
            let now = self.ep.now();
            match self.ep.poll_output() {
                Output::Transmit(bytes) => {
                    assert!(!bytes.is_empty());
                    assert_eq!(self.closed_events, 0, "transmit after Closed");
                    // What a transport that takes part of a write would see.
                    let n = self.trickle.map_or(bytes.len(), |k| k.min(bytes.len()));
                    self.unsent.extend_from_slice(&bytes[..n]);
                    if n < bytes.len() {
                        self.ep.sent(n);
                        continue;
                    }
                    let whole = std::mem::take(&mut self.unsent);
                    if self.messages {
                        assert!(!whole.contains(&b'\n'), "a message-mode transmit is one message");
                        if let Err(e) = Message::parse(&whole) {
                            panic!("sent an invalid message ({e}): {}", String::from_utf8_lossy(&whole));
                        }
                        self.pipe.extend_from_slice(&whole);
                        self.pipe.push(b'\n');
                    } else {
                        assert_eq!(whole.last(), Some(&b'\n'), "a line-mode transmit is whole lines");
                        for line in whole[..whole.len() - 1].split(|&b| b == b'\n') {
                            if let Err(e) = Message::parse(line) {
                                panic!("sent an invalid message ({e}): {}", String::from_utf8_lossy(line));
                            }
                        }
                        self.pipe.extend_from_slice(&whole);
                    }
                }
                Output::Event(event) => {
                    assert_eq!(self.closed_events, 0, "event after Closed: {event:?}");
                    if let Some(p) = self.poller.as_mut()
                        && p.handle_event(&event, now).is_some()
                    {
                        assert!(p.poll_timeout().is_none_or(|t| t > now), "the next poll due in the past");
                        continue;
                    }
                    match event {
                        Event::Request(r) => self.held.push(r.pending()),
                        Event::InputRequired { id, result, retry, .. } => {
                            let state = result.get("requestState").and_then(|s| s.as_str()).map(|s| s.to_string());
                            self.tickets.push((retry, state));
                            self.own.retain(|o| *o != id);
                        }
                        Event::TaskCreated { id, task, .. } => {
                            self.own.retain(|o| *o != id);
                            if self.poller.is_none() {
                                self.poller = TaskPoller::new(task, now).ok();
                            }
                        }
                        Event::ResultRejected { id, .. } | Event::SubscriptionEnded { id, .. } => {
                            self.own.retain(|o| *o != id)
                        }
                        Event::Response { id, .. }
                        | Event::Error { id, .. }
                        | Event::TimedOut { id, .. }
                        | Event::Failed { id, .. } => self.own.retain(|o| *o != id),
                        Event::Closed { .. } => self.closed_events += 1,
                        _ => {}
                    }
                }
                Output::Idle { next_timeout } => {
                    assert_eq!(next_timeout, self.ep.poll_timeout());
                    let now = self.ep.now();
                    if let Some(t) = next_timeout {
                        assert!(t > now, "idle with a deadline in the past: {t:?} at {now:?}");
                    }
                    assert!(now >= self.last_now, "the clock went back");
                    self.last_now = now;
                    assert!(self.ep.requests_in_flight() <= SLOTS);
                    assert!(self.ep.peer_requests_in_flight() <= SLOTS);
                    return;
                }
            }
        }
        panic!("poll_output never went idle");
    }

    /// Feeds bytes in chunks of `chunk`, draining as needed.
    fn feed(&mut self, now: Instant, data: &[u8], chunk: usize) {
        for part in data.chunks(chunk.max(1)) {
            let mut rest = part;
            let mut stalls = 0;
            while !rest.is_empty() {
                let n = self.ep.handle_input(now, rest);
                assert!(n <= rest.len());
                rest = &rest[n..];
                self.drain();
                if n == 0 {
                    stalls += 1;
                    assert!(stalls < 1000, "input refused even after draining");
                }
            }
        }
    }

    /// One application command, chosen by `c`.
    fn command(&mut self, now: Instant, role: Role, c: u8, k: u8) {
        let with_progress =
            RequestOptions::with_progress().timeout(core::time::Duration::from_millis(u64::from(k) * 50));
        match (c % 12, role) {
            (0, _) => {
                if let Ok(id) = self.ep.send_request(now, "ping", NO_PARAMS, RequestOptions::default()) {
                    self.own.push(id);
                }
            }
            (1, Role::Client) => {
                let params = raw(br#"{"name":"t","arguments":{"a":[1,2]},"_meta":{"x":1}}"#);
                if let Ok(id) = self.ep.send_request(now, "tools/call", Some(&params), with_progress) {
                    self.own.push(id);
                }
            }
            (1, Role::Server) => {
                let params = raw(br#"{"messages":[],"maxTokens":1}"#);
                if let Ok(id) = self.ep.send_request(now, "sampling/createMessage", Some(&params), with_progress) {
                    self.own.push(id);
                }
            }
            (2, _) if !self.held.is_empty() && k % 4 == 3 => {
                // A task handle (refused where the method or the client does not allow it),
                // or a tasks/get answer the poller reads.
                let id = &self.held[usize::from(k) % self.held.len()];
                let answer = if k & 4 == 0 {
                    raw(br#"{"resultType":"task","taskId":"t1","status":"working","createdAt":"a","lastUpdatedAt":"a","ttlMs":null,"pollIntervalMs":5}"#)
                } else {
                    raw(br#"{"taskId":"t1","status":"input_required","createdAt":"a","lastUpdatedAt":"b","ttlMs":9,"inputRequests":{"q0":{"method":"roots/list"}}}"#)
                };
                if self.ep.respond(id, &answer).is_ok() {
                    let _answered = self.held.remove(usize::from(k) % self.held.len());
                }
            }
            (2, _) if !self.held.is_empty() => {
                let id = self.held.remove(usize::from(k) % self.held.len());
                let _ = self.ep.respond(&id, &raw(br#"{"content":[]}"#));
            }
            (3, _) if !self.held.is_empty() => {
                let id = self.held.remove(usize::from(k) % self.held.len());
                let _ = self.ep.respond_error(&id, ErrorCode::INTERNAL_ERROR, "no");
            }
            (4, _) if !self.held.is_empty() => {
                let id = &self.held[usize::from(k) % self.held.len()];
                let _ = self.ep.send_progress(id, f64::from(k) / 3.0, Some(100.0), Some("m"));
            }
            (5, _) if !self.own.is_empty() => {
                let id = self.own[usize::from(k) % self.own.len()].clone();
                let _ = self.ep.cancel(now, &id, Some("fuzz"));
            }
            (6, Role::Server) => {
                let _ = self.ep.send_notification(now, "notifications/tools/list_changed", NO_PARAMS);
                let _ = self.ep.send_notification(
                    now,
                    "notifications/message",
                    Some(&raw(br#"{"level":"info","data":1}"#)),
                );
            }
            (6, Role::Client) => {
                let _ = self.ep.send_notification(now, "notifications/roots/list_changed", NO_PARAMS);
            }
            (7, _) => {
                let _ = self
                    .ep
                    .send_request(now, "x/custom", Some(&raw(b"{}")), RequestOptions::default())
                    .map(|id| self.own.push(id));
            }
            (8, Role::Client) => {
                let filter =
                    raw(br#"{"notifications":{"toolsListChanged":true,"resourceSubscriptions":["test://w"]}}"#);
                if let Ok(id) =
                    self.ep.send_request(now, "subscriptions/listen", Some(&filter), RequestOptions::default())
                {
                    self.own.push(id);
                }
            }
            (8, Role::Server) if !self.held.is_empty() => {
                // Acknowledge a held request, which may or may not be a listen stream.
                let id = &self.held[usize::from(k) % self.held.len()];
                let granted = raw(br#"{"toolsListChanged":true,"resourceSubscriptions":["test://w"]}"#);
                let _ = self.ep.acknowledge(now, id, &granted.decode().unwrap());
            }
            (9, Role::Server) => {
                let _ = self.ep.send_notification(
                    now,
                    "notifications/resources/updated",
                    Some(&raw(br#"{"uri":"test://w"}"#)),
                );
                if let Some(id) = self.held.first() {
                    let _ = self.ep.send_related_notification(now, id, "notifications/tools/list_changed", NO_PARAMS);
                }
            }
            (10, Role::Server) if !self.held.is_empty() => {
                // Ask for input (refused where the method or the client does not allow it).
                let id = &self.held[usize::from(k) % self.held.len()];
                let ask = raw(br#"{"resultType":"input_required","inputRequests":{"k":{"method":"roots/list"}},"requestState":"s"}"#);
                if self.ep.respond(id, &ask).is_ok() {
                    let _answered = self.held.remove(usize::from(k) % self.held.len());
                }
            }
            (10, Role::Client) if !self.tickets.is_empty() => {
                let (ticket, state) = self.tickets.remove(usize::from(k) % self.tickets.len());
                let params = raw(br#"{"name":"t","arguments":{}}"#);
                let answers = raw(br#"{"k":{"roots":[]}}"#);
                let state = if k & 1 == 0 { state } else { Some("forged".into()) };
                let _ = self
                    .ep
                    .retry(now, &ticket, Some(&params), &answers, state.as_deref(), RequestOptions::default())
                    .map(|id| self.own.push(id));
            }
            (11, _) => {
                // The channel of origin `k` closes (stateless HTTP: a cancellation).
                let _ = self.ep.handle_origin_closed(now, Origin(u32::from(k)));
            }
            _ => {}
        }
        self.drain();
    }
}

fn chunk_size(b: u8) -> usize {
    match b {
        0..=127 => usize::from(b) + 1,
        _ => (usize::from(b) - 127) * 512,
    }
}

fuzz_target!(|data: &[u8]| {
    let [setup, era, ops @ ..] = data else { return };
    let (client_built, server_built, server_only) = (era & 16 != 0, era & 8 != 0, era & 32 != 0);
    match (client_built, server_built, server_only) {
        (false, _, true) => run::<Full, HandshakeServer>(*setup, *era, ops),
        (true, _, true) => run::<Handshake, HandshakeServer>(*setup, *era, ops),
        (false, false, false) => run::<Full, Full>(*setup, *era, ops),
        (false, true, false) => run::<Full, Handshake>(*setup, *era, ops),
        (true, false, false) => run::<Handshake, Full>(*setup, *era, ops),
        (true, true, false) => run::<Handshake, Handshake>(*setup, *era, ops),
    }
});

/// One run, the client built `C` and the server `S`.
fn run<C: Profile, S: Profile>(setup: u8, era: u8, ops: &[u8]) {
    let rx = [256, 512, 4096, 65_536][usize::from((setup >> 3) & 3)];
    let small_tx = setup & 32 != 0;
    let mut client_config = Config::new(Role::Client, raw(br#"{"name":"c","version":"1"}"#))
        .capabilities(raw(br#"{"roots":{"listChanged":true},"sampling":{},"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}"#));
    let mut server_config = Config::new(Role::Server, raw(br#"{"name":"s","version":"1"}"#)).capabilities(raw(
        br#"{"tools":{"listChanged":true},"resources":{"subscribe":true},"prompts":{},"logging":{},"completions":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}"#,
    ));
    match era & 7 {
        e @ 0..=3 => {
            client_config = client_config.versions(VersionSet::only(ProtocolVersion::HANDSHAKE[usize::from(e)]))
        }
        4 => client_config = client_config.era(Era::Modern),
        5 => {}
        6 => server_config = server_config.era(Era::Legacy),
        _ => server_config = server_config.era(Era::Modern),
    }
    if setup & 128 != 0 {
        client_config = client_config.output(OutputMode::Messages);
        server_config = server_config.output(OutputMode::Messages);
    }
    if setup & 4 != 0 {
        let keepalive =
            Keepalive { idle: core::time::Duration::from_secs(5), timeout: core::time::Duration::from_secs(2) };
        client_config = client_config.keepalive(keepalive);
        server_config = server_config.keepalive(keepalive);
    }
    // A side built for the handshake era only cannot take a stateless-only configuration.
    if (!C::STATELESS && client_config.eras() == Era::Modern) || (!S::STATELESS && server_config.eras() == Era::Modern)
    {
        return;
    }
    let (ctx, stx) = if small_tx { (700, 1100) } else { (65_536, 65_536) };
    let mut memory = vec![0u8; 2 * rx + ctx + stx];
    let (crx, rest) = memory.split_at_mut(rx);
    let (srx, rest) = rest.split_at_mut(rx);
    let (ctx, stx) = rest.split_at_mut(ctx);
    let mut client = Side::<C>::new(client_config, crx, ctx);
    let mut server = Side::<S>::new(server_config, srx, stx);
    let mut now = Instant::ZERO;
    client.drain();
    server.drain();
    if setup & 64 != 0 {
        for _ in 0..3 {
            let bytes = std::mem::take(&mut client.pipe);
            if server.messages {
                server.feed_frames(now, &bytes, 0)
            } else {
                server.feed(now, &bytes, 4096)
            }
            let bytes = std::mem::take(&mut server.pipe);
            if client.messages { client.feed_frames(now, &bytes, 0) } else { client.feed(now, &bytes, 4096) }
        }
    }
    let mut at = 0;
    let next = |at: &mut usize| {
        let b = ops.get(*at).copied();
        *at += 1;
        b
    };
    while let Some(op) = next(&mut at) {
        let a = next(&mut at).unwrap_or(0);
        let b = next(&mut at).unwrap_or(0);
        match op % 10 {
            // Raw bytes from the input, as if from the peer.
            0 | 1 => {
                let len = usize::from(a) * 4;
                let start = at.min(ops.len());
                let end = (start + len).min(ops.len());
                at = end;
                match op % 10 {
                    0 => server.raw_input(now, &ops[start..end], b),
                    _ => client.raw_input(now, &ops[start..end], b),
                }
            }
            // A side's own output to the other: as a byte stream, or (message mode)
            // message by message, each from origin `b`.
            2 => {
                let bytes = std::mem::take(&mut client.pipe);
                if server.messages {
                    server.feed_frames(now, &bytes, b);
                } else {
                    server.feed(now, &bytes, chunk_size(a));
                }
            }
            3 => {
                let bytes = std::mem::take(&mut server.pipe);
                if client.messages {
                    client.feed_frames(now, &bytes, b);
                } else {
                    client.feed(now, &bytes, chunk_size(a));
                }
            }
            // Time.
            4 => {
                now = now + core::time::Duration::from_millis(u64::from(a) * 1000 + u64::from(b) * 4);
                client.ep.handle_timeout(now);
                server.ep.handle_timeout(now);
                client.drain();
                if let Some(p) = client.poller.as_mut() {
                    let _ = p.handle_timeout(&mut client.ep, now);
                    assert!(p.poll_timeout().is_none_or(|t| t > now), "a poll due in the past");
                }
                client.drain();
                server.drain();
            }
            // A spurious timer call, at an old time; and how much of each transmit
            // each side's transport takes from now on.
            5 => {
                client.trickle = (a > 0).then_some(usize::from(a));
                server.trickle = (b > 0).then_some(usize::from(b));
                client.ep.handle_timeout(Instant::ZERO);
                client.drain();
            }
            6 => client.command(now, Role::Client, a, b),
            7 => server.command(now, Role::Server, a, b),
            8 => {
                if a & 1 == 0 {
                    client.ep.handle_eof(now);
                    client.drain();
                } else {
                    server.ep.handle_eof(now);
                    server.drain();
                }
            }
            _ => {
                if a & 1 == 0 {
                    client.ep.close(now);
                    client.drain();
                } else {
                    server.ep.close(now);
                    server.drain();
                }
            }
        }
    }
    // The end: both inputs close; every side closes once what it owes is answered.
    client.ep.handle_eof(now);
    server.ep.handle_eof(now);
    client.drain();
    server.drain();
    client.finish();
    server.finish();
}

impl<E: Profile> Side<'_, E> {
    /// Raw bytes from the input, as if from the peer: a message transport takes them as
    /// one frame, from origin `b`; a byte stream in chunks of `chunk_size(b)`.
    fn raw_input(&mut self, now: Instant, bytes: &[u8], b: u8) {
        if self.messages {
            let mut stalls = 0;
            while !self.ep.handle_frame_from(now, Some(Origin(u32::from(b))), bytes) {
                self.drain();
                stalls += 1;
                assert!(stalls < 1000, "a frame is never taken");
            }
            self.drain();
        } else {
            self.feed(now, bytes, chunk_size(b));
        }
    }

    /// Answers what the application still holds; `Closed` came at most once.
    fn finish(&mut self) {
        for id in std::mem::take(&mut self.held) {
            let _ = self.ep.respond(&id, &raw(b"{}"));
            self.drain();
        }
        assert!(self.closed_events <= 1);
    }
}
