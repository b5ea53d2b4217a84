//! A full session performs no heap allocation: handshake, 10,000 requests both ways with
//! results, errors, progress and cancellations, then close, counted by a global
//! allocator. The same for a stateless session (2026-07-28): the probe, 10,000 requests
//! with their `_meta` validated, completed results, multi round-trip requests with a
//! sealed state and their retries, a listen stream and its notifications. The driver
//! below uses fixed arrays only (the `Pair` harness allocates). The same holds with the
//! toolkit's server on top (module `toolkit`, at the end), and for typed decoding from the
//! members the envelope pass recorded (`decoding_from_recorded_members_allocates_nothing`).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use mcp_sansio::mcp::{Method, Role};
use mcp_sansio::session::{
    Config, Endpoint, Event, Misbehavior, Output, PendingRequest, RequestOptions, Responded, RetryTicket, SendError,
    StateBinding, StateSealer,
};
use mcp_sansio::time::Instant;
use mcp_sansio::wire::{ErrorCode, NO_PARAMS, RawJson, RequestId};

// ---- the counting allocator -------------------------------------------------------------

thread_local! {
    /// Counting is on for this thread only (the test harness's own threads allocate).
    static MEASURING: Cell<bool> = const { Cell::new(false) };
    static ALLOCS: Cell<u64> = const { Cell::new(0) };
    static DEALLOCS: Cell<u64> = const { Cell::new(0) };
}

struct Counting;

