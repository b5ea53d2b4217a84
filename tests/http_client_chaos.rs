//! The client core under arbitrary servers: any status, headers, body bytes (event
//! streams, endpoint events, garbage), ends and failures on any exchange, stale or
//! live, interleaved with sends, timeouts, auth answers and close. It never panics,
//! always drains to idle, stays within its slots, never writes a header value a request
//! line could be split by, and never asks for an exchange twice.

use std::collections::HashSet;

use mcp_sansio::Instant;
use mcp_sansio::http::client::{ClientConfig, Event, ExchangeId, Failure, HttpClient, Output, TransportMode};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Op {
    Send(u8, u8),
    Head { pick: u8, status: u16, ctype: u8, session: u8, www: u8 },
    Body { pick: u8, chunk: u8, raw: Vec<u8> },
    End(u8),
    Fail(u8),
    Advance(u16),
    Retry(u8),
    GiveUp(u8),
    Token(bool),
    Consume(bool),
    Close,
}

const STATUSES: &[u16] = &[200, 202, 204, 400, 401, 403, 404, 405, 409, 429, 500, 503];
const CTYPES: &[&str] = &["application/json", "text/event-stream", "text/plain", "", "text/event-stream;x=\"", "a/b"];
const SESSIONS: &[&str] = &["", "s-1", "s 2", "\u{7f}", "abc"];
const WWW: &[&str] = &[
    "",
    r#"Bearer resource_metadata="http://h/prm", scope="a b""#,
    r#"Bearer error="insufficient_scope""#,
    "Basic",
    "=,=",
];
const CHUNKS: &[&str] = &[
    "id: 1\nretry: 10\ndata: \n\n",
    "data: {\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"protocolVersion\":\"2025-11-25\"}}\n\n",
    "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n",
    "data: {\"jsonrpc\":\"2.0\",\"method\":\"n\"}\n\n",
    "event: endpoint\ndata: /messages?s=1\n\n",
    "event: endpoint\ndata: http://evil/x\n\n",
    "event: endpoint\ndata: \n\n",
    ": ping\n\n",
    "id: x\n",
    "data: ",
    "\r\n",
    "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}",
    "retry: 99999999999\n\n",
    "id: \u{0}\n\n",
];

fn message(kind: u8, id: u8) -> String {
    match kind % 7 {
        0 => format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"initialize","params":{{}}}}"#),
        1 => format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{}}}}"#),
        2 => r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_string(),
        3 => r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{}}"#.to_string(),
        4 => format!(r#"{{"jsonrpc":"2.0","id":"s{id}","result":{{}}}}"#),
        5 => format!(r#"{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":{id}}}}}"#),
        _ => "not json".to_string(),
    }
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (any::<u8>(), 0u8..8).prop_map(|(k, i)| Op::Send(k, i)),
        3 => (any::<u8>(), 0..STATUSES.len(), 0..CTYPES.len() as u8, 0..SESSIONS.len() as u8, 0..WWW.len() as u8)
            .prop_map(|(pick, s, ctype, session, www)| Op::Head { pick, status: STATUSES[s], ctype, session, www }),
        4 => (any::<u8>(), any::<u8>(), proptest::collection::vec(any::<u8>(), 0..40))
            .prop_map(|(pick, chunk, raw)| Op::Body { pick, chunk, raw }),
        2 => any::<u8>().prop_map(Op::End),
        1 => any::<u8>().prop_map(Op::Fail),
        2 => (0u16..4000).prop_map(Op::Advance),
        1 => any::<u8>().prop_map(Op::Retry),
        1 => any::<u8>().prop_map(Op::GiveUp),
        1 => any::<bool>().prop_map(Op::Token),
        1 => any::<bool>().prop_map(Op::Consume),
        1 => Just(Op::Close),
    ]
}

fn visible(s: &str) -> bool {
    s.bytes().all(|b| (0x20..=0x7E).contains(&b))
}

struct World {
    exchanges: Vec<ExchangeId>,
    seen: HashSet<ExchangeId>,
    auth: Vec<ExchangeId>,
    /// Leave messages unconsumed for a while.
    hold: bool,
}

fn drain<const X: usize>(c: &mut HttpClient<'_, X>, w: &mut World) {
    for _ in 0..2_000 {
        match c.poll_output() {
            Output::Request(r) => {
                assert!(w.seen.insert(r.exchange), "exchange {:?} asked for twice", r.exchange);
                assert!(visible(r.url) && !r.url.is_empty() || r.url.is_empty());
                for (n, v) in r.headers() {
                    assert!(visible(n) && visible(v), "{n}: {v:?}");
                }
                w.exchanges.push(r.exchange);
            }
            Output::Message(m) => {
                assert!(!m.bytes.is_empty());
                if w.hold {
                    return;
                }
                c.consume_message();
            }
            Output::Event(Event::AuthRequired { exchange, .. }) => w.auth.push(exchange),
            Output::Event(_) | Output::Abort(_) => {}
            Output::Idle { .. } => return,
        }
    }
    panic!("never idle");
}

fn run<const X: usize>(mode: TransportMode, ops: &[Op]) {
    let config = ClientConfig::new("http://localhost:3000/mcp").unwrap().mode(mode).token_capacity(64);
    let mut storage = vec![0u8; config.storage_len(X, 300)];
    let mut c: HttpClient<'_, X> = HttpClient::new(config, &mut storage).unwrap();
    let mut w = World { exchanges: Vec::new(), seen: HashSet::new(), auth: Vec::new(), hold: false };
    let mut now = 0u64;
    let pick = |w: &World, p: u8| -> Option<ExchangeId> {
        (!w.exchanges.is_empty()).then(|| w.exchanges[p as usize % w.exchanges.len()])
    };
    for op in ops {
        let at = Instant::from_millis(now);
        match op {
            Op::Send(k, i) => {
                let _ = c.send_message(at, message(*k, *i).as_bytes());
            }
            Op::Head { pick: p, status, ctype, session, www } => {
                if let Some(x) = pick(&w, *p) {
                    let mut h: Vec<(&str, &[u8])> = Vec::new();
                    let ct = CTYPES[*ctype as usize];
                    if !ct.is_empty() {
                        h.push(("Content-Type", ct.as_bytes()));
                    }
                    let s = SESSIONS[*session as usize];
                    if !s.is_empty() {
                        h.push(("mcp-session-id", s.as_bytes()));
                    }
                    let a = WWW[*www as usize];
                    if !a.is_empty() {
                        h.push(("WWW-Authenticate", a.as_bytes()));
                    }
                    c.handle_response(at, x, *status, h);
                }
            }
            Op::Body { pick: p, chunk, raw } => {
                if let Some(x) = pick(&w, *p) {
                    let data: Vec<u8> = if (*chunk as usize).is_multiple_of(3) {
                        raw.clone()
                    } else {
                        CHUNKS[*chunk as usize % CHUNKS.len()].as_bytes().to_vec()
                    };
                    let n = c.handle_body(at, x, &data);
                    assert!(n <= data.len());
                }
            }
            Op::End(p) => {
                if let Some(x) = pick(&w, *p) {
                    c.handle_end(at, x);
                }
            }
            Op::Fail(p) => {
                if let Some(x) = pick(&w, *p) {
                    c.handle_failure(at, x, Failure::Broken);
                }
            }
            Op::Advance(ms) => {
                now += u64::from(*ms);
                c.handle_timeout(Instant::from_millis(now));
            }
            Op::Retry(p) => {
                if !w.auth.is_empty() {
                    let x = w.auth[*p as usize % w.auth.len()];
                    let _ = c.retry(x);
                }
            }
            Op::GiveUp(p) => {
                if !w.auth.is_empty() {
                    let x = w.auth[*p as usize % w.auth.len()];
                    let _ = c.give_up(x);
                }
            }
            Op::Token(on) => {
                let _ = c.set_bearer_token(on.then_some("tok"));
            }
            Op::Consume(hold) => {
                w.hold = *hold;
                if !hold {
                    c.consume_message();
                }
            }
            Op::Close => c.close(at),
        }
        drain(&mut c, &mut w);
        assert!(c.exchanges_in_use() <= X);
        if let Some(t) = c.poll_timeout() {
            assert!(t.as_millis() <= now + 3_600_000, "deadlines stay near: {t:?} at {now}");
        }
        assert_eq!(c.events_dropped(), 0);
    }
    // Whatever happened, close ends it (answering the DELETE, if one goes).
    w.hold = false;
    c.consume_message();
    c.close(Instant::from_millis(now));
    drain(&mut c, &mut w);
    if !c.is_closed() {
        let x = *w.exchanges.last().unwrap();
        c.handle_response(Instant::from_millis(now), x, 200, []);
        c.handle_end(Instant::from_millis(now), x);
        drain(&mut c, &mut w);
    }
    assert!(c.is_closed());
    assert_eq!(c.exchanges_in_use(), 0);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn auto(ops in proptest::collection::vec(op(), 0..80)) {
        run::<4>(TransportMode::Auto, &ops);
    }

    #[test]
    fn legacy_two_slots(ops in proptest::collection::vec(op(), 0..80)) {
        run::<2>(TransportMode::Legacy, &ops);
    }

    #[test]
    fn streamable_three_slots(ops in proptest::collection::vec(op(), 0..80)) {
        run::<3>(TransportMode::Streamable, &ops);
    }
}