fn count(which: &'static std::thread::LocalKey<Cell<u64>>) {
    // `try_with`: never touch a thread-local that is being torn down.
    let _ = MEASURING.try_with(|m| {
        if m.get() {
            let _ = which.try_with(|c| c.set(c.get() + 1));
        }
    });
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(&ALLOCS);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(&DEALLOCS);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(&ALLOCS);
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(&ALLOCS);
        count(&DEALLOCS);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn measure<T>(f: impl FnOnce() -> T) -> (T, u64, u64) {
    ALLOCS.with(|c| c.set(0));
    DEALLOCS.with(|c| c.set(0));
    MEASURING.with(|m| m.set(true));
    let out = f();
    MEASURING.with(|m| m.set(false));
    (out, ALLOCS.with(Cell::get), DEALLOCS.with(Cell::get))
}

// ---- a lean driver: fixed arrays only ----------------------------------------------------

const SLOTS: usize = 8;
type Ep<'a> = Endpoint<'a, SLOTS, SLOTS>;

/// Bytes written by one side and not yet read by the other.
struct Pipe<const N: usize> {
    buf: [u8; N],
    len: usize,
    /// The writer is done: deliver EOF once empty.
    eof: bool,
    eof_delivered: bool,
}

impl<const N: usize> Pipe<N> {
    fn new() -> Self {
        Pipe { buf: [0; N], len: 0, eof: false, eof_delivered: false }
    }

    fn push(&mut self, bytes: &[u8]) {
        assert!(self.len + bytes.len() <= N, "pipe overflow");
        self.buf[self.len..self.len + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
    }

    fn take(&mut self, n: usize) {
        self.buf.copy_within(n..self.len, 0);
        self.len -= n;
    }
}

#[derive(Default, Debug, Clone, Copy, PartialEq, Eq)]
struct Stats {
    sent: u32,
    requests: u32,
    responses: u32,
    errors: u32,
    progress_sent: u32,
    progress_seen: u32,
    cancels_sent: u32,
    cancels_seen: u32,
    suppressed: u32,
    timeouts: u32,
    failed: u32,
    closed: u32,
    notifications: u32,
    /// Answers that crossed our cancellation.
    late: u32,
    /// Progress that arrived after our request timed out.
    stale_progress: u32,
    /// Stateless: `input_required` results received, retries sent.
    input_required: u32,
    retries: u32,
    /// Stateless: listen streams acknowledged.
    subscribed: u32,
    other: u32,
}

struct Node<'a> {
    ep: Ep<'a>,
    out: Pipe<65_536>,
    /// Our requests in flight.
    own: [Option<RequestId>; SLOTS],
    /// The peer's requests kept for later: id, asked for progress, progress sent so far.
    held: [Option<(PendingRequest, bool, u32)>; SLOTS],
    /// Stateless client: retries to send (the ticket and the state, copied out).
    retries: [Option<(RetryTicket, [u8; 96], usize)>; SLOTS],
    /// Stateless server: the listen stream.
    listen: Option<PendingRequest>,
    stats: Stats,
    tick: u32,
}

const SEALER: StateSealer = StateSealer::new(*b"zero-alloc key!!");
const KEYS: [&str; 1] = ["k"];
const ASK: &[u8] = br#"{"resultType":"input_required","inputRequests":{"k":{"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object"}}}},"requestState":""#;
const ANSWERS: &[u8] = br#"{"k":{"action":"accept","content":{"x":1}}}"#;

const RESULT: &[u8] = br#"{"content":[{"type":"text","text":"done"}],"isError":false}"#;

impl<'a> Node<'a> {
    fn new(ep: Ep<'a>) -> Self {
        Node {
            ep,
            out: Pipe::new(),
            own: Default::default(),
            held: Default::default(),
            retries: Default::default(),
            listen: None,
            stats: Stats::default(),
            tick: 0,
        }
    }

    fn forget(&mut self, id: &RequestId) {
        for slot in &mut self.own {
            if slot.as_ref() == Some(id) {
                *slot = None;
                return;
            }
        }
        panic!("an answer to a request that is not ours");
    }

    /// Drains outputs; the application answers a third of the requests at once, a
    /// third with an error, and holds the rest for progress and a later answer.
    fn pump(&mut self) {
        loop {
            match self.ep.poll_output() {
                Output::Transmit(bytes) => self.out.push(&bytes),
                Output::Idle { .. } => return,
                Output::Event(event) => {
                    self.tick = self.tick.wrapping_add(1);
                    match event {
                        Event::Request(mut r) if r.method == Method::SubscriptionsListen => {
                            self.stats.requests += 1;
                            r.acknowledge().unwrap();
                            self.listen = Some(r.pending());
                        }
                        Event::Request(mut r)
                            if r.modern().is_some()
                                && r.method == Method::ToolsCall
                                && r.params.is_some_and(|p| p.get("inputResponses").is_none())
                                && self.tick.is_multiple_of(4) =>
                        {
                            // Ask for input: the state sealed into a stack buffer, the result
                            // assembled there too.
                            self.stats.requests += 1;
                            let binding = StateBinding::new(Method::ToolsCall, "echo", &KEYS);
                            let mut state = [0u8; 96];
                            let state = SEALER.seal(&binding, b"1", Instant::from_secs(3600), &mut state).unwrap();
                            let mut text = [0u8; 512];
                            let n = ASK.len();
                            text[..n].copy_from_slice(ASK);
                            text[n..n + state.len()].copy_from_slice(state.as_bytes());
                            text[n + state.len()..n + state.len() + 2].copy_from_slice(b"\"}");
                            let result = RawJson::parse(&text[..n + state.len() + 2]).unwrap();
                            r.respond(&result).unwrap();
                        }
                        Event::Request(mut r) if r.params.is_some_and(|p| p.get("inputResponses").is_some()) => {
                            self.stats.requests += 1;
                            let params = r.params.unwrap();
                            let state = params.get("requestState").and_then(|s| s.as_str()).unwrap();
                            let binding = StateBinding::new(Method::ToolsCall, "echo", &KEYS);
                            let mut out = [0u8; 8];
                            assert_eq!(SEALER.open(&binding, state, Instant::ZERO, &mut out), Ok(&b"1"[..]));
                            r.respond(&RawJson::parse(RESULT).unwrap()).unwrap();
                        }
                        Event::Request(mut r) => {
                            self.stats.requests += 1;
                            let hold = self.tick.is_multiple_of(3) && r.wants_progress();
                            let free = self.held.iter().position(Option::is_none);
                            match (hold, free) {
                                (true, Some(i)) => self.held[i] = Some((r.pending(), r.wants_progress(), 0)),
                                _ if self.tick % 5 == 1 => {
                                    r.respond_error(ErrorCode::INVALID_PARAMS, "Unknown tool").unwrap();
                                }
                                _ => {
                                    r.respond(&RawJson::parse(RESULT).unwrap()).unwrap();
                                }
                            }
                        }
                        Event::Response { id, .. } => {
                            self.stats.responses += 1;
                            self.forget(&id);
                        }
                        Event::Error { id, .. } => {
                            self.stats.errors += 1;
                            self.forget(&id);
                        }
                        Event::TimedOut { id, .. } => {
                            self.stats.timeouts += 1;
                            self.forget(&id);
                        }
                        Event::Failed { id, .. } => {
                            self.stats.failed += 1;
                            self.forget(&id);
                        }
                        Event::InputRequired { id, result, retry, .. } => {
                            let state = result.get("requestState").and_then(|s| s.as_str()).unwrap();
                            let state = state.as_plain().unwrap().as_bytes();
                            let mut copy = [0u8; 96];
                            copy[..state.len()].copy_from_slice(state);
                            let len = state.len();
                            self.stats.input_required += 1;
                            self.forget(&id);
                            let free = self.retries.iter().position(Option::is_none).expect("room for a retry");
                            self.retries[free] = Some((retry, copy, len));
                        }
                        Event::Subscribed { .. } => self.stats.subscribed += 1,
                        Event::Progress { .. } => self.stats.progress_seen += 1,
                        Event::Cancelled { .. } => self.stats.cancels_seen += 1,
                        Event::Closed { .. } => self.stats.closed += 1,
                        Event::Notification(_) => self.stats.notifications += 1,
                        Event::Misbehavior(Misbehavior::LateResponse { .. }) => self.stats.late += 1,
                        Event::Misbehavior(Misbehavior::UnknownProgressToken { .. }) => self.stats.stale_progress += 1,
                        Event::Negotiated { .. } | Event::Ready { .. } => {}
                        _ => self.stats.other += 1,
                    }
                }
            }
        }
    }

    /// Sends the retries the `input_required` results asked for.
    fn retry(&mut self, now: Instant, call: &RawJson<'_>) {
        for i in 0..SLOTS {
            let Some((ticket, state, len)) = self.retries[i].take() else { continue };
            let state = core::str::from_utf8(&state[..len]).unwrap();
            let answers = RawJson::parse(ANSWERS).unwrap();
            match self.ep.retry(now, &ticket, Some(call), &answers, Some(state), RequestOptions::default()) {
                Ok(id) => {
                    let free = self.own.iter().position(Option::is_none).expect("a free slot");
                    self.own[free] = Some(id);
                    self.stats.retries += 1;
                    self.stats.sent += 1;
                }
                Err(SendError::TooManyInFlight { .. } | SendError::TxFull { .. }) => {
                    self.retries[i] = Some((
                        ticket,
                        {
                            let mut c = [0u8; 96];
                            c[..len].copy_from_slice(state.as_bytes());
                            c
                        },
                        len,
                    ));
                }
                Err(e) => panic!("{e:?}"),
            }
        }
        self.pump();
    }

    /// Works on held requests: progress, then (every other visit) the answer.
    fn work(&mut self) {
        for i in 0..SLOTS {
            let Some((id, wants, step)) = self.held[i].take() else { continue };
            if wants && step < 3 {
                match self.ep.send_progress(&id, f64::from(step + 1), Some(3.0), Some("working")) {
                    Ok(Responded::Sent) => self.stats.progress_sent += 1,
                    // The peer cancelled it: nothing was sent.
                    Ok(Responded::Suppressed) => {}
                    Err(e) => panic!("{e:?}"),
                }
                self.held[i] = Some((id, wants, step + 1));
                continue;
            }
            match self.ep.respond(&id, &RawJson::parse(RESULT).unwrap()) {
                Ok(Responded::Sent) => {}
                Ok(Responded::Suppressed) => self.stats.suppressed += 1,
                Err(e) => panic!("{e:?}"),
            }
        }
        self.pump();
    }

    fn send(&mut self, now: Instant, method: &str, params: Option<&RawJson<'_>>, progress: bool) -> bool {
        // Requests that ask for progress get a short idle timeout: some of them expire.
        let options = if progress {
            RequestOptions::with_progress().timeout(core::time::Duration::from_millis(300))
        } else {
            RequestOptions::default()
        };
        match self.ep.send_request(now, method, params, options) {
            Ok(id) => {
                let free = self.own.iter().position(Option::is_none).expect("a free slot");
                self.own[free] = Some(id);
                self.stats.sent += 1;
                true
            }
            Err(SendError::TooManyInFlight { .. } | SendError::TxFull { .. }) => false,
            Err(e) => panic!("{e:?}"),
        }
    }

    fn cancel_one(&mut self, now: Instant, pick: usize) {
        let Some(i) = (0..SLOTS).map(|k| (k + pick) % SLOTS).find(|&k| self.own[k].is_some()) else { return };
        let id = self.own[i].take().unwrap();
        self.ep.cancel(now, &id, Some("no longer needed")).unwrap();
        self.stats.cancels_sent += 1;
        self.pump();
    }
}

/// Moves bytes one way in chunks of `chunk`, draining the receiver as it goes.
fn deliver(from: &mut Node<'_>, to: &mut Node<'_>, now: Instant, chunk: usize) {
    while from.out.len > 0 {
        let n = chunk.min(from.out.len);
        let taken = to.ep.handle_input(now, &from.out.buf[..n]);
        from.out.take(taken);
        to.pump();
    }
    if from.out.eof && !from.out.eof_delivered {
        from.out.eof_delivered = true;
        to.ep.handle_eof(now);
        to.pump();
    }
}

fn settle(client: &mut Node<'_>, server: &mut Node<'_>, now: Instant, chunk: usize) {
    for _ in 0..1000 {
        client.pump();
        server.pump();
        if client.out.len == 0 && server.out.len == 0 {
            return;
        }
        deliver(client, server, now, chunk);
        deliver(server, client, now, chunk);
    }
    panic!("did not settle");
}

const TOTAL: u32 = 10_000;

fn session(bufs: &mut [[u8; 16 * 1024]; 4]) -> (Stats, Stats) {
    let [crx, ctx, srx, stx] = bufs;
    let client_config = Config::new(Role::Client, RawJson::parse(br#"{"name":"c","version":"1"}"#).unwrap())
        .capabilities(RawJson::parse(br#"{"roots":{"listChanged":true},"sampling":{}}"#).unwrap())
        .era(mcp_sansio::session::Era::Legacy);
    let server_config = Config::new(Role::Server, RawJson::parse(br#"{"name":"s","version":"1"}"#).unwrap())
        .capabilities(RawJson::parse(br#"{"tools":{"listChanged":true},"logging":{}}"#).unwrap());
    let mut now = Instant::ZERO;
    let mut client = Node::new(Ep::new(client_config, crx, ctx, now).unwrap());
    let mut server = Node::new(Ep::new(server_config, srx, stx, now).unwrap());
    settle(&mut client, &mut server, now, 4096);
    let call = RawJson::parse(br#"{"name":"echo","arguments":{"text":"hello"}}"#).unwrap();
    let sample =
        RawJson::parse(br#"{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":8}"#)
            .unwrap();
    let mut sent = 0;
    let mut i = 0usize;
    while sent < TOTAL {
        i += 1;
        // Four requests of the client's to one of the server's; every third asks for progress.
        let progress = i.is_multiple_of(3);
        let ok = if i.is_multiple_of(5) {
            server.send(now, "sampling/createMessage", Some(&sample), progress)
        } else if i.is_multiple_of(11) {
            client.send(now, "ping", NO_PARAMS, false)
        } else {
            client.send(now, "tools/call", Some(&call), progress)
        };
        if ok {
            sent += 1;
            client.pump();
            server.pump();
        }
        if i.is_multiple_of(13) {
            client.cancel_one(now, i);
        }
        if i.is_multiple_of(29) {
            server.cancel_one(now, i);
        }
        if i.is_multiple_of(17) {
            server.ep.send_notification(now, "notifications/tools/list_changed", NO_PARAMS).unwrap();
        }
        let chunk = 1 + (i * 97) % 3000;
        settle(&mut client, &mut server, now, chunk);
        client.work();
        server.work();
        if i.is_multiple_of(7) || i.is_multiple_of(50) {
            // Now and then a longer pause: held requests time out.
            now = now + core::time::Duration::from_millis(if i.is_multiple_of(50) { 400 } else { 250 });
            client.ep.handle_timeout(now);
            server.ep.handle_timeout(now);
        }
        settle(&mut client, &mut server, now, chunk);
    }
    // Finish what is held, then close: the client closes and stops writing.
    for _ in 0..8 {
        client.work();
        server.work();
        settle(&mut client, &mut server, now, 512);
    }
    // Two requests still in flight when the client closes: they fail.
    assert!(client.send(now, "tools/call", Some(&call), false));
    assert!(client.send(now, "tools/call", Some(&call), true));
    client.ep.close(now);
    client.pump();
    client.out.eof = true;
    settle(&mut client, &mut server, now, 512);
    server.out.eof = true;
    for _ in 0..4 {
        server.work();
        settle(&mut client, &mut server, now, 512);
        deliver(&mut client, &mut server, now, 512);
        deliver(&mut server, &mut client, now, 512);
    }
    (client.stats, server.stats)
}

#[test]
fn a_full_session_allocates_nothing() {
    let mut bufs = [[0u8; 16 * 1024]; 4];
    // Warm up whatever the standard library sets up lazily (thread-locals, stdout).
    let _ = measure(|| 0);
    let ((client, server), allocs, deallocs) = measure(|| session(&mut bufs));
    println!("client: {client:?}");
    println!("server: {server:?}");
    println!("allocations: {allocs}, deallocations: {deallocs}");
    assert_eq!((allocs, deallocs), (0, 0));
    // The session did what it should.
    assert_eq!(client.sent + server.sent, TOTAL + 2);
    assert_eq!(client.failed, 2);
    assert!(client.timeouts > 0);
    assert_eq!((client.closed, server.closed), (1, 1));
    assert_eq!((client.other, server.other), (0, 0), "no misbehavior, nothing dropped");
    for s in [client, server] {
        assert_eq!(s.responses + s.errors + s.timeouts + s.failed + s.cancels_sent, s.sent);
        assert!(s.responses > 0 && s.errors > 0 && s.progress_seen > 0 && s.cancels_sent > 0, "{s:?}");
    }
    assert!(server.progress_sent > 0 && client.progress_sent > 0);
    assert!(server.cancels_seen > 0 && client.cancels_seen > 0);
    assert!(server.suppressed > 0 && client.suppressed > 0);
    assert!(client.notifications > 0);
    // A control: the counter does see allocations.
    let (_, allocs, _) = measure(|| std::hint::black_box(vec![1u8; 16]));
    assert_eq!(allocs, 1);
}

fn modern_session(bufs: &mut [[u8; 16 * 1024]; 4]) -> (Stats, Stats) {
    let [crx, ctx, srx, stx] = bufs;
    // Both of both eras: the probe settles them on the stateless one.
    let client_config = Config::new(Role::Client, RawJson::parse(br#"{"name":"c","version":"1"}"#).unwrap())
        .capabilities(RawJson::parse(br#"{"elicitation":{},"sampling":{}}"#).unwrap());
    let server_config = Config::new(Role::Server, RawJson::parse(br#"{"name":"s","version":"1"}"#).unwrap())
        .capabilities(RawJson::parse(br#"{"tools":{"listChanged":true},"logging":{}}"#).unwrap());
    let mut now = Instant::ZERO;
    let mut client = Node::new(Ep::new(client_config, crx, ctx, now).unwrap());
    let mut server = Node::new(Ep::new(server_config, srx, stx, now).unwrap());
    settle(&mut client, &mut server, now, 4096);
    assert_eq!(client.ep.state(), mcp_sansio::session::State::Stateless);
    let call = RawJson::parse(br#"{"name":"echo","arguments":{"text":"hello"}}"#).unwrap();
    let listen = RawJson::parse(br#"{"notifications":{"toolsListChanged":true}}"#).unwrap();
    let listen_id =
        client.ep.send_request(now, "subscriptions/listen", Some(&listen), RequestOptions::default()).unwrap();
    settle(&mut client, &mut server, now, 4096);
    let mut sent = 0;
    let mut i = 0usize;
    while sent < TOTAL {
        i += 1;
        let progress = i.is_multiple_of(3);
        let ok = if i.is_multiple_of(7) {
            client.send(now, "tools/list", None, false)
        } else {
            client.send(now, "tools/call", Some(&call), progress)
        };
        if ok {
            sent += 1;
            client.pump();
            server.pump();
        }
        if i.is_multiple_of(13) {
            client.cancel_one(now, i);
        }
        if i.is_multiple_of(17) {
            server.ep.send_notification(now, "notifications/tools/list_changed", NO_PARAMS).unwrap();
        }
        let chunk = 1 + (i * 97) % 3000;
        settle(&mut client, &mut server, now, chunk);
        client.retry(now, &call);
        client.work();
        server.work();
        if i.is_multiple_of(50) {
            now = now + core::time::Duration::from_millis(400);
            client.ep.handle_timeout(now);
            server.ep.handle_timeout(now);
        }
        settle(&mut client, &mut server, now, chunk);
    }
    for _ in 0..8 {
        client.retry(now, &call);
        client.work();
        server.work();
        settle(&mut client, &mut server, now, 512);
    }
    // The client ends its listen stream, then its input.
    client.ep.cancel(now, &listen_id, None).unwrap();
    client.pump();
    client.ep.close(now);
    client.pump();
    client.out.eof = true;
    settle(&mut client, &mut server, now, 512);
    server.out.eof = true;
    for _ in 0..4 {
        server.work();
        settle(&mut client, &mut server, now, 512);
        deliver(&mut client, &mut server, now, 512);
        deliver(&mut server, &mut client, now, 512);
    }
    (client.stats, server.stats)
}

#[test]
fn a_stateless_session_allocates_nothing() {
    let mut bufs = [[0u8; 16 * 1024]; 4];
    let _ = measure(|| 0);
    let ((client, server), allocs, deallocs) = measure(|| modern_session(&mut bufs));
    println!("client: {client:?}");
    println!("server: {server:?}");
    println!("allocations: {allocs}, deallocations: {deallocs}");
    assert_eq!((allocs, deallocs), (0, 0));
    assert!(client.input_required > 0 && client.retries > 0, "{client:?}");
    assert_eq!(client.subscribed, 1);
    assert!(client.notifications > 0, "listen notifications arrived: {client:?}");
    assert!(client.responses > 0 && client.errors > 0 && client.progress_seen > 0 && client.cancels_sent > 0);
    assert!(server.cancels_seen > 0 && server.suppressed > 0);
    assert_eq!((client.closed, server.closed), (1, 1));
    assert_eq!((client.other, server.other), (0, 0), "no misbehavior, nothing dropped");
    assert_eq!(
        client.responses
            + client.errors
            + client.timeouts
            + client.failed
            + client.cancels_sent
            + client.input_required,
        client.sent,
        "every request ended once (the listen stream, not counted as sent, by its cancellation)"
    );
}

// ---- typed decoding from the recorded members ---------------------------------------------

/// `Message::parse_with_spans` and `decode_*_with_spans` allocate nothing either: every
/// kind of message, tables that hold the members and tables that overflow (the fallback to
/// the text), escaped names, values kept raw and errors.
#[test]
fn decoding_from_recorded_members_allocates_nothing() {
    use mcp_sansio::mcp::{
        Answering, all_methods, decode_notification_with_spans, decode_request_with_spans, decode_result_with_spans,
    };
    use mcp_sansio::wire::{MemberSpans, Message};

    const FRAMES: [&[u8]; 10] = [
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":[1,2]},"_meta":{"progressToken":3}}}"#,
        br#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#,
        br#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1,"message":"caf\u00e9"}}"#,
        br#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":{"k":1}}}"#,
        br#"{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"p","arguments":{"a":"b"}}}"#,
        br#"{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"x"}],"isError":false}}"#,
        br#"{"jsonrpc":"2.0","id":5,"result":{"tools":[{"name":"t","inputSchema":{"type":"object"}}],"nextCursor":"c"}}"#,
        br#"{"jsonrpc":"2.0","id":6,"result":{"contents":[{"uri":"u","text":"t"}],"resultType":"complete"}}"#,
        br#"{"jsonrpc":"2.0","id":7,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}"#,
        br#"{"jsonrpc":"2.0","id":8,"result":{"a":1,"b":2,"c":3,"content":[],"resultType":"input_required"}}"#,
    ];
    fn pass<const N: usize>() -> usize {
        let mut decoded = 0;
        for frame in FRAMES {
            let mut spans = MemberSpans::<N>::new();
            let message = Message::parse_with_spans(frame, &mut spans).unwrap();
            for (method, _) in all_methods() {
                decoded += match message {
                    Message::Request(r) => decode_request_with_spans(method, r.params, &spans).is_ok(),
                    Message::Notification(n) => decode_notification_with_spans(method, n.params, &spans).is_ok(),
                    Message::Response(r) => {
                        decode_result_with_spans(Answering::task(method), r.result, &spans).is_ok()
                            | decode_result_with_spans(method, r.result, &spans).is_ok()
                    }
                    Message::Error(_) => false,
                } as usize;
            }
        }
        decoded
    }
    let _ = measure(|| 0);
    let ((full, overflowing), allocs, deallocs) = measure(|| (pass::<16>(), pass::<2>()));
    println!("decoded: {full} / {overflowing}, allocations: {allocs}, deallocations: {deallocs}");
    assert_eq!((allocs, deallocs), (0, 0));
    assert_eq!(full, overflowing);
    assert!(full >= FRAMES.len(), "{full}");
}

// ---- the same with the toolkit's server ---------------------------------------------------

mod toolkit {
    //! A toolkit server from a `static` table (typed tools with borrowed arguments, a step
    //! job with progress, 25 resources in pages, a template, a prompt, completions) against
    //! a bare client endpoint: the toolkit adds no allocation either.

    use core::fmt::Write as _;
    use core::task::Poll;

    use mcp_sansio::mcp::{Method, Resource, ResourceTemplate, Role};
    use mcp_sansio::session::{Config, Endpoint, Event, Output, RequestOptions, State};
    use mcp_sansio::time::Instant;
    use mcp_sansio::toolkit::Bounded;
    use mcp_sansio::toolkit::server::{
        CompleteFrom, PromptFn, ResourceList, Server, Step, StepContext, StepTool, Table, Target, TemplateFn, ToolFn,
        Vars,
    };
    use mcp_sansio::wire::{JsonStr, RawJson, RequestId};

    use super::{Pipe, measure};

    mcp_sansio::schema! {
        #[derive(serde::Deserialize)]
        pub struct Forecast<'a> {
            #[serde(borrow)]
            city: JsonStr<'a>,
            days: Bounded<1, 7>,
        }
        #[derive(serde::Deserialize)]
        pub struct Count { to: u32 }
        #[derive(serde::Deserialize)]
        pub struct City<'a> {
            #[serde(borrow)]
            city: JsonStr<'a>,
        }
    }

    type Text = heapless::String<96>;

    fn text(args: core::fmt::Arguments<'_>) -> Text {
        let mut t = Text::new();
        let _ = t.write_fmt(args);
        t
    }

    #[derive(Default)]
    pub struct App {
        calls: u32,
        cancelled: u32,
    }

    pub struct Counting {
        at: u32,
        to: u32,
    }

    impl Step<App> for Counting {
        type Output<'a> = Text;
        fn step(&mut self, _: &mut App, cx: &mut impl StepContext) -> Poll<Text> {
            if self.at == self.to {
                return Poll::Ready(text(format_args!("counted to {}", self.to)));
            }
            self.at += 1;
            cx.progress(self.at, Some(self.to), None);
            cx.wake_at(Instant::from_millis(cx.now().as_millis() + 100));
            Poll::Pending
        }
        fn cancelled(&mut self, app: &mut App) {
            app.cancelled += 1;
        }
    }

    static FORECAST: ToolFn<Forecast<'static>, App, Text> =
        ToolFn::borrowed("get_forecast", |app: &mut App, Forecast { city, days }| {
            app.calls += 1;
            text(format_args!("{city}: sunny for {} days", days.get()))
        });
    static COUNT: StepTool<Count, App, Counting> = StepTool::new("count", |_, Count { to }| Counting { at: 0, to });
    const URIS: [&str; 25] = [
        "w://1", "w://2", "w://3", "w://4", "w://5", "w://6", "w://7", "w://8", "w://9", "w://10", "w://11", "w://12",
        "w://13", "w://14", "w://15", "w://16", "w://17", "w://18", "w://19", "w://20", "w://21", "w://22", "w://23",
        "w://24", "w://25",
    ];
    static STATIONS: [Resource<'static>; 25] = {
        let mut list = [Resource::new("", "station"); 25];
        let mut i = 0;
        while i < 25 {
            list[i] = Resource::new(URIS[i], "station");
            i += 1;
        }
        list
    };
    static READINGS: ResourceList<App, Text> =
        ResourceList::new(&STATIONS, |_, i| text(format_args!("station {}: 20 °C", i + 1)));
    static TODAY: TemplateFn<App, Text> =
        TemplateFn::new(ResourceTemplate::new("w://city/{name}", "today"), |_, vars: &Vars<'_>| {
            text(format_args!("{}: sunny", vars.get("name").unwrap_or("?")))
        });
    static ASK: PromptFn<City<'static>, App, Text> =
        PromptFn::borrowed("ask", |_, City { city }| text(format_args!("Weather in {city}?")));
    static CITIES: CompleteFrom = CompleteFrom::new(Target::Prompt("ask"), "city", &["oslo", "osaka", "bergen"]);
    static TABLE: Table<'static, App, Counting> = Table::new()
        .tools(&[&FORECAST, &COUNT])
        .resources(&[&READINGS])
        .templates(&[&TODAY])
        .prompts(&[&ASK])
        .completions(&[&CITIES]);

    #[derive(Default, Debug)]
    struct Seen {
        results: u32,
        tool_errors: u32,
        errors: u32,
        progress: u32,
        pages: u32,
        resources: u32,
        sent: u32,
        cancels: u32,
    }

    type Ep<'a> = Endpoint<'a, 8, 8>;

    fn run(bufs: &mut [[u8; 16 * 1024]; 4]) -> (Seen, App) {
        let [crx, ctx, srx, stx] = bufs;
        let mut now = Instant::ZERO;
        let mut server: Server<'_, App, Counting, 4> = Server::new(TABLE).page_size(10).cursor_key([9; 16]);
        let mut app = App::default();
        let client_config = Config::new(Role::Client, RawJson::parse(br#"{"name":"c","version":"1"}"#).unwrap())
            .era(mcp_sansio::session::Era::Legacy);
        let mut client: Ep<'_> = Endpoint::new(client_config, crx, ctx, now).unwrap();
        let mut srv: Ep<'_> = Endpoint::new(server.config(), srx, stx, now).unwrap();
        let (mut to_server, mut to_client) = (Pipe::<65_536>::new(), Pipe::<65_536>::new());
        let mut seen = Seen::default();
        let mut cursor: heapless::String<64> = heapless::String::new();
        let mut next_page = false;
        let mut in_flight: heapless::Vec<RequestId, 8> = heapless::Vec::new();
        let calls = [
            RawJson::parse(br#"{"name":"get_forecast","arguments":{"city":"Troms\u00f8","days":3}}"#).unwrap(),
            RawJson::parse(br#"{"name":"get_forecast","arguments":{"city":"Oslo","days":"three"}}"#).unwrap(),
            RawJson::parse(br#"{"name":"count","arguments":{"to":3}}"#).unwrap(),
            RawJson::parse(br#"{"uri":"w://city/bergen"}"#).unwrap(),
            RawJson::parse(br#"{"name":"ask","arguments":{"city":"Oslo"}}"#).unwrap(),
            RawJson::parse(br#"{"ref":{"type":"ref/prompt","name":"ask"},"argument":{"name":"city","value":"os"}}"#)
                .unwrap(),
        ];
        for i in 0..2000u32 {
            // The client: one request per round, a page walk now and then.
            if client.state() == State::Ready && client.requests_in_flight() < 6 {
                if next_page {
                    // The walk goes on, besides the round's request.
                    next_page = false;
                    #[derive(serde::Serialize)]
                    struct P<'c> {
                        cursor: &'c str,
                    }
                    let page = P { cursor: &cursor };
                    client.send_request(now, "resources/list", Some(&page), RequestOptions::default()).unwrap();
                    seen.sent += 1;
                }
                let (method, params, progress) = match i % 9 {
                    0 => ("tools/list", None, false),
                    1 => ("resources/list", None, false),
                    2 | 3 => ("tools/call", Some(&calls[2]), true),
                    4 => ("resources/read", Some(&calls[3]), false),
                    5 => ("prompts/get", Some(&calls[4]), false),
                    6 => ("completion/complete", Some(&calls[5]), false),
                    7 => ("tools/call", Some(&calls[1]), false),
                    _ => ("tools/call", Some(&calls[0]), false),
                };
                let options = if progress { RequestOptions::with_progress() } else { RequestOptions::default() };
                let id = client.send_request(now, method, params, options).unwrap();
                seen.sent += 1;
                if i % 18 == 3 {
                    // Some slow calls are cancelled while they run.
                    let _ = in_flight.push(id);
                }
            }
            if i % 18 == 5
                && let Some(id) = in_flight.pop()
                && client.cancel(now, &id, None).is_ok()
            {
                seen.cancels += 1;
            }
            for _ in 0..4 {
                // Client output to the server.
                loop {
                    match client.poll_output() {
                        Output::Transmit(b) => to_server.push(&b),
                        Output::Event(Event::Response { method, result, .. }) => {
                            seen.results += 1;
                            if result.get("isError").and_then(|v| v.as_bool()) == Some(true) {
                                seen.tool_errors += 1;
                            }
                            if method == Some(Method::ResourcesList) {
                                seen.pages += 1;
                                seen.resources += result.get("resources").map_or(0, |r| r.elements().count()) as u32;
                                if let Some(c) = result.get("nextCursor").and_then(|c| c.as_str()) {
                                    cursor.clear();
                                    for ch in c.chars() {
                                        cursor.push(ch).unwrap();
                                    }
                                    next_page = true;
                                }
                            }
                        }
                        Output::Event(Event::Error { .. }) => seen.errors += 1,
                        Output::Event(Event::Progress { .. }) => seen.progress += 1,
                        Output::Event(_) => {}
                        Output::Idle { .. } => break,
                    }
                }
                let n = srv.handle_input(now, &to_server.buf[..to_server.len]);
                to_server.take(n);
                // The server: endpoint events through the toolkit.
                loop {
                    match srv.poll_output() {
                        Output::Transmit(b) => to_client.push(&b),
                        Output::Event(e) => {
                            if let Some(Event::Request(mut r)) = server.handle(&mut app, e) {
                                panic!("the toolkit left {:?} unanswered", r.respond_empty());
                            }
                        }
                        Output::Idle { .. } => break,
                    }
                }
                let _ = server.poll(&mut app, &mut srv, now);
                while let Output::Transmit(b) = srv.poll_output() {
                    to_client.push(&b);
                }
                let n = client.handle_input(now, &to_client.buf[..to_client.len]);
                to_client.take(n);
            }
            now = Instant::from_millis(now.as_millis() + 50);
            client.handle_timeout(now);
            srv.handle_timeout(now);
        }
        (seen, app)
    }

    #[test]
    fn a_toolkit_server_session_allocates_nothing() {
        let mut bufs = [[0u8; 16 * 1024]; 4];
        let _ = measure(|| 0);
        let ((seen, app), allocs, deallocs) = measure(|| run(&mut bufs));
        println!("{seen:?}, calls {}, cancelled jobs {}", app.calls, app.cancelled);
        println!("allocations: {allocs}, deallocations: {deallocs}");
        assert_eq!((allocs, deallocs), (0, 0));
        assert_eq!(seen.errors, 0, "every request was served");
        assert!(seen.results + seen.cancels >= seen.sent - 8, "all answered but the last few: {seen:?}");
        assert!(seen.tool_errors > 100 && seen.progress > 100 && app.calls > 100, "{seen:?}");
        assert!(app.cancelled > 0 && seen.cancels > 0);
        // Every page walk saw the 25 resources in three pages (the last may be under way).
        let walks = seen.pages / 3;
        assert_eq!(seen.resources - 25 * walks, [0, 10, 20][(seen.pages % 3) as usize]);
        assert!(seen.pages >= 3 * 100);
    }
}

// ---- a task round (tasks extension) on the core path --------------------------------------

mod task_round {
    //! 300 tools/call answered with a task handle, each polled with the client's
    //! `TaskPoller` until it completes (one poll answered `working` first), a third of them
    //! given a `tasks/update`, a fifth cancelled: the vocabulary's `TaskHandle`,
    //! `DetailedTask` and `TaskRequest`, the endpoint's gating and the poller allocate
    //! nothing.

    use core::fmt::Write;
    use core::time::Duration;

    use super::{Pipe, measure};
    use mcp_sansio::mcp::{DetailedTask, ResultType, Role, TaskHandle, TaskRequest, TaskStatus};
    use mcp_sansio::session::{Config, Endpoint, Era, Event, Output, RequestOptions, TaskPoller, TaskUpdate};
    use mcp_sansio::time::Instant;
    use mcp_sansio::wire::{JsonStr, RawJson};

    type Ep<'a> = Endpoint<'a, 4, 4>;

    const RESULT: RawJson<'static> =
        RawJson::from_static(r#"{"content":[{"type":"text","text":"done"}],"isError":false}"#);
    const CREATED: &str = "2026-01-01T00:00:00Z";
    const TASKS: usize = 300;

    #[derive(Default, Debug)]
    struct Seen {
        created: u32,
        working: u32,
        completed: u32,
        cancelled_acks: u32,
        acks: u32,
        polls_served: u32,
        other: u32,
    }

    fn id_text(n: usize) -> heapless::String<16> {
        let mut s = heapless::String::new();
        let _ = write!(s, "task-{n}");
        s
    }

    /// The server: a task per call; each task's first poll says `working`, the next
    /// `completed` (the number of polls kept per task in a fixed array).
    fn serve(
        server: &mut Ep<'_>,
        out: &mut Pipe<65_536>,
        polls: &mut [u8; TASKS],
        next_task: &mut usize,
        seen: &mut Seen,
    ) {
        loop {
            let event = match server.poll_output() {
                Output::Transmit(bytes) => {
                    out.push(&bytes);
                    continue;
                }
                Output::Idle { .. } => return,
                Output::Event(event) => event,
            };
            let Event::Request(mut r) = event else { continue };
            if r.method.name() == "tools/call" {
                let id = id_text(*next_task);
                *next_task += 1;
                let mut handle =
                    TaskHandle::working(JsonStr::from_text(&id), JsonStr::from_text(CREATED), Some(60_000));
                handle.poll_interval_ms = Some(100);
                r.respond(&handle).unwrap();
                continue;
            }
            let request = TaskRequest::decode(r.method.name(), r.params).unwrap().unwrap();
            let n: usize = request.task_id().as_plain().unwrap()["task-".len()..].parse().unwrap();
            match request {
                TaskRequest::Get(_) => {
                    seen.polls_served += 1;
                    polls[n] += 1;
                    let done = polls[n] > 1;
                    let task = DetailedTask {
                        result_type: Some(ResultType::Complete),
                        task_id: request.task_id(),
                        status: if done { TaskStatus::Completed } else { TaskStatus::Working },
                        status_message: None,
                        created_at: JsonStr::from_text(CREATED),
                        last_updated_at: JsonStr::from_text(CREATED),
                        ttl_ms: Some(60_000),
                        poll_interval_ms: Some(100),
                        input_requests: None,
                        result: done.then_some(RESULT),
                        error: None,
                        meta: None,
                    };
                    r.respond(&task).unwrap();
                }
                TaskRequest::Update(_) | TaskRequest::Cancel(_) => {
                    r.respond_empty().unwrap();
                }
            }
        }
    }

    fn deliver(to: &mut Ep<'_>, pipe: &mut Pipe<65_536>, now: Instant) {
        while pipe.len > 0 {
            let n = to.handle_input(now, &pipe.buf[..pipe.len]);
            pipe.take(n);
            if n == 0 {
                break;
            }
        }
    }

    fn run(bufs: &mut [[u8; 16 * 1024]; 4]) -> Seen {
        let [crx, ctx, srx, stx] = bufs;
        let caps = RawJson::from_static(r#"{"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}"#);
        let server_caps = RawJson::from_static(r#"{"tools":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}"#);
        let info = RawJson::from_static(r#"{"name":"zero","version":"1"}"#);
        let mut now = Instant::ZERO;
        let mut client: Ep<'_> =
            Endpoint::new(Config::new(Role::Client, info).capabilities(caps).era(Era::Modern), crx, ctx, now).unwrap();
        let mut server: Ep<'_> =
            Endpoint::new(Config::new(Role::Server, info).capabilities(server_caps), srx, stx, now).unwrap();
        let (mut to_server, mut to_client) = (Pipe::<65_536>::new(), Pipe::<65_536>::new());
        let mut polls = [0u8; TASKS];
        let mut next_task = 0;
        let mut seen = Seen::default();
        // One exchange: the client's bytes to the server, its answers back; the client's
        // events to `poller`, then counted.
        macro_rules! exchange {
            ($poller:expr) => {{
                let mut handle: Option<TaskPoller> = None;
                for _ in 0..8 {
                    loop {
                        match client.poll_output() {
                            Output::Transmit(bytes) => to_server.push(&bytes),
                            Output::Event(e) => match $poller
                                .as_mut()
                                .and_then(|p: &mut TaskPoller| p.handle_event(&e, now))
                            {
                                Some(TaskUpdate::Working { .. }) => seen.working += 1,
                                Some(TaskUpdate::Completed { result }) => {
                                    assert_eq!(result.as_bytes(), RESULT.as_bytes());
                                    seen.completed += 1;
                                }
                                Some(_) => seen.other += 1,
                                None => match e {
                                    Event::TaskCreated { task, .. } => {
                                        seen.created += 1;
                                        handle = Some(TaskPoller::new(task, now).unwrap());
                                    }
                                    // The acknowledgements of tasks/update and tasks/cancel.
                                    Event::Response { result, .. } if result.get("taskId").is_none() => seen.acks += 1,
                                    Event::Negotiated { .. } | Event::Ready { .. } => {}
                                    _ => seen.other += 1,
                                },
                            },
                            Output::Idle { .. } => break,
                        }
                    }
                    deliver(&mut server, &mut to_server, now);
                    serve(&mut server, &mut to_client, &mut polls, &mut next_task, &mut seen);
                    deliver(&mut client, &mut to_client, now);
                }
                handle
            }};
        }
        let mut none: Option<TaskPoller> = None;
        let _ = exchange!(none);
        for n in 0..TASKS {
            let call = RawJson::from_static(r#"{"name":"slow","arguments":{}}"#);
            client.send_request(now, "tools/call", Some(&call), RequestOptions::default()).unwrap();
            let mut poller = exchange!(none);
            assert!(poller.is_some(), "task {n} created");
            if n % 3 == 0 {
                let answers = RawJson::from_static(r#"{"q0":{"action":"accept","content":{}}}"#);
                poller.as_mut().unwrap().answer(&mut client, now, &answers).unwrap();
                let _ = exchange!(none);
            }
            if n % 5 == 0 {
                poller.as_mut().unwrap().cancel(&mut client, now).unwrap();
                let _ = exchange!(none);
                seen.cancelled_acks += 1;
                continue;
            }
            while let Some(due) = poller.as_ref().and_then(TaskPoller::poll_timeout) {
                now = due.max(now);
                poller.as_mut().unwrap().handle_timeout(&mut client, now).unwrap();
                let _ = exchange!(poller);
            }
            assert!(poller.unwrap().is_done());
            now = now + Duration::from_millis(1);
        }
        seen
    }

    #[test]
    fn a_task_round_allocates_nothing() {
        let mut bufs = [[0u8; 16 * 1024]; 4];
        let _ = measure(|| 0);
        let (seen, allocs, deallocs) = measure(|| run(&mut bufs));
        println!("{seen:?}, allocations: {allocs}, deallocations: {deallocs}");
        assert_eq!((allocs, deallocs), (0, 0));
        let cancelled = TASKS.div_ceil(5) as u32;
        assert_eq!(seen.created as usize, TASKS);
        assert_eq!(seen.completed, TASKS as u32 - cancelled);
        assert_eq!(seen.working, seen.completed, "each polled once while working");
        assert_eq!(seen.acks as usize, TASKS.div_ceil(3) + TASKS.div_ceil(5), "every update and cancel acknowledged");
        assert_eq!(seen.other, 0);
    }
}
